//! Semantic tokens: block keywords and kinds, attribute and property keys, numbers, strings,
//! object references (class and path), vector keywords and flag values. The legend is plain
//! data ([`TOKEN_TYPES`], [`TOKEN_MODIFIERS`]); its names are the standard LSP ones so that
//! every editor theme colours them.

use unreal_syntax::t3d::{Block, Item, KeywordLine, Property, Value};
use unreal_syntax::Span;

use super::{begin_keyword, end_keyword, items_in, vector_keyword, Source};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TokenType {
    /// `Begin`, `End`, `Vertex`, `Origin`, `Pan` and the other line keywords.
    Keyword,
    /// The block kind after `Begin`/`End`.
    Type,
    /// `Key` of a `Key=Value` on a `Begin` or keyword line.
    Parameter,
    /// A property key, or a struct field key.
    Property,
    Number,
    String,
    /// A class name: `Class=` values and the class of `Class'Path'`.
    Class,
    /// An object name or path: `Name=`, `Texture=`, the path of `Class'Path'`.
    Variable,
    /// `Flags=` values and bare words (`True`, `None`, `CSG_Subtract`).
    EnumMember,
}

/// The legend, in the order the token type indices refer to.
pub const TOKEN_TYPES: [TokenType; 9] = [
    TokenType::Keyword,
    TokenType::Type,
    TokenType::Parameter,
    TokenType::Property,
    TokenType::Number,
    TokenType::String,
    TokenType::Class,
    TokenType::Variable,
    TokenType::EnumMember,
];

/// Modifier bits: bit `i` is `TOKEN_MODIFIERS[i]`.
pub const TOKEN_MODIFIERS: [&str; 1] = ["declaration"];
pub const MODIFIER_DECLARATION: u32 = 1;

