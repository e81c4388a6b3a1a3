//! The workspace model `lint` and the language server share: for any file, the settings its
//! checks run with. The nearest `unreal-ls.toml` in or above the file's folder (its `[rules]`,
//! `[[overrides]]`, `include` and `exclude`), what the user said outside it (command-line
//! flags, the editor's settings), the engine, game and build, and the game folder: the one
//! set, else the configuration's `game-dir`, else the installation the file stands in
//! ([`crate::index::game_folder::game_folder_around`]). What the editor shows for a file is what CI
//! reports for it because both ask [`Settings::for_file`].

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

use crate::config::{Config, ConfigError, ConfigResolver};
use crate::fs::FileSystem;
use crate::options::{LintOptions, Overrides};

/// The settings of one file.
#[derive(Clone, Debug)]
pub struct FileSettings {
    /// The `unreal-ls.toml` that applies; `None` when there is none (or it could not be read:
    /// see [`Settings::errors`]).
    pub config: Option<Arc<Config>>,
    /// What the checks run with (no package index: the caller keeps those).
    pub options: LintOptions,
}

impl FileSettings {
    /// The configuration's `exclude` names the file: `lint` skips it even when named on the
    /// command line, and the editor publishes nothing for it.
    pub fn excludes(&self, file: &Path) -> bool {
        self.config.as_ref().is_some_and(|c| c.excludes(file))
    }

    /// The configuration's `include` and `exclude` keep the file in a search of folders.
    pub fn includes(&self, file: &Path) -> bool {
        self.config.as_ref().is_none_or(|c| c.includes(file))
    }
}

/// Where a game folder came from: the order in which it is decided, for a file's checks
/// ([`Settings::for_file`]) and for the language server's package index alike.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameFolderSource {
    /// Named by the user: a command-line flag, or the editor's setting.
    Set,
    /// The configuration's `game-dir`.
    Configured,
    /// The installation found around the file (or the workspace's folders).
    Found,
}

/// The game folder, in the one order every command and the server follow: the one `set`,
/// else the configuration's `game-dir`, else what `find` finds around the file or folders.
pub fn game_folder(
    set: Option<&Path>,
    config: Option<&Config>,
    find: impl FnOnce() -> Option<PathBuf>,
) -> Option<(PathBuf, GameFolderSource)> {
    if let Some(dir) = set {
        return Some((dir.to_path_buf(), GameFolderSource::Set));
    }
    if let Some(dir) = config.and_then(|c| c.game_dir.clone()) {
        return Some((dir, GameFolderSource::Configured));
    }
    find().map(|dir| (dir, GameFolderSource::Found))
}

/// Finds every file's settings, reading each configuration file and looking around each
/// folder once. Shared by the threads of a lint run and by the language server's requests.
pub struct Settings {
    fs: Arc<dyn FileSystem>,
    configs: Mutex<ConfigResolver>,
    /// The game folder found around a folder (`None`: none is).
    found: Mutex<HashMap<PathBuf, Option<PathBuf>>>,
}

impl std::fmt::Debug for Settings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Settings").field("configs", &self.configs).finish_non_exhaustive()
    }
}

impl Settings {
    /// Settings over `fs`, finding configurations with `configs` (`ConfigResolver::discover`,
    /// or `ConfigResolver::fixed` for `--config`).
    pub fn new(fs: Arc<dyn FileSystem>, configs: ConfigResolver) -> Self {
        Self { fs, configs: Mutex::new(configs), found: Mutex::default() }
    }

    /// The configuration that applies to `file` (absolute): the nearest `unreal-ls.toml` in
    /// or above its folder.
    pub fn config_for(&self, file: &Path) -> Option<Arc<Config>> {
        self.configs.lock().unwrap_or_else(PoisonError::into_inner).for_file(file)
    }

