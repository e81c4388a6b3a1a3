//! The one place where LSP positions meet byte offsets. Analysis speaks byte offsets into
//! the document text; LSP speaks (line, column) with columns in the negotiated encoding.
//! Lines and their starts are analysis's [`LineIndex`] (LF, CRLF or a lone CR, as the
//! protocol defines them; edits keep it up to date); this module adds only the choice of
//! column unit and the protocol's types.
//!
//! Every conversion clamps instead of failing, as [`LineIndex`] does: a column past the end
//! of its line lands at the end of the line (before the line break), a line past the end
//! lands at the end of the document, and a column inside a character (between the halves of
//! a UTF-16 surrogate pair, or inside a UTF-8 sequence) lands at the character's start.

use tower_lsp_server::ls_types::{Position, PositionEncodingKind, Range};
use unreal_analysis::line_index::{ColumnUnit, LineCol};
use unreal_analysis::LineIndex;
use unreal_syntax::Span;

/// The unit LSP columns count in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum PositionEncoding {
    /// Bytes: what analysis uses, so no conversion inside a line.
    Utf8,
    /// The protocol's mandatory default.
    #[default]
    Utf16,
    /// Unicode scalar values.
    Utf32,
}

impl PositionEncoding {
    /// Picks the encoding for a session: UTF-8 when the client offers it, else UTF-32, else
    /// UTF-16 (which every client must support, offered or not).
    pub fn negotiate(offered: Option<&[PositionEncodingKind]>) -> Self {
        let offered = offered.unwrap_or_default();
        if offered.contains(&PositionEncodingKind::UTF8) {
            PositionEncoding::Utf8
        } else if offered.contains(&PositionEncodingKind::UTF32) {
            PositionEncoding::Utf32
        } else {
            PositionEncoding::Utf16
        }
    }

    /// The unit [`LineIndex`] counts columns in for this encoding.
    pub fn unit(self) -> ColumnUnit {
        match self {
            PositionEncoding::Utf8 => ColumnUnit::Utf8,
            PositionEncoding::Utf16 => ColumnUnit::Utf16,
            PositionEncoding::Utf32 => ColumnUnit::Chars,
        }
    }

    pub fn kind(self) -> PositionEncodingKind {
        match self {
            PositionEncoding::Utf8 => PositionEncodingKind::UTF8,
            PositionEncoding::Utf16 => PositionEncodingKind::UTF16,
            PositionEncoding::Utf32 => PositionEncodingKind::UTF32,
        }
    }
}

/// A text with its line index: what every conversion reads.
#[derive(Clone, Copy, Debug)]
pub struct Lines<'a> {
    pub text: &'a str,
    pub index: &'a LineIndex,
}

impl<'a> Lines<'a> {
    pub fn new(text: &'a str, index: &'a LineIndex) -> Self {
        Self { text, index }
    }
}

/// The LSP position of a byte offset. Offsets past the end clamp to the end; offsets inside
/// a multi-byte character count from the character's start.
pub fn position_of_byte(lines: Lines<'_>, byte: usize, encoding: PositionEncoding) -> Position {
    let at = lines.index.line_col(lines.text, saturate(byte), encoding.unit());
    Position::new(at.line, at.col)
}

/// The byte offset of an LSP position, clamped as the module describes.
pub fn byte_of_position(lines: Lines<'_>, pos: Position, encoding: PositionEncoding) -> usize {
    let at = LineCol { line: pos.line, col: pos.character };
    lines.index.offset(lines.text, at, encoding.unit()) as usize
}

/// The LSP range of a byte span. A reversed span is read as the empty span at its start.
pub fn range_of_span(lines: Lines<'_>, span: Span, encoding: PositionEncoding) -> Range {
    let start = position_of_byte(lines, span.start as usize, encoding);
    let end = position_of_byte(lines, span.end.max(span.start) as usize, encoding);
    Range::new(start, end)
}

/// The byte span of an LSP range. A reversed range is read with its ends swapped.
pub fn span_of_range(lines: Lines<'_>, range: Range, encoding: PositionEncoding) -> Span {
    let a = byte_of_position(lines, range.start, encoding);
    let b = byte_of_position(lines, range.end, encoding);
    Span::from_range(a.min(b)..a.max(b))
}

