//! A bounds-checked little-endian cursor over a byte slice. Every read names the field it
//! reads, so that a failure says which structure, where, and what was expected. The
//! primitives are nom's complete little-endian parsers; the cursor adds positions and
//! errors that carry the absolute file offset.

use std::borrow::Cow;

use nom::number::complete::{le_f32, le_i32, le_u16, le_u32, le_u64};
use nom::IResult;

use crate::error::{Error, Result};

/// What a reader is reading, as its errors name it. Kept apart until an error needs the text:
/// a table reader moves to the next entry without formatting `"name table entry 12"` for
/// each of thousands of entries.
#[derive(Clone, Debug)]
enum Structure {
    Text(Cow<'static, str>),
    /// `"{0} {1}"`: entry `1` of a table (`name table entry 12`).
    Entry(&'static str, usize),
}

impl Structure {
    fn text(&self) -> Cow<'_, str> {
        match self {
            Self::Text(text) => Cow::Borrowed(text),
            Self::Entry(table, i) => Cow::Owned(format!("{table} {i}")),
        }
    }
}

#[derive(Clone)]
pub struct Reader<'a> {
    data: &'a [u8],
    pos: usize,
    structure: Structure,
}

impl<'a> Reader<'a> {
    /// A cursor at `pos` of `data`; errors name `structure`.
    pub fn new(data: &'a [u8], pos: usize, structure: impl Into<Cow<'static, str>>) -> Self {
        Self { data, pos, structure: Structure::Text(structure.into()) }
    }

