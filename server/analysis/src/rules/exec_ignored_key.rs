//! `exec-ignored-key`: a key real code writes but the engine does not read on this command,
//! such as `X=`, `Y=`, `Z=` on `MESH IMPORT` (use `MESH ORIGIN` and `MESHMAP SCALE`),
//! `PALETTE=` on `TEXTURE IMPORT`, or `YAW=` on `MESHMAP SCALE`.
//!
//! What it costs depends on the value. A key that would change the result (a non-zero `X=` or
//! `YAW=`, `MASK=On` without the masked flag, a `PALETTE=`) is lost: a warning. A key that
//! could change nothing (`X=0 Y=0 Z=0`, which Epic writes on every `MESH IMPORT`; `MASK=On`
//! next to `FLAGS=2`, which already masks; `FAMILY=`, a dead key) is boilerplate: one hint per
//! line, tagged unnecessary, with the keys as its span and a fix that removes them.

use unreal_engine::exec::KeyKind;
use unreal_engine::Engines;
use unreal_formats::image::ImageFormat;
use unreal_syntax::exec::Arg;
use unreal_syntax::Span;

use super::{Fixability, RuleMeta};
use crate::exec::keys::KeyVerdict;
use crate::exec::references::Reference;
use crate::exec::{atof, atoi, parse_bool, ExecContext, Expect, FileFacts, LineFacts, Resolution};
use crate::{Diagnostic, Fix, Label, Severity, TextEdit};

pub static RULE: RuleMeta = RuleMeta {
    code: "exec-ignored-key",
    severity: Severity::Warning,
    summary: "a key the engine does not read on this command",
    fix: Fixability::Safe,
    docs: DOCS,
    ..RuleMeta::UNREALSCRIPT
};

/// The rule's documentation: its `docs/rules.md` section after the `Severity:` lead.
const DOCS: &str = r"A key real code writes but the engine does not read: `X=`/`Y=`/`Z=` on
`MESH IMPORT` (use `MESH ORIGIN` and `MESHMAP SCALE`), `PALETTE=` and `MASK=` on `TEXTURE
IMPORT`, a rotation on `MESHMAP SCALE`, `TEXFLAGS=` (parsed into a local and dropped in both
generations: UT2004 Editor/Src/UnEdSrv.cpp:611), `FLAGS=` in UE2, `GROUP=` on `OBJ LOAD` (no
LOAD handler reads it: the objects land in the package itself; `PACKAGE=Pkg.Group` is how a
load puts them into a group).

What it costs depends on the value. A key that would change the result (a non-zero `X=` or
`YAW=`, `MASK=On` without the masked flag, a `PALETTE=`) is lost: a warning. Keys that could
change nothing (`X=0 Y=0 Z=0`, which Epic writes on every `MESH IMPORT`; `MASK=On` next to
`FLAGS=2`, which already masks; `FAMILY=`, dead since before UE1 v200; `PALETTE=` naming the
texture being imported, whose palette is its image's own; UE2 `FLAGS=2` where masking changes
nothing: `MASKED=1` on the line, an alpha texture (`ALPHA=1`) of a 32-bit image, a true-colour
image (24- or 32-bit BMP, PCX or TGA: stored as RGBA8, whose mask the import's `CreateMips`
clears, UT2004 Engine/Src/UnTex.cpp:502), or a palettized image with no pixel of index 0) are
boilerplate: one hint per line, tagged unnecessary, spanning them.

`GROUP=` on `OBJ LOAD` costs something only where code looks the loaded objects up through
that group: a warning naming the first such path (`Texture'MyPkg.Skins.Chrome'`) when the
package's classes write one and the loaded file has no group of that name itself; a hint when
nothing in the package does; an info when the package around the file is not known.

