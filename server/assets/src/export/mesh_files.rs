//! The files around a vertex mesh, found once for `info`, `export` and the server's preview:
//! the other file of its pair (`NAME_d.3d` triangles and `NAME_a.3d` frames lie side by side,
//! in any case: the engine runs on Windows, and mod folders mix `Skull_d.3d` with
//! `SKULL_A.3D`), the class whose `#exec` lines import it (its sequences, origin, rotation,
//! scale and `ZEROTEX`), and the images its `MESHMAP SETTEXTURE` slots show. Every read goes
//! through the [`FileSystem`] trait.

use std::path::{Path, PathBuf};

use unreal_formats::decode::image::decode_image;
use unreal_formats::decode::RgbaImage;

use super::uc::{mesh_directives, MeshDirectives};
use unreal_analysis::fs::FileSystem;

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
pub fn vertex_mesh_pair(fs: &dyn FileSystem, path: &Path) -> Result<MeshPair, String> {
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
    let partner = find_ignoring_case(fs, folder_of(path), &wanted)
        .ok_or_else(|| format!("vertex mesh: no {wanted} next to {name}"))?;
    let (data, animation) =
        if given_is_data { (path.to_path_buf(), partner) } else { (partner, path.to_path_buf()) };
    Ok(MeshPair { data, animation, base: base.to_owned(), given_is_data })
}

/// The pair `path` belongs to as `class` (the class importing it) reads it, with the files
/// its `MESH IMPORT` names, else by name beside it ([`vertex_mesh_pair`]).
pub fn pair_read_by(
    fs: &dyn FileSystem,
    path: &Path,
    class: Option<&ImportingClass>,
) -> Result<MeshPair, String> {
    if let Some(pair) = class.map(|c| c.pair_for(fs, path)).transpose()?.flatten() {
        return Ok(pair);
    }
    vertex_mesh_pair(fs, path)
}

/// The folder a path lies in (`.` for a bare file name).
pub fn folder_of(path: &Path) -> &Path {
    path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."))
}

/// The file or folder named like `relative` (parts split at `\` or `/`) under `root`, each
/// part matched ignoring ASCII case, as the engine's file names are on Windows.
pub fn find_ignoring_case(fs: &dyn FileSystem, root: &Path, relative: &str) -> Option<PathBuf> {
    let mut at = root.to_path_buf();
    for part in relative.split(['\\', '/']).filter(|p| !p.is_empty() && *p != ".") {
        let entries = fs.read_dir(&at)?;
        let entry = entries.iter().find(|e| e.name.eq_ignore_ascii_case(part))?;
        at.push(&entry.name);
    }
    Some(at)
}

/// How many folders above a mesh are searched for the package folder (the one with
/// `Classes/`) whose class imports it.
const PACKAGE_SEARCH_UP: usize = 4;

/// The biggest class or image file read for a mesh: nothing a mesh names is larger.
const MAX_SOURCE_BYTES: usize = 64 << 20;

/// The class whose `#exec` lines import a vertex mesh, and what they say about it.
#[derive(Clone, Debug, PartialEq)]
pub struct ImportingClass {
    /// The `.uc` file.
    pub class: PathBuf,
    /// The folder `#exec` paths are relative to: the parent of `Classes/`.
    pub package_dir: PathBuf,
    pub directives: MeshDirectives,
}

/// The class that imports the mesh file at `mesh`: among the `.uc` files (by name) of the
/// `Classes` folder of the nearest folder above the mesh that has one, at most
/// [`PACKAGE_SEARCH_UP`] levels up, the first whose `MESH IMPORT` names the file. `None` when
/// no package folder is near or no class there imports it.
pub fn importing_class(fs: &dyn FileSystem, mesh: &Path) -> Option<ImportingClass> {
    let name = mesh.file_name()?.to_str()?;
    // A relative path climbs from the current folder, as far as an absolute one would.
    let absolute = fs.absolute(mesh).unwrap_or_else(|| mesh.to_path_buf());
    let mut dir = absolute.parent();
    for _ in 0..PACKAGE_SEARCH_UP {
        let package = dir.filter(|d| !d.as_os_str().is_empty())?;
        let classes = fs
            .read_dir(package)?
            .into_iter()
            .find(|e| e.is_dir && e.name.eq_ignore_ascii_case("Classes"))
            .map(|e| package.join(e.name));
        if let Some(classes) = classes {
            let mut files: Vec<PathBuf> = fs
                .read_dir(&classes)?
                .into_iter()
                .filter(|e| !e.is_dir && e.name.to_ascii_lowercase().ends_with(".uc"))
                .map(|e| classes.join(e.name))
                .collect();
            files.sort();
            return files.into_iter().find_map(|class| {
                let text = read_text(fs, &class).ok()?;
                let directives = mesh_directives(&text, name)?;
                Some(ImportingClass { class, package_dir: package.to_path_buf(), directives })
            });
        }
        dir = package.parent();
    }
    None
}

