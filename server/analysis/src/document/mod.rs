//! An open T3D document that re-parses incrementally and keeps no tree.
//!
//! A map is one giant `Begin Map` block, so the unit of re-parsing is each child of the top
//! `Begin Map`/`Begin Level` (the *frame*), or each top-level item of a file without one: a
//! *segment*. The document keeps the text, and per segment its first line (for a block:
//! the `Begin` and `End` lines without the children), its syntax errors, its generation
//! markers and, once computed, its diagnostics. The segments' trees are not kept: a feature
//! parses the segments it reads when it asks ([`T3dDocument::parse_around`]), which costs
//! microseconds for the block under a cursor, and a whole-document feature parses the whole
//! text ([`T3dDocument::full_parse`]). That keeps a 10 MB map's document near 12 MB instead
//! of the 40 MB its tree takes.
//!
//! An edit re-parses the lines of the segments it touches as lines inside the frame
//! ([`t3d::parse_in_frame`]): the parser's state between two segments is only its stack of
//! open blocks, which is the frame alone, so when the re-parsed lines end with the frame the
//! only open block again, they give exactly the items a whole parse gives. When they leave a
//! block open, the next segments are taken in too (doubling) until they close; an `End`
//! that closes the frame, or an edit of the frame's own lines, parses the whole document
//! again. Because `Begin Actor` closes whatever is still open inside the map (as UnrealEd
//! reads it), a broken `Begin`/`End` line of an actor reaches at most the next actor.
//!
//! Diagnostics are cached per segment (the `diagnostics` module). The segments after an edit
//! are not rewritten: each keeps how far its item's spans lag behind the text (`lag`), and
//! the item is moved (`Item::shift`) only when it is read whole.

mod cross;
mod diagnostics;
mod outline;
mod parallel;

use std::sync::Arc;

use rayon::prelude::*;
use unreal_syntax::t3d::{self, Block, BlockKind, FrameParse, Item, Parse, SyntaxError, T3dFile};
use unreal_syntax::text::{last_line_start_in, line_end_with_break, line_start, line_starts_in};
use unreal_syntax::Span;

use self::diagnostics::{shift_diagnostic, CacheKey, SegmentFacts};
pub use self::outline::KeptOutline;
use self::outline::SegmentOutline;
pub use self::parallel::CheckedOnce;
use crate::t3d::generation::{self, Markers};
use crate::{Diagnostic, EngineSetting, Generation, SourceText};

/// How an edit was applied.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reparse {
    /// Only these many segments (top-level blocks and lines) were parsed again.
    Segments(usize),
    /// The whole document was parsed again.
    Full,
}

/// One child of the frame (or top-level item), without its tree once its facts are known.
#[derive(Clone, Debug)]
struct Segment {
    /// The item; for a block, its `Begin`/`End` lines and attributes, the children only
    /// while `complete`. Its spans are absolute, as of when it was parsed: the text there
    /// is at `lag` bytes from them ([`Self::settle`] moves them).
    item: Item,
    /// How far the text of `item` has moved since its spans were last set: every edit before
    /// the segment adds its length here instead of rewriting the item's spans. Moving the
    /// items of every later segment was a tenth of the server's time per edit on a 10 MB
    /// map (thousands of items, each behind a pointer), this is one number each.
    lag: i64,
    /// Whether `item` holds its children (a parse whose facts are not computed yet).
    complete: bool,
    /// The syntax errors on the segment's lines (known once `markers` is).
    errors: Vec<SyntaxError>,
    /// The generation markers, `None` until the segment was parsed in full once (a fresh
    /// layout reads only the block structure).
    markers: Option<Markers>,
    facts: Option<SegmentFacts>,
    /// Its part of the outline and folding ranges, kept from its last whole parse.
    outline: Option<Arc<SegmentOutline>>,
}

impl Segment {
    /// A segment parsed in full (its errors are filed by [`split_errors`]).
    fn parsed(text: &str, item: Item, keep_outline: bool) -> Self {
        let markers = generation::markers(text, std::slice::from_ref(&item));
        let outline = keep_outline.then(|| SegmentOutline::of(text, &item));
        Self {
            item,
            lag: 0,
            complete: true,
            errors: Vec::new(),
            markers: Some(markers),
            facts: None,
            outline,
        }
    }

