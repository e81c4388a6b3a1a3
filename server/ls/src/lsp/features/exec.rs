//! What the `.uc` features share (beside [`super::document`]): the
//! document's path and the long-lived [`LintSession`] that reads its package (the
//! workspace's, see `lsp/lint_sessions.rs`), the [`ExecSource`] every `.uc` feature reads,
//! and locations in other files. Not a feature itself.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use tower_lsp_server::ls_types::Uri;
use unreal_analysis::ide::exec::ExecSource;
use unreal_analysis::lint::{FileKind, LintOptions, LintSession};
use unreal_analysis::rules::check_uc;
use unreal_analysis::Diagnostic;

use crate::lsp::documents::DocumentSnapshot;
use crate::lsp::workspace::Workspace;

/// The file a `file:` URI names; `None` for other schemes (`untitled:`).
pub fn document_path(uri: &Uri) -> Option<PathBuf> {
    crate::lsp::file_uri::file_path(uri)
}

/// The diagnostics pass of the server (what `ServerOptions::default` analyses with): a
/// `.uc` document on disk is checked with its package around it through the workspace's
/// long-lived session, so missing files and case mismatches show too; anything else (and a `.uc`
/// buffer without a file) as [`unreal_analysis::lint::lint_text`] checks it.
///
/// `lint::lint_path` would decode bytes again; the document's text is decoded already, so
/// its `.uc` branch (`rules::check_uc`) is called with the text, spans staying exact.
pub fn analyze(
    kind: FileKind,
    path: Option<&Path>,
    text: &str,
    options: &LintOptions,
    workspace: &Workspace,
) -> Vec<Diagnostic> {
    match (kind, path) {
        (FileKind::UnrealScript, Some(path)) => {
            check_uc(path, text, &workspace.lint_sessions.get(options).exec)
        }
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
        let path = document_path(snapshot.uri);
        let options = snapshot.session.lint_options(path.as_deref());
        Some(Self {
            text: snapshot.text(),
            path,
            session: snapshot.session.workspace.lint_sessions.get(&options),
        })
    }

    /// The directives read, resolved and set in their package.
    pub fn source(&self) -> ExecSource<'_> {
        ExecSource::new(self.text, self.path.as_deref(), Some(&self.session.exec))
    }
}
