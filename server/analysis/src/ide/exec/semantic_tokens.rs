//! Semantic tokens of `#exec` lines, in the T3D legend ([`crate::ide::t3d::semantic_tokens`]):
//! the directive word as a keyword, the command words as a type (like a block kind after
//! `Begin`), keys as parameters, and values by what the key reads: paths and text as
//! strings, numbers, enum words and booleans as enum members, names as variables (with the
//! declaration modifier where the line defines the name).

use unreal_engine::exec::KeyKind;
use unreal_syntax::exec::Arg;
use unreal_syntax::Span;

use super::{key_specs, line_name_uses, ExecSource};
use crate::ide::t3d::semantic_tokens::{SemanticToken, TokenType, MODIFIER_DECLARATION};

/// Tokens of every directive line, or of those intersecting `range`; sorted, disjoint.
pub fn semantic_tokens(src: &ExecSource<'_>, range: Option<Span>) -> Vec<SemanticToken> {
    let mut out = Vec::new();
    let token = |span: Span, token_type: TokenType, modifiers: u32| SemanticToken {
        span,
        token_type,
        modifiers,
    };
    for line in &src.file.lines {
        let directive = line.directive;
        if range.is_some_and(|r| directive.span.end < r.start || directive.span.start > r.end) {
            continue;
        }
        out.push(token(directive.hash_span, TokenType::Keyword, 0));
        if !directive.kind.runs_command() {
            continue;
        }
        for word in [line.line.command, line.line.subcommand].into_iter().flatten() {
            out.push(token(word, TokenType::Type, 0));
        }
        let mut uses = Vec::new();
        line_name_uses(src.text, &src.file, line, &mut uses);
        for arg in &line.line.args {
            let specs = key_specs(line, src.text, *arg, src.generation);
            match *arg {
                Arg::Bare { span } => out.push(token(span, TokenType::Parameter, 0)),
                Arg::Key { key, value } => {
                    if !key.is_empty() {
                        out.push(token(key, TokenType::Parameter, 0));
                    }
                    if value.span.is_empty() {
                        continue;
                    }
                    let defines = uses.iter().any(|u| {
                        u.defines
                            && !u.from_path
                            && value.span.start <= u.span.start
                            && u.span.end <= value.span.end
                    });
                    let token_type = match specs.first().map(|k| k.kind) {
                        Some(KeyKind::Path | KeyKind::Text) | None => TokenType::String,
                        Some(KeyKind::Int | KeyKind::Float) => TokenType::Number,
                        Some(KeyKind::Bool | KeyKind::Enum(_) | KeyKind::Switch) => {
                            TokenType::EnumMember
                        }
                        Some(KeyKind::Name | KeyKind::Object(_)) => TokenType::Variable,
                    };
                    let modifiers = if defines { MODIFIER_DECLARATION } else { 0 };
                    out.push(token(value.span, token_type, modifiers));
                }
            }
        }
    }
    out.sort_by_key(|t| t.span.start);
    out
}
