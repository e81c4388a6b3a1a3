//! The settings every command that reads packages takes (`--game-dir`, `--package-path`,
//! `--config`, `--game`, `--engine`), run as a process: a map and a package kept outside any
//! installation are textured, placed and resolved only through them, so each test compares a
//! run without them with runs with each, and fails if a command ignored one.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::pedantic)]

use std::path::Path;
use std::process::Command;

use expect_test::{expect, Expect};
use unreal_test_support::writers;

/// A workspace of
/// - `Game/`: an installation (`System/Core.u`, `Engine.u`, `Editor.u`) with the two texture
///   packages the example room uses, `Textures/GenFloor.utx` and `Textures/Ancient.utx`;
/// - `Extra/`: `Ancient.utx` alone and `Tunes.umx`, for `--package-path`;
/// - `Work/`: the example room, `Mod.u` (importing from Engine and Tunes) and `game.toml`, a
///   configuration naming `../Game` that is not `Work`'s `unreal-ls.toml`, for `--config`.
///
/// Nothing under `Work/` stands in an installation or has an `unreal-ls.toml` of its own.
fn workspace(name: &str) -> unreal_test_support::ScratchDir {
    let dir = unreal_test_support::ScratchDir::new(&format!("cli-settings-{name}"));
    for folder in ["Game/System", "Game/Textures", "Extra", "Work"] {
        std::fs::create_dir_all(dir.join(folder)).unwrap();
    }
    let write = |path: &str, bytes: Vec<u8>| std::fs::write(dir.join(path), bytes).unwrap();
    write("Game/System/Core.u", writers::object_package(&[("Class", "Object")]));
    write(
        "Game/System/Engine.u",
        writers::object_package(&[
            ("Class", "Actor"),
            ("Class", "Brush"),
            ("Class", "LevelInfo"),
            ("Class", "PlayerStart"),
        ]),
    );
    write("Game/System/Editor.u", writers::object_package(&[("Texture", "Bkgnd")]));
    write("Game/Textures/GenFloor.utx", writers::texture_package(&[("Floor.Flr06", RED)]));
    write("Game/Textures/Ancient.utx", writers::texture_package(&[("Wall.Awall3", GREEN)]));
    write("Extra/Ancient.utx", writers::texture_package(&[("Wall.Awall3", GREEN)]));
    write("Extra/Tunes.umx", writers::object_package(&[("Music", "Theme")]));
    let room = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/clean/Room.t3d");
    write("Work/Room.t3d", std::fs::read(room).unwrap());
    write("Work/Mod.u", mod_package());
    write("Work/game.toml", b"game-dir = \"../Game\"\n".to_vec());
    dir
}

const RED: [u8; 4] = [200, 30, 30, 255];
const GREEN: [u8; 4] = [30, 200, 30, 255];

/// A code package that imports two classes from Engine and a song from Tunes.
fn mod_package() -> Vec<u8> {
    let mut w = writers::PackageWriter::new(69, 0);
    let actor = w.engine_class("Actor");
    w.engine_class("LevelInfo");
    let tunes = w.import("Core", "Package", 0, "Tunes");
    w.import("Engine", "Music", tunes, "Theme");
    w.export(actor, 0, "ModActor", 0, Box::new(|_, _| {}));
    w.finish()
}

/// Runs the binary in `dir`: exit code, stdout and stderr, the folder's path written `$DIR`.
fn run(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_unreal-ls"))
        .current_dir(dir)
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    let text = |b: &[u8]| String::from_utf8_lossy(b).replace(&dir.display().to_string(), "$DIR");
    (out.status.code().unwrap_or(-1), text(&out.stdout), text(&out.stderr))
}

/// [`run`] as one snapshot.
fn check(dir: &Path, args: &[&str], expected: Expect) {
    let (code, stdout, stderr) = run(dir, args);
    expected.assert_eq(&format!("exit {code}\n--- stdout\n{stdout}--- stderr\n{stderr}"));
}

