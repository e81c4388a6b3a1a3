//! The library half of `unreal-ls`: the language server, so that the in-process protocol
//! tests and the latency benchmark drive exactly the code the binary runs. The command-line
//! mode lives in the binary (`main.rs`, `cli/`).

pub mod diff_json;
pub mod lsp;
