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
    ..RuleMeta::UNREALSCRIPT
};

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
