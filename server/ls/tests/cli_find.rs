//! `unreal-ls find` run as a process: the game folder's assets matching a fragment, best
//! first, in human and JSON form; the game folder from `--game-dir` or found around the
//! current folder; exit codes 0 (found), 1 (nothing), 2 (usage).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::pedantic)]

use std::path::Path;
use std::process::Command;

use expect_test::{expect, Expect};
use unreal_test_support::{containers, writers};

/// A game folder for the test, removed when it ends.
fn game(name: &str) -> unreal_test_support::ScratchDir {
    let dir = unreal_test_support::ScratchDir::new(&format!("cli-find-{name}"));
    for folder in ["System", "Textures", "Sounds", "StaticMeshes", "Maps"] {
        std::fs::create_dir_all(dir.join(folder)).unwrap();
    }
    std::fs::write(dir.join("System/Core.u"), writers::object_package(&[("Class", "Object")]))
        .unwrap();
    std::fs::write(
        dir.join("System/Engine.u"),
        writers::object_package(&[("Class", "Actor"), ("Texture", "DefaultTexture")]),
    )
    .unwrap();
    let rocks = writers::object_package(&[
        ("Texture", "Walls.Granite"),
        ("Texture", "Walls.GraniteDark"),
        ("Shader", "Walls.GraniteShiny"),
        ("Texture", "Floors.Marble"),
    ]);
    std::fs::write(dir.join("Textures/Rocks.utx"), rocks).unwrap();
    std::fs::write(
        dir.join("Sounds/Quarry.uax.uz2"),
        containers::uz2(&writers::object_package(&[("Sound", "Blast.GraniteCrack")])),
    )
    .unwrap();
    std::fs::write(dir.join("StaticMeshes/Crates.usx"), writers::ue2_static_package(128, 29))
        .unwrap();
    std::fs::write(dir.join("Maps/Broken.unr"), b"\xC1\x83\x2A\x9E short").unwrap();
    dir
}

/// Runs the binary in `dir`; the snapshot is the exit code, stdout and stderr, with the game
/// folder's path written `GAME`.
fn run(dir: &Path, game: &Path, args: &[&str], expected: Expect) {
    let out =
        Command::new(env!("CARGO_BIN_EXE_unreal-ls")).current_dir(dir).args(args).output().unwrap();
    let text = format!(
        "exit {}\n--- stdout\n{}--- stderr\n{}",
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    expected.assert_eq(&text.replace(&game.display().to_string(), "GAME"));
}

#[test]
fn finds_assets_by_a_fragment_of_their_name() {
    let dir = game("human");
    let parent = dir.parent().unwrap().to_path_buf();
    // Inside the game folder: found around the current folder.
    run(
        &dir,
        &dir,
        &["find", "granite"],
        expect![[r#"
            exit 0
            --- stdout
            Rocks.Walls.Granite        Texture  GAME/Textures/Rocks.utx
            Rocks.Walls.GraniteDark    Texture  GAME/Textures/Rocks.utx
            Rocks.Walls.GraniteShiny   Shader   GAME/Textures/Rocks.utx
            Quarry.Blast.GraniteCrack  Sound    GAME/Sounds/Quarry.uax.uz2
            --- stderr
            4 assets found in 2 of the 6 packages of GAME (found around the current folder); 1 could not be read (unreal-ls info names why)
        "#]],
    );
    // Assets of one package are found in 1 package, however many were searched.
    run(
        &dir,
        &dir,
        &["find", "walls.granite"],
        expect![[r#"
            exit 0
            --- stdout
            Rocks.Walls.Granite       Texture  GAME/Textures/Rocks.utx
            Rocks.Walls.GraniteDark   Texture  GAME/Textures/Rocks.utx
            Rocks.Walls.GraniteShiny  Shader   GAME/Textures/Rocks.utx
            --- stderr
            3 assets found in 1 of the 6 packages of GAME (found around the current folder); 1 could not be read (unreal-ls info names why)
        "#]],
    );
    run(
        &dir.join("Maps"),
        &dir,
        &["find", "WALLS.GRANITE", "--limit", "1"],
        expect![[r#"
            exit 0
            --- stdout
            Rocks.Walls.Granite  Texture  GAME/Textures/Rocks.utx
            --- stderr
            1 asset found in 1 of the 6 packages of GAME (found around the current folder); 1 could not be read (unreal-ls info names why)
        "#]],
    );
    run(
        &parent,
        &dir,
        &["find", "crate", "--game-dir", &dir.display().to_string(), "--format", "json"],
        expect![[r#"
        exit 0
        --- stdout
        {
          "assets": [
            {
              "class": "StaticMesh",
              "export": 1,
              "file": "GAME/StaticMeshes/Crates.usx",
              "kind": "static mesh",
              "name": "Crates.Meshes.Crate",
              "package": "Crates"
            },
            {
              "class": "Texture",
              "export": 2,
              "file": "GAME/StaticMeshes/Crates.usx",
              "kind": "texture",
              "name": "Crates.Wood",
              "package": "Crates"
            },
            {
              "class": "FinalBlend",
              "export": 4,
              "file": "GAME/StaticMeshes/Crates.usx",
              "kind": "texture",
              "name": "Crates.WoodBlend",
              "package": "Crates"
            },
            {
              "class": "Shader",
              "export": 3,
              "file": "GAME/StaticMeshes/Crates.usx",
              "kind": "texture",
              "name": "Crates.WoodShader",
              "package": "Crates"
            }
          ],
          "game_dir": "GAME",
          "packages": 6,
          "query": "crate",
          "unreadable_packages": 1
        }
        --- stderr
    "#]],
    );
    run(
        &dir,
        &dir,
        &["find", "nothinglikeit"],
        expect![[r#"
            exit 1
            --- stdout
            --- stderr
            nothing found in the 6 packages of GAME (found around the current folder); 1 could not be read (unreal-ls info names why)
        "#]],
    );
    run(
        &dir,
        &dir,
        &["find", "  "],
        expect![[r#"
        exit 2
        --- stdout
        --- stderr
        error: an empty name finds nothing (usage: unreal-ls find NAME [--game-dir DIR])
    "#]],
    );
    let elsewhere = unreal_test_support::ScratchDir::new("cli-find-none");
    run(
        &elsewhere,
        &dir,
        &["find", "granite"],
        expect![[r#"
        exit 2
        --- stdout
        --- stderr
        error: no game folder: pass --game-dir DIR (the game's folder, the one that holds System/), set game-dir in unreal-ls.toml, or run inside the game's folder
    "#]],
    );
    run(
        &elsewhere,
        &dir,
        &["find", "granite", "--game-dir", "no/such/dir"],
        expect![[r#"
        exit 2
        --- stdout
        --- stderr
        error: --game-dir no/such/dir: not a folder
    "#]],
    );
}
