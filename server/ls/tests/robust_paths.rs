//! Paths in `#exec` directives that lead out of the places unreal-ls may read (the package
//! folder, the game folder, configured package paths): `..\..\..\..\etc\passwd`, absolute
//! paths, a drive letter, and symbolic links inside the package that lead out. Each gets a
//! diagnostic on the path, and the file it names is not read.
//!
//! "Not read" is checked two ways: in-process, the analysis runs over a file system that
//! records every folder listed and every file read, and nothing outside the allowed roots may
//! appear; through the CLI, the outside files are images whose headers are broken, so reading
//! one would add a finding about its content, and none may appear.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::pedantic)]
// The trees are built with symbolic links: Unix only.
#![cfg(unix)]

mod robust_common;

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use robust_common::TempDir;
use unreal_analysis::exec::{DirEntry, FileSystem, RealFs};
use unreal_analysis::lint::{lint_path, FileKind, LintOptions, LintSession};

/// The real file system, with a log of everything asked of it.
#[derive(Default)]
struct RecordingFs {
    touched: Mutex<Vec<PathBuf>>,
}

impl RecordingFs {
    fn note(&self, path: &Path) {
        self.touched.lock().unwrap().push(path.to_path_buf());
    }
}

impl FileSystem for RecordingFs {
    fn read_dir(&self, dir: &Path) -> Option<Vec<DirEntry>> {
        self.note(dir);
        RealFs.read_dir(dir)
    }

    fn read(&self, path: &Path) -> Option<Vec<u8>> {
        self.note(path);
        RealFs.read(path)
    }

    fn absolute(&self, path: &Path) -> Option<PathBuf> {
        RealFs.absolute(path)
    }

    /// Not logged: resolving a link reads no file and lists no folder.
    fn real_path(&self, path: &Path) -> Option<PathBuf> {
        RealFs.real_path(path)
    }
}

/// A game folder with one mod package, and beside it (outside) a folder of files that no
/// directive may read. Returns (game dir, the class file, the outside dir).
struct Tree {
    _temp: TempDir,
    game: PathBuf,
    class: PathBuf,
    outside: PathBuf,
}

/// A PCX whose header is broken: reading it gives a finding about its content.
const BROKEN_PCX: &[u8] = b"\x0a\x05\x01\x08not really a pcx";

fn tree(directives: &str) -> Tree {
    let temp = TempDir::new("paths");
    let game = temp.path().join("Game");
    let package = game.join("MyMod");
    let outside = temp.path().join("Outside");
    for dir in
        [package.join("Classes"), package.join("Textures"), game.join("System"), outside.clone()]
    {
        std::fs::create_dir_all(dir).unwrap();
    }
    std::fs::write(outside.join("secret.pcx"), BROKEN_PCX).unwrap();
    std::fs::write(outside.join("passwd"), BROKEN_PCX).unwrap();
    std::fs::write(package.join("Textures").join("Ok.pcx"), BROKEN_PCX).unwrap();
    // A link to a folder outside, and a link to a file outside, both inside the package.
    std::os::unix::fs::symlink(&outside, package.join("Textures").join("Linked")).unwrap();
    std::os::unix::fs::symlink(
        outside.join("secret.pcx"),
        package.join("Textures").join("Leak.pcx"),
    )
    .unwrap();
    let class = package.join("Classes").join("Paths.uc");
    std::fs::write(&class, format!("class Paths extends Actor;\r\n{directives}")).unwrap();
    Tree {
        game: game.canonicalize().unwrap(),
        class,
        outside: outside.canonicalize().unwrap(),
        _temp: temp,
    }
}

/// The `#exec` lines under test, one path each; the comment names the case.
fn directive(case: &str, file: &str) -> String {
    format!("#exec TEXTURE IMPORT NAME={case} FILE={file} GROUP=G\r\n")
}

fn relative_escape() -> String {
    directive("Relative", r"..\..\..\..\..\..\..\..\Outside\passwd")
}

fn cases(outside: &Path) -> Vec<(&'static str, String)> {
    vec![
        ("relative", relative_escape()),
        ("etc-passwd", directive("Passwd", r"..\..\..\..\etc\passwd")),
        ("absolute", directive("Absolute", &outside.join("secret.pcx").display().to_string())),
        ("drive", directive("Drive", r"C:\Windows\secret.pcx")),
        ("rooted", directive("Rooted", r"\etc\passwd")),
        ("linked-folder", directive("LinkedFolder", r"Textures\Linked\secret.pcx")),
        ("linked-file", directive("LinkedFile", r"Textures\Leak.pcx")),
    ]
}