    /// A segment known only from the document's outline.
    fn outlined(mut item: Item) -> Self {
        if let Item::Block(block) = &mut item {
            block.children = Vec::new();
        }
        let complete = !matches!(item, Item::Block(_));
        let markers = None;
        let errors = Vec::new();
        Self { item, lag: 0, complete, errors, markers, facts: None, outline: None }
    }

    fn span(&self) -> Span {
        let span = self.item.span();
        if self.lag == 0 {
            span
        } else {
            span.shifted(self.lag)
        }
    }

    /// Moves the item's spans to where its text is now: before the item is read whole or
    /// replaced by a new parse.
    fn settle(&mut self) {
        if self.lag != 0 {
            self.item.shift(self.lag);
            self.lag = 0;
        }
    }

    /// The item without its children (a block's `Begin`/`End` lines and attributes), its
    /// spans where its text is now.
    fn shell(&self) -> Item {
        let mut item = shell(&self.item);
        if self.lag != 0 {
            item.shift(self.lag);
        }
        item
    }

    /// A block that ended without its `End` (closed by the next `Begin Actor`, by the
    /// frame's `End` or by the end of the file): lines after it can still fall into it.
    fn is_open(&self) -> bool {
        matches!(&self.item, Item::Block(block) if block.end.is_none())
    }

    /// Drops the children (after the facts were computed from them).
    fn strip(&mut self) {
        if let Item::Block(block) = &mut self.item {
            block.children = Vec::new();
            self.complete = false;
        }
    }

    /// The lines the segment covers: from its first line's start to after its last line's
    /// break.
    fn lines(&self, text: &str) -> (usize, usize) {
        let span = self.span();
        (line_start(text, span.start as usize), line_end_with_break(text, span.end as usize))
    }
}

#[derive(Clone, Debug)]
pub struct T3dDocument {
    /// Shared with the snapshots taken by [`Self::detached`]: taking one costs a reference
    /// count, and an edit copies the text only while a snapshot still holds it.
    text: Arc<SourceText>,
    /// The single closed `Begin Map`/`Begin Level` that holds everything, without children.
    frame: Option<Block>,
    /// Syntax errors on the frame's own lines.
    frame_errors: Vec<SyntaxError>,
    frame_markers: Markers,
    segments: Vec<Segment>,
    /// What the cached diagnostics were computed for: the setting, the generation and the
    /// package index (by identity: a new index is a new key).
    cache_key: Option<CacheKey>,
    /// Diagnostics of the frame's own lines.
    frame_cache: Option<Vec<Diagnostic>>,
    /// The findings of the rules that compare segments, kept from the last pass.
    cross: cross::CrossFindings,
    /// Whether each segment keeps its part of the outline and folding ranges (an editor's
    /// document); a one-time check (`unreal-ls lint`) keeps none, they cost about half as
    /// much again as the rest of what a segment keeps.
    keep_outlines: bool,
    /// The findings of a text whose outline stopped on too many `Begin`/`End` mismatches
    /// (`in_pieces::MAX_MISMATCHES`): the document then has no frame and no segments, its
    /// features read no tree, and each edit outlines it again (reading stops early, so that
    /// is cheap) until it reads as a map.
    stopped: Option<Vec<Diagnostic>>,
}

impl T3dDocument {
    /// An editor's document: it keeps what its outline and folding ranges need.
    pub fn new(text: impl Into<String>) -> Self {
        Self::with_outlines(text.into(), true)
    }

    /// A document read to be checked once ([`Self::diagnostics`]) and dropped: its segments
    /// keep no outline (an outline or folding request on it parses the whole text).
    pub fn for_checking(text: impl Into<SourceText>) -> Self {
        Self::with_outlines(text.into(), false)
    }

    fn with_outlines(text: impl Into<SourceText>, keep_outlines: bool) -> Self {
        let mut doc = Self::unlaid(text, keep_outlines);
        doc.relayout();
        doc
    }

