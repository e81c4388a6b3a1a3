//! `exec-undefined-name`: a directive refers to a mesh, texture or animation (`MESH=`,
//! `MESHMAP=`, `TEXTURE=`, `ANIM=`) that nothing defines. The engine looks such names up with
//! `ANY_PACKAGE` (UnEdSrv.cpp, `ParseObject<UTexture>(..., ANY_PACKAGE)` in MESHMAP SETTEXTURE
//! and TEXTURE IMPORT's `DETAIL=`/`NEXT=`): in every package loaded so far, which includes
//! the packages compiled before this one (Engine's `DefaultTexture`, `UnrealShare`'s
//! `BloodSpot`) and those `OBJ LOAD` brought in. It logs its warning ("Missing meshmap,
//! texture, or num") and does nothing with the line.
//!
//! So a name is looked for in this package's directives, in the directives of every other
//! script package of the tree (the folders beside the package folder with a `Classes`
//! folder), in the packages `LOAD`ed, and in the game's packages. It is undefined (an error)
//! only when every package that could hold it is known and readable: a game directory whose
//! index holds the engine's own packages, and every `LOAD` read. Otherwise the finding is an
//! info that says what could not be checked, never a warning.

use unreal_engine::exec::KeyKind;

use super::RuleMeta;
use crate::exec::{ExecContext, FileFacts, Resolution, SymbolKind};
use crate::{Diagnostic, Severity};

pub static RULE: RuleMeta = RuleMeta {
    code: "exec-undefined-name",
    severity: Severity::Error,
    summary: "a mesh, texture or animation name that nothing known defines",
    docs: DOCS,
    ..RuleMeta::UNREALSCRIPT
};

