//! nom parsers for what stands inside a T3D line: numbers, vectors, `Key=Value` attributes and
//! property values with nested structs, quoted strings and object references.
//!
//! Every parser works on a `&str` slice of the document and reports spans as offsets into the
//! document, so callers pass the slice together with its absolute start.

use nom::branch::alt;
use nom::character::complete::{char, digit1, space0};
use nom::{IResult, Parser};

use super::ast::{Field, Value};
use crate::Span;

/// Structs nested deeper than this are kept as raw text: real values nest at most 4 deep, and
/// the limit keeps hostile input from exhausting the stack.
const MAX_STRUCT_DEPTH: usize = 32;

/// The characters of identifiers: what the byte table `IDENT_BYTES` the scanners use
/// accepts (tests hold the two to each other).
#[cfg(test)]
pub(crate) fn is_ident_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// The number of spaces and tabs at the start of `bytes`.
pub(crate) fn blanks(bytes: &[u8]) -> usize {
    let is_blank = |b: &&u8| matches!(b, b' ' | b'\t');
    if !bytes.first().is_some_and(|b| is_blank(&b)) {
        return 0;
    }
    // Spaces eight at a time: the lines of a map's polygons are indented 12 to 15 of them.
    // Where a word holds something else, byte by byte from its first (tabs, mixed blanks).
    let mut count = 0;
    while let Some(chunk) = bytes.get(count..count + 8).and_then(|c| <[u8; 8]>::try_from(c).ok()) {
        let other = !zero_bytes(u64::from_le_bytes(chunk) ^ u64::from_ne_bytes([b' '; 8]));
        let other = other & HIGH_BITS;
        if other != 0 {
            // Little-endian: the lowest byte is the first.
            count += (other.trailing_zeros() / 8) as usize;
            break;
        }
        count += 8;
    }
    count + bytes[count..].iter().take_while(is_blank).count()
}

const HIGH_BITS: u64 = 0x8080_8080_8080_8080;

/// Eight ASCII zeros.
const ZEROS: u64 = u64::from_ne_bytes([b'0'; 8]);

/// The high bit of each byte of `word` that is zero, and no other bit (exact for every byte,
/// unlike the shorter test for "some byte is zero").
fn zero_bytes(word: u64) -> u64 {
    const LOW_SEVEN: u64 = !HIGH_BITS;
    !(((word & LOW_SEVEN) + LOW_SEVEN) | word | LOW_SEVEN)
}

pub(crate) fn ident(input: &str) -> IResult<&str, &str> {
    // One table look-up a byte: every identifier character is ASCII (a byte of a longer
    // character is none), so the length is a character boundary.
    let len = ident_bytes(input.as_bytes());
    if len == 0 {
        return Err(nom::Err::Error(nom::error::Error::new(
            input,
            nom::error::ErrorKind::TakeWhile1,
        )));
    }
    Ok((&input[len..], &input[..len]))
}

/// The length of the identifier ([`is_ident_char`]) at the start of `bytes`.
pub(crate) fn ident_bytes(bytes: &[u8]) -> usize {
    bytes.iter().take_while(|&&b| crate::text::IDENT_BYTES[usize::from(b)]).count()
}

/// The length of the text before the first space or tab (all of it when there is none).
fn until_blank(bytes: &[u8]) -> usize {
    memchr::memchr2(b' ', b'\t', bytes).unwrap_or(bytes.len())
}

/// A decimal number as UnrealEd writes and reads it: optional sign, digits with an optional
/// fraction, optional exponent. At least one digit is required.
pub(crate) fn number_text(input: &str) -> IResult<&str, &str> {
    let bytes = input.as_bytes();
    let digits_from = |mut i: usize| {
        while bytes.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        i
    };
    let mut i = usize::from(matches!(bytes.first(), Some(b'+' | b'-')));
    let int_end = digits_from(i);
    let mut digits = int_end - i;
    i = int_end;
    if bytes.get(i) == Some(&b'.') {
        let frac_end = digits_from(i + 1);
        digits += frac_end - (i + 1);
        i = frac_end;
    }
    if digits == 0 {
        return Err(nom::Err::Error(nom::error::Error::new(input, nom::error::ErrorKind::Digit)));
    }
    if matches!(bytes.get(i), Some(b'e' | b'E')) {
        let mut j = i + 1;
        if matches!(bytes.get(j), Some(b'+' | b'-')) {
            j += 1;
        }
        let exp_end = digits_from(j);
        if exp_end > j {
            i = exp_end;
        }
    }
    Ok((&input[i..], &input[..i]))
}

/// Exact powers of ten: every one up to 10^22 is a double without rounding.
const POW10: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

/// `[+-]digits[.digits]` with at most 15 significant digits, read in one pass: the digits as
/// an integer `m` (exact below 2^53) divided by `10^k` (exact up to 10^22), which IEEE
/// division rounds once, so the result is the correctly rounded value `str::parse` gives
/// (Clinger's fast path). Every number UnrealEd writes (`%+013.6f`) takes this path;
/// `None` sends anything else (an exponent, more digits, a stray character) to the full
/// parser.
fn fast_number(token: &[u8]) -> Option<f64> {
    fast_number_prefix(token).and_then(|(value, used)| (used == token.len()).then_some(value))
}

