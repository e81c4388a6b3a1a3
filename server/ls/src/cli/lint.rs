//! `unreal-ls lint` (being written).

use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct LintArgs {
    /// Files and directories to check (directories recursively).
    pub paths: Vec<PathBuf>,
}

pub fn run(_args: &LintArgs) -> ExitCode {
    ExitCode::from(super::EXIT_USAGE)
}
