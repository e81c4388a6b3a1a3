//! `t3d-actor-without-class`: a `Begin Actor` line without `Class=` (or with blanks around its
//! `=`). UnrealEd's map import reads the class with `ParseObject(Str, "CLASS=")`; without it the
//! actor is never made, and its lines are read as lines of the map.

use super::{RuleMeta, T3dContext};
use crate::{Diagnostic, Severity};

pub static RULE: RuleMeta = RuleMeta {
    code: "t3d-actor-without-class",
    severity: Severity::Warning,
    summary: "a `Begin Actor` line without `Class=`: UnrealEd's import skips the actor",
    docs: DOCS,
    ..RuleMeta::T3D_LOCAL
};

/// The rule's documentation: its `docs/rules.md` section after the `Severity:` lead.
const DOCS: &str = r#"A `Begin Actor` line has no `Class=` (written so, without blanks around
the `=`: `Class = Brush` is not it). UnrealEd's map import finds an actor's class by searching
its `Begin Actor` line for the text `CLASS=`; when it finds none it makes no actor and goes on
reading the following lines as lines of the map: the actor's properties are dropped, and a
`Begin Brush` inside it becomes a brush of its own with none of the actor's settings (its CSG
operation, location, flags). What needs the actor (`t3d-missing-brush-reference`: no actor, no
crash) is not reported on it; its brush's polygons are checked as any brush's, since the import
reads them. A converter that writes `Key = Value` gives every actor of the map this finding. An
empty `Begin Actor` and `End Actor` with nothing between (XIII's exports write one) is a hint:
skipped, it loses nothing.

Engine basis: `ULevelFactory::FactoryCreateText`, `ParseObject<UClass>( Str, TEXT("CLASS="),
TempClass, ANY_PACKAGE )`, with nothing done for the actor when it fails (UT v400
`Editor/Src/UnEdFact.cpp:440-444`, UT2004 `Editor/Src/UnEdFact.cpp:607-611`); `Parse` looks for
the text `CLASS=` (`Core/Src/UnMisc.cpp`).

```t3d
Begin Map
Begin Actor Class = Light Name = Light0
    LightHue=12
End Actor
End Map
```

Fix: write the class as UnrealEd does.

```t3d fixed
Begin Map
Begin Actor Class=Light Name=Light0
    LightHue=12
End Actor
End Map
```"#;

pub fn check(ctx: &T3dContext<'_>, out: &mut Vec<Diagnostic>) {
    for block in ctx.actors() {
        if has_class(block, ctx.text) {
            continue;
        }
        // `Class` then blanks (`Class = Light`), or `Class=` with nothing after it.
        let written = block
            .attributes
            .iter()
            .find(|a| a.key.text(ctx.text).eq_ignore_ascii_case("Class"))
            .map(|a| ctx.text.get(a.key.end as usize..).is_some_and(|rest| rest.starts_with('=')));
        let message = match written {
            Some(false) => "`Class` is written with a blank before `=`: UnrealEd's import reads `CLASS=` and finds none, so it skips this actor (its lines are read as lines of the map, a `Begin Brush` in it as a brush of its own)",
            Some(true) => "`Class=` names no class: UnrealEd's import skips this actor (its lines are read as lines of the map, a `Begin Brush` in it as a brush of its own)",
            None => "this actor has no `Class=`: UnrealEd's import skips it (its lines are read as lines of the map, a `Begin Brush` in it as a brush of its own)",
        };
        // `Begin Actor` and `End Actor` and nothing else (XIII's exports write one before the
        // `LevelInfo`): skipped, and nothing is lost.
        if block.attributes.is_empty() && block.children.is_empty() {
            out.push(
                RULE.diagnostic(
                    block.begin_span,
                    "an empty actor without `Class=`: UnrealEd's import skips it, and it holds nothing",
                )
                .with_severity(Severity::Hint)
                .unnecessary(),
            );
            continue;
        }
        out.push(RULE.diagnostic(block.begin_span, message));
    }
}

/// Whether the actor's `Begin` line has `Class=` with a value, as the import looks for it: the
/// engine makes an actor only then (whether the class exists is `t3d-unknown-class`'s).
pub(crate) fn has_class(block: &unreal_syntax::t3d::Block, text: &str) -> bool {
    block.attribute_value(text, "Class").is_some_and(|v| !v.trim_matches('"').is_empty())
}
