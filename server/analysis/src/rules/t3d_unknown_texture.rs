//! `t3d-unknown-texture`: a polygon's `Texture=` names no texture of the indexed packages.
//! UnrealEd imports the polygon with no texture (the default surface) and says nothing.
//! Bare names (UE1 writes `Texture=rClfBsB2`) are looked up in every package, as the editor
//! does among its loaded packages; `Package.Group.Name` must match exactly. Runs only with a
//! package index (a game directory or package paths).

use unreal_syntax::t3d::BlockKind;

use super::t3d_unknown_object::Reporter;
use super::{Fixability, RuleMeta, T3dContext};
use crate::index::ObjectKind;
use crate::{Diagnostic, Severity};

pub static RULE: RuleMeta = RuleMeta {
    code: "t3d-unknown-texture",
    severity: Severity::Warning,
    summary: "a polygon's `Texture=` names no texture of the indexed packages",
    fix: Fixability::Unsafe,
    docs: DOCS,
    ..RuleMeta::T3D_LOCAL
};

/// The rule's documentation: its `docs/rules.md` section after the `Severity:` lead.
const DOCS: &str = r"A polygon's `Texture=` names no texture of the indexed packages. A bare
name (UE1 writes `Texture=rClfBsB2`) is looked for in every package, as the editor does among
its loaded packages; `Package.Group.Name` must match exactly, groups included. UnrealEd
imports the polygon with the default texture and says nothing. When the `Engine` or `Editor`
package is not indexed (a game folder without them, or `package-paths` alone), a bare name or
a package the index does not have cannot be checked: the engine's and UnrealEd's own textures
(`Engine.DefaultTexture`, `Editor.Bkgnd`) live there. The finding is then an info that says
so, never a warning; a `Package.Name` inside an indexed package is always checked.

<!-- example index=indexed -->
```t3d
Begin PolyList
   Begin Polygon Texture=checkers_bsae Flags=0
      Vertex   +00000.000000,+00000.000000,+00000.000000
      Vertex   +00000.000000,+00128.000000,+00000.000000
      Vertex   +00128.000000,+00128.000000,+00000.000000
      Vertex   +00128.000000,+00000.000000,+00000.000000
   End Polygon
End PolyList
```

Fix: the texture's name as the package spells it (`checkers_base`), or add the package that
holds it to the game directory or `package-paths`.

```t3d fixed
Begin PolyList
   Begin Polygon Texture=checkers_base Flags=0
      Vertex   +00000.000000,+00000.000000,+00000.000000
      Vertex   +00000.000000,+00128.000000,+00000.000000
      Vertex   +00128.000000,+00128.000000,+00000.000000
      Vertex   +00128.000000,+00000.000000,+00000.000000
   End Polygon
End PolyList
```";

pub fn check(ctx: &T3dContext<'_>, out: &mut Vec<Diagnostic>) {
    let Some(index) = ctx.packages else { return };
    let mut reporter = Reporter::new(&RULE, index, ObjectKind::Texture);
    for &(block, _) in &ctx.blocks {
        if block.kind != BlockKind::Polygon {
            continue;
        }
        if let Some((attribute, value)) = block.attribute(ctx.text, "Texture") {
            reporter.check(attribute.value, value, &format!("texture `{value}`"), out);
        }
    }
}
