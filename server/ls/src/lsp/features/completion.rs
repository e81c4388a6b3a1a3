//! `textDocument/completion`: block kinds, poly flags, textures, classes, polygon lines and
//! the properties other actors of a class use.

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::{
    CompletionItem, CompletionItemKind, CompletionOptions, CompletionParams, CompletionResponse,
    CompletionTextEdit, Documentation, ServerCapabilities, TextEdit,
};
use unreal_analysis::ide::t3d::completion::CompletionKind;

use super::document::{self, DocumentAnalysis};
use crate::lsp::documents::{DocumentSnapshot, Session};

pub fn register(caps: &mut ServerCapabilities, _session: &Session) {
    caps.completion_provider = Some(CompletionOptions {
        trigger_characters: Some(vec![" ".to_owned(), "=".to_owned()]),
        ..CompletionOptions::default()
    });
}

pub fn handle(
    snapshot: &DocumentSnapshot,
    params: &CompletionParams,
) -> Result<Option<CompletionResponse>> {
    let offset = document::offset(snapshot, params.text_document_position.position);
    let document = DocumentAnalysis::of(snapshot);
    let Some(analysis) = document.analysis() else { return Ok(None) };
    let items = analysis.completions(offset);
    let items: Vec<CompletionItem> = items
        .into_iter()
        .enumerate()
        .map(|(i, item)| CompletionItem {
            label: item.label,
            kind: Some(kind(item.kind)),
            detail: item.detail,
            documentation: item.documentation.map(Documentation::String),
            filter_text: item.filter_text,
            // Analysis orders the items; keep that order in the client.
            sort_text: Some(format!("{i:05}")),
            preselect: item.preselect.then_some(true),
            text_edit: Some(CompletionTextEdit::Edit(TextEdit {
                range: document::range(snapshot, item.edit.span),
                new_text: item.edit.new_text,
            })),
            ..CompletionItem::default()
        })
        .collect();
    Ok(Some(CompletionResponse::Array(items)))
}

fn kind(kind: CompletionKind) -> CompletionItemKind {
    match kind {
        CompletionKind::Keyword | CompletionKind::LineKeyword | CompletionKind::Directive => {
            CompletionItemKind::KEYWORD
        }
        CompletionKind::BlockKind => CompletionItemKind::STRUCT,
        CompletionKind::Flag | CompletionKind::FlagCombination => CompletionItemKind::ENUM_MEMBER,
        CompletionKind::Property => CompletionItemKind::PROPERTY,
        CompletionKind::Texture | CompletionKind::File => CompletionItemKind::FILE,
        CompletionKind::Class => CompletionItemKind::CLASS,
        CompletionKind::Command => CompletionItemKind::FUNCTION,
        CompletionKind::Key => CompletionItemKind::FIELD,
        CompletionKind::Value => CompletionItemKind::VALUE,
        CompletionKind::Name => CompletionItemKind::REFERENCE,
    }
}
