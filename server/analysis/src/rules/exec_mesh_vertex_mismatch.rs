//! `exec-mesh-vertex-mismatch`: the `_d.3d` and `_a.3d` of a `MESH IMPORT` disagree on the
//! vertex count: each frame of the `_a.3d` should hold 4 bytes per vertex of the `_d.3d` (8 for
//! Deus Ex).
//!
//! What the engine does with a mismatch (`meshVertImport`, UnMeshEd.cpp, UT v400 and UT2004):
//! for each frame it reads `NumVertices x 4` bytes, then seeks `FrameSize - NumVertices x 4`
//! bytes on. A larger frame is padding it skips: the first vertices of each frame are used,
//! which is right when both files come from the same export (Epic's `SkaarjPack_rc` ships such
//! pairs), so that is an info. A smaller frame makes the last vertices of each frame read the
//! start of the next one: harmless when no triangle uses them (an info), a scrambled mesh when
//! a triangle does (an error).

use super::RuleMeta;
use crate::exec::{ExecContext, Expect, FileFacts, Resolution};
use crate::{Diagnostic, Severity};

pub static RULE: RuleMeta = RuleMeta {
    code: "exec-mesh-vertex-mismatch",
    severity: Severity::Error,
    summary: "the `_d.3d` and `_a.3d` of a mesh disagree on the vertex count",
    docs: DOCS,
    ..RuleMeta::UNREALSCRIPT
};

/// The rule's documentation: its `docs/rules.md` section after the `Severity:` lead.
const DOCS: &str = r"The `_d.3d` and `_a.3d` of a `MESH IMPORT` disagree on the vertex count: each
frame should hold 4 bytes per vertex of the `_d.3d` (8 for Deus Ex). The engine
(`meshVertImport`, UnMeshEd.cpp, UT v400 and UT2004) reads `NumVertices x 4` bytes for each
frame and then seeks `FrameSize - NumVertices x 4` bytes on, so:

- a larger frame is padding the engine skips: right when both files come from the same export
  (UT2004's SkaarjPack_rc ships such pairs): an info;
- a smaller frame makes the last vertices of each frame the first ones of the next frame:
  harmless when no triangle uses those vertices (an info), a scrambled mesh when one does (an
  error);
- with one frame, the size is never used (the frame is read from just after the header), so a
  single-frame `_a.3d` whose bytes are all there is right whatever size it states: no finding
  (Unreal's own UnrealI `Chunk1_a.3d` to `Chunk4_a.3d` state 3 bytes a vertex).

`ANIVFILE=` naming a `_d.3d` and `DATAFILE=` an `_a.3d` is reported once as the swap it is
(an error: each file is read as the other), and the slot and frame checks stay quiet on that
mesh.

<!-- example
//- /Game/MyMod/Models/Box_d.3d = mesh-data verts=6 tris=4
//- /Game/MyMod/Models/Box_a.3d = mesh-anim verts=6 frames=10
//- /Game/MyMod/Models/Other_a.3d = mesh-anim verts=5 frames=10
//- /Game/MyMod/Textures/BoxSkin.pcx = pcx 64x64
//- /Game/MyMod/Classes/BoxSkins.uc
#exec TEXTURE IMPORT NAME=BoxSkin FILE=Textures\BoxSkin.pcx
#exec MESHMAP SETTEXTURE MESHMAP=Box NUM=0 TEXTURE=BoxSkin
-->
```unrealscript
#exec MESH IMPORT MESH=Box ANIVFILE=Models\Other_a.3d DATAFILE=Models\Box_d.3d
```

Fix: import the `_a.3d` exported with the `_d.3d`.

```unrealscript fixed
#exec MESH IMPORT MESH=Box ANIVFILE=Models\Box_a.3d DATAFILE=Models\Box_d.3d
```";

pub fn check(ctx: &ExecContext<'_>, out: &mut Vec<Diagnostic>) {
    let Some(env) = ctx.env else { return };
    for (line, _) in ctx.commands().filter(|(l, _)| l.is("MESH", Some("IMPORT"))) {
        let (Some(data), Some(aniv)) = (line.path("DATAFILE"), line.path("ANIVFILE")) else {
            continue;
        };
        if crate::exec::mesh_files_swapped(line, ctx.text) {
            out.push(
                RULE.diagnostic(
                    aniv.value.mark(),
                    format!(
                        "`ANIVFILE=` and `DATAFILE=` are swapped: `{}` is the mesh data (`_d.3d`) and `{}` the animation (`_a.3d`); the engine reads each as the other and builds a scrambled mesh",
                        aniv.value.text, data.value.text
                    ),
                )
                .with_label(data.value.mark(), "the animation file, given as the data file"),
            );
            continue;
        }
        let (Resolution::Found { path: data_path, .. }, Resolution::Found { path: aniv_path, .. }) =
            (&data.resolution, &aniv.resolution)
        else {
            continue;
        };
        let FileFacts::MeshData { vertices, vertices_used, .. } =
            *env.facts(data_path, Expect::MeshData)
        else {
            continue;
        };
        let FileFacts::MeshAnimation { frame_size, frames } =
            *env.facts(aniv_path, Expect::MeshAnimation)
        else {
            continue;
        };
        let verts = u32::from(vertices);
        let size = u32::from(frame_size);
        if verts > 0 && (size == verts * 4 || size == verts * 8) {
            continue;
        }
        // One frame is read from just after the header whatever the frame size says (the size
        // only moves the reader to the next frame): with the bytes present, the mesh is right.
        // Unreal's own single-frame meshes (UnrealI's Chunk1 to Chunk4) carry such sizes.
        if frames <= 1
            && env.read(aniv_path).is_some_and(|b| b.len() as u64 >= 4 + u64::from(verts) * 4)
        {
            continue;
        }
        let in_frame = size / 4;
        let (severity, effect) = if size > verts * 4 {
            (
                Severity::Info,
                format!(
                    "the engine reads the first {verts} of each frame and skips the rest: right only if both files come from the same export"
                ),
            )
        } else if vertices_used <= in_frame {
            (
                Severity::Info,
                format!(
                    "the engine reads vertices {in_frame} and up of each frame from the next frame, but no triangle uses them"
                ),
            )
        } else {
            (
                Severity::Error,
                format!(
                    "the engine reads vertices {in_frame} and up of each frame from the next frame, and triangles use them up to {}: the mesh is scrambled",
                    vertices_used.saturating_sub(1)
                ),
            )
        };
        out.push(
            RULE.diagnostic(
                aniv.value.mark(),
                format!(
                    "`{}` has frames of {size} bytes ({in_frame} vertices), but `{}` has {verts} vertices ({} bytes a frame); {effect}",
                    ctx.show(aniv_path),
                    ctx.show(data_path),
                    verts * 4
                ),
            )
            .with_severity(severity)
            .with_label(data.value.mark(), format!("{verts} vertices")),
        );
    }
}
