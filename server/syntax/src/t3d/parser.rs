//! Lines to blocks. The block structure is tracked with an explicit stack (so a file nested
//! 10,000 blocks deep cannot overflow anything); each line is classified by its first word
//! and handed to the nom parsers in [`super::values`].

use super::ast::{
    Arg, Attribute, Block, BlockKind, EndLine, Item, KeywordLine, LineKeyword, Property, T3dFile,
    VectorLine,
};
use super::values::{self, ValueParser};
use super::{SyntaxError, SyntaxErrorKind};
use crate::Span;

/// Blocks nested deeper than this are not opened: real files nest at most six deep, and the
/// bound keeps every recursive walk over the tree (analysis, drop) within the stack.
pub const MAX_DEPTH: usize = 64;

/// What [`Parser::parse_in_frame`] found.
#[derive(Debug)]
pub enum FrameParse {
    /// The lines leave only the frame open (or nothing, without a frame): the items they
    /// make and the errors on them.
    Closed(Vec<Item>, Vec<SyntaxError>),
    /// A block opened in the lines is still open at their end (or blocks nest past the
    /// limit there): the lines after the range belong to it, so this is not the whole story.
    /// The items finished before it are final (with the errors met so far, theirs among
    /// them); the last field is where the outermost open block starts (`None` when blocks
    /// nest past the limit).
    Open(Vec<Item>, Vec<SyntaxError>, Option<u32>),
    /// An `End` in the lines closed the frame itself.
    FrameEnded,
}

pub(crate) struct Parser<'t> {
    text: &'t str,
    pub(super) errors: Vec<SyntaxError>,
    /// Open blocks, innermost last.
    pub(super) stack: Vec<Block>,
    pub(super) top: Vec<Item>,
    /// `Begin` lines beyond [`MAX_DEPTH`] that are waiting for their `End`.
    pub(super) overflow: usize,
    /// Only the block structure: see [`Parser::shallow`].
    shallow: bool,
    /// The number of children the last closed block of each kind had: a block's children
    /// are allocated for as many up front (neighbouring actors, brushes and polygons of a
    /// map look alike), instead of growing four or five times over.
    last_children: [u16; BLOCK_KINDS],
    /// When asked for ([`super::OutlinePlan::parse_piece_indexed`]): the start of every line
    /// after a line break the lines met, so that a caller indexing lines needs no second pass.
    pub(super) line_starts: Option<Vec<u32>>,
}

/// The number of [`BlockKind`]s.
const BLOCK_KINDS: usize = BlockKind::Other as usize + 1;

impl<'t> Parser<'t> {
    pub(crate) fn new(text: &'t str) -> Self {
        Self {
            text,
            errors: Vec::new(),
            stack: Vec::new(),
            top: Vec::new(),
            overflow: 0,
            shallow: false,
            last_children: [0; BLOCK_KINDS],
            line_starts: None,
        }
    }

    /// A parser that reads only the block structure, as cheaply as it can: lines other than
    /// `Begin`/`End` are kept as [`Item::Unknown`] without parsing their values, and below
    /// the second level only each block's last child is kept, as its span (what an unclosed
    /// block's span is computed from; those blocks' attributes are read for their errors
    /// only). The blocks of the first two levels, their spans and attributes, and the errors
    /// of the `Begin`/`End` lines are those of a full parse: nothing else decides the
    /// structure.
    pub(crate) fn shallow(text: &'t str) -> Self {
        Self { shallow: true, ..Self::new(text) }
    }

    /// Parses `text[range]`, whose spans are absolute offsets into `text`.
    pub(crate) fn parse_range(mut self, start: usize, end: usize) -> (T3dFile, Vec<SyntaxError>) {
        self.lines(start, end);
        self.finish(end)
    }

