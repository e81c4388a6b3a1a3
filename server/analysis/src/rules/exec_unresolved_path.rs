//! `exec-unresolved-path`: in a `.uc` outside `Classes/` (which UCC never compiles), a path
//! resolves from no folder that could be its package folder, but a file of that name lies
//! beside the `.uc`. Such files are usually exporter templates written next to the model;
//! moved into `Classes/` as they are, their paths would not resolve.

use super::RuleMeta;
use crate::exec::{ExecContext, Resolution};
use crate::{Diagnostic, Fix, Label, Severity, TextEdit};

pub static RULE: RuleMeta = RuleMeta {
    code: "exec-unresolved-path",
    severity: Severity::Info,
    summary: "outside `Classes/`: a path resolves from no package folder, though its file lies beside the `.uc`",
    ..RuleMeta::UNREALSCRIPT
};

pub fn check(ctx: &ExecContext<'_>, out: &mut Vec<Diagnostic>) {
    for line in &ctx.file.lines {
        for path in &line.paths {
            let Resolution::Missing { beside: Some(found) } = &path.resolution else { continue };
            let shown = ctx.show(found);
            let mut diagnostic = RULE.diagnostic(
                path.value.mark(),
                format!(
                    "`{}` resolves from no package folder (this file is outside Classes/, so UCC never compiles it)",
                    path.value.text
                ),
            );
            diagnostic.labels.push(Label {
                file: Some(found.clone()),
                span: unreal_syntax::Span::from_range(0..0),
                message: format!(
                    "hint: the file exists here, as `{shown}` from the folder above Classes/"
                ),
            });
            let replacement = shown.replace('/', "\\");
            out.push(diagnostic.with_fix(Fix {
                title: format!("Write `{replacement}`"),
                edits: vec![TextEdit { span: path.value.span, new_text: replacement }],
                safe: false,
            }));
        }
    }
}