/// [`fast_number`] of the longest `[+-]digits[.digits]` at the start of `bytes`, and how many
/// bytes it took; `None` when there is none or it is too long for the fast path.
#[inline]
fn fast_number_prefix(bytes: &[u8]) -> Option<(f64, usize)> {
    if let Some(found) = unreal_ed_number(bytes) {
        return Some(found);
    }
    let (negative, start) = match bytes.first() {
        Some(b'-') => (true, 1),
        Some(b'+') => (false, 1),
        _ => (false, 0),
    };
    let mut mantissa: u64 = 0;
    let mut point = None;
    let mut end = start;
    while let Some(&byte) = bytes.get(end) {
        let digit = byte.wrapping_sub(b'0');
        if digit < 10 {
            // Wraps only past 19 digits, which are refused below.
            mantissa = mantissa.wrapping_mul(10).wrapping_add(u64::from(digit));
        } else if byte == b'.' && point.is_none() {
            point = Some(end);
        } else {
            break;
        }
        end += 1;
    }
    // 19 digits at most (the mantissa did not wrap), of which 15 significant at most: the
    // mantissa and the scale are exact doubles.
    let used = end - start;
    if used > 19 || used == usize::from(point.is_some()) || mantissa > 999_999_999_999_999 {
        return None;
    }
    let fraction = point.map_or(0, |p| end - p - 1);
    let value = mantissa as f64 / *POW10.get(fraction)?;
    Some((if negative { -value } else { value }, end))
}

/// The shape UnrealEd writes every vertex, origin and axis in (`%+013.6f`: a sign, five
/// digits, a point, six digits, as in `-00512.000000`), read without a loop; `None` for any
/// other text, which [`fast_number_prefix`] then reads byte by byte (to the same value: the
/// eleven digits as an integer, divided once by 10^6).
fn unreal_ed_number(bytes: &[u8]) -> Option<(f64, usize)> {
    let (number, rest) = bytes.split_first_chunk::<13>()?;
    let negative = match number[0] {
        b'-' => true,
        b'+' => false,
        _ => return None,
    };
    if number[6] != b'.' || rest.first().is_some_and(u8::is_ascii_digit) {
        return None;
    }
    // Two words of eight digits each, read at once: `0ddddd00` (the sign, the point and the
    // first decimal put to '0') is the whole part times 100, `00dddddd` (the fifth digit and
    // the point put to '0') the decimals.
    let word = |at: usize| u64::from_le_bytes(number[at..at + 8].try_into().unwrap_or_default());
    let whole = (word(0) & 0x0000_FFFF_FFFF_FF00) | (ZEROS & !0x0000_FFFF_FFFF_FF00);
    let decimals = (word(5) & 0xFFFF_FFFF_FFFF_0000) | (ZEROS & 0xFFFF);
    let (Some(whole), Some(decimals)) = (eight_digits(whole), eight_digits(decimals)) else {
        return None;
    };
    let mantissa = whole * 10_000 + decimals;
    let value = mantissa as f64 / 1e6;
    Some((if negative { -value } else { value }, 13))
}

/// The number eight ASCII digits spell, the first byte (the lowest, read little-endian) the
/// most significant; `None` when a byte is not a digit.
fn eight_digits(word: u64) -> Option<u64> {
    // Each byte minus '0' is below 10 exactly when the byte is a digit: no byte borrows
    // (all are at least '0') and adding 6 carries into no high nibble.
    if (word & 0xF0F0_F0F0_F0F0_F0F0) != 0x3030_3030_3030_3030
        || ((word.wrapping_add(0x0606_0606_0606_0606)) & 0xF0F0_F0F0_F0F0_F0F0)
            != 0x3030_3030_3030_3030
    {
        return None;
    }
    let digits = word - ZEROS;
    // Pairs, then quads, then the eight: 10, 100 and 10,000 times the more significant half.
    let pairs = (digits * 10 + (digits >> 8)) & 0x00FF_00FF_00FF_00FF;
    let quads = (pairs * 100 + (pairs >> 16)) & 0x0000_FFFF_0000_FFFF;
    Some((quads.wrapping_mul(10_000) + (quads >> 32)) & 0xFFFF_FFFF)
}

/// Parses a whole token as a number; `None` when any of it is not part of the number.
pub fn parse_number(token: &str) -> Option<f64> {
    if let Some(value) = fast_number(token.as_bytes()) {
        return Some(value);
    }
    match number_text(token) {
        Ok(("", text)) => text.parse::<f64>().ok(),
        _ => None,
    }
}

/// Parses `Flags=` values: UnrealEd writes them with `%i`, so bit 31 prints negative; both
/// the signed and the unsigned spelling of the same 32 bits are accepted.
pub fn parse_flags(token: &str) -> Option<u32> {
    let token = token.strip_prefix('+').unwrap_or(token);
    if let Ok(v) = token.parse::<u32>() {
        return Some(v);
    }
    token.parse::<i32>().ok().map(|v| v as u32)
}

