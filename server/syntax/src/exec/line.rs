//! One directive line: the command words, a lossless view of every `KEY=VALUE` pair, and the
//! engine's own key lookup (which does not tokenise at all; see [`lookup`]).
//!
//! Engine behaviour modelled here (`Parse`, `ParseCommand` and `appStrfind` in UE1
//! `Core/Src/UnMisc.cpp`, the same in UE2):
//! - command words match case-insensitively and end at a non-alphanumeric character;
//! - `Parse(Stream, "KEY=", Value)` searches the raw line for `KEY=` case-insensitively, where
//!   the character before is not an ASCII letter or digit, and the first match wins;
//! - an unquoted value ends at space, tab, comma or the line end; a quoted one at the next quote;
//! - `//` and `/*` end the line even inside quotes;
//! - the compiler copies the command (from its first non-blank character to the line end or
//!   the first `//` or `/*`) into a buffer of `MAX_STRING_CONST_SIZE` characters and fails the
//!   compile when it fills (`GetRawToken`, `Editor/Src/UnScrCom.cpp`); nothing is cut silently.

use std::borrow::Cow;
use std::ops::Range;

use nom::bytes::complete::take_while;
use nom::{IResult, Parser};

use unreal_engine::exec::{KeyKind, KeySpec};

use super::scan::{Directive, DirectiveKind};
use crate::Span;

/// The size of UCC's command buffer (`MAX_STRING_CONST_SIZE`, `Core/Inc/UnStack.h`) in UE1
/// (UT 432's public headers: 256) and UE2 (UT2004: 1024). A command of this many characters or
/// more stops the compile with "Identifier exceeds maximum".
pub const COMMAND_BUFFER_UE1: usize = 256;
pub const COMMAND_BUFFER_UE2: usize = 1024;

/// A value after `KEY=`, as the engine reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Value {
    /// The raw value, quotes included. Empty (at the position after `=`) for `KEY=` alone.
    pub span: Span,
    /// Inside the quotes; equal to `span` for an unquoted value.
    pub content: Span,
    pub quoting: Quoting,
    /// The value ends where `//` or `/*` cut the line: the engine sees only the part before.
    pub cut_by_comment: bool,
    /// The quoted content holds `\\` or `\"`, which [`Value::text`] unescapes.
    pub has_escapes: bool,
}

/// Whether a value is quoted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Quoting {
    Unquoted,
    /// `"..."` with its closing quote.
    Closed,
    /// A quote opens the value and nothing closes it: it runs to the end of the line.
    Unclosed,
}

impl Quoting {
    fn of(quoted: bool, terminated: bool) -> Quoting {
        match (quoted, terminated) {
            (false, _) => Quoting::Unquoted,
            (true, true) => Quoting::Closed,
            (true, false) => Quoting::Unclosed,
        }
    }
}

impl Value {
    pub fn is_quoted(self) -> bool {
        self.quoting != Quoting::Unquoted
    }

    pub fn raw(self, src: &str) -> &str {
        self.span.text(src)
    }

    /// The value with quotes removed and `\\` / `\"` unescaped.
    pub fn text(self, src: &str) -> Cow<'_, str> {
        let content = self.content.text(src);
        if self.has_escapes {
            Cow::Owned(unescape(content))
        } else {
            Cow::Borrowed(content)
        }
    }
}

/// One token after the command words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arg {
    /// `KEY=VALUE`. `key` excludes the `=`; it is empty for a token that starts with `=`.
    Key { key: Span, value: Value },
    /// A word without `=`, such as `VERBOSE` or `ROOTTRACK`.
    Bare { span: Span },
}

impl Arg {
    /// The key span for `Key`, the word span for `Bare`.
    pub fn name_span(self) -> Span {
        match self {
            Arg::Key { key, .. } => key,
            Arg::Bare { span } => span,
        }
    }

    /// The whole token.
    pub fn span(self) -> Span {
        match self {
            Arg::Key { key, value } => key.cover(value.span),
            Arg::Bare { span } => span,
        }
    }

    pub fn value(self) -> Option<Value> {
        match self {
            Arg::Key { value, .. } => Some(value),
            Arg::Bare { .. } => None,
        }
    }
}

