//! Folding ranges: every block that spans more than one line.

use unreal_syntax::t3d::{BlockKind, Item};
use unreal_syntax::Span;

use super::Source;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FoldingRange {
    /// From the start of the `Begin` line to the end of the `End` line (or of the last child
    /// of a block that is never closed).
    pub span: Span,
    pub kind: BlockKind,
    /// What a folded block shows: its `Begin` line.
    pub collapsed_text: String,
}

/// One range per multi-line block, in source order.
pub fn folding_ranges(src: &Source<'_>) -> Vec<FoldingRange> {
    let mut out = Vec::new();
    let mut stack: Vec<std::slice::Iter<'_, Item>> = vec![src.file.items.iter()];
    while let Some(iter) = stack.last_mut() {
        let Some(item) = iter.next() else {
            stack.pop();
            continue;
        };
        let Item::Block(block) = item else { continue };
        if block.span.end > block.begin_span.end {
            out.push(FoldingRange {
                span: block.span,
                kind: block.kind,
                collapsed_text: src.slice(block.begin_span).to_owned(),
            });
        }
        stack.push(block.children.iter());
    }
    out
}
