//! Open documents. Each is a rope (cheap to edit in the middle of a 10 MB map, O(1) to clone
//! into a snapshot) with the client's version, and what was last published for it (the
//! stored fixes that `textDocument/codeAction` hands out).

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

use ropey::Rope;
use tower_lsp_server::ls_types::{
    self as lsp, Position, Range, TextDocumentContentChangeEvent, Uri,
};
use unreal_analysis::lint::{self, FileKind};
use unreal_syntax::Span;

use super::position::{self, PositionEncoding};
use super::settings::Settings;

#[derive(Debug)]
pub struct Document {
    /// Tells apart two openings of the same URI (the version restarts with each).
    pub id: u64,
    pub rope: Rope,
    pub version: i32,
    pub language_id: String,
    pub published: Arc<Published>,
}

/// The diagnostics last sent for a document, with the fix behind each one.
#[derive(Debug, Default)]
pub struct Published {
    /// The document version the diagnostics (and their fixes' ranges) belong to.
    pub version: Option<i32>,
    pub items: Vec<PublishedDiagnostic>,
}

#[derive(Debug)]
pub struct PublishedDiagnostic {
    pub diagnostic: lsp::Diagnostic,
    pub fix: Option<PublishedFix>,
}

/// A fix converted to LSP edits against the published version of the document.
#[derive(Debug)]
pub struct PublishedFix {
    pub title: String,
    pub edits: Vec<lsp::TextEdit>,
    /// Safe fixes are marked as the preferred action.
    pub safe: bool,
}

/// Why an edit could not be applied exactly as sent (it is applied as well as possible).
#[derive(Debug, PartialEq, Eq)]
pub enum EditProblem {
    /// The range's end came before its start; the ends were swapped.
    ReversedRange(Range),
}

impl Document {
    pub fn new(text: &str, version: i32, language_id: String) -> Self {
        Self { id: 0, rope: Rope::from_str(text), version, language_id, published: Arc::default() }
    }

    /// Applies one `didChange` content change. Positions outside the document are clamped
    /// (see [`position`]), so an edit always applies somewhere sensible.
    pub fn apply_change(
        &mut self,
        change: &TextDocumentContentChangeEvent,
        encoding: PositionEncoding,
    ) -> Option<EditProblem> {
        let Some(range) = change.range else {
            self.rope = Rope::from_str(&change.text);
            return None;
        };
        let a = position::char_of_position(&self.rope, range.start, encoding);
        let b = position::char_of_position(&self.rope, range.end, encoding);
        let (start, end) = (a.min(b), a.max(b));
        // Both ends are clamped to `len_chars`, so neither call can fail; the `try_` forms
        // keep that promise visible without a panic path.
        let _ = self.rope.try_remove(start..end);
        let _ = self.rope.try_insert(start, &change.text);
        (b < a).then_some(EditProblem::ReversedRange(range))
    }
}

/// What every feature reads: one document at one version, plus the session it lives in.
/// Cloning a rope is O(1), so taking a snapshot under the lock is cheap and the work
/// happens after the lock is released.
#[derive(Clone, Debug)]
pub struct DocumentSnapshot {
    pub uri: Uri,
    pub document_id: u64,
    pub rope: Rope,
    pub version: i32,
    pub language_id: String,
    pub published: Arc<Published>,
    pub session: Arc<Session>,
}

/// Per-connection facts fixed at `initialize` or changed by settings.
#[derive(Clone, Debug, Default)]
pub struct Session {
    pub encoding: PositionEncoding,
    pub settings: Settings,
    /// Workspace folders from the client, as paths.
    pub roots: Vec<std::path::PathBuf>,
    /// The client accepts versioned `documentChanges` in workspace edits.
    pub versioned_edits: bool,
    /// The client answers `workspace/configuration`.
    pub pulls_configuration: bool,
    /// The workspace's `unreal-ls.toml` and package index (shared by every copy).
    pub workspace: Arc<super::workspace::Workspace>,
}

impl DocumentSnapshot {
    /// The document text; analysis works on `&str` with byte offsets into it.
    pub fn text(&self) -> String {
        self.rope.to_string()
    }

    pub fn encoding(&self) -> PositionEncoding {
        self.session.encoding
    }

    /// What kind of file this is: by the client's language id, else by extension or by its
    /// first line (`Begin Map`...), as the linter decides.
    pub fn kind(&self) -> Option<FileKind> {
        match self.language_id.to_ascii_lowercase().as_str() {
            "t3d" => return Some(FileKind::T3d),
            "unrealscript" | "uc" => return Some(FileKind::UnrealScript),
            _ => {}
        }
        let path = self.uri.path().as_str();
        let head_chars = self.rope.len_chars().min(4096);
        let head = self.rope.slice(..head_chars).to_string();
        lint::detect_kind(Path::new(path), head.as_bytes())
    }

