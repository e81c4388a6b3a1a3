//! The static meshes a level places (issue 45): which actors draw one, where (the engine's
//! `AActor::LocalToWorld`), with which materials, one glTF mesh per mesh and skins referenced by
//! one node per actor, and boxes with notes where a mesh cannot be read. T3D maps read their
//! meshes from the packages of a folder; built maps from their own package and the others.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::float_cmp)]

use std::fmt::Write as _;
use std::sync::Arc;

use serde_json::Value;
use unreal_analysis::index::{IndexRoots, PackageIndex};
use unreal_assets::export::level::{self, LevelScene};
use unreal_assets::export::model::point_to_gltf;
use unreal_assets::export::placed_meshes::ActorTransform;
use unreal_assets::export::write_level_glb;
use unreal_test_support::writers;
use unreal_test_support::ScratchDir;

/// Two crates of `Props.usx` (one turned a quarter, one scaled and pivoted), a third with its
/// first section's skin changed, a mover drawn with the crate, a mesh of a package the folder
/// lacks, a hidden crate, and two pickup bases whose draw type (and, for the second, mesh)
/// come from their class's defaults.
const MAP: &str = "Begin Map
Begin Actor Class=StaticMeshActor Name=StaticMeshActor0
    StaticMesh=StaticMesh'Props.Meshes.Crate'
    Location=(X=512.000000,Y=-256.000000,Z=32.000000)
    Rotation=(Yaw=16384)
End Actor
Begin Actor Class=StaticMeshActor Name=StaticMeshActor1
    StaticMesh=StaticMesh'Props.Meshes.Crate'
    Location=(X=-100.000000,Y=40.000000,Z=0.000000)
    Rotation=(Pitch=2048,Yaw=-9000,Roll=700)
    DrawScale=1.500000
    DrawScale3D=(X=2.000000,Z=0.500000)
    PrePivot=(X=32.000000,Y=32.000000)
End Actor
Begin Actor Class=StaticMeshActor Name=StaticMeshActor2
    StaticMesh=StaticMesh'Props.Meshes.Crate'
    Skins(0)=Texture'Props.Wood'
    Location=(X=0.000000,Y=600.000000,Z=0.000000)
End Actor
Begin Actor Class=Mover Name=Mover0
    DrawType=DT_StaticMesh
    StaticMesh=StaticMesh'Props.Meshes.Crate'
    Location=(X=0.000000,Y=0.000000,Z=300.000000)
End Actor
Begin Actor Class=StaticMeshActor Name=StaticMeshActor3
    StaticMesh=StaticMesh'Rocks.Big.Boulder'
    Location=(X=1000.000000,Y=1000.000000,Z=0.000000)
End Actor
Begin Actor Class=StaticMeshActor Name=StaticMeshActor4
    StaticMesh=StaticMesh'Props.Meshes.Crate'
    bHidden=True
End Actor
Begin Actor Class=xPickUpBase Name=xPickUpBase0
    StaticMesh=StaticMesh'Props.Meshes.Crate'
End Actor
Begin Actor Class=xPickUpBase Name=xPickUpBase1
End Actor
End Map
";

/// A folder holding `Props.usx` (UT2004's layout: version 128, licensee 29) and the source of
/// `xPickUpBase`, whose defaults draw the crate.
fn props_folder() -> (ScratchDir, PackageIndex) {
    let dir = ScratchDir::new("level-static-meshes");
    std::fs::write(dir.join("Props.usx"), writers::ue2_static_package(128, 29)).unwrap();
    let classes = dir.join("XGame").join("Classes");
    std::fs::create_dir_all(&classes).unwrap();
    std::fs::write(
        classes.join("xPickUpBase.uc"),
        "class xPickUpBase extends Actor placeable;\n\ndefaultproperties\n{\n    DrawType=DT_StaticMesh\n    StaticMesh=StaticMesh'Props.Meshes.Crate'\n}\n",
    )
    .unwrap();
    let index = index_of(&dir);
    (dir, index)
}

/// The package index of the folder `dir` (its packages, and its packages' class sources).
fn index_of(dir: &std::path::Path) -> PackageIndex {
    PackageIndex::build(
        Arc::new(unreal_analysis::fs::RealFs),
        IndexRoots {
            game_dir: None,
            package_paths: vec![dir.to_path_buf()],
            ..IndexRoots::default()
        },
        &mut |_| {},
    )
}

