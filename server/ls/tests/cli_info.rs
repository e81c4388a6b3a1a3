//! `unreal-ls info` run as a process: exit code, stdout and stderr, as snapshots.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::needless_raw_string_hashes,
    clippy::needless_pass_by_value
)]

use std::path::{Path, PathBuf};
use std::process::Command;

use expect_test::{expect, Expect};

/// A fresh directory holding small files written here from the format documents.
/// A fresh folder for the test, removed when it ends.
fn fixture_dir(name: &str) -> unreal_test_support::ScratchDir {
    let dir = unreal_test_support::ScratchDir::new(&format!("cli-info-{name}"));
    // A one-triangle vertex mesh: 48-byte header + one 16-byte triangle; 2 frames of 3 vertices.
    let mut d = vec![0u8; 48];
    d[0..2].copy_from_slice(&1u16.to_le_bytes());
    d[2..4].copy_from_slice(&3u16.to_le_bytes());
    d.extend_from_slice(&[0, 0, 1, 0, 2, 0, 1, 0, 0, 0, 255, 0, 0, 255, 2, 0]);
    std::fs::write(dir.join("Tri_d.3d"), d).unwrap();
    let mut a = Vec::new();
    a.extend_from_slice(&2u16.to_le_bytes());
    a.extend_from_slice(&12u16.to_le_bytes());
    a.extend(std::iter::repeat_n(0u8, 24));
    std::fs::write(dir.join("Tri_A.3D"), a).unwrap();
    // 0.5 s of 8-bit mono PCM at 8000 Hz.
    let mut w = Vec::new();
    w.extend_from_slice(b"RIFF");
    w.extend_from_slice(&(36u32 + 4000).to_le_bytes());
    w.extend_from_slice(b"WAVEfmt ");
    w.extend_from_slice(&16u32.to_le_bytes());
    for v in [1u16, 1] {
        w.extend_from_slice(&v.to_le_bytes());
    }
    w.extend_from_slice(&8000u32.to_le_bytes());
    w.extend_from_slice(&8000u32.to_le_bytes());
    w.extend_from_slice(&1u16.to_le_bytes());
    w.extend_from_slice(&8u16.to_le_bytes());
    w.extend_from_slice(b"data");
    w.extend_from_slice(&4000u32.to_le_bytes());
    w.extend(std::iter::repeat_n(128u8, 4000));
    std::fs::write(dir.join("beep.wav"), w).unwrap();
    // A PSK whose points chunk claims more data than the file holds.
    let mut p = Vec::new();
    for (id, size, count) in [("ACTRHEAD", 0i32, 0i32), ("PNTS0000", 12, 1000)] {
        let mut name = [0u8; 20];
        name[..id.len()].copy_from_slice(id.as_bytes());
        p.extend_from_slice(&name);
        p.extend_from_slice(&1_999_801i32.to_le_bytes());
        p.extend_from_slice(&size.to_le_bytes());
        p.extend_from_slice(&count.to_le_bytes());
    }
    std::fs::write(dir.join("broken.psk"), p).unwrap();
    dir
}

