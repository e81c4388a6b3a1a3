//! The language server (being written). Only this module tree knows LSP types.
#![deny(clippy::print_stdout, clippy::print_stderr)]

use std::process::ExitCode;

#[derive(clap::Args)]
pub struct LspArgs {
    /// Accepted for clients that always pass it; stdio is the only transport.
    #[arg(long)]
    pub stdio: bool,
}

pub fn run(_args: &LspArgs) -> ExitCode {
    ExitCode::from(crate::cli::EXIT_USAGE)
}
