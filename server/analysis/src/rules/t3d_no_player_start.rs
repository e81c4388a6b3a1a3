//! `t3d-no-player-start`: a whole map with no `PlayerStart` (nor an actor of a class derived
//! from it): a player who joins the game on it finds no place to start.

use super::map_facts::{self, MapFacts};
use super::{RuleMeta, Scope, T3dContext};
use crate::{Diagnostic, Severity};

pub static RULE: RuleMeta = RuleMeta {
    code: "t3d-no-player-start",
    severity: Severity::Info,
    summary: "a map with no `PlayerStart`: players cannot join a game on it",
    scope: Scope::Summarized,
    docs: DOCS,
    ..RuleMeta::T3D_LOCAL
};

/// The rule's documentation: its `docs/rules.md` section after the `Severity:` lead.
const DOCS: &str = r#"A whole map (a file with a `LevelInfo`) has no `PlayerStart`, nor any
actor of a class derived from it. When a player joins a game on the map, the game type looks
for a `PlayerStart` to put them at; with none, the login fails ("Could not find starting
spot" in UE1) and nobody can play the map. It is an info: a map made only for UnrealEd
(an example map, a prefab library), one entered only through a teleporter from another level
(UE1 then starts the player at the `Teleporter` the URL names), or one whose game type places
players its own way needs none.

Classes are told apart with the package index (the game folder's packages and the
`Classes/*.uc` sources of the game folder and the workspace): an actor whose class cannot be
traced to its parents might be a start, so the map is not judged then. Without a game folder
(no index, or a mod's sources alone), a class the sources do not declare is looked up among
the stock games' actor classes (UE1: UT v469's and Unreal 227's; UE2: UT2004's), whose
hierarchy the tool carries: a mod's classes are traced up to the stock class they extend,
and the stock actors every map holds (`Brush`, `Light`) are known not to be starts. A class
neither the sources nor the stock games declare (another mod's, a licensee game's) leaves
the map unjudged, and so does any class when the settings name a licensee game (Deus Ex,
Rune...), whose classes of the same names may descend from elsewhere.

Engine basis: `GameInfo.Login` fails when `FindPlayerStart` finds no `PlayerStart` (UT v469
`Engine/Classes/GameInfo.uc:878-885` and `:1114-1133`; UT2004
`Engine/Classes/GameInfo.uc:1066-1073`).

```t3d
Begin Map
Begin Actor Class=LevelInfo Name=LevelInfo0
    Title="Arena"
End Actor
Begin Actor Class=Light Name=Light0
End Actor
End Map
```

Fix: place a `PlayerStart` (one per player the map is made for).

```t3d fixed
Begin Map
Begin Actor Class=LevelInfo Name=LevelInfo0
    Title="Arena"
End Actor
Begin Actor Class=Light Name=Light0
End Actor
Begin Actor Class=PlayerStart Name=PlayerStart0
End Actor
End Map
```"#;

fn report(parts: &[(&MapFacts, i64)], out: &mut Vec<Diagnostic>) {
    let mut level_info = None;
    for &(facts, delta) in parts {
        if facts.start_found || facts.start_unsure {
            return;
        }
        level_info = level_info.or(facts.level_info.map(|span| span.shifted(delta)));
    }
    if let Some(span) = level_info {
        out.push(RULE.diagnostic(
            span,
            "this map has no `PlayerStart`: a player who joins a game on it has no place to start",
        ));
    }
}

pub fn check(ctx: &T3dContext<'_>, out: &mut Vec<Diagnostic>) {
    Summarizer.check(ctx, out);
}

/// The rule over per-part summaries (the incremental document's segments): the map facts of
/// each part, reported by [`report`].
#[allow(non_upper_case_globals)] // the rule registry names every rule's summarizer `Summarizer`
pub static Summarizer: map_facts::FactsRule = map_facts::FactsRule(report);
