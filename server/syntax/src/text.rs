//! Bytes to text, the way UnrealEd and UCC files really arrive: UTF-8 with or without a BOM,
//! UTF-16LE with a BOM (UnrealEd 2+ exports), and Windows-1252 for everything else.

use std::borrow::Cow;

/// The encoding a file was decoded from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SourceEncoding {
    Utf8,
    Utf8Bom,
    Utf16LeBom,
    Utf16BeBom,
    Windows1252,
}

impl SourceEncoding {
    pub fn name(self) -> &'static str {
        match self {
            SourceEncoding::Utf8 => "UTF-8",
            SourceEncoding::Utf8Bom => "UTF-8 with BOM",
            SourceEncoding::Utf16LeBom => "UTF-16LE",
            SourceEncoding::Utf16BeBom => "UTF-16BE",
            SourceEncoding::Windows1252 => "Windows-1252",
        }
    }
}

/// Decoded text. Spans produced by the parsers are byte offsets into `text`, which never
/// includes the BOM.
#[derive(Debug)]
pub struct DecodedText<'a> {
    pub text: Cow<'a, str>,
    pub encoding: SourceEncoding,
    /// True when UTF-16 input held unpaired surrogates that were replaced by U+FFFD.
    pub had_errors: bool,
}

/// Decodes file bytes. Never fails: invalid UTF-8 falls back to Windows-1252, which maps
/// every byte to a character, so text exported by old Windows tools keeps its accents.
pub fn decode(bytes: &[u8]) -> DecodedText<'_> {
    if let Some(rest) = bytes.strip_prefix(b"\xEF\xBB\xBF") {
        let (text, had_errors) = utf8_or_1252(rest);
        return DecodedText { text, encoding: SourceEncoding::Utf8Bom, had_errors };
    }
    if bytes.starts_with(b"\xFF\xFE") {
        let (text, _, had_errors) = encoding_rs::UTF_16LE.decode(bytes);
        return DecodedText { text, encoding: SourceEncoding::Utf16LeBom, had_errors };
    }
    if bytes.starts_with(b"\xFE\xFF") {
        let (text, _, had_errors) = encoding_rs::UTF_16BE.decode(bytes);
        return DecodedText { text, encoding: SourceEncoding::Utf16BeBom, had_errors };
    }
    let (text, had_errors) = utf8_or_1252(bytes);
    let encoding = if matches!(text, Cow::Borrowed(_)) {
        SourceEncoding::Utf8
    } else {
        SourceEncoding::Windows1252
    };
    DecodedText { text, encoding, had_errors }
}

/// Decodes file bytes it takes over, as [`decode`] does: UTF-8 (nearly every export) becomes
/// the text in the same buffer, without a copy, so a 200 MB map is in memory once.
pub fn decode_owned(mut bytes: Vec<u8>) -> (String, SourceEncoding) {
    if bytes.starts_with(b"\xFF\xFE") || bytes.starts_with(b"\xFE\xFF") {
        let decoded = decode(&bytes);
        return (decoded.text.into_owned(), decoded.encoding);
    }
    let bom = bytes.starts_with(b"\xEF\xBB\xBF");
    if bom {
        bytes.drain(..3);
    }
    match String::from_utf8(bytes) {
        Ok(text) => (text, if bom { SourceEncoding::Utf8Bom } else { SourceEncoding::Utf8 }),
        Err(err) => {
            let (text, _) = encoding_rs::WINDOWS_1252.decode_without_bom_handling(err.as_bytes());
            let encoding = if bom { SourceEncoding::Utf8Bom } else { SourceEncoding::Windows1252 };
            (text.into_owned(), encoding)
        }
    }
}

fn utf8_or_1252(bytes: &[u8]) -> (Cow<'_, str>, bool) {
    if let Ok(text) = std::str::from_utf8(bytes) {
        (Cow::Borrowed(text), false)
    } else {
        let (text, _) = encoding_rs::WINDOWS_1252.decode_without_bom_handling(bytes);
        (text, false)
    }
}

