//! Document symbols and workspace symbols (the actors of every open document, found by
//! name).
//!
//! The outline of a map lists its actors and stops there: an actor's symbol says its class
//! and, for a brush, its CSG operation and number of polygons, and its kind sorts brushes,
//! lights and the rest apart ([`ActorKind`]), so that a client that sorts by kind groups them
//! while the outline stays in file order and follows the cursor (a client finds the symbol
//! under the cursor by descending into the first symbol whose range holds it: groups that
//! interleave in the file would break that). A brush file or an UnrealEd clipboard dump
//! (actors or polygon lists with no map around them) shows everything down to each polygon.

use unreal_syntax::t3d::{Block, BlockKind, Item, LineKeyword};
use unreal_syntax::Span;

use super::{plural, Source};
use crate::t3d::actors::{self, ActorKind};

/// What a symbol is; the language server maps these to its protocol's symbol kinds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SymbolKind {
    Map,
    Actor(ActorKind),
    Brush,
    PolyList,
    Polygon,
    Object,
    /// Any other block (`Surface`, `Terrain*`, `StaticMesh`, unknown kinds).
    Block,
    /// An `#exec` directive line of a `.uc` file.
    Directive,
}

#[derive(Clone, Debug, PartialEq)]
pub struct DocumentSymbol {
    pub name: String,
    pub detail: Option<String>,
    pub kind: SymbolKind,
    /// The whole block.
    pub span: Span,
    /// What to highlight when the symbol is picked: the `Name=` value, else the kind word.
    pub selection_span: Span,
    pub children: Vec<DocumentSymbol>,
}

/// Beyond this many polygons (outside a map's actors) the outline stops at the polygon
/// lists, whose detail still counts their polygons: their symbols would make an answer of
/// megabytes that no one scrolls through.
pub const OUTLINE_POLYGONS_UP_TO: usize = 5_000;

/// Where a list of items sits: at the top of the document, or inside a map or level, where
/// an actor's symbol has no children.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Within {
    Document,
    Map,
}

/// The outline of a document: one symbol per block, nested as the blocks are, a map's
/// actors without their insides, and no polygons when more than [`OUTLINE_POLYGONS_UP_TO`]
/// would show.
pub fn document_symbols(src: &Source<'_>) -> Vec<DocumentSymbol> {
    let polygons = polygons_shown(&src.file.items, Within::Document);
    symbols_of(src, &src.file.items, Within::Document, polygons <= OUTLINE_POLYGONS_UP_TO)
}

/// The outline with or without the polygons, whatever their number.
pub fn outline(src: &Source<'_>, with_polygons: bool) -> Vec<DocumentSymbol> {
    symbols_of(src, &src.file.items, Within::Document, with_polygons)
}

/// The number of polygon blocks the outline of `items` would show with its polygons: those
/// at any depth except inside a map's actors.
pub fn polygons_shown(items: &[Item], within: Within) -> usize {
    let mut count = 0;
    let mut stack: Vec<(&[Item], Within)> = vec![(items, within)];
    while let Some((items, within)) = stack.pop() {
        for block in items.iter().filter_map(Item::as_block) {
            count += usize::from(block.kind == BlockKind::Polygon);
            match block.kind {
                BlockKind::Actor if within == Within::Map => {}
                BlockKind::Map | BlockKind::Level => stack.push((&block.children, Within::Map)),
                _ => stack.push((&block.children, within)),
            }
        }
    }
    count
}

/// The number of polygon blocks inside `block`, at any depth.
fn polygons_inside(block: &Block) -> usize {
    let mut count = 0;
    let mut stack: Vec<&Block> = vec![block];
    while let Some(block) = stack.pop() {
        for child in block.blocks() {
            count += usize::from(child.kind == BlockKind::Polygon);
            stack.push(child);
        }
    }
    count
}

/// The symbol of a map's (or level's) own block whose children are kept apart: `children`
/// are their symbols and `actors` the number of actors among them.
pub fn frame_symbol(
    src: &Source<'_>,
    frame: &Block,
    actors: usize,
    children: Vec<DocumentSymbol>,
) -> DocumentSymbol {
    symbol(src, frame, 0, Some(actors), children)
}

/// The symbols of `items` (the children of one block, or the top-level items), nested.
pub fn symbols_of(
    src: &Source<'_>,
    items: &[Item],
    within: Within,
    with_polygons: bool,
) -> Vec<DocumentSymbol> {
    let mut polygon_index = 0usize;
    items
        .iter()
        .filter_map(Item::as_block)
        .filter(|block| with_polygons || block.kind != BlockKind::Polygon)
        .map(|block| {
            let index = polygon_index;
            if block.kind == BlockKind::Polygon {
                polygon_index += 1;
            }
            // The parser bounds nesting (MAX_DEPTH), so this recursion is bounded too.
            let children = match block.kind {
                BlockKind::Actor if within == Within::Map => Vec::new(),
                BlockKind::Map | BlockKind::Level => {
                    symbols_of(src, &block.children, Within::Map, with_polygons)
                }
                _ => symbols_of(src, &block.children, within, with_polygons),
            };
            symbol(src, block, index, None, children)
        })
        .collect()
}

