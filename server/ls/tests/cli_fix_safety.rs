//! `lint --fix` rewrites files safely: through a symbolic link to the file it points at (the
//! link stays a link), never a read-only file or one with hard links (left alone with a
//! note), never a file out of the tree reached through a link, keeping the file's mode, owner
//! and group, and leaving no temporary file behind, even when terminated or killed mid-run.
//! (The planted-link and concurrent-edit cases are unit tests in `src/cli/fix.rs`.)
#![cfg(unix)]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::pedantic)]

use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::Path;
use std::process::Command;

/// A polygon whose stored `Normal` is the reverse of its vertices': a safe fix rewrites it.
const FIXABLE: &str = "Begin PolyList\r\n   Begin Polygon\r\n      Origin   +00000.000000,+00000.000000,+00000.000000\r\n      Normal   +00000.000000,+00000.000000,+00001.000000\r\n      Vertex   +00000.000000,+00000.000000,+00000.000000\r\n      Vertex   +00000.000000,+00128.000000,+00000.000000\r\n      Vertex   +00128.000000,+00128.000000,+00000.000000\r\n   End Polygon\r\nEnd PolyList\r\n";

/// A fresh folder for the test, removed when it ends.
fn scratch(name: &str) -> unreal_test_support::ScratchDir {
    let dir = unreal_test_support::ScratchDir::new(&format!("fix-safety-{name}"));
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

/// Run as root, the fixed file keeps its owner and group (the temporary file is given them
/// before the rename); as anyone else, a file of their own keeps theirs.
#[test]
fn owner_group_and_mode_are_kept() {
    let dir = scratch("owner");
    let path = dir.join("Owned.t3d");
    std::fs::write(&path, FIXABLE).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o604)).unwrap();
    let me = std::fs::metadata(&path).unwrap();
    // Only root can give a file away; for anyone else this leaves the file theirs.
    let _ = std::os::unix::fs::chown(&path, Some(4321), Some(4322));
    let before = std::fs::metadata(&path).unwrap();
    assert!(me.uid() != 0 || (before.uid(), before.gid()) == (4321, 4322), "root can chown");
    let (code, stderr) = fix(&dir, "Owned.t3d");
    assert_eq!(code, Some(0), "{stderr}");
    let after = std::fs::metadata(&path).unwrap();
    assert_ne!(std::fs::read_to_string(&path).unwrap(), FIXABLE, "fixed: {stderr}");
    assert_eq!((after.uid(), after.gid()), (before.uid(), before.gid()));
    assert_eq!(after.mode() & 0o7777, 0o604);
    assert_ne!(after.ino(), before.ino(), "written through a new file and a rename");
    assert!(temp_files(&dir).is_empty());
}

/// A map of 400 fixable polygons (40 of them are enough writing for a signal to land among
/// it) and its fixed text, from one uninterrupted run in `dir`.
fn signal_test_map(dir: &Path) -> (String, String) {
    let polygon = FIXABLE
        .trim_start_matches("Begin PolyList\r\n")
        .trim_end_matches("End PolyList\r\n")
        .to_owned();
    let map = format!("Begin PolyList\r\n{}End PolyList\r\n", polygon.repeat(400));
    std::fs::write(dir.join("Whole.t3d"), &map).unwrap();
    assert_eq!(fix(dir, "Whole.t3d").0, Some(0));
    let fixed = std::fs::read_to_string(dir.join("Whole.t3d")).unwrap();
    assert_ne!(fixed, map);
    std::fs::remove_file(dir.join("Whole.t3d")).unwrap();
    (map, fixed)
}

/// Writes 40 copies of `map` into `dir` and starts `lint --fix` of the folder.
fn spawn_fix_of_40(dir: &Path, map: &str) -> std::process::Child {
    for i in 0..40 {
        std::fs::write(dir.join(format!("Map{i:02}.t3d")), map).unwrap();
    }
    Command::new(env!("CARGO_BIN_EXE_unreal-ls"))
        .current_dir(dir)
        .args(["lint", "--fix", "--format", "json", "."])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap()
}

