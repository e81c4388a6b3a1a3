//! UE2 `StaticMesh` and `MeshAnimation` objects built by the test-support writer (laid out as
//! UT2004's `UStaticMesh::Serialize` and `UMeshAnimation::Serialize` write them, in every
//! version and licensee branch) read back; every truncation gives a precise error, and
//! licensee layouts are refused by name.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::pedantic)]

use std::fmt::Write as _;

use expect_test::expect;
use unreal_formats::package::Package;
use unreal_formats::summarize;
use unreal_test_support::writers::{self, write_props, PackageWriter};

fn describe(version: u16, licensee: u16) -> String {
    let bytes = writers::ue2_static_package(version, licensee);
    let package = Package::parse(&bytes).unwrap();
    let export = package.find("Meshes.Crate").unwrap();
    let mesh = package.read_static_mesh_ue2(export).unwrap();
    let mut s = format!(
        "v{version} l{licensee}: {} vertices, {} triangles, normal {:?}, box {:?}..{:?}\n",
        mesh.positions.len(),
        mesh.triangle_count(),
        mesh.normals[0],
        mesh.bounding_box.min,
        mesh.bounding_box.max,
    );
    for (i, section) in mesh.sections.iter().enumerate() {
        writeln!(
            s,
            "  section {i}: first index {}, vertices {}..={}, {} triangles {:?}, material {} ({})",
            section.first_index,
            section.min_vertex_index,
            section.max_vertex_index,
            section.triangles,
            mesh.section_triangles(section),
            section.material,
            mesh.material_names[section.material],
        )
        .unwrap();
    }
    for (k, set) in mesh.uv_sets.iter().enumerate() {
        writeln!(s, "  uv set {k}: {:?}", set).unwrap();
    }
    writeln!(
        s,
        "  materials {:?}, colours {}, alphas {}, wireframe {}, collision triangles {}, raw triangles {}, internal version {}",
        mesh.materials.iter().map(|m| (m.material.0, m.enable_collision)).collect::<Vec<_>>(),
        mesh.colors,
        mesh.alphas,
        mesh.wireframe_indices,
        mesh.collision_triangles,
        mesh.raw_triangles,
        mesh.internal_version
    )
    .unwrap();
    // The positions are the writer's, in order, whatever the layout.
    assert_eq!(mesh.positions, writers::STATIC_MESH_POSITIONS);
    s
}

