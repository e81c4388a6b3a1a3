//! An open T3D document that re-parses incrementally.
//!
//! A map is one giant `Begin Map` block, so the unit of re-parsing is each child of the top
//! `Begin Map`/`Begin Level` (or each top-level item of a file without one): a *segment*.
//! An edit re-parses the lines of the segments it touches, on their own, and splices the
//! result into the tree, shifting the spans after it. The whole document is parsed again
//! only when that could give a different tree than a full parse: when the edit touches the
//! map's own `Begin`/`End` line, or when the re-parsed lines leave a block open, close one
//! they did not open, or nest near the depth limit.
//!
//! The text is edited in place (one `memmove` of what follows the edit, no second copy), and
//! an edit costs the re-parse of the segments it touches plus moving the spans of the tree
//! after it; nothing else of the document is visited.
//!
//! Diagnostics are cached per segment, with what the segment contributes to the rules that
//! compare segments: rules that look at one segment at a time run again only for re-parsed
//! segments; the cached results of the others are stored against the segment's start when
//! they were computed and moved on output (an edit does not touch them); the rules that
//! compare segments (duplicate actor names, unresolved brush models) report from per-segment
//! summaries (names defined and referenced), and the rules about top-level lines (stray
//! lines, a file without blocks) read only the top-level items. So a one-segment edit never
//! walks the other segments' trees.

use unreal_syntax::t3d::{
    self, Block, BlockKind, Field, Item, Parse, SyntaxError, SyntaxErrorKind, T3dFile, Value,
};
use unreal_syntax::Span;

use crate::ide::Source;
use crate::lint::LintOptions;
use crate::rules::t3d_duplicate_actor_name::{self as duplicate_names, Names};
use crate::rules::t3d_unresolved_brush_model::{self as brush_models, Models};
use crate::rules::{self, T3dContext};
use crate::t3d::generation::{self, Markers};
use crate::{Diagnostic, EngineGeneration, EngineSetting};

/// How an edit was applied.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reparse {
    /// Only these many segments (top-level blocks and lines) were parsed again.
    Segments(usize),
    /// The whole document was parsed again.
    Full,
}

/// Rules that look at one polygon or one syntax error at a time, and so can run on one
/// segment. The rules that compare segments report from per-segment summaries
/// ([`SUMMARIZED_RULES`]), the rules about top-level lines read the top-level items
/// ([`TOP_LEVEL_RULES`]); any other rule (one added later) runs over the whole tree, with
/// the block list but without polygon facts, which is correct but visits every block on
/// every call: a new rule belongs in one of these lists.
const LOCAL_RULES: [&str; 18] = [
    "t3d-unbalanced-block",
    "t3d-nesting-too-deep",
    "t3d-malformed-number",
    "t3d-unknown-polygon-line",
    "t3d-polygon-outside-polylist",
    "t3d-too-few-vertices",
    "t3d-too-many-vertices",
    "t3d-degenerate-polygon",
    "t3d-non-convex-polygon",
    "t3d-non-planar-polygon",
    "t3d-normal-mismatch",
    "t3d-origin-off-plane",
    "t3d-bad-texture-axes",
    "t3d-unknown-poly-flag",
    "t3d-editor-poly-flag",
    // Each reference is looked up in the package index on its own.
    "t3d-unknown-texture",
    "t3d-unknown-class",
    "t3d-unknown-object",
];

type CacheKey = (EngineSetting, Option<EngineGeneration>, Option<usize>);

/// An empty parse, for building a context whose parts are then set by hand.
static EMPTY: Parse = Parse { file: T3dFile { items: Vec::new() }, errors: Vec::new() };

/// Rules that compare segments, fed from [`SegmentFacts`].
const SUMMARIZED_RULES: [&str; 2] = ["t3d-duplicate-actor-name", "t3d-unresolved-brush-model"];

