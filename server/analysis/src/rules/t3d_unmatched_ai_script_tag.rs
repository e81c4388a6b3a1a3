//! `t3d-unmatched-ai-script-tag`: a UE2 Pawn's `AIScriptTag` names a tag no actor of the map
//! has, so no `AIScript` takes the Pawn and it runs its default controller.

use unreal_syntax::Span;

use super::actor_links::{self, LinkRule, MapNames};
use super::map_facts::{Link, LinkKind};
use super::{RuleMeta, Scope, T3dContext};
use crate::{Diagnostic, Generation, Severity};

pub static RULE: RuleMeta = RuleMeta {
    code: "t3d-unmatched-ai-script-tag",
    severity: Severity::Warning,
    summary: "a Pawn's `AIScriptTag` that no actor in the map answers (UE2)",
    scope: Scope::Summarized,
    docs: DOCS,
    ..RuleMeta::T3D_LOCAL
};

/// The rule's documentation: its `docs/rules.md` section after the `Severity:` lead.
const DOCS: &str = r#"A placed Pawn's `AIScriptTag` (UE2) names a tag that no actor in the map
has. When the Pawn starts, it looks for the `AIScript` (a `ScriptedSequence`, an
`AIScript` subclass) whose `Tag` is its `AIScriptTag` and lets it spawn the Pawn's
controller; with none, the Pawn gets its default controller and the scripted behaviour
never runs. UT2004's map check reports it as an error: "No AIScript with Tag corresponding
to this Pawn's AIScriptTag".

Only a tag that no actor at all has is reported: an actor with the tag whose class is not
an `AIScript` cannot be told apart without the class tree. Names compare ignoring case. UE1
Pawns have no `AIScriptTag`; the check runs on UE2 maps that are whole (with a
`LevelInfo`).

Engine basis: UT2004 `Engine/Classes/Pawn.uc:1924-1934` (`foreach AllActors(class'AIScript',
A, AIScriptTag)`), `Engine/Src/UnErrorChecking.cpp:208-231` (the map check).

<!-- example engine=ue2 -->
```t3d
Begin Map
Begin Actor Class=LevelInfo Name=LevelInfo0
End Actor
Begin Actor Class=SkaarjPupae Name=SkaarjPupae0
    AIScriptTag=Ambush1
End Actor
End Map
```

Fix: give the `ScriptedSequence` the `Tag` the `AIScriptTag` names, or correct it.

```t3d fixed
Begin Map
Begin Actor Class=LevelInfo Name=LevelInfo0
End Actor
Begin Actor Class=SkaarjPupae Name=SkaarjPupae0
    AIScriptTag=Ambush1
End Actor
Begin Actor Class=ScriptedSequence Name=ScriptedSequence0
    Tag=Ambush1
End Actor
End Map
```"#;

pub struct Summarizer;

impl LinkRule for Summarizer {
    fn wanted(&self, link: &Link) -> bool {
        link.kind == LinkKind::AiScriptTag && link.generation == Some(Generation::Ue2)
    }

    fn judge(&self, names: &MapNames, link: &Link, span: Span) -> Option<Diagnostic> {
        (names.tagged(link.hash) == 0).then(|| {
            RULE.diagnostic(
                span,
                format!(
                    "no actor in this map has `Tag={}`: no AIScript takes this Pawn, which runs its default controller",
                    link.target
                ),
            )
        })
    }
}

pub fn check(ctx: &T3dContext<'_>, out: &mut Vec<Diagnostic>) {
    actor_links::check(&Summarizer, ctx, out);
}
