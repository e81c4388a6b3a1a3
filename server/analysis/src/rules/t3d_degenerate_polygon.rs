//! `t3d-degenerate-polygon`: vertices that are all on one line (or repeat one point) enclose
//! no area; the engine removes such polygons and the normal is undefined.

use super::{RuleMeta, T3dContext};
use crate::{Diagnostic, Severity};

pub static RULE: RuleMeta = RuleMeta {
    code: "t3d-degenerate-polygon",
    severity: Severity::Warning,
    summary: "a polygon whose vertices are collinear or enclose no area",
    ..RuleMeta::T3D_LOCAL
};

/// Twice the area below which a polygon has none: far below any brush UnrealEd's grid makes.
const MIN_DOUBLE_AREA: f64 = 1e-3;

pub fn check(ctx: &T3dContext<'_>, out: &mut Vec<Diagnostic>) {
    for polygon in ctx.polygons.iter().filter(|p| p.has_geometry()) {
        let double_area = polygon.area_vector.length();
        if double_area < MIN_DOUBLE_AREA {
            out.push(RULE.diagnostic(
                polygon.block.begin_span,
                format!(
                    "polygon has no area: its {} vertices are collinear or coincide",
                    polygon.vertices.len()
                ),
            ));
        }
    }
}