/// Rules that read only the top-level items and whether any block exists.
const TOP_LEVEL_RULES: [&str; 2] = ["t3d-not-t3d", "t3d-stray-line"];

fn is_local(rule: &rules::T3dRule) -> bool {
    LOCAL_RULES.contains(&rule.meta.code)
}

fn is_whole_tree(rule: &rules::T3dRule) -> bool {
    let code = &rule.meta.code;
    !LOCAL_RULES.contains(code)
        && !SUMMARIZED_RULES.contains(code)
        && !TOP_LEVEL_RULES.contains(code)
}

/// What one segment contributes to the diagnostics, computed once per parse of it. Spans are
/// those of the text when it was computed, when the segment's item started at `start` and
/// its first line at `from`; on output every position at or after `from` moves as far as the
/// item has moved since (positions before it, such as the map's `Begin` line, stay).
#[derive(Clone, Debug)]
struct SegmentFacts {
    start: u32,
    from: u32,
    /// The one-segment rules' diagnostics.
    diagnostics: Vec<Diagnostic>,
    names: Names,
    models: Models,
}

#[derive(Clone, Debug)]
pub struct T3dDocument {
    text: String,
    parse: Parse,
    /// Generation markers of the whole document, kept up to date by edits.
    markers: Markers,
    /// Per segment: its facts, once computed.
    cache: Vec<Option<SegmentFacts>>,
    /// Whether `cache` was laid out for a document with a frame (`Begin Map`).
    cache_framed: bool,
    /// What the cached diagnostics were computed for: the setting, the generation and the
    /// package index (by identity: a new index is a new key).
    cache_key: Option<CacheKey>,
    /// Diagnostics of the lines outside every segment (the frame's own lines).
    frame_cache: Option<Vec<Diagnostic>>,
}

impl T3dDocument {
    pub fn new(text: impl Into<String>) -> Self {
        let text = text.into();
        let parse = t3d::parse(&text);
        let markers = generation::markers(&text, &parse.file);
        let mut doc = Self {
            text,
            parse,
            markers,
            cache: Vec::new(),
            cache_framed: false,
            cache_key: None,
            frame_cache: None,
        };
        doc.reset_cache();
        doc
    }

    pub fn text(&self) -> &str {
        &self.text
    }

    pub fn parse(&self) -> &Parse {
        &self.parse
    }

    /// The generation the setting fixes, or the one the document's markers show.
    pub fn generation(&self, setting: EngineSetting) -> Option<EngineGeneration> {
        setting.fixed().or_else(|| self.markers.generation())
    }