    /// A document whose text is not read yet: no frame, no segments.
    fn unlaid(text: impl Into<SourceText>, keep_outlines: bool) -> Self {
        Self {
            text: Arc::new(text.into()),
            frame: None,
            frame_errors: Vec::new(),
            frame_markers: Markers::default(),
            segments: Vec::new(),
            cache_key: None,
            frame_cache: None,
            cross: cross::CrossFindings::default(),
            keep_outlines,
            stopped: None,
        }
    }

    pub fn text(&self) -> &str {
        &self.text
    }

    /// The text, shared: a reader that needs nothing else of the document (the whole
    /// document's formatting) holds it without a copy while edits go on.
    pub fn shared_text(&self) -> Arc<SourceText> {
        Arc::clone(&self.text)
    }

    /// The text, taking the document apart (a mapped text stays mapped).
    pub fn into_text(self) -> SourceText {
        Arc::try_unwrap(self.text).unwrap_or_else(|shared| (*shared).clone())
    }

    /// The generation the setting fixes, or the one the document's markers show (those of
    /// the segments parsed so far: every one after [`Self::diagnostics`] or
    /// [`Self::read_markers`]).
    pub fn generation(&self, setting: EngineSetting) -> Option<Generation> {
        setting.fixed().or_else(|| {
            let all = self
                .segments
                .iter()
                .filter_map(|s| s.markers)
                .fold(self.frame_markers, Markers::plus);
            all.generation()
        })
    }

    /// Parses every segment not parsed in full yet for its generation markers (and syntax
    /// errors), one at a time, keeping none of the trees: after opening a document, what
    /// [`Self::generation`] needs.
    pub fn read_markers(&mut self) {
        for index in 0..self.segments.len() {
            if self.segments.get(index).is_some_and(|s| s.markers.is_some()) {
                continue;
            }
            let Some((item, errors)) = self.parse_segment(index) else {
                self.adopt_full_parse();
                return;
            };
            if let Some(segment) = self.segments.get_mut(index) {
                segment.markers =
                    Some(generation::markers(&self.text, std::slice::from_ref(&item)));
                segment.outline = Some(SegmentOutline::of(&self.text, &item));
                segment.errors = errors;
            }
        }
    }

    /// Parses segment `index` on its own lines (with the next ones while it stays open):
    /// its whole item and the errors on its lines. `None` when only a whole parse can tell
    /// (the last block of a map left open until the map's `End`).
    fn parse_segment(&self, index: usize) -> Option<(Item, Vec<SyntaxError>)> {
        let text = self.text.as_str();
        let segment = self.segments.get(index)?;
        let lines = segment.lines(text);
        let mut next = index + 1;
        loop {
            let parsed = self.parse_segments(index, next)?;
            // The segment is final once it is finished, even while a later one stays open.
            let (items, errors) = match parsed {
                FrameParse::Closed(items, errors) => (items, errors),
                FrameParse::Open(items, errors, _) if !items.is_empty() => (items, errors),
                FrameParse::Open(..) if next < self.segments.len() => {
                    next += 1;
                    continue;
                }
                FrameParse::Open(..) | FrameParse::FrameEnded => return None,
            };
            let item = items.into_iter().next()?;
            if item.span() != segment.span() {
                return None;
            }
            let errors =
                errors.into_iter().filter(|e| on_lines(text, lines, e.span.start)).collect();
            return Some((item, errors));
        }
    }

    /// Parses the lines of segments `first..last` together, as lines inside the frame; an
    /// unframed file's last block runs to the end of the text, open or not. `None` for an
    /// empty or out-of-range run.
    fn parse_segments(&self, first: usize, last: usize) -> Option<FrameParse> {
        let text = self.text.as_str();
        let a = self.segments.get(first)?.lines(text).0;
        if self.frame.is_none() && last == self.segments.len() {
            let Parse { file, errors } = t3d::parse_range(text, a, text.len());
            return Some(FrameParse::Closed(file.items, errors));
        }
        let b = self.segments.get(last.checked_sub(1)?)?.lines(text).1;
        Some(t3d::parse_in_frame(text, self.frame.as_ref(), a, b))
    }

