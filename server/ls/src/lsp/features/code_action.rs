//! `textDocument/codeAction`: each fix that analysis attached to a published diagnostic,
//! offered as a quick fix. The fixes were converted when the diagnostics were published, so
//! they are handed out only while the document is still at that version (an edit in between
//! would make their ranges wrong; a fresh publish follows every edit).

use std::collections::HashMap;

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::{
    CodeAction, CodeActionKind, CodeActionOptions, CodeActionOrCommand, CodeActionParams,
    CodeActionProviderCapability, CodeActionResponse, DocumentChanges, OneOf,
    OptionalVersionedTextDocumentIdentifier, Range, ServerCapabilities, TextDocumentEdit,
    WorkspaceEdit,
};

use crate::lsp::documents::{DocumentSnapshot, PublishedFix, Session};

pub fn register(caps: &mut ServerCapabilities, _session: &Session) {
    caps.code_action_provider = Some(CodeActionProviderCapability::Options(CodeActionOptions {
        code_action_kinds: Some(vec![CodeActionKind::QUICKFIX, CodeActionKind::REFACTOR]),
        ..CodeActionOptions::default()
    }));
}

pub fn handle(
    snapshot: &DocumentSnapshot,
    params: &CodeActionParams,
) -> Result<Option<CodeActionResponse>> {
    let wanted = |kind: &CodeActionKind| {
        params.context.only.as_ref().is_none_or(|only| only.iter().any(|f| kind_includes(f, kind)))
    };
    let mut polygon_actions = super::polygon_actions::actions(snapshot, params, wanted);
    if wanted(&CodeActionKind::QUICKFIX) {
        polygon_actions.extend(super::texture_actions::actions(snapshot, params));
    }
    if !wanted(&CodeActionKind::QUICKFIX) {
        return Ok((!polygon_actions.is_empty()).then_some(polygon_actions));
    }
    let published = &snapshot.published;
    if published.version != Some(snapshot.version) {
        return Ok((!polygon_actions.is_empty()).then_some(polygon_actions));
    }
    let mut actions: Vec<CodeActionOrCommand> = published
        .items
        .iter()
        .filter(|item| ranges_touch(item.diagnostic.range, params.range))
        .filter_map(|item| {
            let fix = item.fix.as_ref()?;
            Some(CodeActionOrCommand::CodeAction(CodeAction {
                title: fix.title.clone(),
                kind: Some(CodeActionKind::QUICKFIX),
                diagnostics: Some(vec![item.diagnostic.clone()]),
                edit: Some(workspace_edit(snapshot, fix)),
                is_preferred: fix.safe.then_some(true),
                ..CodeAction::default()
            }))
        })
        .collect();
    actions.extend(polygon_actions);
    Ok(Some(actions))
}

fn workspace_edit(snapshot: &DocumentSnapshot, fix: &PublishedFix) -> WorkspaceEdit {
    if snapshot.session.versioned_edits {
        // The client refuses the edit if the document moved on meanwhile.
        WorkspaceEdit {
            document_changes: Some(DocumentChanges::Edits(vec![TextDocumentEdit {
                text_document: OptionalVersionedTextDocumentIdentifier {
                    uri: snapshot.uri.clone(),
                    version: Some(snapshot.version),
                },
                edits: fix.edits.iter().cloned().map(OneOf::Left).collect(),
            }])),
            ..WorkspaceEdit::default()
        }
    } else {
        WorkspaceEdit {
            changes: Some(HashMap::from([(snapshot.uri.clone(), fix.edits.clone())])),
            ..WorkspaceEdit::default()
        }
    }
}

/// `only: ["quickfix"]` and `only: [""]` include quick fixes; `only: ["source"]` does not.
fn kind_includes(filter: &CodeActionKind, kind: &CodeActionKind) -> bool {
    let (filter, kind) = (filter.as_str(), kind.as_str());
    filter.is_empty() || kind == filter || kind.starts_with(&format!("{filter}."))
}

/// Closed intervals: a cursor sitting at either end of a diagnostic still gets its fixes.
fn ranges_touch(a: Range, b: Range) -> bool {
    a.start <= b.end && b.start <= a.end
}
