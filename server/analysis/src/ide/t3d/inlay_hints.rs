//! Inlay hints: the flag names a `Flags=` value stands for, and the vertex count of each
//! polygon after its `Begin Polygon` line.

use unreal_syntax::t3d::{Block, BlockKind, Item, LineKeyword};
use unreal_syntax::Span;

use super::hover::flag_names;
use super::{items_in, plural, Source};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InlayKind {
    /// Decoded `Flags=` names.
    Flags,
    /// A polygon's vertex count.
    VertexCount,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InlayHint {
    /// Where the hint is shown (right after the text it explains).
    pub offset: u32,
    pub label: String,
    pub kind: InlayKind,
}

/// The hints of the lines that intersect `range` (only the blocks that overlap it are
/// visited).
pub fn inlay_hints(src: &Source<'_>, range: Span) -> Vec<InlayHint> {
    let mut out = Vec::new();
    let mut stack: Vec<&[Item]> = vec![&src.file.items];
    while let Some(items) = stack.pop() {
        let mut blocks: Vec<&Block> = Vec::new();
        for item in items_in(items, range) {
            match item {
                Item::Block(block) => {
                    if block.begin_span.start <= range.end && block.begin_span.end >= range.start {
                        begin_line_hints(src, block, &mut out);
                    }
                    blocks.push(block);
                }
                Item::Property(property)
                    if src.slice(property.key).eq_ignore_ascii_case("PolyFlags") =>
                {
                    flags_hint(src, property.value.span(), &mut out);
                }
                Item::Keyword(line) => {
                    if let Some((arg, _)) = line.arg(src.text, "PolyFlags") {
                        flags_hint(src, arg.value, &mut out);
                    }
                }
                _ => {}
            }
        }
        // Visit children in source order: the stack pops the last pushed first.
        stack.extend(blocks.iter().rev().map(|b| &b.children[..]));
    }
    out.sort_by_key(|h| h.offset);
    out
}

fn begin_line_hints(src: &Source<'_>, block: &Block, out: &mut Vec<InlayHint>) {
    if let Some((attribute, _)) = block.attribute(src.text, "Flags") {
        flags_hint(src, attribute.value, out);
    }
    if block.kind == BlockKind::Polygon {
        let vertices = block.vectors(LineKeyword::Vertex).count();
        out.push(InlayHint {
            offset: block.begin_span.end,
            label: plural(vertices, "vertex", "vertices"),
            kind: InlayKind::VertexCount,
        });
    }
}

fn flags_hint(src: &Source<'_>, value: Span, out: &mut Vec<InlayHint>) {
    let Some(bits) = unreal_syntax::t3d::parse_flags(src.slice(value)) else { return };
    if bits == 0 {
        return;
    }
    out.push(InlayHint {
        offset: value.end,
        label: flag_names(bits, src.generation),
        kind: InlayKind::Flags,
    });
}
