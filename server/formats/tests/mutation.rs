//! A bounded mutation pass that runs with the normal tests (stable Rust, fixed seed): real
//! corpus files and our synthetic files, truncated at many offsets and with bytes flipped,
//! through every reader. Any panic fails the test and names the input.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::pedantic)]

mod common;

use std::panic::{catch_unwind, AssertUnwindSafe};

use unreal_test_support::{containers, writers};

fn run(label: &str, bytes: &[u8], seed: u64, cuts: usize, flips: usize) -> usize {
    let cases = common::mutations(bytes, seed, cuts, flips);
    for (i, case) in cases.iter().enumerate() {
        let outcome = catch_unwind(AssertUnwindSafe(|| common::exercise_all_readers(case, label)));
        if let Err(panic) = outcome {
            let path = std::env::temp_dir()
                .join(format!("unreal-formats-panic-{}.bin", label.replace('/', "_")));
            let _ = std::fs::write(&path, case);
            eprintln!(
                "reader panicked on mutation {i} of {label} (seed {seed}); input saved to {}",
                path.display()
            );
            std::panic::resume_unwind(panic);
        }
    }
    cases.len()
}

/// Frame meshes that reuse the first frame's data and materials that are skipped.
fn u3d_every_branch() -> Vec<u8> {
    writers::u3d_with(&writers::U3dOptions {
        reuse_first_frame: true,
        undocumented_materials: true,
        ..writers::U3dOptions::new(3, 0)
    })
}

#[test]
fn synthetic_files_survive_mutation() {
    let mut files: Vec<(String, Vec<u8>)> = vec![
        ("quad.psk".into(), writers::psk(false)),
        ("quad32.psk".into(), writers::psk(true)),
        ("walk.psa".into(), writers::psa(true)),
        ("frames.u3d".into(), writers::u3d(2, 0)),
        ("skinned.u3d".into(), writers::u3d(2, 2)),
        ("every-branch.u3d".into(), u3d_every_branch()),
        (
            "rigid.u3d".into(),
            writers::u3d_with(&writers::U3dOptions {
                skin_weights: 0,
                ..writers::U3dOptions::new(2, 2)
            }),
        ),
        (
            "weights3.u3d".into(),
            writers::u3d_with(&writers::U3dOptions {
                skin_weights: 3,
                undocumented_materials: true,
                ..writers::U3dOptions::new(3, 3)
            }),
        ),
        ("beep.wav".into(), writers::wav(8000, 16, 2, 50)),
        ("Weapons.ukx".into(), writers::ue2_skeletal_package(126, 29, "AssaultRifle_1st")),
        ("Flags.ukx".into(), writers::ue2_vert_mesh_package(128, 29, "Banner")),
        ("Crates.usx".into(), writers::ue2_static_package(128, 29)),
        ("Crates-v125.usx".into(), writers::ue2_static_package(125, 29)),
        (
            "Map.ut2".into(),
            writers::map_package(
                128,
                &[writers::MapBrush {
                    class: "Brush",
                    csg_oper: 1,
                    poly_flags: 0x20,
                    location: [0.0, 0.0, 64.0],
                    half: [32.0; 3],
                    texture: "Wall",
                }],
                &[writers::LevelPoly {
                    vertices: vec![[0.0, 0.0, 0.0], [0.0, 10.0, 0.0], [10.0, 10.0, 0.0]],
                    texture: "Floor",
                }],
            ),
        ),
        (
            "Map.unr".into(),
            writers::ue1_map_package(
                &[writers::MapBrush {
                    class: "Brush",
                    csg_oper: 2,
                    poly_flags: 0,
                    location: [0.0, 0.0, 64.0],
                    half: [128.0, 128.0, 64.0],
                    texture: "Wall",
                }],
                &[writers::LevelPoly {
                    vertices: vec![[0.0, 0.0, 0.0], [0.0, 10.0, 0.0], [10.0, 10.0, 0.0]],
                    texture: "Floor",
                }],
            ),
        ),
        ("Crates-binary.usx".into(), writers::ue2_static_package(128, 0)),
        ("Crates-v110.usx".into(), writers::ue2_static_package(110, 29)),
        (
            "Crates.usx.uz".into(),
            containers::uz1("Crates.usx", &writers::ue2_static_package(128, 29), true, 256),
        ),
        (
            "Walls.utx.uz".into(),
            containers::uz1(
                "Walls.utx",
                &writers::object_package(&[("Texture", "A.B")]),
                false,
                0x40000,
            ),
        ),
        ("Crates.usx.uz2".into(), containers::uz2(&writers::ue2_static_package(128, 29))),
        (
            "Crates.umod".into(),
            containers::umod(&[
                ("System\\Manifest.ini", b"[Setup]\r\n", 1),
                ("StaticMeshes\\Crates.usx", &writers::ue2_static_package(128, 29), 0),
            ]),
        ),
    ];
    let (d, a) = writers::vertex_mesh(&[([0, 1, 2], 0)], 3, 2, true);
    files.push(("dx_d.3d".into(), d));
    files.push(("dx_a.3d".into(), a));
    let mut total = 0;
    for (i, (name, bytes)) in files.iter().enumerate() {
        total += run(name, bytes, 0x5eed + i as u64, 200, 400);
    }
    println!("{total} mutated synthetic inputs, no panic");
}

#[test]
fn corpus_files_survive_mutation() {
    let files =
        common::corpus_files(&["u", "utx", "unr", "umx", "psk", "psa", "3d", "bmp", "png", "wav"]);
    let mut total = 0;
    for (i, (path, bytes)) in files.iter().enumerate() {
        // Large packages cost more per input: fewer, still spread over the whole file.
        let (cuts, flips) = if bytes.len() > 200_000 { (20, 30) } else { (40, 60) };
        total += run(path, bytes, 0xC0FFEE + i as u64, cuts, flips);
    }
    println!("{total} mutated corpus inputs, no panic");
}
