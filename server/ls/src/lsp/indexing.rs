//! Building the workspace's package index and keeping it current: the configuration is read
//! again after `initialized`, a settings or folder change, or a changed `unreal-ls.toml`; the
//! index is built off the async threads with `$/progress` reports when the client supports
//! them, and every open document is checked again once it is ready, then the workspace's
//! other files (`workspace_problems.rs`). Changed packages are read again on
//! `workspace/didChangeWatchedFiles`. The state itself is in `workspace.rs`.

use std::path::PathBuf;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

use tower_lsp_server::ls_types::{FileChangeType, FileEvent, MessageType, NumberOrString};
use unreal_analysis::config::{self, Config};
use unreal_analysis::index::game_folder::game_folder_of_workspace;
use unreal_analysis::index::{IndexRoots, PackageIndex};
use unreal_analysis::workspace::{game_folder, GameFolderSource};

use super::documents::Session;
use super::scheduler::Scheduler;
use super::shared::Shared;
use super::workspace::Workspace;

/// What the index should read, with where the game directory came from: the game folder and
/// package paths, and the workspace folders as source paths (their `Classes/*.uc`), as each
/// file's options name them ([`Session::lint_options`]), so that the files share this index.
fn resolve(session: &Session, config: Option<&Config>) -> (IndexRoots, &'static str) {
    let found = game_folder(session.settings.game_directory.as_deref(), config, || {
        game_folder_of_workspace(&unreal_analysis::fs::RealFs, &session.roots)
    });
    let source = match found.as_ref().map(|(_, source)| source) {
        Some(GameFolderSource::Set) => "the unrealLs.gameDirectory setting",
        Some(GameFolderSource::Configured) => "unreal-ls.toml",
        Some(GameFolderSource::Found) => "found around the workspace",
        None => "",
    };
    let game_dir = found.map(|(dir, _)| dir);
    let package_paths = config.map(|c| c.package_paths.clone()).unwrap_or_default();
    (IndexRoots { game_dir, package_paths, source_paths: session.roots.clone() }, source)
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
        // A configuration file may have changed: which one applies to a file is found again.
        workspace.forget_file_settings();
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
        super::workspace_problems::check_workspace(shared);
        return;
    }
    // Without packages the references are not checked, whatever class sources the workspace
    // holds: said once. The documents are checked now, without an index, as they always
    // were without a game folder; the workspace's class sources are read in the background
    // (`build`), and the documents checked again only if some are found.
    if !roots.knows_packages() {
        if !workspace.noted_missing.swap(true, Ordering::SeqCst) {
            say_game_directory_missing(shared, &workspace).await;
        }
        recheck_all(shared, scheduler);
    }
    if !roots.reads_anything() {
        super::workspace_problems::check_workspace(shared);
        return;
    }
    // The build runs on its own: the message that asked for it is answered at once, and
    // documents are checked without the index until it is ready.
    let requeue = scheduler.requeue_handle();
    let shared = Arc::clone(shared);
    tokio::spawn(async move { build(&shared, &requeue, &workspace, roots, source).await });
}

/// What is not checked without a game folder.
pub const GAME_DIRECTORY_MISSING: &str = "no game folder found: texture, class and object \
    references (T3D actors and textures, #exec OBJ LOAD and packages) are not checked; set \
    unrealLs.gameDirectory (or game-dir in unreal-ls.toml) to the game's folder, the one that \
    holds System/";

