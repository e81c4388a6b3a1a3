//! The settings every command that reads files takes (`--game-dir`, `--game`, `--engine`,
//! `--engine-build`, `--config`, `--package-path`), declared once and flattened into `lint`,
//! `export`, `render`, `info`, `deps`, `find` and `diff`, and resolved for each file the one
//! way the language server resolves them too ([`Settings::for_file`]): the flags over the
//! file's `unreal-ls.toml` (or `--config`), the game folder the flag, else the
//! configuration's, else the installation the file stands in. A script can so pass every
//! command the same flags, and a map outside any installation is textured, resolved and
//! checked against the game folder it names.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use unreal_analysis::config::{Config, ConfigError, ConfigResolver};
use unreal_analysis::fs::RealFs;
use unreal_analysis::lint::LintOptions;
use unreal_analysis::options::Overrides;
use unreal_analysis::workspace::{FileSettings, Settings};
use unreal_analysis::EngineSetting;

use super::EXIT_USAGE;

#[derive(Clone, Debug, Default, clap::Args)]
pub struct SettingsArgs {
    /// Engine generation the files target: how lint reads poly flags and #exec keys, how
    /// export and render place brushes [default: unreal-ls.toml's `engine`, else the game's,
    /// else auto]
    #[arg(long, value_enum)]
    pub engine: Option<EngineArg>,
    /// The game the files target: unreal, ut99, ut469, unreal227, deusex, rune, ut2003,
    /// ut2004, swat4, tribes-vengeance, xiii or other. Sets the engine generation when
    /// --engine does not; only a stock game (Epic's, or OldUnreal's ut469 and unreal227) makes
    /// unknown poly flags and polygon lines warnings; ut469 and unreal227 know their own
    /// #exec commands and keys [default: unreal-ls.toml's `game`]
    #[arg(long, value_name = "GAME", value_parser = parse_game)]
    pub game: Option<unreal_analysis::Game>,
    /// Engine build the files target (436, 469): which image types #exec may import.
    #[arg(long, value_name = "BUILD")]
    pub engine_build: Option<u32>,
    /// Game folder (with System/, Textures/...) whose packages the files' names refer to
    /// [default: unreal-ls.toml's `game-dir`, else the installation the file stands in]
    #[arg(long, value_name = "DIR")]
    pub game_dir: Option<PathBuf>,
    /// More folders of packages, searched after the game folder and before unreal-ls.toml's
    /// `package-paths` (repeatable).
    #[arg(long = "package-path", value_name = "DIR")]
    pub package_paths: Vec<PathBuf>,
    /// Use this configuration for every file instead of the unreal-ls.toml found above each.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum EngineArg {
    /// Detect from each file.
    Auto,
    /// Unreal, UT99, Deus Ex, Rune and the other UE1 games.
    Ue1,
    /// UT2004 and the other UE2 games.
    Ue2,
}

impl From<EngineArg> for EngineSetting {
    fn from(engine: EngineArg) -> Self {
        match engine {
            EngineArg::Auto => EngineSetting::Auto,
            EngineArg::Ue1 => EngineSetting::Ue1,
            EngineArg::Ue2 => EngineSetting::Ue2,
        }
    }
}

fn parse_game(name: &str) -> Result<unreal_analysis::Game, String> {
    unreal_analysis::Game::parse(name)
        .ok_or_else(|| format!("expected one of {}", unreal_analysis::Game::NAMES.join(", ")))
}

/// The help of the flags a command accepts without using them: said rather than left to
/// read as if they changed its output (scripts pass every command the same flags).
pub fn unused_help(command: &'static str, why: &'static str) -> impl Fn(clap::Arg) -> clap::Arg {
    move |arg| {
        arg.help(format!("Accepted for scripts that pass every command the same settings; {command} has no use for it: {why}."))
    }
}

/// The flags' workspace: every file's settings, configurations read once.
pub struct Workspace {
    settings: Settings,
    overrides: Overrides,
}

