//! `t3d-zero-gravity`: a UE2 volume whose `Gravity` has a zero `Z`. UT2004's map check calls
//! it an error; the path builder divides by it for jump paths.

use unreal_syntax::t3d::BlockKind;

use super::{RuleMeta, T3dContext};
use crate::t3d::actors::holds_brush;
use crate::{Diagnostic, Generation, Severity};

pub static RULE: RuleMeta = RuleMeta {
    code: "t3d-zero-gravity",
    severity: Severity::Info,
    summary:
        "a volume with zero `Gravity.Z` (UE2): bots' jump paths through it are not built right",
    docs: DOCS,
    ..RuleMeta::T3D_LOCAL
};

/// The rule's documentation: its `docs/rules.md` section after the `Severity:` lead.
const DOCS: &str = r#"A UE2 volume (a `PhysicsVolume` or a subclass: water, lava, low gravity)
sets `Gravity` with `Z=0`. UT2004's map check reports it as an error, "Gravity must not be
zero!": the path builder divides by the volume's `Gravity.Z` when it sets up a `JumpDest`'s
forced paths (the landing speed) and a `JumpPad`'s launch, so those come out as not-a-number
or fall back to a guess. Players and objects simply float, which may be what the volume is
for: so this is an info. A value close to zero (`Z=-1`) keeps the floating and the paths.

Only a `Gravity` written with `Z=0` is judged, on an actor that holds a brush (a volume): a
`Gravity` without `Z` keeps the class's value. UE1's `ZoneInfo.ZoneGravity` is not judged
(the UE1 path builder's source is not public).

Engine basis: UT2004 `Engine/Src/UnErrorChecking.cpp:12-20` (the map check),
`Engine/Src/UnNavigationPoint.cpp:1254-1257` (`AJumpDest::SetupForcedPath`) and `:1273`
(`AJumpPad::addReachSpecs`).

<!-- example engine=ue2 -->
```t3d
Begin Actor Class=PhysicsVolume Name=PhysicsVolume3
    Gravity=(X=0.000000,Y=0.000000,Z=0.000000)
    Begin Brush Name=Model12
    End Brush
    Brush=Model'myLevel.Model12'
End Actor
```

Fix: give `Gravity` a small negative `Z` (`Z=-1`).

```t3d fixed
Begin Actor Class=PhysicsVolume Name=PhysicsVolume3
    Gravity=(X=0.000000,Y=0.000000,Z=-1.000000)
    Begin Brush Name=Model12
    End Brush
    Brush=Model'myLevel.Model12'
End Actor
```"#;

pub fn check(ctx: &T3dContext<'_>, out: &mut Vec<Diagnostic>) {
    if ctx.generation != Some(Generation::Ue2) {
        return;
    }
    for &(block, _) in &ctx.blocks {
        if block.kind != BlockKind::Actor || !holds_brush(block) {
            continue;
        }
        let Some(property) = block.last_property(ctx.text, "Gravity") else { continue };
        let Some(z) = property.value.field(ctx.text, "Z") else { continue };
        if z.value.as_number() == Some(0.0) {
            out.push(RULE.diagnostic(
                property.value.span(),
                "`Gravity` has `Z=0`: UT2004's map check reports \"Gravity must not be zero!\", and jump paths through this volume are built with a division by zero",
            ));
        }
    }
}
