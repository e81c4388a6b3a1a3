//! `exec-value-cut-by-comment`: `//` or `/*` inside a value. The engine ends the line at
//! either, even inside quotes, so the value (and every key after it) is cut.

use unreal_syntax::exec::LineIssue;

use super::RuleMeta;
use crate::exec::ExecContext;
use crate::{Diagnostic, Severity};

pub static RULE: RuleMeta = RuleMeta {
    code: "exec-value-cut-by-comment",
    severity: Severity::Warning,
    summary: "`//` or `/*` inside a value ends the line there, even inside quotes",
};

pub fn check(ctx: &ExecContext<'_>, out: &mut Vec<Diagnostic>) {
    for line in &ctx.file.lines {
        for issue in &line.line.issues {
            if let LineIssue::ValueCutByComment { value, comment } = *issue {
                let marker = comment.text(ctx.text).get(..2).unwrap_or("//");
                out.push(
                    RULE.diagnostic(
                        value,
                        format!(
                            "the engine reads this value as `{}`: `{marker}` ends the line even inside quotes",
                            value.text(ctx.text)
                        ),
                    )
                    .with_label(comment, "the engine stops reading here"),
                );
            }
        }
    }
}
