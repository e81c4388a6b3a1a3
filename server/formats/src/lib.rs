//! Bytes in, typed and validated views out, for every binary format that T3D files and
//! `#exec` directives point at. No file IO beyond what the caller hands in, no LSP, and no
//! panic on any input.
