//! Many segments at once: a document just opened (or linted whole by `unreal-ls lint`), or
//! every cached finding dropped by a new setting. The segments are cut into runs of about
//! [`RUN_BYTES`] that end after a closed segment, the runs are parsed on every core (each as
//! lines inside the frame, as an edit parses them), and each run's trees are checked and
//! dropped as soon as they are parsed: the map is never held whole as a tree, so a 200 MB map
//! costs its text, the segments' first lines and the findings, plus one run's tree per core.
//!
//! A map checked once (`unreal-ls lint`, [`T3dDocument::check_once`]) skips the outline:
//! it is cut into pieces at `Begin Actor` lines, each piece parsed in full and its segments
//! checked on some core, and the pieces joined (where they do not join, the outline and runs
//! above are the way out). Reading a map once instead of twice: 19% fewer instructions for a
//! lint of DM-Deck17.

use std::sync::Arc;

use rayon::prelude::*;
use unreal_syntax::t3d::{self, Block, FrameParse, Item, OutlinePiece, Parse, SyntaxError};
use unreal_syntax::text::{line_end_with_break, line_start};
use unreal_syntax::Span;

use super::diagnostics::{segment_facts, SegmentFacts};
use super::outline::SegmentOutline;
use super::{is_frame, on_lines, split_errors, Segment, T3dDocument};
use crate::options::LintOptions;
use crate::rules;
use crate::t3d::generation::{self, Markers};
use crate::t3d::in_pieces::{mismatches, read_outline_bounded, read_pieces_bounded};
use crate::{Diagnostic, Generation, LineIndex, SourceText};

/// What [`T3dDocument::check_once`] gives back.
#[derive(Debug)]
pub struct CheckedOnce {
    pub text: SourceText,
    pub diagnostics: Vec<Diagnostic>,
    /// The text's line index, when the check built it on the way (a map read in pieces).
    pub line_index: Option<LineIndex>,
}

/// Below this many bytes of segments to parse, the segments are parsed one by one: threads
/// cost more than they save, and an edit re-parses a few segments only.
const PARALLEL_FROM: usize = 256 * 1024;

/// About this many bytes a run: big enough that a run's set-up is noise, small enough that
/// one run's tree stays in the cache and its freed memory serves the next run (with 512 KB
/// runs a lint of DM-Deck17 touched 700 more fresh pages, 3,350 page faults against 2,650,
/// and took 5 to 9% more CPU).
const RUN_BYTES: usize = 64 * 1024;

/// Below this many bytes a map checked once is read in pieces ([`T3dDocument::check_once`]);
/// a bigger one is outlined and read in runs that are checked and applied a few at a time.
/// Read in pieces, every segment's findings wait for the join next to the segments: 10 MB
/// more peak for the 108,656 segments of a 200 MB map (1.58x the file instead of 1.44x),
/// against 1 MB on a 50 MB map.
const PIECES_UP_TO: usize = 64 << 20;

/// The outline of `text` ([`t3d::outline`]): for a big document, in pieces cut at
/// `Begin Actor` lines, read on every core and joined (the same result wherever the cuts
/// fall; see [`t3d::OutlinePlan`]); `Err` with the findings that say where reading stopped
/// when its `Begin`/`End` mismatches pass the limit ([`outline_bounded`]).
pub(super) fn outline(text: &str) -> Result<t3d::Parse, Vec<Diagnostic>> {
    if text.len() < PARALLEL_FROM {
        return Ok(t3d::outline(text));
    }
    outline_bounded(text)
}

/// How [`T3dDocument::lay_out_checked`] ended.
enum LaidOut {
    /// The document is laid out from its pieces, every segment's facts computed.
    Joined,
    /// Laid out from an outline whose mismatches were counted (a map of
    /// [`PIECES_UP_TO`] or more): its segments are read in runs when the diagnostics are
    /// asked for (or, past the limit, the document holds the findings of the stop).
    Outlined,
    /// Nothing changed: the document is laid out the usual way.
    NotJoined,
    /// Reading stopped on too many `Begin`/`End` mismatches: these are the findings.
    Stopped(Vec<Diagnostic>),
}

