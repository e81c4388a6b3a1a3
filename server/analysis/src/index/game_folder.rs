//! What a game folder is, said once: the folder of a game installation, whose packages
//! `#exec` lines and map references name. The `#exec` path checks ask it of the folder above
//! a package folder, `lint` and the language server of the folders around a file, the
//! language server of the folders around its workspace; all through the [`FileSystem`] trait.

use std::path::{Path, PathBuf};

use crate::fs::{DirEntry, FileSystem};

/// True when `dir` is a game folder: its `System/` folder (not a link) holds `Core.u`, the
/// engine's first package, which every UE1 and UE2 game ships there and no mod or source
/// tree does (names in any case). A UCC package folder has `Classes/`, `Textures/` and
/// `Sounds/` but never `System/`; a mod's repository often has `System/`, `Maps/` and
/// `Sounds/` laid out to be copied over an installation, and a public source tree `System/`
/// with the `.int` files, but neither holds the game's packages: a reference they lack may
/// still be in the user's installation, so neither is a game folder.
pub fn is_game_folder(fs: &dyn FileSystem, dir: &Path) -> bool {
    holds_installation(dir, &mut |d| fs.read_dir(d))
}

/// [`is_game_folder`] through a caller's way of listing folders (one that keeps listings).
pub fn holds_installation<L, E>(dir: &Path, list: &mut L) -> bool
where
    L: FnMut(&Path) -> Option<E>,
    E: std::ops::Deref<Target = [DirEntry]>,
{
    let Some(entries) = list(dir) else { return false };
    let Some(system) =
        entries.iter().find(|e| e.is_dir && !e.is_link && e.name.eq_ignore_ascii_case("System"))
    else {
        return false;
    };
    let system = dir.join(&system.name);
    list(&system).is_some_and(|files| {
        files.iter().any(|f| !f.is_dir && f.name.eq_ignore_ascii_case("Core.u"))
    })
}

/// The nearest game folder that holds `dir` or is `dir` itself: `dir`, then each folder above
/// it. A map in `UnrealTournament/Maps/` and a class in `UnrealTournament/MyMod/Classes/`
/// both find `UnrealTournament/`.
pub fn game_folder_around(fs: &dyn FileSystem, dir: &Path) -> Option<PathBuf> {
    dir.ancestors()
        .find(|d| !d.as_os_str().is_empty() && is_game_folder(fs, d))
        .map(Path::to_path_buf)
}

/// The game folder of a workspace opened on `roots` (the language server's folders, before
/// any file is open): around the first root that has one ([`game_folder_around`]), else
/// a game folder directly inside a root (a workspace opened on the folder that holds the
/// installation).
pub fn game_folder_of_workspace(fs: &dyn FileSystem, roots: &[PathBuf]) -> Option<PathBuf> {
    if let Some(found) = roots.iter().find_map(|root| game_folder_around(fs, root)) {
        return Some(found);
    }
    roots.iter().find_map(|root| {
        fs.read_dir(root)?
            .into_iter()
            .filter(|e| e.is_dir && !e.is_link)
            .map(|e| root.join(e.name))
            .find(|child| is_game_folder(fs, child))
    })
}

/// The package search paths a game folder's `System/*.ini` files give: each `Paths=` line of a
/// `[Core.System]` section (`Paths=../Art/*.pkg`), as a folder and the extension it matches.
/// The engine looks a package named without a folder up along these paths
/// (`appFindPackageFile`, UT v400 `Core/Src/UnMisc.cpp`, UT2004 `Core/Src/UnMisc.cpp:1810-1880`:
/// each path's folder with the name and the path's extension), relative to `System/`, where
/// the game runs. Licensee games add their own folders and extensions this way (`../Art/*.pkg`).
pub fn ini_package_paths(fs: &dyn FileSystem, system: &Path) -> Vec<(PathBuf, String)> {
    let mut out: Vec<(PathBuf, String)> = Vec::new();
    let Some(entries) = fs.read_dir(system) else { return out };
    let mut inis: Vec<&DirEntry> = entries
        .iter()
        .filter(|e| {
            !e.is_dir
                && Path::new(&e.name).extension().is_some_and(|x| x.eq_ignore_ascii_case("ini"))
        })
        .collect();
    inis.sort_by(|a, b| a.name.cmp(&b.name));
    for ini in inis {
        let Some(bytes) = fs.read(&system.join(&ini.name)) else { continue };
        let text = unreal_syntax::text::decode(&bytes).text;
        let mut in_core_system = false;
        for line in text.lines() {
            let line = line.trim();
            if let Some(section) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
                in_core_system = section.eq_ignore_ascii_case("Core.System");
                continue;
            }
            if !in_core_system {
                continue;
            }
            let Some((key, value)) = line.split_once('=') else { continue };
            let key = key.trim();
            let is_paths = key.eq_ignore_ascii_case("Paths")
                || key.get(..6).is_some_and(|k| k.eq_ignore_ascii_case("Paths["));
            if !is_paths {
                continue;
            }
            let Some(entry) = search_path(system, value.trim().trim_matches('"')) else { continue };
            if !out.contains(&entry) {
                out.push(entry);
            }
        }
    }
    out
}