/// Lints the class with a recording file system; returns the findings on the directive lines
/// (code and line) and the paths touched outside the game folder.
fn lint_recorded(tree: &Tree) -> (Vec<(String, usize)>, Vec<PathBuf>) {
    let fs = Arc::new(RecordingFs::default());
    let options = LintOptions { game_dir: Some(tree.game.clone()), ..LintOptions::default() };
    let session = LintSession::with_fs(fs.clone(), &options);
    let bytes = std::fs::read(&tree.class).unwrap();
    let linted = lint_path(FileKind::UnrealScript, &tree.class, &bytes, &options, &session);
    let index = unreal_analysis::LineIndex::new(&linted.text);
    let findings = linted
        .diagnostics
        .iter()
        .map(|d| {
            let at = index.line_col(
                &linted.text,
                d.span.start,
                unreal_analysis::line_index::ColumnUnit::Chars,
            );
            (d.code.to_owned(), at.line as usize + 1)
        })
        .collect();
    let outside: Vec<PathBuf> = fs
        .touched
        .lock()
        .unwrap()
        .iter()
        .filter(|p| {
            let real = p.canonicalize().unwrap_or_else(|_| std::path::absolute(p).unwrap());
            !real.starts_with(&tree.game)
        })
        .cloned()
        .collect();
    (findings, outside)
}

/// Findings that show a file was read: its content judged.
const CONTENT_CODES: &[&str] = &["exec-unreadable-file", "exec-texture-unimportable"];

#[test]
fn directives_leading_out_get_a_diagnostic_and_are_not_read() {
    let probe = tree("");
    let mut report = String::new();
    for (case, line) in cases(&probe.outside) {
        let tree = tree(&line);
        let (findings, touched) = lint_recorded(&tree);
        let on_line: Vec<&str> =
            findings.iter().filter(|(_, l)| *l == 2).map(|(c, _)| c.as_str()).collect();
        let read_outside = touched.iter().any(|p| {
            p.starts_with(&tree.outside)
                || p.canonicalize().is_ok_and(|c| c.starts_with(&tree.outside))
        });
        report.push_str(&format!(
            "{case}: {}; outside touched: {}\n",
            if on_line.is_empty() { "no finding".to_owned() } else { on_line.join(", ") },
            if touched.is_empty() {
                "nothing".to_owned()
            } else if read_outside {
                "THE OUTSIDE FILES".to_owned()
            } else {
                format!("{} other paths", touched.len())
            },
        ));
    }
    expect_test::expect![[r#"
        relative: exec-path-outside-package; outside touched: nothing
        etc-passwd: exec-path-outside-package; outside touched: nothing
        absolute: exec-path-outside-package; outside touched: nothing
        drive: exec-path-outside-package; outside touched: nothing
        rooted: exec-path-outside-package; outside touched: nothing
        linked-folder: exec-path-outside-package; outside touched: nothing
        linked-file: exec-path-outside-package; outside touched: nothing
    "#]]
    .assert_eq(&report);
}

/// The same tree through `unreal-ls lint --game-dir`: every escaping path has a finding on
/// its line, and no finding judges the content of a file outside.
#[test]
fn the_cli_reports_escaping_paths_and_reads_none() {
    let probe = tree("");
    let all: String = cases(&probe.outside).iter().map(|(_, l)| l.as_str()).collect();
    let tree = tree(&all);
    let output = std::process::Command::new(robust_common::binary())
        .args(["lint", "--format", "json", "--game-dir"])
        .arg(&tree.game)
        .arg(&tree.class)
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    assert!(
        matches!(output.status.code(), Some(0 | 1)),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let mut out = String::new();
    for (i, (case, _)) in cases(&probe.outside).iter().enumerate() {
        let line = i as u64 + 2;
        // At the line, or listed as a place of a finding that counts several (one info for
        // the paths of a file that share a cause).
        let codes: Vec<&str> = report["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|d| {
                d["line"] == line
                    || d["related"]
                        .as_array()
                        .is_some_and(|places| places.iter().any(|p| p["line"] == line))
            })
            .map(|d| d["code"].as_str().unwrap())
            .collect();
        let read = codes.iter().any(|c| CONTENT_CODES.contains(c));
        out.push_str(&format!(
            "{case}: {}{}\n",
            codes.join(", "),
            if read { " (READ)" } else { "" }
        ));
    }
    expect_test::expect![[r#"
        relative: exec-path-outside-package
        etc-passwd: exec-path-outside-package
        absolute: exec-path-outside-package
        drive: exec-path-outside-package
        rooted: exec-path-outside-package
        linked-folder: exec-path-outside-package
        linked-file: exec-path-outside-package
    "#]]
    .assert_eq(&out);
}
