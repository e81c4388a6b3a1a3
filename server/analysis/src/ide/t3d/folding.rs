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
    folds_of(&src.file.items).into_iter().map(|fold| fold.range(src.text, 0)).collect()
}

/// A folding range without its text: what an open document keeps per segment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fold {
    pub span: Span,
    /// The `Begin` line, which a folded block shows.
    pub begin_span: Span,
    pub kind: BlockKind,
}

impl Fold {
    /// The range, its spans moved by `delta` (where its block has moved since), its text
    /// read from `text`.
    pub fn range(&self, text: &str, delta: i64) -> FoldingRange {
        let span = self.span.shifted_from(0, delta);
        let begin_span = self.begin_span.shifted_from(0, delta);
        FoldingRange { span, kind: self.kind, collapsed_text: begin_span.text(text).to_owned() }
    }
}

/// One fold per multi-line block of `items` (at any depth), in source order.
pub fn folds_of(items: &[Item]) -> Vec<Fold> {
    let mut out = Vec::new();
    let mut stack: Vec<std::slice::Iter<'_, Item>> = vec![items.iter()];
    while let Some(iter) = stack.last_mut() {
        let Some(item) = iter.next() else {
            stack.pop();
            continue;
        };
        let Item::Block(block) = item else { continue };
        if block.span.end > block.begin_span.end {
            out.push(Fold { span: block.span, begin_span: block.begin_span, kind: block.kind });
        }
        stack.push(block.children.iter());
    }
    out
}
