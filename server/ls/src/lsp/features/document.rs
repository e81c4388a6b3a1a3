//! What every feature shares: the analysis of the request's document (one entry point,
//! [`unreal_analysis::ide::Analysis`], whichever the language) and the conversions of its
//! byte offsets, spans and edits to LSP positions, ranges and edits. Not a feature itself.

use std::sync::Arc;

use tower_lsp_server::ls_types::{Range, TextEdit};
use unreal_analysis::ide::t3d::ObjectFacts;
use unreal_analysis::ide::Analysis;
use unreal_syntax::Span;

use super::exec::UcDocument;
use crate::lsp::documents::DocumentSnapshot;

/// What a request's [`Analysis`] borrows: the document, and for a class its package session,
/// for a map the package index. The open document keeps no tree: a feature parses the part
/// it reads (the block under a cursor takes microseconds, the whole of a 10 MB map about a
/// tenth of a second).
pub struct DocumentAnalysis<'a> {
    snapshot: &'a DocumentSnapshot<'a>,
    class: Option<UcDocument<'a>>,
    packages: Arc<dyn ObjectFacts + Send + Sync>,
}

impl<'a> DocumentAnalysis<'a> {
    pub fn of(snapshot: &'a DocumentSnapshot<'a>) -> Self {
        Self {
            snapshot,
            class: UcDocument::of(snapshot),
            packages: snapshot.session.package_provider(),
        }
    }

    /// The analysis of a map or a class; `None` for any other document.
    pub fn analysis(&self) -> Option<Analysis<'_>> {
        if let Some(class) = &self.class {
            return Some(Analysis::class(class.source()));
        }
        let map = self.snapshot.t3d()?;
        let path = super::exec::document_path(self.snapshot.uri);
        let engine = self.snapshot.session.engine(path.as_deref());
        Some(Analysis::map(map, engine, &*self.packages))
    }
}

/// The byte offset of an LSP position, as analysis counts it.
pub fn offset(
    snapshot: &DocumentSnapshot<'_>,
    position: tower_lsp_server::ls_types::Position,
) -> u32 {
    u32::try_from(snapshot.offset(position)).unwrap_or(u32::MAX)
}

pub fn range(snapshot: &DocumentSnapshot<'_>, span: Span) -> Range {
    snapshot.range(span)
}

pub fn edits(
    snapshot: &DocumentSnapshot<'_>,
    edits: &[unreal_analysis::TextEdit],
) -> Vec<TextEdit> {
    edits
        .iter()
        .map(|e| TextEdit { range: snapshot.range(e.span), new_text: e.new_text.clone() })
        .collect()
}

/// [`edits`] taking the edits' text instead of copying it (a whole map's formatting is as big
/// as the map).
pub fn into_edits(
    snapshot: &DocumentSnapshot<'_>,
    edits: Vec<unreal_analysis::TextEdit>,
) -> Vec<TextEdit> {
    edits
        .into_iter()
        .map(|e| TextEdit { range: snapshot.range(e.span), new_text: e.new_text })
        .collect()
}
