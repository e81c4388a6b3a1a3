//! `workspace/symbol`: the actors of every open T3D document whose name or class matches.

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::{
    Location, OneOf, ServerCapabilities, SymbolInformation, WorkspaceSymbolParams,
    WorkspaceSymbolResponse,
};
use unreal_analysis::ide::t3d::symbols;

use super::t3d::{self, Parsed};
use crate::lsp::documents::{DocumentHandle, DocumentSnapshot, Session};

pub fn register(caps: &mut ServerCapabilities, _session: &Session) {
    caps.workspace_symbol_provider = Some(OneOf::Left(true));
}

pub fn handle(
    documents: &[DocumentHandle],
    params: &WorkspaceSymbolParams,
) -> Result<Option<WorkspaceSymbolResponse>> {
    let mut out = Vec::new();
    // One document locked at a time.
    for document in documents {
        document.read_copy(|snapshot| symbols_of(snapshot, params, &mut out));
    }
    Ok(Some(WorkspaceSymbolResponse::Flat(out)))
}

fn symbols_of(
    snapshot: &DocumentSnapshot<'_>,
    params: &WorkspaceSymbolParams,
    out: &mut Vec<SymbolInformation>,
) {
    let Some(parsed) = Parsed::whole(snapshot) else { return };
    for symbol in symbols::workspace_symbols(&parsed.source(), &params.query) {
        #[allow(deprecated)] // `deprecated` is a required field of the protocol type
        out.push(SymbolInformation {
            name: symbol.name,
            kind: super::document_symbol::kind(symbol.kind),
            tags: None,
            deprecated: None,
            location: Location {
                uri: snapshot.uri.clone(),
                range: t3d::range(snapshot, symbol.selection_span),
            },
            container_name: symbol.class,
        });
    }
}
