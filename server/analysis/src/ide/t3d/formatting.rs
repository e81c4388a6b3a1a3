//! Formatting in UnrealEd's layout: three spaces of indentation per nesting level (the
//! children of `Begin Map`/`Begin Level` stay at column 0, as UnrealEd writes them), polygon
//! vectors as `%+013.6f` after a keyword padded to nine columns (`Origin   `, `TextureU `),
//! `Pan      U=.. V=..`, `Flags=` as a signed `%i`, canonical `Begin`/`End` spelling, no
//! blank lines, and the document's line ending (CRLF when it has none).
//!
//! A document with syntax errors is never touched: formatting it would guess at a structure
//! the file does not have. Formatting is idempotent and keeps the tree's structure.

use unreal_syntax::t3d::{Block, BlockKind, Item, KeywordLine, LineKeyword, VectorLine};
use unreal_syntax::text::line_end_with_break;
use unreal_syntax::Span;

use super::{Source, TextEdit};
use crate::t3d::geometry::{format_vector, Vec3};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineEnding {
    Crlf,
    Lf,
    /// A lone CR (classic Mac OS): the engines end a line there too.
    Cr,
}

impl LineEnding {
    pub fn as_str(self) -> &'static str {
        match self {
            LineEnding::Crlf => "\r\n",
            LineEnding::Lf => "\n",
            LineEnding::Cr => "\r",
        }
    }

    /// The ending a document already uses (its first line break), CRLF when it has none.
    pub fn detect(text: &str) -> LineEnding {
        let bytes = text.as_bytes();
        match memchr::memchr2(b'\n', b'\r', bytes).map(|i| (bytes[i], bytes.get(i + 1))) {
            Some((b'\r', Some(b'\n'))) | None => LineEnding::Crlf,
            Some((b'\r', _)) => LineEnding::Cr,
            Some(_) => LineEnding::Lf,
        }
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FormatOptions {
    /// `None`: keep the document's own.
    pub line_ending: Option<LineEnding>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FormatError {
    pub reason: String,
}

/// Number of spaces per nesting level.
pub const INDENT: usize = 3;

/// Edits that bring the whole document into canonical form (none when it already is).
pub fn format(src: &Source<'_>, options: FormatOptions) -> Result<Vec<TextEdit>, FormatError> {
    format_lines(src, options, None)
}

/// Edits for the lines that intersect `range` only.
pub fn format_range(
    src: &Source<'_>,
    range: Span,
    options: FormatOptions,
) -> Result<Vec<TextEdit>, FormatError> {
    format_lines(src, options, Some(range))
}

/// The formatted document as text.
pub fn format_text(src: &Source<'_>, options: FormatOptions) -> Result<String, FormatError> {
    let edits = format(src, options)?;
    Ok(apply_edits(src.text, &edits))
}

/// Applies sorted, non-overlapping edits.
pub fn apply_edits(text: &str, edits: &[TextEdit]) -> String {
    let mut out = String::with_capacity(text.len());
    let mut at = 0usize;
    for edit in edits {
        let range = edit.span.range();
        out.push_str(text.get(at..range.start).unwrap_or(""));
        out.push_str(&edit.new_text);
        at = range.end.max(at);
    }
    out.push_str(text.get(at..).unwrap_or(""));
    out
}

fn format_lines(
    src: &Source<'_>,
    options: FormatOptions,
    range: Option<Span>,
) -> Result<Vec<TextEdit>, FormatError> {
    if let Some(first) = src.errors.first() {
        return Err(syntax_errors(src.errors.len(), first));
    }
    let mut edits = Vec::new();
    let mut lines = LineMatcher::new(src.text, options, range, &mut edits);
    for item in &src.file.items {
        format_item(src, item, 0, None, &mut lines)?;
    }
    lines.finish()?;
    Ok(edits)
}

/// Where the edits of [`format_document_into`] go as they are made, in document order: an
/// edit is opened at the byte where it starts, its new text arrives in pieces, and it is
/// closed with its whole span. A caller that writes them out (the language server's answer)
/// never holds them.
pub trait EditSink {
    fn open(&mut self, start: u32);
    fn text(&mut self, piece: &str);
    fn close(&mut self, span: Span);
}

/// Collects the edits.
impl EditSink for Vec<TextEdit> {
    fn open(&mut self, start: u32) {
        self.push(TextEdit { span: Span::new(start, start), new_text: String::new() });
    }

    fn text(&mut self, piece: &str) {
        if let Some(last) = self.last_mut() {
            last.new_text.push_str(piece);
        }
    }

    fn close(&mut self, span: Span) {
        if let Some(last) = self.last_mut() {
            last.span = span;
            // A joined text grew by doubling: give the room back.
            if last.new_text.capacity() - last.new_text.len() > 256 {
                last.new_text.shrink_to_fit();
            }
        }
    }
}

/// Edits that bring the whole document at `text` into canonical form, equal to [`format`] of
/// its parse, one top-level block at a time: only the block being formatted has a tree, and
/// each formatted line is compared and dropped at once, so a 50 MB map costs its largest block
/// and the edits, not a tree of the whole map. Runs of changed lines are one edit each.
pub fn format_document(text: &str, options: FormatOptions) -> Result<Vec<TextEdit>, FormatError> {
    let mut edits = Vec::new();
    format_document_into(text, options, &mut edits)?;
    Ok(edits)
}

/// [`format_document`] with each edit handed to `sink` as it is made: the formatted text is
/// never held but one line at a time. On an error, `sink` may have received some edits
/// (the document has none).
pub fn format_document_into(
    text: &str,
    options: FormatOptions,
    sink: &mut dyn EditSink,
) -> Result<(), FormatError> {
    let outline = unreal_syntax::t3d::outline(text);
    if let Some(first) = outline.errors.first() {
        return Err(syntax_errors(outline.errors.len(), first));
    }
    let mut lines = LineMatcher::new(text, options, None, sink);
    lines.join = true;
    let empty = unreal_syntax::t3d::Parse::default();
    let outline_src = Source::new(text, &empty, None);
    for item in &outline.file.items {
        match item {
            // The map's children one by one (they stay at column 0, as UnrealEd writes them).
            Item::Block(frame) if matches!(frame.kind, BlockKind::Map | BlockKind::Level) => {
                lines.push(frame.begin_span, &begin_line(&outline_src, frame, 0))?;
                for child in &frame.children {
                    format_part(text, child.span(), 0, Some(frame.kind), &mut lines)?;
                }
                if let Some(end) = frame.end {
                    lines.push(end.span, &format!("End {}", kind_name(&outline_src, frame)))?;
                }
            }
            other => format_part(text, other.span(), 0, None, &mut lines)?,
        }
    }
    // Runs of changed lines were joined as they came (`LineMatcher::joined`).
    lines.finish()
}

/// Parses the lines of `span` on their own and formats them at `depth` under `parent`; the
/// tree is dropped when done.
fn format_part(
    text: &str,
    span: Span,
    depth: usize,
    parent: Option<BlockKind>,
    lines: &mut LineMatcher<'_, '_>,
) -> Result<(), FormatError> {
    // Up to the end of the line holding the span's last byte.
    let end = line_end_with_break(text, (span.end as usize).saturating_sub(1));
    let parse = unreal_syntax::t3d::parse_range(text, span.start as usize, end);
    if let Some(first) = parse.errors.first() {
        return Err(syntax_errors(parse.errors.len(), first));
    }
    let src = Source::new(text, &parse, None);
    for item in &parse.file.items {
        format_item(&src, item, depth, parent, lines)?;
    }
    Ok(())
}

fn syntax_errors(count: usize, first: &unreal_syntax::t3d::SyntaxError) -> FormatError {
    FormatError {
        reason: format!(
            "the document has {} (the first at byte {}: {}); formatting would guess at its structure",
            super::plural(count, "syntax error", "syntax errors"),
            first.span.start,
            first.message
        ),
    }
}

/// Walks the document's lines in order as formatted lines arrive (in the same order), and
/// makes an edit for each line that differs: blank lines are removed, the others replaced by
/// their formatted text and the line ending. The edits go to a sink as they are made.
struct LineMatcher<'a, 's> {
    text: &'a str,
    eol: &'static str,
    range: Option<Span>,
    /// The start of the next line not yet matched.
    start: usize,
    sink: &'s mut dyn EditSink,
    /// The span of the edit open in the sink, if any.
    open: Option<Span>,
    /// Whether an edit that starts where the last one ends is joined to it (the whole
    /// document's formatting: one edit per run of changed lines, so a document formatted for
    /// the first time is one edit, not a million).
    join: bool,
}

impl<'a, 's> LineMatcher<'a, 's> {
    fn new(
        text: &'a str,
        options: FormatOptions,
        range: Option<Span>,
        sink: &'s mut dyn EditSink,
    ) -> Self {
        let eol = options.line_ending.unwrap_or_else(|| LineEnding::detect(text)).as_str();
        Self { text, eol, range, start: 0, sink, open: None, join: false }
    }

    /// The next line of the text: its span (line break included) and content.
    fn next_line(&self) -> Option<(Span, &'a str, &'a str)> {
        let bytes = self.text.as_bytes();
        if self.start >= bytes.len() {
            return None;
        }
        let end = line_end_with_break(self.text, self.start);
        let full = self.text.get(self.start..end).unwrap_or("");
        Some((Span::from_range(self.start..end), full, full.trim_end_matches(['\n', '\r'])))
    }

    fn in_range(&self, line: Span) -> bool {
        self.range.is_none_or(|r| {
            r.start <= line.end.saturating_sub(1).max(line.start) && line.start <= r.end
        })
    }

    /// Removes the blank lines before the next non-blank one.
    fn skip_blank(&mut self) {
        while let Some((line, _, content)) = self.next_line() {
            if !content.trim_matches([' ', '\t']).is_empty() {
                break;
            }
            if self.in_range(line) {
                self.add(line, "", "");
            }
            self.start = line.end as usize;
        }
    }

    /// The formatted text of the node at `span`, which must be on the next non-blank line.
    fn push(&mut self, span: Span, formatted: &str) -> Result<(), FormatError> {
        self.skip_blank();
        let Some((line, full, _)) = self.next_line() else {
            return Err(internal("the tree has nodes past the last line"));
        };
        if span.start >= line.end || span.start < line.start {
            return Err(internal("the tree and the lines disagree"));
        }
        let wanted_len = formatted.len() + self.eol.len();
        let same =
            full.len() == wanted_len && full.starts_with(formatted) && full.ends_with(self.eol);
        if self.in_range(line) && !same {
            self.add(line, formatted, self.eol);
        }
        self.start = line.end as usize;
        Ok(())
    }

    /// Replaces `line` with `a` and `b`: the open edit takes it when joining and it ends where
    /// `line` starts; otherwise that edit is closed and a new one opened.
    fn add(&mut self, line: Span, a: &str, b: &str) {
        match &mut self.open {
            Some(open) if self.join && open.end == line.start => open.end = line.end,
            open => {
                if let Some(done) = open.replace(line) {
                    self.sink.close(done);
                }
                self.sink.open(line.start);
            }
        }
        self.sink.text(a);
        self.sink.text(b);
    }

    fn finish(mut self) -> Result<(), FormatError> {
        self.skip_blank();
        if self.next_line().is_some() {
            return Err(internal("a line has no node in the tree"));
        }
        if let Some(done) = self.open.take() {
            self.sink.close(done);
        }
        Ok(())
    }
}

fn internal(what: &str) -> FormatError {
    FormatError { reason: format!("cannot format: {what} (please report this document)") }
}

fn indent(depth: usize) -> String {
    " ".repeat(depth * INDENT)
}

fn format_item(
    src: &Source<'_>,
    item: &Item,
    depth: usize,
    parent: Option<BlockKind>,
    out: &mut LineMatcher<'_, '_>,
) -> Result<(), FormatError> {
    match item {
        Item::Block(block) => format_block(src, block, depth, out),
        Item::Property(p) => out.push(p.span, &format!("{}{}", indent(depth), src.slice(p.span))),
        Item::Vector(line) => {
            out.push(line.span, &format!("{}{}", indent(depth), vector_line(src, line, parent)))
        }
        Item::Keyword(line) => {
            out.push(line.span, &format!("{}{}", indent(depth), keyword_line(src, line)))
        }
        Item::Unknown(span) => out.push(*span, &format!("{}{}", indent(depth), src.slice(*span))),
    }
}

/// A block's `Begin` line, canonical.
fn begin_line(src: &Source<'_>, block: &Block, depth: usize) -> String {
    let kind = kind_name(src, block);
    let mut begin = format!("{}Begin {kind}", indent(depth));
    for attribute in &block.attributes {
        let key = src.slice(attribute.key);
        begin.push(' ');
        begin.push_str(key);
        let has_eq = src.text.as_bytes().get(attribute.key.end as usize) == Some(&b'=');
        if !has_eq {
            continue;
        }
        begin.push('=');
        let value = src.slice(attribute.value);
        match unreal_syntax::t3d::parse_flags(value) {
            Some(bits) if key.eq_ignore_ascii_case("Flags") => {
                begin.push_str(&(bits as i32).to_string());
            }
            _ => begin.push_str(value),
        }
    }
    begin
}

fn format_block(
    src: &Source<'_>,
    block: &Block,
    depth: usize,
    out: &mut LineMatcher<'_, '_>,
) -> Result<(), FormatError> {
    out.push(block.begin_span, &begin_line(src, block, depth))?;
    let child_depth =
        if matches!(block.kind, BlockKind::Map | BlockKind::Level) { depth } else { depth + 1 };
    for child in &block.children {
        // Bounded by the parser's MAX_DEPTH.
        format_item(src, child, child_depth, Some(block.kind), out)?;
    }
    if let Some(end) = block.end {
        out.push(end.span, &format!("{}End {}", indent(depth), kind_name(src, block)))?;
    }
    Ok(())
}

fn kind_name<'a>(src: &Source<'a>, block: &Block) -> &'a str {
    match block.kind {
        BlockKind::Other | BlockKind::Terrain => src.slice(block.kind_span),
        kind => kind.canonical_name(),
    }
}

