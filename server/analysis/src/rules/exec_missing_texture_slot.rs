//! `exec-missing-texture-slot`: triangles of a mesh use a texture slot that no `SETTEXTURE`
//! of the package fills. That is no defect the engine shows by itself: UE2 draws a mesh with
//! the actor's `Skins[]` first, and UE1 classes set `Skin`/`MultiSkins`, in defaultproperties,
//! in a subclass, in code or on the actor in a map. So the finding is an info, and only when the
//! importing class itself never names a skin: the slot then draws with the default texture
//! unless something this check cannot see supplies it.

use super::RuleMeta;
use crate::exec::ExecContext;
use crate::{Diagnostic, Severity};

pub static RULE: RuleMeta = RuleMeta {
    code: "exec-missing-texture-slot",
    severity: Severity::Info,
    summary: "triangles use a texture slot that no `SETTEXTURE` fills",
    docs: DOCS,
    ..RuleMeta::UNREALSCRIPT
};

/// The rule's documentation: its `docs/rules.md` section after the `Severity:` lead.
const DOCS: &str = r"Triangles of a mesh use a texture slot that no `SETTEXTURE` of the package
fills, and the importing class sets no skin itself. This cannot be judged from the directives
alone: UE2 draws a mesh with the actor's `Skins[]` first, and UE1 classes set `Skin` or
`MultiSkins`, in defaultproperties, in a subclass, in code or on the actor in a map. So it is
an info, and a class that sets `Skin=`, `Skins(n)=` or `MultiSkins(n)=` anywhere gets none.
Where nothing supplies the slot, it draws with the default texture.

<!-- example
//- /Game/MyMod/Models/Skull_d.3d = mesh-data verts=4 tris=2 slots=1
//- /Game/MyMod/Models/Skull_a.3d = mesh-anim verts=4 frames=30
//- /Game/MyMod/Textures/SkullSkin.pcx = pcx 64x64
-->
```unrealscript
#exec MESH IMPORT MESH=Skull ANIVFILE=Models\Skull_a.3d DATAFILE=Models\Skull_d.3d
```

Fix: add `#exec MESHMAP SETTEXTURE MESHMAP=Skull NUM=1 TEXTURE=...` for each slot listed, or set
the skins in defaultproperties.

```unrealscript fixed
#exec MESH IMPORT MESH=Skull ANIVFILE=Models\Skull_a.3d DATAFILE=Models\Skull_d.3d
#exec TEXTURE IMPORT NAME=SkullSkin FILE=Textures\SkullSkin.pcx
#exec MESHMAP SETTEXTURE MESHMAP=Skull NUM=1 TEXTURE=SkullSkin
```";

/// True when the class's text sets a skin anywhere (`Skins(0)=`, `Skins[1] =`, `Skin=`,
/// `MultiSkins(2)=`): it supplies materials itself.
fn names_a_skin(text: &str) -> bool {
    let lower = text.to_ascii_lowercase();
    lower.match_indices("skin").any(|(at, _)| {
        let before = lower[..at].chars().next_back();
        let word_start = before.is_none_or(|c| !c.is_ascii_alphanumeric() && c != '_')
            || lower[..at].ends_with("multi");
        let rest = lower[at + 4..].trim_start_matches('s').trim_start();
        word_start && (rest.starts_with('=') || rest.starts_with('(') || rest.starts_with('['))
    })
}

pub fn check(ctx: &ExecContext<'_>, out: &mut Vec<Diagnostic>) {
    let Some(current) = ctx.table.current_file() else { return };
    // Slots are known only from mesh files read through the package (`mesh_slots`): without
    // them, or without a mesh import, there is nothing to check, and the whole text need not
    // be searched for a skin.
    if ctx.env.is_none() || current.definitions.iter().all(|d| d.mesh.is_none()) {
        return;
    }
    if names_a_skin(ctx.text) {
        return;
    }
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
                "triangles of mesh `{}` use slot{plural} {} but no SETTEXTURE gives {} a texture and this class sets no skin; unless Skins/MultiSkins are set elsewhere (a subclass, code, the map), those triangles draw with the default texture",
                definition.name,
                missing.join(", "),
                if missing.len() == 1 { "it" } else { "them" }
            ),
        ));
    }
}
