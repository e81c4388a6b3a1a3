//! The workspace around the open documents: its folders, the `unreal-ls.toml` that applies
//! (found in a workspace folder or above it), the game directory (the `gameDirectory`
//! setting, else the configuration's `game-dir`, else a game installation found in or above a
//! workspace folder: a folder with `System/` and one of `Textures/ Sounds/ Music/ Maps/`),
//! the package index built from it, and the `#exec` lint sessions that cache what the `.uc`
//! checks read from disk.
//!
//! This file holds that state; `indexing.rs` builds the index and keeps it current. Until the
//! index is ready the documents are checked without it (reference rules stay quiet).

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use unreal_analysis::config::{Config, ConfigResolver};
use unreal_analysis::index::{IndexRoots, PackageIndex};

use super::lint_sessions::LintSessions;

/// The workspace's configuration, package index and lint sessions; one per connection,
/// shared by every snapshot of the session.
#[derive(Default)]
pub struct Workspace {
    state: Mutex<State>,
    /// What the `.uc` checks read from disk, per set of options.
    pub lint_sessions: LintSessions,
    /// Bumped when a build starts; a build stores its index only if no later one started.
    pub(crate) epoch: AtomicU64,
    /// The client shows `$/progress` (`window.workDoneProgress`).
    pub progress: AtomicBool,
    /// Which `unreal-ls.toml` applies to each file: the nearest in or above its folder, found
    /// and read as `unreal-ls lint` does (the same resolver), forgotten when a configuration
    /// file changes.
    file_configs: Mutex<ConfigResolver>,
    /// The "no game directory" note was logged (at most once per connection).
    pub(crate) noted_missing: AtomicBool,
    /// The client shows the `unrealLs/gameDirectoryMissing` notice itself, with a way to set
    /// the game folder (`experimental.unrealLs.gameDirectoryMissing` in its capabilities);
    /// other clients get a `window/showMessage`.
    pub notice_by_client: AtomicBool,
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

impl Workspace {
    pub(crate) fn state(&self) -> MutexGuard<'_, State> {
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

    /// The `unreal-ls.toml` that applies to the file at `path` (absolute) as `lint` finds it:
    /// the nearest in or above its folder. A file that cannot be read or parsed applies none
    /// (the workspace's own is reported in the log when read).
    pub fn config_for(&self, path: &std::path::Path) -> Option<Arc<Config>> {
        self.file_configs.lock().unwrap_or_else(PoisonError::into_inner).for_file(path)
    }

    /// Forgets which configuration applies to which file (a configuration file changed).
    pub(crate) fn forget_file_configs(&self) {
        *self.file_configs.lock().unwrap_or_else(PoisonError::into_inner) =
            ConfigResolver::discover();
    }

    /// The game folder the index reads (from the settings, the configuration or found around
    /// the workspace).
    pub fn game_dir(&self) -> Option<PathBuf> {
        self.state().roots.as_ref().and_then(|r| r.game_dir.clone())
    }
}
