//! Finding a game installation: the folder whose packages `#exec` names and map references
//! may refer to, when no setting names it (the language server looks around its workspace).

use std::path::{Path, PathBuf};

/// Folders besides `System/` that mark a game installation.
const GAME_FOLDERS: &[&str] = &["Textures", "Sounds", "Music", "Maps"];

/// How many folders above a workspace folder are searched for a game installation.
const SEARCH_UP: usize = 4;

/// A game installation in or above one of the folders: the folder itself, a folder in it, or
/// one of the [`SEARCH_UP`] folders above it.
pub fn detect_game_dir(roots: &[PathBuf]) -> Option<PathBuf> {
    for root in roots {
        let children: Vec<PathBuf> = std::fs::read_dir(root).map_or_else(
            |_| Vec::new(),
            |entries| entries.flatten().map(|e| e.path()).filter(|p| p.is_dir()).collect(),
        );
        let mut candidates: Vec<PathBuf> = vec![root.clone()];
        candidates.extend(children);
        candidates.extend(root.ancestors().skip(1).take(SEARCH_UP).map(Path::to_path_buf));
        if let Some(found) = candidates.into_iter().find(|dir| is_game_dir(dir)) {
            return Some(found);
        }
    }
    None
}

/// `System/` and at least one of [`GAME_FOLDERS`] (any case). A UCC package folder has
/// `Classes/`, `Textures/` and `Sounds/` but never `System/`.
pub fn is_game_dir(dir: &Path) -> bool {
    let Ok(entries) = std::fs::read_dir(dir) else { return false };
    let names: Vec<String> = entries
        .flatten()
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    let has = |wanted: &str| names.iter().any(|n| n.eq_ignore_ascii_case(wanted));
    has("System") && GAME_FOLDERS.iter().any(|f| has(f))
}
