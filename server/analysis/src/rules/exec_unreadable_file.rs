//! `exec-unreadable-file`: the file exists but is not what the key expects (a `_d.3d` whose
//! size does not match its triangle count, a `.wav` without a `fmt ` chunk, a `.pcx` that is
//! no image). UCC fails or imports garbage; the message gives the reader's precise error.

use super::RuleMeta;
use crate::exec::{ExecContext, Expect, FileFacts, Resolution};
use crate::{Diagnostic, Severity};

pub static RULE: RuleMeta = RuleMeta {
    code: "exec-unreadable-file",
    severity: Severity::Error,
    summary: "an imported file is damaged or not of the expected format",
    docs: DOCS,
    ..RuleMeta::UNREALSCRIPT
};

/// The rule's documentation: its `docs/rules.md` section after the `Severity:` lead.
const DOCS: &str = r#"The file exists but is not what the key expects: a `_d.3d` shorter than its
triangle count says, a WAV without a `fmt ` chunk, an image with a broken header. The message
gives the reader's error (structure, byte offset, what was expected). Files are read as the
engine reads them: a `_d.3d` or `_a.3d` with bytes after the triangles or frames its header
counts is fine (`meshVertImport` in UnMeshEd.cpp reads by the counts and never looks at the
file size; UT2004's SkaarjPack_rc ships such files), and `unreal-ls info` shows how many bytes
are unused. An `_a.3d` whose header reads but whose frames end early is a warning, not an
error: the engine logs "Vertex error in mesh" at the first frame it cannot read whole, stops
there and keeps the mesh with those frames wrong (UT2004 `Editor/Src/UnMeshEd.cpp:242-256`).

<!-- example
//- /Game/MyMod/Models/Box_d.3d = text an export cut short
//- /Game/MyMod/Models/Box_a.3d = mesh-anim verts=6 frames=10
-->
```unrealscript
#exec MESH IMPORT MESH=Box ANIVFILE=Models\Box_a.3d DATAFILE=Models\Box_d.3d
```

A sound is taken by its extension, as the sound factory takes it: `.wav` and `.mp3` are stored
as they are (UT v400 `Editor/Src/UnEdFact.cpp:894-903`, UT2004 `:1771-1780`), any other type is
refused with "Unrecognized sound format"; `.ogg` is accepted under `game = "ut469"` (469c and
later import it) and not judged under `unreal227` or without a game.

A package is read from version 50 to 128. Unreal v200 loads every version from 34 without
asking (its `Core/Inc/UnObjVer.h`: `PACKAGE_MIN_VERSION 34`; trees built with it carry
pre-release texture packages of version 57), and later engines ask before loading one older
than 60 (UT2004 `Core/Src/UnLinker.cpp:318-321`), so a package whose signature is right but
whose version is outside what unreal-ls reads is an info: its contents are not checked.

Fix: re-export the file.

<!-- example
//- /Game/MyMod/Models/Box_d.3d = mesh-data verts=6 tris=4
//- /Game/MyMod/Models/Box_a.3d = mesh-anim verts=6 frames=10
//- /Game/MyMod/Textures/BoxSkin.pcx = pcx 64x64
//- /Game/MyMod/Classes/BoxSkins.uc
#exec TEXTURE IMPORT NAME=BoxSkin FILE=Textures\BoxSkin.pcx
#exec MESHMAP SETTEXTURE MESHMAP=Box NUM=0 TEXTURE=BoxSkin
-->
```unrealscript fixed
#exec MESH IMPORT MESH=Box ANIVFILE=Models\Box_a.3d DATAFILE=Models\Box_d.3d   // Box_d.3d exported again
```"#;

fn expected(expect: Expect) -> &'static str {
    match expect {
        Expect::MeshData => "vertex mesh data file (_d.3d)",
        Expect::MeshAnimation => "vertex mesh animation file (_a.3d)",
        Expect::Skin => "ActorX skin (.psk)",
        Expect::Animation => "ActorX animation (.psa)",
        Expect::Image => "image",
        Expect::Sound => "sound file",
        Expect::Package => "package",
        Expect::Any => "file",
    }
}

