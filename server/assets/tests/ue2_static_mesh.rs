//! UE2 static meshes and mesh animations where a mapper meets them: the object preview (a
//! thumbnail for a mesh, the sequences of an animation), the model export (sections as
//! primitives, UVs, the package's own textures followed through shaders and modifiers), for a
//! synthetic `.usx`; and every static mesh of the UT2004 files when they are present.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::pedantic)]

use std::fmt::Write as _;
use std::path::PathBuf;

use expect_test::expect;
use unreal_assets::export::{self, write_glb, write_obj};
use unreal_assets::preview::{self, encode_png, render_model, ObjectPreview};
use unreal_formats::package::{ObjectRef, Package};
use unreal_test_support::writers;

fn glb_json(glb: &[u8]) -> serde_json::Value {
    assert_eq!(&glb[0..4], b"glTF");
    let json_len = u32::from_le_bytes(glb[12..16].try_into().unwrap()) as usize;
    serde_json::from_slice(&glb[20..20 + json_len]).unwrap()
}

#[test]
fn static_mesh_exports_with_its_sections_uvs_and_the_packages_textures() {
    let bytes = writers::ue2_static_package(128, 29);
    let package = Package::parse_named(&bytes, "Crates").unwrap();
    let mesh = package.find("Meshes.Crate").unwrap();
    let model = export::package_mesh_model(&package, mesh).unwrap();
    let mut out = format!(
        "{} vertices, {} triangles, uvs {:?}\n",
        model.positions.len(),
        model.triangle_count(),
        model.uvs.as_ref().map(Vec::len)
    );
    for p in &model.primitives {
        let m = &model.materials[p.material];
        writeln!(
            out,
            "  primitive: material {} `{}` textured {:?}, triangles {:?}",
            p.material,
            m.name,
            m.texture.as_ref().map(|t| (t.width, t.height, t.pixels[..4].to_vec())),
            p.triangles
        )
        .unwrap();
    }
    let json = glb_json(&write_glb(&model));
    writeln!(
        out,
        "glb: {} primitives, {} images, {} materials",
        json["meshes"][0]["primitives"].as_array().unwrap().len(),
        json["images"].as_array().map_or(0, Vec::len),
        json["materials"].as_array().unwrap().len()
    )
    .unwrap();
    out.push_str(&write_obj(&model));
    expect![[r#"
        7 vertices, 3 triangles, uvs Some(7)
          primitive: material 0 `Wood` textured Some((2, 2, [32, 96, 160, 255])), triangles [[0, 2, 1], [0, 3, 2]]
          primitive: material 1 `WoodBlend` textured Some((2, 2, [32, 96, 160, 255])), triangles [[4, 6, 5]]
        glb: 2 primitives, 2 images, 2 materials
        # Crate exported by unreal-ls (Y up, right-handed)
        v 0 0 0
        v 0 0 64
        v -64 0 64
        v -64 0 0
        v 0 32 0
        v 0 32 64
        v -64 32 0
        vt 0 1
        vt 1 1
        vt 1 0
        vt 0 0
        vt 0 1
        vt 1 1
        vt 0 0
        g Wood
        f 1/1 3/3 2/2
        f 1/1 4/4 3/3
        g WoodBlend
        f 5/5 7/7 6/6
    "#]].assert_eq(&out);
}

#[test]
fn materials_are_followed_to_their_texture() {
    let bytes = writers::ue2_static_package(128, 29);
    let package = Package::parse(&bytes).unwrap();
    let wood = package.find("Wood").unwrap();
    for name in ["Wood", "WoodShader", "WoodBlend"] {
        let material = ObjectRef(package.find(name).unwrap() as i32 + 1);
        assert_eq!(export::material_texture(&package, material), Some(wood), "{name}");
    }
    // Outside the package, or nothing: no texture.
    assert_eq!(export::material_texture(&package, ObjectRef(-1)), None);
    assert_eq!(export::material_texture(&package, ObjectRef(0)), None);
    // The mesh itself is no material: it has no `Material` property to follow.
    let mesh = ObjectRef(package.find("Meshes.Crate").unwrap() as i32 + 1);
    assert_eq!(export::material_texture(&package, mesh), None);
}

#[test]
fn previews_show_the_mesh_and_the_animation() {
    let bytes = writers::ue2_static_package(128, 29);
    let package = Package::parse(&bytes).unwrap();
    let mesh = preview::object_preview(&package, package.find("Meshes.Crate").unwrap()).unwrap();
    assert!(matches!(mesh, ObjectPreview::Mesh { thumbnail_png: Some(_), .. }));
    let bytes = writers::ue2_skeletal_package(126, 29, "AssaultRifle_1st");
    let package = Package::parse(&bytes).unwrap();
    let animation = preview::object_preview(&package, 0).unwrap();
    assert!(matches!(animation, ObjectPreview::Animation { .. }));
    expect![[r#"
        StaticMesh: 7 vertices x 1 frames, 3 faces, materials Wood, WoodBlend
        MeshAnimation: 2 bones, 2 sequences, 14 frames: Idle (10 frames at 15 fps), Fire (4 frames at 30 fps)"#]].assert_eq(&format!("{}\n{}", mesh.summary(), animation.summary()));
}

/// Every static mesh of the UT2004 files next to the project (`../trees/ut2004`) exports and
/// renders; the thumbnails are written to `tests/output/thumbnails/` to be looked at.
#[test]
fn every_ut2004_static_mesh_exports_and_renders() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../trees/ut2004");
    if !root.is_dir() {
        println!(
            "skipping: UT2004 files not found at {} (they are never part of the project)",
            root.display()
        );
        return;
    }
    let thumbnails =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/output/thumbnails");
    std::fs::create_dir_all(&thumbnails).unwrap();
    let mut paths = Vec::new();
    for (folder, ext) in
        [("Maps", "ut2"), ("StreamlineFX/staticmeshes", "usx"), ("Animations", "ukx")]
    {
        for entry in std::fs::read_dir(root.join(folder)).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e.eq_ignore_ascii_case(ext)) {
                paths.push(path);
            }
        }
    }
    paths.sort();
    let mut out = String::new();
    for path in &paths {
        let bytes = std::fs::read(path).unwrap();
        let package = Package::parse(&bytes).unwrap();
        for o in package.objects().filter(|o| o.class == "StaticMesh") {
            let model = export::package_mesh_model(&package, o.export).unwrap();
            let image = render_model(&model, preview::THUMBNAIL_SIZE);
            std::fs::write(thumbnails.join(format!("sm_{}.png", o.name)), encode_png(&image))
                .unwrap();
            let covered = image.pixels.chunks_exact(4).filter(|p| p[3] > 0).count();
            let textured = model.materials.iter().filter(|m| m.texture.is_some()).count();
            writeln!(
                out,
                "{} {}: {} vertices, {} triangles, {} of {} materials textured, thumbnail covers {}%",
                path.file_name().unwrap().to_string_lossy(),
                o.path,
                model.positions.len(),
                model.triangle_count(),
                textured,
                model.materials.len(),
                covered * 100 / (image.width * image.height) as usize
            )
            .unwrap();
        }
    }
    println!("{out}");
}

/// A mesh whose material is another package's texture (`Texture'Crates.Wood'` imported, as
/// UT2004's static meshes name `XGame_rc` shaders and skins): untextured from its own package
/// alone, textured when the game's packages are at hand (the editor's package index, or the
/// game folder `export` indexes on need).
#[test]
fn a_material_in_another_package_is_read_from_the_games_packages() {
    use std::sync::Arc;
    use unreal_analysis::fs::MemoryFs;
    use unreal_analysis::index::{IndexRoots, PackageIndex};
    use writers::{write_props, PackageWriter, Prop};

    let mut w = PackageWriter::new(128, 29);
    let mesh_class = w.engine_class("StaticMesh");
    let crates = w.import("Core", "Package", 0, "Crates");
    let wood = w.import("Engine", "Texture", crates, "Wood");
    let materials = w.name("Materials");
    let material = w.name("Material");
    let enable = w.name("EnableCollision");
    w.export(
        mesh_class,
        0,
        "Rock",
        0,
        Box::new(move |o, w| {
            let list = vec![Prop {
                name: materials,
                type_id: 9,
                struct_name: None,
                array_index: 0,
                bool_value: false,
                value: writers::ue2_static_mesh_materials(
                    29,
                    &[wood, wood],
                    material,
                    enable,
                    w.none(),
                ),
            }];
            write_props(o, &list, w.none());
            writers::ue2_static_mesh(o, 29, &[wood, wood]);
        }),
    );
    let bytes = w.finish();
    let package = Package::parse_named(&bytes, "Rocks").unwrap();
    let mesh = package.find("Rock").unwrap();
    let textured = |model: &export::Model| {
        model
            .materials
            .iter()
            .map(|m| m.texture.as_ref().map(|t| t.pixels[..4].to_vec()))
            .collect::<Vec<_>>()
    };
    let alone = export::package_mesh_model(&package, mesh).unwrap();
    assert_eq!(textured(&alone), [None, None]);

    let fs = MemoryFs::default()
        .with("/game/StaticMeshes/Crates.usx", writers::ue2_static_package(128, 29));
    let roots = IndexRoots {
        game_dir: None,
        package_paths: vec!["/game/StaticMeshes".into()],
        ..IndexRoots::default()
    };
    let index = PackageIndex::build(Arc::new(fs.clone()), roots.clone(), &mut |_| {});
    let with_index = export::package_mesh_model_with(&package, mesh, &index).unwrap();
    let wood_pixel = Some(vec![32u8, 96, 160, 255]);
    assert_eq!(textured(&with_index), [wood_pixel.clone(), wood_pixel.clone()]);
    let on_need = export::IndexedOnNeed::new(Arc::new(fs), roots);
    let with_folder = export::package_mesh_model_with(&package, mesh, &on_need).unwrap();
    assert_eq!(textured(&with_folder), [wood_pixel.clone(), wood_pixel]);
    // The preview the editor shows is drawn from the same model.
    let preview = preview::object_preview_with(&package, mesh, 64, &index).unwrap();
    assert!(matches!(preview, ObjectPreview::Mesh { thumbnail_png: Some(_), .. }));
}
