//! T3D knowledge the rules, hovers and code actions share: vector geometry, the poly flag
//! tables of each engine generation, engine detection, and a walk over a parsed document.

pub mod flags;
pub mod generation;
pub mod geometry;
pub mod placement;
pub mod walk;
