//! Byte offsets to lines and columns: the one line index of the project. The CLI's
//! `line:col` (code frames, JSON, SARIF, GitHub annotations) and the language server's
//! positions both come from it; the server only picks the column unit it agreed on with the
//! client.
//!
//! Lines end at LF, CRLF or a lone CR. That is what the Language Server Protocol counts, what
//! editors show, and what the engines read as a line end (`ParseLine` in Core's UnMisc.cpp,
//! UE1 and UE2: a line stops at CR or LF, then one CR and one LF are eaten). U+2028 and its
//! friends are not line breaks. The empty line after a final line break is a line (it can
//! hold the cursor).
//!
//! An edit updates the index in place ([`LineIndex::edit`]: O(lines) for the shift, O(edit)
//! for the scan), so an open document needs no second copy of its text (no rope). Columns
//! are counted within one line, which in T3D and UnrealScript is short.
//!
//! Every conversion clamps instead of failing: an offset past the end counts as the end, a
//! column past the end of its line lands at the end of the line (before the line break), a
//! line past the end lands at the end of the text, and an offset or column inside a
//! character (between the halves of a UTF-16 surrogate pair, or inside a UTF-8 sequence)
//! lands at the character's start.

use rayon::prelude::*;
use unreal_syntax::text::{is_line_start, line_starts_in as starts_after_breaks};
use unreal_syntax::Span;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineCol {
    /// 0-based line.
    pub line: u32,
    /// 0-based column in the unit that was asked for.
    pub col: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColumnUnit {
    /// Bytes of UTF-8: offsets within the line, no counting needed.
    Utf8,
    /// UTF-16 code units: the protocol's default.
    Utf16,
    /// Unicode scalar values: what the CLI prints and what UTF-32 clients count.
    Chars,
}

/// Where each line of a text starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineIndex {
    /// Byte offset at which each line starts; always begins with 0.
    starts: Vec<u32>,
}

impl LineIndex {
    pub fn new(text: &str) -> Self {
        // A big text (a map the CLI reports on) is scanned in pieces on every core: the
        // index is built after the checks, with the other cores idle.
        let pieces =
            if text.len() < PARALLEL_FROM { 1 } else { rayon::current_num_threads().max(1) * 2 };
        Self { starts: line_starts(text.as_bytes(), pieces) }
    }

    pub fn line_count(&self) -> usize {
        self.starts.len()
    }

    /// Byte offset where `line` (0-based) starts, or `None` past the last line.
    pub fn line_start(&self, line: u32) -> Option<u32> {
        self.starts.get(line as usize).copied()
    }

    /// The line's byte range without its line break, or `None` past the last line.
    pub fn line_span(&self, text: &str, line: u32) -> Option<Span> {
        let len = text.len();
        let start = (*self.starts.get(line as usize)? as usize).min(len);
        let next = self.starts.get(line as usize + 1).map_or(len, |&s| (s as usize).min(len));
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
        Some(Span::from_range(start..end))
    }

    /// Line and column of a byte offset.
    pub fn line_col(&self, text: &str, offset: u32, unit: ColumnUnit) -> LineCol {
        let mut offset = (offset as usize).min(text.len());
        while !text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self.starts.partition_point(|&s| s as usize <= offset).saturating_sub(1);
        let start = self.starts.get(line).map_or(0, |&s| (s as usize).min(offset));
        let before = text.get(start..offset).unwrap_or_default();
        let col = match unit {
            ColumnUnit::Utf8 => before.len(),
            ColumnUnit::Utf16 => before.chars().map(char::len_utf16).sum(),
            ColumnUnit::Chars => before.chars().count(),
        };
        LineCol { line: saturate(line), col: saturate(col) }
    }

