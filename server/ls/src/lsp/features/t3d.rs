//! What the T3D features share: the document's current tree (kept up to date by edits, so
//! no request parses), and the conversions from analysis spans and edits to LSP ranges and
//! edits. Not a feature itself.

use tower_lsp_server::ls_types::{Range, TextEdit};
use unreal_analysis::document::T3dDocument;
use unreal_analysis::ide::Source;
use unreal_syntax::t3d::Parse;
use unreal_syntax::Span;

use crate::lsp::documents::DocumentSnapshot;

/// A T3D snapshot's text and tree, borrowed from the open document.
pub struct Parsed<'a> {
    pub text: &'a str,
    pub parse: &'a Parse,
    document: &'a T3dDocument,
}

impl<'a> Parsed<'a> {
    /// `None` for documents that are not T3D.
    pub fn of(snapshot: &DocumentSnapshot<'a>) -> Option<Self> {
        let document = snapshot.t3d()?;
        Some(Self { text: document.text(), parse: document.parse(), document })
    }

    /// The source the analysis features read, with the engine generation the settings fix
    /// (or the document's markers show, kept by the document: no walk per request).
    pub fn source(&self, snapshot: &DocumentSnapshot<'_>) -> Source<'a> {
        self.document.source(snapshot.session.settings.engine)
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
