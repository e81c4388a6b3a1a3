//! Open documents. Each holds its text once, with a line index for LSP positions: a T3D
//! document inside an incremental [`T3dDocument`] (text, and per top-level block its first
//! lines and cached diagnostics), any other file as a plain `String`. Edits update text,
//! blocks and index in place, proportionally to the edit (plus one `memmove` of the text
//! after it); nothing is re-read from scratch and no second copy (a rope) is kept.
//!
//! The content sits behind its own mutex, apart from the store's: `didChange` applies an
//! edit under it before its first `.await`, the diagnostics worker updates the blocks'
//! caches under it, and features read it through a borrowed [`DocumentSnapshot`]: under the
//! lock for requests at a cursor (which parse the blocks there, in microseconds), on a
//! snapshot taken under the lock for requests that read the whole document
//! ([`DocumentHandle::read_copy`]: the text is shared with it, not copied; an edit while a
//! snapshot is out copies the text once). Lock order: the store, then a content; a feature
//! never takes the store while it holds a content.

use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError, Weak};

use tower_lsp_server::ls_types::{
    self as lsp, Position, Range, TextDocumentContentChangeEvent, Uri,
};
use unreal_analysis::document::{KeptOutline, T3dDocument};
use unreal_analysis::index::PackageIndex;
use unreal_analysis::lint::{self, FileKind};
use unreal_analysis::LineIndex;
use unreal_syntax::Span;

use super::position::{self, Lines, PositionEncoding};
use super::settings::Settings;

#[derive(Debug)]
pub struct Document {
    /// Tells apart two openings of the same URI (the version restarts with each).
    pub id: u64,
    pub version: i32,
    pub language_id: String,
    pub published: Arc<Published>,
    /// The semantic tokens last sent, the base of `semanticTokens/full/delta`.
    pub tokens: Arc<Mutex<Option<SentTokens>>>,
    /// The last `unrealLs/levelScene` answer for this document (one a document, gone when
    /// it closes): a repeated request on the same version does not build the level again.
    pub level_scene: Arc<Mutex<Option<KeptScene>>>,
    pub content: Arc<Mutex<Content>>,
}

/// Semantic tokens sent with a result id, kept so that the next request can send only what
/// changed.
#[derive(Debug)]
pub struct SentTokens {
    pub result_id: String,
    pub data: Vec<lsp::SemanticToken>,
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
    pub fn new(text: String, version: i32, language_id: String) -> Self {
        Self {
            id: 0,
            version,
            language_id,
            published: Arc::default(),
            tokens: Arc::default(),
            level_scene: Arc::default(),
            content: Arc::new(Mutex::new(Content::new(text, version))),
        }
    }

    /// The content, locked. Held only for synchronous work, never across an `.await`.
    pub fn content(&self) -> MutexGuard<'_, Content> {
        lock(&self.content)
    }
}

fn lock(content: &Mutex<Content>) -> MutexGuard<'_, Content> {
    // A panic in a feature that only read the content leaves it intact.
    content.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A document's text (with its tree, for T3D) and line index, at one version.
#[derive(Debug)]
pub struct Content {
    /// The client's version of this text (the document's, set under the same lock).
    pub version: i32,
    /// The text while no T3D document holds it; empty once `t3d` does. A T3D file starts
    /// here too: the first reader that needs its tree parses it, off the async threads.
    plain: String,
    t3d: Option<Box<T3dDocument>>,
    /// Shared with the snapshots of whole-document requests (as the text is): an edit
    /// copies it only while one still holds it (0.8 MB for the 10 MB map, which every outline
    /// request copied).
    lines: Arc<LineIndex>,
}

impl Content {
    pub fn new(text: String, version: i32) -> Self {
        let lines = Arc::new(LineIndex::new(&text));
        Self { version, plain: text, t3d: None, lines }
    }

    pub fn text(&self) -> &str {
        self.t3d.as_deref().map_or(self.plain.as_str(), T3dDocument::text)
    }

