//! Editor features for the `#exec` directives of UnrealScript classes: hover, completion,
//! navigation and rename across a package's classes, document symbols, folding, semantic
//! tokens and code actions. The `.uc` counterparts of the T3D features in [`crate::ide`],
//! with the same result types where they fit (hover, completion items, document symbols,
//! folding ranges, semantic tokens, actions) and their own where a result may lie in another
//! file ([`navigation`]).
//!
//! Every function takes an [`ExecSource`]: the text, its directives read and resolved
//! ([`FileAnalysis`]), the package's symbol table, and the [`ExecEnv`] that reads files. A
//! buffer without a path (or without an environment) still gets everything the text alone
//! shows; names in other classes and files on disk need both.

pub mod code_actions;
pub mod completion;
pub mod folding;
pub mod hover;
pub mod navigation;
pub mod semantic_tokens;
pub mod symbols;

use std::path::{Path, PathBuf};

use unreal_engine::exec::{KeyKind, KeySpec, Sub};
use unreal_engine::Generation;
use unreal_syntax::exec::Arg;
use unreal_syntax::Span;

use crate::exec::package::{self, Location};
use crate::exec::symbols::Found;
use crate::exec::{ExecEnv, FileAnalysis, LineFacts, SymbolKind, SymbolTable};

/// One `.uc` document as every `#exec` feature reads it.
pub struct ExecSource<'a> {
    pub text: &'a str,
    /// The file system and caches; `None` for a buffer that is not on disk.
    pub env: Option<&'a ExecEnv>,
    pub file: FileAnalysis,
    /// This file and, for a class in `<Package>/Classes/`, the package's other classes.
    pub table: SymbolTable,
    /// The generation the settings fix; `None` when unknown.
    pub generation: Option<Generation>,
}

impl<'a> ExecSource<'a> {
    /// Reads the directives of `text` (the document at `path`, when it has one), resolves
    /// their paths and builds the package's symbol table through `env`.
    pub fn new(text: &'a str, path: Option<&Path>, env: Option<&'a ExecEnv>) -> Self {
        let path: Option<PathBuf> = match (path, env) {
            (Some(path), Some(env)) => Some(package::normalize_file(path, env)),
            (path, _) => path.map(Path::to_path_buf),
        };
        let file = FileAnalysis::new(text, path.as_deref(), env);
        let table = match (&file.location, env) {
            (Some(Location::Package { root, .. }), Some(env)) => {
                SymbolTable::with_package(file.symbols.clone(), &env.package_files(root))
            }
            _ => SymbolTable::single(file.symbols.clone()),
        };
        let generation = env.and_then(|e| e.generation);
        Self { text, env, file, table, generation }
    }

    /// The same source judged for another generation (tests; a per-document setting).
    #[must_use]
    pub fn with_generation(mut self, generation: Option<Generation>) -> Self {
        self.generation = generation;
        self
    }

    /// The directive line that holds `offset` (its end included).
    pub fn line_at(&self, offset: u32) -> Option<&LineFacts> {
        let lines = &self.file.lines;
        let i = lines.partition_point(|l| l.directive.span.end < offset);
        lines.get(i).filter(|l| l.directive.span.start <= offset)
    }

    /// The package folder (or, for a class outside `Classes/`, the folder reads stay in).
    pub fn root(&self) -> Option<&Path> {
        self.file.location.as_ref().map(Location::read_root)
    }

    pub fn package_name(&self) -> Option<&str> {
        self.file.location.as_ref().and_then(Location::package_name)
    }

    /// A path for display: relative to the package folder with forward slashes.
    pub fn show(&self, path: &Path) -> String {
        match self.root() {
            Some(root) => package::display_relative(path, root),
            None => path.to_string_lossy().into_owned(),
        }
    }

    /// The decoded text of another file of the package (read from disk each time: a rename
    /// must see the file as it is now).
    pub fn read_text(&self, path: &Path) -> Option<String> {
        let bytes = self.env?.read(path)?;
        Some(unreal_syntax::text::decode(&bytes).text.into_owned())
    }
}

/// What part of a directive line a cursor is on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LinePart {
    /// `#exec`, `#AlwaysExec`, ...
    Directive(Span),
    /// The first command word.
    Command(Span),
    /// The second command word.
    Subcommand(Span),
    /// The key of `KEY=VALUE` (or a bare word).
    Key { index: usize, arg: Arg },
    /// The value of `KEY=VALUE`.
    Value { index: usize, arg: Arg },
}

