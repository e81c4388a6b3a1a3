//! Test helpers that the tests and benchmarks of several crates share (a dev-dependency,
//! never part of the product): writers that build synthetic binary files from the format
//! documents ([`writers`], and [`spec_files`] for one-line fixture specs), and a seeded
//! generator ([`Rng`]) so that randomised tests are reproducible. Test code: it may panic.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::missing_panics_doc)]

pub mod containers;
pub mod corpus;
mod rng;
mod scratch;
pub mod spec_files;
pub mod writers;

pub use rng::{damaged_copies, Rng};
pub use scratch::ScratchDir;