    pub fn lines(&self) -> Lines<'_> {
        Lines::new(self.text(), &self.lines)
    }

    /// The incremental T3D document, made from the text on first use.
    pub fn t3d_mut(&mut self) -> &mut T3dDocument {
        let plain = &mut self.plain;
        self.t3d.get_or_insert_with(|| Box::new(T3dDocument::new(std::mem::take(plain))))
    }

    /// The T3D document if one was made.
    pub fn t3d(&self) -> Option<&T3dDocument> {
        self.t3d.as_deref()
    }

    /// Applies one `didChange` content change. Positions outside the document are clamped
    /// (see [`position`]), so an edit always applies somewhere sensible.
    pub fn apply_change(
        &mut self,
        change: TextDocumentContentChangeEvent,
        encoding: PositionEncoding,
    ) -> Option<EditProblem> {
        let Some(range) = change.range else {
            // A whole new text (taken, not copied): the tree is made again when it is next
            // needed.
            *self = Self::new(change.text, self.version);
            return None;
        };
        let a = position::byte_of_position(self.lines(), range.start, encoding);
        let b = position::byte_of_position(self.lines(), range.end, encoding);
        let (start, end) = (a.min(b), a.max(b));
        // Both ends come from the position module: char boundaries within the text.
        match &mut self.t3d {
            Some(document) => {
                document.apply_edit(Span::from_range(start..end), &change.text);
            }
            None => self.plain.replace_range(start..end, &change.text),
        }
        let text = self.t3d.as_deref().map_or(self.plain.as_str(), T3dDocument::text);
        Arc::make_mut(&mut self.lines).edit(text, start, end - start, change.text.len());
        (b < a).then_some(EditProblem::ReversedRange(range))
    }
}

/// A cheap handle on one open document (its content is shared, not copied): what a request
/// or an analysis takes under the store's lock and reads after releasing it.
#[derive(Clone, Debug)]
pub struct DocumentHandle {
    pub uri: Uri,
    pub document_id: u64,
    pub language_id: String,
    pub published: Arc<Published>,
    pub tokens: Arc<Mutex<Option<SentTokens>>>,
    pub level_scene: Arc<Mutex<Option<KeptScene>>>,
    pub session: Arc<Session>,
    content: Arc<Mutex<Content>>,
}

