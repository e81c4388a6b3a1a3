//! The findings of the rules that compare segments (`rules::summary::Summarized`), kept from
//! one diagnostics pass to the next.
//!
//! Their reports read every segment's summary: on a 10 MB map, 5,491 actor names spread over
//! 5,631 segments, each behind a few pointers, so about a fifth of the server's time per edit
//! went to reading them again, although an edit almost never changes a name. So the document
//! keeps each rule's findings and, per edit, moves them with the text (as it moves the frame's
//! cached diagnostics); the summaries of the segments an edit replaces are kept aside. On the
//! next pass, when the new segments' summaries say the same as those they replaced
//! ([`Summarized::same_content`]) and no finding lay in the replaced lines, the kept findings
//! are the report; otherwise the rule reports again over every segment.

use super::diagnostics::shift_diagnostic;
use crate::rules::summary::{Summarized, Summary};
use crate::Diagnostic;

#[derive(Clone, Debug, Default)]
pub(super) struct CrossFindings {
    /// Per summarized rule (in `rules::summarized_rules` order), its findings at the last pass,
    /// moved by every edit since; `None` before the first pass and whenever an edit or a new
    /// layout left them unusable.
    kept: Option<Vec<Vec<Diagnostic>>>,
    /// The summaries (per rule) of the segments replaced since the last pass that had them.
    retired: Vec<Vec<Summary>>,
}

impl CrossFindings {
    /// Forgets the kept findings: the next pass reports again.
    pub(super) fn forget(&mut self) {
        self.kept = None;
        self.retired.clear();
    }

    /// An edit replaced the segments on the old text's lines `a..b` (their summaries are
    /// passed to [`Self::retire`]) and moved everything after them by `delta`.
    pub(super) fn edited(&mut self, a: u32, b: u32, delta: i64) {
        let Some(kept) = &mut self.kept else { return };
        if kept.iter().flatten().any(|d| touches(d, a, b)) {
            self.forget();
            return;
        }
        for d in kept.iter_mut().flatten() {
            shift_diagnostic(d, b, delta);
        }
    }

    /// Keeps aside the summaries of a segment an edit replaced (none when it had no facts:
    /// a segment made since the last pass).
    pub(super) fn retire(&mut self, summaries: Option<Vec<Summary>>) {
        if let (Some(_), Some(summaries)) = (&self.kept, summaries) {
            self.retired.push(summaries);
        }
    }

    /// The findings kept for rule `index`, when the summaries `fresh` (of every segment
    /// checked in this pass) say what the replaced ones said.
    pub(super) fn reusable(
        &self,
        index: usize,
        rule: &dyn Summarized,
        fresh: &[&Summary],
    ) -> Option<&[Diagnostic]> {
        let kept = self.kept.as_ref()?.get(index)?;
        let before: Vec<&Summary> = self.retired.iter().filter_map(|s| s.get(index)).collect();
        rule.same_content(&before, fresh).then_some(kept.as_slice())
    }

    /// Keeps the findings of this pass (per rule) for the next.
    pub(super) fn keep(&mut self, findings: Vec<Vec<Diagnostic>>) {
        self.kept = Some(findings);
        self.retired.clear();
    }
}

/// Whether any position of `d` lies on the lines `a..b` (or at their end).
fn touches(d: &Diagnostic, a: u32, b: u32) -> bool {
    let spans = std::iter::once(d.span)
        .chain(d.labels.iter().map(|l| l.span))
        .chain(d.fix.iter().flat_map(|f| f.edits.iter().map(|e| e.span)));
    spans.into_iter().any(|s| s.start <= b && s.end >= a)
}
