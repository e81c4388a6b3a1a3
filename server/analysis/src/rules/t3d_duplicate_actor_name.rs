//! `t3d-duplicate-actor-name`: two actors with the same `Name=` in one map. Object names are
//! unique within a level; on import UnrealEd renames one, and every reference by name
//! (`Brush=Model'...'`, `Event`, links between actors) may then point at the wrong actor.

use std::collections::HashMap;

use unreal_syntax::t3d::BlockKind;

use super::{RuleMeta, T3dContext};
use crate::{Diagnostic, Severity};

pub static RULE: RuleMeta = RuleMeta {
    code: "t3d-duplicate-actor-name",
    severity: Severity::Warning,
    summary: "two actors share one `Name=`",
};

pub fn check(ctx: &T3dContext<'_>, out: &mut Vec<Diagnostic>) {
    // Names are unique per level: key by the enclosing block (map or level) and the name.
    let mut seen: HashMap<(u32, String), unreal_syntax::Span> = HashMap::new();
    for &(block, parent) in &ctx.blocks {
        if block.kind != BlockKind::Actor {
            continue;
        }
        let Some((attribute, name)) = block.attribute(ctx.text, "Name") else { continue };
        if name.is_empty() {
            continue;
        }
        let scope = parent.map_or(u32::MAX, |p| p.span.start);
        match seen.entry((scope, name.to_ascii_lowercase())) {
            std::collections::hash_map::Entry::Occupied(first) => out.push(
                RULE.diagnostic(
                    attribute.value,
                    format!("actor name `{name}` is used twice in this map"),
                )
                .with_label(*first.get(), "first used here"),
            ),
            std::collections::hash_map::Entry::Vacant(slot) => {
                slot.insert(attribute.value);
            }
        }
    }
}