<!-- example
//- /Game/System/Core.u = package
//- /Game/Textures/Metal.utx = package objects=Texture:Chrome
//- /Game/MyMod/Models/Skull_d.3d = mesh-data verts=4 tris=2
//- /Game/MyMod/Models/Skull_a.3d = mesh-anim verts=4 frames=1
//- /Game/MyMod/Classes/SkullSkins.uc
#exec MESHMAP SETTEXTURE MESHMAP=Skull NUM=0 TEXTURE=Chrome
-->
```unrealscript
#exec MESH IMPORT MESH=Skull ANIVFILE=Models\Skull_a.3d DATAFILE=Models\Skull_d.3d X=0 Y=0 Z=0   // hint
#exec MESHMAP SCALE MESHMAP=Skull X=0.1 Y=0.1 Z=0.2 YAW=128                                    // warning
#exec OBJ LOAD FILE=..\Textures\Metal.utx PACKAGE=MyMod GROUP=Skins   // hint, unless code names MyMod.Skins.X
```

Fix: remove the key, and set what it meant with the command that reads it
(`MESH ORIGIN ... YAW=128`).

```unrealscript fixed
#exec MESH IMPORT MESH=Skull ANIVFILE=Models\Skull_a.3d DATAFILE=Models\Skull_d.3d
#exec MESH ORIGIN MESH=Skull YAW=128
#exec MESHMAP SCALE MESHMAP=Skull X=0.1 Y=0.1 Z=0.2
#exec OBJ LOAD FILE=..\Textures\Metal.utx PACKAGE=MyMod
```";

/// True when the ignored key's value could have changed nothing, had the engine read it.
fn changes_nothing(
    ctx: &ExecContext<'_>,
    line: &LineFacts,
    name: &str,
    kind: KeyKind,
    value: &str,
) -> bool {
    let upper = name.to_ascii_uppercase();
    match upper.as_str() {
        // Texture families were removed before UE1 v200: the key is dead whatever it says.
        "FAMILY" => true,
        // The palette a texture gets is its image's own: naming the texture itself asks for
        // nothing else.
        "PALETTE" => {
            let own = line.value(ctx.text, "NAME").map(|v| v.text).filter(|n| !n.is_empty());
            let own = own.or_else(|| {
                line.path("FILE")
                    .map(|p| crate::exec::package::default_name(&p.value.text).to_owned())
            });
            value.trim().is_empty() || own.is_some_and(|own| own.eq_ignore_ascii_case(value.trim()))
        }
        // UE2 reads no `FLAGS=`: only the masked bit (2) has a UE2 counterpart, and it is
        // lost only when masking would change what shows.
        "FLAGS" => {
            let flags = atoi(value);
            flags == 0 || (flags == 2 && masking_changes_nothing(ctx, line))
        }
        // Masked already, by `FLAGS=` with bit 2 (UE1) or `MASKED=` (UE2).
        "MASK" => {
            !parse_bool(value)
                || line.value(ctx.text, "FLAGS").is_some_and(|f| atoi(&f.text) & 2 != 0)
                || line.value(ctx.text, "MASKED").is_some_and(|m| parse_bool(&m.text))
        }
        _ => match kind {
            KeyKind::Int | KeyKind::Float => atof(value) == 0.0,
            KeyKind::Bool => !parse_bool(value),
            _ => value.trim().is_empty(),
        },
    }
}