/// The 40 maps as they are now.
fn read_40(dir: &Path) -> Vec<String> {
    (0..40).map(|i| std::fs::read_to_string(dir.join(format!("Map{i:02}.t3d"))).unwrap()).collect()
}

/// SIGTERM and SIGINT (Ctrl-C) in the middle of a fix leave no temporary file: whenever the signal
/// lands (before the handler is installed, while files are written, after the run), every
/// file is the old one or the new one and no `.tmp` is left.
#[test]
fn a_terminated_fix_leaves_no_temporary_file() {
    let dir = scratch("sigterm");
    let (map, fixed) = signal_test_map(&dir);
    for (round, delay_ms) in [0u64, 20, 60, 150, 400, 800].into_iter().enumerate() {
        // SIGTERM and SIGINT (Ctrl-C) in turn: one handler serves both.
        let signal = if round % 2 == 0 { "-TERM" } else { "-INT" };
        let child = spawn_fix_of_40(&dir, &map);
        std::thread::sleep(std::time::Duration::from_millis(delay_ms));
        let _ = Command::new("kill").args([signal, &child.id().to_string()]).status();
        let status = child.wait_with_output().unwrap().status;
        let texts = read_40(&dir);
        let written = texts.iter().filter(|t| **t == fixed).count();
        let context = format!("{signal} after {delay_ms} ms ({status:?}, {written} of 40 fixed)");
        assert!(temp_files(&dir).is_empty(), "{context}: {:?}", temp_files(&dir));
        assert!(texts.iter().all(|t| *t == map || *t == fixed), "{context}");
        // Exit 130 from the handler, 0 when the run had ended, or the signal's own status
        // when it landed before the handler was installed.
        assert!(matches!(status.code(), Some(130 | 0) | None), "{context}");
    }
}

/// SIGKILL cannot be caught: whenever it lands in a fix of 40 maps, every map is the old one
/// or the new one, and the next `--fix` of the folder leaves no temporary file (on Linux the
/// new text is written to an anonymous file, named only for the instant before its rename,
/// and the next run removes what a killed run left). Prints how many were left at once.
#[test]
fn a_killed_fix_leaves_old_or_new_maps_and_the_next_run_no_temporary_file() {
    let dir = scratch("sigkill");
    let (map, fixed) = signal_test_map(&dir);
    let mut report = Vec::new();
    for delay_ms in [0u64, 20, 60, 150, 300, 500, 800, 1200] {
        let mut child = spawn_fix_of_40(&dir, &map);
        std::thread::sleep(std::time::Duration::from_millis(delay_ms));
        child.kill().unwrap();
        let status = child.wait().unwrap();
        let texts = read_40(&dir);
        let written = texts.iter().filter(|t| **t == fixed).count();
        let left = temp_files(&dir).len();
        let context = format!("SIGKILL after {delay_ms} ms ({status:?}, {written} of 40 fixed)");
        assert!(texts.iter().all(|t| *t == map || *t == fixed), "{context}");
        report.push(format!("{delay_ms} ms: {written} fixed, {left} temporary left"));
        // The next run finishes the job and sweeps what the killed one left.
        let (code, stderr) = fix(&dir, ".");
        assert_eq!(code, Some(0), "{context}: {stderr}");
        assert!(temp_files(&dir).is_empty(), "{context}: {:?}", temp_files(&dir));
        for i in 0..40 {
            let text = std::fs::read_to_string(dir.join(format!("Map{i:02}.t3d"))).unwrap();
            assert!(text == fixed, "{context}: Map{i:02} fixed by the next run");
        }
    }
    eprintln!("SIGKILL during a fix of 40 maps: {}", report.join("; "));
}

