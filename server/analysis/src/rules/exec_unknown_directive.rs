//! `exec-unknown-directive`: a `#word` outside comments and strings that UCC does not know
//! (`#exce`), or UE2's `#include` in a workspace that targets UE1. The compiler stops at it
//! with "Unrecognized compiler directive". `#ForceExec` is known from UT v400 on, in UE1 too.
//! The lines of a preprocessor are not its business: SWAT 4's UCC reads its own `#if` lines,
//! and a package whose classes pass through a tool of the project's own is told once by
//! `exec-preprocessed-source`; only a near miss of a UCC directive stays an error there.

use unreal_syntax::exec::ScanError;

use super::RuleMeta;
use crate::exec::preprocessor::{directive_word, near_miss};
use crate::exec::{directive_known, ExecContext};
use crate::{Diagnostic, Severity};

pub static RULE: RuleMeta = RuleMeta {
    code: "exec-unknown-directive",
    severity: Severity::Error,
    summary: "a `#` directive UCC does not know",
    docs: DOCS,
    ..RuleMeta::UNREALSCRIPT
};

/// The rule's documentation: its `docs/rules.md` section after the `Severity:` lead.
const DOCS: &str = r#"A `#word` that UCC does not know (`#exce`), or `#include` (UE2 only) in a UE1
workspace. The compiler stops with "Unrecognized compiler directive". `#ForceExec` is known
from UT v400 on (only Unreal v1.200 lacks it), so it is accepted in UE1 workspaces.

Engine basis: the script compiler takes `#` as the start of a declaration (UT2004
`Editor/Src/UnScrCom.cpp:5662-5668`) and `CompileDirective` (UnScrCom.cpp:3659-3786) knows
`Error`, `Call`, `AlwaysCall`, `Exec`, `AlwaysExec`, `ForceExec` and `include`, compared
ignoring case; any other word throws "Unrecognized compiler directive" (3778) and the compile
fails. UT v400 (`Editor/Src/UnScrCom.cpp:2982-3047`) has the same list without `include` but
with `ForceExec` (3021-3023); Unreal v1.200 (`Editor/Src/UnScrCom.cpp:2952-2969`) has neither
`ForceExec` nor `include`; UT2003 v2107 has both (3616-3634). The word is read as an identifier
after optional blanks, so `# exec` is a directive too.

<!-- example
//- /Game/MyMod/Textures/Skin.pcx = pcx 64x64
-->
```unrealscript
#exce TEXTURE IMPORT NAME=Skin FILE=Textures\Skin.pcx
```

Preprocessors are not UCC's unknown directives. SWAT 4's and Tribes: Vengeance's UCC
preprocesses (`#define`, `#if`, `#ifdef`, `#elif`, `#else`, `#endif`: Core's `Object.uc`
defines the build's symbols), so under `game = "swat4"` or `"tribes-vengeance"` those lines are
the compiler's own and only other words are checked. A package whose classes use such lines
under any other game passes through a preprocessor of the project's own before UCC (Deus Ex
Randomizer's `#ifdef`, `#compileif`, `#var(prefix)`): `exec-preprocessed-source` says so once,
and its words are not raised here; a word within two edits of a UCC directive (`#exce`,
`#ForceExe`) is a typo in any tree and stays an error.

Fix: spell the directive (`#exec`).

```unrealscript fixed
#exec TEXTURE IMPORT NAME=Skin FILE=Textures\Skin.pcx
```"#;

pub fn check(ctx: &ExecContext<'_>, out: &mut Vec<Diagnostic>) {
    // The package's classes pass through a preprocessor of the project's own: its words are
    // told once (`exec-preprocessed-source`), typos of UCC's own directives still here.
    let preprocessed = ctx.table.files.iter().any(|f| f.preprocessed());
    for error in &ctx.file.scan_errors {
        if let ScanError::UnknownDirective { span } = *error {
            if preprocessed && !near_miss(directive_word(span.text(ctx.text))) {
                continue;
            }
            out.push(RULE.diagnostic(
                span,
                format!(
                    "unknown directive `{}`: UCC knows #exec, #AlwaysExec, #call, #AlwaysCall, #ForceExec, #error (and in UE2 #include)",
                    span.text(ctx.text)
                ),
            ));
        }
    }
    for line in &ctx.file.lines {
        let kind = line.directive.kind;
        if !directive_known(kind, ctx.generation) {
            out.push(RULE.diagnostic(
                line.directive.hash_span,
                format!("`#{}` exists only in UE2; this workspace targets UE1", kind.name()),
            ));
        }
    }
}
