//! `textDocument/prepareRename` and `textDocument/rename`: an actor or brush model's name,
//! on its `Begin` line, in its `Name="..."` property and in every reference.

use std::collections::HashMap;

use tower_lsp_server::jsonrpc::{Error, Result};
use tower_lsp_server::ls_types::{
    OneOf, PrepareRenameResponse, RenameOptions, RenameParams, ServerCapabilities,
    TextDocumentPositionParams, TextEdit, Uri, WorkDoneProgressOptions, WorkspaceEdit,
};
use unreal_analysis::ide::FileEdits;

use super::document::{self, DocumentAnalysis};
use super::other_files::OtherFiles;
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
    let offset = document::offset(snapshot, params.position);
    let document = DocumentAnalysis::of(snapshot);
    let Some(analysis) = document.analysis() else { return Ok(None) };
    match analysis.prepare_rename(offset) {
        Ok(span) => Ok(Some(PrepareRenameResponse::Range(document::range(snapshot, span)))),
        Err(e) => Err(Error::invalid_params(e.message)),
    }
}

pub fn handle(snapshot: &DocumentSnapshot, params: &RenameParams) -> Result<Option<WorkspaceEdit>> {
    let offset = document::offset(snapshot, params.text_document_position.position);
    let document = DocumentAnalysis::of(snapshot);
    let Some(analysis) = document.analysis() else { return Ok(None) };
    match analysis.rename(offset, &params.new_name) {
        Ok(files) => Ok(Some(workspace_edit(snapshot, files))),
        Err(e) => Err(Error::invalid_params(e.message)),
    }
}

/// A rename's edits in this document and in other files (a class's package).
fn workspace_edit(snapshot: &DocumentSnapshot, files: Vec<FileEdits>) -> WorkspaceEdit {
    let mut changes: HashMap<Uri, Vec<TextEdit>> = HashMap::new();
    let mut others = OtherFiles::default();
    for file in files {
        let (uri, edits) = match &file.file {
            None => (snapshot.uri.clone(), document::edits(snapshot, &file.edits)),
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
