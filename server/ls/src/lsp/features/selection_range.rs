//! `textDocument/selectionRange`: word, value, line, block, enclosing blocks, document.

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::{
    SelectionRange, SelectionRangeParams, SelectionRangeProviderCapability, ServerCapabilities,
};

use unreal_syntax::Span;

use super::t3d::{self, Parsed};
use crate::lsp::documents::{DocumentSnapshot, Session};

pub fn register(caps: &mut ServerCapabilities, _session: &Session) {
    caps.selection_range_provider = Some(SelectionRangeProviderCapability::Simple(true));
}

pub fn handle(
    snapshot: &DocumentSnapshot,
    params: &SelectionRangeParams,
) -> Result<Option<Vec<SelectionRange>>> {
    let offsets: Vec<u32> = params.positions.iter().map(|p| t3d::offset(snapshot, *p)).collect();
    // The blocks from the first position's line to the last one's.
    let lines = Span::new(
        offsets.iter().copied().min().unwrap_or(0),
        offsets.iter().copied().max().unwrap_or(0),
    );
    let Some(parsed) = Parsed::around(snapshot, lines) else { return Ok(None) };
    let chains = unreal_analysis::ide::t3d::selection::selection_ranges(&parsed.source(), &offsets);
    Ok(Some(
        chains
            .into_iter()
            .zip(&params.positions)
            .map(|(chain, position)| {
                // Innermost first from analysis; the protocol nests parents inside children.
                let mut range: Option<SelectionRange> = None;
                for span in chain.into_iter().rev() {
                    range = Some(SelectionRange {
                        range: t3d::range(snapshot, span),
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
