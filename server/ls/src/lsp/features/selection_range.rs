//! `textDocument/selectionRange`: word, value, line, block, enclosing blocks, document.

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::{
    SelectionRange, SelectionRangeParams, SelectionRangeProviderCapability, ServerCapabilities,
};

use super::document::{self, DocumentAnalysis};
use crate::lsp::documents::{DocumentSnapshot, Session};

pub fn register(caps: &mut ServerCapabilities, _session: &Session) {
    caps.selection_range_provider = Some(SelectionRangeProviderCapability::Simple(true));
}

pub fn handle(
    snapshot: &DocumentSnapshot,
    params: &SelectionRangeParams,
) -> Result<Option<Vec<SelectionRange>>> {
    let offsets: Vec<u32> =
        params.positions.iter().map(|p| document::offset(snapshot, *p)).collect();
    let document = DocumentAnalysis::of(snapshot);
    let Some(chains) = document.analysis().and_then(|a| a.selection_ranges(&offsets)) else {
        return Ok(None);
    };
    Ok(Some(
        chains
            .into_iter()
            .zip(&params.positions)
            .map(|(chain, position)| {
                // Innermost first from analysis; the protocol nests parents inside children.
                let mut range: Option<SelectionRange> = None;
                for span in chain.into_iter().rev() {
                    range = Some(SelectionRange {
                        range: document::range(snapshot, span),
                        parent: range.map(Box::new),
                    });
                }
                range.unwrap_or(SelectionRange {
                    range: tower_lsp_server::ls_types::Range::new(*position, *position),
                    parent: None,
                })
            })
            .collect(),
    ))
}
