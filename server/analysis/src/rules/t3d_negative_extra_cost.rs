//! `t3d-negative-extra-cost`: a UE2 navigation point with a negative `ExtraCost`. The game
//! raises it to zero when play begins, so the path is not made more attractive to bots.

use super::{RuleMeta, T3dContext};
use crate::{Diagnostic, Generation, Severity};

pub static RULE: RuleMeta = RuleMeta {
    code: "t3d-negative-extra-cost",
    severity: Severity::Warning,
    summary: "a navigation point's negative `ExtraCost` (UE2): play raises it to zero",
    docs: DOCS,
    ..RuleMeta::T3D_LOCAL
};

/// The rule's documentation: its `docs/rules.md` section after the `Severity:` lead.
const DOCS: &str = r#"A navigation point (a `PathNode`, `JumpSpot`, any `NavigationPoint`)
of a UE2 map has a negative `ExtraCost`. A mapper lowers the cost to make bots prefer the
path; UE2 does not allow it: `NavigationPoint.PostBeginPlay` sets
`ExtraCost = Max(ExtraCost, 0)` when play begins, so the point costs what a point without
`ExtraCost` costs. UT2004's map check reports it as an error: "Extra Cost cannot be less
than zero!".

UE1 maps are not judged: their route finder is native code whose source is not public, and
UE1's `NavigationPoint` script does not clamp the value.

Engine basis: UT2004 `Engine/Classes/NavigationPoint.uc:73-77` (the clamp) and
`Engine/Src/UnErrorChecking.cpp:246-247` (the map check).

<!-- example engine=ue2 -->
```t3d
Begin Actor Class=PathNode Name=PathNode12
    ExtraCost=-200
End Actor
```

Fix: raise the cost of the other paths instead (a positive `ExtraCost` on them), or remove
the negative value.

```t3d fixed
Begin Actor Class=PathNode Name=PathNode12
End Actor
```"#;

pub fn check(ctx: &T3dContext<'_>, out: &mut Vec<Diagnostic>) {
    if ctx.generation != Some(Generation::Ue2) {
        return;
    }
    for block in ctx.actors() {
        let Some(property) = block.last_property(ctx.text, "ExtraCost") else { continue };
        let Some(cost) = property.value.as_number() else { continue };
        if cost < 0.0 {
            out.push(RULE.diagnostic(
                property.value.span(),
                format!(
                    "`ExtraCost={}` is negative: UE2 raises it to 0 when play begins, so bots do not prefer this path",
                    property.value.span().text(ctx.text).trim()
                ),
            ));
        }
    }
}