impl TokenType {
    /// The standard LSP name.
    pub fn name(self) -> &'static str {
        match self {
            TokenType::Keyword => "keyword",
            TokenType::Type => "type",
            TokenType::Parameter => "parameter",
            TokenType::Property => "property",
            TokenType::Number => "number",
            TokenType::String => "string",
            TokenType::Class => "class",
            TokenType::Variable => "variable",
            TokenType::EnumMember => "enumMember",
        }
    }

    /// The index of this type in [`TOKEN_TYPES`].
    pub fn index(self) -> u32 {
        TOKEN_TYPES.iter().position(|t| *t == self).unwrap_or(0) as u32
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SemanticToken {
    /// Never spans a line break.
    pub span: Span,
    pub token_type: TokenType,
    pub modifiers: u32,
}

/// Tokens of the whole document, or of the lines that intersect `range`; sorted and
/// non-overlapping.
pub fn semantic_tokens(src: &Source<'_>, range: Option<Span>) -> Vec<SemanticToken> {
    let range = range.unwrap_or_else(|| Span::from_range(0..src.text.len()));
    let mut out = Vec::new();
    let mut stack: Vec<std::iter::Peekable<std::vec::IntoIter<&Item>>> =
        vec![items_in(&src.file.items, range).collect::<Vec<_>>().into_iter().peekable()];
    // Blocks whose `End` line is still to be emitted after their children, innermost last.
    let mut pending_ends: Vec<&Block> = Vec::new();
    while let Some(iter) = stack.last_mut() {
        let Some(item) = iter.next() else {
            stack.pop();
            if let Some(block) = pending_ends.pop() {
                end_tokens(src, block, range, &mut out);
            }
            continue;
        };
        match item {
            Item::Block(block) => {
                if overlaps(block.begin_span, range) {
                    begin_tokens(src, block, &mut out);
                }
                pending_ends.push(block);
                stack.push(
                    items_in(&block.children, range).collect::<Vec<_>>().into_iter().peekable(),
                );
            }
            Item::Property(property) => property_tokens(src, property, &mut out),
            Item::Vector(line) => {
                push(&mut out, vector_keyword(src.text, line.span), TokenType::Keyword, 0);
                let mut start = line.value_span.start;
                for part in src.slice(line.value_span).split(',') {
                    let end = start + part.len() as u32;
                    push(&mut out, Span::new(start, end), TokenType::Number, 0);
                    start = end + 1;
                }
            }
            Item::Keyword(line) => keyword_tokens(src, line, &mut out),
            Item::Unknown(_) => {}
        }
    }
    out
}

fn overlaps(span: Span, range: Span) -> bool {
    span.start <= range.end && span.end >= range.start
}

fn push(out: &mut Vec<SemanticToken>, span: Span, token_type: TokenType, modifiers: u32) {
    if span.is_empty() {
        return;
    }
    // Keep the output sorted and non-overlapping even for odd input.
    if out.last().is_some_and(|last| last.span.end > span.start) {
        return;
    }
    out.push(SemanticToken { span, token_type, modifiers });
}

fn begin_tokens(src: &Source<'_>, block: &Block, out: &mut Vec<SemanticToken>) {
    push(out, begin_keyword(block), TokenType::Keyword, 0);
    push(out, block.kind_span, TokenType::Type, 0);
    for attribute in &block.attributes {
        push(out, attribute.key, TokenType::Parameter, 0);
        let key = src.slice(attribute.key);
        let value = src.slice(attribute.value);
        let (token_type, modifiers) = if key.eq_ignore_ascii_case("Class") {
            (TokenType::Class, 0)
        } else if key.eq_ignore_ascii_case("Name") {
            (TokenType::Variable, MODIFIER_DECLARATION)
        } else if key.eq_ignore_ascii_case("Flags") || key.eq_ignore_ascii_case("PolyFlags") {
            (TokenType::EnumMember, 0)
        } else if unreal_syntax::t3d::parse_number(value).is_some() {
            (TokenType::Number, 0)
        } else if value.starts_with('"') {
            (TokenType::String, 0)
        } else {
            (TokenType::Variable, 0)
        };
        push(out, attribute.value, token_type, modifiers);
    }
}

fn end_tokens(src: &Source<'_>, block: &Block, range: Span, out: &mut Vec<SemanticToken>) {
    let Some(end) = block.end else { return };
    if !overlaps(end.span, range) {
        return;
    }
    let _ = src;
    push(out, end_keyword(end.span), TokenType::Keyword, 0);
    push(out, end.kind_span, TokenType::Type, 0);
}

fn property_tokens(src: &Source<'_>, property: &Property, out: &mut Vec<SemanticToken>) {
    push(out, property.key, TokenType::Property, 0);
    if let Some((index, _)) = property.index {
        push(out, index, TokenType::Number, 0);
    }
    if src.slice(property.key).eq_ignore_ascii_case("PolyFlags") {
        if let Value::Number { span, .. } = property.value {
            push(out, span, TokenType::EnumMember, 0);
            return;
        }
    }
    let mut tokens = Vec::new();
    value_tokens(&property.value, &mut tokens);
    tokens.sort_by_key(|t: &SemanticToken| t.span.start);
    for token in tokens {
        push(out, token.span, token.token_type, token.modifiers);
    }
}

fn value_tokens(value: &Value, out: &mut Vec<SemanticToken>) {
    let mut stack = vec![value];
    while let Some(value) = stack.pop() {
        let mut token =
            |span: Span, token_type| out.push(SemanticToken { span, token_type, modifiers: 0 });
        match value {
            Value::Number { span, .. } => token(*span, TokenType::Number),
            Value::String { span } => token(*span, TokenType::String),
            Value::ObjectRef { class, path, .. } => {
                token(*class, TokenType::Class);
                token(*path, TokenType::Variable);
            }
            Value::Word { span } => token(*span, TokenType::EnumMember),
            Value::Struct { fields, .. } => {
                for field in fields {
                    if let Some(key) = field.key {
                        out.push(SemanticToken {
                            span: key,
                            token_type: TokenType::Property,
                            modifiers: 0,
                        });
                    }
                    if let Some((index, _)) = field.index {
                        out.push(SemanticToken {
                            span: index,
                            token_type: TokenType::Number,
                            modifiers: 0,
                        });
                    }
                    stack.push(&field.value);
                }
            }
            Value::Empty { .. } | Value::Raw { .. } => {}
        }
    }
}

fn keyword_tokens(src: &Source<'_>, line: &KeywordLine, out: &mut Vec<SemanticToken>) {
    push(out, line.keyword_span, TokenType::Keyword, 0);
    for arg in &line.args {
        if let Some(key) = arg.key {
            push(out, key, TokenType::Parameter, 0);
        }
        let is_flags = arg.key.is_some_and(|k| src.slice(k).eq_ignore_ascii_case("PolyFlags"));
        let value = src.slice(arg.value);
        let token_type = if is_flags {
            TokenType::EnumMember
        } else if unreal_syntax::t3d::parse_number(value).is_some() {
            TokenType::Number
        } else {
            TokenType::EnumMember
        };
        push(out, arg.value, token_type, 0);
    }
}
