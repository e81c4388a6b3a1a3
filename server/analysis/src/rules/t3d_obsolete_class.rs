//! `t3d-obsolete-class`: a UE2 actor of a class whose defaults say `bObsolete=True`: the
//! game's authors retired it and UT2004's map check asks for it to be removed.

use super::actor_values::{actor_value, ActorValue};
use super::{RuleMeta, T3dContext};
use crate::{Diagnostic, Generation, Severity};

pub static RULE: RuleMeta = RuleMeta {
    code: "t3d-obsolete-class",
    severity: Severity::Warning,
    summary: "an actor of a class marked `bObsolete` (UE2): the game retired it",
    docs: DOCS,
    ..RuleMeta::T3D_LOCAL
};

/// The rule's documentation: its `docs/rules.md` section after the `Severity:` lead.
const DOCS: &str = r#"An actor of a UE2 map is of a class whose defaults (or a parent's)
set `bObsolete=True`: `Actor.uc` declares it as "actor is obsolete - warn level designers to
remove it". The game's authors keep such a class only so that old maps still load; its code
is no longer what the game relies on (Black9's zone classes gave way to volumes, UT2004's
`xCTFBase` says "shouldn't be placed in levels"). UT2004's map check reports it as "... is
obsolete and must be removed!!!", and `Actor.CheckForErrors` logs it when a game checks its
actors.

The class's defaults come from the package index: the game folder's compiled packages and
the `Classes/*.uc` sources (the game folder's, and the workspace's with or without a game
folder), up the parents. Without them, or when a class up the chain cannot be read, the
actor is not judged (`t3d-unreadable-class` says so once per map). UE1 has no `bObsolete`.

Engine basis: UT2004 `Engine/Classes/Actor.uc:612` (the flag) and `:1431-1436`, and
`Engine/Src/UnErrorChecking.cpp:56-59` (the map check).

Here `OldSpawner`'s defaults set `bObsolete=True`, and `RevivedSpawner`, derived from it,
sets it back to `False`:

<!-- example index=classes engine=ue2 -->
```t3d
Begin Actor Class=OldSpawner Name=OldSpawner0
End Actor
```

Fix: replace the actor with the class that took its place (the class's comments or the
game's documentation name it), or remove it.

```t3d fixed
Begin Actor Class=RevivedSpawner Name=RevivedSpawner0
End Actor
```"#;

pub fn check(ctx: &T3dContext<'_>, out: &mut Vec<Diagnostic>) {
    if ctx.generation != Some(Generation::Ue2) || ctx.classes.is_none() {
        return;
    }
    for block in ctx.actors() {
        let Some((attribute, class)) = block.attribute(ctx.text, "Class") else { continue };
        let ActorValue::Default(value, by) = actor_value(ctx, block, class, "bObsolete") else {
            continue;
        };
        if value.trim().eq_ignore_ascii_case("True") {
            out.push(RULE.diagnostic(
                attribute.value,
                format!(
                    "class `{}` is obsolete (`bObsolete=True` in the defaults of `{by}`): the game keeps it only for old maps, and UT2004's map check says it must be removed",
                    class.trim_matches('"')
                ),
            ));
        }
    }
}