/// Parses an integer token (`Link=`, `Pan U=`, array indices).
pub fn parse_int(token: &str) -> Option<i64> {
    token.strip_prefix('+').unwrap_or(token).parse::<i64>().ok()
}

/// What C's `atof` reads from `token`, as the engine's `appAtof` does: blanks skipped, then the
/// longest leading number; 0 when no number starts the text. Returns the value and how many
/// bytes were used (0 when none).
pub fn leading_number(token: &str) -> (f64, usize) {
    let trimmed = token.trim_start_matches([' ', '\t']);
    let skipped = token.len() - trimmed.len();
    match number_text(trimmed) {
        Ok((_, text)) => (text.parse::<f64>().unwrap_or(0.0), skipped + text.len()),
        Err(_) => (0.0, 0),
    }
}

/// A number written back for people, without UnrealEd's padding: `96`, `0.25`, at most the
/// six decimals UnrealEd prints.
pub fn show_number(value: f64) -> String {
    if value.fract() == 0.0 && value.abs() < 1e15 {
        format!("{}", value as i64)
    } else {
        let text = format!("{value:.6}");
        text.trim_end_matches('0').trim_end_matches('.').to_owned()
    }
}

/// What C's `atoi` (and `strtoul` for flags) reads from `token`: blanks skipped, an optional
/// sign, then decimal digits; 0 when none. Returns the value and the bytes used.
pub fn leading_int(token: &str) -> (i64, usize) {
    let trimmed = token.trim_start_matches([' ', '\t']);
    let skipped = token.len() - trimmed.len();
    let bytes = trimmed.as_bytes();
    let sign_len = usize::from(matches!(bytes.first(), Some(b'+' | b'-')));
    let digits = bytes[sign_len..].iter().take_while(|b| b.is_ascii_digit()).count();
    if digits == 0 {
        return (0, 0);
    }
    let magnitude = trimmed[sign_len..sign_len + digits]
        .bytes()
        .fold(0i64, |acc, d| acc.saturating_mul(10).saturating_add(i64::from(d - b'0')));
    let value = if bytes.first() == Some(&b'-') { -magnitude } else { magnitude };
    (value, skipped + sign_len + digits)
}

/// A vector as the engine's `GetFVECTOR` (`Editor/Src/UnParams.cpp`) reads it: `atof` of the
/// text, then of the text after the next comma, twice. `None` when a comma is missing (the
/// engine then leaves components unset).
pub(crate) fn engine_vector(input: &str) -> Option<[f64; 3]> {
    let x = leading_number(input).0;
    let after_x = &input[input.find(',')? + 1..];
    let y = leading_number(after_x).0;
    let after_y = &after_x[after_x.find(',')? + 1..];
    let z = leading_number(after_y).0;
    Some([x, y, z])
}

/// The old form of a vector, `X=1 Y=2 Z=3`, which `GetFVECTOR` tries before the commas
/// (UT v400 and UT2004 `Editor/Src/UnParams.cpp:29-33`, "Support for old format"): each
/// component from the first `X=`, `Y=`, `Z=` anywhere in the text (`Parse`, which looks the key
/// up ignoring case, then `appAtof`), one missing left 0. `None` when the text names none of
/// them, the commas' turn.
pub(crate) fn keyed_vector(input: &str) -> Option<[f64; 3]> {
    let bytes = input.as_bytes();
    memchr::memchr(b'=', bytes)?;
    let mut out = [0.0; 3];
    let mut found = false;
    for (slot, key) in out.iter_mut().zip([b'X', b'Y', b'Z']) {
        let at = bytes.windows(2).position(|w| w[0].eq_ignore_ascii_case(&key) && w[1] == b'=');
        if let Some(at) = at {
            *slot = leading_number(&input[at + 2..]).0;
            found = true;
        }
    }
    found.then_some(out)
}

/// How Microsoft's C library prints a float that is not a finite number (`1.#INF00`,
/// `-1.#IND00`, `1.#QNAN0`, `-1.#SNAN0`): UnrealEd writes these itself for infinities and NaNs
/// (unused terrain layers' matrices in shipped UT2004 and Unreal II maps), and `atof` reads
/// them back as the leading `1`. What the editor wrote, not a slip of the pen.
pub(crate) fn msvc_non_finite(token: &str) -> bool {
    let unsigned = token.strip_prefix(['+', '-']).unwrap_or(token);
    let Some(rest) = unsigned.strip_prefix("1.#") else { return false };
    let word_len = rest.bytes().take_while(u8::is_ascii_alphabetic).count();
    let (word, digits) = rest.split_at(word_len);
    ["INF", "IND", "QNAN", "SNAN"].iter().any(|w| w.eq_ignore_ascii_case(word))
        && digits.bytes().all(|b| b.is_ascii_digit())
}

