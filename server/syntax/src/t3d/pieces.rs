//! A document's outline in pieces that can be parsed at the same time, then joined into
//! exactly the outline one pass gives.
//!
//! The parser's state between lines is its stack of open blocks (and the count of blocks
//! nested past the limit); everything else it keeps only grows. A `Begin Actor` line closes
//! every block open inside the innermost map ([`Parser::close_before_actor`]), so at such a
//! line the state of a well-formed map is always the same: only the map is open. The pieces
//! are therefore cut at `Begin Actor` lines, and every piece after the first starts from that
//! state, guessed from the document's first block. Joining checks the guess against the
//! state the pieces before actually reach; where it is wrong (a hostile or broken file: a
//! map opened late, an `End Map` halfway, blocks nested past the limit), the rest of the
//! document is parsed again in one pass from the true state. So the result never depends on
//! where the cuts fall: the tests join at every actor and compare.

use super::ast::{Block, BlockKind, Item};
use super::parser::{content_end, is_actor_begin, line_content, Parser};
use super::Parse;
use crate::text::{is_line_start, line_end_with_break, line_start};

/// Where a document is cut into pieces, and the state each piece after the first starts
/// from.
#[derive(Clone, Debug)]
pub struct OutlinePlan {
    /// The starts of the pieces after the first: starts of `Begin Actor` lines, ascending.
    cuts: Vec<usize>,
    /// The open blocks assumed at each cut, outermost first: the document's first block
    /// when it is a map or level (without children), else nothing.
    open: Vec<Block>,
}

/// One piece's outline (or parse): the parser's state after its lines.
pub struct OutlinePiece<'t> {
    parser: Parser<'t>,
}

impl OutlinePiece<'_> {
    /// The items the piece finished inside the document's frame (the map or level every
    /// piece after the first assumes open), in order; `None` when the piece holds no frame.
    /// A one-time check takes their children once it has read them.
    pub fn frame_children(&mut self) -> Option<&mut Vec<Item>> {
        let frame = match (self.parser.stack.first_mut(), self.parser.top.as_mut_slice()) {
            (Some(open), []) => open,
            // The frame closed in this piece (the last): it went to the top level.
            (None, [Item::Block(closed)]) => closed,
            _ => return None,
        };
        matches!(frame.kind, BlockKind::Map | BlockKind::Level).then_some(&mut frame.children)
    }

    /// Takes the syntax errors met in the piece, in text order: a one-time check files each
    /// with the item it stands on and gives back ([`Self::give_back_errors`]) those on no
    /// item, which the join then reports as a single pass does.
    pub fn take_sorted_errors(&mut self) -> Vec<super::SyntaxError> {
        self.parser.errors.sort_by_key(|e| (e.span.start, e.span.end));
        std::mem::take(&mut self.parser.errors)
    }

    /// The syntax errors the piece holds (all it met, or those given back by its owner).
    pub fn errors(&self) -> &[super::SyntaxError] {
        &self.parser.errors
    }

    /// Gives back errors taken by [`Self::take_sorted_errors`] that the join must report.
    pub fn give_back_errors(&mut self, errors: Vec<super::SyntaxError>) {
        self.parser.errors.extend(errors);
    }
}

impl OutlinePlan {
    /// Cuts `text` into about `pieces` pieces of similar size, each after the first
    /// starting at a `Begin Actor` line (fewer when the text has fewer such lines).
    pub fn new(text: &str, pieces: usize) -> Self {
        let mut candidates = Vec::new();
        let mut from = 0;
        for k in 1..pieces.max(1) {
            let target = (text.len() / pieces * k).max(from);
            let limit = text.len() / pieces * (k + 1);
            if let Some(cut) = next_actor_line(text, target, limit.max(target)) {
                candidates.push(cut);
                from = cut + 1;
            }
        }
        Self::with_cuts(text, &candidates)
    }

