//! `unreal-ls exec-lines PACKAGE --object MESH [-o DIR] [--force]`: the `#exec` block that
//! imports a package's vertex mesh again (`unreal_assets::exec_lines`), printed for a class;
//! with `-o`, the files its lines name are written under DIR (`Models\`, `Textures\`), so
//! that UCC building a package in DIR reads them. `export --object MESH --to 3d -o DIR` writes
//! the same files.
//!
//! Exit codes: 0 done, 1 the package or mesh cannot be read or a file not written, 2 usage.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use unreal_assets::exec_lines::{self, ExecBlock};
use unreal_assets::object_select::{self, ObjectSpec, SelectError};
use unreal_assets::package::PackageFile;

use super::output::{write_output, Overwrite};
use super::{printable_line, EXIT_CLEAN, EXIT_FINDINGS, EXIT_USAGE};

#[derive(clap::Args)]
pub struct ExecLinesArgs {
    /// The package holding the mesh (`.u`, `.utx`, ...; `.uz` read too).
    pub package: PathBuf,
    /// The mesh: its name or `Group.Name`, or `LodMesh'Name'`.
    #[arg(long)]
    pub object: String,
    /// Also write the files the lines name under this folder (`Models\`, `Textures\`).
    #[arg(short = 'o', long = "output")]
    pub output: Option<PathBuf>,
    /// Replace files that exist.
    #[arg(long)]
    pub force: bool,
}

pub fn run(args: &ExecLinesArgs) -> ExitCode {
    let bytes = match super::input::open(&args.package) {
        Ok(bytes) => bytes,
        Err(e) => {
            eprintln!("error: {}: {}", args.package.display(), printable_line(&e));
            return ExitCode::from(EXIT_FINDINGS);
        }
    };
    let block = match block_of(&args.package, &bytes.name, &bytes, &args.object) {
        Ok(block) => block,
        Err((code, message)) => {
            eprintln!("error: {}: {}", args.package.display(), printable_line(&message));
            return ExitCode::from(code);
        }
    };
    let mut out = std::io::stdout().lock();
    for line in &block.lines {
        // Names come from the file: escaped so that none can start a line of its own.
        let _ = writeln!(out, "{}", printable_line(line));
    }
    if let Some(dir) = &args.output {
        if let Err(e) = write_files(&block, dir, args.force, &[args.package.as_path()]) {
            eprintln!("error: {}", printable_line(&e));
            return ExitCode::from(EXIT_FINDINGS);
        }
        eprintln!("wrote {} files under {}", block.files.len(), dir.display());
    }
    ExitCode::from(EXIT_CLEAN)
}

/// The block of the mesh `object` names in the package; the exit code and message otherwise.
fn block_of(
    path: &Path,
    name: &str,
    bytes: &[u8],
    object: &str,
) -> Result<ExecBlock, (u8, String)> {
    let file =
        PackageFile::open_named(path, name, bytes).map_err(|e| (EXIT_FINDINGS, e.to_string()))?;
    let package = file.parse().map_err(|e| (EXIT_FINDINGS, e.to_string()))?;
    let spec = ObjectSpec::parse(object);
    let is_vertex_mesh = |i: usize| exec_lines::is_vertex_mesh_class(package.class_name(i));
    let export = object_select::select(&package, &spec, is_vertex_mesh).map_err(|e| match e {
        SelectError::Ambiguous { .. } => (EXIT_USAGE, format!("{e} (name it as Class'Path')")),
        SelectError::NotFound { .. } => (EXIT_FINDINGS, e.to_string()),
    })?;
    if let Some(message) = exec_lines::not_a_vertex_mesh(&package, export) {
        return Err((EXIT_USAGE, message));
    }
    exec_lines::mesh_block(&package, export).map_err(|e| (EXIT_FINDINGS, e.to_string()))
}

/// Where a file the lines name (`Models\\X_d.3d`) is written under `dir`, with this
/// system's separators.
pub fn path_under(dir: &Path, relative: &str) -> PathBuf {
    relative.split('\\').fold(dir.to_path_buf(), |path, part| path.join(part))
}

/// Writes the files of `block` under `dir`, each through the one safe writer (an existing
/// file only with `force`, an input never).
pub fn write_files(
    block: &ExecBlock,
    dir: &Path,
    force: bool,
    inputs: &[&Path],
) -> Result<(), String> {
    for file in &block.files {
        let path = path_under(dir, &file.path);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .map_err(|e| format!("{}: cannot create the folder: {e}", parent.display()))?;
        }
        write_output(&path, &file.bytes, Overwrite::Force(force), inputs)
            .map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(())
}
