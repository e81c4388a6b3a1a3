//! `textDocument/references`: every `Name=` and `Class'MyLevel.Name'` of an actor or model.

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::{Location, OneOf, ReferenceParams, ServerCapabilities};

use super::exec::UcDocument;
use super::other_files::OtherFiles;
use super::t3d::{self, Parsed};
use crate::lsp::documents::{DocumentSnapshot, Session};

pub fn register(caps: &mut ServerCapabilities, _session: &Session) {
    caps.references_provider = Some(OneOf::Left(true));
}

pub fn handle(
    snapshot: &DocumentSnapshot,
    params: &ReferenceParams,
) -> Result<Option<Vec<Location>>> {
    let offset = t3d::offset(snapshot, params.text_document_position.position);
    if let Some(uc) = UcDocument::of(snapshot) {
        let found = unreal_analysis::ide::exec::navigation::find_references(
            &uc.source(),
            offset,
            params.context.include_declaration,
        );
        let mut files = OtherFiles::default();
        return Ok(Some(
            found.iter().filter_map(|o| files.location(snapshot, &o.location)).collect(),
        ));
    }
    let Some(parsed) = Parsed::whole(snapshot) else { return Ok(None) };
    let found = unreal_analysis::ide::t3d::navigation::find_references(
        &parsed.source(),
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
