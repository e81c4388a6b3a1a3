//! `t3d-unmatched-attach-tag`: an `AttachTag` that names no actor of the map, so the actor is
//! never attached to what it was meant to ride on.

use unreal_syntax::Span;

use super::actor_links::{self, LinkRule, MapNames};
use super::map_facts::{Link, LinkKind};
use super::{RuleMeta, Scope, T3dContext};
use crate::{Diagnostic, Generation, Severity};

pub static RULE: RuleMeta = RuleMeta {
    code: "t3d-unmatched-attach-tag",
    severity: Severity::Warning,
    summary: "an `AttachTag` that no actor in the map answers: nothing is attached",
    scope: Scope::Summarized,
    docs: DOCS,
    ..RuleMeta::T3D_LOCAL
};

/// The rule's documentation: its `docs/rules.md` section after the `Severity:` lead.
const DOCS: &str = r#"An `AttachTag` names no actor of the map, so the attachment it asks
for never happens: the actor stays where it is when what it should ride on moves.

- **UE2** (UT2004 and kin): every actor's `AttachTag`. When the level starts, the engine
  bases the actor on the first actor whose `Tag` or name is the `AttachTag`; with none, the
  actor is left unattached (and, having an `AttachTag`, is not based on the floor either).
  UT2004's map check reports it as an error: "No Actor with Tag or Name corresponding to
  this Actor's AttachTag".
- **UE1**: `Actor.AttachTag` exists but the stock movers that attach read their own:
  an `AttachMover` or `MixMover` bases every actor whose `Tag` is its `AttachTag` on itself
  when play begins (a `foreach AllActors` over that tag). Only those two classes are judged
  in UE1 maps; their name must be a `Tag`, not an actor's name.

Names compare ignoring case; an actor without a `Tag=` line has its class's name as its
tag. The check runs only on a whole map (a file with a `LevelInfo`).

Engine basis: UT2004 `Engine/Src/UnGame.cpp:2651-2667` (the bases found when a level
starts) and `Engine/Src/UnErrorChecking.cpp:66-82` (the map check); UT v469
`UnrealShare/Classes/AttachMover.uc:24-36` and `UnrealI/Classes/MixMover.uc:34-36`.

```t3d
Begin Map
Begin Actor Class=LevelInfo Name=LevelInfo0
End Actor
Begin Actor Class=AttachMover Name=AttachMover0
    AttachTag=Platform
End Actor
Begin Actor Class=Decoration Name=Decoration0
    Tag=Platfrom
End Actor
End Map
```

Fix: give the actor to attach the `Tag` the `AttachTag` names, or correct the `AttachTag`.

```t3d fixed
Begin Map
Begin Actor Class=LevelInfo Name=LevelInfo0
End Actor
Begin Actor Class=AttachMover Name=AttachMover0
    AttachTag=Platform
End Actor
Begin Actor Class=Decoration Name=Decoration0
    Tag=Platform
End Actor
End Map
```"#;

/// The UE1 classes whose own `AttachTag` attaches actors (by `Tag` only).
fn attaches_in_ue1(class: &str) -> bool {
    class.eq_ignore_ascii_case("AttachMover") || class.eq_ignore_ascii_case("MixMover")
}

pub struct Summarizer;

impl LinkRule for Summarizer {
    fn wanted(&self, link: &Link) -> bool {
        link.kind == LinkKind::AttachTag
            && match link.generation {
                Some(Generation::Ue2) => true,
                // Unknown generation: only the classes that attach in either.
                Some(Generation::Ue1) | None => attaches_in_ue1(&link.class),
            }
    }

    fn judge(&self, names: &MapNames, link: &Link, span: Span) -> Option<Diagnostic> {
        // UE2 also matches an actor's name; UE1's movers only a `Tag`. Unknown: as UE2, so
        // that nothing false is said.
        let by_name = link.generation != Some(Generation::Ue1);
        if names.tagged(link.hash) > 0 || by_name && names.named(link.hash) {
            return None;
        }
        let by = if by_name { "`Tag` or name" } else { "`Tag`" };
        Some(RULE.diagnostic(
            span,
            format!(
                "no actor in this map has the {by} `{}`: this actor is attached to nothing",
                link.target
            ),
        ))
    }
}

pub fn check(ctx: &T3dContext<'_>, out: &mut Vec<Diagnostic>) {
    actor_links::check(&Summarizer, ctx, out);
}
