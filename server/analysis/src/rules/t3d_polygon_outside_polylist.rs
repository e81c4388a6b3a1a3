//! `t3d-polygon-outside-polylist`: `Begin Polygon` nested in anything but `Begin PolyList`.
//! UnrealEd only reads polygons from a poly list, so the geometry is lost. A file that is
//! nothing but a polygon (a clipboard fragment) is fine.

use unreal_syntax::t3d::BlockKind;

use super::{RuleMeta, T3dContext};
use crate::{Diagnostic, Severity};

pub static RULE: RuleMeta = RuleMeta {
    code: "t3d-polygon-outside-polylist",
    severity: Severity::Error,
    summary: "a polygon that is not inside `Begin PolyList`",
    docs: DOCS,
    ..RuleMeta::T3D_LOCAL
};

/// The rule's documentation: its `docs/rules.md` section after the `Severity:` lead.
const DOCS: &str = r#"`Begin Polygon` inside a block other than `Begin PolyList`. UnrealEd reads
polygons only from poly lists, so the geometry is lost. A file that is nothing but a polygon
(a clipboard fragment) is not reported.

Engine basis: a brush's body is read by `UModelFactory` (UT2004
`Editor/Src/UnEdFact.cpp:1677-1731`, UT v400 `Editor/Src/UnEdFact.cpp:801-855`), which passes
only a `Begin PolyList` on to the polygon reader and otherwise looks for `End Brush` and the
brush's transform lines; neither the map importer nor `ImportProperties`
(`Editor/Src/UnEditor.cpp:765-904`) has a branch for `Begin Polygon`. A polygon outside a poly
list is never built. Brush import reads polygons with or without a surrounding `Begin PolyList`
(UnEdFact.cpp:982, "eat up if present"), which is why a file of bare polygons is not reported.

```t3d
   Begin Brush Name=Brush
      Begin Polygon
      ...
```

Fix: wrap the polygons in `Begin PolyList` ... `End PolyList`.

```t3d fixed
   Begin Brush Name=Brush
      Begin PolyList
         Begin Polygon
         ...
```"#;

pub fn check(ctx: &T3dContext<'_>, out: &mut Vec<Diagnostic>) {
    for polygon in &ctx.polygons {
        let Some(parent) = polygon.parent else { continue };
        if parent.kind != BlockKind::PolyList {
            out.push(
                RULE.diagnostic(
                    polygon.block.begin_span,
                    format!(
                        "polygon inside `Begin {}`: UnrealEd reads polygons only inside `Begin PolyList`",
                        parent.kind_span.text(ctx.text)
                    ),
                )
                .with_label(parent.begin_span, "the enclosing block"),
            );
        }
    }
}
