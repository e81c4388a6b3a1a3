//! `t3d-non-planar-polygon`: a vertex more than 0.1 unit off the polygon's plane
//! (UnrealEd's `THRESH_POINT_ON_PLANE`). The BSP treats the polygon as flat, which opens
//! cracks and lighting seams.

use unreal_syntax::t3d::LineKeyword;

use super::{RuleMeta, T3dContext};
use crate::t3d::geometry::{self, THRESH_POINT_ON_PLANE};
use crate::{Diagnostic, Severity};

pub static RULE: RuleMeta = RuleMeta {
    code: "t3d-non-planar-polygon",
    severity: Severity::Warning,
    summary: "a polygon vertex more than 0.1 unit off the polygon's plane",
    docs: DOCS,
    ..RuleMeta::T3D_LOCAL
};

/// The rule's documentation: its `docs/rules.md` section after the `Severity:` lead.
const DOCS: &str = r"A vertex lies more than 0.1 unit off the polygon's plane (the plane through
the vertices' centroid with the computed normal). The BSP treats the polygon as flat, which
opens cracks and lighting seams. The label marks the vertex farthest off.

Engine basis: import keeps the vertices as written and computes one normal from all of them
(UT2004 `Engine/Src/UnFPoly.cpp:421-437`); no import step checks planarity. The BSP gives the
surface and each node the plane through vertex 0 with that normal (`Editor/Src/UnBsp.cpp:231`,
`:292`), and its point-on-plane tests allow `THRESH_POINT_ON_PLANE`, 0.1 unit
(`Core/Inc/UnMath.h:2101`; e.g. `Engine/Src/UnFPoly.cpp:646-647`). A vertex farther off is not
on its own surface's plane. This rule measures from the plane through the centroid, the engine
from the plane through vertex 0: at the margin the two can disagree.

Fix: triangulate the polygon, or move the vertex onto the plane.";

pub fn check(ctx: &T3dContext<'_>, out: &mut Vec<Diagnostic>) {
    for polygon in ctx.polygons.iter().filter(|p| p.has_geometry() && p.vertices.len() > 3) {
        let Some(normal) = polygon.normal else { continue };
        // The plane through the area-weighted normal and the centroid is the best fit the
        // engine's own normal describes.
        let centroid = polygon.vertices.iter().fold(geometry::Vec3::ZERO, |s, &v| s + v)
            * (1.0 / polygon.vertices.len() as f64);
        let worst = polygon
            .vertices
            .iter()
            .enumerate()
            .map(|(i, &v)| (i, geometry::plane_distance(v, centroid, normal).abs()))
            .max_by(|a, b| a.1.total_cmp(&b.1));
        let Some((index, distance)) = worst else { continue };
        if distance > THRESH_POINT_ON_PLANE {
            let mut diagnostic = RULE.diagnostic(
                polygon.block.begin_span,
                format!(
                    "polygon is not planar: vertex {} is {distance:.3} units off the polygon's plane \
                     (at most {THRESH_POINT_ON_PLANE} allowed); triangulate it or move the vertex",
                    index + 1
                ),
            );
            if let Some(vertex) = polygon.block.vectors(LineKeyword::Vertex).nth(index) {
                diagnostic = diagnostic.with_label(vertex.span, "off the plane");
            }
            out.push(diagnostic);
        }
    }
}