/// `X,Y,Z` with optional spaces around the commas. Returns the three numbers and the
/// length of text consumed, or the byte offset (within `input`) of the first bad component.
pub(crate) fn vector(input: &str) -> Result<([f64; 3], usize), usize> {
    let bytes = input.as_bytes();
    let blanks_from = |i: usize| i + blanks(bytes.get(i..).unwrap_or_default());
    let mut out = [0.0; 3];
    let mut at = 0;
    for (i, slot) in out.iter_mut().enumerate() {
        if i > 0 {
            let comma = blanks_from(at);
            if bytes.get(comma) != Some(&b',') {
                return Err(at);
            }
            at = blanks_from(comma + 1);
        }
        let rest = bytes.get(at..).unwrap_or_default();
        // The number as UnrealEd writes it, read in the same pass that finds its end.
        if let Some((value, used)) = fast_number_prefix(rest) {
            if matches!(rest.get(used), None | Some(b',' | b' ' | b'\t')) {
                *slot = value;
                at += used;
                continue;
            }
        }
        let token_len =
            rest.iter().position(|b| matches!(b, b',' | b' ' | b'\t')).unwrap_or(rest.len());
        // The token ends at an ASCII byte (or the end), so it is whole characters.
        let token = input.get(at..at + token_len).ok_or(at)?;
        *slot = match parse_number(token) {
            Some(value) => value,
            None if unreal_ed_negative_zero(token) => 0.0,
            None => return Err(at),
        };
        at += token_len;
    }
    Ok((out, at))
}

/// UnrealEd's own spelling of a vector component just below zero: `+000-0.000000`, the
/// padding's sign and zeros and then the negative zero they stand for (Epic's DM-Deck16][
/// export holds it 559 times). `atof` reads the `+000` and stops: 0, which is what it says.
fn unreal_ed_negative_zero(token: &str) -> bool {
    let Some(padded) = token.strip_prefix(['+', '-']) else { return false };
    let after_zeros = padded.trim_start_matches('0');
    let Some(zero) = after_zeros.strip_prefix('-') else { return false };
    after_zeros.len() < padded.len()
        && zero.starts_with('0')
        && zero.bytes().all(|b| b == b'0' || b == b'.')
        && zero.bytes().filter(|&b| b == b'.').count() <= 1
}

/// A quoted string with `\"` and `\\` escapes; returns the text including both quotes, or
/// `None` when the closing quote is missing.
fn quoted(input: &str) -> IResult<&str, &str> {
    let (after_open, _) = char('"').parse(input)?;
    // Byte by byte: `\\` and `"` are ASCII and never part of a longer character.
    let bytes = after_open.as_bytes();
    let mut i = 0;
    while let Some(found) = memchr::memchr2(b'\\', b'"', &bytes[i..]) {
        let at = i + found;
        if bytes[at] == b'"' {
            let end = 1 + at + 1;
            return Ok((&input[end..], &input[..end]));
        }
        // An escape takes the byte after it, whatever it is.
        i = at + 2;
        if i >= bytes.len() {
            break;
        }
    }
    Err(nom::Err::Error(nom::error::Error::new(input, nom::error::ErrorKind::Char)))
}

/// A token on a `Begin` line or in a keyword line's arguments: a quoted string or a run of
/// characters up to whitespace.
pub(crate) fn attribute_value(input: &str) -> (&str, &str) {
    if let Ok(done) = quoted(input) {
        return done;
    }
    let len = until_blank(input.as_bytes());
    (&input[len..], &input[..len])
}

/// `(3)` or `[3]` after a property name: returns the digits.
pub(crate) fn array_index(input: &str) -> IResult<&str, &str> {
    // Almost every property has no index: one byte tells.
    if !input.starts_with(['(', '[']) {
        return Err(nom::Err::Error(nom::error::Error::new(input, nom::error::ErrorKind::Char)));
    }
    alt((
        (char('('), space0, digit1, space0, char(')')).map(|(_, _, d, _, _)| d),
        (char('['), space0, digit1, space0, char(']')).map(|(_, _, d, _, _)| d),
    ))
    .parse(input)
}

/// `Class'Package.Group.Name'`: returns (class, path).
fn object_ref(input: &str) -> IResult<&str, (&str, &str)> {
    let (rest, class) = ident(input)?;
    let fail = || nom::Err::Error(nom::error::Error::new(rest, nom::error::ErrorKind::Tag));
    let inside = rest.strip_prefix('\'').ok_or_else(fail)?;
    let len = memchr::memchr2(b'\'', b'\n', inside.as_bytes()).unwrap_or(inside.len());
    let (path, after) = inside.split_at(len);
    let rest = after.strip_prefix('\'').ok_or_else(fail)?;
    Ok((rest, (class, path)))
}

/// A bad number inside a value where the engine expects one.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct BadNumber {
    pub span: Span,
    /// `Pitch`/`Yaw`/`Roll` are integers (`atoi`), `X`/`Y`/`Z` floats (`atof`).
    pub integer: bool,
}

/// Parses property values. `base` is the absolute offset of the start of `line`.
pub(crate) struct ValueParser<'t> {
    pub line: &'t str,
    pub base: u32,
    pub bad_numbers: Vec<BadNumber>,
}

/// Field names whose values UnrealEd always reads as numbers (vectors and rotators).
const NUMERIC_FIELDS: [&str; 6] = ["X", "Y", "Z", "Pitch", "Yaw", "Roll"];

