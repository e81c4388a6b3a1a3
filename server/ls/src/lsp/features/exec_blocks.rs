//! Completion of a whole `#exec` block from a package's vertex mesh: on an `#exec` line
//! where the command word is being typed, one item per UE1 `Mesh` or `LodMesh` of the package
//! index (the game folder's and the package paths' packages), labelled `MESH IMPORT dogTag`,
//! that writes the block `unreal-ls exec-lines` prints for it (issue 46, item 2).
//!
//! Why here and not in `unreal_analysis::ide`: the block is read from the mesh by
//! `unreal_assets::exec_lines`, which the IDE core may not use (docs/architecture.md), so the
//! server adds these items around the core's `#exec` completion. And why in two steps: the
//! list names the meshes from the index alone (no package is opened), and its edit writes the
//! block's first line, `MESH IMPORT`, which the mesh's name and class decide; the rest of the
//! block needs the mesh read, which `completionItem/resolve` does for the one item the user
//! looks at or picks, as `additionalTextEdits` inserted below the line (the property clients
//! resolve lazily: LSP 3.17 lets a client resolve only `documentation`, `detail` and
//! `additionalTextEdits`, which is what VS Code announces). One completion never reads more
//! than the index, and at most [`MAX_ITEMS`] items are listed (`isIncomplete` when more
//! match, so that typing the name narrows them).

use std::path::Path;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use tower_lsp_server::ls_types::{
    CompletionItem, CompletionItemKind, CompletionTextEdit, Documentation, MarkupContent,
    MarkupKind, Position, Range, TextEdit, Uri,
};
use unreal_analysis::index::PackageIndex;
use unreal_assets::exec_lines;
use unreal_assets::package::PackageFile;
use unreal_formats::mapped::MappedFile;
use unreal_syntax::Span;

use crate::lsp::documents::DocumentSnapshot;

/// At most this many meshes are offered at once.
pub const MAX_ITEMS: usize = 50;

/// The key of an item's `data` that marks it as a mesh block.
const DATA_KEY: &str = "unrealLsExecBlock";

/// What an item carries to `completionItem/resolve`: the mesh, and where and how the rest of
/// its block goes.
#[derive(Debug, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
struct BlockData {
    /// The package file.
    package: Uri,
    /// The mesh's export index.
    export: u32,
    /// Where the block's other lines are inserted: the start of the next line, or the end of
    /// the document's last line.
    at: Position,
    /// Written before each line (the line ending first when inserted at the end of the
    /// document).
    before: String,
    /// Written after each line.
    after: String,
}

/// Where the typed command is, and the mesh names it lets through.
#[derive(Debug, PartialEq, Eq)]
pub struct Context {
    /// What the item's edit replaces: from the command word to the end of the word at the
    /// cursor.
    pub replace: Span,
    /// Part of the mesh's name, lower case (empty: any).
    pub filter: String,
}

fn is_blank(c: char) -> bool {
    c == ' ' || c == '\t'
}

/// The context at `offset` when the line is `#exec ` followed by what may become
/// `MESH IMPORT <name>` (or a fragment of a mesh name) and nothing after the cursor's word.
pub fn context(text: &str, offset: usize) -> Option<Context> {
    let prefix = text.get(..offset)?;
    let start = prefix.rfind(['\n', '\r']).map_or(0, |i| i + 1);
    let line = &prefix[start..];
    let rest = text.get(offset..)?;
    let rest = &rest[..rest.find(['\r', '\n']).unwrap_or(rest.len())];
    let tail = rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(rest.len());
    if !rest[tail..].chars().all(is_blank) {
        return None;
    }
    let directive = line.trim_start_matches(is_blank).strip_prefix('#')?;
    let word = directive.get(..4).filter(|w| w.eq_ignore_ascii_case("exec"))?;
    let body = &directive[word.len()..];
    if !body.starts_with(is_blank) {
        return None;
    }
    let typed = body.trim_start_matches(is_blank);
    let typed_at = offset - typed.len();
    let tokens: Vec<&str> = typed.split(is_blank).filter(|t| !t.is_empty()).collect();
    let open = !typed.is_empty() && !typed.ends_with(is_blank);
    let starts = |word: &str, part: &str| {
        word.len() >= part.len() && word[..part.len()].eq_ignore_ascii_case(part)
    };
    let is_name = |t: &str| t.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    let filter = match (tokens.as_slice(), open) {
        ([], _) => String::new(),
        ([word], true) if starts("MESH", word) => String::new(),
        ([word], true) if is_name(word) => word.to_ascii_lowercase(),
        ([mesh], false) if mesh.eq_ignore_ascii_case("MESH") => String::new(),
        ([mesh, import], true) if mesh.eq_ignore_ascii_case("MESH") && starts("IMPORT", import) => {
            String::new()
        }
        ([mesh, import], false)
            if mesh.eq_ignore_ascii_case("MESH") && import.eq_ignore_ascii_case("IMPORT") =>
        {
            String::new()
        }
        ([mesh, import, name], true)
            if mesh.eq_ignore_ascii_case("MESH")
                && import.eq_ignore_ascii_case("IMPORT")
                && is_name(name) =>
        {
            name.to_ascii_lowercase()
        }
        _ => return None,
    };
    let end = u32::try_from(offset + tail).ok()?;
    Some(Context { replace: Span::new(u32::try_from(typed_at).ok()?, end), filter })
}

