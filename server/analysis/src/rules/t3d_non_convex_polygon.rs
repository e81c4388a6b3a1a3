//! `t3d-non-convex-polygon`: a polygon the engine's own convexity test refuses
//! (`FPoly::RemoveColinears`): some vertex lies 0.25 units or more outside the line of an
//! edge (`THRESH_SPLIT_POLY_WITH_PLANE`). The BSP assumes convex polygons; such a polygon
//! makes UnrealEd split or mis-render the surface.

use unreal_syntax::t3d::LineKeyword;

use super::{RuleMeta, T3dContext};
use crate::t3d::geometry::{EnginePolygon, THRESH_SPLIT};
use crate::{Diagnostic, Severity};

pub static RULE: RuleMeta = RuleMeta {
    code: "t3d-non-convex-polygon",
    severity: Severity::Warning,
    summary: "a polygon that is not convex",
    docs: DOCS,
    ..RuleMeta::T3D_LOCAL
};

/// The rule's documentation: its `docs/rules.md` section after the `Severity:` lead.
const DOCS: &str = r#"A vertex lies 0.25 units or more outside the line of one of the polygon's
edges (the vertex and the edge are labelled), and the polygon is not within 0.25 of its convex
hull. The BSP assumes convex polygons; such a polygon makes UnrealEd split or mis-render the
surface.

Engine basis: the engine's convexity test is `FPoly::RemoveColinears` (UT2004
`Engine/Src/UnFPoly.cpp:487-542`; the editor calls it when it merges coplanar pieces and when
it reads a node back, UT v400 `Editor/Src/UnBsp.cpp:777`, `:1609`): each edge gets a side plane through its end, facing out
(`edge x Normal`), and the polygon is not convex as soon as `FPoly::SplitWithPlane` finds any
vertex `THRESH_SPLIT_POLY_WITH_PLANE` (0.25, `Core/Inc/UnMath.h:2109`) or more in front of one
(UnFPoly.cpp:148-169). Every vertex is measured against every edge, so a slight reflex turn on
a long side is found through the far corner its edge's line misses, and a reflex vertex behind
a short edge through the vertex on the other side. Before that, points the same within
`THRESH_POINTS_ARE_SAME` are merged (`FPoly::Fix`, UnFPoly.cpp:71-92), an edge too short to
have a side plane drops its end, and a vertex whose two side planes agree within
`FLOAT_NORMAL_THRESH` (0.0001) is dropped as colinear.

The test extends each edge's line across the whole polygon, so a reflex turn of a few
hundredths of a unit on a short edge reads as tenths of a unit at a far corner (real Deus Ex
exports: strips whose vertices alternate 0.017 apart, notches of 0.07 read as 0.37). What
follows from the test's answer is harmless: the editor only declines to merge coplanar pieces
(UT v400 `Editor/Src/UnBsp.cpp:776-784`) and ignores it when it reads a node back (`:1609`).
What matters is the shape: splitting counts a point within 0.25 of a plane as on it
(`FPoly::SplitWithPlane`), and a surface is drawn as a fan from its first vertex, so a polygon
that runs around its convex hull in the hull's order with no vertex 0.25 or more inside the
hull is built and drawn as that hull, and is not reported. One that crosses itself, or dents
0.25 or more, is. A polygon off its plane is reported
by `t3d-non-planar-polygon` instead; one within 0.25 of it is judged here. A polygon of more
than 16 vertices (import keeps 16, see `t3d-too-many-vertices`) is judged whole.

```t3d
Begin PolyList
   Begin Polygon
      Vertex   +00000.000000,+00000.000000,+00000.000000
      Vertex   +00128.000000,+00000.000000,+00000.000000
      Vertex   +00032.000000,+00032.000000,+00000.000000
      Vertex   +00000.000000,+00128.000000,+00000.000000
   End Polygon
End PolyList
```

Fix: split the polygon into convex pieces (UnrealEd's "Triangulate" or by hand).

```t3d fixed
Begin PolyList
   Begin Polygon
      Vertex   +00000.000000,+00000.000000,+00000.000000
      Vertex   +00128.000000,+00000.000000,+00000.000000
      Vertex   +00032.000000,+00032.000000,+00000.000000
   End Polygon
   Begin Polygon
      Vertex   +00000.000000,+00000.000000,+00000.000000
      Vertex   +00032.000000,+00032.000000,+00000.000000
      Vertex   +00000.000000,+00128.000000,+00000.000000
   End Polygon
End PolyList
```"#;

pub fn check(ctx: &T3dContext<'_>, out: &mut Vec<Diagnostic>) {
    for polygon in ctx.polygons.iter().filter(|p| p.has_geometry() && p.vertices.len() > 3) {
        // Import drops a polygon without area (`t3d-degenerate-polygon`).
        let Some(engine) = EnginePolygon::import(&polygon.vertices) else { continue };
        // Off its plane: reported by `t3d-non-planar-polygon`, whose fix also fixes this.
        if engine.off_plane().is_some() {
            continue;
        }
        let Some(found) = engine.outside_edge() else { continue };
        // Within the engine's tolerance of its convex hull (a reflex turn of hundredths of a
        // unit, which the test's extended edge line magnifies): built and drawn as the hull.
        if engine.departure_from_convex().is_some_and(|depth| depth < THRESH_SPLIT) {
            continue;
        }
        let (a, b) = (found.edge.0 + 1, found.edge.1 + 1);
        let mut diagnostic = RULE.diagnostic(
            polygon.block.begin_span,
            format!(
                "polygon is not convex: vertex {} lies {:.3} units outside the line of the edge \
                 from vertex {a} to vertex {b} (the engine allows less than 0.25); split it into \
                 convex polygons",
                found.vertex + 1,
                found.distance
            ),
        );
        let lines: Vec<_> = polygon.block.vectors(LineKeyword::Vertex).collect();
        if let Some(vertex) = lines.get(found.vertex) {
            diagnostic = diagnostic.with_label(vertex.span, "outside the edge's line");
        }
        for end in [found.edge.0, found.edge.1] {
            if let Some(vertex) = lines.get(end) {
                diagnostic = diagnostic.with_label(vertex.span, format!("edge {a}-{b}"));
            }
        }
        out.push(diagnostic);
    }
}