    /// Parses `text[range]` as lines standing inside `frame` (an open block whose `Begin`
    /// line comes before the range), or at the top level without one: what a parse of the
    /// whole text does there, when no other block is open where the range starts. The state
    /// of the parser between lines is its stack of open blocks (and the overflow count), so
    /// when the range ends with that state again (only `frame` open, or nothing), its items
    /// are exactly the ones a whole parse gives those lines.
    pub(crate) fn parse_in_frame(
        mut self,
        frame: Option<&Block>,
        start: usize,
        end: usize,
    ) -> FrameParse {
        if let Some(frame) = frame {
            let mut shell = frame.clone();
            shell.children = Vec::new();
            shell.end = None;
            self.stack.push(shell);
        }
        self.lines(start, end);
        let depth = usize::from(frame.is_some());
        if self.overflow > 0 || self.stack.len() > depth {
            if frame.is_some() && !self.top.is_empty() {
                return FrameParse::FrameEnded;
            }
            // What was finished before the block that stays open is final.
            let open_from =
                self.stack.get(depth).map(|b| b.span.start).filter(|_| self.overflow == 0);
            let done = if frame.is_some() {
                self.stack.first_mut().map(|f| std::mem::take(&mut f.children)).unwrap_or_default()
            } else {
                std::mem::take(&mut self.top)
            };
            self.errors.sort_by_key(|e| (e.span.start, e.span.end));
            return FrameParse::Open(done, self.errors, open_from);
        }
        let items = match self.stack.pop() {
            Some(frame) if self.top.is_empty() => frame.children,
            Some(_) => return FrameParse::FrameEnded,
            None if frame.is_some() => return FrameParse::FrameEnded,
            None => std::mem::take(&mut self.top),
        };
        self.errors.sort_by_key(|e| (e.span.start, e.span.end));
        FrameParse::Closed(items, self.errors)
    }

    pub(super) fn lines(&mut self, start: usize, end: usize) {
        let bytes = self.text.as_bytes();
        if bytes.get(start..end).is_none() {
            return;
        }
        let mut line_start = start;
        // Lines end at LF, CRLF or a lone CR, as `ParseLine` reads them: a classic Mac
        // export is all lone CRs.
        let next_starts = crate::text::line_starts_in(bytes, start, end);
        for next in next_starts.chain((end > start).then_some(end + 1)) {
            if line_start >= end {
                break;
            }
            let line_end = next - 1;
            self.line(line_start, content_end(bytes, line_start, line_end));
            line_start = next;
            if line_end < end {
                if let Some(starts) = &mut self.line_starts {
                    starts.push(u32::try_from(line_start).unwrap_or(u32::MAX));
                }
            }
        }
    }

    pub(super) fn finish(mut self, end: usize) -> (T3dFile, Vec<SyntaxError>) {
        let file_end = (Span::empty_at(end as u32), "the file ends here");
        while self.close_unclosed("before the end of the file", file_end) {}
        self.errors.sort_by_key(|e| (e.span.start, e.span.end));
        (T3dFile { items: self.top }, self.errors)
    }

    /// Closes the innermost open block as never closed (its span ends at its last child) and
    /// reports it: expected its `End` `before` what `related` points at. `false` when no
    /// block is open.
    fn close_unclosed(&mut self, before: &str, related: (Span, &str)) -> bool {
        let Some(mut block) = self.stack.pop() else { return false };
        let last = block.children.last().map_or(block.begin_span.end, |c| c.span().end);
        block.span = Span::new(block.span.start, last);
        let kind = block.kind_span.text(self.text);
        self.errors.push(SyntaxError {
            kind: SyntaxErrorKind::UnclosedBlock,
            span: block.begin_span,
            message: format!("`Begin {kind}` is never closed: expected `End {kind}` {before}"),
            related: vec![(related.0, related.1.to_owned())],
            engine_reads: None,
        });
        self.attach_block(block);
        true
    }

    /// Attaches a finished block; in an outline, a block below the second level is kept as
    /// its span alone (only the last child's end is ever read there).
    fn attach_block(&mut self, block: Block) {
        if self.shallow && self.stack.len() >= 2 {
            self.attach(Item::Unknown(block.span));
        } else {
            self.attach(Item::Block(Box::new(block)));
        }
    }

    fn attach(&mut self, item: Item) {
        let depth = self.stack.len();
        match self.stack.last_mut() {
            Some(parent) if self.shallow && depth >= 2 => {
                if let [last] = parent.children.as_mut_slice() {
                    *last = item;
                } else {
                    parent.children.clear();
                    parent.children.push(item);
                }
            }
            Some(parent) => parent.children.push(item),
            None => self.top.push(item),
        }
    }