/// [`outline`] of a map of [`PARALLEL_FROM`] or more (a one-time check of a map too big to
/// read in pieces, [`PIECES_UP_TO`], or an editor's document): pieces of about
/// [`OUTLINE_PIECE_BYTES`] ([`read_outline_bounded`]), read until more than
/// [`MAX_MISMATCHES`](crate::t3d::in_pieces::MAX_MISMATCHES) `Begin`/`End` mismatches are
/// counted ([`read_pieces_bounded`]); then `Err` with the findings that say so, as
/// [`T3dDocument::lay_out_checked`] gives them for a smaller map. An outline's errors are
/// those of the `Begin`/`End` lines, so the mismatches are all there.
fn outline_bounded(text: &str) -> Result<t3d::Parse, Vec<Diagnostic>> {
    let (plan, read, stopped) = read_outline_bounded(text, OUTLINE_PIECE_BYTES);
    if stopped {
        let errors = read.iter().flat_map(OutlinePiece::errors);
        if let Some(findings) = rules::t3d_unbalanced_block::stopped(text, errors) {
            return Err(findings);
        }
    }
    Ok(plan.join(text, read))
}

/// About this many bytes a piece of [`outline_bounded`]: what a piece holds before the
/// mismatches are counted stays a few megabytes whatever the map.
const OUTLINE_PIECE_BYTES: usize = 4 << 20;

/// What a one-time check computed for one segment of a piece, while its tree was at hand.
struct Checked {
    errors: Vec<SyntaxError>,
    markers: Markers,
    facts: SegmentFacts,
}

/// What a run gives back for one of its segments.
struct Filled {
    index: usize,
    /// The item without its children.
    shell: Item,
    errors: Vec<SyntaxError>,
    markers: Markers,
    facts: SegmentFacts,
    outline: Option<Arc<SegmentOutline>>,
}

impl T3dDocument {
    /// Parses, in parallel runs, every segment whose markers or facts are missing, and
    /// computes its markers, errors and facts (with `generation`). Segments a run cannot
    /// parse on its own (a block still open where the run ends) are left for the one-by-one
    /// path. Does nothing when there is little to parse.
    pub(super) fn fill_in_parallel(
        &mut self,
        generation: Option<Generation>,
        options: &LintOptions,
    ) {
        let runs = self.runs();
        // A few runs per thread at a time, applied before the next ones start: what waits to
        // be applied stays a few megabytes however big the map.
        let batch = rayon::current_num_threads().max(1) * 4;
        for runs in runs.chunks(batch) {
            if self.text.is_damaged() {
                return;
            }
            let filled: Vec<Vec<Filled>> = runs
                .par_iter()
                .map(|&(first, last)| self.fill_run(first, last, generation, options))
                .collect();
            for filled in filled.into_iter().flatten() {
                let Some(segment) = self.segments.get_mut(filled.index) else { continue };
                segment.item = filled.shell;
                segment.complete = !matches!(segment.item, Item::Block(_));
                segment.errors = filled.errors;
                segment.markers = Some(filled.markers);
                segment.facts = Some(filled.facts);
                segment.outline = filled.outline;
            }
        }
    }

    /// Runs `first..last` of consecutive segments that need a parse, each ending after a
    /// closed segment (where a whole parse has only the frame open) or where the segments
    /// needing one end; empty when there is too little to parse.
    fn runs(&self) -> Vec<(usize, usize)> {
        let text = self.text.as_str();
        let needs = |i: usize| {
            self.segments.get(i).is_some_and(|s| s.markers.is_none() || s.facts.is_none())
        };
        let mut total = 0;
        let mut runs = Vec::new();
        let mut start: Option<(usize, usize)> = None;
        for (i, segment) in self.segments.iter().enumerate() {
            if !needs(i) {
                if let Some((first, _)) = start.take() {
                    runs.push((first, i));
                }
                continue;
            }
            let (a, b) = segment.lines(text);
            total += b - a;
            let (first, from) = *start.get_or_insert((i, a));
            if b - from >= RUN_BYTES && !segment.is_open() {
                runs.push((first, i + 1));
                start = None;
            }
        }
        if let Some((first, _)) = start {
            runs.push((first, self.segments.len()));
        }
        if total < PARALLEL_FROM {
            runs.clear();
        }
        runs
    }

