//! `exec-path-outside-package`: a path leaves the package folder (`..\..\Art\x.pcx`, a drive
//! letter, a leading backslash, or a symbolic link inside the package that leads out of it).
//! The build then depends on files outside the package, and the linter does not read them.
//! `LOAD` of a game package is exempt: the engine finds those by name in its package paths.
//!
//! One level up (`..\Textures\X.utx`) names the game's folder beside the package folder;
//! when the package stands in a game folder (the game directory, or one whose `System/` holds
//! `Core.u`: [`crate::index::game_folder`]) that
//! path is checked like any other (`exec-missing-file` when the folder exists and the file is
//! not in it), and this info says only what could not be checked: a folder the game folder
//! does not have here, or a package the engine may find on its package paths.

use std::path::Path;

use super::RuleMeta;
use crate::exec::{package, ExecContext, Expect, Resolution};
use crate::{Diagnostic, Severity};

pub static RULE: RuleMeta = RuleMeta {
    code: "exec-path-outside-package",
    severity: Severity::Info,
    summary: "a path leaves the package folder and is not checked",
    docs: DOCS,
    ..RuleMeta::UNREALSCRIPT
};

/// The rule's documentation: its `docs/rules.md` section after the `Severity:` lead.
const DOCS: &str = r"A path leaves the package folder (`..\..\Art\x.pcx`, a drive letter, a leading
backslash), or passes a symbolic link inside the package that leads out of every folder unreal-ls
reads (the package folder, the game directory, the package paths; where the link really leads is
what counts). The build then depends on files outside the package, which are not read: nothing
behind such a link is listed or opened. `LOAD` of a game package is exempt: the engine finds
packages by name.

One level up is different: `..\Textures\X.utx` names the game's `Textures` folder beside the
package folder (Epic's own classes load texture packages so). When the package folder stands in
a game folder (the game directory, or a folder whose `System/` holds the engine's
`Core.u`), such a path is checked like any other: a file missing from a folder that exists is `exec-missing-file`. This info then
says only what could not be checked: a folder the game folder does not have here, a package
folder that is not in a game folder, or a `LOAD` whose package the engine may still find on
its package paths (which only a game directory's index shows). A path that climbs out and
comes back into the package's own folder (`..\MyMod\Textures\X.pcx` in package `MyMod`)
never leaves it, and is checked like any other. Where the package folder is not in a game
folder, every such path of a file has that one cause: the file gets one finding, at the first,
with the others (a few of them listed) counted in it.

<!-- example
//- /Art/Rock.pcx = pcx 64x64
//- /Game/MyMod/Textures/Rock.pcx = pcx 64x64
-->
```unrealscript
#exec TEXTURE IMPORT NAME=Rock FILE=..\..\Art\Rock.pcx
```

Fix: copy the file into the package folder and point the path there.

```unrealscript fixed
#exec TEXTURE IMPORT NAME=Rock FILE=Textures\Rock.pcx
```";

pub fn check(ctx: &ExecContext<'_>, out: &mut Vec<Diagnostic>) {
    for line in &ctx.file.lines {
        for path in &line.paths {
            let Resolution::OutsidePackage { link } = &path.resolution else { continue };
            let how = match link {
                Some(link) => format!(" through the symbolic link `{}`", ctx.show(link)),
                None => String::new(),
            };
            // Where the cause is the same for every path of a file, the message names no path,
            // and the file's such paths are one info (`group_repeated_infos`): Nerf Arena
            // Blast's classes import 851 files from `g:\NerfRes\...`, Black 9's scripts name
            // 564 folders beside package folders outside any game folder.
            let leaves = || {
                match link {
                Some(_) => format!(
                    "`{}` leaves the package folder{how}; the build depends on files outside the package, which are not checked",
                    path.value.text
                ),
                None if package::is_absolute(&path.value.text) => "the path names a drive or the root of the disk, outside the package folder; the build depends on files outside the package, which are not checked".to_owned(),
                None => "the path leaves the package folder; the build depends on files outside the package, which are not checked".to_owned(),
            }
            };
            let raw = &path.value.text;
            let message = match (link, one_level_up(ctx, raw)) {
                (None, Some(Up::NotGameFolder)) => "the path names a folder beside the package folder, and the package folder is not in a game folder (no System/Core.u beside it); not checked".to_owned(),
                (None, Some(Up::NoFolder(folder))) => format!(
                    "`{raw}` names the game's folder `{folder}`, which this game folder does not have; not checked"
                ),
                (None, Some(Up::FolderExists)) if path.expect == Expect::Package => format!(
                    "`{raw}` is not there; the engine may still find the package on its package paths, which only a game directory's index shows; not checked"
                ),
                _ => leaves(),
            };
            out.push(RULE.diagnostic(path.value.mark(), message));
        }
    }
}

/// What a path that climbs exactly one level out of the package folder (`..\\Music\\X.umx`)
/// met.
enum Up {
    /// The package folder does not stand in a game folder.
    NotGameFolder,
    /// The game folder has no such folder (`Music`).
    NoFolder(String),
    /// The folder is there (the file is not, or it was not looked up).
    FolderExists,
}

fn one_level_up(ctx: &ExecContext<'_>, raw: &str) -> Option<Up> {
    let env = ctx.env?;
    let root = ctx.root()?;
    let package = root.file_name()?.to_string_lossy().into_owned();
    let from_game = format!("{package}\\{raw}");
    let parts = package::split_relative(&from_game)?;
    let first = parts.first()?;
    if parts.len() < 2 || first.eq_ignore_ascii_case(&package) {
        return None;
    }
    let parent = root.parent()?;
    let game = if parent.as_os_str().is_empty() { Path::new(".") } else { parent };
    Some(if !package::is_game_folder(env, game) {
        Up::NotGameFolder
    } else if package::folders_exist(env, game, &parts[..parts.len() - 1]) {
        Up::FolderExists
    } else {
        Up::NoFolder(parts[..parts.len() - 1].join("\\"))
    })
}
