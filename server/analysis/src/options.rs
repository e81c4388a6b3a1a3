//! The options every check runs with, resolved in one place from what the user said: flags
//! on the command line or the editor's settings (the overrides), the nearest
//! `unreal-ls.toml`, and the engine a declared game implies. `lint` and the language server
//! both resolve through [`resolve`], so a setting means the same in both.

use std::path::PathBuf;

use crate::config::Config;
use crate::{EngineSetting, Game};

#[derive(Clone, Debug, Default)]
pub struct LintOptions {
    pub engine: EngineSetting,
    /// The game the files target; `None` when not declared. Flag and polygon-line checks
    /// warn only for a stock game (Epic's own builds): other engines use more.
    pub game: Option<crate::Game>,
    /// The engine build the files target (`436`, `469`); `None` when unknown. Which image
    /// types `#exec TEXTURE IMPORT` takes depends on it; unknown accepts the most.
    pub engine_build: Option<u32>,
    /// The game installation whose packages `#exec` names and T3D references may refer to.
    pub game_dir: Option<PathBuf>,
    /// More folders of packages (`package-paths` in `unreal-ls.toml`).
    pub package_paths: Vec<PathBuf>,
    /// A package index built by the caller (the language server keeps one per workspace).
    /// Without it, a [`LintSession`] builds one from `game_dir` and `package_paths` when
    /// first needed; with neither, references into packages are not checked.
    pub packages: Option<std::sync::Arc<crate::index::PackageIndex>>,
}

/// What the user said outside `unreal-ls.toml` (command-line flags, editor settings); `None`
/// where they said nothing, so the configuration's value applies.
#[derive(Clone, Debug, Default)]
pub struct Overrides {
    pub engine: Option<EngineSetting>,
    pub game: Option<Game>,
    pub engine_build: Option<u32>,
    pub game_dir: Option<PathBuf>,
}

/// The options for files under `config` (or none): an override wins over the configuration;
/// the engine falls back to the generation of the game (overridden or configured), then to
/// `auto`. The package index is the caller's to add.
pub fn resolve(overrides: &Overrides, config: Option<&Config>) -> LintOptions {
    let game = overrides.game.or(config.and_then(|c| c.game));
    LintOptions {
        engine: overrides
            .engine
            .or(config.and_then(|c| c.engine))
            .or_else(|| game.and_then(Game::generation).map(EngineSetting::from))
            .unwrap_or_default(),
        game,
        engine_build: overrides.engine_build.or(config.and_then(|c| c.engine_build)),
        game_dir: overrides.game_dir.clone().or(config.and_then(|c| c.game_dir.clone())),
        package_paths: config.map(|c| c.package_paths.clone()).unwrap_or_default(),
        packages: None,
    }
}
