//! `unreal-ls deps MAP... [--game-dir DIR] [--package-path DIR]... [--format human|json]`:
//! what each map needs to load (`unreal_analysis::deps`): every package it uses, where it was
//! found (the game folder, outside it, the game folder's sources) or that it is missing, with
//! the classes, textures and objects the map names in it; and the packages a server must send
//! with the map (those found outside the game folder).
//!
//! Each map gets its settings as `lint` gives them (`--game-dir`, `--package-path`, its
//! `unreal-ls.toml` or `--config`, else the game installation it stands in). Exit codes: 0
//! when everything a map names was found, 1 when something is missing, 2 on a usage error (no
//! game folder, a file that cannot be read, a configuration error).

use std::collections::HashMap;
use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use serde_json::{json, Value};
use unreal_analysis::deps::{map_names, map_needs, MapNeeds, MapUse, Unchecked};
use unreal_analysis::index::{IndexRoots, PackageIndex};
use unreal_analysis::LineIndex;

use super::settings::{config_errors, unused_help, SettingsArgs};
use super::{printable_line, EXIT_CLEAN, EXIT_FINDINGS, EXIT_USAGE};

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum DepsFormat {
    Human,
    Json,
}

#[derive(clap::Args)]
#[command(
    mut_arg("engine", unused_help("deps", "packages are found by name alone")),
    mut_arg("game", unused_help("deps", "packages are found by name alone")),
    mut_arg("engine_build", unused_help("deps", "packages are found by name alone"))
)]
pub struct DepsArgs {
    /// T3D maps.
    #[arg(required = true)]
    pub maps: Vec<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value = "human")]
    pub format: DepsFormat,
    // The game folder and package paths the maps are resolved against.
    #[command(flatten)]
    pub settings: SettingsArgs,
}

/// One map's needs, or why it could not be read.
struct Report {
    path: PathBuf,
    text: String,
    needs: Result<MapNeeds, String>,
}

pub fn run(args: &DepsArgs) -> ExitCode {
    let stderr = &mut anstream::stderr().lock();
    let settings = match args.settings.workspace() {
        Ok(workspace) => workspace,
        Err(errors) => return config_errors(stderr, &errors),
    };
    let mut indexes: HashMap<IndexRoots, Arc<PackageIndex>> = HashMap::new();
    let mut reports = Vec::new();
    for path in &args.maps {
        let roots = settings.for_file(path).options.index_roots();
        let text = match unreal_formats::mapped::read_regular(path) {
            Ok(bytes) => unreal_syntax::text::decode_owned(bytes).0,
            Err(e) => {
                let needs = Err(format!("cannot read: {e}"));
                reports.push(Report { path: path.clone(), text: String::new(), needs });
                continue;
            }
        };
        if !roots.knows_packages() {
            // What the map names is still worth listing (to gather the files by hand, say):
            // every name, not checked, and a note of how to have them checked.
            let _ = writeln!(
                stderr,
                "note: {}: no game folder: the names it uses are listed, not checked; pass --game-dir DIR (the game's folder, the one that holds System/), set game-dir in unreal-ls.toml, or keep the map inside the game's folder",
                super::printable_line(&path.display().to_string())
            );
            let parse = unreal_syntax::t3d::parse(&text);
            let needs = Ok(map_names(&text, &parse));
            reports.push(Report { path: path.clone(), text, needs });
            continue;
        }
        let index = indexes
            .entry(roots.clone())
            .or_insert_with(|| Arc::new(PackageIndex::build_real(roots)));
        let parse = unreal_syntax::t3d::parse(&text);
        let needs = Ok(map_needs(&text, &parse, index));
        reports.push(Report { path: path.clone(), text, needs });
    }
    if let Err(code) = settings.check(stderr) {
        return code;
    }
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let written = match args.format {
        DepsFormat::Human => write_human(&mut out, &reports),
        DepsFormat::Json => write_json(&mut out, &reports),
    };
    if written.is_err() {
        return ExitCode::from(EXIT_USAGE);
    }
    if reports.iter().any(|r| r.needs.is_err()) {
        ExitCode::from(EXIT_USAGE)
    } else if reports.iter().any(|r| r.needs.as_ref().is_ok_and(MapNeeds::has_missing)) {
        ExitCode::from(EXIT_FINDINGS)
    } else {
        ExitCode::from(EXIT_CLEAN)
    }
}