/// Lexical facts about a line worth a diagnostic.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineIssue {
    /// A value runs into `//` or `/*`, which end the line even inside quotes.
    ValueCutByComment { value: Span, comment: Span },
    /// A quote opens a value and nothing closes it; the engine reads to the line end.
    UnterminatedQuote { value: Span },
    /// `\\` or `\"` inside quotes. UE1/UE2 `Parse()` ends a quoted value at the first `"` and
    /// keeps backslashes, so an escaped quote there ends the value early.
    EscapeInQuotes { at: Span },
    /// A token starts with `=`: a value without a key.
    EmptyKey { at: Span },
}

/// A parsed directive line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExecLine {
    pub kind: DirectiveKind,
    /// The first word, e.g. `MESH`, `LOAD`, `NEW`.
    pub command: Option<Span>,
    /// The second word when it has no `=`, e.g. `IMPORT`, or the class after `NEW`.
    pub subcommand: Option<Span>,
    pub args: Vec<Arg>,
    /// Where the engine searches for keys: after the command words, up to the effective end.
    pub args_span: Span,
    /// The body as the engine sees it: cut at a comment.
    pub effective: Span,
    /// The command as UCC copies it into its buffer: from the first non-blank character after
    /// the directive word to the first `//` or `/*` or the line end, trailing blanks included
    /// (they are counted before they are trimmed).
    pub raw_command: Span,
    /// From `//` or `/*` to the line end.
    pub comment: Option<Span>,
    pub issues: Vec<LineIssue>,
}

/// A key found by the engine's own search ([`lookup`]). Offsets are relative to the string
/// that was searched; [`ExecLine::lookup`] returns document offsets.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lookup {
    /// The matched key text, `=` included when the key has one.
    pub key: Range<usize>,
    /// The raw value (quotes included); empty at the key end for a bare switch.
    pub value: Range<usize>,
    /// Inside the quotes; equal to `value` for an unquoted value.
    pub content: Range<usize>,
    pub quoting: Quoting,
    pub has_escapes: bool,
}

impl Lookup {
    /// The value text: quotes removed, `\\` and `\"` unescaped.
    pub fn text<'a>(&self, searched: &'a str) -> Cow<'a, str> {
        let content = searched.get(self.content.clone()).unwrap_or("");
        if self.has_escapes {
            Cow::Owned(unescape(content))
        } else {
            Cow::Borrowed(content)
        }
    }

    fn shifted(self, delta: usize) -> Lookup {
        let shift = |r: Range<usize>| r.start + delta..r.end + delta;
        Lookup {
            key: shift(self.key),
            value: shift(self.value),
            content: shift(self.content),
            ..self
        }
    }
}

/// The engine's `Parse(Stream, Key, Value)`: finds `key` (e.g. `"NAME="`, or `"VERBOSE"` for a
/// switch) anywhere in `args`, case-insensitively, where the character before is not an ASCII
/// letter or digit; the first such match wins, even inside another key's quoted value. So
/// `QUENCE=` does not match in `SEQUENCE=`, `NAME=` does not match in `ANIMNAME=`, but it does
/// in `MLOD=0 NAME=x` and in `_NAME=`. A key ending in `=` also reads its value.
pub fn lookup(args: &str, key: &str) -> Option<Lookup> {
    let hay = args.as_bytes();
    let needle = key.as_bytes();
    if needle.is_empty() || needle.len() > hay.len() {
        return None;
    }
    // Only where the key's first letter stands (either case) can it match: memchr finds
    // those, instead of a comparison at every byte of the line for every key looked up.
    let first = needle.first()?;
    let start = memchr::memchr2_iter(first.to_ascii_lowercase(), first.to_ascii_uppercase(), hay)
        .find(|&i| {
        let after_alnum =
            i.checked_sub(1).and_then(|p| hay.get(p)).is_some_and(u8::is_ascii_alphanumeric);
        !after_alnum && hay.get(i..i + needle.len()).is_some_and(|w| w.eq_ignore_ascii_case(needle))
    })?;
    Some(read_found(args, start, start + needle.len(), key.ends_with('=')))
}

