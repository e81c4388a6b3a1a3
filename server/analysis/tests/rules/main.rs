//! Data-driven rule tests: every `fixtures/*.t3d` is linted and the diagnostics, rendered
//! with line:column, labels and fixes, are compared with the `.diagnostics` file beside it
//! (`UPDATE_EXPECT=1` rewrites them). Each rule has a fixture named after its code that
//! shows it firing, and the fixtures together show where each rule stays silent.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test helpers may panic on broken fixtures

mod doc_examples;
mod engine_polygons;

use std::fmt::Write;
use std::path::{Path, PathBuf};

use unreal_analysis::index::PackageIndex;
use unreal_analysis::line_index::ColumnUnit;
use unreal_analysis::lint::{lint_file, FileKind, LintOptions};
use unreal_analysis::rules::T3D_RULES;
use unreal_analysis::{Diagnostic, EngineSetting, LineIndex};

fn fixtures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/rules/fixtures")
}

fn render(text: &str, diagnostics: &[Diagnostic]) -> String {
    let index = LineIndex::new(text);
    let at = |offset: u32| {
        let lc = index.line_col(text, offset, ColumnUnit::Chars);
        format!("{}:{}", lc.line + 1, lc.col + 1)
    };
    let mut out = String::new();
    for d in diagnostics {
        let _ = writeln!(
            out,
            "{}-{} {} {}: {}",
            at(d.span.start),
            at(d.span.end),
            d.severity.as_str(),
            d.code,
            d.message
        );
        for label in &d.labels {
            let _ = writeln!(
                out,
                "    label {}-{}: {}",
                at(label.span.start),
                at(label.span.end),
                label.message
            );
        }
        if let Some(fix) = &d.fix {
            let _ =
                writeln!(out, "    fix{}: {}", if fix.safe { "" } else { " (unsafe)" }, fix.title);
            for edit in &fix.edits {
                let _ = writeln!(
                    out,
                    "      {}-{} => {:?}",
                    at(edit.span.start),
                    at(edit.span.end),
                    edit.new_text
                );
            }
        }
    }
    out
}

/// The package index of the `*.indexed.*` fixtures: a few engine classes and textures, a
/// texture package, a sound package and a package of skins, as plain data.
fn fixture_index() -> std::sync::Arc<PackageIndex> {
    let engine: &[(&str, &str)] = &[
        ("Class", "Actor"),
        ("Class", "Light"),
        ("Class", "Brush"),
        ("Class", "LevelInfo"),
        ("Class", "PlayerStart"),
        ("Class", "AmbientSound"),
        ("Class", "Pawn"),
        ("Texture", "S_Ambient"),
        ("Texture", "DefaultTexture"),
        ("Package", "Icons"),
    ];
    let checkers: &[(&str, &str)] =
        &[("Texture", "checkers_base"), ("Texture", "checkers_abcd"), ("Palette", "Palette0")];
    let sounds: &[(&str, &str)] = &[("Package", "Looping"), ("Sound", "Looping.comp1")];
    let share: &[(&str, &str)] =
        &[("Package", "Skins"), ("Texture", "Skins.JSkin"), ("Class", "Flashlight")];
    // A package being written in the game folder (`MyMod/Classes/*.uc`), not compiled yet.
    let declared =
        |name: &str, is_abstract: bool| unreal_analysis::index::class_sources::SourceClass {
            name: name.to_owned(),
            package: "MyMod".to_owned(),
            parent: Some("Actor".to_owned()),
            is_abstract,
            placeable: None,
            file: format!("/game/MyMod/Classes/{name}.uc").into(),
        };
    // `Actor` compiled abstract (as in every engine), `Light` not; the other classes are
    // listed without their data, so that nothing is judged of them.
    let index = PackageIndex::from_listing(&[
        ("Engine", engine),
        ("Checkers", checkers),
        ("AmbModern", sounds),
        ("UnrealShare", share),
    ])
    .with_compiled_class_flags("Engine", &[("Actor", 0x1), ("Light", 0)]);
    std::sync::Arc::new(index.with_source_classes(std::sync::Arc::new(vec![
        declared("MyActor", false),
        declared("MyBase", true),
        // Abstract here, but also compiled in `UnrealShare` (no sources here): a bare name
        // may be that one.
        declared("Flashlight", true),
    ])))
}

