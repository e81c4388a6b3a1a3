//! `t3d-unknown-class`: `Begin Actor Class=X` where no indexed package exports a class `X`
//! (or `Package.X`). UnrealEd skips the actor on import. Runs only with a package index that
//! holds the engine's classes (a class `Actor`, from `Engine.u`): without them no class name
//! can be judged.

use super::t3d_unknown_object::Reporter;
use super::{Fixability, RuleMeta, T3dContext};
use crate::index::ObjectKind;
use crate::{Diagnostic, Severity};

pub static RULE: RuleMeta = RuleMeta {
    code: "t3d-unknown-class",
    severity: Severity::Warning,
    summary: "an actor's `Class=` names no class of the indexed packages",
    fix: Fixability::Unsafe,
    docs: DOCS,
    ..RuleMeta::T3D_LOCAL
};

/// The rule's documentation: its `docs/rules.md` section after the `Severity:` lead.
const DOCS: &str = r"`Begin Actor Class=X` where no indexed package exports a class `X` (or
`Package.X`). UnrealEd skips the actor on import. Runs only when the index holds the
engine's classes (a class `Actor`, from `Engine.u`): without them no class name can be
judged. A class declared in the game folder's sources (`<Package>/Classes/*.uc`, the folders
UCC compiles from) is known before its package is compiled.

<!-- example index=indexed -->
```t3d
Begin Actor Class=Ligth Name=Light0
End Actor
```

Fix: the class's name (`Light`), or index the package that declares it.

```t3d fixed
Begin Actor Class=Light Name=Light0
End Actor
```";

pub fn check(ctx: &T3dContext<'_>, out: &mut Vec<Diagnostic>) {
    let Some(index) = ctx.packages else { return };
    if !index.knows_engine_classes() {
        return;
    }
    let mut reporter = Reporter::new(&RULE, index, ObjectKind::Class);
    for block in ctx.actors() {
        if let Some((attribute, value)) = block.attribute(ctx.text, "Class") {
            reporter.check(attribute.value, value, &format!("class `{value}`"), out);
        }
    }
}