/// The engine's lookup ([`lookup`]) of a set of keys (entries of the command table: `NAME=`,
/// or the name alone for a switch), prepared once and run on any number of lines
/// ([`KeySearch::find`], [`ExecLine::lookup_each`]).
///
/// A line's keys used to be looked up one by one, each a search of the whole line. The
/// `NAME=` keys whose name is all letters and digits (every key of the command table) are
/// found in one pass over the line's `=` signs: the engine matches `NAME=` only where no
/// letter or digit stands before it, so the name is then exactly the run of letters and
/// digits that ends at an `=`, and the first `=` whose run is the name is the first match.
/// Other keys (switches, other names) are looked up one by one as before.
#[derive(Clone, Debug)]
pub struct KeySearch<'k> {
    keys: Vec<&'k KeySpec>,
    /// The keys found through `=`, by the length of their name (index: the length; the
    /// table's names are far shorter than 64 letters, longer ones are looked up alone).
    by_length: [Vec<usize>; 64],
    by_equals: usize,
    /// No name found through `=` is longer: a longer run before an `=` is no key.
    longest: usize,
    /// The keys looked up one by one.
    alone: Vec<usize>,
}

impl<'k> KeySearch<'k> {
    pub fn new(keys: Vec<&'k KeySpec>) -> Self {
        let mut by_length: [Vec<usize>; 64] = std::array::from_fn(|_| Vec::new());
        let mut alone = Vec::new();
        let (mut by_equals, mut longest) = (0, 0);
        for (index, key) in keys.iter().enumerate() {
            let length = key.name.len();
            let through_equals = key.kind != KeyKind::Switch
                && length > 0
                && key.name.bytes().all(|b| b.is_ascii_alphanumeric());
            match by_length.get_mut(length).filter(|_| through_equals) {
                Some(same_length) => {
                    same_length.push(index);
                    by_equals += 1;
                    longest = longest.max(length);
                }
                None => alone.push(index),
            }
        }
        Self { keys, by_length, by_equals, longest, alone }
    }

    /// The keys, in the order [`KeySearch::find`] answers.
    pub fn keys(&self) -> &[&'k KeySpec] {
        &self.keys
    }

    /// What the engine's lookup finds in `args` for each key, in the order of the keys.
    pub fn find(&self, args: &str) -> Vec<Option<Lookup>> {
        self.find_at(args, 0)
    }

    /// [`KeySearch::find`] with every offset moved by `delta`.
    fn find_at(&self, args: &str, delta: usize) -> Vec<Option<Lookup>> {
        let hay = args.as_bytes();
        let mut found: Vec<Option<Lookup>> = vec![None; self.keys.len()];
        let mut pending = self.by_equals;
        if pending > 0 {
            for equals in memchr::memchr_iter(b'=', hay) {
                // The run of letters and digits before the `=`, counted up to one more than
                // the longest name.
                let before = hay.get(..equals).unwrap_or_default();
                let length = before
                    .iter()
                    .rev()
                    .take(self.longest + 1)
                    .take_while(|&&b| ALPHANUMERIC[usize::from(b)])
                    .count();
                let start = equals - length;
                let (Some(run), Some(candidates)) =
                    (hay.get(start..equals), self.by_length.get(equals - start))
                else {
                    continue;
                };
                for &index in candidates {
                    let (Some(slot), Some(key)) = (found.get_mut(index), self.keys.get(index))
                    else {
                        continue;
                    };
                    if slot.is_none() && run.eq_ignore_ascii_case(key.name.as_bytes()) {
                        *slot = Some(read_found(args, start, equals + 1, true).shifted(delta));
                        pending -= 1;
                    }
                }
                if pending == 0 {
                    break;
                }
            }
        }
        for &index in &self.alone {
            if let (Some(slot), Some(key)) = (found.get_mut(index), self.keys.get(index)) {
                *slot = lookup(args, &key.search_text()).map(|f| f.shifted(delta));
            }
        }
        found
    }
}

