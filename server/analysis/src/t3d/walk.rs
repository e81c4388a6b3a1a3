//! Walks over a parsed T3D document without recursion (a document may nest as deep as the
//! parser allows), handing each block its parent.

use unreal_syntax::t3d::{Block, BlockKind, Item, T3dFile, Value};
use unreal_syntax::Span;

/// Every block of the document in source order, with its parent block (`None` at top level).
pub fn blocks(file: &T3dFile) -> Vec<(&Block, Option<&Block>)> {
    let mut out = Vec::new();
    let mut stack: Vec<(std::slice::Iter<'_, Item>, Option<&Block>)> =
        vec![(file.items.iter(), None)];
    while let Some((iter, parent)) = stack.last_mut() {
        let parent = *parent;
        match iter.next() {
            Some(Item::Block(block)) => {
                out.push((&**block, parent));
                stack.push((block.children.iter(), Some(block)));
            }
            Some(_) => {}
            None => {
                stack.pop();
            }
        }
    }
    out
}

/// Every polygon of the document with its parent block.
pub fn polygons(file: &T3dFile) -> impl Iterator<Item = (&Block, Option<&Block>)> {
    blocks(file).into_iter().filter(|(b, _)| b.kind == BlockKind::Polygon)
}

/// Calls `f` for every object reference inside a value (structs nest).
pub fn for_each_object_ref(value: &Value, f: &mut impl FnMut(Span, Span, Span)) {
    let mut stack = vec![value];
    while let Some(value) = stack.pop() {
        match value {
            Value::ObjectRef { span, class, path } => f(*span, *class, *path),
            Value::Struct { fields, .. } => stack.extend(fields.iter().rev().map(|f| &f.value)),
            _ => {}
        }
    }
}
