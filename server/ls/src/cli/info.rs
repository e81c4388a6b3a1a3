//! `unreal-ls info` (being written).

use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct InfoArgs {
    /// Binary files to summarise.
    pub files: Vec<PathBuf>,
}

pub fn run(_args: &InfoArgs) -> ExitCode {
    ExitCode::from(super::EXIT_USAGE)
}
