//! `t3d-nesting-too-deep`: blocks nested beyond what any real file uses; the parser skips
//! them so that nothing downstream can run out of stack. The limit is unreal-ls's, not the
//! engine's (which recurses into `Begin Object` without a limit and reads other blocks as flat
//! lines), so this is an info: what stands inside is not checked.

use unreal_syntax::t3d::SyntaxErrorKind;

use super::{RuleMeta, T3dContext};
use crate::{Diagnostic, Severity};

pub static RULE: RuleMeta = RuleMeta {
    code: "t3d-nesting-too-deep",
    severity: Severity::Info,
    summary: "blocks nest deeper than 64 levels",
    syntax: true,
    ..RuleMeta::T3D_LOCAL
};

pub fn check(ctx: &T3dContext<'_>, out: &mut Vec<Diagnostic>) {
    for error in ctx.parse.errors.iter().filter(|e| e.kind == SyntaxErrorKind::TooDeep) {
        out.push(RULE.diagnostic(error.span, error.message.clone()));
    }
}
