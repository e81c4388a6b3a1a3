//! What the classic Unreal engines (UE1: Unreal, UT99, Deus Ex, Rune; UE2: UT2004 and kin)
//! do, as data: the `#exec` command table ([`exec`]: every command, subcommand and key, which
//! generation reads it, what it means) and the poly flags of each generation
//! ([`poly_flags`]). One home for engine facts, below the parsers: the `#exec` line parser
//! resolves commands here, and the checks, hovers and completions of the analysis crate read
//! the same tables. Plain tables and lookups; no parsing, no IO.

pub mod exec;
mod generation;
pub mod poly_flags;

pub use generation::{Engines, Generation};
