//! Folding ranges of a `.uc` file: every run of two or more directive lines on consecutive
//! lines (the import block at the top of a class).

use unreal_syntax::t3d::BlockKind;
use unreal_syntax::Span;

use super::ExecSource;
use crate::ide::t3d::folding::FoldingRange;

/// One range per run, in source order. The kind is [`BlockKind::Other`]: a run is no T3D
/// block, and editors fold every range the same way.
pub fn folding_ranges(src: &ExecSource<'_>) -> Vec<FoldingRange> {
    let mut out = Vec::new();
    let mut run: Option<(Span, Span, usize)> = None;
    let close = |run: Option<(Span, Span, usize)>, out: &mut Vec<FoldingRange>| {
        if let Some((first, last, count)) = run {
            if count > 1 {
                out.push(FoldingRange {
                    span: first.cover(last),
                    kind: BlockKind::Other,
                    collapsed_text: format!("{} ({count} directives)", first.text(src.text)),
                });
            }
        }
    };
    for line in &src.file.lines {
        let span = line.directive.span;
        run = match run {
            Some((first, last, count)) if next_line(src.text, last, span) => {
                Some((first, span, count + 1))
            }
            other => {
                close(other, &mut out);
                Some((span, span, 1))
            }
        };
    }
    close(run, &mut out);
    out
}

/// True when `next` starts on the line right after the one `last` ends on.
fn next_line(text: &str, last: Span, next: Span) -> bool {
    let between = text.get(last.end as usize..next.start as usize).unwrap_or("");
    between.trim_start_matches('\r').strip_prefix('\n').is_some_and(|rest| !rest.contains('\n'))
        && between.matches('\n').count() == 1
}
