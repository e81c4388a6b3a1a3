//! `unreal-ls diff`: each kind of change on a fixture pair written for it
//! (`fixtures/diff/generate.py`), the JSON contract, a property test (a map against itself
//! reordered, renumbered and reformatted reports nothing; with one actor moved, exactly that),
//! the real corpus maps against themselves so rewritten, and the git driver through a real
//! `git diff`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::pedantic)]

use std::path::{Path, PathBuf};
use std::process::Command;

use expect_test::{expect, Expect};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/diff")
}

fn diff(args: &[&str]) -> (Option<i32>, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_unreal-ls"))
        .current_dir(fixtures())
        .arg("diff")
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn check(variant: &str, expected: Expect) {
    let (code, stdout, stderr) = diff(&["base.t3d", &format!("{variant}.t3d")]);
    expected.assert_eq(&format!("exit {}\n{stdout}{stderr}", code.unwrap_or(-1)));
}

#[test]
fn moved_and_turned() {
    check(
        "moved",
        expect![[r#"
            exit 1
            base.t3d -> moved.t3d: 1 moved

            moved:
              Light0 (Light): by (16, 0, 0); turned Yaw +90.0 deg
        "#]],
    );
}

#[test]
fn renamed_by_renumbering_and_reordered() {
    check(
        "renumbered",
        expect![[r#"
            exit 1
            base.t3d -> renumbered.t3d: 1 renamed

            renamed:
              Light1 -> Light5 (Light), line 199 -> 198
        "#]],
    );
}

#[test]
fn renames_set_aside() {
    let (code, stdout, _) = diff(&["--ignore-renames", "base.t3d", "renumbered.t3d"]);
    assert_eq!((code, stdout.as_str()), (Some(0), "base.t3d -> renumbered.t3d: no changes\n"));
}

#[test]
fn properties_and_struct_fields() {
    check(
        "properties",
        expect![[r#"
            exit 1
            base.t3d -> properties.t3d: 2 with changed properties

            properties:
              Light0 (Light): LightHue 24 -> 30; LightRadius (none) -> 64
              Light1 (Light): ColorGlow.G 128 -> 64
        "#]],
    );
}

#[test]
fn brushes_reshaped_and_retextured() {
    check(
        "reshaped",
        expect![[r#"
            exit 1
            base.t3d -> reshaped.t3d: 1 brush reshaped, 1 brush retextured or realigned

            brushes:
              Brush1 (Brush): 6 -> 6 polygons: 1 added, 1 removed
              Brush2 (Brush): 6 -> 6 polygons: 6 retextured
        "#]],
    );
}

#[test]
fn brushes_in_another_csg_order() {
    check(
        "reordered-brushes",
        expect![[r#"
            exit 1
            base.t3d -> reordered-brushes.t3d: the CSG order of brushes changed

            CSG order of brushes (place before -> after):
              Brush2: 2 -> 1 of 2
        "#]],
    );
}

/// A mover holds a brush but CSG does not build it: written elsewhere in the actor list, it
/// changes no CSG order.
#[test]
fn a_mover_elsewhere_in_the_list_is_no_csg_order_change() {
    let (code, stdout, stderr) = diff(&["movers-before.t3d", "movers-after.t3d"]);
    expect![[r#"
        exit 0
        movers-before.t3d -> movers-after.t3d: no changes
    "#]]
    .assert_eq(&format!("exit {}\n{stdout}{stderr}", code.unwrap_or(-1)));
}

/// Of four brushes, one moved to the front: only it is listed (the mover between them does
/// not count), in text and in JSON (`moved`, beside the two whole orders).
#[test]
fn only_the_brushes_that_changed_places_are_listed() {
    let (code, stdout, stderr) = diff(&["movers-before.t3d", "movers-reordered.t3d"]);
    expect![[r#"
        exit 1
        movers-before.t3d -> movers-reordered.t3d: the CSG order of brushes changed

        CSG order of brushes (place before -> after):
          Brush4: 4 -> 1 of 4
    "#]]
    .assert_eq(&format!("exit {}\n{stdout}{stderr}", code.unwrap_or(-1)));
    let (_, json, _) = diff(&["--format", "json", "movers-before.t3d", "movers-reordered.t3d"]);
    let value: serde_json::Value = serde_json::from_str(&json).unwrap();
    expect![[r#"{"moved":[{"name":"Brush4","new":1,"old":4}],"new":["Brush4","Brush1","Brush2","Brush3"],"old":["Brush1","Brush2","Brush3","Brush4"]}"#]].assert_eq(&value["brush_order"].to_string());
}

#[test]
fn another_export_of_the_same_map_is_no_change() {
    check(
        "reexported",
        expect![[r#"
            exit 0
            base.t3d -> reexported.t3d: no changes
        "#]],
    );
}

#[test]
fn json_is_the_documented_contract() {
    let (code, stdout, _) = diff(&["--format", "json", "base.t3d", "properties.t3d"]);
    assert_eq!(code, Some(1));
    let value: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    expect![[r#"{"added":[],"brush_order":null,"changed":[{"brush":null,"moved":null,"new":{"class":"Light","line":194,"location":[0.0,0.0,128.0],"name":"Light0"},"old":{"class":"Light","line":194,"location":[0.0,0.0,128.0],"name":"Light0"},"properties":[{"key":"LightHue","new":"30","old":"24"},{"key":"LightRadius","new":"64","old":null}],"renamed":false,"turned":null},{"brush":null,"moved":null,"new":{"class":"Light","line":200,"location":[256.0,0.0,128.0],"name":"Light1"},"old":{"class":"Light","line":199,"location":[256.0,0.0,128.0],"name":"Light1"},"properties":[{"key":"ColorGlow.G","new":"64","old":"128"}],"renamed":false,"turned":null}],"new":"properties.t3d","old":"base.t3d","removed":[],"same":false,"summary":{"added":0,"brush_order_changed":false,"brushes_reshaped":0,"moved":0,"properties_changed":2,"removed":0,"renamed":0},"unparsed":{"new":[],"old":[]},"version":1}"#]]
    .assert_eq(&value.to_string());
}

#[test]
fn errors_are_exit_2_with_the_file_named() {
    let (code, _, stderr) = diff(&["base.t3d", "missing.t3d"]);
    assert_eq!(code, Some(2));
    assert!(stderr.contains("missing.t3d: no such file or directory"), "{stderr}");
    let (code, _, stderr) = diff(&["base.t3d", "generate.py"]);
    assert_eq!(code, Some(2));
    assert!(stderr.contains("generate.py: no `Begin` block"), "{stderr}");
    let (code, _, _) = diff(&["base.t3d"]);
    assert_eq!(code, Some(2));
}

/// A small deterministic generator (xorshift), so the property test needs no dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// The top-level actor blocks of a map written as `Begin Map` + actors + `End Map`.
fn actor_blocks(text: &str) -> Vec<String> {
    let mut blocks = Vec::new();
    let mut current = String::new();
    for line in text.split_inclusive('\n') {
        if line.starts_with("Begin Map") || line.starts_with("End Map") {
            continue;
        }
        current.push_str(line);
        if line.starts_with("End Actor") {
            blocks.push(std::mem::take(&mut current));
        }
    }
    blocks
}

/// The map rewritten as another export could write it: the actors other than brushes in a
/// random order, brush models renumbered, vectors printed without padding.
fn rewritten(text: &str, rng: &mut Rng) -> String {
    let blocks = actor_blocks(text);
    let is_brush = |b: &str| b.contains("Begin Brush");
    let mut others: Vec<&String> = blocks.iter().filter(|b| !is_brush(b)).collect();
    for i in (1..others.len()).rev() {
        others.swap(i, rng.below(i + 1));
    }
    let mut others = others.into_iter();
    let mut out = String::from("Begin Map\r\n");
    let offset = 100 + rng.below(50);
    for block in &blocks {
        let block = if is_brush(block) { (*block).clone() } else { others.next().unwrap().clone() };
        // Model5 -> Model(5+offset), in the reference and in the brush's own name.
        let renumbered = block
            .replace("MyLevel.Model", &format!("MyLevel.Model{offset}_"))
            .replace("Begin Brush Name=Model", &format!("Begin Brush Name=Model{offset}_"));
        out.push_str(&renumbered.replace(".000000", ""));
    }
    out.push_str("End Map\r\n");
    out
}

fn diff_texts(dir: &Path, old: &str, new: &str) -> (Option<i32>, String) {
    std::fs::write(dir.join("old.t3d"), old).unwrap();
    std::fs::write(dir.join("new.t3d"), new).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_unreal-ls"))
        .current_dir(dir)
        .args(["diff", "old.t3d", "new.t3d"])
        .output()
        .unwrap();
    (out.status.code(), String::from_utf8_lossy(&out.stdout).into_owned())
}

#[test]
fn a_map_rewritten_reports_nothing_and_one_move_reports_exactly_it() {
    let dir = std::env::temp_dir().join(format!("unreal-ls-diff-property-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let base = std::fs::read_to_string(fixtures().join("base.t3d")).unwrap();
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for _ in 0..20 {
        let text = rewritten(&base, &mut rng);
        let (code, stdout) = diff_texts(&dir, &base, &text);
        assert_eq!(code, Some(0), "{stdout}\n{text}");
        // One random non-brush actor moved along X.
        let blocks = actor_blocks(&text);
        let movable: Vec<&String> = blocks.iter().filter(|b| !b.contains("Begin Brush")).collect();
        let chosen = movable[rng.below(movable.len())];
        let moved =
            chosen.replacen("Location=(X=", "Location=(X=1000+", 1).replace("X=1000+", "X=1000");
        let name = chosen.lines().next().unwrap().split("Name=").nth(1).unwrap().trim().to_owned();
        let (code, stdout) = diff_texts(&dir, &base, &text.replacen(chosen.as_str(), &moved, 1));
        assert_eq!(code, Some(1), "{stdout}");
        assert!(stdout.contains(": 1 moved\n"), "{stdout}");
        assert!(stdout.contains(&format!("  {name} (")), "{name}: {stdout}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Real maps (the shared corpus) against themselves rewritten: nothing to report. Skips with
/// a message when the corpus is absent.
#[test]
fn corpus_maps_rewritten_report_nothing() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/t3d");
    let Ok(entries) = std::fs::read_dir(&corpus) else {
        unreal_test_support::corpus::absent(&format!("no corpus at {}", corpus.display()));
        return;
    };
    let mut maps: Vec<PathBuf> = Vec::new();
    let mut stack: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
    while let Some(path) = stack.pop() {
        if path.is_dir() {
            stack.extend(std::fs::read_dir(&path).unwrap().flatten().map(|e| e.path()));
        } else if path.extension().is_some_and(|e| e.eq_ignore_ascii_case("t3d")) {
            maps.push(path);
        }
    }
    let dir = std::env::temp_dir().join(format!("unreal-ls-diff-corpus-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut rng = Rng(7);
    let mut compared = 0;
    for map in maps {
        let text = unreal_syntax::text::decode(&std::fs::read(&map).unwrap()).text.into_owned();
        if !text.starts_with("Begin Map") || actor_blocks(&text).is_empty() {
            continue;
        }
        let (code, stdout) = diff_texts(&dir, &text, &rewritten(&text, &mut rng));
        assert_eq!(code, Some(0), "{}: {stdout}", map.display());
        compared += 1;
    }
    let _ = std::fs::remove_dir_all(&dir);
    eprintln!("{compared} corpus maps compared with themselves rewritten");
}

/// `git diff` of a changed map through the driver: `diff.t3d.command` and `*.t3d diff=t3d`.
#[test]
fn git_diff_runs_the_driver() {
    if Command::new("git").arg("--version").output().is_err() {
        eprintln!("skipped: git is not installed");
        return;
    }
    let repo = std::env::temp_dir().join(format!("unreal-ls-diff-git-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&repo);
    std::fs::create_dir_all(&repo).unwrap();
    let git = |args: &[&str]| {
        let out = Command::new("git")
            .current_dir(&repo)
            .args(["-c", "user.name=Test", "-c", "user.email=test@example.com"])
            .args(args)
            .output()
            .unwrap();
        assert!(out.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    git(&["init", "-q"]);
    let driver = format!("{} diff --git", env!("CARGO_BIN_EXE_unreal-ls"));
    git(&["config", "diff.t3d.command", &driver]);
    std::fs::write(repo.join(".gitattributes"), "*.t3d diff=t3d\n").unwrap();
    std::fs::copy(fixtures().join("base.t3d"), repo.join("Map.t3d")).unwrap();
    git(&["add", "."]);
    git(&["commit", "-q", "-m", "base"]);
    std::fs::copy(fixtures().join("moved.t3d"), repo.join("Map.t3d")).unwrap();
    let shown = git(&["diff"]);
    expect![[r#"
        diff --unreal-ls a/Map.t3d b/Map.t3d
        a/Map.t3d -> b/Map.t3d: 1 moved

        moved:
          Light0 (Light): by (16, 0, 0); turned Yaw +90.0 deg
    "#]]
    .assert_eq(&shown);
    // A new file is compared with /dev/null: every actor added.
    std::fs::copy(fixtures().join("base.t3d"), repo.join("New.t3d")).unwrap();
    git(&["add", "New.t3d"]);
    let shown = git(&["diff", "--cached"]);
    assert!(shown.contains("a/New.t3d -> b/New.t3d: 6 actors added"), "{shown}");
    // A renamed map: git passes nine arguments, the new path among them.
    git(&["commit", "-q", "-am", "moved"]);
    git(&["mv", "Map.t3d", "Renamed.t3d"]);
    std::fs::copy(fixtures().join("properties.t3d"), repo.join("Renamed.t3d")).unwrap();
    git(&["add", "-A"]);
    let shown = git(&["diff", "--cached", "-M50%", "HEAD"]);
    assert!(shown.contains("a/Map.t3d -> b/Renamed.t3d:"), "{shown}");
    // Paths that look like options are operands: git aborted ("external diff died") on a map
    // named `-Dash.t3d`, and one named `--help.t3d`... printed help.
    git(&["commit", "-q", "-m", "renamed"]);
    for name in ["-Dash.t3d", "--help.t3d"] {
        std::fs::copy(fixtures().join("base.t3d"), repo.join(name)).unwrap();
        git(&["add", "--", name]);
        git(&["commit", "-q", "-m", name]);
        std::fs::copy(fixtures().join("moved.t3d"), repo.join(name)).unwrap();
        let shown = git(&["diff", "--", name]);
        assert!(shown.contains(&format!("a/{name} -> b/{name}: 1 moved")), "{shown}");
    }
    let _ = std::fs::remove_dir_all(&repo);
}

/// Under `--git` the arguments are operands even when one is `--help` or starts with `-`
/// (git passes the tracked path first); options go before `--git`.
#[test]
fn git_operands_are_never_options() {
    let (base, moved) = (fixtures().join("base.t3d"), fixtures().join("moved.t3d"));
    let hex = "0000000000000000000000000000000000000000";
    for path in ["--help", "-x", "--format=json", "--"] {
        let out = Command::new(env!("CARGO_BIN_EXE_unreal-ls"))
            .args(["diff", "--format", "json", "--git", path])
            .args([base.as_os_str(), hex.as_ref(), "100644".as_ref()])
            .args([moved.as_os_str(), hex.as_ref(), "100644".as_ref()])
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(0), "{path}: {}", String::from_utf8_lossy(&out.stderr));
        assert!(stdout.contains(&format!("\"a/{path}\"")), "{path}: {stdout}");
    }
}