    /// Takes every segment's tree from a whole parse: the way out when a segment cannot be
    /// parsed on its own. Facts already computed for a segment at the same place stay.
    fn adopt_full_parse(&mut self) {
        let old = std::mem::take(&mut self.segments);
        self.layout(t3d::parse(&self.text), true);
        for (segment, old) in self.segments.iter_mut().zip(old) {
            if segment.span() == old.span() {
                segment.facts = old.facts;
            }
        }
    }

    /// The number of segments (children of the frame, or top-level items).
    pub fn segment_count(&self) -> usize {
        self.segments.len()
    }

    /// A copy for reading elsewhere (a request that parses the whole document, without
    /// holding up edits meanwhile): the text, the frame and each segment's first lines,
    /// errors, markers and outlines; no trees, no cached diagnostics. The text is shared, not
    /// copied.
    pub fn detached(&self) -> Self {
        let segments = self
            .segments
            .iter()
            .map(|s| Segment {
                errors: s.errors.clone(),
                markers: s.markers,
                outline: s.outline.clone(),
                ..Segment::outlined(s.shell())
            })
            .collect();
        Self {
            text: Arc::clone(&self.text),
            frame: self.frame.clone(),
            frame_errors: self.frame_errors.clone(),
            frame_markers: self.frame_markers,
            segments,
            cache_key: None,
            frame_cache: None,
            cross: cross::CrossFindings::default(),
            keep_outlines: self.keep_outlines,
            // A stopped document's copy is stopped too: its features read no tree.
            stopped: self.stopped.clone(),
        }
    }

