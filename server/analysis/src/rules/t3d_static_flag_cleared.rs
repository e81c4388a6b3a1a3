//! `t3d-static-flag-cleared`: a UE2 actor sets `bStatic=False` or `bNoDelete=False` where its
//! class is static (or never deleted) by default. UT2004's map check: "map will fail in
//! netplay".

use super::map_facts::property_word;
use super::{RuleMeta, T3dContext};
use crate::{Diagnostic, Generation, Severity};

pub static RULE: RuleMeta = RuleMeta {
    code: "t3d-static-flag-cleared",
    severity: Severity::Warning,
    summary: "`bStatic` or `bNoDelete` turned off on a class that sets it (UE2): fails in netplay",
    docs: DOCS,
    ..RuleMeta::T3D_LOCAL
};

/// The rule's documentation: its `docs/rules.md` section after the `Severity:` lead.
const DOCS: &str = r#"A placed actor of a UE2 map writes `bStatic=False` (or `bNoDelete=False`)
while its class sets `bStatic=True` (or `bNoDelete=True`) in its defaults. A network client
decides which of the map's actors it keeps and which the server replicates from the class's
defaults, the server from the placed actor's own flags: the two disagree on this actor.
UT2004's map check reports it as "bStatic false, but is bStatic by default - map will fail
in netplay" (and the same for `bNoDelete`).

The class's defaults come from the package index: the game folder's compiled packages and
the `Classes/*.uc` sources (the game folder's, and the workspace's with or without a game
folder), up the parents. Without them, or when a class up the chain cannot be read, the
actor is not judged (`t3d-unreadable-class` says so once per map). UE1 maps are not judged:
the UE1 engine's replication source is not public (UT v469a's release notes mention a crash
of maps whose brushes had both flags off, fixed then).

Engine basis: UT2004 `Engine/Src/UnErrorChecking.cpp:61-64` (`AActor::CheckForErrors`).

<!-- example index=classes engine=ue2 -->
```t3d
Begin Actor Class=StaticMeshActor Name=StaticMeshActor4
    StaticMesh=StaticMesh'Pipes.Elbow'
    bStatic=False
End Actor
```

Fix: remove the line (and use a class that is not static for an actor that must move or be
deleted, such as a `Mover` or a `KActor`).

```t3d fixed
Begin Actor Class=StaticMeshActor Name=StaticMeshActor4
    StaticMesh=StaticMesh'Pipes.Elbow'
End Actor
```"#;

pub fn check(ctx: &T3dContext<'_>, out: &mut Vec<Diagnostic>) {
    if ctx.generation != Some(Generation::Ue2) || ctx.classes.is_none() {
        return;
    }
    for block in ctx.actors() {
        let Some(class) = block.attribute_value(ctx.text, "Class") else { continue };
        for flag in ["bStatic", "bNoDelete"] {
            // Only the actor's own line is judged: its class's default is read only then.
            let Some((span, value)) = property_word(block, ctx.text, flag) else { continue };
            if !value.eq_ignore_ascii_case("False") {
                continue;
            }
            let Some(index) = ctx.classes else { continue };
            let crate::index::DefaultValue::Set(default, by) =
                index.default_of(class.trim_matches('"'), flag)
            else {
                continue;
            };
            if default.trim().eq_ignore_ascii_case("True") {
                out.push(RULE.diagnostic(
                    span,
                    format!(
                        "`{flag}=False` on this `{}`, whose class `{by}` sets `{flag}=True`: UT2004's map check says the map will fail in netplay",
                        class.trim_matches('"')
                    ),
                ));
            }
        }
    }
}
