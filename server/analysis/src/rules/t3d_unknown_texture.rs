//! `t3d-unknown-texture`: a polygon's `Texture=` names no texture of the indexed packages.
//! UnrealEd imports the polygon with no texture (the default surface) and says nothing.
//! Bare names (UE1 writes `Texture=rClfBsB2`) are looked up in every package, as the editor
//! does among its loaded packages; `Package.Group.Name` must match exactly. Runs only with a
//! package index (a game directory or package paths).

use unreal_syntax::t3d::BlockKind;

use super::t3d_unknown_object::Reporter;
use super::{RuleMeta, T3dContext};
use crate::index::ObjectKind;
use crate::{Diagnostic, Severity};

pub static RULE: RuleMeta = RuleMeta {
    code: "t3d-unknown-texture",
    severity: Severity::Warning,
    summary: "a polygon's `Texture=` names no texture of the indexed packages",
    ..RuleMeta::T3D_LOCAL
};

pub fn check(ctx: &T3dContext<'_>, out: &mut Vec<Diagnostic>) {
    let Some(index) = ctx.packages else { return };
    let mut reporter = Reporter::new(&RULE, index, ObjectKind::Texture);
    for &(block, _) in &ctx.blocks {
        if block.kind != BlockKind::Polygon {
            continue;
        }
        if let Some((attribute, value)) = block.attribute(ctx.text, "Texture") {
            reporter.check(attribute.value, value, &format!("texture `{value}`"), out);
        }
    }
}
