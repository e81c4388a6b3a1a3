//! The directive scanner: finds `#exec`-family lines in an UnrealScript file without parsing
//! the UnrealScript itself.
//!
//! Only the lexical structure that can hide a `#` matters: `//` line comments, `/* */` block
//! comments, `"strings"` and `'names'`, and the C++ blocks (`cpptext`, `cppstruct`,
//! `structcpptext`) whose `#include` and `#define` lines are C++ preprocessor lines, not
//! UnrealScript directives. Everything else is skipped byte by byte. A file without a `#` at all
//! costs one byte search.

use crate::text::IDENT_BYTES;
use crate::Span;

/// The directive words UCC knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DirectiveKind {
    /// `#exec`: runs an editor command, only in a full compile (UE1 and UE2).
    Exec,
    /// `#AlwaysExec` (UE1 and UE2).
    AlwaysExec,
    /// `#ForceExec`: runs the command on every compile (UT v400 and later UE1, UE2; not
    /// Unreal v1.200).
    ForceExec,
    /// `#call` (UE1 and UE2).
    Call,
    /// `#AlwaysCall` (UE1 and UE2).
    AlwaysCall,
    /// `#error`: stops the compile with the rest of the line as message (UE1 and UE2).
    Error,
    /// `#include`: textual inclusion of a `.uci` file (UE2).
    Include,
}

impl DirectiveKind {
    pub const ALL: [DirectiveKind; 7] = [
        DirectiveKind::Exec,
        DirectiveKind::AlwaysExec,
        DirectiveKind::ForceExec,
        DirectiveKind::Call,
        DirectiveKind::AlwaysCall,
        DirectiveKind::Error,
        DirectiveKind::Include,
    ];

    /// The spelling used in documentation and messages (without `#`).
    pub fn name(self) -> &'static str {
        match self {
            DirectiveKind::Exec => "exec",
            DirectiveKind::AlwaysExec => "AlwaysExec",
            DirectiveKind::ForceExec => "ForceExec",
            DirectiveKind::Call => "call",
            DirectiveKind::AlwaysCall => "AlwaysCall",
            DirectiveKind::Error => "error",
            DirectiveKind::Include => "include",
        }
    }

    /// Matches a directive word case-insensitively (`EXEC`, `exec`, `Exec`).
    pub fn from_word(word: &str) -> Option<DirectiveKind> {
        DirectiveKind::ALL.into_iter().find(|kind| kind.name().eq_ignore_ascii_case(word))
    }

    /// Which engine generations accept the directive (`CompileDirective`,
    /// `Editor/Src/UnScrCom.cpp`: UT v400 knows `ForceExec`, only UE2 `include`).
    pub fn engines(self) -> unreal_engine::Engines {
        use unreal_engine::Engines;
        match self {
            DirectiveKind::Include => Engines::Ue2,
            _ => Engines::Both,
        }
    }

    /// True for the directives whose body is an editor command line (`MESH IMPORT ...`).
    pub fn runs_command(self) -> bool {
        matches!(self, DirectiveKind::Exec | DirectiveKind::AlwaysExec | DirectiveKind::ForceExec)
    }
}

/// One directive line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Directive {
    pub kind: DirectiveKind,
    /// The whole physical line, from its first byte to the line break (excluded, also `\r`).
    pub span: Span,
    /// `#` plus the directive word, e.g. `#EXEC` (or `# exec`: the compiler reads the word
    /// as an identifier after optional blanks).
    pub hash_span: Span,
    /// Everything after the directive word up to the line break (excluded), untrimmed.
    pub body_span: Span,
    /// Only spaces and tabs stand before the `#`. UCC does not care (a directive after
    /// `var int Ammo;` runs); formatting and the debug dump do.
    pub at_line_start: bool,
}

/// Lexical problems the scanner met. None of them stops the scan.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScanError {
    /// `/*` without `*/`: the rest of the file is a comment.
    UnterminatedBlockComment { open: Span },
    /// `cpptext {` (or `cppstruct`, `structcpptext`) without its closing `}`.
    UnterminatedCppBlock { keyword: Span },
    /// `#word` outside comments and strings that is not a known directive (`#exce`).
    UnknownDirective { span: Span },
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ScanResult {
    pub directives: Vec<Directive>,
    pub errors: Vec<ScanError>,
}

