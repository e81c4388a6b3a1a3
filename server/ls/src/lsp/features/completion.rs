//! `textDocument/completion`: block kinds, poly flags, textures, classes, polygon lines and
//! the properties other actors of a class use; in a class, `#exec` words and whole blocks from
//! the package index's vertex meshes (`exec_blocks`), whose other lines
//! `completionItem/resolve` adds.

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::{
    CompletionItem, CompletionItemKind, CompletionList, CompletionOptions, CompletionParams,
    CompletionResponse, CompletionTextEdit, Documentation, ServerCapabilities, TextEdit,
};
use unreal_analysis::ide::t3d::completion::CompletionKind;

use super::document::{self, DocumentAnalysis};
use super::exec_blocks;
use crate::lsp::documents::{DocumentSnapshot, Session};
use unreal_analysis::lint::FileKind;

pub fn register(caps: &mut ServerCapabilities, _session: &Session) {
    caps.completion_provider = Some(CompletionOptions {
        trigger_characters: Some(vec![" ".to_owned(), "=".to_owned()]),
        // A mesh block's lines after its first are read when the item is resolved.
        resolve_provider: Some(true),
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
    let mut items: Vec<CompletionItem> = items
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
    // On a class's `#exec` line, whole blocks from the package index's vertex meshes, after
    // the core's items (`exec_blocks`: the server adds them, as the core does not read meshes).
    if snapshot.kind() == Some(FileKind::UnrealScript) {
        let index = snapshot.session.workspace.package_objects();
        let at = offset as usize;
        if let Some((blocks, more)) =
            exec_blocks::items(snapshot, at, index.as_deref(), items.len())
        {
            items.extend(blocks);
            if more {
                return Ok(Some(CompletionResponse::List(CompletionList {
                    is_incomplete: true,
                    items,
                })));
            }
        }
    }
    Ok(Some(CompletionResponse::Array(items)))
}

/// `completionItem/resolve`: a mesh block's other lines ([`exec_blocks::resolve`]); any
/// other item as it came.
pub fn resolve(item: CompletionItem) -> CompletionItem {
    exec_blocks::resolve(item)
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
