//! Where the files of a vertex mesh are: a `_d.3d` (triangles) and its `_a.3d` (frames) lie
//! side by side as `NAME_d.3d` and `NAME_a.3d`, in any case (the engine runs on Windows, and
//! mod folders mix `Skull_d.3d` with `SKULL_A.3D`). `info`, `export` and the server's preview
//! all find the other file of a pair here.

use std::path::{Path, PathBuf};

/// One file of a vertex mesh pair and the other one beside it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MeshPair {
    pub data: PathBuf,
    pub animation: PathBuf,
    /// The file name without `_d.3d`/`_a.3d`, in the case of the file given (`Skull`).
    pub base: String,
    /// The file given is the `_d.3d`.
    pub given_is_data: bool,
}

/// The pair `path` belongs to, its other file found beside it ignoring case. The error says
/// what is wrong: a name without `_d.3d`/`_a.3d`, or no partner beside it.
pub fn vertex_mesh_pair(path: &Path) -> Result<MeshPair, String> {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
    let lower = name.to_ascii_lowercase();
    let (given_is_data, want) = if lower.ends_with("_d.3d") {
        (true, "_a.3d")
    } else if lower.ends_with("_a.3d") {
        (false, "_d.3d")
    } else {
        return Err(format!("`{name}` is not a vertex mesh file named NAME_d.3d or NAME_a.3d"));
    };
    let base = &name[..name.len() - want.len()];
    let wanted = format!("{base}{want}");
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let partner = beside_ignoring_case(dir, &wanted)
        .ok_or_else(|| format!("vertex mesh: no {wanted} next to {name}"))?;
    let (data, animation) =
        if given_is_data { (path.to_path_buf(), partner) } else { (partner, path.to_path_buf()) };
    Ok(MeshPair { data, animation, base: base.to_owned(), given_is_data })
}

/// The entry of `dir` named `name` ignoring ASCII case.
pub fn beside_ignoring_case(dir: &Path, name: &str) -> Option<PathBuf> {
    std::fs::read_dir(dir)
        .ok()?
        .filter_map(Result::ok)
        .find(|e| e.file_name().to_str().is_some_and(|n| n.eq_ignore_ascii_case(name)))
        .map(|e| e.path())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn the_other_file_is_found_in_any_case() {
        let dir = std::env::temp_dir().join(format!("unreal-ls-mesh-pair-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("Skull_d.3d"), b"").unwrap();
        std::fs::write(dir.join("SKULL_A.3D"), b"").unwrap();
        let pair = vertex_mesh_pair(&dir.join("Skull_d.3d")).unwrap();
        assert_eq!(pair.animation, dir.join("SKULL_A.3D"));
        assert_eq!((pair.base.as_str(), pair.given_is_data), ("Skull", true));
        let pair = vertex_mesh_pair(&dir.join("SKULL_A.3D")).unwrap();
        assert_eq!((pair.data, pair.base.as_str()), (dir.join("Skull_d.3d"), "SKULL"));
        std::fs::write(dir.join("Lone_d.3d"), b"").unwrap();
        let err = vertex_mesh_pair(&dir.join("Lone_d.3d")).unwrap_err();
        assert_eq!(err, "vertex mesh: no Lone_a.3d next to Lone_d.3d");
        assert!(vertex_mesh_pair(&dir.join("Skull.psk")).is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
