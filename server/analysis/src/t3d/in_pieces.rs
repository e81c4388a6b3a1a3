//! A big map read in pieces: cut at `Begin Actor` lines ([`OutlinePlan`]), each piece parsed
//! on some core, the map's items handed one by one to the caller, who reads what it needs
//! and lets the item go, so the map is never held whole as a tree (a tree takes several
//! times its text). The pieces are joined as one parse of the whole text would read them;
//! where they do not join (a broken file), `None`, and the caller parses the plain way.

use std::sync::atomic::{AtomicUsize, Ordering};

use rayon::prelude::*;
use unreal_syntax::t3d::{Item, OutlinePiece, OutlinePlan, Parse, SyntaxError};
use unreal_syntax::text::line_start;

/// From this size a map is read in pieces: its whole tree takes several times the text (two
/// 200 MB maps compared held 1.55 GB, a glTF export of one 900 MB, most of it the trees).
const PIECES_FROM: usize = 4 << 20;
/// About this many bytes a piece: a piece's tree lives only until its items are read.
const PIECE_BYTES: usize = 1 << 20;

/// The piece size to read `text` in ([`read_map_items`]), or `None` when it is small enough
/// to parse whole.
pub fn piece_bytes_for(text: &str) -> Option<usize> {
    (text.len() >= PIECES_FROM).then_some(PIECE_BYTES)
}

/// More `Begin`/`End` lines that do not pair up than this, and a map read in pieces stops
/// reading at the next piece. No map UnrealEd writes has one; a file made of them (400,000
/// actors without `End Actor` in 16 MB) would cost about 1 KB for every one of them, twenty
/// times its text, to be told what its first hundred already say.
pub const MAX_MISMATCHES: usize = 10_000;

/// Reads pieces `0..count` with `read` on every core, up to the first piece at whose end the
/// pieces from the first hold more than [`MAX_MISMATCHES`] `Begin`/`End` mismatches
/// (`mismatches_of` each piece): the pieces up to that one, in order, and whether any was
/// left unread. A piece is not started once the pieces read anywhere hold more than that
/// many; a piece before the stop that was not started then is read afterwards, so where
/// reading stops depends on the text only (the plan, the counts), never on the number of
/// cores or on which piece finished first.
pub(crate) fn read_pieces_bounded<R: Send>(
    count: usize,
    read: impl Fn(usize) -> R + Sync,
    mismatches_of: impl Fn(&R) -> usize + Sync,
) -> (Vec<R>, bool) {
    let found_anywhere = AtomicUsize::new(0);
    let read_first: Vec<Option<R>> = (0..count)
        .into_par_iter()
        .map(|index| {
            if found_anywhere.load(Ordering::Relaxed) > MAX_MISMATCHES {
                return None;
            }
            let piece = read(index);
            found_anywhere.fetch_add(mismatches_of(&piece), Ordering::Relaxed);
            Some(piece)
        })
        .collect();
    let mut out = Vec::with_capacity(count);
    let mut found = 0;
    for (index, piece) in read_first.into_iter().enumerate() {
        let piece = piece.unwrap_or_else(|| read(index));
        found += mismatches_of(&piece);
        out.push(piece);
        if found > MAX_MISMATCHES {
            let stopped = out.len() < count;
            return (out, stopped);
        }
    }
    (out, false)
}

/// The outline of `text` in pieces of about `piece_bytes` (at least two a core: one slow
/// piece leaves the others something to take), read as [`read_pieces_bounded`] reads: the
/// plan, the pieces read, and whether any was left unread.
pub(crate) fn read_outline_bounded(
    text: &str,
    piece_bytes: usize,
) -> (OutlinePlan, Vec<OutlinePiece<'_>>, bool) {
    let pieces = (text.len() / piece_bytes.max(1) + 1).max(rayon::current_num_threads() * 2);
    let plan = OutlinePlan::new(text, pieces);
    let (read, stopped) =
        read_pieces_bounded(plan.len(), |i| plan.piece(text, i), |p| mismatches(p.errors()));
    (plan, read, stopped)
}

/// How many of `errors` are `Begin`/`End` mismatches.
pub(crate) fn mismatches<'a>(errors: impl IntoIterator<Item = &'a SyntaxError>) -> usize {
    errors.into_iter().filter(|e| e.kind.is_mismatch()).count()
}

/// A map read in pieces that stopped: more than [`MAX_MISMATCHES`] of its `Begin`/`End`
/// lines do not pair up.
#[derive(Clone, Debug, PartialEq)]
pub struct TooBroken {
    /// Where the first mismatch starts (a byte offset).
    pub first: usize,
    /// The start of the line of the mismatch past the limit, where reading is said to stop:
    /// the same line whatever the pieces were (every reader reads at least that far), so
    /// `lint`, the editor and the other commands name the same one.
    pub stopped_at: usize,
}

