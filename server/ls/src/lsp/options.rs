//! How the server is put together ([`ServerOptions`]): what `unreal-ls lsp` runs, and what the
//! in-process tests substitute (their own analyzer, no settle time).

use std::sync::Arc;
use std::time::Duration;

use super::features;

pub use super::features::diagnostics::Analyzer;

/// How the server is put together; [`ServerOptions::default`] is what `unreal-ls lsp` runs.
#[derive(Clone)]
pub struct ServerOptions {
    pub analyzer: Analyzer,
    /// A settle after an edit before the document is analysed; none by default. There is no
    /// real debounce: the worker analyses the latest version as soon as it is free, so a
    /// burst of edits that arrives during an analysis costs one more analysis, not one per
    /// edit, and changes already queued together are taken in before an analysis starts.
    /// (A 2 ms settle was the default: it only delayed every edit's diagnostics by 2 to 3 ms,
    /// tokio's timer rounding up to its next millisecond.)
    pub debounce: Duration,
    /// T3D documents are analysed by their incremental [`T3dDocument`] (every T3D rule, the
    /// same diagnostics as `lint_text`, re-checking only the blocks an edit touched); `false`
    /// sends them through `analyzer` like every other file.
    ///
    /// [`T3dDocument`]: unreal_analysis::document::T3dDocument
    pub incremental_t3d: bool,
}

impl Default for ServerOptions {
    fn default() -> Self {
        Self {
            analyzer: Arc::new(features::exec::analyze),
            debounce: Duration::ZERO,
            incremental_t3d: true,
        }
    }
}
