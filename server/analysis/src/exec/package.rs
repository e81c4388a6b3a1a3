//! The package model: which folder a class belongs to, and how a path written in a directive
//! finds a file.
//!
//! UCC compiles the classes in `<Package>/Classes/*.uc`; the package is named after the folder
//! that holds `Classes/`, and paths in directives are relative to that folder, written with
//! backslashes. Windows resolves them case-insensitively, so `MODELS\Skull_a.3D` finds
//! `Models/Skull_a.3d` there but nothing on Linux: the checks resolve case-insensitively and
//! report the difference.

use std::path::{Component, Path, PathBuf};

use super::env::{ExecEnv, LinkTarget};

/// How deep below `Classes/` a game that compiles its subfolders finds classes (SWAT 4's
/// trees go two levels down).
pub const SUBFOLDER_DEPTH: usize = 4;

/// Where a `.uc` file stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Location {
    /// `<root>/Classes/<file>.uc`: compiled into package `name`.
    Package { root: PathBuf, name: String },
    /// Anywhere else: UCC never compiles the file. Its paths are tried from each of
    /// `candidates` (the folders that would be its package folder if it were moved into a
    /// `Classes/` folder next to them), nearest first. Nothing outside `read_root` is read.
    Orphan { dir: PathBuf, candidates: Vec<PathBuf>, read_root: PathBuf },
}

impl Location {
    /// Finds the location of `file` (a path on the checked file system).
    pub fn of(file: &Path, env: &ExecEnv) -> Location {
        let mut dir = file.parent().map(Path::to_path_buf).unwrap_or_default();
        if dir.as_os_str().is_empty() {
            dir = PathBuf::from(".");
        }
        // `.` or `..` has no name to tell a `Classes` folder or a package by.
        if dir.file_name().is_none() {
            if let Some(absolute) = env.absolute(&dir) {
                dir = absolute;
            }
        }
        let is_classes = |dir: &Path| {
            dir.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.eq_ignore_ascii_case("classes"))
        };
        // SWAT 4's UCC compiles the subfolders of `Classes/` too: a class there belongs to
        // the package above them.
        let classes = if is_classes(&dir) {
            Some(dir.as_path())
        } else if env.game.is_some_and(unreal_engine::Game::compiles_class_subfolders) {
            dir.ancestors().skip(1).take(SUBFOLDER_DEPTH).find(|d| is_classes(d))
        } else {
            None
        };
        if let Some(root) = classes.and_then(Path::parent) {
            // `Classes/X.uc` named from inside its package folder: the root is `.`, and the
            // package is named as that folder is.
            let root = if root.as_os_str().is_empty() { Path::new(".") } else { root };
            let absolute = root.file_name().is_none().then(|| env.absolute(root)).flatten();
            let named = absolute.as_deref().unwrap_or(root);
            let name =
                named.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            return Location::Package { root: root.to_path_buf(), name };
        }
        // Up from the file's folder to the nearest folder that has a `Classes/` (the mod the
        // stray file ships with); without one, only the file's own folder.
        let mut candidates = vec![dir.clone()];
        let mut read_root = dir.clone();
        let mut current = dir.parent();
        let mut depth = 0;
        if !env.has_classes_dir(&dir) {
            while let Some(folder) = current {
                if depth >= 8 || folder.as_os_str().is_empty() {
                    break;
                }
                candidates.push(folder.to_path_buf());
                if env.has_classes_dir(folder) {
                    read_root = folder.to_path_buf();
                    break;
                }
                current = folder.parent();
                depth += 1;
            }
            if read_root == dir {
                candidates.truncate(1);
            }
        }
        Location::Orphan { dir, candidates, read_root }
    }

    pub fn package_name(&self) -> Option<&str> {
        match self {
            Location::Package { name, .. } => Some(name),
            Location::Orphan { .. } => None,
        }
    }

    pub fn is_package(&self) -> bool {
        matches!(self, Location::Package { .. })
    }

    /// The folder under which files may be read.
    pub fn read_root(&self) -> &Path {
        match self {
            Location::Package { root, .. } => root,
            Location::Orphan { read_root, .. } => read_root,
        }
    }
}

