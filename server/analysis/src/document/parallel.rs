//! Many segments at once: a document just opened (or linted whole by `unreal-ls lint`), or
//! every cached finding dropped by a new setting. The segments are cut into runs of about
//! [`RUN_BYTES`] that end after a closed segment, the runs are parsed on every core (each as
//! lines inside the frame, as an edit parses them), and each run's trees are checked and
//! dropped as soon as they are parsed: the map is never held whole as a tree, so a 200 MB map
//! costs its text, the segments' first lines and the findings, plus one run's tree per core.

use std::sync::Arc;

use rayon::prelude::*;
use unreal_syntax::t3d::{self, FrameParse, Item, SyntaxError};

use super::diagnostics::{segment_facts, SegmentFacts};
use super::outline::SegmentOutline;
use super::{on_lines, T3dDocument};
use crate::options::LintOptions;
use crate::t3d::generation::{self, Markers};
use crate::EngineGeneration;

/// Below this many bytes of segments to parse, the segments are parsed one by one: threads
/// cost more than they save, and an edit re-parses a few segments only.
const PARALLEL_FROM: usize = 256 * 1024;

/// About this many bytes a run: big enough that a run's set-up is noise, small enough that
/// one run's tree stays in the cache and its freed memory serves the next run (with 512 KB
/// runs a lint of DM-Deck17 touched 700 more fresh pages, 3,350 page faults against 2,650,
/// and took 5 to 9% more CPU).
const RUN_BYTES: usize = 64 * 1024;

/// The outline of `text` ([`t3d::outline`]): for a big document, in pieces cut at
/// `Begin Actor` lines, read on every core and joined (the same result wherever the cuts
/// fall; see [`t3d::OutlinePlan`]).
pub(super) fn outline(text: &str) -> t3d::Parse {
    if text.len() < PARALLEL_FROM {
        return t3d::outline(text);
    }
    // Two pieces a core: one slow piece leaves the others something to take.
    let plan = t3d::OutlinePlan::new(text, rayon::current_num_threads().max(1) * 2);
    let pieces = (0..plan.len()).into_par_iter().map(|i| plan.piece(text, i)).collect();
    plan.join(text, pieces)
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
        generation: Option<EngineGeneration>,
        options: &LintOptions,
    ) {
        let runs = self.runs();
        // A few runs per thread at a time, applied before the next ones start: what waits to
        // be applied stays a few megabytes however big the map.
        let batch = rayon::current_num_threads().max(1) * 4;
        for runs in runs.chunks(batch) {
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
        generation: Option<EngineGeneration>,
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
            let mut own = Vec::new();
            let here = |e: &SyntaxError| {
                (e.span.start as usize) < lines.1 || on_lines(text, lines, e.span.start)
            };
            while let Some(error) = errors.next_if(here) {
                if on_lines(text, lines, error.span.start) {
                    own.push(error);
                }
            }
            let markers = generation::markers(text, std::slice::from_ref(&item));
            let outline = self.keep_outlines.then(|| SegmentOutline::of(text, &item));
            let (mut item, facts) =
                segment_facts(text, self.frame.as_ref(), item, &own, generation, options);
            if let Item::Block(block) = &mut item {
                block.children = Vec::new();
            }
            let index = first + offset;
            filled.push(Filled { index, shell: item, errors: own, markers, facts, outline });
        }
        filled
    }
}
