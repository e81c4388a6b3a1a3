//! `exec-unused-texture-slot`: `SETTEXTURE NUM=n` for a slot no triangle of the mesh uses
//! (texture numbers in the `_d.3d`, material indices in the `.psk`). The texture never shows;
//! usually the slot number is off by one (slots count from 0).

use super::RuleMeta;
use crate::exec::{atoi, ExecContext};
use crate::{Diagnostic, Label, Severity};

pub static RULE: RuleMeta = RuleMeta {
    code: "exec-unused-texture-slot",
    severity: Severity::Warning,
    summary: "`SETTEXTURE NUM=` names a slot no triangle of the mesh uses",
    ..RuleMeta::UNREALSCRIPT
};

pub fn check(ctx: &ExecContext<'_>, out: &mut Vec<Diagnostic>) {
    for (line, _) in ctx
        .commands()
        .filter(|(l, _)| l.is("MESHMAP", Some("SETTEXTURE")) || l.is("MESH", Some("SETTEXTURE")))
    {
        let mesh = line.value(ctx.text, "MESHMAP").or_else(|| line.value(ctx.text, "MESH"));
        let (Some(mesh), Some(num)) = (mesh, line.value(ctx.text, "NUM")) else { continue };
        let Some(found) = ctx.table.mesh(&mesh.text) else { continue };
        let Some(source) = &found.definition.mesh else { continue };
        let Some(slots) = ctx.mesh_slots(source) else { continue };
        let n = atoi(&num.text);
        if u8::try_from(n).is_ok_and(|n| slots.contains(&n)) {
            continue;
        }
        let used: Vec<String> = slots.iter().map(u8::to_string).collect();
        let mut diagnostic = RULE.diagnostic(
            num.mark(),
            format!(
                "no triangle of mesh `{}` uses slot {n}; its triangles use slot{} {}",
                found.definition.name,
                if used.len() == 1 { "" } else { "s" },
                if used.is_empty() { "none".to_owned() } else { used.join(", ") }
            ),
        );
        diagnostic.labels.push(Label {
            file: found.file.map(std::path::Path::to_path_buf),
            span: found.definition.span,
            message: "the mesh is imported here".to_owned(),
        });
        out.push(diagnostic);
    }
}
