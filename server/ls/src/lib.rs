//! The library half of `unreal-ls`: the language server, so that the in-process protocol
//! tests and the latency benchmark drive exactly the code the binary runs. The command-line
//! mode lives in the binary (`main.rs`, `cli/`).

pub mod deps_json;
pub mod diff_json;
pub mod lsp;
pub mod workspace_files;

/// The project's public address (`repository` in the workspace's `Cargo.toml`), once it has
/// one; `None` until then: links made from an invented address would send users nowhere.
pub fn repository() -> Option<&'static str> {
    Some(env!("CARGO_PKG_REPOSITORY")).filter(|address| !address.is_empty())
}

/// Where a rule's documentation is published (its section of `docs/rules.md`), when the
/// project has a public address.
pub fn rule_documentation_url(code: &str) -> Option<String> {
    repository().map(|address| format!("{address}/blob/main/docs/rules.md#{code}"))
}
