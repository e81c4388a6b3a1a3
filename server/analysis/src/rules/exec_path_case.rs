//! `exec-path-case`: a path finds its file only when case is ignored (`MODELS\Skull_a.3D` for
//! `Models/Skull_a.3d`). Windows builds work; builds on Linux (OldUnreal's native UCC, CI)
//! fail with a missing file.

use super::RuleMeta;
use crate::exec::{ExecContext, Resolution};
use crate::{Diagnostic, Fix, Severity, TextEdit};

pub static RULE: RuleMeta = RuleMeta {
    code: "exec-path-case",
    severity: Severity::Warning,
    summary: "a path matches its file only when case is ignored",
};

pub fn check(ctx: &ExecContext<'_>, out: &mut Vec<Diagnostic>) {
    for line in &ctx.file.lines {
        for path in &line.paths {
            let Resolution::Found { on_disk, case_differs: true, .. } = &path.resolution else {
                continue;
            };
            out.push(
                RULE.diagnostic(
                    path.value.mark(),
                    format!(
                        "`{}` differs in case from the file on disk `{on_disk}`; it is not found on case-sensitive file systems (Linux builds)",
                        path.value.text
                    ),
                )
                .with_fix(Fix {
                    title: format!("Write `{on_disk}`"),
                    edits: vec![TextEdit { span: path.value.span, new_text: on_disk.clone() }],
                    safe: true,
                }),
            );
        }
    }
}
