//! `unreal-ls deps` run as a process: a map's packages grouped and placed (the game folder,
//! a package path outside it, the game folder's sources, missing), the names in each, what a
//! server sends along; exit 1 when something is missing, 0 when nothing is, 2 without a game
//! folder.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::pedantic)]

use std::process::Command;

use expect_test::expect;
use unreal_test_support::writers;

/// A workspace: `Game/` (an installation with a package being written in its sources),
/// `Extra/` (packages outside it, named by `package-paths`), and `Maps/` with the maps.
fn workspace() -> unreal_test_support::ScratchDir {
    let dir = unreal_test_support::ScratchDir::new("cli-deps");
    for folder in ["Game/System", "Game/Textures", "Game/MyMod/Classes", "Extra", "Maps"] {
        std::fs::create_dir_all(dir.join(folder)).unwrap();
    }
    let write = |path: &str, bytes: Vec<u8>| std::fs::write(dir.join(path), bytes).unwrap();
    write("Game/System/Core.u", writers::object_package(&[("Class", "Object")]));
    write(
        "Game/System/Engine.u",
        writers::object_package(&[("Class", "Actor"), ("Class", "LevelInfo"), ("Class", "Light")]),
    );
    // UnrealEd's own package, where bare texture names may also live (`Bkgnd`): with it, a bare
    // name the index lacks is certainly missing.
    write("Game/System/Editor.u", writers::object_package(&[("Texture", "Bkgnd")]));
    write("Game/Textures/Rocks.utx", writers::object_package(&[("Texture", "Walls.Granite")]));
    write("Game/MyMod/Classes/MyActor.uc", b"class MyActor extends Actor;\r\n".to_vec());
    write("Extra/Wind.uax", writers::object_package(&[("Sound", "Gusts.Howl")]));
    write("unreal-ls.toml", b"game-dir = \"Game\"\npackage-paths = [\"Extra\"]\n".to_vec());
    let polygon = |texture: &str| {
        format!(
            "   Begin Polygon Texture={texture}\r\n      Origin   +00000.000000,+00000.000000,+00000.000000\r\n   End Polygon\r\n"
        )
    };
    let map = format!(
        "Begin Map\r\nBegin Actor Class=LevelInfo Name=LevelInfo0\r\n   Song=Music'Tunes.Theme'\r\nEnd Actor\r\n\
         Begin Actor Class=Light Name=Light0\r\nEnd Actor\r\nBegin Actor Class=Light Name=Light1\r\nEnd Actor\r\n\
         Begin Actor Class=MyActor Name=MyActor0\r\n   AmbientSound=Sound'Wind.Gusts.Howl'\r\nEnd Actor\r\n\
         Begin Actor Class=Brush Name=Brush0\r\nBegin Brush Name=Brush0\r\nBegin PolyList\r\n{}{}{}End PolyList\r\nEnd Brush\r\n   Brush=Model'MyLevel.Brush0'\r\nEnd Actor\r\nEnd Map\r\n",
        polygon("Granite"),
        polygon("Rocks.Walls.Granite"),
        polygon("Marble"),
    );
    write("Maps/Quarry.t3d", map.into_bytes());
    let clean = "Begin Map\r\nBegin Actor Class=Light Name=Light0\r\n   AmbientSound=Sound'Wind.Gusts.Howl'\r\nEnd Actor\r\nEnd Map\r\n";
    write("Maps/Clean.t3d", clean.as_bytes().to_vec());
    dir
}

fn deps(dir: &std::path::Path, args: &[&str]) -> (Option<i32>, String, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_unreal-ls"))
        .current_dir(dir)
        .arg("deps")
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    let text = |b: &[u8]| String::from_utf8_lossy(b).replace(&dir.display().to_string(), "$DIR");
    (output.status.code(), text(&output.stdout), text(&output.stderr))
}

#[test]
fn a_maps_packages_placed_and_what_is_missing() {
    let dir = workspace();
    let (code, out, err) = deps(dir.path(), &["Maps/Quarry.t3d"]);
    assert_eq!(code, Some(1), "{out}{err}");
    expect![[r#"
        Maps/Quarry.t3d: 5 packages
          Engine (game folder) $DIR/Game/System/Engine.u
            class LevelInfo = Engine.LevelInfo (line 2)
            class Light = Engine.Light (line 5, 2 uses)
          MyMod (sources, not compiled) $DIR/Game/MyMod
            class MyActor = MyMod.MyActor (line 9)
          Rocks (game folder) $DIR/Game/Textures/Rocks.utx
            texture Granite = Rocks.Walls.Granite (line 15)
            texture Rocks.Walls.Granite (line 18)
          Tunes (missing)
            MISSING object Music'Tunes.Theme' (line 3)
          Wind (outside the game folder) $DIR/Extra/Wind.uax
            object Sound'Wind.Gusts.Howl' (line 10)
          in no indexed package:
            MISSING class Brush (line 12)
            MISSING texture Marble (line 21)
          a server sends with the map: Wind
    "#]]
    .assert_eq(&out);

    let (code, out, _) = deps(dir.path(), &["--format", "json", "Maps/Clean.t3d"]);
    assert_eq!(code, Some(0), "{out}");
    let report: serde_json::Value = serde_json::from_str(&out).unwrap();
    let map = &report["maps"][0];
    assert_eq!(map["missing"], false);
    assert_eq!(map["send"], serde_json::json!(["Wind"]));
    assert_eq!(map["packages"][1]["found"][0]["found_as"], "Wind.Gusts.Howl");
}

/// Without a game folder the names a map uses are still listed, each marked not checked, with
/// a note of how to have them checked; the exit code says nothing is missing (nothing could
/// be judged), and the JSON says why nothing was checked.
#[test]
fn without_a_game_folder_it_lists_the_names_not_checked() {
    let dir = unreal_test_support::ScratchDir::new("cli-deps-no-game");
    std::fs::write(
        dir.join("A.t3d"),
        "Begin Map\r\nBegin Actor Class=Light Name=Light0\r\n    Skin=Texture'Rocks.Marble'\r\nEnd Actor\r\nBegin Actor Class=Brush Name=Brush0\r\n    Brush=Model'MyLevel.Brush0'\r\nEnd Actor\r\nEnd Map\r\n",
    )
    .unwrap();
    let (code, out, err) = deps(dir.path(), &["A.t3d"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains("no game folder: the names it uses are listed, not checked"), "{err}");
    expect![[r#"
        A.t3d: 0 packages
          not checked (3 names: no game folder to look them up in)
            class Light (line 2)
            object Texture'Rocks.Marble' (line 3)
            class Brush (line 5)
    "#]]
    .assert_eq(&out);
    let (code, out, _) = deps(dir.path(), &["--format", "json", "A.t3d"]);
    assert_eq!(code, Some(0));
    let report: serde_json::Value = serde_json::from_str(&out).unwrap();
    let map = &report["maps"][0];
    assert_eq!(map["unchecked_reason"], "no-game-folder");
    assert_eq!(map["unchecked"].as_array().map(Vec::len), Some(3));
    assert_eq!(map["missing"], false);
}
