//! `unreal-ls find NAME [--game-dir DIR] [--package-path DIR]... [--format human|json]`: any
//! asset of the game folder (textures and materials, meshes, static meshes, animations,
//! sounds, music, fonts, classes) whose name holds NAME, best first, as `Package.Group.Name`
//! with its class and file: the search and ranking of the language server's
//! `workspace/symbol` (`unreal_analysis::index::AssetSearch`).
//!
//! The game folder is `--game-dir`, else `game-dir` of the `unreal-ls.toml` above the current
//! folder, else the game folder around the current folder (one holding `System/` with the
//! engine's `Core.u`). Exit codes: 0 when something was found, 1 when nothing was, 2 on a
//! usage error (no query, no game folder).

use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use unreal_analysis::index::{IndexRoots, PackageIndex};

use super::{EXIT_CLEAN, EXIT_FINDINGS, EXIT_USAGE};

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum FindFormat {
    Human,
    Json,
}

#[derive(clap::Args)]
pub struct FindArgs {
    /// A name or a fragment of one (`granite`, `Walls.Granite`, `Rock.Walls.Granite`);
    /// letters in order also match (`rwgran`). Case does not matter.
    pub query: String,
    /// Game folder (with System/, Textures/...) whose packages are searched.
    #[arg(long, value_name = "DIR")]
    pub game_dir: Option<PathBuf>,
    /// More folders of packages to search (after the game's own).
    #[arg(long = "package-path", value_name = "DIR")]
    pub package_paths: Vec<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value = "human")]
    pub format: FindFormat,
    /// The most assets to list.
    #[arg(long, default_value_t = 50)]
    pub limit: usize,
}

/// Where to search, and what said so.
fn roots(args: &FindArgs) -> Result<(IndexRoots, &'static str), String> {
    let cwd =
        std::env::current_dir().map_err(|e| format!("cannot tell the current folder: {e}"))?;
    let config = unreal_analysis::config::find_config(&cwd)
        .map(|path| unreal_analysis::config::Config::load(&path).map_err(|errors| (path, errors)));
    let config = match config {
        Some(Ok(config)) => Some(config),
        Some(Err((path, errors))) => {
            let list: Vec<String> = errors.iter().map(ToString::to_string).collect();
            return Err(format!("{}: {}", path.display(), list.join("; ")));
        }
        None => None,
    };
    let mut package_paths = args.package_paths.clone();
    if let Some(config) = &config {
        package_paths.extend(config.package_paths.iter().cloned());
    }
    let (game_dir, source) = if let Some(dir) = &args.game_dir {
        if !dir.is_dir() {
            return Err(format!("--game-dir {}: not a folder", dir.display()));
        }
        (Some(dir.clone()), "--game-dir")
    } else if let Some(dir) = config.as_ref().and_then(|c| c.game_dir.clone()) {
        (Some(dir), "unreal-ls.toml")
    } else {
        let found = unreal_analysis::index::game_folder::game_folder_of_workspace(
            &unreal_analysis::fs::RealFs,
            &[cwd],
        );
        (found, "found around the current folder")
    };
    if game_dir.is_none() && package_paths.is_empty() {
        return Err("no game folder: pass --game-dir DIR (the game's folder, the one that holds System/), set game-dir in unreal-ls.toml, or run inside the game's folder".to_owned());
    }
    Ok((IndexRoots { game_dir, package_paths }, source))
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
        Err(message) => {
            eprintln!("error: {}", super::printable(&message));
            return ExitCode::from(EXIT_USAGE);
        }
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
