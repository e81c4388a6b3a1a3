//! `t3d-normal-mismatch`: the stored `Normal` disagrees with the normal of the vertices,
//! `normalize(sum over i>=2 of (V[i-1]-V[0]) x (V[i]-V[0]))`, which every real map stores.
//!
//! The engine never reads `Normal`: `UPolysFactory::FactoryCreateText` (Editor/Src/
//! UnEdFact.cpp) reads `Origin`, `Vertex`, `TextureU`, `TextureV` and `Pan` and leaves the
//! normal to `FPoly::Finalize`, which computes it from the vertices. So a mismatch changes
//! nothing the engine builds: a hint, tagged unnecessary (the line could go). It tells that
//! the vertices were edited by hand or by a tool, and other tools that read the T3D see the
//! stale normal (the message says when the stored one is the reverse of the vertices').

use unreal_syntax::t3d::LineKeyword;

use super::{Fixability, RuleMeta, T3dContext};
use crate::t3d::geometry::{format_vector, Vec3};
use crate::{Diagnostic, Fix, Severity, TextEdit};

pub static RULE: RuleMeta = RuleMeta {
    code: "t3d-normal-mismatch",
    severity: Severity::Hint,
    summary: "the stored `Normal` is not the normal of the polygon's vertices",
    fix: Fixability::Safe,
    docs: DOCS,
    ..RuleMeta::T3D_LOCAL
};

/// The rule's documentation: its `docs/rules.md` section after the `Severity:` lead.
const DOCS: &str = r#"Tagged unnecessary: editors fade it. The stored `Normal` is not the normal of
the vertices (more than 0.001 apart in a component). The engine never reads `Normal`:
`UPolysFactory::FactoryCreateText` (Editor/Src/UnEdFact.cpp) reads `Origin`, `Vertex`,
`TextureU`, `TextureV` and `Pan`, and `FPoly::Finalize` (Engine/Src/UnFPoly.cpp) computes the
normal from the vertices. So the map builds the same either way; the finding says the
vertices were edited by hand or by a tool, and other tools that read the T3D see a stale
normal. "The vertex winding is reversed" means the stored normal is the reverse of the
vertices' (the engine follows the vertices).

```t3d
Begin PolyList
   Begin Polygon
      Normal   +00000.000000,+00000.000000,+00001.000000
      Vertex   +00000.000000,+00000.000000,+00000.000000
      Vertex   +00000.000000,+00128.000000,+00000.000000
      Vertex   +00128.000000,+00128.000000,+00000.000000
   End Polygon
End PolyList
```

Fix: replace the `Normal` with the computed one
(`+00000.000000,+00000.000000,-00001.000000` here), or reverse the vertex order if the
stored normal was the intended facing (the engine uses the vertices' winding).

```t3d fixed
Begin PolyList
   Begin Polygon
      Normal   +00000.000000,+00000.000000,-00001.000000
      Vertex   +00000.000000,+00000.000000,+00000.000000
      Vertex   +00000.000000,+00128.000000,+00000.000000
      Vertex   +00128.000000,+00128.000000,+00000.000000
   End Polygon
End PolyList
```"#;

/// Largest per-component difference accepted: the file prints six decimals, and real
/// exports agree to about 1e-5.
const TOLERANCE: f64 = 1e-3;

pub fn check(ctx: &T3dContext<'_>, out: &mut Vec<Diagnostic>) {
    for polygon in ctx.polygons.iter().filter(|p| p.has_geometry()) {
        let Some(computed) = polygon.normal else { continue };
        let Some(stored_line) = polygon.block.vector(LineKeyword::Normal) else { continue };
        let stored = Vec3::from_array(stored_line.value);
        let diff = stored - computed;
        if diff.x.abs().max(diff.y.abs()).max(diff.z.abs()) <= TOLERANCE {
            continue;
        }
        let reversed = (stored + computed).length() < 2.0 * TOLERANCE;
        let why = if reversed { " (the vertex winding is reversed)" } else { "" };
        let replacement = format_vector(computed);
        out.push(
            RULE.diagnostic(
                stored_line.value_span,
                format!(
                    "stored normal {} differs from the normal of the vertices {replacement}{why}; import recomputes it",
                    stored_line.value_span.text(ctx.text)
                ),
            )
            .with_fix(Fix {
                title: "Recompute the normal from the vertices".to_owned(),
                edits: vec![TextEdit { span: stored_line.value_span, new_text: replacement }],
                safe: true,
            })
            .unnecessary(),
        );
    }
}
