//! `t3d-unbalanced-block`: a `Begin` without its `End`, an `End` that closes nothing, or an
//! `End` of another kind. UnrealEd stops importing at the first one, often without saying
//! where.

use unreal_syntax::t3d::SyntaxErrorKind;

use super::{RuleMeta, T3dContext};
use crate::{Diagnostic, Severity};

pub static RULE: RuleMeta = RuleMeta {
    code: "t3d-unbalanced-block",
    severity: Severity::Error,
    summary: "`Begin`/`End` lines do not pair up",
};

pub fn check(ctx: &T3dContext<'_>, out: &mut Vec<Diagnostic>) {
    for error in &ctx.parse.errors {
        if matches!(
            error.kind,
            SyntaxErrorKind::UnclosedBlock
                | SyntaxErrorKind::MismatchedEnd
                | SyntaxErrorKind::UnmatchedEnd
                | SyntaxErrorKind::MissingBlockKind
        ) {
            let mut diagnostic = RULE.diagnostic(error.span, error.message.clone());
            for (span, message) in &error.related {
                diagnostic = diagnostic.with_label(*span, message.clone());
            }
            out.push(diagnostic);
        }
    }
}
