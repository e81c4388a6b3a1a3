//! `textDocument/foldingRange`: every block spanning more than one line.

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::{
    FoldingRange, FoldingRangeKind, FoldingRangeParams, FoldingRangeProviderCapability,
    ServerCapabilities,
};

use super::document::{self, DocumentAnalysis};
use crate::lsp::documents::{DocumentSnapshot, Session};

pub fn register(caps: &mut ServerCapabilities, _session: &Session) {
    caps.folding_range_provider = Some(FoldingRangeProviderCapability::Simple(true));
}

pub fn handle(
    snapshot: &DocumentSnapshot,
    _params: &FoldingRangeParams,
) -> Result<Option<Vec<FoldingRange>>> {
    let document = DocumentAnalysis::of(snapshot);
    let Some(analysis) = document.analysis() else { return Ok(None) };
    let ranges = analysis.folding_ranges();
    Ok(Some(ranges.into_iter().filter_map(|r| convert(snapshot, r)).collect()))
}

/// The protocol's range, `None` for a block on one line (in LSP lines).
pub fn convert(
    snapshot: &DocumentSnapshot,
    r: unreal_analysis::ide::t3d::folding::FoldingRange,
) -> Option<FoldingRange> {
    let range = document::range(snapshot, r.span);
    let range = FoldingRange {
        start_line: range.start.line,
        start_character: None,
        end_line: range.end.line,
        end_character: None,
        kind: Some(FoldingRangeKind::Region),
        collapsed_text: Some(r.collapsed_text),
    };
    (range.end_line > range.start_line).then_some(range)
}