/// True when masking the texture this line imports would change nothing that shows: it is
/// masked already (`MASKED=1`), it is an alpha texture of an image with an alpha channel
/// (`ALPHA=1` or `ALPHATEXTURE=1` on a 32-bit image: the alpha decides), it is a true-colour
/// image (a 24- or 32-bit BMP, PCX or TGA, which the factory stores as RGBA8, UT2004
/// `Editor/Src/UnEdFact.cpp:2175,2265,2330,2382,2491,2529`, and whose mask the import's
/// `CreateMips` clears: `if( Format != TEXF_P8 ) bMasked = 0;`, `Engine/Src/UnTex.cpp:502`,
/// so not even `MASKED=1` masks it), or it is a palettized image with no pixel of index 0
/// (masking makes index 0 transparent, `UnTex.cpp:2167`).
fn masking_changes_nothing(ctx: &ExecContext<'_>, line: &LineFacts) -> bool {
    let on = |key: &str| line.value(ctx.text, key).is_some_and(|v| parse_bool(&v.text));
    if on("MASKED") {
        return true;
    }
    let (Some(env), Some(file)) = (ctx.env, line.path("FILE")) else { return false };
    let Resolution::Found { path, .. } = &file.resolution else { return false };
    let FileFacts::Image(info) = &*env.facts(path, Expect::Image) else { return false };
    if info.bit_depth == 32 && (on("ALPHA") || on("ALPHATEXTURE")) {
        return true;
    }
    let stored_as_rgba8 =
        matches!(info.format, ImageFormat::Bmp | ImageFormat::Pcx | ImageFormat::Tga)
            && !info.paletted
            && matches!(info.bit_depth, 24 | 32);
    if stored_as_rgba8 {
        return true;
    }
    info.paletted
        && env
            .read(path)
            .and_then(|bytes| unreal_formats::decode::indices::palette_indices_used(&bytes))
            .is_some_and(|used| !used[0])
}

/// What a `GROUP=` on `LOAD` costs, which no LOAD handler reads (UT v400
/// `Editor/Src/UnEdSrv.cpp:128-157`, UT2004 `:497-526`): the file's objects land in the
/// package (`PACKAGE=`, else the file's own name) with the file's own groups, never in the
/// group written. It matters only where something looks them up through that group.
enum LoadGroup<'a> {
    /// Nothing in the package names an object through `<package>.<group>`, or the loaded file
    /// has a group of that name itself: the line loads the same without the key.
    Unused,
    /// This reference (file index in the package's table) looks an object up through the
    /// group the load does not make.
    Used { outer: String, file: usize, reference: &'a Reference },
    /// The package around the file is not known, or a reference goes through the group and
    /// the loaded file cannot be read to tell whether it has that group of its own.
    Unknown { outer: String },
}

/// The package a `LOAD` line loads into, as the handler names it: `PACKAGE=` as written, else
/// the file's own name (`LoadPackage(NULL, File)`).
fn load_destination(ctx: &ExecContext<'_>, line: &LineFacts) -> Option<String> {
    line.value(ctx.text, "PACKAGE")
        .map(|v| v.text.trim().to_owned())
        .filter(|p| !p.is_empty())
        .or_else(|| {
            line.path("FILE").map(|p| crate::exec::package::default_name(&p.value.text).to_owned())
        })
}

/// `package`: the line's [`load_destination`] (`None` without a `FILE=`, which
/// `exec-missing-key` reports).
fn load_group<'a>(
    ctx: &'a ExecContext<'_>,
    line: &LineFacts,
    package: Option<&str>,
    group: &str,
) -> LoadGroup<'a> {
    let Some(package) = package else { return LoadGroup::Unused };
    let outer = format!("{package}.{}", group.trim());
    let prefix = format!("{}.", outer.to_ascii_lowercase());
    // A name a directive of the package creates may be that object, in a group of its own.
    let through = ctx.table.references().find(|(_, r)| {
        r.path.to_ascii_lowercase().starts_with(&prefix)
            && ctx.table.named(r.name()).next().is_none()
    });
    let Some((file, reference)) = through else {
        return if ctx.knows_package() { LoadGroup::Unused } else { LoadGroup::Unknown { outer } };
    };
    // The loaded file keeps its own groups: one of that name holds what the path names.
    let objects = ctx.env.zip(line.path("FILE")).and_then(|(env, file)| match &file.resolution {
        Resolution::Found { path, .. } => match &*env.facts(path, Expect::Package) {
            FileFacts::Package { objects } => {
                Some(objects.contains(&group.trim().to_ascii_lowercase()))
            }
            _ => None,
        },
        _ => None,
    });
    match objects {
        Some(true) => LoadGroup::Unused,
        Some(false) => LoadGroup::Used { outer, file, reference },
        None => LoadGroup::Unknown { outer },
    }
}

