//! The outline and the folding ranges of an open document, kept per segment.
//!
//! Whenever a segment's whole tree is at hand (an edit re-parses it, the diagnostics pass or
//! [`T3dDocument::read_markers`] parses it), its symbols (without polygons), its number of
//! polygons and its folds (spans only) are kept with it; an edit moves them as the segment
//! moves. `documentSymbol` and `foldingRange` then read them instead of parsing the whole
//! map: on the 10 MB map of the latency benchmark, a parse of the whole map and the drop of
//! its tree were most of those requests' time and memory. Equal to
//! [`symbols::document_symbols`] and [`folding::folding_ranges`] on a whole parse (the oracle
//! test in `tests/ide/document.rs` holds them so after every edit).

use std::sync::Arc;

use unreal_syntax::t3d::{BlockKind, Item, T3dFile};

use super::T3dDocument;
use crate::ide::folding::{self, Fold, FoldingRange};
use crate::ide::symbols::{self, DocumentSymbol};
use crate::ide::Source;

static NO_ITEMS: T3dFile = T3dFile { items: Vec::new() };

/// What one segment adds to the outline, as of when its item started at `start`.
#[derive(Debug)]
pub(super) struct SegmentOutline {
    start: u32,
    /// The outline of the segment's item, without polygons.
    symbols: Vec<DocumentSymbol>,
    polygons: usize,
    folds: Vec<Fold>,
}

impl SegmentOutline {
    /// The outline of a segment's whole `item`.
    pub(super) fn of(text: &str, item: &Item) -> Arc<Self> {
        let src = Source { text, file: &NO_ITEMS, errors: &[], generation: None };
        let items = std::slice::from_ref(item);
        Arc::new(Self {
            start: item.span().start,
            symbols: symbols::symbols_of(&src, items, false),
            polygons: symbols::polygons_in(items),
            folds: folding::folds_of(items),
        })
    }
}

impl T3dDocument {
    /// The segments' outlines with how far each segment moved since; `None` when one is
    /// missing and its segment cannot be parsed on its own (computed now when it can: a
    /// document read before its diagnostics pass).
    fn outlines(&self) -> Option<Vec<(Arc<SegmentOutline>, i64)>> {
        let mut out = Vec::with_capacity(self.segments.len());
        for (index, segment) in self.segments.iter().enumerate() {
            let outline = match &segment.outline {
                Some(outline) => Arc::clone(outline),
                None if segment.complete && segment.lag == 0 => {
                    SegmentOutline::of(&self.text, &segment.item)
                }
                None if segment.complete => {
                    let mut item = segment.item.clone();
                    item.shift(segment.lag);
                    SegmentOutline::of(&self.text, &item)
                }
                None => SegmentOutline::of(&self.text, &self.parse_segment(index)?.0),
            };
            let delta = i64::from(segment.span().start) - i64::from(outline.start);
            out.push((outline, delta));
        }
        Some(out)
    }

    /// The outline, equal to [`symbols::document_symbols`] on a whole parse, from what the
    /// segments keep. `None` when the outline shows polygons (`polygons_up_to` or fewer in
    /// the document: the polygons are not kept), for a document without a single map or
    /// level around everything, or when a segment cannot be parsed on its own: then a whole
    /// parse answers.
    pub fn outline_symbols(&self, polygons_up_to: usize) -> Option<Vec<DocumentSymbol>> {
        let frame = self.frame.as_ref()?;
        let outlines = self.outlines()?;
        let polygons: usize = outlines.iter().map(|(o, _)| o.polygons).sum();
        if polygons <= polygons_up_to {
            return None;
        }
        let mut children = Vec::new();
        for (outline, delta) in &outlines {
            children.extend(outline.symbols.iter().map(|symbol| {
                let mut symbol = symbol.clone();
                if *delta != 0 {
                    shift(&mut symbol, *delta);
                }
                symbol
            }));
        }
        let actors = self
            .segments
            .iter()
            .filter(|s| matches!(&s.item, Item::Block(b) if b.kind == BlockKind::Actor))
            .count();
        let src = Source { text: &self.text, file: &NO_ITEMS, errors: &[], generation: None };
        Some(vec![symbols::frame_symbol(&src, frame, actors, children)])
    }

    /// The folding ranges, equal to [`folding::folding_ranges`] on a whole parse, from what
    /// the segments keep; `None` as for [`Self::outline_symbols`] (polygons aside).
    pub fn folding_ranges(&self) -> Option<Vec<FoldingRange>> {
        let frame = self.frame.as_ref()?;
        let outlines = self.outlines()?;
        let mut out = Vec::new();
        let frame = Item::Block(Box::new(frame.clone()));
        out.extend(
            folding::folds_of(std::slice::from_ref(&frame))
                .into_iter()
                .map(|fold| fold.range(&self.text, 0)),
        );
        for (outline, delta) in &outlines {
            out.extend(outline.folds.iter().map(|fold| fold.range(&self.text, *delta)));
        }
        Some(out)
    }
}

/// Moves a symbol and its children by `delta` (all of them lie inside the segment).
fn shift(symbol: &mut DocumentSymbol, delta: i64) {
    symbol.span = symbol.span.shifted_from(0, delta);
    symbol.selection_span = symbol.selection_span.shifted_from(0, delta);
    for child in &mut symbol.children {
        shift(child, delta);
    }
}
