//! `unreal-ls lint` in CI: the built binary on the projects in `tests/fixtures/ci/` (each with
//! its `unreal-ls.toml`), in every output format, with every exit code, configuration
//! errors, baseline round trips and `--fix` / `--fix-format` (run twice: the second run
//! changes nothing). Snapshots are byte for byte (`UPDATE_EXPECT=1` to refresh after checking
//! the diff). Tests that write copy the fixtures into the target directory first.

// expect-test writes every snapshot as `r#"..."#`, quotes or not.
#![allow(clippy::needless_raw_string_hashes)]
// Helpers outside `#[test]` functions run the binary; a failure there is a test failure.
#![allow(clippy::unwrap_used)]

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use expect_test::{expect, expect_file, Expect};
use serde_json::Value;

fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/ci")
}

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

impl Run {
    /// What a user sees: the exit code, stdout and stderr.
    fn shown(&self) -> String {
        let mut shown = format!("exit: {}\n--- stdout\n{}", self.code, self.stdout);
        if !self.stderr.is_empty() {
            shown.push_str("--- stderr\n");
            shown.push_str(&self.stderr);
        }
        shown
    }
}

/// Runs `unreal-ls ARGS` in `cwd` without colour.
fn run(cwd: &Path, args: &[&str]) -> Run {
    let output = Command::new(env!("CARGO_BIN_EXE_unreal-ls"))
        .args(args)
        .current_dir(cwd)
        .env("NO_COLOR", "1")
        .env_remove("CLICOLOR_FORCE")
        .output()
        .unwrap();
    Run {
        code: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8(output.stdout).unwrap(),
        stderr: String::from_utf8(output.stderr).unwrap(),
    }
}

fn check(cwd: &Path, args: &[&str], expect: &Expect) {
    expect.assert_eq(&run(cwd, args).shown());
}

/// A fresh copy of a fixture folder in the target directory, for tests that write.
fn scratch(name: &str, fixture: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli_ci").join(name);
    let _ = fs::remove_dir_all(&dir);
    copy_dir(&fixtures().join(fixture), &dir);
    dir
}

fn copy_dir(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// Every file under `dir` with its bytes, sorted by path.
fn snapshot_files(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut files = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let bytes = fs::read(&path).unwrap();
                files.push((path, bytes));
            }
        }
    }
    files.sort();
    files
}

#[test]
fn every_format_on_a_configured_project() {
    let project = fixtures().join("project");
    let cases: [(&[&str], &str); 6] = [
        (&["lint"], "project.human"),
        (&["lint", "--format", "json"], "project.json"),
        (&["lint", "--format", "sarif"], "project.sarif"),
        (&["lint", "--format", "github"], "project.github"),
        (&["lint", "--statistics"], "project.statistics"),
        (&["lint", "--statistics", "--format", "json"], "project.statistics.json"),
    ];
    for (args, snapshot) in cases {
        let result = run(&project, args);
        assert_eq!((result.code, result.stderr.as_str()), (1, ""), "{args:?}");
        let path = fixtures().join("expected").join(snapshot);
        expect_file![path].assert_eq(&result.stdout);
    }
}

