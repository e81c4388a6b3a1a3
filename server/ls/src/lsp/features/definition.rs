//! `textDocument/definition`: from `Class'MyLevel.Name'` to the `Begin` line naming it, and
//! from a texture, class or object of a package to the package file (which the editor
//! opens in its package view).

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::{
    GotoDefinitionParams, GotoDefinitionResponse, Location, OneOf, ServerCapabilities,
};

use super::document::{self, DocumentAnalysis};
use super::other_files::OtherFiles;
use crate::lsp::documents::{DocumentSnapshot, Session};

pub fn register(caps: &mut ServerCapabilities, _session: &Session) {
    caps.definition_provider = Some(OneOf::Left(true));
}

pub fn handle(
    snapshot: &DocumentSnapshot,
    params: &GotoDefinitionParams,
) -> Result<Option<GotoDefinitionResponse>> {
    let offset = document::offset(snapshot, params.text_document_position_params.position);
    let document = DocumentAnalysis::of(snapshot);
    let Some(analysis) = document.analysis() else { return Ok(None) };
    let mut files = OtherFiles::default();
    let mut locations: Vec<Location> = analysis
        .definition(offset)
        .iter()
        .filter_map(|target| files.location(snapshot, target))
        .collect();
    Ok(match locations.len() {
        0 => None,
        1 => locations.pop().map(GotoDefinitionResponse::Scalar),
        _ => Some(GotoDefinitionResponse::Array(locations)),
    })
}
