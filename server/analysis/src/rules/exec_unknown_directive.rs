//! `exec-unknown-directive`: a `#word` outside comments and strings that UCC does not know
//! (`#exce`), or UE2's `#include` in a workspace that targets UE1. The compiler stops at it
//! with "Unrecognized compiler directive". `#ForceExec` is known from UT v400 on, in UE1 too.

use unreal_syntax::exec::ScanError;

use super::RuleMeta;
use crate::exec::{directive_known, ExecContext};
use crate::{Diagnostic, Severity};

pub static RULE: RuleMeta = RuleMeta {
    code: "exec-unknown-directive",
    severity: Severity::Error,
    summary: "a `#` directive UCC does not know",
    ..RuleMeta::UNREALSCRIPT
};

pub fn check(ctx: &ExecContext<'_>, out: &mut Vec<Diagnostic>) {
    for error in &ctx.file.scan_errors {
        if let ScanError::UnknownDirective { span } = *error {
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