impl DocumentHandle {
    /// Runs `read` on the document as it is now, under its content's lock. For a T3D
    /// document the generation markers of every segment are read first (usually the
    /// diagnostics pass did already); its tree is parsed by the feature, as it needs.
    pub fn read<T>(&self, read: impl FnOnce(&DocumentSnapshot<'_>) -> T) -> T {
        self.update(|content, handle| {
            let kind = handle.kind_of(content.text());
            if kind == Some(FileKind::T3d) {
                // The generation features show comes from every segment's markers (read
                // once after opening, usually by the diagnostics pass already).
                content.t3d_mut().read_markers();
            }
            read(&handle.snapshot(content, kind))
        })
    }

    /// Runs `read` on a snapshot of a T3D document taken under its content's lock: the text
    /// (shared, not copied), its line index and the segments' first lines and outlines, not
    /// their cached diagnostics. For requests that read the whole document: the lock is held
    /// for the snapshot (about a millisecond for a 10 MB map), not for the work, so edits
    /// that arrive meanwhile are not held up.
    /// Other documents are read in place, as [`Self::read`] does.
    pub fn read_copy<T>(&self, read: impl FnOnce(&DocumentSnapshot<'_>) -> T) -> T {
        let copied = self.update(|content, handle| {
            let kind = handle.kind_of(content.text());
            if kind != Some(FileKind::T3d) {
                return None;
            }
            let document = content.t3d_mut();
            document.read_markers();
            Some((document.detached(), Arc::clone(&content.lines), content.version))
        });
        let Some((document, lines, version)) = copied else { return self.read(read) };
        let lines_of_copy = Lines::new(document.text(), &lines);
        let snapshot =
            self.snapshot_of(version, Some(FileKind::T3d), lines_of_copy, Some(&document));
        let answer = read(&snapshot);
        // The whole tree just built and dropped (and the copy) leave holes in the heap.
        crate::lsp::memory::release_after(document.text().len());
        answer
    }

    /// [`Self::read_copy`] for a request that reads only the text of a T3D document (the
    /// whole document's formatting): the snapshot shares the text and copies the line index,
    /// and has no T3D document (`kind` still says T3D), so nothing else is copied.
    pub fn read_text_copy<T>(&self, read: impl FnOnce(&DocumentSnapshot<'_>) -> T) -> T {
        let copied = self.update(|content, handle| {
            if handle.kind_of(content.text()) != Some(FileKind::T3d) {
                return None;
            }
            let text = content.t3d_mut().shared_text();
            Some((text, Arc::clone(&content.lines), content.version))
        });
        let Some((text, lines, version)) = copied else { return self.read(read) };
        let snapshot =
            self.snapshot_of(version, Some(FileKind::T3d), Lines::new(&text, &lines), None);
        let answer = read(&snapshot);
        crate::lsp::memory::release_after(text.len());
        answer
    }

    /// [`Self::read_copy`] for the outline and the folds of a T3D map whose segments keep
    /// theirs: under the lock only a reference to each segment's outline is taken (with the
    /// line index), no copy of the document; `read` gets them with a snapshot that has no T3D
    /// document. `None` when the segments cannot answer (another kind of file, no single map
    /// around everything): then [`Self::read_copy`] does.
    pub fn read_kept_outline<T>(
        &self,
        read: impl FnOnce(&DocumentSnapshot<'_>, &KeptOutline) -> Option<T>,
    ) -> Option<T> {
        let taken = self.update(|content, handle| {
            if handle.kind_of(content.text()) != Some(FileKind::T3d) {
                return None;
            }
            let document = content.t3d_mut();
            document.read_markers();
            let kept = document.kept_outline()?;
            Some((kept, Arc::clone(&content.lines), content.version))
        });
        let (kept, lines, version) = taken?;
        let snapshot =
            self.snapshot_of(version, Some(FileKind::T3d), Lines::new(kept.text(), &lines), None);
        read(&snapshot, &kept)
    }

    /// Runs `update` with the content locked for writing (the diagnostics pass fills the
    /// tree's caches).
    pub fn update<T>(&self, update: impl FnOnce(&mut Content, &DocumentHandle) -> T) -> T {
        let mut content = lock(&self.content);
        update(&mut content, self)
    }

    /// The view of `content` that features read.
    pub fn snapshot<'a>(
        &'a self,
        content: &'a Content,
        kind: Option<FileKind>,
    ) -> DocumentSnapshot<'a> {
        self.snapshot_of(content.version, kind, content.lines(), content.t3d())
    }

    fn snapshot_of<'a>(
        &'a self,
        version: i32,
        kind: Option<FileKind>,
        lines: Lines<'a>,
        t3d: Option<&'a T3dDocument>,
    ) -> DocumentSnapshot<'a> {
        DocumentSnapshot {
            uri: &self.uri,
            document_id: self.document_id,
            version,
            language_id: &self.language_id,
            published: &self.published,
            tokens: &self.tokens,
            session: &self.session,
            kind,
            lines,
            t3d,
        }
    }

    /// What kind of file this is: by the client's language id, else by extension or by its
    /// first line (`Begin Map`...), as the linter decides.
    pub fn kind_of(&self, text: &str) -> Option<FileKind> {
        match self.language_id.to_ascii_lowercase().as_str() {
            "t3d" => return Some(FileKind::T3d),
            "unrealscript" | "uc" => return Some(FileKind::UnrealScript),
            _ => {}
        }
        let path = self.uri.path().as_str();
        let mut head = text.len().min(4096);
        while !text.is_char_boundary(head) {
            head -= 1;
        }
        lint::detect_kind(Path::new(path), text.get(..head).unwrap_or_default().as_bytes())
    }
}

/// What every feature reads: one document at one version, borrowed from its locked content
/// (the T3D tree is the document's current one), plus the session it lives in.
#[derive(Clone, Copy, Debug)]
pub struct DocumentSnapshot<'a> {
    pub uri: &'a Uri,
    pub document_id: u64,
    pub version: i32,
    pub language_id: &'a str,
    pub published: &'a Published,
    pub tokens: &'a Mutex<Option<SentTokens>>,
    pub session: &'a Session,
    kind: Option<FileKind>,
    lines: Lines<'a>,
    t3d: Option<&'a T3dDocument>,
}