    fn line(&mut self, start: usize, end: usize) {
        if self.shallow && !self.may_begin_or_end(start, end) {
            if let Some((_, _, span)) = line_content(self.text, start, end) {
                self.attach(Item::Unknown(span));
            }
            return;
        }
        let Some((content, content_start, span)) = line_content(self.text, start, end) else {
            return;
        };
        let word_len = ident_len(content);
        let word = &content[..word_len];
        let after_word = &content[word_len..];
        let word_ends_line = after_word.is_empty() || after_word.starts_with([' ', '\t']);

        if word_ends_line && word.eq_ignore_ascii_case("begin") {
            self.begin(content, content_start, span);
        } else if word_ends_line && word.eq_ignore_ascii_case("end") {
            self.end(content, content_start, span);
        } else if self.shallow {
            self.attach(Item::Unknown(span));
        } else if let Some(property) = (!word_ends_line)
            .then(|| self.property(content, content_start, span, word_len))
            .flatten()
        {
            // (A property's name is followed by `=`, `(` or `[`: a word that ends the line or
            // is followed by a blank starts a keyword line, never a property.)
            self.attach(Item::Property(Box::new(property)));
        } else if !word.is_empty() && word_ends_line {
            let item = self.keyword_line(content, content_start, span, word_len);
            self.attach(item);
        } else {
            self.attach(Item::Unknown(span));
        }
    }

    /// Whether the line's first word can be `Begin` or `End`: an outline reads nothing else,
    /// and most lines of a map are neither.
    fn may_begin_or_end(&self, start: usize, end: usize) -> bool {
        let bytes = self.text.as_bytes().get(start..end).unwrap_or_default();
        matches!(bytes.get(values::blanks(bytes)), Some(b'b' | b'B' | b'e' | b'E'))
    }

    fn begin(&mut self, content: &str, content_start: usize, span: Span) {
        let kind_offset = 5 + values::blanks(content.as_bytes().get(5..).unwrap_or_default());
        let rest = content.get(kind_offset..).unwrap_or_default();
        let kind_len = ident_len(rest);
        let kind_start = content_start + kind_offset;
        let kind_span = Span::new(kind_start as u32, (kind_start + kind_len) as u32);
        let kind = BlockKind::from_name(kind_span.text(self.text));
        if self.overflow == 0 && kind == BlockKind::Actor {
            self.close_before_actor(span);
        }
        if self.stack.len() >= MAX_DEPTH || self.overflow > 0 {
            self.overflow += 1;
            if self.overflow == 1 {
                self.errors.push(SyntaxError {
                    kind: SyntaxErrorKind::TooDeep,
                    span,
                    message: format!(
                        "blocks nest deeper than {MAX_DEPTH} levels here; this block and \
                         everything inside it is skipped"
                    ),
                    related: Vec::new(),
                    engine_reads: None,
                });
            }
            self.attach(Item::Unknown(span));
            return;
        }
        if kind_len == 0 {
            // Without a kind there is nothing for an `End` to match: keep the line, open nothing.
            self.errors.push(SyntaxError {
                kind: SyntaxErrorKind::MissingBlockKind,
                span,
                message: "`Begin` without a block kind: expected `Begin Map`, `Begin Actor`, \
                          `Begin Polygon`, ..."
                    .to_owned(),
                related: Vec::new(),
                engine_reads: None,
            });
            self.attach(Item::Unknown(span));
            return;
        }
        // An outline keeps no block below the second level, so it reads those blocks'
        // attributes only for their errors.
        let keep = !(self.shallow && self.stack.len() >= 2);
        let attributes = self.attributes(&rest[kind_len..], kind_start + kind_len, keep);
        // A polygon holds its origin, normal, texture axes, pan and a few vertices: one
        // allocation up front instead of three growths (parsing a map is mostly polygons).
        // Other blocks get as many as the last of their kind had, except the map or level,
        // which holds everything.
        let children = match kind {
            _ if self.shallow => Vec::new(),
            BlockKind::Polygon => Vec::with_capacity(10),
            BlockKind::Map | BlockKind::Level => Vec::new(),
            _ => Vec::with_capacity(usize::from(self.last_children[kind as usize])),
        };
        self.stack.push(Block {
            kind,
            kind_span,
            begin_span: span,
            attributes,
            children,
            end: None,
            span,
        });
    }

