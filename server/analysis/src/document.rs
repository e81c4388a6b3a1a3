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
//! Diagnostics are cached per segment: rules that look at one segment at a time run again
//! only for re-parsed segments (the others' diagnostics are shifted), and the two rules that
//! compare segments (duplicate actor names, unresolved brush models) run over the whole tree.

use unreal_syntax::t3d::{
    self, Block, BlockKind, Field, Item, Parse, SyntaxError, SyntaxErrorKind, T3dFile, Value,
};
use unreal_syntax::Span;

use crate::ide::Source;
use crate::lint::LintOptions;
use crate::rules::{self, T3dContext};
use crate::t3d::generation::{self, Markers};
use crate::t3d::walk;
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
/// segment. Every other rule (duplicate names, unresolved models, stray top-level lines, a
/// file without blocks, and any rule added later) runs over the whole tree, with the block
/// list but without polygon facts: a new rule that reads polygons belongs here, and the
/// random-edit test in `tests/ide/document.rs` fails until it is added.
const LOCAL_RULES: [&str; 15] = [
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
];

fn is_local(rule: &rules::T3dRule) -> bool {
    LOCAL_RULES.contains(&rule.meta.code)
}

#[derive(Clone, Debug)]
pub struct T3dDocument {
    text: String,
    parse: Parse,
    /// Generation markers of the whole document, kept up to date by edits.
    markers: Markers,
    /// Per segment: its diagnostics from the one-segment rules, once computed.
    cache: Vec<Option<Vec<Diagnostic>>>,
    /// Whether `cache` was laid out for a document with a frame (`Begin Map`).
    cache_framed: bool,
    /// What the cached diagnostics were computed for.
    cache_key: Option<(EngineSetting, Option<EngineGeneration>)>,
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
        let mut text = String::with_capacity(len - (end - start) + new_text.len());
        text.push_str(&self.text[..start]);
        text.push_str(new_text);
        text.push_str(&self.text[end..]);
        let old = std::mem::replace(&mut self.text, text);
        if let Some(n) = self.splice(&old, start, end, new_text.len()) {
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

    /// The incremental path; `None` when only a full parse gives the right tree.
    fn splice(&mut self, old: &str, start: usize, end: usize, inserted: usize) -> Option<usize> {
        let delta = inserted as i64 - (end - start) as i64;
        let (frame, items) = segments(&self.parse.file);
        if frame.is_some() != self.cache_framed || items.len() != self.cache.len() {
            return None;
        }
        let bounds = match frame {
            Some(i) => {
                let block = self.parse.file.items.get(i)?.as_block()?;
                let end_line = block.end?.span;
                (
                    line_end_with_break(old, block.begin_span.end as usize),
                    line_start(old, end_line.start as usize),
                )
            }
            None => (0, old.len()),
        };
        let lines = (line_start(old, start), line_end_with_break(old, end));
        if lines.0 < bounds.0 || lines.1 > bounds.1 {
            return None;
        }
        let first = items.partition_point(|it| (it.span().end as usize) < lines.0);
        let last = items.partition_point(|it| (it.span().start as usize) < lines.1).max(first);
        let mut a = lines.0;
        let mut b = lines.1;
        if last > first {
            a = a.min(line_start(old, items.get(first)?.span().start as usize));
            b = b.max(line_end_with_break(old, items.get(last - 1)?.span().end as usize));
        }
        let new_b = usize::try_from(b as i64 + delta).ok()?;
        let range_parse = t3d::parse_range(&self.text, a, new_b);
        if !acceptable(&range_parse, frame.is_some()) {
            return None;
        }

        // Splice the items, their markers and caches.
        let a32 = a as u32;
        let b32 = b as u32;
        let Parse { file: T3dFile { items: new_items }, errors: new_errors } = range_parse;
        let new_count = new_items.len();
        let holder = T3dFile { items: new_items };
        let new_markers = generation::markers(&self.text, &holder);
        let new_items = holder.items;
        let list = match frame {
            Some(i) => match self.parse.file.items.get_mut(i) {
                Some(Item::Block(block)) => &mut block.children,
                _ => return None,
            },
            None => &mut self.parse.file.items,
        };
        let removed: Vec<Item> = list.splice(first..last, new_items).collect();
        for item in list.iter_mut().skip(first + new_count) {
            shift_item(item, delta);
        }
        let old_markers = generation::markers(old, &T3dFile { items: removed });
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

        let stale: Vec<Option<Vec<Diagnostic>>> = vec![None; new_count];
        let _ = self.cache.splice(first..last, stale);
        for diagnostics in self.cache.iter_mut().skip(first + new_count).flatten() {
            for d in diagnostics {
                shift_diagnostic(d, b32, delta);
            }
        }
        if let Some(diagnostics) = &mut self.frame_cache {
            for d in diagnostics {
                shift_diagnostic(d, b32, delta);
            }
        }
        Some(new_count)
    }

    /// Every T3D diagnostic of the document, equal to [`rules::check_t3d_parsed`] on a fresh
    /// parse, reusing the cached diagnostics of segments that no edit touched.
    pub fn diagnostics(&mut self, options: &LintOptions) -> Vec<Diagnostic> {
        let generation = self.generation(options.engine);
        let key = Some((options.engine, generation));
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
        let mut out = Vec::new();
        for index in 0..count {
            if self.cache.get(index).is_some_and(Option::is_none) {
                let diagnostics = self.segment_diagnostics(frame, index, generation, options);
                if let Some(slot) = self.cache.get_mut(index) {
                    *slot = Some(diagnostics);
                }
            }
            if let Some(Some(cached)) = self.cache.get(index) {
                out.extend(cached.iter().cloned());
            }
        }
        if self.frame_cache.is_none() {
            self.frame_cache = Some(self.frame_diagnostics(generation, options));
        }
        out.extend(self.frame_cache.iter().flatten().cloned());
        // The other rules see the whole tree (blocks only: they read no polygon geometry).
        let context = T3dContext {
            text: &self.text,
            parse: &self.parse,
            generation,
            blocks: walk::blocks(&self.parse.file),
            polygons: Vec::new(),
            packages: options.packages.as_deref(),
        };
        for rule in rules::T3D_RULES.iter().filter(|r| !is_local(r)) {
            (rule.check)(&context, &mut out);
        }
        out.sort_by(|a, b| {
            (a.span.start, a.span.end, a.code).cmp(&(b.span.start, b.span.end, b.code))
        });
        out
    }

    /// One-segment rules over segment `index`, with the segment's parent (the frame) as the
    /// parent of its top block, exactly as in the whole tree.
    fn segment_diagnostics(
        &mut self,
        frame: Option<usize>,
        index: usize,
        generation: Option<EngineGeneration>,
        options: &LintOptions,
    ) -> Vec<Diagnostic> {
        // Move the segment out of the tree for the duration (no copy), then put it back.
        let placeholder = Item::Unknown(Span::default());
        let item = {
            let list = match frame.and_then(|i| self.parse.file.items.get_mut(i)) {
                Some(Item::Block(block)) => &mut block.children,
                _ => &mut self.parse.file.items,
            };
            match list.get_mut(index) {
                Some(slot) => std::mem::replace(slot, placeholder),
                None => return Vec::new(),
            }
        };
        let lines = (
            line_start(&self.text, item.span().start as usize) as u32,
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
        let mut out = Vec::new();
        {
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
                (rule.check)(&context, &mut out);
            }
        }
        let Parse { file: T3dFile { items }, .. } = segment;
        if let Some(item) = items.into_iter().next() {
            let list = match frame.and_then(|i| self.parse.file.items.get_mut(i)) {
                Some(Item::Block(block)) => &mut block.children,
                _ => &mut self.parse.file.items,
            };
            if let Some(slot) = list.get_mut(index) {
                *slot = item;
            }
        }
        out
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
/// limit (a framed segment sits one level deeper in the full parse).
fn acceptable(parse: &Parse, framed: bool) -> bool {
    let structural = parse.errors.iter().any(|e| {
        matches!(
            e.kind,
            SyntaxErrorKind::MismatchedEnd
                | SyntaxErrorKind::UnmatchedEnd
                | SyntaxErrorKind::TooDeep
        )
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