    /// Cuts `text` at these offsets, keeping only those that start a `Begin Actor` line
    /// (after the start of the text, ascending, each once).
    pub fn with_cuts(text: &str, candidates: &[usize]) -> Self {
        let bytes = text.as_bytes();
        let mut cuts: Vec<usize> = candidates
            .iter()
            .copied()
            .filter(|&at| {
                at > 0
                    && at < text.len()
                    && is_line_start(bytes, at)
                    && is_actor_begin(text, at, content_end_at(text, at))
            })
            .collect();
        cuts.sort_unstable();
        cuts.dedup();
        // Without a cut there is one piece, read from the start: nothing to assume.
        let open = cuts
            .first()
            .and_then(|&first| first_open_block(text, first))
            .filter(|b| matches!(b.kind, BlockKind::Map | BlockKind::Level))
            .into_iter()
            .collect();
        Self { cuts, open }
    }

    /// How many pieces.
    pub fn len(&self) -> usize {
        self.cuts.len() + 1
    }

    pub fn is_empty(&self) -> bool {
        false
    }

    /// The byte range of piece `index`: the pieces' ranges cover the text in order.
    pub fn range(&self, text: &str, index: usize) -> (usize, usize) {
        let start = if index == 0 { 0 } else { self.cuts.get(index - 1).copied().unwrap_or(0) };
        let end = self.cuts.get(index).copied().unwrap_or(text.len());
        (start, end.max(start))
    }

