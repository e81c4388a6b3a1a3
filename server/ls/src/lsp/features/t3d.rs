//! What the T3D features share: the snapshot's text parsed once per request, and the
//! conversions from analysis spans and edits to LSP ranges and edits. Not a feature itself.
//!
//! FIXME: each request parses the document again; once the document store keeps an
//! `unreal_analysis::document::T3dDocument` per open T3D file, `Parsed::of` should read its
//! tree instead.

use tower_lsp_server::ls_types::{Range, TextEdit};
use unreal_analysis::ide::Source;
use unreal_analysis::lint::FileKind;
use unreal_syntax::t3d::Parse;
use unreal_syntax::Span;

use crate::lsp::documents::DocumentSnapshot;

/// A T3D snapshot's text and tree.
pub struct Parsed {
    pub text: String,
    pub parse: Parse,
}

impl Parsed {
    /// `None` for documents that are not T3D.
    pub fn of(snapshot: &DocumentSnapshot) -> Option<Self> {
        if snapshot.kind() != Some(FileKind::T3d) {
            return None;
        }
        let text = snapshot.text();
        let parse = unreal_syntax::t3d::parse(&text);
        Some(Self { text, parse })
    }

    /// The source the analysis features read, with the engine generation the settings fix
    /// (or the document's markers show).
    pub fn source<'a>(&'a self, snapshot: &DocumentSnapshot) -> Source<'a> {
        Source::detect(&self.text, &self.parse, snapshot.session.settings.engine)
    }
}

/// The byte offset of an LSP position, as analysis counts it.
pub fn offset(snapshot: &DocumentSnapshot, position: tower_lsp_server::ls_types::Position) -> u32 {
    u32::try_from(snapshot.offset(position)).unwrap_or(u32::MAX)
}

pub fn range(snapshot: &DocumentSnapshot, span: Span) -> Range {
    snapshot.range(span)
}

pub fn edits(snapshot: &DocumentSnapshot, edits: &[unreal_analysis::TextEdit]) -> Vec<TextEdit> {
    edits
        .iter()
        .map(|e| TextEdit { range: snapshot.range(e.span), new_text: e.new_text.clone() })
        .collect()
}
