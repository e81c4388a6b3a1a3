//! `exec-unterminated-quote`: a value opens a quote that nothing closes and other keys follow
//! it. `Parse` (`Core/Src/UnMisc.cpp`) copies a quoted value up to the next `"` or the end of
//! the command, so the value swallows the keys after it (each key is still searched for on
//! its own, so they are read as well). An unclosed value that is the last thing on the line
//! reads exactly the text after the quote (trailing blanks are trimmed): nothing to report.

use unreal_syntax::exec::LineIssue;

use super::RuleMeta;
use crate::exec::ExecContext;
use crate::{Diagnostic, Severity};

pub static RULE: RuleMeta = RuleMeta {
    code: "exec-unterminated-quote",
    severity: Severity::Warning,
    summary: "a quoted value without its closing quote, swallowing the keys after it",
    docs: DOCS,
    ..RuleMeta::UNREALSCRIPT
};

/// The rule's documentation: its `docs/rules.md` section after the `Severity:` lead.
const DOCS: &str = r#"A value opens a quote that nothing closes and other keys follow it; the
engine reads the rest of the line as the value, swallowing the keys after it (they are still
read on their own too). An unclosed value that ends the line reads exactly the text after the
quote: no finding.

Engine basis: a value that starts with `"` is copied up to the next `"` or the end of the
command (`Parse`, UT2004 `Core/Src/UnMisc.cpp:814-845`), and the command ends at the line end
or the first `//` or `/*`, with trailing blanks removed (`GetRawToken`,
`Editor/Src/UnScrCom.cpp:975-1000`). Each key is searched for on its own in the whole command
(`appStrfind`, UnMisc.cpp:827), so the keys after an open quote are still read, while the
quoted value also contains them. When the unclosed value is the last thing on the line, the
engine reads exactly the text after the quote.

<!-- example
//- /Game/MyMod/Sounds/Hit.wav = wav
-->
```unrealscript
#exec AUDIO IMPORT FILE="Sounds\Hit.wav NAME=Hit
```

Fix: close the quote.

```unrealscript fixed
#exec AUDIO IMPORT FILE="Sounds\Hit.wav" NAME=Hit
```"#;

pub fn check(ctx: &ExecContext<'_>, out: &mut Vec<Diagnostic>) {
    for line in &ctx.file.lines {
        for issue in &line.line.issues {
            let LineIssue::UnterminatedQuote { value } = *issue else { continue };
            let read = value.text(ctx.text).trim_start_matches('"').trim_end_matches([' ', '\t']);
            if !swallows_a_key(read) {
                continue;
            }
            out.push(RULE.diagnostic(
                value,
                format!(
                    "this quote is never closed: the engine reads `{read}` as the value, keys included"
                ),
            ));
        }
    }
}

/// True when `value` holds a `KEY=` after a blank: text the writer meant as another key.
fn swallows_a_key(value: &str) -> bool {
    value.split([' ', '\t']).skip(1).any(|word| {
        word.split_once('=').is_some_and(|(key, _)| {
            !key.is_empty() && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        })
    })
}
