//! The texture actions of `textDocument/codeAction` on a T3D map (what `unreal-ls
//! fix-textures` does, in the editor): on a polygon whose bare `Texture=` name exactly one
//! package of the game folder holds, write it out as that package's `Package.Group.Name`,
//! on this polygon, on every polygon that names it, or for every such name of the map; on a
//! polygon whose texture no package holds, replace it everywhere with one the user picks
//! (for a client that announces `experimental.unrealLs.pickTexture`: the action runs its
//! `unrealLs.pickTexture` command, which asks and then sends `workspace/executeCommand`
//! `unrealLs.replaceTexture` [uri, old, new] for the edit). The map's `Texture=` values are
//! read from its `Begin Polygon` lines, without a tree (`unreal_analysis::t3d::textures`),
//! and only when a package index is there.

use std::collections::HashMap;
use std::str::FromStr;
use std::sync::atomic::Ordering;

use serde_json::Value;
use tower_lsp_server::jsonrpc::{Error, ErrorCode, Result};
use tower_lsp_server::ls_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, CodeActionParams, Command, Uri, WorkspaceEdit,
};
use unreal_analysis::t3d::textures::texture_fixes;
use unreal_analysis::TextEdit;
use unreal_syntax::Span;

use super::document;
use crate::lsp::documents::DocumentSnapshot;

/// The server's command that replaces a texture everywhere in an open map: `[uri, old, new]`
/// in, the `WorkspaceEdit` out (for the client to apply).
pub const REPLACE_COMMAND: &str = "unrealLs.replaceTexture";

/// The client's command that asks the user for a texture, then sends [`REPLACE_COMMAND`]:
/// `[uri, old]`.
pub const PICK_COMMAND: &str = "unrealLs.pickTexture";

fn invalid(message: String) -> Error {
    Error { code: ErrorCode::InvalidParams, message: message.into(), data: None }
}

/// The arguments of [`REPLACE_COMMAND`].
pub fn arguments(arguments: &[Value]) -> Result<(Uri, String, String)> {
    let text = |i: usize| arguments.get(i).and_then(Value::as_str);
    let (Some(uri), Some(old), Some(new)) = (text(0), text(1), text(2)) else {
        return Err(invalid(format!("{REPLACE_COMMAND} takes [uri, old texture, new texture]")));
    };
    let uri = Uri::from_str(uri).map_err(|e| invalid(format!("`{uri}` is not a URI: {e}")))?;
    Ok((uri, old.to_owned(), new.to_owned()))
}

/// The edit that writes `new` in place of the texture `old` on every polygon of the open map
/// (`new` must be a texture of the game folder's packages).
pub fn replace(snapshot: &DocumentSnapshot, old: &str, new: &str) -> Result<Value> {
    let path = crate::lsp::file_uri::file_path(snapshot.uri);
    let Some(index) = snapshot.session.packages_of(path.as_deref()) else {
        return Err(invalid(
            "no game folder's packages are indexed to find the texture in".to_owned(),
        ));
    };
    let index = index.as_ref();
    let text = snapshot.text();
    let fixes = texture_fixes(text, index, &[(old.to_owned(), new.to_owned())])
        .map_err(|e| invalid(e.to_string()))?;
    // The replacement only: the other names' qualifications are actions of their own.
    let replaced: Vec<&str> = fixes.replaced.iter().map(|c| c.from.as_str()).collect();
    let edits: Vec<TextEdit> = fixes
        .edits
        .into_iter()
        .filter(|e| replaced.iter().any(|from| e.span.text(text).eq_ignore_ascii_case(from)))
        .collect();
    let edit = WorkspaceEdit {
        changes: Some(HashMap::from([(snapshot.uri.clone(), document::edits(snapshot, &edits))])),
        ..WorkspaceEdit::default()
    };
    serde_json::to_value(edit).map_err(|e| invalid(e.to_string()))
}

/// The actions for the polygons on the lines of the requested range.
pub fn actions(snapshot: &DocumentSnapshot, params: &CodeActionParams) -> Vec<CodeActionOrCommand> {
    if snapshot.t3d().is_none() {
        return Vec::new();
    }
    let path = crate::lsp::file_uri::file_path(snapshot.uri);
    let Some(index) = snapshot.session.packages_of(path.as_deref()) else { return Vec::new() };
    let index = index.as_ref();
    let text = snapshot.text();
    // The lines the range touches: only when one of their polygons has a name to write out
    // is the whole map read (the editor asks at every move of the cursor).
    let range = snapshot.span(params.range);
    let first = unreal_syntax::text::line_start(text, range.start as usize);
    let last = unreal_syntax::text::line_end_with_break(text, range.end as usize);
    let lines = Span::new(first as u32, last as u32);
    let Ok(local) = texture_fixes(lines.text(text), index, &[]) else { return Vec::new() };
    let mut out = Vec::new();
    // A texture no package holds: replaced everywhere by one the user picks.
    if snapshot.session.workspace.picks_textures.load(Ordering::SeqCst) {
        for missing in local.undecided.iter().filter(|u| u.candidates.is_empty()).take(1) {
            let title = format!(
                "Replace `{}` everywhere with a texture of the game folder...",
                missing.name
            );
            out.push(CodeActionOrCommand::CodeAction(CodeAction {
                title: title.clone(),
                kind: Some(CodeActionKind::QUICKFIX),
                command: Some(Command {
                    title,
                    command: PICK_COMMAND.to_owned(),
                    arguments: Some(vec![
                        Value::String(snapshot.uri.as_str().to_owned()),
                        Value::String(missing.name.clone()),
                    ]),
                }),
                ..CodeAction::default()
            }));
        }
    }
    if local.edits.is_empty() {
        return out;
    }
    let Ok(fixes) = texture_fixes(text, index, &[]) else { return out };
    let here: Vec<&TextEdit> = fixes
        .edits
        .iter()
        .filter(|e| e.span.start >= lines.start && e.span.end <= lines.end.max(lines.start + 1))
        .collect();
    let Some(at_cursor) = here.first() else { return out };
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
