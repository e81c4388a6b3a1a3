//! `unreal-ls info [--json] FILE...`: a summary of each binary file (packages, compressed
//! `.uz`/`.uz2` packages with the package they hold, `.umod` installers and the files inside
//! them as `Mod.umod:System/MyMod.u`, vertex meshes, PSK/PSA, u3d models, images, WAV
//! sounds), as text or as one JSON array.
//!
//! A package's imports are listed with where each imported package is (the game folder,
//! outside it, its sources, missing) when the file's settings name a game folder or package
//! paths (`--game-dir`, `--package-path`, its `unreal-ls.toml` or `--config`, else the
//! installation it stands in), as `deps` places a map's packages.
//!
//! `--csg` adds, for a built map, the level built from its brushes against the BSP it stores
//! ([`unreal_assets::csg`]).
//!
//! A file that cannot be read is reported on stderr (and as an `error` entry in JSON); the
//! other files are still summarised. Exit codes: 0 when every file was read whole, 1 when a
//! file or an object inside a package could not be read, 2 on a usage error.

use std::collections::HashMap;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use unreal_analysis::deps::{package_imports, ImportedPackage};
use unreal_analysis::index::{IndexRoots, PackageIndex};

use unreal_assets::package::PackageFile;
use unreal_formats::mapped::MappedFile;
use unreal_formats::{detect, summarize, summarize_vertex_mesh, FormatKind, Summary};

use super::input::Input;
use super::settings::{config_errors, unused_help, SettingsArgs};
use super::{EXIT_CLEAN, EXIT_FINDINGS, EXIT_USAGE};

#[derive(clap::Args)]
#[command(
    mut_arg("engine", unused_help("info", "a package's own header says how to read it")),
    mut_arg("game", unused_help("info", "a package's own header says how to read it")),
    mut_arg("engine_build", unused_help("info", "a package's own header says how to read it"))
)]
pub struct InfoArgs {
    /// Binary files to summarise.
    pub files: Vec<PathBuf>,
    /// Print one JSON array with an object per file instead of text.
    #[arg(long)]
    pub json: bool,
    /// For a built map (`.unr`): build the level from its brushes as UnrealEd's CSG does and
    /// compare it with the BSP the map stores (area matched and extra, where they differ).
    #[arg(long)]
    pub csg: bool,
    // The game folder and package paths a package's imports are looked up in.
    #[command(flatten)]
    pub settings: SettingsArgs,
}

/// The packages of each game folder and package paths, read once for all the files.
#[derive(Default)]
struct Indexes(HashMap<IndexRoots, Arc<PackageIndex>>);

impl Indexes {
    fn get(&mut self, roots: IndexRoots) -> Arc<PackageIndex> {
        Arc::clone(
            self.0
                .entry(roots.clone())
                .or_insert_with(|| Arc::new(PackageIndex::build_real(roots))),
        )
    }
}

/// The file `path` when it is a package or a compressed one (`.uz`, `.uz2`), read once for
/// every use `info` makes of it (its imports, its level built by `--csg`); `None` for any
/// other file.
fn open_package_file(path: &Path) -> Option<Result<Input, String>> {
    let file = match super::input::open(path) {
        Ok(file) => file,
        Err(e) => return Some(Err(e)),
    };
    let kind = detect(&file, &file.name);
    matches!(kind, Some(FormatKind::Package | FormatKind::Compressed(_))).then_some(Ok(file))
}

/// The package in `file` (the file `path` names): a compressed one decompressed, bounded, by
/// the one package opener of the asset pipeline ([`PackageFile`]).
fn open_package<'a>(path: &'a Path, file: &'a Input) -> Result<PackageFile<'a>, String> {
    PackageFile::open_named(path, &file.name, file).map_err(|e| e.to_string())
}

/// The packages a package (or the one a `.uz`/`.uz2` holds) imports from, found in the
/// index of `roots`; `None` for any other file, or without a game folder or package path.
fn imports(
    package: Option<&PackageFile<'_>>,
    roots: IndexRoots,
    indexes: &mut Indexes,
) -> Option<Vec<ImportedPackage>> {
    if !roots.knows_packages() {
        return None;
    }
    // The summary has said already what could not be read.
    let package = package?.parse().ok()?;
    let index = indexes.get(roots);
    Some(package_imports(&package, &index))
}

/// `Engine (game folder) FILE, 3 objects`.
fn import_line(import: &ImportedPackage) -> String {
    let file = import.file.as_ref().map(|f| format!(" {}", f.display())).unwrap_or_default();
    let objects = match import.objects {
        1 => "1 object".to_owned(),
        n => format!("{n} objects"),
    };
    format!("{} ({}){file}, {objects}", import.name, import.place.name())
}