/// What the class at `class` (named by the user: `export --uc`) says about the mesh file
/// `mesh_file`; `#exec` paths are relative to its package folder (the parent of `Classes/`,
/// or the class's own folder when it is not in one).
pub fn class_importing(
    fs: &dyn FileSystem,
    class: &Path,
    mesh_file: &str,
) -> Result<ImportingClass, String> {
    let text = read_text(fs, class)?;
    let directives = mesh_directives(&text, mesh_file)
        .ok_or_else(|| format!("{} imports no mesh from {mesh_file}", class.display()))?;
    let folder = folder_of(class);
    let package_dir = if folder.file_name().is_some_and(|n| n.eq_ignore_ascii_case("classes")) {
        folder_of(folder)
    } else {
        folder
    };
    Ok(ImportingClass {
        class: class.to_path_buf(),
        package_dir: package_dir.to_path_buf(),
        directives,
    })
}

impl ImportingClass {
    /// The pair the class's `MESH IMPORT` reads when `given` is its `DATAFILE=` or
    /// `ANIVFILE=` (by file name, any case): the other file found under the package folder as
    /// UCC finds it, whatever the two are named (Unreal's `titan_a.3d` and `titand.3d`).
    /// `Ok(None)` when the import names no such pair; an error when it names a file that is
    /// not there.
    pub fn pair_for(&self, fs: &dyn FileSystem, given: &Path) -> Result<Option<MeshPair>, String> {
        let (Some(data), Some(aniv)) = (&self.directives.data_file, &self.directives.aniv_file)
        else {
            return Ok(None);
        };
        let name = given.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        let file_name = |p: &str| p.rsplit(['\\', '/']).next().unwrap_or(p).to_owned();
        let given_is_data = file_name(data).eq_ignore_ascii_case(name);
        if !given_is_data && !file_name(aniv).eq_ignore_ascii_case(name) {
            return Ok(None);
        }
        let (key, partner) = if given_is_data { ("ANIVFILE", aniv) } else { ("DATAFILE", data) };
        let found = find_ignoring_case(fs, &self.package_dir, partner).ok_or_else(|| {
            format!(
                "vertex mesh: {} imports it with `{key}={partner}`, which is not under {}",
                self.class.display(),
                self.package_dir.display()
            )
        })?;
        let (data, animation) =
            if given_is_data { (given.to_path_buf(), found) } else { (found, given.to_path_buf()) };
        // `Skull` of `Skull_d.3d`; a file named otherwise by its stem (`titand` of `titand.3d`).
        let lower = name.to_ascii_lowercase();
        let base = if lower.ends_with("_d.3d") || lower.ends_with("_a.3d") {
            name.get(..name.len() - 5).unwrap_or(name).to_owned()
        } else {
            Path::new(name).file_stem().map_or(name, |s| s.to_str().unwrap_or(name)).to_owned()
        };
        Ok(Some(MeshPair { data, animation, base, given_is_data }))
    }

    /// The images of the class's `MESHMAP SETTEXTURE` slots, by slot number, and a note for
    /// each one that could not be found or read.
    pub fn textures(&self, fs: &dyn FileSystem) -> (Vec<(usize, RgbaImage)>, Vec<String>) {
        let mut images = Vec::new();
        let mut notes = Vec::new();
        for (slot, file) in &self.directives.textures {
            let Some(path) = find_ignoring_case(fs, &self.package_dir, file) else {
                notes.push(format!(
                    "texture slot {slot}: {file} not found under {}",
                    self.package_dir.display()
                ));
                continue;
            };
            match read_image(fs, &path) {
                Ok(image) => images.push((*slot, image)),
                Err(e) => notes.push(format!("texture slot {slot}: {e}")),
            }
        }
        (images, notes)
    }
}

/// An image file (PCX, BMP, TGA, DDS, PNG) decoded, by its extension.
pub fn read_image(fs: &dyn FileSystem, path: &Path) -> Result<RgbaImage, String> {
    let bytes = read_bounded(fs, path)?;
    let extension = path.extension().and_then(|e| e.to_str()).unwrap_or_default();
    decode_image(&bytes, extension).map_err(|e| format!("{}: {e}", path.display()))
}

