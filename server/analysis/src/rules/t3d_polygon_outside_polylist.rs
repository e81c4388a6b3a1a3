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
    ..RuleMeta::T3D_LOCAL
};

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
