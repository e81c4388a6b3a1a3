//! `exec-missing-file`: a path names no file, searched from the package folder (the parent of
//! `Classes/`) ignoring case. UCC fails to import it, and everything that uses the object
//! fails after it.

use super::RuleMeta;
use crate::exec::{ExecContext, Expect, Resolution};
use crate::{Diagnostic, Severity};

pub static RULE: RuleMeta = RuleMeta {
    code: "exec-missing-file",
    severity: Severity::Error,
    summary: "a file a directive imports does not exist",
    docs: DOCS,
    ..RuleMeta::UNREALSCRIPT
};

/// The rule's documentation: its `docs/rules.md` section after the `Severity:` lead.
const DOCS: &str = r#"A path names no file, searched from the package folder ignoring case. UCC
fails to import it. With a game directory set, `LOAD` also finds game packages by name, as
the engine does.

Engine basis: before compiling a class, UCC makes `..\<Package>` (the folder above `Classes/`,
seen from `System/`) the current folder (UT2004 `Editor/Src/UnScrCom.cpp:6604-6607`, UT v400
`Editor/Src/UnScrCom.cpp:5239-5241`), so relative paths resolve from the package folder. A file
that cannot be opened loses the import: `TEXTURE IMPORT` logs "Import texture ... failed" (an
error in UT2004, `Editor/Src/UnEdSrv.cpp:712`; a warning in UT v400,
`Editor/Src/UnEdSrv.cpp:207`); `MESH IMPORT` logs "Error opening file" and creates no mesh
(UT2004 `Editor/Src/UnMeshEd.cpp:105-123`, UT v400 `Editor/Src/UnMeshEd.cpp:112-130`); a
skeletal mesh or animation file stops UCC with a fatal error (UT2004 UnMeshEd.cpp:342, 548).

`OBJ LOAD FILE=` of a package is searched from the package folder too; where the folders the
path names exist there but the file does not, the engine cannot load it either: LoadPackage
tries the path as written and then each package path with the whole relative path appended,
which a path with folders never matches (`appFindPackageFile`, UT2004
`Core/Src/UnMisc.cpp:1810-1880`), so every object taken from it is lost: an error. Where such a
path's folders are not under the package folder either and no game directory is set, the
engine's package paths cannot be searched: an info saying so. A bare package name
(`FILE=XEffects.utx`, the usual way to load a game package) is checked only with a game
directory.

<!-- example
//- /Game/MyMod/Textures/texture1.pcx = pcx 64x64
//- /Game/MyMod/Textures/Metal.utx = package objects=Texture:Plate
-->
```unrealscript
#exec TEXTURE IMPORT NAME=Jtex1 FILE=texture1.pcx GROUP=Skins
#exec OBJ LOAD FILE=Textures\Metals.utx PACKAGE=MyMod   // Textures\ exists, Metals.utx does not
```

Fix: ship the file, or point the path at the file that exists (relative to the folder above
`Classes/`).

```unrealscript fixed
#exec TEXTURE IMPORT NAME=Jtex1 FILE=Textures\texture1.pcx GROUP=Skins
#exec OBJ LOAD FILE=Textures\Metal.utx PACKAGE=MyMod
```"#;

pub fn check(ctx: &ExecContext<'_>, out: &mut Vec<Diagnostic>) {
    let package = ctx.root().map(|r| ctx.show_dir(r));
    for line in &ctx.file.lines {
        for path in &line.paths {
            // A bare package name (`OBJ LOAD FILE=XEffects.utx`) is how classes load game
            // packages through the engine's package paths: without a game directory that is
            // simply not checked. A path through folders that are not under the package folder
            // may still be found there, which cannot be checked: an info.
            let through_folders = path.value.text.contains(['\\', '/']);
            if path.resolution == Resolution::Unchecked
                && path.expect == Expect::Package
                && through_folders
                && ctx.env.is_some()
                && ctx.file.is_package_class()
            {
                out.push(
                    RULE.diagnostic(
                        path.value.mark(),
                        format!(
                            "cannot check `{}`: no such file under the package folder {}, and the engine may find it on its package paths, which only a game directory shows (set `game-dir`)",
                            path.value.text,
                            package.as_deref().unwrap_or("")
                        ),
                    )
                    .with_severity(Severity::Info),
                );
                continue;
            }
            if path.resolution != (Resolution::Missing { beside: None }) {
                continue;
            }
            let message = match (&ctx.file.location, &package) {
                (Some(crate::exec::Location::Package { .. }), Some(package)) => format!(
                    "file not found: `{}` (searched from the package folder {package}, ignoring case)",
                    path.value.text
                ),
                // The same for every path of such a file, so said once for all of them (one
                // info at the first, counting the others): a source dump laid out without
                // `Classes/` folders had 2,823 of these, one a path.
                (Some(crate::exec::Location::Orphan { .. }), _) => "file not found: the path resolves from no package folder, and no file of that name is beside this file (it is outside Classes/, so UCC never compiles it)".to_owned(),
                _ => format!(
                    "file not found: `{}` resolves from no package folder, and no file of that name is beside this file (it is outside Classes/, so UCC never compiles it)",
                    path.value.text
                ),
            };
            out.push(RULE.diagnostic(path.value.mark(), message));
        }
    }
}