/// The package index of the `*.classes.*` fixtures: the classes declared in
/// `fixtures/game/<Package>/Classes/*.uc`, with their defaults, read as a game folder's
/// sources are (a game folder set, no compiled package in it: the reference rules judge).
fn class_index() -> std::sync::Arc<PackageIndex> {
    let game = fixtures_dir().join("game");
    let classes = unreal_analysis::index::class_sources::read_game_folder(
        &unreal_analysis::fs::RealFs,
        &game,
    );
    // The sources' defaults are read from the files when first asked for.
    let index = PackageIndex::from_packages(
        std::sync::Arc::new(unreal_analysis::fs::RealFs),
        unreal_analysis::index::IndexRoots { game_dir: Some(game), ..Default::default() },
        Vec::new(),
    );
    std::sync::Arc::new(index.with_source_classes(std::sync::Arc::new(classes)))
}

/// The package index of the `*.compiled.*` fixtures: a UT2004 game folder of compiled
/// packages only (no sources), written here: `Engine.u` with an abstract `Pickup` and a
/// `StaticMeshActor` whose compiled defaults set `bStatic`, and `MyMod.u` with a class
/// whose bytecode the reader cannot walk (`BrokenBase`), a class derived from it and a
/// readable one.
fn compiled_index() -> std::sync::Arc<PackageIndex> {
    use unreal_analysis::fs::MemoryFs;
    use unreal_analysis::index::IndexRoots;
    use unreal_test_support::writers::{class_package, TestClass, TestDefault};
    let engine = class_package(
        128,
        29,
        &[
            TestClass::new("Object", None, 1),
            TestClass::new("Actor", Some("Object"), 1),
            TestClass::new("Pickup", Some("Actor"), 1),
            TestClass::new("StaticMeshActor", Some("Actor"), 0)
                .with("bStatic", TestDefault::Bool(true)),
        ],
    );
    // A token no UE2 bytecode set has (0xFF): the class's data cannot be read.
    let mut broken = TestClass::new("BrokenBase", Some("Actor"), 0);
    broken.script = vec![0xFF];
    broken.script_size = 1;
    let my_mod = class_package(
        128,
        29,
        &[
            broken,
            TestClass::new("BrokenChild", Some("BrokenBase"), 0),
            TestClass::new("Fine", Some("Actor"), 0),
        ],
    );
    let fs =
        MemoryFs::new().with("/game/System/Engine.u", engine).with("/game/System/MyMod.u", my_mod);
    let roots = IndexRoots { game_dir: Some(PathBuf::from("/game")), ..IndexRoots::default() };
    std::sync::Arc::new(PackageIndex::build(std::sync::Arc::new(fs), roots, &mut |_| {}))
}

/// The files of the fixture folder `folder`, at the same place under `/<folder>` of an
/// in-memory tree (so that the paths in messages do not depend on the checkout).
fn fixture_tree(folders: &[&str]) -> unreal_analysis::fs::MemoryFs {
    let mut fs = unreal_analysis::fs::MemoryFs::new();
    for folder in folders {
        let root = fixtures_dir().join(folder);
        let mut files = Vec::new();
        collect_all(&root, &mut files);
        for file in files {
            let inside = file.strip_prefix(&root).unwrap();
            fs.insert(Path::new("/").join(folder).join(inside), std::fs::read(&file).unwrap());
        }
    }
    fs
}

fn collect_all(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            collect_all(&path, out);
        } else {
            out.push(path);
        }
    }
}