/// `actors` counts a map's actors when its children are not in `block`.
fn symbol(
    src: &Source<'_>,
    block: &Block,
    polygon_index: usize,
    actors: Option<usize>,
    children: Vec<DocumentSymbol>,
) -> DocumentSymbol {
    let kind_text = src.slice(block.kind_span);
    let name_attr = block.attribute(src.text, "Name").filter(|(_, v)| !v.is_empty());
    let selection_span = name_attr.map_or(block.kind_span, |(a, _)| a.value);
    let class = block.attribute_value(src.text, "Class").filter(|c| !c.is_empty());
    let (kind, name, detail) = match block.kind {
        BlockKind::Map | BlockKind::Level => {
            let actors = actors
                .unwrap_or_else(|| block.blocks().filter(|b| b.kind == BlockKind::Actor).count());
            (SymbolKind::Map, kind_text.to_owned(), Some(plural(actors, "actor", "actors")))
        }
        BlockKind::Actor => {
            let kind = ActorKind::of(block, src.text);
            (
                SymbolKind::Actor(kind),
                name_attr.map_or_else(|| "Actor".to_owned(), |(_, n)| n.to_owned()),
                actor_detail(src, block, kind, class),
            )
        }
        BlockKind::Brush => (
            SymbolKind::Brush,
            name_attr.map_or_else(|| "Brush".to_owned(), |(_, n)| n.to_owned()),
            Some("Brush".to_owned()),
        ),
        BlockKind::PolyList => {
            let polygons = block.blocks().filter(|b| b.kind == BlockKind::Polygon).count();
            (
                SymbolKind::PolyList,
                kind_text.to_owned(),
                Some(plural(polygons, "polygon", "polygons")),
            )
        }
        BlockKind::Polygon => {
            let vertices = plural(block.vectors(LineKeyword::Vertex).count(), "vertex", "vertices");
            let detail = match block.attribute_value(src.text, "Texture").filter(|t| !t.is_empty())
            {
                Some(texture) => format!("{texture}, {vertices}"),
                None => vertices,
            };
            (SymbolKind::Polygon, format!("Polygon {polygon_index}"), Some(detail))
        }
        BlockKind::Object => (
            SymbolKind::Object,
            name_attr.map_or_else(|| "Object".to_owned(), |(_, n)| n.to_owned()),
            class.map(str::to_owned),
        ),
        _ => {
            let name = match name_attr {
                Some((_, n)) => format!("{kind_text} {n}"),
                None if kind_text.is_empty() => "Begin".to_owned(),
                None => kind_text.to_owned(),
            };
            (SymbolKind::Block, name, class.map(str::to_owned))
        }
    };
    DocumentSymbol { name, detail, kind, span: block.span, selection_span, children }
}

/// An actor's class and, for one holding a brush, what CSG does with it and its polygons:
/// `Brush, Subtract, 6 polygons`, `Brush, builder brush, 6 polygons`, `Mover, 12 polygons`.
fn actor_detail(
    src: &Source<'_>,
    block: &Block,
    kind: ActorKind,
    class: Option<&str>,
) -> Option<String> {
    let polygons = || plural(polygons_inside(block), "polygon", "polygons");
    let class_name = class.unwrap_or("no class");
    Some(match kind {
        ActorKind::BuilderBrush => format!("{class_name}, builder brush, {}", polygons()),
        ActorKind::Brush => match actors::csg_operation(block, src.text) {
            Some(op) if !op.is_empty() => {
                let op = op.strip_prefix("CSG_").unwrap_or(op);
                format!("{class_name}, {op}, {}", polygons())
            }
            _ => format!("{class_name}, {}", polygons()),
        },
        _ if actors::holds_brush(block) => format!("{class_name}, {}", polygons()),
        _ => return class.map(str::to_owned),
    })
}

/// One actor found by a workspace symbol query.
#[derive(Clone, Debug, PartialEq)]
pub struct WorkspaceSymbol {
    pub name: String,
    pub class: Option<String>,
    pub kind: SymbolKind,
    pub span: Span,
    pub selection_span: Span,
}

/// The actors of a document whose name (or class) matches `query`: case-insensitive, the
/// query's characters in order (`lt3` finds `Light3`). An empty query matches every actor.
/// Only maps, levels and the top level are searched (actors do not nest), so the polygons of
/// a large map are never visited.
pub fn workspace_symbols(src: &Source<'_>, query: &str) -> Vec<WorkspaceSymbol> {
    let mut out = Vec::new();
    let mut stack: Vec<&[Item]> = vec![&src.file.items];
    while let Some(items) = stack.pop() {
        for block in items.iter().filter_map(Item::as_block) {
            match block.kind {
                BlockKind::Map | BlockKind::Level => stack.push(&block.children),
                BlockKind::Actor => {
                    let Some((attribute, name)) = block.attribute(src.text, "Name") else {
                        continue;
                    };
                    let class = block.attribute_value(src.text, "Class");
                    if fuzzy_match(name, query) || class.is_some_and(|c| fuzzy_match(c, query)) {
                        out.push(WorkspaceSymbol {
                            name: name.to_owned(),
                            class: class.map(str::to_owned),
                            kind: SymbolKind::Actor(ActorKind::of(block, src.text)),
                            span: block.span,
                            selection_span: attribute.value,
                        });
                    }
                }
                _ => {}
            }
        }
    }
    out.sort_by_key(|s| s.span.start);
    out
}

/// Case-insensitive subsequence match.
pub fn fuzzy_match(candidate: &str, query: &str) -> bool {
    let mut chars = candidate.chars().map(|c| c.to_ascii_lowercase());
    query.chars().map(|c| c.to_ascii_lowercase()).all(|q| chars.any(|c| c == q))
}
