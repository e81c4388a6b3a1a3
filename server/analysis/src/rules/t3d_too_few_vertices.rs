//! `t3d-too-few-vertices`: a polygon with fewer than three vertices has no surface.
//! `FPoly::Finalize` refuses it ("Not enough vertices") and the import goes on without it
//! (`UnEdFact.cpp`, `UnFPoly.cpp`): a warning, as for `t3d-degenerate-polygon`.

use super::{RuleMeta, T3dContext};
use crate::{Diagnostic, Severity};

pub static RULE: RuleMeta = RuleMeta {
    code: "t3d-too-few-vertices",
    severity: Severity::Warning,
    summary: "a polygon with fewer than 3 vertices",
    ..RuleMeta::T3D_LOCAL
};

pub fn check(ctx: &T3dContext<'_>, out: &mut Vec<Diagnostic>) {
    for polygon in ctx.polygons.iter().filter(|p| !p.malformed && p.vertices.len() < 3) {
        out.push(RULE.diagnostic(
            polygon.block.begin_span,
            match polygon.vertices.len() {
                1 => "polygon has 1 vertex; a polygon needs at least 3".to_owned(),
                n => format!("polygon has {n} vertices; a polygon needs at least 3"),
            },
        ));
    }
}