/// Scans decoded `.uc` / `.uci` text for directives. Never fails, never panics.
pub fn scan(text: &str) -> ScanResult {
    let bytes = text.as_bytes();
    let mut result = ScanResult::default();
    // The cheap case: most classes have no directive at all.
    if !bytes.contains(&b'#') {
        return result;
    }
    let mut scanner = Scanner { bytes, result: &mut result };
    scanner.run();
    result
}

struct Scanner<'a, 'r> {
    bytes: &'a [u8],
    result: &'r mut ScanResult,
}

fn is_ident_byte(b: u8) -> bool {
    IDENT_BYTES[usize::from(b)]
}

/// The bytes at which the scanner's main loop does something: comment and literal openers,
/// `#`, identifiers and numbers. Every other byte is stepped over, so runs of them are
/// skipped in one search.
static STOPS: [bool; 256] = {
    let mut table = IDENT_BYTES;
    table[b'/' as usize] = true;
    table[b'"' as usize] = true;
    table[b'\'' as usize] = true;
    table[b'#' as usize] = true;
    table
};

fn span(start: usize, end: usize) -> Span {
    Span::from_range(start..end)
}

impl Scanner<'_, '_> {
    fn at(&self, i: usize) -> u8 {
        self.bytes.get(i).copied().unwrap_or(0)
    }

    fn find(&self, from: usize, needle: &[u8]) -> Option<usize> {
        let hay = self.bytes.get(from..)?;
        memchr::memmem::find(hay, needle).map(|p| p + from)
    }

    fn line_end(&self, from: usize) -> usize {
        self.bytes
            .get(from..)
            .and_then(|rest| memchr::memchr(b'\n', rest))
            .map_or(self.bytes.len(), |p| p + from)
    }

    /// The start of the line holding `at`: just after the line feed before it, or 0.
    fn line_start(&self, at: usize) -> usize {
        memchr::memrchr(b'\n', self.bytes.get(..at).unwrap_or_default()).map_or(0, |p| p + 1)
    }

    /// The end of the run of identifier bytes starting at `from`.
    fn ident_end(&self, from: usize) -> usize {
        let rest = self.bytes.get(from..).unwrap_or_default();
        from + rest.iter().position(|&b| !is_ident_byte(b)).unwrap_or(rest.len())
    }

    fn run(&mut self) {
        let len = self.bytes.len();
        let mut i = 0;
        while i < len {
            let b = self.bytes[i];
            match b {
                b'/' if self.at(i + 1) == b'/' => i = self.line_end(i),
                b'/' if self.at(i + 1) == b'*' => i = self.skip_block_comment(i),
                b'"' | b'\'' => i = self.skip_string(i, b),
                b'#' => i = self.directive(i),
                b if b.is_ascii_alphabetic() || b == b'_' => i = self.identifier(i),
                // A number like `1e5` must not be read as an identifier start.
                b if b.is_ascii_digit() => i = self.ident_end(i),
                _ => {
                    // Up to the next byte where something happens (a `/` that opens no
                    // comment is stepped over like any other).
                    let rest = self.bytes.get(i + 1..).unwrap_or_default();
                    i += 1 + rest.iter().position(|&b| STOPS[usize::from(b)]).unwrap_or(rest.len());
                }
            }
        }
    }

    /// Skips a block comment. The compiler counts `/*` and `*/` (`GetChar`,
    /// `Editor/Src/UnScrCom.cpp`), so comments nest: `/* a /* b */ c */` is one comment.
    fn skip_block_comment(&mut self, open: usize) -> usize {
        let end = self.block_comment_end(open);
        if end.is_none() {
            self.result
                .errors
                .push(ScanError::UnterminatedBlockComment { open: span(open, open + 2) });
        }
        end.unwrap_or(self.bytes.len())
    }

