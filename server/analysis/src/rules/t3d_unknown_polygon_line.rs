//! `t3d-unknown-polygon-line`: a line inside `Begin Polygon` that is none of `Origin`,
//! `Normal`, `TextureU`, `TextureV`, `Pan` or `Vertex`. UnrealEd skips it without a word
//! (`UPolysFactory::FactoryCreateText`, Editor/Src/UnEdFact.cpp, reads only those), so a typo
//! such as `Vertx` silently drops a vertex.
//!
//! Licensee editors write lines of their own (`SurfaceColor` in SWAT 4, Tribes: Vengeance and
//! XIII exports), which their importers read. So a line is a warning only when the settings
//! declare a stock game; otherwise a typo of a known line (within two letters of one) still is,
//! and anything else is an info that says it cannot be checked.

use unreal_syntax::t3d::{Item, LineKeyword};

use super::{RuleMeta, T3dContext};
use crate::{Diagnostic, Severity};

pub static RULE: RuleMeta = RuleMeta {
    code: "t3d-unknown-polygon-line",
    severity: Severity::Warning,
    summary: "a line inside a polygon that UnrealEd ignores",
    docs: DOCS,
    ..RuleMeta::T3D_LOCAL
};

/// The rule's documentation: its `docs/rules.md` section after the `Severity:` lead.
const DOCS: &str = r#"A line inside `Begin Polygon` that is not `Origin`, `Normal`, `TextureU`,
`TextureV`, `Pan` or `Vertex`. UnrealEd skips it silently (`UPolysFactory::FactoryCreateText`,
Editor/Src/UnEdFact.cpp, reads only those), so a typo drops a vertex.

Licensee editors write lines of their own (`SurfaceColor` in SWAT 4, Tribes: Vengeance and XIII
exports), which their importers read. So an unknown line is a warning only when the settings
declare a stock game (`game = "unreal"`, `"ut99"`, `"ut2003"` or `"ut2004"`), or when it is a
near miss of a known line (within two letters, `Vertx`); otherwise it is an info that says it
is checked only against a stock game.

```t3d
   Begin Polygon
      Vertx    +00000.000000,+00000.000000,+00000.000000
```

Fix: correct the keyword (`Vertex`) or remove the line.

```t3d fixed
   Begin Polygon
      Vertex   +00000.000000,+00000.000000,+00000.000000
```"#;

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
            let message = format!(
                "`{line}` is not a polygon line; UnrealEd ignores it. Expected `Origin`, \
                 `Normal`, `TextureU`, `TextureV`, `Pan` or `Vertex`"
            );
            let word = line.split_whitespace().next().unwrap_or_default();
            // The edit distance is at least the difference in length: a word more than two
            // characters longer or shorter than a keyword is no typo of it, and a long word
            // of junk is not compared character by character with every keyword (counted up
            // to 16 characters, past the longest keyword's 8 + 2).
            let chars = word.chars().take(16).count();
            let lower = word.to_ascii_lowercase();
            let typo = POLYGON_LINES.iter().any(|k| {
                let name = k.canonical_name();
                name.len().abs_diff(chars) <= 2
                    && crate::index::edit_distance(&lower, &name.to_ascii_lowercase()) <= 2
            });
            out.push(if ctx.game.is_some_and(unreal_engine::Game::is_stock) || typo {
                RULE.diagnostic(span, message)
            } else {
                RULE.diagnostic(
                    span,
                    format!(
                        "{message} (licensee editors write lines of their own: checked only \
                         against a stock game, set `game` such as \"ut99\" or \"ut2004\")"
                    ),
                )
                .with_severity(Severity::Info)
            });
        }
    }
}