/// The finding for a `GROUP=` on a `LOAD` line.
fn load_group_finding(
    ctx: &ExecContext<'_>,
    line: &LineFacts,
    arg: Arg,
    group: &str,
) -> Diagnostic {
    let destination = load_destination(ctx, line);
    let package = destination.as_deref().unwrap_or_default();
    let remove = Fix {
        title: "Remove the key".to_owned(),
        edits: vec![TextEdit { span: removal(ctx, arg), new_text: String::new() }],
        safe: true,
    };
    // OldUnreal's 227 editor source is not public: it may read the key.
    if let Some(patch) = ctx.patch().filter(|p| !p.keys_known()) {
        return RULE
            .diagnostic(
                arg.span(),
                format!(
                    "Epic's LOAD ignores `GROUP={group}` (the objects land in `{package}`; `PACKAGE={package}.{group}` loads them into a group); whether {} reads it cannot be checked: its editor source is not public",
                    patch.name()
                ),
            )
            .with_severity(Severity::Info);
    }
    match load_group(ctx, line, destination.as_deref(), group) {
        LoadGroup::Unused => RULE
            .diagnostic(
                arg.span(),
                format!(
                    "LOAD does not read `GROUP={group}`, and nothing in the package looks its objects up through `{package}.{group}`: the line loads the same without it"
                ),
            )
            .with_fix(remove)
            .unnecessary(),
        LoadGroup::Unknown { outer } => RULE
            .diagnostic(
                arg.span(),
                format!(
                    "LOAD does not read `GROUP={group}`: the objects land in `{package}`, not in `{outer}`; whether anything looks them up through `{outer}` cannot be checked here (write `PACKAGE={outer}` to load them into the group)"
                ),
            )
            .with_severity(Severity::Info),
        LoadGroup::Used { outer, file, reference } => {
            // No fix: `PACKAGE=Pkg.Group` moves every object of the file, and paths to them
            // that name no group would then find nothing.
            let mut diagnostic = RULE.diagnostic(
                arg.span(),
                format!(
                    "LOAD does not read `GROUP={group}`: the objects land in `{package}`, not in `{outer}`, so `{}` finds nothing there (`PACKAGE={outer}` loads them into the group)",
                    reference.describe()
                ),
            );
            diagnostic.labels.push(Label {
                file: ctx.table.file_path(file).map(std::path::Path::to_path_buf),
                span: reference.span,
                message: format!("looks the object up through `{outer}`, a group the load does not make"),
            });
            diagnostic
        }
    }
}

/// The span to remove for an argument: the token and the blanks before it.
fn removal(ctx: &ExecContext<'_>, arg: Arg) -> Span {
    let span = arg.span();
    let before = ctx.text.get(..span.start as usize).unwrap_or("");
    let start = before.trim_end_matches([' ', '\t']).len();
    Span::from_range(start..span.end as usize)
}

/// One use of an ignored key: the argument, its value and why the engine ignores it.
type KeyUse<'a> = (Arg, String, &'a str);

/// `keys` for a message, the first few of a long list and how many more.
fn listed(keys: &[&str]) -> String {
    const SHOWN: usize = 8;
    if keys.len() <= SHOWN {
        keys.join(" ")
    } else {
        format!("{} ... ({} keys)", keys[..SHOWN].join(" "), keys.len())
    }
}