    /// An actor stands directly in a `Begin Map`/`Begin Level` (or at the top of a clipboard
    /// copy), never inside another block: `Begin Actor` closes every block still open inside
    /// the innermost map, each reported as never closed. UnrealEd reads the same way (its
    /// actor loop ends at the next actor at the latest), and it keeps a lost `End Actor` from
    /// pulling every later actor of the map into the open one: the damage stays between the
    /// broken actor and the next, which is also what lets an editor re-parse only there.
    pub(super) fn close_before_actor(&mut self, next: Span) {
        // Unreal's pre-release editor (0.84) wrote a map's actors inside `Begin ActorList`;
        // the released importer reads `Begin Actor` wherever it stands (`GetBEGIN` does not
        // take `ActorList` for `Actor`), so such a list holds actors as a map does.
        let text = self.text;
        let keep = self
            .stack
            .iter()
            .rposition(|b| {
                matches!(b.kind, BlockKind::Map | BlockKind::Level)
                    || (b.kind == BlockKind::Other
                        && b.kind_span.text(text).eq_ignore_ascii_case("ActorList"))
            })
            .map_or(0, |i| i + 1);
        while self.stack.len() > keep {
            self.close_unclosed(
                "before the next `Begin Actor`",
                (next, "the next actor starts here"),
            );
        }
    }

    fn attributes(&mut self, mut input: &str, mut offset: usize, keep: bool) -> Vec<Attribute> {
        let mut attributes = Vec::new();
        loop {
            let lead = values::blanks(input.as_bytes());
            offset += lead;
            input = &input[lead..];
            if input.is_empty() {
                return attributes;
            }
            let key_len =
                memchr::memchr3(b'=', b' ', b'\t', input.as_bytes()).unwrap_or(input.len());
            let key = Span::new(offset as u32, (offset + key_len) as u32);
            let (value, consumed) = if input[key_len..].starts_with('=') {
                let after_eq = &input[key_len + 1..];
                let value_len = values::attribute_value(after_eq).1.len();
                let value_start = offset + key_len + 1;
                (
                    Span::new(value_start as u32, (value_start + value_len) as u32),
                    key_len + 1 + value_len,
                )
            } else {
                (Span::empty_at(key.end), key_len)
            };
            let attribute = Attribute { key, value };
            self.check_attribute_number(attribute);
            if keep {
                attributes.push(attribute);
            }
            input = &input[consumed..];
            offset += consumed;
        }
    }

    /// `Flags=` and `Link=` must be integers; UnrealEd silently reads a bad one as 0.
    fn check_attribute_number(&mut self, attribute: Attribute) {
        let key = attribute.key.text(self.text);
        let value = attribute.value.text(self.text);
        if key.eq_ignore_ascii_case("Flags") && values::parse_flags(value).is_none() {
            self.errors.push(SyntaxError {
                kind: SyntaxErrorKind::MalformedNumber,
                span: if value.is_empty() { attribute.key } else { attribute.value },
                message: format!(
                    "`Flags={value}` is not a 32-bit integer: expected a decimal number from \
                     -2147483648 to 4294967295"
                ),
                related: Vec::new(),
                // `strtoul` wraps a negative number to the same 32 bits.
                engine_reads: Some(f64::from(values::leading_int(value).0 as u32)),
            });
        } else if key.eq_ignore_ascii_case("Link") && values::parse_int(value).is_none() {
            self.errors.push(SyntaxError {
                kind: SyntaxErrorKind::MalformedNumber,
                span: if value.is_empty() { attribute.key } else { attribute.value },
                message: format!("`Link={value}` is not an integer: expected a surface index"),
                related: Vec::new(),
                engine_reads: Some(values::leading_int(value).0 as f64),
            });
        }
    }

