//! The workspace's problems: every file of the workspace folders that `unreal-ls lint` would
//! check there, checked from disk in the background, its findings published like an open
//! document's, so that the Problems panel lists what CI lists without a file being opened.
//!
//! - Which files: the walk `lint DIR` makes ([`crate::workspace_files`]), then each file's
//!   `unreal-ls.toml` `include`/`exclude`; each file is checked with its own settings
//!   ([`Session::lint_options`], the ones an open document gets) by the function `lint`
//!   calls ([`unreal_analysis::lint::lint_path_owned`]), through the workspace's lint
//!   sessions, so what is read from disk is read once for the open documents and for this.
//! - When: after the package index is built (and at once without a game folder), after a
//!   settings or configuration change, for the files changed on disk
//!   (`workspace/didChangeWatchedFiles`: a class's whole package folder, as one class's
//!   directives are checked against its package), and for a document when it is closed. A
//!   later full check stops an earlier one.
//! - Politely: one file at a time on one blocking thread, whose own parallel work (a big
//!   map's blocks) runs on a pool of one thread, so the other core stays with the editor's
//!   requests; progress is reported with `$/progress`. A walk stops after 200,000 files (an
//!   editor opened on a home folder) and says so in the log; `/proc`, `/sys` and `/dev` are
//!   never entered.
//! - Kept: only which closed files have findings shown (their URIs), never texts or trees. An
//!   open document is never published here: its own check rules until it closes. A file
//!   deleted, excluded or no longer found is cleared; `unrealLs.workspaceDiagnostics: false`
//!   clears them all.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use tower_lsp_server::ls_types::{self as lsp, NumberOrString, Uri};
use unreal_analysis::LineIndex;

use super::documents::Session;
use super::features::diagnostics::{publishable, Target};
use super::position::Lines;
use super::shared::Shared;
use crate::workspace_files::{self, read_checkable, Content, Walked};

/// What the workspace check keeps between runs.
#[derive(Debug, Default)]
pub struct WorkspaceProblems {
    /// Files not open in the editor whose findings from disk are shown (published, not
    /// empty).
    shown: Mutex<HashSet<Uri>>,
    /// Bumped by each full check; a running one stops when it is no longer the latest.
    run: AtomicU64,
}

impl WorkspaceProblems {
    fn shown(&self) -> MutexGuard<'_, HashSet<Uri>> {
        self.shown.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The client shows problems for `uri` (a document just closed showed its own): the next
    /// check of the file replaces or clears them.
    pub fn mark_shown(&self, uri: &Uri) {
        self.shown().insert(uri.clone());
    }
}

/// One file's outcome, sent from the checking thread.
enum Checked {
    /// How many files the check looks at, and whether the walk stopped at its bound.
    Total { files: usize, cut: bool },
    /// `items`: the findings to show; `None`: none to show (not a file lint checks, excluded,
    /// unreadable, gone, or open in the editor).
    File { done: usize, uri: Uri, items: Option<Vec<lsp::Diagnostic>> },
}

/// Checks every file of the workspace folders in the background and publishes their problems
/// (or clears them all when the user turned workspace problems off).
pub fn check_workspace(shared: &Arc<Shared>) {
    let shared = Arc::clone(shared);
    tokio::spawn(async move { run(&shared, None).await });
}

/// Checks these files again from disk (changed, deleted, or closed in the editor). A class
/// brings its package folder's other classes (their directives are checked against it).
pub fn check_files(shared: &Arc<Shared>, paths: Vec<PathBuf>) {
    let mut files: Vec<PathBuf> = Vec::new();
    let mut seen = HashSet::new();
    for path in paths {
        let is_class = path
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| e.eq_ignore_ascii_case("uc") || e.eq_ignore_ascii_case("uci"));
        let siblings = is_class.then(|| path.parent().map(classes_in)).flatten();
        for file in std::iter::once(path).chain(siblings.into_iter().flatten()) {
            if seen.insert(file.clone()) {
                files.push(file);
            }
        }
    }
    if files.is_empty() {
        return;
    }
    let shared = Arc::clone(shared);
    tokio::spawn(async move { run(&shared, Some(files)).await });
}

/// The `.uc` files of a folder (a package's `Classes/`).
fn classes_in(folder: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(folder) else { return Vec::new() };
    let mut classes: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e.eq_ignore_ascii_case("uc")))
        .collect();
    classes.sort();
    classes
}