/// `--csg`: the built level against the stored BSP, for a package (or a compressed one)
/// holding a level, read from `file` (the file `path` names).
fn csg_check(
    path: &Path,
    file: Option<&Input>,
    package: Option<&Result<PackageFile<'_>, String>>,
) -> Result<unreal_assets::csg::package::CsgCheck, String> {
    let (file, package) = match (file, package) {
        (Some(file), Some(Ok(package))) => (file, package),
        (_, Some(Err(e))) => return Err(e.clone()),
        _ => {
            return Err(
                "a built map (a package holding a level), found another kind of file".to_owned()
            )
        }
    };
    let parsed = package.parse().map_err(|e| e.to_string())?;
    let check = unreal_assets::csg::package::check(&parsed).map_err(|e| e.to_string())?;
    if let Err(e) = file.check() {
        // Its decompressed copy may be of what the file never was.
        unreal_analysis::unpacked::forget(path, file);
        return Err(e.to_string());
    }
    if let Some(stopped) = &check.level.stopped {
        return Err(stopped.to_string());
    }
    Ok(check)
}

/// The `_a.3d` partner of a `_d.3d` file or the reverse, found case-insensitively next to it
/// (mod folders rarely agree on case).
fn summarize_path(path: &Path) -> Result<Summary, String> {
    let bytes = super::input::open(path)?;
    let name = bytes.name.as_str();
    let summary =
        if let Some(kind @ (FormatKind::VertexMeshData | FormatKind::VertexMeshAnimation)) =
            detect(&bytes, name)
        {
            // The files the importing class's `MESH IMPORT` reads, else the pair by name.
            let fs = &unreal_analysis::fs::RealFs;
            let class = unreal_assets::export::mesh_files::importing_class(fs, path);
            let pair = unreal_assets::export::mesh_files::pair_read_by(fs, path, class.as_ref())?;
            let partner = if pair.given_is_data { &pair.animation } else { &pair.data };
            let other = MappedFile::open(partner)
                .map_err(|e| format!("cannot read {}: {e}", partner.display()))?;
            let (data, aniv) = if kind == FormatKind::VertexMeshData {
                (&*bytes, &*other)
            } else {
                (&*other, &*bytes)
            };
            let summary = summarize_vertex_mesh(data, aniv).map_err(|e| e.to_string());
            other.check().map_err(|e| format!("{}: {e}", partner.display()))?;
            summary
        } else {
            summarize(&bytes, name).map_err(|e| e.to_string())
        };
    // A file cut short meanwhile read as zeros: that is the error, not the summary.
    bytes.check().map_err(|e| e.to_string())?;
    summary
}

