//! `t3d-origin-off-plane`: the polygon's `Origin` (its texture origin) is off its plane and the
//! texture axes lean out of the plane, so the offset shifts the texture. An origin off the
//! plane with both axes in the plane (UnrealEd keeps the origin when a brush moves: a shipped
//! map has 1,700 of them) changes no texture coordinate: no finding.

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
const DOCS: &str = r"The texture `Origin` is off the polygon's plane and a texture axis leans out
of the plane, so the offset shifts the texture by at least half a texel. An origin off the
plane with both axes in the plane changes no texture coordinate and is not reported: that is
common in real maps (UnrealEd keeps the texture origin when a brush moves; DM-Deck17 has 1,700
such polygons). A hint: the map shows what its author saw in the editor.

Engine basis: `Origin` becomes the polygon's texture base (UT2004
`Editor/Src/UnEdFact.cpp:1620-1624`; without the line the base is vertex 0, 1643-1644) and is
stored as the surface's `pBase` (`Editor/Src/UnBsp.cpp:218`); the texture coordinates of the
BSP's vertices come from that base and the two texture axes
(`Engine/Src/UnModel.cpp:1034-1040`): a coordinate is `(P - Base) . Axis`, so moving the base by
`d` along the normal shifts it by `d * (Normal . Axis)`, nothing when the axis is in the plane.

Fix: none needed; to silence it, project the origin onto the plane.";

/// The smallest shift of the texture, in texels, that the rule reports: less is not seen.
const VISIBLE_SHIFT: f64 = 0.5;

pub fn check(ctx: &T3dContext<'_>, out: &mut Vec<Diagnostic>) {
    for polygon in ctx.polygons.iter().filter(|p| p.has_geometry()) {
        let Some(normal) = polygon.normal else { continue };
        let Some(origin) = polygon.block.vector(LineKeyword::Origin) else { continue };
        let distance =
            geometry::plane_distance(Vec3::from_array(origin.value), polygon.vertices[0], normal);
        if distance.abs() <= THRESH_POINT_ON_PLANE {
            continue;
        }
        // A texel coordinate is `(P - Origin) . axis`: moving the origin by `distance` along
        // the normal shifts it by `distance * (normal . axis)`, nothing when the axis lies in
        // the plane (the usual case: UnrealEd keeps the origin when a brush moves).
        let axis = |keyword| {
            polygon
                .block
                .vector(keyword)
                .map_or(Vec3::from_array([0.0; 3]), |v| Vec3::from_array(v.value))
        };
        let shift_u = distance * normal.dot(axis(LineKeyword::TextureU)) + 0.0;
        let shift_v = distance * normal.dot(axis(LineKeyword::TextureV)) + 0.0;
        if shift_u.abs() < VISIBLE_SHIFT && shift_v.abs() < VISIBLE_SHIFT {
            continue;
        }
        out.push(RULE.diagnostic(
            origin.value_span,
            format!(
                "texture origin is {:.3} units off the polygon's plane, and the texture axes lean out of the plane, so the texture is drawn shifted by {shift_u:.1} texels in U and {shift_v:.1} in V from the origin's place on the plane",
                distance.abs()
            ),
        ));
    }
}