    /// Everything `file`'s checks run with: `overrides` over its configuration, and its
    /// game folder (the override, else the configuration's `game-dir`, else the
    /// installation around the file). `file` is absolute; `None` is a document that is no
    /// file (an editor's unsaved buffer), which gets the overrides alone.
    pub fn for_file(&self, overrides: &Overrides, file: Option<&Path>) -> FileSettings {
        let config = file.and_then(|f| self.config_for(f));
        let mut options = crate::config::resolve(overrides, config.as_deref());
        options.game_dir = game_folder(overrides.game_dir.as_deref(), config.as_deref(), || {
            file.and_then(|f| self.game_folder_around(f.parent()?))
        })
        .map(|(dir, _)| dir);
        FileSettings { config, options }
    }

    /// The game folder around `dir`, looked for once per folder.
    fn game_folder_around(&self, dir: &Path) -> Option<PathBuf> {
        let mut found = self.found.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(known) = found.get(dir) {
            return known.clone();
        }
        let around = crate::index::game_folder::game_folder_around(self.fs.as_ref(), dir);
        found.insert(dir.to_path_buf(), around.clone());
        around
    }

    /// Every configuration error met so far, each once, in the order the files were read.
    pub fn errors(&self) -> Vec<ConfigError> {
        self.configs.lock().unwrap_or_else(PoisonError::into_inner).errors().to_vec()
    }

    /// Forgets what was read (a configuration file or a folder changed): the next question
    /// reads again.
    pub fn forget(&self) {
        let mut configs = self.configs.lock().unwrap_or_else(PoisonError::into_inner);
        *configs = configs.emptied();
        self.found.lock().unwrap_or_else(PoisonError::into_inner).clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fs::MemoryFs;

    #[test]
    fn the_game_folder_is_the_override_then_the_config_then_the_installation_around() {
        let fs = MemoryFs::default()
            .with("/games/UT/System/Core.u", Vec::new())
            .with("/games/UT/Maps/DM-X.t3d", Vec::new());
        let settings = Settings::new(Arc::new(fs), ConfigResolver::discover());
        let map = Path::new("/games/UT/Maps/DM-X.t3d");
        let found = settings.for_file(&Overrides::default(), Some(map));
        assert_eq!(found.options.game_dir.as_deref(), Some(Path::new("/games/UT")));

        let overrides = Overrides { game_dir: Some("/elsewhere".into()), ..Overrides::default() };
        let set = settings.for_file(&overrides, Some(map));
        assert_eq!(set.options.game_dir.as_deref(), Some(Path::new("/elsewhere")));

        let outside = settings.for_file(&Overrides::default(), Some(Path::new("/work/A.t3d")));
        assert_eq!(outside.options.game_dir, None);
        let buffer = settings.for_file(&Overrides::default(), None);
        assert_eq!(buffer.options.game_dir, None);

        let config = Config::parse(
            "game-dir = \"/configured\"\n",
            Path::new("/p/unreal-ls.toml"),
            Path::new("/p"),
        )
        .expect("a valid configuration");
        let fs = MemoryFs::default()
            .with("/games/UT/System/Core.u", Vec::new())
            .with("/games/UT/Maps/M.t3d", Vec::new());
        let settings = Settings::new(Arc::new(fs), ConfigResolver::fixed(config));
        let configured = settings.for_file(&Overrides::default(), Some(map));
        assert_eq!(configured.options.game_dir.as_deref(), Some(Path::new("/configured")));
    }

    /// `--package-path` folders add to the configuration's `package-paths`, searched first.
    #[test]
    fn package_paths_of_the_overrides_come_before_the_configurations() {
        let config = Config::parse(
            "package-paths = [\"Extra\"]\n",
            Path::new("/p/unreal-ls.toml"),
            Path::new("/p"),
        )
        .expect("a valid configuration");
        let settings = Settings::new(Arc::new(MemoryFs::default()), ConfigResolver::fixed(config));
        let overrides = Overrides { package_paths: vec!["/mine".into()], ..Overrides::default() };
        let file = settings.for_file(&overrides, Some(Path::new("/p/Maps/A.t3d")));
        assert_eq!(file.options.package_paths, [Path::new("/mine"), Path::new("/p/Extra")]);
        let alone = settings.for_file(&Overrides::default(), Some(Path::new("/p/Maps/A.t3d")));
        assert_eq!(alone.options.package_paths, [Path::new("/p/Extra")]);
    }
}
