//! `unreal-ls export` of a crafted package writes only inside `-o`: object and group names
//! such as `../../../evil`, `/abs/path`, `C:\x` or `a/b` become plain file names there, two
//! objects that would share a file name get one each (`Name`, `Name-2`), an existing file is
//! replaced only with `--force`, and a symbolic link at a destination is never written
//! through. Names with escape sequences reach the terminal escaped, in `export`'s and `info`'s
//! output and in `lint`'s messages and paths.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::pedantic)]

use unreal_test_support::writers;

use std::path::Path;
use std::process::Command;

use writers::{write_props, PackageWriter};

/// A fresh folder for the test, removed when it ends.
fn scratch(name: &str) -> unreal_test_support::ScratchDir {
    let dir = unreal_test_support::ScratchDir::new(&format!("export-safety-{name}"));
    dir
}

/// A package whose TextBuffers (each one exports as a `.uc` file) sit under crafted names.
fn crafted_package(names: &[(&str, &str)]) -> Vec<u8> {
    let mut w = PackageWriter::new(69, 0);
    let text = w.import("Core", "Class", 0, "TextBuffer");
    let package = w.import("Core", "Class", 0, "Package");
    for (group, name) in names {
        let outer = if group.is_empty() {
            0
        } else {
            w.export(package, 0, group, 0, Box::new(|o, w| write_props(o, &[], w.none())))
        };
        let body = format!("// {name}\r\n");
        w.export(
            text,
            outer,
            name,
            0,
            Box::new(move |o, w| {
                write_props(o, &[], w.none());
                o.u32(0).u32(0).fstring(&body);
            }),
        );
    }
    w.finish()
}

fn run(dir: &Path, args: &[&str]) -> (Option<i32>, String, String) {
    let out =
        Command::new(env!("CARGO_BIN_EXE_unreal-ls")).current_dir(dir).args(args).output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Every file under `root`, relative, sorted.
fn files_under(root: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() && !path.is_symlink() {
                stack.push(path);
            } else {
                out.push(path.strip_prefix(root).unwrap().to_string_lossy().into_owned());
            }
        }
    }
    out.sort();
    out
}

