//! Editor features for T3D documents: hover, completion, navigation, symbols, folding,
//! selection ranges, semantic tokens, inlay hints, formatting and code actions.
//!
//! Every function takes a [`Source`] (the decoded text, its parse and the engine generation)
//! and byte offsets into that text, and returns plain structs with [`Span`]s. Nothing here
//! knows LSP: the language server converts offsets to positions and structs to protocol types.
//!
//! Cursor-based features (hover, completion contexts, definition) descend to the cursor by
//! binary search over sibling spans instead of walking the document, so they cost the depth
//! of the tree times the log of its width, not its size.

pub mod code_actions;
pub mod completion;
pub mod folding;
pub mod formatting;
pub mod hover;
pub mod inlay_hints;
pub mod navigation;
pub mod package_facts;
pub mod selection;
pub mod semantic_tokens;
pub mod symbols;

use unreal_syntax::t3d::{Block, Item, Parse, SyntaxError, T3dFile};
use unreal_syntax::Span;

use crate::t3d::generation;
use crate::{EngineSetting, Generation};

pub use crate::TextEdit;

/// One T3D document as every feature reads it.
#[derive(Clone, Copy)]
pub struct Source<'a> {
    pub text: &'a str,
    pub file: &'a T3dFile,
    pub errors: &'a [SyntaxError],
    /// The generation the settings fix or the file's markers show; `None` when neither tells
    /// (then flag hovers show both meanings where they differ).
    pub generation: Option<Generation>,
}

impl<'a> Source<'a> {
    /// A source with a known (or deliberately unknown) generation.
    pub fn new(text: &'a str, parse: &'a Parse, generation: Option<Generation>) -> Self {
        Self { text, file: &parse.file, errors: &parse.errors, generation }
    }

    /// A source whose generation comes from the setting, or is detected from the file's
    /// markers (a walk over the whole tree: an open document keeps its markers per segment
    /// instead, in the document model, `document/`).
    pub fn detect(text: &'a str, parse: &'a Parse, setting: EngineSetting) -> Self {
        let generation = setting.fixed().or_else(|| generation::detect(text, &parse.file));
        Self::new(text, parse, generation)
    }

    /// The text of a span (empty when the span does not fit).
    pub fn slice(&self, span: Span) -> &'a str {
        span.text(self.text)
    }

    /// The blocks that contain `offset`, outermost first, and the innermost item that
    /// touches it (a block's own line counts as the block).
    pub fn path_at(&self, offset: u32) -> CursorPath<'a> {
        let mut blocks = Vec::new();
        let mut items: &'a [Item] = &self.file.items;
        loop {
            let Some(item) = item_at(items, offset) else {
                return CursorPath { blocks, item: None };
            };
            match item {
                Item::Block(block) => {
                    blocks.push(&**block);
                    let on_own_line = block.begin_span.touches(offset)
                        || block.end.is_some_and(|e| e.span.touches(offset));
                    if on_own_line {
                        return CursorPath { blocks, item: Some(item) };
                    }
                    items = &block.children;
                }
                _ => return CursorPath { blocks, item: Some(item) },
            }
        }
    }
}

/// Where a cursor stands in the tree.
#[derive(Clone, Debug, Default)]
pub struct CursorPath<'a> {
    /// Enclosing blocks, outermost first (a block whose `Begin`/`End` line holds the cursor is
    /// included, as the last one).
    pub blocks: Vec<&'a Block>,
    /// The line-level node under the cursor, if any (for a `Begin`/`End` line: the block).
    pub item: Option<&'a Item>,
}

impl<'a> CursorPath<'a> {
    pub fn innermost(&self) -> Option<&'a Block> {
        self.blocks.last().copied()
    }

    /// The innermost block whose children hold the cursor (skipping a block whose own
    /// `Begin`/`End` line the cursor is on).
    pub fn container(&self) -> Option<&'a Block> {
        match self.item {
            Some(Item::Block(b))
                if self.blocks.last().is_some_and(|l| std::ptr::eq(*l, b.as_ref())) =>
            {
                self.blocks.len().checked_sub(2).and_then(|i| self.blocks.get(i)).copied()
            }
            _ => self.innermost(),
        }
    }
}

/// The item among sorted, disjoint siblings whose span touches `offset` (binary search).
pub(crate) fn item_at(items: &[Item], offset: u32) -> Option<&Item> {
    let i = items.partition_point(|it| it.span().end < offset);
    items.get(i).filter(|it| it.span().start <= offset)
}

/// Items of a sibling list that intersect `range` (binary search for the first one).
pub(crate) fn items_in(items: &[Item], range: Span) -> impl Iterator<Item = &Item> {
    let first = items.partition_point(|it| it.span().end < range.start);
    items.get(first..).unwrap_or(&[]).iter().take_while(move |it| it.span().start <= range.end)
}

