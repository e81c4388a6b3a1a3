//! The workspace around the open documents: its folders, the `unreal-ls.toml` that applies
//! (found in a workspace folder or above it), the game directory (the `gameDirectory`
//! setting, else the configuration's `game-dir`, else a game installation found in or above a
//! workspace folder: a folder with `System/` and one of `Textures/ Sounds/ Music/ Maps/`),
//! and the package index built from it.
//!
//! The index is built off the async threads, with `$/progress` reports when the client
//! supports them; until it is ready the documents are checked without it (reference rules
//! stay quiet), and when it is, every open document is checked again. A change of settings,
//! folders or `unreal-ls.toml` builds a new index only when the folders it reads changed;
//! `workspace/didChangeWatchedFiles` re-reads only the packages that changed.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use tower_lsp_server::ls_types::{FileChangeType, FileEvent, MessageType, NumberOrString};
use unreal_analysis::config::{self, Config, RuleLevel as ConfigLevel};
use unreal_analysis::index::{IndexRoots, PackageIndex};
use unreal_analysis::lint::LintOptions;
use unreal_analysis::{EngineSetting, Severity};

use super::documents::Session;
use super::scheduler::Scheduler;
use super::server::Shared;

/// Folders besides `System/` that mark a game installation.
const GAME_FOLDERS: &[&str] = &["Textures", "Sounds", "Music", "Maps"];

/// How many folders above a workspace folder are searched for a game installation.
const SEARCH_UP: usize = 4;

/// The workspace's configuration and package index; one per connection, shared by every
/// snapshot of the session.
#[derive(Default)]
pub struct Workspace {
    state: Mutex<State>,
    /// Bumped when a build starts; a build stores its index only if no later one started.
    epoch: AtomicU64,
    /// The client shows `$/progress` (`window.workDoneProgress`).
    pub progress: AtomicBool,
    /// The "no game directory" note was logged (at most once per connection).
    noted_missing: AtomicBool,
}

#[derive(Default)]
struct State {
    /// What the current (or building) index reads.
    roots: Option<IndexRoots>,
    index: Option<Arc<PackageIndex>>,
    config: Option<Arc<Config>>,
    /// Where the game directory came from, for the log.
    game_dir_source: &'static str,
}

impl std::fmt::Debug for Workspace {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let state = self.state();
        f.debug_struct("Workspace")
            .field("roots", &state.roots)
            .field("index", &state.index)
            .finish_non_exhaustive()
    }
}

impl Workspace {
    fn state(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The package index, once built.
    pub fn packages(&self) -> Option<Arc<PackageIndex>> {
        self.state().index.clone()
    }

    /// The `unreal-ls.toml` of the workspace, if any.
    pub fn config(&self) -> Option<Arc<Config>> {
        self.state().config.clone()
    }
}

impl Session {
    /// The engine every feature of this session follows: the client's setting, else the
    /// workspace's `unreal-ls.toml` (`engine`, or the generation of its `game`), else `auto`.
    /// Diagnostics, hover, completion and the other T3D features all read it here, so an
    /// engine set only in `unreal-ls.toml` drives them alike.
    pub fn engine(&self) -> EngineSetting {
        self.resolved().engine
    }

    /// The client's settings over the workspace's `unreal-ls.toml`, resolved as `lint` does.
    fn resolved(&self) -> LintOptions {
        let engine = self.settings.engine;
        let overrides = unreal_analysis::options::Overrides {
            engine: (engine != EngineSetting::Auto).then_some(engine),
            ..unreal_analysis::options::Overrides::default()
        };
        unreal_analysis::config::resolve(&overrides, self.workspace.config().as_deref())
    }

    /// What the checks of this session run with: the settings, the workspace's
    /// `unreal-ls.toml` where the settings say nothing, the game folder the workspace found
    /// (from the settings, the configuration or a folder around it) and its package index.
    pub fn lint_options(&self) -> LintOptions {
        let mut options = self.resolved();
        let state = self.workspace.state();
        options.game_dir = state.roots.as_ref().and_then(|r| r.game_dir.clone());
        options.packages.clone_from(&state.index);
        options
    }

    /// The severity a diagnostic of `code` is published with (the settings first, then the
    /// workspace's `unreal-ls.toml` for the file at `path`), `None` when turned off.
    pub fn severity_for(
        &self,
        code: &str,
        default: Severity,
        path: Option<&Path>,
    ) -> Option<Severity> {
        if self.settings.rules.contains_key(code) {
            return self.settings.severity_for(code, default);
        }
        let config = self.workspace.config();
        let level = match (&config, path) {
            (Some(config), Some(path)) => config.rule_level(code, path),
            (Some(config), None) => {
                config.rules.iter().rev().find(|(c, _)| *c == code).map(|(_, l)| *l)
            }
            (None, _) => None,
        };
        match level {
            None => Some(default),
            Some(ConfigLevel::Off) => None,
            Some(ConfigLevel::On(severity)) => Some(severity),
        }
    }