#[test]
fn crafted_names_stay_inside_the_output_folder() {
    let dir = scratch("names");
    std::fs::create_dir_all(dir.join("deep/down")).unwrap();
    let names = [
        ("", "../../../evil"),
        ("", "/abs/path"),
        ("", "C:\\x"),
        ("", "a/b"),
        ("../../../Victim_", "Class"),
        ("", "Twin"),
        ("", "twin"),
        ("", "\u{1b}[2JClear"),
    ];
    std::fs::write(dir.join("deep/down/Crafted.u"), crafted_package(&names)).unwrap();
    let (code, stdout, stderr) = run(&dir.join("deep/down"), &["export", "Crafted.u", "-o", "out"]);
    assert_eq!(code, Some(0), "{stdout}{stderr}");
    // Nothing outside `out`, one file per object.
    let mut all = files_under(&dir);
    all.retain(|f| !f.ends_with("Crafted.u"));
    expect_test::expect![[r#"
        deep/down/out/C__x.uc
        deep/down/out/Twin.uc
        deep/down/out/_.._.._.._Victim_.Class.uc
        deep/down/out/_.._.._.._evil.uc
        deep/down/out/__2JClear.uc
        deep/down/out/_abs_path.uc
        deep/down/out/a_b.uc
        deep/down/out/twin-2.uc"#]]
    .assert_eq(&all.join("\n"));
    assert!(stdout.contains("8 objects written"), "{stdout}");
    assert!(!stdout.contains('\u{1b}') && !stderr.contains('\u{1b}'), "escapes reach the terminal");
}

#[test]
fn existing_files_and_links_are_not_written_through() {
    let dir = scratch("links");
    std::fs::write(dir.join("Crafted.u"), crafted_package(&[("", "Target")])).unwrap();
    std::fs::create_dir_all(dir.join("out")).unwrap();
    std::fs::write(dir.join("outside.txt"), "keep me").unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(dir.join("outside.txt"), dir.join("out/Target.uc")).unwrap();
    let (code, _, stderr) = run(&dir, &["export", "Crafted.u", "-o", "out"]);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.contains("exists; pass --force"), "{stderr}");
    assert_eq!(std::fs::read_to_string(dir.join("outside.txt")).unwrap(), "keep me");

    // With --force the link itself is replaced by a file; its target is untouched.
    let (code, _, stderr) = run(&dir, &["export", "Crafted.u", "-o", "out", "--force"]);
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(std::fs::read_to_string(dir.join("outside.txt")).unwrap(), "keep me");
    assert!(!dir.join("out/Target.uc").is_symlink());
    assert!(std::fs::read_to_string(dir.join("out/Target.uc")).unwrap().contains("Target"));

    // A single object to a file that exists: refused without --force.
    let (code, _, stderr) =
        run(&dir, &["export", "Crafted.u", "--object", "Target", "-o", "outside.txt"]);
    assert_eq!(code, Some(1), "{stderr}");
    assert_eq!(std::fs::read_to_string(dir.join("outside.txt")).unwrap(), "keep me");
}

/// `info` prints a package's object names with their control characters escaped.
#[test]
fn info_escapes_control_characters() {
    let dir = scratch("info");
    std::fs::write(dir.join("Evil.u"), crafted_package(&[("", "\u{1b}[2J\u{7}Bell\rBack")]))
        .unwrap();
    let (code, stdout, stderr) = run(&dir, &["info", "Evil.u"]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(!stdout.chars().any(|c| c.is_control() && c != '\n'), "{stdout:?}");
    assert!(stdout.contains("\\u{1b}[2J\\u{7}Bell\\u{d}Back"), "{stdout}");
    // C1 controls too: names are Windows-1252, whose undefined bytes 0x81, 0x8D, 0x8F, 0x90
    // and 0x9D decode to U+0081...; the writer stores "\u{8d}" as C2 8D, read back as "Â\u{8d}".
    std::fs::write(dir.join("C1.u"), crafted_package(&[("", "C1\u{8d}[2J\u{9d}Name")])).unwrap();
    let (code, stdout, stderr) = run(&dir, &["info", "C1.u"]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(!stdout.chars().any(|c| c.is_control() && c != '\n'), "{stdout:?}");
    assert!(stdout.contains("\\u{8d}[2J"), "{stdout}");
}

/// `lint`'s human output quotes the files in messages (a key, a value, a whole line) and
/// names them in paths: with colour forced (as on a terminal, where escape sequences are not
/// stripped), none of their control characters is written raw, on stdout or stderr.
#[test]
fn lint_escapes_control_characters_in_messages_and_paths() {
    let dir = scratch("lint");
    std::fs::create_dir_all(dir.join("Classes")).unwrap();
    std::fs::write(
        dir.join("Classes/A.uc"),
        "class A extends Actor;\r\n#exec TEXTURE IMPORT NAME=a FILE=Textures\\\u{1b}[2Jx.bmp FO\u{1b}[31mO=1 \u{9b}2J\r\n",
    )
    .unwrap();
    let polygon = "Begin PolyList\r\n   Begin Polygon\r\n      Vertx\u{1b}]0;title\u{7}   +00000.000000,+00000.000000,+00000.000000\r\n   End Polygon\r\nEnd PolyList\r\n";
    #[cfg(unix)]
    std::fs::write(dir.join("\u{1b}[2JEvil.t3d"), polygon).unwrap();
    #[cfg(not(unix))]
    std::fs::write(dir.join("Evil.t3d"), polygon).unwrap();
    std::fs::write(dir.join("Broken\u{1b}[5m.t3d"), b"\xFF\xFE\x00").unwrap_or(());
    let out = Command::new(env!("CARGO_BIN_EXE_unreal-ls"))
        .current_dir(&dir)
        .args(["lint", "--game", "ut99", "."])
        .env("CLICOLOR_FORCE", "1")
        .env_remove("NO_COLOR")
        .output()
        .unwrap();
    let (stdout, stderr) =
        (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains("\u{1b}[1m"), "colour is on: {stdout}");
    // The only escape sequences left are the renderer's own SGR colours (ESC [ digits ; m).
    let raw: Vec<&str> = stdout
        .split('\u{1b}')
        .skip(1)
        .filter(|rest| {
            let sgr = rest
                .strip_prefix('[')
                .map(|r| r.trim_start_matches(|c: char| c.is_ascii_digit() || c == ';'));
            !sgr.is_some_and(|r| r.starts_with('m'))
                || rest.starts_with("[2J")
                || rest.starts_with("[31mO")
        })
        .collect();
    assert!(raw.is_empty(), "raw escape sequences: {raw:?}\n{stdout}");
    for text in [&stdout, &stderr] {
        assert!(
            !text.chars().any(|c| c.is_control() && !matches!(c, '\n' | '\t' | '\u{1b}')),
            "{text:?}"
        );
    }
    assert!(stdout.contains("`FO\\u{1b}[31mO=`"), "{stdout}");
    assert!(stdout.contains("Vertx\\u{1b}]0;title\\u{7}"), "{stdout}");
    #[cfg(unix)]
    assert!(stdout.contains("\\u{1b}[2JEvil.t3d:3:7"), "{stdout}");
}

/// `lint --format github`: a file name with `%`, `,`, `:`, CR, LF and ESC, and a message
/// quoting `%`, `::` and `,`, each stay inside their own command and property: one line per
/// finding, properties escaped as the runner unescapes them (`%25 %0D %0A %3A %2C`), ESC
/// written as `\u{1b}`.
#[cfg(unix)]
#[test]
fn github_annotations_escape_file_names_and_messages() {
    let dir = scratch("github");
    let polygon = "Begin PolyList\r\n   Begin Polygon\r\n      Vertx 50% a::b,c\r\n   End Polygon\r\nEnd PolyList\r\n";
    let name = "50%,a:b\r\nc\u{1b}[2J.t3d";
    std::fs::write(dir.join(name), polygon).unwrap();
    let run = |format: &str| {
        let out = Command::new(env!("CARGO_BIN_EXE_unreal-ls"))
            .current_dir(&dir)
            .args(["lint", "--format", format, "."])
            .env("NO_COLOR", "1")
            .output()
            .unwrap();
        String::from_utf8(out.stdout).unwrap()
    };
    let json: serde_json::Value = serde_json::from_str(&run("json")).unwrap();
    let findings = json["diagnostics"].as_array().unwrap().len();
    assert!(findings > 0, "{json}");
    let github = run("github");
    assert_eq!(github.lines().count(), findings, "{github}");
    let unescape = |text: &str| {
        text.replace("%0D", "\r")
            .replace("%0A", "\n")
            .replace("%3A", ":")
            .replace("%2C", ",")
            .replace("%25", "%")
    };
    let mut quoted = false;
    for line in github.lines() {
        assert!(line.starts_with("::"), "{line}");
        assert!(!line.contains('\u{1b}') && !line.contains('\r'), "{line:?}");
        // The command is everything up to the first `::` after the type.
        let (command, message) = line[2..].split_once("::").unwrap();
        let (_, properties) = command.split_once(' ').unwrap();
        let file = properties.split(',').find_map(|p| p.strip_prefix("file=")).unwrap();
        assert_eq!(unescape(file), "./50%,a:b\r\nc\\u{1b}[2J.t3d", "{line}");
        assert_eq!(properties.split(',').count(), 6, "{line}");
        assert!(!message.contains('\n'));
        quoted |= unescape(message).contains("50% a::b,c");
    }
    assert!(quoted, "a message quotes the line: {github}");
}

/// A file name with a line break cannot forge a finding's ` --> path:line:col` line in human
/// output, and one with U+202E (right-to-left override) cannot show itself reversed: both
/// are written as escapes (before: raw).
#[test]
fn file_names_cannot_forge_lines_or_reverse_themselves() {
    let dir = scratch("forged-names");
    let polygon = "Begin PolyList\r\n   Begin Polygon\r\n      Vertex   +00000.000000,+00000.000000,+00000.000000\r\n   End Polygon\r\nEnd PolyList\r\n";
    let forged = "Map.t3d\n   --> Elsewhere.t3d:1:1\nx.t3d";
    let reversed = "evil\u{202E}d3t.txt.t3d";
    std::fs::write(dir.join(forged), polygon).unwrap();
    std::fs::write(dir.join(reversed), polygon).unwrap();
    let (_, stdout, _) = run(&dir, &["lint", "."]);
    assert!(!stdout.contains('\u{202E}'), "a right-to-left override reached the output: {stdout}");
    assert!(stdout.contains("evil\\u{202e}d3t.txt.t3d"), "{stdout}");
    let arrows: Vec<&str> = stdout.lines().filter(|l| l.trim_start().starts_with("-->")).collect();
    assert!(
        arrows.iter().all(|l| !l.contains("Elsewhere.t3d") || l.contains("\\u{a}")),
        "a forged location line: {arrows:#?}"
    );
    assert!(!stdout.lines().any(|l| l.trim_start() == "--> Elsewhere.t3d:1:1"), "{stdout}");
    assert!(stdout.contains("Map.t3d\\u{a}   --> Elsewhere.t3d:1:1\\u{a}x.t3d"), "{stdout}");
    let (_, stdout, stderr) = run(&dir, &["info", reversed]);
    assert!(!stdout.contains('\u{202E}') && !stderr.contains('\u{202E}'), "{stdout}{stderr}");
}