fn run(dir: &Path, args: &[&str], expected: Expect) {
    let out = Command::new(env!("CARGO_BIN_EXE_unreal-ls"))
        .arg("info")
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    let text = format!(
        "exit: {}\n--- stdout\n{}--- stderr\n{}",
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    expected.assert_eq(&text);
}

#[test]
fn info_text_reports_each_file_and_fails_on_the_broken_one() {
    let dir = fixture_dir("text");
    run(
        &dir,
        &["Tri_d.3d", "broken.psk", "beep.wav"],
        expect![[r#"
            exit: 1
            --- stdout
            Tri_d.3d
            vertex mesh: 1 triangles, 3 vertices, 2 frames, 4 bytes per vertex
            texture slots: 2

            beep.wav
            WAV sound: PCM (tag 1), 1 channel, 8000 Hz, 8 bits, 4000 bytes, 0.500 s
            --- stderr
            error: broken.psk: ActorX chunk header at byte 56: expected chunk "PNTS0000" data of 12 x 1000 bytes inside the file, 0 bytes left
        "#]],
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn info_json_has_one_entry_per_file() {
    let dir = fixture_dir("json");
    run(
        &dir,
        &["--json", "Tri_A.3D", "beep.wav", "broken.psk"],
        expect![[r#"
            exit: 1
            --- stdout
            [
              {
                "bytes_per_vertex": 4,
                "file": "Tri_A.3D",
                "frames": 2,
                "kind": "vertex-mesh",
                "texture_slots": [
                  2
                ],
                "triangles": 1,
                "unused_animation_bytes": 0,
                "unused_data_bytes": 0,
                "vertices": 3
              },
              {
                "bits_per_sample": 8,
                "channels": 1,
                "data_size": 4000,
                "duration": 0.5,
                "file": "beep.wav",
                "format": "PCM",
                "format_tag": 1,
                "kind": "wav",
                "sample_rate": 8000
              },
              {
                "error": "ActorX chunk header at byte 56: expected chunk \"PNTS0000\" data of 12 x 1000 bytes inside the file, 0 bytes left",
                "file": "broken.psk"
              }
            ]
            --- stderr
            error: broken.psk: ActorX chunk header at byte 56: expected chunk "PNTS0000" data of 12 x 1000 bytes inside the file, 0 bytes left
        "#]],
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn info_without_files_is_a_usage_error() {
    run(
        &std::env::temp_dir(),
        &[],
        expect![[r#"
        exit: 2
        --- stdout
        --- stderr
        error: no files given (usage: unreal-ls info [--json] FILE...)
    "#]],
    );
}

#[test]
fn info_on_the_corpus_texture_package() {
    let corpus =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/packages/utx");
    if !corpus.is_dir() {
        unreal_test_support::corpus::absent(&format!("corpus not found at {}", corpus.display()));
        return;
    }
    run(
        &corpus,
        &["blender_t3d_Checkers.utx"],
        expect![[r#"
        exit: 0
        --- stdout
        blender_t3d_Checkers.utx
        package version 69 (licensee 0), flags 0x00000001
        names 30, imports 3, exports 10
          path              class        size  detail
          Palette0          Palette      1027  256 colours
          Palette4          Palette      1027  256 colours
          Palette2          Palette      1027  256 colours
          Palette5          Palette      1027  256 colours
          Palette6          Palette      1027  256 colours
          checkers_abcd     Texture     87586  P8 256x256, 9 mips
          checkers_circle   Texture     87586  P8 256x256, 9 mips
          coordinates       Texture     87579  P8 256x256, 9 mips
          rectangle_128x64  Texture     11103  P8 128x64, 8 mips
          checkers_base     Texture    131393  P8 256x256, 9 mips, 7 DXT1 CompMips
        --- stderr
    "#]],
    );
}

/// `--csg` on a built map written by the project's writer (one subtracted room, a mover, and
/// the level model the engine would store), and on a package that is not a map.
#[test]
fn info_csg_builds_the_level_and_compares_with_the_stored_bsp() {
    use unreal_test_support::writers::{carved_room, ue1_map_package, MapBrush};
    let dir = unreal_test_support::ScratchDir::new("cli-info-csg");
    let room = carved_room([128.0, 128.0, 64.0], 0.0, "Wall");
    let brush = |class, csg_oper, half, texture| MapBrush {
        class,
        csg_oper,
        poly_flags: 0,
        location: [0.0; 3],
        half,
        texture,
    };
    let map = ue1_map_package(
        &[brush("Brush", 2, [128.0, 128.0, 64.0], "Wall"), brush("Mover", 1, [16.0; 3], "Door")],
        &room,
    );
    std::fs::write(dir.join("Room.unr"), map).unwrap();
    std::fs::write(
        dir.join("Crates.usx"),
        unreal_test_support::writers::ue2_static_package(128, 29),
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_unreal-ls"))
        .args(["info", "--csg", "Room.unr", "Crates.usx"])
        .current_dir(&dir)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let mut csg = String::new();
    for l in
        stdout.lines().skip_while(|l| !l.starts_with("level BSP")).take_while(|l| !l.is_empty())
    {
        // The time taken varies.
        csg.push_str(l.split(", in ").next().unwrap_or(l));
        csg.push('\n');
    }
    let text = format!(
        "exit: {}\n{csg}--- stderr\n{}",
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr)
    );
    expect![[r#"
        exit: 1
        level BSP: 6 nodes, 6 surfaces, 6 polygons, 262144 units²
        built from 1 brushes (1 left out): 6 polygons, 262144 units²
        against the stored BSP: 100.000% matched, 0.000% extra
        --- stderr
        error: Crates.usx: csg: package at byte 0: expected a Level object (a map)
    "#]]
    .assert_eq(&text);
}

/// `--csg --json` on a built map whose stored level lacks the floor under a semisolid block
/// (built while the block was solid): `stale_semisolid` names the block with the area it
/// holds (its 64 by 64 footprint), the figures with that area set aside, and the build with
/// it solid, which gives the stored level (the fields docs/cli.md lists).
#[test]
fn info_csg_json_names_a_semisolid_brush_the_stored_level_was_built_with_solid() {
    use unreal_test_support::writers::{
        box_faces, carved_room, ue1_map_package, LevelPoly, MapBrush,
    };
    let dir = unreal_test_support::ScratchDir::new("cli-info-csg-stale");
    let room_half = [256.0, 256.0, 64.0];
    let room = carved_room(room_half, 0.0, "Wall");
    // The room's floor (z = -64, facing up, the sixth face) around the block's footprint.
    let floor = room[5].vertices.clone();
    let rect = |x0: f32, x1: f32, y0: f32, y1: f32| LevelPoly {
        vertices: floor
            .iter()
            .map(|v| [if v[0] < 0.0 { x0 } else { x1 }, if v[1] < 0.0 { y0 } else { y1 }, v[2]])
            .collect(),
        texture: "Wall",
    };
    let mut level: Vec<LevelPoly> = room.into_iter().take(5).collect();
    level.extend([
        rect(-256.0, -32.0, -256.0, 256.0),
        rect(32.0, 256.0, -256.0, 256.0),
        rect(-32.0, 32.0, -256.0, -32.0),
        rect(-32.0, 32.0, 32.0, 256.0),
    ]);
    // The block's faces but its bottom, which lies on the floor.
    level.extend(box_faces([32.0, 32.0, 16.0]).into_iter().take(5).map(|f| LevelPoly {
        vertices: f.into_iter().map(|v| [v[0], v[1], v[2] - 48.0]).collect(),
        texture: "Crate",
    }));
    let brush = |csg_oper, poly_flags, location, half, texture| MapBrush {
        class: "Brush",
        csg_oper,
        poly_flags,
        location,
        half,
        texture,
    };
    let map = ue1_map_package(
        &[
            brush(2, 0, [0.0; 3], room_half, "Wall"),
            brush(1, 0x20, [0.0, 0.0, -48.0], [32.0, 32.0, 16.0], "Crate"),
        ],
        &level,
    );
    std::fs::write(dir.join("Stale.unr"), map).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_unreal-ls"))
        .args(["info", "--csg", "--json", "Stale.unr"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let csg = &json[0]["csg"];
    assert!(csg["extra_percent"].as_f64().unwrap() > 0.01, "{csg}");
    let stale = &csg["stale_semisolid"];
    let lacking = stale["lacking"].as_array().unwrap();
    assert_eq!(lacking.len(), 1, "{stale}");
    assert_eq!(lacking[0]["brush"], "Brush1");
    assert!((lacking[0]["area"].as_f64().unwrap() - 4096.0).abs() < 0.01, "{stale}");
    assert!((stale["lacking_area"].as_f64().unwrap() - 4096.0).abs() < 0.01, "{stale}");
    assert!(stale["extra_percent"].as_f64().unwrap() < 0.001, "{stale}");
    assert!(stale["extra_outside_detail_percent"].as_f64().unwrap() < 0.001, "{stale}");
    let solid = &stale["as_solid"];
    assert_eq!(solid["brushes"], serde_json::json!(["Brush1"]));
    assert!(solid["matched_percent"].as_f64().unwrap() > 99.999, "{solid}");
    assert!(solid["extra_percent"].as_f64().unwrap() < 0.001, "{solid}");
    for field in ["matched_outside_detail_percent", "extra_outside_detail_percent"] {
        assert!(solid[field].is_f64(), "{field}: {solid}");
    }
}

/// `--csg` reads a compressed map as `info` and `render` do (issue 43, item 7): the same
/// level from `Room.unr`, `Room.unr.uz2` and `Room.unr.uz` (both UE1 signatures), and a file
/// that is neither a package nor a compressed one is named as such.
#[test]
fn info_csg_reads_compressed_maps() {
    use unreal_test_support::containers;
    use unreal_test_support::writers::carved_room_map;
    let dir = unreal_test_support::ScratchDir::new("cli-info-csg-compressed");
    let map = carved_room_map(0.0, "Wall");
    std::fs::write(dir.join("Room.unr.uz2"), containers::uz2(&map)).unwrap();
    std::fs::write(dir.join("Room.unr.uz"), containers::uz1("Room.unr", &map, false, 0x40000))
        .unwrap();
    std::fs::write(dir.join("Room5678.unr.uz"), containers::uz1("Room.unr", &map, true, 0x40000))
        .unwrap();
    std::fs::write(dir.join("Room.unr"), map).unwrap();
    // A WAV sound of no samples: 8-bit mono PCM at 8000 Hz.
    let mut wav = b"RIFF".to_vec();
    wav.extend(36u32.to_le_bytes());
    wav.extend(b"WAVEfmt ");
    wav.extend(16u32.to_le_bytes());
    for v in [1u16, 1] {
        wav.extend(v.to_le_bytes());
    }
    wav.extend(8000u32.to_le_bytes());
    wav.extend(8000u32.to_le_bytes());
    wav.extend(1u16.to_le_bytes());
    wav.extend(8u16.to_le_bytes());
    wav.extend(b"data");
    wav.extend(0u32.to_le_bytes());
    std::fs::write(dir.join("notes.wav"), wav).unwrap();
    let files = ["Room.unr", "Room.unr.uz2", "Room.unr.uz", "Room5678.unr.uz", "notes.wav"];
    let out = Command::new(env!("CARGO_BIN_EXE_unreal-ls"))
        .args(["info", "--csg"])
        .args(files)
        .current_dir(&dir)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let mut csg = String::new();
    for l in stdout.lines() {
        if files.contains(&l) {
            csg.push_str(l);
            csg.push('\n');
        }
        if l.starts_with("built from") || l.starts_with("against") {
            // The time taken varies.
            csg.push_str(l.split(", in ").next().unwrap_or(l));
            csg.push('\n');
        }
    }
    let text = format!(
        "exit: {}\n{csg}--- stderr\n{}",
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr)
    );
    expect![[r#"
        exit: 1
        Room.unr
        built from 1 brushes (0 left out): 6 polygons, 262144 units²
        against the stored BSP: 100.000% matched, 0.000% extra
        Room.unr.uz2
        built from 1 brushes (0 left out): 6 polygons, 262144 units²
        against the stored BSP: 100.000% matched, 0.000% extra
        Room.unr.uz
        built from 1 brushes (0 left out): 6 polygons, 262144 units²
        against the stored BSP: 100.000% matched, 0.000% extra
        Room5678.unr.uz
        built from 1 brushes (0 left out): 6 polygons, 262144 units²
        against the stored BSP: 100.000% matched, 0.000% extra
        notes.wav
        --- stderr
        error: notes.wav: csg: a built map (a package holding a level), found another kind of file
    "#]]
    .assert_eq(&text);
}

/// A `.umod` cut by one byte, or whose size field is one too large, is refused as the engine
/// refuses an incomplete download, with the byte; never summarised as the package it begins
/// with, and neither are its members (issue 43, item 2).
#[test]
fn info_refuses_a_damaged_umod() {
    use unreal_test_support::{containers, writers};
    let dir = unreal_test_support::ScratchDir::new("cli-info-damaged-umod");
    let package = writers::object_package(&[("Texture", "Walls.Granite")]);
    let archive = containers::umod(&[("System\\MyMod.u", &package, 0)]);
    let len = archive.len();
    std::fs::write(dir.join("Cut.umod"), &archive[..len - 1]).unwrap();
    let mut sized = archive.clone();
    sized[len - 12..len - 8].copy_from_slice(&(len as u32 + 1).to_le_bytes());
    std::fs::write(dir.join("Sized.ut2mod"), sized).unwrap();
    std::fs::write(dir.join("Whole.umod"), &archive).unwrap();
    run(
        &dir,
        &["Cut.umod", "Sized.ut2mod", "Cut.umod:System/MyMod.u", "Whole.umod:System/MyMod.u"],
        expect![[r#"
            exit: 1
            --- stdout

            Whole.umod:System/MyMod.u
            package version 69 (licensee 0), flags 0x00000001
            names 8, imports 3, exports 2
              path           class        size  detail
              Walls          Package         0
              Walls.Granite  Texture         0  unreadable: Texture Walls.Granite (export 1) at byte 0: expected object data (the export has SerialSize 0)
            --- stderr
            error: Cut.umod: umod trailer at byte 230: expected the archive magic 0x9fe3c5a3 (the last 20 bytes of a .umod), found 0xe3c5a300; the magic is at byte 231: the file is 1 byte shorter than the archive (its trailer says the archive is 251 bytes), and the engine refuses it as an incomplete download
            error: Sized.ut2mod: umod trailer at byte 239: expected the archive's size 252 to be the file's (251 bytes): the engine refuses it as an incomplete download
            error: Cut.umod:System/MyMod.u: Cut.umod: umod trailer at byte 230: expected the archive magic 0x9fe3c5a3 (the last 20 bytes of a .umod), found 0xe3c5a300; the magic is at byte 231: the file is 1 byte shorter than the archive (its trailer says the archive is 251 bytes), and the engine refuses it as an incomplete download
            error: Whole.umod:System/MyMod.u: Texture Walls.Granite (export 1) at byte 0: expected object data (the export has SerialSize 0)
        "#]],
    );
}