/// The file's path with a nameable folder: `Foo.uc` or `./Foo.uc` (run inside `Classes/`)
/// becomes absolute, so that its folder and package can be named; other paths stay as given.
pub fn normalize_file(file: &Path, env: &ExecEnv) -> PathBuf {
    let nameless =
        file.parent().is_none_or(|d| d.as_os_str().is_empty() || d.file_name().is_none());
    if nameless {
        if let Some(absolute) = env.absolute(file) {
            return absolute;
        }
    }
    file.to_path_buf()
}

pub use super::resolution::Resolution;

/// Splits a directive path into folder names, applying `.` and `..`. `None` when the path is
/// absolute or climbs above its start.
pub fn split_relative(path: &str) -> Option<Vec<&str>> {
    let path = path.trim();
    if is_absolute(path) {
        return None;
    }
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split(['\\', '/']) {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            other => parts.push(other),
        }
    }
    Some(parts)
}

/// A path from a drive letter or a leading slash: from no folder of the game or package.
pub(crate) fn is_absolute(path: &str) -> bool {
    let path = path.trim();
    path.starts_with(['\\', '/']) || path.get(1..2) == Some(":")
}

/// What a lookup in the package folder resolves to: found, missing (the engine cannot find
/// it either), or behind a link that leads out.
fn in_package(lookup: Lookup) -> Resolution {
    match lookup {
        Lookup::Found { path, on_disk, case_differs } => {
            Resolution::Found { path, on_disk, case_differs }
        }
        Lookup::Missing => Resolution::Missing { beside: None },
        Lookup::LeadsOut { link } => Resolution::OutsidePackage { link: Some(link) },
    }
}

/// Whether `path` climbs out of its start folder (for messages).
pub fn leaves_start(path: &str) -> bool {
    split_relative(path).is_none()
}

/// What [`resolve_under`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Lookup {
    /// The file, its spelling on disk (relative, with backslashes), and whether the spelling
    /// differs from the directive's.
    Found {
        path: PathBuf,
        on_disk: String,
        case_differs: bool,
    },
    Missing,
    /// The walk met `link`, a symbolic link that leads out of the folders that may be read.
    LeadsOut {
        link: PathBuf,
    },
}

/// Resolves `parts` (a split directive path) under `root`, each name spelt exactly first,
/// then ignoring ASCII case. A symbolic link on the way is followed only when it leads into
/// `read_root`, the game directory or a package path; nothing behind another link is
/// listed or read.
pub fn resolve_under(env: &ExecEnv, read_root: &Path, root: &Path, parts: &[&str]) -> Lookup {
    if parts.is_empty() {
        return Lookup::Missing;
    }
    let mut path = root.to_path_buf();
    let mut spelled = Vec::with_capacity(parts.len());
    let mut case_differs = false;
    for (i, part) in parts.iter().enumerate() {
        let last = i + 1 == parts.len();
        let Some(entries) = env.list_dir(&path) else { return Lookup::Missing };
        let entry = entries
            .iter()
            .find(|e| e.name == *part)
            .or_else(|| entries.iter().find(|e| e.name.eq_ignore_ascii_case(part)));
        let Some(entry) = entry else { return Lookup::Missing };
        path.push(&entry.name);
        if entry.is_link {
            match env.follow_link(&path, read_root) {
                LinkTarget::Inside => {}
                LinkTarget::Outside => return Lookup::LeadsOut { link: path },
                LinkTarget::Nowhere => return Lookup::Missing,
            }
        }
        if entry.is_dir == last {
            return Lookup::Missing;
        }
        case_differs |= entry.name != *part;
        spelled.push(entry.name.clone());
    }
    Lookup::Found { path, on_disk: spelled.join("\\"), case_differs }
}

/// True when `dir` is a game folder: the configured (or found) game directory, or a folder
/// that is one by [`crate::index::game_folder::is_game_folder`].
pub fn is_game_folder(env: &ExecEnv, dir: &Path) -> bool {
    let configured = env.game_dir.as_deref().is_some_and(|game| {
        game == dir || env.real_path(game).is_some_and(|g| env.real_path(dir) == Some(g))
    });
    configured || crate::index::game_folder::holds_installation(dir, &mut |d| env.list_dir(d))
}

/// True when the folders `parts` exist under `root` (ignoring case, no link followed).
pub fn folders_exist(env: &ExecEnv, root: &Path, parts: &[&str]) -> bool {
    let mut path = root.to_path_buf();
    for part in parts {
        let Some(entries) = env.list_dir(&path) else { return false };
        let Some(entry) =
            entries.iter().find(|e| e.is_dir && !e.is_link && e.name.eq_ignore_ascii_case(part))
        else {
            return false;
        };
        path.push(&entry.name);
    }
    true
}