/// `../Art/*.pkg` read from `system`: the folder (`..` applied) and `pkg`.
fn search_path(system: &Path, value: &str) -> Option<(PathBuf, String)> {
    let (folder, pattern) = value.rsplit_once(['/', '\\'])?;
    let ext = pattern.strip_prefix("*.")?;
    if ext.is_empty() || ext.contains(['*', '?', '/', '\\']) {
        return None;
    }
    let mut dir = system.to_path_buf();
    for part in folder.split(['/', '\\']) {
        match part {
            "" | "." => {}
            ".." => {
                if !dir.pop() {
                    return None;
                }
            }
            name => dir.push(name),
        }
    }
    Some((dir, ext.to_ascii_lowercase()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fs::MemoryFs;

    #[test]
    fn ini_paths_name_folders_and_extensions() {
        let mut fs = MemoryFs::default();
        fs.insert(
            "/games/L2/System/L2.ini",
            b"[Engine.Engine]\nPaths=../Nowhere/*.u\n[Core.System]\nPurgeCacheDays=30\nPaths=../System/*.u\nPaths=../Art/*.pkg\nPaths[2]=..\\Sounds\\*.uax\nPaths=*.u\nPaths=../Maps/Any*\n".to_vec(),
        );
        let found = ini_package_paths(&fs, Path::new("/games/L2/System"));
        assert_eq!(
            found,
            vec![
                (PathBuf::from("/games/L2/System"), "u".to_owned()),
                (PathBuf::from("/games/L2/Art"), "pkg".to_owned()),
                (PathBuf::from("/games/L2/Sounds"), "uax".to_owned()),
            ]
        );
    }

    fn tree() -> MemoryFs {
        let mut fs = MemoryFs::default();
        for file in [
            "/games/UT/System/Core.u",
            "/games/UT/Textures/Tex.utx",
            "/games/Source/System/Core.int",
            "/games/Source/Maps/DM-Y.ut2",
            "/games/UT/Maps/DM-X.t3d",
            "/games/UT/MyMod/Classes/A.uc",
            "/games/ModRepo/System/ModRepo.int",
            "/games/ModRepo/Classes/B.uc",
            "/work/Package/Textures/T.pcx",
            "/work/Package/Classes/C.uc",
        ] {
            fs.insert(file, Vec::new());
        }
        fs
    }

    #[test]
    fn a_game_folder_holds_system_and_content() {
        let fs = tree();
        assert!(is_game_folder(&fs, Path::new("/games/UT")));
        // `System/` of `.int` files: a mod's repository, a public source tree.
        assert!(!is_game_folder(&fs, Path::new("/games/ModRepo")));
        assert!(!is_game_folder(&fs, Path::new("/games/Source")));
        // Content without `System/`: a UCC package folder.
        assert!(!is_game_folder(&fs, Path::new("/work/Package")));
        assert!(!is_game_folder(&fs, Path::new("/nowhere")));
    }

    #[test]
    fn files_find_the_installation_above_them() {
        let fs = tree();
        let ut = Some(PathBuf::from("/games/UT"));
        assert_eq!(game_folder_around(&fs, Path::new("/games/UT/Maps")), ut);
        assert_eq!(game_folder_around(&fs, Path::new("/games/UT/MyMod/Classes")), ut);
        assert_eq!(game_folder_around(&fs, Path::new("/games/UT")), ut);
        assert_eq!(game_folder_around(&fs, Path::new("/games/ModRepo/Classes")), None);
        assert_eq!(game_folder_around(&fs, Path::new("/work/Package/Classes")), None);
    }

    #[test]
    fn a_workspace_finds_one_around_it_or_just_inside() {
        let fs = tree();
        let ut = Some(PathBuf::from("/games/UT"));
        assert_eq!(game_folder_of_workspace(&fs, &[PathBuf::from("/games/UT/MyMod")]), ut);
        assert_eq!(game_folder_of_workspace(&fs, &[PathBuf::from("/games")]), ut);
        assert_eq!(
            game_folder_of_workspace(
                &fs,
                &[PathBuf::from("/work/Package"), PathBuf::from("/games/UT")]
            ),
            ut
        );
        assert_eq!(game_folder_of_workspace(&fs, &[PathBuf::from("/work")]), None);
    }
}