    pub fn data(&self) -> &'a [u8] {
        self.data
    }

    pub fn pos(&self) -> usize {
        self.pos
    }

    /// The length of the underlying data (one past the last readable byte).
    pub fn end(&self) -> usize {
        self.data.len()
    }

    pub fn remaining(&self) -> usize {
        self.data.len().saturating_sub(self.pos)
    }

    pub fn is_at_end(&self) -> bool {
        self.pos >= self.data.len()
    }

    pub fn set_structure(&mut self, structure: impl Into<Cow<'static, str>>) {
        self.structure = Structure::Text(structure.into());
    }

    /// Names entry `index` of a table (`set_entry("name table entry", 12)`: errors say `name
    /// table entry 12`), formatted only when an error is.
    pub fn set_entry(&mut self, table: &'static str, index: usize) {
        self.structure = Structure::Entry(table, index);
    }

    pub fn structure(&self) -> Cow<'_, str> {
        self.structure.text()
    }

    /// An error at the current position.
    pub fn error(&self, expected: impl Into<String>) -> Error {
        self.error_at(self.pos, expected)
    }

    /// An error at an explicit position.
    pub fn error_at(&self, pos: usize, expected: impl Into<String>) -> Error {
        Error::new(self.structure.text(), pos, expected)
    }

    fn eof(&self, field: &str, needed: usize) -> Error {
        self.error(format!(
            "{field} ({needed} bytes), but the file ends after {} more",
            self.remaining()
        ))
    }

    fn prim<T>(
        &mut self,
        field: &str,
        size: usize,
        parse: fn(&'a [u8]) -> IResult<&'a [u8], T>,
    ) -> Result<T> {
        let rest = self.data.get(self.pos..).unwrap_or_default();
        match parse(rest) {
            Ok((_, value)) => {
                self.pos += size;
                Ok(value)
            }
            Err(_) => Err(self.eof(field, size)),
        }
    }

    pub fn u8(&mut self, field: &str) -> Result<u8> {
        let Some(&b) = self.data.get(self.pos) else {
            return Err(self.eof(field, 1));
        };
        self.pos += 1;
        Ok(b)
    }

    pub fn bool8(&mut self, field: &str) -> Result<bool> {
        Ok(self.u8(field)? != 0)
    }

    pub fn u16(&mut self, field: &str) -> Result<u16> {
        self.prim(field, 2, le_u16)
    }

    pub fn u32(&mut self, field: &str) -> Result<u32> {
        self.prim(field, 4, le_u32)
    }

    pub fn i32(&mut self, field: &str) -> Result<i32> {
        self.prim(field, 4, le_i32)
    }

    pub fn u64(&mut self, field: &str) -> Result<u64> {
        self.prim(field, 8, le_u64)
    }

    pub fn f32(&mut self, field: &str) -> Result<f32> {
        self.prim(field, 4, le_f32)
    }

    /// `n` bytes, borrowed; fails before reading if fewer remain.
    pub fn bytes(&mut self, field: &str, n: usize) -> Result<&'a [u8]> {
        if n > self.remaining() {
            return Err(self.eof(field, n));
        }
        let slice = &self.data[self.pos..self.pos + n];
        self.pos += n;
        Ok(slice)
    }

    pub fn array<const N: usize>(&mut self, field: &str) -> Result<[u8; N]> {
        let bytes = self.bytes(field, N)?;
        let mut out = [0u8; N];
        out.copy_from_slice(bytes);
        Ok(out)
    }

    pub fn skip(&mut self, field: &str, n: usize) -> Result<()> {
        self.bytes(field, n).map(|_| ())
    }

    /// Moves to an absolute position inside the data.
    pub fn seek(&mut self, field: &str, pos: usize) -> Result<()> {
        if pos > self.data.len() {
            return Err(self.error(format!(
                "{field} to point inside the file (length {}), found {pos}",
                self.data.len()
            )));
        }
        self.pos = pos;
        Ok(())
    }

    /// Checks that `count` items of `item_size` bytes fit in what remains, before anything is
    /// allocated for them. Returns the count as `usize`.
    pub fn check_count(&self, field: &str, count: i64, item_size: usize) -> Result<usize> {
        if count < 0 {
            return Err(self.error(format!("{field} to be a non-negative count, found {count}")));
        }
        let n =
            usize::try_from(count).map_err(|_| self.error(format!("{field} to fit in memory")))?;
        let needed = n.checked_mul(item_size.max(1));
        match needed {
            Some(needed) if needed <= self.remaining() => Ok(n),
            _ => Err(self.error(format!(
                "{field} of {count} items of at least {} bytes to fit in the {} bytes left",
                item_size.max(1),
                self.remaining()
            ))),
        }
    }

    /// The engine's compact index: sign and continuation in the first byte, 6 + 7*k bits, at
    /// most 5 bytes. A fifth byte with bits beyond the 32-bit range is rejected.
    pub fn compact_index(&mut self, field: &str) -> Result<i32> {
        let start = self.pos;
        let b0 = self.u8(field)?;
        let negative = b0 & 0x80 != 0;
        let mut value: u32 = u32::from(b0 & 0x3f);
        if b0 & 0x40 != 0 {
            let mut shift = 6;
            loop {
                let b = self.u8(field)?;
                if shift == 27 {
                    // Fifth byte: only 5 bits remain (6 + 7*3 = 27) and no continuation.
                    if b & 0xe0 != 0 {
                        return Err(self.error_at(
                            start,
                            format!("{field} as a compact index of at most 5 bytes within 32 bits, found fifth byte {b:#04x}"),
                        ));
                    }
                    value |= u32::from(b) << shift;
                    break;
                }
                value |= u32::from(b & 0x7f) << shift;
                if b & 0x80 == 0 {
                    break;
                }
                shift += 7;
            }
        }
        let value = value as i32;
        Ok(if negative { value.wrapping_neg() } else { value })
    }

    /// A NUL-terminated string of at most `max` bytes (not counting the NUL).
    pub fn cstring(&mut self, field: &str, max: usize) -> Result<&'a [u8]> {
        let rest = self.data.get(self.pos..).unwrap_or_default();
        let limit = rest.len().min(max + 1);
        match rest[..limit].iter().position(|&b| b == 0) {
            Some(end) => {
                let s = &rest[..end];
                self.pos += end + 1;
                Ok(s)
            }
            None => {
                Err(self
                    .error(format!("{field} as a NUL-terminated string of at most {max} bytes")))
            }
        }
    }
}

