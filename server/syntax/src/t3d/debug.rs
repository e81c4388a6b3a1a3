//! A compact, stable text rendering of a parse, for snapshot tests and `--debug` output.

use std::fmt::Write;

use super::ast::{Block, Item, Value};
use super::Parse;

/// Renders the tree one node a line, indented by depth, then the errors.
pub fn render(text: &str, parse: &Parse) -> String {
    let mut out = String::new();
    for item in &parse.file.items {
        item_line(&mut out, text, item, 0);
    }
    for error in &parse.errors {
        let _ = writeln!(out, "error {:?} {:?}: {}", error.kind, error.span, error.message);
        for (span, message) in &error.related {
            let _ = writeln!(out, "  related {span:?}: {message}");
        }
    }
    out
}

fn item_line(out: &mut String, text: &str, item: &Item, depth: usize) {
    let indent = "  ".repeat(depth);
    match item {
        Item::Block(block) => block_lines(out, text, block, depth),
        Item::Property(p) => {
            let index = p.index.map(|(_, i)| format!("({i})")).unwrap_or_default();
            let _ = writeln!(
                out,
                "{indent}Property {:?} {}{index} = {}",
                p.span,
                p.key.text(text),
                value(text, &p.value)
            );
        }
        Item::Vector(v) => {
            let _ = writeln!(
                out,
                "{indent}{:?} {:?} {:?} [{}, {}, {}]",
                v.keyword, v.span, v.value_span, v.value[0], v.value[1], v.value[2]
            );
        }
        Item::Keyword(k) => {
            let args: Vec<String> = k
                .args
                .iter()
                .map(|a| match a.key {
                    Some(key) => format!("{}={}", key.text(text), a.value.text(text)),
                    None => a.value.text(text).to_owned(),
                })
                .collect();
            let _ = writeln!(
                out,
                "{indent}Keyword {:?} {} {:?} [{}]",
                k.keyword,
                k.keyword_span.text(text),
                k.span,
                args.join(" ")
            );
        }
        Item::Unknown(span) => {
            let _ = writeln!(out, "{indent}Unknown {span:?} {:?}", span.text(text));
        }
    }
}

fn block_lines(out: &mut String, text: &str, block: &Block, depth: usize) {
    let indent = "  ".repeat(depth);
    let attributes: Vec<String> = block
        .attributes
        .iter()
        .map(|a| format!("{}={}", a.key.text(text), a.value.text(text)))
        .collect();
    let _ = writeln!(
        out,
        "{indent}Block {:?} {:?} {} [{}]",
        block.kind,
        block.span,
        block.kind_span.text(text),
        attributes.join(" ")
    );
    for child in &block.children {
        item_line(out, text, child, depth + 1);
    }
    match block.end {
        Some(end) => {
            let _ = writeln!(out, "{indent}End {:?} {}", end.span, end.kind_span.text(text));
        }
        None => {
            let _ = writeln!(out, "{indent}(unclosed)");
        }
    }
}

fn value(text: &str, value: &Value) -> String {
    match value {
        Value::Number { value, .. } => format!("Number({value})"),
        Value::String { span } => format!("String({})", span.text(text)),
        Value::ObjectRef { class, path, .. } => {
            format!("Ref({} '{}')", class.text(text), path.text(text))
        }
        Value::Struct { fields, .. } => {
            let inner: Vec<String> = fields
                .iter()
                .map(|f| {
                    let index = f.index.map(|(_, i)| format!("({i})")).unwrap_or_default();
                    match f.key {
                        Some(k) => {
                            format!("{}{index}={}", k.text(text), self::value(text, &f.value))
                        }
                        None => self::value(text, &f.value),
                    }
                })
                .collect();
            format!("Struct({})", inner.join(", "))
        }
        Value::Word { span } => format!("Word({})", span.text(text)),
        Value::Empty { .. } => "Empty".to_owned(),
        Value::Raw { span } => format!("Raw({})", span.text(text)),
    }
}