    /// The document as the editor features read it (no walk: the generation is cached).
    pub fn source(&self, setting: EngineSetting) -> Source<'_> {
        Source::new(&self.text, &self.parse, self.generation(setting))
    }

    /// The number of segments (children of the frame, or top-level items).
    pub fn segment_count(&self) -> usize {
        segments(&self.parse.file).1.len()
    }

    /// Replaces `range` (byte offsets into the current text, clamped to char boundaries)
    /// with `new_text` and updates the tree.
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
        // What to re-parse is decided on the old text, and the segments it replaces leave
        // the tree (with their generation markers) before the text changes.
        let plan = self.plan(start, end).and_then(|plan| self.take_segments(plan));
        self.text.replace_range(start..end, new_text);
        let delta = new_text.len() as i64 - (end - start) as i64;
        if let Some(n) = plan.and_then(|(plan, old_markers)| self.splice(plan, delta, old_markers))
        {
            Reparse::Segments(n)
        } else {
            self.parse = t3d::parse(&self.text);
            self.markers = generation::markers(&self.text, &self.parse.file);
            self.reset_cache();
            Reparse::Full
        }
    }

    fn reset_cache(&mut self) {
        let (framed, items) = segments(&self.parse.file);
        self.cache = vec![None; items.len()];
        self.cache_framed = framed.is_some();
        self.frame_cache = None;
    }

    /// The segments an edit of `start..end` (old text) touches and the lines to parse again;
    /// `None` when only a full parse gives the right tree.
    fn plan(&self, start: usize, end: usize) -> Option<Plan> {
        let text = &self.text;
        let (frame, items) = segments(&self.parse.file);
        if frame.is_some() != self.cache_framed || items.len() != self.cache.len() {
            return None;
        }
        let bounds = match frame {
            Some(i) => {
                let block = self.parse.file.items.get(i)?.as_block()?;
                let end_line = block.end?.span;
                (
                    line_end_with_break(text, block.begin_span.end as usize),
                    line_start(text, end_line.start as usize),
                )
            }
            None => (0, text.len()),
        };
        let lines = (line_start(text, start), line_end_with_break(text, end));
        if lines.0 < bounds.0 || lines.1 > bounds.1 {
            return None;
        }
        // A segment left open swallows every later line in a fresh parse (and its error
        // points at the end of the file), so an edit at or after its start is parsed whole.
        let open_before_edit = items.iter().any(|item| {
            matches!(item, Item::Block(block) if block.end.is_none() && block.span.start as usize <= lines.1)
        });
        if open_before_edit {
            return None;
        }
        let first = items.partition_point(|it| (it.span().end as usize) < lines.0);
        let last = items.partition_point(|it| (it.span().start as usize) < lines.1).max(first);
        let mut a = lines.0;
        let mut b = lines.1;
        if last > first {
            a = a.min(line_start(text, items.get(first)?.span().start as usize));
            b = b.max(line_end_with_break(text, items.get(last - 1)?.span().end as usize));
        }
        Some(Plan { frame, first, last, a, b })
    }

    /// Takes the planned segments out of the tree (on the old text), with their markers.
    fn take_segments(&mut self, plan: Plan) -> Option<(Plan, Markers)> {
        let list = segment_list(&mut self.parse.file, plan.frame)?;
        let removed: Vec<Item> = list.drain(plan.first..plan.last).collect();
        Some((plan, generation::markers(&self.text, &T3dFile { items: removed })))
    }

    /// The incremental path, on the new text; `None` when only a full parse gives the
    /// right tree (the tree is then incomplete and must be parsed again).
    fn splice(&mut self, plan: Plan, delta: i64, old_markers: Markers) -> Option<usize> {
        let Plan { frame, first, last, a, b } = plan;
        let new_b = usize::try_from(b as i64 + delta).ok()?;
        let range_parse = t3d::parse_range(&self.text, a, new_b);
        let frame_kind = frame
            .and_then(|i| self.parse.file.items.get(i))
            .and_then(Item::as_block)
            .map(|block| block.kind_span.text(&self.text));
        if !acceptable(&range_parse, &self.text, frame_kind) {
            return None;
        }

        // Splice the items, their markers and caches.
        let a32 = a as u32;
        let b32 = b as u32;
        let Parse { file: T3dFile { items: new_items }, errors: new_errors } = range_parse;
        let new_count = new_items.len();
        let holder = T3dFile { items: new_items };
        let new_markers = generation::markers(&self.text, &holder);
        let list = segment_list(&mut self.parse.file, frame)?;
        let _ = list.splice(first..first, holder.items);
        for item in list.iter_mut().skip(first + new_count) {
            shift_item(item, delta);
        }
        self.markers = sub_markers(add_markers(self.markers, new_markers), old_markers);
        if let Some(i) = frame {
            if let Some(Item::Block(block)) = self.parse.file.items.get_mut(i) {
                block.span.end = shift_pos(block.span.end, b32, delta);
                if let Some(end_line) = &mut block.end {
                    end_line.span = end_line.span.shifted(delta);
                    end_line.kind_span = end_line.kind_span.shifted(delta);
                }
            }
            // Items after the frame (none when framed) would shift too.
            for item in self.parse.file.items.iter_mut().skip(i + 1) {
                shift_item(item, delta);
            }
        }
        let errors = std::mem::take(&mut self.parse.errors);
        let mut merged: Vec<SyntaxError> = Vec::with_capacity(errors.len() + new_errors.len());
        let mut after = Vec::new();
        for mut error in errors {
            if error.span.start < a32 {
                shift_error(&mut error, b32, delta);
                merged.push(error);
            } else if error.span.start >= b32 {
                shift_error(&mut error, b32, delta);
                after.push(error);
            }
        }
        merged.extend(new_errors);
        merged.extend(after);
        self.parse.errors = merged;

        // The facts of the other segments stay as they are: they move on output.
        let _ = self.cache.splice(first..last, std::iter::repeat_n(None, new_count));
        if let Some(diagnostics) = &mut self.frame_cache {
            for d in diagnostics {
                shift_diagnostic(d, b32, delta);
            }
        }
        Some(new_count)
    }

    /// Every T3D diagnostic of the document, equal to [`rules::check_t3d_parsed`] on a fresh
    /// parse, reusing the cached facts of segments that no edit touched.
    pub fn diagnostics(&mut self, options: &LintOptions) -> Vec<Diagnostic> {
        let generation = self.generation(options.engine);
        let index = options.packages.as_ref().map(|p| std::sync::Arc::as_ptr(p) as usize);
        let key = Some((options.engine, generation, index));
        if self.cache_key != key {
            self.reset_cache();
            self.cache_key = key;
        }
        let (frame, count) = {
            let (frame, items) = segments(&self.parse.file);
            (frame, items.len())
        };
        if count != self.cache.len() || frame.is_some() != self.cache_framed {
            self.reset_cache();
        }
        for index in 0..count {
            if self.cache.get(index).is_some_and(Option::is_none) {
                let facts = self.segment_facts(frame, index, generation, options);
                if let Some(slot) = self.cache.get_mut(index) {
                    *slot = facts;
                }
            }
        }
        if self.frame_cache.is_none() {
            self.frame_cache = Some(self.frame_diagnostics(generation, options));
        }

        let items = segments(&self.parse.file).1;
        // Each segment's facts with how far the segment moved since they were computed.
        let parts = || {
            items.iter().zip(&self.cache).filter_map(|(item, facts)| {
                let facts = facts.as_ref()?;
                Some((facts, i64::from(item.span().start) - i64::from(facts.start)))
            })
        };
        let mut out = Vec::new();
        for (facts, delta) in parts() {
            out.extend(facts.diagnostics.iter().map(|d| {
                let mut d = d.clone();
                if delta != 0 {
                    shift_diagnostic(&mut d, facts.from, delta);
                }
                d
            }));
        }
        out.extend(self.frame_cache.iter().flatten().cloned());
        duplicate_names::report(parts().map(|(facts, delta)| (&facts.names, delta)), &mut out);
        brush_models::report(parts().map(|(facts, delta)| (&facts.models, delta)), &mut out);

        // Stray lines and a file without blocks: the top-level items are all they read
        // (any block at all means a top-level one).
        let mut top_level = T3dContext::new(&self.text, &EMPTY, options);
        top_level.parse = &self.parse;
        top_level.generation = generation;
        top_level.blocks =
            self.parse.file.items.iter().filter_map(Item::as_block).map(|b| (b, None)).collect();
        for rule in rules::T3D_RULES.iter().filter(|r| TOP_LEVEL_RULES.contains(&r.meta.code)) {
            (rule.check)(&top_level, &mut out);
        }
        // Rules without a summary (added later) see the whole tree, polygons included:
        // correct, but a walk of every block on every call until they get a place above.
        let mut whole_tree = rules::T3D_RULES.iter().filter(|r| is_whole_tree(r)).peekable();
        if whole_tree.peek().is_some() {
            let mut context = T3dContext::new(&self.text, &self.parse, options);
            context.generation = generation;
            for rule in whole_tree {
                (rule.check)(&context, &mut out);
            }
        }
        out.sort_by(|a, b| {
            (a.span.start, a.span.end, a.code).cmp(&(b.span.start, b.span.end, b.code))
        });
        out
    }

    /// The facts of segment `index`: one-segment rules and summaries over it, with the
    /// segment's parent (the frame) as the parent of its top block, exactly as in the whole
    /// tree.
    fn segment_facts(
        &mut self,
        frame: Option<usize>,
        index: usize,
        generation: Option<EngineGeneration>,
        options: &LintOptions,
    ) -> Option<SegmentFacts> {
        // Move the segment out of the tree for the duration (no copy), then put it back.
        let placeholder = Item::Unknown(Span::default());
        let item = std::mem::replace(
            segment_list(&mut self.parse.file, frame)?.get_mut(index)?,
            placeholder,
        );
        let start = item.span().start;
        let lines = (
            line_start(&self.text, start as usize) as u32,
            line_end_with_break(&self.text, item.span().end as usize) as u32,
        );
        let errors: Vec<SyntaxError> = self
            .parse
            .errors
            .iter()
            .filter(|e| e.span.start >= lines.0 && e.span.start < lines.1.max(lines.0 + 1))
            .cloned()
            .collect();
        let segment = Parse { file: T3dFile { items: vec![item] }, errors };
        let parent: Option<&Block> =
            frame.and_then(|i| self.parse.file.items.get(i)).and_then(Item::as_block);
        let mut diagnostics = Vec::new();
        let (names, models) = {
            let mut context = T3dContext::new(&self.text, &segment, options);
            context.generation = generation;
            if let Some(parent) = parent {
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
            (Names::collect(&context, lines.0), Models::collect(&context))
        };
        let Parse { file: T3dFile { items }, .. } = segment;
        if let Some(item) = items.into_iter().next() {
            if let Some(slot) =
                segment_list(&mut self.parse.file, frame).and_then(|list| list.get_mut(index))
            {
                *slot = item;
            }
        }
        Some(SegmentFacts { start, from: lines.0, diagnostics, names, models })
    }

    /// One-segment rules over what lies outside every segment: syntax errors on the frame's
    /// own lines (and, in a framed document, on anything after it).
    fn frame_diagnostics(
        &self,
        generation: Option<EngineGeneration>,
        options: &LintOptions,
    ) -> Vec<Diagnostic> {
        let (frame, items) = segments(&self.parse.file);
        let inside = |offset: u32| {
            let i = items.partition_point(|it| {
                line_end_with_break(&self.text, it.span().end as usize) as u32 <= offset
            });
            items
                .get(i)
                .is_some_and(|it| line_start(&self.text, it.span().start as usize) as u32 <= offset)
        };
        let errors: Vec<SyntaxError> =
            self.parse.errors.iter().filter(|e| !inside(e.span.start)).cloned().collect();
        // Top-level items other than the frame are not segments in a framed document.
        let outside: Vec<Item> = match frame {
            Some(i) => self
                .parse
                .file
                .items
                .iter()
                .enumerate()
                .filter(|(j, _)| *j != i)
                .map(|(_, item)| item.clone())
                .collect(),
            None => Vec::new(),
        };
        let parse = Parse { file: T3dFile { items: outside }, errors };
        let mut context = T3dContext::new(&self.text, &parse, options);
        context.generation = generation;
        let mut out = Vec::new();
        for rule in rules::T3D_RULES.iter().filter(|r| is_local(r)) {
            (rule.check)(&context, &mut out);
        }
        out
    }
}