fn vector_line(src: &Source<'_>, line: &VectorLine, parent: Option<BlockKind>) -> String {
    let polygon_line = matches!(
        line.keyword,
        LineKeyword::Origin
            | LineKeyword::Normal
            | LineKeyword::TextureU
            | LineKeyword::TextureV
            | LineKeyword::Vertex
    );
    let printable = line.value.iter().all(|v| v.is_finite() && v.abs() < 1e15);
    if polygon_line && parent == Some(BlockKind::Polygon) && printable {
        format!(
            "{:<8} {}",
            line.keyword.canonical_name(),
            format_vector(Vec3::from_array(line.value))
        )
    } else {
        src.slice(line.span).to_owned()
    }
}

fn keyword_line(src: &Source<'_>, line: &KeywordLine) -> String {
    if line.keyword == LineKeyword::Pan {
        let u = line.arg(src.text, "U");
        let v = line.arg(src.text, "V");
        let only_uv = line.args.iter().all(|a| {
            a.key.is_some_and(|k| {
                let k = src.slice(k);
                k.eq_ignore_ascii_case("U") || k.eq_ignore_ascii_case("V")
            })
        });
        if only_uv && line.args.len() == usize::from(u.is_some()) + usize::from(v.is_some()) {
            let u = u.map_or("0", |(_, v)| v);
            let v = v.map_or("0", |(_, v)| v);
            return format!("{:<8} U={u} V={v}", "Pan");
        }
    }
    src.slice(line.span).to_owned()
}