fn read_text(fs: &dyn FileSystem, path: &Path) -> Result<String, String> {
    Ok(unreal_syntax::text::decode(&read_bounded(fs, path)?).text.into_owned())
}

/// A file's bytes, when it is a regular file of at most [`MAX_SOURCE_BYTES`].
fn read_bounded(fs: &dyn FileSystem, path: &Path) -> Result<Vec<u8>, String> {
    let bytes = fs
        .open(path)
        .ok_or_else(|| format!("cannot read {}: {}", path.display(), fs.why_unreadable(path)))?;
    if bytes.len() > MAX_SOURCE_BYTES {
        return Err(format!(
            "{}: {} bytes, more than the {} MB a class or texture file may have here",
            path.display(),
            bytes.len(),
            MAX_SOURCE_BYTES >> 20
        ));
    }
    let copy = bytes.to_vec();
    bytes.check().map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(copy)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use unreal_analysis::fs::MemoryFs;

    #[test]
    fn the_other_file_is_found_in_any_case() {
        let fs = MemoryFs::default()
            .with("/m/Skull_d.3d", Vec::new())
            .with("/m/SKULL_A.3D", Vec::new())
            .with("/m/Lone_d.3d", Vec::new());
        let pair = vertex_mesh_pair(&fs, Path::new("/m/Skull_d.3d")).unwrap();
        assert_eq!(pair.animation, Path::new("/m/SKULL_A.3D"));
        assert_eq!((pair.base.as_str(), pair.given_is_data), ("Skull", true));
        let pair = vertex_mesh_pair(&fs, Path::new("/m/SKULL_A.3D")).unwrap();
        assert_eq!(
            (pair.data.as_path(), pair.base.as_str()),
            (Path::new("/m/Skull_d.3d"), "SKULL")
        );
        let err = vertex_mesh_pair(&fs, Path::new("/m/Lone_d.3d")).unwrap_err();
        assert_eq!(err, "vertex mesh: no Lone_a.3d next to Lone_d.3d");
        assert!(vertex_mesh_pair(&fs, Path::new("/m/Skull.psk")).is_err());
    }

    #[test]
    fn the_importing_class_is_found_in_the_package_folder_above() {
        let class = "class Skull extends Actor;\r\n#exec MESH IMPORT MESH=Skull ANIVFILE=Models\\Skull_a.3d DATAFILE=Models\\Skull_d.3d\r\n#exec TEXTURE IMPORT NAME=JSkull1 FILE=Textures\\Skin.pcx\r\n#exec MESHMAP SETTEXTURE MESHMAP=Skull NUM=0 TEXTURE=JSkull1\r\n#exec MESHMAP SETTEXTURE MESHMAP=Skull NUM=1 TEXTURE=Gone\r\n#exec TEXTURE IMPORT NAME=Gone FILE=Textures\\Gone.pcx\r\n";
        let fs = MemoryFs::default()
            .with("/Pkg/Classes/Other.uc", b"class Other extends Actor;\r\n".to_vec())
            .with("/Pkg/Classes/Skull.uc", class.as_bytes().to_vec())
            .with("/Pkg/Models/skull_d.3d", Vec::new())
            .with("/Pkg/Textures/SKIN.PCX", b"not a pcx".to_vec());
        let found = importing_class(&fs, Path::new("/Pkg/Models/skull_d.3d")).unwrap();
        assert_eq!(found.class, Path::new("/Pkg/Classes/Skull.uc"));
        assert_eq!(found.package_dir, Path::new("/Pkg"));
        assert_eq!(found.directives.mesh, "Skull");
        let (images, notes) = found.textures(&fs);
        assert!(images.is_empty());
        expect_test::expect![[r#"
            [
                "texture slot 0: /Pkg/Textures/SKIN.PCX: PCX header at byte 9: expected a 128-byte header, the file has 9 bytes",
                "texture slot 1: Textures\\Gone.pcx not found under /Pkg",
            ]
        "#]]
        .assert_debug_eq(&notes);
        assert_eq!(
            found,
            class_importing(&fs, Path::new("/Pkg/Classes/Skull.uc"), "skull_d.3d").unwrap()
        );
        assert!(importing_class(&fs, Path::new("/Elsewhere/skull_d.3d")).is_none());
    }
}
