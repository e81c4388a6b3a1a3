//! `t3d-bad-texture-axes`: `TextureU` or `TextureV` of zero length, or the two parallel.
//! The texture mapping then collapses to a line and the surface renders as smeared stripes.
//! When both are zero (or both lines are missing), `FPoly::Finalize` (`Engine/Src/UnFPoly.cpp`)
//! builds new axes from the polygon: nothing to report.

use unreal_syntax::t3d::LineKeyword;

use super::{RuleMeta, T3dContext};
use crate::t3d::geometry::Vec3;
use crate::{Diagnostic, Severity};

pub static RULE: RuleMeta = RuleMeta {
    code: "t3d-bad-texture-axes",
    severity: Severity::Warning,
    summary: "`TextureU`/`TextureV` are zero or parallel",
    docs: DOCS,
    ..RuleMeta::T3D_LOCAL
};

/// The rule's documentation: its `docs/rules.md` section after the `Severity:` lead.
const DOCS: &str = r"`TextureU` or `TextureV` has zero length, or the two are parallel: the
texture mapping collapses to a line and the surface renders as smeared stripes. Both zero (or
both lines missing) is fine: the engine then builds its own axes.

Engine basis: import reads `TextureU` and `TextureV` as written (UT2004
`Editor/Src/UnEdFact.cpp:1633-1640`, UT v400 `Editor/Src/UnEdFact.cpp:757-764`), and
`FPoly::Finalize` builds new axes from the polygon only when both are zero
(`Engine/Src/UnFPoly.cpp:718-728`). The texture coordinates come from the two axes
(`Engine/Src/UnModel.cpp:1034-1040`), so one zero axis, or two parallel ones, leaves one
coordinate constant or tied to the other. When both axes are zero (or both lines are missing)
the engine makes its own and nothing is wrong: no finding.

```t3d
Begin PolyList
   Begin Polygon
      Origin   +00000.000000,+00000.000000,+00000.000000
      Normal   +00000.000000,+00000.000000,-00001.000000
      TextureU +00001.000000,+00000.000000,+00000.000000
      TextureV +00002.000000,+00000.000000,+00000.000000
      Vertex   +00000.000000,+00000.000000,+00000.000000
      Vertex   +00000.000000,+00128.000000,+00000.000000
      Vertex   +00128.000000,+00128.000000,+00000.000000
      Vertex   +00128.000000,+00000.000000,+00000.000000
   End Polygon
End PolyList
```

Fix: give the axes independent directions in the polygon's plane (for a floor,
`TextureU +1,0,0` and `TextureV 0,+1,0`), or reset the texture alignment in UnrealEd.

```t3d fixed
Begin PolyList
   Begin Polygon
      Origin   +00000.000000,+00000.000000,+00000.000000
      Normal   +00000.000000,+00000.000000,-00001.000000
      TextureU +00001.000000,+00000.000000,+00000.000000
      TextureV +00000.000000,+00001.000000,+00000.000000
      Vertex   +00000.000000,+00000.000000,+00000.000000
      Vertex   +00000.000000,+00128.000000,+00000.000000
      Vertex   +00128.000000,+00128.000000,+00000.000000
      Vertex   +00128.000000,+00000.000000,+00000.000000
   End Polygon
End PolyList
```";

/// Below this length an axis is zero; below this sine of the angle between them they are
/// parallel.
const MIN_LENGTH: f64 = 1e-6;
const MIN_SINE: f64 = 1e-3;

pub fn check(ctx: &T3dContext<'_>, out: &mut Vec<Diagnostic>) {
    for polygon in &ctx.polygons {
        let u = polygon.block.vector(LineKeyword::TextureU);
        let v = polygon.block.vector(LineKeyword::TextureV);
        let is_zero = |axis: Option<&unreal_syntax::t3d::VectorLine>| {
            axis.is_none_or(|a| Vec3::from_array(a.value).length() < MIN_LENGTH)
        };
        if is_zero(u) && is_zero(v) {
            continue;
        }
        for axis in [u, v].into_iter().flatten() {
            if Vec3::from_array(axis.value).length() < MIN_LENGTH {
                out.push(RULE.diagnostic(
                    axis.value_span,
                    format!(
                        "`{}` is zero: the texture cannot be mapped",
                        axis.keyword.canonical_name()
                    ),
                ));
            }
        }
        let (Some(u), Some(v)) = (u, v) else { continue };
        let (uv, vv) = (Vec3::from_array(u.value), Vec3::from_array(v.value));
        let (lu, lv) = (uv.length(), vv.length());
        if lu < MIN_LENGTH || lv < MIN_LENGTH {
            continue;
        }
        if uv.cross(vv).length() / (lu * lv) < MIN_SINE {
            out.push(
                RULE.diagnostic(
                    v.value_span,
                    "`TextureV` is parallel to `TextureU`: the texture collapses to a line",
                )
                .with_label(u.value_span, "TextureU"),
            );
        }
    }
}