/// What the engine reads for a key found at `start..key_end` of `args` (`=` included when
/// `has_value`): the value after it, or nothing for a switch.
fn read_found(args: &str, start: usize, key_end: usize, has_value: bool) -> Lookup {
    if !has_value {
        return Lookup {
            key: start..key_end,
            value: key_end..key_end,
            content: key_end..key_end,
            quoting: Quoting::Unquoted,
            has_escapes: false,
        };
    }
    let rest = args.get(key_end..).unwrap_or("");
    if rest.starts_with('"') {
        let q = scan_quoted(rest);
        return Lookup {
            key: start..key_end,
            value: key_end..key_end + q.len,
            content: key_end + 1..key_end + 1 + q.content_len,
            quoting: Quoting::of(true, q.terminated),
            has_escapes: !q.escapes.is_empty(),
        };
    }
    // The stops are ASCII, so a byte search ends the value where a search by characters would.
    let len = rest
        .bytes()
        .position(|b| matches!(b, b' ' | b'\t' | b',' | b'\r' | b'\n'))
        .unwrap_or(rest.len());
    Lookup {
        key: start..key_end,
        value: key_end..key_end + len,
        content: key_end..key_end + len,
        quoting: Quoting::Unquoted,
        has_escapes: false,
    }
}

fn unescape(content: &str) -> String {
    let mut out = String::with_capacity(content.len());
    let mut chars = content.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\\' {
            if let Some(&next @ ('\\' | '"')) = chars.peek() {
                out.push(next);
                chars.next();
                continue;
            }
        }
        out.push(c);
    }
    out
}

/// A quoted value starting at `"`: its length, content length, whether it closed, and where
/// the escapes are (offsets from the opening quote).
struct Quoted {
    len: usize,
    content_len: usize,
    terminated: bool,
    escapes: Vec<usize>,
}

fn scan_quoted(s: &str) -> Quoted {
    let bytes = s.as_bytes();
    let mut i = 1;
    let mut escapes = Vec::new();
    while i < bytes.len() {
        match bytes[i] {
            b'\\' if matches!(bytes.get(i + 1), Some(b'\\' | b'"')) => {
                escapes.push(i);
                i += 2;
            }
            b'"' => return Quoted { len: i + 1, content_len: i - 1, terminated: true, escapes },
            b'\r' | b'\n' => break,
            _ => i += 1,
        }
    }
    Quoted { len: i, content_len: i.saturating_sub(1), terminated: false, escapes }
}

fn is_blank(c: char) -> bool {
    c == ' ' || c == '\t'
}

fn blanks(i: &str) -> IResult<&str, &str> {
    take_while(is_blank).parse(i)
}

/// A key or bare word: everything up to `=` or a blank (the rest, then the word).
fn word(i: &str) -> (&str, &str) {
    take_till_byte(i, &WORD_STOPS)
}

/// An unquoted value: everything up to a blank or a comma (the rest, then the value).
fn unquoted_value(i: &str) -> (&str, &str) {
    take_till_byte(i, &VALUE_STOPS)
}

/// A table of the ASCII bytes given: true at each.
const fn byte_set(bytes: &[u8]) -> [bool; 256] {
    let mut table = [false; 256];
    let mut i = 0;
    while i < bytes.len() {
        table[bytes[i] as usize] = true;
        i += 1;
    }
    table
}

static WORD_STOPS: [bool; 256] = byte_set(b"= \t");
static VALUE_STOPS: [bool; 256] = byte_set(b" \t,");
static ALPHANUMERIC: [bool; 256] =
    byte_set(b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz");

/// nom's `take_till` for a set of ASCII stops, which cannot fail, by a table lookup per byte
/// rather than decoding and testing each character (a line's words and values are most of
/// what the tokenizer reads). An ASCII byte is always a whole character, so the cut is where
/// `take_till` cuts.
fn take_till_byte<'a>(i: &'a str, stops: &[bool; 256]) -> (&'a str, &'a str) {
    let end = i.bytes().position(|b| stops[usize::from(b)]).unwrap_or(i.len());
    match (i.get(..end), i.get(end..)) {
        (Some(taken), Some(rest)) => (rest, taken),
        _ => ("", i),
    }
}