/// A folder holding a copy of the corpus's `Ut99Mods_KillConfirmed.u` (a UT99 mod's package
/// with a `LodMesh` and the compiled classes that draw it), and its index; `None`, saying so,
/// without the corpus.
fn kill_confirmed_folder() -> Option<(ScratchDir, PackageIndex)> {
    corpus_package_folder("Ut99Mods_KillConfirmed.u")
}

/// A folder holding a copy of the corpus's package `name` (under `packages/u`), and its
/// index; `None`, saying so, without the corpus.
fn corpus_package_folder(name: &str) -> Option<(ScratchDir, PackageIndex)> {
    let source = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/corpus/packages/u")
        .join(name);
    if !source.is_file() {
        unreal_test_support::corpus::absent(&format!("the corpus's {name} is not present"));
        return None;
    }
    let dir = ScratchDir::new("level-corpus-package");
    std::fs::copy(&source, dir.join(name)).unwrap();
    let index = index_of(&dir);
    Some((dir, index))
}

/// Checks that each of `points` (a mesh's model positions, glTF axes) lands, through `placed`'s
/// matrix, where `engine` (a point in the mesh's own Unreal axes to the world) puts it.
fn assert_placed(
    placed: &level::PlacedMesh,
    points: &[[f32; 3]],
    engine: impl Fn([f64; 3]) -> [f64; 3],
) {
    let unreal = |g: [f32; 3]| [f64::from(g[2]), -f64::from(g[0]), f64::from(g[1])];
    assert!(!points.is_empty(), "{}: no points", placed.name);
    for &g in points {
        let world = engine(unreal(g));
        let expected = point_to_gltf(world.map(|c| c as f32));
        let got = apply(&placed.matrix, g);
        assert!(
            got.iter().zip(expected).all(|(a, b)| (a - f64::from(b)).abs() < 1e-3),
            "{}: {g:?} at {got:?}, the engine's {world:?}",
            placed.name
        );
    }
}

/// Checks that `positions` (a model's, glTF axes) placed by `placed`'s matrix are the points
/// `engine` (the engine's world points, Unreal axes): every point drawn is one of the
/// engine's, and every one of those is drawn, within `tolerance`.
fn assert_draws(
    placed: &level::PlacedMesh,
    positions: &[[f32; 3]],
    engine: &[[f64; 3]],
    tolerance: f64,
) {
    let world: Vec<[f64; 3]> = positions
        .iter()
        .map(|&g| {
            let p = apply(&placed.matrix, g);
            [p[2], -p[0], p[1]]
        })
        .collect();
    let near = |a: &[f64; 3], b: &[f64; 3]| a.iter().zip(b).all(|(x, y)| (x - y).abs() < tolerance);
    assert!(world.iter().all(|w| engine.iter().any(|e| near(w, e))), "{world:?} {engine:?}");
    assert!(engine.iter().all(|e| world.iter().any(|w| near(w, e))), "{world:?} {engine:?}");
}

/// The glTF document of a `.glb`'s JSON chunk.
fn json_of(glb: &[u8]) -> Value {
    let length = u32::from_le_bytes(glb[12..16].try_into().unwrap()) as usize;
    serde_json::from_slice(&glb[20..20 + length]).unwrap()
}

/// Where a placed mesh's matrix puts the glTF point `g`.
fn apply(matrix: &[f32; 16], g: [f32; 3]) -> [f64; 3] {
    [0, 1, 2].map(|row| {
        (0..3).map(|c| f64::from(matrix[c * 4 + row]) * f64::from(g[c])).sum::<f64>()
            + f64::from(matrix[12 + row])
    })
}

fn describe(scene: &LevelScene) -> String {
    let mut out = String::new();
    for m in &scene.meshes {
        let textured = m.model.materials.iter().filter(|m| m.texture.is_some()).count();
        writeln!(
            out,
            "mesh {}: {} vertices, {} materials ({textured} textured){}",
            m.name,
            m.model.positions.len(),
            m.model.materials.len(),
            if m.is_box { ", the box" } else { "" }
        )
        .unwrap();
    }
    for p in &scene.placed {
        writeln!(out, "placed {} ({}) with mesh {}", p.name, p.class, p.mesh).unwrap();
    }
    for a in &scene.actors {
        writeln!(out, "point {} ({})", a.name, a.class).unwrap();
    }
    for n in &scene.notes {
        writeln!(out, "note: {n}").unwrap();
    }
    out
}

