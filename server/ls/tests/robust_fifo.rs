//! A FIFO anywhere unreal-ls reads (named on the command line, named by an `#exec` line, sitting
//! in a game folder or in a folder being linted) is refused with a clear note instead of
//! hanging the run: only regular files are opened, without blocking. Each run has a generous
//! guard; a run that reaches it has hung and fails the test (it is not a timing assertion).
#![cfg(unix)]
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const HANG_GUARD: Duration = Duration::from_mins(1);

/// A fresh folder for the test, removed when it ends.
fn scratch(name: &str) -> unreal_test_support::ScratchDir {
    let dir = unreal_test_support::ScratchDir::new(&format!("fifo-{name}"));
    dir
}

fn mkfifo(path: &Path) {
    let status = Command::new("mkfifo").arg(path).status().expect("mkfifo runs");
    assert!(status.success(), "mkfifo {}", path.display());
}

/// Runs the binary; its exit code, stdout and stderr (`NO_COLOR=1`), or a failure if it hangs.
fn run(dir: &Path, args: &[&str]) -> (Option<i32>, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_unreal-ls"))
        .current_dir(dir)
        .args(args)
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    loop {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        if start.elapsed() > HANG_GUARD {
            let _ = child.kill();
            panic!("unreal-ls {args:?} hung on a FIFO");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_fifo_named_on_the_command_line() {
    let dir = scratch("cli");
    mkfifo(&dir.join("pipe.t3d"));
    mkfifo(&dir.join("pipe.utx"));
    let (code, _, stderr) = run(&dir, &["lint", "pipe.t3d"]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("pipe.t3d") && stderr.contains("not a regular file"), "{stderr}");
    let (code, _, stderr) = run(&dir, &["info", "pipe.utx"]);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.contains("not a regular file"), "{stderr}");
    let (code, _, stderr) = run(&dir, &["export", "pipe.utx", "-o", "out"]);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.contains("not a regular file"), "{stderr}");
}

#[test]
fn a_fifo_in_a_linted_folder_an_exec_line_and_a_game_folder() {
    let dir = scratch("tree");
    let package = dir.join("Game/Mod");
    std::fs::create_dir_all(package.join("Classes")).unwrap();
    std::fs::create_dir_all(package.join("Textures")).unwrap();
    std::fs::create_dir_all(dir.join("Game/System")).unwrap();
    std::fs::write(
        package.join("Classes/Mod.uc"),
        "class Mod extends Actor;\r\n#exec TEXTURE IMPORT NAME=Pipe FILE=Textures\\Pipe.pcx\r\n#exec OBJ LOAD FILE=..\\System\\Piped.u\r\n",
    )
    .unwrap();
    mkfifo(&package.join("Textures/Pipe.pcx"));
    mkfifo(&package.join("Classes/Stuck.uc"));
    mkfifo(&dir.join("Game/System/Piped.u"));
    let (code, stdout, stderr) = run(&dir, &["lint", "--game-dir", "Game", "Game/Mod"]);
    // The FIFO in the tree is skipped with a note; the class is checked, and the FIFOs it
    // names are files that cannot be opened (errors of the line), not a hang.
    assert_eq!(code, Some(1), "{stdout}{stderr}");
    assert!(stderr.contains("Stuck.uc") && stderr.contains("not a regular file"), "{stderr}");
    assert!(stdout.contains("`Textures/Pipe.pcx` cannot be opened"), "{stdout}");
    assert!(stdout.contains("`Game/System/Piped.u` cannot be opened"), "{stdout}");
}
