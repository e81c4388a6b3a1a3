//! `exec-value-cut-by-comment`: `//` or `/*` inside a value changes what the engine reads. The
//! engine ends the line at either, even inside quotes (UCC strips comments before the line
//! reaches `SafeExec`), so the value, and every key after it, is cut there.
//!
//! Reported only where the cut changes the evident value: inside quotes (the closing quote
//! stands after the comment), or in a path or name that goes on right after the marker
//! (`FILE=Textures//Skin.pcx`). A number, switch or word followed by a comment
//! (`RATE=15//FIXME`) is read as written: nothing to report.

use unreal_engine::exec::KeyKind;
use unreal_syntax::exec::{Arg, LineIssue, Quoting};

use super::RuleMeta;
use crate::exec::ExecContext;
use crate::{Diagnostic, Severity};

pub static RULE: RuleMeta = RuleMeta {
    code: "exec-value-cut-by-comment",
    severity: Severity::Warning,
    summary: "`//` or `/*` inside a quoted value, path or name ends the line there",
    docs: DOCS,
    ..RuleMeta::UNREALSCRIPT
};

/// The rule's documentation: its `docs/rules.md` section after the `Severity:` lead.
const DOCS: &str = r#"`//` or `/*` inside a value changes what the engine reads: UCC ends the
directive line at either, even inside quotes, so the value is cut and the keys after it are
lost. Reported where the cut changes the evident value: inside quotes (the closing quote
stands after the marker), or in a path or name that goes on right after it. A number, switch or
word followed by a comment (`RATE=15//FIXME`, as Epic writes) is read as written and is not
reported, nor is a value followed by `// ` and a blank.

<!-- example
//- /Game/MyMod/Sounds/Hit.wav = wav
//- /Game/MyMod/Textures/Skin.pcx = pcx 64x64
-->
```unrealscript
#exec AUDIO IMPORT FILE="Sounds//Hit.wav" NAME=Hit
#exec TEXTURE IMPORT NAME=Skin FILE=Textures//Skin.pcx
```

Fix: avoid `//` and `/*` in values (write paths with one `\` or `/`).

```unrealscript fixed
#exec AUDIO IMPORT FILE="Sounds\Hit.wav" NAME=Hit
#exec TEXTURE IMPORT NAME=Skin FILE=Textures/Skin.pcx
```"#;

pub fn check(ctx: &ExecContext<'_>, out: &mut Vec<Diagnostic>) {
    for line in &ctx.file.lines {
        for issue in &line.line.issues {
            let LineIssue::ValueCutByComment { value, comment } = *issue else { continue };
            let arg = line.line.args.iter().find_map(|arg| match *arg {
                Arg::Key { key, value: v } if v.span == value => Some((key, v)),
                _ => None,
            });
            let quoted = arg.is_some_and(|(_, v)| v.quoting != Quoting::Unquoted);
            if !quoted {
                // What the key holds, when the command table knows it.
                let kind = arg.zip(line.command).and_then(|((key, _), m)| {
                    m.spec.key(key.text(ctx.text), ctx.generation).map(|k| k.kind)
                });
                let complete_on_its_own = matches!(
                    kind,
                    Some(
                        KeyKind::Int
                            | KeyKind::Float
                            | KeyKind::Bool
                            | KeyKind::Enum(_)
                            | KeyKind::Switch
                    )
                );
                // The text right after the marker: a blank (or nothing) says "comment".
                let after = ctx.text.get(comment.start as usize + 2..).unwrap_or("");
                let continues = after.chars().next().is_some_and(|c| !c.is_whitespace());
                if complete_on_its_own || !continues {
                    continue;
                }
            }
            let marker = comment.text(ctx.text).get(..2).unwrap_or("//");
            let why = if quoted {
                "ends the line even inside quotes"
            } else {
                "ends the line even inside a path or name"
            };
            out.push(
                RULE.diagnostic(
                    value,
                    format!(
                        "the engine reads this value as `{}`: `{marker}` {why}",
                        value.text(ctx.text)
                    ),
                )
                .with_label(comment, "the engine stops reading here"),
            );
        }
    }
}
