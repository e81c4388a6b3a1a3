//! `t3d-untitled-level`: the map's `LevelInfo` sets no `Title` (or an empty one). Server
//! browsers, scoreboards and web admin then show the class default, "Untitled" (or nothing).

use super::map_facts::{bare_class, property_word};
use super::{RuleMeta, T3dContext};
use crate::{Diagnostic, Severity};

pub static RULE: RuleMeta = RuleMeta {
    code: "t3d-untitled-level",
    severity: Severity::Info,
    summary: "the `LevelInfo` sets no `Title`: the game shows \"Untitled\"",
    docs: DOCS,
    ..RuleMeta::T3D_LOCAL
};

/// The rule's documentation: its `docs/rules.md` section after the `Severity:` lead.
const DOCS: &str = r#"The map's `LevelInfo` has no `Title=` line, or `Title=""`. The title is
what server browsers, the scoreboard and the web admin show for the map; without the line
it keeps `LevelInfo`'s default, "Untitled", and an empty one shows nothing. UT2004's map
check reports an empty title as "No title for this level!". An info: the map plays the
same.

Engine basis: `LevelInfo`'s `defaultproperties` set `Title="Untitled"` (UT v469
`Engine/Classes/LevelInfo.uc:230`, UT2004 `Engine/Classes/LevelInfo.uc:501`); UT2004
`Engine/Src/UnErrorChecking.cpp:34-35` (the map check).

```t3d
Begin Actor Class=LevelInfo Name=LevelInfo0
    Author="Anonymous"
End Actor
```

Fix: set `Title` in the level's properties (Level Properties, `LevelInfo`).

```t3d fixed
Begin Actor Class=LevelInfo Name=LevelInfo0
    Title="Deck"
    Author="Anonymous"
End Actor
```"#;

pub fn check(ctx: &T3dContext<'_>, out: &mut Vec<Diagnostic>) {
    for block in ctx.actors() {
        let Some((attribute, class)) = block.attribute(ctx.text, "Class") else { continue };
        if !bare_class(class).eq_ignore_ascii_case("LevelInfo") {
            continue;
        }
        match property_word(block, ctx.text, "Title") {
            None => out.push(RULE.diagnostic(
                attribute.value,
                "this `LevelInfo` sets no `Title`: server browsers and scoreboards show the map as \"Untitled\"",
            )),
            Some((span, "")) => out.push(RULE.diagnostic(
                span,
                "the level's `Title` is empty: server browsers and scoreboards show no name for the map",
            )),
            Some(_) => {}
        }
    }
}
