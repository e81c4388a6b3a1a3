//! `exec-shadowed-key`: the engine never reads this key, because its search for `KEY=` stops
//! at an earlier match: the same key written twice (the first wins), or the key's text inside
//! another value (`GROUP="NAME=x" NAME=y` reads `NAME=x`).

use super::RuleMeta;
use crate::exec::keys::KeyVerdict;
use crate::exec::ExecContext;
use crate::{Diagnostic, Severity};

pub static RULE: RuleMeta = RuleMeta {
    code: "exec-shadowed-key",
    severity: Severity::Warning,
    summary: "a key the engine never reads because it finds the key earlier on the line",
};

pub fn check(ctx: &ExecContext<'_>, out: &mut Vec<Diagnostic>) {
    for (line, m) in ctx.commands() {
        if m.spec.ignored.is_some() {
            continue;
        }
        for (arg, verdict) in line.verdicts(ctx.text, ctx.generation) {
            let KeyVerdict::Shadowed { at, inside_other } = verdict else { continue };
            let name = arg.name_span().text(ctx.text);
            let (message, label) = if *inside_other {
                (
                    format!("the engine never reads this `{name}=`: it finds `{name}=` earlier, inside another value"),
                    "the engine reads the key here",
                )
            } else {
                (
                    format!("`{name}=` is written twice; the engine reads only the first"),
                    "the engine reads this one",
                )
            };
            out.push(RULE.diagnostic(arg.span(), message).with_label(*at, label));
        }
    }
}
