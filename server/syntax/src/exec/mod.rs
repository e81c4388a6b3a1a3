//! `#exec` directives in UnrealScript sources: the scanner ([`scan`]), one line's syntax
//! ([`parse_line`]) and the engine's key lookup ([`lookup`]). The command table is engine
//! knowledge and lives in `unreal_engine::exec`.
//!
//! Everything works on decoded text; every span is a byte range into it. Nothing here fails or
//! panics: odd input gives issues, never errors out.

pub mod debug;
mod line;
mod scan;

pub use line::{
    lookup, parse_line, Arg, ExecLine, KeySearch, LineIssue, Lookup, Quoting, Value,
    COMMAND_BUFFER_UE1, COMMAND_BUFFER_UE2,
};
pub use scan::{scan, Directive, DirectiveKind, ScanError, ScanResult};

/// Texts for the tests that compare a fast path with its reference: a random number (below
/// `below`) of `pieces` joined, drawn from `state` (a linear congruential generator, so a
/// failure repeats).
#[cfg(test)]
fn random_text(state: &mut u64, pieces: &[&str], below: u64) -> String {
    let mut step = || {
        *state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
        *state
    };
    let count = (step() >> 40) % below;
    let mut text = String::new();
    for _ in 0..count {
        text.push_str(pieces[(step() >> 33) as usize % pieces.len()]);
    }
    text
}
