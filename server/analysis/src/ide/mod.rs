//! The editor features, one folder per input language: [`t3d`] for maps (hover, completion,
//! navigation, symbols, folding, selection ranges, semantic tokens, inlay hints, formatting
//! and code actions) and [`exec`] for the `#exec` lines of UnrealScript classes. Both speak
//! plain data in byte offsets (results with spans into the text, and one vocabulary of result types:
//! the `#exec` features answer in the T3D features' vocabulary), and nothing here knows LSP:
//! the language server converts offsets to positions and results to protocol types.

pub mod exec;
pub mod t3d;