impl<'t> ValueParser<'t> {
    fn span(&self, rest_before: &str, rest_after: &str) -> Span {
        let start = self.line.len() - rest_before.len();
        let end = self.line.len() - rest_after.len();
        Span::new(self.base + start as u32, self.base + end as u32)
    }

    /// A top-level property value: everything up to the end of the line. Text after a
    /// complete value turns the whole value into [`Value::Raw`].
    pub(crate) fn top_value(&mut self, input: &'t str) -> Value {
        let trimmed_len = input.trim_end_matches([' ', '\t']).len();
        let input = &input[..trimmed_len];
        if input.is_empty() {
            return Value::Empty { span: self.span(input, input) };
        }
        let (rest, value) = self.value(input, 0, false);
        if rest.trim().is_empty() {
            value
        } else {
            Value::Raw { span: self.span(input, "") }
        }
    }

    /// One value. Inside a struct (`nested`), bare values stop at `,` and `)`.
    fn value(&mut self, input: &'t str, depth: usize, nested: bool) -> (&'t str, Value) {
        if let Some(after_paren) = input.strip_prefix('(') {
            if depth < MAX_STRUCT_DEPTH {
                if let Some((rest, fields)) = self.fields(after_paren, depth + 1) {
                    return (rest, Value::Struct { span: self.span(input, rest), fields });
                }
            }
            let rest = skip_balanced(input);
            return (rest, Value::Raw { span: self.span(input, rest) });
        }
        // A bare value's text: up to the end (inside a struct, up to `,` or `)`), without
        // trailing blanks.
        let bare = |input: &'t str| {
            // `,` and `)` are ASCII: a byte search finds them at character boundaries.
            let len = if nested {
                memchr::memchr2(b',', b')', input.as_bytes()).unwrap_or(input.len())
            } else {
                input.len()
            };
            input[..len].trim_end_matches([' ', '\t'])
        };
        // Numbers first, cheaply: most values of a map are numbers, and a token that reads
        // whole as one cannot be a string or an object reference (neither starts with a
        // digit, sign or point and ends without a quote).
        if input.starts_with(|c: char| c.is_ascii_digit() || matches!(c, '+' | '-' | '.')) {
            let token = bare(input);
            if let Some(value) = parse_number(token) {
                let rest = &input[token.len()..];
                return (rest, Value::Number { span: self.span(input, rest), value });
            }
        }
        if let Ok((rest, _)) = quoted(input) {
            return (rest, Value::String { span: self.span(input, rest) });
        }
        if let Ok((rest, (class, path))) = object_ref(input) {
            let class_span = self.span(input, &input[class.len()..]);
            let path_start = class.len() + 1;
            let path_span = self.span(&input[path_start..], &input[path_start + path.len()..]);
            return (
                rest,
                Value::ObjectRef {
                    span: self.span(input, rest),
                    class: class_span,
                    path: path_span,
                },
            );
        }
        let token = bare(input);
        let rest = &input[token.len()..];
        let span = self.span(input, rest);
        if token.is_empty() {
            return (rest, Value::Empty { span });
        }
        if let Some(value) = parse_number(token) {
            return (rest, Value::Number { span, value });
        }
        // Byte by byte: every accepted character is ASCII, and no byte of a longer one is.
        if token.bytes().all(|b| crate::text::IDENT_BYTES[usize::from(b)] || b == b'.' || b == b'-')
        {
            return (rest, Value::Word { span });
        }
        (rest, Value::Raw { span })
    }

    /// Fields after `(` up to and including `)`. `None` when the struct is not closed on the
    /// line.
    fn fields(&mut self, mut input: &'t str, depth: usize) -> Option<(&'t str, Vec<Field>)> {
        let mut fields = Vec::new();
        loop {
            input = input.trim_start_matches([' ', '\t']);
            if let Some(rest) = input.strip_prefix(')') {
                return Some((rest, fields));
            }
            if input.is_empty() {
                return None;
            }
            let (key, index, after_key) = self.field_key(input);
            let (rest, value) = self.value(after_key, depth, true);
            if let (Some(key), Value::Word { span } | Value::Raw { span } | Value::Empty { span }) =
                (key, &value)
            {
                let name = key.text_in(self);
                if NUMERIC_FIELDS.iter().any(|n| n.eq_ignore_ascii_case(name))
                    && !msvc_non_finite(span.text_in(self))
                {
                    let integer = !["X", "Y", "Z"].iter().any(|n| n.eq_ignore_ascii_case(name));
                    self.bad_numbers.push(BadNumber { span: *span, integer });
                }
            }
            fields.push(Field { key, index, value });
            input = rest.trim_start_matches([' ', '\t']);
            if let Some(rest) = input.strip_prefix(',') {
                input = rest;
            } else if !input.starts_with(')') {
                // Junk after a value: give up on this struct; the caller keeps it raw.
                return None;
            }
        }
    }

    /// `Name=`, `Name(2)=` or nothing (an unnamed list element).
    fn field_key(&self, input: &'t str) -> (Option<Span>, Option<(Span, u32)>, &'t str) {
        let Ok((after_name, name)) = ident(input) else {
            return (None, None, input);
        };
        let (after_index, index) = match array_index(after_name) {
            Ok((rest, digits)) => {
                let digits_start = after_name.find(|c: char| c.is_ascii_digit()).unwrap_or(0);
                let digits_rest = &after_name[digits_start + digits.len()..];
                let span = self.span(&after_name[digits_start..], digits_rest);
                (rest, digits.parse::<u32>().ok().map(|v| (span, v)))
            }
            Err(_) => (after_name, None),
        };
        match after_index.strip_prefix('=') {
            Some(rest) => {
                let key = self.span(input, &input[name.len()..]);
                (Some(key), index, rest)
            }
            None => (None, None, input),
        }
    }
}