/// One vertex mesh of the index.
struct Mesh<'i> {
    name: &'i str,
    lod: bool,
    package: &'i str,
    file: &'i Path,
    export: u32,
}

/// The vertex meshes whose name holds `filter`, those starting with it first, then by name;
/// at most `limit`, and whether more matched. Packages that another of the same name hides
/// are left out, as the index leaves them out of every lookup.
fn meshes<'i>(index: &'i PackageIndex, filter: &str, limit: usize) -> (Vec<Mesh<'i>>, bool) {
    let mut found: Vec<(bool, String, Mesh<'i>)> = Vec::new();
    for name in index.package_names() {
        let Some(package) = index.package(name) else { continue };
        for object in &package.objects {
            if !exec_lines::is_vertex_mesh_class(&object.class) {
                continue;
            }
            let lower = object.name.to_ascii_lowercase();
            if !lower.contains(filter) {
                continue;
            }
            found.push((
                !lower.starts_with(filter),
                lower,
                Mesh {
                    name: &object.name,
                    lod: object.class.eq_ignore_ascii_case("LodMesh"),
                    package: &package.name,
                    file: &package.path,
                    export: object.export,
                },
            ));
        }
    }
    found.sort_by(|a, b| (a.0, &a.1).cmp(&(b.0, &b.1)));
    let more = found.len() > limit;
    (found.into_iter().take(limit).map(|(_, _, mesh)| mesh).collect(), more)
}

/// The document's line ending: the cursor line's own, else the first one, else `\n`.
fn line_ending(text: &str, line_end: usize) -> &'static str {
    let ending_at = |at: usize| match text.as_bytes().get(at..) {
        Some([b'\r', b'\n', ..]) => Some("\r\n"),
        Some([b'\n', ..]) => Some("\n"),
        Some([b'\r', ..]) => Some("\r"),
        _ => None,
    };
    ending_at(line_end).or_else(|| text.find(['\r', '\n']).and_then(ending_at)).unwrap_or("\n")
}

/// The mesh-block items at `offset` of a class, numbered for sorting after the core's
/// `first` items; `None` where no block fits. The `bool`: more meshes matched than listed.
pub fn items(
    snapshot: &DocumentSnapshot<'_>,
    offset: usize,
    index: Option<&PackageIndex>,
    first: usize,
) -> Option<(Vec<CompletionItem>, bool)> {
    let text = snapshot.text();
    let context = context(text, offset)?;
    let index = index?;
    let line_start = text[..offset].rfind(['\n', '\r']).map_or(0, |i| i + 1);
    let indent_len = text[line_start..].find(|c: char| !is_blank(c)).unwrap_or(0);
    let indent = &text[line_start..line_start + indent_len];
    let line_end = text[offset..].find(['\r', '\n']).map_or(text.len(), |i| offset + i);
    let eol = line_ending(text, line_end);
    // Below the line when it ends with a line break; else (the document's last line) at its
    // end, each line after a break.
    let (at, before, after) = if line_end < text.len() {
        (snapshot.position(line_end + eol.len()), indent.to_owned(), eol.to_owned())
    } else {
        (snapshot.position(line_end), format!("{eol}{indent}"), String::new())
    };
    let range = snapshot.range(context.replace);
    let (found, more) = meshes(index, &context.filter, MAX_ITEMS);
    let items = found
        .into_iter()
        .enumerate()
        .filter_map(|(i, mesh)| {
            let package = Uri::from_file_path(mesh.file)?;
            let line = exec_lines::import_line(mesh.name, mesh.lod);
            let new_text = line.strip_prefix("#exec ").unwrap_or(&line).to_owned();
            let data = BlockData {
                package,
                export: mesh.export,
                at,
                before: before.clone(),
                after: after.clone(),
            };
            let label = format!("MESH IMPORT {}", mesh.name);
            Some(CompletionItem {
                filter_text: Some(label.clone()),
                label,
                kind: Some(CompletionItemKind::SNIPPET),
                detail: Some(mesh.package.to_owned()),
                sort_text: Some(format!("{:05}", first + i)),
                text_edit: Some(CompletionTextEdit::Edit(TextEdit { range, new_text })),
                data: Some(serde_json::json!({ DATA_KEY: data })),
                ..CompletionItem::default()
            })
        })
        .collect();
    Some((items, more))
}

