//! Formatting in UnrealEd's layout: three spaces of indentation per nesting level (the
//! children of `Begin Map`/`Begin Level` stay at column 0, as UnrealEd writes them), polygon
//! vectors as `%+013.6f` after a keyword padded to nine columns (`Origin   `, `TextureU `),
//! `Pan      U=.. V=..`, `Flags=` as a signed `%i`, canonical `Begin`/`End` spelling, no
//! blank lines, and the document's line ending (CRLF when it has none).
//!
//! A document with syntax errors is never touched: formatting it would guess at a structure
//! the file does not have. Formatting is idempotent and keeps the tree's structure.

use unreal_syntax::t3d::{Block, BlockKind, Item, KeywordLine, LineKeyword, VectorLine};
use unreal_syntax::Span;

use super::{Source, TextEdit};
use crate::t3d::geometry::{format_vector, Vec3};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineEnding {
    Crlf,
    Lf,
}

impl LineEnding {
    pub fn as_str(self) -> &'static str {
        match self {
            LineEnding::Crlf => "\r\n",
            LineEnding::Lf => "\n",
        }
    }

    /// The ending a document already uses (its first line break), CRLF when it has none.
    pub fn detect(text: &str) -> LineEnding {
        match text.find('\n') {
            Some(i) if i > 0 && text.as_bytes().get(i - 1) == Some(&b'\r') => LineEnding::Crlf,
            Some(_) => LineEnding::Lf,
            None => LineEnding::Crlf,
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
        return Err(FormatError {
            reason: format!(
                "the document has {} (the first at byte {}: {}); formatting would guess at its structure",
                super::plural(src.errors.len(), "syntax error", "syntax errors"),
                first.span.start,
                first.message
            ),
        });
    }
    let eol = options.line_ending.unwrap_or_else(|| LineEnding::detect(src.text)).as_str();
    let mut lines: Vec<(Span, String)> = Vec::new();
    for item in &src.file.items {
        format_item(src, item, 0, None, &mut lines);
    }
    let text = src.text;
    let bytes = text.as_bytes();
    let mut edits = Vec::new();
    let mut next = lines.iter().peekable();
    let mut start = 0usize;
    while start < bytes.len() {
        let newline = bytes.get(start..).and_then(|b| b.iter().position(|&c| c == b'\n'));
        let end = newline.map_or(bytes.len(), |i| start + i + 1);
        let full = text.get(start..end).unwrap_or("");
        let content = full.trim_end_matches(['\n', '\r']);
        let line_span = Span::from_range(start..end);
        let in_range = range.is_none_or(|r| {
            r.start <= line_span.end.saturating_sub(1).max(line_span.start)
                && line_span.start <= r.end
        });
        if content.trim_matches([' ', '\t']).is_empty() {
            if in_range {
                edits.push(TextEdit { span: line_span, new_text: String::new() });
            }
        } else {
            let Some((span, formatted)) = next.next() else {
                return Err(internal("a line has no node in the tree"));
            };
            if span.start as usize >= end || (span.start as usize) < start {
                return Err(internal("the tree and the lines disagree"));
            }
            let wanted_len = formatted.len() + eol.len();
            let same = full.len() == wanted_len
                && full.starts_with(formatted.as_str())
                && full.ends_with(eol);
            if in_range && !same {
                edits.push(TextEdit { span: line_span, new_text: format!("{formatted}{eol}") });
            }
        }
        start = end;
    }
    if next.next().is_some() {
        return Err(internal("the tree has nodes past the last line"));
    }
    Ok(edits)
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
    out: &mut Vec<(Span, String)>,
) {
    match item {
        Item::Block(block) => format_block(src, block, depth, out),
        Item::Property(p) => out.push((p.span, format!("{}{}", indent(depth), src.slice(p.span)))),
        Item::Vector(line) => {
            out.push((line.span, format!("{}{}", indent(depth), vector_line(src, line, parent))));
        }
        Item::Keyword(line) => {
            out.push((line.span, format!("{}{}", indent(depth), keyword_line(src, line))));
        }
        Item::Unknown(span) => out.push((*span, format!("{}{}", indent(depth), src.slice(*span)))),
    }
}

fn format_block(src: &Source<'_>, block: &Block, depth: usize, out: &mut Vec<(Span, String)>) {
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
    out.push((block.begin_span, begin));
    let child_depth =
        if matches!(block.kind, BlockKind::Map | BlockKind::Level) { depth } else { depth + 1 };
    for child in &block.children {
        // Bounded by the parser's MAX_DEPTH.
        format_item(src, child, child_depth, Some(block.kind), out);
    }
    if let Some(end) = block.end {
        out.push((end.span, format!("{}End {kind}", indent(depth))));
    }
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