    /// The end of the nested block comment opened at `open`, or `None` when it never closes.
    fn block_comment_end(&self, open: usize) -> Option<usize> {
        let mut depth = 1usize;
        let mut i = open + 2;
        loop {
            // Only a `/` or a `*` can start `/*` or `*/`: the bytes before the next one are
            // stepped over.
            let at = i + memchr::memchr2(b'/', b'*', self.bytes.get(i..)?)?;
            match (self.bytes.get(at), self.bytes.get(at + 1)) {
                (Some(b'/'), Some(b'*')) => {
                    depth += 1;
                    i = at + 2;
                }
                (Some(b'*'), Some(b'/')) => {
                    depth -= 1;
                    i = at + 2;
                    if depth == 0 {
                        return Some(i);
                    }
                }
                (_, Some(_)) => i = at + 1,
                // The last byte: no pair starts there.
                _ => return None,
            }
        }
    }

    /// Skips a string or name literal. UnrealScript literals cannot span lines, so an
    /// unterminated one ends at the line break (and the next line is scanned normally).
    fn skip_string(&self, open: usize, quote: u8) -> usize {
        let len = self.bytes.len();
        let mut i = open + 1;
        // From one backslash, line feed or quote to the next; a backslash escapes the byte
        // after it, whatever it is.
        while let Some(rest) = self.bytes.get(i..) {
            let Some(at) = memchr::memchr3(b'\\', b'\n', quote, rest).map(|p| i + p) else {
                return len;
            };
            match self.bytes.get(at) {
                Some(b'\\') => i = at + 2,
                Some(b'\n') => return at,
                _ => return at + 1,
            }
        }
        len
    }

    fn identifier(&mut self, start: usize) -> usize {
        let end = self.ident_end(start);
        let word = self.bytes.get(start..end).unwrap_or_default();
        if word.eq_ignore_ascii_case(b"defaultproperties") {
            if let Some(after) = self.skip_defaultproperties(start, end) {
                return after;
            }
        }
        let is_cpp = [&b"cpptext"[..], b"cppstruct", b"structcpptext"]
            .iter()
            .any(|k| word.eq_ignore_ascii_case(k));
        if is_cpp {
            if word.eq_ignore_ascii_case(b"cpptext") {
                if let Some(after) = self.skip_cpptext_lines(start, end) {
                    return after;
                }
            }
            if let Some(after) = self.skip_cpp_block(start, end) {
                return after;
            }
        }
        end
    }

    /// `defaultproperties` as the class importer cuts it out before the compiler sees the
    /// script (`UClassFactoryUC::FactoryCreateText`, UT2004 `Editor/Src/UnEdFact.cpp:260-326`,
    /// UT v400 `Editor/Src/UnEdFact.cpp:222-233`): a line whose first word is the keyword
    /// starts the block (the rest of that line is dropped), and every later line up to and
    /// including the first whose first non-blank byte is `}` is default-property text, never
    /// compiled: a `#` there (`IRCChannel=#utgames`) is no directive. Without such a line the
    /// block runs to the end of the text. Returns `None` when the keyword does not begin its
    /// line (an ordinary identifier).
    fn skip_defaultproperties(&self, keyword_start: usize, keyword_end: usize) -> Option<usize> {
        let line_start = self.line_start(keyword_start);
        if !self.bytes[line_start..keyword_start].iter().all(|&b| b == b' ' || b == b'\t') {
            return None;
        }
        let mut line = self.line_end(keyword_end) + 1;
        while line < self.bytes.len() {
            let first = self.bytes[line..].iter().position(|&b| !matches!(b, b' ' | b'\t' | b'\r'));
            if first.is_some_and(|at| self.bytes[line + at] == b'}') {
                return Some(self.line_end(line));
            }
            line = self.line_end(line) + 1;
        }
        Some(self.bytes.len())
    }

    /// `cpptext` as UE2's class importer cuts it out (`UClassFactoryUC`,
    /// `Editor/Src/UnEdFact.cpp`): the keyword begins its line, the next line begins with `{`,
    /// and the block ends at the first later line that begins with `}`, whatever braces stand
    /// between. Returns `None` when the text is not laid out so (then braces are counted).
    fn skip_cpptext_lines(&mut self, keyword_start: usize, keyword_end: usize) -> Option<usize> {
        let line_start = self.line_start(keyword_start);
        if !self.bytes[line_start..keyword_start].iter().all(|&b| b == b' ' || b == b'\t') {
            return None;
        }
        let open_line = self.line_end(keyword_end) + 1;
        if self.at(open_line) != b'{' {
            return None;
        }
        let mut line = self.line_end(open_line) + 1;
        while line < self.bytes.len() {
            if self.bytes[line] == b'}' {
                return Some(self.line_end(line));
            }
            line = self.line_end(line) + 1;
        }
        self.result
            .errors
            .push(ScanError::UnterminatedCppBlock { keyword: span(keyword_start, keyword_end) });
        Some(self.bytes.len())
    }