pub fn run(args: &InfoArgs) -> ExitCode {
    if args.files.is_empty() {
        eprintln!("error: no files given (usage: unreal-ls info [--json] FILE...)");
        return ExitCode::from(EXIT_USAGE);
    }
    let stderr = &mut anstream::stderr().lock();
    let workspace = match args.settings.workspace() {
        Ok(workspace) => workspace,
        Err(errors) => return config_errors(stderr, &errors),
    };
    // Each file's game folder, found before anything is printed so that a configuration
    // error stops the run as it stops `lint`.
    let roots: Vec<IndexRoots> = args
        .files
        .iter()
        .map(|path| workspace.for_file(&super::input::disk_path(path)).options.index_roots())
        .collect();
    if let Err(code) = workspace.check(stderr) {
        return code;
    }
    let mut indexes = Indexes::default();
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let mut failed = false;
    let mut json_entries = Vec::new();
    for (i, (path, roots)) in args.files.iter().zip(roots).enumerate() {
        let shown = path.display().to_string();
        match summarize_path(path) {
            Ok(summary) => {
                // Read (and decompressed) once for the imports and the level.
                let file =
                    (args.csg || roots.knows_packages()).then(|| open_package_file(path)).flatten();
                let package = file.as_ref().map(|file| {
                    file.as_ref().map_err(Clone::clone).and_then(|file| open_package(path, file))
                });
                let imports =
                    imports(package.as_ref().and_then(|p| p.as_ref().ok()), roots, &mut indexes);
                for problem in summary.problems() {
                    eprintln!(
                        "error: {}: {}",
                        super::printable_line(&shown),
                        super::printable_line(problem)
                    );
                    failed = true;
                }
                let csg = args.csg.then(|| {
                    csg_check(path, file.as_ref().and_then(|f| f.as_ref().ok()), package.as_ref())
                });
                drop(package);
                drop(file);
                if let Some(Err(message)) = &csg {
                    eprintln!(
                        "error: {}: csg: {}",
                        super::printable_line(&shown),
                        super::printable_line(message)
                    );
                    failed = true;
                }
                if args.json {
                    let mut value =
                        serde_json::to_value(&summary).unwrap_or(serde_json::Value::Null);
                    if let Some(map) = value.as_object_mut() {
                        map.insert("file".to_owned(), serde_json::Value::String(shown));
                        if let Some(imports) = &imports {
                            let list: Vec<serde_json::Value> = imports
                                .iter()
                                .map(|p| {
                                    serde_json::json!({
                                        "package": p.name,
                                        "place": p.place.name(),
                                        "file": p.file.as_ref().map(|f| f.display().to_string()),
                                        "objects": p.objects,
                                    })
                                })
                                .collect();
                            // `imports` is the summary's count of the import table.
                            map.insert(
                                "imported_packages".to_owned(),
                                serde_json::Value::Array(list),
                            );
                        }
                        if let Some(Ok(check)) = &csg {
                            let c = &check.comparison;
                            map.insert(
                                "csg".to_owned(),
                                serde_json::json!({
                                    "brushes": check.map.brushes.len(),
                                    "left_out": check.map.left_out,
                                    "engine_polygons": check.map.engine.len(),
                                    "built_polygons": check.level.surfaces.len(),
                                    "engine_area": c.engine_area,
                                    "built_area": c.built_area,
                                    "matched_percent": c.matched_percent(),
                                    "extra_percent": c.extra_percent(),
                                    "detail_missing_area": check.on_detail.missing_area,
                                    "detail_extra_area": check.on_detail.extra_area,
                                    "matched_outside_detail_percent": check.on_detail.matched_outside_percent(c),
                                    "extra_outside_detail_percent": check.on_detail.extra_outside_percent(c),
                                    "deleted": check.deleted.as_ref().map(|d| serde_json::json!({
                                        "brushes": d.brushes.iter().map(|b| serde_json::json!({"brush": b.brush, "area": b.area})).collect::<Vec<_>>(),
                                        "area": d.area,
                                        "matched_percent": d.matched_percent(c),
                                        "extra_percent": d.extra_percent(c),
                                        "rebuilt": d.rebuilt.as_ref().map(|r| serde_json::json!({
                                            "gives_stored_level": r.gives_stored_level(),
                                            "matched_percent": r.comparison.matched_percent(),
                                            "extra_percent": r.comparison.extra_percent(),
                                            "matched_outside_detail_percent": r.on_detail.matched_outside_percent(&r.comparison),
                                            "extra_outside_detail_percent": r.on_detail.extra_outside_percent(&r.comparison),
                                        })),
                                    })),
                                    "moved": check.moved.as_ref().map(|m| serde_json::json!({
                                        "brushes": m.brushes.iter().map(|b| serde_json::json!({"brush": b.brush, "moved_by": b.moved_by, "area": b.area, "turned": b.turned})).collect::<Vec<_>>(),
                                        "matched_percent": m.rebuilt.comparison.matched_percent(),
                                        "extra_percent": m.rebuilt.comparison.extra_percent(),
                                        "matched_outside_detail_percent": m.rebuilt.on_detail.matched_outside_percent(&m.rebuilt.comparison),
                                        "extra_outside_detail_percent": m.rebuilt.on_detail.extra_outside_percent(&m.rebuilt.comparison),
                                    })),
                                    "stale_semisolid": check.stale_semisolid.as_ref().map(|s| serde_json::json!({
                                        "lacking": s.lacking.iter().map(|l| serde_json::json!({"brush": l.brush, "area": l.area})).collect::<Vec<_>>(),
                                        "lacking_area": s.lacking_area,
                                        "extra_percent": s.extra_percent(c),
                                        "extra_outside_detail_percent": s.extra_outside_detail_percent(c, &check.on_detail),
                                        "as_solid": s.as_solid.as_ref().map(|solid| serde_json::json!({
                                            "brushes": solid.brushes,
                                            "matched_percent": solid.comparison.matched_percent(),
                                            "extra_percent": solid.comparison.extra_percent(),
                                            "matched_outside_detail_percent": solid.on_detail.matched_outside_percent(&solid.comparison),
                                            "extra_outside_detail_percent": solid.on_detail.extra_outside_percent(&solid.comparison),
                                        })),
                                    })),
                                }),
                            );
                        }
                    }
                    json_entries.push(value);
                } else {
                    if i > 0 {
                        let _ = writeln!(out);
                    }
                    let _ = writeln!(out, "{}", super::printable_line(&shown));
                    let _ = write!(out, "{}", super::printable(&summary.to_string()));
                    if let Some(Ok(check)) = &csg {
                        let _ = write!(out, "{}", super::printable(&check.to_string()));
                    }
                    if let Some(imports) = &imports {
                        let count = match imports.len() {
                            1 => "1 package".to_owned(),
                            n => format!("{n} packages"),
                        };
                        let _ = writeln!(out, "imports from {count}:");
                        for import in imports {
                            let _ =
                                writeln!(out, "  {}", super::printable_line(&import_line(import)));
                        }
                    }
                }
            }
            Err(message) => {
                failed = true;
                eprintln!(
                    "error: {}: {}",
                    super::printable_line(&shown),
                    super::printable_line(&message)
                );
                if args.json {
                    json_entries.push(serde_json::json!({ "file": shown, "error": message }));
                }
            }
        }
    }
    if args.json {
        let text = serde_json::to_string_pretty(&json_entries).unwrap_or_default();
        let _ = writeln!(out, "{text}");
    }
    let _ = out.flush();
    ExitCode::from(if failed { EXIT_FINDINGS } else { EXIT_CLEAN })
}
