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
use unreal_syntax::Span;

use super::T3dDocument;
use crate::ide::t3d::folding::{self, Fold, FoldingRange};
use crate::ide::t3d::symbols::{self, DocumentSymbol, SymbolKind};
use crate::ide::t3d::Source;
use crate::SourceText;

static NO_ITEMS: T3dFile = T3dFile { items: Vec::new() };

/// What one segment adds to the outline, as of when its item started at `start`. Kept for
/// every segment of an open document as long as it lives, so kept flat: four allocations a
/// segment (the symbols as a tree of `DocumentSymbol`s were about ten, 5.2 MB for the 10 MB
/// map of the latency benchmark, more than half of what its segments keep).
#[derive(Debug)]
pub(super) struct SegmentOutline {
    start: u32,
    /// The outline of the segment's item without polygons, in pre-order (each symbol
    /// followed by its descendants).
    symbols: Box<[FlatSymbol]>,
    /// Each symbol's name and detail, in the order of `symbols`.
    strings: Box<str>,
    polygons: usize,
    folds: Box<[Fold]>,
}

/// A [`DocumentSymbol`] without its strings and children.
#[derive(Debug)]
struct FlatSymbol {
    kind: SymbolKind,
    /// How many symbols after this one are its descendants.
    descendants: u32,
    span: Span,
    selection_span: Span,
    /// The lengths of its name and detail in the strings (the detail's [`NO_DETAIL`] when it
    /// has none).
    name_len: u32,
    detail_len: u32,
}

const NO_DETAIL: u32 = u32::MAX;

impl SegmentOutline {
    /// The outline of a segment's whole `item`.
    pub(super) fn of(text: &str, item: &Item) -> Arc<Self> {
        let src = Source { text, file: &NO_ITEMS, errors: &[], generation: None };
        let items = std::slice::from_ref(item);
        let mut flat = Vec::new();
        let mut strings = String::new();
        let symbols = symbols::symbols_of(&src, items, symbols::Within::Map, false);
        flatten(symbols, &mut flat, &mut strings);
        Arc::new(Self {
            start: item.span().start,
            symbols: flat.into_boxed_slice(),
            strings: strings.into_boxed_str(),
            polygons: symbols::polygons_shown(items, symbols::Within::Map),
            folds: folding::folds_of(items).into_boxed_slice(),
        })
    }

    /// The segment's symbols, moved by `delta`.
    fn symbols(&self, delta: i64, out: &mut Vec<DocumentSymbol>) {
        unflatten(&self.symbols, &self.strings, &mut 0, delta, out);
    }
}

/// Appends `symbols` and their descendants to `flat` in pre-order, their strings to
/// `strings`.
fn flatten(symbols: Vec<DocumentSymbol>, flat: &mut Vec<FlatSymbol>, strings: &mut String) {
    for symbol in symbols {
        let at = flat.len();
        strings.push_str(&symbol.name);
        let detail_len = symbol.detail.as_deref().map_or(NO_DETAIL, |detail| {
            strings.push_str(detail);
            detail.len() as u32
        });
        flat.push(FlatSymbol {
            kind: symbol.kind,
            descendants: 0,
            span: symbol.span,
            selection_span: symbol.selection_span,
            name_len: symbol.name.len() as u32,
            detail_len,
        });
        // Symbols nest as blocks do, which the parser bounds.
        flatten(symbol.children, flat, strings);
        let descendants = (flat.len() - at - 1) as u32;
        if let Some(flat) = flat.get_mut(at) {
            flat.descendants = descendants;
        }
    }
}

