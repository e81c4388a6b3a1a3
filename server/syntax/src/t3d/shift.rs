//! Moving a parse's spans after an edit: an incremental document keeps the trees of the
//! blocks an edit did not touch, and the spans of those after the edit move by its length.

use super::ast::{Field, Item, Value};
use super::SyntaxError;

impl Item {
    /// Moves every span of the item (which lies wholly after the edit) by `delta` bytes.
    pub fn shift(&mut self, delta: i64) {
        let mut stack: Vec<&mut Item> = vec![self];
        while let Some(item) = stack.pop() {
            match item {
                Item::Block(block) => {
                    block.kind_span = block.kind_span.shifted(delta);
                    block.begin_span = block.begin_span.shifted(delta);
                    block.span = block.span.shifted(delta);
                    for attribute in &mut block.attributes {
                        attribute.key = attribute.key.shifted(delta);
                        attribute.value = attribute.value.shifted(delta);
                    }
                    if let Some(end) = &mut block.end {
                        end.span = end.span.shifted(delta);
                        end.kind_span = end.kind_span.shifted(delta);
                    }
                    stack.extend(block.children.iter_mut());
                }
                Item::Property(property) => {
                    property.span = property.span.shifted(delta);
                    property.key = property.key.shifted(delta);
                    if let Some((span, _)) = &mut property.index {
                        *span = span.shifted(delta);
                    }
                    property.value.shift(delta);
                }
                Item::Vector(line) => {
                    line.span = line.span.shifted(delta);
                    line.value_span = line.value_span.shifted(delta);
                }
                Item::Keyword(line) => {
                    line.span = line.span.shifted(delta);
                    line.keyword_span = line.keyword_span.shifted(delta);
                    for arg in &mut line.args {
                        arg.key = arg.key.map(|k| k.shifted(delta));
                        arg.value = arg.value.shifted(delta);
                    }
                }
                Item::Unknown(span) => *span = span.shifted(delta),
            }
        }
    }
}

impl Value {
    /// Moves every span of the value, nested struct fields included, by `delta` bytes.
    pub fn shift(&mut self, delta: i64) {
        let mut stack: Vec<&mut Value> = vec![self];
        while let Some(value) = stack.pop() {
            match value {
                Value::Number { span, .. }
                | Value::String { span }
                | Value::Word { span }
                | Value::Empty { span }
                | Value::Raw { span } => {
                    *span = span.shifted(delta);
                }
                Value::ObjectRef { span, class, path } => {
                    *span = span.shifted(delta);
                    *class = class.shifted(delta);
                    *path = path.shifted(delta);
                }
                Value::Struct { span, fields } => {
                    *span = span.shifted(delta);
                    for Field { key, index, value } in fields.iter_mut() {
                        *key = key.map(|k| k.shifted(delta));
                        if let Some((span, _)) = index {
                            *span = span.shifted(delta);
                        }
                        stack.push(value);
                    }
                }
            }
        }
    }
}

impl SyntaxError {
    /// Moves the error's spans that stand at or after `from` (in the old text) by `delta`.
    pub fn shift_from(&mut self, from: u32, delta: i64) {
        self.span = self.span.shifted_from(from, delta);
        for (span, _) in &mut self.related {
            *span = span.shifted_from(from, delta);
        }
    }
}
