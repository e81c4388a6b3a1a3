//! Issue 30, item 2: a map truncated while `lint` reads it (what a tool rewriting it does)
//! killed the run with SIGBUS: the map is mapped, and the pages past the new end fault. Now
//! the guard in `unreal_formats::mapped` reads them as zeros and the file is reported as
//! changed (exit 2, naming it), or the run finished before the cut. Never a signal. Bounded:
//! a 4 MB map, 8 cuts at 0 to 160 ms, each run killed after 60 s.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

#[test]
fn a_map_truncated_during_lint_is_reported_never_a_crash() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("robust_truncation");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let map = dir.join("Big.t3d");
    let text = unreal_mapgen::generate_map(4_000_000, 3);
    let mut reported = 0;
    for delay in [0, 1, 5, 10, 20, 40, 80, 160] {
        std::fs::write(&map, &text).unwrap();
        let child = Command::new(env!("CARGO_BIN_EXE_unreal-ls"))
            .args(["lint", "--format", "json"])
            .arg(&map)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(delay));
        std::fs::OpenOptions::new().write(true).open(&map).unwrap().set_len(2000).unwrap();
        let started = Instant::now();
        let mut child = child;
        while child.try_wait().unwrap().is_none() {
            if started.elapsed() > Duration::from_mins(1) {
                let _ = child.kill();
                panic!("lint did not end");
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let output = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(output.status.code().is_some(), "cut at {delay} ms: {:?} {stderr}", output.status);
        if stderr.contains("changed while it was being read") {
            assert_eq!(output.status.code(), Some(2), "{stderr}");
            assert!(stderr.contains("Big.t3d"), "{stderr}");
            reported += 1;
        }
    }
    eprintln!("{reported} of 8 runs saw the cut and reported it");
    let _ = std::fs::remove_dir_all(&dir);
}