pub fn check(ctx: &ExecContext<'_>, out: &mut Vec<Diagnostic>) {
    let Some(env) = ctx.env else { return };
    for line in &ctx.file.lines {
        for path in &line.paths {
            let (Resolution::Found { path: file, .. } | Resolution::Indexed { path: file }) =
                &path.resolution
            else {
                continue;
            };
            // Swapped mesh files are one finding, the swap (`exec-mesh-vertex-mismatch`).
            if path.expect == Expect::Any
                || (matches!(path.expect, Expect::MeshData | Expect::MeshAnimation)
                    && crate::exec::mesh_files_swapped(line, ctx.text))
            {
                continue;
            }
            if let (Expect::MeshAnimation, FileFacts::Unreadable(_)) =
                (path.expect, &*env.facts(file, path.expect))
            {
                if let Some(diagnostic) = short_animation(ctx, env, line, file, path) {
                    out.push(diagnostic);
                    continue;
                }
            }
            // UT v469 imports `.ogg` sounds (from 469c: the importer's log in
            // OldUnreal/UnrealTournamentPatches issues 1344 and 1345), and Unreal 227's
            // factory is not public: only Epic's builds are known to refuse one.
            let ogg = path.expect == Expect::Sound
                && file.extension().is_some_and(|e| e.eq_ignore_ascii_case("ogg"));
            if ogg && (ctx.patch().is_some() || !ctx.game_known()) {
                continue;
            }
            let message = match &*env.facts(file, path.expect) {
                FileFacts::PackageVersion(version) => {
                    out.push(
                        RULE.diagnostic(
                            path.value.mark(),
                            format!(
                                "`{}` is a package of version {version}, which unreal-ls does not read (it reads {} to {}); an engine may still load it (Unreal v200 loads versions from 34, later engines ask before loading one older than 60), so what it holds is not checked",
                                ctx.show(file),
                                unreal_formats::package::MIN_VERSION,
                                unreal_formats::package::MAX_VERSION,
                            ),
                        )
                        .with_severity(Severity::Info),
                    );
                    continue;
                }
                FileFacts::Unreadable(error) => format!(
                    "`{}` is not a valid {}: {error}",
                    ctx.show(file),
                    expected(path.expect)
                ),
                FileFacts::Unopenable => format!("`{}` cannot be opened", ctx.show(file)),
                _ => continue,
            };
            out.push(RULE.diagnostic(path.value.mark(), message));
        }
    }
}

/// An `_a.3d` whose header reads but whose frames end early. The engine reads frame after
/// frame, and at the first it cannot read whole it logs "Vertex error in mesh ..., frame N:
/// expecting V verts" and stops, keeping the mesh (UT2004 `Editor/Src/UnMeshEd.cpp:242-256`,
/// UT v400 the same loop): the mesh imports with the frames from there on wrong, a warning.
fn short_animation(
    ctx: &ExecContext<'_>,
    env: &crate::exec::ExecEnv,
    line: &crate::exec::LineFacts,
    file: &std::path::Path,
    path: &crate::exec::PathRef,
) -> Option<Diagnostic> {
    let bytes = env.read(file)?;
    let header = bytes.get(..4)?;
    let frames = u64::from(u16::from_le_bytes([header[0], header[1]]));
    let frame_size = u64::from(u16::from_le_bytes([header[2], header[3]]));
    let body = bytes.len() as u64 - 4;
    let needed = frames * frame_size;
    if frame_size == 0 || body >= needed {
        return None;
    }
    let first_short = body / frame_size;
    let missing = needed - body;
    let wrong = if first_short + 1 == frames {
        format!("frame {first_short}")
    } else {
        format!("frames {first_short} to {}", frames - 1)
    };
    let message = format!(
        "`{}` ends {missing} bytes before the {frames} frames of {frame_size} bytes its header counts; the engine logs \"Vertex error in mesh\" at frame {first_short}, stops reading there and keeps the mesh with {wrong} wrong",
        ctx.show(file),
    );
    // The sequences of the mesh say which frames are ever shown: when none reaches the wrong
    // frames, only the mesh's bounds (computed over every frame) may differ.
    let mesh = line.value(ctx.text, "MESH").map(|v| v.text)?;
    let played = ctx
        .table
        .sequences(&mesh)
        .map(|s| sequence_end(&s.definition.import))
        .collect::<Option<Vec<u64>>>()
        .and_then(|ends| ends.into_iter().max());
    Some(match played {
        Some(end) if end <= first_short => RULE
            .diagnostic(
                path.value.mark(),
                format!("{message}; no MESH SEQUENCE of `{mesh}` plays them (the last frame played is {}), so only the mesh's bounds, computed over every frame, may differ", end.saturating_sub(1)),
            )
            .with_severity(Severity::Info),
        _ => RULE.diagnostic(path.value.mark(), message).with_severity(Severity::Warning),
    })
}

/// One past the last frame a `MESH SEQUENCE` plays, from its import signature (`STARTFRAME=`
/// and `NUMFRAMES=` as the engine reads them); `None` when either is missing.
fn sequence_end(signature: &str) -> Option<u64> {
    let value = |key: &str| {
        signature.split(' ').find_map(|t| t.strip_prefix(key)).and_then(|v| v.parse::<i64>().ok())
    };
    let start = value("STARTFRAME=")?;
    let count = value("NUMFRAMES=")?;
    u64::try_from(start.saturating_add(count)).ok()
}