#[test]
fn static_mesh_reads_back_in_every_version_and_licensee_branch() {
    let mut all = String::new();
    for (version, licensee) in [(128, 29), (126, 29), (125, 29), (113, 25), (112, 0), (128, 22)] {
        all.push_str(&describe(version, licensee));
    }
    expect![[r#"
        v128 l29: 7 vertices, 3 triangles, normal [0.0, 0.0, 1.0], box [0.0, 0.0, 0.0]..[64.0, 64.0, 32.0]
          section 0: first index 0, vertices 0..=3, 2 triangles [[0, 1, 2], [0, 2, 3]], material 0 (Wood)
          section 1: first index 6, vertices 4..=6, 1 triangles [[4, 5, 6]], material 1 (WoodBlend)
          uv set 0: [[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0], [0.0, 0.0], [1.0, 0.0], [0.0, 1.0]]
          materials [(3, true), (5, true)], colours 7, alphas 7, wireframe 4, collision triangles 3, raw triangles 1, internal version 11
        v126 l29: 7 vertices, 3 triangles, normal [0.0, 0.0, 1.0], box [0.0, 0.0, 0.0]..[64.0, 64.0, 32.0]
          section 0: first index 0, vertices 0..=3, 2 triangles [[0, 1, 2], [0, 2, 3]], material 0 (Wood)
          section 1: first index 6, vertices 4..=6, 1 triangles [[4, 5, 6]], material 1 (WoodBlend)
          uv set 0: [[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0], [0.0, 0.0], [1.0, 0.0], [0.0, 1.0]]
          materials [(3, true), (5, true)], colours 7, alphas 7, wireframe 4, collision triangles 3, raw triangles 1, internal version 11
        v125 l29: 7 vertices, 3 triangles, normal [0.0, 0.0, 1.0], box [0.0, 0.0, 0.0]..[64.0, 64.0, 32.0]
          section 0: first index 0, vertices 0..=3, 2 triangles [[0, 1, 2], [0, 2, 3]], material 0 (Wood)
          section 1: first index 6, vertices 4..=6, 1 triangles [[4, 5, 6]], material 1 (WoodBlend)
          uv set 0: [[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0], [0.0, 0.0], [1.0, 0.0], [0.0, 1.0]]
          materials [(3, true), (5, true)], colours 7, alphas 7, wireframe 4, collision triangles 0, raw triangles 1, internal version 11
        v113 l25: 7 vertices, 3 triangles, normal [0.0, 0.0, 1.0], box [0.0, 0.0, 0.0]..[64.0, 64.0, 32.0]
          section 0: first index 0, vertices 0..=3, 2 triangles [[0, 1, 2], [0, 2, 3]], material 0 (Wood)
          section 1: first index 6, vertices 4..=6, 1 triangles [[4, 5, 6]], material 1 (WoodBlend)
          uv set 0: [[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0], [0.0, 0.0], [1.0, 0.0], [0.0, 1.0]]
          materials [(3, true), (5, true)], colours 7, alphas 7, wireframe 4, collision triangles 0, raw triangles 1, internal version 11
        v112 l0: 7 vertices, 3 triangles, normal [0.0, 0.0, 1.0], box [0.0, 0.0, 0.0]..[64.0, 64.0, 32.0]
          section 0: first index 0, vertices 0..=3, 2 triangles [[0, 1, 2], [0, 2, 3]], material 0 (Wood)
          section 1: first index 6, vertices 4..=6, 1 triangles [[4, 5, 6]], material 1 (WoodBlend)
          uv set 0: [[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0], [0.0, 0.0], [1.0, 0.0], [0.0, 1.0]]
          materials [(3, true), (5, true)], colours 7, alphas 7, wireframe 4, collision triangles 0, raw triangles 1, internal version 11
        v128 l22: 7 vertices, 3 triangles, normal [0.0, 0.0, 1.0], box [0.0, 0.0, 0.0]..[64.0, 64.0, 32.0]
          section 0: first index 0, vertices 0..=3, 2 triangles [[0, 1, 2], [0, 2, 3]], material 0 (Wood)
          section 1: first index 6, vertices 4..=6, 1 triangles [[4, 5, 6]], material 1 (WoodBlend)
          uv set 0: [[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0], [0.0, 0.0], [1.0, 0.0], [0.0, 1.0]]
          materials [(3, true), (5, true)], colours 7, alphas 7, wireframe 4, collision triangles 3, raw triangles 1, internal version 11
    "#]]
    .assert_eq(&all);
}

#[test]
fn static_mesh_before_version_112_merges_the_sections_streams() {
    let mut all = String::new();
    for (version, licensee) in [(111, 29), (110, 29), (110, 4), (100, 0)] {
        all.push_str(&describe(version, licensee));
    }
    expect![[r#"
        v111 l29: 7 vertices, 3 triangles, normal [0.0, 0.0, 1.0], box [0.0, 0.0, 0.0]..[64.0, 64.0, 32.0]
          section 0: first index 0, vertices 0..=3, 2 triangles [[0, 1, 2], [0, 2, 3]], material 0 (Wood)
          section 1: first index 6, vertices 4..=6, 1 triangles [[4, 5, 6]], material 1 (WoodBlend)
          uv set 0: [[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0], [0.0, 0.0], [1.0, 0.0], [0.0, 1.0]]
          uv set 1: [[0.0, 0.0], [2.0, 0.0], [2.0, 2.0], [0.0, 2.0], [0.0, 0.0], [2.0, 0.0], [0.0, 2.0]]
          materials [(3, true), (5, true)], colours 0, alphas 0, wireframe 0, collision triangles 0, raw triangles 1, internal version 11
        v110 l29: 7 vertices, 3 triangles, normal [0.0, 0.0, 1.0], box [0.0, 0.0, 0.0]..[64.0, 64.0, 32.0]
          section 0: first index 0, vertices 0..=3, 2 triangles [[0, 1, 2], [0, 2, 3]], material 0 (Wood)
          section 1: first index 6, vertices 4..=6, 1 triangles [[4, 5, 6]], material 1 (WoodBlend)
          uv set 0: [[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0], [0.0, 0.0], [1.0, 0.0], [0.0, 1.0]]
          uv set 1: [[0.0, 0.0], [2.0, 0.0], [2.0, 2.0], [0.0, 2.0], [0.0, 0.0], [2.0, 0.0], [0.0, 2.0]]
          materials [(3, true), (5, true)], colours 0, alphas 0, wireframe 0, collision triangles 0, raw triangles 1, internal version 11
        v110 l4: 7 vertices, 3 triangles, normal [0.0, 0.0, 1.0], box [0.0, 0.0, 0.0]..[64.0, 64.0, 32.0]
          section 0: first index 0, vertices 0..=3, 2 triangles [[0, 1, 2], [0, 2, 3]], material 0 (Wood)
          section 1: first index 6, vertices 4..=6, 1 triangles [[4, 5, 6]], material 1 (WoodBlend)
          uv set 0: [[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0], [0.0, 0.0], [1.0, 0.0], [0.0, 1.0]]
          materials [(3, true), (5, true)], colours 0, alphas 0, wireframe 0, collision triangles 0, raw triangles 1, internal version 11
        v100 l0: 7 vertices, 3 triangles, normal [0.0, 0.0, 1.0], box [0.0, 0.0, 0.0]..[64.0, 64.0, 32.0]
          section 0: first index 0, vertices 0..=3, 2 triangles [[0, 1, 2], [0, 2, 3]], material 0 (Wood)
          section 1: first index 6, vertices 4..=6, 1 triangles [[4, 5, 6]], material 1 (WoodBlend)
          uv set 0: [[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0], [0.0, 0.0], [1.0, 0.0], [0.0, 1.0]]
          materials [(3, true), (5, true)], colours 0, alphas 0, wireframe 0, collision triangles 0, raw triangles 1, internal version 11
    "#]]
    .assert_eq(&all);
}

#[test]
fn info_details_name_the_geometry_and_the_animations() {
    let summary = summarize(&writers::ue2_static_package(128, 29), "Crates.usx").unwrap();
    let skeletal =
        summarize(&writers::ue2_skeletal_package(126, 29, "AssaultRifle_1st"), "Weapons.ukx")
            .unwrap();
    expect![[r#"
        package version 128 (licensee 29), flags 0x00000001
        names 21, imports 6, exports 5
          path          class           size  detail
          Meshes        Package            0
          Meshes.Crate  StaticMesh       615  7 vertices, 3 triangles, 2 sections, 2 materials, 1 UV set
          Wood          Texture           48  RGBA8 2x2, 1 mip
          WoodShader    Shader             4
          WoodBlend     FinalBlend         4

        package version 126 (licensee 29), flags 0x00000001
        names 18, imports 4, exports 3
          path              class              size  detail
          AssaultRifle_1st  MeshAnimation       437  2 bones, 2 sequences, 14 frames
          AssaultRifle_1st  SkeletalMesh        564  4 points, 4 wedges, 2 faces, 2 bones, 4 influences, 1 material, 1 LOD
          Skin              Texture              48  RGBA8 2x2, 1 mip
    "#]]
    .assert_eq(&format!("{summary}\n{skeletal}"));
}

#[test]
fn mesh_animation_reads_bones_sequences_and_motion() {
    let mut read = Vec::new();
    for version in [111u16, 114, 115, 126, 128] {
        let bytes = writers::ue2_skeletal_package(version, 29, "AssaultRifle_1st");
        let package = Package::parse(&bytes).unwrap();
        let export = package
            .find_all("AssaultRifle_1st")
            .into_iter()
            .find(|&i| package.class_name(i) == "MeshAnimation")
            .unwrap();
        read.push(format!("{:#?}", package.read_mesh_animation_ue2(export).unwrap()));
    }
    // Notify objects from 112 and bookmarks from 115 change the layout, not what is read.
    assert!(read.iter().all(|r| *r == read[0]));
    expect![[r#"
        MeshAnimationUe2 {
            internal_version: 6,
            bones: [
                AnimationBone {
                    name: "Bone_Root",
                    flags: 0,
                    parent: 0,
                },
                AnimationBone {
                    name: "Bone_Tip",
                    flags: 0,
                    parent: 0,
                },
            ],
            moves: 2,
            keys: 16,
            sequences: [
                AnimationSequence {
                    name: "Idle",
                    groups: [
                        "Weapon",
                    ],
                    start_frame: 0,
                    frames: 10,
                    rate: 15.0,
                    notifies: 1,
                },
                AnimationSequence {
                    name: "Fire",
                    groups: [],
                    start_frame: 0,
                    frames: 4,
                    rate: 30.0,
                    notifies: 0,
                },
            ],
        }"#]]
    .assert_eq(&read[0]);
}

/// The `.usx` with the mesh's body (properties included) cut to `cut` bytes.
fn truncated_static_package(cut: usize) -> Vec<u8> {
    let mut w = PackageWriter::new(128, 29);
    let mesh = w.engine_class("StaticMesh");
    let materials = w.name("Materials");
    let material = w.name("Material");
    let enable = w.name("EnableCollision");
    w.export(
        mesh,
        0,
        "Crate",
        0,
        Box::new(move |o, w| {
            let value = writers::ue2_static_mesh_materials(29, &[0, 0], material, enable, w.none());
            let list = writers::Prop {
                name: materials,
                type_id: 9,
                struct_name: None,
                array_index: 0,
                bool_value: false,
                value,
            };
            write_props(o, &[list], w.none());
            writers::ue2_static_mesh(o, 29, &[]);
            o.buf.truncate(cut);
        }),
    );
    w.finish()
}

#[test]
fn every_truncation_is_a_precise_error() {
    let full = truncated_static_package(usize::MAX);
    let package = Package::parse(&full).unwrap();
    assert!(package.read_static_mesh_ue2(0).is_ok());
    let body_len = package.export(0).unwrap().serial_size;
    let mut middle = None;
    for cut in 0..body_len {
        let bytes = truncated_static_package(cut);
        let package = Package::parse(&bytes).unwrap();
        let err = package.read_static_mesh_ue2(0).unwrap_err().to_string();
        assert!(err.starts_with("StaticMesh Crate (export 0) at byte "), "cut {cut}: {err}");
        if cut == body_len / 2 {
            middle = Some(err);
        }
    }
    expect!["StaticMesh Crate (export 0) at byte 497: expected ColorStream count of 7 items of at least 4 bytes to fit in the 21 bytes left"].assert_eq(&middle.unwrap());
}

#[test]
fn every_truncated_animation_is_a_precise_error() {
    let mut middle = None;
    let body_len = {
        let bytes = writers::ue2_skeletal_package(126, 29, "AssaultRifle_1st");
        Package::parse(&bytes).unwrap().export(0).unwrap().serial_size
    };
    for cut in 0..body_len {
        let mut w = PackageWriter::new(126, 29);
        let animation = w.engine_class("MeshAnimation");
        let bones = vec![w.name("Bone_Root"), w.name("Bone_Tip")];
        let sequences = vec![(w.name("Idle"), 10, 15.0f32), (w.name("Fire"), 4, 30.0)];
        let group = w.name("Weapon");
        w.export(
            animation,
            0,
            "AssaultRifle_1st",
            0,
            Box::new(move |o, w| {
                write_props(o, &[], w.none());
                writers::ue2_mesh_animation(o, &bones, &sequences, group, 2);
                o.buf.truncate(cut);
            }),
        );
        let bytes = w.finish();
        let package = Package::parse(&bytes).unwrap();
        let err = package.read_mesh_animation_ue2(0).unwrap_err().to_string();
        assert!(
            err.starts_with("MeshAnimation AssaultRifle_1st (export 0) at byte "),
            "cut {cut}: {err}"
        );
        if cut == body_len / 2 {
            middle = Some(err);
        }
    }
    expect!["MeshAnimation AssaultRifle_1st (export 0) at byte 444: expected Move RootSpeed3D, TrackTime, StartBone, Flags (24 bytes), but the file ends after 10 more"].assert_eq(&middle.unwrap());
}

#[test]
fn licensee_layouts_and_ue1_are_refused_by_name() {
    let mut errors = String::new();
    for (version, licensee) in [(128, 33), (99, 0)] {
        let bytes = writers::ue2_static_package(version, licensee);
        let package = Package::parse(&bytes).unwrap();
        let err = package.read_static_mesh_ue2(package.find("Meshes.Crate").unwrap());
        writeln!(errors, "{}", err.unwrap_err()).unwrap();
    }
    expect![[r#"
        StaticMesh Meshes.Crate (export 1) at byte 397: expected a StaticMesh of Epic's UE2 layout (licensee 0 to 29, UT2003 and UT2004), found licensee 33: this licensee's engine changed the layout, which is not known here
        StaticMesh Meshes.Crate (export 1) at byte 381: expected a UE2 StaticMesh (package version 100 or later), found package version 99
    "#]]
    .assert_eq(&errors);
}

/// Hostile counts and indices are refused before anything is allocated or drawn.
#[test]
fn hostile_counts_and_indices_are_refused() {
    let bytes = writers::ue2_static_package(128, 29);
    // The shared index buffer: 9 indices (count byte 9), then 0 1 2 0 2 3 4 5 6.
    let pattern: Vec<u8> = [9u8]
        .into_iter()
        .chain([0u16, 1, 2, 0, 2, 3, 4, 5, 6].iter().flat_map(|i| i.to_le_bytes()))
        .collect();
    let at = bytes.windows(pattern.len()).position(|w| w == pattern).unwrap();
    let mut errors = String::new();
    // A count of 2^30 - 1 indices.
    let mut huge = bytes.clone();
    huge[at..at + 5].copy_from_slice(&[0x7f, 0xff, 0xff, 0xff, 0x07]);
    // An index past the 7 vertices.
    let mut past = bytes.clone();
    past[at + 1..at + 3].copy_from_slice(&7u16.to_le_bytes());
    for case in [huge, past] {
        let package = Package::parse(&case).unwrap();
        let err = package.read_static_mesh_ue2(package.find("Meshes.Crate").unwrap());
        writeln!(errors, "{}", err.unwrap_err()).unwrap();
    }
    expect![[r#"
        StaticMesh Meshes.Crate (export 1) at byte 802: expected IndexBuffer count of 1073741823 items of at least 2 bytes to fit in the 193 bytes left
        StaticMesh Meshes.Crate (export 1) at byte 439: expected section 0's indices to be below the 7 vertices, found 7
    "#]]
    .assert_eq(&errors);
}

/// A strip section (the engine's PS2 builds) draws `primitives` triangles of alternating
/// winding from `primitives + 2` indices, leaving out the degenerate ones stripping adds.
#[test]
fn strip_sections_are_unrolled_without_degenerate_triangles() {
    use unreal_formats::decode::ue2_static_mesh::{BoundingBox, StaticMeshSection, StaticMeshUe2};
    let section = StaticMeshSection {
        is_strip: true,
        first_index: 1,
        min_vertex_index: 0,
        max_vertex_index: 5,
        triangles: 3,
        primitives: 5,
        material: 0,
    };
    let mesh = StaticMeshUe2 {
        internal_version: 11,
        bounding_box: BoundingBox { min: [0.0; 3], max: [0.0; 3], valid: false },
        sections: vec![section.clone()],
        positions: vec![[0.0; 3]; 6],
        normals: vec![[0.0; 3]; 6],
        colors: 0,
        alphas: 0,
        uv_sets: Vec::new(),
        // Index 0 belongs to no section; the strip 0 1 2 3 3 4 5 repeats 3 to join two runs.
        indices: vec![9, 0, 1, 2, 3, 3, 4, 5],
        wireframe_indices: 0,
        materials: Vec::new(),
        material_names: Vec::new(),
        collision_triangles: 0,
        raw_triangles: 0,
        collision_model: unreal_formats::package::ObjectRef(0),
        physics_props: unreal_formats::package::ObjectRef(0),
    };
    assert_eq!(mesh.section_triangles(&section), [[0, 1, 2], [2, 1, 3], [3, 4, 5]]);
    assert_eq!(mesh.triangle_count(), 3);
}