/// The symbols of `flat` (siblings, each followed by its descendants) as a tree, moved by
/// `delta`, their strings read from `strings` at `*at` on.
fn unflatten(
    flat: &[FlatSymbol],
    strings: &str,
    at: &mut usize,
    delta: i64,
    out: &mut Vec<DocumentSymbol>,
) {
    let take = |at: &mut usize, len: u32| {
        let end = *at + len as usize;
        let taken = strings.get(*at..end).unwrap_or_default().to_owned();
        *at = end;
        taken
    };
    let mut i = 0;
    while let Some(symbol) = flat.get(i) {
        let end = i + 1 + symbol.descendants as usize;
        let name = take(at, symbol.name_len);
        let detail = (symbol.detail_len != NO_DETAIL).then(|| take(at, symbol.detail_len));
        let mut children = Vec::new();
        unflatten(flat.get(i + 1..end).unwrap_or_default(), strings, at, delta, &mut children);
        out.push(DocumentSymbol {
            name,
            detail,
            kind: symbol.kind,
            span: symbol.span.shifted_from(0, delta),
            selection_span: symbol.selection_span.shifted_from(0, delta),
            children,
        });
        i = end;
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

    /// What the segments keep of the outline and the folds, taken for reading apart from the
    /// document: the text and a reference to each segment's outline (the request that reads
    /// them holds the document's lock for this only). `None` for a document without a single
    /// map or level around everything, or when a segment cannot be parsed on its own.
    pub fn kept_outline(&self) -> Option<KeptOutline> {
        let frame = self.frame.as_ref()?;
        let outlines = self.outlines()?;
        let actors = self
            .segments
            .iter()
            .filter(|s| matches!(&s.item, Item::Block(b) if b.kind == BlockKind::Actor))
            .count();
        Some(KeptOutline {
            text: Arc::clone(&self.text),
            frame: Item::Block(Box::new(frame.clone())),
            actors,
            outlines,
        })
    }

    /// The outline, equal to [`symbols::document_symbols`] on a whole parse, from what the
    /// segments keep. `None` when the outline shows polygons (between 1 and `polygons_up_to`
    /// outside the actors: the polygons are not kept), for a document without a single map or
    /// level around everything, or when a segment cannot be parsed on its own: then a whole
    /// parse answers.
    pub fn outline_symbols(&self, polygons_up_to: usize) -> Option<Vec<DocumentSymbol>> {
        let kept = self.kept_outline()?;
        let mut frame = kept.frame_symbol(polygons_up_to)?;
        frame.children = kept.symbols().collect();
        Some(vec![frame])
    }

    /// The folding ranges, equal to [`folding::folding_ranges`] on a whole parse, from what
    /// the segments keep; `None` as for [`Self::outline_symbols`] (polygons aside).
    pub fn folding_ranges(&self) -> Option<Vec<FoldingRange>> {
        Some(self.kept_outline()?.folds().collect())
    }
}

/// The outline and the folds of a framed document as its segments keep them
/// ([`T3dDocument::kept_outline`]), given one piece at a time: a request that writes them out
/// as it goes holds no more than one segment's symbols besides its answer (the whole
/// outline of the 10 MB map of the latency benchmark, with its copy in protocol types, was
/// most of 8 MB that its requests held for a moment).
#[derive(Debug)]
pub struct KeptOutline {
    text: Arc<SourceText>,
    /// The frame, without children.
    frame: Item,
    actors: usize,
    outlines: Vec<(Arc<SegmentOutline>, i64)>,
}

impl KeptOutline {
    /// The text the outline was taken from.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The frame's own symbol, without its children ([`Self::symbols`]); `None` when the
    /// outline shows polygons (between 1 and `polygons_up_to` outside the actors), which are
    /// not kept.
    pub fn frame_symbol(&self, polygons_up_to: usize) -> Option<DocumentSymbol> {
        let polygons: usize = self.outlines.iter().map(|(o, _)| o.polygons).sum();
        if polygons > 0 && polygons <= polygons_up_to {
            return None;
        }
        let Item::Block(frame) = &self.frame else { return None };
        let src = Source { text: &self.text, file: &NO_ITEMS, errors: &[], generation: None };
        Some(symbols::frame_symbol(&src, frame, self.actors, Vec::new()))
    }

    /// The frame's children's symbols, in order.
    pub fn symbols(&self) -> impl Iterator<Item = DocumentSymbol> + '_ {
        self.outlines.iter().flat_map(|(outline, delta)| {
            let mut symbols = Vec::new();
            outline.symbols(*delta, &mut symbols);
            symbols
        })
    }

    /// The folding ranges, in order: the frame's, then every segment's.
    pub fn folds(&self) -> impl Iterator<Item = FoldingRange> + '_ {
        let text = self.text();
        let frame = folding::folds_of(std::slice::from_ref(&self.frame));
        let frame = frame.into_iter().map(move |fold| fold.range(text, 0));
        let segments = self.outlines.iter().flat_map(move |(outline, delta)| {
            outline.folds.iter().map(move |f| f.range(text, *delta))
        });
        frame.chain(segments)
    }
}

/// What the editor features read of an open map ([`crate::ide::Analysis`]).
impl crate::ide::MapDocument for T3dDocument {
    fn text(&self) -> &str {
        T3dDocument::text(self)
    }

    fn parse_whole(&self) -> unreal_syntax::t3d::Parse {
        self.full_parse()
    }

    fn parse_around(&self, span: Span) -> unreal_syntax::t3d::Parse {
        T3dDocument::parse_around(self, span)
    }

    fn generation(&self, setting: crate::EngineSetting) -> Option<crate::Generation> {
        T3dDocument::generation(self, setting)
    }

    fn outline_kept(&self, polygons_up_to: usize) -> Option<Vec<DocumentSymbol>> {
        self.outline_symbols(polygons_up_to)
    }

    fn folding_kept(&self) -> Option<Vec<FoldingRange>> {
        self.folding_ranges()
    }

    fn is_stopped(&self) -> bool {
        T3dDocument::is_stopped(self)
    }
}
