//! `exec-ignored-key`: a key real code writes but the engine does not read, such as `X=`,
//! `Y=`, `Z=` on `MESH IMPORT` (use `MESH ORIGIN` and `MESHMAP SCALE`), `PALETTE=` on
//! `TEXTURE IMPORT`, or `YAW=` on `MESHMAP SCALE`. The author expects an effect that never
//! happens.

use super::RuleMeta;
use crate::exec::keys::KeyVerdict;
use crate::exec::ExecContext;
use crate::{Diagnostic, Fix, Severity, TextEdit};

pub static RULE: RuleMeta = RuleMeta {
    code: "exec-ignored-key",
    severity: Severity::Warning,
    summary: "a key the engine does not read on this command",
};

pub fn check(ctx: &ExecContext<'_>, out: &mut Vec<Diagnostic>) {
    for (line, m) in ctx.commands() {
        if m.spec.ignored.is_some() {
            continue;
        }
        for (arg, verdict) in line.verdicts(ctx.text, ctx.generation) {
            let KeyVerdict::Ignored { reason } = verdict else { continue };
            let span = arg.span();
            // Remove the token and the blanks before it.
            let before = ctx.text.get(..span.start as usize).unwrap_or("");
            let start = before.trim_end_matches([' ', '\t']).len();
            out.push(
                RULE.diagnostic(
                    span,
                    format!(
                        "{} ignores `{}=`: {reason}",
                        m.spec.display_name(),
                        arg.name_span().text(ctx.text)
                    ),
                )
                .with_fix(Fix {
                    title: "Remove the key".to_owned(),
                    edits: vec![TextEdit {
                        span: unreal_syntax::Span::from_range(start..span.end as usize),
                        new_text: String::new(),
                    }],
                    safe: true,
                }),
            );
        }
    }
}
