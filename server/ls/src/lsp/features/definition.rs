//! `textDocument/definition`: from `Class'MyLevel.Name'` to the `Begin` line naming it.

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::{
    GotoDefinitionParams, GotoDefinitionResponse, Location, OneOf, ServerCapabilities,
};

use super::exec::{OtherFiles, UcDocument};
use super::t3d::{self, Parsed};
use crate::lsp::documents::{DocumentSnapshot, Session};

pub fn register(caps: &mut ServerCapabilities, _session: &Session) {
    caps.definition_provider = Some(OneOf::Left(true));
}

pub fn handle(
    snapshot: &DocumentSnapshot,
    params: &GotoDefinitionParams,
) -> Result<Option<GotoDefinitionResponse>> {
    let offset = t3d::offset(snapshot, params.text_document_position_params.position);
    if let Some(uc) = UcDocument::of(snapshot) {
        let targets = unreal_analysis::ide::exec::navigation::goto_definition(&uc.source(), offset);
        let mut files = OtherFiles::default();
        let locations: Vec<Location> =
            targets.iter().filter_map(|t| files.location(snapshot, t)).collect();
        return Ok((!locations.is_empty()).then_some(GotoDefinitionResponse::Array(locations)));
    }
    let Some(parsed) = Parsed::whole(snapshot) else { return Ok(None) };
    let target = unreal_analysis::ide::navigation::goto_definition(&parsed.source(), offset);
    Ok(target.map(|t| {
        GotoDefinitionResponse::Scalar(Location {
            uri: snapshot.uri.clone(),
            range: t3d::range(snapshot, t.focus),
        })
    }))
}