    fn end(&mut self, content: &str, content_start: usize, span: Span) {
        if self.overflow > 0 {
            self.overflow -= 1;
            self.attach(Item::Unknown(span));
            return;
        }
        let kind_offset = 3 + values::blanks(content.as_bytes().get(3..).unwrap_or_default());
        let rest = content.get(kind_offset..).unwrap_or_default();
        let kind_len = ident_len(rest);
        let kind_start = content_start + kind_offset;
        let kind_span = Span::new(kind_start as u32, (kind_start + kind_len) as u32);
        let end_kind = kind_span.text(self.text);
        let end_line = EndLine { span, kind_span };

        // `End` alone closes the innermost block; `End Kind` closes the innermost block of
        // that kind, and every block opened inside it is reported as never closed.
        let matches = |block: &Block, text: &str| {
            end_kind.is_empty() || block.kind_span.text(text).eq_ignore_ascii_case(end_kind)
        };
        let Some(position) = self.stack.iter().rposition(|b| matches(b, self.text)) else {
            let message = match self.stack.last() {
                Some(open) => format!(
                    "`End {end_kind}` does not match the open `Begin {}`: expected `End {}`",
                    open.kind_span.text(self.text),
                    open.kind_span.text(self.text),
                ),
                None if end_kind.is_empty() => "`End` has no block to close".to_owned(),
                None => format!("`End {end_kind}` has no matching `Begin {end_kind}`"),
            };
            let related = self
                .stack
                .last()
                .map(|open| (open.begin_span, "the open block starts here".to_owned()))
                .into_iter()
                .collect();
            self.errors.push(SyntaxError {
                kind: if self.stack.is_empty() {
                    SyntaxErrorKind::UnmatchedEnd
                } else {
                    SyntaxErrorKind::MismatchedEnd
                },
                span,
                message,
                related,
                engine_reads: None,
            });
            self.attach(Item::Unknown(span));
            return;
        };
        if self.stack.len() > position + 1 {
            // Only when blocks are left open: every `End` line of a map comes here.
            let before = format!("before `End {end_kind}`");
            let closer = format!("`End {end_kind}` closes the enclosing block here");
            while self.stack.len() > position + 1 {
                self.close_unclosed(&before, (span, &closer));
            }
        }
        if let Some(mut block) = self.stack.pop() {
            if let Some(last) = self.last_children.get_mut(block.kind as usize) {
                *last = u16::try_from(block.children.len()).unwrap_or(u16::MAX).min(256);
            }
            block.end = Some(end_line);
            block.span = Span::new(block.span.start, span.end);
            self.attach_block(block);
        }
    }

    /// `content` as `Key=Value`, `Key(3)=Value` or `Key[3]=Value`, whose key is the line's
    /// first word (`name_len` bytes, [`ident_len`]).
    fn property(
        &mut self,
        content: &'t str,
        content_start: usize,
        span: Span,
        name_len: usize,
    ) -> Option<Property> {
        if name_len == 0 {
            return None;
        }
        let (name, after_name) = content.split_at_checked(name_len)?;
        let (after_index, index) = match values::array_index(after_name) {
            Ok((rest, digits)) => {
                let digits_at = content_start
                    + (content.len() - after_name.len())
                    + after_name.find(|c: char| c.is_ascii_digit()).unwrap_or(0);
                let index_span = Span::new(digits_at as u32, (digits_at + digits.len()) as u32);
                (rest, Some((index_span, digits.parse::<u32>().unwrap_or(u32::MAX))))
            }
            Err(_) => (after_name, None),
        };
        let value_text = after_index.strip_prefix('=')?;
        let value_start = content_start + (content.len() - value_text.len());
        let mut parser =
            ValueParser { line: value_text, base: value_start as u32, bad_numbers: Vec::new() };
        let value = parser.top_value(value_text);
        for bad in parser.bad_numbers {
            let bad_text = bad.span.text(self.text);
            let engine_reads = if bad.integer {
                values::leading_int(bad_text).0 as f64
            } else {
                values::leading_number(bad_text).0
            };
            self.errors.push(SyntaxError {
                kind: SyntaxErrorKind::MalformedNumber,
                span: bad.span,
                message: if bad.span.is_empty() {
                    "missing number: vector and rotator components must be numbers".to_owned()
                } else {
                    format!(
                        "`{}` is not a number: vector and rotator components must be numbers",
                        bad.span.text(self.text)
                    )
                },
                related: Vec::new(),
                engine_reads: Some(engine_reads),
            });
        }
        let key = Span::new(content_start as u32, (content_start + name.len()) as u32);
        Some(Property { span, key, index, value })
    }

