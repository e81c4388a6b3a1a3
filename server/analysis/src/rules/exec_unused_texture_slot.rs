//! `exec-unused-texture-slot`: `SETTEXTURE NUM=n` for a slot no triangle of the mesh uses
//! (texture numbers in the `_d.3d`, material indices in the `.psk`). The texture never shows;
//! usually the slot number is off by one (slots count from 0). When the texture shows anyway
//! (another SETTEXTURE puts it on a slot the triangles use, or the package draws it as a
//! `Skin`/`MultiSkins`/`Skins`), nothing visible is lost: a hint tagged unnecessary.

use super::RuleMeta;
use crate::exec::{atoi, ExecContext};
use crate::{Diagnostic, Label, Severity};

pub static RULE: RuleMeta = RuleMeta {
    code: "exec-unused-texture-slot",
    severity: Severity::Warning,
    summary: "`SETTEXTURE NUM=` names a slot no triangle of the mesh uses",
    docs: DOCS,
    ..RuleMeta::UNREALSCRIPT
};

/// The rule's documentation: its `docs/rules.md` section after the `Severity:` lead.
const DOCS: &str = r#"`SETTEXTURE NUM=n` names a slot that no triangle of the mesh uses (texture
numbers in the `_d.3d`, material indices of a `.psk`). The texture never shows; usually the
slot is off by one. When the texture shows anyway, because another `SETTEXTURE` of the mesh
puts it on a slot the triangles use, or a default property of the package draws it as `Skin`,
`MultiSkins` or `Skins`, nothing visible is lost: a hint tagged unnecessary.

Engine basis: a vertex mesh gets material slots up to the highest texture number its triangles
use, after `ZEROTEX=` has set every number to 0 (UT2004 `Editor/Src/UnMeshEd.cpp:192-205`,
235-236; UT v400 `Editor/Src/UnMeshEd.cpp:179-194`, which adds as many spare slots again at
221-225). `MESHMAP SETTEXTURE` stores the texture in slot `NUM` when the slot exists and
otherwise logs "Missing meshmap, texture, or num" (UT2004 `Editor/Src/UnEdSrv.cpp:801-823`, UT
v400 `Editor/Src/UnEdSrv.cpp:269-288`). A slot no triangle uses is never drawn; the line
changes nothing that shows.

```unrealscript
#exec MESHMAP SETTEXTURE MESHMAP=Skull NUM=0 TEXTURE=SkullSkin
```

Fix: use the slot the triangles use (the message lists them)."#;

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
        let message = format!(
            "no triangle of mesh `{}` uses slot {n}; its triangles use slot{} {}",
            found.definition.name,
            if used.len() == 1 { "" } else { "s" },
            if used.is_empty() { "none".to_owned() } else { used.join(", ") }
        );
        let texture = line.value(ctx.text, "TEXTURE").map(|v| v.text).filter(|t| !t.is_empty());
        let shown_anyway = texture.as_deref().and_then(|texture| {
            let texture = texture.rsplit('.').next().unwrap_or(texture);
            let on_used_slot = ctx.table.assignments_of(&mesh.text).find(|a| {
                u8::try_from(a.num).is_ok_and(|n| slots.contains(&n))
                    && a.texture.as_deref().is_some_and(|t| {
                        t.rsplit('.').next().unwrap_or(t).eq_ignore_ascii_case(texture)
                    })
            });
            if let Some(a) = on_used_slot {
                return Some(format!("`{texture}` shows on slot {} anyway", a.num));
            }
            ctx.table
                .references_to(texture)
                .find(|(_, r)| {
                    r.property.as_deref().is_some_and(|p| {
                        ["Skin", "MultiSkins", "Skins"].iter().any(|s| s.eq_ignore_ascii_case(p))
                    })
                })
                .map(|(_, r)| format!("the package draws `{texture}` as `{}` anyway", r.describe()))
        });
        let mut diagnostic = match shown_anyway {
            Some(why) => RULE
                .diagnostic(num.mark(), format!("{message}; nothing visible is lost: {why}"))
                .unnecessary(),
            None => RULE.diagnostic(num.mark(), message),
        };
        diagnostic.labels.push(Label {
            file: found.file.map(std::path::Path::to_path_buf),
            span: found.definition.span,
            message: "the mesh is imported here".to_owned(),
        });
        out.push(diagnostic);
    }
}
