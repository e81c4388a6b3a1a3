//! The workspace around the open documents: its folders, each file's settings (found as
//! `lint` finds them: [`unreal_analysis::workspace::Settings`]), the workspace's game directory
//! (the `gameDirectory` setting, else the first workspace folder's `game-dir`, else a game
//! installation in or above a workspace folder or just inside one:
//! [`unreal_analysis::index::game_folder`]), the package index built from it, and the
//! `#exec` lint sessions that cache what the `.uc` checks read from disk (and build the index
//! of a file under another installation).
//!
//! This file holds that state; `indexing.rs` builds the index and keeps it current. Until the
//! index is ready the documents are checked without it (reference rules stay quiet).

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use unreal_analysis::config::{Config, ConfigResolver};
use unreal_analysis::fs::RealFs;
use unreal_analysis::index::{IndexRoots, PackageIndex};
use unreal_analysis::workspace::Settings;

use super::lint_sessions::LintSessions;

/// The workspace's configuration, package index and lint sessions; one per connection,
/// shared by every snapshot of the session.
pub struct Workspace {
    state: Mutex<State>,
    /// What the `.uc` checks read from disk, per set of options.
    pub lint_sessions: LintSessions,
    /// Which closed files have problems shown by the workspace check.
    pub problems: super::workspace_problems::WorkspaceProblems,
    /// Bumped when a build starts; a build stores its index only if no later one started.
    pub(crate) epoch: AtomicU64,
    /// The client shows `$/progress` (`window.workDoneProgress`).
    pub progress: AtomicBool,
    /// Every file's settings (its `unreal-ls.toml`, the nearest in or above its folder, and
    /// its game folder), found as `unreal-ls lint` finds them (the same
    /// [`unreal_analysis::workspace::Settings`]), forgotten when a configuration file or a
    /// folder changes.
    pub(crate) settings: Settings,
    /// The "no game directory" note was logged (at most once per connection).
    pub(crate) noted_missing: AtomicBool,
    /// The client shows the `unrealLs/gameDirectoryMissing` notice itself, with a way to set
    /// the game folder (`experimental.unrealLs.gameDirectoryMissing` in its capabilities);
    /// other clients get a `window/showMessage`.
    pub notice_by_client: AtomicBool,
    /// The client lets the user pick a texture for `unrealLs.pickTexture` code actions
    /// (`experimental.unrealLs.pickTexture` in its capabilities): a missing texture then gets
    /// the action that replaces it everywhere.
    pub picks_textures: AtomicBool,
}

#[derive(Default)]
pub(crate) struct State {
    /// What the current (or building) index reads.
    pub(crate) roots: Option<IndexRoots>,
    pub(crate) index: Option<Arc<PackageIndex>>,
    pub(crate) config: Option<Arc<Config>>,
    /// Where the game directory came from, for the log.
    pub(crate) game_dir_source: &'static str,
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

impl Default for Workspace {
    fn default() -> Self {
        Self {
            state: Mutex::default(),
            lint_sessions: LintSessions::default(),
            problems: super::workspace_problems::WorkspaceProblems::default(),
            epoch: AtomicU64::default(),
            progress: AtomicBool::default(),
            settings: Settings::new(Arc::new(RealFs), ConfigResolver::discover()),
            noted_missing: AtomicBool::default(),
            notice_by_client: AtomicBool::default(),
            picks_textures: AtomicBool::default(),
        }
    }
}

impl Workspace {
    pub(crate) fn state(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The package index, once built: with a game folder or package paths, their packages;
    /// always the classes declared in the workspace's sources (what the class rules read,
    /// and what a refresh starts from).
    pub fn packages(&self) -> Option<Arc<PackageIndex>> {
        self.state().index.clone()
    }

    /// The index when it holds packages to look objects up in (a game folder or package
    /// paths: [`PackageIndex::knows_packages`]): what previews, hover, completion and the
    /// asset search read. An index of the workspace's class sources alone has no object to
    /// show, and is answered as no index ("no game folder").
    pub fn package_objects(&self) -> Option<Arc<PackageIndex>> {
        self.packages().filter(|index| index.knows_packages())
    }

    /// The `unreal-ls.toml` of the workspace, if any.
    pub fn config(&self) -> Option<Arc<Config>> {
        self.state().config.clone()
    }

    /// The `unreal-ls.toml` that applies to the file at `path` (absolute) as `lint` finds it:
    /// the nearest in or above its folder. A file that cannot be read or parsed applies none
    /// (the workspace's own is reported in the log when read).
    pub fn config_for(&self, path: &std::path::Path) -> Option<Arc<Config>> {
        self.settings.config_for(path)
    }

    /// Forgets which configuration and game folder apply to which file (a configuration file
    /// or a folder changed).
    pub(crate) fn forget_file_settings(&self) {
        self.settings.forget();
    }

    /// The game folder the index reads (from the settings, the configuration or found around
    /// the workspace).
    pub fn game_dir(&self) -> Option<PathBuf> {
        self.state().roots.as_ref().and_then(|r| r.game_dir.clone())
    }

    /// The workspace's package index when it reads exactly `roots` (and is built).
    pub fn packages_reading(&self, roots: &IndexRoots) -> Option<Arc<PackageIndex>> {
        let state = self.state();
        if state.roots.as_ref() == Some(roots) {
            state.index.clone()
        } else {
            None
        }
    }

    /// True when the workspace's index reads (or is being built to read) `roots`.
    pub fn indexes(&self, roots: &IndexRoots) -> bool {
        self.state().roots.as_ref() == Some(roots)
    }
}