/// The rule's documentation: its `docs/rules.md` section after the `Severity:` lead.
const DOCS: &str = r#"Where it cannot be checked, an info (see below). `MESH=`, `MESHMAP=`,
`TEXTURE=`, `ANIM=`, `DETAIL=` or the like names an object that nothing defines. The engine looks these names up
with `ANY_PACKAGE` (UnEdSrv.cpp: `ParseObject<UTexture>(Str, TEXT("TEXTURE="), ..., ANY_PACKAGE)`
in MESHMAP SETTEXTURE, and the same for TEXTURE IMPORT's `DETAIL=`, `MTEX=`, `NEXT=`): in every
package loaded so far, which includes the packages compiled before this one (Engine's
`DefaultTexture`, UnrealShare's `BloodSpot`) and those `OBJ LOAD` brought in. When it finds
nothing it logs "Missing meshmap, texture, or num" (or the like) and does nothing.

So a name is looked for in this package's directives, in the directives of every other script
package of the tree (the folders beside the package folder that have a `Classes` folder), in
the packages `LOAD`ed and in the game's packages. It is an error only when every package that
could hold it is known and readable: a game directory whose packages include `Engine`, and
every `LOAD` read. Otherwise it is an info that says it cannot be checked, never a warning.

A package whose classes `#call` a macro file is not judged at all: UCC runs each line of that
file as a directive of the package (UT v400 `Editor/Src/UnScrCom.cpp:2995-3018`; Unreal v200
the same), so it may define any name, and macro files are not read here. Each `#call` gets one
info that says so instead (a Klingon Honor Guard class named its mesh only in its macro).

<!-- example
//- /Game/MyMod/Models/Skull_d.3d = mesh-data verts=4 tris=2 slots=1
//- /Game/MyMod/Models/Skull_a.3d = mesh-anim verts=4 frames=30
//- /Game/MyMod/Textures/SkullSkin.pcx = pcx 64x64
//- /Game/MyMod/Classes/Skull.uc
class Skull extends Actor;
#exec MESH IMPORT MESH=Skull ANIVFILE=Models\Skull_a.3d DATAFILE=Models\Skull_d.3d
-->
```unrealscript
#exec MESHMAP SETTEXTURE MESHMAP=Skull NUM=1 TEXTURE=SkullSkin
```

Fix: import the object first, correct the name, or `OBJ LOAD` the package that holds it.

```unrealscript fixed
#exec TEXTURE IMPORT NAME=SkullSkin FILE=Textures\SkullSkin.pcx
#exec MESHMAP SETTEXTURE MESHMAP=Skull NUM=1 TEXTURE=SkullSkin
```"#;

fn kind_of(class: &str) -> Option<SymbolKind> {
    match class {
        "Mesh" | "SkeletalMesh" => Some(SymbolKind::Mesh),
        "Texture" | "Material" => Some(SymbolKind::Texture),
        "Animation" | "MeshAnimation" => Some(SymbolKind::Animation),
        _ => None,
    }
}

/// What is known about a name in other packages.
enum Elsewhere {
    Defined,
    Absent,
    Unknown,
}

fn in_package(facts: &FileFacts, name: &str) -> Elsewhere {
    match facts {
        FileFacts::Package { objects } if objects.contains(&name.to_ascii_lowercase()) => {
            Elsewhere::Defined
        }
        FileFacts::Package { .. } => Elsewhere::Absent,
        _ => Elsewhere::Unknown,
    }
}

fn elsewhere(ctx: &ExecContext<'_>, package: Option<&str>, name: &str) -> Elsewhere {
    let Some(env) = ctx.env else { return Elsewhere::Unknown };
    if let Some(package) = package {
        return match env.game_index().package(package) {
            Some(p) if p.error.is_none() && p.has_object_named(name) => Elsewhere::Defined,
            Some(p) if p.error.is_none() => Elsewhere::Absent,
            _ => Elsewhere::Unknown,
        };
    }
    let mut unknown = false;
    for load in ctx.table.loads() {
        match &load.resolution {
            Resolution::Found { path, .. } | Resolution::Indexed { path } => {
                match in_package(&env.facts(path, crate::exec::Expect::Package), name) {
                    Elsewhere::Defined => return Elsewhere::Defined,
                    Elsewhere::Absent => {}
                    Elsewhere::Unknown => unknown = true,
                }
            }
            _ => unknown = true,
        }
    }
    let index = env.game_index();
    if !index.objects_named(name).is_empty() {
        return Elsewhere::Defined;
    }
    // Certain only when the engine's own packages are indexed and readable: they hold what
    // every class may name (`DefaultTexture`).
    let engine_known = index.package("Engine").is_some_and(|p| p.error.is_none());
    if env.game_dir.is_none() || !engine_known || unknown {
        return Elsewhere::Unknown;
    }
    Elsewhere::Absent
}

/// True when another script package of the tree (`only`: the one of that name) defines an
/// object of `kind` named `name` with its directives.
fn in_tree(
    ctx: &ExecContext<'_>,
    siblings: &[std::path::PathBuf],
    only: Option<&str>,
    kind: SymbolKind,
    name: &str,
) -> bool {
    let Some(env) = ctx.env else { return false };
    siblings
        .iter()
        .filter(|dir| {
            only.is_none_or(|p| {
                dir.file_name().is_some_and(|n| n.to_string_lossy().eq_ignore_ascii_case(p))
            })
        })
        .any(|dir| {
            env.package_files(dir).iter().any(|file| {
                file.definitions.iter().any(|d| d.kind == kind && d.name.eq_ignore_ascii_case(name))
            })
        })
}

pub fn check(ctx: &ExecContext<'_>, out: &mut Vec<Diagnostic>) {
    // Without the package around it, a name may be defined by another class.
    if ctx.env.is_none() {
        return;
    }
    let own = ctx.package_name();
    // UCC runs each line of a `#call`ed macro file as a directive of the package; those files
    // are not read here, so the names they define are unknown: said once a call, and no name
    // of the package is judged missing.
    for (hash, called) in &ctx.file.symbols.macro_calls {
        out.push(
            RULE.diagnostic(
                *hash,
                format!(
                    "UCC runs each line of the macro file `{called}` as a directive of {}; it is not read here, so names no directive of the package defines are not checked",
                    own.map_or_else(|| "this package".to_owned(), |p| format!("package `{p}`"))
                ),
            )
            .with_severity(Severity::Info),
        );
    }
    let mut siblings: Option<Vec<std::path::PathBuf>> = None;
    for (line, m) in ctx.commands() {
        if m.spec.ignored.is_some() {
            continue;
        }
        let mut seen: Vec<&str> = Vec::new();
        for key in m.spec.keys {
            let KeyKind::Object(class) = key.kind else { continue };
            let Some(kind) = kind_of(class) else { continue };
            if seen.contains(&key.name) {
                continue;
            }
            seen.push(key.name);
            let Some(value) = line.value(ctx.text, key.name) else { continue };
            if value.text.is_empty() || value.text.eq_ignore_ascii_case("none") {
                continue;
            }
            let parts: Vec<&str> = value.text.split('.').collect();
            let name = parts.last().copied().unwrap_or_default();
            let first = parts.first().copied().unwrap_or_default();
            let other_package = (parts.len() > 1
                && own.is_none_or(|own| !own.eq_ignore_ascii_case(first))
                && !ctx.table.all().any(|f| {
                    f.definition.group.as_deref().is_some_and(|g| g.eq_ignore_ascii_case(first))
                }))
            .then_some(first);
            if other_package.is_none() && ctx.table.find(kind, name).next().is_some() {
                continue;
            }
            let siblings = siblings.get_or_insert_with(|| ctx.sibling_packages());
            if in_tree(ctx, siblings, other_package, kind, name) {
                continue;
            }
            // A macro file the package calls may define it (said once, at the `#call`).
            if other_package.is_none() && ctx.table.macro_call().is_some() {
                continue;
            }
            let severity = match elsewhere(ctx, other_package, name) {
                Elsewhere::Defined => continue,
                Elsewhere::Unknown if other_package.is_some() => continue,
                Elsewhere::Absent => RULE.severity,
                Elsewhere::Unknown => Severity::Info,
            };
            let scope = match other_package {
                Some(p) => format!("package `{p}` has no object `{name}`"),
                None if severity == Severity::Info => format!(
                    "no script package of this tree defines {} `{name}`; cannot check the \
                     compiled packages it may come from (set a game directory that holds the \
                     engine's packages)",
                    kind.name()
                ),
                None => format!(
                    "no directive of {} defines {} `{name}`, and no package of the game holds it",
                    own.map_or_else(|| "this file".to_owned(), |p| format!("package `{p}`")),
                    kind.name()
                ),
            };
            let engine_says = m.spec.missing_warning.map_or_else(String::new, |w| {
                format!("; if it is missing the engine logs \"{w}\"")
            });
            out.push(
                RULE.diagnostic(value.mark(), format!("{scope}{engine_says}"))
                    .with_severity(severity),
            );
        }
    }
}
