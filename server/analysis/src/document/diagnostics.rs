//! The diagnostics of an incremental document, cached per segment.
//!
//! Rules that look at one segment at a time run again only for re-parsed segments, right
//! after their parse (the tree is dropped afterwards); their cached results are stored
//! against the segment's start when they were computed and moved on output. The rules that
//! compare segments (`rules::summary::Summarized`) report from per-segment summaries, and the
//! rules about top-level lines read only the segments' first lines and the errors.

use unreal_syntax::t3d::{Block, Item, Parse, SyntaxError, T3dFile};
use unreal_syntax::Span;

use super::{line_start, Segment, T3dDocument};
use crate::options::LintOptions;
use crate::rules::summary::Summary;
use crate::rules::{self, Scope, T3dContext};
use crate::t3d::generation;
use crate::{Diagnostic, EngineSetting, Generation};

fn is_local(rule: &rules::T3dRule) -> bool {
    rule.meta.scope == Scope::Local
}

fn is_whole_tree(rule: &rules::T3dRule) -> bool {
    rule.meta.scope == Scope::WholeTree
}

pub(super) type CacheKey =
    (EngineSetting, Option<unreal_engine::Game>, Option<Generation>, Option<usize>);

/// An empty parse, for building a context whose parts are then set by hand.
static EMPTY: Parse = Parse { file: T3dFile { items: Vec::new() }, errors: Vec::new() };

/// What one segment contributes to the diagnostics, computed once per parse of it. Spans are
/// those of the text when it was computed, when the segment's item started at `start` and
/// its first line at `from`; on output every position at or after `from` moves as far as the
/// item has moved since (positions before it, such as the map's `Begin` line, stay).
#[derive(Clone, Debug)]
pub(super) struct SegmentFacts {
    start: u32,
    from: u32,
    /// The one-segment rules' diagnostics.
    diagnostics: Vec<Diagnostic>,
    /// One summary per summarized rule, in [`rules::summarized_rules`] order.
    pub(super) summaries: Vec<Summary>,
}

impl T3dDocument {
    /// Every T3D diagnostic of the document, equal to [`rules::check_t3d_parsed`] on a fresh
    /// parse, reusing the cached facts of segments that no edit touched.
    pub fn diagnostics(&mut self, options: &LintOptions) -> Vec<Diagnostic> {
        self.findings(options, false)
    }

    /// [`Self::diagnostics`] of a document about to be dropped
    /// ([`Self::check_once`]): the cached findings are moved out rather than copied (a
    /// copy of DM-Deck17's 1,708 findings cost a third of a millisecond on one core) and
    /// nothing is kept for a next call.
    pub(super) fn take_diagnostics(&mut self, options: &LintOptions) -> Vec<Diagnostic> {
        self.findings(options, true)
    }