pub fn check(ctx: &ExecContext<'_>, out: &mut Vec<Diagnostic>) {
    for (line, m) in ctx.commands() {
        if m.spec.ignored.is_some() {
            continue;
        }
        let verdicts = line.verdicts(ctx.text, ctx.generation, ctx.patch());
        // Most lines have no ignored key: the command's name is written only for a finding.
        if !verdicts.iter().any(|(_, verdict)| matches!(verdict, KeyVerdict::Ignored { .. })) {
            continue;
        }
        let command = m.spec.display_name();
        let mut boilerplate: Vec<Arg> = Vec::new();
        // Ignored keys that would have changed the result, grouped by name in line order: a
        // key written again is the same problem, one finding.
        let mut lost: Vec<(String, Vec<KeyUse<'_>>)> = Vec::new();
        for (arg, verdict) in verdicts {
            let KeyVerdict::Ignored { reason } = verdict else { continue };
            let name = arg.name_span().text(ctx.text);
            let value = arg.value().map(|v| v.text(ctx.text).into_owned()).unwrap_or_default();
            if m.spec.command == "LOAD" && name.eq_ignore_ascii_case("GROUP") {
                out.push(load_group_finding(ctx, line, *arg, &value));
                continue;
            }
            let kind = m.spec.key(name, ctx.generation).map_or(KeyKind::Text, |k| k.kind);
            if changes_nothing(ctx, line, name, kind, &value) {
                boilerplate.push(*arg);
                continue;
            }
            let upper = name.to_ascii_uppercase();
            match lost.iter_mut().find(|(n, _)| *n == upper) {
                Some((_, uses)) => uses.push((*arg, value, reason)),
                None => lost.push((upper, vec![(*arg, value, reason)])),
            }
        }
        for (_, uses) in &lost {
            let (first, value, reason) = &uses[0];
            let name = first.name_span().text(ctx.text);
            let times = match uses.len() {
                1 => String::new(),
                n => format!(" (written {n} times)"),
            };
            // A build whose handlers are not public may read what Epic's ignore: OldUnreal's
            // 227, and a licensee's editor for a key only one generation's handler ignores (an
            // early UE2 still reads `FLAGS=`, UniversalED `unreal2_old/Editor/Src/UnEdSrv.cpp:
            // 207`). A key every known handler ignores (a rotation on MESHMAP SCALE, X/Y/Z on
            // MESH IMPORT) stays lost there too.
            let ignored_everywhere = m
                .spec
                .key_variants(name)
                .all(|k| k.ignored.is_some() && k.engines == Engines::Both);
            let unknown_build =
                ctx.patch().filter(|p| !p.keys_known()).map(|p| p.name().to_owned()).or_else(
                    || {
                        ctx.licensee()
                            .filter(|_| !ignored_everywhere)
                            .map(|game| format!("the editor of game `{}`", game.name()))
                    },
                );
            let mut diagnostic = RULE
                .diagnostic(
                    first.span(),
                    match &unknown_build {
                        Some(editor) => format!(
                            "Epic's {command} ignores `{name}={value}`{times} ({reason}); whether {editor} reads it cannot be checked: its editor source is not public"
                        ),
                        None => format!(
                            "{command} ignores `{name}={value}`{times}, so it has no effect: {reason}"
                        ),
                    },
                )
                .with_severity(if unknown_build.is_some() { Severity::Info } else { RULE.severity });
            // Removing a key the build may read is no safe fix.
            if unknown_build.is_none() {
                diagnostic = diagnostic.with_fix(Fix {
                    title: "Remove the key".to_owned(),
                    edits: uses
                        .iter()
                        .map(|(arg, _, _)| TextEdit {
                            span: removal(ctx, *arg),
                            new_text: String::new(),
                        })
                        .collect(),
                    safe: true,
                });
            }
            for (arg, _, _) in uses.iter().skip(1).take(super::MAX_LABELS) {
                diagnostic = diagnostic.with_label(arg.span(), "written again here");
            }
            out.push(diagnostic);
        }
        let (Some(first), Some(last)) = (boilerplate.first(), boilerplate.last()) else { continue };
        let keys: Vec<&str> = boilerplate.iter().map(|a| a.span().text(ctx.text)).collect();
        let (it, them) = if keys.len() == 1 { ("it", "it") } else { ("they", "them") };
        let diagnostic = RULE
            .diagnostic(
                first.span().cover(last.span()),
                format!(
                    "{command} does not read `{}`, and {it} would change nothing: the line builds the same without {them}",
                    listed(&keys)
                ),
            )
            .with_fix(Fix {
                title: format!("Remove `{}`", listed(&keys)),
                edits: boilerplate
                    .iter()
                    .map(|a| TextEdit { span: removal(ctx, *a), new_text: String::new() })
                    .collect(),
                safe: true,
            })
            .unnecessary();
        out.push(diagnostic);
    }
}