    /// Parses segments `first..last` together and checks each; empty when the lines do not
    /// parse into exactly those segments.
    fn fill_run(
        &self,
        first: usize,
        last: usize,
        generation: Option<Generation>,
        options: &LintOptions,
    ) -> Vec<Filled> {
        let text = self.text.as_str();
        let Some(FrameParse::Closed(items, errors)) = self.parse_segments(first, last) else {
            return Vec::new();
        };
        let Some(segments) = self.segments.get(first..last) else { return Vec::new() };
        let matches = items.len() == segments.len()
            && items.iter().zip(segments).all(|(item, segment)| item.span() == segment.span());
        if !matches {
            return Vec::new();
        }
        // Each error goes to the segment on whose lines it stands (errors are sorted).
        let mut errors = errors.into_iter().peekable();
        let mut filled = Vec::with_capacity(items.len());
        for ((offset, item), segment) in items.into_iter().enumerate().zip(segments) {
            let lines = segment.lines(text);
            // Errors on no segment's lines are the frame's, which the document has.
            let own = errors_on(text, lines, &mut errors, &mut Vec::new());
            let markers = generation::markers(text, std::slice::from_ref(&item));
            let outline = self.keep_outlines.then(|| SegmentOutline::of(text, &item));
            let (mut item, own, facts) =
                segment_facts(text, self.frame.as_ref(), item, own, generation, options);
            if let Item::Block(block) = &mut item {
                block.children = Vec::new();
            }
            let index = first + offset;
            filled.push(Filled { index, shell: item, errors: own, markers, facts, outline });
        }
        filled
    }
}

impl T3dDocument {
    /// Checks `text` once and gives it back with its diagnostics: [`Self::for_checking`]
    /// then [`Self::diagnostics`], in one read of a big map instead of two. A map is
    /// normally outlined first (its block structure, to find the segments) and then parsed
    /// run by run; here the map is cut into pieces at `Begin Actor` lines
    /// ([`t3d::OutlinePlan`]), each piece parsed in full on some core from the state a
    /// well-formed map has there, each of its segments checked at once and its tree dropped,
    /// and the pieces joined with the plan's check of every assumed state. Where a check
    /// fails (a broken or hostile map) the document is laid out the usual way: the same
    /// diagnostics either way. What `unreal-ls lint` calls.
    pub fn check_once(text: impl Into<SourceText>, options: &LintOptions) -> CheckedOnce {
        let mut document = Self::unlaid(text, false);
        let (laid_out, line_index) = document.lay_out_checked(options);
        // A file truncated under its mapping reads zeros from there on: what is left to do
        // on them is wasted, and may be slow (one line of megabytes), so it stops here; the
        // caller's check of the text reports the change.
        let damaged = |document: &Self| document.text.is_damaged();
        if damaged(&document) {
            return CheckedOnce { text: document.into_text(), diagnostics: Vec::new(), line_index };
        }
        let diagnostics = match laid_out {
            LaidOut::Stopped(diagnostics) => diagnostics,
            LaidOut::Joined | LaidOut::Outlined | LaidOut::NotJoined => {
                if matches!(laid_out, LaidOut::NotJoined) {
                    document.relayout();
                }
                if damaged(&document) {
                    Vec::new()
                } else {
                    document.take_diagnostics(options)
                }
            }
        };
        // Freeing the segments (a few allocations each) is left to another core: the caller
        // goes on to render the findings meanwhile.
        let segments = std::mem::take(&mut document.segments);
        rayon::spawn(move || drop(segments));
        CheckedOnce { text: document.into_text(), diagnostics, line_index }
    }