trait TextIn {
    fn text_in<'t>(&self, parser: &ValueParser<'t>) -> &'t str;
}

impl TextIn for Span {
    fn text_in<'t>(&self, parser: &ValueParser<'t>) -> &'t str {
        let start = (self.start - parser.base) as usize;
        let end = (self.end - parser.base) as usize;
        parser.line.get(start..end).unwrap_or("")
    }
}

/// Skips a parenthesised group, respecting nesting and quotes; stops at the end of the line
/// when it is never closed.
fn skip_balanced(input: &str) -> &str {
    let mut depth = 0usize;
    let mut in_quotes = false;
    for (i, c) in input.char_indices() {
        match c {
            '"' => in_quotes = !in_quotes,
            '(' if !in_quotes => depth += 1,
            ')' if !in_quotes => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return &input[i + 1..];
                }
            }
            _ => {}
        }
    }
    ""
}

#[cfg(test)]
mod tests {
    use super::*;

    /// UnrealEd's shape read without a loop gives what the byte-by-byte reading gives (and
    /// what `str::parse` gives), and nothing for look-alikes.
    #[test]
    fn unreal_ed_numbers_read_as_the_general_path_reads_them() {
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        for _ in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let value = (x % 200_000_000_000) as f64 / 1e6 - 100_000.0;
            let text = format!("{value:+013.6}");
            let general = text.parse::<f64>().unwrap();
            match unreal_ed_number(text.as_bytes()) {
                Some((read, used)) => {
                    assert_eq!((read.to_bits(), used), (general.to_bits(), 13), "{text}");
                }
                None => assert!(text.len() != 13, "{text}"),
            }
            let (read, used) = fast_number_prefix(text.as_bytes()).unwrap();
            assert_eq!((read.to_bits(), used), (general.to_bits(), text.len()), "{text}");
        }
        for other in
            ["+00512.0000001", "00512.0000000", "+00512,000000", "+0051a.000000", "+00512.00000"]
        {
            assert_eq!(unreal_ed_number(other.as_bytes()), None, "{other}");
        }
        // Any byte that is not a digit, in any digit's place, sends the number to the
        // general path (which reads it as `str::parse` would, or refuses it).
        for place in [1, 2, 3, 4, 5, 7, 8, 9, 10, 11, 12] {
            for byte in (0..=255u8).filter(|b| !b.is_ascii_digit()) {
                let mut text = *b"-01234.567890";
                text[place] = byte;
                assert_eq!(unreal_ed_number(&text), None, "{text:?}");
            }
        }
        assert_eq!(unreal_ed_number(b"-99999.999999"), Some((-99_999.999_999, 13)));
        assert_eq!(unreal_ed_number(b"+00000.000001"), Some((0.000_001, 13)));
        // A number that goes on is not cut at 13 bytes.
        assert_eq!(fast_number_prefix(b"+00512.0000001"), Some((512.000_000_1, 14)));
    }

    /// The blanks counted eight bytes at a time are those counted one at a time, wherever the
    /// first other byte stands (every byte value tried there, after blanks of both kinds).
    #[test]
    fn blanks_in_words_equal_blanks_byte_by_byte() {
        for lead in 0..20usize {
            for other in 0..=255u8 {
                for tail in [0usize, 1, 9] {
                    let mut bytes: Vec<u8> =
                        (0..lead).map(|i| if i % 3 == 1 { b'\t' } else { b' ' }).collect();
                    bytes.push(other);
                    bytes.extend(std::iter::repeat_n(b' ', tail));
                    let expected = bytes.iter().take_while(|b| matches!(b, b' ' | b'\t')).count();
                    assert_eq!(blanks(&bytes), expected, "{bytes:?}");
                }
            }
            let only: Vec<u8> = vec![b' '; lead];
            assert_eq!(blanks(&only), lead);
        }
    }

    /// The byte scanners stop where the character scanners they replace stopped, also
    /// around characters longer than a byte.
    #[test]
    fn byte_scanners_stop_at_character_boundaries() {
        assert_eq!(quoted(r#""a\"é" tail"#), Ok((" tail", r#""a\"é""#)));
        assert_eq!(quoted(r#""a\\"b" tail"#), Ok((r#"b" tail"#, r#""a\\""#)));
        assert_eq!(quoted(r#""\é\"x" y"#), Ok((" y", r#""\é\"x""#)));
        assert!(quoted(r#""never closed \"#).is_err());
        assert_eq!(attribute_value("Café=1 Next=2"), (" Next=2", "Café=1"));
        assert_eq!(attribute_value("\"a b\" c"), (" c", "\"a b\""));
        assert_eq!(object_ref("Texture'Pkg.Grp.Ü'rest"), Ok(("rest", ("Texture", "Pkg.Grp.Ü"))));
        assert!(object_ref("Texture'never closed").is_err());
        assert!(object_ref("Tex\u{e9}ture'x'").is_err_and(|_| true));
        assert_eq!(ident("Name_1é"), Ok(("é", "Name_1")));
        assert!(ident("éName").is_err());
    }

    #[test]
    fn numbers() {
        for (ok, value) in [
            ("0", 0.0),
            ("+00128.000000", 128.0),
            ("+00000.752577", 0.752_577),
            ("-00000.658505", -0.658_505),
            ("1e5", 1e5),
            ("1.", 1.0),
            (".5", 0.5),
            ("-2.5E-3", -2.5e-3),
        ] {
            assert_eq!(parse_number(ok), Some(value), "{ok}");
        }
        for bad in ["", "+", "1.2.3", "12a", "0x10", "--1", "1,0"] {
            assert!(parse_number(bad).is_none(), "{bad}");
        }
    }

    /// The one-pass reader gives exactly what the standard library's parser gives, on
    /// numbers as UnrealEd writes them and on every shape around its limits.
    /// A number read from the start of any bytes ends exactly at the first byte that is not
    /// part of it, whatever it is and wherever it stands (the bytes next to '0' and '9'
    /// among them), with the value `str::parse` gives that prefix.
    #[test]
    fn digit_runs_end_at_the_first_non_digit() {
        fn reference(bytes: &[u8]) -> Option<(f64, usize)> {
            let start = usize::from(matches!(bytes.first(), Some(b'-' | b'+')));
            let run = |from: usize| bytes[from..].iter().take_while(|b| b.is_ascii_digit()).count();
            let mut end = start + run(start);
            let point = bytes.get(end) == Some(&b'.');
            if point {
                end += 1 + run(end + 1);
            }
            let text = std::str::from_utf8(&bytes[..end]).ok()?;
            let mantissa: u128 = text
                .bytes()
                .filter(u8::is_ascii_digit)
                .fold(0, |m, d| m.saturating_mul(10).saturating_add(u128::from(d - b'0')));
            let used = end - start;
            if used > 19 || used == usize::from(point) || mantissa > 999_999_999_999_999 {
                return None;
            }
            Some((text.parse::<f64>().ok()?, end))
        }
        let intruders = [b'/', b':', b'.', b'?', b'@', b' ', b',', 0xB0, 0x39 + 0x80, b'e'];
        let mut seed: u64 = 0x2545_F491_4F6C_DD1D;
        for _ in 0..100_000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let len = (seed % 16) as usize;
            let mut token: Vec<u8> =
                (0..len).map(|i| b'0' + ((seed >> (4 + i * 3)) % 10) as u8).collect();
            if (seed >> 60).is_multiple_of(2) && len > 0 {
                let at = ((seed >> 50) as usize) % len;
                token[at] = intruders[((seed >> 40) % intruders.len() as u64) as usize];
            }
            if (seed >> 62).is_multiple_of(2) {
                token.insert(0, b'-');
            }
            let got = fast_number_prefix(&token).map(|(v, used)| (v.to_bits(), used));
            let want = reference(&token).map(|(v, used)| (v.to_bits(), used));
            assert_eq!(got, want, "{:?}", String::from_utf8_lossy(&token));
        }
    }

    #[test]
    fn fast_numbers_equal_the_full_parse() {
        let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut checked = 0;
        for _ in 0..200_000 {
            let r = next();
            let sign = ["", "+", "-"][(r % 3) as usize];
            let int_digits = (r >> 8) % 12;
            let frac_digits = (r >> 16) % 12;
            let point = (r >> 24) % 8 != 0;
            let mut token = sign.to_owned();
            for i in 0..int_digits {
                token.push(char::from(b'0' + ((next() >> (i % 8)) % 10) as u8));
            }
            if point {
                token.push('.');
                for i in 0..frac_digits {
                    token.push(char::from(b'0' + ((next() >> (i % 8)) % 10) as u8));
                }
            }
            let expected = token.parse::<f64>().ok().filter(|_| number_text(&token).is_ok());
            let full = match number_text(&token) {
                Ok(("", text)) => text.parse::<f64>().ok(),
                _ => None,
            };
            assert_eq!(parse_number(&token).map(f64::to_bits), full.map(f64::to_bits), "{token}");
            if let Some(fast) = fast_number(token.as_bytes()) {
                assert_eq!(Some(fast.to_bits()), expected.map(f64::to_bits), "{token}");
                checked += 1;
            }
        }
        assert!(checked > 100_000, "{checked}");
        for token in [
            "+00128.000000",
            "-0.000000",
            "999999999999999",
            "1000000000000000",
            "0.0000000000000000000001",
            "0.00000000000000000000001",
            "00000000000000000000123.5",
            "12345678901234567890",
            "1a",
            "1.2.3",
            "12/4",
            "12:4",
            "1\u{e9}",
            "\u{661}",
            "+-1",
            "1e5",
            ".",
            "+",
            "",
            "5.",
            "+.5",
            "-00064.000000",
        ] {
            assert_eq!(
                parse_number(token).map(f64::to_bits),
                token.parse::<f64>().ok().map(f64::to_bits),
                "{token}"
            );
        }
    }

    #[test]
    fn flags_signed_and_unsigned() {
        assert_eq!(parse_flags("-2147483648"), Some(0x8000_0000));
        assert_eq!(parse_flags("2147483648"), Some(0x8000_0000));
        assert_eq!(parse_flags("4294967295"), Some(u32::MAX));
        assert_eq!(parse_flags("-1"), Some(u32::MAX));
        assert_eq!(parse_flags("4294967296"), None);
        assert_eq!(parse_flags("12x"), None);
    }

    /// The vector reader finds each number's end while reading it; the result equals
    /// cutting the tokens first and parsing each whole, on random lines of number pieces,
    /// blanks, commas and junk.
    #[test]
    fn vectors_read_in_one_pass_equal_token_by_token() {
        fn reference(input: &str) -> Result<([f64; 3], usize), usize> {
            let bytes = input.as_bytes();
            let blanks_from = |i: usize| i + blanks(bytes.get(i..).unwrap_or_default());
            let mut out = [0.0; 3];
            let mut at = 0;
            for (i, slot) in out.iter_mut().enumerate() {
                if i > 0 {
                    let comma = blanks_from(at);
                    if bytes.get(comma) != Some(&b',') {
                        return Err(at);
                    }
                    at = blanks_from(comma + 1);
                }
                let rest = bytes.get(at..).unwrap_or_default();
                let len = rest
                    .iter()
                    .position(|b| matches!(b, b',' | b' ' | b'\t'))
                    .unwrap_or(rest.len());
                let token = input.get(at..at + len).ok_or(at)?;
                *slot = parse_number(token)
                    .or_else(|| unreal_ed_negative_zero(token).then_some(0.0))
                    .ok_or(at)?;
                at += len;
            }
            Ok((out, at))
        }
        const PIECES: &[&str] = &[
            "+00128.000000",
            "-00064.5",
            "0",
            "1.",
            ".5",
            "+",
            "-",
            ".",
            "1e5",
            "2E-3",
            "12..3",
            "x",
            ",",
            ", ",
            " ,",
            " ",
            "\t",
            "1234567890123456789",
            "12345678901234567890",
            "0000000000000000000001",
            "9",
            "-0.000000",
            "+000-0.000000",
            "+1,+2,+3",
            "1a",
            "\u{e9}",
        ];
        let mut seed: u64 = 0x2545_F491_4F6C_DD1D;
        for _ in 0..100_000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let mut line = String::new();
            for k in 0..(seed % 7) {
                line.push_str(PIECES[((seed >> (8 * k + 3)) % PIECES.len() as u64) as usize]);
            }
            let got = vector(&line).map(|(v, n)| (v.map(f64::to_bits), n));
            let want = reference(&line).map(|(v, n)| (v.map(f64::to_bits), n));
            assert_eq!(got, want, "{line:?}");
        }
    }

    #[test]
    fn vectors() {
        assert_eq!(vector("+00001.000000,-00002.500000,+00000.000000"), Ok(([1.0, -2.5, 0.0], 41)));
        assert_eq!(vector("1, 2 ,3 tail"), Ok(([1.0, 2.0, 3.0], 7)));
        assert_eq!(vector("1,2"), Err(3));
        assert_eq!(vector("1,x,3"), Err(2));
        // UnrealEd's spelling of a value just below zero reads as the zero it says; another
        // number after the padding does not.
        assert_eq!(vector("+00000.000000,+00001.000000,+000-0.000000"), Ok(([0.0, 1.0, 0.0], 41)));
        assert_eq!(vector("+000-5.000000,0,0"), Err(0));
        assert_eq!(vector("+0-0,0,0"), Ok(([0.0, 0.0, 0.0], 8)));
        assert_eq!(vector("-0,+-0,0"), Err(3));
    }

    #[test]
    fn msvc_spellings_of_non_finite_floats_are_known() {
        for token in ["-1.#IND00", "1.#INF00", "1.#QNAN0", "-1.#SNAN0", "+1.#INF"] {
            assert!(msvc_non_finite(token), "{token}");
        }
        for token in ["1.#IND00x", "2.#INF00", "1.#NAN", "#IND", "1.5", "-1.#"] {
            assert!(!msvc_non_finite(token), "{token}");
        }
    }

    #[test]
    fn the_old_keyed_vector_form_is_read_as_get_fvector_reads_it() {
        assert_eq!(
            keyed_vector("X=-00000.000100 Y=-00020.000000 Z=+00040.000000"),
            Some([-0.0001, -20.0, 40.0])
        );
        assert_eq!(keyed_vector("z=3 x=1"), Some([1.0, 0.0, 3.0]));
        assert_eq!(keyed_vector("X=oops"), Some([0.0, 0.0, 0.0]));
        assert_eq!(keyed_vector("1,2,3"), None);
        assert_eq!(keyed_vector("A=1"), None);
    }
}