    /// Byte offset of a line and column.
    pub fn offset(&self, text: &str, pos: LineCol, unit: ColumnUnit) -> u32 {
        let Some(line) = self.line_span(text, pos.line) else {
            return saturate(text.len());
        };
        let (start, end) = (line.start as usize, line.end as usize);
        let col = pos.col as usize;
        if unit == ColumnUnit::Utf8 {
            let mut at = start.saturating_add(col).min(end);
            while !text.is_char_boundary(at) {
                at -= 1;
            }
            return saturate(at);
        }
        let mut units = 0usize;
        for (i, ch) in text.get(start..end).unwrap_or_default().char_indices() {
            units += match unit {
                ColumnUnit::Utf16 => ch.len_utf16(),
                _ => 1,
            };
            if units > col {
                return saturate(start + i);
            }
        }
        line.end
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
}

/// The line starts found in one piece of a text: see [`LineIndex::piece`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PieceStarts(Vec<u32>);

impl LineIndex {
    /// The starts of the lines that begin after a line break in `text[start..end]`: one
    /// piece of an index built elsewhere, such as on the core that has just parsed those
    /// bytes (`unreal-ls lint` indexes a map's pieces as it checks them, instead of scanning
    /// the map again afterwards). A piece may end anywhere, even between a CR and its LF:
    /// whether a line starts after a break is read from the whole text.
    pub fn piece(text: &str, start: usize, end: usize) -> PieceStarts {
        PieceStarts(line_starts_in(text.as_bytes(), start, end).collect())
    }

    /// [`Self::piece`] from the starts of the lines after the piece's line breaks, found by
    /// a pass that already read the piece (the parser's, which ends lines where this index
    /// does: `unreal_syntax::text::line_starts_in`).
    pub fn piece_from_parsed_lines(starts: Vec<u32>) -> PieceStarts {
        PieceStarts(starts)
    }

    /// The index of a text from the starts of its pieces, which cover the text in order
    /// (each piece starting where the one before ends, the first at 0, the last at the end).
    pub fn from_pieces(pieces: Vec<PieceStarts>) -> Self {
        let mut starts = Vec::with_capacity(1 + pieces.iter().map(|p| p.0.len()).sum::<usize>());
        starts.push(0);
        for piece in pieces {
            starts.extend(piece.0);
        }
        Self { starts }
    }
}

/// Texts of at least this many bytes are indexed on every core.
const PARALLEL_FROM: usize = 1 << 20;

/// Where each line starts (0 first), scanned in `pieces` pieces in parallel.
fn line_starts(bytes: &[u8], pieces: usize) -> Vec<u32> {
    if pieces <= 1 {
        let mut starts = vec![0];
        starts.extend(line_starts_in(bytes, 0, bytes.len()));
        return starts;
    }
    let piece = bytes.len().div_ceil(pieces);
    let parts: Vec<PieceStarts> = (0..pieces)
        .into_par_iter()
        .map(|i| {
            let (a, b) = ((i * piece).min(bytes.len()), ((i + 1) * piece).min(bytes.len()));
            PieceStarts(line_starts_in(bytes, a, b).collect())
        })
        .collect();
    LineIndex::from_pieces(parts).starts
}

/// The starts of the lines that begin after a line break found in `bytes[a..b]`.
fn line_starts_in(bytes: &[u8], a: usize, b: usize) -> impl Iterator<Item = u32> + '_ {
    starts_after_breaks(bytes, a, b).map(saturate)
}

