//! `exec-mesh-vertex-mismatch`: the `_d.3d` and `_a.3d` of a `MESH IMPORT` disagree on the
//! vertex count: each frame of the `_a.3d` must hold 4 bytes per vertex of the `_d.3d` (8 for
//! Deus Ex). The files come from different exports; the import fails or scrambles the mesh.

use super::RuleMeta;
use crate::exec::{ExecContext, Expect, FileFacts, Resolution};
use crate::{Diagnostic, Severity};

pub static RULE: RuleMeta = RuleMeta {
    code: "exec-mesh-vertex-mismatch",
    severity: Severity::Error,
    summary: "the `_d.3d` and `_a.3d` of a mesh disagree on the vertex count",
};

pub fn check(ctx: &ExecContext<'_>, out: &mut Vec<Diagnostic>) {
    let Some(env) = ctx.env else { return };
    for (line, _) in ctx.commands().filter(|(l, _)| l.is("MESH", Some("IMPORT"))) {
        let (Some(data), Some(aniv)) = (line.path("DATAFILE"), line.path("ANIVFILE")) else {
            continue;
        };
        let (Resolution::Found { path: data_path, .. }, Resolution::Found { path: aniv_path, .. }) =
            (&data.resolution, &aniv.resolution)
        else {
            continue;
        };
        let FileFacts::MeshData { vertices, .. } = *env.facts(data_path, Expect::MeshData) else {
            continue;
        };
        let FileFacts::MeshAnimation { frame_size, .. } =
            *env.facts(aniv_path, Expect::MeshAnimation)
        else {
            continue;
        };
        let verts = u32::from(vertices);
        let size = u32::from(frame_size);
        if verts > 0 && (size == verts * 4 || size == verts * 8) {
            continue;
        }
        out.push(
            RULE.diagnostic(
                aniv.value.mark(),
                format!(
                    "`{}` has frames of {size} bytes ({} vertices), but `{}` has {verts} vertices ({} bytes a frame)",
                    ctx.show(aniv_path),
                    size / 4,
                    ctx.show(data_path),
                    verts * 4
                ),
            )
            .with_label(data.value.mark(), format!("{verts} vertices")),
        );
    }
}
