//! `exec-sequence-out-of-range`: `MESH SEQUENCE` plays frames the mesh does not have:
//! `STARTFRAME + NUMFRAMES` exceeds the frame count of its `_a.3d`. The engine does not check;
//! the animation reads past the mesh's frames (garbage vertices or a crash in game).
//! `NUMFRAMES=0` is worse: playing the sequence takes the frame number modulo `NUMFRAMES`
//! (`UVertMeshInstance`, `Engine/Src/UnVertMesh.cpp`), an integer division by zero.

use super::RuleMeta;
use crate::exec::{atoi, ExecContext};
use crate::{Diagnostic, Label, Severity};

pub static RULE: RuleMeta = RuleMeta {
    code: "exec-sequence-out-of-range",
    severity: Severity::Error,
    summary: "`MESH SEQUENCE` runs past the last frame of the mesh's `_a.3d`",
    docs: DOCS,
    ..RuleMeta::UNREALSCRIPT
};

/// The rule's documentation: its `docs/rules.md` section after the `Severity:` lead.
const DOCS: &str = r"`MESH SEQUENCE` runs past the last frame: `STARTFRAME + NUMFRAMES` exceeds the
frame count of the mesh's `_a.3d`. The engine does not check; the animation reads frames that
do not exist. `NUMFRAMES=0` is reported too: playing the sequence divides by it.

Engine basis: `MESH SEQUENCE` stores `STARTFRAME` and `NUMFRAMES` without comparing them with
the mesh (UT v400 `Editor/Src/UnEdSrv.cpp:422-445`, UT2004 `Editor/Src/UnEdSrv.cpp:1387-1418`).
When the sequence plays, the frame is `StartFrame + (n % NumFrames)` and indexes the mesh's
frame data directly (UT2004 `Engine/Src/UnVertMesh.cpp:532-535`, `:944-948`); array bounds are
checked only in debug builds, so a release build reads past the last frame. The same code
divides by `NumFrames`, so `NUMFRAMES=0` is an integer division by zero.

<!-- example
//- /Game/MyMod/Models/Skull_d.3d = mesh-data verts=4 tris=2 slots=1
//- /Game/MyMod/Models/Skull_a.3d = mesh-anim verts=4 frames=30
//- /Game/MyMod/Textures/SkullSkin.pcx = pcx 64x64
//- /Game/MyMod/Classes/Skull.uc
class Skull extends Actor;
#exec MESH IMPORT MESH=Skull ANIVFILE=Models\Skull_a.3d DATAFILE=Models\Skull_d.3d
#exec TEXTURE IMPORT NAME=SkullSkin FILE=Textures\SkullSkin.pcx
#exec MESHMAP SETTEXTURE MESHMAP=Skull NUM=1 TEXTURE=SkullSkin
-->
```unrealscript
#exec MESH SEQUENCE MESH=Skull SEQ=All STARTFRAME=0 NUMFRAMES=31
```

Fix: count the frames again (the message gives the file's frame count).

```unrealscript fixed
#exec MESH SEQUENCE MESH=Skull SEQ=All STARTFRAME=0 NUMFRAMES=30
```";

pub fn check(ctx: &ExecContext<'_>, out: &mut Vec<Diagnostic>) {
    for (line, _) in ctx.commands().filter(|(l, _)| l.is("MESH", Some("SEQUENCE"))) {
        let Some(mesh) = line.value(ctx.text, "MESH") else { continue };
        let (Some(start), Some(count)) =
            (line.value(ctx.text, "STARTFRAME"), line.value(ctx.text, "NUMFRAMES"))
        else {
            continue;
        };
        if atoi(&count.text) == 0 {
            out.push(RULE.diagnostic(
                count.mark(),
                "NUMFRAMES=0: when the sequence plays, the engine takes the frame number modulo NUMFRAMES, a division by zero; a one-frame pose is NUMFRAMES=1",
            ));
            continue;
        }
        let Some(found) = ctx.table.mesh(&mesh.text) else { continue };
        let Some(source) = found.definition.mesh.as_ref().filter(|m| !m.skeletal) else { continue };
        let Some(frames) = ctx.mesh_frames(source) else { continue };
        let (first, n) = (atoi(&start.text), atoi(&count.text));
        if first >= 0 && n >= 0 && first + n <= i64::from(frames) {
            continue;
        }
        let aniv = source.aniv.as_deref().map(|p| ctx.show(p)).unwrap_or_default();
        let mut diagnostic = RULE.diagnostic(
            start.span.cover(count.mark()),
            format!(
                "STARTFRAME={first} NUMFRAMES={n} runs to frame {}, but `{aniv}` has {frames} frames (0 to {})",
                first + n - 1,
                i64::from(frames) - 1
            ),
        );
        diagnostic.labels.push(Label {
            file: found.file.map(std::path::Path::to_path_buf),
            span: found.definition.span,
            message: format!("mesh `{}` is imported here", found.definition.name),
        });
        out.push(diagnostic);
    }
}
