//! `t3d-unknown-polygon-line`: a line inside `Begin Polygon` that is none of `Origin`,
//! `Normal`, `TextureU`, `TextureV`, `Pan` or `Vertex`. UnrealEd skips it without a word, so
//! a typo such as `Vertx` silently drops a vertex.

use unreal_syntax::t3d::{Item, LineKeyword};

use super::{RuleMeta, T3dContext};
use crate::{Diagnostic, Severity};

pub static RULE: RuleMeta = RuleMeta {
    code: "t3d-unknown-polygon-line",
    severity: Severity::Warning,
    summary: "a line inside a polygon that UnrealEd ignores",
};

const POLYGON_LINES: [LineKeyword; 6] = [
    LineKeyword::Origin,
    LineKeyword::Normal,
    LineKeyword::TextureU,
    LineKeyword::TextureV,
    LineKeyword::Pan,
    LineKeyword::Vertex,
];

pub fn check(ctx: &T3dContext<'_>, out: &mut Vec<Diagnostic>) {
    for polygon in &ctx.polygons {
        for child in &polygon.block.children {
            let span = match child {
                Item::Vector(v) if POLYGON_LINES.contains(&v.keyword) => continue,
                Item::Keyword(k) if POLYGON_LINES.contains(&k.keyword) => continue,
                Item::Block(b) => b.begin_span,
                other => other.span(),
            };
            let line = span.text(ctx.text);
            out.push(RULE.diagnostic(
                span,
                format!(
                    "`{line}` is not a polygon line; UnrealEd ignores it. Expected `Origin`, \
                     `Normal`, `TextureU`, `TextureV`, `Pan` or `Vertex`"
                ),
            ));
        }
    }
}
