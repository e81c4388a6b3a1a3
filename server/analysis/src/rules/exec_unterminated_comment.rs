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
    ..RuleMeta::UNREALSCRIPT
};

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