    fn keyword_line(
        &mut self,
        content: &str,
        content_start: usize,
        span: Span,
        word_len: usize,
    ) -> Item {
        let keyword_span = Span::new(content_start as u32, (content_start + word_len) as u32);
        let keyword = LineKeyword::from_name(&content[..word_len]);
        let after_word = &content[word_len..];
        let args_text = &after_word[values::blanks(after_word.as_bytes())..];
        let args_start = content_start + word_len + (after_word.len() - args_text.len());

        // Static mesh triangles write `Vertex <index> X,Y,Z U,V`: keep those as arguments.
        let in_triangle = self.stack.last().is_some_and(|b| b.kind == BlockKind::Triangle);
        if keyword.takes_vector() && !in_triangle {
            let parsed = values::vector(args_text);
            // Three numbers and nothing else hold no `=`: no old keyed form to look for (the
            // engine tries that first), and the usual line is done.
            if let Ok((value, used)) = parsed {
                if used == args_text.len() {
                    let value_span = Span::new(args_start as u32, (args_start + used) as u32);
                    return Item::Vector(VectorLine { span, keyword, value_span, value });
                }
            }
            if let Some(value) = values::keyed_vector(args_text) {
                let end = args_text.trim_end_matches([' ', '\t']).len();
                let value_span = Span::new(args_start as u32, (args_start + end) as u32);
                return Item::Vector(VectorLine { span, keyword, value_span, value });
            }
            match parsed {
                Ok((value, used)) => {
                    // The engine reads the three numbers and never looks at the rest.
                    self.errors.push(SyntaxError {
                        kind: SyntaxErrorKind::TrailingText,
                        span: Span::new((args_start + used) as u32, span.end),
                        message: format!(
                            "text after the `{}` vector's three numbers, which UnrealEd never reads",
                            keyword.canonical_name()
                        ),
                        related: Vec::new(),
                        engine_reads: None,
                    });
                    let value_span = Span::new(args_start as u32, (args_start + used) as u32);
                    return Item::Vector(VectorLine { span, keyword, value_span, value });
                }
                Err(at) => {
                    let bad_start = args_start + at;
                    let bad_len = args_text[at.min(args_text.len())..]
                        .find([',', ' ', '\t'])
                        .unwrap_or(args_text.len().saturating_sub(at));
                    let bad = Span::new(bad_start as u32, (bad_start + bad_len) as u32);
                    let shown = if bad_len == 0 {
                        "nothing".to_owned()
                    } else {
                        format!("`{}`", bad.text(self.text))
                    };
                    self.errors.push(SyntaxError {
                        kind: SyntaxErrorKind::MalformedVector,
                        span: if bad_len == 0 { span } else { bad },
                        message: format!(
                            "malformed `{}` vector: found {shown} where a number was expected \
                             (vectors are three numbers `X,Y,Z`, as in `+00128.000000,-00064.000000,+00000.000000`)",
                            keyword.canonical_name()
                        ),
                        related: Vec::new(),
                        engine_reads: (bad_len > 0)
                            .then(|| values::leading_number(bad.text(self.text)).0),
                    });
                    // Keep the vector as the engine reads it, so geometry checks see the
                    // vertex where UnrealEd puts it.
                    if let Some(value) = values::engine_vector(args_text) {
                        let end = args_text.trim_end_matches([' ', '\t']).len();
                        let value_span = Span::new(args_start as u32, (args_start + end) as u32);
                        return Item::Vector(VectorLine { span, keyword, value_span, value });
                    }
                }
            }
        }
        let args = Self::args(args_text, args_start);
        if keyword == LineKeyword::Pan {
            for arg in &args {
                let value = arg.value.text(self.text);
                if arg.key.is_some() && values::parse_number(value).is_none() {
                    self.errors.push(SyntaxError {
                        kind: SyntaxErrorKind::MalformedNumber,
                        span: if value.is_empty() {
                            arg.key.unwrap_or(arg.value)
                        } else {
                            arg.value
                        },
                        message: format!(
                            "`{value}` is not a number: `Pan` takes `U=<int> V=<int>`"
                        ),
                        related: Vec::new(),
                        engine_reads: Some(values::leading_int(value).0 as f64),
                    });
                }
            }
        }
        Item::Keyword(Box::new(KeywordLine { span, keyword, keyword_span, args }))
    }