/// The package index of the `*.sources.*` fixtures: a mod's repository without a game
/// folder (`fixtures/repo`, as `/repo`), its classes known from its sources alone, as
/// `lint` in the repository and the server on it as workspace folder build it.
fn sources_index() -> std::sync::Arc<PackageIndex> {
    let roots = unreal_analysis::index::IndexRoots {
        source_paths: vec!["/repo".into()],
        ..Default::default()
    };
    std::sync::Arc::new(PackageIndex::build(
        std::sync::Arc::new(fixture_tree(&["repo"])),
        roots,
        &mut |_| {},
    ))
}

/// Options from the fixture's name: `*.ue1.t3d` and `*.ue2.t3d` fix the engine generation;
/// `*.ut99.t3d`, `*.ut469.t3d`, `*.ut2004.t3d` and `*.unreal227.t3d` declare that game (and its
/// generation);
/// `*.indexed.*` resolve references against [`fixture_index`], `*.classes.*` against
/// [`class_index`], `*.compiled.*` against [`compiled_index`], `*.sources.*` know the
/// classes of [`sources_index`].
fn options_for(path: &Path) -> LintOptions {
    let name = path.file_name().unwrap().to_string_lossy();
    let game = if name.ends_with(".ut99.t3d") {
        Some(unreal_analysis::Game::Ut99)
    } else if name.ends_with(".ut469.t3d") {
        Some(unreal_analysis::Game::Ut469)
    } else if name.ends_with(".ut2004.t3d") {
        Some(unreal_analysis::Game::Ut2004)
    } else if name.ends_with(".unreal227.t3d") {
        Some(unreal_analysis::Game::Unreal227)
    } else {
        None
    };
    let engine = if name.ends_with(".ue1.t3d")
        || matches!(
            game,
            Some(
                unreal_analysis::Game::Ut99
                    | unreal_analysis::Game::Ut469
                    | unreal_analysis::Game::Unreal227
            )
        ) {
        EngineSetting::Ue1
    } else if name.ends_with(".ue2.t3d") || game == Some(unreal_analysis::Game::Ut2004) {
        EngineSetting::Ue2
    } else {
        EngineSetting::Auto
    };
    let packages = if name.contains(".indexed.") {
        Some(fixture_index())
    } else if name.contains(".classes.") {
        Some(class_index())
    } else if name.contains(".compiled.") {
        Some(compiled_index())
    } else if name.contains(".sources.") {
        Some(sources_index())
    } else {
        None
    };
    LintOptions { engine, game, packages, ..LintOptions::default() }
}

#[test]
fn fixtures_match_their_snapshots() {
    let mut paths: Vec<_> =
        std::fs::read_dir(fixtures_dir()).unwrap().map(|e| e.unwrap().path()).collect();
    paths.sort();
    let mut codes_seen = std::collections::BTreeSet::new();
    for path in paths.iter().filter(|p| p.extension().is_some_and(|e| e == "t3d")) {
        let bytes = std::fs::read(path).unwrap();
        let linted = lint_file(FileKind::T3d, &bytes, &options_for(path));
        codes_seen.extend(linted.diagnostics.iter().map(|d| d.code));
        let expected = path.with_file_name(format!(
            "{}.diagnostics",
            path.file_name().unwrap().to_string_lossy().trim_end_matches(".t3d")
        ));
        expect_test::expect_file![expected].assert_eq(&render(&linted.text, &linted.diagnostics));
    }
    let missing: Vec<_> =
        T3D_RULES.iter().map(|r| r.meta.code).filter(|c| !codes_seen.contains(c)).collect();
    assert!(missing.is_empty(), "rules never shown firing by a fixture: {missing:?}");
}