/// Per-connection facts fixed at `initialize` or changed by settings.
#[derive(Clone, Debug, Default)]
pub struct Session {
    pub encoding: PositionEncoding,
    /// What the client renders in hovers.
    pub hover: super::hover_formats::HoverFormats,
    pub settings: Settings,
    /// Workspace folders from the client, as paths.
    pub roots: Vec<std::path::PathBuf>,
    /// The client accepts versioned `documentChanges` in workspace edits.
    pub versioned_edits: bool,
    /// The client answers `workspace/configuration`.
    pub pulls_configuration: bool,
    /// The client registers formatting dynamically: the server asks for it for T3D only
    /// (`features::formatting`), so that no formatter is claimed for UnrealScript, where
    /// another extension's may be the user's.
    pub formats_by_registration: bool,
    /// The workspace's `unreal-ls.toml` and package index (shared by every copy).
    pub workspace: Arc<super::workspace::Workspace>,
}

impl<'a> DocumentSnapshot<'a> {
    /// The document text; analysis works on `&str` with byte offsets into it.
    pub fn text(&self) -> &'a str {
        self.lines.text
    }

    /// The incremental T3D document (text and top-level blocks) when this is a T3D file.
    pub fn t3d(&self) -> Option<&'a T3dDocument> {
        self.t3d.filter(|_| self.kind == Some(FileKind::T3d))
    }

    /// The text with its line index, for conversions of its byte offsets.
    pub fn lines(&self) -> Lines<'a> {
        self.lines
    }

    pub fn encoding(&self) -> PositionEncoding {
        self.session.encoding
    }

    /// What kind of file this is (see [`DocumentHandle::kind_of`]).
    pub fn kind(&self) -> Option<FileKind> {
        self.kind
    }

    pub fn offset(&self, pos: Position) -> usize {
        position::byte_of_position(self.lines, pos, self.session.encoding)
    }

    pub fn position(&self, byte: usize) -> Position {
        position::position_of_byte(self.lines, byte, self.session.encoding)
    }

    pub fn range(&self, span: Span) -> Range {
        position::range_of_span(self.lines, span, self.session.encoding)
    }

    pub fn span(&self, range: Range) -> Span {
        position::span_of_range(self.lines, range, self.session.encoding)
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

    pub fn handle(&self, uri: &Uri, session: &Arc<Session>) -> Option<DocumentHandle> {
        let document = self.map.get(uri)?;
        Some(DocumentHandle {
            uri: uri.clone(),
            document_id: document.id,
            language_id: document.language_id.clone(),
            published: Arc::clone(&document.published),
            tokens: Arc::clone(&document.tokens),
            level_scene: Arc::clone(&document.level_scene),
            session: Arc::clone(session),
            content: Arc::clone(&document.content),
        })
    }
}

impl Session {
    /// The engine every feature follows for the file at `path`: the client's setting, else
    /// the `unreal-ls.toml` that applies to the file as `lint` finds it (`engine`, or the
    /// generation of its `game`), else `auto`. Diagnostics, hover, completion and the other
    /// T3D features all read it here, so an engine set only in `unreal-ls.toml` drives them
    /// alike. Resolves the engine alone (no copy of the package paths): every T3D request
    /// asks.
    pub fn engine(&self, path: Option<&std::path::Path>) -> unreal_analysis::EngineSetting {
        unreal_analysis::config::resolve_engine(
            &self.settings_overrides(),
            self.config_for(path).as_deref(),
        )
    }

    /// The client's settings over the file's `unreal-ls.toml`, resolved as `lint` does.
    fn resolved(&self, path: Option<&std::path::Path>) -> unreal_analysis::lint::LintOptions {
        unreal_analysis::config::resolve(&self.overrides(), self.config_for(path).as_deref())
    }

    /// What the client's settings say over `unreal-ls.toml`: the engine, unless `auto`, and
    /// the game folder (`unrealLs.gameDirectory`), as `--engine` and `--game-dir` do for
    /// `lint`; and the workspace folders as source paths, as `lint` takes the folders it
    /// checks: their `Classes/*.uc` are known with or without a game folder.
    fn overrides(&self) -> unreal_analysis::options::Overrides {
        unreal_analysis::options::Overrides {
            source_paths: self.roots.clone(),
            ..self.settings_overrides()
        }
    }

