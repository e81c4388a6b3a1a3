//! The entry point that both `unreal-ls lint` and the language server's diagnostics call:
//! bytes of one file in, decoded text and diagnostics out.

use std::path::Path;

use unreal_syntax::text::{self, SourceEncoding};

pub use crate::options::LintOptions;
use crate::{Diagnostic, SourceText};

/// The kinds of text file unreal-ls checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileKind {
    T3d,
    UnrealScript,
}

/// Decides whether a file is one unreal-ls checks: `.t3d` by extension, `.uc`/`.uci` by
/// extension, and any other text file whose first non-blank line is `Begin Map`,
/// `Begin Actor`, `Begin PolyList`, `Begin Brush` or `Begin Polygon` (UnrealEd's clipboard
/// and exports with other extensions).
pub fn detect_kind(path: &Path, head: &[u8]) -> Option<FileKind> {
    let ext = path.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase);
    match ext.as_deref() {
        Some("t3d") => return Some(FileKind::T3d),
        Some("uc" | "uci") => return Some(FileKind::UnrealScript),
        _ => {}
    }
    if !text::looks_like_text(head) {
        return None;
    }
    let decoded = text::decode(&head[..head.len().min(4096)]);
    let first = text::lines(&decoded.text).map(str::trim).find(|l| !l.is_empty())?;
    let mut words = first.split_ascii_whitespace();
    let begin = words.next()?;
    let kind = words.next()?;
    let starts_t3d = begin.eq_ignore_ascii_case("begin")
        && ["map", "actor", "polylist", "brush", "polygon"]
            .iter()
            .any(|k| kind.eq_ignore_ascii_case(k));
    starts_t3d.then_some(FileKind::T3d)
}

/// What a run over many files shares: the file system and the caches of everything read
/// from it (package symbol tables, mesh and image headers), so that each file is read once.
/// `Sync`: one session serves every thread of a parallel run.
#[derive(Debug)]
pub struct LintSession {
    pub exec: crate::exec::ExecEnv,
}

impl LintSession {
    /// A session over the machine's file system.
    pub fn new(options: &LintOptions) -> Self {
        Self { exec: crate::exec::ExecEnv::real(options) }
    }

    /// A session over another file system (tests, benchmarks, editors with unsaved files).
    pub fn with_fs(fs: std::sync::Arc<dyn crate::exec::FileSystem>, options: &LintOptions) -> Self {
        Self { exec: crate::exec::ExecEnv::new(fs, options) }
    }
}

/// One checked file: the decoded text (diagnostic spans are byte offsets into it) and what
/// was found.
#[derive(Debug)]
pub struct LintedFile {
    pub text: SourceText,
    pub encoding: SourceEncoding,
    pub diagnostics: Vec<Diagnostic>,
    /// The text's line index, when the check built it on the way (see
    /// [`crate::document::CheckedOnce`]); the caller builds one otherwise.
    pub line_index: Option<crate::LineIndex>,
}

/// A `.t3d` whose first bytes are binary: one finding, and the rest is never decoded (a
/// gigabyte of zeros would otherwise be decoded and parsed whole).
fn binary_t3d(kind: FileKind, bytes: &[u8]) -> Option<LintedFile> {
    if kind != FileKind::T3d || text::looks_like_text(bytes) {
        return None;
    }
    let diagnostic = crate::rules::t3d_not_t3d::RULE
        .diagnostic(unreal_syntax::Span::empty_at(0), crate::rules::t3d_not_t3d::BINARY_MESSAGE);
    Some(LintedFile {
        text: SourceText::default(),
        encoding: SourceEncoding::Windows1252,
        diagnostics: vec![diagnostic],
        line_index: None,
    })
}

/// Decodes and checks one file of the given kind.
pub fn lint_file(kind: FileKind, bytes: &[u8], options: &LintOptions) -> LintedFile {
    if let Some(binary) = binary_t3d(kind, bytes) {
        return binary;
    }
    let decoded = text::decode(bytes);
    let encoding = decoded.encoding;
    let text = decoded.text.into_owned();
    let diagnostics = lint_text(kind, &text, options);
    LintedFile { text: text.into(), encoding, diagnostics, line_index: None }
}

/// Decodes and checks the file at `path`, with what surrounds it: for UnrealScript, the
/// package its `#exec` directives import into and the files they name (read through the
/// session's file system, cached across files).
pub fn lint_path(
    kind: FileKind,
    path: &Path,
    bytes: &[u8],
    options: &LintOptions,
    session: &LintSession,
) -> LintedFile {
    // A binary `.t3d` is told from its first bytes, before the whole file is copied.
    if let Some(binary) = binary_t3d(kind, bytes) {
        return binary;
    }
    lint_path_owned(kind, path, bytes.to_vec(), options, session)
}

/// [`lint_path`] on bytes it takes over: UTF-8 becomes the text without a copy, and a map is
/// checked one run of top-level blocks at a time, on every core, its tree never held whole
/// (the open document's way, [`crate::document::T3dDocument`], whose findings equal a
/// whole parse's). What `unreal-ls lint` calls.
pub fn lint_path_owned(
    kind: FileKind,
    path: &Path,
    bytes: Vec<u8>,
    options: &LintOptions,
    session: &LintSession,
) -> LintedFile {
    if let Some(binary) = binary_t3d(kind, &bytes) {
        return binary;
    }
    let (text, encoding) = text::decode_owned(bytes);
    lint_source(kind, path, text.into(), encoding, options, session)
}

/// [`lint_path_owned`] on text already decoded (or mapped: see [`SourceText`]), read from a
/// file in `encoding`.
pub fn lint_source(
    kind: FileKind,
    path: &Path,
    text: SourceText,
    encoding: SourceEncoding,
    options: &LintOptions,
    session: &LintSession,
) -> LintedFile {
    match kind {
        FileKind::T3d => {
            let mut options = options.clone();
            if let Some(packages) = session.exec.packages_if_configured() {
                options.packages = Some(std::sync::Arc::clone(packages));
            }
            let once = crate::document::T3dDocument::check_once(text, &options);
            let crate::document::CheckedOnce { text, diagnostics, line_index } = once;
            LintedFile { text, encoding, diagnostics, line_index }
        }
        FileKind::UnrealScript => {
            let diagnostics = crate::rules::check_uc(path, &text, &session.exec);
            LintedFile { text, encoding, diagnostics, line_index: None }
        }
    }
}

/// Checks text that is already decoded (an editor's open document). Spans are byte offsets
/// into `text`.
pub fn lint_text(kind: FileKind, text: &str, options: &LintOptions) -> Vec<Diagnostic> {
    match kind {
        FileKind::T3d => crate::rules::check_t3d(text, options),
        FileKind::UnrealScript => crate::rules::check_uc_text(text, options),
    }
}