/// `completionItem/resolve`: a mesh-block item gets the rest of its block as
/// `additionalTextEdits` and the whole block as its documentation (the mesh is read now);
/// any other item comes back as it was. A mesh that cannot be read says why in the item's
/// documentation, with no edit: the line already inserted names the files, which the user
/// can still export.
pub fn resolve(mut item: CompletionItem) -> CompletionItem {
    let Some(data) = item
        .data
        .as_ref()
        .and_then(|d| d.get(DATA_KEY))
        .and_then(|d| BlockData::deserialize(d).ok())
    else {
        return item;
    };
    match block(&data) {
        Ok(lines) => {
            let mut rest = String::new();
            for line in lines.iter().skip(1) {
                rest.push_str(&data.before);
                rest.push_str(line);
                rest.push_str(&data.after);
            }
            if !rest.is_empty() {
                item.additional_text_edits =
                    Some(vec![TextEdit { range: Range::new(data.at, data.at), new_text: rest }]);
            }
            item.documentation = Some(markdown(format!("```\n{}\n```", lines.join("\n"))));
        }
        Err(message) => item.documentation = Some(markdown(message)),
    }
    item
}

fn markdown(value: String) -> Documentation {
    Documentation::MarkupContent(MarkupContent { kind: MarkupKind::Markdown, value })
}

/// The block's lines, read from the package now; the error names the file and the mesh.
fn block(data: &BlockData) -> Result<Vec<String>, String> {
    let path = crate::lsp::file_uri::file_path(&data.package)
        .ok_or_else(|| format!("{}: not a file: URI", data.package.as_str()))?;
    let bytes =
        MappedFile::open(&path).map_err(|e| format!("{}: cannot be read: {e}", path.display()))?;
    let lines = (|| {
        let file = PackageFile::open(&path, &bytes).map_err(|e| e.to_string())?;
        let package = file.parse().map_err(|e| e.to_string())?;
        let export = data.export as usize;
        if export >= package.exports.len() {
            return Err(format!("no export {export}: the package changed since it was indexed"));
        }
        if let Some(message) = exec_lines::not_a_vertex_mesh(&package, export) {
            return Err(message);
        }
        exec_lines::mesh_block(&package, export).map(|b| b.lines).map_err(|e| e.to_string())
    })();
    bytes.check().map_err(|e| format!("{}: {e}", path.display()))?;
    lines.map_err(|e| format!("{}: {e}", path.display()))
}

/// Whether a completion item is one of these (its `data`).
pub fn is_block_item(data: Option<&Value>) -> bool {
    data.is_some_and(|d| d.get(DATA_KEY).is_some())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(text: &str) -> Option<(String, String)> {
        let offset = text.find('|').unwrap();
        let text = text.replace('|', "");
        context(&text, offset)
            .map(|c| (text[c.replace.start as usize..c.replace.end as usize].to_owned(), c.filter))
    }

    #[allow(clippy::unnecessary_wraps)] // compared with `at`'s answer
    fn some(replaced: &str, filter: &str) -> Option<(String, String)> {
        Some((replaced.to_owned(), filter.to_owned()))
    }

    #[test]
    fn the_command_word_of_an_exec_line_takes_a_block() {
        assert_eq!(at("#exec |"), some("", ""));
        assert_eq!(at("  #EXEC me|\r\n"), some("me", ""));
        assert_eq!(at("#exec ME|SH\n"), some("MESH", ""));
        assert_eq!(at("\t#exec MESH |"), some("MESH ", ""));
        assert_eq!(at("#exec mesh imp|"), some("mesh imp", ""));
        assert_eq!(at("#exec MESH IMPORT |"), some("MESH IMPORT ", ""));
        assert_eq!(at("#exec MESH IMPORT Dog|"), some("MESH IMPORT Dog", "dog"));
        assert_eq!(at("#exec dogT|"), some("dogT", "dogt"));
        assert_eq!(at("class A;\n#exec |  \nx"), some("", ""));
    }

    #[test]
    fn anything_else_takes_none() {
        for text in [
            "#exec|",
            "#execute |",
            "#exec TEXTURE |",
            "#exec MESH IMPORT MESH=|",
            "#exec MESH ORIGIN |",
            "#exec | MESH=dogTag",
            "// #exec |",
            "#exec MESH IMPORT dog tag|",
            "x #exec |",
            "",
        ] {
            let text = if text.contains('|') { text.to_owned() } else { format!("{text}|") };
            assert_eq!(at(&text), None, "{text}");
        }
    }

    #[test]
    fn line_endings_follow_the_document() {
        assert_eq!(line_ending("a\r\nb", 1), "\r\n");
        assert_eq!(line_ending("a\r\nb", 4), "\r\n");
        assert_eq!(line_ending("a\nb\r\n", 1), "\n");
        assert_eq!(line_ending("ab", 2), "\n");
        assert_eq!(line_ending("a\rb", 3), "\r");
    }
}
