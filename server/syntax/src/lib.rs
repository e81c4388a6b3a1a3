//! Text to lossless trees: T3D maps and brushes ([`t3d`]) and `#exec` directives in
//! UnrealScript ([`exec`]). Parsing never fails: every entry point returns a tree together
//! with the syntax errors it met, and every node carries its byte span in the decoded text.

pub mod exec;
pub mod span;
pub mod t3d;
pub mod text;

pub use span::Span;
