//! Byte offsets to lines and columns. Lines are split at `\n` (a `\r` before it belongs to
//! the line break). Columns come in the three units clients ask for.

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
    Utf8,
    Utf16,
    /// Unicode scalar values: what the CLI prints and what UTF-32 clients count.
    Chars,
}

#[derive(Clone, Debug)]
pub struct LineIndex {
    /// Byte offset at which each line starts; always begins with 0.
    line_starts: Vec<u32>,
    len: u32,
}

impl LineIndex {
    pub fn new(text: &str) -> Self {
        let mut line_starts = vec![0u32];
        line_starts.extend(
            memchr_newlines(text.as_bytes()).map(|i| u32::try_from(i + 1).unwrap_or(u32::MAX)),
        );
        Self { line_starts, len: u32::try_from(text.len()).unwrap_or(u32::MAX) }
    }

    pub fn line_count(&self) -> usize {
        self.line_starts.len()
    }

    /// Byte offset where `line` (0-based) starts, or `None` past the end.
    pub fn line_start(&self, line: u32) -> Option<u32> {
        self.line_starts.get(line as usize).copied()
    }

    /// The line's byte range without its line break.
    pub fn line_span(&self, text: &str, line: u32) -> Option<Span> {
        let start = self.line_start(line)?;
        let next = self.line_start(line + 1).unwrap_or(self.len);
        let bytes = text.as_bytes();
        let mut end = next as usize;
        if end > start as usize && bytes.get(end - 1) == Some(&b'\n') {
            end -= 1;
        }
        if end > start as usize && bytes.get(end - 1) == Some(&b'\r') {
            end -= 1;
        }
        Some(Span::new(start, u32::try_from(end).unwrap_or(u32::MAX)))
    }

    /// Line and column of a byte offset. Offsets past the end clamp to the end; offsets inside
    /// a multi-byte character count up to the character's start.
    pub fn line_col(&self, text: &str, offset: u32, unit: ColumnUnit) -> LineCol {
        let offset = offset.min(self.len);
        let line = self.line_starts.partition_point(|&s| s <= offset).saturating_sub(1);
        let start = self.line_starts.get(line).copied().unwrap_or(0);
        let mut end = offset as usize;
        while end > start as usize && !text.is_char_boundary(end) {
            end -= 1;
        }
        let segment = text.get(start as usize..end).unwrap_or("");
        let col = match unit {
            ColumnUnit::Utf8 => segment.len(),
            ColumnUnit::Utf16 => segment.chars().map(char::len_utf16).sum(),
            ColumnUnit::Chars => segment.chars().count(),
        };
        LineCol {
            line: u32::try_from(line).unwrap_or(u32::MAX),
            col: u32::try_from(col).unwrap_or(u32::MAX),
        }
    }

    /// Byte offset of a line and column. A column past the line's end clamps to the end of
    /// the line (before its line break); a column inside a character (for example between
    /// the halves of a UTF-16 surrogate pair) lands on the character's start.
    pub fn offset(&self, text: &str, pos: LineCol, unit: ColumnUnit) -> u32 {
        let Some(line) = self.line_span(text, pos.line) else {
            return self.len;
        };
        let line_text = line.text(text);
        let mut units = 0u32;
        for (i, ch) in line_text.char_indices() {
            let width = match unit {
                ColumnUnit::Utf8 => ch.len_utf8() as u32,
                ColumnUnit::Utf16 => ch.len_utf16() as u32,
                ColumnUnit::Chars => 1,
            };
            if units + width > pos.col {
                return line.start + i as u32;
            }
            units += width;
        }
        line.end
    }
}

fn memchr_newlines(bytes: &[u8]) -> impl Iterator<Item = usize> + '_ {
    bytes.iter().enumerate().filter(|(_, &b)| b == b'\n').map(|(i, _)| i)
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