    /// Lays the document out from a parse of its pieces with every segment's facts
    /// computed (for the generation the text suggests, as [`Self::diagnostics`] guesses
    /// first); [`LaidOut::NotJoined`], with nothing changed, for a small text or where the
    /// pieces do not join; [`LaidOut::Outlined`] from an outline for a text of
    /// [`PIECES_UP_TO`] or more ([`T3dDocument::relayout`]). The text's line index comes
    /// along whenever the pieces were read (whether or not they joined): each piece's lines
    /// are indexed by the core that parsed them, while they are still in its cache, instead
    /// of in a pass over the whole text afterwards.
    ///
    /// Once the pieces read, in order, hold more than
    /// [`MAX_MISMATCHES`](crate::t3d::in_pieces::MAX_MISMATCHES) `Begin`/`End` mismatches,
    /// the pieces after are not read ([`LaidOut::Stopped`]): a
    /// file made of them costs about 1 KB for each (its segment, error and summaries), and
    /// what they say is in the first hundred.
    fn lay_out_checked(&mut self, options: &LintOptions) -> (LaidOut, Option<LineIndex>) {
        let shared = Arc::clone(&self.text);
        let text = shared.as_str();
        if text.len() >= PIECES_UP_TO {
            // Too big to wait for the join: outlined, then read in runs that are checked and
            // applied a few at a time (`fill_in_parallel`).
            self.relayout();
            return (LaidOut::Outlined, None);
        }
        if text.len() < PARALLEL_FROM {
            return (LaidOut::NotJoined, None);
        }
        let guess = options.engine.fixed().or_else(|| generation::scan(text).generation());
        let plan = t3d::OutlinePlan::new(text, text.len() / RUN_BYTES + 1);
        let Some(frame) = plan.frame() else { return (LaidOut::NotJoined, None) };
        let (read, stopped) = read_pieces_bounded(
            plan.len(),
            |index| {
                let (mut piece, line_starts) = plan.parse_piece_indexed(text, index);
                let checked = check_piece(text, frame, &mut piece, guess, options);
                (piece, checked, LineIndex::piece_from_parsed_lines(line_starts))
            },
            |(piece, checked, _)| {
                mismatches(checked.iter().flat_map(|c| &c.errors).chain(piece.errors()))
            },
        );
        if stopped {
            let errors = read.iter().flat_map(|(piece, checked, _)| {
                checked.iter().flat_map(|c| &c.errors).chain(piece.errors())
            });
            if let Some(diagnostics) = rules::t3d_unbalanced_block::stopped(text, errors) {
                return (LaidOut::Stopped(diagnostics), None);
            }
        }
        let mut pieces = Vec::with_capacity(read.len());
        let mut checked = Vec::with_capacity(read.len());
        let mut starts = Vec::with_capacity(read.len());
        for (piece, piece_checked, piece_starts) in read {
            pieces.push(piece);
            checked.push(piece_checked);
            starts.push(piece_starts);
        }
        // The index is put together on another core while this one joins the pieces.
        let (joined, line_index) = rayon::join(
            || self.join_checked(text, &plan, pieces, checked, guess, options),
            || LineIndex::from_pieces(starts),
        );
        let laid_out = if joined { LaidOut::Joined } else { LaidOut::NotJoined };
        (laid_out, Some(line_index))
    }

    /// The rest of [`Self::lay_out_checked`]: joins the pieces and lays the document out from
    /// them and what their checks computed; `false`, with nothing changed, where they do not
    /// join.
    fn join_checked(
        &mut self,
        text: &str,
        plan: &t3d::OutlinePlan,
        pieces: Vec<OutlinePiece<'_>>,
        checked: Vec<Vec<Checked>>,
        guess: Option<Generation>,
        options: &LintOptions,
    ) -> bool {
        let Some(Parse { file, errors }) = plan.join_parsed(text, pieces) else { return false };
        let mut items = file.items;
        // Framed exactly as `layout` requires: one closed map or level holding everything.
        let Some(Item::Block(mut frame)) = items.pop() else { return false };
        let framed = items.is_empty() && is_frame(&frame);
        if !framed || frame.children.len() != checked.iter().map(Vec::len).sum::<usize>() {
            return false;
        }
        let shells = std::mem::take(&mut frame.children);
        let segments = shells.into_iter().map(Segment::outlined).collect();
        // The errors of the whole parse, filed by line. Each piece kept the errors on its
        // segments' lines (they were checked with them) and gave back the rest, so the
        // join's errors are the frame's and none stands on a segment's lines (none does,
        // when the pieces joined as one pass reads the text).
        let (mut segments, frame_errors) = split_errors(text, segments, errors);
        // Each piece's findings are moved in and freed piece by piece: a 200 MB map has
        // 108,656 segments, and a flat copy of their findings cost 10 MB more peak.
        for (segment, checked) in segments.iter_mut().zip(checked.into_iter().flatten()) {
            if !segment.errors.is_empty() {
                return false;
            }
            segment.errors = checked.errors;
            segment.markers = Some(checked.markers);
            segment.facts = Some(checked.facts);
        }
        self.use_cache_key(options, guess);
        self.frame_markers = generation::markers(text, &[Item::Block(Box::new((*frame).clone()))]);
        self.frame = Some(*frame);
        self.segments = segments;
        self.frame_errors = frame_errors;
        self.frame_cache = None;
        true
    }
}

