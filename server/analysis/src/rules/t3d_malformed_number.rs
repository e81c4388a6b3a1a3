//! `t3d-malformed-number`: a number or vector that does not parse where UnrealEd expects one.
//! UnrealEd reads what it can and silently uses zero for the rest, which moves vertices.

use unreal_syntax::t3d::SyntaxErrorKind;

use super::{RuleMeta, T3dContext};
use crate::{Diagnostic, Severity};

pub static RULE: RuleMeta = RuleMeta {
    code: "t3d-malformed-number",
    severity: Severity::Error,
    summary: "a number or `X,Y,Z` vector does not parse",
};

pub fn check(ctx: &T3dContext<'_>, out: &mut Vec<Diagnostic>) {
    for error in &ctx.parse.errors {
        if matches!(error.kind, SyntaxErrorKind::MalformedNumber | SyntaxErrorKind::MalformedVector)
        {
            out.push(RULE.diagnostic(error.span, error.message.clone()));
        }
    }
}
