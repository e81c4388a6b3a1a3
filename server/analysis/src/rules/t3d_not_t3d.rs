//! `t3d-not-t3d`: a file checked as T3D (by its `.t3d` extension) that holds no `Begin`
//! block at all: empty, binary, or some other text. UnrealEd imports nothing from it.

use unreal_syntax::Span;

use super::{RuleMeta, Scope, T3dContext};
use crate::{Diagnostic, Severity};

pub static RULE: RuleMeta = RuleMeta {
    code: "t3d-not-t3d",
    severity: Severity::Error,
    summary: "the file holds no T3D block",
    scope: Scope::TopLevel,
    syntax: true,
};

/// What a binary file named `.t3d` is told.
pub const BINARY_MESSAGE: &str = "the file is binary, not T3D text: expected a T3D export starting with `Begin Map`, `Begin Actor` or `Begin PolyList`";

pub fn check(ctx: &T3dContext<'_>, out: &mut Vec<Diagnostic>) {
    if !ctx.blocks.is_empty() || !ctx.parse.errors.is_empty() {
        return;
    }
    let first_line = ctx.parse.file.items.first().map(unreal_syntax::t3d::Item::span);
    let message = if ctx.text.trim().is_empty() {
        "the file is empty: expected a T3D export starting with `Begin Map`, `Begin Actor` or `Begin PolyList`"
            .to_owned()
    } else if ctx.text.contains('\0') {
        BINARY_MESSAGE.to_owned()
    } else {
        "no `Begin` block in the file: expected a T3D export starting with `Begin Map`, `Begin Actor` or `Begin PolyList`".to_owned()
    };
    // Point at the first line of text, but never print binary bytes into a code frame.
    let span = match first_line {
        Some(line) if !ctx.text.contains('\0') => {
            Span::new(line.start, line.end.min(line.start + 200))
        }
        _ => Span::empty_at(0),
    };
    out.push(RULE.diagnostic(span, message));
}
