//! `t3d-normal-mismatch`: the stored `Normal` disagrees with the normal of the vertices,
//! `normalize(sum over i>=2 of (V[i-1]-V[0]) x (V[i]-V[0]))`, which every real map stores.
//! UnrealEd recomputes it on import, so a mismatch means the vertices were edited by hand or
//! by a tool that got the winding wrong; tools that read the T3D see the wrong normal.

use unreal_syntax::t3d::LineKeyword;

use super::{RuleMeta, T3dContext};
use crate::t3d::geometry::{format_vector, Vec3};
use crate::{Diagnostic, Fix, Severity, TextEdit};

pub static RULE: RuleMeta = RuleMeta {
    code: "t3d-normal-mismatch",
    severity: Severity::Warning,
    summary: "the stored `Normal` is not the normal of the polygon's vertices",
};

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
                    "stored normal {} differs from the normal of the vertices {replacement}{why}",
                    stored_line.value_span.text(ctx.text)
                ),
            )
            .with_fix(Fix {
                title: "Recompute the normal from the vertices".to_owned(),
                edits: vec![TextEdit { span: stored_line.value_span, new_text: replacement }],
                safe: true,
            }),
        );
    }
}
