//! T3D knowledge the rules, hovers and code actions share: vector geometry, engine
//! detection, and a walk over a parsed document (the poly flag tables of each generation are
//! engine facts, in `unreal_engine::poly_flags`).

pub mod actors;
pub mod brushes;
pub mod generation;
pub mod geometry;
pub mod in_pieces;
pub mod placement;
pub mod textures;
pub mod walk;