/// Says once per connection that references are not checked: in the log, and on screen (a
/// client that offers to set the game folder gets `unrealLs/gameDirectoryMissing` and shows
/// it with its own action, any other client a `window/showMessage`).
async fn say_game_directory_missing(shared: &Shared, workspace: &Workspace) {
    shared.log(MessageType::INFO, GAME_DIRECTORY_MISSING).await;
    if workspace.notice_by_client.load(Ordering::SeqCst) {
        shared
            .client
            .send_notification::<super::ext::GameDirectoryMissing>(
                super::ext::GameDirectoryMissingParams {
                    message: GAME_DIRECTORY_MISSING.to_owned(),
                },
            )
            .await;
    } else {
        shared.client.show_message(MessageType::INFO, GAME_DIRECTORY_MISSING).await;
    }
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
    // Class sources alone are read in moments, and are no packages to report on.
    let sources_only = !roots.knows_packages();
    let progress = if workspace.progress.load(Ordering::SeqCst) && !sources_only {
        let token = NumberOrString::String(format!("unreal-ls/index/{epoch}"));
        match shared.ask_client(shared.client.create_work_done_progress(token.clone())).await {
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
        let index =
            PackageIndex::build(Arc::new(unreal_analysis::exec::RealFs), build_roots, &mut |p| {
                // One report per package would flood the client on a large install.
                if p.done == 0 || last.elapsed() >= Duration::from_millis(100) {
                    last = Instant::now();
                    let name = p.path.file_name().map(|n| n.to_string_lossy().into_owned());
                    let _ = tx.send((p.done, p.total, name.unwrap_or_default()));
                }
            });
        // The asset search (workspace/symbol, unrealLs/findAssets) is built here, in the
        // background, not by the first query.
        index.asset_search();
        index
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
    if sources_only && index.source_classes().is_empty() && index.walk_notes().is_empty() {
        // No game folder and no class in the workspace: nothing is known that the documents
        // were not checked with (`update` checked them). A class saved later builds the
        // index then (`files_changed`).
        if workspace.epoch.load(Ordering::SeqCst) == epoch {
            super::workspace_problems::check_workspace(shared);
        }
        return;
    }
    let summary = format!(
        "indexed {} packages ({} objects, {} assets to find) and {} classes declared in sources in {} ms from {}{}",
        index.packages().len(),
        index.object_count(),
        index.asset_search().len(),
        index.source_classes().len(),
        started.elapsed().as_millis(),
        describe(&roots),
        if source.is_empty() { String::new() } else { format!(" ({source})") },
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
    // The files that are not open, with the index the checks of references need.
    if current {
        super::workspace_problems::check_workspace(shared);
    }
}

fn describe(roots: &IndexRoots) -> String {
    let mut parts: Vec<String> = roots.game_dir.iter().map(|d| d.display().to_string()).collect();
    parts.extend(roots.package_paths.iter().map(|d| d.display().to_string()));
    parts.extend(roots.source_paths.iter().map(|d| format!("{} (class sources)", d.display())));
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
    let paths: Vec<PathBuf> =
        changes.iter().filter_map(|c| super::file_uri::file_path(&c.uri)).collect();
    let config_changed = paths
        .iter()
        .any(|p| p.file_name().is_some_and(|n| n.eq_ignore_ascii_case(config::CONFIG_FILE_NAME)));
    if config_changed {
        update(shared, scheduler).await;
    }
    let workspace = Arc::clone(&shared.session().workspace);
    let Some(index) = workspace.packages() else {
        // No index yet: a workspace without a game folder whose first class was just saved
        // gets one (one already building reads it anyway).
        let roots = workspace.state().roots.clone();
        if let Some(roots) = roots.filter(|r| !r.knows_packages() && r.reads_anything()) {
            if paths.iter().any(|p| roots.covers_class_source(p)) {
                let requeue = scheduler.requeue_handle();
                let shared = Arc::clone(shared);
                tokio::spawn(async move { build(&shared, &requeue, &workspace, roots, "").await });
            }
        }
        return;
    };
    let deleted = changes.iter().any(|c| c.typ == FileChangeType::DELETED);
    let refreshed = tokio::task::spawn_blocking(move || {
        let refreshed = index.refreshed(&paths);
        // The new index's asset search, built before it replaces the old one.
        if let Some(refreshed) = &refreshed {
            refreshed.asset_search();
        }
        refreshed
    })
    .await
    .ok()
    .flatten();
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
