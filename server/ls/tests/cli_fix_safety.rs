//! `lint --fix` rewrites files safely: through a symbolic link to the file it points at (the
//! link stays a link), never a read-only file or one with hard links (left alone with a
//! note), keeping the file's mode, and leaving no temporary file behind.
#![cfg(unix)]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::pedantic)]

use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::Command;

/// A polygon whose stored `Normal` is the reverse of its vertices': a safe fix rewrites it.
const FIXABLE: &str = "Begin PolyList\r\n   Begin Polygon\r\n      Origin   +00000.000000,+00000.000000,+00000.000000\r\n      Normal   +00000.000000,+00000.000000,+00001.000000\r\n      Vertex   +00000.000000,+00000.000000,+00000.000000\r\n      Vertex   +00000.000000,+00128.000000,+00000.000000\r\n      Vertex   +00128.000000,+00128.000000,+00000.000000\r\n   End Polygon\r\nEnd PolyList\r\n";

fn scratch(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("unreal-ls-fix-safety-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn fix(dir: &Path, file: &str) -> (Option<i32>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_unreal-ls"))
        .current_dir(dir)
        .args(["lint", "--fix", file])
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    (out.status.code(), String::from_utf8_lossy(&out.stderr).into_owned())
}

fn temp_files(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect()
}

#[test]
fn a_symlinked_file_is_fixed_through_its_link() {
    let dir = scratch("link");
    std::fs::create_dir_all(dir.join("real")).unwrap();
    std::fs::write(dir.join("real/Real.t3d"), FIXABLE).unwrap();
    std::fs::set_permissions(dir.join("real/Real.t3d"), std::fs::Permissions::from_mode(0o640))
        .unwrap();
    std::os::unix::fs::symlink("real/Real.t3d", dir.join("Link.t3d")).unwrap();
    let (code, stderr) = fix(&dir, "Link.t3d");
    assert_eq!(code, Some(0), "{stderr}");
    assert!(dir.join("Link.t3d").is_symlink(), "the link stays a link");
    let fixed = std::fs::read_to_string(dir.join("real/Real.t3d")).unwrap();
    assert!(fixed.contains("Normal   +00000.000000,+00000.000000,-00001.000000"), "{fixed}");
    assert_eq!(std::fs::metadata(dir.join("real/Real.t3d")).unwrap().mode() & 0o777, 0o640);
    assert!(temp_files(&dir.join("real")).is_empty());
}

#[test]
fn read_only_and_hard_linked_files_are_left_alone() {
    let dir = scratch("readonly");
    std::fs::write(dir.join("Locked.t3d"), FIXABLE).unwrap();
    std::fs::set_permissions(dir.join("Locked.t3d"), std::fs::Permissions::from_mode(0o444))
        .unwrap();
    let (code, stderr) = fix(&dir, "Locked.t3d");
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stderr.contains("read-only"), "{stderr}");
    assert_eq!(std::fs::read_to_string(dir.join("Locked.t3d")).unwrap(), FIXABLE);

    std::fs::write(dir.join("Shared.t3d"), FIXABLE).unwrap();
    std::fs::hard_link(dir.join("Shared.t3d"), dir.join("Other.t3d")).unwrap();
    let (code, stderr) = fix(&dir, "Shared.t3d");
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stderr.contains("hard links"), "{stderr}");
    assert_eq!(std::fs::read_to_string(dir.join("Other.t3d")).unwrap(), FIXABLE);
    assert!(temp_files(&dir).is_empty());
}

/// A folder walk does not leave the tree through links: a linked folder or file elsewhere is
/// skipped with a note (and so never rewritten), while a link that stays inside is followed.
#[test]
fn links_out_of_the_tree_are_not_followed() {
    let dir = scratch("escape");
    let (tree, outside) = (dir.join("tree"), dir.join("outside"));
    std::fs::create_dir_all(tree.join("Maps")).unwrap();
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::write(outside.join("Victim.t3d"), FIXABLE).unwrap();
    std::fs::write(outside.join("Lone.t3d"), FIXABLE).unwrap();
    std::fs::write(tree.join("Maps/Own.t3d"), FIXABLE).unwrap();
    std::os::unix::fs::symlink("../outside", tree.join("Elsewhere")).unwrap();
    std::os::unix::fs::symlink("../outside/Lone.t3d", tree.join("Lone.t3d")).unwrap();
    std::os::unix::fs::symlink("Maps", tree.join("MapsAgain")).unwrap();
    std::os::unix::fs::symlink("Maps/Own.t3d", tree.join("Same.t3d")).unwrap();
    let (code, stderr) = fix(&dir, "tree");
    assert_eq!(code, Some(0), "{stderr}");
    let outside_shown = std::fs::canonicalize(&outside).unwrap().display().to_string();
    assert_eq!(
        stderr,
        format!(
            "note: tree/Elsewhere: skipped: a link to {outside_shown}, outside tree; name it on the command line to check it\n\
             note: tree/Lone.t3d: skipped: a link to {outside_shown}/Lone.t3d, outside tree; name it on the command line to check it\n\
             fixed 1 finding in 1 file\n"
        )
    );
    assert_eq!(std::fs::read_to_string(outside.join("Victim.t3d")).unwrap(), FIXABLE);
    assert_eq!(std::fs::read_to_string(outside.join("Lone.t3d")).unwrap(), FIXABLE);
    assert_ne!(std::fs::read_to_string(tree.join("Maps/Own.t3d")).unwrap(), FIXABLE);
    // Named on the command line, a linked folder is the user's choice.
    let (code, stderr) = fix(&dir, "tree/Elsewhere");
    assert_eq!((code, stderr.as_str()), (Some(0), "fixed 2 findings in 2 files\n"), "{stderr}");
}