    /// The span of each segment (its item's), in order.
    pub fn segment_spans(&self) -> impl Iterator<Item = Span> + '_ {
        self.segments.iter().map(Segment::span)
    }

    /// The whole tree, as [`t3d::parse`] gives it (parsed now: the document keeps none). A
    /// big map is parsed in parallel ([`Self::parse_in_parallel`]).
    pub fn full_parse(&self) -> Parse {
        const PARALLEL_FROM: usize = 1 << 20;
        let parallel =
            if self.text.len() >= PARALLEL_FROM { self.parse_in_parallel() } else { None };
        parallel.unwrap_or_else(|| t3d::parse(&self.text))
    }

    /// The whole tree of a document with a frame, its segments parsed in parallel in runs that
    /// end at a closed segment (where a whole parse has only the frame open) and put
    /// together: equal to [`t3d::parse`]. `None` without a frame, or when a run does not
    /// end closed (a map whose last block is left open).
    pub fn parse_in_parallel(&self) -> Option<Parse> {
        let text = self.text.as_str();
        let frame = self.frame.as_ref()?;
        // About four runs per thread, cut after closed segments only.
        let runs = rayon::current_num_threads().max(1) * 4;
        let target = text.len() / runs + 1;
        let mut cuts = Vec::with_capacity(runs + 1);
        let mut from = 0;
        let lines = segments_lines(text, &self.segments);
        for (i, segment) in self.segments.iter().enumerate() {
            let size = lines[i].1 - lines.get(from).map_or(0, |l| l.0);
            if size >= target && !segment.is_open() {
                cuts.push((from, i + 1));
                from = i + 1;
            }
        }
        if from < self.segments.len() {
            cuts.push((from, self.segments.len()));
        }
        let parts: Vec<FrameParse> = cuts
            .par_iter()
            .map(|&(first, last)| {
                let a = self.segments.get(first).map_or(0, |s| s.lines(text).0);
                let b = self.segments.get(last - 1).map_or(0, |s| s.lines(text).1);
                t3d::parse_in_frame(text, Some(frame), a, b)
            })
            .collect();
        let mut children = Vec::with_capacity(self.segments.len());
        let mut errors = self.frame_errors.clone();
        for part in parts {
            let FrameParse::Closed(items, part_errors) = part else { return None };
            children.extend(items);
            errors.extend(part_errors);
        }
        // In the order a whole parse reports them (it sorts by place, stably).
        errors.sort_by_key(|e| (e.span.start, e.span.end));
        let mut frame = frame.clone();
        frame.children = children;
        Some(Parse { file: T3dFile { items: vec![Item::Block(Box::new(frame))] }, errors })
    }

    /// The part of the tree that the lines of `span` touch: the frame (when there is one)
    /// with only the segments on those lines as children, each exactly as in a whole parse,
    /// and the errors of those lines and of the frame. What a feature at a cursor or over a
    /// selection reads; the whole tree when `span` reaches the frame's own lines (whose
    /// features read every child, such as the number of actors in the map).
    pub fn parse_around(&self, span: Span) -> Parse {
        let text = self.text.as_str();
        let lines =
            (line_start(text, span.start as usize), line_end_with_break(text, span.end as usize));
        if let Some(inner) = self.inner_lines() {
            if lines.0 < inner.0 || lines.1 > inner.1 {
                return self.full_parse();
            }
        }
        let (first, touched_last) = self.touched(lines);
        let mut last = touched_last;
        let mut items_parse = (first == last).then(|| (Vec::new(), Vec::new()));
        while items_parse.is_none() {
            let a = self.segments.get(first).map_or(lines.0, |s| s.lines(text).0);
            let b = self.segments.get(last - 1).map_or(lines.1, |s| s.lines(text).1);
            // An open block at the end of an unframed file runs to the end of it.
            let b =
                if self.frame.is_none() && last == self.segments.len() { text.len() } else { b };
            match t3d::parse_in_frame(text, self.frame.as_ref(), a, b) {
                FrameParse::Closed(items, errors) => items_parse = Some((items, errors)),
                // The touched segments are finished, a later one taken in stays open.
                FrameParse::Open(items, errors, _) if items.len() >= touched_last - first => {
                    let kept: Vec<Item> = items.into_iter().take(touched_last - first).collect();
                    let end =
                        kept.last().map_or(0, |i| line_end_with_break(text, i.span().end as usize));
                    let errors =
                        errors.into_iter().filter(|e| (e.span.start as usize) < end).collect();
                    items_parse = Some((kept, errors));
                }
                // A block left open (closed by the next `Begin Actor`) takes in what follows.
                FrameParse::Open(..) if last < self.segments.len() => last += 1,
                FrameParse::Open(..) if self.frame.is_none() => {
                    let Parse { file, errors } = t3d::parse_range(text, a, text.len());
                    items_parse = Some((file.items, errors));
                }
                FrameParse::Open(..) | FrameParse::FrameEnded => break,
            }
        }
        let Some((items, mut errors)) = items_parse else { return self.full_parse() };
        match &self.frame {
            Some(frame) => {
                errors.extend(self.frame_errors.iter().cloned());
                errors.sort_by_key(|e| (e.span.start, e.span.end));
                let mut frame = frame.clone();
                frame.children = items;
                Parse { file: T3dFile { items: vec![Item::Block(Box::new(frame))] }, errors }
            }
            None => Parse { file: T3dFile { items }, errors },
        }
    }

    /// Replaces `range` (byte offsets into the current text, clamped to char boundaries)
    /// with `new_text` and updates the segments.
    pub fn apply_edit(&mut self, range: Span, new_text: &str) -> Reparse {
        let len = self.text.len();
        let mut start = (range.start as usize).min(len);
        let mut end = (range.end as usize).min(len).max(start);
        while !self.text.is_char_boundary(start) {
            start -= 1;
        }
        while !self.text.is_char_boundary(end) {
            end += 1;
        }
        // What to re-parse is decided on the old text (a stopped document has nothing to
        // re-parse in part: it is outlined again).
        let plan = if self.is_stopped() { None } else { self.plan(start, end) };
        // In place unless a snapshot holds the text (then it is copied once, here).
        Arc::make_mut(&mut self.text).to_mut().replace_range(start..end, new_text);
        let delta = new_text.len() as i64 - (end - start) as i64;
        if let Some(n) = plan.and_then(|plan| self.reparse(plan, delta)) {
            Reparse::Segments(n)
        } else {
            self.relayout();
            Reparse::Full
        }
    }

    /// Reads the block structure of the whole text (its outline: no values, no deep trees)
    /// and splits it into frame and segments, forgetting every cached diagnostic. Each
    /// segment is parsed in full later, one at a time.
    fn relayout(&mut self) {
        match parallel::outline(&self.text) {
            Ok(outline) => self.layout(outline, false),
            Err(findings) => {
                self.layout(Parse::default(), false);
                self.stopped = Some(findings);
            }
        }
    }

    /// Whether the text's outline stopped on too many `Begin`/`End` mismatches: no feature
    /// reads its tree, and its diagnostics are those of the stop.
    pub fn is_stopped(&self) -> bool {
        self.stopped.is_some()
    }

    /// Splits a parse of the whole text into frame and segments: `complete` for a full
    /// parse, whose items and errors the segments keep; an outline gives only the items'
    /// first lines and the errors on the frame's lines.
    fn layout(&mut self, parse: Parse, complete: bool) {
        let Parse { file, errors } = parse;
        let mut items = file.items;
        let framed = matches!(items.as_slice(), [Item::Block(block)] if is_frame(block));
        self.frame = None;
        self.stopped = None;
        if framed {
            if let Some(Item::Block(mut block)) = items.pop() {
                items = std::mem::take(&mut block.children);
                self.frame = Some(*block);
            }
        }
        self.frame_markers = self.frame.as_ref().map_or_else(Markers::default, |frame| {
            generation::markers(&self.text, &[Item::Block(Box::new(frame.clone()))])
        });
        let segments = items
            .into_iter()
            .map(|item| {
                if complete {
                    Segment::parsed(&self.text, item, self.keep_outlines)
                } else {
                    Segment::outlined(item)
                }
            })
            .collect();
        let (mut segments, frame_errors) = split_errors(&self.text, segments, errors);
        if !complete {
            // An outline's errors inside a segment are only some of them: the segment's own
            // come with its full parse.
            for segment in &mut segments {
                segment.errors.clear();
            }
        }
        self.segments = segments;
        self.frame_errors = frame_errors;
        self.frame_cache = None;
        self.cross.forget();
    }

    /// The lines strictly inside the frame: after its `Begin` line, before its `End` line.
    fn inner_lines(&self) -> Option<(usize, usize)> {
        let frame = self.frame.as_ref()?;
        let end = frame.end?;
        Some((
            line_end_with_break(&self.text, frame.begin_span.end as usize),
            line_start(&self.text, end.span.start as usize),
        ))
    }

    /// The segments `first..last` whose lines meet `lines` (a range of whole lines).
    fn touched(&self, lines: (usize, usize)) -> (usize, usize) {
        let first = self.segments.partition_point(|s| (s.span().end as usize) < lines.0);
        let last = self.segments.partition_point(|s| (s.span().start as usize) < lines.1);
        (first, last.max(first))
    }

    /// The segments an edit of `start..end` (old text) touches and the lines to parse
    /// again; `None` when only a whole parse gives the right tree.
    fn plan(&self, start: usize, end: usize) -> Option<Plan> {
        let text = self.text.as_str();
        let lines = (line_start(text, start), line_end_with_break(text, end));
        if self.frame.is_some() {
            let inner = self.inner_lines()?;
            if lines.0 < inner.0 || lines.1 > inner.1 {
                return None;
            }
        }
        let (mut first, last) = self.touched(lines);
        // A block that ended open took in lines until the next segment's first line closed
        // it (`Begin Actor`), or to the end: an edit up to that line may give it more, or
        // take its end away.
        while first > 0 && self.segments.get(first - 1).is_some_and(Segment::is_open) {
            let closer_end = self
                .segments
                .get(first)
                .map_or(usize::MAX, |s| line_end_with_break(text, s.span().start as usize));
            if lines.0 >= closer_end {
                break;
            }
            first -= 1;
        }
        let mut a = lines.0;
        let mut b = lines.1;
        if last > first {
            a = a.min(self.segments.get(first)?.lines(text).0);
            b = b.max(self.segments.get(last - 1)?.lines(text).1);
        }
        Some(Plan { first, last, a, b, edit_end: end })
    }

    /// The incremental path, on the new text: parses the planned lines (and more segments
    /// while a block stays open) and splices the result in. `None` when only a whole parse
    /// gives the right tree.
    fn reparse(&mut self, plan: Plan, delta: i64) -> Option<usize> {
        let Plan { first, mut last, a, b, edit_end } = plan;
        let moved = |old: usize| usize::try_from(old as i64 + delta).ok();
        let mut b = moved(b)?;
        let (items, errors) = loop {
            let parsed = match &self.frame {
                Some(frame) => t3d::parse_in_frame(&self.text, Some(frame), a, b),
                None if b >= self.text.len() => {
                    // An unframed file parsed to its end: the range parse is the tail of a
                    // whole parse, open blocks included.
                    let Parse { file, errors } = t3d::parse_range(&self.text, a, self.text.len());
                    FrameParse::Closed(file.items, errors)
                }
                None => t3d::parse_in_frame(&self.text, None, a, b),
            };
            // Where an open block at the end of the lines would be the last planned segment as
            // it stood before (unchanged, after the edit, open there too): from there on the
            // parser is in the state it was in before, so that segment and the rest stay.
            let unchanged_open_tail = |open_from: u32| {
                let Some(index) = last.checked_sub(1).filter(|&i| i >= first) else {
                    return false;
                };
                self.segments.get(index).is_some_and(|segment| {
                    let start = segment.span().start as usize;
                    segment.is_open()
                        && start >= edit_end
                        && moved(start) == Some(open_from as usize)
                })
            };
            match parsed {
                FrameParse::Closed(items, errors) => break (items, errors),
                FrameParse::Open(items, errors, Some(open_from))
                    if unchanged_open_tail(open_from) =>
                {
                    last -= 1;
                    b = line_start(&self.text, open_from as usize);
                    let errors = errors.into_iter().filter(|e| e.span.start < open_from).collect();
                    break (items, errors);
                }
                FrameParse::Open(..) if last < self.segments.len() => {
                    // Segments from `last` on lie after the edit: their old spans move by
                    // `delta`.
                    last = (last + (last - first).max(1)).min(self.segments.len());
                    let old_end = self.segments.get(last - 1)?.span().end as usize;
                    debug_assert!(old_end >= edit_end);
                    b = line_end_with_break(&self.text, moved(old_end)?);
                }
                FrameParse::Open(..) if self.frame.is_none() => b = self.text.len(),
                // The frame closed early, or a block runs into the frame's `End`.
                FrameParse::FrameEnded | FrameParse::Open(..) => return None,
            }
        };

        let new_segments: Vec<Segment> = items
            .into_iter()
            .map(|item| Segment::parsed(&self.text, item, self.keep_outlines))
            .collect();
        let (new_segments, stray) = split_errors(&self.text, new_segments, errors);
        if !stray.is_empty() {
            return None;
        }
        let count = new_segments.len();
        let b_old = usize::try_from(b as i64 - delta).ok()? as u32;
        for old in self.segments.splice(first..last, new_segments) {
            self.cross.retire(old.facts.map(|facts| facts.summaries));
        }
        self.cross.edited(a as u32, b_old, delta);
        // Later segments move; what their errors point at before the edit (the frame's
        // `Begin` line) stays.
        for segment in self.segments.iter_mut().skip(first + count) {
            segment.lag += delta;
            for error in &mut segment.errors {
                error.shift_from(b_old, delta);
            }
        }
        for error in &mut self.frame_errors {
            error.shift_from(b_old, delta);
        }
        if let Some(diagnostics) = &mut self.frame_cache {
            for d in diagnostics {
                shift_diagnostic(d, b_old, delta);
            }
        }
        if let Some(frame) = &mut self.frame {
            frame.span.end = Span::empty_at(frame.span.end).shifted_from(b_old, delta).start;
            if let Some(end_line) = &mut frame.end {
                end_line.span = end_line.span.shifted_from(b_old, delta);
                end_line.kind_span = end_line.kind_span.shifted_from(b_old, delta);
            }
        } else if let [only] = self.segments.as_slice() {
            // The file became one closed `Begin Map`: from now on it has a frame.
            let framed = matches!(&only.item, Item::Block(block) if is_frame(block));
            if framed {
                return None;
            }
        }
        Some(count)
    }
}