/// `name (line N, M uses)` of one use, with the full path it was found as.
fn use_text(used: &MapUse, lines: &LineIndex, text: &str) -> String {
    let line =
        lines.line_col(text, used.first.start, unreal_analysis::line_index::ColumnUnit::Utf8).line
            + 1;
    let written = if used.class.is_empty() {
        used.name.clone()
    } else {
        format!("{}'{}'", used.class, used.name)
    };
    let found = used
        .found_as
        .as_ref()
        .filter(|f| !f.eq_ignore_ascii_case(&used.name))
        .map(|f| format!(" = {f}"))
        .unwrap_or_default();
    let uses = if used.count > 1 { format!(", {} uses", used.count) } else { String::new() };
    printable_line(&format!("{} {written}{found} (line {line}{uses})", used.kind.name()))
        .into_owned()
}

fn write_human(out: &mut dyn Write, reports: &[Report]) -> io::Result<()> {
    for report in reports {
        let path = printable_line(&report.path.display().to_string()).into_owned();
        let needs = match &report.needs {
            Ok(needs) => needs,
            Err(why) => {
                writeln!(out, "{path}: {}", printable_line(why))?;
                continue;
            }
        };
        let lines = LineIndex::new(&report.text);
        let count = match needs.packages.len() {
            1 => "1 package".to_owned(),
            n => format!("{n} packages"),
        };
        writeln!(out, "{path}: {count}")?;
        for package in &needs.packages {
            let file = package
                .file
                .as_ref()
                .map(|f| format!(" {}", printable_line(&f.display().to_string())))
                .unwrap_or_default();
            writeln!(out, "  {} ({}){file}", printable_line(&package.name), package.place.name())?;
            for used in &package.found {
                writeln!(out, "    {}", use_text(used, &lines, &report.text))?;
            }
            for used in &package.missing {
                writeln!(out, "    MISSING {}", use_text(used, &lines, &report.text))?;
            }
        }
        if !needs.not_found.is_empty() {
            writeln!(out, "  in no indexed package:")?;
            for used in &needs.not_found {
                writeln!(out, "    MISSING {}", use_text(used, &lines, &report.text))?;
            }
        }
        if !needs.unchecked.is_empty() {
            writeln!(
                out,
                "  not checked ({} names: {})",
                needs.unchecked.len(),
                needs.unchecked_reason.describe()
            )?;
            // Without a game folder the names are all there is to show: each is listed.
            if needs.unchecked_reason == Unchecked::NoGameFolder {
                for used in &needs.unchecked {
                    writeln!(out, "    {}", use_text(used, &lines, &report.text))?;
                }
            }
        }
        let send: Vec<String> =
            needs.to_send().map(|p| printable_line(&p.name).into_owned()).collect();
        if !send.is_empty() {
            writeln!(out, "  a server sends with the map: {}", send.join(", "))?;
        }
    }
    Ok(())
}

fn write_json(out: &mut dyn Write, reports: &[Report]) -> io::Result<()> {
    let maps: Vec<Value> = reports
        .iter()
        .map(|report| {
            let path = report.path.display().to_string();
            match &report.needs {
                Err(why) => json!({ "file": path, "error": why }),
                Ok(needs) => unreal_ls::deps_json::to_json(&path, &report.text, needs),
            }
        })
        .collect();
    serde_json::to_writer_pretty(&mut *out, &json!({ "version": 1, "maps": maps }))?;
    writeln!(out)
}
