//! `textDocument/prepareRename` and `textDocument/rename`: an actor or brush model's name,
//! on its `Begin` line, in its `Name="..."` property and in every reference.

use std::collections::HashMap;

use tower_lsp_server::jsonrpc::{Error, Result};
use tower_lsp_server::ls_types::{
    OneOf, PrepareRenameResponse, RenameOptions, RenameParams, ServerCapabilities,
    TextDocumentPositionParams, TextEdit, Uri, WorkDoneProgressOptions, WorkspaceEdit,
};
use unreal_analysis::ide::t3d::navigation;

use super::exec::UcDocument;
use super::other_files::OtherFiles;
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
    let offset = t3d::offset(snapshot, params.position);
    if let Some(uc) = UcDocument::of(snapshot) {
        return match unreal_analysis::ide::exec::navigation::prepare_rename(&uc.source(), offset) {
            Ok(span) => Ok(Some(PrepareRenameResponse::Range(t3d::range(snapshot, span)))),
            Err(e) => Err(Error::invalid_params(e.message)),
        };
    }
    let Some(parsed) = Parsed::whole(snapshot) else { return Ok(None) };
    match navigation::prepare_rename(&parsed.source(), offset) {
        Ok(span) => Ok(Some(PrepareRenameResponse::Range(t3d::range(snapshot, span)))),
        Err(e) => Err(Error::invalid_params(e.message)),
    }
}

pub fn handle(snapshot: &DocumentSnapshot, params: &RenameParams) -> Result<Option<WorkspaceEdit>> {
    let offset = t3d::offset(snapshot, params.text_document_position.position);
    if let Some(uc) = UcDocument::of(snapshot) {
        let source = uc.source();
        return match unreal_analysis::ide::exec::navigation::rename(
            &source,
            offset,
            &params.new_name,
        ) {
            Ok(files) => Ok(Some(uc_workspace_edit(snapshot, files))),
            Err(e) => Err(Error::invalid_params(e.message)),
        };
    }
    let Some(parsed) = Parsed::whole(snapshot) else { return Ok(None) };
    match navigation::rename(&parsed.source(), offset, &params.new_name) {
        Ok(edits) => Ok(Some(WorkspaceEdit {
            changes: Some(HashMap::from([(snapshot.uri.clone(), t3d::edits(snapshot, &edits))])),
            ..WorkspaceEdit::default()
        })),
        Err(e) => Err(Error::invalid_params(e.message)),
    }
}

/// A rename across the package's classes: edits in this document and in other files.
fn uc_workspace_edit(
    snapshot: &DocumentSnapshot,
    files: Vec<unreal_analysis::ide::exec::navigation::FileEdits>,
) -> WorkspaceEdit {
    let mut changes: HashMap<Uri, Vec<TextEdit>> = HashMap::new();
    let mut others = OtherFiles::default();
    for file in files {
        let (uri, edits) = match &file.file {
            None => (snapshot.uri.clone(), t3d::edits(snapshot, &file.edits)),
            Some(path) => {
                let Some(uri) = Uri::from_file_path(path) else { continue };
                let edits = file
                    .edits
                    .iter()
                    .map(|e| TextEdit {
                        range: others.range(path, e.span, snapshot.encoding()),
                        new_text: e.new_text.clone(),
                    })
                    .collect();
                (uri, edits)
            }
        };
        changes.entry(uri).or_default().extend(edits);
    }
    WorkspaceEdit { changes: Some(changes), ..WorkspaceEdit::default() }
}