/// Where an edit re-parses: segments `first..last` of the frame's children (or of the
/// top-level items), replaced by the parse of the old text's lines `a..b` after the edit.
#[derive(Clone, Copy, Debug)]
struct Plan {
    frame: Option<usize>,
    first: usize,
    last: usize,
    a: usize,
    b: usize,
}

/// The list that holds the segments: the frame's children, or the top-level items.
fn segment_list(file: &mut T3dFile, frame: Option<usize>) -> Option<&mut Vec<Item>> {
    match frame {
        Some(i) => match file.items.get_mut(i) {
            Some(Item::Block(block)) => Some(&mut block.children),
            _ => None,
        },
        None => Some(&mut file.items),
    }
}

/// The frame (index of a single closed top `Begin Map`/`Begin Level`) and the segments.
fn segments(file: &T3dFile) -> (Option<usize>, &[Item]) {
    if let [Item::Block(block)] = file.items.as_slice() {
        if matches!(block.kind, BlockKind::Map | BlockKind::Level) && block.end.is_some() {
            return (Some(0), &block.children);
        }
    }
    (None, &file.items)
}

/// Whether a range parse gives the same tree as a full parse would at that place: it must
/// close every block it opens, close none it did not open, and stay clear of the depth
/// limit (a framed segment sits one level deeper in the full parse). Inside a frame of kind
/// `frame_kind`, the full parse has the frame open too: an `End` the range could not match
/// would close it there when it names it (or nothing at all is open in the range), so only
/// an `End` of another kind that matches nothing is the same error in both.
fn acceptable(parse: &Parse, text: &str, frame_kind: Option<&str>) -> bool {
    let framed = frame_kind.is_some();
    let structural = parse.errors.iter().any(|e| match e.kind {
        SyntaxErrorKind::TooDeep => true,
        SyntaxErrorKind::UnmatchedEnd => framed,
        SyntaxErrorKind::MismatchedEnd => {
            frame_kind.is_some_and(|frame| end_kind(e.span.text(text)).eq_ignore_ascii_case(frame))
        }
        _ => false,
    });
    if structural {
        return false;
    }
    let open = parse.file.items.iter().any(|i| i.as_block().is_some_and(|b| b.end.is_none()));
    if open {
        return false;
    }
    // `End` alone closes the frame in a full parse but is unmatched here (caught above).
    let limit = t3d::MAX_DEPTH - usize::from(framed) - 1;
    max_depth(&parse.file.items) < limit
}

