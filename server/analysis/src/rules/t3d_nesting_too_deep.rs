//! `t3d-nesting-too-deep`: blocks nested beyond what any real file uses; the parser skips
//! them so that nothing downstream can run out of stack. The limit is unreal-ls's, not the
//! engine's (which recurses into `Begin Object` without a limit and reads other blocks as flat
//! lines), so this is an info: what stands inside is not checked.

use unreal_syntax::t3d::SyntaxErrorKind;

use super::{RuleMeta, T3dContext};
use crate::{Diagnostic, Severity};

pub static RULE: RuleMeta = RuleMeta {
    code: "t3d-nesting-too-deep",
    severity: Severity::Info,
    summary: "blocks nest deeper than 64 levels",
    syntax: true,
    docs: DOCS,
    ..RuleMeta::T3D_LOCAL
};

/// The rule's documentation: its `docs/rules.md` section after the `Severity:` lead.
const DOCS: &str = r"Blocks nest deeper than 64 levels. No real file nests more than six deep;
unreal-ls's parser skips the deeper blocks so that nothing can run out of stack, so what
stands inside them is not checked. The limit is unreal-ls's, not the engine's.

Engine basis: none. The 64-level limit belongs to unreal-ls's parser, not to the engine. The
engine only recurses into nested `Begin Object` sub-objects (`ImportProperties`, UT2004
`Editor/Src/UnEditor.cpp:823-852`), with no depth limit, and reads every other nested block as
flat lines. Not found in the available sources: any engine limit on nesting depth.

```t3d
Begin Map
Begin Object Class=Node Name=Node0
... (the line above 64 more times)
```

Fix: the file is generated wrongly; regenerate it.

```t3d fixed
Begin Map
Begin Object Class=Node Name=Node0
End Object
End Map
```";

pub fn check(ctx: &T3dContext<'_>, out: &mut Vec<Diagnostic>) {
    for error in ctx.parse.errors.iter().filter(|e| e.kind == SyntaxErrorKind::TooDeep) {
        out.push(RULE.diagnostic(error.span, error.message.clone()));
    }
}
