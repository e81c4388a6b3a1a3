//! `t3d-not-t3d`: a file checked as T3D (by its `.t3d` extension) that holds no `Begin`
//! block at all: empty, binary, or some other text. UnrealEd imports nothing from it.

use unreal_syntax::Span;

use super::{Fixability, RuleMeta, Scope, T3dContext};
use crate::{Diagnostic, Severity};

pub static RULE: RuleMeta = RuleMeta {
    code: "t3d-not-t3d",
    severity: Severity::Error,
    summary: "the file holds no T3D block",
    scope: Scope::TopLevel,
    syntax: true,
    fix: Fixability::None,
    docs: DOCS,
};

/// The rule's documentation: its `docs/rules.md` section after the `Severity:` lead.
const DOCS: &str = r"A file checked as T3D (by its `.t3d` extension) holds no `Begin` block at
all: it is empty, binary, or other text. UnrealEd imports nothing from it.

Engine basis: map import (`ULevelFactory::FactoryCreateText`, UT2004
`Editor/Src/UnEdFact.cpp:556-558`, UT v400 `Editor/Src/UnEdFact.cpp:392-394`) skips blanks and
`;` comment lines (`ParseNext`, `Core/Src/UnMisc.cpp:1181-1200`) and then requires `Begin Map`;
if the text starts with anything else it returns the level unchanged. Brush import
(`UPolysFactory`, UT2004 `Editor/Src/UnEdFact.cpp:982-1649`, UT v400
`Editor/Src/UnEdFact.cpp:564-775`) reads T3D polygons only from `Begin Polygon` blocks. A
file without any `Begin` gives neither anything to import. The engine is stricter than this rule:
other text before `Begin Map` also makes map import return empty-handed.

```text
This file was saved from the clipboard as plain text.
```

Fix: export the map or brush again, or rename the file if it is not T3D.

```t3d fixed
Begin Map
End Map
```";

/// What a binary file named `.t3d` is told.
pub const BINARY_MESSAGE: &str = "the file is binary, not T3D text: expected a T3D export starting with `Begin Map`, `Begin Actor` or `Begin PolyList`";

pub fn check(ctx: &T3dContext<'_>, out: &mut Vec<Diagnostic>) {
    if !ctx.blocks.is_empty() || !ctx.parse.errors.is_empty() {
        return;
    }
    let first_line = ctx.parse.file.items.first().map(unreal_syntax::t3d::Item::span);
    let message = if ctx.text.trim().is_empty() {
        "the file is empty: expected a T3D export starting with `Begin Map`, `Begin Actor` or `Begin PolyList`"
            .to_owned()
    } else if ctx.text.contains('\0') {
        BINARY_MESSAGE.to_owned()
    } else {
        "no `Begin` block in the file: expected a T3D export starting with `Begin Map`, `Begin Actor` or `Begin PolyList`".to_owned()
    };
    // Point at the first line of text, but never print binary bytes into a code frame.
    let span = match first_line {
        Some(line) if !ctx.text.contains('\0') => {
            Span::new(line.start, line.end.min(line.start + 200))
        }
        _ => Span::empty_at(0),
    };
    out.push(RULE.diagnostic(span, message));
}
