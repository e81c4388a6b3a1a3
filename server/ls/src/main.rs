//! `unreal-ls`: one binary, several jobs. `lsp` runs the language server over stdio; `lint`,
//! `info`, `export`, `find`, `render` and `diff` are the command-line mode for CI and scripts.

mod allocator;
mod cli;

use unreal_ls::lsp;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// `unreal-ls --version`: the version and the commit it was built from (build.rs).
const VERSION: &str =
    concat!(env!("CARGO_PKG_VERSION"), " (commit ", env!("UNREAL_LS_COMMIT"), ")");

#[derive(Parser)]
#[command(
    name = "unreal-ls",
    version = VERSION,
    about = "Language server and linter for classic Unreal T3D maps and #exec directives"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Check T3D maps and brushes (and UnrealScript #exec lines) and report problems.
    Lint(cli::lint::LintArgs),
    /// List every rule with its default severity and what it finds.
    Rules(cli::rules::RulesArgs),
    /// Summarise binary files: packages, meshes, PSK/PSA, u3d, images, WAV.
    Info(cli::info::InfoArgs),
    /// Export textures to PNG, `TextBuffers` to .uc, meshes and PSK to glTF, T3D to glTF or OBJ.
    Export(cli::export::ExportArgs),
    /// Write the #exec block that imports a package's vertex mesh again (and, with -o, its files).
    ExecLines(cli::exec_lines::ExecLinesArgs),
    /// Find any asset of the game folder (texture, mesh, sound, class...) by a fragment of its name.
    Find(cli::find::FindArgs),
    /// What T3D maps need: every package they use, where it was found or that it is missing.
    Deps(cli::deps::DepsArgs),
    /// Mend T3D maps' textures: qualify bare names one package holds, replace lost ones.
    FixTextures(cli::fix_textures::FixTexturesArgs),
    /// Put UCC's errors and warnings (UCC.log) on the lines of the classes they blame.
    UccLog(cli::ucc_log::UccLogArgs),
    /// Draw a map's overview picture (PNG): a T3D map's brushes as placed, a built map's
    /// stored level, actors by kind.
    Render(cli::map_render::MapRenderArgs),
    /// What changed between two versions of a map: actors, properties, brushes, CSG order.
    Diff(cli::diff::DiffArgs),
    /// Run the language server over stdio.
    Lsp(lsp::LspArgs),
}

/// `diff --git` is run by git as `unreal-ls diff --git PATH OLD-FILE OLD-HEX OLD-MODE NEW-FILE
/// NEW-HEX NEW-MODE`: what follows `--git` are operands, never options, so a tracked map named
/// `-Map.t3d` or `--help` is compared, not parsed as a flag (git aborted with "external diff
/// died", or help was printed). A `--` is put right after the first `--git` (options go
/// before it; a path named `--` stays a path).
fn operands_after_git(mut args: Vec<std::ffi::OsString>) -> Vec<std::ffi::OsString> {
    if args.get(1).is_none_or(|a| a != "diff") {
        return args;
    }
    let Some(git) = args.iter().skip(2).take_while(|a| *a != "--").position(|a| a == "--git")
    else {
        return args;
    };
    args.insert((git + 3).min(args.len()), "--".into());
    args
}

#[global_allocator]
static ALLOCATOR: allocator::Allocator = allocator::Allocator;

fn main() -> ExitCode {
    let cli = match Cli::try_parse_from(operands_after_git(std::env::args_os().collect())) {
        Ok(cli) => cli,
        Err(err) => {
            // clap prints help and version to stdout with exit 0; usage errors get exit 2.
            let _ = err.print();
            return if err.use_stderr() { cli::EXIT_USAGE.into() } else { ExitCode::SUCCESS };
        }
    };
    // `UNREAL_LS_ALLOCATOR=system` keeps glibc's allocator for every command, so that heap
    // profilers which hook `malloc` (heaptrack, valgrind's massif) see each allocation.
    let system_only = std::env::var_os("UNREAL_LS_ALLOCATOR").is_some_and(|v| v == "system");
    if !matches!(cli.command, Command::Lsp(_)) && !system_only {
        allocator::use_mimalloc();
    }
    match cli.command {
        Command::Lint(args) => cli::lint::run(&args),
        Command::Rules(args) => cli::rules::run(&args),
        Command::Info(args) => cli::info::run(&args),
        Command::Export(args) => cli::export::run(&args),
        Command::ExecLines(args) => cli::exec_lines::run(&args),
        Command::Find(args) => cli::find::run(&args),
        Command::Deps(args) => cli::deps::run(&args),
        Command::FixTextures(args) => cli::fix_textures::run(&args),
        Command::UccLog(args) => cli::ucc_log::run(&args),
        Command::Render(args) => cli::map_render::run(&args),
        Command::Diff(args) => cli::diff::run(&args),
        Command::Lsp(args) => lsp::run(&args),
    }
}
