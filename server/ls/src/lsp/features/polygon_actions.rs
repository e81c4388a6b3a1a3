//! The polygon refactorings of `textDocument/codeAction` (recompute normal, reverse
//! winding, snap to grid, set or clear a poly flag), next to the diagnostic fixes that
//! `code_action.rs` hands out.

use std::collections::HashMap;

use tower_lsp_server::ls_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, CodeActionParams, WorkspaceEdit,
};
use unreal_analysis::ide::t3d::code_actions::ActionKind;

use super::document::{self, DocumentAnalysis};
use crate::lsp::documents::DocumentSnapshot;

pub fn kind(kind: ActionKind) -> CodeActionKind {
    match kind {
        ActionKind::Quickfix => CodeActionKind::QUICKFIX,
        ActionKind::Refactor => CodeActionKind::REFACTOR,
        ActionKind::Source => CodeActionKind::SOURCE,
    }
}

/// The actions for the polygons in the requested range, filtered by the client's `only`.
pub fn actions(
    snapshot: &DocumentSnapshot,
    params: &CodeActionParams,
    wanted: impl Fn(&CodeActionKind) -> bool,
) -> Vec<CodeActionOrCommand> {
    let span = snapshot.span(params.range);
    let document = DocumentAnalysis::of(snapshot);
    let Some(analysis) = document.analysis() else { return Vec::new() };
    let found = analysis.code_actions(span);
    found
        .into_iter()
        .filter(|a| wanted(&kind(a.kind)))
        .map(|a| {
            CodeActionOrCommand::CodeAction(CodeAction {
                title: a.title,
                kind: Some(kind(a.kind)),
                edit: Some(WorkspaceEdit {
                    changes: Some(HashMap::from([(
                        snapshot.uri.clone(),
                        document::edits(snapshot, &a.edits),
                    )])),
                    ..WorkspaceEdit::default()
                }),
                ..CodeAction::default()
            })
        })
        .collect()
}
