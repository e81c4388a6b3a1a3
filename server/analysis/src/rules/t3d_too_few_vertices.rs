//! `t3d-too-few-vertices`: a polygon with fewer than three vertices has no surface.
//! `FPoly::Finalize` refuses it ("Not enough vertices") and the import goes on without it
//! (`UnEdFact.cpp`, `UnFPoly.cpp`): a warning, as for `t3d-degenerate-polygon`.

use super::{RuleMeta, T3dContext};
use crate::{Diagnostic, Severity};

pub static RULE: RuleMeta = RuleMeta {
    code: "t3d-too-few-vertices",
    severity: Severity::Warning,
    summary: "a polygon with fewer than 3 vertices",
    docs: DOCS,
    ..RuleMeta::T3D_LOCAL
};

/// The rule's documentation: its `docs/rules.md` section after the `Severity:` lead.
const DOCS: &str = r#"A polygon with fewer than three vertices has no surface; UnrealEd drops it
and goes on (the same engine case as `t3d-degenerate-polygon`, and the same severity).

Engine basis: at `End Polygon` the importer calls `FPoly::Finalize(1)` and keeps the polygon
only when it returns 0 (UT2004 `Editor/Src/UnEdFact.cpp:1641-1648`, UT v400
`Editor/Src/UnEdFact.cpp:765-772`). `Finalize` (UT2004 `Engine/Src/UnFPoly.cpp:690-731`) first
merges consecutive vertices less than 0.002 apart on every axis (`FPoly::Fix`,
UnFPoly.cpp:71-92) and then refuses fewer than three with a log line "Not enough vertices"
(UnFPoly.cpp:696-703). The polygon is dropped and the import goes on.

```t3d
   Begin Polygon
      Vertex   +00000.000000,+00000.000000,+00000.000000
      Vertex   +00000.000000,+00128.000000,+00000.000000
   End Polygon
```

Fix: add the missing vertices or delete the polygon.

```t3d fixed
   Begin Polygon
      Vertex   +00000.000000,+00000.000000,+00000.000000
      Vertex   +00000.000000,+00128.000000,+00000.000000
      Vertex   +00128.000000,+00128.000000,+00000.000000
   End Polygon
```"#;

pub fn check(ctx: &T3dContext<'_>, out: &mut Vec<Diagnostic>) {
    for polygon in ctx.polygons.iter().filter(|p| !p.malformed && p.vertices.len() < 3) {
        out.push(RULE.diagnostic(
            polygon.block.begin_span,
            match polygon.vertices.len() {
                1 => "polygon has 1 vertex; a polygon needs at least 3".to_owned(),
                n => format!("polygon has {n} vertices; a polygon needs at least 3"),
            },
        ));
    }
}
