//! Issue 30, item 2: a map truncated while `lint` reads it (what a tool rewriting it does)
//! killed the run with SIGBUS: the map is mapped, and the pages past the new end fault. Now
//! the guard in `unreal_formats::mapped` reads them as zeros and the file is reported as
//! changed (exit 2, naming it), or the run finished before the cut. Never a signal. Bounded:
//! a 4 MB map, 8 cuts at 0 to 160 ms, each run killed after 60 s.
//!
//! Issue 43, item 8: a run on a big map cut in the middle sometimes never ended (the zeros
//! read past the new end make lines of megabytes, and the lines of thousands of segments
//! were each searched over them). Now lost pages read as line feeds and the work stops once a read met the cut: a 30 MB map
//! cut at moments through its run, each run bounded in time.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

#[test]
fn a_map_truncated_during_lint_is_reported_never_a_crash() {
    let reported = cut_during_lint("robust_truncation", 4_000_000, &[0, 1, 5, 10, 20, 40, 80, 160]);
    eprintln!("{reported} of 8 runs saw the cut and reported it");
}

#[test]
fn a_big_map_cut_at_any_moment_ends_the_run_within_its_bound() {
    let delays = [100, 400, 900, 1600, 2400];
    let reported = cut_during_lint("robust_truncation_big", 30_000_000, &delays);
    eprintln!("{reported} of {} runs saw the cut and reported it", delays.len());
    assert!(reported > 0, "no run saw the cut: the map is read too fast for this test");
}

/// Lints a generated map of about `size` bytes once per delay, cutting it to 2,000 bytes
/// that many milliseconds into the run; each run must end (within a minute) with an exit
/// code, and a run that saw the cut says so. Returns how many did.
fn cut_during_lint(name: &str, size: usize, delays: &[u64]) -> usize {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let map = dir.join("Big.t3d");
    let text = unreal_mapgen::generate_map(size, 3);
    let mut reported = 0;
    for &delay in delays {
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
                panic!("lint did not end within a minute of the cut at {delay} ms");
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
    let _ = std::fs::remove_dir_all(&dir);
    reported
}
