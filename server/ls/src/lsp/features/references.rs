//! `textDocument/references`: every `Name=` and `Class'MyLevel.Name'` of an actor or model.

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::{Location, OneOf, ReferenceParams, ServerCapabilities};

use super::document::{self, DocumentAnalysis};
use super::other_files::OtherFiles;
use crate::lsp::documents::{DocumentSnapshot, Session};

pub fn register(caps: &mut ServerCapabilities, _session: &Session) {
    caps.references_provider = Some(OneOf::Left(true));
}

pub fn handle(
    snapshot: &DocumentSnapshot,
    params: &ReferenceParams,
) -> Result<Option<Vec<Location>>> {
    let offset = document::offset(snapshot, params.text_document_position.position);
    let document = DocumentAnalysis::of(snapshot);
    let Some(analysis) = document.analysis() else { return Ok(None) };
    let found = analysis.references(offset, params.context.include_declaration);
    let mut files = OtherFiles::default();
    Ok(Some(found.iter().filter_map(|o| files.location(snapshot, &o.location)).collect()))
}
