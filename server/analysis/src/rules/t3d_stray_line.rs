//! `t3d-stray-line`: a line outside every block in a file that does have blocks. UnrealEd
//! reads only what stands inside `Begin`/`End`, so the line is silently lost: usually the
//! remains of a bad copy and paste. Before `Begin Map` it costs the whole map: the map
//! importer skips only blanks and `;` comment lines (`ParseNext`, `Core/Src/UnMisc.cpp`) and
//! then requires `Begin Map`, importing nothing otherwise (`ULevelFactory`,
//! `Editor/Src/UnEdFact.cpp`): an error. `;` lines are comments to it and never reported.

use unreal_syntax::t3d::BlockKind;

use super::{RuleMeta, Scope, T3dContext};
use crate::{Diagnostic, Severity};

pub static RULE: RuleMeta = RuleMeta {
    code: "t3d-stray-line",
    severity: Severity::Warning,
    summary: "a line outside every `Begin`/`End` block",
    scope: Scope::TopLevel,
    docs: DOCS,
    ..RuleMeta::T3D_LOCAL
};

/// The rule's documentation: its `docs/rules.md` section after the `Severity:` lead.
const DOCS: &str = r"A line outside every `Begin`/`End` block in a file that has blocks.
UnrealEd reads only what stands inside blocks, so the line is silently lost; it is usually
left over from a bad copy and paste. A line before `Begin Map` is an error: the map importer
then imports nothing at all. Lines starting with `;` are comments to the importer and never
reported.

Engine basis: the map importer's line loop (UT2004 `Editor/Src/UnEdFact.cpp:564-768`, UT v400
`Editor/Src/UnEdFact.cpp:399` on) acts only on `End Map` (where it stops), `Begin Brush`,
`Begin Actor` and, in UE2, `Begin Surface` (UnEdFact.cpp:569, 574, 607, 663); every other line
at map level is passed over without a message, and nothing after `End Map` is read. A line
before `Begin Map` is worse than lost: the importer requires `Begin Map` first and otherwise
imports nothing (UnEdFact.cpp:556-558).

```t3d
StrayBeforeMap=1   // error: nothing is imported
Begin Map
End Map
StrayKey=1         // warning: ignored
```

Fix: move the line into the block it belongs to, or delete it.

```t3d fixed
Begin Map
End Map
```";

pub fn check(ctx: &T3dContext<'_>, out: &mut Vec<Diagnostic>) {
    if ctx.blocks.is_empty() {
        return;
    }
    let items = &ctx.parse.file.items;
    let first_block = items.iter().position(|item| item.as_block().is_some());
    let map_first = first_block
        .and_then(|i| items[i].as_block())
        .is_some_and(|block| block.kind == BlockKind::Map);
    let reported_by_structure: Vec<_> = ctx.parse.errors.iter().map(|e| e.span).collect();
    for (index, item) in items.iter().enumerate() {
        let text = item.span().text(ctx.text);
        if item.as_block().is_some()
            || reported_by_structure.contains(&item.span())
            || text.trim_start().starts_with(';')
        {
            continue;
        }
        let before_map = map_first && first_block.is_some_and(|first| index < first);
        let diagnostic = if before_map {
            RULE.diagnostic(
                item.span(),
                format!(
                    "`{text}` stands before `Begin Map`; UnrealEd requires `Begin Map` first and imports nothing from this file"
                ),
            )
            .with_severity(Severity::Error)
        } else {
            RULE.diagnostic(
                item.span(),
                format!("`{text}` stands outside every block; UnrealEd ignores it"),
            )
        };
        out.push(diagnostic);
    }
}
