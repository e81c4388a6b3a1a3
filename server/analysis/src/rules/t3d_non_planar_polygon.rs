//! `t3d-non-planar-polygon`: a vertex 0.25 unit or more off the plane the BSP gives the
//! polygon (through its first vertex), farther than the BSP's splits count as in the plane
//! (`THRESH_SPLIT_POLY_WITH_PLANE`). The BSP treats the polygon as flat, which opens cracks
//! and lighting seams.

use unreal_syntax::t3d::{Block, Item, LineKeyword};

use super::{Fixability, RuleMeta, T3dContext};
use crate::t3d::geometry::{self, EnginePolygon, Vec3, THRESH_SPLIT};
use crate::{Diagnostic, Fix, Severity, TextEdit};

pub static RULE: RuleMeta = RuleMeta {
    code: "t3d-non-planar-polygon",
    severity: Severity::Warning,
    summary: "a polygon vertex 0.25 unit or more off the polygon's plane",
    docs: DOCS,
    fix: Fixability::Unsafe,
    ..RuleMeta::T3D_LOCAL
};

/// The rule's documentation: its `docs/rules.md` section after the `Severity:` lead.
const DOCS: &str = r"A vertex lies 0.25 unit or more off the plane the BSP gives the polygon:
the plane through its first vertex with the computed normal. The BSP treats the polygon as
flat, which opens cracks and lighting seams. The label marks the vertex farthest off.

Engine basis: import keeps the vertices as written, merging points the same within
`THRESH_POINTS_ARE_SAME` (`FPoly::Fix`, UT2004 `Engine/Src/UnFPoly.cpp:71-92`), and computes
one normal from all of them (UnFPoly.cpp:421-437); no import step checks planarity. The BSP
gives the surface and each node the plane through vertex 0 with that normal (UT2004
`Editor/Src/UnBsp.cpp:231`, `:292`; UT v400 moves the polygon's base onto that plane before
the CSG, `Editor/Src/UnBsp.cpp:1822-1824`, and builds the node's plane from it, `:289`).
Where that matters is the BSP's splits: each polygon is classified against a splitter's plane
by `FPoly::SplitWithPlane`, which counts a point within `THRESH_SPLIT_POLY_WITH_PLANE`, 0.25
unit (`Core/Inc/UnMath.h:2109`), as on the plane (UT2004 `Editor/Src/UnBsp.cpp:548`,
`Engine/Src/UnFPoly.cpp:137-160`). A vertex nearer its plane than that leaves the polygon
coplanar with its surface, drawn a fraction of a unit off its collision plane; one 0.25 or more
off splits it against its own surface's plane. `THRESH_POINT_ON_PLANE` (0.1) belongs to
`FPoly::OnPlane`, which nothing in the build calls. Distances are measured from that plane,
not from a best fit: a polygon whose vertices all lie within 0.25 of the engine's plane is
quiet, even when a best-fit plane would leave one farther.

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

Fix: triangulate the polygon, or move the vertex onto the plane. The quick fix replaces it with
a fan of triangles from its first vertex, each with the polygon's texture, flags, link and
texture mapping and its own normal, as UT v469's UnrealEd offers to tesselate non-coplanar
polygons (OldUnreal's UT patch release notes); it is not offered where the fan would fold over
itself:

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
                 vertex {first} (the BSP's splits take less than {THRESH_SPLIT} as in the plane); \
                 triangulate it or move the vertex",
                index + 1
            ),
        );
        if let Some(vertex) = polygon.block.vectors(LineKeyword::Vertex).nth(index) {
            diagnostic = diagnostic.with_label(vertex.span, "off the plane");
        }
        if let Some(fix) = tessellate(ctx.text, polygon.block, &polygon.vertices) {
            diagnostic = diagnostic.with_fix(fix);
        }
        out.push(diagnostic);
    }
}

