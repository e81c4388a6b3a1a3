//! A built UE2 map's terrain textured by its layers (issue 45): each layer's texture placed by
//! the coordinates `ATerrainInfo::CalcLayerTexCoords` gives it, blended over the first by its
//! alpha map as `PrecomputeLayerWeights` weighs them, and baked into the terrain's one image;
//! the layers after the first gap are never drawn.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::float_cmp)]

use unreal_assets::export::level;
use unreal_assets::export::{write_level_glb, NoOtherPackages};
use unreal_test_support::writers::{self, carved_room, MapBrush, TerrainLayerSpec};

fn built_map_with_terrain() -> Vec<u8> {
    let half = [256.0, 256.0, 128.0];
    let brush = MapBrush::carved(half, "Wall");
    // Stored B, G, R, A: red, blue and green.
    let base =
        TerrainLayerSpec { texture: [0, 0, 255, 255], alpha: [0; 4], scale: 1.0, map_axis: 0 };
    let right = TerrainLayerSpec { texture: [255, 0, 0, 255], alpha: [0, 255, 0, 255], ..base };
    let never = TerrainLayerSpec { texture: [0, 255, 0, 255], alpha: [255; 4], ..base };
    writers::ue2_map_with_terrain(
        &[brush],
        &carved_room(half, 0.0, "Wall"),
        8,
        &[base, right],
        Some(never),
    )
}

#[test]
fn a_terrains_layers_are_baked_as_the_game_blends_them() {
    let bytes = built_map_with_terrain();
    let package = unreal_formats::Package::parse(&bytes).unwrap();
    let scene = level::stored_level_scene("Built", &package, &NoOtherPackages).unwrap();
    let note = scene.notes.iter().find(|n| n.contains("terrain"));
    let note = note.unwrap_or_else(|| panic!("{:?}", scene.notes));
    assert!(
        note.contains("is drawn with its 2 layers blended as the game blends them, baked into one 112x112 image (2 from their textures)"),
        "{note}"
    );
    let material = scene.materials.iter().find(|m| m.name.ends_with("(terrain)")).unwrap();
    let image = material.image.as_ref().expect("the baked image");
    assert_eq!((image.width, image.height), (112, 112));
    let pixel = |x: usize, y: usize| &image.pixels[(x + y * 112) * 4..][..4];
    // 8 by 8 vertices (7 by 7 quads, 16 pixels a quad). About heightmap x 2, the alpha map
    // is read an eighth of the way from its left texel (0) to its right one (255): nearly all
    // the red base; about x 5, seven eighths: nearly all blue. The green layer after the gap
    // is drawn nowhere.
    let left = pixel(31, 56);
    assert!(left[0] > 210 && left[2] < 45 && left[1] == 0, "{left:?}");
    let right = pixel(80, 56);
    assert!(right[2] > 210 && right[0] < 45 && right[1] == 0, "{right:?}");
    // The terrain's coordinates run across the heightmap, so the image covers it once.
    let primitive = scene.primitives.iter().find(|p| p.positions.len() == 64).unwrap();
    assert_eq!(primitive.uvs[0], [0.0, 0.0]);
    assert_eq!(primitive.uvs[63], [1.0, 1.0]);
    assert!(primitive.colors.is_empty());
    // In glTF the terrain's material wears the image.
    let glb = write_level_glb(&scene);
    let length = u32::from_le_bytes(glb[12..16].try_into().unwrap()) as usize;
    let json: serde_json::Value = serde_json::from_slice(&glb[20..20 + length]).unwrap();
    let terrain = json["materials"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["name"].as_str().unwrap().ends_with("(terrain)"))
        .unwrap();
    assert!(terrain["pbrMetallicRoughness"]["baseColorTexture"]["index"].is_u64(), "{terrain}");
}

/// Left out with `--leave-out terrain`: nothing of it is read.
#[test]
fn a_terrain_left_out_is_not_read() {
    let bytes = built_map_with_terrain();
    let package = unreal_formats::Package::parse(&bytes).unwrap();
    let parts = level::LevelParts { terrain: false, ..level::LevelParts::default() };
    let scene =
        level::stored_level_scene_of_parts("Built", &package, &NoOtherPackages, parts).unwrap();
    assert!(scene.materials.iter().all(|m| !m.name.ends_with("(terrain)")));
    assert!(scene.notes.iter().all(|n| !n.contains("terrain")));
}

/// A damaged map with a terrain: cut anywhere, or a few bytes changed (a heightmap size, a
/// layer's scale, a texture's size): read or refused, never a panic.
#[test]
fn a_damaged_map_with_a_terrain_is_read_or_refused() {
    let bytes = built_map_with_terrain();
    let damaged = unreal_test_support::damaged_copies(&bytes, 5, 400, 452);
    for data in &damaged {
        if let Ok(p) = unreal_formats::Package::parse(data) {
            if let Ok(scene) = level::stored_level_scene("damaged", &p, &NoOtherPackages) {
                drop(write_level_glb(&scene));
            }
        }
    }
}
