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
    ..RuleMeta::T3D_LOCAL
};

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
