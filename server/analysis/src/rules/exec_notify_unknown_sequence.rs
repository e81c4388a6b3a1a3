//! `exec-notify-unknown-sequence`: `MESH NOTIFY` names a sequence that no `MESH SEQUENCE` of
//! the package defines for that mesh. The engine logs "Unknown sequence in MESH NOTIFY" and
//! drops the notify, so the function is never called.

use super::RuleMeta;
use crate::exec::ExecContext;
use crate::{Diagnostic, Severity};

pub static RULE: RuleMeta = RuleMeta {
    code: "exec-notify-unknown-sequence",
    severity: Severity::Warning,
    summary: "`MESH NOTIFY` for a sequence the mesh does not have",
    docs: DOCS,
    ..RuleMeta::UNREALSCRIPT
};

/// The rule's documentation: its `docs/rules.md` section after the `Severity:` lead.
const DOCS: &str = r#"`MESH NOTIFY` names a sequence that no `MESH SEQUENCE` of the package defines
for that vertex mesh. The engine logs "Unknown sequence in MESH NOTIFY" and drops the notify.

Engine basis: `MESH NOTIFY` looks the sequence up on the mesh when the line runs and, if it is
not there, logs "Unknown sequence in MESH NOTIFY" and adds nothing (UT v400
`Editor/Src/UnEdSrv.cpp:447-465`; UT2004 `Editor/Src/UnEdSrv.cpp:1420-1437`, "Unknown vertex
animation sequence in MESH NOTIFY"). Directives run in order, so a sequence that only a later
line defines is unknown too; this rule looks at the whole package and does not report that
case. Nor does it judge a package whose classes `#call` a macro file: UCC runs each of its lines
as a directive, so it may add `MESH SEQUENCE` lines, and macro files are not read here
(`exec-undefined-name` says so at the call).

<!-- example
//- /Game/MyMod/Models/Skull_d.3d = mesh-data verts=4 tris=2 slots=1
//- /Game/MyMod/Models/Skull_a.3d = mesh-anim verts=4 frames=40
//- /Game/MyMod/Textures/SkullSkin.pcx = pcx 64x64
//- /Game/MyMod/Classes/Skull.uc
class Skull extends Actor;
#exec MESH IMPORT MESH=Skull ANIVFILE=Models\Skull_a.3d DATAFILE=Models\Skull_d.3d
#exec TEXTURE IMPORT NAME=SkullSkin FILE=Textures\SkullSkin.pcx
#exec MESHMAP SETTEXTURE MESHMAP=Skull NUM=1 TEXTURE=SkullSkin
-->
```unrealscript
#exec MESH SEQUENCE MESH=Skull SEQ=Spin STARTFRAME=0 NUMFRAMES=30
#exec MESH NOTIFY MESH=Skull SEQ=Bounce TIME=0.5 FUNCTION=PlayBounce
```

Fix: name a defined sequence, or define it.

```unrealscript fixed
#exec MESH SEQUENCE MESH=Skull SEQ=Spin STARTFRAME=0 NUMFRAMES=30
#exec MESH SEQUENCE MESH=Skull SEQ=Bounce STARTFRAME=30 NUMFRAMES=10
#exec MESH NOTIFY MESH=Skull SEQ=Bounce TIME=0.5 FUNCTION=PlayBounce
```"#;

pub fn check(ctx: &ExecContext<'_>, out: &mut Vec<Diagnostic>) {
    for (line, _) in ctx.commands().filter(|(l, _)| l.is("MESH", Some("NOTIFY"))) {
        let (Some(mesh), Some(seq)) = (line.value(ctx.text, "MESH"), line.value(ctx.text, "SEQ"))
        else {
            continue;
        };
        // Only meshes this package imports as vertex meshes: their sequences are all here.
        let Some(found) = ctx.table.mesh(&mesh.text) else { continue };
        if found.definition.mesh.as_ref().is_none_or(|m| m.skeletal) {
            continue;
        }
        if ctx
            .table
            .sequences(&mesh.text)
            .any(|s| s.definition.name.eq_ignore_ascii_case(&seq.text))
        {
            continue;
        }
        // A macro file the package calls may add sequences (`MESH SEQUENCE` lines run as
        // directives), and it is not read: nothing to say.
        if ctx.table.macro_call().is_some() {
            continue;
        }
        let known: Vec<String> =
            ctx.table.sequences(&mesh.text).map(|s| format!("`{}`", s.definition.name)).collect();
        let known = if known.is_empty() {
            "it has none".to_owned()
        } else {
            format!("it has {}", known.join(", "))
        };
        out.push(RULE.diagnostic(
            seq.mark(),
            format!(
                "mesh `{}` has no sequence `{}` ({known}); the engine logs \"Unknown sequence in MESH NOTIFY\"",
                mesh.text, seq.text
            ),
        ));
    }
}