    /// After a C++ block keyword: skips whitespace and comments to `{`, then the balanced block.
    /// Returns `None` when no `{` follows (then the keyword was an ordinary identifier).
    fn skip_cpp_block(&mut self, keyword_start: usize, keyword_end: usize) -> Option<usize> {
        let len = self.bytes.len();
        let mut i = keyword_end;
        loop {
            match self.at(i) {
                b' ' | b'\t' | b'\r' | b'\n' => i += 1,
                b'/' if self.at(i + 1) == b'/' => i = self.line_end(i),
                b'/' if self.at(i + 1) == b'*' => {
                    i = self.find(i + 2, b"*/").map_or(len, |c| c + 2);
                }
                b'{' => break,
                _ => return None,
            }
            if i >= len {
                return None;
            }
        }
        let mut depth = 0usize;
        while i < len {
            match self.bytes[i] {
                b'{' => {
                    depth += 1;
                    i += 1;
                }
                b'}' => {
                    depth = depth.saturating_sub(1);
                    i += 1;
                    if depth == 0 {
                        return Some(i);
                    }
                }
                b'/' if self.at(i + 1) == b'/' => i = self.line_end(i),
                b'/' if self.at(i + 1) == b'*' => {
                    i = self.find(i + 2, b"*/").map_or(len, |c| c + 2);
                }
                q @ (b'"' | b'\'') => i = self.skip_string(i, q),
                _ => i += 1,
            }
        }
        self.result
            .errors
            .push(ScanError::UnterminatedCppBlock { keyword: span(keyword_start, keyword_end) });
        Some(len)
    }

    /// True when `at` stands where a declaration or statement begins: only blanks before it on
    /// its line, or a `;`, `{` or `}` right before (blanks aside). The compiler takes `#` as a
    /// directive only there (`CompileDeclaration`, UT v400 `Editor/Src/UnScrCom.cpp:4450`,
    /// UT2004 `:5662`); inside an expression (`count = #localSkills;`, a licensee's operator)
    /// it is not one.
    fn begins_statement(&self, at: usize) -> bool {
        let before = self.bytes.get(self.line_start(at)..at).unwrap_or_default();
        match before.iter().rev().find(|&&b| !matches!(b, b' ' | b'\t' | b'\r')) {
            None => true,
            Some(b) => matches!(b, b';' | b'{' | b'}'),
        }
    }

