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
    docs: DOCS,
    ..RuleMeta::T3D_LOCAL
};

/// The rule's documentation: its `docs/rules.md` section after the `Severity:` lead.
const DOCS: &str = r"The texture `Origin` is not on the polygon's plane. This is common and
harmless in real maps (UnrealEd keeps the texture origin when a brush moves; one UT2004 map
has 1,700 such polygons), so it is only a hint, useful for scripts that generate T3D.

Engine basis: `Origin` becomes the polygon's texture base (UT2004
`Editor/Src/UnEdFact.cpp:1620-1624`; without the line the base is vertex 0, 1643-1644) and is
stored as the surface's `pBase` (`Editor/Src/UnBsp.cpp:218`); the texture coordinates of the
BSP's vertices come from that base and the two texture axes
(`Engine/Src/UnModel.cpp:1034-1040`). With both axes in the polygon's plane, moving the base
along the normal changes no coordinate, which is why this is only a hint.

Fix: none needed; to silence it, project the origin onto the plane.";

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