    /// [`Self::overrides`] without the workspace folders (what the engine alone needs).
    fn settings_overrides(&self) -> unreal_analysis::options::Overrides {
        let engine = self.settings.engine;
        unreal_analysis::options::Overrides {
            engine: (engine != unreal_analysis::EngineSetting::Auto).then_some(engine),
            game_dir: self.settings.game_directory.clone(),
            ..unreal_analysis::options::Overrides::default()
        }
    }

    /// What the checks of the file at `path` run with, found as `lint` finds them
    /// ([`unreal_analysis::workspace::Settings::for_file`]): the settings, the file's
    /// `unreal-ls.toml` where the settings say nothing (engine, game, build, game folder and
    /// package paths), else the game installation the file stands in; with the workspace's
    /// package index when it reads that game folder and those package paths. A file under
    /// another installation is checked with that one's packages
    /// ([`Self::packages_for_checks`]), as `lint` checks it; a document that is no file with
    /// the workspace's.
    pub fn lint_options(
        &self,
        path: Option<&std::path::Path>,
    ) -> unreal_analysis::lint::LintOptions {
        let mut options = if path.is_some() {
            self.workspace.settings.for_file(&self.overrides(), path).options
        } else {
            let mut options = self.resolved(None);
            options.game_dir = self.workspace.game_dir();
            options
        };
        options.packages = self.workspace.packages_reading(&options.index_roots());
        options
    }

    /// Gives `options` a package index when they name packages the workspace's index does
    /// not read (a file under another game installation or other package paths): the one
    /// their lint session builds on first use, as `lint` builds one per game folder. The
    /// workspace's own index is built in the background; until it is ready the files it
    /// serves are checked without one.
    pub fn packages_for_checks(&self, options: &mut unreal_analysis::lint::LintOptions) {
        if options.packages.is_some() {
            return;
        }
        let roots = options.index_roots();
        if !roots.reads_anything() || self.workspace.indexes(&roots) {
            return;
        }
        let session = self.workspace.lint_sessions.get(options);
        options.packages = session.exec.packages_if_configured().cloned();
    }

    /// The packages the checks of the file at `path` read ([`Self::lint_options`] and
    /// [`Self::packages_for_checks`]), when they know any: an index of class sources alone
    /// (no game folder) holds no texture or object to show or find.
    pub fn packages_of(
        &self,
        path: Option<&std::path::Path>,
    ) -> Option<Arc<unreal_analysis::index::PackageIndex>> {
        let mut options = self.lint_options(path);
        self.packages_for_checks(&mut options);
        options.packages.filter(|index| index.knows_packages())
    }

    /// The configuration that applies to the file at `path` as `lint` finds it (the nearest
    /// `unreal-ls.toml` in or above its folder); for a document that is no file, the
    /// workspace's.
    pub fn config_for(
        &self,
        path: Option<&std::path::Path>,
    ) -> Option<Arc<unreal_analysis::config::Config>> {
        match path {
            Some(path) => self.workspace.config_for(path),
            None => self.workspace.config(),
        }
    }

    /// Gives the file's findings the severities they are published with, as `lint` gives
    /// them (`config::apply_severity` with the configuration that applies to the file,
    /// [`Self::config_for`]), then the editor's `unrealLs.rules` over that; drops those turned
    /// off.
    pub fn apply_severities(
        &self,
        path: Option<&std::path::Path>,
        diagnostics: &mut Vec<unreal_analysis::Diagnostic>,
    ) {
        if let Some(config) = self.config_for(path) {
            // A document that is no file is judged as if at the configuration's root.
            let at = path.map_or_else(|| config.root.clone(), std::path::Path::to_path_buf);
            unreal_analysis::config::apply_severity(&config, &at, diagnostics);
        }
        if !self.settings.rules.is_empty() {
            diagnostics.retain_mut(|d| match self.settings.severity_for(d.code, d.severity) {
                Some(severity) => {
                    d.severity = severity;
                    true
                }
                None => false,
            });
        }
    }