/// Whether `path` is under one of the workspace folders (a file the workspace check owns).
pub fn in_workspace(session: &Session, path: &Path) -> bool {
    session.roots.iter().any(|root| path.starts_with(root))
}

/// How many files a walk of the workspace folders meets at most (binary ones not counted):
/// an editor opened on a home folder or a whole drive gets a check of its first files, not an
/// afternoon's; a mod repository or a game installation has a few thousand.
const MAX_WALKED_FILES: usize = 200_000;

/// The files the workspace check looks at: every file a walk of each workspace folder finds,
/// once, in order; `true` when the walk stopped at `limit` ([`MAX_WALKED_FILES`]).
fn workspace_files(roots: &[PathBuf], limit: usize) -> (Vec<PathBuf>, bool) {
    let mut seen = HashSet::new();
    let mut files = Vec::new();
    let mut walked = 0usize;
    for root in roots {
        if !root.is_dir() {
            continue;
        }
        workspace_files::walk(root, &mut |found| {
            walked += 1;
            if let Walked::File(path) = found {
                if seen.insert(path.clone()) {
                    files.push(path);
                }
            }
            walked < limit
        });
        if walked >= limit {
            return (files, true);
        }
    }
    (files, false)
}

/// The findings of the file at `path` (absolute) as they are published, or `None` when
/// there is nothing to show: as `lint` would report it, with the editor's rule levels.
pub fn findings(session: &Session, uri: &Uri, path: &Path) -> Option<Vec<lsp::Diagnostic>> {
    // What a walk of its folder would leave out (`include`, `exclude`), lint never reports.
    let config = session.config_for(Some(path));
    if config.as_ref().is_some_and(|c| !c.includes(path)) {
        return None;
    }
    let Ok(Some((kind, Content::Read(bytes)))) = read_checkable(path, false) else { return None };
    let mut options = session.lint_options(Some(path));
    session.packages_for_checks(&mut options);
    let lint_session = session.workspace.lint_sessions.get(&options);
    let linted = unreal_analysis::lint::lint_path_owned(kind, path, bytes, &options, &lint_session);
    if linted.diagnostics.is_empty() {
        return None;
    }
    let line_index = linted.line_index.unwrap_or_else(|| LineIndex::new(&linted.text));
    let target =
        Target { uri, lines: Lines::new(&linted.text, &line_index), encoding: session.encoding };
    let items = publishable(session, Some(path), linted.diagnostics, &target);
    (!items.is_empty()).then(|| items.into_iter().map(|item| item.diagnostic).collect())
}

