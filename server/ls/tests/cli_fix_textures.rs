//! `unreal-ls fix-textures` run as a process, on a game folder written here: a bare name one
//! package holds is written out with its package, a name two packages hold and one no package
//! holds are left and said (exit 1), `--map` replaces a lost texture everywhere, the file keeps
//! its CRLF line ends, `--dry-run` writes nothing, and a second run finds nothing to do.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::pedantic)]

use std::process::Command;

use expect_test::{expect, Expect};
use unreal_test_support::writers;

fn workspace() -> unreal_test_support::ScratchDir {
    let dir = unreal_test_support::ScratchDir::new("cli-fix-textures");
    for folder in ["Game/System", "Game/Textures", "Maps"] {
        std::fs::create_dir_all(dir.join(folder)).unwrap();
    }
    let write = |path: &str, bytes: Vec<u8>| std::fs::write(dir.join(path), bytes).unwrap();
    write("Game/System/Core.u", writers::object_package(&[("Class", "Object")]));
    write("Game/System/Engine.u", writers::object_package(&[("Class", "Actor")]));
    write(
        "Game/Textures/Rocks.utx",
        writers::object_package(&[("Texture", "Walls.Granite"), ("Texture", "Walls.Slate")]),
    );
    write("Game/Textures/Metal.utx", writers::object_package(&[("Texture", "Slate")]));
    let polygon =
        |texture: &str| format!("   Begin Polygon Texture={texture} Flags=0\r\n   End Polygon\r\n");
    let map = format!(
        "Begin PolyList\r\n{}{}{}{}End PolyList\r\n",
        polygon("Granite"),
        polygon("granite"),
        polygon("Slate"),
        polygon("Lost")
    );
    write("Maps/Room.t3d", map.into_bytes());
    dir
}

fn run(dir: &std::path::Path, args: &[&str], expected: Expect) {
    let output = Command::new(env!("CARGO_BIN_EXE_unreal-ls"))
        .arg("fix-textures")
        .args(args)
        .arg("--game-dir")
        .arg("Game")
        .current_dir(dir)
        .output()
        .unwrap();
    let shown = format!(
        "exit {}\n--- stderr\n{}",
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stderr)
    );
    expected.assert_eq(&shown);
}

#[test]
fn textures_are_qualified_replaced_or_said() {
    let dir = workspace();
    let before = std::fs::read(dir.join("Maps/Room.t3d")).unwrap();
    run(
        &dir,
        &["Maps/Room.t3d", "--dry-run"],
        expect![[r#"
            exit 1
            --- stderr
            Maps/Room.t3d: Granite -> Rocks.Walls.Granite (2 polygons: the one package that holds it)
            Maps/Room.t3d:6: left as it is: Slate (1 polygon): several packages hold it (Metal.Slate, Rocks.Walls.Slate): name the one with --map Slate=PACKAGE.NAME
            Maps/Room.t3d:8: left as it is: Lost (1 polygon): no package of the game folder or package paths holds it; name one with --map OLD=NEW
            Maps/Room.t3d: 2 texture references changed, 2 names left as they are
        "#]],
    );
    assert_eq!(std::fs::read(dir.join("Maps/Room.t3d")).unwrap(), before, "--dry-run wrote");
    run(
        &dir,
        &["Maps/Room.t3d", "--map", "Lost=Rocks.Walls.Nothing"],
        expect![[r#"
            exit 2
            --- stderr
            error: Maps/Room.t3d: `Rocks.Walls.Nothing` is a texture of no package of the game folder or package paths: write it as Package.Group.Name, as `unreal-ls find` lists it
        "#]],
    );
    run(
        &dir,
        &["Maps/Room.t3d", "--map", "Lost=Rocks.Walls.Granite", "--map", "slate=Metal.Slate"],
        expect![[r#"
            exit 0
            --- stderr
            Maps/Room.t3d: Granite -> Rocks.Walls.Granite (2 polygons: the one package that holds it)
            Maps/Room.t3d: Lost -> Rocks.Walls.Granite (1 polygon, as asked)
            Maps/Room.t3d: Slate -> Metal.Slate (1 polygon, as asked)
            Maps/Room.t3d: 4 texture references changed, 0 names left as they are
        "#]],
    );
    let after = std::fs::read_to_string(dir.join("Maps/Room.t3d")).unwrap();
    assert_eq!(
        after,
        "Begin PolyList\r\n   Begin Polygon Texture=Rocks.Walls.Granite Flags=0\r\n   End Polygon\r\n   \
         Begin Polygon Texture=Rocks.Walls.Granite Flags=0\r\n   End Polygon\r\n   \
         Begin Polygon Texture=Metal.Slate Flags=0\r\n   End Polygon\r\n   \
         Begin Polygon Texture=Rocks.Walls.Granite Flags=0\r\n   End Polygon\r\nEnd PolyList\r\n"
    );
    run(
        &dir,
        &["Maps/Room.t3d"],
        expect![[r#"
            exit 0
            --- stderr
            Maps/Room.t3d: 0 texture references changed, 0 names left as they are
        "#]],
    );
}

#[test]
fn without_a_game_folder_nothing_is_decided() {
    let dir = workspace();
    let output = Command::new(env!("CARGO_BIN_EXE_unreal-ls"))
        .args(["fix-textures", "Maps/Room.t3d"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("no game folder"), "{stderr}");
}