    /// Whether the file at `path` is excluded by the configuration that applies to it, as
    /// `lint` leaves it out even when named: the editor shows no findings for it either.
    pub fn excludes(&self, path: Option<&std::path::Path>) -> bool {
        path.is_some_and(|path| self.config_for(Some(path)).is_some_and(|c| c.excludes(path)))
    }

    /// The package provider for hover and completion (answers nothing without an index).
    pub fn package_provider(
        &self,
    ) -> Arc<dyn unreal_analysis::ide::t3d::ObjectFacts + Send + Sync> {
        match self.workspace.package_objects() {
            Some(index) => index,
            None => Arc::new(unreal_analysis::ide::t3d::NoPackages),
        }
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
        let mut doc = Content::new("Begin Map\r\nName=\u{1F600}x\r\nEnd Map\r\n".to_owned(), 1);
        // UTF-16: the emoji is 2 units, so column 7 is just before 'x'.
        doc.apply_change(change(Some(((1, 7), (1, 8))), "Y"), PositionEncoding::Utf16);
        assert_eq!(doc.text(), "Begin Map\r\nName=\u{1F600}Y\r\nEnd Map\r\n");
        // UTF-8: the emoji is 4 bytes.
        doc.apply_change(change(Some(((1, 9), (1, 10))), "Z"), PositionEncoding::Utf8);
        assert_eq!(doc.text(), "Begin Map\r\nName=\u{1F600}Z\r\nEnd Map\r\n");
        // A range past the line end stops before the CRLF; past the end appends.
        doc.apply_change(change(Some(((1, 6), (1, 99))), "!"), PositionEncoding::Utf32);
        doc.apply_change(change(Some(((9, 0), (9, 0))), "tail"), PositionEncoding::Utf16);
        assert_eq!(doc.text(), "Begin Map\r\nName=\u{1F600}!\r\nEnd Map\r\ntail");
        // Deleting across lines.
        doc.apply_change(change(Some(((0, 5), (2, 3))), ""), PositionEncoding::Utf16);
        assert_eq!(doc.text(), "Begin Map\r\ntail");
        // A full replacement.
        doc.apply_change(change(None, "new"), PositionEncoding::Utf16);
        assert_eq!(doc.text(), "new");
    }

    #[test]
    fn reversed_ranges_apply_with_ends_swapped() {
        let mut doc = Content::new("abcdef".to_owned(), 1);
        let problem =
            doc.apply_change(change(Some(((0, 4), (0, 1))), "-"), PositionEncoding::Utf16);
        assert_eq!(doc.text(), "a-ef");
        assert!(matches!(problem, Some(EditProblem::ReversedRange(_))));
    }
}

/// A document's last `unrealLs/levelScene` answer (`features/level_scene.rs`), and what it
/// was built from: the document's version, the
/// session (settings) and the package index it was textured from. Held weakly: a kept answer
/// never keeps an old index alive, and a new one never matches a freed one's address.
#[derive(Debug)]
pub struct KeptScene {
    version: i32,
    session: Weak<Session>,
    packages: Option<Weak<PackageIndex>>,
    answer: super::ext::LevelSceneResult,
}

impl KeptScene {
    pub fn new(
        version: i32,
        session: &Arc<Session>,
        packages: Option<&Arc<PackageIndex>>,
        answer: super::ext::LevelSceneResult,
    ) -> Self {
        Self {
            version,
            session: Arc::downgrade(session),
            packages: packages.map(Arc::downgrade),
            answer,
        }
    }

    /// The answer kept, when it was built from this version, session and index.
    pub fn answer_for(
        &self,
        version: i32,
        session: &Arc<Session>,
        packages: Option<&Arc<PackageIndex>>,
    ) -> Option<&super::ext::LevelSceneResult> {
        self.answers(version, session, packages).then_some(&self.answer)
    }

    fn answers(
        &self,
        version: i32,
        session: &Arc<Session>,
        packages: Option<&Arc<PackageIndex>>,
    ) -> bool {
        self.version == version
            && std::ptr::eq(self.session.as_ptr(), Arc::as_ptr(session))
            && match (&self.packages, packages) {
                (None, None) => true,
                (Some(kept), Some(now)) => std::ptr::eq(kept.as_ptr(), Arc::as_ptr(now)),
                _ => false,
            }
    }
}
