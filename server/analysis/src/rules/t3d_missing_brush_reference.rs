//! `t3d-missing-brush-reference`: an actor holds a `Begin Brush Name=X` block but no `Brush=`
//! line names a model for it (or it says `Brush=None`). UnrealEd's import reads the brush,
//! then prepares it through the actor's `Brush` reference, which is `None`: the editor
//! crashes.

use unreal_syntax::t3d::Value;

use super::{RuleMeta, T3dContext};
use crate::t3d::actors::imported_brush;
use crate::{Diagnostic, Generation, Severity};

pub static RULE: RuleMeta = RuleMeta {
    code: "t3d-missing-brush-reference",
    severity: Severity::Error,
    summary: "a brush actor with a `Begin Brush` block but no `Brush=` reference: import crashes",
    docs: DOCS,
    ..RuleMeta::T3D_LOCAL
};

/// The rule's documentation: its `docs/rules.md` section after the `Severity:` lead.
const DOCS: &str = r"A brush actor (a `Brush`, `Mover`, volume) holds a `Begin Brush Name=X`
block, but no `Brush=Model'MyLevel.X'` line follows it (or the line says `Brush=None`).
When UnrealEd imports the actor, it builds the model from the block and marks that it did;
after the actor's last line it prepares the brush through the actor's `Brush` property: a
static brush sets flags on `Brush`, a moving one (a `Mover`) is prepared for CSG with
`check(Actor->Brush)`. With `Brush` left `None`, the editor crashes (a GPF in `PrepBrush`,
OldUnreal's UT issue 430, seen in 469b). A hand-edited T3D that dropped the line, or a
brush block pasted into an actor, makes this.

A `Begin Brush` line without `Name=` makes no model and is not judged. A `Brush=` that names
a model the map does not define is `t3d-unresolved-brush-model`, an error too when the actor
holds its own brush block.

Engine basis: `ImportProperties` sets `ImportedBrush` on a `Begin Brush` with `Name=`, then
in `PrepBrush` dereferences `Actor->Brush` (UT v400 `Editor/Src/UnEditor.cpp:706-729` and
`:782-799`, UT2004 `Editor/Src/UnEditor.cpp:770-792` and `:988-1006`);
`csgPrepMovingBrush` starts with `check(Actor->Brush)` (UT v400
`Editor/Src/UnEdCsg.cpp:25-29`).

```t3d
Begin Actor Class=Brush Name=Brush12
    CsgOper=CSG_Subtract
    Begin Brush Name=Model13
    End Brush
End Actor
```

Fix: add `Brush=Model'MyLevel.Model13'` (the name of the actor's `Begin Brush`) after the
brush block.

```t3d fixed
Begin Actor Class=Brush Name=Brush12
    CsgOper=CSG_Subtract
    Begin Brush Name=Model13
    End Brush
    Brush=Model'MyLevel.Model13'
End Actor
```";

pub fn check(ctx: &T3dContext<'_>, out: &mut Vec<Diagnostic>) {
    let text = ctx.text;
    for block in ctx.actors() {
        // An actor without `Class=` is never made (`t3d-actor-without-class`): nothing to crash.
        if !super::t3d_actor_without_class::has_class(block, text) {
            continue;
        }
        let Some((brush, model)) = imported_brush(block, text) else { continue };
        let reference = block.last_property(text, "Brush");
        let message = match reference.map(|p| &p.value) {
            // `Brush = Model'...'`: UE2's import strips the blanks around `=` and reads it (UT2004
            // `Editor/Src/UnEditor.cpp`, `ImportProperties`); UE1's reads the name `Brush ` and
            // finds no such property (UT v400 `Editor/Src/UnEditor.cpp:735-760`).
            None if spaced_property(block, text, "Brush") => match ctx.generation {
                Some(Generation::Ue1) => format!(
                    "this actor reads the brush `{model}`, but its `Brush = ...` line has a blank before `=`, which UE1's import reads as the name of no property: `Brush` stays `None` and UnrealEd's import crashes preparing it"
                ),
                _ => continue,
            },
            None => format!(
                "this actor reads the brush `{model}` but has no `Brush=Model'MyLevel.{model}'` line: UnrealEd's import crashes preparing it"
            ),
            Some(Value::Word { span }) if span.text(text).trim().eq_ignore_ascii_case("None") => {
                format!(
                    "`Brush=None` on an actor that reads the brush `{model}`: UnrealEd's import crashes preparing it"
                )
            }
            Some(_) => continue,
        };
        out.push(
            RULE.diagnostic(brush.begin_span, message)
                .with_label(block.begin_span, "the actor whose `Brush` stays `None`"),
        );
    }
}

/// Whether the actor has a `Key = value` line for `key` (no property in the tree, which reads
/// a word and a blank as the start of a keyword line): as `t3d-blank-before-equals` reads them.
fn spaced_property(block: &unreal_syntax::t3d::Block, text: &str, key: &str) -> bool {
    block.children.iter().any(|item| {
        super::t3d_blank_before_equals::spaced_name(item.span().text(text))
            .is_some_and(|(name, _)| name.eq_ignore_ascii_case(key))
    })
}
