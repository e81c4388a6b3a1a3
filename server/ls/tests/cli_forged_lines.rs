//! A name taken from a file (an object or texture name in a package, the name a `.uz`
//! stores, a `.umod` member's name) cannot start a line of output: a line feed or carriage
//! return in it is escaped wherever it reaches the terminal, in `info`, `info --csg` and
//! `export` alike, on stdout and stderr (issue 43, item 5).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::pedantic)]

use std::path::Path;
use std::process::Command;

use unreal_test_support::{containers, writers};

/// What a crafted name would print as a line of its own.
const FORGED: &str = "FORGED --> map:1:1";

/// A name with a line feed and a carriage return before forged lines (names in packages
/// are Windows-1252: the Unicode line separators cannot be stored in them).
fn payload(lead: &str) -> String {
    format!("{lead}\n{FORGED}\r\n{FORGED}")
}

fn run(dir: &Path, args: &[&str]) -> (Option<i32>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_unreal-ls"))
        .current_dir(dir)
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    let text =
        format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    (out.status.code(), text)
}

/// No line of `output` starts with the forged text, and the name was shown (escaped).
fn assert_not_forged(what: &str, output: &str) {
    let forged: Vec<&str> =
        output.split(['\n', '\r', '\u{2028}']).filter(|l| l.starts_with("FORGED")).collect();
    assert!(forged.is_empty(), "{what}: forged lines {forged:?} in\n{output}");
    assert!(
        output.contains("\\u{a}FORGED --> map:1:1\\u{d}\\u{a}FORGED"),
        "{what}: the name is shown escaped in\n{output}"
    );
}

#[test]
fn info_escapes_line_breaks_in_names_from_files() {
    let dir = unreal_test_support::ScratchDir::new("forged-info");
    let name = payload("Evil");
    // An object whose data cannot be read: its name is in the summary and in the error.
    let package = writers::object_package(&[("Texture", &name)]);
    std::fs::write(dir.join("Evil.utx"), &package).unwrap();
    // A UE1 .uz whose stored name holds the line breaks, around bytes that are no package.
    std::fs::write(dir.join("Named.u.uz"), containers::uz1(&name, b"not a package", false, 64))
        .unwrap();
    // A .umod whose member is named so; and a member asked for that it does not hold.
    let archive = containers::umod(&[(&name, b"text", 0)]);
    std::fs::write(dir.join("Evil.umod"), archive).unwrap();
    for (args, exit) in [
        (&["info", "Evil.utx"][..], 1),
        (&["info", "--json", "Evil.utx"], 1),
        (&["info", "Named.u.uz"], 1),
        (&["info", "Evil.umod"], 0),
        (&["info", "Evil.umod:Missing.u"], 1),
    ] {
        let (code, output) = run(&dir, args);
        assert_eq!(code, Some(exit), "{args:?}: {output}");
        if args.contains(&"--json") {
            // JSON escapes them itself.
            assert!(!output.lines().any(|l| l.starts_with("FORGED")), "{output}");
        } else {
            assert_not_forged(&args.join(" "), &output);
        }
    }
}

#[test]
fn info_csg_escapes_line_breaks_in_names_from_files() {
    let dir = unreal_test_support::ScratchDir::new("forged-csg");
    let texture: &'static str = Box::leak(payload("Wall").into_boxed_str());
    // The stored level is a room elsewhere than the brush: the differences name the texture.
    std::fs::write(dir.join("Room.unr"), writers::carved_room_map(1000.0, texture)).unwrap();
    // A package without a level, whose error names an object.
    let name = payload("Evil");
    std::fs::write(dir.join("Evil.utx"), writers::object_package(&[("Texture", &name)])).unwrap();
    let (_, output) = run(&dir, &["info", "--csg", "Room.unr"]);
    assert!(output.contains("not built"), "{output}");
    assert_not_forged("info --csg Room.unr", &output);
    let (code, output) = run(&dir, &["info", "--csg", "Evil.utx"]);
    assert_eq!(code, Some(1), "{output}");
    assert_not_forged("info --csg Evil.utx", &output);
}

#[test]
fn export_escapes_line_breaks_in_names_from_files() {
    let dir = unreal_test_support::ScratchDir::new("forged-export");
    let name = payload("Evil");
    std::fs::write(dir.join("Evil.utx"), writers::object_package(&[("Texture", &name)])).unwrap();
    std::fs::write(dir.join("Named.u.uz"), containers::uz1(&name, b"not a package", false, 64))
        .unwrap();
    let archive = containers::umod(&[(&name, b"text", 0)]);
    std::fs::write(dir.join("Evil.umod"), archive).unwrap();
    for args in
        [&["export", "Evil.utx", "-o", "out"][..], &["export", "Evil.umod:Missing.u", "-o", "out"]]
    {
        let (code, output) = run(&dir, args);
        assert_eq!(code, Some(1), "{args:?}: {output}");
        assert_not_forged(&args.join(" "), &output);
    }
    // Whatever they print of the names, no line is forged.
    for args in [&["export", "Named.u.uz", "-o", "out"][..], &["export", "Evil.umod", "-o", "out2"]]
    {
        let (_, output) = run(&dir, args);
        assert!(!output.split(['\n', '\r']).any(|l| l.starts_with("FORGED")), "{args:?}: {output}");
    }
}