/// Raw tokens of the effective body, before command words are told apart from arguments.
enum Token {
    Word(Range<usize>),
    Key { key: Range<usize>, value: Range<usize>, quoted: Option<Quoted> },
}

/// Tokenises `body` (already cut at the comment and the length limit). Offsets are relative
/// to `body`.
fn tokenize(body: &str) -> Vec<(Range<usize>, Token)> {
    let offset = |rest: &str| body.len() - rest.len();
    let mut tokens = Vec::new();
    let mut input = body;
    while let Ok((rest, _)) = blanks(input) {
        input = rest;
        if input.is_empty() {
            break;
        }
        let start = offset(input);
        let (rest, name) = word(input);
        let key = start..start + name.len();
        let Some(after_eq) = rest.strip_prefix('=') else {
            // A bare word; `word` consumed at least one character because `input` starts
            // neither with a blank nor with `=`.
            tokens.push((key.clone(), Token::Word(key)));
            input = rest;
            if name.is_empty() {
                break;
            }
            continue;
        };
        let value_start = offset(after_eq);
        if after_eq.starts_with('"') {
            let q = scan_quoted(after_eq);
            let value = value_start..value_start + q.len;
            input = after_eq.get(q.len..).unwrap_or("");
            tokens.push((start..value.end, Token::Key { key, value, quoted: Some(q) }));
        } else {
            let (rest, raw) = unquoted_value(after_eq);
            let value = value_start..value_start + raw.len();
            input = rest;
            tokens.push((start..value.end, Token::Key { key, value, quoted: None }));
        }
        // A comma ends an unquoted value and separates the next key: `X=1,Y=2`.
        if let Some(rest) = input.strip_prefix(',') {
            input = rest;
        }
    }
    tokens
}

/// Parses one directive's body. Works for every directive kind; the command words only mean
/// something for [`DirectiveKind::runs_command`] kinds.
pub fn parse_line(text: &str, directive: &Directive) -> ExecLine {
    let mut issues = Vec::new();
    let body = directive.body_span;

    let mut effective_end = body.end as usize;
    let body_start = (body.start as usize).min(effective_end);
    let body_text = text.get(body_start..effective_end).unwrap_or("");

    // `//` and `/*` end the line wherever they are, quotes or not: the first `/` followed by
    // `/` or `*`.
    let body_bytes = body_text.as_bytes();
    let comment_rel = memchr::memchr_iter(b'/', body_bytes)
        .find(|&at| matches!(body_bytes.get(at + 1), Some(b'/' | b'*')));
    let comment_at = comment_rel.map(|rel| body_start + rel);
    let comment = comment_at.map(|at| Span::from_range(at..body.end as usize));
    if let Some(at) = comment_at {
        effective_end = at;
    }
    let effective_text = text.get(body_start..effective_end).unwrap_or("");

    let tokens = tokenize(effective_text);
    let abs = |r: &Range<usize>| Span::from_range(body_start + r.start..body_start + r.end);

    // Leading bare words are the command and subcommand.
    let mut command = None;
    let mut subcommand = None;
    let mut first_arg = 0;
    for (_, token) in tokens.iter().take(2) {
        let Token::Word(range) = token else { break };
        if command.is_none() {
            command = Some(abs(range));
        } else {
            subcommand = Some(abs(range));
        }
        first_arg += 1;
    }
    let args_start =
        tokens.get(first_arg).map_or(effective_end, |(range, _)| body_start + range.start);
    let args_start = if first_arg == 0 {
        // No command words: the search runs from the first non-blank character.
        body_start + (effective_text.len() - effective_text.trim_start_matches(is_blank).len())
    } else {
        args_start
    };

    let mut args = Vec::with_capacity(tokens.len().saturating_sub(first_arg));
    for (_, token) in tokens.into_iter().skip(first_arg) {
        match token {
            Token::Word(range) => args.push(Arg::Bare { span: abs(&range) }),
            Token::Key { key, value, quoted } => {
                let key_span = abs(&key);
                if key_span.is_empty() {
                    issues.push(LineIssue::EmptyKey {
                        at: Span::from_range(key_span.start as usize..key_span.start as usize + 1),
                    });
                }
                let span = abs(&value);
                let (content, terminated, escapes) = match &quoted {
                    Some(q) => (
                        Span::from_range(
                            span.start as usize + 1..span.start as usize + 1 + q.content_len,
                        ),
                        q.terminated,
                        q.escapes.as_slice(),
                    ),
                    None => (span, true, &[][..]),
                };
                let is_quoted = quoted.is_some();
                let cut_by_comment =
                    comment_at == Some(span.end as usize) && (!is_quoted || !terminated);
                for &e in escapes {
                    let at = span.start as usize + e;
                    issues.push(LineIssue::EscapeInQuotes { at: Span::from_range(at..at + 2) });
                }
                if cut_by_comment {
                    if let Some(comment) = comment {
                        issues.push(LineIssue::ValueCutByComment { value: span, comment });
                    }
                } else if !terminated {
                    issues.push(LineIssue::UnterminatedQuote { value: span });
                }
                let value = Value {
                    span,
                    content,
                    quoting: Quoting::of(is_quoted, terminated),
                    cut_by_comment,
                    has_escapes: !escapes.is_empty(),
                };
                args.push(Arg::Key { key: key_span, value });
            }
        }
    }

    ExecLine {
        kind: directive.kind,
        command,
        subcommand,
        args,
        args_span: Span::from_range(args_start.min(effective_end)..effective_end),
        effective: Span::from_range(body_start..effective_end),
        raw_command: Span::from_range(
            body_start + (effective_text.len() - effective_text.trim_start_matches(is_blank).len())
                ..effective_end,
        ),
        comment,
        issues,
    }
}

