//! The one place where LSP positions meet byte offsets. Analysis speaks byte offsets into
//! the document text; LSP speaks (line, column) with columns in the negotiated encoding.
//! Lines end at LF, CRLF or a lone CR, as the protocol defines them (U+2028 and friends are
//! not line breaks here).
//!
//! A [`LineIndex`] holds where each line starts; edits keep it up to date (O(lines) for the
//! shift, O(edit) for the scan), so an open document needs no second copy of its text (no
//! rope). Columns are counted within one line, which in T3D and UnrealScript is short.
//!
//! Every conversion clamps instead of failing: a column past the end of its line lands at
//! the end of the line (before the line break), a line past the end lands at the end of the
//! document, and a column inside a character (between the halves of a UTF-16 surrogate pair,
//! or inside a UTF-8 sequence) lands at the character's start.

use tower_lsp_server::ls_types::{Position, PositionEncodingKind, Range};
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

    pub fn kind(self) -> PositionEncodingKind {
        match self {
            PositionEncoding::Utf8 => PositionEncodingKind::UTF8,
            PositionEncoding::Utf16 => PositionEncodingKind::UTF16,
            PositionEncoding::Utf32 => PositionEncodingKind::UTF32,
        }
    }
}

/// Where each line of a text starts, as the protocol counts lines. The empty line after a
/// final line break is a line (it can hold the cursor).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineIndex {
    /// Byte offsets of line starts; always begins with 0.
    starts: Vec<u32>,
}

impl LineIndex {
    pub fn new(text: &str) -> Self {
        let bytes = text.as_bytes();
        let mut starts = vec![0];
        starts.extend(
            bytes
                .iter()
                .enumerate()
                .filter(|&(i, &b)| (b == b'\n' || b == b'\r') && is_line_start(bytes, i + 1))
                .map(|(i, _)| saturate(i + 1)),
        );
        Self { starts }
    }

    pub fn line_count(&self) -> usize {
        self.starts.len()
    }

    /// Updates the index after `removed` bytes at `start` were replaced by `inserted` bytes;
    /// `text` is the text after the edit. A line start depends only on the byte before it
    /// and the byte at it (a CR followed by LF is no break of its own), so only the starts
    /// from the edit's start to one byte past its end can change; later ones move.
    pub fn edit(&mut self, text: &str, start: usize, removed: usize, inserted: usize) {
        let bytes = text.as_bytes();
        let from = start.clamp(1, bytes.len().max(1));
        let old_last = start.saturating_add(removed).saturating_add(1);
        let new_last = start.saturating_add(inserted).saturating_add(1).min(bytes.len());
        let lo = self.starts.partition_point(|&s| (s as usize) < from);
        let hi = self.starts.partition_point(|&s| (s as usize) <= old_last).max(lo);
        let fresh: Vec<u32> =
            (from..=new_last).filter(|&p| is_line_start(bytes, p)).map(saturate).collect();
        let kept = lo + fresh.len();
        self.starts.splice(lo..hi, fresh);
        let delta = inserted as i64 - removed as i64;
        if let Some(after) = self.starts.get_mut(kept..) {
            for s in after {
                *s = u32::try_from((i64::from(*s) + delta).max(0)).unwrap_or(u32::MAX);
            }
        }
    }

    /// The line holding byte `offset` (clamped to the text).
    fn line_of(&self, offset: usize) -> usize {
        self.starts.partition_point(|&s| s as usize <= offset).saturating_sub(1)
    }

    /// The byte range of `line` without its line break, or `None` past the last line.
    fn content(&self, text: &str, line: usize) -> Option<(usize, usize)> {
        let start = (*self.starts.get(line)? as usize).min(text.len());
        let next = self.starts.get(line + 1).map_or(text.len(), |&s| (s as usize).min(text.len()));
        let bytes = text.as_bytes();
        let mut end = next.max(start);
        if end > start && bytes.get(end - 1) == Some(&b'\n') {
            end -= 1;
            if end > start && bytes.get(end - 1) == Some(&b'\r') {
                end -= 1;
            }
        } else if end > start && bytes.get(end - 1) == Some(&b'\r') {
            end -= 1;
        }
        Some((start, end))
    }
}

/// Whether a line starts at byte `p`: after an LF, or after a CR that no LF follows.
fn is_line_start(bytes: &[u8], p: usize) -> bool {
    match p.checked_sub(1).and_then(|i| bytes.get(i)) {
        Some(b'\n') => true,
        Some(b'\r') => bytes.get(p) != Some(&b'\n'),
        _ => false,
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
    let text = lines.text;
    let mut byte = byte.min(text.len());
    while !text.is_char_boundary(byte) {
        byte -= 1;
    }
    let line = lines.index.line_of(byte);
    let start = lines.index.starts.get(line).map_or(0, |&s| (s as usize).min(byte));
    let before = text.get(start..byte).unwrap_or_default();
    let col = match encoding {
        PositionEncoding::Utf8 => before.len(),
        PositionEncoding::Utf16 => before.chars().map(char::len_utf16).sum(),
        PositionEncoding::Utf32 => before.chars().count(),
    };
    Position::new(saturate(line), saturate(col))
}

/// The byte offset of an LSP position, clamped as the module describes.
pub fn byte_of_position(lines: Lines<'_>, pos: Position, encoding: PositionEncoding) -> usize {
    let text = lines.text;
    let Some((start, end)) = lines.index.content(text, pos.line as usize) else {
        return text.len();
    };
    let col = pos.character as usize;
    let line = text.get(start..end).unwrap_or_default();
    if encoding == PositionEncoding::Utf8 {
        let mut at = start.saturating_add(col).min(end);
        while !text.is_char_boundary(at) {
            at -= 1;
        }
        return at;
    }
    let mut units = 0usize;
    for (i, ch) in line.char_indices() {
        units += match encoding {
            PositionEncoding::Utf16 => ch.len_utf16(),
            _ => 1,
        };
        if units > col {
            return start + i;
        }
    }
    end
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

    #[test]
    fn edits_keep_the_line_index_equal_to_a_fresh_one() {
        // Edits that split and join CRLF pairs, add and remove lone CRs, at both ends.
        let pieces = ["", "\r", "\n", "\r\n", "a", "\u{e9}", "x\ry", "\n\r"];
        let mut state = 0x2545_F491_u64;
        let mut next = |bound: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % bound as u64) as usize
        };
        for _ in 0..300 {
            let mut text = String::from("ab\r\ncd\re\n");
            let mut index = LineIndex::new(&text);
            for _ in 0..20 {
                let boundaries: Vec<usize> =
                    (0..=text.len()).filter(|&i| text.is_char_boundary(i)).collect();
                let a = boundaries[next(boundaries.len())];
                let b = boundaries[next(boundaries.len())];
                let (start, end) = (a.min(b), a.max(b));
                let piece = pieces[next(pieces.len())];
                text.replace_range(start..end, piece);
                index.edit(&text, start, end - start, piece.len());
                assert_eq!(index, LineIndex::new(&text), "{text:?}");
            }
        }
    }
}
