//! `textDocument/definition`: from `Class'MyLevel.Name'` to the `Begin` line naming it, and
//! from a texture, class or object of a package to the package file (which the editor
//! opens in its package view).

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::{
    GotoDefinitionParams, GotoDefinitionResponse, Location, OneOf, Range, ServerCapabilities, Uri,
};

use unreal_analysis::ide::t3d::navigation;

use super::exec::UcDocument;
use super::other_files::OtherFiles;
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
    // A package object first: it needs only the line under the cursor.
    if let Some(parsed) = Parsed::at(snapshot, offset) {
        let packages = snapshot.session.package_provider();
        let target = navigation::package_definition(&parsed.source(), offset, &*packages);
        if let Some(uri) = target.and_then(|t| Uri::from_file_path(t.file)) {
            let range = Range::default();
            return Ok(Some(GotoDefinitionResponse::Scalar(Location { uri, range })));
        }
    }
    let Some(parsed) = Parsed::whole(snapshot) else { return Ok(None) };
    let target = navigation::goto_definition(&parsed.source(), offset);
    Ok(target.map(|t| {
        GotoDefinitionResponse::Scalar(Location {
            uri: snapshot.uri.clone(),
            range: t3d::range(snapshot, t.focus),
        })
    }))
}
