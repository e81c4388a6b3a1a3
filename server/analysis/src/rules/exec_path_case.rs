//! `exec-path-case`: a path finds its file only when case is ignored (`MODELS\Skull_a.3D` for
//! `Models/Skull_a.3d`).
//!
//! Windows ignores case, and so does UE2's Linux build: `appUnixPath` (Core/Src/UnUnix.cpp,
//! under `__FILE_NOCASE`) looks every part of a path that does not exist up again ignoring
//! case. So for UE2 nothing is reported. For UE1 (and an unknown generation) no engine source
//! shows how its Linux ports read paths, and tools outside the engine on a case-sensitive file
//! system may not find the file: a hint, with the spelling on disk as an editor fix.

use super::{Fixability, RuleMeta};
use crate::exec::{ExecContext, Resolution};
use crate::{Diagnostic, Fix, Severity, TextEdit};

pub static RULE: RuleMeta = RuleMeta {
    code: "exec-path-case",
    severity: Severity::Hint,
    summary: "a path matches its file only when case is ignored",
    fix: Fixability::Unsafe,
    docs: DOCS,
    ..RuleMeta::UNREALSCRIPT
};

/// The rule's documentation: its `docs/rules.md` section after the `Severity:` lead.
const DOCS: &str = r"A path finds its file only when case is ignored (`MODELS\Skull_a.3D` for
`Models/Skull_a.3d`). Windows ignores case, and so does UE2's Linux build (`appUnixPath` in
Core/Src/UnUnix.cpp looks each missing path part up again ignoring case, `__FILE_NOCASE`): so
with the engine set to UE2 nothing is reported. For UE1, whose Linux ports' file reading no
engine source here shows, and for tools on case-sensitive file systems, it is a hint.

<!-- example
//- /Game/MyMod/Models/Skull/Skull_d.3d = mesh-data verts=4 tris=2
//- /Game/MyMod/Models/Skull/Skull_a.3d = mesh-anim verts=4 frames=1
//- /Game/MyMod/Textures/SkullSkin.pcx = pcx 64x64
//- /Game/MyMod/Classes/SkullSkins.uc
#exec TEXTURE IMPORT NAME=SkullSkin FILE=Textures\SkullSkin.pcx
#exec MESHMAP SETTEXTURE MESHMAP=Skull NUM=0 TEXTURE=SkullSkin
-->
```unrealscript
#exec MESH IMPORT MESH=Skull ANIVFILE=MODELS\Skull\Skull_a.3D DATAFILE=Models\Skull\Skull_d.3d
```

Fix: write the path as spelt on disk (`Models\Skull\Skull_a.3d`).

```unrealscript fixed
#exec MESH IMPORT MESH=Skull ANIVFILE=Models\Skull\Skull_a.3d DATAFILE=Models\Skull\Skull_d.3d
```";

pub fn check(ctx: &ExecContext<'_>, out: &mut Vec<Diagnostic>) {
    if ctx.generation == Some(unreal_engine::Generation::Ue2) {
        return;
    }
    for line in &ctx.file.lines {
        for path in &line.paths {
            let Resolution::Found { on_disk, case_differs: true, .. } = &path.resolution else {
                continue;
            };
            out.push(
                RULE.diagnostic(
                    path.value.mark(),
                    format!(
                        "`{}` differs in case from the file on disk `{on_disk}`; Windows ignores case; a build or tool on a case-sensitive file system may not find it",
                        path.value.text
                    ),
                )
                .with_fix(Fix {
                    title: format!("Write `{on_disk}`"),
                    edits: vec![TextEdit { span: path.value.span, new_text: on_disk.clone() }],
                    safe: false,
                }),
            );
        }
    }
}
