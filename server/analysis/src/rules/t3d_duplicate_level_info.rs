//! `t3d-duplicate-level-info`: a map with more than one `LevelInfo` actor. UnrealEd's import
//! puts each `LevelInfo` it reads at the head of the level's actor list, over the one before:
//! only the last survives, and the others' properties (title, author, music, the game type)
//! are lost.

use unreal_syntax::Span;

use super::summary::{Summarized, Summary};
use super::{RuleMeta, Scope, T3dContext};
use crate::{Diagnostic, Severity};

pub static RULE: RuleMeta = RuleMeta {
    code: "t3d-duplicate-level-info",
    severity: Severity::Warning,
    summary: "more than one `LevelInfo` actor: UnrealEd keeps only the last",
    scope: Scope::Summarized,
    docs: DOCS,
    ..RuleMeta::T3D_LOCAL
};

/// The rule's documentation: its `docs/rules.md` section after the `Severity:` lead.
const DOCS: &str = r#"A map holds more than one `LevelInfo` actor (`Class=LevelInfo` or
`Class=Engine.LevelInfo`). A level has one: UnrealEd's import puts every `LevelInfo` it reads
at the head of the level's actor list, in the place of the one before, so only the last one
in the text survives and the others, with their properties (`Title`, `Author`, `Song`,
`DefaultGameType` and the rest), are lost. A map pasted into another, or two exports joined
by hand, make this. The finding is on every `LevelInfo` but the last, with a label on the one
UnrealEd keeps. Subclasses of `LevelInfo` are not recognised by name, so not counted.

Engine basis: the map factory, for an actor that is a `LevelInfo`, sets `Actors(0)` to it and
clears its own slot (UT v400 `Editor/Src/UnEdFact.cpp:473-480`, UT2004
`Editor/Src/UnEdFact.cpp:640-648`), whatever `Actors(0)` held before; UT2004's map check
reports the same state as "Duplicate level info!" (`Engine/Src/UnErrorChecking.cpp:23-28`).

```t3d
Begin Actor Class=LevelInfo Name=LevelInfo0
    Title="Deck"
End Actor
Begin Actor Class=LevelInfo Name=LevelInfo1
End Actor
```

Fix: keep one `LevelInfo`, with the properties you want.

```t3d fixed
Begin Actor Class=LevelInfo Name=LevelInfo0
    Title="Deck"
End Actor
```"#;

/// The `LevelInfo` actors of a part: the span of each one's `Class=` value.
#[derive(Clone, Debug, Default, PartialEq)]
struct LevelInfos(Vec<Span>);

fn is_level_info(class: &str) -> bool {
    let class = class.trim_matches('"');
    class.eq_ignore_ascii_case("LevelInfo") || class.eq_ignore_ascii_case("Engine.LevelInfo")
}

fn collect(ctx: &T3dContext<'_>) -> LevelInfos {
    let mut found = Vec::new();
    for block in ctx.actors() {
        if let Some((attribute, class)) = block.attribute(ctx.text, "Class") {
            if is_level_info(class) {
                found.push(attribute.value);
            }
        }
    }
    found.shrink_to_fit();
    LevelInfos(found)
}

fn report<'a>(parts: impl IntoIterator<Item = (&'a LevelInfos, i64)>, out: &mut Vec<Diagnostic>) {
    let all: Vec<Span> = parts
        .into_iter()
        .flat_map(|(infos, delta)| infos.0.iter().map(move |s| s.shifted(delta)))
        .collect();
    let Some((&kept, replaced)) = all.split_last() else { return };
    for &span in replaced {
        out.push(
            RULE.diagnostic(
                span,
                "more than one `LevelInfo`: UnrealEd keeps only the last one a map imports, and this one's properties are lost",
            )
            .with_label(kept, "the `LevelInfo` UnrealEd keeps"),
        );
    }
}

pub fn check(ctx: &T3dContext<'_>, out: &mut Vec<Diagnostic>) {
    report([(&collect(ctx), 0)], out);
}

/// The rule over per-part summaries (the incremental document's segments).
pub struct Summarizer;

impl Summarized for Summarizer {
    fn summarize(&self, ctx: &T3dContext<'_>, _start: u32) -> Summary {
        let infos = collect(ctx);
        let empty = infos.0.is_empty();
        Summary::unless_empty(infos, empty)
    }

    fn report(&self, parts: &[(&Summary, i64)], out: &mut Vec<Diagnostic>) {
        report(
            parts
                .iter()
                .filter_map(|&(summary, delta)| Some((summary.get::<LevelInfos>()?, delta))),
            out,
        );
    }
}
