//! Exports and thumbnails of every mesh in the corpus: `_d.3d` + `_a.3d` pairs (with their
//! class's sequences and textures), PSK (with the PSA next to it), and the package LodMesh.
//! The glTF files are read back (counts, morph targets, animations) and every thumbnail is
//! written to `tests/output/thumbnails/` to be looked at.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::pedantic)]

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use unreal_assets::export::{self, uc::mesh_directives, write_glb, write_obj, Model};
use unreal_assets::preview::{self, encode_png, render_model, ObjectPreview};
use unreal_formats::decode::image::decode_image;
use unreal_formats::package::Package;

fn corpus() -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus");
    if dir.is_dir() {
        Some(dir)
    } else {
        unreal_test_support::corpus::absent(&format!("corpus not found at {}", dir.display()));
        None
    }
}

fn files(root: &Path, ext: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e.eq_ignore_ascii_case(ext)) {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// A file named case-insensitively like `relative` (backslashes allowed) under `root`.
fn find_ci(root: &Path, relative: &str) -> Option<PathBuf> {
    let mut cur = root.to_path_buf();
    for part in relative.split(['\\', '/']).filter(|p| !p.is_empty()) {
        let next = std::fs::read_dir(&cur)
            .ok()?
            .filter_map(Result::ok)
            .find(|e| e.file_name().to_str().is_some_and(|n| n.eq_ignore_ascii_case(part)))?;
        cur = next.path();
    }
    Some(cur)
}

/// The facts of a `.glb` that the test checks: counts from its JSON chunk.
fn glb_facts(glb: &[u8]) -> String {
    assert_eq!(&glb[0..4], b"glTF");
    let json_len = u32::from_le_bytes(glb[12..16].try_into().unwrap()) as usize;
    let json: serde_json::Value = serde_json::from_slice(&glb[20..20 + json_len]).unwrap();
    let count = |k: &str| json.get(k).and_then(|v| v.as_array()).map_or(0, Vec::len);
    let targets = json["meshes"][0]["primitives"][0]["targets"].as_array().map_or(0, Vec::len);
    let animations: Vec<String> = json
        .get("animations")
        .and_then(|a| a.as_array())
        .map(|a| a.iter().map(|x| x["name"].as_str().unwrap_or("").to_owned()).collect())
        .unwrap_or_default();
    let joints = json["skins"][0]["joints"].as_array().map_or(0, Vec::len);
    format!(
        "{} primitives, {} images, {targets} morph targets, {joints} joints, animations [{}]",
        json["meshes"][0]["primitives"].as_array().map_or(0, Vec::len),
        count("images"),
        animations.join(", ")
    )
}

fn thumbnails_dir() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/output/thumbnails");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Writes the thumbnail and returns how much of it the mesh covers, in percent.
fn thumbnail(model: &Model, name: &str) -> u32 {
    let image = render_model(model, preview::THUMBNAIL_SIZE);
    std::fs::write(thumbnails_dir().join(format!("{name}.png")), encode_png(&image)).unwrap();
    let covered = image.pixels.chunks_exact(4).filter(|p| p[3] > 0).count();
    (covered * 100 / (image.width * image.height) as usize) as u32
}

fn describe(model: &Model, glb: &[u8], covered: u32) -> String {
    format!(
        "{} vertices, {} triangles; glb: {}; thumbnail covers {covered}%",
        model.positions.len(),
        model.triangle_count(),
        glb_facts(glb)
    )
}

#[test]
fn corpus_meshes_export_and_render() {
    let Some(root) = corpus() else { return };
    let mut out = String::new();
    let ucs: Vec<(PathBuf, String)> = files(&root.join("uc"), "uc")
        .into_iter()
        .map(|p| {
            let text = String::from_utf8_lossy(&std::fs::read(&p).unwrap()).into_owned();
            (p, text)
        })
        .collect();
    for d in files(&root, "3d")
        .into_iter()
        .filter(|p| p.to_string_lossy().to_lowercase().ends_with("_d.3d"))
    {
        let name = d.file_name().unwrap().to_string_lossy().into_owned();
        let stem = &name[..name.len() - 5];
        let a = find_ci(d.parent().unwrap(), &format!("{stem}_a.3d")).unwrap();
        // The class that imports it, from the package folder that holds the mesh.
        let found = ucs.iter().find_map(|(p, text)| {
            let package_dir = p.parent()?.parent()?;
            d.starts_with(package_dir).then_some(())?;
            mesh_directives(text, &name).map(|m| (package_dir.to_path_buf(), m))
        });
        let setup = found.as_ref().map(|(_, m)| m.setup).unwrap_or_default();
        let (sequences, textures) = match &found {
            Some((dir, m)) => {
                let textures = m
                    .textures
                    .iter()
                    .filter_map(|(slot, file)| {
                        let path = find_ci(dir, file)?;
                        let ext = path.extension()?.to_str()?.to_owned();
                        Some((*slot, decode_image(&std::fs::read(path).ok()?, &ext).ok()?))
                    })
                    .collect::<Vec<_>>();
                (m.sequences.clone(), textures)
            }
            None => (Vec::new(), Vec::new()),
        };
        let model = export::vertex_mesh_model(
            stem,
            &std::fs::read(&d).unwrap(),
            &std::fs::read(&a).unwrap(),
            &sequences,
            &textures,
            &setup,
        )
        .unwrap();
        let glb = write_glb(&model);
        let covered = thumbnail(&model, &format!("3d_{stem}"));
        let rel = d.strip_prefix(&root).unwrap().display().to_string();
        writeln!(out, "{rel}: {}", describe(&model, &glb, covered)).unwrap();
        if stem.eq_ignore_ascii_case("Skull") {
            assert!(glb_facts(&glb).contains("30 morph targets"), "the Skull mesh has 30 frames");
        }
    }
    for psk in files(&root, "psk") {
        let stem = psk.file_stem().unwrap().to_string_lossy().into_owned();
        let psa = find_ci(psk.parent().unwrap(), &format!("{stem}.psa"))
            .map(|p| std::fs::read(p).unwrap());
        let bytes = std::fs::read(&psk).unwrap();
        let model =
            export::psk_model(&stem, &bytes, psa.as_deref(), &[], export::PskAxes::AsWritten)
                .unwrap();
        // Read as UT2004's import reads it: the mirror image, the bones' keys with it.
        let ue2 = export::psk_model(&stem, &bytes, psa.as_deref(), &[], export::PskAxes::Ue2Import)
            .unwrap();
        let mirrored: Vec<[f32; 3]> = model.positions.iter().map(|g| [-g[0], g[1], g[2]]).collect();
        assert_eq!(ue2.positions, mirrored, "{stem}");
        assert_eq!(ue2.triangle_count(), model.triangle_count());
        // Each bone mirrored across the same plane: its position's first axis negated, its
        // rotation's second and third (the same turn up to the quaternion's sign).
        let (skin, ue2_skin) = (model.skin.as_ref().unwrap(), ue2.skin.as_ref().unwrap());
        for (b, m) in skin.bones.iter().zip(&ue2_skin.bones) {
            let t = b.translation;
            assert_eq!(m.translation, [-t[0], t[1], t[2]], "{stem} {}", b.name);
            let [x, y, z, w] = b.rotation;
            let q = m.rotation;
            let same =
                |sign: f32| [x, -y, -z, w].iter().zip(q).all(|(a, b)| (sign * a - b).abs() < 1e-5);
            assert!(same(1.0) || same(-1.0), "{stem} {}: {:?} {q:?}", b.name, b.rotation);
        }
        assert_eq!(
            ue2.skeletal_animations.iter().map(|a| a.name.as_str()).collect::<Vec<_>>(),
            model.skeletal_animations.iter().map(|a| a.name.as_str()).collect::<Vec<_>>()
        );
        let glb = write_glb(&model);
        let covered = thumbnail(&model, &format!("psk_{stem}"));
        let rel = psk.strip_prefix(&root).unwrap().display().to_string();
        writeln!(out, "{rel}: {}", describe(&model, &glb, covered)).unwrap();
    }
    for u in files(&root.join("packages"), "u") {
        let bytes = std::fs::read(&u).unwrap();
        let package = Package::parse(&bytes).unwrap();
        for o in package.objects().filter(|o| o.class == "LodMesh" || o.class == "Mesh") {
            let model = export::package_mesh_model(&package, o.export).unwrap();
            let glb = write_glb(&model);
            let covered = thumbnail(&model, &format!("pkg_{}", o.name));
            let preview = preview::object_preview(&package, o.export).unwrap();
            assert!(matches!(preview, ObjectPreview::Mesh { thumbnail_png: Some(_), .. }));
            let rel = u.strip_prefix(&root).unwrap().display().to_string();
            writeln!(out, "{rel} {}: {}", o.path, describe(&model, &glb, covered)).unwrap();
        }
    }
    expect_test::expect_file!["snapshots/corpus_meshes.txt"].assert_eq(&out);
}

#[test]
fn brushes_to_obj_and_glb() {
    // A cube's top face as UnrealEd writes it: its Normal is the sum of (V[i-1]-V[0]) x
    // (V[i]-V[0]) over the fan.
    let t3d = "Begin PolyList\r\n\
Begin Polygon\r\n\
Origin   +00000.000000,+00000.000000,+00064.000000\r\n\
Normal   +00000.000000,+00000.000000,+00001.000000\r\n\
Vertex   +00064.000000,-00064.000000,+00064.000000\r\n\
Vertex   +00064.000000,+00064.000000,+00064.000000\r\n\
Vertex   -00064.000000,+00064.000000,+00064.000000\r\n\
Vertex   -00064.000000,-00064.000000,+00064.000000\r\n\
End Polygon\r\n\
End PolyList\r\n";
    let model = export::t3d_brush_model("Cube", t3d).unwrap();
    // The top face's normal must point up (+Y in glTF) with counter-clockwise winding.
    let t = model.primitives[0].triangles[0];
    let p = |i: u32| model.positions[i as usize];
    let (a, b, c) = (p(t[0]), p(t[1]), p(t[2]));
    let u = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
    let v = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
    let ny = u[2] * v[0] - u[0] * v[2];
    assert!(ny > 0.0, "the top face faces up after conversion");
    expect_test::expect![[r#"
        # Cube exported by unreal-ls (Y up, right-handed)
        v 64 64 64
        v -64 64 64
        v -64 64 -64
        v 64 64 -64
        g Brush
        f 1 3 2
        f 1 4 3
    "#]]
    .assert_eq(&write_obj(&model));
    assert!(glb_facts(&write_glb(&model)).starts_with("1 primitives"));
    assert!(export::t3d_brush_model("Empty", "Begin Map\r\nEnd Map\r\n").is_err());
}

/// One triangle brush, as a map actor with the given class and properties.
fn triangle_actor(class: &str, name: &str, properties: &str) -> String {
    format!(
        "Begin Actor Class={class} Name={name}\r\n{properties}   Begin Brush Name=Model{name}\r\n      Begin PolyList\r\n         Begin Polygon\r\n            Vertex   +00000.000000,+00000.000000,+00000.000000\r\n            Vertex   +00064.000000,+00000.000000,+00000.000000\r\n            Vertex   +00000.000000,+00032.000000,+00000.000000\r\n         End Polygon\r\n      End PolyList\r\n   End Brush\r\nEnd Actor\r\n"
    )
}

/// A map's brushes are placed as UE1's CSG places them (PrePivot, MainScale, Rotation,
/// PostScale, Location; a mirroring scale reverses the winding), the builder brush is left
/// out, and each brush is a node under its role with what it is in `extras`.
#[test]
fn map_brushes_are_placed_as_csg_places_them() {
    let map = [
        "Begin Map\r\n".to_owned(),
        triangle_actor("Brush", "Brush", "   Location=(X=5000.000000)\r\n"),
        triangle_actor(
            "Brush",
            "Brush1",
            "   CsgOper=CSG_Subtract\r\n   Rotation=(Yaw=16384)\r\n   PrePivot=(X=64.000000)\r\n   Location=(X=1000.000000,Z=8.000000)\r\n",
        ),
        triangle_actor(
            "Brush",
            "Brush2",
            "   CsgOper=CSG_Add\r\n   MainScale=(Scale=(X=-2.000000),SheerAxis=SHEER_ZX)\r\n   PostScale=(Scale=(Z=3.000000),SheerAxis=SHEER_ZX)\r\n   PolyFlags=32\r\n",
        ),
        triangle_actor("Mover", "Mover0", "   Location=(Y=-100.000000)\r\n"),
        "End Map\r\n".to_owned(),
    ]
    .concat();
    let scene = export::map_scene("Map", &map, None);
    assert_eq!(scene.builder_brushes, 1);
    // World points, Unreal axes (glTF's (x, y, z) is Unreal's (z, -x, y)... undone here).
    let unreal = |p: [f32; 3]| [p[2], -p[0], p[1]];
    let mut out = String::new();
    for brush in &scene.brushes {
        let points: Vec<String> = brush
            .positions
            .iter()
            .map(|&p| format!("{:?}", unreal(p).map(|c| (c * 1000.0).round() / 1000.0)))
            .collect();
        out.push_str(&format!(
            "{} {} {:?} flags={} tris={:?}: {}\n",
            brush.name,
            brush.class,
            brush.role,
            brush.poly_flags,
            brush.triangles,
            points.join(" ")
        ));
    }
    expect_test::expect![[r#"
        Brush1 Brush Subtractive flags=0 tris=[[0, 2, 1]]: [1000.0, -64.0, 8.0] [1000.0, -0.0, 8.0] [968.0, -64.0, 8.0]
        Brush2 Brush Additive flags=32 tris=[[0, 2, 1]]: [0.0, 32.0, 0.0] [-128.0, -0.0, 0.0] [0.0, -0.0, 0.0]
        Mover0 Mover Other flags=0 tris=[[0, 2, 1]]: [0.0, -100.0, 0.0] [64.0, -100.0, 0.0] [0.0, -68.0, 0.0]
    "#]].assert_eq(&out);

    let glb = export::write_map_glb(&scene);
    let json_len = u32::from_le_bytes(glb[12..16].try_into().unwrap()) as usize;
    let json: serde_json::Value = serde_json::from_slice(&glb[20..20 + json_len]).unwrap();
    let nodes: Vec<String> = json["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| {
            format!(
                "{} {} {}",
                n["name"],
                n.get("children").map_or(String::new(), ToString::to_string),
                n.get("extras").map_or(String::new(), ToString::to_string)
            )
        })
        .collect();
    expect_test::expect![[r#"
        "Brush1"  {"class":"Brush","csgOper":"CSG_Subtract","polyFlags":0}
        "Brush2"  {"class":"Brush","csgOper":"CSG_Add","polyFlags":32}
        "Mover0"  {"class":"Mover","csgOper":"","polyFlags":0}
        "Additive brushes" [1] 
        "Subtractive brushes" [0] 
        "Other brushes" [2] "#]]
    .assert_eq(&nodes.join("\n"));

    // UE2's CSG applies no brush rotation or scale (the editor bakes them into the vertices).
    let ue2 = export::map_scene("Map", &map, Some(unreal_analysis::Generation::Ue2));
    assert_eq!(
        ue2.brushes[0].positions.iter().map(|&p| unreal(p)).collect::<Vec<_>>(),
        vec![[936.0, 0.0, 8.0], [1000.0, 0.0, 8.0], [936.0, 32.0, 8.0]]
    );
}

/// `MESH ORIGIN`, `MESHMAP SCALE` and `ZEROTEX=1` as the class writes them: the export is the
/// mesh as the engine draws it, `(raw - Origin)` scaled then turned, in world units.
#[test]
fn vertex_mesh_posed_by_its_class() {
    use unreal_formats::vertex_mesh::pack_vertex;
    // One triangle on texture slot 2, vertices at raw integers (80, 0, 0), (0, 80, 0), (0, 0, 40)
    // (decoded as the exporters' units: 10, 10 and 10).
    let mut d = vec![0u8; 48];
    d[0..2].copy_from_slice(&1u16.to_le_bytes());
    d[2..4].copy_from_slice(&3u16.to_le_bytes());
    d.extend_from_slice(&[0, 0, 1, 0, 2, 0, 0, 0, 0, 0, 255, 0, 0, 255, 2, 0]);
    let mut a = Vec::new();
    a.extend_from_slice(&1u16.to_le_bytes());
    a.extend_from_slice(&12u16.to_le_bytes());
    for p in [[10.0, 0.0, 0.0], [0.0, 10.0, 0.0], [0.0, 0.0, 10.0]] {
        a.extend_from_slice(&pack_vertex(p).to_le_bytes());
    }
    let class = "class Thing extends Actor;\r\n\
#exec MESH IMPORT MESH=Thing ANIVFILE=Models\\Thing_a.3d DATAFILE=Models\\Thing_d.3d X=0 Y=0 Z=0 ZEROTEX=1\r\n\
#exec MESH ORIGIN MESH=Thing X=80 Y=0 Z=0 PITCH=64\r\n\
#exec MESHMAP SCALE MESHMAP=Thing X=0.5 Y=0.5 Z=1.0\r\n";
    let directives = mesh_directives(class, "Thing_d.3d").unwrap();
    expect_test::expect![[r#"
        MeshSetup {
            origin: [
                80.0,
                0.0,
                0.0,
            ],
            rotation: [
                16384,
                0,
                0,
            ],
            scale: [
                0.5,
                0.5,
                1.0,
            ],
            zero_tex: true,
        }
    "#]]
    .assert_debug_eq(&directives.setup);
    let model = export::vertex_mesh_model("Thing", &d, &a, &[], &[], &directives.setup).unwrap();
    // Unreal axes back from glTF's: (x, y, z) = (gltf z, -gltf x, gltf y).
    let unreal: Vec<[f32; 3]> = model
        .positions
        .iter()
        .map(|p| [p[2], 0.0 - p[0], p[1]].map(|c| (c * 1000.0).round() / 1000.0))
        .collect();
    // (80,0,0) - origin = 0; (0,80,0) - (80,0,0) = (-80,80,0), scaled (-40,40,0), and a
    // quarter pitch turns +X into +Z and +Z into -X: (0,40,-40); (0,0,40) - (80,0,0) =
    // (-80,0,40), scaled (-40,0,40), turned (-40,0,-40).
    expect_test::expect!["[[0.0, 0.0, 0.0], [-0.0, 40.0, -40.0], [-40.0, 0.0, -40.0]]"]
        .assert_eq(&format!("{unreal:?}"));
    // ZEROTEX=1: one material, slot 0.
    assert_eq!(model.materials.len(), 1);
}