impl ExecLine {
    pub fn command_text<'a>(&self, src: &'a str) -> Option<&'a str> {
        self.command.map(|s| s.text(src))
    }

    pub fn subcommand_text<'a>(&self, src: &'a str) -> Option<&'a str> {
        self.subcommand.map(|s| s.text(src))
    }

    /// The engine's lookup of `key` (`"NAME="`, or `"VERBOSE"` for a switch) on this line,
    /// in document offsets. See [`lookup`].
    pub fn lookup(&self, src: &str, key: &str) -> Option<Lookup> {
        let start = self.args_span.start as usize;
        lookup(self.args_span.text(src), key).map(|found| found.shifted(start))
    }

    /// The engine's lookup of every key of `search` on this line ([`KeySearch::find`]), in
    /// document offsets.
    pub fn lookup_each(&self, src: &str, search: &KeySearch<'_>) -> Vec<Option<Lookup>> {
        search.find_at(self.args_span.text(src), self.args_span.start as usize)
    }

    /// The index in [`ExecLine::args`] of the token the engine's lookup found, or `None` when
    /// the engine matched text inside another token (e.g. `NAME=` inside a quoted value).
    pub fn arg_of(&self, found: &Lookup) -> Option<usize> {
        let start = u32::try_from(found.key.start).ok()?;
        self.args.iter().position(|arg| arg.name_span().start == start)
    }

    /// The command-table entry for this line, through aliases.
    pub fn spec(&self, src: &str) -> Option<unreal_engine::exec::CommandMatch> {
        unreal_engine::exec::resolve_command(self.command_text(src)?, self.subcommand_text(src))
    }
}

#[cfg(test)]
mod tests {

    /// The memchr cut of words and values is nom's `take_till` cut, on any text.
    #[test]
    fn words_and_values_end_where_take_till_ends_them() {
        use nom::bytes::complete::take_till;
        use nom::{IResult, Parser};
        let pieces = ["a", "=", " ", "\t", ",", "é", "\"", "x=y", "€", "\r", "1"];
        let mut state = 0x5851_F42D_4C95_7F2D_u64;
        for _ in 0..20_000 {
            state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            let mut text = String::new();
            for _ in 0..((state >> 40) % 10) {
                state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                text.push_str(pieces[(state >> 33) as usize % pieces.len()]);
            }
            let nom_word: IResult<&str, &str> =
                take_till(|c| c == '=' || c == ' ' || c == '\t').parse(text.as_str());
            assert_eq!(Ok(super::word(&text)), nom_word, "{text:?}");
            let nom_value: IResult<&str, &str> =
                take_till(|c| c == ' ' || c == '\t' || c == ',').parse(text.as_str());
            assert_eq!(Ok(super::unquoted_value(&text)), nom_value, "{text:?}");
        }
    }
    /// The engine's scan as first written (a comparison at every byte), against which the
    /// memchr search of [`super::lookup`] must find the same key on any line.
    fn reference(hay: &[u8], needle: &[u8]) -> Option<usize> {
        let mut prev_alnum = false;
        for (i, &c) in hay.iter().enumerate() {
            if !prev_alnum
                && hay.get(i..i + needle.len()).is_some_and(|w| w.eq_ignore_ascii_case(needle))
            {
                return Some(i);
            }
            prev_alnum = c.is_ascii_alphanumeric();
        }
        None
    }

