//! `t3d-unanswered-event`: an actor's `Event` names a tag no actor of the map has, so the
//! event triggers nothing placed in the map. An info: actors spawned in play can carry the
//! tag, and game code can listen for the event by name.

use unreal_syntax::Span;

use super::actor_links::{self, LinkRule, MapNames};
use super::map_facts::{Link, LinkKind};
use super::{RuleMeta, Scope, T3dContext};
use crate::{Diagnostic, Severity};

pub static RULE: RuleMeta = RuleMeta {
    code: "t3d-unanswered-event",
    severity: Severity::Info,
    summary: "an `Event` that no actor's `Tag` in the map answers",
    scope: Scope::Summarized,
    docs: DOCS,
    ..RuleMeta::T3D_LOCAL
};

/// The rule's documentation: its `docs/rules.md` section after the `Severity:` lead.
const DOCS: &str = r"An actor's `Event` names a tag that no actor in the map has. When the
actor fires its event (a `Trigger` touched, a `Mover` arriving, a `Counter` reaching its
count), the engine calls `Trigger` on every actor whose `Tag` is that name, compared
ignoring case; with none, nothing placed in the map reacts. A typing slip (`Event=Door1`
for `Tag=Door01`) or a deleted target looks like this. An actor without a `Tag=` line has
its class's name as its tag (spawning an actor sets it so), and that counts.

It is an info, not a warning: an actor spawned during play (a `ThingFactory`'s creatures, a
scripted controller waiting for the event) can carry the tag, and a game type can listen
for the event by name. The check runs only on a whole map (a file with a `LevelInfo`): a
few copied actors name targets outside the file.

Engine basis: UE1's `Trigger` broadcasts with `foreach AllActors(class'Actor', A, Event)`,
which matches `Tag` (UT v469 `Engine/Classes/Trigger.uc:221-223`); UE2's
`Actor.TriggerEvent` does the same over the level's actors (UT2004
`Engine/Classes/Actor.uc:1726-1739`). Spawning an actor sets its tag to its class's name
(UT2004 `Engine/Src/UnLevAct.cpp:94`).

```t3d
Begin Map
Begin Actor Class=LevelInfo Name=LevelInfo0
End Actor
Begin Actor Class=Trigger Name=Trigger0
    Event=Door1
End Actor
Begin Actor Class=Mover Name=Mover0
    Tag=Door01
End Actor
End Map
```

Fix: give the target the `Tag` the `Event` names, or correct the `Event`.

```t3d fixed
Begin Map
Begin Actor Class=LevelInfo Name=LevelInfo0
End Actor
Begin Actor Class=Trigger Name=Trigger0
    Event=Door1
End Actor
Begin Actor Class=Mover Name=Mover0
    Tag=Door1
End Actor
End Map
```";

pub struct Summarizer;

impl LinkRule for Summarizer {
    fn wanted(&self, link: &Link) -> bool {
        link.kind == LinkKind::Event
    }

    fn judge(&self, names: &MapNames, link: &Link, span: Span) -> Option<Diagnostic> {
        (names.tagged(link.hash) == 0).then(|| {
            RULE.diagnostic(
                span,
                format!(
                    "no actor in this map has `Tag={}`: this `Event` triggers nothing placed here",
                    link.target
                ),
            )
        })
    }
}

pub fn check(ctx: &T3dContext<'_>, out: &mut Vec<Diagnostic>) {
    actor_links::check(&Summarizer, ctx, out);
}
