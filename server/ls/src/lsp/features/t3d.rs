//! What the T3D features share: the part of the document's tree a request reads, and the
//! conversions from analysis spans and edits to LSP ranges and
//! edits. Not a feature itself.

use tower_lsp_server::ls_types::{Range, TextEdit};
use unreal_analysis::ide::t3d::Source;
use unreal_analysis::Generation;
use unreal_syntax::t3d::Parse;
use unreal_syntax::Span;

use crate::lsp::documents::DocumentSnapshot;

/// A T3D snapshot's text and the part of its tree a feature reads, parsed for the request
/// (the open document keeps no tree: parsing the block under a cursor takes microseconds,
/// the whole of a 10 MB map about a tenth of a second).
pub struct Parsed<'a> {
    pub text: &'a str,
    pub parse: Parse,
    /// The generation the settings fix, or the document's markers show (kept by the
    /// document: no walk per request).
    generation: Option<Generation>,
}

impl<'a> Parsed<'a> {
    /// The whole tree, for features that read every block (outline, folding, references).
    /// `None` for documents that are not T3D.
    pub fn whole(snapshot: &DocumentSnapshot<'a>) -> Option<Self> {
        let document = snapshot.t3d()?;
        Some(Self::new(snapshot, document.full_parse()))
    }

    /// The blocks on the lines of `span` (inside their map), for features at a cursor or
    /// over a selection.
    pub fn around(snapshot: &DocumentSnapshot<'a>, span: Span) -> Option<Self> {
        let document = snapshot.t3d()?;
        Some(Self::new(snapshot, document.parse_around(span)))
    }

    pub fn at(snapshot: &DocumentSnapshot<'a>, offset: u32) -> Option<Self> {
        Self::around(snapshot, Span::empty_at(offset))
    }

    fn new(snapshot: &DocumentSnapshot<'a>, parse: Parse) -> Self {
        let document = snapshot.t3d();
        Self {
            text: snapshot.text(),
            parse,
            generation: document.and_then(|d| {
                let path = super::exec::document_path(snapshot.uri);
                d.generation(snapshot.session.engine(path.as_deref()))
            }),
        }
    }

    /// The source the analysis features read.
    pub fn source(&self) -> Source<'_> {
        Source::new(self.text, &self.parse, self.generation)
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
