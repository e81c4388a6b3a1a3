//! `exec-unresolved-path`: in a `.uc` outside `Classes/` (which UCC never compiles), a path
//! resolves from no folder that could be its package folder, but a file of that name lies
//! beside the `.uc`. Such files are usually exporter templates written next to the model;
//! moved into `Classes/` as they are, their paths would not resolve.

use super::{Fixability, RuleMeta};
use crate::exec::{ExecContext, Resolution};
use crate::{Diagnostic, Fix, Label, Severity, TextEdit};

pub static RULE: RuleMeta = RuleMeta {
    code: "exec-unresolved-path",
    severity: Severity::Info,
    summary: "outside `Classes/`: a path resolves from no package folder, though its file lies beside the `.uc`",
    fix: Fixability::Unsafe,
    docs: DOCS,
    ..RuleMeta::UNREALSCRIPT
};

/// The rule's documentation: its `docs/rules.md` section after the `Severity:` lead.
const DOCS: &str = r"In a `.uc` outside `Classes/` (which UCC never compiles; usually an
exporter's template next to the model), a path resolves from no folder that could be its
package folder, although a file of that name lies beside the `.uc`. A hint names the file.
The engine does nothing with the file as it stands, so this predicts what happens once it is
moved into `Classes/`: an info.

Engine basis: UCC compiles only `..\<Package>\Classes\*.uc` (UT2004
`Editor/Src/UMakeCommandlet.cpp:74-92`, UT v400 `Editor/Src/UMakeCommandlet.cpp:68-76`), so a
`.uc` anywhere else is never compiled and its directives never run; once moved under
`Classes/`, its paths would resolve from the package folder
(`Editor/Src/UnScrCom.cpp:6604-6607`). The engine does nothing with this file as it stands: the
finding predicts what would happen after the move.

<!-- example
//- /Game/MyMod/Models/Skull/Skull.uc = example
//- /Game/MyMod/Models/Skull/Skull_d.3d = mesh-data verts=4 tris=2
//- /Game/MyMod/Models/Skull/Skull_a.3d = mesh-anim verts=4 frames=1
//- /Game/MyMod/Classes/MyModGame.uc
class MyModGame extends DeathMatchPlus;
-->
```unrealscript
// Models/Skull/Skull.uc
#exec MESH IMPORT MESH=Skull ANIVFILE=MODELS\Skull_a.3d DATAFILE=MODELS\Skull_d.3d
```

Fix: write the path from the folder above `Classes/`
(`Models\Skull\Skull_a.3d`), and move the directives into a class under `Classes/`.

<!-- example
//- /Game/MyMod/Classes/Skull.uc = example
//- /Game/MyMod/Models/Skull/Skull_d.3d = mesh-data verts=4 tris=2
//- /Game/MyMod/Models/Skull/Skull_a.3d = mesh-anim verts=4 frames=1
//- /Game/MyMod/Textures/SkullSkin.pcx = pcx 64x64
//- /Game/MyMod/Classes/SkullSkins.uc
#exec TEXTURE IMPORT NAME=SkullSkin FILE=Textures\SkullSkin.pcx
#exec MESHMAP SETTEXTURE MESHMAP=Skull NUM=0 TEXTURE=SkullSkin
-->
```unrealscript fixed
// Classes/Skull.uc
#exec MESH IMPORT MESH=Skull ANIVFILE=Models\Skull\Skull_a.3d DATAFILE=Models\Skull\Skull_d.3d
```";

pub fn check(ctx: &ExecContext<'_>, out: &mut Vec<Diagnostic>) {
    for line in &ctx.file.lines {
        for path in &line.paths {
            let Resolution::Missing { beside: Some(found) } = &path.resolution else { continue };
            let shown = ctx.show(found);
            let mut diagnostic = RULE.diagnostic(
                path.value.mark(),
                format!(
                    "`{}` resolves from no package folder (this file is outside Classes/, so UCC never compiles it)",
                    path.value.text
                ),
            );
            diagnostic.labels.push(Label {
                file: Some(found.clone()),
                span: unreal_syntax::Span::from_range(0..0),
                message: format!(
                    "hint: the file exists here, as `{shown}` from the folder above Classes/"
                ),
            });
            let replacement = shown.replace('/', "\\");
            out.push(diagnostic.with_fix(Fix {
                title: format!("Write `{replacement}`"),
                edits: vec![TextEdit { span: path.value.span, new_text: replacement }],
                safe: false,
            }));
        }
    }
}