/// The quick fix: the polygon replaced by a fan of triangles from its first vertex, each a
/// copy of the polygon's `Begin Polygon` line (texture, flags, link) and its other lines
/// (`Origin`, the texture axes, `Pan`: the same mapping, which is a projection) with the
/// triangle's own `Normal`; what UT v469's UnrealEd offers for such a polygon ("tesselate
/// non-coplanar polygons", ReleaseNotes.md of OldUnreal's UT patches). Every triangle is
/// planar. `None` when a triangle would face away from the polygon (a fan that folds over
/// itself) or has no area, or the polygon is not closed.
fn tessellate(text: &str, block: &Block, vertices: &[Vec3]) -> Option<Fix> {
    let end = block.end?;
    let normal = geometry::polygon_normal(vertices)?;
    let vertex_lines: Vec<&str> =
        block.vectors(LineKeyword::Vertex).map(|v| v.span.text(text)).collect();
    if vertex_lines.len() != vertices.len() || vertices.len() < 4 {
        return None;
    }
    // The polygon's own line ends (what follows its `Begin` line), not the file's: the
    // finding of an unchanged polygon stays the same whatever is edited elsewhere.
    let after_begin = text.get(block.begin_span.end as usize..).unwrap_or_default();
    let line_break = if after_begin.starts_with("\r\n") { "\r\n" } else { "\n" };
    let indent_of = |start: u32| {
        let line_start = unreal_syntax::text::line_start(text, start as usize);
        text.get(line_start..start as usize).unwrap_or_default()
    };
    let polygon_indent = indent_of(block.begin_span.start);
    let child_indent = block.children.first().map_or(polygon_indent, |c| indent_of(c.span().start));
    let mut triangles = Vec::new();
    for i in 1..vertices.len() - 1 {
        let corners = [vertices[0], vertices[i], vertices[i + 1]];
        let own = geometry::polygon_normal(&corners)?;
        if own.dot(normal) <= 0.0 {
            return None;
        }
        let mut lines = vec![format!("{polygon_indent}{}", block.begin_span.text(text))];
        for child in &block.children {
            match child {
                Item::Vector(v) if v.keyword == LineKeyword::Vertex => {}
                Item::Vector(v) if v.keyword == LineKeyword::Normal => {
                    let keyword =
                        &v.span.text(text)[..(v.value_span.start - v.span.start) as usize];
                    lines.push(format!("{child_indent}{keyword}{}", geometry::format_vector(own)));
                }
                other => lines.push(format!("{child_indent}{}", other.span().text(text))),
            }
        }
        for at in [0, i, i + 1] {
            lines.push(format!("{child_indent}{}", vertex_lines[at]));
        }
        lines.push(format!("{polygon_indent}{}", end.span.text(text)));
        triangles.push(lines.join(line_break));
    }
    let count = triangles.len();
    let whole = unreal_syntax::Span::new(block.begin_span.start, end.span.end);
    // The first `Begin Polygon` keeps the indentation already in the text.
    let replacement = triangles.join(line_break).trim_start().to_owned();
    Some(Fix {
        title: format!(
            "Tessellate: {count} planar triangles with the polygon's texture, flags and mapping"
        ),
        edits: vec![TextEdit { span: whole, new_text: replacement }],
        safe: false,
    })
}

#[cfg(test)]
mod tests {
    use crate::lint::{lint_file, FileKind, LintOptions};

    const MAP: &str = "Begin PolyList\r\n   Begin Polygon Texture=Floor Flags=32 Link=3\r\n      Origin   +00000.000000,+00000.000000,+00000.000000\r\n      Normal   +00000.000000,+00000.000000,+00001.000000\r\n      TextureU +00001.000000,+00000.000000,+00000.000000\r\n      TextureV +00000.000000,+00001.000000,+00000.000000\r\n      Vertex   +00000.000000,+00000.000000,+00000.000000\r\n      Vertex   +00128.000000,+00000.000000,+00000.000000\r\n      Vertex   +00128.000000,+00128.000000,+00000.000000\r\n      Vertex   +00000.000000,+00128.000000,+00008.000000\r\n   End Polygon\r\nEnd PolyList\r\n";

    fn findings(text: &str) -> Vec<crate::Diagnostic> {
        lint_file(FileKind::T3d, text.as_bytes(), &LintOptions::default()).diagnostics
    }

    #[test]
    fn the_tessellated_polygon_is_planar_and_keeps_its_line_ends() {
        let found = findings(MAP);
        let fix = found
            .iter()
            .find(|d| d.code == super::RULE.code)
            .and_then(|d| d.fix.clone())
            .expect("a fix");
        let mut fixed = MAP.to_owned();
        for edit in fix.edits.iter().rev() {
            fixed.replace_range(edit.span.start as usize..edit.span.end as usize, &edit.new_text);
        }
        assert_eq!(fixed.matches("Begin Polygon Texture=Floor Flags=32 Link=3").count(), 2);
        assert!(!fixed.replace("\r\n", "").contains('\n'), "a line end other than CRLF");
        assert!(fixed.contains("\r\n   Begin Polygon Texture=Floor"), "{fixed}");
        let after = findings(&fixed);
        assert!(after.iter().all(|d| d.code != super::RULE.code), "{after:?}");
        assert!(after.iter().all(|d| d.code != "t3d-normal-mismatch"), "{after:?}");
    }
}