/// The materials of an exported level that carry an image.
fn textured_materials(glb: &Path) -> Vec<String> {
    let bytes = std::fs::read(glb).unwrap();
    let len = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
    let json: serde_json::Value = serde_json::from_slice(&bytes[20..20 + len]).unwrap();
    json["materials"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| !m["pbrMetallicRoughness"]["baseColorTexture"].is_null())
        .map(|m| m["name"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn export_textures_a_map_from_the_game_folder_the_settings_name() {
    let dir = workspace("export");
    check(
        &dir,
        &["export", "Work/Room.t3d", "-o", "none.glb"],
        expect![[r#"
            exit 0
            --- stdout
            --- stderr
            note: GenFloor.Floor.Flr06: no game folder or package path is set to read textures from; its surfaces are drawn in a flat colour, mapped as a 256x256 texture
            note: Ancient.Wall.Awall3: no game folder or package path is set to read textures from; its surfaces are drawn in a flat colour, mapped as a 256x256 texture
            note: the level built from 2 brushes: 13 surfaces (0 invisible or portal left out), 2 materials (0 textured), 2 actors
        "#]],
    );
    assert!(textured_materials(&dir.join("none.glb")).is_empty());
    check(
        &dir,
        &["export", "Work/Room.t3d", "--game-dir", "Game", "-o", "game-dir.glb"],
        expect![[r#"
            exit 0
            --- stdout
            --- stderr
            note: the level built from 2 brushes: 13 surfaces (0 invisible or portal left out), 2 materials (2 textured), 2 actors
        "#]],
    );
    assert_eq!(
        textured_materials(&dir.join("game-dir.glb")),
        ["GenFloor.Floor.Flr06", "Ancient.Wall.Awall3"]
    );
    check(
        &dir,
        &["export", "Work/Room.t3d", "--config", "Work/game.toml", "-o", "config.glb"],
        expect![[r#"
            exit 0
            --- stdout
            --- stderr
            note: the level built from 2 brushes: 13 surfaces (0 invisible or portal left out), 2 materials (2 textured), 2 actors
        "#]],
    );
    assert_eq!(
        std::fs::read(dir.join("config.glb")).unwrap(),
        std::fs::read(dir.join("game-dir.glb")).unwrap()
    );
    // A package path alone: only the texture it holds.
    check(
        &dir,
        &["export", "Work/Room.t3d", "--package-path", "Extra", "-o", "extra.glb"],
        expect![[r#"
            exit 0
            --- stdout
            --- stderr
            note: GenFloor.Floor.Flr06: its package GenFloor is not in the game folder or package paths; its surfaces are drawn in a flat colour, mapped as a 256x256 texture
            note: the level built from 2 brushes: 13 surfaces (0 invisible or portal left out), 2 materials (1 textured), 2 actors
        "#]],
    );
    assert_eq!(textured_materials(&dir.join("extra.glb")), ["Ancient.Wall.Awall3"]);
    // `--game-dir` wins over the configuration's `game-dir`.
    check(
        &dir,
        &[
            "export",
            "Work/Room.t3d",
            "--config",
            "Work/game.toml",
            "--game-dir",
            "Extra",
            "-o",
            "both.glb",
        ],
        expect![[r#"
            exit 0
            --- stdout
            --- stderr
            note: GenFloor.Floor.Flr06: its package GenFloor is not in the game folder or package paths; its surfaces are drawn in a flat colour, mapped as a 256x256 texture
            note: the level built from 2 brushes: 13 surfaces (0 invisible or portal left out), 2 materials (1 textured), 2 actors
        "#]],
    );
    assert_eq!(textured_materials(&dir.join("both.glb")), ["Ancient.Wall.Awall3"]);
    // A configuration that cannot be used is reported as `lint` reports it, and nothing is
    // written.
    std::fs::write(dir.join("Work/broken.toml"), "game-dir = 3\n").unwrap();
    check(
        &dir,
        &["export", "Work/Room.t3d", "--config", "Work/broken.toml", "-o", "broken.glb"],
        expect![[r#"
            exit 2
            --- stdout
            --- stderr
            error: Work/broken.toml:1:12: `game-dir` must be a string, not integer
        "#]],
    );
    assert!(!dir.join("broken.glb").exists());
}

#[test]
fn render_textures_the_iso_view_from_the_game_folder_the_settings_name() {
    let dir = workspace("render");
    let render = |extra: &[&str], output: &str| {
        let mut args = vec!["render", "Work/Room.t3d", "--view", "iso", "--size", "128"];
        args.extend_from_slice(extra);
        args.extend_from_slice(&["-o", output]);
        let (code, stdout, stderr) = run(&dir, &args);
        assert_eq!(code, 0, "{stdout}{stderr}");
        std::fs::read(dir.join(output)).unwrap()
    };
    let flat = render(&[], "flat.png");
    let textured = render(&["--game-dir", "Game"], "game-dir.png");
    assert_ne!(flat, textured, "--game-dir did not texture the level");
    assert_eq!(render(&["--config", "Work/game.toml"], "config.png"), textured);
    let extra = render(&["--package-path", "Extra"], "extra.png");
    assert!(extra != flat && extra != textured, "--package-path textures the walls alone");
    // `--engine` is the one flag the shared group gives render (it had its own before).
    assert_eq!(render(&["--engine", "ue1", "--game", "ut99"], "ue1.png"), flat);
}

#[test]
fn info_places_a_packages_imports_in_the_game_folder_the_settings_name() {
    let dir = workspace("info");
    check(
        &dir,
        &["info", "Work/Mod.u"],
        expect![[r#"
        exit 0
        --- stdout
        Work/Mod.u
        package version 69 (licensee 0), flags 0x00000001
        names 11, imports 5, exports 1
          path      class      size  detail
          ModActor  Actor         0
        --- stderr
    "#]],
    );
    check(
        &dir,
        &["info", "Work/Mod.u", "--game-dir", "Game"],
        expect![[r#"
        exit 0
        --- stdout
        Work/Mod.u
        package version 69 (licensee 0), flags 0x00000001
        names 11, imports 5, exports 1
          path      class      size  detail
          ModActor  Actor         0
        imports from 2 packages:
          Engine (game folder) Game/System/Engine.u, 2 objects
          Tunes (missing), 1 object
        --- stderr
    "#]],
    );
    check(
        &dir,
        &["info", "Work/Mod.u", "--config", "Work/game.toml", "--package-path", "Extra"],
        expect![[r#"
            exit 0
            --- stdout
            Work/Mod.u
            package version 69 (licensee 0), flags 0x00000001
            names 11, imports 5, exports 1
              path      class      size  detail
              ModActor  Actor         0
            imports from 2 packages:
              Engine (game folder) $DIR/Work/../Game/System/Engine.u, 2 objects
              Tunes (outside the game folder) Extra/Tunes.umx, 1 object
            --- stderr
        "#]],
    );
    let (code, stdout, _) = run(&dir, &["info", "--json", "Work/Mod.u", "--game-dir", "Game"]);
    assert_eq!(code, 0);
    let json: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let imported = &json[0]["imported_packages"];
    assert_eq!(imported[0]["package"], "Engine");
    assert_eq!(imported[0]["place"], "game folder");
    assert_eq!(imported[0]["objects"], 2);
    assert_eq!(imported[1]["package"], "Tunes");
    assert_eq!(imported[1]["place"], "missing");
    let (_, stdout, _) = run(&dir, &["info", "--json", "Work/Mod.u"]);
    let json: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert!(json[0].get("imported_packages").is_none(), "{json}");
}

#[test]
fn deps_resolves_a_map_in_the_game_folder_the_settings_name() {
    let dir = workspace("deps");
    check(
        &dir,
        &["deps", "Work/Room.t3d"],
        expect![[r#"
            exit 0
            --- stdout
            Work/Room.t3d: 0 packages
              not checked (5 names: no game folder to look them up in)
                class LevelInfo (line 2)
                class PlayerStart (line 12)
                class Brush (line 19, 3 uses)
                texture GenFloor.Floor.Flr06 (line 102, 6 uses)
                texture Ancient.Wall.Awall3 (line 177, 6 uses)
            --- stderr
            note: Work/Room.t3d: no game folder: the names it uses are listed, not checked; pass --game-dir DIR (the game's folder, the one that holds System/), set game-dir in unreal-ls.toml, or keep the map inside the game's folder
        "#]],
    );
    check(
        &dir,
        &["deps", "Work/Room.t3d", "--game-dir", "Game"],
        expect![[r#"
        exit 0
        --- stdout
        Work/Room.t3d: 3 packages
          Ancient (game folder) Game/Textures/Ancient.utx
            texture Ancient.Wall.Awall3 (line 177, 6 uses)
          Engine (game folder) Game/System/Engine.u
            class LevelInfo = Engine.LevelInfo (line 2)
            class PlayerStart = Engine.PlayerStart (line 12)
            class Brush = Engine.Brush (line 19, 3 uses)
          GenFloor (game folder) Game/Textures/GenFloor.utx
            texture GenFloor.Floor.Flr06 (line 102, 6 uses)
        --- stderr
    "#]],
    );
    check(
        &dir,
        &["deps", "Work/Room.t3d", "--config", "Work/game.toml"],
        expect![[r#"
        exit 0
        --- stdout
        Work/Room.t3d: 3 packages
          Ancient (game folder) $DIR/Work/../Game/Textures/Ancient.utx
            texture Ancient.Wall.Awall3 (line 177, 6 uses)
          Engine (game folder) $DIR/Work/../Game/System/Engine.u
            class LevelInfo = Engine.LevelInfo (line 2)
            class PlayerStart = Engine.PlayerStart (line 12)
            class Brush = Engine.Brush (line 19, 3 uses)
          GenFloor (game folder) $DIR/Work/../Game/Textures/GenFloor.utx
            texture GenFloor.Floor.Flr06 (line 102, 6 uses)
        --- stderr
    "#]],
    );
    // A package path alone: what it holds is found outside the game folder, to be sent.
    check(
        &dir,
        &["deps", "Work/Room.t3d", "--package-path", "Extra"],
        expect![[r#"
        exit 0
        --- stdout
        Work/Room.t3d: 1 package
          Ancient (outside the game folder) Extra/Ancient.utx
            texture Ancient.Wall.Awall3 (line 177, 6 uses)
          not checked (4 names: the engine's packages are not indexed)
          a server sends with the map: Ancient
        --- stderr
    "#]],
    );
}

#[test]
fn find_searches_the_game_folder_the_settings_name() {
    let dir = workspace("find");
    let work = dir.join("Work");
    check(
        &work,
        &["find", "awall"],
        expect![[r#"
        exit 2
        --- stdout
        --- stderr
        error: no game folder: pass --game-dir DIR (the game's folder, the one that holds System/), set game-dir in unreal-ls.toml, or run inside the game's folder
    "#]],
    );
    check(
        &work,
        &["find", "awall", "--game-dir", "../Game"],
        expect![[r#"
        exit 0
        --- stdout
        Ancient.Wall.Awall3  Texture  ../Game/Textures/Ancient.utx
        --- stderr
        1 asset found in 1 of the 5 packages of ../Game (--game-dir)
    "#]],
    );
    check(
        &work,
        &["find", "awall", "--config", "game.toml"],
        expect![[r#"
        exit 0
        --- stdout
        Ancient.Wall.Awall3  Texture  ../Game/Textures/Ancient.utx
        --- stderr
        1 asset found in 1 of the 5 packages of ../Game (--config)
    "#]],
    );
    check(
        &work,
        &["find", "theme", "--package-path", "../Extra"],
        expect![[r#"
        exit 0
        --- stdout
        Tunes.Theme  Music  ../Extra/Tunes.umx
        --- stderr
        1 asset found in 1 of the 2 packages of ../Extra (--package-path)
    "#]],
    );
}

#[test]
fn diff_places_the_packages_a_new_version_uses_in_the_game_folder_the_settings_name() {
    let dir = workspace("diff");
    let room = std::fs::read_to_string(dir.join("Work/Room.t3d")).unwrap();
    std::fs::write(
        dir.join("Work/New.t3d"),
        room.replace("Ancient.Wall.Awall3", "Marble.Tiles.White"),
    )
    .unwrap();
    check(
        &dir,
        &["diff", "Work/Room.t3d", "Work/New.t3d"],
        expect![[r#"
        exit 1
        --- stdout
        Work/Room.t3d -> Work/New.t3d: 1 brush retextured or realigned

        brushes:
          Brush1 (Brush): 6 -> 6 polygons: 6 retextured
        --- stderr
    "#]],
    );
    check(
        &dir,
        &["diff", "--game-dir", "Game", "Work/Room.t3d", "Work/New.t3d"],
        expect![[r#"
        exit 1
        --- stdout
        Work/Room.t3d -> Work/New.t3d: 1 brush retextured or realigned

        brushes:
          Brush1 (Brush): 6 -> 6 polygons: 6 retextured

        packages (in Game):
          + Marble (missing)
          - Ancient (game folder) Game/Textures/Ancient.utx
        --- stderr
    "#]],
    );
    check(
        &dir,
        &["diff", "--config", "Work/game.toml", "Work/Room.t3d", "Work/New.t3d"],
        expect![[r#"
            exit 1
            --- stdout
            Work/Room.t3d -> Work/New.t3d: 1 brush retextured or realigned

            brushes:
              Brush1 (Brush): 6 -> 6 polygons: 6 retextured

            packages (in $DIR/Work/../Game):
              + Marble (missing)
              - Ancient (game folder) $DIR/Work/../Game/Textures/Ancient.utx
            --- stderr
        "#]],
    );
    let json = |extra: &[&str]| {
        let mut args = vec!["diff", "--format", "json"];
        args.extend_from_slice(extra);
        args.extend_from_slice(&["Work/Room.t3d", "Work/New.t3d"]);
        let (code, stdout, stderr) = run(&dir, &args);
        assert_eq!(code, 1, "{stderr}");
        serde_json::from_str::<serde_json::Value>(&stdout).unwrap()
    };
    assert!(json(&[]).get("packages").is_none());
    let packages = &json(&["--game-dir", "Game"])["packages"];
    assert_eq!(packages["added"][0]["name"], "Marble");
    assert_eq!(packages["added"][0]["place"], "missing");
    assert_eq!(packages["removed"][0]["name"], "Ancient");
    assert_eq!(packages["removed"][0]["place"], "game folder");
    // A package path alone: Ancient is found there; without the engine's packages a name
    // in an unknown package is not judged (as `deps` says), so Marble is not listed.
    check(
        &dir,
        &["diff", "--package-path", "Extra", "Work/Room.t3d", "Work/New.t3d"],
        expect![[r#"
            exit 1
            --- stdout
            Work/Room.t3d -> Work/New.t3d: 1 brush retextured or realigned

            brushes:
              Brush1 (Brush): 6 -> 6 polygons: 6 retextured

            packages (in Extra):
              - Ancient (outside the game folder) Extra/Ancient.utx
            --- stderr
        "#]],
    );
}

/// `lint` takes `--package-path` too: references into packages are checked against it.
#[test]
fn lint_checks_references_in_the_package_paths_given() {
    let dir = workspace("lint");
    let (_, without, _) = run(&dir, &["lint", "Work/Room.t3d"]);
    assert!(without.contains("were not checked"), "{without}");
    let (_, with, _) = run(&dir, &["lint", "Work/Room.t3d", "--package-path", "Game"]);
    assert!(!with.contains("were not checked"), "{with}");
}
