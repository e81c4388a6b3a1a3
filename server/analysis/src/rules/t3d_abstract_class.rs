//! `t3d-abstract-class`: `Begin Actor Class=X` where `X` is declared `abstract`. UnrealEd's
//! import spawns every actor it reads and asserts that it got one; the engine refuses to
//! spawn an abstract class, so the import stops with a failed assertion.
//!
//! Judged only where the class's declaration is known: today from the game folder's sources
//! (`<Package>/Classes/*.uc`, [`crate::index::class_sources`]); a class known only from a
//! compiled package is not judged.

use unreal_syntax::t3d::BlockKind;

use super::{RuleMeta, T3dContext};
use crate::index::PackageIndex;
use crate::{Diagnostic, Severity};

pub static RULE: RuleMeta = RuleMeta {
    code: "t3d-abstract-class",
    severity: Severity::Error,
    summary: "an actor's `Class=` names an abstract class: UnrealEd's import fails on it",
    docs: DOCS,
    ..RuleMeta::T3D_LOCAL
};

/// The rule's documentation: its `docs/rules.md` section after the `Severity:` lead.
const DOCS: &str = r#"An actor's `Class=` names a class declared `abstract`. An abstract class
cannot be spawned, and UnrealEd's T3D import spawns every actor it reads and asserts that it
got one: the import (paste, or a map imported from text) stops with a failed assertion. UT
v469e handles the failure instead ("Unreal Editor now gracefully handles failures to spawn
actors during t3d import operations", its release notes, OldUnreal issue 549): the actor is
not created. Either way the actor is lost. Only
`abstract` itself counts: a subclass of an abstract class is not abstract unless it says so.
Judged where the class's declaration is known: from the game folder's sources
(`<Package>/Classes/*.uc`); a class known only from a compiled package is not judged yet.

Engine basis: `ULevel::SpawnActor` refuses a class with `CLASS_Abstract` ('SpawnActor failed
because class %s is abstract', UT2004 `Engine/Src/UnLevAct.cpp:44-47`), and the importer
follows it with `check(Actor)` (UT v400 `Editor/Src/UnEdFact.cpp:457-458`, UT2004
`Editor/Src/UnEdFact.cpp:624-625`). `CLASS_Abstract` is not among the flags a subclass
inherits (`CLASS_Inherit`, UT2004 `Core/Inc/UnObjBas.h:120`).

```t3d
Begin Actor Class=Pickup Name=Pickup0
End Actor
```

Fix: place a concrete subclass (`Health`, `Armor`), or remove the actor."#;

pub fn check(ctx: &T3dContext<'_>, out: &mut Vec<Diagnostic>) {
    let Some(index) = ctx.packages else { return };
    if index.source_classes().is_empty() {
        return;
    }
    for &(block, _) in &ctx.blocks {
        if block.kind != BlockKind::Actor {
            continue;
        }
        let Some((attribute, value)) = block.attribute(ctx.text, "Class") else { continue };
        if let Some(declared_in) = abstract_declaration(index, value) {
            out.push(RULE.diagnostic(
                attribute.value,
                format!(
                    "class `{value}` is abstract ({declared_in}): UnrealEd cannot spawn it, and its import of this actor stops with a failed assertion (UT v469e and later leave the actor out)"
                ),
            ));
        }
    }
}

/// The file declaring the class `value` names abstract, when every class it may name is:
/// `Package.Name` names the one of that package; a bare name any class of that name (the
/// engine takes the first it finds in any package), so a bare name also declared elsewhere
/// without `abstract`, or compiled in a package that has no source here, is not judged.
fn abstract_declaration(index: &PackageIndex, value: &str) -> Option<String> {
    let value = value.trim_matches('"');
    let (package, name) = match value.split_once('.') {
        Some((package, name)) => (Some(package), name),
        None => (None, value),
    };
    let candidates: Vec<_> = index
        .source_classes_named(name)
        .filter(|c| package.is_none_or(|p| c.package.eq_ignore_ascii_case(p)))
        .collect();
    let first = candidates.first()?;
    if !candidates.iter().all(|c| c.is_abstract) {
        return None;
    }
    // A compiled class of that name in a package without these sources may be the one the
    // engine finds.
    let elsewhere = index.objects_named(name).iter().any(|&id| {
        index.entry(id).is_some_and(|(p, o)| {
            &*o.class == "Class"
                && package.is_none_or(|want| p.name.eq_ignore_ascii_case(want))
                && !candidates.iter().any(|c| c.package.eq_ignore_ascii_case(&p.name))
        })
    });
    if elsewhere {
        return None;
    }
    Some(format!("declared in {}", first.file.display()))
}