/// The kind an `End` line names (`Polygon` in `End Polygon`), empty for a bare `End`.
fn end_kind(line: &str) -> &str {
    let rest = line.get(3..).unwrap_or_default().trim_start_matches([' ', '\t']);
    let len = rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(rest.len());
    rest.get(..len).unwrap_or_default()
}

fn max_depth(items: &[Item]) -> usize {
    let mut deepest = 0;
    let mut stack: Vec<(&[Item], usize)> = vec![(items, 0)];
    while let Some((items, depth)) = stack.pop() {
        for block in items.iter().filter_map(Item::as_block) {
            deepest = deepest.max(depth + 1);
            stack.push((&block.children, depth + 1));
        }
    }
    deepest
}

fn line_start(text: &str, offset: usize) -> usize {
    crate::ide::line_start(text, offset)
}

/// The offset after the line break of the line holding `offset` (or the end of the text).
fn line_end_with_break(text: &str, offset: usize) -> usize {
    let offset = offset.min(text.len());
    text.as_bytes()
        .get(offset..)
        .and_then(|rest| rest.iter().position(|&b| b == b'\n'))
        .map_or(text.len(), |i| offset + i + 1)
}

fn add_markers(a: Markers, b: Markers) -> Markers {
    Markers {
        ue2_strong: a.ue2_strong + b.ue2_strong,
        ue1_strong: a.ue1_strong + b.ue1_strong,
        ue2_textures: a.ue2_textures + b.ue2_textures,
        ue1_textures: a.ue1_textures + b.ue1_textures,
    }
}

