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
