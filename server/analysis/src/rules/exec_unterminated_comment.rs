//! `exec-unterminated-comment`: a `/*` without `*/` (or a `cpptext {` block without its `}`).
//! The rest of the file is a comment to UCC, so every directive after it is silently lost,
//! and the compile fails at the end of the file.

use unreal_syntax::exec::ScanError;

use super::RuleMeta;
use crate::exec::ExecContext;
use crate::{Diagnostic, Severity};

pub static RULE: RuleMeta = RuleMeta {
    code: "exec-unterminated-comment",
    severity: Severity::Error,
    summary: "a block comment or C++ block is never closed, hiding everything after it",
    docs: DOCS,
    ..RuleMeta::UNREALSCRIPT
};

/// The rule's documentation: its `docs/rules.md` section after the `Severity:` lead.
const DOCS: &str = r#"A `/*` without `*/` (or a `cpptext {` without `}`): the rest of the file is a
comment, every directive after it is lost and the compile fails at the end of the file.

Engine basis: the compiler's character reader counts `/*` and `*/`, nested ones included, and
throws "End of script encountered inside comment" when the text ends inside one (UT2004
`Editor/Src/UnScrCom.cpp:175-209`, UT v400 `Editor/Src/UnScrCom.cpp:161-195`); the compile
fails. After a directive's command has been read, the rest of its line is skipped with comment
handling on (UnScrCom.cpp:3781-3784; UT v400 3043-3046), so an open `/*` on a directive line
opens a comment as well. `cpptext` (UE2 only) is cut out by the class importer
(`Editor/Src/UnEdFact.cpp:240-259`): the next line must begin with `{` (otherwise a fatal
error) and the block ends at the first line that begins with `}`; without one, the rest of the
file, directives and defaultproperties included, is kept as C++ text and never compiled. A
`cppstruct` block is brace-counted by the compiler and fails with "Missing '}'" when unclosed
(UnScrCom.cpp:1557-1575).

```unrealscript
/* disabled for now
#exec AUDIO IMPORT FILE=Sounds\Hit.wav
```

Fix: close the comment.

```unrealscript fixed
/* disabled for now
#exec AUDIO IMPORT FILE=Sounds\Hit.wav
*/
```"#;

pub fn check(ctx: &ExecContext<'_>, out: &mut Vec<Diagnostic>) {
    for error in &ctx.file.scan_errors {
        match *error {
            ScanError::UnterminatedBlockComment { open } => out.push(RULE.diagnostic(
                open,
                "`/*` is never closed: the rest of the file, directives included, is a comment",
            )),
            ScanError::UnterminatedCppBlock { keyword } => out.push(RULE.diagnostic(
                keyword,
                format!("`{}` block is never closed with `}}`", keyword.text(ctx.text)),
            )),
            ScanError::UnknownDirective { .. } => {}
        }
    }
}
