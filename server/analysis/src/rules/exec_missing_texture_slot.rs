//! `exec-missing-texture-slot`: triangles of a mesh use a texture slot that no `SETTEXTURE`
//! of the package fills. Unless the class sets `Skin`/`MultiSkins` at run time, those
//! triangles draw with the engine's default texture.

use super::RuleMeta;
use crate::exec::ExecContext;
use crate::{Diagnostic, Severity};

pub static RULE: RuleMeta = RuleMeta {
    code: "exec-missing-texture-slot",
    severity: Severity::Warning,
    summary: "triangles use a texture slot that no `SETTEXTURE` fills",
};

pub fn check(ctx: &ExecContext<'_>, out: &mut Vec<Diagnostic>) {
    let Some(current) = ctx.table.current_file() else { return };
    for definition in &current.definitions {
        let Some(source) = &definition.mesh else { continue };
        let Some(slots) = ctx.mesh_slots(source) else { continue };
        let given: Vec<i64> = ctx.table.slots_of(&definition.name).collect();
        let missing: Vec<String> =
            slots.iter().filter(|s| !given.contains(&i64::from(**s))).map(u8::to_string).collect();
        if missing.is_empty() {
            continue;
        }
        let plural = if missing.len() == 1 { "" } else { "s" };
        out.push(RULE.diagnostic(
            definition.span,
            format!(
                "triangles of mesh `{}` use slot{plural} {} but no SETTEXTURE gives {} a texture",
                definition.name,
                missing.join(", "),
                if missing.len() == 1 { "it" } else { "them" }
            ),
        ));
    }
}