/// True when the bytes look like text rather than a binary file: no NUL bytes in the first
/// 8 KiB unless the file is UTF-16 with a BOM.
pub fn looks_like_text(bytes: &[u8]) -> bool {
    if bytes.starts_with(b"\xFF\xFE") || bytes.starts_with(b"\xFE\xFF") {
        return true;
    }
    let head = &bytes[..bytes.len().min(8192)];
    !head.contains(&0)
}

/// The start of the line holding `offset` (clamped to the text): just after the line feed
/// before it, or 0. Lines here are the parsers' lines, which a line feed ends (a CR before it
/// belongs to the line's end), the lines that `t3d::parse_range` and the incremental
/// document re-parse; the positions shown to people count a lone CR as a line break too
/// (the analysis crate's line index).
pub fn line_start(text: &str, offset: usize) -> usize {
    let offset = offset.min(text.len());
    memchr::memrchr(b'\n', text.as_bytes().get(..offset).unwrap_or_default()).map_or(0, |i| i + 1)
}

/// The offset just after the line feed that ends the line holding `offset` (clamped to the
/// text), or the text's end when no line feed follows. At a line start that is the end of
/// the line starting there; for the end of a span's last line, pass the span's last byte.
pub fn line_end_with_break(text: &str, offset: usize) -> usize {
    let offset = offset.min(text.len());
    memchr::memchr(b'\n', text.as_bytes().get(offset..).unwrap_or_default())
        .map_or(text.len(), |i| offset + i + 1)
}

/// Levenshtein distance between two names, in characters, for "did you mean" suggestions
/// (rule codes, keys, package objects).
pub fn edit_distance(a: &str, b: &str) -> usize {
    strsim::levenshtein(a, b)
}

/// The bytes of identifiers and numbers: ASCII letters, digits and `_`, as a table (the T3D
/// parser measures every line's first word with it, the `#exec` scanner every identifier).
pub(crate) const IDENT_BYTES: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 256 {
        table[b] = (b as u8).is_ascii_alphanumeric() || b == b'_' as usize;
        b += 1;
    }
    table
};

#[cfg(test)]
mod tests {

    #[test]
    fn edit_distance_over_bytes_and_characters() {
        assert_eq!(super::edit_distance("kitten", "sitting"), 3);
        assert_eq!(super::edit_distance("t3d-stray-lines", "t3d-stray-line"), 1);
        // One character, two bytes: counted as one edit.
        assert_eq!(super::edit_distance("Lumi\u{e8}re", "Lumiere"), 1);
        assert_eq!(super::edit_distance("", "abc"), 3);
    }

    use super::*;

    #[test]
    fn parser_lines_end_at_a_line_feed() {
        let text = "ab\r\ncd\re\nf";
        let starts: Vec<usize> = (0..=text.len() + 1).map(|i| line_start(text, i)).collect();
        assert_eq!(starts, [0, 0, 0, 0, 4, 4, 4, 4, 4, 9, 9, 9]);
        let ends: Vec<usize> = (0..=text.len() + 1).map(|i| line_end_with_break(text, i)).collect();
        assert_eq!(ends, [4, 4, 4, 4, 9, 9, 9, 9, 9, 10, 10, 10]);
        assert_eq!((line_start("", 3), line_end_with_break("", 3)), (0, 0));
    }

    #[test]
    fn decodes_every_encoding() {
        let cases: [(&[u8], &str, SourceEncoding); 5] = [
            (b"Begin Map\r\n", "Begin Map\r\n", SourceEncoding::Utf8),
            (b"\xEF\xBB\xBFBegin Map", "Begin Map", SourceEncoding::Utf8Bom),
            (b"\xFF\xFEB\x00e\x00", "Be", SourceEncoding::Utf16LeBom),
            (b"\xFE\xFF\x00B\x00e", "Be", SourceEncoding::Utf16BeBom),
            (b"Tag=\"Caf\xE9\"", "Tag=\"Caf\u{e9}\"", SourceEncoding::Windows1252),
        ];
        for (bytes, text, encoding) in cases {
            let decoded = decode(bytes);
            assert_eq!(decoded.text, text);
            assert_eq!(decoded.encoding, encoding);
        }
    }
}