fn saturate(value: usize) -> u32 {
    u32::try_from(value).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The line starts the T3D parser collects as it reads a piece are the scanned starts,
    /// wherever the pieces are cut and whatever the line ends (LF, CRLF, a lone CR, CR CR LF,
    /// the text's end in a break or not).
    #[test]
    fn pieces_from_parsed_lines_match_the_scan() {
        let map = |br: &str, last: &str| {
            format!(
                "Begin Map{br}Begin Actor Class=A Name=A0{br}\rEnd Actor{br}{br}\
                 Begin Actor Class=B Name=B0\r\r\nLocation=(X=1){br}End Actor{br}End Map{last}"
            )
        };
        for (br, last) in [("\n", "\n"), ("\r\n", ""), ("\r", "\r"), ("\r", "\r\n"), ("\n\r", "")] {
            let text = map(br, last);
            let every_line: Vec<usize> = (0..text.len()).collect();
            for cuts in [&[][..], &every_line[..]] {
                let plan = unreal_syntax::t3d::OutlinePlan::with_cuts(&text, cuts);
                for index in 0..plan.len() {
                    let (_, starts) = plan.parse_piece_indexed(&text, index);
                    let (start, end) = plan.range(&text, index);
                    assert_eq!(
                        LineIndex::piece_from_parsed_lines(starts).0,
                        LineIndex::piece(&text, start, end).0,
                        "{text:?} piece {index} of {}",
                        plan.len()
                    );
                }
            }
        }
    }

    #[test]
    fn round_trips_in_every_unit() {
        let text = "ab\r\nc\u{e9}\u{1F600}d\nlast";
        let index = LineIndex::new(text);
        assert_eq!(index.line_count(), 3);
        let d = text.find('d').unwrap() as u32;
        assert_eq!(index.line_col(text, d, ColumnUnit::Chars), LineCol { line: 1, col: 3 });
        assert_eq!(index.line_col(text, d, ColumnUnit::Utf16), LineCol { line: 1, col: 4 });
        assert_eq!(index.line_col(text, d, ColumnUnit::Utf8), LineCol { line: 1, col: 7 });
        assert_eq!(index.offset(text, LineCol { line: 1, col: 4 }, ColumnUnit::Utf16), d);
        // Inside the surrogate pair: the emoji's start.
        let emoji = text.find('\u{1F600}').unwrap() as u32;
        assert_eq!(index.offset(text, LineCol { line: 1, col: 3 }, ColumnUnit::Utf16), emoji);
        // Past the end of a CRLF line: before the CR.
        assert_eq!(index.offset(text, LineCol { line: 0, col: 99 }, ColumnUnit::Chars), 2);
        assert_eq!(index.line_col(text, 999, ColumnUnit::Chars), LineCol { line: 2, col: 4 });
    }

    #[test]
    fn lines_end_at_lf_crlf_and_a_lone_cr() {
        let text = "a\nb\r\nc\rd\r\re\n\rf\r";
        let index = LineIndex::new(text);
        let lines: Vec<&str> = (0..index.line_count() as u32)
            .map(|line| index.line_span(text, line).unwrap().text(text))
            .collect();
        assert_eq!(lines, ["a", "b", "c", "d", "", "e", "", "f", ""]);
        assert_eq!(index.line_span(text, 9), None);
        // The CR of a CRLF is part of the line break: no line starts between it and the LF.
        let cr = text.find("\r\n").unwrap() as u32;
        assert_eq!(index.line_col(text, cr + 1, ColumnUnit::Chars), LineCol { line: 1, col: 2 });
    }

    #[test]
    fn a_text_indexed_in_pieces_equals_one_scan() {
        // Line breaks of every kind everywhere, cut into 2 to 9 pieces at every length, so
        // that pieces end between a CR and its LF, after a lone CR, after an LF, in the middle
        // of a character.
        let unit = "ab\r\n\r\r\n\n\rc\u{e9}\n\r\r";
        let mut text = String::new();
        while text.len() < 200 {
            let one_scan = line_starts(text.as_bytes(), 1);
            for pieces in 2..10 {
                assert_eq!(line_starts(text.as_bytes(), pieces), one_scan, "{text:?} {pieces}");
            }
            text.push(unit.chars().nth(text.len() % 11).unwrap_or('x'));
        }
        assert_eq!(LineIndex::new(&text.repeat(PARALLEL_FROM / text.len() + 1)).starts, {
            let big = text.repeat(PARALLEL_FROM / text.len() + 1);
            line_starts(big.as_bytes(), 1)
        });
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
