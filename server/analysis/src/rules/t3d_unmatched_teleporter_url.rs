//! `t3d-unmatched-teleporter-url`: a `Teleporter` whose `URL` names a teleporter of this
//! level by tag, and no other actor of the map has that tag: touching it does nothing.

use unreal_syntax::Span;

use super::actor_links::{self, LinkRule, MapNames};
use super::map_facts::{Link, LinkKind};
use super::{RuleMeta, Scope, T3dContext};
use crate::{Diagnostic, Severity};

pub static RULE: RuleMeta = RuleMeta {
    code: "t3d-unmatched-teleporter-url",
    severity: Severity::Warning,
    summary: "a `Teleporter`'s local `URL` that no other actor's `Tag` answers",
    scope: Scope::Summarized,
    docs: DOCS,
    ..RuleMeta::T3D_LOCAL
};

/// The rule's documentation: its `docs/rules.md` section after the `Severity:` lead.
const DOCS: &str = r#"A `Teleporter`'s `URL` without `/` or `#` names its destination in the
same level: another `Teleporter` whose `Tag` is that text, compared ignoring case. When no
other actor of the map has that tag, a player who touches the teleporter stays where they
are. A `URL` with `/` or `#` names another level or server and is not checked; an empty
`URL` makes a destination only.

Judged for the classes that keep `Teleporter`'s own `Touch`: `Teleporter`,
`VisibleTeleporter` and `FavoritesTeleporter` (a mod's subclass may read its `URL` its own
way). Only a tag no other actor has is reported: an actor with the tag that is not a
teleporter cannot be told apart without the class tree. An actor without a `Tag=` line has
its class's name as its tag. The check runs only on a whole map (with a `LevelInfo`).

Engine basis: `Teleporter.Touch` teleports to a random other `Teleporter` with
`string(Dest.Tag) ~= URL` when the `URL` holds no `/` or `#` (UT v469
`Engine/Classes/Teleporter.uc:211-226`, the same in Unreal 227, UT2004
`Engine/Classes/Teleporter.uc:208-220` and the other games' `Engine/Classes/Teleporter.uc`).

```t3d
Begin Map
Begin Actor Class=LevelInfo Name=LevelInfo0
End Actor
Begin Actor Class=Teleporter Name=Teleporter0
    URL="RoofExit"
End Actor
Begin Actor Class=Teleporter Name=Teleporter1
    Tag=RoofExt
End Actor
End Map
```

Fix: give the destination teleporter the `Tag` the `URL` names, or correct the `URL`.

```t3d fixed
Begin Map
Begin Actor Class=LevelInfo Name=LevelInfo0
End Actor
Begin Actor Class=Teleporter Name=Teleporter0
    URL="RoofExit"
End Actor
Begin Actor Class=Teleporter Name=Teleporter1
    Tag=RoofExit
End Actor
End Map
```"#;

/// The classes whose `Touch` is `Teleporter`'s own.
fn teleports_by_tag(class: &str) -> bool {
    ["Teleporter", "VisibleTeleporter", "FavoritesTeleporter"]
        .iter()
        .any(|c| class.eq_ignore_ascii_case(c))
}

pub struct Summarizer;

impl LinkRule for Summarizer {
    fn wanted(&self, link: &Link) -> bool {
        link.kind == LinkKind::TeleporterUrl && teleports_by_tag(&link.class)
    }

    fn judge(&self, names: &MapNames, link: &Link, span: Span) -> Option<Diagnostic> {
        // The teleporter never picks itself.
        let others = names.tagged(link.hash).saturating_sub(usize::from(link.own_tag == link.hash));
        (others == 0).then(|| {
            RULE.diagnostic(
                span,
                format!(
                    "no other actor in this map has `Tag={}`: this teleporter sends nobody anywhere",
                    link.target
                ),
            )
        })
    }
}

pub fn check(ctx: &T3dContext<'_>, out: &mut Vec<Diagnostic>) {
    actor_links::check(&Summarizer, ctx, out);
}