/// A lone CR ends a line as LF does (`ParseLine` in Core's UnMisc.cpp stops a line at either):
/// every fixture with its line breaks turned to lone CRs (a classic Mac OS export) gives the
/// findings it gives with LF, at the same places (one byte a break either way).
#[test]
fn lone_carriage_returns_end_lines_as_line_feeds_do() {
    let mut paths: Vec<_> =
        std::fs::read_dir(fixtures_dir()).unwrap().map(|e| e.unwrap().path()).collect();
    paths.sort();
    let mut findings = 0;
    for path in paths.iter().filter(|p| p.extension().is_some_and(|e| e == "t3d")) {
        let text = String::from_utf8_lossy(&std::fs::read(path).unwrap()).replace("\r\n", "\n");
        let options = options_for(path);
        let seen = |text: &str| -> Vec<_> {
            let linted = lint_file(FileKind::T3d, text.as_bytes(), &options);
            linted.diagnostics.iter().map(|d| (d.code, d.span, d.message.clone())).collect()
        };
        let with_lf = seen(&text);
        assert_eq!(seen(&text.replace('\n', "\r")), with_lf, "{}", path.display());
        findings += with_lf.len();
    }
    assert!(findings > 100, "only {findings} findings compared");
}

/// The rules that read class knowledge (abstract, parents, defaults): the only ones an index
/// of class sources alone may change.
const CLASS_RULES: &[&str] = &[
    "t3d-abstract-class",
    "t3d-no-player-start",
    "t3d-static-flag-cleared",
    "t3d-obsolete-class",
    "t3d-missing-draw-resource",
];

/// An index of a workspace's class sources alone (no game folder, no package paths) knows
/// no stock class (`Light`, `Brush`) nor any texture: the reference rules stay as quiet as
/// without an index, and only the class rules find more. Each `*.sources.*` fixture is
/// checked both ways; the findings that differ are all the class rules'.
#[test]
fn class_sources_alone_change_only_the_class_rules() {
    let index = sources_index();
    assert!(!index.knows_packages());
    assert_eq!(index.source_classes().len(), 4, "{:?}", index.source_classes());
    let mut paths: Vec<_> =
        std::fs::read_dir(fixtures_dir()).unwrap().map(|e| e.unwrap().path()).collect();
    paths.sort();
    let mut compared = 0;
    for path in paths.iter().filter(|p| p.to_string_lossy().ends_with(".t3d")) {
        if !path.file_name().unwrap().to_string_lossy().contains(".sources.") {
            continue;
        }
        let bytes = std::fs::read(path).unwrap();
        let with = lint_file(FileKind::T3d, &bytes, &options_for(path)).diagnostics;
        let without =
            lint_file(FileKind::T3d, &bytes, &LintOptions { packages: None, ..options_for(path) })
                .diagnostics;
        let key = |d: &Diagnostic| (d.code, d.span, d.message.clone());
        let with_keys: Vec<_> = with.iter().map(key).collect();
        let without_keys: Vec<_> = without.iter().map(key).collect();
        let changed: Vec<_> = with_keys
            .iter()
            .filter(|k| !without_keys.contains(k))
            .chain(without_keys.iter().filter(|k| !with_keys.contains(k)))
            .collect();
        for (code, span, message) in &changed {
            assert!(
                CLASS_RULES.contains(code),
                "{}: {code} at {span:?} changed with class sources alone: {message}",
                path.display()
            );
        }
        assert!(!changed.is_empty(), "{}: the sources changed nothing", path.display());
        compared += 1;
    }
    assert!(compared > 0, "no *.sources.* fixture");
}

