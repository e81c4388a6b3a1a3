//! T3D: UnrealEd's text export of maps, brushes and actors.
//!
//! [`parse`] turns decoded text into a lossless [`T3dFile`] plus the syntax errors it met. It
//! never fails: a broken line becomes an [`Item::Unknown`] node or a malformed-value error, and
//! a broken block stays local.

pub mod ast;
pub mod debug;
mod parser;
mod pieces;
mod shift;
pub mod values;

pub use ast::*;
pub use parser::{FrameParse, MAX_DEPTH};
pub use pieces::{OutlinePiece, OutlinePlan};
pub use values::{parse_flags, parse_int, parse_number, show_number};

use crate::Span;

/// What went wrong, so the analysis layer can map each kind to its rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SyntaxErrorKind {
    /// A `Begin` whose `End` never comes.
    UnclosedBlock,
    /// An `End` whose kind matches no open block.
    MismatchedEnd,
    /// An `End` with no block open at all.
    UnmatchedEnd,
    /// `Begin` with no kind word.
    MissingBlockKind,
    /// A number that does not parse where the engine expects one.
    MalformedNumber,
    /// A vector line whose `X,Y,Z` does not parse.
    MalformedVector,
    /// Text after a vector's three numbers, which the engine never reads.
    TrailingText,
    /// Blocks nested beyond [`MAX_DEPTH`].
    TooDeep,
}

impl SyntaxErrorKind {
    /// A `Begin` and `End` that do not pair up (what `t3d-unbalanced-block` reports, and what
    /// a reader in pieces counts to stop on a file made of them).
    pub fn is_mismatch(self) -> bool {
        matches!(
            self,
            Self::UnclosedBlock | Self::MismatchedEnd | Self::UnmatchedEnd | Self::MissingBlockKind
        )
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct SyntaxError {
    pub kind: SyntaxErrorKind,
    pub span: Span,
    pub message: String,
    /// Other places that explain the error (the `Begin` of a block an `End` fails to match).
    pub related: Vec<(Span, String)>,
    /// For a malformed number: what the engine reads from it (`atof`/`atoi` take the longest
    /// leading number, and 0 when none starts the text).
    pub engine_reads: Option<f64>,
}

/// The result of parsing: the tree and the errors, both always present.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Parse {
    pub file: T3dFile,
    pub errors: Vec<SyntaxError>,
}

/// Parses a whole document.
pub fn parse(text: &str) -> Parse {
    parse_range(text, 0, text.len())
}

/// The block structure of a whole document, cheaply: the blocks of the first two levels
/// with their spans, attributes and `Begin`/`End` lines exactly as [`parse`] gives them, but
/// every other line as [`Item::Unknown`], and below the second level only each block's last
/// child, as its span. For finding the top-level blocks of a big document without building
/// its whole tree. Errors are those of the `Begin`/`End` lines only. [`OutlinePlan`] gives
/// the same result in pieces read at the same time.
pub fn outline(text: &str) -> Parse {
    let (file, errors) = parser::Parser::shallow(text).parse_range(0, text.len());
    Parse { file, errors }
}

/// Parses `text[start..end]` on its own (for re-parsing one top-level block after an edit);
/// spans stay absolute offsets into `text`. Out-of-range or non-boundary offsets are clamped.
pub fn parse_range(text: &str, start: usize, end: usize) -> Parse {
    let end = end.min(text.len());
    let start = start.min(end);
    let start = (0..=start).rev().find(|&i| text.is_char_boundary(i)).unwrap_or(0);
    let end = (end..=text.len()).find(|&i| text.is_char_boundary(i)).unwrap_or(text.len());
    let (file, errors) = parser::Parser::new(text).parse_range(start, end);
    Parse { file, errors }
}

/// Parses `text[start..end]` as lines inside `frame`, an open block whose `Begin` line comes
/// before `start` (a map's actors, re-parsed without the rest of the map), or as top-level
/// lines when `frame` is `None`: see [`FrameParse`]. `start` and `end` must be line starts
/// (or the end of the text) for the result to match a whole parse; out-of-range or
/// non-boundary offsets are clamped.
pub fn parse_in_frame(text: &str, frame: Option<&Block>, start: usize, end: usize) -> FrameParse {
    let end = end.min(text.len());
    let start = start.min(end);
    let start = (0..=start).rev().find(|&i| text.is_char_boundary(i)).unwrap_or(0);
    let end = (end..=text.len()).find(|&i| text.is_char_boundary(i)).unwrap_or(text.len());
    parser::Parser::new(text).parse_in_frame(frame, start, end)
}
