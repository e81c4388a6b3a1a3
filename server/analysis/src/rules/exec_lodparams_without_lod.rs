//! `exec-lodparams-without-lod`: `MESH LODPARAMS` for a mesh imported with `MLOD=0`. In UE1
//! (UT v400 on) `MESH IMPORT` builds a LOD mesh unless `MLOD=` is false (`UnMeshEd.cpp`); for a
//! plain mesh `LODPARAMS` logs "Need a LOD mesh (MLOD=1)" and sets nothing (`UnEdSrv.cpp`).
//! UE2 reads `MLOD=` but always builds a `UVertMesh`, a LOD mesh, so there the parameters
//! apply: no finding. With the generation unknown, an info says what depends on it.

use unreal_engine::Generation;

use super::RuleMeta;
use crate::exec::ExecContext;
use crate::{Diagnostic, Label, Severity};

pub static RULE: RuleMeta = RuleMeta {
    code: "exec-lodparams-without-lod",
    severity: Severity::Warning,
    summary: "`MESH LODPARAMS` for a mesh imported with `MLOD=0`",
    docs: DOCS,
    ..RuleMeta::UNREALSCRIPT
};

/// The rule's documentation: its `docs/rules.md` section after the `Severity:` lead.
const DOCS: &str = r#"In UE1, `MESH LODPARAMS` for a mesh imported with a false `MLOD=` (`MLOD=0`,
or a word `ParseUBOOL` does not take as true, such as `MLOD=2`). UE1 (UT v400 on) builds a LOD
mesh unless `MLOD=` is false; for a plain mesh it warns "Need a LOD mesh (MLOD=1)" and
ignores the parameters. UE2 always builds a LOD mesh, so there is no finding for UE2, and an
info when the engine is unknown.

Engine basis: in UT v400, `MLOD=` is read with `ParseUBOOL` (only `1`, `True` and `On` mean
yes) and a false value makes `MESH IMPORT` create a plain `UMesh` instead of a `ULodMesh`
(`Editor/Src/UnMeshEd.cpp:140-143`); `MESH LODPARAMS` on such a mesh logs "Need a LOD mesh
(MLOD=1) for these LODPARAMS." and sets nothing (`Editor/Src/UnEdSrv.cpp:370-407`). In UT2004,
`MLOD=` is still parsed (`Editor/Src/UnEdSrv.cpp:1231`) but `meshVertImport` always creates a
`UVertMesh` (`Editor/Src/UnMeshEd.cpp:134`), which is a `ULodMesh`
(`Engine/Inc/UnVertMesh.h:149`), so `LODPARAMS` applies its values (UnEdSrv.cpp:1302-1338):
no finding for UE2.

<!-- example
//- options engine=ue1
//- /Game/MyMod/Models/Skull_d.3d = mesh-data verts=4 tris=2 slots=1
//- /Game/MyMod/Models/Skull_a.3d = mesh-anim verts=4 frames=30
//- /Game/MyMod/Textures/SkullSkin.pcx = pcx 64x64
//- /Game/MyMod/Classes/SkullSkins.uc
#exec TEXTURE IMPORT NAME=SkullSkin FILE=Textures\SkullSkin.pcx
#exec MESHMAP SETTEXTURE MESHMAP=Skull NUM=1 TEXTURE=SkullSkin
-->
```unrealscript
#exec MESH IMPORT MESH=Skull ANIVFILE=Models\Skull_a.3d DATAFILE=Models\Skull_d.3d MLOD=0
#exec MESH LODPARAMS MESH=Skull STRENGTH=0.5
```

Fix: drop `MLOD=0`, or the `LODPARAMS` line.

```unrealscript fixed
#exec MESH IMPORT MESH=Skull ANIVFILE=Models\Skull_a.3d DATAFILE=Models\Skull_d.3d
#exec MESH LODPARAMS MESH=Skull STRENGTH=0.5
```"#;

pub fn check(ctx: &ExecContext<'_>, out: &mut Vec<Diagnostic>) {
    if ctx.generation == Some(Generation::Ue2) {
        return;
    }
    for (line, _) in ctx.commands().filter(|(l, _)| l.is("MESH", Some("LODPARAMS"))) {
        let Some(mesh) = line.value(ctx.text, "MESH") else { continue };
        let Some(found) = ctx.table.mesh(&mesh.text) else { continue };
        let Some(source) = found.definition.mesh.as_ref().filter(|m| !m.lod) else { continue };
        // The span is in the defining file; its text is at hand only when that is this file.
        let written = match (source.mlod_span, found.file) {
            (Some(span), None) => format!("`{}`", span.text(ctx.text)),
            _ => "a false `MLOD=`".to_owned(),
        };
        let mut diagnostic = RULE.diagnostic(
            line.words_span(),
            format!(
                "mesh `{}` was imported with {written}, which the engine reads as false, so it has no LOD data; the engine warns \"Need a LOD mesh (MLOD=1)\" and ignores this line",
                found.definition.name
            ),
        );
        if ctx.generation.is_none() {
            diagnostic.message.push_str(
                " (in UE1; UE2 always builds a LOD mesh and applies it: set the engine to check)",
            );
            diagnostic = diagnostic.with_severity(Severity::Info);
        }
        diagnostic.labels.push(Label {
            file: found.file.map(std::path::Path::to_path_buf),
            span: source.mlod_span.unwrap_or(found.definition.span),
            message: "read as false here".to_owned(),
        });
        out.push(diagnostic);
    }
}