    fn findings(&mut self, options: &LintOptions, take: bool) -> Vec<Diagnostic> {
        if let Some(stopped) = &mut self.stopped {
            return if take { std::mem::take(stopped) } else { stopped.clone() };
        }
        // Segments never parsed in full (a document just opened) are parsed once and checked
        // at once with the generation the text suggests, many at a time in parallel; if
        // their markers then show another generation, their facts are computed again below.
        if self.segments.iter().any(|s| s.markers.is_none()) {
            let guess =
                options.engine.fixed().or_else(|| generation::scan(&self.text).generation());
            self.use_cache_key(options, guess);
            self.settle_unfilled();
            self.fill_in_parallel(guess, options);
        }
        self.read_markers();
        let generation = self.generation(options.engine);
        self.use_cache_key(options, generation);
        // The segments checked in this pass: their summaries are compared with those of the
        // segments they replaced, to keep the cross-segment findings.
        let fresh: Vec<usize> = (0..self.segments.len())
            .filter(|&i| self.segments.get(i).is_some_and(|s| s.facts.is_none()))
            .collect();
        self.settle_unfilled();
        self.fill_in_parallel(generation, options);
        // A mapped file found truncated meanwhile: the rest would check zeros, one by one
        // (see `check_once`); its reader reports the change instead of findings.
        if self.text.is_damaged() {
            return Vec::new();
        }
        for index in 0..self.segments.len() {
            if self.segments.get(index).is_some_and(|s| s.facts.is_none()) {
                self.segment_facts(index, generation, options);
            }
        }
        if self.frame_cache.is_none() {
            let parse = Parse { file: T3dFile::default(), errors: self.frame_errors.clone() };
            let context = T3dContext::with_generation(&self.text, &parse, options, generation);
            let mut out = Vec::new();
            for rule in rules::T3D_RULES.iter().filter(|r| is_local(r)) {
                (rule.check)(&context, &mut out);
            }
            self.frame_cache = Some(out);
        }

        // Each segment's findings, moved as far as the segment moved since they were computed;
        // taken out of the segment when the document is about to be dropped.
        let mut out = Vec::new();
        for segment in &mut self.segments {
            let start = segment.span().start;
            let Some(facts) = segment.facts.as_mut() else { continue };
            let delta = i64::from(start) - i64::from(facts.start);
            let from = facts.from;
            let found = if take {
                std::mem::take(&mut facts.diagnostics)
            } else {
                facts.diagnostics.clone()
            };
            out.extend(found.into_iter().map(|mut d| {
                if delta != 0 {
                    shift_diagnostic(&mut d, from, delta);
                }
                d
            }));
        }
        let frame = if take { self.frame_cache.take() } else { self.frame_cache.clone() };
        out.extend(frame.into_iter().flatten());
        // Each segment's facts with how far the segment moved since they were computed.
        let parts = || {
            self.segments.iter().filter_map(|segment| {
                let facts = segment.facts.as_ref()?;
                Some((facts, i64::from(segment.span().start) - i64::from(facts.start)))
            })
        };
        let mut kept = Vec::new();
        for (i, rule) in rules::summarized_rules().enumerate() {
            let fresh: Vec<&Summary> = fresh
                .iter()
                .filter_map(|&f| self.segments.get(f)?.facts.as_ref()?.summaries.get(i))
                .collect();
            if let Some(findings) = self.cross.reusable(i, rule, &fresh) {
                out.extend(findings.iter().cloned());
                kept.push(findings.to_vec());
                continue;
            }
            let summaries: Vec<(&Summary, i64)> = parts()
                .filter_map(|(facts, delta)| Some((facts.summaries.get(i)?, delta)))
                .collect();
            let mut findings = Vec::new();
            rule.report(&summaries, &mut findings);
            if take {
                out.append(&mut findings);
            } else {
                out.extend(findings.iter().cloned());
                kept.push(findings);
            }
        }
        if !take {
            self.cross.keep(kept);
        }

        // Stray lines, a file without blocks and the `Begin`/`End` mismatches: the
        // top-level items (without children) and the errors are all they read (any block
        // at all means a top-level one).
        let (top, counts) = self.take_top_level();
        {
            let mut top_level = T3dContext::new(&self.text, &EMPTY, options);
            top_level.parse = &top;
            top_level.generation = generation;
            top_level.blocks =
                top.file.items.iter().filter_map(Item::as_block).map(|b| (b, None)).collect();
            for rule in rules::T3D_RULES.iter().filter(|r| r.meta.scope == Scope::TopLevel) {
                (rule.check)(&top_level, &mut out);
            }
        }
        self.give_back_errors(top.errors, &counts);
        // Rules without a summary (added later) see a whole parse: correct, but a parse of
        // the document on every call until they get a place above.
        let mut whole_tree = rules::T3D_RULES.iter().filter(|r| is_whole_tree(r)).peekable();
        if whole_tree.peek().is_some() {
            let parse = self.full_parse();
            let context = T3dContext::with_generation(&self.text, &parse, options, generation);
            for rule in whole_tree {
                (rule.check)(&context, &mut out);
            }
        }
        out.sort_by(|a, b| {
            (a.span.start, a.span.end, a.code).cmp(&(b.span.start, b.span.end, b.code))
        });
        rules::one_finding_per_defect(&mut out);
        out
    }

    /// Settles the segments that [`Self::fill_in_parallel`] may fill (those without markers
    /// or facts): it replaces their items with new parses, whose spans have no lag.
    fn settle_unfilled(&mut self) {
        for segment in &mut self.segments {
            if segment.markers.is_none() || segment.facts.is_none() {
                segment.settle();
            }
        }
    }

    /// Forgets every cached finding computed for another setting, game, generation or
    /// package index than these.
    pub(super) fn use_cache_key(&mut self, options: &LintOptions, generation: Option<Generation>) {
        let index = options.packages.as_ref().map(|p| std::sync::Arc::as_ptr(p) as usize);
        let key = Some((options.engine, options.game, generation, index));
        if self.cache_key != key {
            for segment in &mut self.segments {
                segment.facts = None;
            }
            self.frame_cache = None;
            self.cross.forget();
            self.cache_key = key;
        }
    }

    /// The top-level items without children (the frame, or every segment) and every error,
    /// the frame's then each segment's, with how many each had: the errors are moved out
    /// (400,000 actors without `End Actor` are 400,000 errors, too many to copy), and must
    /// be given back with [`Self::give_back_errors`].
    fn take_top_level(&mut self) -> (Parse, Vec<usize>) {
        let items = match &self.frame {
            Some(frame) => vec![Item::Block(Box::new(frame.clone()))],
            None => self.segments.iter().map(Segment::shell).collect(),
        };
        let counts: Vec<usize> = std::iter::once(self.frame_errors.len())
            .chain(self.segments.iter().map(|s| s.errors.len()))
            .collect();
        let mut errors = Vec::with_capacity(counts.iter().sum());
        errors.append(&mut self.frame_errors);
        for segment in &mut self.segments {
            errors.append(&mut segment.errors);
        }
        (Parse { file: T3dFile { items }, errors }, counts)
    }