/// A full check (`only: None`) or a check of some files.
async fn run(shared: &Arc<Shared>, only: Option<Vec<PathBuf>>) {
    // Nothing is checked before `initialized` has read the settings and the configuration.
    shared.settings_settled().await;
    let session = shared.session();
    let problems = &session.workspace.problems;
    if !session.settings.workspace_problems() {
        clear(shared, None).await;
        return;
    }
    let full = only.is_none();
    let run = if full {
        problems.run.fetch_add(1, Ordering::SeqCst) + 1
    } else {
        problems.run.load(Ordering::SeqCst)
    };
    let progress = if full && session.workspace.progress.load(Ordering::SeqCst) {
        let token = NumberOrString::String(format!("unreal-ls/workspace/{run}"));
        match shared.ask_client(shared.client.create_work_done_progress(token.clone())).await {
            Ok(()) => Some(
                shared
                    .client
                    .progress(token, "Checking the workspace")
                    .with_percentage(0)
                    .begin()
                    .await,
            ),
            Err(_) => None,
        }
    } else {
        None
    };
    let started = Instant::now();
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<Checked>();
    let (job_shared, job_session) = (Arc::clone(shared), Arc::clone(&session));
    let job = tokio::task::spawn_blocking(move || {
        let (files, cut) = match only {
            Some(files) => {
                (files.into_iter().filter(|f| in_workspace(&job_session, f)).collect(), false)
            }
            None => workspace_files(&job_session.roots, MAX_WALKED_FILES),
        };
        let _ = tx.send(Checked::Total { files: files.len(), cut });
        let current = || job_session.workspace.problems.run.load(Ordering::SeqCst) == run;
        let check_all = || {
            for (i, path) in files.iter().enumerate() {
                if full && !current() {
                    // A later full check took over.
                    return false;
                }
                let Some(uri) = Uri::from_file_path(path) else { continue };
                let open = job_shared.documents().get(&uri).is_some();
                let items = if open { None } else { findings(&job_session, &uri, path) };
                let _ = tx.send(Checked::File { done: i + 1, uri, items });
            }
            true
        };
        // A map's blocks are checked in parallel: here on one thread, so that the editor's
        // requests keep the other core.
        match rayon::ThreadPoolBuilder::new().num_threads(1).build() {
            Ok(pool) => pool.install(check_all),
            Err(_) => check_all(),
        }
    });
    let (mut total, mut seen, mut with_findings) = (0, HashSet::new(), 0usize);
    let mut last_report = Instant::now();
    while let Some(checked) = rx.recv().await {
        match checked {
            Checked::Total { files, cut } => {
                total = files;
                if cut {
                    let message = format!(
                        "the workspace check looks at the first {MAX_WALKED_FILES} files of the workspace folders only; open a smaller folder, or set unrealLs.workspaceDiagnostics to false"
                    );
                    shared.log(tower_lsp_server::ls_types::MessageType::WARNING, &message).await;
                }
            }
            Checked::File { done, uri, items } => {
                with_findings += usize::from(items.is_some());
                publish(shared, &uri, items).await;
                seen.insert(uri);
                if let Some(progress) = &progress {
                    if last_report.elapsed() >= Duration::from_millis(200) {
                        last_report = Instant::now();
                        let percentage = (done * 100).checked_div(total).unwrap_or(0) as u32;
                        progress
                            .report_with_message(format!("{done}/{total} files"), percentage)
                            .await;
                    }
                }
            }
        }
    }
    let completed = job.await.unwrap_or(false);
    let summary = format!(
        "workspace checked: {total} files, {with_findings} with problems, in {} ms",
        started.elapsed().as_millis()
    );
    if let Some(progress) = progress {
        progress.finish_with_message(summary.clone()).await;
    }
    if full && completed {
        // Files shown before and not met now were deleted, excluded or left the folders.
        clear(shared, Some(&seen)).await;
        shared.log(tower_lsp_server::ls_types::MessageType::INFO, &summary).await;
    }
}

/// Publishes a closed file's findings (or clears them), unless it is open now: an open
/// document's own check rules.
async fn publish(shared: &Shared, uri: &Uri, items: Option<Vec<lsp::Diagnostic>>) {
    let session = shared.session();
    let problems = &session.workspace.problems;
    let _gate = shared.publish_gate.lock().await;
    if shared.documents().get(uri).is_some() {
        problems.shown().remove(uri);
        return;
    }
    match items {
        Some(items) => {
            problems.shown().insert(uri.clone());
            shared.client.publish_diagnostics(uri.clone(), items, None).await;
        }
        None => {
            // Only a file shown before is cleared: a workspace of clean files sends nothing.
            if problems.shown().remove(uri) {
                shared.client.publish_diagnostics(uri.clone(), Vec::new(), None).await;
            }
        }
    }
}

/// Clears the problems shown for closed files: all of them, or those not in `keep`.
async fn clear(shared: &Shared, keep: Option<&HashSet<Uri>>) {
    let session = shared.session();
    let problems = &session.workspace.problems;
    let gone: Vec<Uri> = {
        let mut shown = problems.shown();
        let gone: Vec<Uri> = shown
            .iter()
            .filter(|uri| keep.is_none_or(|keep| !keep.contains(*uri)))
            .cloned()
            .collect();
        for uri in &gone {
            shown.remove(uri);
        }
        gone
    };
    let _gate = shared.publish_gate.lock().await;
    for uri in gone {
        if shared.documents().get(&uri).is_none() {
            shared.client.publish_diagnostics(uri, Vec::new(), None).await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The walk of the workspace folders stops at its bound and says so; two folders that
    /// overlap give each file once.
    #[test]
    fn the_walk_is_bounded_and_gives_each_file_once() {
        let dir = std::env::temp_dir().join(format!("unreal-ls-ws-walk-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("Maps")).unwrap();
        for i in 0..5 {
            std::fs::write(dir.join(format!("Maps/M{i}.t3d")), "Begin Map\nEnd Map\n").unwrap();
        }
        let roots = vec![dir.clone(), dir.join("Maps")];
        let (files, cut) = workspace_files(&roots, 100);
        assert_eq!((files.len(), cut), (5, false));
        let (files, cut) = workspace_files(&roots, 3);
        assert_eq!((files.len(), cut), (3, true));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