#[test]
fn a_t3d_maps_static_meshes_are_placed_from_the_packages() {
    let (_dir, index) = props_folder();
    let scene = level::level_scene("Crates", MAP, None, &index);
    expect_test::expect![[r"
        mesh Props.Meshes.Crate: 7 vertices, 2 materials (2 textured)
        mesh Props.Meshes.Crate: 7 vertices, 2 materials (2 textured)
        mesh Mesh not read: 24 vertices, 1 materials (0 textured), the box
        placed StaticMeshActor0 (StaticMeshActor) with mesh 0
        placed StaticMeshActor1 (StaticMeshActor) with mesh 0
        placed StaticMeshActor2 (StaticMeshActor) with mesh 1
        placed Mover0 (Mover) with mesh 0
        placed StaticMeshActor3 (StaticMeshActor) with mesh 2
        placed xPickUpBase0 (xPickUpBase) with mesh 0
        placed xPickUpBase1 (xPickUpBase) with mesh 0
        point StaticMeshActor4 (StaticMeshActor)
        note: the static mesh package Rocks is not in the game folder or package paths: 1 mesh not read, drawn as boxes of their actors' collision size (1 actor)
        note: 1 mesh actor is hidden in the game (bHidden=True): shown as points, as the engine does not draw them
    "]]
    .assert_eq(&describe(&scene));

    // Each crate's vertices stand where the engine's LocalToWorld puts them.
    let transforms = [
        ActorTransform {
            location: [512.0, -256.0, 32.0],
            rotation: [0, 16384, 0],
            ..ActorTransform::default()
        },
        ActorTransform {
            location: [-100.0, 40.0, 0.0],
            rotation: [2048, -9000, 700],
            draw_scale: 1.5,
            draw_scale_3d: [2.0, 1.0, 0.5],
            pre_pivot: [32.0, 32.0, 0.0],
        },
    ];
    for (placed, transform) in scene.placed.iter().zip(&transforms) {
        let model = &scene.meshes[placed.mesh].model;
        // The mesh's points as the writer wrote them, each where the engine puts it.
        assert_eq!(model.positions, writers::STATIC_MESH_POSITIONS.map(point_to_gltf));
        assert_placed(placed, &model.positions, |p| transform.point(p));
    }
    // The box stands at its actor, 16 units each way (a static mesh actor's 1-unit cylinder).
    let boxed = &scene.placed[4];
    let corner = apply(&boxed.matrix, point_to_gltf([1.0, 1.0, 1.0]));
    let expected = point_to_gltf([1016.0, 1016.0, 16.0]);
    assert!(
        corner.iter().zip(expected).all(|(a, b)| (a - f64::from(b)).abs() < 1e-3),
        "{corner:?}"
    );

    // One glTF mesh per mesh, one node per actor, in the scene's order.
    let gltf = json_of(&write_level_glb(&scene));
    let nodes = gltf["nodes"].as_array().unwrap();
    let group = nodes.iter().find(|n| n["name"] == "StaticMeshes").unwrap();
    let children: Vec<usize> = group["children"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_u64().unwrap() as usize)
        .collect();
    assert_eq!(children.len(), 7);
    let meshes_used: Vec<u64> =
        children.iter().map(|&c| nodes[c]["mesh"].as_u64().unwrap()).collect();
    let first = meshes_used[0];
    assert_eq!(meshes_used, vec![first, first, first + 1, first, first + 2, first, first]);
    assert_eq!(nodes[children[3]]["extras"]["class"], "Mover");
    assert_eq!(gltf["meshes"].as_array().unwrap().len(), first as usize + 3);
}

/// Without a game folder every mesh is a box, and one note says why for all of them.
#[test]
fn without_packages_every_static_mesh_is_a_box_with_one_note() {
    let scene = level::level_scene("Crates", MAP, None, &unreal_assets::export::NoTextures);
    assert_eq!(scene.meshes.len(), 1);
    assert!(scene.meshes[0].is_box);
    assert_eq!(scene.placed.len(), 5);
    assert_eq!(
        scene.notes[0],
        "no game folder or package path is set to read meshes from: 3 meshes not read, drawn as boxes of their actors' collision size (5 actors)"
    );
}

/// A built map (UT2004's layout) whose actors place its own mesh `Trim` and `Props.usx`'s
/// crate: the map's mesh read from the map, the crate from the folder's package, the one of a
/// package the folder lacks a box with its note; each where the engine puts it.
#[test]
fn a_built_maps_static_meshes_are_placed_from_the_map_and_the_packages() {
    use writers::{carved_room, MapBrush, MeshActorSpec, SpecMesh};
    let (_dir, index) = props_folder();
    let half = [512.0, 512.0, 256.0];
    let brush = MapBrush::carved(half, "Wall");
    let spec = |class, mesh, location, rotation| MeshActorSpec {
        class,
        mesh,
        location,
        rotation,
        draw_scale: None,
        draw_scale_3d: None,
        draw_type: None,
    };
    let actors = [
        spec("StaticMeshActor", SpecMesh::Own, [100.0, 50.0, -256.0], [0, 16384, 0]),
        MeshActorSpec {
            draw_scale: Some(2.0),
            draw_scale_3d: Some([1.0, 1.0, 0.5]),
            ..spec(
                "StaticMeshActor",
                SpecMesh::Import("Props.Meshes.Crate"),
                [-200.0, 0.0, -256.0],
                [0, 0, 4000],
            )
        },
        MeshActorSpec {
            draw_type: Some(8),
            ..spec("Mover", SpecMesh::Own, [0.0, 300.0, 0.0], [0; 3])
        },
        spec(
            "StaticMeshActor",
            SpecMesh::Import("Rocks.Big.Boulder"),
            [300.0, 300.0, -256.0],
            [0; 3],
        ),
        // Its class's source draws the crate: the actor stores neither mesh nor draw type, as
        // a built map stores only what differs from the class's defaults.
        spec("xPickUpBase", SpecMesh::ClassDefault, [0.0, -300.0, -256.0], [0; 3]),
        // A class no source or package here defines: its draw type is not known.
        spec("xWeaponBase", SpecMesh::Import("Props.Meshes.Crate"), [0.0; 3], [0; 3]),
    ];
    let bytes =
        writers::ue2_map_with_static_meshes(&[brush], &carved_room(half, 0.0, "Wall"), &actors);
    let package = unreal_formats::Package::parse(&bytes).unwrap();
    let scene = level::stored_level_scene("Built", &package, &index).unwrap();
    expect_test::expect![[r"
        mesh Trim: 7 vertices, 2 materials (0 textured)
        mesh Props.Meshes.Crate: 7 vertices, 2 materials (2 textured)
        mesh Mesh not read: 24 vertices, 1 materials (0 textured), the box
        placed StaticMeshActor0 (StaticMeshActor) with mesh 0
        placed StaticMeshActor1 (StaticMeshActor) with mesh 1
        placed Mover2 (Mover) with mesh 0
        placed StaticMeshActor3 (StaticMeshActor) with mesh 2
        placed xPickUpBase4 (xPickUpBase) with mesh 1
        point xWeaponBase5 (xWeaponBase)
        note: Tex.Wall: its package Tex is not in the game folder or package paths, or holds no image of it; its surfaces are drawn in a flat colour, mapped as a 256x256 texture
        note: the static mesh package Rocks is not in the game folder or package paths: 1 mesh not read, drawn as boxes of their actors' collision size (1 actor)
        note: 1 actor names a StaticMesh or Mesh, but neither they nor a class known here say how they are drawn (DrawType, which may come from their class's defaults): shown as points
    "]]
    .assert_eq(&describe(&scene));
    let transforms = [
        ActorTransform {
            location: [100.0, 50.0, -256.0],
            rotation: [0, 16384, 0],
            ..ActorTransform::default()
        },
        ActorTransform {
            location: [-200.0, 0.0, -256.0],
            rotation: [0, 0, 4000],
            draw_scale: 2.0,
            draw_scale_3d: [1.0, 1.0, 0.5],
            pre_pivot: [0.0; 3],
        },
        ActorTransform { location: [0.0, 300.0, 0.0], ..ActorTransform::default() },
    ];
    for (placed, transform) in scene.placed.iter().zip(&transforms) {
        let model = &scene.meshes[placed.mesh].model;
        assert_eq!(model.positions.len(), writers::STATIC_MESH_POSITIONS.len());
        // The mesh's points as the writer wrote them, each where the engine puts it.
        assert_eq!(model.positions, writers::STATIC_MESH_POSITIONS.map(point_to_gltf));
        assert_placed(placed, &model.positions, |p| transform.point(p));
    }
    // The crate of the class's defaults, an instance of the crate the package holds.
    let base = scene.placed.iter().find(|p| p.name == "xPickUpBase4").unwrap();
    assert_eq!(base.mesh, scene.placed[1].mesh);
    let at = ActorTransform { location: [0.0, -300.0, -256.0], ..ActorTransform::default() };
    assert_placed(base, &scene.meshes[base.mesh].model.positions, |p| at.point(p));
    assert!(write_level_glb(&scene).starts_with(b"glTF"));
}

/// A UE1 actor drawn with a mesh (`DT_Mesh`), posed in its first frame where the engine's
/// `MeshToWorld` puts it: the corpus's `Ut99Mods_KillConfirmed.u`, whose compiled class
/// `DogTagItemVisuals` names its `LodMesh` `dogTag` and draw type in its defaults, and a
/// `Decoration` that names them itself, turned and scaled. The mesh's one texture slot is 1
/// (`MESHMAP SETTEXTURE NUM=1`): an actor's `Skin` leaves it as it is (`UMesh::GetTexture`
/// gives a slot past 0 the mesh's own texture), its `MultiSkins(1)` replaces it (here by a
/// texture no package holds: untextured).
#[test]
fn a_ue1_actor_drawn_with_a_mesh_is_posed_from_its_package() {
    let Some((dir, index)) = kill_confirmed_folder() else { return };
    let map = "Begin Map
Begin Actor Class=DogTagItemVisuals Name=DogTagItemVisuals0
   Location=(X=0.000000,Y=0.000000,Z=-100.000000)
End Actor
Begin Actor Class=Decoration Name=Decoration0
   DrawType=DT_Mesh
   Mesh=LodMesh'Ut99Mods_KillConfirmed.dogTag'
   Location=(X=100.000000,Y=0.000000,Z=-100.000000)
   Rotation=(Pitch=3000,Yaw=16384)
   DrawScale=2.000000
   PrePivot=(Z=4.000000)
End Actor
Begin Actor Class=DogTagItemVisuals Name=DogTagItemVisuals1
   Skin=Texture'Nowhere.Tags.Gold'
   Location=(X=0.000000,Y=100.000000,Z=-100.000000)
End Actor
Begin Actor Class=DogTagItemVisuals Name=DogTagItemVisuals2
   MultiSkins(1)=Texture'Nowhere.Tags.Gold'
   Location=(X=0.000000,Y=200.000000,Z=-100.000000)
End Actor
End Map
";
    let scene = level::level_scene("Tags", map, None, &index);
    expect_test::expect![[r"
        mesh Ut99Mods_KillConfirmed.dogTag: 123 vertices, 1 materials (1 textured)
        mesh Ut99Mods_KillConfirmed.dogTag: 123 vertices, 1 materials (1 textured)
        mesh Ut99Mods_KillConfirmed.dogTag: 123 vertices, 1 materials (0 textured)
        placed DogTagItemVisuals0 (DogTagItemVisuals) with mesh 0
        placed Decoration0 (Decoration) with mesh 0
        placed DogTagItemVisuals1 (DogTagItemVisuals) with mesh 1
        placed DogTagItemVisuals2 (DogTagItemVisuals) with mesh 2
    "]]
    .assert_eq(&describe(&scene));
    // Actors drawn with a mesh go with the actors, not the static meshes, when parts are left
    // out.
    let without = |parts| {
        level::level_scene_of_parts("Tags", map, None, &index, parts, &|| false).placed.len()
    };
    let all = level::LevelParts::default();
    assert_eq!(without(level::LevelParts { static_meshes: false, ..all }), 4);
    assert_eq!(without(level::LevelParts { actors: false, ..all }), 0);
    let bytes = std::fs::read(dir.join("Ut99Mods_KillConfirmed.u")).unwrap();
    let package = unreal_formats::Package::parse(&bytes).unwrap();
    let info = package.read_mesh(package.find("dogTag").unwrap()).unwrap();
    let placement = info.placement.clone().unwrap();
    let space = unreal_assets::export::placed_meshes::VertexMeshSpace::new(
        placement.scale,
        placement.origin,
        placement.rot_origin,
        info.raw_per_unit(),
    );
    // The size the engine draws it at, from what the package stores: the box the editor drew
    // around the first frame's raw vertices, less `Origin`, times `Scale` (the mesh is not
    // turned), at the first actor's `Location`. The dog tag is 51.6 units long, not the 6.45
    // that the decoded eighths would make it.
    let [low, high] = info.first_frame_box.unwrap().map(|corner| {
        [0, 1, 2].map(|k| {
            let at = [0.0, 0.0, -100.0][k];
            at + (f64::from(corner[k]) - f64::from(placement.origin[k]))
                * f64::from(placement.scale[k])
        })
    });
    let first = &scene.placed[0];
    let world: Vec<[f64; 3]> = scene.meshes[first.mesh]
        .model
        .positions
        .iter()
        .map(|&g| {
            let p = apply(&first.matrix, g);
            [p[2], -p[0], p[1]]
        })
        .collect();
    for k in 0..3 {
        let min = world.iter().map(|p| p[k]).fold(f64::MAX, f64::min);
        let max = world.iter().map(|p| p[k]).fold(f64::MIN, f64::max);
        assert!(
            (min - low[k]).abs() < 1e-3 && (max - high[k]).abs() < 1e-3,
            "axis {k}: {min}..{max}, the engine's {}..{}",
            low[k],
            high[k]
        );
    }
    assert!((high[0] - low[0] - 51.6).abs() < 1e-3);
    let transforms = [
        ActorTransform { location: [0.0, 0.0, -100.0], ..ActorTransform::default() },
        ActorTransform {
            location: [100.0, 0.0, -100.0],
            rotation: [3000, 16384, 0],
            draw_scale: 2.0,
            pre_pivot: [0.0, 0.0, 4.0],
            ..ActorTransform::default()
        },
    ];
    for (placed, transform) in scene.placed.iter().zip(&transforms) {
        let model = &scene.meshes[placed.mesh].model;
        assert_placed(placed, &model.positions, |p| transform.vertex_mesh_point(&space, p));
    }
}

/// A built map with static meshes, cut short anywhere and with bytes changed: the level is
/// read or refused, never a panic.
#[test]
fn a_damaged_built_map_with_meshes_is_read_or_refused() {
    use writers::{carved_room, MapBrush, MeshActorSpec, SpecMesh};
    let half = [512.0, 512.0, 256.0];
    let brush = MapBrush::carved(half, "Wall");
    let spec = |mesh| MeshActorSpec {
        class: "StaticMeshActor",
        mesh,
        location: [10.0, 20.0, 30.0],
        rotation: [0, 4096, 0],
        draw_scale: Some(1.5),
        draw_scale_3d: Some([1.0, -1.0, 2.0]),
        draw_type: None,
    };
    let bytes = writers::ue2_map_with_static_meshes(
        &[brush],
        &carved_room(half, 0.0, "Wall"),
        &[spec(SpecMesh::Own), spec(SpecMesh::Import("Props.Meshes.Crate"))],
    );
    let others = unreal_assets::export::NoOtherPackages;
    let damaged = unreal_test_support::damaged_copies(&bytes, 7, 400, 45);
    for data in &damaged {
        if let Ok(p) = unreal_formats::Package::parse(data) {
            if let Ok(scene) = level::stored_level_scene("damaged", &p, &others) {
                drop(write_level_glb(&scene));
            }
        }
    }
}

/// A built UE1 map whose `Decoration` draws the corpus's dog tag (`DT_Mesh`, an import of
/// `Ut99Mods_KillConfirmed.dogTag`): read from the package folder, placed as `MeshToWorld`
/// places it, and its `MultiSkins(1)` (a texture no package holds) worn on the mesh's slot 1.
#[test]
fn a_built_ue1_maps_meshed_actor_is_posed_from_the_packages() {
    use writers::{carved_room, MapBrush};
    // The folder lives as long as the test.
    let Some((_dir, index)) = kill_confirmed_folder() else { return };
    let half = [256.0, 256.0, 128.0];
    let room = MapBrush::carved(half, "Wall");
    let level = carved_room(half, 0.0, "Wall");
    let mut worn = Vec::new();
    for multi in [None, Some("Nowhere.Tags.Gold")] {
        let bytes = writers::ue1_map_with_meshed_actor(
            std::slice::from_ref(&room),
            &level,
            "Ut99Mods_KillConfirmed.dogTag",
            [10.0, 20.0, -100.0],
            multi,
            None,
        );
        let package = unreal_formats::Package::parse(&bytes).unwrap();
        let scene = level::stored_level_scene("built", &package, &index).unwrap();
        assert_eq!(scene.placed.len(), 1, "{:?}", scene.notes);
        let placed = &scene.placed[0];
        let mesh = &scene.meshes[placed.mesh];
        assert!(!mesh.is_box, "{:?}", scene.notes);
        worn.push(mesh.model.materials.iter().filter(|m| m.texture.is_some()).count());
        let space = mesh.space.unwrap();
        let transform =
            ActorTransform { location: [10.0, 20.0, -100.0], ..ActorTransform::default() };
        assert_placed(placed, &mesh.model.positions, |p| transform.vertex_mesh_point(&space, p));
    }
    // The mesh's own texture, then the missing MultiSkins(1) in its place.
    assert_eq!(worn, vec![1, 0]);
}

/// A UE2 actor drawn with a skeletal mesh (`DT_Mesh`, `Mesh=SkeletalMesh'Weapons.Rifle'`), in
/// its reference pose, placed as `USkeletalMeshInstance::MeshToWorld` places it.
#[test]
fn a_ue2_actor_drawn_with_a_skeletal_mesh_is_posed_in_its_reference_pose() {
    let dir = ScratchDir::new("level-skeletal-meshes");
    let bytes = writers::ue2_skeletal_package(128, 29, "Rifle");
    std::fs::write(dir.join("Weapons.ukx"), &bytes).unwrap();
    let index = index_of(&dir);
    let map = "Begin Map
Begin Actor Class=xPawn Name=xPawn0
   DrawType=DT_Mesh
   Mesh=SkeletalMesh'Weapons.Rifle'
   Location=(X=50.000000,Y=-20.000000,Z=10.000000)
   Rotation=(Yaw=-16384,Roll=2000)
   DrawScale=1.500000
End Actor
End Map
";
    let scene = level::level_scene("Rifle", map, None, &index);
    assert_eq!(scene.placed.len(), 1, "{:?}", scene.notes);
    let placed = &scene.placed[0];
    let mesh = &scene.meshes[placed.mesh];
    assert!(!mesh.is_box, "{:?}", scene.notes);
    let package = unreal_formats::Package::parse(&bytes).unwrap();
    let export = (0..package.exports.len())
        .find(|&i| package.class_name(i).eq_ignore_ascii_case("SkeletalMesh"))
        .unwrap();
    let skeletal = package.read_skeletal_mesh_ue2(export).unwrap();
    let space = unreal_assets::export::placed_meshes::VertexMeshSpace::new(
        skeletal.scale,
        skeletal.origin,
        skeletal.rot_origin,
        [1.0; 3],
    );
    assert_eq!(mesh.space, Some(space));
    let transform = ActorTransform {
        location: [50.0, -20.0, 10.0],
        rotation: [0, -16384, 2000],
        draw_scale: 1.5,
        ..ActorTransform::default()
    };
    assert_placed(placed, &mesh.model.positions, |p| transform.vertex_mesh_point(&space, p));
    // Its points are the mesh's raw points, in the engine's axes as the game draws them (one
    // per wedge), not the mirror image the PSK it came from holds; the package export's are
    // the same.
    let wedge_points: Vec<[f32; 3]> =
        skeletal.wedges.iter().map(|w| point_to_gltf(skeletal.points[w.point as usize])).collect();
    assert_eq!(mesh.model.positions, wedge_points);
    assert!(skeletal.points.iter().any(|p| p[1] != 0.0));
    let exported = unreal_assets::export::package_mesh_model(&package, export).unwrap();
    assert_eq!(mesh.model.positions, exported.positions);
}

/// A UE2 actor drawn with a vertex mesh (`DT_Mesh`, `Mesh=VertMesh'Flags.Banner'`: UT2004's
/// CTF banners and flags are such meshes), in its first frame, placed as
/// `UVertMeshInstance::MeshToWorld` places the engine's raw vertex integers; its material 0
/// the mesh's own texture, or the actor's `Skins(0)` where set.
#[test]
fn a_ue2_actor_drawn_with_a_vertex_mesh_is_posed_in_its_first_frame() {
    let dir = ScratchDir::new("level-vert-meshes");
    let bytes = writers::ue2_vert_mesh_package(128, 29, "Banner");
    std::fs::write(dir.join("Flags.ukx"), &bytes).unwrap();
    let index = index_of(&dir);
    let map = "Begin Map
Begin Actor Class=Decoration Name=Decoration0
   DrawType=DT_Mesh
   Mesh=VertMesh'Flags.Banner'
   Location=(X=50.000000,Y=-20.000000,Z=10.000000)
   Rotation=(Yaw=-16384,Roll=2000)
   DrawScale=1.500000
End Actor
Begin Actor Class=Decoration Name=Decoration1
   DrawType=DT_Mesh
   Mesh=VertMesh'Flags.Banner'
   Skins(0)=Texture'Nowhere.Cloth'
   Location=(X=500.000000,Y=0.000000,Z=0.000000)
End Actor
End Map
";
    let scene = level::level_scene("Banners", map, None, &index);
    expect_test::expect![[r"
        mesh Flags.Banner: 4 vertices, 1 materials (1 textured)
        mesh Flags.Banner: 4 vertices, 1 materials (0 textured)
        placed Decoration0 (Decoration) with mesh 0
        placed Decoration1 (Decoration) with mesh 1
    "]]
    .assert_eq(&describe(&scene));
    let placed = &scene.placed[0];
    let mesh = &scene.meshes[placed.mesh];
    let (scale, origin, rot_origin) = writers::VERT_MESH_SPACE;
    // The engine's own numbers: its raw integers through `MeshToWorld`.
    let raw = unreal_assets::export::placed_meshes::VertexMeshSpace::new(
        scale, origin, rot_origin, [1.0; 3],
    );
    let transform = ActorTransform {
        location: [50.0, -20.0, 10.0],
        rotation: [0, -16384, 2000],
        draw_scale: 1.5,
        ..ActorTransform::default()
    };
    let engine: Vec<[f64; 3]> = writers::VERT_MESH_FRAMES[0]
        .iter()
        .map(|p| transform.vertex_mesh_point(&raw, p.map(f64::from)))
        .collect();
    assert_draws(placed, &mesh.model.positions, &engine, 1e-3);
    // The package export keeps both frames as morph targets and the sequence.
    let package = unreal_formats::Package::parse(&bytes).unwrap();
    let exported = unreal_assets::export::package_mesh_model(&package, 0).unwrap();
    assert_eq!(exported.morph_targets.len(), 2);
    assert_eq!(exported.morph_animations[0].name, "Wave");
    assert!(write_level_glb(&scene).starts_with(b"glTF"));
}

/// A UE1 actor drawn with a skeletal mesh (`DT_Mesh`): the corpus's `Ut99Mods_C4.u` (a UT99
/// mod), whose `SkeletalMesh` `C4` is turned a quarter by its `RotOrigin` pitch. Drawn in its
/// reference pose (its `Points`, in the engine's units) where `MeshToWorld` puts it.
#[test]
fn a_ue1_actor_drawn_with_a_skeletal_mesh_is_posed_in_its_reference_pose() {
    let Some((dir, index)) = corpus_package_folder("Ut99Mods_C4.u") else { return };
    let map = "Begin Map
Begin Actor Class=Decoration Name=Decoration0
   DrawType=DT_Mesh
   Mesh=SkeletalMesh'Ut99Mods_C4.C4'
   Location=(X=100.000000,Y=50.000000,Z=-20.000000)
   Rotation=(Yaw=8192)
   DrawScale=2.000000
End Actor
End Map
";
    let scene = level::level_scene("C4", map, None, &index);
    assert_eq!(scene.placed.len(), 1, "{:?}", scene.notes);
    let placed = &scene.placed[0];
    let mesh = &scene.meshes[placed.mesh];
    assert!(!mesh.is_box, "{:?}", scene.notes);
    let bytes = std::fs::read(dir.join("Ut99Mods_C4.u")).unwrap();
    let package = unreal_formats::Package::parse(&bytes).unwrap();
    let export = package.find("C4").filter(|&i| package.class_name(i) == "SkeletalMesh").unwrap();
    let info = package.read_mesh(export).unwrap();
    let placement = info.placement.clone().unwrap();
    assert_eq!((placement.rot_origin, info.raw_per_unit()), ([16384, 0, 0], [1.0; 3]));
    let space = unreal_assets::export::placed_meshes::VertexMeshSpace::new(
        placement.scale,
        placement.origin,
        placement.rot_origin,
        [1.0; 3],
    );
    assert_eq!(mesh.space, Some(space));
    let transform = ActorTransform {
        location: [100.0, 50.0, -20.0],
        rotation: [0, 8192, 0],
        draw_scale: 2.0,
        ..ActorTransform::default()
    };
    // Every point of the reference pose is drawn, where the engine puts it.
    let points = package.read_mesh_geometry(export).unwrap().positions;
    let engine: Vec<[f64; 3]> =
        points.iter().map(|p| transform.vertex_mesh_point(&space, p.map(f64::from))).collect();
    assert_draws(placed, &mesh.model.positions, &engine, 1e-2);
    assert!(write_level_glb(&scene).starts_with(b"glTF"));
    // The package export writes the same reference pose, without frames to animate.
    assert_eq!(
        unreal_assets::export::export_kind(&package, export),
        Some(unreal_assets::export::ExportKind::Model)
    );
    let exported = unreal_assets::export::package_mesh_model(&package, export).unwrap();
    assert_eq!(exported.positions, mesh.model.positions);
    assert_eq!((exported.triangle_count(), exported.morph_targets.len()), (404, 0));
}
