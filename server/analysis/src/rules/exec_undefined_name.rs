//! `exec-undefined-name`: a directive refers to a mesh, texture or animation (`MESH=`,
//! `MESHMAP=`, `TEXTURE=`, `ANIM=`) that no directive of the package defines and no known
//! package holds. The engine logs its warning ("Missing meshmap, texture, or num") and does
//! nothing with the line.
//!
//! Known packages: those `LOAD`ed by the package and, with a game directory set, every package
//! of the game. Without a game directory a bare name may still come from a game package
//! (UCC looks names up in every loaded package), so the finding is then a warning.

use unreal_syntax::exec::KeyKind;

use super::RuleMeta;
use crate::exec::{ExecContext, FileFacts, Resolution, SymbolKind};
use crate::{Diagnostic, Severity};

pub static RULE: RuleMeta = RuleMeta {
    code: "exec-undefined-name",
    severity: Severity::Error,
    summary: "a mesh, texture or animation name that nothing known defines",
};

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
    if env.game_dir.is_none() || unknown {
        return Elsewhere::Unknown;
    }
    if env.game_index().objects_named(name).is_empty() {
        Elsewhere::Absent
    } else {
        Elsewhere::Defined
    }
}

pub fn check(ctx: &ExecContext<'_>, out: &mut Vec<Diagnostic>) {
    // Without the package around it, a name may be defined by another class.
    if ctx.env.is_none() {
        return;
    }
    let own = ctx.package_name();
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
            let severity = match elsewhere(ctx, other_package, name) {
                Elsewhere::Defined => continue,
                Elsewhere::Unknown if other_package.is_some() => continue,
                Elsewhere::Absent => Severity::Error,
                Elsewhere::Unknown => Severity::Warning,
            };
            let scope = match other_package {
                Some(p) => format!("package `{p}` has no object `{name}`"),
                None => format!(
                    "no directive of {} defines {} `{name}`",
                    own.map_or_else(|| "this file".to_owned(), |p| format!("package `{p}`")),
                    kind.name()
                ),
            };
            let hint = if severity == Severity::Warning {
                " (and no game directory is set to look in the game's packages)"
            } else {
                ""
            };
            let engine_says = m
                .spec
                .missing_warning
                .map_or_else(String::new, |w| format!("; the engine logs \"{w}\""));
            let mut diagnostic =
                RULE.diagnostic(value.mark(), format!("{scope}{hint}{engine_says}"));
            diagnostic.severity = severity;
            out.push(diagnostic);
        }
    }
}
