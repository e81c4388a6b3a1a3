//! A bounds-checked little-endian cursor over a byte slice. Every read names the field it
//! reads, so that a failure says which structure, where, and what was expected. The
//! primitives are nom's complete little-endian parsers; the cursor adds positions and
//! errors that carry the absolute file offset.

use nom::number::complete::{le_f32, le_i32, le_u16, le_u32, le_u64};
use nom::IResult;

use crate::error::{Error, Result};

#[derive(Clone)]
pub struct Reader<'a> {
    data: &'a [u8],
    pos: usize,
    structure: String,
}

impl<'a> Reader<'a> {
    /// A cursor at `pos` of `data`; errors name `structure`.
    pub fn new(data: &'a [u8], pos: usize, structure: impl Into<String>) -> Self {
        Self { data, pos, structure: structure.into() }
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

    pub fn set_structure(&mut self, structure: impl Into<String>) {
        self.structure = structure.into();
    }

    pub fn structure(&self) -> &str {
        &self.structure
    }

    /// An error at the current position.
    pub fn error(&self, expected: impl Into<String>) -> Error {
        Error::new(self.structure.clone(), self.pos, expected)
    }

    /// An error at an explicit position.
    pub fn error_at(&self, pos: usize, expected: impl Into<String>) -> Error {
        Error::new(self.structure.clone(), pos, expected)
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
pub fn ansi(bytes: &[u8]) -> String {
    let trimmed = match bytes.iter().position(|&b| b == 0) {
        Some(end) => &bytes[..end],
        None => bytes,
    };
    let (text, _, _) = encoding_rs::WINDOWS_1252.decode(trimmed);
    text.into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn index(bytes: &[u8]) -> Result<i32> {
        Reader::new(bytes, 0, "test").compact_index("value")
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
