//! `exec-shadowed-key`: the engine never reads this key, because its search for `KEY=` stops
//! at an earlier match: the same key written twice (the first wins), or the key's text inside
//! another value (`GROUP="NAME=x" NAME=y` reads `NAME=x`).
//!
//! A key written again is one finding per key, however many times, with the other uses as
//! labels. Written again with the same value, it changes nothing: a hint tagged unnecessary;
//! with another value (`LODSET=2 ... LODSET=3`), the later value is lost: a warning.

use super::RuleMeta;
use crate::exec::keys::KeyVerdict;
use crate::exec::ExecContext;
use crate::{Diagnostic, Severity};

pub static RULE: RuleMeta = RuleMeta {
    code: "exec-shadowed-key",
    severity: Severity::Warning,
    summary: "a key the engine never reads because it finds the key earlier on the line",
    docs: DOCS,
    ..RuleMeta::UNREALSCRIPT
};

/// The rule's documentation: its `docs/rules.md` section after the `Severity:` lead.
const DOCS: &str = r"The engine never reads this key: its search stops at an earlier match,
either the same key written again (the first wins) or the key's text inside another value. A
key written again is one finding however many times it is repeated, the other uses labelled.
Written again with the same value it changes nothing: a hint tagged unnecessary; with another
value (`LODSET=2 ... LODSET=3`) the later value is lost: a warning.

```unrealscript
#exec TEXTURE IMPORT NAME=Old FILE=Textures\A.pcx NAME=New
```

Fix: write each key once, and keep key-like text out of values.";

pub fn check(ctx: &ExecContext<'_>, out: &mut Vec<Diagnostic>) {
    for (line, m) in ctx.commands() {
        if m.spec.ignored.is_some() {
            continue;
        }
        // Repeats of one key, by where the engine reads it: (read at, the repeats).
        let mut repeats: Vec<(unreal_syntax::Span, Vec<unreal_syntax::exec::Arg>)> = Vec::new();
        for (arg, verdict) in line.verdicts(ctx.text, ctx.generation) {
            let KeyVerdict::Shadowed { at, inside_other } = verdict else { continue };
            let name = arg.name_span().text(ctx.text);
            if *inside_other {
                out.push(
                    RULE.diagnostic(
                        arg.span(),
                        format!("the engine never reads this `{name}=`: it finds `{name}=` earlier, inside another value"),
                    )
                    .with_label(*at, "the engine reads the key here"),
                );
                continue;
            }
            match repeats.iter_mut().find(|(first, _)| first == at) {
                Some((_, args)) => args.push(*arg),
                None => repeats.push((*at, vec![*arg])),
            }
        }
        for (at, args) in repeats {
            let Some(first) = args.first() else { continue };
            let name = first.name_span().text(ctx.text);
            let read = line.value(ctx.text, name).map(|v| v.text).unwrap_or_default();
            let same = args.iter().all(|a| {
                a.value().is_some_and(|v| v.text(ctx.text).trim().eq_ignore_ascii_case(read.trim()))
            });
            let times = match args.len() + 1 {
                2 => "twice".to_owned(),
                n => format!("{n} times"),
            };
            let mut diagnostic = if same {
                RULE.diagnostic(
                    first.span(),
                    format!("`{name}=` is written {times} with the same value `{read}`; the engine reads the first, the rest change nothing"),
                )
                .unnecessary()
            } else {
                RULE.diagnostic(
                    first.span(),
                    format!("`{name}=` is written {times} with different values; the engine reads only the first, `{name}={read}`, and the rest are lost"),
                )
            };
            diagnostic = diagnostic.with_label(at, "the engine reads this one");
            // A key written thousands of times (generated or hostile text) shows a few uses.
            for other in args[1..].iter().take(super::MAX_LABELS) {
                diagnostic = diagnostic.with_label(other.span(), "written again here");
            }
            out.push(diagnostic);
        }
    }
}
