//! Built maps' BSP: every `Model`, `Polys` and `Level` object of the corpus maps read whole
//! (each must end where its layout says), with the level's model checked for consistency.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::float_cmp)]

mod common;

use std::fmt::Write;

use unreal_formats::Package;

#[test]
fn corpus_maps_models_read_whole() {
    let maps = common::corpus_files(&["unr"]);
    let mut out = String::new();
    for (path, bytes) in &maps {
        let p = Package::parse(bytes).unwrap();
        let (mut models, mut polys, mut poly_count) = (0, 0, 0);
        for o in p.objects() {
            let class = p.class_name(o.export);
            if class.eq_ignore_ascii_case("Model") {
                p.read_model(o.export).unwrap_or_else(|e| panic!("{path}: {e}"));
                models += 1;
            } else if class.eq_ignore_ascii_case("Polys") {
                poly_count +=
                    p.read_polys(o.export).unwrap_or_else(|e| panic!("{path}: {e}")).len();
                polys += 1;
            }
        }
        let level = p.objects().find(|o| p.class_name(o.export) == "Level").unwrap();
        let level = p.read_level(level.export).unwrap_or_else(|e| panic!("{path}: {e}"));
        let unreal_formats::package::Resolved::Export(m) = level.model.resolve() else {
            panic!("{path}: the level's model is not an export")
        };
        let model = p.read_model(m).unwrap();
        let drawn = (0..model.nodes.len()).filter(|&i| model.node_polygon(i).len() >= 3).count();
        writeln!(
            out,
            "{path}: {models} models, {polys} Polys ({poly_count} polygons); level {} actors, model {} ({} nodes, {drawn} with a polygon, {} surfs, {} points, {} vectors, {} zones, RootOutside {})",
            level.actors.len(),
            p.export_path(m),
            model.nodes.len(),
            model.surfs.len(),
            model.points.len(),
            model.vectors.len(),
            model.zones.len(),
            model.root_outside,
        )
        .unwrap();
    }
    if maps.is_empty() {
        return;
    }
    expect_test::expect![[r"
        packages/unr/Ut99Mods_1HH-TestBox-Large.unr: 13 models, 13 Polys (1104 polygons); level 893 actors, model Model1 (682 nodes, 682 with a polygon, 565 surfs, 491 points, 1540 vectors, 2 zones, RootOutside false)
        packages/unr/blender_t3d_test_map.unr: 42 models, 42 Polys (254 polygons); level 64 actors, model Model1 (276 nodes, 276 with a polygon, 205 surfs, 388 points, 75 vectors, 6 zones, RootOutside false)
        packages/unr/shrimpza_SCR-CityStreet.unr: 101 models, 101 Polys (748 polygons); level 228 actors, model Model1 (1140 nodes, 1140 with a polygon, 591 surfs, 1827 points, 132 vectors, 5 zones, RootOutside false)
    "]].assert_eq(&out);
}

/// A map written by the project's writer, in UE1's layout (69) and UE2's (128): the brush's
/// polygons, the level's model and the actor order read back as written.
#[test]
fn synthetic_map_reads_back() {
    for version in [69, 128] {
        synthetic_map_reads_back_at(version);
    }
}

fn synthetic_map_reads_back_at(version: u16) {
    use unreal_test_support::writers::{map_package, LevelPoly, MapBrush};
    let bytes = map_package(
        version,
        &[MapBrush {
            class: "Brush",
            csg_oper: 2,
            poly_flags: 0,
            location: [0.0, 0.0, 64.0],
            half: [128.0, 128.0, 64.0],
            texture: "Wall",
        }],
        &[LevelPoly {
            vertices: vec![[0.0, 0.0, 0.0], [0.0, 10.0, 0.0], [10.0, 10.0, 0.0]],
            texture: "Floor",
        }],
    );
    let p = Package::parse(&bytes).unwrap();
    let level = p.objects().find(|o| p.class_name(o.export) == "Level").unwrap().export;
    let level = p.read_level(level).unwrap();
    let unreal_formats::package::Resolved::Export(m) = level.model.resolve() else { panic!() };
    let model = p.read_model(m).unwrap();
    assert_eq!(model.node_polygon(0), vec![[0.0, 0.0, 0.0], [0.0, 10.0, 0.0], [10.0, 10.0, 0.0]]);
    let surf = model.node_surf(0).unwrap();
    assert_eq!(p.ref_name(surf.texture), "Floor");
    assert_eq!(model.vector(surf.normal), [0.0, 0.0, -1.0]);
    assert_eq!(level.actors.len(), 2);
    let unreal_formats::package::Resolved::Export(actor) = level.actors[1].resolve() else {
        panic!()
    };
    assert_eq!(p.class_name(actor), "Brush");
    let polys = p.objects().find(|o| p.class_name(o.export) == "Polys").unwrap().export;
    let polys = p.read_polys(polys).unwrap();
    assert_eq!(polys.len(), 6);
    assert_eq!(polys[0].vertices.len(), 4);
    assert_eq!(polys[0].normal, [1.0, 0.0, 0.0]);
    assert_eq!(p.ref_name(polys[0].texture), "Wall");

    // Every truncation fails with an error naming the object, never a panic.
    for cut in (bytes.len() / 2..bytes.len()).step_by(7) {
        let mut b = bytes.clone();
        b.truncate(cut);
        common::exercise_all_readers(&b, "map.unr");
    }
}
