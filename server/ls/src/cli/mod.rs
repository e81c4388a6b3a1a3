//! The command-line mode: each subcommand in its own module, rendering results from
//! `unreal-analysis` for terminals and machines.

pub mod info;
pub mod lint;

/// No error-level finding.
#[allow(dead_code)] // used once lint lands
pub const EXIT_CLEAN: u8 = 0;
/// At least one error-level finding (or an unreadable file for `info`).
#[allow(dead_code)]
pub const EXIT_FINDINGS: u8 = 1;
/// Usage, configuration or I/O failure.
pub const EXIT_USAGE: u8 = 2;
