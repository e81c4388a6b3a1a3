//! Byte spans into decoded text.

use std::ops::Range;

/// A half-open byte range `start..end` into the decoded text of one document.
///
/// Stored as `u32` pairs because a 10 MB map has hundreds of thousands of nodes and the
/// language server keeps every tree in memory; files above 4 GiB are rejected up front.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Span {
    pub start: u32,
    pub end: u32,
}

impl Span {
    pub const fn new(start: u32, end: u32) -> Self {
        Self { start, end }
    }

    /// Builds a span from `usize` offsets, saturating at `u32::MAX`.
    pub fn from_range(range: Range<usize>) -> Self {
        let clamp = |v: usize| u32::try_from(v).unwrap_or(u32::MAX);
        Self { start: clamp(range.start), end: clamp(range.end) }
    }

    pub const fn empty_at(offset: u32) -> Self {
        Self { start: offset, end: offset }
    }

    pub fn range(self) -> Range<usize> {
        self.start as usize..self.end as usize
    }

    pub const fn len(self) -> u32 {
        self.end.saturating_sub(self.start)
    }

    pub const fn is_empty(self) -> bool {
        self.end <= self.start
    }

    pub const fn contains(self, offset: u32) -> bool {
        self.start <= offset && offset < self.end
    }

    /// Like [`Span::contains`] but also true at the end offset, which is where an editor
    /// cursor sits right after a token.
    pub const fn touches(self, offset: u32) -> bool {
        self.start <= offset && offset <= self.end
    }

    pub fn cover(self, other: Span) -> Span {
        Span { start: self.start.min(other.start), end: self.end.max(other.end) }
    }

    /// Shifts the span by `delta` bytes (used when a block is re-parsed on its own).
    pub fn shifted(self, delta: i64) -> Span {
        let shift = |v: u32| u32::try_from((i64::from(v) + delta).max(0)).unwrap_or(u32::MAX);
        Span { start: shift(self.start), end: shift(self.end) }
    }

    /// Moves the ends at or after `from` (a position in the text before an edit there) by
    /// `delta`, leaving those before it: a span the edit fell inside grows or shrinks.
    pub fn shifted_from(self, from: u32, delta: i64) -> Span {
        let shift =
            |pos: u32| if pos >= from { Span::empty_at(pos).shifted(delta).start } else { pos };
        Span { start: shift(self.start), end: shift(self.end) }
    }

    /// The text this span covers, or `""` when it does not fit `text` (never panics).
    pub fn text(self, text: &str) -> &str {
        text.get(self.range()).unwrap_or("")
    }
}

impl std::fmt::Debug for Span {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}..{}", self.start, self.end)
    }
}

impl From<Range<usize>> for Span {
    fn from(range: Range<usize>) -> Self {
        Span::from_range(range)
    }
}
