//! `unreal-ls export` run as a process: files written, exit codes and messages, on fixtures
//! written here and on the corpus (skipped with a message when it is absent).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::pedantic)]

use std::path::{Path, PathBuf};
use std::process::Command;

use expect_test::{expect, Expect};

use unreal_test_support::writers;

/// A fresh folder for the test, removed when it ends.
fn fixture_dir(name: &str) -> unreal_test_support::ScratchDir {
    let dir = unreal_test_support::ScratchDir::new(&format!("cli-export-{name}"));
    dir
}

/// Runs the binary in `dir`; the snapshot is the exit code, stdout and stderr.
fn run(dir: &Path, args: &[&str], expected: Expect) {
    let out =
        Command::new(env!("CARGO_BIN_EXE_unreal-ls")).current_dir(dir).args(args).output().unwrap();
    let text = format!(
        "exit {}\n--- stdout\n{}--- stderr\n{}",
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    expected.assert_eq(&text);
}

/// The JSON chunk of a `.glb` file.
fn glb_json(path: &Path) -> serde_json::Value {
    let glb = std::fs::read(path).unwrap();
    assert_eq!(&glb[0..4], b"glTF");
    let len = u32::from_le_bytes(glb[12..16].try_into().unwrap()) as usize;
    serde_json::from_slice(&glb[20..20 + len]).unwrap()
}

fn png_size(path: &Path) -> (u32, u32) {
    let bytes = std::fs::read(path).unwrap();
    assert_eq!(&bytes[1..4], b"PNG");
    let be = |i: usize| u32::from_be_bytes(bytes[i..i + 4].try_into().unwrap());
    (be(16), be(20))
}

/// A one-triangle vertex mesh of 3 frames, its class with two sequences, and a 2x2 BMP.
fn write_mesh_fixture(dir: &Path) {
    let mut d = vec![0u8; 48];
    d[0..2].copy_from_slice(&1u16.to_le_bytes());
    d[2..4].copy_from_slice(&3u16.to_le_bytes());
    d.extend_from_slice(&[0, 0, 1, 0, 2, 0, 0, 0, 0, 0, 255, 0, 0, 255, 1, 0]);
    std::fs::create_dir_all(dir.join("Models")).unwrap();
    std::fs::create_dir_all(dir.join("Classes")).unwrap();
    std::fs::create_dir_all(dir.join("Textures")).unwrap();
    std::fs::write(dir.join("Models/Tri_d.3d"), d).unwrap();
    let mut a = Vec::new();
    a.extend_from_slice(&3u16.to_le_bytes());
    a.extend_from_slice(&12u16.to_le_bytes());
    for f in 0..3u32 {
        // X:11 Y:11 Z:10 in eighths/quarters: vertices at (f, 0, 0), (0, 8, 0), (0, 0, 4).
        for v in [f * 8, 64 << 11, 16 << 22] {
            a.extend_from_slice(&v.to_le_bytes());
        }
    }
    std::fs::write(dir.join("Models/Tri_a.3d"), a).unwrap();
    std::fs::write(
        dir.join("Classes/Tri.uc"),
        "class Tri extends Actor;\r\n\
#exec MESH IMPORT MESH=Tri ANIVFILE=MODELS\\Tri_a.3d DATAFILE=MODELS\\tri_d.3d X=0 Y=0 Z=0\r\n\
#exec MESH SEQUENCE MESH=Tri SEQ=Still STARTFRAME=0 NUMFRAMES=1\r\n\
#exec MESH SEQUENCE MESH=Tri SEQ=Wave STARTFRAME=1 NUMFRAMES=2 RATE=10\r\n\
#exec TEXTURE IMPORT NAME=TriSkin FILE=Textures\\Skin.bmp\r\n\
#exec MESHMAP SETTEXTURE MESHMAP=Tri NUM=1 TEXTURE=TriSkin\r\n",
    )
    .unwrap();
    // BMP: 2x2, 24-bit, bottom-up rows padded to 8 bytes.
    let mut bmp = Vec::new();
    bmp.extend_from_slice(b"BM");
    bmp.extend_from_slice(&(54u32 + 16).to_le_bytes());
    bmp.extend_from_slice(&[0; 4]);
    bmp.extend_from_slice(&54u32.to_le_bytes());
    for v in [40u32, 2, 2] {
        bmp.extend_from_slice(&v.to_le_bytes());
    }
    bmp.extend_from_slice(&1u16.to_le_bytes());
    bmp.extend_from_slice(&24u16.to_le_bytes());
    bmp.extend_from_slice(&[0; 24]);
    bmp.extend_from_slice(&[0, 0, 255, 0, 255, 0, 0, 0, 255, 0, 0, 255, 255, 255, 0, 0]);
    std::fs::write(dir.join("Textures/Skin.bmp"), bmp).unwrap();
}

#[test]
fn vertex_mesh_with_its_class() {
    let dir = fixture_dir("mesh");
    write_mesh_fixture(&dir);
    run(
        &dir,
        &["export", "Models/Tri_d.3d", "--uc", "Classes/Tri.uc", "-o", "out/tri.glb"],
        expect![[r#"
            exit 0
            --- stdout
            --- stderr
        "#]],
    );
    let json = glb_json(&dir.join("out/tri.glb"));
    let names: Vec<&str> = json["animations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Still", "Wave"]);
    assert_eq!(json["meshes"][0]["primitives"][0]["targets"].as_array().unwrap().len(), 3);
    assert_eq!(json["images"].as_array().unwrap().len(), 1);
    // Wave runs 2 frames at 10 per second: keys at 0 and 0.1 s.
    let wave_input = json["animations"][1]["samplers"][0]["input"].as_u64().unwrap() as usize;
    assert_eq!(json["accessors"][wave_input]["max"][0].as_f64().unwrap() as f32, 0.1);
    // Without `--uc`, the class found in the package folder above the mesh (the one the
    // editor's preview uses): the same file.
    run(
        &dir,
        &["export", "Models/Tri_d.3d", "-o", "out/found.glb"],
        expect![[r#"
            exit 0
            --- stdout
            --- stderr
            note: posed and textured as Classes/Tri.uc imports it (pass --uc to use another class)
        "#]],
    );
    assert_eq!(
        std::fs::read(dir.join("out/found.glb")).unwrap(),
        std::fs::read(dir.join("out/tri.glb")).unwrap()
    );
    run(
        &dir,
        &["export", "Models/Tri_a.3d", "--to", "obj", "-o", "tri.obj"],
        expect![[r#"
            exit 0
            --- stdout
            --- stderr
            note: posed and textured as Classes/Tri.uc imports it (pass --uc to use another class)
        "#]],
    );
    expect![[r#"
        # Tri exported by unreal-ls (Y up, right-handed)
        v 0 0 0
        v -8 0 0
        v 0 4 0
        vt 0 1
        vt 0.99609375 1
        vt 0 0.00390625
        g Skin1
        f 1/1 3/3 2/2
    "#]]
    .assert_eq(&std::fs::read_to_string(dir.join("tri.obj")).unwrap());
    // A pair named otherwise (Unreal's `titan_a.3d` and `titand.3d`): the files the class's
    // `MESH IMPORT` reads, with `--uc` and without.
    std::fs::copy(dir.join("Models/Tri_d.3d"), dir.join("Models/Oddd.3d")).unwrap();
    std::fs::copy(dir.join("Models/Tri_a.3d"), dir.join("Models/Odd_a.3d")).unwrap();
    std::fs::write(
        dir.join("Classes/Odd.uc"),
        "class Odd extends Actor;\r\n\
#exec MESH IMPORT MESH=Odd ANIVFILE=MODELS\\Odd_a.3d DATAFILE=MODELS\\oddd.3D\r\n\
#exec MESH SEQUENCE MESH=Odd SEQ=All STARTFRAME=0 NUMFRAMES=3\r\n",
    )
    .unwrap();
    for (given, uc) in
        [("Models/Oddd.3d", true), ("Models/Odd_a.3d", true), ("Models/Oddd.3d", false)]
    {
        let out = format!("out/odd-{}.glb", u8::from(uc));
        let mut args = vec!["export", given, "-o", &out, "--force"];
        if uc {
            args.extend(["--uc", "Classes/Odd.uc"]);
        }
        let output = Command::new(env!("CARGO_BIN_EXE_unreal-ls"))
            .current_dir(&dir)
            .args(&args)
            .output()
            .unwrap();
        assert!(output.status.success(), "{given}: {}", String::from_utf8_lossy(&output.stderr));
        let json = glb_json(&dir.join(&out));
        assert_eq!(json["meshes"][0]["name"], "Odd", "{given}");
        assert_eq!(json["meshes"][0]["primitives"][0]["targets"].as_array().unwrap().len(), 3);
    }
    run(
        &dir,
        &["export", "Textures/Skin.bmp", "-o", "skin.png"],
        expect![[r#"
            exit 0
            --- stdout
            --- stderr
        "#]],
    );
    assert_eq!(png_size(&dir.join("skin.png")), (2, 2));
}

#[test]
fn usage_and_read_errors() {
    let dir = fixture_dir("errors");
    write_mesh_fixture(&dir);
    std::fs::write(dir.join("junk.bin"), b"nothing to see").unwrap();
    run(
        &dir,
        &["export", "junk.bin", "-o", "x.png"],
        expect![[r#"
            exit 1
            --- stdout
            --- stderr
            error: junk.bin: not a package, vertex mesh, PSK, u3d, image or T3D file
        "#]],
    );
    run(
        &dir,
        &["export", "Models/Tri_d.3d", "--to", "png", "-o", "x.png"],
        expect![[r#"
            exit 2
            --- stdout
            --- stderr
            note: posed and textured as Classes/Tri.uc imports it (pass --uc to use another class)
            error: a mesh exports to glb or obj, not png
        "#]],
    );
    run(
        &dir,
        &["export", "missing.utx", "-o", "x.png"],
        expect![[r#"
            exit 1
            --- stdout
            --- stderr
            error: missing.utx: cannot read: No such file or directory (os error 2)
        "#]],
    );
}

fn corpus() -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus");
    if dir.is_dir() {
        Some(dir)
    } else {
        unreal_test_support::corpus::absent(&format!("corpus not found at {}", dir.display()));
        None
    }
}

/// Every texture of every corpus package exports to a PNG of the texture's size.
#[test]
fn corpus_packages_export_every_texture() {
    let Some(root) = corpus() else { return };
    let out = fixture_dir("corpus");
    let mut report = String::new();
    for package in [
        "packages/utx/blender_t3d_Checkers.utx",
        "packages/u/Ut99Mods_C4.u",
        "packages/u/Ut99Mods_KillConfirmed.u",
        "packages/unr/shrimpza_SCR-CityStreet.unr",
    ] {
        let target = out.join(Path::new(package).file_stem().unwrap());
        let status = Command::new(env!("CARGO_BIN_EXE_unreal-ls"))
            .args([
                "export",
                root.join(package).to_str().unwrap(),
                "--to",
                "png",
                "-o",
                target.to_str().unwrap(),
            ])
            .output()
            .unwrap();
        assert!(status.status.success(), "{package}: {}", String::from_utf8_lossy(&status.stderr));
        let bytes = std::fs::read(root.join(package)).unwrap();
        let parsed = unreal_formats::Package::parse(&bytes).unwrap();
        let mut count = 0;
        for o in parsed.objects().filter(|o| o.class == "Texture") {
            let texture = parsed.read_texture(o.export).unwrap();
            let png = target.join(format!("{}.png", o.path));
            assert_eq!(png_size(&png), (texture.width, texture.height), "{package} {}", o.path);
            count += 1;
        }
        report.push_str(&format!("{package}: {count} textures\n"));
    }
    expect![[r#"
        packages/utx/blender_t3d_Checkers.utx: 5 textures
        packages/u/Ut99Mods_C4.u: 27 textures
        packages/u/Ut99Mods_KillConfirmed.u: 6 textures
        packages/unr/shrimpza_SCR-CityStreet.unr: 1 textures
    "#]]
    .assert_eq(&report);
}

#[test]
fn corpus_skull_has_thirty_morph_targets() {
    let Some(root) = corpus() else { return };
    let dir = fixture_dir("skull");
    let skull = root.join("uc/Ut99Mods/HeadHunter/Models/Skull/Skull_d.3d");
    let uc = root.join("uc/Ut99Mods/HeadHunter/Classes/SkullItem.uc");
    run(
        &dir,
        &["export", skull.to_str().unwrap(), "--uc", uc.to_str().unwrap(), "-o", "skull.glb"],
        expect![[r#"
            exit 0
            --- stdout
            --- stderr
        "#]],
    );
    let json = glb_json(&dir.join("skull.glb"));
    assert_eq!(json["meshes"][0]["primitives"][0]["targets"].as_array().unwrap().len(), 30);
    assert_eq!(json["images"].as_array().unwrap().len(), 1, "Skull.bmp is embedded");
    run(
        &dir,
        &[
            "export",
            root.join("packages/u/Ut99Mods_C4.u").to_str().unwrap(),
            "--object",
            "C4Ammo.ScriptText",
            "-o",
            "C4Ammo.uc",
        ],
        expect![[r#"
            exit 0
            --- stdout
            --- stderr
        "#]],
    );
    assert!(std::fs::read_to_string(dir.join("C4Ammo.uc")).unwrap().contains("class C4Ammo"));
}

/// A skinned Ultimate 3D model from the test writer, with the texture its first material
/// names next to it (the 2x2 BMP of the vertex mesh fixture).
#[test]
fn u3d_to_glb_and_obj() {
    let dir = fixture_dir("u3d");
    write_mesh_fixture(&dir);
    // The material names `textures\Stone.bmp`: found whatever the case.
    std::fs::copy(dir.join("Textures/Skin.bmp"), dir.join("Textures/stone.BMP")).unwrap();
    let bytes = writers::u3d_with(&writers::U3dOptions {
        skin_weights: 3,
        undocumented_materials: true,
        ..writers::U3dOptions::new(4, 3)
    });
    std::fs::write(dir.join("model.u3d"), bytes).unwrap();
    run(
        &dir,
        &["export", "model.u3d", "-o", "out/model.glb"],
        expect![[r#"
            exit 0
            --- stdout
            --- stderr
        "#]],
    );
    let json = glb_json(&dir.join("out/model.glb"));
    assert_eq!(json["skins"][0]["joints"].as_array().unwrap().len(), 3);
    assert_eq!(json["animations"][0]["name"], "All");
    assert_eq!(json["images"].as_array().unwrap().len(), 1);
    assert_eq!(json["materials"][0]["name"], "Stone");
    run(
        &dir,
        &["export", "model.u3d", "--to", "obj", "-o", "model.obj"],
        expect![[r#"
            exit 0
            --- stdout
            --- stderr
        "#]],
    );
    let obj = std::fs::read_to_string(dir.join("model.obj")).unwrap();
    assert_eq!(obj.lines().filter(|l| l.starts_with("f ")).count(), 2);
    std::fs::write(dir.join("broken.u3d"), b"U3DModelFile\0\0\0").unwrap();
    run(
        &dir,
        &["export", "broken.u3d", "-o", "broken.glb"],
        expect![[r#"
            exit 1
            --- stdout
            --- stderr
            error: broken.u3d: u3d header at byte 13: expected FileVersion (4 bytes), but the file ends after 2 more
        "#]],
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A PSA whose bones the PSK lacks is not dropped without a word: the export names them.
#[test]
fn psa_bones_the_psk_lacks_are_named() {
    let Some(root) = corpus() else { return };
    let dir = fixture_dir("psa-bones");
    let psk = root.join("psk/psk_psa_py/Grunt_Preview_LOD0.psk");
    let psa = root.join("psa/psk_psa_py/grunt_hh_grabplayer_crouch_SEQ0.psa");
    let c4 = root.join("uc/Ut99Mods/C4/Models/C4.psk");
    run(
        &dir,
        &["export", psk.to_str().unwrap(), "--psa", psa.to_str().unwrap(), "-o", "grunt.glb"],
        expect![[r#"
            exit 0
            --- stdout
            --- stderr
            note: Grunt_Preview_LOD0.psk read in its own axes, as UE1's import reads a PSK; UT2004's negates Y (--engine ue2, or a UE2 game in the settings, reads it so)
            note: 17 of the PSA's 89 bones are not in the PSK (`IK_Hands_Chest`, `IK_Chest_LeftHand`, `IK_Chest_RightHand`, `IK_Hands`, `IK_LeftHand`, `IK_RightHand`, `IK_Feet`, `IK_LeftFoot` and 9 more): their keys were left out
        "#]],
    );
    run(
        &dir,
        &["export", c4.to_str().unwrap(), "--psa", psa.to_str().unwrap(), "-o", "c4.glb"],
        expect![[r#"
            exit 0
            --- stdout
            --- stderr
            note: C4.psk read in its own axes, as UE1's import reads a PSK; UT2004's negates Y (--engine ue2, or a UE2 game in the settings, reads it so)
            note: the PSA's 89 bones match none of the PSK's (`Root`, `Hips`, `LeftUpLeg`, `LeftLeg`, `LeftFoot`, `LeftToeBase`, `LeftToeEnd`, `Spine` and 81 more): no animation was exported
        "#]],
    );
    assert!(glb_json(&dir.join("c4.glb")).get("animations").is_none());
}

/// A UE2 `ScriptedTexture` is drawn by script at run time and holds no mips: a package
/// export skips it with a note and writes the rest (exit 0), `--object` names why, and `info`
/// lists it (UT2004's `Mov-UT2-intro.ut2` has one).
#[test]
fn ue2_scripted_textures_are_skipped_with_a_note() {
    use writers::{write_props, PackageWriter};
    let dir = fixture_dir("scripted-texture");
    let mut w = PackageWriter::new(128, 29);
    let text = w.import("Core", "Class", 0, "TextBuffer");
    let scripted = w.import("Core", "Class", 0, "ScriptedTexture");
    w.export(
        text,
        0,
        "Notes",
        0,
        Box::new(|o, w| {
            write_props(o, &[], w.none());
            o.u32(0).u32(0).fstring("// notes\r\n");
        }),
    );
    w.export(scripted, 0, "RealTimeScreen", 0, Box::new(|o, w| write_props(o, &[], w.none())));
    std::fs::write(dir.join("Intro.ut2"), w.finish()).unwrap();
    run(
        &dir,
        &["export", "Intro.ut2", "-o", "out"],
        expect![[r#"
            exit 0
            --- stdout
            1 objects written to out (1 without an image skipped)
            --- stderr
            note: Intro.ut2: RealTimeScreen is a ScriptedTexture, drawn by script at run time: it holds no image to export
        "#]],
    );
    assert!(dir.join("out/Notes.uc").is_file());
    run(
        &dir,
        &["export", "Intro.ut2", "--object", "RealTimeScreen", "-o", "screen.png"],
        expect![[r#"
            exit 1
            --- stdout
            --- stderr
            error: Intro.ut2: RealTimeScreen is a ScriptedTexture, drawn by script at run time: it holds no image to export
        "#]],
    );
    let out = Command::new(env!("CARGO_BIN_EXE_unreal-ls"))
        .current_dir(&dir)
        .args(["info", "Intro.ut2"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains("drawn by script at run time: no image"), "{stdout}");
}

/// `unreal-ls render`: the bundled example room as a picture, every view; a file with nothing
/// to draw is exit 1, an unknown view a usage error.
#[test]
fn render_draws_the_example_room() {
    let dir = fixture_dir("render");
    let room = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/clean/Room.t3d");
    let room = room.to_str().unwrap();
    run(
        &dir,
        &["render", room, "--size", "256", "-o", "room.png"],
        expect![[r#"
        exit 0
        --- stdout
        room.png: 256x174 pixels, 2 brushes, 1 actors, 3.9 units a pixel
        --- stderr
    "#]],
    );
    assert_eq!(png_size(&dir.join("room.png")), (256, 174));
    run(
        &dir,
        &["render", room, "--view", "iso", "--size", "300", "-o", "iso.png"],
        expect![[r#"
            exit 0
            --- stdout
            iso.png: 300x259 pixels, 2 brushes (13 surfaces built), 1 actors, 4.0 units a pixel
            --- stderr
        "#]],
    );
    // `--brushes`: the brushes' outlines, as before the iso view drew the level.
    run(
        &dir,
        &["render", room, "--view", "iso", "--brushes", "--size", "300", "-o", "iso-brushes.png"],
        expect![[r#"
            exit 0
            --- stdout
            iso-brushes.png: 300x259 pixels, 2 brushes, 1 actors, 4.0 units a pixel
            --- stderr
        "#]],
    );
    std::fs::write(dir.join("empty.t3d"), "Begin Map\r\nEnd Map\r\n").unwrap();
    run(
        &dir,
        &["render", "empty.t3d", "-o", "empty.png"],
        expect![[r#"
        exit 1
        --- stdout
        --- stderr
        error: empty.t3d: no brush or actor to draw (is it a T3D map?)
    "#]],
    );
    let out = Command::new(env!("CARGO_BIN_EXE_unreal-ls"))
        .current_dir(&dir)
        .args(["render", room, "--view", "upside", "-o", "x.png"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

/// A UT2004-style `.ukx`: a MeshAnimation and an object of `class` share the name
/// `AssaultRifle_1st` (as a SkeletalMesh does in `Weapons.ukx`), and another MeshAnimation,
/// all with empty bodies past their properties.
fn write_shared_name_ukx(dir: &Path, class: &str) {
    use writers::{write_props, PackageWriter};
    let mut w = PackageWriter::new(126, 29);
    let animation = w.engine_class("MeshAnimation");
    let mesh = w.engine_class(class);
    w.export(animation, 0, "AssaultRifle_1st", 0, Box::new(|o, w| write_props(o, &[], w.none())));
    w.export(mesh, 0, "AssaultRifle_1st", 0, Box::new(|o, w| write_props(o, &[], w.none())));
    w.export(animation, 0, "Sniper_1st", 0, Box::new(|o, w| write_props(o, &[], w.none())));
    std::fs::write(dir.join("Weapons.ukx"), w.finish()).unwrap();
}

/// Objects that share a path are named with their class (`Class'Path'`, any case, or
/// `--class`); a bare shared name is a usage error listing the candidates, unless exactly one
/// of them exports to what is asked for.
#[test]
fn objects_sharing_a_name_are_told_apart_by_class() {
    let dir = fixture_dir("shared-name");
    write_shared_name_ukx(&dir, "SkeletalMesh");
    run(
        &dir,
        &["export", "Weapons.ukx", "--object", "AssaultRifle_1st", "-o", "a.png"],
        expect![[r#"
            exit 2
            --- stdout
            --- stderr
            error: Weapons.ukx: AssaultRifle_1st names 2 objects: MeshAnimation'AssaultRifle_1st', SkeletalMesh'AssaultRifle_1st'; name one with its class, as Class'Path' (or pass --class)
        "#]],
    );
    // Of the two, only the mesh exports to glTF: the bare name is the mesh (whose empty body
    // then fails to read, naming it).
    run(
        &dir,
        &["export", "Weapons.ukx", "--object", "AssaultRifle_1st", "-o", "a.glb"],
        expect![[r#"
            exit 1
            --- stdout
            --- stderr
            error: Weapons.ukx: SkeletalMesh AssaultRifle_1st (export 1) at byte 218: expected BoundingBox (25 bytes), but the file ends after 0 more
        "#]],
    );
    run(
        &dir,
        &[
            "export",
            "Weapons.ukx",
            "--object",
            "meshanimation'Weapons.assaultrifle_1st'",
            "-o",
            "a.glb",
        ],
        expect![[r#"
            exit 1
            --- stdout
            --- stderr
            error: Weapons.ukx: MeshAnimation'AssaultRifle_1st' is a MeshAnimation, which has nothing to export on its own: its sequences move the bones of a SkeletalMesh (export that mesh for its geometry)
        "#]],
    );
    run(
        &dir,
        &[
            "export",
            "Weapons.ukx",
            "--object",
            "AssaultRifle_1st",
            "--class",
            "Sound",
            "-o",
            "a.glb",
        ],
        expect![[r#"
            exit 1
            --- stdout
            --- stderr
            error: Weapons.ukx: no object Sound'AssaultRifle_1st'; at that path: MeshAnimation'AssaultRifle_1st', SkeletalMesh'AssaultRifle_1st'
        "#]],
    );
    run(
        &dir,
        &[
            "export",
            "Weapons.ukx",
            "--object",
            "Texture'Sniper_1st'",
            "--class",
            "MeshAnimation",
            "-o",
            "a.png",
        ],
        expect![[r#"
            exit 2
            --- stdout
            --- stderr
            error: the object is named as a Texture (`Texture'Sniper_1st'`) and the class given is MeshAnimation
        "#]],
    );
}

/// A whole-package export that writes nothing says why and exits 1 (it printed "0 objects
/// written" and exited 0); `--to` that fits nothing says so too.
#[test]
fn whole_package_export_that_writes_nothing_fails() {
    let dir = fixture_dir("nothing-written");
    write_shared_name_ukx(&dir, "Sound");
    run(
        &dir,
        &["export", "Weapons.ukx", "-o", "out"],
        expect![[r#"
            exit 1
            --- stdout
            --- stderr
            error: Weapons.ukx: nothing to write: the package holds 2 MeshAnimation and 1 Sound objects; MeshAnimation and Sound have nothing to export (textures export to PNG, TextBuffers to .uc, meshes to glTF)
        "#]],
    );
    assert!(!dir.join("out").exists());
    run(
        &dir,
        &["export", "Weapons.ukx", "--to", "txt", "-o", "out"],
        expect![[r#"
            exit 1
            --- stdout
            --- stderr
            error: Weapons.ukx: nothing to write: the package holds 2 MeshAnimation and 1 Sound objects; none of them exports to txt (textures export to PNG, TextBuffers to .uc, meshes to glTF)
        "#]],
    );
}

/// A `.ukx` whose SkeletalMesh shares its name with a MeshAnimation (UT2004's layout, built
/// by the test-support writer as measured in `Weapons.ukx`): the bare name exports the mesh
/// (the one of the two that exports), skinned, textured by the package's own texture; the
/// whole package writes the mesh and the texture; `info` describes the mesh.
#[test]
fn ue2_skeletal_mesh_exports_to_gltf() {
    let dir = fixture_dir("ue2-skeletal");
    std::fs::write(
        dir.join("Weapons.ukx"),
        writers::ue2_skeletal_package(126, 29, "AssaultRifle_1st"),
    )
    .unwrap();
    run(
        &dir,
        &["export", "Weapons.ukx", "--object", "AssaultRifle_1st", "-o", "rifle.glb"],
        expect![[r#"
            exit 0
            --- stdout
            --- stderr
        "#]],
    );
    let json = glb_json(&dir.join("rifle.glb"));
    assert_eq!(json["skins"][0]["joints"].as_array().unwrap().len(), 2);
    assert_eq!(json["images"].as_array().unwrap().len(), 1);
    let primitive = &json["meshes"][0]["primitives"][0];
    assert!(primitive["attributes"]["JOINTS_0"].is_u64(), "{primitive}");
    let position = primitive["attributes"]["POSITION"].as_u64().unwrap() as usize;
    assert_eq!(json["accessors"][position]["count"], 4);
    run(
        &dir,
        &["export", "Weapons.ukx", "-o", "out"],
        expect![[r#"
            exit 0
            --- stdout
            2 objects written to out
            --- stderr
        "#]],
    );
    assert!(dir.join("out/AssaultRifle_1st.glb").is_file());
    assert_eq!(png_size(&dir.join("out/Skin.png")), (2, 2));
    run(
        &dir,
        &["export", "Weapons.ukx", "--object", "AssaultRifle_1st", "-o", "rifle.png"],
        expect![[r#"
            exit 2
            --- stdout
            --- stderr
            error: Weapons.ukx: AssaultRifle_1st names 2 objects: MeshAnimation'AssaultRifle_1st', SkeletalMesh'AssaultRifle_1st'; name one with its class, as Class'Path' (or pass --class)
        "#]],
    );
}

/// A PSK of 80,000 bones in one chain exports, each joint listing its one child (issue 30:
/// the children were found by scanning every bone for each bone, 19 to 33 s).
#[test]
fn a_long_chain_of_bones_exports() {
    let dir = fixture_dir("bone-chain");
    std::fs::write(dir.join("Chain.psk"), unreal_test_support::writers::psk_chain(80_000)).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_unreal-ls"))
        .current_dir(&dir)
        .args(["export", "Chain.psk", "-o", "Chain.glb"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let json = glb_json(&dir.join("Chain.glb"));
    let joints = json["skins"][0]["joints"].as_array().unwrap();
    assert_eq!(joints.len(), 80_000);
    let first = joints[0].as_u64().unwrap() as usize;
    let last = joints[79_999].as_u64().unwrap() as usize;
    assert_eq!(json["nodes"][first]["children"], serde_json::json!([first + 1]));
    assert!(json["nodes"][last].get("children").is_none());
    let _ = std::fs::remove_dir_all(&dir);
}

/// A u3d of 65,534 meshes (32,767 frames of two LODs) exports in proportion to its size: its
/// frames as morph targets, without the animation that would play each (issue 30: one of
/// 65,535 meshes took 103 s, a billion morph weights), which a note names.
#[test]
fn a_u3d_of_65534_meshes_exports_without_the_quadratic_animation() {
    let dir = fixture_dir("u3d-many");
    // Two LODs a frame: 65,534 meshes.
    let options = unreal_test_support::writers::U3dOptions::new(32_767, 0);
    std::fs::write(dir.join("Many.u3d"), unreal_test_support::writers::u3d_with(&options)).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_unreal-ls"))
        .current_dir(&dir)
        .args(["export", "Many.u3d", "-o", "Many.glb"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("animation `All` left out: 32767 keys of 32767 morph targets"),
        "{stderr}"
    );
    let json = glb_json(&dir.join("Many.glb"));
    assert_eq!(json["meshes"][0]["weights"].as_array().unwrap().len(), 32_767);
    assert!(json.get("animations").is_none_or(|a| a.as_array().is_some_and(Vec::is_empty)));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A `.usx` (built by the test-support writer as UT2004's `UStaticMesh::Serialize` lays it
/// out): `info` describes the static mesh, `--object` exports it to glTF and OBJ with its
/// UVs and the package's texture (reached directly and through a FinalBlend over a Shader),
/// the whole package writes the mesh and the texture, and a MeshAnimation says why it
/// exports nothing.
#[test]
fn ue2_static_mesh_exports_to_gltf_and_obj() {
    let dir = fixture_dir("ue2-static");
    std::fs::write(dir.join("Crates.usx"), writers::ue2_static_package(128, 29)).unwrap();
    run(
        &dir,
        &["info", "Crates.usx"],
        expect![[r#"
        exit 0
        --- stdout
        Crates.usx
        package version 128 (licensee 29), flags 0x00000001
        names 21, imports 6, exports 5
          path          class           size  detail
          Meshes        Package            0
          Meshes.Crate  StaticMesh       615  7 vertices, 3 triangles, 2 sections, 2 materials, 1 UV set
          Wood          Texture           48  RGBA8 2x2, 1 mip
          WoodShader    Shader             4
          WoodBlend     FinalBlend         4
        --- stderr
    "#]],
    );
    run(
        &dir,
        &["export", "Crates.usx", "--object", "Crates.Meshes.Crate", "-o", "crate.glb"],
        expect![[r#"
            exit 0
            --- stdout
            --- stderr
        "#]],
    );
    let json = glb_json(&dir.join("crate.glb"));
    let primitives = json["meshes"][0]["primitives"].as_array().unwrap();
    assert_eq!(primitives.len(), 2);
    assert!(primitives.iter().all(|p| p["attributes"]["TEXCOORD_0"].is_u64()), "{json}");
    assert_eq!(json["images"].as_array().unwrap().len(), 2);
    run(
        &dir,
        &["export", "Crates.usx", "--object", "Crate", "-o", "crate.obj"],
        expect![[r#"
        exit 0
        --- stdout
        --- stderr
    "#]],
    );
    let obj = std::fs::read_to_string(dir.join("crate.obj")).unwrap();
    assert_eq!(obj.lines().filter(|l| l.starts_with("f ")).count(), 3);
    assert_eq!(obj.lines().filter(|l| l.starts_with("vt ")).count(), 7);
    run(
        &dir,
        &["export", "Crates.usx", "-o", "out"],
        expect![[r#"
        exit 0
        --- stdout
        2 objects written to out
        --- stderr
    "#]],
    );
    assert!(dir.join("out/Meshes.Crate.glb").is_file());
    assert_eq!(png_size(&dir.join("out/Wood.png")), (2, 2));
    std::fs::write(
        dir.join("Weapons.ukx"),
        writers::ue2_skeletal_package(126, 29, "AssaultRifle_1st"),
    )
    .unwrap();
    run(
        &dir,
        &[
            "export",
            "Weapons.ukx",
            "--object",
            "AssaultRifle_1st",
            "--class",
            "MeshAnimation",
            "-o",
            "anim.glb",
        ],
        expect![[r#"
            exit 1
            --- stdout
            --- stderr
            error: Weapons.ukx: MeshAnimation'AssaultRifle_1st' is a MeshAnimation (2 bones, 2 sequences), which has nothing to export on its own: its sequences move the bones of a SkeletalMesh (export that mesh for its geometry)
        "#]],
    );
}

/// A map whose only mesh cannot be read (its data cut short): the whole-package export names
/// the mesh and the offset and exits 1.
#[test]
fn whole_map_export_names_an_unreadable_static_mesh() {
    use writers::{write_props, PackageWriter};
    let dir = fixture_dir("ue2-static-bad");
    let mut w = PackageWriter::new(128, 29);
    let mesh = w.engine_class("StaticMesh");
    w.export(
        mesh,
        0,
        "Rock",
        0,
        Box::new(|o, w| {
            write_props(o, &[], w.none());
            writers::ue2_static_mesh(o, 29, &[]);
            o.buf.truncate(o.buf.len() - 9);
        }),
    );
    std::fs::write(dir.join("DM-Broken.ut2"), w.finish()).unwrap();
    run(
        &dir,
        &["export", "DM-Broken.ut2", "-o", "out"],
        expect![[r#"
        exit 1
        --- stdout
        --- stderr
        error: DM-Broken.ut2: Rock: StaticMesh Rock (export 0) at byte 750: expected MaxSmoothingAngles count of 1 items of at least 4 bytes to fit in the 0 bytes left
        error: DM-Broken.ut2: 1 of 1 objects could not be exported
    "#]],
    );
}

/// Compressed packages and mod installers, read where a package is read: `info` of a `.uz`
/// (UE1, both signatures) and a `.uz2`, of a `.umod` (its directory) and of a package inside
/// it (`Mod.umod:System/Crates.usx`), `export` from a `.uz2` and from a member of the
/// archive. Errors name the archive and what it holds.
#[test]
fn compressed_packages_and_umod_members_read_like_packages() {
    use unreal_test_support::containers;
    let dir = fixture_dir("containers");
    let package = writers::ue2_static_package(128, 29);
    std::fs::write(dir.join("Crates.usx.uz2"), containers::uz2(&package)).unwrap();
    std::fs::write(
        dir.join("Crates.usx.uz"),
        containers::uz1("Crates.usx", &package, true, 0x40000),
    )
    .unwrap();
    let readme = b"Crates for everyone\r\n".to_vec();
    let archive = containers::umod(&[
        ("Help\\Crates.txt", &readme, 0),
        ("StaticMeshes\\Crates.usx", &package, 0),
    ]);
    std::fs::write(dir.join("Crates.umod"), archive).unwrap();
    run(
        &dir,
        &["info", "Crates.usx.uz", "Crates.umod", "Crates.umod:staticmeshes/crates.USX"],
        expect![[r#"
            exit 0
            --- stdout
            Crates.usx.uz
            compressed: UE1 .uz (signature 5678: RLE, BWT, MTF, RLE, Huffman), holds Crates.usx, 547 bytes -> 1120 bytes
            package version 128 (licensee 29), flags 0x00000001
            names 21, imports 6, exports 5
              path          class           size  detail
              Meshes        Package            0
              Meshes.Crate  StaticMesh       615  7 vertices, 3 triangles, 2 sections, 2 materials, 1 UV set
              Wood          Texture           48  RGBA8 2x2, 1 mip
              WoodShader    Shader             4
              WoodBlend     FinalBlend         4

            Crates.umod
            umod installer version 1, 2 files, CRC 0x4fc329fd (matches)
              file                           size  flags  format
              Help\Crates.txt                  21    0x0
              StaticMeshes\Crates.usx        1120    0x0  package

            Crates.umod:staticmeshes/crates.USX
            package version 128 (licensee 29), flags 0x00000001
            names 21, imports 6, exports 5
              path          class           size  detail
              Meshes        Package            0
              Meshes.Crate  StaticMesh       615  7 vertices, 3 triangles, 2 sections, 2 materials, 1 UV set
              Wood          Texture           48  RGBA8 2x2, 1 mip
              WoodShader    Shader             4
              WoodBlend     FinalBlend         4
            --- stderr
        "#]],
    );
    run(
        &dir,
        &["info", "--json", "Crates.usx.uz2"],
        expect![[r#"
        exit 0
        --- stdout
        [
          {
            "compressed_size": 448,
            "contents": {
              "exports": 5,
              "flags": 1,
              "imports": 6,
              "kind": "package",
              "licensee": 29,
              "names": 21,
              "objects": [
                {
                  "class": "Package",
                  "export": 0,
                  "name": "Meshes",
                  "path": "Meshes",
                  "size": 0
                },
                {
                  "class": "StaticMesh",
                  "detail": "7 vertices, 3 triangles, 2 sections, 2 materials, 1 UV set",
                  "export": 1,
                  "name": "Crate",
                  "path": "Meshes.Crate",
                  "size": 615
                },
                {
                  "class": "Texture",
                  "detail": "RGBA8 2x2, 1 mip",
                  "export": 2,
                  "name": "Wood",
                  "path": "Wood",
                  "size": 48
                },
                {
                  "class": "Shader",
                  "export": 3,
                  "name": "WoodShader",
                  "path": "WoodShader",
                  "size": 4
                },
                {
                  "class": "FinalBlend",
                  "export": 4,
                  "name": "WoodBlend",
                  "path": "WoodBlend",
                  "size": 4
                }
              ],
              "problems": [],
              "version": 128
            },
            "file": "Crates.usx.uz2",
            "format": "ue2",
            "kind": "compressed",
            "size": 1120
          }
        ]
        --- stderr
    "#]],
    );
    run(
        &dir,
        &["export", "Crates.usx.uz2", "--object", "Crates.Meshes.Crate", "-o", "crate.obj"],
        expect![[r#"
            exit 0
            --- stdout
            --- stderr
        "#]],
    );
    let obj = std::fs::read_to_string(dir.join("crate.obj")).unwrap();
    assert_eq!(obj.lines().filter(|l| l.starts_with("f ")).count(), 3);
    run(
        &dir,
        &[
            "export",
            "Crates.umod:StaticMeshes\\Crates.usx",
            "--object",
            "Crate",
            "-o",
            "member.obj",
        ],
        expect![[r#"
            exit 0
            --- stdout
            --- stderr
        "#]],
    );
    assert_eq!(std::fs::read(dir.join("member.obj")).unwrap(), obj.as_bytes());
    run(
        &dir,
        &["export", "Crates.umod", "-o", "out"],
        expect![[r#"
        exit 1
        --- stdout
        --- stderr
        error: Crates.umod: a .umod installer holds files, not objects: export one of them, named Crates.umod:FOLDER/FILE (unreal-ls info Crates.umod lists them)
    "#]],
    );
    run(
        &dir,
        &["info", "Crates.umod:System/Missing.u", "Missing.umod:System/X.u"],
        expect![[r#"
        exit 1
        --- stdout
        --- stderr
        error: Crates.umod:System/Missing.u: Crates.umod: umod directory at byte 1141: expected a file named "System/Missing.u"; the archive holds 2 files: Help\Crates.txt, StaticMeshes\Crates.usx
        error: Missing.umod:System/X.u: cannot read the archive Missing.umod: No such file or directory (os error 2)
    "#]],
    );
}

/// A T3D map exports as the level UnrealEd builds from its brushes: one mesh per texture under
/// "Level", the other actors under "Actors"; a texture no package holds is a flat colour and a
/// note. `--brushes` writes the raw brushes, byte for byte what the brush export writes.
#[test]
fn a_map_exports_its_built_level_and_brushes_on_request() {
    let dir = fixture_dir("level");
    let room = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/clean/Room.t3d");
    std::fs::copy(&room, dir.join("Room.t3d")).unwrap();
    run(
        &dir,
        &["export", "Room.t3d", "-o", "room.glb"],
        expect![[r#"
            exit 0
            --- stdout
            --- stderr
            note: GenFloor.Floor.Flr06: no game folder or package path is set to read textures from; its surfaces are drawn in a flat colour, mapped as a 256x256 texture
            note: Ancient.Wall.Awall3: no game folder or package path is set to read textures from; its surfaces are drawn in a flat colour, mapped as a 256x256 texture
            note: the level built from 2 brushes: 13 surfaces (0 invisible or portal left out), 2 materials (0 textured), 2 actors
        "#]],
    );
    let json = glb_json(&dir.join("room.glb"));
    let names = |key: &str| -> Vec<String> {
        json[key]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| n["name"].as_str().unwrap().to_owned())
            .collect()
    };
    assert_eq!(
        names("nodes"),
        [
            "Level",
            "GenFloor.Floor.Flr06",
            "Ancient.Wall.Awall3",
            "Actors",
            "LevelInfo0",
            "PlayerStart0"
        ]
    );
    assert_eq!(names("materials"), ["GenFloor.Floor.Flr06", "Ancient.Wall.Awall3"]);
    run(
        &dir,
        &["export", "Room.t3d", "--brushes", "-o", "brushes.glb"],
        expect![[r#"
            exit 0
            --- stdout
            --- stderr
        "#]],
    );
    let text = std::fs::read_to_string(&room).unwrap();
    let scene = unreal_assets::export::map_scene("Room", &text, None);
    assert_eq!(
        std::fs::read(dir.join("brushes.glb")).unwrap(),
        unreal_assets::export::write_map_glb(&scene)
    );
}

/// A fixture folder `name` holding the corpus's `blender_t3d` test map as `test_map.t3d`, and
/// the corpus's texture packages' folder; `None`, saying so, without the corpus.
fn corpus_map_in(name: &str) -> Option<(unreal_test_support::ScratchDir, PathBuf)> {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus");
    let map = corpus.join("t3d/ue1/blender_t3d_test_map.t3d");
    let utx = corpus.join("packages/utx");
    if !map.is_file() || !utx.is_dir() {
        unreal_test_support::corpus::absent(&format!("{} not present", map.display()));
        return None;
    }
    let dir = fixture_dir(name);
    std::fs::copy(&map, dir.join("test_map.t3d")).unwrap();
    Some((dir, std::fs::canonicalize(utx).unwrap()))
}

/// The corpus's `blender_t3d` test map beside its texture package (named in `unreal-ls.toml`):
/// five of its six textures embedded; the engine's `Bkgnd`, which no package there holds, is
/// named in a note.
#[test]
fn the_corpus_map_exports_textured() {
    let Some((dir, utx)) = corpus_map_in("level-corpus") else { return };
    std::fs::write(
        dir.join("unreal-ls.toml"),
        format!("package-paths = [{:?}]\n", utx.to_str().unwrap()),
    )
    .unwrap();
    run(
        &dir,
        &["export", "test_map.t3d", "-o", "map.glb"],
        expect![[r#"
            exit 0
            --- stdout
            --- stderr
            note: Bkgnd: no package of the game folder or package paths holds a texture of that name; its surfaces are drawn in a flat colour, mapped as a 256x256 texture
            note: the level built from 41 brushes: 316 surfaces (0 invisible or portal left out), 6 materials (5 textured), 10 actors
        "#]],
    );
    let json = glb_json(&dir.join("map.glb"));
    assert_eq!(json["images"].as_array().unwrap().len(), 5);
}

/// `--textures`: every texture the map uses, as PNG in a folder per package, the rest listed
/// (here `Bkgnd`, a texture of UnrealEd's own packages, which the corpus does not hold).
#[test]
fn the_corpus_maps_textures_export_as_png() {
    let Some((dir, utx)) = corpus_map_in("map-textures") else { return };
    run(
        &dir,
        &["export", "test_map.t3d", "--textures", "-o", "textures"],
        expect![[r#"
            exit 2
            --- stdout
            --- stderr
            error: --textures reads the map's textures from the game folder's packages: set --game-dir (or package paths in unreal-ls.toml)
        "#]],
    );
    run(
        &dir,
        &[
            "export",
            "test_map.t3d",
            "--textures",
            "--package-path",
            utx.to_str().unwrap(),
            "-o",
            "textures",
        ],
        expect![[r#"
            exit 1
            --- stdout
            --- stderr
            note: 5 textures written into textures (1 not found)
            not found: Bkgnd: not found (the engine's packages are not indexed)
            error: test_map.t3d: 1 of the map's textures could not be written
        "#]],
    );
    let mut written: Vec<String> = std::fs::read_dir(dir.join("textures/blender_t3d_Checkers"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    written.sort();
    assert_eq!(
        written,
        [
            "checkers_abcd.png",
            "checkers_base.png",
            "checkers_circle.png",
            "coordinates.png",
            "rectangle_128x64.png"
        ]
    );
    assert_eq!(png_size(&dir.join("textures/blender_t3d_Checkers/checkers_base.png")), (256, 256));
    assert_eq!(
        std::fs::read_to_string(dir.join("textures/not-found.txt")).unwrap(),
        "Bkgnd: not found (the engine's packages are not indexed)\n"
    );
}

/// A built map with `--to glb` writes the level it stores (its BSP): a mesh per material under
/// "Level", its actors under "Actors"; without `--to glb` it still exports its objects.
#[test]
fn corpus_built_map_exports_its_stored_level() {
    let Some(root) = corpus() else { return };
    let dir = fixture_dir("stored-level");
    let map = root.join("packages/unr/blender_t3d_test_map.unr");
    let map = map.to_str().unwrap();
    run(
        &dir,
        &["export", map, "--to", "glb", "-o", "level.glb"],
        expect![[r#"
            exit 0
            --- stdout
            --- stderr
            note: Checkers.checkers_base: its package Checkers is not in the game folder or package paths, or holds no image of it; its surfaces are drawn in a flat colour, mapped as a 256x256 texture
            note: Checkers.rectangle_128x64: its package Checkers is not in the game folder or package paths, or holds no image of it; its surfaces are drawn in a flat colour, mapped as a 256x256 texture
            note: Checkers.checkers_abcd: its package Checkers is not in the game folder or package paths, or holds no image of it; its surfaces are drawn in a flat colour, mapped as a 256x256 texture
            note: Checkers.coordinates: its package Checkers is not in the game folder or package paths, or holds no image of it; its surfaces are drawn in a flat colour, mapped as a 256x256 texture
            note: Checkers.checkers_circle: its package Checkers is not in the game folder or package paths, or holds no image of it; its surfaces are drawn in a flat colour, mapped as a 256x256 texture
            note: Editor.Bkgnd: its package Editor is not in the game folder or package paths, or holds no image of it; its surfaces are drawn in a flat colour, mapped as a 256x256 texture
            note: the level the map stores: 276 surfaces (0 invisible or portal left out), 655 triangles, 6 materials (0 textured), 16 actors
        "#]],
    );
    let json = glb_json(&dir.join("level.glb"));
    let names: Vec<&str> =
        json["nodes"].as_array().unwrap().iter().filter_map(|n| n["name"].as_str()).collect();
    assert!(names.contains(&"Level") && names.contains(&"Actors"), "{names:?}");
    assert_eq!(json["meshes"].as_array().unwrap().len(), 6);
    // A folder as the output still takes the map's own objects (this one has none for glb).
    let out = Command::new(env!("CARGO_BIN_EXE_unreal-ls"))
        .current_dir(&dir)
        .args(["export", map, "--to", "glb", "-o", "objects/"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("none of them exports to glb"), "{stderr}");
}

/// `unreal-ls render` of a built map draws the level it stores (its BSP surfaces, the actors
/// by kind); a package without a level is exit 1, said.
#[test]
fn corpus_built_map_renders_its_stored_level() {
    let Some(root) = corpus() else { return };
    let dir = fixture_dir("render-stored");
    let map = root.join("packages/unr/blender_t3d_test_map.unr");
    let render = |file: &Path, output: &str| {
        let out = Command::new(env!("CARGO_BIN_EXE_unreal-ls"))
            .current_dir(&dir)
            .args([
                "render",
                file.to_str().unwrap(),
                "--view",
                "iso",
                "--size",
                "400",
                "-o",
                output,
            ])
            .output()
            .unwrap();
        let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
        (out.status.code(), text(&out.stdout), text(&out.stderr))
    };
    let (code, stdout, stderr) = render(&map, "iso.png");
    assert_eq!(code, Some(0), "{stderr}");
    expect![[r#"
        iso.png: 400x324 pixels, 276 surfaces, 9 actors, 16.0 units a pixel
    "#]]
    .assert_eq(&stdout);
    // Its textures are in a package the corpus names differently: each one is said.
    assert_eq!(stderr.matches("drawn in a flat colour").count(), 6, "{stderr}");
    // The picture is the level: much of it is not the white background.
    let image = unreal_formats::decode::image::decode_image(
        &std::fs::read(dir.join("iso.png")).unwrap(),
        "png",
    )
    .unwrap();
    assert_eq!((image.width, image.height), (400, 324));
    let pixels = image.pixels.len() / 4;
    let drawn = image.pixels.chunks_exact(4).filter(|p| p[..3] != [255, 255, 255]).count();
    assert!(drawn * 4 > pixels, "{drawn} of {pixels} pixels drawn");

    let texture = root.join("packages/utx/blender_t3d_Checkers.utx");
    let (code, stdout, stderr) = render(&texture, "checkers.png");
    assert_eq!((code, stdout.as_str()), (Some(1), ""));
    assert!(
        stderr.ends_with(
            "blender_t3d_Checkers.utx: a package without a level: render draws maps (T3D, or a built .unr/.ut2)\n"
        ),
        "{stderr}"
    );
    assert!(!dir.join("checkers.png").exists());
}

/// A UE2 map's static meshes (issue 45): placed from the packages of `--package-path`, one
/// glTF mesh per mesh and one node per actor under "StaticMeshes"; a mesh of a package not
/// there is a box, with a note; `--leave-out` drops a part (and `render` draws the rest).
#[test]
fn a_maps_static_meshes_export_and_leave_out_on_request() {
    let dir = fixture_dir("static-meshes");
    std::fs::create_dir_all(dir.join("Packages")).unwrap();
    std::fs::write(
        dir.join("Packages/Props.usx"),
        unreal_test_support::writers::ue2_static_package(128, 29),
    )
    .unwrap();
    let actor = |k: usize, mesh: &str, x: i32| {
        format!(
            "Begin Actor Class=StaticMeshActor Name=StaticMeshActor{k}\r\n    StaticMesh=StaticMesh'{mesh}'\r\n    Location=(X={x}.000000,Y=0.000000,Z=0.000000)\r\n    Rotation=(Yaw=8192)\r\nEnd Actor\r\n"
        )
    };
    // The example room's brushes and actors, and the three static mesh actors.
    let room = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/clean/Room.t3d"),
    )
    .unwrap();
    let end = room.rfind("End Map").unwrap();
    let map = format!(
        "{}{}{}{}{}",
        &room[..end],
        actor(0, "Props.Meshes.Crate", 0),
        actor(1, "Props.Meshes.Crate", 256),
        actor(2, "Rocks.Big.Boulder", 512),
        &room[end..]
    );
    std::fs::write(dir.join("Crates.t3d"), map).unwrap();
    run(
        &dir,
        &["export", "Crates.t3d", "-o", "crates.glb", "--package-path", "Packages"],
        expect![[r#"
            exit 0
            --- stdout
            --- stderr
            note: GenFloor.Floor.Flr06: its package GenFloor is not in the game folder or package paths; its surfaces are drawn in a flat colour, mapped as a 256x256 texture
            note: Ancient.Wall.Awall3: its package Ancient is not in the game folder or package paths; its surfaces are drawn in a flat colour, mapped as a 256x256 texture
            note: the static mesh package Rocks is not in the game folder or package paths: 1 mesh not read, drawn as boxes of their actors' collision size (1 actor)
            note: the level built from 2 brushes: 13 surfaces (0 invisible or portal left out), 2 materials (0 textured), 3 meshes placed (2 with 1 mesh read, 1 as boxes), 2 actors
        "#]],
    );
    let json = glb_json(&dir.join("crates.glb"));
    let nodes = json["nodes"].as_array().unwrap();
    let group = nodes.iter().find(|n| n["name"] == "StaticMeshes").unwrap();
    let placed: Vec<(String, u64)> = group["children"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let node = &nodes[c.as_u64().unwrap() as usize];
            (node["name"].as_str().unwrap().to_owned(), node["mesh"].as_u64().unwrap())
        })
        .collect();
    // The two crates share one mesh; the boulder is the box.
    assert_eq!(placed[0].1, placed[1].1);
    assert_ne!(placed[0].1, placed[2].1);
    assert_eq!(placed.len(), 3);
    run(
        &dir,
        &[
            "export",
            "Crates.t3d",
            "-o",
            "bare.glb",
            "--package-path",
            "Packages",
            "--leave-out",
            "static-meshes,actors",
        ],
        expect![[r#"
            exit 0
            --- stdout
            --- stderr
            note: GenFloor.Floor.Flr06: its package GenFloor is not in the game folder or package paths; its surfaces are drawn in a flat colour, mapped as a 256x256 texture
            note: Ancient.Wall.Awall3: its package Ancient is not in the game folder or package paths; its surfaces are drawn in a flat colour, mapped as a 256x256 texture
            note: the level built from 2 brushes: 13 surfaces (0 invisible or portal left out), 2 materials (0 textured), 0 actors
        "#]],
    );
    let bare = glb_json(&dir.join("bare.glb"));
    assert!(bare["nodes"].as_array().unwrap().iter().all(|n| n["name"] != "StaticMeshes"));
    run(
        &dir,
        &[
            "render",
            "Crates.t3d",
            "--view",
            "iso",
            "-o",
            "crates.png",
            "--package-path",
            "Packages",
        ],
        expect![[r#"
            exit 0
            --- stdout
            crates.png: 1024x883 pixels, 2 brushes (13 surfaces built), 1 actors, 1.2 units a pixel
            --- stderr
        "#]],
    );
    run(
        &dir,
        &["export", "Crates.t3d", "-o", "x.glb", "--leave-out", "everything"],
        expect![[r#"
            exit 2
            --- stdout
            --- stderr
            error: invalid value 'everything' for '--leave-out <LEAVE_OUT>'
              [possible values: static-meshes, actors, terrain, movers]

            For more information, try '--help'.
        "#]],
    );
}

/// A PSK exported for UE2 (`--engine ue2`) is read as UT2004's import reads it, its Y
/// negated, without the note that an engine not known leaves: its bounds are the mirror of
/// the bounds read as written (glTF's first axis is Unreal's Y negated).
#[test]
fn a_psk_for_ue2_is_read_in_ue2s_axes() {
    let Some(root) = corpus() else { return };
    let dir = fixture_dir("psk-ue2-axes");
    let c4 = root.join("uc/Ut99Mods/C4/Models/C4.psk");
    run(
        &dir,
        &["export", c4.to_str().unwrap(), "--engine", "ue2", "-o", "ue2.glb"],
        expect![[r"
            exit 0
            --- stdout
            --- stderr
        "]],
    );
    run(
        &dir,
        &["export", c4.to_str().unwrap(), "--engine", "ue1", "-o", "ue1.glb"],
        expect![[r"
            exit 0
            --- stdout
            --- stderr
        "]],
    );
    let bounds = |name: &str| {
        let json = glb_json(&dir.join(name));
        let position = json["meshes"][0]["primitives"][0]["attributes"]["POSITION"].as_u64();
        let accessor = &json["accessors"][position.unwrap() as usize];
        let axis = |key: &str| accessor[key][0].as_f64().unwrap();
        (axis("min"), axis("max"))
    };
    let (ue1, ue2) = (bounds("ue1.glb"), bounds("ue2.glb"));
    assert!((ue2.0 + ue1.1).abs() < 1e-4 && (ue2.1 + ue1.0).abs() < 1e-4, "{ue1:?} {ue2:?}");
}

/// A map of actors and no brush (a clipboard copy, a terrain or static meshes alone) exports
/// as a level of those actors; a level without geometry writes no buffer and no BIN chunk
/// (glTF allows neither empty), and its brushes alone are refused with the way out. A
/// picture of actors the overview has no symbol for says so.
#[test]
fn a_map_of_actors_without_brushes_exports_its_actors() {
    let dir = fixture_dir("actors-only");
    std::fs::write(
        dir.join("Lights.t3d"),
        "Begin Map\r\nBegin Actor Class=Light Name=Light0\r\n    Location=(X=64.000000,Y=0.000000,Z=32.000000)\r\nEnd Actor\r\nEnd Map\r\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("Spawners.t3d"),
        "Begin Map\r\nBegin Actor Class=OutfitSpawner Name=OutfitSpawner0\r\n    Location=(X=64.000000,Y=0.000000,Z=32.000000)\r\nEnd Actor\r\nEnd Map\r\n",
    )
    .unwrap();
    run(
        &dir,
        &["export", "Lights.t3d", "-o", "lights.glb"],
        expect![[r#"
            exit 0
            --- stdout
            --- stderr
            note: the level built from 0 brushes: 0 surfaces (0 invisible or portal left out), 0 materials (0 textured), 1 actors
        "#]],
    );
    let glb = std::fs::read(dir.join("lights.glb")).unwrap();
    let json_len = u32::from_le_bytes(glb[12..16].try_into().unwrap()) as usize;
    assert_eq!(glb.len(), 20 + json_len, "no BIN chunk");
    assert_eq!(u32::from_le_bytes(glb[8..12].try_into().unwrap()) as usize, glb.len());
    let json = glb_json(&dir.join("lights.glb"));
    assert!(json.get("buffers").is_none() && json.get("accessors").is_none(), "{json}");
    assert_eq!(json["nodes"][2]["name"], "Light0", "{json}");
    run(
        &dir,
        &["export", "Lights.t3d", "--to", "obj", "-o", "lights.obj"],
        expect![[r#"
            exit 1
            --- stdout
            --- stderr
            error: Lights.t3d: the map holds actors but no brush: its level, with the actors, exports to glb (without --brushes)
        "#]],
    );
    run(
        &dir,
        &["render", "Spawners.t3d", "-o", "spawners.png"],
        expect![[r#"
            exit 1
            --- stdout
            --- stderr
            error: Spawners.t3d: no brush to draw, and none of its 1 actors is of a kind the picture draws (player starts, lights, pickups, movers, path nodes, triggers)
        "#]],
    );
}

/// A mesh without triangles (a PSK of its header alone; a UE2 skeletal mesh whose geometry
/// only its LOD models hold) has nothing a glTF mesh could hold: refused, nothing written.
#[test]
fn a_mesh_without_triangles_is_refused() {
    let dir = fixture_dir("no-triangles");
    let mut header = b"ACTRHEAD".to_vec();
    header.resize(20, 0);
    header.extend_from_slice(&0x001e_83b9u32.to_le_bytes());
    header.extend_from_slice(&[0; 8]);
    std::fs::write(dir.join("Empty.psk"), header).unwrap();
    run(
        &dir,
        &["export", "Empty.psk", "-o", "empty.glb"],
        expect![[r#"
            exit 1
            --- stdout
            --- stderr
            note: Empty.psk read in its own axes, as UE1's import reads a PSK; UT2004's negates Y (--engine ue2, or a UE2 game in the settings, reads it so)
            error: Empty.psk: Empty has no triangles to export (0 points, 0 triangles read)
        "#]],
    );
    assert!(!dir.join("empty.glb").exists());
}