fn saturate(value: usize) -> u32 {
    u32::try_from(value).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fmt::Write as _;
    use PositionEncoding::{Utf16, Utf32, Utf8};

    fn pos(line: u32, character: u32) -> Position {
        Position::new(line, character)
    }

    /// Renders the position of every byte offset in all three encodings, so one snapshot
    /// shows surrogate pairs, multi-byte characters, CRLF, lone CR and the end.
    fn positions_table(text: &str) -> String {
        let index = LineIndex::new(text);
        let lines = Lines::new(text, &index);
        let mut out = String::new();
        for byte in 0..=text.len() + 1 {
            let show = |p: Position| format!("{}:{}", p.line, p.character);
            let _ = writeln!(
                out,
                "{byte:>2} utf8 {:<5} utf16 {:<5} utf32 {}",
                show(position_of_byte(lines, byte, Utf8)),
                show(position_of_byte(lines, byte, Utf16)),
                show(position_of_byte(lines, byte, Utf32)),
            );
        }
        out
    }

    #[test]
    fn byte_offsets_to_positions() {
        // 'é' is 2 bytes, 1 UTF-16 unit; '😀' is 4 bytes, 2 UTF-16 units (a surrogate pair).
        let text = "a\u{e9}\u{1F600}b\r\nc\rd";
        expect_test::expect![[r"
             0 utf8 0:0   utf16 0:0   utf32 0:0
             1 utf8 0:1   utf16 0:1   utf32 0:1
             2 utf8 0:1   utf16 0:1   utf32 0:1
             3 utf8 0:3   utf16 0:2   utf32 0:2
             4 utf8 0:3   utf16 0:2   utf32 0:2
             5 utf8 0:3   utf16 0:2   utf32 0:2
             6 utf8 0:3   utf16 0:2   utf32 0:2
             7 utf8 0:7   utf16 0:4   utf32 0:3
             8 utf8 0:8   utf16 0:5   utf32 0:4
             9 utf8 0:9   utf16 0:6   utf32 0:5
            10 utf8 1:0   utf16 1:0   utf32 1:0
            11 utf8 1:1   utf16 1:1   utf32 1:1
            12 utf8 2:0   utf16 2:0   utf32 2:0
            13 utf8 2:1   utf16 2:1   utf32 2:1
            14 utf8 2:1   utf16 2:1   utf32 2:1
        "]]
        .assert_eq(&positions_table(text));
    }

    #[test]
    fn positions_to_byte_offsets_clamp() {
        let text = "a\u{e9}\u{1F600}b\r\nc\rd\n";
        let index = LineIndex::new(text);
        let lines = Lines::new(text, &index);
        let b = text.find('b').unwrap();
        let emoji = text.find('\u{1F600}').unwrap();
        // Exact positions in each unit.
        assert_eq!(byte_of_position(lines, pos(0, 4), Utf16), b);
        assert_eq!(byte_of_position(lines, pos(0, 3), Utf32), b);
        assert_eq!(byte_of_position(lines, pos(0, 7), Utf8), b);
        // Between the halves of the surrogate pair: the emoji's start.
        assert_eq!(byte_of_position(lines, pos(0, 3), Utf16), emoji);
        // Inside the emoji's UTF-8 sequence: its start.
        assert_eq!(byte_of_position(lines, pos(0, 5), Utf8), emoji);
        // Past the end of a CRLF line: before the CR, in every unit.
        for unit in [Utf8, Utf16, Utf32] {
            assert_eq!(byte_of_position(lines, pos(0, 99), unit), b + 1, "{unit:?}");
        }
        // Past the end of a line ended by a lone CR: before the CR.
        assert_eq!(byte_of_position(lines, pos(1, 5), Utf16), text.find("\rd").unwrap());
        // The empty last line after a final LF exists; lines past it clamp to the end.
        assert_eq!(byte_of_position(lines, pos(3, 0), Utf16), text.len());
        assert_eq!(byte_of_position(lines, pos(3, 7), Utf16), text.len());
        assert_eq!(byte_of_position(lines, pos(40, 2), Utf8), text.len());
        assert_eq!(byte_of_position(lines, pos(u32::MAX, u32::MAX), Utf8), text.len());
        assert_eq!(byte_of_position(lines, pos(0, u32::MAX), Utf8), b + 1);
    }

    #[test]
    fn spans_and_ranges_round_trip() {
        let text = "Begin Map\r\n   Texture=\u{1F600}Foo\r\nEnd Map\r\n";
        let index = LineIndex::new(text);
        let lines = Lines::new(text, &index);
        let start = text.find("Foo").unwrap();
        let span = Span::from_range(start..start + 3);
        for unit in [Utf8, Utf16, Utf32] {
            let range = range_of_span(lines, span, unit);
            assert_eq!(span_of_range(lines, range, unit), span, "{unit:?}");
        }
        assert_eq!(range_of_span(lines, span, Utf16), Range::new(pos(1, 13), pos(1, 16)));
        assert_eq!(range_of_span(lines, span, Utf32), Range::new(pos(1, 12), pos(1, 15)));
        // Reversed input does not invert.
        let reversed = Range::new(pos(1, 16), pos(1, 13));
        assert_eq!(span_of_range(lines, reversed, Utf16), span);
        assert_eq!(range_of_span(lines, Span::new(5, 2), Utf8), Range::new(pos(0, 5), pos(0, 5)));
    }

    #[test]
    fn negotiation_prefers_utf8_then_utf32() {
        let offer = |kinds: &[PositionEncodingKind]| PositionEncoding::negotiate(Some(kinds));
        assert_eq!(PositionEncoding::negotiate(None), Utf16);
        assert_eq!(offer(&[]), Utf16);
        assert_eq!(offer(&[PositionEncodingKind::UTF16]), Utf16);
        assert_eq!(offer(&[PositionEncodingKind::UTF16, PositionEncodingKind::UTF32]), Utf32);
        assert_eq!(
            offer(&[
                PositionEncodingKind::UTF16,
                PositionEncodingKind::UTF32,
                PositionEncodingKind::UTF8
            ]),
            Utf8
        );
    }
}
