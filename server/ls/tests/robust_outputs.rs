//! Issue 30, item 1: every output (`--write-baseline`, `render -o`, `export -o`) goes through
//! one writer: never through a symbolic link, onto a device, FIFO or folder, or over the
//! command's own input; an existing file only with `--force` (a baseline, unreal-ls's own
//! file, is rewritten); the old file intact when the write fails (unit tests in
//! `src/cli/output.rs` make the write fail half-way). Each probe is bounded in time: a FIFO
//! output hung `render` forever.
#![allow(clippy::unwrap_used, clippy::expect_used)]
// Every probe uses symbolic links, FIFOs or devices: Unix only.
#![cfg(unix)]

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const MAP: &str = "tests/fixtures/diff/base.t3d";

struct Run {
    code: Option<i32>,
    stderr: String,
}

/// Runs the binary in `cwd`; killed (and the test failed) after 60 s.
fn run(cwd: &Path, args: &[&str]) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_unreal-ls"))
        .args(args)
        .current_dir(cwd)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_mins(1);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("unreal-ls {args:?} hangs");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let output = child.wait_with_output().unwrap();
    Run { code: output.status.code(), stderr: String::from_utf8_lossy(&output.stderr).into_owned() }
}

fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("robust_outputs").join(name);
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    fs::copy(Path::new(env!("CARGO_MANIFEST_DIR")).join(MAP), dir.join("map.t3d")).unwrap();
    dir
}

fn mkfifo(path: &Path) -> bool {
    Command::new("mkfifo").arg(path).status().is_ok_and(|s| s.success())
}

/// `ln -s ~/.bashrc lint-baseline.json; unreal-ls lint --write-baseline lint-baseline.json`
/// overwrote the link's target (exit 0). Now refused, naming the link; the target intact.
#[cfg(unix)]
#[test]
fn write_baseline_refuses_a_symbolic_link() {
    let dir = scratch("baseline-link");
    fs::write(dir.join("bashrc"), "precious").unwrap();
    std::os::unix::fs::symlink(dir.join("bashrc"), dir.join("lint-baseline.json")).unwrap();
    let result = run(&dir, &["lint", "--write-baseline", "lint-baseline.json", "map.t3d"]);
    assert_eq!(result.code, Some(2), "{}", result.stderr);
    assert!(
        result.stderr.contains("lint-baseline.json: writing the baseline: it is a symbolic link"),
        "{}",
        result.stderr
    );
    assert_eq!(fs::read_to_string(dir.join("bashrc")).unwrap(), "precious");
    assert!(dir.join("lint-baseline.json").is_symlink());
    // The map named as its own baseline is not written over either.
    let before = fs::read(dir.join("map.t3d")).unwrap();
    let result = run(&dir, &["lint", "--write-baseline", "map.t3d", "map.t3d"]);
    assert_eq!(result.code, Some(2), "{}", result.stderr);
    assert!(result.stderr.contains("own input"), "{}", result.stderr);
    assert_eq!(fs::read(dir.join("map.t3d")).unwrap(), before);
    // A regular baseline is still rewritten (it is unreal-ls's own file).
    fs::write(dir.join("old.json"), "old").unwrap();
    let result = run(&dir, &["lint", "--write-baseline", "old.json", "map.t3d"]);
    assert_eq!(result.code, Some(0), "{}", result.stderr);
    assert!(fs::read_to_string(dir.join("old.json")).unwrap().starts_with("{\"version\":1"));
}

/// `render map.t3d -o map.t3d` overwrote its own input; `-o link.png` wrote through a link;
/// `-o fifo.png` hung forever; an existing picture was replaced without `--force`.
#[cfg(unix)]
#[test]
fn render_writes_only_where_it_may() {
    let dir = scratch("render");
    let map = fs::read(dir.join("map.t3d")).unwrap();
    let result = run(&dir, &["render", "map.t3d", "-o", "map.t3d"]);
    assert_eq!(result.code, Some(1), "{}", result.stderr);
    assert!(result.stderr.contains("the command's own input"), "{}", result.stderr);
    let result = run(&dir, &["render", "map.t3d", "-o", "map.t3d", "--force"]);
    assert_eq!(result.code, Some(1), "--force never replaces the input: {}", result.stderr);
    assert_eq!(fs::read(dir.join("map.t3d")).unwrap(), map);

    fs::write(dir.join("victim"), "precious").unwrap();
    std::os::unix::fs::symlink(dir.join("victim"), dir.join("link.png")).unwrap();
    let result = run(&dir, &["render", "map.t3d", "-o", "link.png"]);
    assert_eq!(result.code, Some(1), "{}", result.stderr);
    assert!(result.stderr.contains("symbolic link"), "{}", result.stderr);
    let result = run(&dir, &["render", "map.t3d", "-o", "link.png", "--force"]);
    assert_eq!(result.code, Some(0), "{}", result.stderr);
    assert_eq!(fs::read_to_string(dir.join("victim")).unwrap(), "precious");
    assert!(!dir.join("link.png").is_symlink(), "--force replaces the link itself");

    if mkfifo(&dir.join("fifo.png")) {
        let result = run(&dir, &["render", "map.t3d", "-o", "fifo.png", "--force"]);
        assert_eq!(result.code, Some(1), "{}", result.stderr);
        assert!(result.stderr.contains("not a regular file"), "{}", result.stderr);
    }
    fs::create_dir(dir.join("folder.png")).unwrap();
    let result = run(&dir, &["render", "map.t3d", "-o", "folder.png", "--force"]);
    assert!(result.stderr.contains("it is a folder"), "{}", result.stderr);

    let result = run(&dir, &["render", "map.t3d", "-o", "new.png"]);
    assert_eq!(result.code, Some(0), "{}", result.stderr);
    let result = run(&dir, &["render", "map.t3d", "-o", "new.png"]);
    assert_eq!(result.code, Some(1), "{}", result.stderr);
    assert!(result.stderr.contains("pass --force"), "{}", result.stderr);
    let leftovers: Vec<_> = fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.contains(".unreal-ls-"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

/// `export --force -o fifo` (or a device) replaced it with a plain file; the input is never
/// an output.
#[cfg(unix)]
#[test]
fn export_force_refuses_special_files_and_its_input() {
    let dir = scratch("export");
    if mkfifo(&dir.join("fifo.obj")) {
        let result = run(&dir, &["export", "map.t3d", "--to", "obj", "-o", "fifo.obj", "--force"]);
        assert_eq!(result.code, Some(1), "{}", result.stderr);
        assert!(result.stderr.contains("not a regular file"), "{}", result.stderr);
        assert!(std::os::unix::fs::FileTypeExt::is_fifo(
            &fs::symlink_metadata(dir.join("fifo.obj")).unwrap().file_type()
        ));
    }
    let map = fs::read(dir.join("map.t3d")).unwrap();
    let result = run(&dir, &["export", "map.t3d", "--to", "obj", "-o", "map.t3d", "--force"]);
    assert_eq!(result.code, Some(1), "{}", result.stderr);
    assert!(result.stderr.contains("own input"), "{}", result.stderr);
    assert_eq!(fs::read(dir.join("map.t3d")).unwrap(), map);
}
