//! A big map read in pieces: cut at `Begin Actor` lines ([`OutlinePlan`]), each piece parsed
//! on some core, the map's items handed one by one to the caller, who reads what it needs
//! and lets the item go, so the map is never held whole as a tree (a tree takes several
//! times its text). The pieces are joined as one parse of the whole text would read them;
//! where they do not join (a broken file), `None`, and the caller parses the plain way.

use rayon::prelude::*;
use unreal_syntax::t3d::{Item, OutlinePiece, OutlinePlan, Parse};

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

/// Reads `text` in pieces of about `piece_bytes`: `read` gets each item of the map (or
/// level) that starts the text, in order, once the item is parsed; the results come back in
/// that order, with the rest of the parse (the map block without those items, anything
/// outside it, and every syntax error). `None` when the text does not start with a map or
/// level, or when its pieces do not join.
pub fn read_map_items<T: Send>(
    text: &str,
    piece_bytes: usize,
    read: impl Fn(Item) -> T + Sync,
) -> Option<(Vec<T>, Parse)> {
    let plan = OutlinePlan::new(text, text.len() / piece_bytes.max(1) + 1);
    plan.frame()?;
    let read: Vec<(OutlinePiece<'_>, Vec<T>)> = (0..plan.len())
        .into_par_iter()
        .map(|index| {
            let mut piece = plan.parse_piece(text, index);
            let mut results = Vec::new();
            for child in piece.frame_children().into_iter().flatten() {
                // Read and let go: only the item's place stays for the join.
                let shell = Item::Unknown(child.span());
                results.push(read(std::mem::replace(child, shell)));
            }
            (piece, results)
        })
        .collect();
    let (pieces, results): (Vec<_>, Vec<_>) = read.into_iter().unzip();
    let rest = plan.join_parsed(text, pieces)?;
    Some((results.into_iter().flatten().collect(), rest))
}
