//! `exec-line-too-long`: the engine reads a directive line into a 512-character buffer; the
//! rest is cut off, and the keys in it are never seen.

use unreal_syntax::exec::{LineIssue, MAX_LINE_CHARS};

use super::RuleMeta;
use crate::exec::ExecContext;
use crate::{Diagnostic, Severity};

pub static RULE: RuleMeta = RuleMeta {
    code: "exec-line-too-long",
    severity: Severity::Warning,
    summary: "a directive line longer than the engine's 512 characters",
};

pub fn check(ctx: &ExecContext<'_>, out: &mut Vec<Diagnostic>) {
    for line in &ctx.file.lines {
        for issue in &line.line.issues {
            if let LineIssue::TooLong { chars, cut } = *issue {
                out.push(RULE.diagnostic(
                    cut,
                    format!(
                        "the line has {chars} characters; the engine reads only the first {MAX_LINE_CHARS} and ignores this part"
                    ),
                ));
            }
        }
    }
}