#[test]
fn sarif_has_the_structure_code_scanning_requires() {
    let result = run(&fixtures().join("project"), &["lint", "--format", "sarif"]);
    let sarif: Value = serde_json::from_str(&result.stdout).unwrap();
    assert_eq!(validate_sarif(&sarif), Vec::<String>::new());
    // The validator itself catches what it is for.
    let mut broken = sarif.clone();
    broken["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]["startLine"] =
        Value::from(0);
    broken["runs"][0]["tool"]["driver"]["rules"][0]["help"] = serde_json::json!({});
    broken["runs"][0]["results"][1]["colour"] = Value::from("red");
    broken["runs"][0]["results"][2]["ruleIndex"] = Value::from(0);
    expect![[r#"
        [
            "runs[0].tool.driver.rules[0].help.text: required",
            "runs[0].results[0].locations[0].physicalLocation.region.startLine: must be an integer >= 1",
            "runs[0].results[1]: property `colour` is not in SARIF 2.1.0",
            "runs[0].results[2].ruleIndex: names rule `t3d-non-planar-polygon`, not `t3d-no-player-start`",
        ]
    "#]]
    .assert_debug_eq(&validate_sarif(&broken));
}

#[test]
fn exit_codes() {
    let dirs = fixtures();
    let clean = dirs.join("clean");
    let warnings = dirs.join("warnings");
    let codes = |cwd: &Path, args: &[&str]| run(cwd, args).code;
    assert_eq!(codes(&clean, &["lint"]), 0);
    assert_eq!(codes(&clean, &["lint", "--deny-warnings"]), 0);
    assert_eq!(codes(&warnings, &["lint"]), 0);
    assert_eq!(codes(&warnings, &["lint", "--deny-warnings"]), 1);
    assert_eq!(codes(&warnings, &["lint", "--max-warnings", "1"]), 0);
    assert_eq!(codes(&warnings, &["lint", "--max-warnings", "0", "--format", "github"]), 1);
    assert_eq!(codes(&dirs.join("project"), &["lint", "--format", "sarif"]), 1);
    assert_eq!(codes(&clean, &["lint", "--max-warnings", "many"]), 2);
    assert_eq!(codes(&clean, &["lint", "missing.t3d"]), 2);
    assert_eq!(codes(&dirs.join("bad-config"), &["lint"]), 2);
    check(
        &warnings,
        &["lint", "--max-warnings", "0", "--statistics"],
        &expect![[r#"
            exit: 1
            --- stdout
            count  severity  rule                    fixable
                1  warning   t3d-non-planar-polygon
                1  hint      t3d-normal-mismatch     1
            0 errors, 1 warning, 1 hint in 1 file checked
            --- stderr
            error: 1 warning is more than --max-warnings 0
        "#]],
    );
    check(
        &clean,
        &["lint", "--statistics", "--format", "sarif"],
        &expect![[r#"
            exit: 2
            --- stdout
            --- stderr
            error: --statistics prints with --format human or json only
        "#]],
    );
    check(
        &clean,
        &["lint", "--baseline", "nowhere.json"],
        &expect![[r#"
            exit: 2
            --- stdout
            --- stderr
            error: nowhere.json: cannot read the baseline: no such file or directory
        "#]],
    );
}

#[test]
fn configuration_errors_name_the_line() {
    check(
        &fixtures().join("bad-config"),
        &["lint"],
        &expect![[r#"
            exit: 2
            --- stdout
            --- stderr
            error: unreal-ls.toml:2:11: `exclude` must be an array of strings, not string
            error: unreal-ls.toml:5:1: unknown rule `t3d-stray-lines` (did you mean `t3d-stray-line`?); `unreal-ls rules` lists every rule
            error: unreal-ls.toml:6:23: unknown level `fatal` for `t3d-normal-mismatch`; expected `off`, `hint`, `info`, `warning` or `error`
            error: unreal-ls.toml:8:1: an `[[overrides]]` entry needs `files`, the globs it applies to
            error: unreal-ls.toml:9:1: unknown key `file` (did you mean `files`?); expected one of `files`, `rules`
        "#]],
    );
    // --config names the file for every path, and its errors are reported the same way.
    check(
        &fixtures(),
        &["lint", "--config", "bad-config/unreal-ls.toml", "clean"],
        &expect![[r#"
            exit: 2
            --- stdout
            --- stderr
            error: bad-config/unreal-ls.toml:2:11: `exclude` must be an array of strings, not string
            error: bad-config/unreal-ls.toml:5:1: unknown rule `t3d-stray-lines` (did you mean `t3d-stray-line`?); `unreal-ls rules` lists every rule
            error: bad-config/unreal-ls.toml:6:23: unknown level `fatal` for `t3d-normal-mismatch`; expected `off`, `hint`, `info`, `warning` or `error`
            error: bad-config/unreal-ls.toml:8:1: an `[[overrides]]` entry needs `files`, the globs it applies to
            error: bad-config/unreal-ls.toml:9:1: unknown key `file` (did you mean `files`?); expected one of `files`, `rules`
        "#]],
    );
    check(
        &fixtures(),
        &["lint", "--config", "missing.toml", "clean"],
        &expect![[r#"
            exit: 2
            --- stdout
            --- stderr
            error: missing.toml: cannot read the configuration: no such file or directory
        "#]],
    );
}

#[test]
fn configuration_applies_per_file() {
    let dirs = fixtures();
    // The project's configuration applied to another folder: its severities and engine, and
    // `--engine` on the command line wins over the file's.
    check(
        &dirs,
        &[
            "lint",
            "--config",
            "project/unreal-ls.toml",
            "--format",
            "json",
            "warnings",
            "project/Brushes",
        ],
        &expect![[r#"
            exit: 0
            --- stdout
            {"version":1,"files":2,"diagnostics":[
            {"file":"project/Brushes/Cube.t3d","line":2,"column":4,"end_line":2,"end_column":46,"severity":"warning","code":"t3d-non-planar-polygon","message":"polygon is not planar: vertex 4 is 2.000 units off the plane through vertex 1 (the BSP's splits take less than 0.25 as in the plane); triangulate it or move the vertex","related":[{"line":10,"column":7,"end_line":10,"end_column":57,"message":"off the plane"}]},
            {"file":"project/Brushes/Cube.t3d","line":4,"column":16,"end_line":4,"end_column":57,"severity":"hint","code":"t3d-normal-mismatch","message":"stored normal +00000.000000,+00000.000000,+00001.000000 differs from the normal of the vertices +00000.015621,-00000.015621,-00000.999756; import recomputes it","tags":["unnecessary"]},
            {"file":"warnings/Warn.t3d","line":6,"column":11,"end_line":6,"end_column":53,"severity":"warning","code":"t3d-non-planar-polygon","message":"polygon is not planar: vertex 4 is 2.000 units off the plane through vertex 1 (the BSP's splits take less than 0.25 as in the plane); triangulate it or move the vertex","related":[{"line":14,"column":14,"end_line":14,"end_column":64,"message":"off the plane"}]},
            {"file":"warnings/Warn.t3d","line":8,"column":23,"end_line":8,"end_column":64,"severity":"hint","code":"t3d-normal-mismatch","message":"stored normal +00000.000000,+00000.000000,-00001.000000 differs from the normal of the vertices +00000.015621,-00000.015621,-00000.999756; import recomputes it","tags":["unnecessary"]}
            ]}
        "#]],
    );
    // An excluded file is skipped even when named; a file named outside `include` is not.
    check(
        &dirs.join("project"),
        &["lint", "Maps/Old/Broken.t3d"],
        &expect![[r#"
            exit: 0
            --- stdout
            0 errors, 0 warnings in 0 files checked
            --- stderr
            warning: no T3D or UnrealScript files found
        "#]],
    );
}

#[test]
fn rules_lists_every_rule() {
    let cwd = fixtures();
    let human = run(&cwd, &["rules"]);
    let json = run(&cwd, &["rules", "--format", "json"]);
    assert_eq!((human.code, json.code), (0, 0));
    let listed: Value = serde_json::from_str(&json.stdout).unwrap();
    let rules = listed["rules"].as_array().unwrap();
    assert_eq!(rules.len(), unreal_analysis::rules::all_rules().count());
    assert_eq!(human.stdout.lines().count(), rules.len());
    expect![[r#"
        t3d-not-t3d                    error    the file holds no T3D block
        t3d-unbalanced-block           error    `Begin`/`End` lines do not pair up
    "#]]
    .assert_eq(&human.stdout.split_inclusive('\n').take(2).collect::<String>());
    expect![[r#"
        {"version":1,"rules":[
        {"code":"t3d-not-t3d","severity":"error","summary":"the file holds no T3D block","fix":"none"},
    "#]]
    .assert_eq(&json.stdout.split_inclusive('\n').take(2).collect::<String>());
    let markdown = run(&cwd, &["rules", "--format", "markdown"]);
    assert_eq!(markdown.code, 0);
    assert_eq!(markdown.stdout, unreal_analysis::rules::docs::markdown());
}

/// `--write-baseline` onto a folder or a FIFO writes nothing and says what the path is (it
/// said "the file has 2 hard links" for a folder; a FIFO or `/dev/null` was replaced by a file).
#[cfg(unix)]
#[test]
fn write_baseline_refuses_a_folder_and_a_fifo() {
    let project = scratch("baseline-targets", "project");
    fs::create_dir_all(project.join("out")).unwrap();
    check(
        &project,
        &["lint", "--write-baseline", "out"],
        &expect![[r#"
            exit: 2
            --- stdout
            --- stderr
            error: out: writing the baseline: it is a folder, not a file
        "#]],
    );
    assert!(project.join("out").is_dir());
    let fifo = project.join("pipe");
    if Command::new("mkfifo").arg(&fifo).status().is_ok_and(|s| s.success()) {
        let result = run(&project, &["lint", "--write-baseline", "pipe"]);
        assert_eq!(result.code, 2, "{}", result.stderr);
        assert!(result.stderr.contains("not a regular file"), "{}", result.stderr);
        assert!(std::os::unix::fs::FileTypeExt::is_fifo(
            &fs::symlink_metadata(&fifo).unwrap().file_type()
        ));
    }
}

#[test]
fn baseline_round_trip() {
    let project = scratch("baseline", "project");
    check(
        &project,
        &["lint", "--write-baseline", "lint-baseline.json"],
        &expect![[r#"
            exit: 0
            --- stdout
            --- stderr
            wrote 10 findings to lint-baseline.json
        "#]],
    );
    expect_file![fixtures().join("expected/baseline.json")]
        .assert_eq(&fs::read_to_string(project.join("lint-baseline.json")).unwrap());
    let known = expect![[r#"
        exit: 0
        --- stdout
        0 errors, 0 warnings in 3 files checked
        references into packages (textures, classes, OBJ LOAD) were not checked: no game folder is set (--game-dir, or game-dir in unreal-ls.toml)
        --- stderr
        note: 10 findings recorded in the baseline not shown
    "#]];
    check(&project, &["lint", "--baseline", "lint-baseline.json"], &known);

    // Lines inserted above the findings move them; the baseline still knows them.
    let deck = project.join("Maps/Deck.t3d");
    let text = fs::read_to_string(&deck).unwrap();
    let shifted = text.replacen(
        "Begin Map\r\n",
        "Begin Map\r\nBegin Actor Class=Light Name=Light9\r\n   Name=\"Light9\"\r\nEnd Actor\r\n",
        1,
    );
    fs::write(&deck, &shifted).unwrap();
    check(&project, &["lint", "--baseline", "lint-baseline.json"], &known);
    // From another folder, naming the project: paths are relative to the baseline file.
    check(
        project.parent().unwrap(),
        &["lint", "--baseline", "baseline/lint-baseline.json", "--format", "github", "baseline"],
        &expect![[r#"
            exit: 0
            --- stdout
            --- stderr
            note: 10 findings recorded in the baseline not shown
        "#]],
    );

    // A new finding is reported alone, and fails the build.
    let added = shifted.replacen(
        "End Map",
        "Begin Actor Class=Light Name=LAMP\r\n   Name=\"LAMP\"\r\nEnd Actor\r\nEnd Map",
        1,
    );
    fs::write(&deck, added).unwrap();
    check(
        &project,
        &["lint", "--baseline", "lint-baseline.json", "--format", "github"],
        &expect![[r#"
            exit: 0
            --- stdout
            --- stderr
            note: 10 findings recorded in the baseline not shown
        "#]],
    );

    fs::write(project.join("bad.json"), "{\"version\":1,\n\"finding\":[]}").unwrap();
    check(
        &project,
        &["lint", "--baseline", "bad.json"],
        &expect![[r#"
            exit: 2
            --- stdout
            --- stderr
            error: bad.json:2:9: not a baseline written by --write-baseline: unknown field `finding`, expected `version` or `findings` at line 2 column 9
        "#]],
    );
}

/// A map in another encoding, written by our own code: what `--fix` must preserve.
fn encoded_map(text: &str, encoding: &str) -> Vec<u8> {
    match encoding {
        "utf-16le" => {
            let mut bytes = vec![0xFF, 0xFE];
            bytes.extend(text.encode_utf16().flat_map(u16::to_le_bytes));
            bytes
        }
        // Every character of these maps is ASCII or Latin-1, where Windows-1252 agrees.
        "windows-1252" => text.chars().map(|c| u8::try_from(u32::from(c)).unwrap()).collect(),
        _ => text.as_bytes().to_vec(),
    }
}

#[test]
fn fix_writes_safe_fixes_in_the_file_own_encoding_and_is_idempotent() {
    let project = scratch("fix", "project");
    let deck = fs::read_to_string(project.join("Maps/Deck.t3d")).unwrap();
    let accented = deck
        .replace("Name=Lamp", "Name=L\u{e2}mpe")
        .replace("Name=\"Lamp\"", "Name=\"L\u{e2}mpe\"");
    fs::write(project.join("Maps/Wide.t3d"), encoded_map(&accented, "utf-16le")).unwrap();
    fs::write(
        project.join("Maps/Latin.t3d"),
        encoded_map(&accented.replace("\r\n", "\n"), "windows-1252"),
    )
    .unwrap();
    // A syntax error: the file is reported and left alone, though its flag is fixable.
    let broken = deck.replacen("End Map\r\n", "", 1);
    fs::write(project.join("Maps/Broken.t3d"), &broken).unwrap();

    let first = run(&project, &["lint", "--fix", "--format", "github"]);
    expect![[r#"
        exit: 1
        --- stdout
        ::warning file=Brushes/Cube.t3d,line=2,col=4,endLine=2,endColumn=46,title=t3d-non-planar-polygon::polygon is not planar: vertex 4 is 2.000 units off the plane through vertex 1 (the BSP's splits take less than 0.25 as in the plane); triangulate it or move the vertex
        ::notice file=Maps/Broken.t3d,line=1,col=1,endLine=1,endColumn=10,title=t3d-unbalanced-block::`Begin Map` is never closed; UnrealEd reads the map to the end of the text, so nothing is lost
        ::notice file=Maps/Broken.t3d,line=2,col=19,endLine=2,endColumn=28,title=t3d-no-player-start::this map has no `PlayerStart`: a player who joins a game on it has no place to start
        ::notice file=Maps/Broken.t3d,line=2,col=19,endLine=2,endColumn=28,title=t3d-untitled-level::this `LevelInfo` sets no `Title`: server browsers and scoreboards show the map as "Untitled"
        ::error file=Maps/Broken.t3d,line=8,col=30,endLine=8,endColumn=34,title=t3d-duplicate-actor-name::actor name `lamp` is used twice in this map
        ::warning file=Maps/Broken.t3d,line=15,col=11,endLine=15,endColumn=53,title=t3d-non-planar-polygon::polygon is not planar: vertex 4 is 2.000 units off the plane through vertex 1 (the BSP's splits take less than 0.25 as in the plane); triangulate it or move the vertex
        ::notice file=Maps/Broken.t3d,line=17,col=23,endLine=17,endColumn=64,title=t3d-normal-mismatch::stored normal +00000.000000,+00000.000000,-00001.000000 differs from the normal of the vertices +00000.015621,-00000.015621,-00000.999756; import recomputes it
        ::notice file=Maps/Broken.t3d,line=27,col=23,endLine=27,endColumn=64,title=t3d-normal-mismatch::stored normal +00000.000000,+00000.000000,+00001.000000 differs from the normal of the vertices +00000.000000,+00000.000000,-00001.000000 (the vertex winding is reversed); import recomputes it
        ::notice file=Maps/Deck.t3d,line=2,col=19,endLine=2,endColumn=28,title=t3d-no-player-start::this map has no `PlayerStart`: a player who joins a game on it has no place to start
        ::notice file=Maps/Deck.t3d,line=2,col=19,endLine=2,endColumn=28,title=t3d-untitled-level::this `LevelInfo` sets no `Title`: server browsers and scoreboards show the map as "Untitled"
        ::error file=Maps/Deck.t3d,line=8,col=30,endLine=8,endColumn=34,title=t3d-duplicate-actor-name::actor name `lamp` is used twice in this map
        ::warning file=Maps/Deck.t3d,line=15,col=11,endLine=15,endColumn=53,title=t3d-non-planar-polygon::polygon is not planar: vertex 4 is 2.000 units off the plane through vertex 1 (the BSP's splits take less than 0.25 as in the plane); triangulate it or move the vertex
        ::notice file=Maps/Imported/Import.t3d,line=6,col=11,endLine=6,endColumn=53,title=t3d-non-planar-polygon::polygon is not planar: vertex 4 is 2.000 units off the plane through vertex 1 (the BSP's splits take less than 0.25 as in the plane); triangulate it or move the vertex
        ::notice file=Maps/Latin.t3d,line=2,col=19,endLine=2,endColumn=28,title=t3d-no-player-start::this map has no `PlayerStart`: a player who joins a game on it has no place to start
        ::notice file=Maps/Latin.t3d,line=2,col=19,endLine=2,endColumn=28,title=t3d-untitled-level::this `LevelInfo` sets no `Title`: server browsers and scoreboards show the map as "Untitled"
        ::warning file=Maps/Latin.t3d,line=15,col=11,endLine=15,endColumn=53,title=t3d-non-planar-polygon::polygon is not planar: vertex 4 is 2.000 units off the plane through vertex 1 (the BSP's splits take less than 0.25 as in the plane); triangulate it or move the vertex
        ::notice file=Maps/Wide.t3d,line=2,col=19,endLine=2,endColumn=28,title=t3d-no-player-start::this map has no `PlayerStart`: a player who joins a game on it has no place to start
        ::notice file=Maps/Wide.t3d,line=2,col=19,endLine=2,endColumn=28,title=t3d-untitled-level::this `LevelInfo` sets no `Title`: server browsers and scoreboards show the map as "Untitled"
        ::warning file=Maps/Wide.t3d,line=15,col=11,endLine=15,endColumn=53,title=t3d-non-planar-polygon::polygon is not planar: vertex 4 is 2.000 units off the plane through vertex 1 (the BSP's splits take less than 0.25 as in the plane); triangulate it or move the vertex
        --- stderr
        note: Maps/Broken.t3d: not fixed: the file has a syntax error (t3d-unbalanced-block)
        fixed 8 findings in 5 files
    "#]]
    .assert_eq(&first.shown());
    let after_first = snapshot_files(&project);

    // What was written: the fixes, in each file's encoding and line endings.
    let read = |name: &str| fs::read(project.join("Maps").join(name)).unwrap();
    let fixed_deck = String::from_utf8(read("Deck.t3d")).unwrap();
    assert!(!fixed_deck.contains("Flags=33554432") && !fixed_deck.contains("+00001.000000\r\n"));
    assert_eq!(fixed_deck.matches("\r\n").count(), fixed_deck.matches('\n').count(), "CRLF kept");
    let wide = read("Wide.t3d");
    assert_eq!(
        wide,
        encoded_map(
            &fixed_deck
                .replace("Name=Lamp", "Name=L\u{e2}mpe")
                .replace("Name=\"Lamp\"", "Name=\"L\u{e2}mpe\""),
            "utf-16le"
        )
    );
    let latin = read("Latin.t3d");
    assert_eq!(
        latin,
        encoded_map(
            &fixed_deck
                .replace("Name=Lamp", "Name=L\u{e2}mpe")
                .replace("Name=\"Lamp\"", "Name=\"L\u{e2}mpe\"")
                .replace("\r\n", "\n"),
            "windows-1252"
        )
    );
    assert_eq!(read("Broken.t3d"), broken.as_bytes());
    assert!(after_first.iter().all(|(p, _)| !p.to_string_lossy().contains(".unreal-ls-")));

    // The second run finds nothing more to fix and changes no byte.
    let second = run(&project, &["lint", "--fix", "--format", "github"]);
    assert_eq!(second.code, first.code);
    assert_eq!(second.stdout, first.stdout);
    expect![[r#"
        note: Maps/Broken.t3d: not fixed: the file has a syntax error (t3d-unbalanced-block)
        fixed 0 findings in 0 files
    "#]]
    .assert_eq(&second.stderr);
    assert!(snapshot_files(&project) == after_first, "a second --fix changed files");
}

#[test]
fn fix_format_rewrites_the_layout_once() {
    let project = scratch("fix-format", "project");
    let first = run(&project, &["lint", "--fix-format", "Brushes", "Maps/Imported"]);
    expect![[r#"
        exit: 0
        --- stdout
        warning[t3d-non-planar-polygon]: polygon is not planar: vertex 4 is 2.000 units off the plane through vertex 1 (the BSP's splits take less than 0.25 as in the plane); triangulate it or move the vertex
          --> Brushes/Cube.t3d:2:4
           |
         2 |    Begin Polygon Texture=GenFloor.Floor.Flr06
           |    ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
         3 |       Origin   +00000.000000,+00000.000000,+00000.000000
        ...
         9 |       Vertex   +00128.000000,+00128.000000,+00000.000000
        10 |       Vertex   +00128.000000,+00000.000000,+00004.000000
           |       -------------------------------------------------- off the plane
           |
           = help: Tessellate: 2 planar triangles with the polygon's texture, flags and mapping

        info[t3d-non-planar-polygon]: polygon is not planar: vertex 4 is 2.000 units off the plane through vertex 1 (the BSP's splits take less than 0.25 as in the plane); triangulate it or move the vertex
          --> Maps/Imported/Import.t3d:6:10
           |
         6 |          Begin Polygon Texture=GenFloor.Floor.Flr06
           |          ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
         7 |             Origin   +00000.000000,+00000.000000,+00000.000000
        ...
        13 |             Vertex   +00128.000000,+00128.000000,+00000.000000
        14 |             Vertex   +00128.000000,+00000.000000,+00004.000000
           |             -------------------------------------------------- off the plane
           |
           = help: Tessellate: 2 planar triangles with the polygon's texture, flags and mapping

        0 errors, 1 warning, 1 info in 2 files checked
        references into packages (textures, classes, OBJ LOAD) were not checked: no game folder is set (--game-dir, or game-dir in unreal-ls.toml)
        --- stderr
        fixed 2 findings in 2 files
    "#]]
    .assert_eq(&first.shown());
    expect_file![fixtures().join("expected/Cube.formatted.t3d")]
        .assert_eq(&fs::read_to_string(project.join("Brushes/Cube.t3d")).unwrap());
    let after_first = snapshot_files(&project);
    let second = run(&project, &["lint", "--fix-format", "Brushes", "Maps/Imported"]);
    assert_eq!((second.code, &second.stdout), (first.code, &first.stdout));
    assert_eq!(second.stderr, "fixed 0 findings in 0 files\n");
    assert!(snapshot_files(&project) == after_first, "a second --fix-format changed files");
}

/// Every format on the whole shared corpus: no usage or I/O failure, the same findings in
/// each, and SARIF that code scanning accepts.
#[test]
fn corpus_in_every_format() {
    let corpus = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus");
    if !corpus.is_dir() {
        unreal_test_support::corpus::absent(&format!(
            "the shared corpus is not at {}",
            corpus.display()
        ));
        return;
    }
    let corpus = corpus.to_str().unwrap();
    let json = run(Path::new("."), &["lint", "--format", "json", corpus]);
    assert!(json.code == 0 || json.code == 1, "{}", json.stderr);
    let document: Value = serde_json::from_str(&json.stdout).unwrap();
    let count = document["diagnostics"].as_array().unwrap().len();
    for format in ["human", "sarif", "github"] {
        let result = run(Path::new("."), &["lint", "--format", format, corpus]);
        assert_eq!(result.code, json.code, "{format}: {}", result.stderr);
        match format {
            "github" => assert_eq!(result.stdout.lines().count(), count),
            "sarif" => {
                let sarif: Value = serde_json::from_str(&result.stdout).unwrap();
                assert_eq!(validate_sarif(&sarif), Vec::<String>::new());
                assert_eq!(sarif["runs"][0]["results"].as_array().unwrap().len(), count);
            }
            // The summary, then the line saying references were not checked (no game folder).
            _ => assert!(
                result.stdout.contains(" files checked\n")
                    && result.stdout.ends_with("game-dir in unreal-ls.toml)\n"),
                "{}",
                result.stdout
            ),
        }
    }
    let statistics = run(Path::new("."), &["lint", "--statistics", "--format", "json", corpus]);
    let rows: Value = serde_json::from_str(&statistics.stdout).unwrap();
    let total: u64 =
        rows["statistics"].as_array().unwrap().iter().map(|r| r["count"].as_u64().unwrap()).sum();
    assert_eq!(total, count as u64);
}

// ---------------------------------------------------------------------------------------
// SARIF 2.1.0 structure. The OASIS schema is published under the OASIS IPR policy rather
// than an open-source licence, so it is not vendored; this checks, by hand, the required
// properties of the schema for every object unreal-ls writes, that no property outside the
// schema's list for that object appears (the schema forbids them), the enumerations and
// ranges, and what GitHub code scanning requires on top (rule descriptions and help, a
// complete region, `partialFingerprints`, at most 1024 characters of description).

const LOG_KEYS: &[&str] = &["$schema", "version", "runs", "inlineExternalProperties", "properties"];
const RUN_KEYS: &[&str] = &[
    "tool",
    "invocations",
    "conversion",
    "language",
    "versionControlProvenance",
    "originalUriBaseIds",
    "artifacts",
    "logicalLocations",
    "graphs",
    "results",
    "automationDetails",
    "runAggregates",
    "baselineGuid",
    "redactionTokens",
    "defaultEncoding",
    "defaultSourceLanguage",
    "newlineSequences",
    "columnKind",
    "externalPropertyFileReferences",
    "threadFlowLocations",
    "taxonomies",
    "addresses",
    "translations",
    "policies",
    "webRequests",
    "webResponses",
    "specialLocations",
    "properties",
];
const TOOL_COMPONENT_KEYS: &[&str] = &[
    "guid",
    "name",
    "organization",
    "product",
    "productSuite",
    "shortDescription",
    "fullDescription",
    "fullName",
    "version",
    "semanticVersion",
    "dottedQuadFileVersion",
    "releaseDateUtc",
    "downloadUri",
    "informationUri",
    "globalMessageStrings",
    "notifications",
    "rules",
    "taxa",
    "locations",
    "language",
    "contents",
    "isComprehensive",
    "localizedDataSemanticVersion",
    "minimumRequiredLocalizedDataSemanticVersion",
    "associatedComponent",
    "translationMetadata",
    "supportedTaxonomies",
    "properties",
];
const DESCRIPTOR_KEYS: &[&str] = &[
    "id",
    "deprecatedIds",
    "guid",
    "deprecatedGuids",
    "name",
    "deprecatedNames",
    "shortDescription",
    "fullDescription",
    "messageStrings",
    "defaultConfiguration",
    "helpUri",
    "help",
    "relationships",
    "properties",
];
const MESSAGE_KEYS: &[&str] = &["text", "markdown", "id", "arguments", "properties"];
const MULTIFORMAT_KEYS: &[&str] = &["text", "markdown", "properties"];
const CONFIGURATION_KEYS: &[&str] = &["enabled", "level", "rank", "parameters", "properties"];
const RESULT_KEYS: &[&str] = &[
    "ruleId",
    "ruleIndex",
    "rule",
    "kind",
    "level",
    "message",
    "analysisTarget",
    "locations",
    "guid",
    "correlationGuid",
    "occurrenceCount",
    "partialFingerprints",
    "fingerprints",
    "stacks",
    "codeFlows",
    "graphs",
    "graphTraversals",
    "relatedLocations",
    "suppressions",
    "baselineState",
    "rank",
    "attachments",
    "hostedViewerUri",
    "workItemUris",
    "provenance",
    "fixes",
    "taxa",
    "webRequest",
    "webResponse",
    "properties",
];
const LOCATION_KEYS: &[&str] = &[
    "id",
    "physicalLocation",
    "logicalLocations",
    "message",
    "annotations",
    "relationships",
    "properties",
];
const PHYSICAL_KEYS: &[&str] =
    &["address", "artifactLocation", "region", "contextRegion", "properties"];
const ARTIFACT_LOCATION_KEYS: &[&str] = &["uri", "uriBaseId", "index", "description", "properties"];
const REGION_KEYS: &[&str] = &[
    "startLine",
    "startColumn",
    "endLine",
    "endColumn",
    "charOffset",
    "charLength",
    "byteOffset",
    "byteLength",
    "snippet",
    "message",
    "sourceLanguage",
    "properties",
];
const LEVELS: &[&str] = &["none", "note", "warning", "error"];

struct Validator {
    errors: Vec<String>,
}

impl Validator {
    fn error(&mut self, at: &str, message: impl Into<String>) {
        self.errors.push(format!("{at}: {}", message.into()));
    }

    /// An object whose properties are all in `allowed` and that has `required`.
    fn object<'v>(
        &mut self,
        value: &'v Value,
        at: &str,
        allowed: &[&str],
        required: &[&str],
    ) -> Option<&'v serde_json::Map<String, Value>> {
        let Some(object) = value.as_object() else {
            self.error(at, "must be an object");
            return None;
        };
        for key in object.keys() {
            if !allowed.contains(&key.as_str()) {
                self.error(at, format!("property `{key}` is not in SARIF 2.1.0"));
            }
        }
        for key in required {
            if !object.contains_key(*key) {
                self.error(&format!("{at}.{key}"), "required");
            }
        }
        Some(object)
    }

    fn text(&mut self, value: Option<&Value>, at: &str, max: usize) {
        match value.and_then(Value::as_str) {
            Some(text) if !text.is_empty() && text.chars().count() <= max => {}
            Some(_) => self.error(at, format!("must be 1 to {max} characters")),
            None if value.is_some() => self.error(at, "must be a string"),
            None => {}
        }
    }

    fn message(&mut self, value: &Value, at: &str, keys: &[&str], max: usize) {
        if let Some(object) = self.object(value, at, keys, &["text"]) {
            self.text(object.get("text"), &format!("{at}.text"), max);
        }
    }

    fn positive(&mut self, value: Option<&Value>, at: &str) -> u64 {
        match value.and_then(Value::as_u64) {
            Some(n) if n >= 1 => n,
            _ => {
                self.error(at, "must be an integer >= 1");
                0
            }
        }
    }

    fn location(&mut self, value: &Value, at: &str, needs_region: bool) {
        let Some(location) = self.object(value, at, LOCATION_KEYS, &["physicalLocation"]) else {
            return;
        };
        if let Some(message) = location.get("message") {
            self.message(message, &format!("{at}.message"), MESSAGE_KEYS, usize::MAX);
        }
        if let Some(id) = location.get("id") {
            if id.as_i64().is_none_or(|id| id < -1) {
                self.error(&format!("{at}.id"), "must be an integer >= -1");
            }
        }
        let at = format!("{at}.physicalLocation");
        let Some(physical) = location.get("physicalLocation") else { return };
        let required: &[&str] =
            if needs_region { &["artifactLocation", "region"] } else { &["artifactLocation"] };
        let Some(physical) = self.object(physical, &at, PHYSICAL_KEYS, required) else { return };
        if let Some(artifact) = physical.get("artifactLocation") {
            let at = format!("{at}.artifactLocation");
            if let Some(artifact) = self.object(artifact, &at, ARTIFACT_LOCATION_KEYS, &["uri"]) {
                match artifact.get("uri").and_then(Value::as_str) {
                    Some(uri) if is_uri_reference(uri) => {}
                    _ => self.error(&format!("{at}.uri"), "must be a URI reference"),
                }
            }
        }
        if let Some(region) = physical.get("region") {
            let at = format!("{at}.region");
            let keys = ["startLine", "startColumn", "endLine", "endColumn"];
            let Some(region) = self.object(region, &at, REGION_KEYS, &keys) else { return };
            let [start_line, start_column, end_line, end_column] =
                keys.map(|k| self.positive(region.get(k), &format!("{at}.{k}")));
            if (end_line, end_column) < (start_line, start_column) {
                self.error(&at, "ends before it starts");
            }
        }
    }

    fn validate(&mut self, log: &Value) {
        let Some(root) = self.object(log, "log", LOG_KEYS, &["version", "runs", "$schema"]) else {
            return;
        };
        if root.get("version") != Some(&Value::from("2.1.0")) {
            self.error("version", "must be \"2.1.0\"");
        }
        if !root.get("$schema").and_then(Value::as_str).is_some_and(|s| s.starts_with("https://")) {
            self.error("$schema", "must be the schema's URI");
        }
        let runs = root.get("runs").and_then(Value::as_array).cloned().unwrap_or_default();
        if runs.is_empty() {
            self.error("runs", "must hold at least one run");
        }
        for (r, run) in runs.iter().enumerate() {
            let at = format!("runs[{r}]");
            let Some(run) = self.object(run, &at, RUN_KEYS, &["tool", "results"]) else { continue };
            if let Some(kind) = run.get("columnKind") {
                if !matches!(kind.as_str(), Some("utf16CodeUnits" | "unicodeCodePoints")) {
                    self.error(&format!("{at}.columnKind"), "unknown kind");
                }
            }
            let tool_at = format!("{at}.tool");
            let Some(tool) = run.get("tool") else { continue };
            let tool =
                self.object(tool, &tool_at, &["driver", "extensions", "properties"], &["driver"]);
            let Some(driver) = tool.and_then(|t| t.get("driver")) else { continue };
            let driver_at = format!("{tool_at}.driver");
            let Some(driver) =
                self.object(driver, &driver_at, TOOL_COMPONENT_KEYS, &["name", "rules"])
            else {
                continue;
            };
            self.text(driver.get("name"), &format!("{driver_at}.name"), usize::MAX);
            let rules = driver.get("rules").and_then(Value::as_array).cloned().unwrap_or_default();
            let mut ids = Vec::new();
            for (i, rule) in rules.iter().enumerate() {
                let at = format!("{driver_at}.rules[{i}]");
                let required = ["id", "shortDescription", "fullDescription", "help"];
                let Some(rule) = self.object(rule, &at, DESCRIPTOR_KEYS, &required) else {
                    continue;
                };
                let id = rule.get("id").and_then(Value::as_str).unwrap_or_default().to_owned();
                if id.is_empty() || ids.contains(&id) {
                    self.error(&format!("{at}.id"), "must be a unique non-empty string");
                }
                ids.push(id);
                self.text(rule.get("name"), &format!("{at}.name"), 255);
                for key in ["shortDescription", "fullDescription"] {
                    if let Some(value) = rule.get(key) {
                        self.message(value, &format!("{at}.{key}"), MULTIFORMAT_KEYS, 1024);
                    }
                }
                if let Some(help) = rule.get("help") {
                    self.message(help, &format!("{at}.help"), MULTIFORMAT_KEYS, usize::MAX);
                }
                if let Some(configuration) = rule.get("defaultConfiguration") {
                    let at = format!("{at}.defaultConfiguration");
                    if let Some(configuration) =
                        self.object(configuration, &at, CONFIGURATION_KEYS, &[])
                    {
                        let level = configuration.get("level").and_then(Value::as_str);
                        if !level.is_some_and(|l| LEVELS.contains(&l)) {
                            self.error(&format!("{at}.level"), "unknown level");
                        }
                    }
                }
            }
            let results = run.get("results").and_then(Value::as_array).cloned().unwrap_or_default();
            for (i, result) in results.iter().enumerate() {
                let at = format!("{at}.results[{i}]");
                let required = ["message", "locations", "partialFingerprints", "ruleId"];
                let Some(result) = self.object(result, &at, RESULT_KEYS, &required) else {
                    continue;
                };
                if let Some(message) = result.get("message") {
                    self.message(message, &format!("{at}.message"), MESSAGE_KEYS, usize::MAX);
                }
                let rule_id = result.get("ruleId").and_then(Value::as_str).unwrap_or_default();
                if let Some(index) = result.get("ruleIndex") {
                    match index.as_u64().and_then(|i| ids.get(usize::try_from(i).ok()?)) {
                        Some(id) if id == rule_id => {}
                        Some(id) => self.error(
                            &format!("{at}.ruleIndex"),
                            format!("names rule `{id}`, not `{rule_id}`"),
                        ),
                        None => {
                            self.error(&format!("{at}.ruleIndex"), "is not an index of the rules");
                        }
                    }
                }
                if let Some(level) = result.get("level") {
                    if !level.as_str().is_some_and(|l| LEVELS.contains(&l)) {
                        self.error(&format!("{at}.level"), "unknown level");
                    }
                }
                match result.get("locations").and_then(Value::as_array) {
                    Some(locations) if !locations.is_empty() && locations.len() <= 10 => {
                        for (l, location) in locations.iter().enumerate() {
                            self.location(location, &format!("{at}.locations[{l}]"), true);
                        }
                    }
                    _ => self.error(&format!("{at}.locations"), "must hold 1 to 10 locations"),
                }
                if let Some(related) = result.get("relatedLocations") {
                    for (l, location) in related.as_array().into_iter().flatten().enumerate() {
                        self.location(location, &format!("{at}.relatedLocations[{l}]"), false);
                    }
                }
                if let Some(prints) = result.get("partialFingerprints") {
                    let ok = prints.as_object().is_some_and(|p| {
                        p.values().all(Value::is_string)
                            && p.contains_key("primaryLocationLineHash")
                    });
                    if !ok {
                        self.error(
                            &format!("{at}.partialFingerprints"),
                            "must map names to strings, with primaryLocationLineHash",
                        );
                    }
                }
            }
        }
    }
}

/// RFC 3986 URI reference characters, with well-formed percent escapes.
fn is_uri_reference(uri: &str) -> bool {
    let bytes = uri.as_bytes();
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        if b == b'%' {
            let hex = |j: usize| bytes.get(j).is_some_and(u8::is_ascii_hexdigit);
            if !(hex(i + 1) && hex(i + 2)) {
                return false;
            }
            i += 3;
            continue;
        }
        if !(b.is_ascii_alphanumeric() || b"-._~:/?#[]@!$&'()*+,;=".contains(&b)) {
            return false;
        }
        i += 1;
    }
    // A relative reference must not start with a segment holding `:` (it would read as a
    // scheme).
    let first = uri.split('/').next().unwrap_or("");
    !first.contains(':')
        || uri.split_once(':').is_some_and(|(scheme, _)| {
            scheme.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
                && scheme.chars().all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
        })
}

fn validate_sarif(log: &Value) -> Vec<String> {
    let mut validator = Validator { errors: Vec::new() };
    validator.validate(log);
    validator.errors
}
