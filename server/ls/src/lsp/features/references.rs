//! `textDocument/references`: every `Name=` and `Class'MyLevel.Name'` of an actor or model.

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::{Location, OneOf, ReferenceParams, ServerCapabilities};

use super::t3d::{self, Parsed};
use crate::lsp::documents::{DocumentSnapshot, Session};

pub fn register(caps: &mut ServerCapabilities, _session: &Session) {
    caps.references_provider = Some(OneOf::Left(true));
}

pub fn handle(
    snapshot: &DocumentSnapshot,
    params: &ReferenceParams,
) -> Result<Option<Vec<Location>>> {
    let Some(parsed) = Parsed::of(snapshot) else { return Ok(None) };
    let offset = t3d::offset(snapshot, params.text_document_position.position);
    let found = unreal_analysis::ide::navigation::find_references(
        &parsed.source(snapshot),
        offset,
        params.context.include_declaration,
    );
    Ok(Some(
        found
            .into_iter()
            .map(|o| Location { uri: snapshot.uri.clone(), range: t3d::range(snapshot, o.span) })
            .collect(),
    ))
}
