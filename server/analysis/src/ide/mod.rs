//! The editor features, behind one entry point: [`Analysis`] (in `analysis.rs`) takes a map
//! or a class and answers every feature, choosing the language's own implementation: one
//! folder per input language, [`t3d`] for maps (hover, completion, navigation, symbols,
//! folding, selection ranges, semantic tokens, inlay hints, formatting and code actions) and
//! [`exec`] for the `#exec` lines of UnrealScript classes. Both speak plain data in byte
//! offsets (results with spans into the text, and one vocabulary of result types: the `#exec`
//! features answer in the T3D features' vocabulary), and nothing here knows LSP: the language
//! server converts offsets to positions and results to protocol types.

pub mod analysis;
pub mod exec;
pub mod t3d;

pub use analysis::{Analysis, FileEdits, FileLocation, MapDocument, MapText, Occurrence};
