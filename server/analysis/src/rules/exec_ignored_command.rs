//! `exec-ignored-command`: the engine accepts the line and does nothing with it, such as
//! `MESHMAP NEW`, which old exporters still write although meshmaps were merged into meshes
//! before UE1 v400.

use super::RuleMeta;
use crate::exec::ExecContext;
use crate::{Diagnostic, Fix, Severity, TextEdit};

pub static RULE: RuleMeta = RuleMeta {
    code: "exec-ignored-command",
    severity: Severity::Warning,
    summary: "an `#exec` command the engine accepts and ignores",
};

pub fn check(ctx: &ExecContext<'_>, out: &mut Vec<Diagnostic>) {
    for (line, m) in ctx.commands() {
        let Some(reason) = m.spec.ignored else { continue };
        let whole = line.directive.span;
        // The line and its line break.
        let end = ctx.text.get(whole.end as usize..).map_or(whole.end as usize, |rest| {
            whole.end as usize + rest.find('\n').map_or(rest.len(), |p| p + 1)
        });
        out.push(
            RULE.diagnostic(
                line.words_span(),
                format!("`{}` does nothing: {reason}", m.spec.display_name()),
            )
            .with_fix(Fix {
                title: "Remove the line".to_owned(),
                edits: vec![TextEdit {
                    span: unreal_syntax::Span::from_range(whole.start as usize..end),
                    new_text: String::new(),
                }],
                safe: true,
            }),
        );
    }
}