    pub fn offset(&self, pos: Position) -> usize {
        position::byte_of_position(&self.rope, pos, self.session.encoding)
    }

    pub fn range(&self, span: Span) -> Range {
        position::range_of_span(&self.rope, span, self.session.encoding)
    }

    pub fn span(&self, range: Range) -> Span {
        position::span_of_range(&self.rope, range, self.session.encoding)
    }
}

/// Every open document by URI.
#[derive(Debug, Default)]
pub struct Documents {
    map: HashMap<Uri, Document>,
    opened: u64,
}

impl Documents {
    pub fn open(&mut self, uri: Uri, mut document: Document) {
        self.opened += 1;
        document.id = self.opened;
        self.map.insert(uri, document);
    }

    /// The open document `uri` if it is still the opening `id` at `version`.
    pub fn get_mut_at(&mut self, uri: &Uri, id: u64, version: i32) -> Option<&mut Document> {
        self.map.get_mut(uri).filter(|d| d.id == id && d.version == version)
    }

    pub fn close(&mut self, uri: &Uri) -> Option<Document> {
        self.map.remove(uri)
    }

    pub fn get(&self, uri: &Uri) -> Option<&Document> {
        self.map.get(uri)
    }

    pub fn get_mut(&mut self, uri: &Uri) -> Option<&mut Document> {
        self.map.get_mut(uri)
    }

    pub fn uris(&self) -> impl Iterator<Item = &Uri> {
        self.map.keys()
    }

    pub fn snapshot(&self, uri: &Uri, session: &Arc<Session>) -> Option<DocumentSnapshot> {
        let document = self.map.get(uri)?;
        Some(DocumentSnapshot {
            uri: uri.clone(),
            document_id: document.id,
            rope: document.rope.clone(),
            version: document.version,
            language_id: document.language_id.clone(),
            published: Arc::clone(&document.published),
            session: Arc::clone(session),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn change(
        range: Option<((u32, u32), (u32, u32))>,
        text: &str,
    ) -> TextDocumentContentChangeEvent {
        TextDocumentContentChangeEvent {
            range: range.map(|((l0, c0), (l1, c1))| {
                Range::new(Position::new(l0, c0), Position::new(l1, c1))
            }),
            range_length: None,
            text: text.to_owned(),
        }
    }

    #[test]
    fn incremental_changes_apply_in_the_negotiated_unit() {
        let mut doc = Document::new("Begin Map\r\nName=\u{1F600}x\r\nEnd Map\r\n", 1, "t3d".into());
        // UTF-16: the emoji is 2 units, so column 7 is just before 'x'.
        doc.apply_change(&change(Some(((1, 7), (1, 8))), "Y"), PositionEncoding::Utf16);
        assert_eq!(doc.rope.to_string(), "Begin Map\r\nName=\u{1F600}Y\r\nEnd Map\r\n");
        // UTF-8: the emoji is 4 bytes.
        doc.apply_change(&change(Some(((1, 9), (1, 10))), "Z"), PositionEncoding::Utf8);
        assert_eq!(doc.rope.to_string(), "Begin Map\r\nName=\u{1F600}Z\r\nEnd Map\r\n");
        // A range past the line end stops before the CRLF; past the end appends.
        doc.apply_change(&change(Some(((1, 6), (1, 99))), "!"), PositionEncoding::Utf32);
        doc.apply_change(&change(Some(((9, 0), (9, 0))), "tail"), PositionEncoding::Utf16);
        assert_eq!(doc.rope.to_string(), "Begin Map\r\nName=\u{1F600}!\r\nEnd Map\r\ntail");
        // Deleting across lines.
        doc.apply_change(&change(Some(((0, 5), (2, 3))), ""), PositionEncoding::Utf16);
        assert_eq!(doc.rope.to_string(), "Begin Map\r\ntail");
        // A full replacement.
        doc.apply_change(&change(None, "new"), PositionEncoding::Utf16);
        assert_eq!(doc.rope.to_string(), "new");
    }

    #[test]
    fn reversed_ranges_apply_with_ends_swapped() {
        let mut doc = Document::new("abcdef", 1, String::new());
        let problem =
            doc.apply_change(&change(Some(((0, 4), (0, 1))), "-"), PositionEncoding::Utf16);
        assert_eq!(doc.rope.to_string(), "a-ef");
        assert!(matches!(problem, Some(EditProblem::ReversedRange(_))));
    }
}