    /// Reads piece `index` (independent of every other piece: any order, any thread).
    pub fn piece<'t>(&self, text: &'t str, index: usize) -> OutlinePiece<'t> {
        self.read(text, index, Parser::shallow(text))
    }

    /// Piece `index` read by `parser` from the state the plan assumes there.
    fn read<'t>(&self, text: &'t str, index: usize, mut parser: Parser<'t>) -> OutlinePiece<'t> {
        if index > 0 {
            parser.stack.clone_from(&self.open);
        }
        let (start, end) = self.range(text, index);
        parser.lines(start, end);
        OutlinePiece { parser }
    }

    /// Parses piece `index` in full (every value, every level), as [`super::parse`] reads
    /// those lines from the state the plan assumes there: for a one-time check that reads
    /// each piece's top-level blocks as soon as they are parsed ([`OutlinePiece::frame_children`])
    /// and joins the pieces with [`Self::join_parsed`].
    ///
    /// Blocks still open where the piece ends are closed there, as the next piece's first
    /// line (a `Begin Actor`) closes them in one pass, with the same errors: so an actor
    /// whose `End Actor` is lost at the end of a piece is one of the piece's items, read
    /// and checked with the others, and the join finds only the frame open.
    pub fn parse_piece<'t>(&self, text: &'t str, index: usize) -> OutlinePiece<'t> {
        let mut piece = self.read(text, index, Parser::new(text));
        self.close_at_cut(text, index, &mut piece);
        piece
    }

    /// Closes what is open at the end of piece `index` as the next piece's first line (a
    /// `Begin Actor`) closes it.
    fn close_at_cut(&self, text: &str, index: usize, piece: &mut OutlinePiece<'_>) {
        if let Some(&cut) = self.cuts.get(index) {
            let parser = &mut piece.parser;
            if parser.overflow == 0 {
                if let Some((_, _, span)) = line_content(text, cut, content_end_at(text, cut)) {
                    parser.close_before_actor(span);
                }
            }
        }
    }

    /// [`Self::parse_piece`], with the start of every line after a line break of the piece,
    /// collected by the same pass.
    pub fn parse_piece_indexed<'t>(
        &self,
        text: &'t str,
        index: usize,
    ) -> (OutlinePiece<'t>, Vec<u32>) {
        let (start, end) = self.range(text, index);
        let mut parser = Parser::new(text);
        // About 50 bytes a line in real maps.
        parser.line_starts = Some(Vec::with_capacity((end - start) / 40));
        let mut piece = self.read(text, index, parser);
        self.close_at_cut(text, index, &mut piece);
        let starts = piece.parser.line_starts.take().unwrap_or_default();
        (piece, starts)
    }

    /// The block every piece after the first assumes open (the document's first block, when
    /// it is a map or level), without children.
    pub fn frame(&self) -> Option<&Block> {
        self.open.first()
    }

    /// Joins every piece, in order, into the outline of the whole text
    /// ([`super::outline`]'s result, whatever the cuts).
    pub fn join<'t>(&self, text: &'t str, pieces: Vec<OutlinePiece<'t>>) -> Parse {
        let mut pieces = pieces.into_iter();
        let mut joined =
            if let Some(first) = pieces.next() { first.parser } else { self.piece(text, 0).parser };
        for &cut in &self.cuts {
            let joined_here = match pieces.next() {
                Some(piece) if self.reaches_open(&mut joined, text, cut) => {
                    self.append(&mut joined, piece.parser)
                }
                _ => false,
            };
            if !joined_here {
                // The guess was wrong here: the rest is read in one pass from the true state.
                joined.lines(cut, text.len());
                break;
            }
        }
        let (file, errors) = joined.finish(text.len());
        Parse { file, errors }
    }

    /// Joins pieces made by [`Self::parse_piece`] (all of them, in order) into what
    /// [`super::parse`] gives the whole text, with what the pieces' owners left of their
    /// children; `None` where the state a piece assumed is not the one the pieces before it
    /// reach (then only a parse from the true state is right, which this does not do).
    pub fn join_parsed<'t>(&self, text: &'t str, pieces: Vec<OutlinePiece<'t>>) -> Option<Parse> {
        if pieces.len() != self.len() {
            return None;
        }
        // The frame's children of every piece go into the first piece's frame: room for all
        // of them at once instead of doubling it piece by piece (400,000 actors: 25 MB of
        // growth for 6 MB of items).
        let children = |piece: &OutlinePiece<'_>| match piece.parser.stack.first() {
            Some(frame) => frame.children.len(),
            None => {
                piece.parser.top.iter().filter_map(Item::as_block).map(|b| b.children.len()).sum()
            }
        };
        let more: usize = pieces.iter().skip(1).map(children).sum();
        let mut pieces = pieces.into_iter();
        let mut joined = pieces.next()?.parser;
        if let Some(frame) = joined.stack.first_mut() {
            frame.children.reserve_exact(more);
        }
        for (&cut, piece) in self.cuts.iter().zip(pieces) {
            if !(self.reaches_open(&mut joined, text, cut)
                && self.append(&mut joined, piece.parser))
            {
                return None;
            }
        }
        let (file, errors) = joined.finish(text.len());
        Some(Parse { file, errors })
    }

    /// Whether, at the `Begin Actor` line at `cut`, `parser` holds exactly the blocks the
    /// pieces assume; if so the line's closing of blocks left open is done here (with the
    /// same errors a single pass reports).
    fn reaches_open(&self, parser: &mut Parser<'_>, text: &str, cut: usize) -> bool {
        if parser.overflow > 0 {
            return false;
        }
        let keep = parser
            .stack
            .iter()
            .rposition(|b| matches!(b.kind, BlockKind::Map | BlockKind::Level))
            .map_or(0, |i| i + 1);
        let same = keep == self.open.len()
            && parser.stack.iter().zip(&self.open).all(|(a, b)| a.begin_span == b.begin_span);
        if !same {
            return false;
        }
        let Some((_, _, span)) = line_content(text, cut, content_end_at(text, cut)) else {
            return false;
        };
        parser.close_before_actor(span);
        true
    }

    /// Appends a piece that started from the assumed open blocks to `joined`, which holds
    /// exactly those blocks now; `false` (nothing changed) when the piece's state does not
    /// have the expected shape.
    fn append<'t>(&self, joined: &mut Parser<'t>, mut piece: Parser<'t>) -> bool {
        match self.open.len() {
            0 => {
                joined.top.append(&mut piece.top);
            }
            _ if piece.top.is_empty() => {
                // The map is still open at the piece's end: its children follow ours.
                let (Some(map), Some(piece_map)) =
                    (joined.stack.first_mut(), piece.stack.first_mut())
                else {
                    return false;
                };
                map.children.append(&mut piece_map.children);
                piece.stack.remove(0);
            }
            _ => {
                // The map was closed in the piece: it went to the top level first.
                let Some(Item::Block(closed)) = piece.top.first_mut() else { return false };
                let Some(mut map) = joined.stack.pop() else { return false };
                if closed.begin_span != map.begin_span {
                    joined.stack.push(map);
                    return false;
                }
                map.children.append(&mut closed.children);
                map.end = closed.end;
                map.span = closed.span;
                joined.top.push(Item::Block(Box::new(map)));
                joined.top.extend(piece.top.drain(1..));
            }
        }
        joined.stack.append(&mut piece.stack);
        joined.errors.append(&mut piece.errors);
        joined.overflow = piece.overflow;
        true
    }
}

