//! The texts of other files that diagnostics' labels and navigation results point into: a
//! span there is a byte offset into that file's decoded text, which the LSP range needs. Also
//! how any feature reads a file that is not open ([`read_text`]).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use tower_lsp_server::ls_types::{Location, Range, Uri};
use unreal_analysis::ide::exec::navigation::FileLocation;
use unreal_analysis::LineIndex;

use crate::lsp::documents::DocumentSnapshot;
use crate::lsp::position::{self, Lines, PositionEncoding};

/// The decoded text of a file that is not open (a regular file only, as lint reads files):
/// UTF-8 becomes the text without a copy.
pub fn read_text(path: &Path) -> std::io::Result<String> {
    let bytes = unreal_formats::mapped::read_regular(path)?;
    Ok(unreal_syntax::text::decode_owned(bytes).0)
}

/// Texts of other files that locations point into, read and decoded once per request
/// or analysis.
#[derive(Default)]
pub struct OtherFiles {
    texts: HashMap<PathBuf, Option<(String, LineIndex)>>,
}

impl OtherFiles {
    /// The LSP range of `span` in `path`'s decoded text (the file's start when it cannot be
    /// read or is binary).
    pub fn range(
        &mut self,
        path: &Path,
        span: unreal_syntax::Span,
        encoding: PositionEncoding,
    ) -> Range {
        if span.end == 0 {
            // The file's start (a package or an image a definition opens): nothing to read.
            return Range::default();
        }
        let text = self.texts.entry(path.to_path_buf()).or_insert_with(|| {
            read_text(path).ok().map(|text| {
                let lines = LineIndex::new(&text);
                (text, lines)
            })
        });
        text.as_ref().map_or_else(Range::default, |(text, lines)| {
            position::range_of_span(Lines::new(text, lines), span, encoding)
        })
    }

    /// An LSP location at `span` in `path` (at the file's start when it cannot be read).
    pub fn location_in(
        &mut self,
        path: &Path,
        span: unreal_syntax::Span,
        encoding: PositionEncoding,
    ) -> Option<Location> {
        let uri = Uri::from_file_path(path)?;
        Some(Location::new(uri, self.range(path, span, encoding)))
    }

    /// An LSP location for a place in the document or in another file.
    pub fn location(
        &mut self,
        snapshot: &DocumentSnapshot<'_>,
        place: &FileLocation,
    ) -> Option<Location> {
        match &place.file {
            None => Some(Location::new(snapshot.uri.clone(), snapshot.range(place.span))),
            Some(path) => {
                let uri = Uri::from_file_path(path)?;
                Some(Location::new(uri, self.range(path, place.span, snapshot.encoding())))
            }
        }
    }
}