/// Whether `block`, the only top-level item, is a document's frame: a closed map or level.
fn is_frame(block: &Block) -> bool {
    matches!(block.kind, BlockKind::Map | BlockKind::Level) && block.end.is_some()
}

/// An item without its children (a block's `Begin`/`End` lines and attributes).
fn shell(item: &Item) -> Item {
    match item {
        Item::Block(block) => Item::Block(Box::new(Block {
            kind: block.kind,
            kind_span: block.kind_span,
            begin_span: block.begin_span,
            attributes: block.attributes.clone(),
            children: Vec::new(),
            end: block.end,
            span: block.span,
        })),
        other => other.clone(),
    }
}

/// Where an edit re-parses: segments `first..last`, replaced by the parse of the old text's
/// lines `a..b` after the edit (which ended at `edit_end` in the old text).
#[derive(Clone, Copy, Debug)]
struct Plan {
    first: usize,
    last: usize,
    a: usize,
    b: usize,
    edit_end: usize,
}

/// Gives each segment the errors on its lines; returns the errors on no segment's lines.
fn split_errors(
    text: &str,
    mut segments: Vec<Segment>,
    errors: Vec<SyntaxError>,
) -> (Vec<Segment>, Vec<SyntaxError>) {
    let lines = segments_lines(text, &segments);
    let mut rest = Vec::new();
    for error in errors {
        let at = error.span.start;
        let i = lines.partition_point(|&(_, end)| end <= at as usize && end < text.len());
        match segments.get_mut(i) {
            Some(segment) if lines.get(i).is_some_and(|&l| on_lines(text, l, at)) => {
                segment.errors.push(error);
            }
            _ => rest.push(error),
        }
    }
    (segments, rest)
}

