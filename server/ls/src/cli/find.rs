//! `unreal-ls find NAME [--game-dir DIR] [--package-path DIR]... [--format human|json]`: any
//! asset of the game folder (textures and materials, meshes, static meshes, animations,
//! sounds, music, fonts, classes) whose name holds NAME, best first, as `Package.Group.Name`
//! with its class and file: the search and ranking of the language server's
//! `workspace/symbol` (`unreal_analysis::index::AssetSearch`).
//!
//! The game folder is `--game-dir`, else `game-dir` of `--config` or of the `unreal-ls.toml`
//! above the current folder, else the game folder around the current folder (one holding
//! `System/` with the engine's `Core.u`); `--package-path` folders and the configuration's
//! `package-paths` are searched after it (the shared settings, `settings.rs`). Exit codes: 0 when something was found, 1 when nothing was, 2 on a
//! usage error (no query, no game folder).

use std::io::{self, Write};
use std::process::ExitCode;

use unreal_analysis::index::{IndexRoots, PackageIndex};

use super::settings::{config_errors, unused_help, SettingsArgs};
use super::{EXIT_CLEAN, EXIT_FINDINGS, EXIT_USAGE};

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum FindFormat {
    Human,
    Json,
}

#[derive(clap::Args)]
#[command(
    mut_arg("game_dir", |a| a.help(GAME_DIR_HELP)),
    mut_arg("engine", unused_help("find", "assets are searched by name alone")),
    mut_arg("game", unused_help("find", "assets are searched by name alone")),
    mut_arg("engine_build", unused_help("find", "assets are searched by name alone"))
)]
pub struct FindArgs {
    /// A name or a fragment of one (`granite`, `Walls.Granite`, `Rock.Walls.Granite`);
    /// letters in order also match (`rwgran`). Case does not matter.
    pub query: String,
    /// Output format.
    #[arg(long, value_enum, default_value = "human")]
    pub format: FindFormat,
    /// The most assets to list.
    #[arg(long, default_value_t = 50)]
    pub limit: usize,
    // The game folder and package paths searched.
    #[command(flatten)]
    pub settings: SettingsArgs,
}

/// What `--game-dir` does here (the shared text speaks of files; find reads none).
const GAME_DIR_HELP: &str = "Game folder (with System/, Textures/...) whose packages are searched [default: `game-dir` of --config or of the unreal-ls.toml above the current folder, else the installation around the current folder]";

/// Where to search, and what said so; `Err` with the exit code once the error is printed.
fn roots(args: &FindArgs) -> Result<(IndexRoots, &'static str), ExitCode> {
    let stderr = &mut anstream::stderr().lock();
    let usage = |stderr: &mut dyn Write, message: String| {
        let _ = writeln!(stderr, "error: {}", super::printable_line(&message));
        ExitCode::from(EXIT_USAGE)
    };
    let cwd = std::env::current_dir()
        .map_err(|e| usage(stderr, format!("cannot tell the current folder: {e}")))?;
    if let Some(dir) = &args.settings.game_dir {
        if !dir.is_dir() {
            return Err(usage(stderr, format!("--game-dir {}: not a folder", dir.display())));
        }
    }
    let workspace = args.settings.workspace().map_err(|errors| config_errors(stderr, &errors))?;
    // No file is read: the settings are those of a file in the current folder.
    let settings = workspace.for_folder(&cwd);
    workspace.check(stderr)?;
    let options = settings.options;
    let config = if args.settings.config.is_some() { "--config" } else { "unreal-ls.toml" };
    let configured = settings.config.as_ref().is_some_and(|c| c.game_dir.is_some());
    let (game_dir, source) = if args.settings.game_dir.is_some() {
        (options.game_dir, "--game-dir")
    } else if configured {
        (options.game_dir, config)
    } else if options.game_dir.is_some() {
        (options.game_dir, "found around the current folder")
    } else {
        // Also a game folder right inside the current one, as the editor finds it for a
        // workspace opened on the folder that holds the installation.
        match unreal_analysis::index::game_folder::game_folder_of_workspace(
            &unreal_analysis::fs::RealFs,
            &[cwd],
        ) {
            Some(found) => (Some(found), "found around the current folder"),
            // No game folder: what is searched is the package paths alone.
            None if args.settings.package_paths.is_empty() => (None, config),
            None => (None, "--package-path"),
        }
    };
    if game_dir.is_none() && options.package_paths.is_empty() {
        return Err(usage(stderr, "no game folder: pass --game-dir DIR (the game's folder, the one that holds System/), set game-dir in unreal-ls.toml, or run inside the game's folder".to_owned()));
    }
    Ok((
        IndexRoots { game_dir, package_paths: options.package_paths, source_paths: Vec::new() },
        source,
    ))
}

