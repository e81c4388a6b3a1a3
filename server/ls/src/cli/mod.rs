//! The command-line mode: each subcommand in its own module, rendering results from
//! `unreal-analysis` for terminals and machines.

pub mod baseline;
pub mod deps;
pub mod diff;
pub mod exec_lines;
pub mod export;
pub mod find;
pub mod fix;
pub mod fix_textures;
pub mod info;
pub mod input;
pub mod lint;
pub mod map_render;
pub mod output;
pub mod render;
pub mod rules;
pub mod settings;
pub mod ucc_log;

/// No error-level finding.
pub const EXIT_CLEAN: u8 = 0;
/// At least one error-level finding (or warnings under `--deny-warnings` or past
/// `--max-warnings`; or an unreadable file for `info`).
pub const EXIT_FINDINGS: u8 = 1;
/// Usage, configuration or I/O failure.
pub const EXIT_USAGE: u8 = 2;

pub use unreal_formats::printable::{printable, printable_line, printable_message};
