//! What the `.uc` features share (the `#exec` counterparts of [`super::t3d`]): the
//! document's path and the long-lived [`LintSession`] that reads its package (folder
//! listings, the other classes' symbols, binary file facts, each read once and kept until
//! `workspace/didChangeWatchedFiles` says files changed), the [`ExecSource`] every `.uc`
//! feature reads, and locations in other files. Not a feature itself.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

use tower_lsp_server::ls_types::Uri;
use unreal_analysis::ide::exec::ExecSource;
use unreal_analysis::lint::{FileKind, LintOptions, LintSession};
use unreal_analysis::rules::check_uc;
use unreal_analysis::Diagnostic;

use crate::lsp::documents::DocumentSnapshot;

/// One session per set of options (a settings change that switches the engine, or a new
/// package index, makes a new one). Process-wide: one server runs per process, and in-process
/// tests share read-only caches of files that they never change.
static SESSIONS: Mutex<Vec<(SessionKey, Arc<LintSession>)>> = Mutex::new(Vec::new());

/// Everything in the options a session's caches depend on; the package index by identity
/// (a rebuilt index is a new one).
#[derive(Clone, Debug, PartialEq)]
struct SessionKey {
    engine: unreal_analysis::EngineSetting,
    engine_build: Option<u32>,
    game_dir: Option<PathBuf>,
    package_paths: Vec<PathBuf>,
    packages: Option<usize>,
}

impl SessionKey {
    fn of(options: &LintOptions) -> Self {
        Self {
            engine: options.engine,
            engine_build: options.engine_build,
            game_dir: options.game_dir.clone(),
            package_paths: options.package_paths.clone(),
            packages: options.packages.as_ref().map(|p| Arc::as_ptr(p) as usize),
        }
    }
}

/// The session for `options`, made on first use.
pub fn session(options: &LintOptions) -> Arc<LintSession> {
    let key = SessionKey::of(options);
    let mut sessions = SESSIONS.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some((_, session)) = sessions.iter().find(|(k, _)| *k == key) {
        return Arc::clone(session);
    }
    // Sessions of older indexes are not asked for again: keep the list short.
    sessions.retain(|(k, _)| k.packages == key.packages || k.packages.is_none());
    let session = Arc::new(LintSession::new(options));
    sessions.push((key, Arc::clone(&session)));
    session
}

/// Forgets everything read from disk: files were created, changed or deleted.
pub fn clear_sessions() {
    SESSIONS.lock().unwrap_or_else(PoisonError::into_inner).clear();
}

/// The file a `file:` URI names; `None` for other schemes (`untitled:`).
pub fn document_path(uri: &Uri) -> Option<PathBuf> {
    uri.to_file_path().map(std::borrow::Cow::into_owned)
}

/// The diagnostics pass of the server (what `ServerOptions::default` analyses with): a
/// `.uc` document on disk is checked with its package around it through the long-lived
/// session, so missing files and case mismatches show too; anything else (and a `.uc`
/// buffer without a file) as [`unreal_analysis::lint::lint_text`] checks it.
///
/// `lint::lint_path` would decode bytes again; the document's text is decoded already, so
/// its `.uc` branch (`rules::check_uc`) is called with the text, spans staying exact.
pub fn analyze(
    kind: FileKind,
    path: Option<&Path>,
    text: &str,
    options: &LintOptions,
) -> Vec<Diagnostic> {
    match (kind, path) {
        (FileKind::UnrealScript, Some(path)) => check_uc(path, text, &session(options).exec),
        _ => unreal_analysis::lint::lint_text(kind, text, options),
    }
}

/// A `.uc` snapshot with what its features need.
pub struct UcDocument<'a> {
    pub text: &'a str,
    pub path: Option<PathBuf>,
    session: Arc<LintSession>,
}

impl<'a> UcDocument<'a> {
    /// `None` for documents that are not UnrealScript.
    pub fn of(snapshot: &DocumentSnapshot<'a>) -> Option<Self> {
        if snapshot.kind() != Some(FileKind::UnrealScript) {
            return None;
        }
        let options = snapshot.session.lint_options();
        Some(Self {
            text: snapshot.text(),
            path: document_path(snapshot.uri),
            session: session(&options),
        })
    }

    /// The directives read, resolved and set in their package.
    pub fn source(&self) -> ExecSource<'_> {
        ExecSource::new(self.text, self.path.as_deref(), Some(&self.session.exec))
    }
}
