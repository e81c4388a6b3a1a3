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

/// Whether a line starts at byte `at`: after an LF, or after a CR that no LF follows. Lines
/// end at LF, CRLF or a lone CR, as the engines read them (`ParseLine` in Core's UnMisc.cpp,
/// UE1 and UE2, stops a line at CR or LF) and as the Language Server Protocol counts them.
pub fn is_line_start(bytes: &[u8], at: usize) -> bool {
    match at.checked_sub(1).and_then(|i| bytes.get(i)) {
        Some(b'\n') => true,
        Some(b'\r') => bytes.get(at) != Some(&b'\n'),
        _ => false,
    }
}

/// The starts of the lines that begin after a line break found in `bytes[from..to]`, in
/// order. Whether a CR at the range's end is a break of its own is read from the whole
/// text (the byte after it).
pub fn line_starts_in(bytes: &[u8], from: usize, to: usize) -> impl Iterator<Item = usize> + '_ {
    // A range beyond the text holds no line (`at..to` then reads nothing).
    let to = if to <= bytes.len() { to } else { 0 };
    LineStarts { bytes, at: from, to }
}

/// [`line_starts_in`]: one search a line. A CRLF is taken whole where its CR is found (a
/// search for the LF after it would cost its set-up once more on every line of a Windows
/// export).
struct LineStarts<'b> {
    bytes: &'b [u8],
    /// Where the next search starts.
    at: usize,
    to: usize,
}

impl Iterator for LineStarts<'_> {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        let found = self.at + memchr::memchr2(b'\n', b'\r', self.bytes.get(self.at..self.to)?)?;
        let mut next = found + 1;
        if self.bytes[found] == b'\r' && self.bytes.get(next) == Some(&b'\n') {
            // The CR of a CRLF: the line starts after the LF, when the LF is in the range.
            if next >= self.to {
                self.at = self.to;
                return None;
            }
            next += 1;
        }
        self.at = next;
        Some(next)
    }
}

/// The last line start in `from + 1..=to` (a start at `from` itself is not looked for), or
/// `None`.
pub fn last_line_start_in(bytes: &[u8], from: usize, to: usize) -> Option<usize> {
    let to = to.min(bytes.len());
    let mut end = to;
    while end > from {
        let found = from + memchr::memrchr2(b'\n', b'\r', bytes.get(from..end)?)?;
        if is_line_start(bytes, found + 1) {
            return Some(found + 1);
        }
        end = found;
    }
    None
}

/// The lines of a text without their breaks, ending where [`is_line_start`] says: what
/// `str::lines` gives for LF and CRLF, with a lone CR a break too. No empty line follows a
/// final break.
pub fn lines(text: &str) -> impl Iterator<Item = &str> + '_ {
    let bytes = text.as_bytes();
    let mut start = 0;
    let next_starts = line_starts_in(bytes, 0, bytes.len()).map(Some).chain([None]);
    next_starts.map_while(move |next| {
        let line_start = start;
        let end = match next {
            Some(next) => {
                start = next;
                // Less the break: LF, CRLF or CR.
                if bytes[next - 1] == b'\n' && next - 1 > line_start && bytes[next - 2] == b'\r' {
                    next - 2
                } else {
                    next - 1
                }
            }
            None if line_start < bytes.len() => {
                start = bytes.len();
                bytes.len()
            }
            None => return None,
        };
        text.get(line_start..end)
    })
}

/// The start of the line holding `offset` (clamped to the text): just after the line break
/// before it, or 0. Inside a CRLF the line is the one the pair ends.
pub fn line_start(text: &str, offset: usize) -> usize {
    let offset = offset.min(text.len());
    last_line_start_in(text.as_bytes(), 0, offset).unwrap_or(0)
}

/// The offset just after the line break that ends the line holding `offset` (clamped to the
/// text), or the text's end when no break follows. At a line start that is the end of the
/// line starting there; for the end of a span's last line, pass the span's last byte.
pub fn line_end_with_break(text: &str, offset: usize) -> usize {
    let offset = offset.min(text.len());
    line_starts_in(text.as_bytes(), offset, text.len()).next().unwrap_or(text.len())
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
    use super::*;

    /// The line starts found one search a line are those of every break found on its own
    /// and kept where [`is_line_start`] says, for every range of texts made of the bytes
    /// that matter (CRs and LFs in every order, at the ends of ranges too).
    #[test]
    fn line_starts_one_search_a_line_are_every_break_filtered() {
        fn reference(bytes: &[u8], from: usize, to: usize) -> Vec<usize> {
            let Some(range) = bytes.get(from..to) else { return Vec::new() };
            range
                .iter()
                .enumerate()
                .filter(|(_, b)| matches!(b, b'\n' | b'\r'))
                .map(|(i, _)| from + i + 1)
                .filter(|&next| is_line_start(bytes, next))
                .collect()
        }
        let alphabet = [b'a', b'\r', b'\n'];
        for len in 0..=7usize {
            for code in 0..3usize.pow(len as u32) {
                let bytes: Vec<u8> =
                    (0..len).map(|i| alphabet[code / 3usize.pow(i as u32) % 3]).collect();
                for from in 0..=len + 1 {
                    for to in 0..=len + 1 {
                        let found: Vec<usize> = line_starts_in(&bytes, from, to).collect();
                        assert_eq!(found, reference(&bytes, from, to), "{bytes:?} {from}..{to}");
                    }
                }
            }
        }
    }

    #[test]
    fn edit_distance_over_bytes_and_characters() {
        assert_eq!(super::edit_distance("kitten", "sitting"), 3);
        assert_eq!(super::edit_distance("t3d-stray-lines", "t3d-stray-line"), 1);
        // One character, two bytes: counted as one edit.
        assert_eq!(super::edit_distance("Lumi\u{e8}re", "Lumiere"), 1);
        assert_eq!(super::edit_distance("", "abc"), 3);
    }

    #[test]
    fn lines_end_at_lf_crlf_and_a_lone_cr() {
        let text = "ab\r\ncd\re\nf";
        let starts: Vec<usize> = (0..=text.len() + 1).map(|i| line_start(text, i)).collect();
        assert_eq!(starts, [0, 0, 0, 0, 4, 4, 4, 7, 7, 9, 9, 9]);
        let ends: Vec<usize> = (0..=text.len() + 1).map(|i| line_end_with_break(text, i)).collect();
        assert_eq!(ends, [4, 4, 4, 4, 7, 7, 7, 9, 9, 10, 10, 10]);
        // Two lone CRs make an empty line between them; CR CR LF ends two lines.
        let starts: Vec<usize> = line_starts_in(b"a\r\rb\r\r\nc", 0, 8).collect();
        assert_eq!(starts, [2, 3, 5, 7]);
        assert_eq!(last_line_start_in(b"a\r\rb\r\r\nc", 0, 6), Some(5));
        assert_eq!(last_line_start_in(b"a\r\rb\r\r\nc", 3, 3), None);
        let all: Vec<&str> = lines("a\r\rb\r\r\nc\nd\r\n").collect();
        assert_eq!(all, ["a", "", "b", "", "c", "d"]);
        assert_eq!(lines("x\r").collect::<Vec<_>>(), ["x"]);
        assert_eq!(lines("").count(), 0);
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