/// The part of `line` at `offset`, if any.
pub fn part_at(line: &LineFacts, offset: u32) -> Option<LinePart> {
    if line.directive.hash_span.touches(offset) {
        return Some(LinePart::Directive(line.directive.hash_span));
    }
    if let Some(c) = line.line.command.filter(|c| c.touches(offset)) {
        return Some(LinePart::Command(c));
    }
    if let Some(s) = line.line.subcommand.filter(|s| s.touches(offset)) {
        return Some(LinePart::Subcommand(s));
    }
    for (index, arg) in line.line.args.iter().copied().enumerate() {
        match arg {
            Arg::Key { key, value } => {
                if key.touches(offset) && offset < value.span.start {
                    return Some(LinePart::Key { index, arg });
                }
                if value.span.touches(offset) {
                    return Some(LinePart::Value { index, arg });
                }
            }
            Arg::Bare { span } if span.touches(offset) => {
                return Some(LinePart::Key { index, arg });
            }
            Arg::Bare { .. } => {}
        }
    }
    None
}

/// The key entries of the line's command named like the token `arg`, for the generation
/// (every generation's entries when it is unknown, or when the generation has none).
pub fn key_specs(
    line: &LineFacts,
    text: &str,
    arg: Arg,
    generation: Option<Generation>,
) -> Vec<&'static KeySpec> {
    let Some(m) = line.command else { return Vec::new() };
    let name = arg.name_span().text(text);
    let all: Vec<&'static KeySpec> = m.spec.key_variants(name).collect();
    let known: Vec<&'static KeySpec> =
        all.iter().copied().filter(|k| generation.is_none_or(|g| k.engines.includes(g))).collect();
    if known.is_empty() {
        all
    } else {
        known
    }
}

/// The kind of name a key of this object class refers to.
pub fn symbol_kind_of_class(class: &str) -> Option<SymbolKind> {
    match class {
        "Mesh" | "SkeletalMesh" | "LodMesh" => Some(SymbolKind::Mesh),
        "Texture" | "Material" => Some(SymbolKind::Texture),
        "Animation" | "MeshAnimation" => Some(SymbolKind::Animation),
        "Sound" => Some(SymbolKind::Sound),
        "StaticMesh" => Some(SymbolKind::StaticMesh),
        "Font" => Some(SymbolKind::Font),
        _ => None,
    }
}

/// A name that a directive defines or refers to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NameUse {
    pub kind: SymbolKind,
    pub name: String,
    /// For a sequence: the mesh it belongs to.
    pub owner: Option<String>,
    /// The name in the text: the last dotted part of a reference, the value of a definition
    /// (or, for a name that defaults from a file, the path it comes from).
    pub span: Span,
    pub defines: bool,
    /// A definition without `NAME=`, named after its file: renaming it adds `NAME=`.
    pub from_path: bool,
    /// The whole directive line.
    pub line_span: Span,
    /// The end of the `KEY=VALUE` token that holds the name (quotes included).
    pub token_end: u32,
}

impl NameUse {
    /// True when `other` names the same object.
    pub fn same_symbol(&self, kind: SymbolKind, name: &str, owner: Option<&str>) -> bool {
        self.kind == kind
            && self.name.eq_ignore_ascii_case(name)
            && (kind != SymbolKind::Sequence
                || match (self.owner.as_deref(), owner) {
                    (Some(a), Some(b)) => a.eq_ignore_ascii_case(b),
                    _ => false,
                })
    }

    /// The definitions the name may mean (for a sequence, those of its mesh), the checked
    /// file's first: what hover lists and go to definition offers.
    pub fn definitions<'t>(&'t self, table: &'t SymbolTable) -> Vec<Found<'t>> {
        match (self.kind, &self.owner) {
            (SymbolKind::Sequence, Some(owner)) => table
                .sequences(owner)
                .filter(|f| f.definition.name.eq_ignore_ascii_case(&self.name))
                .collect(),
            _ => table.find(self.kind, &self.name).collect(),
        }
    }
}

/// Every name the directives of `file` define or refer to, in line order.
pub fn name_uses(text: &str, file: &FileAnalysis) -> Vec<NameUse> {
    let mut out = Vec::new();
    for line in &file.lines {
        line_name_uses(text, file, line, &mut out);
    }
    out
}

