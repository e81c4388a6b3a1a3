//! Go to definition, find references and rename for the names `#exec` directives define
//! across a package's classes (`MESH=Skull` of `MESH IMPORT`, used by `MESHMAP NEW`,
//! `MESH SEQUENCE`, `LODPARAMS`, `SETTEXTURE`; textures named in `SETTEXTURE TEXTURE=`;
//! sequences named in `MESH NOTIFY SEQ=`), and from a file value to the file.
//!
//! Results may lie in another class of the package, so every location names its file
//! (`None`: the document itself); spans are byte offsets into that file's decoded text.

use std::path::PathBuf;

use unreal_syntax::Span;

use super::{name_use_at, name_uses, part_at, ExecSource, LinePart, NameUse};
use crate::exec::{FileAnalysis, Resolution};
use crate::ide::t3d::navigation::{OccurrenceKind, RenameError};
use crate::TextEdit;

/// The engine truncates names to this many characters (`NAME_SIZE` minus the terminator).
const MAX_NAME_LEN: usize = 63;

/// A place in a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileLocation {
    /// `None`: the document itself; otherwise a file of the package (or the file a path
    /// value names, with an empty span at its start).
    pub file: Option<PathBuf>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Occurrence {
    pub location: FileLocation,
    pub kind: OccurrenceKind,
}

/// The edits of a rename in one file.
#[derive(Clone, Debug, PartialEq)]
pub struct FileEdits {
    /// `None`: the document itself.
    pub file: Option<PathBuf>,
    pub edits: Vec<TextEdit>,
}

/// Where the thing under the cursor is defined: the directives defining a name (several when
/// the package defines it twice), or the file a path value names.
pub fn goto_definition(src: &ExecSource<'_>, offset: u32) -> Vec<FileLocation> {
    if let Some(file) = file_at(src, offset) {
        return vec![FileLocation { file: Some(file), span: Span::empty_at(0) }];
    }
    let Some(name) = name_use_at(src, offset) else { return Vec::new() };
    definitions(src, &name)
}

/// The file a path value under the cursor resolves to.
pub fn file_at(src: &ExecSource<'_>, offset: u32) -> Option<PathBuf> {
    let line = src.line_at(offset)?;
    let LinePart::Value { arg, .. } = part_at(line, offset)? else { return None };
    let value = arg.value()?;
    let path = line
        .paths
        .iter()
        .find(|p| p.value.span.start >= value.span.start && p.value.span.end <= value.span.end)?;
    match &path.resolution {
        Resolution::Found { path, .. } | Resolution::Indexed { path } => Some(path.clone()),
        _ => None,
    }
}

fn definitions(src: &ExecSource<'_>, name: &NameUse) -> Vec<FileLocation> {
    name.definitions(&src.table)
        .into_iter()
        .map(|f| FileLocation { file: f.file.map(PathBuf::from), span: f.definition.span })
        .collect()
}

/// Every file of the package with its text and directives: the document first, then the
/// other classes as they are on disk.
fn package_files(src: &ExecSource<'_>) -> Vec<(Option<PathBuf>, String, FileAnalysis)> {
    let mut out = Vec::new();
    for (index, file) in src.table.files.iter().enumerate() {
        if index == src.table.current {
            continue;
        }
        let Some(path) = &file.file else { continue };
        let Some(text) = src.read_text(path) else { continue };
        let analysis = FileAnalysis::new(&text, Some(path), None);
        out.push((Some(path.clone()), text, analysis));
    }
    out
}

/// Every definition of and reference to the name under the cursor, in the document and in
/// the package's other classes (definitions first within each file, in text order).
pub fn find_references(
    src: &ExecSource<'_>,
    offset: u32,
    include_declaration: bool,
) -> Vec<Occurrence> {
    let Some(target) = name_use_at(src, offset) else { return Vec::new() };
    occurrences(src, &target)
        .into_iter()
        .filter(|(_, u)| include_declaration || !u.defines)
        .map(|(file, u)| Occurrence {
            location: FileLocation { file, span: u.span },
            kind: if u.defines { OccurrenceKind::Definition } else { OccurrenceKind::Reference },
        })
        .collect()
}

fn occurrences(src: &ExecSource<'_>, target: &NameUse) -> Vec<(Option<PathBuf>, NameUse)> {
    let matches = |u: &NameUse| {
        target.kind == u.kind && u.same_symbol(target.kind, &target.name, target.owner.as_deref())
    };
    let mut out: Vec<(Option<PathBuf>, NameUse)> =
        name_uses(src.text, &src.file).into_iter().filter(matches).map(|u| (None, u)).collect();
    // A mesh's sequences and notifies name it through `MESH=` already; sequences of a
    // renamed mesh keep their owner by text, so nothing else changes.
    for (path, text, analysis) in package_files(src) {
        out.extend(
            name_uses(&text, &analysis).into_iter().filter(matches).map(|u| (path.clone(), u)),
        );
    }
    out
}

/// The span a rename at `offset` would change, or why it cannot.
pub fn prepare_rename(src: &ExecSource<'_>, offset: u32) -> Result<Span, RenameError> {
    match name_use_at(src, offset) {
        Some(name) => Ok(name.span),
        None => Err(RenameError {
            message: "only names that `#exec` directives define or use can be renamed".to_owned(),
        }),
    }
}

/// Renames the name under the cursor everywhere in the package. A definition named after
/// its file (no `NAME=`) gets `NAME=<new>` added instead of a changed path.
pub fn rename(
    src: &ExecSource<'_>,
    offset: u32,
    new_name: &str,
) -> Result<Vec<FileEdits>, RenameError> {
    let Some(target) = name_use_at(src, offset) else {
        return Err(RenameError {
            message: "only names that `#exec` directives define or use can be renamed".to_owned(),
        });
    };
    let valid = !new_name.is_empty()
        && new_name.len() <= MAX_NAME_LEN
        && new_name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if !valid {
        return Err(RenameError {
            message: format!(
                "`{new_name}` is not a valid object name (letters, digits and `_`, at most {MAX_NAME_LEN} characters)"
            ),
        });
    }
    let mut out: Vec<FileEdits> = Vec::new();
    for (file, u) in occurrences(src, &target) {
        let edit = if u.from_path {
            TextEdit { span: Span::empty_at(u.token_end), new_text: format!(" NAME={new_name}") }
        } else {
            TextEdit { span: u.span, new_text: new_name.to_owned() }
        };
        match out.iter_mut().find(|f| f.file == file) {
            Some(f) => f.edits.push(edit),
            None => out.push(FileEdits { file, edits: vec![edit] }),
        }
    }
    Ok(out)
}
