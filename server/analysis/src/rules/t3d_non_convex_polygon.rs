//! `t3d-non-convex-polygon`: BSP building assumes convex polygons; a reflex vertex makes
//! UnrealEd split or mis-render the surface. A vertex counts as reflex only when the outline
//! turns outward by more than the engine's own tolerance, 0.25 units
//! (`THRESH_SPLIT_POLY_WITH_PLANE`, Core/Inc/UnMath.h): exports carry rounding a few tenths
//! of a unit wide that the engine treats as straight.

use unreal_syntax::t3d::LineKeyword;

use super::{RuleMeta, T3dContext};
use crate::t3d::geometry::{self, THRESH_POINT_ON_PLANE};
use crate::{Diagnostic, Severity};

pub static RULE: RuleMeta = RuleMeta {
    code: "t3d-non-convex-polygon",
    severity: Severity::Warning,
    summary: "a polygon that is not convex",
    docs: DOCS,
    ..RuleMeta::T3D_LOCAL
};

/// The rule's documentation: its `docs/rules.md` section after the `Severity:` lead.
const DOCS: &str = r#"The outline turns outward by more than 0.25 units at a vertex (labelled),
the engine's own tolerance (`THRESH_SPLIT_POLY_WITH_PLANE`, Core/Inc/UnMath.h): exports carry
rounding of a few tenths of a unit that the engine treats as straight. BSP building assumes
convex polygons; a reflex vertex makes UnrealEd split or mis-render the surface. Judged only
on planar polygons.

Fix: split the polygon into convex pieces (UnrealEd's "Triangulate" or by hand)."#;

pub fn check(ctx: &T3dContext<'_>, out: &mut Vec<Diagnostic>) {
    for polygon in ctx.polygons.iter().filter(|p| p.has_geometry() && p.vertices.len() > 3) {
        let Some(normal) = polygon.normal else { continue };
        // Non-planar polygons are reported by their own rule; convexity is judged on planar ones.
        let planar = polygon.vertices.iter().all(|&v| {
            geometry::plane_distance(v, polygon.vertices[0], normal).abs() <= THRESH_POINT_ON_PLANE
        });
        if !planar {
            continue;
        }
        if let Some((index, distance)) = geometry::first_reflex_vertex(&polygon.vertices, normal) {
            let mut diagnostic = RULE.diagnostic(
                polygon.block.begin_span,
                format!(
                    "polygon is not convex: the outline turns outward at vertex {} by {distance:.3} units; \
                     split it into convex polygons",
                    index + 1
                ),
            );
            if let Some(vertex) = polygon.block.vectors(LineKeyword::Vertex).nth(index) {
                diagnostic = diagnostic.with_label(vertex.span, "reflex vertex");
            }
            out.push(diagnostic);
        }
    }
}
