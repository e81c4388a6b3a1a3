//! `textDocument/prepareRename` and `textDocument/rename`: an actor or brush model's name,
//! on its `Begin` line, in its `Name="..."` property and in every reference.

use std::collections::HashMap;

use tower_lsp_server::jsonrpc::{Error, Result};
use tower_lsp_server::ls_types::{
    OneOf, PrepareRenameResponse, RenameOptions, RenameParams, ServerCapabilities,
    TextDocumentPositionParams, WorkDoneProgressOptions, WorkspaceEdit,
};
use unreal_analysis::ide::navigation;

use super::t3d::{self, Parsed};
use crate::lsp::documents::{DocumentSnapshot, Session};

pub fn register(caps: &mut ServerCapabilities, _session: &Session) {
    caps.rename_provider = Some(OneOf::Right(RenameOptions {
        prepare_provider: Some(true),
        work_done_progress_options: WorkDoneProgressOptions::default(),
    }));
}

pub fn prepare(
    snapshot: &DocumentSnapshot,
    params: &TextDocumentPositionParams,
) -> Result<Option<PrepareRenameResponse>> {
    let Some(parsed) = Parsed::of(snapshot) else { return Ok(None) };
    let offset = t3d::offset(snapshot, params.position);
    match navigation::prepare_rename(&parsed.source(snapshot), offset) {
        Ok(span) => Ok(Some(PrepareRenameResponse::Range(t3d::range(snapshot, span)))),
        Err(e) => Err(Error::invalid_params(e.message)),
    }
}

pub fn handle(snapshot: &DocumentSnapshot, params: &RenameParams) -> Result<Option<WorkspaceEdit>> {
    let Some(parsed) = Parsed::of(snapshot) else { return Ok(None) };
    let offset = t3d::offset(snapshot, params.text_document_position.position);
    match navigation::rename(&parsed.source(snapshot), offset, &params.new_name) {
        Ok(edits) => Ok(Some(WorkspaceEdit {
            changes: Some(HashMap::from([(snapshot.uri.clone(), t3d::edits(snapshot, &edits))])),
            ..WorkspaceEdit::default()
        })),
        Err(e) => Err(Error::invalid_params(e.message)),
    }
}
