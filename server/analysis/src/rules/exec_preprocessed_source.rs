//! `exec-preprocessed-source`: a package whose classes hold the lines of a preprocessor UCC
//! does not have (`#ifdef`, `#endif`, `#compileif`): a tool of the project's own runs before
//! the compiler, so those lines, and which branches it keeps, cannot be checked. Said once per
//! package, on the first such line of its first class that has one.

use std::fmt::Write as _;

use super::RuleMeta;
use crate::exec::ExecContext;
use crate::{Diagnostic, Severity};

pub static RULE: RuleMeta = RuleMeta {
    code: "exec-preprocessed-source",
    severity: Severity::Info,
    summary: "the package passes through a preprocessor other than UCC: its lines are not checked",
    docs: DOCS,
    ..RuleMeta::UNREALSCRIPT
};

/// The rule's documentation: its `docs/rules.md` section after the `Severity:` lead.
const DOCS: &str = r#"The package's classes hold conditional lines (`#if`, `#ifdef`, `#ifndef`,
`#elif`, `#else`, `#endif`, `#define`, `#undef`) that Epic's UCC does not know: the compiler
would stop at the first with "Unrecognized compiler directive" (UT v400
`Editor/Src/UnScrCom.cpp:2982-3047`, UT2004 `:3659-3786`). Real projects that ship such
classes run a preprocessor of their own before UCC (Deus Ex Randomizer's tool reads `#ifdef`,
`#compileif`, `#var(prefix)` with definitions from a settings file), so UCC never reads these
lines raw. Their symbols are not known here, so which branches compile is not decided: the
`#exec` lines of every branch are checked, and the tool's own words (`#compileif`, `#var`) are
not raised by `exec-unknown-directive`. One finding per package, on the first such line of its
first class (in path order) that has one; a word within two edits of a UCC directive
(`#exce`) is still an error.

Not raised under `game = "swat4"` or `"tribes-vengeance"`: Irrational's UCC preprocesses
itself, with the symbols Core's `Object.uc` defines (`#define IG_SHARED 1`), and the checks
skip the branches it removes.

```unrealscript
#ifdef injections
class DXRFlags injects Flags;
#else
class DXRFlags extends Flags;
#endif
```

Fix: nothing to fix. To check the branches your build compiles, lint the preprocessor's
output:

```unrealscript fixed
class DXRFlags extends Flags;
```"#;

pub fn check(ctx: &ExecContext<'_>, out: &mut Vec<Diagnostic>) {
    let Some(evidence) = ctx.file.symbols.preprocessor.as_ref().filter(|e| e.conditional()) else {
        return;
    };
    // Only the package's first class with conditional lines says it.
    let first = ctx.table.files.iter().position(|f| f.preprocessed());
    if first.is_some_and(|first| first != ctx.table.current) {
        return;
    }
    let classes = ctx.table.files.iter().filter(|f| f.preprocessed()).count();
    let lines: usize =
        ctx.table.files.iter().filter_map(|f| f.preprocessor.as_ref()).map(|e| e.lines).sum();
    let mut words: Vec<&str> = Vec::new();
    for file in &ctx.table.files {
        for word in file.preprocessor.iter().flat_map(|e| &e.words) {
            if words.len() < 8 && !words.iter().any(|w| w.eq_ignore_ascii_case(word)) {
                words.push(word);
            }
        }
    }
    let whose = ctx.package_phrase();
    let mut message = format!(
        "{whose} passes through a preprocessor UCC does not have: {lines} conditional line{}",
        if lines == 1 { "" } else { "s" }
    );
    if classes > 1 {
        let _ = write!(message, " in {classes} classes");
    }
    let _ = write!(
        message,
        " ({}); a tool of the project's own runs before UCC, so these lines and the branches it keeps are not checked",
        words.iter().map(|w| format!("`{w}`")).collect::<Vec<_>>().join(", ")
    );
    out.push(RULE.diagnostic(evidence.first, message));
}