/// Windows-1252 text as the engine stored it (names, ANSI strings), without the trailing NULs.
/// Each byte is one character: below 0x80 and from 0xA0 the code point of the same value,
/// from 0x80 to 0x9F the WHATWG table's (`encoding_rs::WINDOWS_1252`, checked against it
/// for every byte in the tests). No BOM is looked for: `EF BB BF` is `ï»¿` here, as in the
/// engine. Written out because it runs for every name of every package read: the ASCII
/// names of real packages are one copy, and no decoder is set up per name.
pub fn ansi(bytes: &[u8]) -> String {
    let trimmed = match bytes.iter().position(|&b| b == 0) {
        Some(end) => &bytes[..end],
        None => bytes,
    };
    match std::str::from_utf8(trimmed) {
        Ok(ascii) if trimmed.is_ascii() => ascii.to_owned(),
        _ => trimmed.iter().map(|&b| windows_1252(b)).collect(),
    }
}

/// The Windows-1252 character of one byte.
fn windows_1252(b: u8) -> char {
    /// 0x80 to 0x9F; the five bytes the code page leaves undefined map to the C1 controls of
    /// the same value, as WHATWG (and so browsers and `encoding_rs`) map them.
    const HIGH: [char; 32] = [
        '\u{20AC}', '\u{0081}', '\u{201A}', '\u{0192}', '\u{201E}', '\u{2026}', '\u{2020}',
        '\u{2021}', '\u{02C6}', '\u{2030}', '\u{0160}', '\u{2039}', '\u{0152}', '\u{008D}',
        '\u{017D}', '\u{008F}', '\u{0090}', '\u{2018}', '\u{2019}', '\u{201C}', '\u{201D}',
        '\u{2022}', '\u{2013}', '\u{2014}', '\u{02DC}', '\u{2122}', '\u{0161}', '\u{203A}',
        '\u{0153}', '\u{009D}', '\u{017E}', '\u{0178}',
    ];
    match b {
        0x80..=0x9F => HIGH[usize::from(b - 0x80)],
        _ => char::from(b),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn index(bytes: &[u8]) -> Result<i32> {
        Reader::new(bytes, 0, "test").compact_index("value")
    }

    #[test]
    fn ansi_is_windows_1252_as_encoding_rs_decodes_it() {
        for b in 1..=255u8 {
            let byte = [b];
            let (expected, _) = encoding_rs::WINDOWS_1252.decode_without_bom_handling(&byte);
            assert_eq!(ansi(&byte), expected, "byte {b:#04x}");
        }
        let all: Vec<u8> = (1..=255u8).rev().collect();
        let (expected, _) = encoding_rs::WINDOWS_1252.decode_without_bom_handling(&all);
        assert_eq!(ansi(&all), expected);
        // Up to the first NUL; no byte-order mark is taken for one.
        assert_eq!(ansi(b"Engine\0junk"), "Engine");
        assert_eq!(ansi(&[0xEF, 0xBB, 0xBF, b'A', 0]), "\u{EF}\u{BB}\u{BF}A");
        assert_eq!(ansi(&[0xFF, 0xFE, b'A', 0]), "\u{FF}\u{FE}A");
    }

    #[test]
    fn compact_index_round_trips_known_encodings() {
        assert_eq!(index(&[0x00]).ok(), Some(0));
        assert_eq!(index(&[0x3f]).ok(), Some(63));
        assert_eq!(index(&[0x81]).ok(), Some(-1));
        assert_eq!(index(&[0x40, 0x01]).ok(), Some(64));
        assert_eq!(index(&[0x7f, 0xff, 0xff, 0xff, 0x0f]).ok(), Some(i32::MAX));
        assert_eq!(index(&[0xc0, 0x80, 0x80, 0x80, 0x10]).ok(), Some(i32::MIN));
    }

    #[test]
    fn compact_index_rejects_overflow_and_truncation() {
        let err = index(&[0x7f, 0xff, 0xff, 0xff, 0x20]).err().map(|e| e.to_string());
        assert_eq!(
            err.as_deref(),
            Some("test at byte 0: expected value as a compact index of at most 5 bytes within 32 bits, found fifth byte 0x20")
        );
        let err = index(&[0x40]).err().map(|e| e.to_string());
        assert_eq!(
            err.as_deref(),
            Some("test at byte 1: expected value (1 bytes), but the file ends after 0 more")
        );
    }
}
