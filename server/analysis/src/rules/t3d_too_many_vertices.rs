//! `t3d-too-many-vertices`: UE1 and UE2 polygons hold at most 16 vertices
//! (`FPoly::MAX_VERTICES`); the engine reads the first 16 and drops the rest
//! without a word (`UnEdFact.cpp`): it builds another polygon than the text says, a warning.

use unreal_syntax::t3d::LineKeyword;

use super::{RuleMeta, T3dContext};
use crate::t3d::geometry::MAX_VERTICES;
use crate::{Diagnostic, Severity};

pub static RULE: RuleMeta = RuleMeta {
    code: "t3d-too-many-vertices",
    severity: Severity::Warning,
    summary: "a polygon with more than 16 vertices",
    docs: DOCS,
    ..RuleMeta::T3D_LOCAL
};

/// The rule's documentation: its `docs/rules.md` section after the `Severity:` lead.
const DOCS: &str = r#"More than 16 vertices (`FPoly::MAX_VERTICES` in UE1 and UE2); the engine
keeps the first 16 without a word and builds a cut surface. The label marks vertex 17.

Engine basis: `Vertex` lines are stored only while the polygon holds fewer than
`FPoly::MAX_VERTICES` (16, UT2004 `Engine/Inc/UnObj.h:384`); later ones are skipped without a
message (UT2004 `Editor/Src/UnEdFact.cpp:1625-1632`, UT v400
`Editor/Src/UnEdFact.cpp:749-756`). The polygon is built from its first 16 vertices; nothing
fails.

Unreal 227 raised the limit to 32 (`FPoly::MAX_VERTICES`, OldUnreal/Unreal-PubSrc
`Engine/Inc/UnObj.h:547`): with `game = "unreal227"` the rule counts to 32.

```t3d
Begin PolyList
   Begin Polygon
      Vertex   +00128.000000,+00000.000000,+00000.000000
      Vertex   +00119.356445,+00046.238933,+00000.000000
      Vertex   +00094.593141,+00086.233042,+00000.000000
      Vertex   +00057.054510,+00114.580901,+00000.000000
      Vertex   +00011.810350,+00127.453975,+00000.000000
      Vertex   -00035.028863,+00123.113682,+00000.000000
      Vertex   -00077.137233,+00102.146205,+00000.000000
      Vertex   -00108.827793,+00067.383317,+00000.000000
      Vertex   -00125.820557,+00023.519938,+00000.000000
      Vertex   -00125.820557,-00023.519938,+00000.000000
      Vertex   -00108.827793,-00067.383317,+00000.000000
      Vertex   -00077.137233,-00102.146205,+00000.000000
      Vertex   -00035.028863,-00123.113682,+00000.000000
      Vertex   +00011.810350,-00127.453975,+00000.000000
      Vertex   +00057.054510,-00114.580901,+00000.000000
      Vertex   +00094.593141,-00086.233042,+00000.000000
      Vertex   +00119.356445,-00046.238933,+00000.000000
   End Polygon
End PolyList
```

Fix: split the polygon into convex polygons of at most 16 vertices.

```t3d fixed
Begin PolyList
   Begin Polygon
      Vertex   +00128.000000,+00000.000000,+00000.000000
      Vertex   +00119.356445,+00046.238933,+00000.000000
      Vertex   +00094.593141,+00086.233042,+00000.000000
      Vertex   +00057.054510,+00114.580901,+00000.000000
      Vertex   +00011.810350,+00127.453975,+00000.000000
      Vertex   -00035.028863,+00123.113682,+00000.000000
      Vertex   -00077.137233,+00102.146205,+00000.000000
      Vertex   -00108.827793,+00067.383317,+00000.000000
      Vertex   -00125.820557,+00023.519938,+00000.000000
   End Polygon
   Begin Polygon
      Vertex   -00125.820557,+00023.519938,+00000.000000
      Vertex   -00125.820557,-00023.519938,+00000.000000
      Vertex   -00108.827793,-00067.383317,+00000.000000
      Vertex   -00077.137233,-00102.146205,+00000.000000
      Vertex   -00035.028863,-00123.113682,+00000.000000
      Vertex   +00011.810350,-00127.453975,+00000.000000
      Vertex   +00057.054510,-00114.580901,+00000.000000
      Vertex   +00094.593141,-00086.233042,+00000.000000
      Vertex   +00119.356445,-00046.238933,+00000.000000
      Vertex   +00128.000000,+00000.000000,+00000.000000
   End Polygon
End PolyList
```"#;

/// The most vertices a polygon of the targeted build holds: 16 in Epic's builds, 32 in
/// Unreal 227 (`FPoly::MAX_VERTICES`, OldUnreal/Unreal-PubSrc `Engine/Inc/UnObj.h:547`).
fn max_vertices(ctx: &T3dContext<'_>) -> usize {
    if ctx.game == Some(unreal_engine::Game::Unreal227) {
        32
    } else {
        MAX_VERTICES
    }
}

pub fn check(ctx: &T3dContext<'_>, out: &mut Vec<Diagnostic>) {
    let max = max_vertices(ctx);
    for polygon in ctx.polygons.iter().filter(|p| p.vertices.len() > max) {
        let mut diagnostic = RULE.diagnostic(
            polygon.block.begin_span,
            format!(
                "polygon has {} vertices; the engine keeps at most {max} (FPoly::MAX_VERTICES). \
                 Split it into convex polygons of {max} or fewer",
                polygon.vertices.len()
            ),
        );
        if let Some(first_dropped) = polygon.block.vectors(LineKeyword::Vertex).nth(max) {
            diagnostic = diagnostic.with_label(
                first_dropped.span,
                format!("vertex {} and after are dropped", max + 1),
            );
        }
        out.push(diagnostic);
    }
}
