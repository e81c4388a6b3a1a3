//! Ultimate 3D models (built by the formats crate's test writer, as no sample is public)
//! exported to the model, glTF and OBJ, and rendered as thumbnails.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::pedantic)]

use unreal_test_support::writers;

use std::fmt::Write as _;

use unreal_assets::export::{u3d_model, write_glb, write_obj, Model};
use unreal_assets::preview::{self, render_model};
use writers::U3dOptions;

fn round<const N: usize>(v: [f32; N]) -> [f32; N] {
    v.map(|c| {
        let r = (c * 1000.0).round() / 1000.0;
        if r == 0.0 {
            0.0
        } else {
            r
        }
    })
}

fn describe(model: &Model) -> String {
    let mut out = String::new();
    writeln!(out, "positions {:?}", model.positions.iter().map(|p| round(*p)).collect::<Vec<_>>())
        .unwrap();
    writeln!(out, "uvs {:?}", model.uvs).unwrap();
    for p in &model.primitives {
        writeln!(
            out,
            "material {} ({}): {:?}",
            p.material, model.materials[p.material].name, p.triangles
        )
        .unwrap();
    }
    for t in &model.morph_targets {
        let moved: Vec<_> = t
            .displacements
            .iter()
            .enumerate()
            .filter(|(_, d)| d.iter().any(|c| *c != 0.0))
            .map(|(i, d)| (i, round(*d)))
            .collect();
        writeln!(out, "target {}: {moved:?}", t.name).unwrap();
    }
    for a in &model.morph_animations {
        writeln!(out, "morph animation {} times {:?} targets {:?}", a.name, a.times, a.targets)
            .unwrap();
    }
    if let Some(skin) = &model.skin {
        for b in &skin.bones {
            writeln!(
                out,
                "bone {} parent {:?} t {:?} r {:?}",
                b.name,
                b.parent,
                round(b.translation),
                round(b.rotation)
            )
            .unwrap();
        }
        writeln!(out, "joints {:?}", skin.joints).unwrap();
        writeln!(out, "weights {:?}", skin.weights).unwrap();
    }
    for a in &model.skeletal_animations {
        writeln!(out, "skeletal animation {} times {:?}", a.name, a.times).unwrap();
        for t in &a.tracks {
            let last = t.rotations.len() - 1;
            writeln!(out, "  bone {} last rotation {:?}", t.bone, round(t.rotations[last]))
                .unwrap();
        }
    }
    out
}

/// The JSON chunk of a `.glb`.
fn glb_json(glb: &[u8]) -> serde_json::Value {
    assert_eq!(&glb[0..4], b"glTF");
    let len = u32::from_le_bytes(glb[12..16].try_into().unwrap()) as usize;
    serde_json::from_slice(&glb[20..20 + len]).unwrap()
}

fn covered_percent(model: &Model) -> usize {
    let image = render_model(model, preview::THUMBNAIL_SIZE);
    let covered = image.pixels.chunks_exact(4).filter(|p| p[3] > 0).count();
    covered * 100 / (image.width * image.height) as usize
}

#[test]
fn u3d_models_export_and_render() {
    let files = [
        (
            "skinned",
            writers::u3d_with(&U3dOptions {
                skin_weights: 3,
                undocumented_materials: true,
                ..U3dOptions::new(4, 3)
            }),
        ),
        ("rigid", writers::u3d_with(&U3dOptions { skin_weights: 0, ..U3dOptions::new(2, 2) })),
        (
            "frames",
            writers::u3d_with(&U3dOptions { reuse_first_frame: true, ..U3dOptions::new(3, 0) }),
        ),
    ];
    let mut text = String::new();
    for (name, bytes) in &files {
        let model = u3d_model(name, bytes, &[]).unwrap();
        let glb = write_glb(&model);
        let json = glb_json(&glb);
        let count = |k: &str| json.get(k).and_then(|v| v.as_array()).map_or(0, Vec::len);
        let covered = covered_percent(&model);
        assert!(covered > 0, "{name}: the thumbnail is empty");
        let uri = preview::u3d_thumbnail_data_uri(bytes, &[], 64).unwrap();
        assert!(uri.starts_with("data:image/png;base64,"), "{name}: {uri:.40}");
        let obj = write_obj(&model);
        writeln!(
            text,
            "== {name}: glb {} nodes, {} skins, {} animations, {} materials; obj {} faces",
            count("nodes"),
            count("skins"),
            count("animations"),
            count("materials"),
            obj.lines().filter(|l| l.starts_with("f ")).count(),
        )
        .unwrap();
        text.push_str(&describe(&model));
    }
    expect_test::expect_file!["snapshots/u3d_export.txt"].assert_eq(&text);
}

#[test]
fn u3d_without_triangles_is_an_error() {
    let mut bytes = writers::u3d(1, 0);
    // Not a u3d at all, then a truncated one.
    let err = u3d_model("x", b"nope", &[]).unwrap_err().to_string();
    expect_test::expect![[
        r#"u3d header at byte 0: expected signature (13 bytes), but the file ends after 4 more"#
    ]]
    .assert_eq(&err);
    bytes.truncate(40);
    assert!(u3d_model("x", &bytes, &[]).is_err());
}