fn sub_markers(a: Markers, b: Markers) -> Markers {
    Markers {
        ue2_strong: a.ue2_strong.saturating_sub(b.ue2_strong),
        ue1_strong: a.ue1_strong.saturating_sub(b.ue1_strong),
        ue2_textures: a.ue2_textures.saturating_sub(b.ue2_textures),
        ue1_textures: a.ue1_textures.saturating_sub(b.ue1_textures),
    }
}

/// Moves a position at or after `from` (in the old text) by `delta`.
fn shift_pos(pos: u32, from: u32, delta: i64) -> u32 {
    if pos >= from {
        Span::empty_at(pos).shifted(delta).start
    } else {
        pos
    }
}

fn shift_span_from(span: Span, from: u32, delta: i64) -> Span {
    Span::new(shift_pos(span.start, from, delta), shift_pos(span.end, from, delta))
}

fn shift_error(error: &mut SyntaxError, from: u32, delta: i64) {
    error.span = shift_span_from(error.span, from, delta);
    for (span, _) in &mut error.related {
        *span = shift_span_from(*span, from, delta);
    }
}

fn shift_diagnostic(d: &mut Diagnostic, from: u32, delta: i64) {
    d.span = shift_span_from(d.span, from, delta);
    for label in &mut d.labels {
        label.span = shift_span_from(label.span, from, delta);
    }
    if let Some(fix) = &mut d.fix {
        for edit in &mut fix.edits {
            edit.span = shift_span_from(edit.span, from, delta);
        }
    }
}