    fn args(mut input: &str, mut offset: usize) -> Vec<Arg> {
        let mut args = Vec::new();
        loop {
            let lead = values::blanks(input.as_bytes());
            offset += lead;
            input = &input[lead..];
            if input.is_empty() {
                return args;
            }
            let token_len = memchr::memchr2(b' ', b'\t', input.as_bytes()).unwrap_or(input.len());
            let token = &input[..token_len];
            let arg = match memchr::memchr(b'=', token.as_bytes()) {
                Some(eq) if eq > 0 && values::ident_bytes(&token.as_bytes()[..eq]) == eq => {
                    let after_eq = &input[eq + 1..];
                    let value_len = values::attribute_value(after_eq).1.len();
                    let value_start = offset + eq + 1;
                    let arg = Arg {
                        key: Some(Span::new(offset as u32, (offset + eq) as u32)),
                        value: Span::new(value_start as u32, (value_start + value_len) as u32),
                    };
                    let consumed = eq + 1 + value_len;
                    input = &input[consumed..];
                    offset += consumed;
                    args.push(arg);
                    continue;
                }
                _ => {
                    Arg { key: None, value: Span::new(offset as u32, (offset + token_len) as u32) }
                }
            };
            args.push(arg);
            input = &input[token_len..];
            offset += token_len;
        }
    }
}

/// The end of a line's content: `end` (its line break, or the end of the text) less a CR
/// just before it (a CRLF's).
pub(super) fn content_end(bytes: &[u8], start: usize, end: usize) -> usize {
    if end > start && bytes.get(end - 1) == Some(&b'\r') {
        end - 1
    } else {
        end
    }
}

/// A line's text without its leading and trailing blanks, where that text starts, and its
/// span; `None` for a blank line.
pub(super) fn line_content(text: &str, start: usize, end: usize) -> Option<(&str, usize, Span)> {
    let bytes = text.as_bytes().get(start..end)?;
    let lead = values::blanks(bytes);
    let mut stop = bytes.len();
    while stop > lead && matches!(bytes.get(stop - 1), Some(b' ' | b'\t')) {
        stop -= 1;
    }
    if stop == lead {
        return None;
    }
    let (content_start, content_end) = (start + lead, start + stop);
    // Blanks are ASCII, so both ends are character boundaries when `start` and `end` are.
    let content = text.get(content_start..content_end)?;
    Some((content, content_start, Span::new(content_start as u32, content_end as u32)))
}

/// Whether the line `text[start..end]` (without its break) is a `Begin Actor` line, read as
/// [`Parser::line`] and [`Parser::begin`] read it.
pub(super) fn is_actor_begin(text: &str, start: usize, end: usize) -> bool {
    let Some((content, _, _)) = line_content(text, start, end) else { return false };
    let word_len = ident_len(content);
    let after_word = &content[word_len..];
    if !(after_word.is_empty() || after_word.starts_with([' ', '\t']))
        || !content[..word_len].eq_ignore_ascii_case("begin")
    {
        return false;
    }
    let kind_offset = 5 + values::blanks(content.as_bytes().get(5..).unwrap_or_default());
    let rest = content.get(kind_offset..).unwrap_or_default();
    BlockKind::from_name(&rest[..ident_len(rest)]) == BlockKind::Actor
}

/// The length of the identifier ([`values::is_ident_char`]) at the start of `text`, in bytes:
/// every identifier character is ASCII (a byte of a longer character is none), so this is
/// also a character boundary.
fn ident_len(text: &str) -> usize {
    // Every line's first word goes through here: one table look-up a byte.
    text.bytes().take_while(|&b| crate::text::IDENT_BYTES[usize::from(b)]).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ident_len_reads_what_is_ident_char_accepts() {
        for b in 0..=255u8 {
            let text = String::from_utf8_lossy(&[b, b'a', b' ']).into_owned();
            let expected = text.chars().take_while(|&c| values::is_ident_char(c)).count();
            assert_eq!(ident_len(&text), expected, "byte {b}");
        }
        assert_eq!(ident_len("Vertex_2 +1"), 8);
        assert_eq!(ident_len("caf\u{e9}"), 3);
    }
}
