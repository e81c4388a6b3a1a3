//! `t3d-origin-off-plane`: the polygon's `Origin` (its texture origin) is not on its plane.
//! Common and harmless in real maps (UnrealEd keeps the texture origin when a brush is
//! moved or scaled), so this is only a hint for people generating T3D by script.

use unreal_syntax::t3d::LineKeyword;

use super::{RuleMeta, T3dContext};
use crate::t3d::geometry::{self, Vec3, THRESH_POINT_ON_PLANE};
use crate::{Diagnostic, Severity};

pub static RULE: RuleMeta = RuleMeta {
    code: "t3d-origin-off-plane",
    severity: Severity::Hint,
    summary: "the texture `Origin` is not on the polygon's plane",
    ..RuleMeta::T3D_LOCAL
};

pub fn check(ctx: &T3dContext<'_>, out: &mut Vec<Diagnostic>) {
    for polygon in ctx.polygons.iter().filter(|p| p.has_geometry()) {
        let Some(normal) = polygon.normal else { continue };
        let Some(origin) = polygon.block.vector(LineKeyword::Origin) else { continue };
        let distance =
            geometry::plane_distance(Vec3::from_array(origin.value), polygon.vertices[0], normal);
        if distance.abs() > THRESH_POINT_ON_PLANE {
            out.push(RULE.diagnostic(
                origin.value_span,
                format!("texture origin is {:.3} units off the polygon's plane", distance.abs()),
            ));
        }
    }
}
