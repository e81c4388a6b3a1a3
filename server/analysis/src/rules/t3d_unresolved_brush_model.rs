//! `t3d-unresolved-brush-model`: `Brush=Model'MyLevel.X'` where the map has no
//! `Begin Brush Name=X` (nor UE2 `Begin Object Class=Model Name=X`). The actor loses its
//! brush on import: a builder or volume with no geometry.

use std::collections::HashSet;

use unreal_syntax::t3d::{BlockKind, Value};

use super::{RuleMeta, T3dContext};
use crate::{Diagnostic, Severity};

pub static RULE: RuleMeta = RuleMeta {
    code: "t3d-unresolved-brush-model",
    severity: Severity::Warning,
    summary: "`Brush=Model'...'` names no brush of the map",
};

pub fn check(ctx: &T3dContext<'_>, out: &mut Vec<Diagnostic>) {
    let mut models: HashSet<String> = HashSet::new();
    for &(block, _) in &ctx.blocks {
        let is_model = match block.kind {
            BlockKind::Brush => true,
            BlockKind::Object => block
                .attribute_value(ctx.text, "Class")
                .is_some_and(|c| c.eq_ignore_ascii_case("Model")),
            _ => false,
        };
        if let (true, Some(name)) = (is_model, block.attribute_value(ctx.text, "Name")) {
            models.insert(name.to_ascii_lowercase());
        }
    }
    for &(block, _) in &ctx.blocks {
        if block.kind != BlockKind::Actor {
            continue;
        }
        for property in block.properties() {
            if !property.key.text(ctx.text).eq_ignore_ascii_case("Brush") {
                continue;
            }
            let Value::ObjectRef { class, path, .. } = &property.value else { continue };
            if !class.text(ctx.text).eq_ignore_ascii_case("Model") {
                continue;
            }
            let full = path.text(ctx.text);
            let name = full.rsplit('.').next().unwrap_or(full);
            if !models.contains(&name.to_ascii_lowercase()) {
                out.push(RULE.diagnostic(
                    *path,
                    format!("`Model'{full}'` names no brush in this map: expected a `Begin Brush Name={name}` block"),
                ));
            }
        }
    }
}