/// The end of the content of the line starting at `start`, as [`Parser::lines`] reads it.
fn content_end_at(text: &str, start: usize) -> usize {
    let next = line_end_with_break(text, start);
    let end = if is_line_start(text.as_bytes(), next) { next - 1 } else { next };
    content_end(text.as_bytes(), start, end)
}

/// The start of a `Begin Actor` line that starts in `from..limit`: the first one spelled as
/// UnrealEd writes it, else the first in any case.
fn next_actor_line(text: &str, from: usize, limit: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    // Found by a search for the words rather than line by line: an actor's brush can hold
    // thousands of lines, and the plan is made on one core before any other can start.
    let limit_at = limit.min(text.len());
    let mut search = from;
    while let Some(found) = bytes
        .get(search..limit_at)
        .and_then(|window| memchr::memmem::find(window, b"Begin Actor"))
        .map(|i| search + i)
    {
        let start = line_start(text, found);
        let blanks_before = bytes.get(start..found).unwrap_or_default();
        if start >= from
            && blanks_before.iter().all(|&b| b == b' ' || b == b'\t')
            && is_actor_begin(text, start, content_end_at(text, start))
        {
            return Some(start);
        }
        search = found + 1;
    }
    // The first line start at or after `from`.
    let mut at = if from == 0 || is_line_start(bytes, from) {
        from
    } else {
        line_end_with_break(text, from)
    };
    while at < limit.min(text.len()) {
        if is_actor_begin(text, at, content_end_at(text, at)) {
            return Some(at);
        }
        at = line_end_with_break(text, at);
    }
    None
}

/// The first block opened before `limit`, as the parser has it right after its `Begin` line.
fn first_open_block(text: &str, limit: usize) -> Option<Block> {
    let mut parser = Parser::shallow(text);
    let mut at = 0;
    while at < limit && parser.stack.is_empty() {
        let next = line_end_with_break(text, at);
        parser.lines(at, next);
        at = next;
    }
    parser.stack.into_iter().next()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first `Begin Actor` line starting in the range: found by the words where they are
    /// spelled as UnrealEd writes them (not inside a line, not in a line started before the
    /// range), else line by line in any case.
    #[test]
    fn the_next_actor_line_is_the_first_one_in_the_range() {
        let text = "Begin Map\r\n\
                    Begin Actor Class=A Name=A0\r\n\
                    x=\"Begin Actor\"\r\n\
                    End Actor\r\n\
                    \t  Begin Actor Class=B Name=B0\r\n\
                    End Actor\r\n\
                    begin actor Class=C Name=C0\n\
                    End Actor\n\
                    End Map\n";
        let line =
            |needle: &str| text.find(needle).map(|i| text[..i].rfind('\n').map_or(0, |n| n + 1));
        let (a, b, c) = (line("Class=A"), line("Class=B"), line("Class=C"));
        assert_eq!(next_actor_line(text, 0, text.len()), a);
        // From inside A's line: the quoted words are no line of their own.
        assert_eq!(next_actor_line(text, a.unwrap_or(0) + 1, text.len()), b);
        // Only the lower-case line is left: read line by line.
        assert_eq!(next_actor_line(text, b.unwrap_or(0) + 1, text.len()), c);
        // A line starting at the limit is not in the range.
        assert_eq!(next_actor_line(text, a.unwrap_or(0) + 1, b.unwrap_or(0)), None);
        assert_eq!(next_actor_line(text, c.unwrap_or(0) + 1, text.len()), None);
    }
}