/// `t3d-no-player-start` with class sources alone: a class is traced through them, and one
/// they do not declare (a stock class: `Actor`, `Brush`) leaves the map unjudged, as without
/// an index. A mod's repository traces its classes to the engine's and stops there; one that
/// holds the engine's sources too (`Core`, `Engine`: `fixtures/game` beside it) traces them to
/// `Object`, and its map without a start is reported.
#[test]
fn no_player_start_with_class_sources_alone() {
    let map = b"Begin Map\nBegin Actor Class=LevelInfo Name=LevelInfo0\n    Title=\"Mod Test\"\nEnd Actor\nBegin Actor Class=MyThing Name=MyThing0\nEnd Actor\nBegin Actor Class=MyMod.Crate Name=Crate0\nEnd Actor\nEnd Map\n";
    let with_map_start = String::from_utf8_lossy(map)
        .replace("End Map", "Begin Actor Class=MyStart Name=MyStart0\nEnd Actor\nEnd Map");
    let codes = |folders: &[&str], text: &[u8]| {
        let roots = unreal_analysis::index::IndexRoots {
            source_paths: folders.iter().map(|f| Path::new("/").join(f)).collect(),
            ..Default::default()
        };
        let fs = std::sync::Arc::new(fixture_tree(folders));
        let index = std::sync::Arc::new(PackageIndex::build(fs, roots, &mut |_| {}));
        assert!(!index.knows_packages());
        let options = LintOptions { packages: Some(index), ..LintOptions::default() };
        let linted = lint_file(FileKind::T3d, text, &options);
        linted.diagnostics.iter().map(|d| d.code).collect::<Vec<_>>()
    };
    // The mod's sources alone: `MyBase extends Actor`, and `Actor` is not among them.
    assert_eq!(codes(&["repo"], map), Vec::<&str>::new());
    // With the engine's sources in the workspace: every class traced to `Object`.
    assert_eq!(codes(&["repo", "game"], map), ["t3d-no-player-start"]);
    // A start of the mod's own class, traced through its source to `PlayerStart`.
    assert_eq!(codes(&["repo", "game"], with_map_start.as_bytes()), Vec::<&str>::new());
}

/// Every fix, applied, makes its diagnostic go away and changes nothing else's verdict.
#[test]
fn safe_fixes_resolve_their_diagnostic() {
    let mut paths: Vec<_> =
        std::fs::read_dir(fixtures_dir()).unwrap().map(|e| e.unwrap().path()).collect();
    paths.sort();
    for path in paths.iter().filter(|p| p.extension().is_some_and(|e| e == "t3d")) {
        let options = options_for(path);
        let bytes = std::fs::read(path).unwrap();
        let linted = lint_file(FileKind::T3d, &bytes, &options);
        for d in linted.diagnostics.iter().filter(|d| d.fix.as_ref().is_some_and(|f| f.safe)) {
            let mut text = linted.text.to_string();
            let mut edits = d.fix.as_ref().unwrap().edits.clone();
            edits.sort_by_key(|e| std::cmp::Reverse(e.span.start));
            for edit in edits {
                text.replace_range(edit.span.range(), &edit.new_text);
            }
            let after = unreal_analysis::rules::check_t3d(&text, &options);
            let before_count = linted.diagnostics.iter().filter(|x| x.code == d.code).count();
            let after_count = after.iter().filter(|x| x.code == d.code).count();
            assert_eq!(
                after_count + 1,
                before_count,
                "{}: fix for {} at {:?}",
                path.display(),
                d.code,
                d.span
            );
        }
    }
}

/// The corpus: zero error-level diagnostics, and a snapshot of everything reported.
#[test]
fn corpus_has_no_errors() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/t3d");
    if !corpus.is_dir() {
        unreal_test_support::corpus::absent(&format!(
            "corpus folder {} is absent",
            corpus.display()
        ));
        return;
    }
    let mut files = Vec::new();
    collect(&corpus, &mut files);
    files.sort();
    let mut out = String::new();
    for path in &files {
        let bytes = std::fs::read(path).unwrap();
        let linted = lint_file(FileKind::T3d, &bytes, &LintOptions::default());
        let name = path.strip_prefix(&corpus).unwrap().display().to_string();
        let _ = writeln!(out, "== {name}");
        out.push_str(&render(&linted.text, &linted.diagnostics));
        let errors: Vec<_> = linted
            .diagnostics
            .iter()
            .filter(|d| d.severity == unreal_analysis::Severity::Error)
            .collect();
        assert!(errors.is_empty(), "{name}: {errors:#?}");
    }
    expect_test::expect_file!["corpus.diagnostics"].assert_eq(&out);
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            collect(&path, out);
        } else if path.extension().is_some_and(|e| e.eq_ignore_ascii_case("t3d")) {
            out.push(path);
        }
    }
}