/// [`Segment::lines`] of every segment, in one pass over the text: each search for a line
/// break starts where the previous segment's stopped. Asked of each segment on its own, a
/// text whose lines are very long costs a search over most of the text per segment: the
/// zeros a truncated file's mapping reads past its new end made a lint of a 200 MB map run
/// for minutes.
fn segments_lines(text: &str, segments: &[Segment]) -> Vec<(usize, usize)> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(segments.len());
    // The previous segment's start and line start (a later segment's line starts there
    // unless a line break lies between the two starts), and the start of the first line
    // after a break at or after the previous segment's end (`None`: no break to the end).
    let (mut previous_start, mut floor) = (0usize, 0usize);
    let mut searched_from = 0usize;
    let mut next_line: Option<Option<usize>> = None;
    for segment in segments {
        let span = segment.span();
        let (start, end) = (span.start as usize, span.end as usize);
        let start = start.min(bytes.len()).max(previous_start);
        let line_start = last_line_start_in(bytes, previous_start, start).unwrap_or(floor);
        (previous_start, floor) = (start, line_start);
        let end = end.min(bytes.len());
        // The break found before still ends this segment's line if it lies after its end:
        // a line starting past `end + 1` (a CRLF's LF at `end` at the latest).
        let known =
            next_line.filter(|found| end >= searched_from && found.is_none_or(|at| at > end));
        let found = known.unwrap_or_else(|| {
            let found = line_starts_in(bytes, end, bytes.len()).next();
            searched_from = end;
            next_line = Some(found);
            found
        });
        out.push((line_start, found.unwrap_or(bytes.len())));
    }
    out
}

/// Whether `at` stands on the lines `start..end` (from a line start to after a line break).
/// A position at the very end of a text without a final line break (a missing number after
/// `Y=` there) still stands on the last line.
fn on_lines(text: &str, (start, end): (usize, usize), at: u32) -> bool {
    let at = at as usize;
    start <= at && (at < end || (at == end && end == text.len()))
}