/// A provider of what packages know about the objects a document names (texture size and
/// format, class hierarchy). The workspace's package index (`crate::index::PackageIndex`)
/// implements it; [`NoPackages`] answers nothing, for a workspace without a game folder, and
/// every feature then works from the document alone.
pub trait ObjectFacts {
    /// What is known about `Class'Path'` (class may be unknown: `Texture=` names only a path).
    fn object(&self, _class: Option<&str>, _path: &str) -> Option<PackageObject> {
        None
    }

    /// Names of objects of a class (`Texture`, `Class`) for completion, fully qualified.
    fn names(&self, _class: &str) -> Vec<String> {
        Vec::new()
    }
}

/// The empty provider.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoPackages;

impl ObjectFacts for NoPackages {}

/// One object that a package holds, as hover shows it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PackageObject {
    pub class: String,
    /// `Package.Group.Name`.
    pub path: String,
    /// The file the package was read from.
    pub file: Option<String>,
    /// Facts to list (`("size", "256x256")`, `("format", "P8")`, `("parent", "Light")`).
    pub details: Vec<(String, String)>,
}

/// The parts of an object path: `Package.Group.Name` (groups may nest or be absent).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ObjectPath<'a> {
    pub package: Option<&'a str>,
    pub groups: Vec<&'a str>,
    pub name: &'a str,
}

impl<'a> ObjectPath<'a> {
    pub fn parse(path: &'a str) -> Self {
        let mut parts: Vec<&str> = path.split('.').collect();
        let name = parts.pop().unwrap_or("");
        if parts.is_empty() {
            return Self { package: None, groups: Vec::new(), name };
        }
        let package = Some(parts.remove(0));
        Self { package, groups: parts, name }
    }
}

/// A reference under the cursor to an object that a package holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PackageRef<'a> {
    /// The path as written (the value of `Texture=`/`Class=`, the inside of `Class'...'`).
    pub span: Span,
    /// `Texture` for `Texture=`, `Class` for `Class=`, the class word of `Class'Path'`.
    pub class: &'a str,
    pub path: &'a str,
}

/// The package object named at `offset`: a `Texture=` or `Class=` on a `Begin` line, or an
/// object reference in a property value. References into the map itself (`MyLevel.`) are
/// not package objects.
pub fn package_ref_at<'a>(src: &Source<'a>, offset: u32) -> Option<PackageRef<'a>> {
    let cursor = src.path_at(offset);
    let found = match cursor.item? {
        Item::Block(block) if block.begin_span.touches(offset) => {
            let attribute =
                block.attributes.iter().find(|a| a.key.cover(a.value).touches(offset))?;
            let key = src.slice(attribute.key);
            let class = ["Texture", "Class"].into_iter().find(|k| key.eq_ignore_ascii_case(k))?;
            PackageRef { span: attribute.value, class, path: src.slice(attribute.value) }
        }
        Item::Property(property) => {
            let mut found = None;
            crate::t3d::walk::for_each_object_ref(&property.value, &mut |span, class, path| {
                if found.is_none() && span.touches(offset) {
                    found = Some((class, path));
                }
            });
            let (class, path) = found?;
            PackageRef { span: path, class: src.slice(class), path: src.slice(path) }
        }
        _ => return None,
    };
    let in_map =
        ObjectPath::parse(found.path).package.is_some_and(|p| p.eq_ignore_ascii_case("MyLevel"));
    (!found.path.is_empty() && !in_map).then_some(found)
}

/// The identifier (letters, digits, `_`) around `offset`.
pub(crate) fn word_at(text: &str, offset: usize) -> Option<Span> {
    let bytes = text.as_bytes();
    let is_word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let offset = offset.min(bytes.len());
    let mut start = offset;
    while start > 0 && bytes.get(start - 1).copied().is_some_and(is_word) {
        start -= 1;
    }
    let mut end = offset;
    while bytes.get(end).copied().is_some_and(is_word) {
        end += 1;
    }
    (end > start).then(|| Span::from_range(start..end))
}

/// The `Begin`/`End` keyword span of a block line.
pub(crate) fn begin_keyword(block: &Block) -> Span {
    Span::new(
        block.begin_span.start,
        block.begin_span.start.saturating_add(5).min(block.begin_span.end),
    )
}

pub(crate) fn end_keyword(end: Span) -> Span {
    Span::new(end.start, end.start.saturating_add(3).min(end.end))
}

/// The keyword of a vector line (`Vertex` in `Vertex   +0001...`).
pub(crate) fn vector_keyword(text: &str, line: Span) -> Span {
    let s = line.text(text);
    let len = s.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(s.len());
    Span::new(line.start, line.start + len as u32)
}

/// Plural helper for counts in messages.
pub(crate) fn plural(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("{n} {one}")
    } else {
        format!("{n} {many}")
    }
}
