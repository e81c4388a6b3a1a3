//! Selection ranges ("expand selection"): word, then value, then line, then block, then each
//! enclosing block, then the whole document.

use unreal_syntax::t3d::{Item, Value};
use unreal_syntax::Span;

use super::{word_at, Source};

/// For each offset, the spans from innermost to outermost; each contains the one before.
pub fn selection_ranges(src: &Source<'_>, offsets: &[u32]) -> Vec<Vec<Span>> {
    offsets.iter().map(|&offset| selection_at(src, offset)).collect()
}

fn selection_at(src: &Source<'_>, offset: u32) -> Vec<Span> {
    let mut spans = Vec::new();
    if let Some(word) = word_at(src.text, offset as usize) {
        spans.push(word);
    }
    let path = src.path_at(offset);
    match path.item {
        Some(Item::Block(block)) if block.begin_span.touches(offset) => {
            if let Some(a) = block.attributes.iter().find(|a| a.key.cover(a.value).touches(offset))
            {
                spans.push(a.value);
                spans.push(a.key.cover(a.value));
            }
            spans.push(block.begin_span);
        }
        Some(Item::Block(block)) => {
            if let Some(end) = block.end {
                spans.push(end.span);
            }
        }
        Some(Item::Property(property)) => {
            let mut values = Vec::new();
            nested_values(&property.value, offset, &mut values);
            spans.extend(values.into_iter().rev());
            spans.push(property.span);
        }
        Some(Item::Vector(line)) => {
            if line.value_span.touches(offset) {
                if let Some(component) = component_at(src.text, line.value_span, offset) {
                    spans.push(component);
                }
                spans.push(line.value_span);
            }
            spans.push(line.span);
        }
        Some(Item::Keyword(line)) => {
            if let Some(arg) =
                line.args.iter().find(|a| a.key.unwrap_or(a.value).cover(a.value).touches(offset))
            {
                spans.push(arg.value);
                if let Some(key) = arg.key {
                    spans.push(key.cover(arg.value));
                }
            }
            spans.push(line.span);
        }
        Some(Item::Unknown(span)) => spans.push(*span),
        None => {}
    }
    for block in path.blocks.iter().rev() {
        spans.push(block.span);
    }
    spans.push(Span::from_range(0..src.text.len()));
    // Keep a strictly growing chain: drop spans that do not contain the previous one.
    let mut chain: Vec<Span> = Vec::new();
    for span in spans {
        let grows = chain
            .last()
            .is_none_or(|last| span.start <= last.start && span.end >= last.end && span != *last);
        if grows && span.touches(offset) {
            chain.push(span);
        }
    }
    chain
}

/// Values of a property that hold `offset`, outermost first (structs nest).
fn nested_values(value: &Value, offset: u32, out: &mut Vec<Span>) {
    let mut current = Some(value);
    while let Some(value) = current.take() {
        if !value.span().touches(offset) {
            return;
        }
        out.push(value.span());
        match value {
            Value::Struct { fields, .. } => {
                if let Some(field) = fields
                    .iter()
                    .find(|f| f.key.unwrap_or(f.value.span()).cover(f.value.span()).touches(offset))
                {
                    if let Some(key) = field.key {
                        out.push(key.cover(field.value.span()));
                    }
                    current = Some(&field.value);
                }
            }
            Value::ObjectRef { path, .. } if path.touches(offset) => out.push(*path),
            _ => {}
        }
    }
}

/// One component of `X,Y,Z`.
fn component_at(text: &str, value: Span, offset: u32) -> Option<Span> {
    let mut start = value.start;
    for part in value.text(text).split(',') {
        let span = Span::new(start, start + part.len() as u32);
        if span.touches(offset) {
            return Some(span);
        }
        start = span.end + 1;
    }
    None
}