/// A path that climbs one level out of the package folder (`..\Textures\X.utx`) names a
/// folder of the game beside the package folder, as Epic's own classes load texture packages.
/// When the package folder stands in a game folder, the path is resolved there: found, or
/// missing from a folder that exists (the engine cannot find it either). When the named folder
/// does not exist here, or the package is not in a game folder, it cannot be checked.
fn resolve_in_game(env: &ExecEnv, read_root: &Path, root: &Path, raw: &str) -> Resolution {
    let outside = Resolution::OutsidePackage { link: None };
    // A drive letter or a leading slash names no folder of the game.
    if is_absolute(raw) {
        return outside;
    }
    let (Some(parent), Some(package)) = (root.parent(), root.file_name()) else { return outside };
    // A package folder given relative to the current folder (`Pkg`) stands in `.`.
    let game = if parent.as_os_str().is_empty() { Path::new(".") } else { parent };
    let from_game = format!("{}\\{raw}", package.to_string_lossy());
    let Some(parts) = split_relative(&from_game) else { return outside };
    // `..\Pkg\Textures\X.utx` from package `Pkg` climbs out and comes back: a path inside
    // the package folder, checked like any other.
    let own = package.to_string_lossy();
    if parts.len() > 1 && parts[0].eq_ignore_ascii_case(&own) {
        return match in_package(resolve_under(env, read_root, root, &parts[1..])) {
            Resolution::Found { path, on_disk, case_differs } => {
                Resolution::Found { path, on_disk, case_differs: case_differs || parts[0] != own }
            }
            other => other,
        };
    }
    if parts.is_empty() || !is_game_folder(env, game) {
        return outside;
    }
    match resolve_under(env, game, game, &parts) {
        Lookup::Found { path, on_disk, case_differs } => {
            Resolution::Found { path, on_disk, case_differs }
        }
        Lookup::LeadsOut { link } => Resolution::OutsidePackage { link: Some(link) },
        Lookup::Missing if folders_exist(env, game, &parts[..parts.len() - 1]) => {
            Resolution::Missing { beside: None }
        }
        Lookup::Missing => outside,
    }
}

/// Resolves a directive's path from the file's location.
pub fn resolve(env: &ExecEnv, location: &Location, raw: &str) -> Resolution {
    let Some(parts) = split_relative(raw) else {
        if let Location::Package { root, .. } = location {
            return resolve_in_game(env, location.read_root(), root, raw);
        }
        return Resolution::OutsidePackage { link: None };
    };
    let read_root = location.read_root();
    match location {
        Location::Package { root, .. } => in_package(resolve_under(env, read_root, root, &parts)),
        Location::Orphan { dir, candidates, .. } => {
            for root in candidates {
                match resolve_under(env, read_root, root, &parts) {
                    Lookup::Found { path, on_disk, case_differs } => {
                        return Resolution::Found { path, on_disk, case_differs };
                    }
                    Lookup::LeadsOut { link } => {
                        return Resolution::OutsidePackage { link: Some(link) };
                    }
                    Lookup::Missing => {}
                }
            }
            let beside = match parts.last().map(|name| resolve_under(env, read_root, dir, &[name]))
            {
                Some(Lookup::Found { path, .. }) => Some(path),
                _ => None,
            };
            Resolution::Missing { beside }
        }
    }
}

/// A path relative to `base` for messages, with forward slashes; the full path when it is not
/// below `base`.
pub fn display_relative(path: &Path, base: &Path) -> String {
    let rel = path.strip_prefix(base).unwrap_or(path);
    let mut out = String::new();
    for component in rel.components() {
        if let Component::Normal(name) = component {
            if !out.is_empty() {
                out.push('/');
            }
            out.push_str(&name.to_string_lossy());
        }
    }
    if out.is_empty() {
        rel.to_string_lossy().into_owned()
    } else {
        out
    }
}

/// The object name a file gives when `NAME=` is absent: its base name without extension.
pub fn default_name(raw_path: &str) -> &str {
    let file = raw_path.rsplit(['\\', '/']).next().unwrap_or(raw_path);
    file.rsplit_once('.').map_or(file, |(stem, _)| stem)
}
