//! `#exec` checks in context: package trees built in memory (with tiny binary files written
//! by the writers in `build.rs`), each rendered next to its expected diagnostics, plus the
//! corpus of real mods.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test helpers may panic on broken fixtures

mod commands;
mod corpus;
mod doc_examples;
mod render;
mod trees;
