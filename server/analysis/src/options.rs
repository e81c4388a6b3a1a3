//! The options every check runs with, and what the user said outside `unreal-ls.toml`
//! (flags on the command line, the editor's settings). `config::resolve` puts the two
//! together with the nearest `unreal-ls.toml`; `lint` and the language server both resolve
//! through it, so a setting means the same in both.

use std::path::PathBuf;

use unreal_engine::Game;

use crate::EngineSetting;

#[derive(Clone, Debug, Default)]
pub struct LintOptions {
    pub engine: EngineSetting,
    /// The game the files target; `None` when not declared. Flag and polygon-line checks
    /// warn only for a stock game (Epic's own builds): other engines use more.
    pub game: Option<unreal_engine::Game>,
    /// The engine build the files target (`436`, `469`); `None` when unknown. Which image
    /// types `#exec TEXTURE IMPORT` takes depends on it; unknown accepts the most.
    pub engine_build: Option<u32>,
    /// The game installation whose packages `#exec` names and T3D references may refer to.
    pub game_dir: Option<PathBuf>,
    /// More folders of packages (`package-paths` in `unreal-ls.toml`).
    pub package_paths: Vec<PathBuf>,
    /// Folders whose packages' `Classes/*.uc` declare classes the checks know (abstract,
    /// placeable, parents, defaults) with or without a game folder: the folders `lint` was
    /// given, the editor's workspace folders ([`crate::index::IndexRoots::source_paths`]).
    pub source_paths: Vec<PathBuf>,
    /// A package index built by the caller (the language server keeps one per workspace).
    /// Without it, a [`LintSession`] builds one from `game_dir`, `package_paths` and
    /// `source_paths` when first needed. References into packages are checked only with a
    /// game folder or package paths ([`crate::index::PackageIndex::knows_packages`]); the
    /// classes of the sources are known either way.
    pub packages: Option<std::sync::Arc<crate::index::PackageIndex>>,
}

impl LintOptions {
    /// The folders whose packages and class sources these options name: what a package
    /// index for them reads.
    pub fn index_roots(&self) -> crate::index::IndexRoots {
        crate::index::IndexRoots {
            game_dir: self.game_dir.clone(),
            package_paths: self.package_paths.clone(),
            source_paths: self.source_paths.clone(),
        }
    }
}

/// What the user said outside `unreal-ls.toml` (command-line flags, editor settings); `None`
/// where they said nothing, so the configuration's value applies.
#[derive(Clone, Debug, Default)]
pub struct Overrides {
    pub engine: Option<EngineSetting>,
    pub game: Option<Game>,
    pub engine_build: Option<u32>,
    pub game_dir: Option<PathBuf>,
    /// More folders of packages (`--package-path`): searched before the configuration's
    /// `package-paths`, which they add to rather than replace (a script names its own
    /// folders without losing the project's).
    pub package_paths: Vec<PathBuf>,
    /// Folders whose packages' `Classes/*.uc` are class sources: `lint`'s folders (or the
    /// current folder), the editor's workspace folders. Not a configuration setting: where
    /// a file is checked from decides them, the same way for `lint` and the server.
    pub source_paths: Vec<PathBuf>,
}