    fn directive(&mut self, hash: usize) -> usize {
        // The compiler reads the word after `#` as an identifier, blanks skipped: `# exec`.
        let mut word_start = hash + 1;
        while matches!(self.at(word_start), b' ' | b'\t') {
            word_start += 1;
        }
        let mut word_end = word_start;
        while word_end < self.bytes.len() && is_ident_byte(self.bytes[word_end]) {
            word_end += 1;
        }
        // The word is ASCII by construction, so this slice is on char boundaries.
        let word = std::str::from_utf8(&self.bytes[word_start..word_end]).unwrap_or("");
        let Some(kind) = DirectiveKind::from_word(word) else {
            if !word.is_empty() && self.begins_statement(hash) {
                self.result.errors.push(ScanError::UnknownDirective { span: span(hash, word_end) });
            }
            return if word.is_empty() { hash + 1 } else { word_end };
        };
        let newline = self.line_end(word_end);
        let line_end =
            if newline > word_end && self.at(newline - 1) == b'\r' { newline - 1 } else { newline };
        let line_start = self.line_start(hash);
        let at_line_start = self.bytes[line_start..hash].iter().all(|&b| b == b' ' || b == b'\t');
        self.result.directives.push(Directive {
            kind,
            span: span(line_start, line_end),
            hash_span: span(hash, word_end),
            body_span: span(word_end, line_end),
            at_line_start,
        });
        // The command ends at the first `//` or `/*`; the compiler then skips to the line end
        // reading characters as code (`CompileDirective`, `Editor/Src/UnScrCom.cpp`), so a `/*`
        // there opens a block comment, which may run over the following lines.
        let body = &self.bytes[word_end..line_end];
        let first_comment = memchr::memchr_iter(b'/', body)
            .find(|&at| matches!(body.get(at + 1), Some(b'/' | b'*')));
        match first_comment {
            Some(at) if body[at + 1] == b'*' => {
                let comment_end = self.skip_block_comment(word_end + at);
                self.line_end(comment_end)
            }
            _ => newline,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{scan, ScanResult};

    /// The scanner as it was before its searches used memchr and byte tables (a comparison at
    /// every byte), against which [`scan`] must find the same directives and errors.
    mod reference {
        use super::super::{Directive, DirectiveKind, ScanError, ScanResult};
        use crate::Span;

        pub(super) fn scan(text: &str) -> ScanResult {
            let bytes = text.as_bytes();
            let mut result = ScanResult::default();
            if !bytes.contains(&b'#') {
                return result;
            }
            let mut scanner = Scanner { bytes, result: &mut result };
            scanner.run();
            result
        }

        pub(super) struct Scanner<'a, 'r> {
            bytes: &'a [u8],
            result: &'r mut ScanResult,
        }

        fn is_ident_byte(b: u8) -> bool {
            b.is_ascii_alphanumeric() || b == b'_'
        }

        fn span(start: usize, end: usize) -> Span {
            Span::from_range(start..end)
        }

        impl Scanner<'_, '_> {
            fn at(&self, i: usize) -> u8 {
                self.bytes.get(i).copied().unwrap_or(0)
            }

            fn find(&self, from: usize, needle: &[u8]) -> Option<usize> {
                let hay = self.bytes.get(from..)?;
                hay.windows(needle.len()).position(|w| w == needle).map(|p| p + from)
            }

            fn line_end(&self, from: usize) -> usize {
                self.bytes
                    .get(from..)
                    .and_then(|rest| rest.iter().position(|&b| b == b'\n'))
                    .map_or(self.bytes.len(), |p| p + from)
            }

            pub(super) fn run(&mut self) {
                let len = self.bytes.len();
                let mut i = 0;
                while i < len {
                    let b = self.bytes[i];
                    match b {
                        b'/' if self.at(i + 1) == b'/' => i = self.line_end(i),
                        b'/' if self.at(i + 1) == b'*' => i = self.skip_block_comment(i),
                        b'"' | b'\'' => i = self.skip_string(i, b),
                        b'#' => i = self.directive(i),
                        b if b.is_ascii_alphabetic() || b == b'_' => i = self.identifier(i),
                        b if b.is_ascii_digit() => {
                            // A number like `1e5` must not be read as an identifier start.
                            while i < len && is_ident_byte(self.bytes[i]) {
                                i += 1;
                            }
                        }
                        _ => i += 1,
                    }
                }
            }

            /// Skips a block comment. The compiler counts `/*` and `*/` (`GetChar`,
            /// `Editor/Src/UnScrCom.cpp`), so comments nest: `/* a /* b */ c */` is one comment.
            fn skip_block_comment(&mut self, open: usize) -> usize {
                let end = self.block_comment_end(open);
                if end.is_none() {
                    self.result
                        .errors
                        .push(ScanError::UnterminatedBlockComment { open: span(open, open + 2) });
                }
                end.unwrap_or(self.bytes.len())
            }

            /// The end of the nested block comment opened at `open`, or `None` when it never closes.
            fn block_comment_end(&self, open: usize) -> Option<usize> {
                let mut depth = 1usize;
                let mut i = open + 2;
                while i + 1 < self.bytes.len() {
                    match (self.bytes[i], self.bytes[i + 1]) {
                        (b'/', b'*') => {
                            depth += 1;
                            i += 2;
                        }
                        (b'*', b'/') => {
                            depth -= 1;
                            i += 2;
                            if depth == 0 {
                                return Some(i);
                            }
                        }
                        _ => i += 1,
                    }
                }
                None
            }

            /// Skips a string or name literal. UnrealScript literals cannot span lines, so an
            /// unterminated one ends at the line break (and the next line is scanned normally).
            fn skip_string(&self, open: usize, quote: u8) -> usize {
                let mut i = open + 1;
                while i < self.bytes.len() {
                    match self.bytes[i] {
                        b'\\' => i += 2,
                        b'\n' => return i,
                        b if b == quote => return i + 1,
                        _ => i += 1,
                    }
                }
                self.bytes.len()
            }

            fn identifier(&mut self, start: usize) -> usize {
                let mut end = start;
                while end < self.bytes.len() && is_ident_byte(self.bytes[end]) {
                    end += 1;
                }
                let word = &self.bytes[start..end];
                if word.eq_ignore_ascii_case(b"defaultproperties") {
                    let line_start =
                        self.bytes[..start].iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1);
                    if self.bytes[line_start..start].iter().all(|&b| b == b' ' || b == b'\t') {
                        // Every later line up to the first that begins (after blanks) with `}`.
                        let mut line = self.line_end(end) + 1;
                        while line < self.bytes.len() {
                            let mut i = line;
                            while matches!(self.at(i), b' ' | b'\t' | b'\r') {
                                i += 1;
                            }
                            if self.at(i) == b'}' {
                                return self.line_end(line);
                            }
                            line = self.line_end(line) + 1;
                        }
                        return self.bytes.len();
                    }
                }
                let is_cpp = [&b"cpptext"[..], b"cppstruct", b"structcpptext"]
                    .iter()
                    .any(|k| word.eq_ignore_ascii_case(k));
                if is_cpp {
                    if word.eq_ignore_ascii_case(b"cpptext") {
                        if let Some(after) = self.skip_cpptext_lines(start, end) {
                            return after;
                        }
                    }
                    if let Some(after) = self.skip_cpp_block(start, end) {
                        return after;
                    }
                }
                end
            }

            /// `cpptext` as UE2's class importer cuts it out (`UClassFactoryUC`,
            /// `Editor/Src/UnEdFact.cpp`): the keyword begins its line, the next line begins with `{`,
            /// and the block ends at the first later line that begins with `}`, whatever braces stand
            /// between. Returns `None` when the text is not laid out so (then braces are counted).
            fn skip_cpptext_lines(
                &mut self,
                keyword_start: usize,
                keyword_end: usize,
            ) -> Option<usize> {
                let line_start = self.bytes[..keyword_start]
                    .iter()
                    .rposition(|&b| b == b'\n')
                    .map_or(0, |p| p + 1);
                if !self.bytes[line_start..keyword_start].iter().all(|&b| b == b' ' || b == b'\t') {
                    return None;
                }
                let open_line = self.line_end(keyword_end) + 1;
                if self.at(open_line) != b'{' {
                    return None;
                }
                let mut line = self.line_end(open_line) + 1;
                while line < self.bytes.len() {
                    if self.bytes[line] == b'}' {
                        return Some(self.line_end(line));
                    }
                    line = self.line_end(line) + 1;
                }
                self.result.errors.push(ScanError::UnterminatedCppBlock {
                    keyword: span(keyword_start, keyword_end),
                });
                Some(self.bytes.len())
            }

            /// After a C++ block keyword: skips whitespace and comments to `{`, then the balanced block.
            /// Returns `None` when no `{` follows (then the keyword was an ordinary identifier).
            fn skip_cpp_block(
                &mut self,
                keyword_start: usize,
                keyword_end: usize,
            ) -> Option<usize> {
                let len = self.bytes.len();
                let mut i = keyword_end;
                loop {
                    match self.at(i) {
                        b' ' | b'\t' | b'\r' | b'\n' => i += 1,
                        b'/' if self.at(i + 1) == b'/' => i = self.line_end(i),
                        b'/' if self.at(i + 1) == b'*' => {
                            i = self.find(i + 2, b"*/").map_or(len, |c| c + 2);
                        }
                        b'{' => break,
                        _ => return None,
                    }
                    if i >= len {
                        return None;
                    }
                }
                let mut depth = 0usize;
                while i < len {
                    match self.bytes[i] {
                        b'{' => {
                            depth += 1;
                            i += 1;
                        }
                        b'}' => {
                            depth = depth.saturating_sub(1);
                            i += 1;
                            if depth == 0 {
                                return Some(i);
                            }
                        }
                        b'/' if self.at(i + 1) == b'/' => i = self.line_end(i),
                        b'/' if self.at(i + 1) == b'*' => {
                            i = self.find(i + 2, b"*/").map_or(len, |c| c + 2);
                        }
                        q @ (b'"' | b'\'') => i = self.skip_string(i, q),
                        _ => i += 1,
                    }
                }
                self.result.errors.push(ScanError::UnterminatedCppBlock {
                    keyword: span(keyword_start, keyword_end),
                });
                Some(len)
            }

            fn directive(&mut self, hash: usize) -> usize {
                // The compiler reads the word after `#` as an identifier, blanks skipped: `# exec`.
                let mut word_start = hash + 1;
                while matches!(self.at(word_start), b' ' | b'\t') {
                    word_start += 1;
                }
                let mut word_end = word_start;
                while word_end < self.bytes.len() && is_ident_byte(self.bytes[word_end]) {
                    word_end += 1;
                }
                // The word is ASCII by construction, so this slice is on char boundaries.
                let word = std::str::from_utf8(&self.bytes[word_start..word_end]).unwrap_or("");
                let Some(kind) = DirectiveKind::from_word(word) else {
                    // Only where a declaration or statement begins.
                    let line_start =
                        self.bytes[..hash].iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1);
                    let mut i = hash;
                    while i > line_start && matches!(self.bytes[i - 1], b' ' | b'\t' | b'\r') {
                        i -= 1;
                    }
                    let begins = i == line_start || matches!(self.bytes[i - 1], b';' | b'{' | b'}');
                    if !word.is_empty() && begins {
                        self.result
                            .errors
                            .push(ScanError::UnknownDirective { span: span(hash, word_end) });
                    }
                    return if word.is_empty() { hash + 1 } else { word_end };
                };
                let newline = self.line_end(word_end);
                let line_end = if newline > word_end && self.at(newline - 1) == b'\r' {
                    newline - 1
                } else {
                    newline
                };
                let line_start =
                    self.bytes[..hash].iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1);
                let at_line_start =
                    self.bytes[line_start..hash].iter().all(|&b| b == b' ' || b == b'\t');
                self.result.directives.push(Directive {
                    kind,
                    span: span(line_start, line_end),
                    hash_span: span(hash, word_end),
                    body_span: span(word_end, line_end),
                    at_line_start,
                });
                // The command ends at the first `//` or `/*`; the compiler then skips to the line end
                // reading characters as code (`CompileDirective`, `Editor/Src/UnScrCom.cpp`), so a `/*`
                // there opens a block comment, which may run over the following lines.
                let body = &self.bytes[word_end..line_end];
                let first_comment = body.windows(2).position(|w| w == b"//" || w == b"/*");
                match first_comment {
                    Some(at) if body[at + 1] == b'*' => {
                        let comment_end = self.skip_block_comment(word_end + at);
                        self.line_end(comment_end)
                    }
                    _ => newline,
                }
            }
        }
    }

    /// Texts built of the pieces the scanner reacts to (comments, nested and unclosed; strings
    /// and names with escapes and line breaks; directives, known and not, with comments in
    /// them; C++ blocks laid out as UE2 cuts them and not; numbers and identifiers next to
    /// them) give the same directives and errors as the reference.
    #[test]
    fn scan_finds_what_the_reference_finds() {
        let pieces = [
            "#exec",
            "#EXEC ",
            "# exec",
            "#AlwaysExec",
            "#exce",
            "#",
            "#1",
            "#include",
            "//",
            "/*",
            "*/",
            "/",
            "*",
            "\"",
            "'",
            "\\",
            "\n",
            "\r\n",
            " ",
            "\t",
            "{",
            "}",
            "cpptext",
            "CppText\n{\n",
            "cppstruct",
            "structcpptext",
            "\n}",
            "defaultproperties",
            "x = ",
            ";",
            "\ndefaultproperties\n{\n",
            "\n  }",
            "1e5",
            "x1",
            "_",
            "MESH IMPORT MESH=A FILE=\"a b\"",
            " NAME=x // c",
            "é",
            ";",
        ];
        let mut state = 0x9E37_79B9_7F4A_7C15_u64;
        let mut directives = 0;
        for _ in 0..30_000 {
            let text = crate::exec::random_text(&mut state, &pieces, 24);
            let found: ScanResult = scan(&text);
            assert_eq!(found, reference::scan(&text), "{text:?}");
            directives += found.directives.len();
        }
        assert!(directives > 10_000, "{directives}");
    }
}
