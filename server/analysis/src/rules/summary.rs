//! Rules that compare blocks ([`Scope::Summarized`](super::Scope::Summarized)) plug in here:
//! each part of a document (one segment of an open document, or the whole tree) is
//! summarized once, and the rule reports from the summaries of every part. The incremental
//! document keeps one [`Summary`] per part and rule and re-summarizes only the parts an edit
//! touched, without naming any rule.

use std::any::Any;
use std::sync::Arc;

use super::T3dContext;
use crate::Diagnostic;

/// A rule that compares the blocks of a document through per-part summaries.
pub trait Summarized: Sync {
    /// What the part in `ctx` contributes. A position before `start` (the start of the part's
    /// first line: the map around a segment) lies outside the part and does not move with it.
    fn summarize(&self, ctx: &T3dContext<'_>, start: u32) -> Summary;

    /// Reports over every part, given in source order with the distance each part's spans
    /// moved since it was summarized. Summaries of other rules are passed over.
    fn report(&self, parts: &[(&Summary, i64)], out: &mut Vec<Diagnostic>);

    /// Whether the parts `after` say exactly what the parts `before` said, wherever it
    /// stands (the same things in any order; positions aside): then, when none of the
    /// report's findings lies in those parts, replacing `before` by `after` leaves the
    /// report as it was, its findings moved with the text. An incremental document asks
    /// after an edit, to keep the report instead of reading every part again (most edits
    /// change no name). `false`, the default, always reports again.
    fn same_content(&self, before: &[&Summary], after: &[&Summary]) -> bool {
        let _ = (before, after);
        false
    }
}

/// Whether two lists of items hold the same items in any order.
pub fn same_items<T: Ord>(mut a: Vec<T>, mut b: Vec<T>) -> bool {
    if a.len() != b.len() {
        return false;
    }
    a.sort_unstable();
    b.sort_unstable();
    a == b
}

/// What one part of a document contributes to one summarized rule: the rule's own data,
/// opaque to the document that keeps it (and cheap to clone).
#[derive(Clone, Debug)]
pub struct Summary(Option<Arc<dyn Any + Send + Sync>>);

impl Summary {
    pub fn new<T: Any + Send + Sync>(data: T) -> Self {
        Self(Some(Arc::new(data)))
    }

    /// `data`, or [`Summary::empty`] when it holds nothing.
    pub fn unless_empty<T: Any + Send + Sync>(data: T, empty: bool) -> Self {
        if empty {
            Self::empty()
        } else {
            Self::new(data)
        }
    }

    /// A part that contributes nothing (most actors define and reference no brush model):
    /// no allocation, kept per segment of a 200 MB map a hundred thousand times.
    pub fn empty() -> Self {
        Self(None)
    }

    /// The data, when this is a summary of type `T` (another rule's summary, or an empty
    /// one, is not).
    pub fn get<T: Any>(&self) -> Option<&T> {
        self.0.as_ref()?.downcast_ref()
    }
}