/// The errors standing on `lines`, taken from the sorted `errors`; those before the lines
/// (on no segment's lines) go to `elsewhere`, those after stay for the next segment.
fn errors_on(
    text: &str,
    lines: (usize, usize),
    errors: &mut std::iter::Peekable<std::vec::IntoIter<SyntaxError>>,
    elsewhere: &mut Vec<SyntaxError>,
) -> Vec<SyntaxError> {
    let mut own = Vec::new();
    let here =
        |e: &SyntaxError| (e.span.start as usize) < lines.1 || on_lines(text, lines, e.span.start);
    while let Some(error) = errors.next_if(here) {
        if on_lines(text, lines, error.span.start) {
            own.push(error);
        } else {
            elsewhere.push(error);
        }
    }
    // Kept for as long as the segment: exactly as long as its errors (a growing vector
    // holds room for four, and 400,000 actors without `End Actor` have one error each).
    own.shrink_to_fit();
    own
}

/// Checks every segment a piece finished inside the frame (as [`T3dDocument::fill_run`]
/// does a run's) and leaves each one's item in the piece without its children; empty when
/// the piece holds no frame (the join then fails too).
fn check_piece(
    text: &str,
    frame: &Block,
    piece: &mut OutlinePiece<'_>,
    generation: Option<Generation>,
    options: &LintOptions,
) -> Vec<Checked> {
    let errors = piece.take_sorted_errors();
    // Each error goes to the segment on whose lines it stands (errors are sorted); the rest
    // go back to the piece for the join.
    let mut errors = errors.into_iter().peekable();
    let mut elsewhere = Vec::new();
    let mut checked = Vec::new();
    if let Some(children) = piece.frame_children() {
        checked.reserve_exact(children.len());
        for child in children.iter_mut() {
            let item = std::mem::replace(child, Item::Unknown(Span::default()));
            let span = item.span();
            let lines = (
                line_start(text, span.start as usize),
                line_end_with_break(text, span.end as usize),
            );
            let own = errors_on(text, lines, &mut errors, &mut elsewhere);
            let markers = generation::markers(text, std::slice::from_ref(&item));
            let (mut item, own, facts) =
                segment_facts(text, Some(frame), item, own, generation, options);
            if let Item::Block(block) = &mut item {
                block.children = Vec::new();
            }
            *child = item;
            checked.push(Checked { errors: own, markers, facts });
        }
    }
    elsewhere.extend(errors);
    piece.give_back_errors(elsewhere);
    checked
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The lines of every segment found in one pass are those each segment finds on its
    /// own, on a generated map, on one with lines cut short and long, and on one whose tail
    /// is zeros (what a truncated file's mapping reads).
    #[test]
    fn the_segments_lines_in_one_pass_are_each_segments_own() {
        let text = unreal_mapgen::generate_map(300_000, 3);
        let one_line = text.replace("\r\n", "  ").replacen("  ", "\n", 40);
        let cut = text.len() / 2;
        let zeros = format!("{}{}", &text[..cut], "\0".repeat(text.len() - cut));
        for text in [text, one_line, zeros] {
            let document = T3dDocument::for_checking(text.clone());
            let each: Vec<_> = document.segments.iter().map(|s| s.lines(&text)).collect();
            assert_eq!(super::super::segments_lines(&text, &document.segments), each);
        }
    }

    /// The pieces of a well-formed map join (the one-time check does not fall back to an
    /// outline), and the document they make is the one the usual way makes: the same frame,
    /// segments, errors, markers and findings; a map broken where the pieces are cut does
    /// not join.
    #[test]
    fn a_well_formed_map_is_laid_out_from_its_pieces() {
        let mut text = unreal_mapgen::generate_map(1_500_000, 7);
        // An actor named twice, far apart (in different pieces): the cross-segment finding
        // comes from the pieces' summaries.
        let first = text.find("Begin Actor").unwrap_or(0);
        let line_end = first + text[first..].find('\n').unwrap_or(0);
        let again = format!("{}\nEnd Actor\r\n", &text[first..line_end]);
        let end = text.rfind("End Map").unwrap_or(text.len());
        text.insert_str(end, &again);
        let options = LintOptions::default();
        let mut pieces = T3dDocument::unlaid(text.clone(), false);
        let (joined, line_index) = pieces.lay_out_checked(&options);
        assert!(matches!(joined, LaidOut::Joined), "the pieces of a generated map join");
        assert_eq!(line_index, Some(LineIndex::new(&text)), "the index built in pieces");
        assert!(pieces.segments.len() > 100);
        let mut usual = T3dDocument::for_checking(text.clone());
        assert_eq!(pieces.frame, usual.frame);
        assert_eq!(pieces.frame_errors, usual.frame_errors);
        assert_eq!(pieces.segments.len(), usual.segments.len());
        for (a, b) in pieces.segments.iter().zip(&usual.segments) {
            assert_eq!(a.item, b.item);
        }
        let found = pieces.diagnostics(&options);
        assert!(found.iter().any(|d| d.code == "t3d-duplicate-actor-name"), "{found:#?}");
        assert_eq!(found, usual.diagnostics(&options));
        for (a, b) in pieces.segments.iter().zip(&usual.segments) {
            assert_eq!((&a.errors, a.markers), (&b.errors, b.markers));
        }

        // An `End Actor` lost in the middle: the actor is closed by the next `Begin Actor`,
        // with an error the piece holding it must give the segment.
        let middle = text.len() / 2;
        let at = middle + text[middle..].find("End Actor").unwrap_or(0);
        let broken = format!("{}{}", &text[..at], &text[at + "End Actor".len()..]);
        let once = T3dDocument::check_once(broken.clone(), &options);
        assert_eq!(once.line_index, Some(LineIndex::new(&broken)));
        let expected = T3dDocument::for_checking(broken).diagnostics(&options);
        assert!(expected.iter().any(|d| d.code == "t3d-unbalanced-block"));
        assert_eq!(once.diagnostics, expected);

        // An `End Map` in the middle: the pieces after it assume a map that is closed.
        let at = middle + text[middle..].find("Begin Actor").unwrap_or(0);
        let halved = format!("{}End Map\r\n{}", &text[..at], &text[at..]);
        let mut pieces = T3dDocument::unlaid(halved.clone(), false);
        let (joined, line_index) = pieces.lay_out_checked(&options);
        assert!(matches!(joined, LaidOut::NotJoined));
        // The pieces were read: their index is the text's, joined or not.
        assert_eq!(line_index, Some(LineIndex::new(&halved)));
        let once = T3dDocument::check_once(halved.clone(), &options);
        assert_eq!(once.diagnostics, T3dDocument::for_checking(halved).diagnostics(&options));
    }

    /// A map whose actors all lost their `End Actor` (each closed by the next `Begin Actor`)
    /// is still read in pieces: each piece closes the actor left open at its end as the next
    /// piece's first line does, so the pieces join, and the findings are the usual ones,
    /// the first hundred mismatches and a count of the rest.
    #[test]
    fn actors_without_end_are_read_in_pieces() {
        use std::fmt::Write;
        let mut text = String::from("Begin Map\r\n");
        for i in 0..8_000 {
            let _ = write!(text, "Begin Actor Class=Light Name=Light{i}\r\n   bHidden=True\r\n");
        }
        text.push_str("End Map\r\n");
        let options = LintOptions::default();
        let mut pieces = T3dDocument::unlaid(text.clone(), false);
        let (joined, _) = pieces.lay_out_checked(&options);
        assert!(matches!(joined, LaidOut::Joined), "the pieces join");
        assert_eq!(pieces.segments.len(), 8_000);
        let found = pieces.diagnostics(&options);
        let expected = T3dDocument::for_checking(text.clone()).diagnostics(&options);
        assert_eq!(found, expected);
        let unbalanced: Vec<&Diagnostic> =
            found.iter().filter(|d| d.code == "t3d-unbalanced-block").collect();
        assert_eq!(unbalanced.len(), 101);
        let last = unbalanced.last().map(|d| d.message.as_str()).unwrap_or_default();
        assert!(last.starts_with("7900 more `Begin`/`End` mismatches"), "{last}");
        assert_eq!(T3dDocument::check_once(text, &options).diagnostics, expected);
    }

    /// A map made of actors that lost their `End Actor` is read only until more than
    /// `MAX_MISMATCHES` mismatches are found: the first hundred are listed, then one finding
    /// on the line where reading stopped, and nothing else was run. The same with the `End`
    /// lines all at the end (400,000 nested actors closed at last).
    #[test]
    fn a_map_of_mismatches_stops_the_reading() {
        use std::fmt::Write;
        let options = LintOptions::default();
        let mut unclosed = String::from("Begin Map\r\n");
        for i in 0..100_000 {
            let _ = write!(unclosed, "Begin Actor Class=Light Name=Light{i}\r\n");
        }
        let mut nested = unclosed.clone();
        nested.push_str(&"End Actor\r\n".repeat(100_000));
        for text in [unclosed, nested] {
            let found = T3dDocument::check_once(text.clone(), &options).diagnostics;
            assert_eq!(found.len(), 101);
            assert!(found.iter().all(|d| d.code == "t3d-unbalanced-block"));
            let last = found.last().map(|d| d.message.as_str()).unwrap_or_default();
            assert!(
                last.starts_with("reading stopped on this line: more than 10000 `Begin`/`End` lines do not pair up ("),
                "{last}"
            );
            let stop = found.last().map_or(0, |d| d.span.start as usize);
            // The line of the 10,001st mismatch (the first is on line 2), whatever the pieces.
            let line = crate::t3d::in_pieces::line_of(&text, stop);
            assert_eq!(line, 10_002);
            assert!(last.contains("(9900 more before this line are not listed)"), "{last}");
            assert!(text[stop..].starts_with("Begin Actor"));
            // Where reading stops is the text's, not the machine's: one core stops there too.
            let one_core = rayon::ThreadPoolBuilder::new().num_threads(1).build();
            let alone = one_core.map(|pool| {
                pool.install(|| T3dDocument::check_once(text.clone(), &options).diagnostics)
            });
            if let Ok(alone) = alone {
                assert_eq!(alone, found);
            }
        }
    }

    /// A map too big to be read in pieces is outlined in pieces that stop the same way: the
    /// outline of a valid map is the plain one, and one made of actors never closed gives the
    /// first hundred mismatches and the stop.
    #[test]
    fn a_big_map_is_outlined_until_too_many_mismatches() {
        let text = unreal_mapgen::generate_map(1_000_000, 5);
        let Ok(outline) = outline_bounded(&text) else { panic!("a generated map was stopped") };
        assert_eq!(outline, t3d::outline(&text));
        let mut unclosed = String::from("Begin Map\n");
        for i in 0..200_000 {
            unclosed.push_str("Begin Actor Class=Light Name=L");
            unclosed.push_str(&i.to_string());
            unclosed.push('\n');
        }
        let Err(found) = outline_bounded(&unclosed) else { panic!("read to its end") };
        assert_eq!(found.len(), 101);
        let last = found.last().map(|d| d.message.as_str()).unwrap_or_default();
        assert!(last.starts_with("reading stopped on this line: more than 10000"), "{last}");
    }
}
