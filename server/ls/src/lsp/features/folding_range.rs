//! `textDocument/foldingRange`: every block spanning more than one line.

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::{
    FoldingRange, FoldingRangeKind, FoldingRangeParams, FoldingRangeProviderCapability,
    ServerCapabilities,
};

use super::exec::UcDocument;
use super::t3d::{self, Parsed};
use crate::lsp::documents::{DocumentSnapshot, Session};

pub fn register(caps: &mut ServerCapabilities, _session: &Session) {
    caps.folding_range_provider = Some(FoldingRangeProviderCapability::Simple(true));
}

pub fn handle(
    snapshot: &DocumentSnapshot,
    _params: &FoldingRangeParams,
) -> Result<Option<Vec<FoldingRange>>> {
    let cached = snapshot.t3d().and_then(unreal_analysis::document::T3dDocument::folding_ranges);
    let ranges = if let Some(uc) = UcDocument::of(snapshot) {
        unreal_analysis::ide::exec::folding::folding_ranges(&uc.source())
    } else if let Some(cached) = cached {
        // What the document keeps per segment: no parse of the whole map.
        cached
    } else {
        let Some(parsed) = Parsed::whole(snapshot) else { return Ok(None) };
        unreal_analysis::ide::t3d::folding::folding_ranges(&parsed.source())
    };
    Ok(Some(ranges.into_iter().filter_map(|r| convert(snapshot, r)).collect()))
}

/// The protocol's range, `None` for a block on one line (in LSP lines).
pub fn convert(
    snapshot: &DocumentSnapshot,
    r: unreal_analysis::ide::t3d::folding::FoldingRange,
) -> Option<FoldingRange> {
    let range = t3d::range(snapshot, r.span);
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
