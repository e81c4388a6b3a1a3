//! `exec-ignored-command`: the engine accepts the line and does nothing with it.
//!
//! `MESHMAP NEW`, which old exporters still write although meshmaps were merged into meshes
//! before UE1 v400 (no handler in UT v400's or UT2004's `SafeExec`), is boilerplate: nothing
//! is lost, so a hint tagged unnecessary. A command whose author expected an effect
//! (`STATICMESH SETPROJECTION`: `SafeExec`'s STATICMESH branch handles only IMPORT) is a warning.

use unreal_engine::exec::Sub;

use super::{Fixability, RuleMeta};
use crate::exec::ExecContext;
use crate::{Diagnostic, Fix, Severity, TextEdit};

pub static RULE: RuleMeta = RuleMeta {
    code: "exec-ignored-command",
    severity: Severity::Warning,
    summary: "an `#exec` command the engine accepts and ignores",
    fix: Fixability::Safe,
    docs: DOCS,
    ..RuleMeta::UNREALSCRIPT
};

/// The rule's documentation: its `docs/rules.md` section after the `Severity:` lead.
const DOCS: &str = r"The engine accepts the command and does nothing with it. `STATICMESH
SETPROJECTION` (UE2) does nothing in an `#exec` line: `#exec` runs through `SafeExec`, whose
STATICMESH branch handles only IMPORT (UT2004 Editor/Src/UnEdSrv.cpp:422-429), so the
projection the author wanted is lost.

`MESHMAP NEW`, which old exporters still write everywhere although meshmaps were merged into
meshes before UE1 v400 (no handler in UT v400's or UT2004's `SafeExec`), loses nothing: it is a
hint tagged unnecessary.

```unrealscript
#exec STATICMESH SETPROJECTION MESH=MonitorAMesh AREAID=0
```

<!-- example
//- /Game/MyMod/Models/Skull_d.3d = mesh-data verts=4 tris=2
//- /Game/MyMod/Models/Skull_a.3d = mesh-anim verts=4 frames=1
//- /Game/MyMod/Textures/SkullSkin.pcx = pcx 64x64
//- /Game/MyMod/Classes/SkullSkins.uc
#exec TEXTURE IMPORT NAME=SkullSkin FILE=Textures\SkullSkin.pcx
#exec MESHMAP SETTEXTURE MESHMAP=Skull NUM=0 TEXTURE=SkullSkin
-->
```unrealscript
#exec MESH IMPORT MESH=Skull ANIVFILE=Models\Skull_a.3d DATAFILE=Models\Skull_d.3d
#exec MESHMAP NEW MESHMAP=Skull MESH=Skull            // hint: does nothing, changes nothing
#exec MESHMAP SCALE MESHMAP=Skull X=0.1 Y=0.1 Z=0.2
```

Fix: remove the line (and do what it meant another way).

```unrealscript fixed
#exec MESH IMPORT MESH=Skull ANIVFILE=Models\Skull_a.3d DATAFILE=Models\Skull_d.3d
#exec MESHMAP SCALE MESHMAP=Skull X=0.1 Y=0.1 Z=0.2
```";

/// Commands that old tools write everywhere and that never did anything the author relies on.
fn is_boilerplate(command: &str, sub: Sub) -> bool {
    matches!((command, sub), ("MESHMAP", Sub::Word("NEW")))
}

pub fn check(ctx: &ExecContext<'_>, out: &mut Vec<Diagnostic>) {
    for (line, m) in ctx.commands() {
        let Some(reason) = m.spec.ignored else { continue };
        let whole = line.directive.span;
        // The line and its line break.
        let end = ctx.text.get(whole.end as usize..).map_or(whole.end as usize, |rest| {
            whole.end as usize + rest.find('\n').map_or(rest.len(), |p| p + 1)
        });
        let diagnostic = RULE
            .diagnostic(
                line.words_span(),
                format!("`{}` does nothing: {reason}", m.spec.display_name()),
            )
            .with_fix(Fix {
                title: "Remove the line".to_owned(),
                edits: vec![TextEdit {
                    span: unreal_syntax::Span::from_range(whole.start as usize..end),
                    new_text: String::new(),
                }],
                safe: true,
            });
        out.push(if is_boilerplate(m.spec.command, m.spec.sub) {
            diagnostic.unnecessary()
        } else {
            diagnostic
        });
    }
}
