//! `t3d-non-planar-polygon`: a vertex 0.1 unit or more off the plane the BSP gives the
//! polygon (through its first vertex; UnrealEd's `THRESH_POINT_ON_PLANE`). The BSP treats
//! the polygon as flat, which opens cracks and lighting seams.

use unreal_syntax::t3d::LineKeyword;

use super::{RuleMeta, T3dContext};
use crate::t3d::geometry::{EnginePolygon, THRESH_POINT_ON_PLANE};
use crate::{Diagnostic, Severity};

pub static RULE: RuleMeta = RuleMeta {
    code: "t3d-non-planar-polygon",
    severity: Severity::Warning,
    summary: "a polygon vertex 0.1 unit or more off the polygon's plane",
    docs: DOCS,
    ..RuleMeta::T3D_LOCAL
};

/// The rule's documentation: its `docs/rules.md` section after the `Severity:` lead.
const DOCS: &str = r"A vertex lies 0.1 unit or more off the plane the BSP gives the polygon:
the plane through its first vertex with the computed normal. The BSP treats the polygon as
flat, which opens cracks and lighting seams. The label marks the vertex farthest off.

Engine basis: import keeps the vertices as written, merging points the same within
`THRESH_POINTS_ARE_SAME` (`FPoly::Fix`, UT2004 `Engine/Src/UnFPoly.cpp:71-92`), and computes
one normal from all of them (UnFPoly.cpp:421-437); no import step checks planarity. The BSP
gives the surface and each node the plane through vertex 0 with that normal (UT2004
`Editor/Src/UnBsp.cpp:231`, `:292`; UT v400 moves the polygon's base onto that plane before
the CSG, `Editor/Src/UnBsp.cpp:1822-1824`, and builds the node's plane from it, `:289`). A
point is on a plane only strictly within `THRESH_POINT_ON_PLANE`, 0.1 unit
(`Core/Inc/UnMath.h:2101`; `FPoly::OnPlane`, UnFPoly.cpp:643-648): a vertex 0.1 or more off is
not on its own surface's plane. Distances are measured from that plane, not from a best fit:
a polygon whose vertices all lie within 0.1 of the engine's plane is quiet, even when a
best-fit plane would leave one farther.

```t3d
Begin PolyList
   Begin Polygon
      Vertex   +00000.000000,+00000.000000,+00000.000000
      Vertex   +00128.000000,+00000.000000,+00000.000000
      Vertex   +00128.000000,+00128.000000,+00000.000000
      Vertex   +00000.000000,+00128.000000,+00008.000000
   End Polygon
End PolyList
```

Fix: triangulate the polygon, or move the vertex onto the plane.

```t3d fixed
Begin PolyList
   Begin Polygon
      Vertex   +00000.000000,+00000.000000,+00000.000000
      Vertex   +00128.000000,+00000.000000,+00000.000000
      Vertex   +00128.000000,+00128.000000,+00000.000000
   End Polygon
   Begin Polygon
      Vertex   +00000.000000,+00000.000000,+00000.000000
      Vertex   +00128.000000,+00128.000000,+00000.000000
      Vertex   +00000.000000,+00128.000000,+00008.000000
   End Polygon
End PolyList
```";

pub fn check(ctx: &T3dContext<'_>, out: &mut Vec<Diagnostic>) {
    for polygon in ctx.polygons.iter().filter(|p| p.has_geometry() && p.vertices.len() > 3) {
        // Import drops a polygon without area (`t3d-degenerate-polygon`).
        let Some(engine) = EnginePolygon::import(&polygon.vertices) else { continue };
        let Some((index, distance)) = engine.off_plane() else { continue };
        let first = engine.written.first().map_or(1, |&i| i + 1);
        let mut diagnostic = RULE.diagnostic(
            polygon.block.begin_span,
            format!(
                "polygon is not planar: vertex {} is {distance:.3} units off the plane through \
                 vertex {first} (the engine allows less than {THRESH_POINT_ON_PLANE}); \
                 triangulate it or move the vertex",
                index + 1
            ),
        );
        if let Some(vertex) = polygon.block.vectors(LineKeyword::Vertex).nth(index) {
            diagnostic = diagnostic.with_label(vertex.span, "off the plane");
        }
        out.push(diagnostic);
    }
}