    /// The package provider for hover and completion (answers nothing without an index).
    pub fn package_provider(&self) -> Arc<dyn unreal_analysis::ide::ObjectFacts + Send + Sync> {
        match self.workspace.packages() {
            Some(index) => index,
            None => Arc::new(unreal_analysis::ide::NoPackages),
        }
    }
}

/// A game installation in or above one of the folders: the folder itself, a folder in it, or
/// one of the [`SEARCH_UP`] folders above it.
pub fn detect_game_dir(roots: &[PathBuf]) -> Option<PathBuf> {
    for root in roots {
        let children: Vec<PathBuf> = std::fs::read_dir(root).map_or_else(
            |_| Vec::new(),
            |entries| entries.flatten().map(|e| e.path()).filter(|p| p.is_dir()).collect(),
        );
        let mut candidates: Vec<PathBuf> = vec![root.clone()];
        candidates.extend(children);
        candidates.extend(root.ancestors().skip(1).take(SEARCH_UP).map(Path::to_path_buf));
        if let Some(found) = candidates.into_iter().find(|dir| is_game_dir(dir)) {
            return Some(found);
        }
    }
    None
}

/// `System/` and at least one of [`GAME_FOLDERS`] (any case). A UCC package folder has
/// `Classes/`, `Textures/` and `Sounds/` but never `System/`.
pub fn is_game_dir(dir: &Path) -> bool {
    let Ok(entries) = std::fs::read_dir(dir) else { return false };
    let names: Vec<String> = entries
        .flatten()
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    let has = |wanted: &str| names.iter().any(|n| n.eq_ignore_ascii_case(wanted));
    has("System") && GAME_FOLDERS.iter().any(|f| has(f))
}

/// What the index should read, with where the game directory came from.
fn resolve(session: &Session, config: Option<&Config>) -> (IndexRoots, &'static str) {
    let (game_dir, source) = if let Some(dir) = &session.settings.game_directory {
        (Some(dir.clone()), "the unrealLs.gameDirectory setting")
    } else if let Some(dir) = config.and_then(|c| c.game_dir.clone()) {
        (Some(dir), "unreal-ls.toml")
    } else if let Some(dir) = detect_game_dir(&session.roots) {
        (Some(dir), "found around the workspace")
    } else {
        (None, "")
    };
    let package_paths = config.map(|c| c.package_paths.clone()).unwrap_or_default();
    (IndexRoots { game_dir, package_paths }, source)
}

/// The `unreal-ls.toml` in or above the first workspace folder that has one.
fn load_config(roots: &[PathBuf]) -> (Option<Config>, Vec<String>) {
    for root in roots {
        if let Some(path) = config::find_config(root) {
            return match Config::load(&path) {
                Ok(config) => (Some(config), Vec::new()),
                Err(errors) => (None, errors.iter().map(ToString::to_string).collect()),
            };
        }
    }
    (None, Vec::new())
}

/// Re-reads the configuration and, when the folders to index changed, builds the index in
/// the background. Called after `initialized`, settings changes, workspace folder changes
/// and a changed `unreal-ls.toml`.
pub async fn update(shared: &Arc<Shared>, scheduler: &Scheduler) {
    let session = shared.session();
    let roots_of_workspace = session.roots.clone();
    let (config, problems) = tokio::task::spawn_blocking(move || load_config(&roots_of_workspace))
        .await
        .unwrap_or_default();
    for problem in problems {
        shared.log(MessageType::WARNING, &format!("unreal-ls.toml: {problem}")).await;
    }
    let config = config.map(Arc::new);
    let (roots, source) = resolve(&session, config.as_deref());
    let workspace = Arc::clone(&session.workspace);
    let unchanged = {
        let mut state = workspace.state();
        state.config = config;
        state.game_dir_source = source;
        let unchanged = state.roots.as_ref() == Some(&roots);
        if !unchanged {
            state.roots = Some(roots.clone());
            state.index = None;
        }
        unchanged
    };
    if unchanged {
        recheck_all(shared, scheduler);
        return;
    }
    if roots.is_empty() {
        if !workspace.noted_missing.swap(true, Ordering::SeqCst) {
            let note = "no game directory: texture, class and object references in T3D files are \
                        not checked (set unrealLs.gameDirectory or game-dir in unreal-ls.toml)";
            shared.log(MessageType::INFO, note).await;
        }
        recheck_all(shared, scheduler);
        return;
    }
    // The build runs on its own: the message that asked for it is answered at once, and
    // documents are checked without the index until it is ready.
    let requeue = scheduler.requeue_handle();
    let shared = Arc::clone(shared);
    tokio::spawn(async move { build(&shared, &requeue, &workspace, roots, source).await });
}

/// Builds the index for `roots`, reporting progress, then stores it and checks every open
/// document again.
async fn build(
    shared: &Arc<Shared>,
    requeue: &(impl Fn(tower_lsp_server::ls_types::Uri) + Send + Sync),
    workspace: &Arc<Workspace>,
    roots: IndexRoots,
    source: &'static str,
) {
    let epoch = workspace.epoch.fetch_add(1, Ordering::SeqCst) + 1;
    let title = "Indexing packages";
    let progress = if workspace.progress.load(Ordering::SeqCst) {
        let token = NumberOrString::String(format!("unreal-ls/index/{epoch}"));
        match shared.client.create_work_done_progress(token.clone()).await {
            Ok(()) => Some(shared.client.progress(token, title).with_percentage(0).begin().await),
            Err(_) => None,
        }
    } else {
        None
    };
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<(usize, usize, String)>();
    let build_roots = roots.clone();
    let started = Instant::now();
    let job = tokio::task::spawn_blocking(move || {
        let mut last = Instant::now();
        PackageIndex::build(Arc::new(unreal_analysis::exec::RealFs), build_roots, &mut |p| {
            // One report per package would flood the client on a large install.
            if p.done == 0 || last.elapsed() >= Duration::from_millis(100) {
                last = Instant::now();
                let name = p.path.file_name().map(|n| n.to_string_lossy().into_owned());
                let _ = tx.send((p.done, p.total, name.unwrap_or_default()));
            }
        })
    });
    while let Some((done, total, name)) = rx.recv().await {
        if let Some(progress) = &progress {
            let percentage = (done * 100).checked_div(total).unwrap_or(0) as u32;
            progress.report_with_message(format!("{done}/{total} {name}"), percentage).await;
        }
    }
    let Ok(index) = job.await.map(Arc::new) else {
        shared.log(MessageType::ERROR, "indexing packages failed: internal error").await;
        if let Some(progress) = progress {
            progress.finish_with_message("failed").await;
        }
        return;
    };
    let summary = format!(
        "indexed {} packages ({} objects) in {} ms from {} ({source})",
        index.packages().len(),
        index.object_count(),
        started.elapsed().as_millis(),
        describe(&roots),
    );
    let unreadable: Vec<String> = index
        .packages()
        .iter()
        .filter_map(|p| p.error.as_ref().map(|e| format!("{}: {e}", p.path.display())))
        .collect();
    let walk_notes = index.walk_notes().to_vec();
    if let Some(progress) = progress {
        progress.finish_with_message(summary.clone()).await;
    }
    let current = workspace.epoch.load(Ordering::SeqCst) == epoch;
    if current {
        let mut state = workspace.state();
        if state.roots.as_ref() == Some(&roots) {
            state.index = Some(index);
        }
    }
    shared.log(MessageType::INFO, &summary).await;
    for note in walk_notes {
        shared.log(MessageType::WARNING, &note).await;
    }
    for problem in unreadable {
        shared.log(MessageType::WARNING, &format!("package not indexed: {problem}")).await;
    }
    let uris: Vec<_> = shared.documents().uris().cloned().collect();
    for uri in uris {
        requeue(uri);
    }
}

fn describe(roots: &IndexRoots) -> String {
    let mut parts: Vec<String> = roots.game_dir.iter().map(|d| d.display().to_string()).collect();
    parts.extend(roots.package_paths.iter().map(|d| d.display().to_string()));
    parts.join(", ")
}

/// Every open document is checked again (after the index or configuration changed).
fn recheck_all(shared: &Arc<Shared>, scheduler: &Scheduler) {
    let uris: Vec<_> = shared.documents().uris().cloned().collect();
    for uri in uris {
        scheduler.changed(uri, Duration::ZERO);
    }
}

/// `workspace/didChangeWatchedFiles`: a changed `unreal-ls.toml` re-reads the configuration;
/// changed packages under the indexed folders are read again (the others are kept).
pub async fn files_changed(shared: &Arc<Shared>, scheduler: &Scheduler, changes: &[FileEvent]) {
    let paths: Vec<PathBuf> = changes
        .iter()
        .filter_map(|c| c.uri.to_file_path().map(std::borrow::Cow::into_owned))
        .collect();
    let config_changed = paths
        .iter()
        .any(|p| p.file_name().is_some_and(|n| n.eq_ignore_ascii_case(config::CONFIG_FILE_NAME)));
    if config_changed {
        update(shared, scheduler).await;
    }
    let workspace = Arc::clone(&shared.session().workspace);
    let Some(index) = workspace.packages() else { return };
    let deleted = changes.iter().any(|c| c.typ == FileChangeType::DELETED);
    let refreshed =
        tokio::task::spawn_blocking(move || index.refreshed(&paths)).await.ok().flatten();
    let Some(refreshed) = refreshed else { return };
    let summary = format!(
        "package index refreshed: {} packages ({} objects){}",
        refreshed.packages().len(),
        refreshed.object_count(),
        if deleted { ", deleted files dropped" } else { "" }
    );
    {
        let mut state = workspace.state();
        if state.roots.as_ref() == Some(refreshed.roots()) {
            state.index = Some(Arc::new(refreshed));
        }
    }
    shared.log(MessageType::INFO, &summary).await;
    recheck_all(shared, scheduler);
}
