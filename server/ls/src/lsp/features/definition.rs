//! `textDocument/definition`: from `Class'MyLevel.Name'` to the `Begin` line naming it.

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::{
    GotoDefinitionParams, GotoDefinitionResponse, Location, OneOf, ServerCapabilities,
};

use super::t3d::{self, Parsed};
use crate::lsp::documents::{DocumentSnapshot, Session};

pub fn register(caps: &mut ServerCapabilities, _session: &Session) {
    caps.definition_provider = Some(OneOf::Left(true));
}

pub fn handle(
    snapshot: &DocumentSnapshot,
    params: &GotoDefinitionParams,
) -> Result<Option<GotoDefinitionResponse>> {
    let Some(parsed) = Parsed::of(snapshot) else { return Ok(None) };
    let offset = t3d::offset(snapshot, params.text_document_position_params.position);
    let target =
        unreal_analysis::ide::navigation::goto_definition(&parsed.source(snapshot), offset);
    Ok(target.map(|t| {
        GotoDefinitionResponse::Scalar(Location {
            uri: snapshot.uri.clone(),
            range: t3d::range(snapshot, t.focus),
        })
    }))
}
