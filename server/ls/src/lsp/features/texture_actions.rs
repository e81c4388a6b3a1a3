//! The texture actions of `textDocument/codeAction` on a T3D map (what `unreal-ls
//! fix-textures` does, in the editor): on a polygon whose bare `Texture=` name exactly one
//! package of the game folder holds, write it out as that package's `Package.Group.Name`,
//! on this polygon, on every polygon that names it, or for every such name of the map. The
//! map's `Texture=` values are read from its `Begin Polygon` lines, without a tree
//! (`unreal_analysis::t3d::textures`), and only when a package index is there.

use std::collections::HashMap;

use tower_lsp_server::ls_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, CodeActionParams, WorkspaceEdit,
};
use unreal_analysis::t3d::textures::texture_fixes;
use unreal_analysis::TextEdit;
use unreal_syntax::Span;

use super::document;
use crate::lsp::documents::DocumentSnapshot;

/// The actions for the polygons on the lines of the requested range.
pub fn actions(snapshot: &DocumentSnapshot, params: &CodeActionParams) -> Vec<CodeActionOrCommand> {
    if snapshot.t3d().is_none() {
        return Vec::new();
    }
    let path = crate::lsp::file_uri::file_path(snapshot.uri);
    let mut options = snapshot.session.lint_options(path.as_deref());
    snapshot.session.packages_for_checks(&mut options);
    let Some(index) = options.packages.as_deref().filter(|i| i.knows_packages()) else {
        return Vec::new();
    };
    let text = snapshot.text();
    // The lines the range touches: only when one of their polygons has a name to write out
    // is the whole map read (the editor asks at every move of the cursor).
    let range = snapshot.span(params.range);
    let first = unreal_syntax::text::line_start(text, range.start as usize);
    let last = unreal_syntax::text::line_end_with_break(text, range.end as usize);
    let lines = Span::new(first as u32, last as u32);
    let nothing_here =
        texture_fixes(lines.text(text), index, &[]).map_or(true, |f| f.edits.is_empty());
    if nothing_here {
        return Vec::new();
    }
    let Ok(fixes) = texture_fixes(text, index, &[]) else { return Vec::new() };
    let here: Vec<&TextEdit> = fixes
        .edits
        .iter()
        .filter(|e| e.span.start >= lines.start && e.span.end <= lines.end.max(lines.start + 1))
        .collect();
    let Some(at_cursor) = here.first() else { return Vec::new() };
    let mut out = Vec::new();
    let action = |title: String, edits: Vec<TextEdit>| {
        CodeActionOrCommand::CodeAction(CodeAction {
            title,
            kind: Some(CodeActionKind::QUICKFIX),
            edit: Some(WorkspaceEdit {
                changes: Some(HashMap::from([(
                    snapshot.uri.clone(),
                    document::edits(snapshot, &edits),
                )])),
                ..WorkspaceEdit::default()
            }),
            ..CodeAction::default()
        })
    };
    let written = at_cursor.span.text(text);
    let to = &at_cursor.new_text;
    out.push(action(
        format!("Write `{to}` (the one package that holds `{written}`)"),
        here.iter().filter(|e| e.new_text == *to).map(|&e| e.clone()).collect(),
    ));
    let same: Vec<TextEdit> = fixes.edits.iter().filter(|e| e.new_text == *to).cloned().collect();
    if same.len() > here.iter().filter(|e| e.new_text == *to).count() {
        out.push(action(format!("Write `{to}` on all {} polygons", same.len()), same));
    }
    if fixes.qualified.len() > 1 {
        out.push(action(
            format!(
                "Write the package of every bare texture name one package holds ({} names, {} polygons)",
                fixes.qualified.len(),
                fixes.edits.len()
            ),
            fixes.edits.clone(),
        ));
    }
    out
}
