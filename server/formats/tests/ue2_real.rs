//! Every UE2 `StaticMesh`, `SkeletalMesh` and `MeshAnimation` in the UT2004 files next to the
//! project (`../trees/ut2004`: the maps, `StreamlineFX`'s `.usx`, the `.ukx` animations), read
//! with the readers; skipped with a note when the files are absent (they are never part of the
//! project). Every object must read: a failure lists the object and the reader's error.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::pedantic)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use unreal_formats::package::Package;

fn ut2004() -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../trees/ut2004");
    if dir.is_dir() {
        Some(dir)
    } else {
        println!(
            "skipping: UT2004 files not found at {} (they are never part of the project)",
            dir.display()
        );
        None
    }
}

fn files(root: &Path, folder: &str, ext: &str) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(root.join(folder)) else { return Vec::new() };
    let mut out: Vec<PathBuf> = entries
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e.eq_ignore_ascii_case(ext)))
        .collect();
    out.sort();
    out
}

#[test]
fn every_ut2004_mesh_and_animation_reads() {
    let Some(root) = ut2004() else { return };
    let mut paths = files(&root, "Maps", "ut2");
    paths.extend(files(&root, "StreamlineFX/staticmeshes", "usx"));
    paths.extend(files(&root, "Animations", "ukx"));
    let mut read: BTreeMap<&str, usize> = BTreeMap::new();
    let mut total: BTreeMap<&str, usize> = BTreeMap::new();
    let mut failures = Vec::new();
    for path in &paths {
        let bytes = std::fs::read(path).unwrap();
        let package = Package::parse(&bytes).unwrap();
        for o in package.objects() {
            let result = match o.class {
                "StaticMesh" => package.read_static_mesh_ue2(o.export).map(|_| ()),
                "SkeletalMesh" => package.read_skeletal_mesh_ue2(o.export).map(|_| ()),
                "MeshAnimation" => package.read_mesh_animation_ue2(o.export).map(|_| ()),
                _ => continue,
            };
            let class = match o.class {
                "StaticMesh" => "StaticMesh",
                "SkeletalMesh" => "SkeletalMesh",
                _ => "MeshAnimation",
            };
            *total.entry(class).or_default() += 1;
            match result {
                Ok(()) => *read.entry(class).or_default() += 1,
                Err(e) => failures.push(format!("{}: {e}", path.display())),
            }
        }
    }
    println!("{} files; read {read:?} of {total:?}", paths.len());
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
}