impl TooBroken {
    /// The stop of a reading whose pieces hold `errors` and more than [`MAX_MISMATCHES`]
    /// mismatches; `None` when they hold fewer.
    pub(crate) fn after<'a>(
        text: &str,
        errors: impl IntoIterator<Item = &'a SyntaxError>,
    ) -> Option<Self> {
        let mut starts: Vec<u32> =
            errors.into_iter().filter(|e| e.kind.is_mismatch()).map(|e| e.span.start).collect();
        if starts.len() <= MAX_MISMATCHES {
            return None;
        }
        let (before, &mut past, _) = starts.select_nth_unstable(MAX_MISMATCHES);
        let first = before.iter().copied().min().unwrap_or(past) as usize;
        Some(Self { first, stopped_at: line_start(text, past as usize) })
    }

    /// What a command that needs the whole map says instead of reading it.
    pub fn message(&self, text: &str) -> String {
        format!(
            "more than {MAX_MISMATCHES} `Begin`/`End` lines do not pair up (the first on line {}), \
             so reading stopped on line {}: correct them (`unreal-ls lint` lists them) and try again",
            line_of(text, self.first),
            line_of(text, self.stopped_at),
        )
    }
}

/// The 1-based line holding byte `offset` of `text`.
pub(crate) fn line_of(text: &str, offset: usize) -> usize {
    unreal_syntax::text::line_starts_in(text.as_bytes(), 0, offset.min(text.len())).count() + 1
}

/// Where reading `text` stops ([`read_pieces_bounded`]) when it is a map whose `Begin`/`End`
/// lines stop pairing up, read as an outline (only those lines) in pieces of a megabyte (at
/// least two a core, so that a few megabytes of such lines stop too); `None` for any other
/// text. For a command that would read such a file whole (an export, a picture) and refuses
/// it instead: an outline costs a few percent of those (DM-Deck17's picture: 1%).
pub fn too_broken(text: &str) -> Option<TooBroken> {
    if text.len() < PIECES_FROM / 16 {
        // 256 KB holds too few lines to cost much whatever they are.
        return None;
    }
    let (plan, read, stopped) = read_outline_bounded(text, 1 << 20);
    if plan.frame().is_none() || !stopped {
        return None;
    }
    TooBroken::after(text, read.iter().flat_map(OutlinePiece::errors))
}

/// What [`read_map_items`] read.
#[derive(Debug)]
pub enum PiecesRead<T> {
    /// Every item, read in order, and the rest of the parse.
    Joined(Vec<T>, Parse),
    /// The text does not start with a map or level, or its pieces do not join: a parse of
    /// the whole text reads it.
    NotJoined,
    /// Reading stopped on a file whose `Begin`/`End` lines stop pairing up.
    TooBroken(TooBroken),
}

impl<T> PiecesRead<T> {
    /// The items and the rest of the parse, when every piece was read and joined.
    pub fn joined(self) -> Option<(Vec<T>, Parse)> {
        match self {
            Self::Joined(items, rest) => Some((items, rest)),
            Self::NotJoined | Self::TooBroken(_) => None,
        }
    }
}

/// Reads `text` in pieces of about `piece_bytes`: `read` gets each item of the map (or
/// level) that starts the text, in order, once the item is parsed; the results come back in
/// that order, with the rest of the parse (the map block without those items, anything
/// outside it, and every syntax error). [`PiecesRead::NotJoined`] when the text does not
/// start with a map or level, or when its pieces do not join; [`PiecesRead::TooBroken`] when
/// more than [`MAX_MISMATCHES`] `Begin`/`End` mismatches stopped the reading.
pub fn read_map_items<T: Send>(
    text: &str,
    piece_bytes: usize,
    read: impl Fn(Item) -> T + Sync,
) -> PiecesRead<T> {
    let plan = OutlinePlan::new(text, text.len() / piece_bytes.max(1) + 1);
    if plan.frame().is_none() {
        return PiecesRead::NotJoined;
    }
    let (read, stopped) = read_pieces_bounded(
        plan.len(),
        |index| {
            let mut piece = plan.parse_piece(text, index);
            let mut results = Vec::new();
            for child in piece.frame_children().into_iter().flatten() {
                // Read and let go: only the item's place stays for the join.
                let shell = Item::Unknown(child.span());
                results.push(read(std::mem::replace(child, shell)));
            }
            (piece, results)
        },
        |(piece, _)| mismatches(piece.errors()),
    );
    if stopped {
        let errors = read.iter().flat_map(|(piece, _)| piece.errors());
        if let Some(stop) = TooBroken::after(text, errors) {
            return PiecesRead::TooBroken(stop);
        }
    }
    let (pieces, results): (Vec<_>, Vec<_>) = read.into_iter().unzip();
    match plan.join_parsed(text, pieces) {
        Some(rest) => PiecesRead::Joined(results.into_iter().flatten().collect(), rest),
        None => PiecesRead::NotJoined,
    }
}
