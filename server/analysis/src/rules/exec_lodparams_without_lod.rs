//! `exec-lodparams-without-lod`: `MESH LODPARAMS` for a mesh imported with `MLOD=0`. The
//! engine builds a LOD mesh unless `MLOD=0` is given; for a plain mesh it warns "Need a LOD
//! mesh (MLOD=1)" and ignores the parameters.

use super::RuleMeta;
use crate::exec::ExecContext;
use crate::{Diagnostic, Label, Severity};

pub static RULE: RuleMeta = RuleMeta {
    code: "exec-lodparams-without-lod",
    severity: Severity::Warning,
    summary: "`MESH LODPARAMS` for a mesh imported with `MLOD=0`",
};

pub fn check(ctx: &ExecContext<'_>, out: &mut Vec<Diagnostic>) {
    for (line, _) in ctx.commands().filter(|(l, _)| l.is("MESH", Some("LODPARAMS"))) {
        let Some(mesh) = line.value(ctx.text, "MESH") else { continue };
        let Some(found) = ctx.table.mesh(&mesh.text) else { continue };
        let Some(source) = found.definition.mesh.as_ref().filter(|m| !m.lod) else { continue };
        let mut diagnostic = RULE.diagnostic(
            line.words_span(),
            format!(
                "mesh `{}` was imported with MLOD=0, so it has no LOD data; the engine warns \"Need a LOD mesh (MLOD=1)\" and ignores this line",
                found.definition.name
            ),
        );
        diagnostic.labels.push(Label {
            file: found.file.map(std::path::Path::to_path_buf),
            span: source.mlod_span.unwrap_or(found.definition.span),
            message: "MLOD=0 here".to_owned(),
        });
        out.push(diagnostic);
    }
}
