//! `exec-unused-texture-slot`: `SETTEXTURE NUM=n` for a slot no triangle of the mesh uses
//! (texture numbers in the `_d.3d`, material indices in the `.psk`). The texture never shows;
//! usually the slot number is off by one (slots count from 0). The line itself only stores a
//! texture no triangle draws: it changes nothing (Epic's own `DispersionPistol` and
//! `EscapePod` do it), a hint tagged unnecessary; when a slot the triangles use is left
//! without a texture by the package, an info (a skin set at run time may still fill it).

use super::RuleMeta;
use crate::exec::{atoi, ExecContext};
use crate::{Diagnostic, Label, Severity};

pub static RULE: RuleMeta = RuleMeta {
    code: "exec-unused-texture-slot",
    severity: Severity::Hint,
    summary: "`SETTEXTURE NUM=` names a slot no triangle of the mesh uses",
    docs: DOCS,
    ..RuleMeta::UNREALSCRIPT
};

/// The rule's documentation: its `docs/rules.md` section after the `Severity:` lead.
const DOCS: &str = r#"`SETTEXTURE NUM=n` names a slot that no triangle of the mesh uses (texture
numbers in the `_d.3d`, material indices of a `.psk`). The texture never shows; usually the
slot is off by one. The line only stores a texture no triangle draws, so nothing in the built
mesh changes (Epic's own DispersionPistol, EscapePod and SmokeTrail set an unused slot 0): a
hint tagged unnecessary, naming where the texture shows anyway when another `SETTEXTURE` or a
skin property draws it. When a slot the triangles use gets no texture from any `SETTEXTURE` of
the package and the package sets no `Skin`, `MultiSkins` or `Skins`, the number is probably
off, but a skin set at run time may fill that slot: an info.

Engine basis: a vertex mesh gets material slots up to the highest texture number its triangles
use, after `ZEROTEX=` has set every number to 0 (UT2004 `Editor/Src/UnMeshEd.cpp:192-205`,
235-236; UT v400 `Editor/Src/UnMeshEd.cpp:179-194`, which adds as many spare slots again at
221-225). `MESHMAP SETTEXTURE` stores the texture in slot `NUM` when the slot exists and
otherwise logs "Missing meshmap, texture, or num" (UT2004 `Editor/Src/UnEdSrv.cpp:801-823`, UT
v400 `Editor/Src/UnEdSrv.cpp:269-288`). A slot no triangle uses is never drawn; the line
changes nothing that shows.

<!-- example
//- /Game/MyMod/Models/Skull_d.3d = mesh-data verts=4 tris=2 slots=1
//- /Game/MyMod/Models/Skull_a.3d = mesh-anim verts=4 frames=30
//- /Game/MyMod/Textures/SkullSkin.pcx = pcx 64x64
//- /Game/MyMod/Classes/Skull.uc
class Skull extends Actor;
#exec MESH IMPORT MESH=Skull ANIVFILE=Models\Skull_a.3d DATAFILE=Models\Skull_d.3d
#exec TEXTURE IMPORT NAME=SkullSkin FILE=Textures\SkullSkin.pcx
-->
```unrealscript
#exec MESHMAP SETTEXTURE MESHMAP=Skull NUM=0 TEXTURE=SkullSkin
```

Fix: use the slot the triangles use (the message lists them).

```unrealscript fixed
#exec MESHMAP SETTEXTURE MESHMAP=Skull NUM=1 TEXTURE=SkullSkin
```"#;

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
        // Slots the triangles use that no SETTEXTURE of the package fills, when the package
        // sets no skins either: drawn with the default texture, so this line's slot number is
        // probably off.
        let sets_skins = ctx.table.references().any(|(_, r)| {
            r.property.as_deref().is_some_and(|p| {
                ["Skin", "MultiSkins", "Skins"].iter().any(|s| s.eq_ignore_ascii_case(p))
            })
        });
        let unfilled: Vec<String> = slots
            .iter()
            .filter(|&&slot| {
                !sets_skins
                    && !ctx.table.assignments_of(&mesh.text).any(|a| a.num == i64::from(slot))
            })
            .map(u8::to_string)
            .collect();
        let mut diagnostic = match shown_anyway {
            Some(why) => RULE
                .diagnostic(num.mark(), format!("{message}; nothing visible is lost: {why}"))
                .unnecessary(),
            None if unfilled.is_empty() => RULE
                .diagnostic(
                    num.mark(),
                    format!("{message}; the texture set here is never drawn and every slot the triangles use has its texture, so the line changes nothing"),
                )
                .unnecessary(),
            // The runtime may still fill the slot (a skin set in code or in a subclass): what
            // is drawn there cannot be checked, an info.
            None => RULE
                .diagnostic(
                    num.mark(),
                    format!(
                        "{message}, and slot{} {} that the triangles use get{} no texture here: unless a skin is set at run time, the slot number is probably off",
                        if unfilled.len() == 1 { "" } else { "s" },
                        unfilled.join(", "),
                        if unfilled.len() == 1 { "s" } else { "" },
                    ),
                )
                .with_severity(Severity::Info),
        };
        diagnostic.labels.push(Label {
            file: found.file.map(std::path::Path::to_path_buf),
            span: found.definition.span,
            message: "the mesh is imported here".to_owned(),
        });
        out.push(diagnostic);
    }
}