/// The names one line defines or refers to.
pub fn line_name_uses(text: &str, file: &FileAnalysis, line: &LineFacts, out: &mut Vec<NameUse>) {
    // An ignored command (`MESHMAP NEW`) defines nothing, but its names still follow a rename.
    let Some(m) = line.command else { return };
    let line_span = line.directive.span;
    for d in file.symbols.definitions.iter().filter(|d| d.line_span == line_span) {
        let from_path = !d.span.text(text).eq_ignore_ascii_case(&d.name);
        out.push(NameUse {
            token_end: token_end(line, d.span),
            kind: d.kind,
            name: d.name.clone(),
            owner: d.owner.clone(),
            span: d.span,
            defines: true,
            from_path,
            line_span,
        });
    }
    let mut seen: Vec<&str> = Vec::new();
    for key in m.spec.keys {
        let KeyKind::Object(class) = key.kind else { continue };
        let Some(kind) = symbol_kind_of_class(class) else { continue };
        if seen.contains(&key.name) {
            continue;
        }
        seen.push(key.name);
        if let Some(reference) = reference(text, line, key.name, kind, None) {
            out.push(reference);
        }
    }
    for key in
        NAME_KEYS.iter().filter(|k| k.command == m.spec.command && m.spec.sub == Sub::Word(k.sub))
    {
        if key.kind == SymbolKind::Sequence {
            let owner = line.value(text, "MESH").map(|v| v.text).filter(|v| !v.is_empty());
            if let Some(owner) = owner {
                out.extend(reference(text, line, key.key, SymbolKind::Sequence, Some(owner)));
            }
        } else {
            out.extend(reference(text, line, key.key, key.kind, None));
        }
    }
}

/// A key of `Name` kind that refers to a name another directive defines (keys of `Object`
/// kind are found by their class).
pub struct NameKey {
    pub command: &'static str,
    pub sub: &'static str,
    pub key: &'static str,
    pub kind: SymbolKind,
}

/// `MESHMAP NEW` maps a mesh (meshmaps were merged into meshes: both keys name the mesh);
/// `MESH NOTIFY SEQ=` names a sequence of the line's mesh.
pub const NAME_KEYS: [NameKey; 3] = [
    NameKey { command: "MESHMAP", sub: "NEW", key: "MESHMAP", kind: SymbolKind::Mesh },
    NameKey { command: "MESHMAP", sub: "NEW", key: "MESH", kind: SymbolKind::Mesh },
    NameKey { command: "MESH", sub: "NOTIFY", key: "SEQ", kind: SymbolKind::Sequence },
];

/// The kind of name a key's value refers to, if it refers to one.
pub fn referred_kind(spec: &unreal_engine::exec::CommandSpec, key: &KeySpec) -> Option<SymbolKind> {
    match key.kind {
        KeyKind::Object(class) => symbol_kind_of_class(class),
        _ => NAME_KEYS
            .iter()
            .find(|k| {
                k.command == spec.command && spec.sub == Sub::Word(k.sub) && k.key == key.name
            })
            .map(|k| k.kind),
    }
}

fn reference(
    text: &str,
    line: &LineFacts,
    key: &str,
    kind: SymbolKind,
    owner: Option<String>,
) -> Option<NameUse> {
    let value = line.value(text, key)?;
    if value.text.is_empty() || value.text.eq_ignore_ascii_case("none") {
        return None;
    }
    let name = value.text.rsplit('.').next().unwrap_or(&value.text).to_owned();
    // The name is the last dotted part; the span follows it when the raw text ends with it
    // (always, unless escapes changed the value).
    let raw = value.span.text(text);
    let span = if raw.len() >= name.len() && raw.ends_with(name.as_str()) {
        Span::new(value.span.end - name.len() as u32, value.span.end)
    } else {
        value.span
    };
    Some(NameUse {
        token_end: token_end(line, span),
        kind,
        name,
        owner,
        span,
        defines: false,
        from_path: false,
        line_span: line.directive.span,
    })
}

/// The end of the argument token that holds `span`.
fn token_end(line: &LineFacts, span: Span) -> u32 {
    line.line
        .args
        .iter()
        .map(|a| a.span())
        .find(|s| s.start <= span.start && span.end <= s.end)
        .map_or(span.end, |s| s.end)
}

/// The name use under `offset` in the source's own file.
pub fn name_use_at(src: &ExecSource<'_>, offset: u32) -> Option<NameUse> {
    let line = src.line_at(offset)?;
    let mut uses = Vec::new();
    line_name_uses(src.text, &src.file, line, &mut uses);
    uses.into_iter().find(|u| u.span.touches(offset))
}

/// 1-based line number of `offset` in `text`.
pub(crate) fn line_number(text: &str, offset: u32) -> usize {
    let end = (offset as usize).min(text.len());
    text.get(..end).map_or(0, |b| b.matches('\n').count()) + 1
}