impl SettingsArgs {
    /// The workspace of these flags; the errors of a `--config` file that cannot be used.
    pub fn workspace(&self) -> Result<Workspace, Vec<ConfigError>> {
        let resolver = match &self.config {
            None => ConfigResolver::discover(),
            Some(path) => ConfigResolver::fixed(Config::load(path)?),
        };
        let overrides = Overrides {
            engine: self.engine.map(EngineSetting::from),
            game: self.game,
            engine_build: self.engine_build,
            game_dir: self.game_dir.clone(),
            package_paths: self.package_paths.clone(),
            // Only `lint` names source paths (its folders): [`Workspace::with_source_paths`].
            source_paths: Vec::new(),
        };
        Ok(Workspace { settings: Settings::new(Arc::new(RealFs), resolver), overrides })
    }

    /// The options of the one file (or folder, see [`Workspace::for_folder`]) a command
    /// reads, or, when a configuration cannot be used, the exit code after its errors were
    /// printed as `lint` prints them.
    pub fn options_for(&self, file: &Path) -> Result<LintOptions, ExitCode> {
        let stderr = &mut anstream::stderr().lock();
        let workspace = self.workspace().map_err(|errors| config_errors(stderr, &errors))?;
        let options = workspace.for_file(file).options;
        workspace.check(stderr)?;
        Ok(options)
    }
}

impl Workspace {
    /// The workspace with `paths` as source paths: folders whose packages' `Classes/*.uc`
    /// every file's checks know, with or without a game folder (`lint`'s folders, as the
    /// language server's workspace folders).
    pub fn with_source_paths(mut self, paths: Vec<PathBuf>) -> Self {
        self.overrides.source_paths = paths;
        self
    }

    /// What `file` is read with (a path as given: made absolute here, as configurations
    /// match absolute paths).
    pub fn for_file(&self, file: &Path) -> FileSettings {
        let absolute = std::path::absolute(file).unwrap_or_else(|_| file.to_path_buf());
        self.settings.for_file(&self.overrides, Some(&absolute))
    }

    /// What a command that reads no particular file (`find`) runs with in `dir`: the settings
    /// of a file there, so the configuration in or above `dir` and the installation around
    /// it count as for a map in it.
    pub fn for_folder(&self, dir: &Path) -> FileSettings {
        // The name is never opened: only its folder is looked at.
        self.for_file(&dir.join("unreal-ls-settings"))
    }

    /// The same lookup as [`Workspace::for_file`] for a path already absolute (`lint`'s
    /// canonical candidates).
    pub fn for_absolute(&self, absolute: &Path) -> FileSettings {
        self.settings.for_file(&self.overrides, Some(absolute))
    }

    /// Every configuration error met so far.
    pub fn errors(&self) -> Vec<ConfigError> {
        self.settings.errors()
    }

    /// `Err` with the exit code when a configuration read so far had errors (printed).
    pub fn check(&self, stderr: &mut dyn Write) -> Result<(), ExitCode> {
        let errors = self.errors();
        if errors.is_empty() {
            Ok(())
        } else {
            Err(config_errors(stderr, &errors))
        }
    }
}

/// Prints configuration errors, each naming its file, line and what was expected; the exit
/// code of a configuration error.
pub fn config_errors(stderr: &mut dyn Write, errors: &[ConfigError]) -> ExitCode {
    // Found configurations have absolute paths; below the current folder, relative ones read
    // better and match what the user typed.
    let cwd = std::env::current_dir().ok().and_then(|d| std::fs::canonicalize(d).ok());
    for error in errors {
        let mut error = error.clone();
        if let Some(relative) = cwd.as_ref().and_then(|cwd| error.path.strip_prefix(cwd).ok()) {
            error.path = relative.to_path_buf();
        }
        let _ = writeln!(stderr, "error: {error}");
    }
    ExitCode::from(EXIT_USAGE)
}