/// Shifts every span of an item (which lies wholly after the edit).
fn shift_item(item: &mut Item, delta: i64) {
    let mut stack: Vec<&mut Item> = vec![item];
    while let Some(item) = stack.pop() {
        match item {
            Item::Block(block) => {
                block.kind_span = block.kind_span.shifted(delta);
                block.begin_span = block.begin_span.shifted(delta);
                block.span = block.span.shifted(delta);
                for attribute in &mut block.attributes {
                    attribute.key = attribute.key.shifted(delta);
                    attribute.value = attribute.value.shifted(delta);
                }
                if let Some(end) = &mut block.end {
                    end.span = end.span.shifted(delta);
                    end.kind_span = end.kind_span.shifted(delta);
                }
                stack.extend(block.children.iter_mut());
            }
            Item::Property(property) => {
                property.span = property.span.shifted(delta);
                property.key = property.key.shifted(delta);
                if let Some((span, _)) = &mut property.index {
                    *span = span.shifted(delta);
                }
                shift_value(&mut property.value, delta);
            }
            Item::Vector(line) => {
                line.span = line.span.shifted(delta);
                line.value_span = line.value_span.shifted(delta);
            }
            Item::Keyword(line) => {
                line.span = line.span.shifted(delta);
                line.keyword_span = line.keyword_span.shifted(delta);
                for arg in &mut line.args {
                    arg.key = arg.key.map(|k| k.shifted(delta));
                    arg.value = arg.value.shifted(delta);
                }
            }
            Item::Unknown(span) => *span = span.shifted(delta),
        }
    }
}

fn shift_value(value: &mut Value, delta: i64) {
    let mut stack: Vec<&mut Value> = vec![value];
    while let Some(value) = stack.pop() {
        match value {
            Value::Number { span, .. }
            | Value::String { span }
            | Value::Word { span }
            | Value::Empty { span }
            | Value::Raw { span } => {
                *span = span.shifted(delta);
            }
            Value::ObjectRef { span, class, path } => {
                *span = span.shifted(delta);
                *class = class.shifted(delta);
                *path = path.shifted(delta);
            }
            Value::Struct { span, fields } => {
                *span = span.shifted(delta);
                for Field { key, index, value } in fields.iter_mut() {
                    *key = key.map(|k| k.shifted(delta));
                    if let Some((span, _)) = index {
                        *span = span.shifted(delta);
                    }
                    stack.push(value);
                }
            }
        }
    }
}