    #[test]
    fn lookup_finds_what_the_byte_by_byte_scan_finds() {
        let pieces = [
            "NAME=",
            "name=",
            "ANIMNAME=",
            "_NAME=",
            "n",
            "N",
            "AME",
            " ",
            "\"",
            "=",
            "x",
            "1",
            "é",
        ];
        let keys = ["NAME=", "N", "VERBOSE", "AME="];
        let mut state = 0x9E37_79B9_7F4A_7C15_u64;
        let mut found_some = 0;
        for _ in 0..20_000 {
            let line = crate::exec::random_text(&mut state, &pieces, 9);
            for key in keys {
                let expected = if key.len() > line.len() {
                    None
                } else {
                    reference(line.as_bytes(), key.as_bytes())
                };
                let found = super::lookup(&line, key).map(|l| l.key.start);
                assert_eq!(found, expected, "{key:?} in {line:?}");
                found_some += usize::from(found.is_some());
            }
        }
        assert!(found_some > 10_000, "{found_some}");
    }

    /// [`super::KeySearch`] finds, for every key, what [`super::lookup`] finds for it alone:
    /// keys written `NAME=`, switches, names with other characters, an empty name, a name of
    /// 64 letters, on lines built of pieces that put keys inside other words, values and
    /// quotes.
    #[test]
    fn key_search_finds_what_each_lookup_finds() {
        use unreal_engine::exec::{KeyKind, KeySpec};
        use unreal_engine::Engines;
        let pieces = [
            "NAME=",
            "name=",
            "ANIMNAME=",
            "_NAME=",
            "N",
            "AME",
            "SEQ=",
            "seq",
            "VERBOSE",
            "verbosex",
            "A_B=",
            "X=",
            " ",
            "\t",
            ",",
            "\"",
            "=",
            "x",
            "1",
            "é",
            "ÉNAME=",
            "abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijkl=",
        ];
        let key = |name: &'static str, kind: KeyKind| KeySpec {
            name,
            kind,
            required: false,
            engines: Engines::Both,
            ignored: None,
            only_in: None,
            doc: "",
        };
        let specs = [
            key("NAME", KeyKind::Name),
            key("SEQ", KeyKind::Name),
            key("X", KeyKind::Float),
            key("VERBOSE", KeyKind::Switch),
            key("A_B", KeyKind::Int),
            key("", KeyKind::Name),
            key("AME", KeyKind::Text),
            key("NAME", KeyKind::Path),
            key("N", KeyKind::Switch),
            key("ABCDEFGHIJKLMNOPQRSTUVWXYZABCDEFGHIJKLMNOPQRSTUVWXYZABCDEFGHIJKL", KeyKind::Name),
        ];
        let keys: Vec<&KeySpec> = specs.iter().collect();
        let search = super::KeySearch::new(keys.clone());
        let mut state = 0x2545_F491_4F6C_DD1D_u64;
        let mut found_some = 0;
        for _ in 0..20_000 {
            let line = crate::exec::random_text(&mut state, &pieces, 12);
            let each = search.find(&line);
            assert_eq!(each.len(), keys.len());
            for (key, found) in keys.iter().zip(&each) {
                let search = key.search_text();
                assert_eq!(found, &super::lookup(&line, &search), "{search:?} in {line:?}");
                found_some += usize::from(found.is_some());
            }
        }
        assert!(found_some > 20_000, "{found_some}");
    }
}
