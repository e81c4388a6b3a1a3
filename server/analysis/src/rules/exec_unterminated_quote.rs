//! `exec-unterminated-quote`: a value opens a quote that nothing closes. The engine reads to
//! the end of the line, so the keys after it become part of the value.

use unreal_syntax::exec::LineIssue;

use super::RuleMeta;
use crate::exec::ExecContext;
use crate::{Diagnostic, Severity};

pub static RULE: RuleMeta = RuleMeta {
    code: "exec-unterminated-quote",
    severity: Severity::Warning,
    summary: "a quoted value without its closing quote",
};

pub fn check(ctx: &ExecContext<'_>, out: &mut Vec<Diagnostic>) {
    for line in &ctx.file.lines {
        for issue in &line.line.issues {
            if let LineIssue::UnterminatedQuote { value } = *issue {
                out.push(RULE.diagnostic(
                    value,
                    "this quote is never closed: the engine reads the rest of the line as the value",
                ));
            }
        }
    }
}