pub fn run(args: &FindArgs) -> ExitCode {
    if args.query.trim().is_empty() {
        eprintln!(
            "error: an empty name finds nothing (usage: unreal-ls find NAME [--game-dir DIR])"
        );
        return ExitCode::from(EXIT_USAGE);
    }
    let (roots, source) = match roots(args) {
        Ok(found) => found,
        Err(code) => return code,
    };
    let index = PackageIndex::build_real(roots.clone());
    let hits = index.find_assets(&args.query, args.limit);
    let unreadable = index.packages().iter().filter(|p| p.error.is_some()).count();
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let rows: Vec<(String, &str, &str, String, &str, u32)> = hits
        .iter()
        .filter_map(|hit| {
            let (package, object) = index.entry(hit.id)?;
            Some((
                index.full_path(hit.id),
                &*object.class,
                hit.kind.name(),
                package.path.display().to_string(),
                package.name.as_str(),
                object.export,
            ))
        })
        .collect();
    match args.format {
        FindFormat::Json => {
            let assets: Vec<serde_json::Value> = rows
                .iter()
                .map(|(name, class, kind, file, package, export)| {
                    serde_json::json!({ "name": name, "class": class, "kind": kind,
                        "file": file, "package": package, "export": export })
                })
                .collect();
            let value = serde_json::json!({
                "query": args.query,
                "game_dir": roots.game_dir.as_ref().map(|d| d.display().to_string()),
                "packages": index.packages().len(),
                "unreadable_packages": unreadable,
                "assets": assets,
            });
            let _ = writeln!(out, "{}", serde_json::to_string_pretty(&value).unwrap_or_default());
        }
        FindFormat::Human => {
            let shown = |t: &str| super::printable_line(t).into_owned();
            let w_name = rows.iter().map(|r| shown(&r.0).len()).max().unwrap_or(0);
            let w_class = rows.iter().map(|r| shown(r.1).len()).max().unwrap_or(0);
            for (name, class, _, file, _, _) in &rows {
                let line = format!(
                    "{:<w_name$}  {:<w_class$}  {}",
                    shown(name),
                    shown(class),
                    shown(file)
                );
                let _ = writeln!(out, "{}", line.trim_end());
            }
            let where_ = roots
                .game_dir
                .iter()
                .chain(&roots.package_paths)
                .map(|d| d.display().to_string())
                .collect::<Vec<_>>()
                .join(", ");
            // The packages the assets are in, apart from the packages searched: five assets
            // of one package are "in 1 package", not in as many as were searched.
            let holding: std::collections::HashSet<&str> =
                rows.iter().map(|row| row.3.as_str()).collect();
            let searched = match index.packages().len() {
                1 => "the 1 package".to_owned(),
                n => format!("the {n} packages"),
            };
            let found = match rows.len() {
                0 => format!("nothing found in {searched}"),
                n => format!(
                    "{} found in {} of {searched}",
                    match n {
                        1 => "1 asset".to_owned(),
                        n if n == args.limit => format!("the first {n} assets"),
                        n => format!("{n} assets"),
                    },
                    holding.len()
                ),
            };
            eprintln!(
                "{found} of {} ({source}){}",
                super::printable_line(&where_),
                if unreadable > 0 {
                    format!("; {unreadable} could not be read (unreal-ls info names why)")
                } else {
                    String::new()
                }
            );
        }
    }
    let _ = out.flush();
    ExitCode::from(if rows.is_empty() { EXIT_FINDINGS } else { EXIT_CLEAN })
}