    /// Puts back the errors [`Self::take_top_level`] took, `counts` of them to the frame and
    /// each segment in turn (the segments have not changed meanwhile).
    fn give_back_errors(&mut self, errors: Vec<SyntaxError>, counts: &[usize]) {
        let mut errors = errors.into_iter();
        let mut counts = counts.iter().copied();
        self.frame_errors = errors.by_ref().take(counts.next().unwrap_or(0)).collect();
        for segment in &mut self.segments {
            segment.errors = errors.by_ref().take(counts.next().unwrap_or(0)).collect();
        }
    }

    /// Computes the facts of segment `index` (one-segment rules and summaries over it, with
    /// the frame as the parent of its top block, exactly as in the whole tree), then drops
    /// its children.
    fn segment_facts(
        &mut self,
        index: usize,
        generation: Option<Generation>,
        options: &LintOptions,
    ) {
        if self.segments.get(index).is_some_and(|s| !s.complete) {
            match self.parse_segment(index) {
                Some((item, errors)) => {
                    if let Some(segment) = self.segments.get_mut(index) {
                        segment.item = item;
                        segment.lag = 0;
                        segment.errors = errors;
                        segment.complete = true;
                    }
                }
                None => self.adopt_full_parse(),
            }
        }
        let Some(segment) = self.segments.get_mut(index) else { return };
        if !segment.complete {
            return;
        }
        segment.settle();
        if self.keep_outlines && segment.outline.is_none() {
            segment.outline = Some(super::outline::SegmentOutline::of(&self.text, &segment.item));
        }
        // Move the item and its errors out for the duration (no copy), then put them back,
        // the item without children.
        let item = std::mem::replace(&mut segment.item, Item::Unknown(Span::default()));
        let errors = std::mem::take(&mut segment.errors);
        let (item, errors, facts) =
            segment_facts(&self.text, self.frame.as_ref(), item, errors, generation, options);
        segment.item = item;
        segment.errors = errors;
        segment.strip();
        segment.facts = Some(facts);
    }
}

/// The facts of one segment's whole `item` (its syntax errors are `errors`): the
/// one-segment rules' findings and the summaries the cross-segment rules read, with `frame`
/// as the parent of its top block, exactly as in the whole tree. Gives the item and the
/// errors back.
pub(super) fn segment_facts(
    text: &str,
    frame: Option<&Block>,
    item: Item,
    errors: Vec<SyntaxError>,
    generation: Option<Generation>,
    options: &LintOptions,
) -> (Item, Vec<SyntaxError>, SegmentFacts) {
    let start = item.span().start;
    let from = line_start(text, start as usize) as u32;
    let parse = Parse { file: T3dFile { items: vec![item] }, errors };
    let mut diagnostics = Vec::new();
    let summaries = {
        let mut context = T3dContext::with_generation(text, &parse, options, generation);
        if let Some(parent) = frame {
            for entry in &mut context.blocks {
                if entry.1.is_none() {
                    entry.1 = Some(parent);
                }
            }
            for polygon in &mut context.polygons {
                if polygon.parent.is_none() {
                    polygon.parent = Some(parent);
                }
            }
        }
        for rule in rules::T3D_RULES.iter().filter(|r| is_local(r)) {
            (rule.check)(&context, &mut diagnostics);
        }
        rules::soften_on_builder_brush(&context, &mut diagnostics);
        // Exactly one slot a summarized rule: collected from the filtered rule list, the
        // vector grew to 16 slots for 10 (96 bytes more for every segment it keeps).
        let mut summaries = Vec::with_capacity(rules::summarized_rule_count());
        summaries.extend(rules::summarized_rules().map(|rule| rule.summarize(&context, from)));
        summaries
    };
    let Parse { file, errors } = parse;
    let item = file.items.into_iter().next().unwrap_or(Item::Unknown(Span::default()));
    (item, errors, SegmentFacts { start, from, diagnostics, summaries })
}

pub(super) fn shift_diagnostic(d: &mut Diagnostic, from: u32, delta: i64) {
    d.span = d.span.shifted_from(from, delta);
    for label in &mut d.labels {
        label.span = label.span.shifted_from(from, delta);
    }
    if let Some(fix) = &mut d.fix {
        for edit in &mut fix.edits {
            edit.span = edit.span.shifted_from(from, delta);
        }
    }
}
