//! `exec-directive-not-at-line-start`: code stands before the `#` on the same line. UCC runs
//! a directive only when its line starts with it, so this one is probably never run.

use super::RuleMeta;
use crate::exec::ExecContext;
use crate::{Diagnostic, Severity};

pub static RULE: RuleMeta = RuleMeta {
    code: "exec-directive-not-at-line-start",
    severity: Severity::Warning,
    summary: "a directive after other text on its line",
};

pub fn check(ctx: &ExecContext<'_>, out: &mut Vec<Diagnostic>) {
    for line in ctx.file.lines.iter().filter(|l| !l.directive.at_line_start) {
        out.push(RULE.diagnostic(
            line.directive.hash_span,
            format!(
                "`{}` is not at the start of its line; UCC runs directives only at a line start",
                line.directive.hash_span.text(ctx.text)
            ),
        ));
    }
}