/// The sweep removes only what is certainly a killed fix's: a regular file named as `--fix`
/// names its temporary files, in a folder it fixes, made by a process that no longer runs.
/// A live process's file, a link with such a name, other names and other folders stay.
#[cfg(target_os = "linux")]
#[test]
fn the_next_fix_removes_only_temporary_files_of_dead_fixes() {
    let dir = scratch("sweep");
    std::fs::create_dir_all(dir.join("Other")).unwrap();
    std::fs::write(dir.join("Map.t3d"), FIXABLE).unwrap();
    // A process that has ended: its id names no process (until reused, which leaves the file).
    let mut ended = Command::new("true").spawn().unwrap();
    ended.wait().unwrap();
    let dead = ended.id();
    let alive = std::process::id();
    let stale = format!(".Map.t3d.unreal-ls-{dead}-0123456789abcdef.tmp");
    let live = format!(".Map.t3d.unreal-ls-{alive}-0123456789abcdef.tmp");
    let link = format!(".B.t3d.unreal-ls-{dead}-fedcba9876543210.tmp");
    let not_ours = [
        format!(".Map.t3d.unreal-ls-{dead}-0123.tmp"),
        format!(".Map.t3d.unreal-ls-{dead}.tmp"),
        format!("Map.t3d.unreal-ls-x{dead}-0123456789abcdef.tmp"),
        "notes.tmp".to_owned(),
    ];
    for name in [&stale, &live].into_iter().chain(&not_ours) {
        std::fs::write(dir.join(name), "left").unwrap();
    }
    std::fs::write(dir.join("victim"), "precious").unwrap();
    std::os::unix::fs::symlink("victim", dir.join(&link)).unwrap();
    std::fs::write(dir.join("Other").join(&stale), "left").unwrap();
    let (code, stderr) = fix(&dir, "Map.t3d");
    assert_eq!(code, Some(0), "{stderr}");
    let mut left = temp_files(&dir);
    left.sort();
    let mut expected: Vec<String> = [&live, &link].into_iter().chain(&not_ours).cloned().collect();
    expected.sort();
    assert_eq!(left, expected);
    assert!(dir.join("Other").join(&stale).exists(), "a folder not fixed is not swept");
    assert_eq!(std::fs::read_to_string(dir.join("victim")).unwrap(), "precious");
    // A folder is swept even when nothing in it needs a fix.
    std::fs::write(dir.join(&stale), "left again").unwrap();
    let (code, stderr) = fix(&dir, "Map.t3d");
    assert_eq!(code, Some(0), "{stderr}");
    assert!(!dir.join(&stale).exists());
}

/// `exclude` with thousands of long patterns (about 660 KB, far more than one compiled set
/// holds) protects the files it names from `--fix`: before, beyond about 640 such patterns
/// the list was silently empty and the files it protected were rewritten.
#[test]
fn thousands_of_exclude_patterns_protect_their_files() {
    let dir = scratch("exclude");
    std::fs::create_dir_all(dir.join("Maps/Protected")).unwrap();
    std::fs::write(dir.join("Maps/Protected/Keep.t3d"), FIXABLE).unwrap();
    std::fs::write(dir.join("Maps/Mine.t3d"), FIXABLE).unwrap();
    let long = "Some_Long_Folder_Name_".repeat(9);
    // 2,000 with a wildcard (compiled in many sets), 1,000 plain (compared as text).
    let mut patterns: Vec<String> =
        (0..2000).map(|i| format!("\"Maps/{long}/Map{i:04}?.t3d\"")).collect();
    patterns.extend((0..1000).map(|i| format!("\"Maps/{long}/Plain{i:04}.t3d\"")));
    patterns.push("\"Maps/Protected/\"".to_owned());
    std::fs::write(
        dir.join("unreal-ls.toml"),
        format!("exclude = [\n{}\n]\n", patterns.join(",\n")),
    )
    .unwrap();
    let (code, stderr) = fix(&dir, ".");
    assert_eq!((code, stderr.as_str()), (Some(0), "fixed 1 finding in 1 file\n"));
    assert_eq!(std::fs::read_to_string(dir.join("Maps/Protected/Keep.t3d")).unwrap(), FIXABLE);
    assert_ne!(std::fs::read_to_string(dir.join("Maps/Mine.t3d")).unwrap(), FIXABLE);
}
