//! `t3d-abstract-class`: `Begin Actor Class=X` where `X` is declared `abstract`. UnrealEd's
//! import spawns every actor it reads and asserts that it got one; the engine refuses to
//! spawn an abstract class, so the import stops with a failed assertion.
//!
//! Judged where the class is known ([`crate::index::classes`], through
//! [`T3dContext::classes`]): from the sources (`<Package>/Classes/*.uc` of the game folder,
//! the workspace and the package paths, with or without a game folder) and from the compiled
//! classes of the indexed packages (`CLASS_Abstract`), a source winning over the compiled
//! class of its package.

use super::{RuleMeta, T3dContext};
use crate::index::{ClassOrigin, PackageIndex};
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
Judged where the class is known: from the sources (`<Package>/Classes/*.uc`: the game
folder's, the `package-paths`', and, with or without a game folder, those of the folders
`lint` checks and of the editor's workspace folders) and from the compiled classes of the
indexed packages (their `CLASS_Abstract` flag), a source winning over the compiled class of
its own package (it is what is being written). A bare
name that several packages define is judged only when every one of them is abstract and
readable (the engine takes whichever it loaded first); `Package.Name` names that package's.
A compiled class whose data cannot be read is not judged (`t3d-unreadable-class` says so
once per map).

Engine basis: `ULevel::SpawnActor` refuses a class with `CLASS_Abstract` ('SpawnActor failed
because class %s is abstract', UT2004 `Engine/Src/UnLevAct.cpp:44-47`), and the importer
follows it with `check(Actor)` (UT v400 `Editor/Src/UnEdFact.cpp:457-458`, UT2004
`Editor/Src/UnEdFact.cpp:624-625`). `CLASS_Abstract` (0x1 in UE1 and UE2) is not among the
flags a subclass inherits (`CLASS_Inherit`, UT2004 `Core/Inc/UnObjBas.h:120`); a compiled
class stores its own flags (`UClass::Serialize`, UT2004 `Core/Src/UnClass.cpp`).

<!-- example index=compiled game=ut2004 -->
```t3d
Begin Actor Class=Pickup Name=Pickup0
End Actor
```

Fix: place a concrete subclass (`Health`, `Armor`), or remove the actor.

```t3d fixed
Begin Actor Class=MiniHealthPack Name=MiniHealthPack0
End Actor
```"#;

pub fn check(ctx: &T3dContext<'_>, out: &mut Vec<Diagnostic>) {
    let Some(index) = ctx.classes else { return };
    for block in ctx.actors() {
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

/// Where the class `value` names is abstract, when every class it may name is: `Package.Name`
/// names the one of that package; a bare name any class of that name in any package (the
/// engine takes the first it finds), so a bare name also defined elsewhere without
/// `abstract`, or compiled in a package whose class cannot be read, is not judged.
fn abstract_declaration(index: &PackageIndex, value: &str) -> Option<String> {
    let value = value.trim_matches('"');
    if value.is_empty() || value.eq_ignore_ascii_case("None") {
        return None;
    }
    let candidates = index.class_facts_all(value);
    let first = candidates.first()?;
    if !candidates.iter().all(|c| c.is_abstract && c.unreadable.is_none()) {
        return None;
    }
    Some(match &first.origin {
        ClassOrigin::Source(file) => format!("declared in {}", file.display()),
        ClassOrigin::Package(file) => {
            format!("compiled with CLASS_Abstract in {}", file.display())
        }
    })
}
