//! `t3d-degenerate-polygon`: vertices that are all on one line (or repeat one point) enclose
//! no area; the engine removes such polygons and the normal is undefined.

use super::{RuleMeta, T3dContext};
use crate::{Diagnostic, Severity};

pub static RULE: RuleMeta = RuleMeta {
    code: "t3d-degenerate-polygon",
    severity: Severity::Warning,
    summary: "a polygon whose vertices are collinear or enclose no area",
    docs: DOCS,
    ..RuleMeta::T3D_LOCAL
};

/// The rule's documentation: its `docs/rules.md` section after the `Severity:` lead.
const DOCS: &str = r"The vertices are collinear or coincide, so the polygon has no area and no
normal; UnrealEd removes it.

Engine basis: `FPoly::Finalize` computes the normal as the sum of the cross products
(`FPoly::CalcNormal`, UT2004 `Engine/Src/UnFPoly.cpp:421-437`) and refuses the polygon when
that sum's squared length is below `THRESH_ZERO_NORM_SQUARED` (0.0001,
`Core/Inc/UnMath.h:2111`), that is twice the area below 0.01 square units
(UnFPoly.cpp:705-716); the importer then drops it (`Editor/Src/UnEdFact.cpp:1645-1646`; UT v400
`Editor/Src/UnEdFact.cpp:769-770`). Repeated consecutive points are merged before
(`FPoly::Fix`, UnFPoly.cpp:71-92). This rule's limit (twice the area below 0.001) is below the
engine's, so every polygon it reports is one the engine drops.

```t3d
Begin PolyList
   Begin Polygon
      Vertex   +00000.000000,+00000.000000,+00000.000000
      Vertex   +00064.000000,+00000.000000,+00000.000000
      Vertex   +00128.000000,+00000.000000,+00000.000000
   End Polygon
End PolyList
```

Fix: move a vertex off the line, or delete the polygon.

```t3d fixed
Begin PolyList
   Begin Polygon
      Vertex   +00000.000000,+00000.000000,+00000.000000
      Vertex   +00064.000000,+00000.000000,+00000.000000
      Vertex   +00128.000000,+00128.000000,+00000.000000
   End Polygon
End PolyList
```";

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
