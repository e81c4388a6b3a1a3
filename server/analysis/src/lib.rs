//! The IDE layer of unreal-ls. Everything here speaks plain data in byte offsets into decoded
//! text and knows nothing of LSP, JSON or terminals: the language server and the CLI are two
//! thin renderers of the same results.

pub mod config;
pub mod coords;
pub mod deps;
pub mod diagnostic;
pub mod document;
mod engine;
pub mod exec;
pub mod fs;
pub mod ide;
pub mod index;
pub mod line_index;
pub mod lint;
pub mod options;
pub mod rules;
mod source_text;
pub mod t3d;
pub mod thumbnail;
pub mod unpacked;
pub mod workspace;

pub use diagnostic::{Diagnostic, Fix, Label, Severity, TextEdit};
pub use engine::{EngineSetting, Generation};
pub use line_index::{LineCol, LineIndex};
pub use source_text::SourceText;
/// The engine crate's game, which the CLI's `--game` and `unreal-ls.toml` name.
pub use unreal_engine::Game;
