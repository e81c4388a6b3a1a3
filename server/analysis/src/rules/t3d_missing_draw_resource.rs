//! `t3d-missing-draw-resource`: a visible UE2 actor whose draw type needs a static mesh, mesh
//! or texture that it does not have: it is drawn as nothing.

use super::actor_values::actor_value;
use super::map_facts::property_word;
use super::{RuleMeta, T3dContext};
use crate::{Diagnostic, Generation, Severity};

pub static RULE: RuleMeta = RuleMeta {
    code: "t3d-missing-draw-resource",
    severity: Severity::Warning,
    summary: "a visible actor whose draw type has no static mesh, mesh or texture (UE2)",
    docs: DOCS,
    ..RuleMeta::T3D_LOCAL
};

/// The rule's documentation: its `docs/rules.md` section after the `Severity:` lead.
const DOCS: &str = r#"A visible actor of a UE2 map draws as a static mesh (`DT_StaticMesh`),
a mesh (`DT_Mesh`) or a sprite (`DT_Sprite`), but its `StaticMesh`, `Mesh` or `Texture` is
`None`: the game draws nothing where the mapper placed something to see (a decoration whose
class's mesh was cleared, a `StaticMeshActor` whose static mesh was set to `None`). UT2004's
map check reports it as "NULL static mesh reference (DT_StaticMesh)" (and the same for meshes and
sprites).

Only a reference the actor's own line sets to `None` is judged: a T3D written by another tool
than UnrealEd may leave out a reference that is set (real SWAT 4 and Tribes: Vengeance
exports hold a thousand `StaticMeshActor`s without a `StaticMesh` line), so a missing line
is not taken for the class's `None`. The draw type and `bHidden` are the actor's own lines,
else its class's defaults from the package index (the game folder's packages and the
`Classes/*.uc` sources of the game folder and the workspace, up the parents). An actor
hidden in game (`bHidden`) is not reported, nor one whose values cannot all be told (no
package index, a class that cannot be read: `t3d-unreadable-class` says so once per map).
UE1 maps are not judged: the UE1 renderer's source is not public.

Engine basis: UT2004 `Engine/Src/UnErrorChecking.cpp:97-103` (`AActor::CheckForErrors`).

<!-- example index=classes engine=ue2 -->
```t3d
Begin Actor Class=StaticMeshActor Name=StaticMeshActor9
    StaticMesh=None
    Location=(X=128.000000,Y=0.000000,Z=0.000000)
End Actor
```

Fix: choose the static mesh (or mesh, or texture) the actor should show, or delete it.

```t3d fixed
Begin Actor Class=StaticMeshActor Name=StaticMeshActor9
    StaticMesh=StaticMesh'MyMod.Crate'
    Location=(X=128.000000,Y=0.000000,Z=0.000000)
End Actor
```"#;

/// The resources a draw type may need.
const RESOURCES: [&str; 3] = ["StaticMesh", "Mesh", "Texture"];

/// The resource a draw type needs, by the type's name or number (`EDrawType`).
fn needed_resource(draw_type: &str) -> Option<&'static str> {
    let t = draw_type.trim();
    if t.eq_ignore_ascii_case("DT_StaticMesh") || t == "8" {
        Some("StaticMesh")
    } else if t.eq_ignore_ascii_case("DT_Mesh") || t == "2" {
        Some("Mesh")
    } else if t.eq_ignore_ascii_case("DT_Sprite") || t == "1" {
        Some("Texture")
    } else {
        None
    }
}

pub fn check(ctx: &T3dContext<'_>, out: &mut Vec<Diagnostic>) {
    if ctx.generation != Some(Generation::Ue2) || ctx.classes.is_none() {
        return;
    }
    for block in ctx.actors() {
        let Some(class) = block.attribute_value(ctx.text, "Class") else { continue };
        // Only a resource the actor's own line clears: a T3D written by another tool than
        // UnrealEd may leave a set reference out (real exports of SWAT 4 and Tribes maps
        // hold a thousand static mesh actors without their `StaticMesh` line), so a missing
        // line is not read as the class's `None`. Looked at first: most actors clear none,
        // and then no class default is read.
        let cleared = |key: &str| {
            property_word(block, ctx.text, key)
                .filter(|(_, value)| value.is_empty() || value.eq_ignore_ascii_case("None"))
        };
        if RESOURCES.iter().all(|key| cleared(key).is_none()) {
            continue;
        }
        let draw_type = actor_value(ctx, block, class, "DrawType");
        let Some(resource) = draw_type.text().and_then(needed_resource) else { continue };
        let Some((span, _)) = cleared(resource) else { continue };
        if actor_value(ctx, block, class, "bHidden").as_bool() != Some(false) {
            continue;
        }
        let draw = draw_type.text().unwrap_or_default();
        out.push(RULE.diagnostic(
            span,
            format!("this actor draws as `{draw}` but its `{resource}` is `None`: the game draws nothing here"),
        ));
    }
}
