//! `t3d-stray-line`: a line outside every block in a file that does have blocks. UnrealEd
//! reads only what stands inside `Begin`/`End`, so the line is silently lost: usually the
//! remains of a bad copy and paste.

use super::{RuleMeta, T3dContext};
use crate::{Diagnostic, Severity};

pub static RULE: RuleMeta = RuleMeta {
    code: "t3d-stray-line",
    severity: Severity::Warning,
    summary: "a line outside every `Begin`/`End` block",
};

pub fn check(ctx: &T3dContext<'_>, out: &mut Vec<Diagnostic>) {
    if ctx.blocks.is_empty() {
        return;
    }
    let reported_by_structure: Vec<_> = ctx.parse.errors.iter().map(|e| e.span).collect();
    for item in &ctx.parse.file.items {
        if item.as_block().is_some() || reported_by_structure.contains(&item.span()) {
            continue;
        }
        out.push(RULE.diagnostic(
            item.span(),
            format!(
                "`{}` stands outside every block; UnrealEd ignores it",
                item.span().text(ctx.text)
            ),
        ));
    }
}
