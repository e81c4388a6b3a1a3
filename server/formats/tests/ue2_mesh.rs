//! UE2 `SkeletalMesh` objects built by the test-support writer (laid out as measured in
//! UT2004's `.ukx` files) read back; every truncation of one, and a licensee's package, give
//! precise errors.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::pedantic)]

use expect_test::expect;
use unreal_formats::package::Package;
use unreal_formats::summarize;
use unreal_test_support::writers::{self, write_props, PackageWriter};

fn mesh_export(package: &Package<'_>) -> usize {
    package
        .find_all("AssaultRifle_1st")
        .into_iter()
        .find(|&i| package.class_name(i) == "SkeletalMesh")
        .unwrap()
}

#[test]
fn skeletal_mesh_reads_back_in_every_ut2004_version() {
    for version in [119u16, 120, 122, 124, 125, 126, 127, 128] {
        let bytes = writers::ue2_skeletal_package(version, 29, "AssaultRifle_1st");
        let package = Package::parse(&bytes).unwrap();
        let mesh = package.read_skeletal_mesh_ue2(mesh_export(&package)).unwrap();
        assert_eq!(
            (mesh.points.len(), mesh.wedges.len(), mesh.faces.len(), mesh.influences.len()),
            (4, 4, 2, 4),
            "version {version}"
        );
        assert_eq!(mesh.material_names, ["Skin"]);
        assert_eq!(
            mesh.bones.iter().map(|b| b.name.as_str()).collect::<Vec<_>>(),
            ["Bone_Root", "Bone_Tip"]
        );
        assert_eq!((mesh.internal_version, mesh.lods), (4, 1));
        // Back to the PSK's axes: Y flipped, faces' last two wedges swapped, rotations' Y and W
        // negated.
        let psk = mesh.to_psk();
        assert_eq!(psk.points[2], [64.0, -64.0, 0.0]);
        assert_eq!(psk.faces[0].wedges, [0, 2, 1]);
        assert_eq!(psk.bones[1].rotation, [0.0, -0.0, 0.0, -1.0]);
        assert_eq!(psk.bones[1].parent, 0);
        // The mirror is its own inverse: the PSK mirrored again is what the mesh stores.
        assert_eq!(psk.mirrored_y(), mesh.engine_psk());
    }
    let bytes = writers::ue2_skeletal_package(126, 29, "AssaultRifle_1st");
    let summary = summarize(&bytes, "Weapons.ukx").unwrap().to_string();
    expect![[r#"
        package version 126 (licensee 29), flags 0x00000001
        names 18, imports 4, exports 3
          path              class              size  detail
          AssaultRifle_1st  MeshAnimation       437  2 bones, 2 sequences, 14 frames
          AssaultRifle_1st  SkeletalMesh        564  4 points, 4 wedges, 2 faces, 2 bones, 4 influences, 1 material, 1 LOD
          Skin              Texture              48  RGBA8 2x2, 1 mip
    "#]]
    .assert_eq(&summary);
}

#[test]
fn every_truncation_is_a_precise_error() {
    let full = writers::ue2_skeletal_package(126, 29, "AssaultRifle_1st");
    let package = Package::parse(&full).unwrap();
    let export = mesh_export(&package);
    let body_len = package.export(export).unwrap().serial_size;
    let mut first = None;
    for cut in 0..body_len {
        // The same package with the mesh's body cut to `cut` bytes (its properties included).
        let mut w = PackageWriter::new(126, 29);
        let animation = w.engine_class("MeshAnimation");
        let mesh = w.engine_class("SkeletalMesh");
        w.export(
            animation,
            0,
            "AssaultRifle_1st",
            0,
            Box::new(|o, w| write_props(o, &[], w.none())),
        );
        let bones = vec![w.name("Bone_Root"), w.name("Bone_Tip")];
        w.export(
            mesh,
            0,
            "AssaultRifle_1st",
            0,
            Box::new(move |o, w| {
                write_props(o, &[], w.none());
                writers::ue2_skeletal_mesh(o, &[0], &bones);
                o.buf.truncate(cut);
            }),
        );
        let bytes = w.finish();
        let package = Package::parse(&bytes).unwrap();
        let err = package.read_skeletal_mesh_ue2(1).unwrap_err().to_string();
        assert!(
            err.starts_with("SkeletalMesh AssaultRifle_1st (export 1) at byte "),
            "cut {cut}: {err}"
        );
        if cut == body_len / 2 {
            first = Some(err);
        }
    }
    expect!["SkeletalMesh AssaultRifle_1st (export 1) at byte 411: expected RefSkeleton count of 2 items of at least 57 bytes to fit in the 101 bytes left"]
    .assert_eq(&first.unwrap());
}

#[test]
fn licensee_layouts_and_ue1_are_refused_by_name() {
    let bytes = writers::ue2_skeletal_package(128, 33, "AssaultRifle_1st");
    let package = Package::parse(&bytes).unwrap();
    let err = package.read_skeletal_mesh_ue2(mesh_export(&package)).unwrap_err().to_string();
    expect!["SkeletalMesh AssaultRifle_1st (export 1) at byte 763: expected a SkeletalMesh of Epic's UE2 layout (licensee 0 to 29, UT2003 and UT2004), found licensee 33: this licensee's engine changed the layout, which is not known here"]
    .assert_eq(&err);
    let bytes = writers::ue2_skeletal_package(69, 0, "AssaultRifle_1st");
    let package = Package::parse(&bytes).unwrap();
    let err = package.read_skeletal_mesh_ue2(mesh_export(&package)).unwrap_err().to_string();
    expect!["SkeletalMesh AssaultRifle_1st (export 1) at byte 754: expected a UE2 SkeletalMesh (package version 100 or later), found package version 69"]
    .assert_eq(&err);
}

/// A hostile count (RawVerts claiming 2^30 - 1 points) is refused before anything is
/// allocated, naming the count and the bytes left.
#[test]
fn hostile_counts_are_refused_before_allocation() {
    let mut bytes = writers::ue2_skeletal_package(126, 29, "AssaultRifle_1st");
    // The raw points: (0,0,0), (64,0,0), (64,64,0); the count byte stands before them.
    let mut pattern = vec![0u8; 12];
    pattern.extend_from_slice(&64f32.to_le_bytes());
    pattern.extend_from_slice(&[0; 8]);
    pattern.extend_from_slice(&64f32.to_le_bytes());
    pattern.extend_from_slice(&64f32.to_le_bytes());
    let points = bytes.windows(pattern.len()).position(|w| w == pattern).unwrap();
    assert_eq!(bytes[points - 1], 4);
    // A five-byte compact index, written over the count and the first point's bytes.
    bytes[points - 1..points + 4].copy_from_slice(&[0x7f, 0xff, 0xff, 0xff, 0x07]);
    let package = Package::parse(&bytes).unwrap();
    let err = package.read_skeletal_mesh_ue2(mesh_export(&package)).unwrap_err().to_string();
    expect!["SkeletalMesh AssaultRifle_1st (export 1) at byte 1153: expected RawVerts count of 1073741823 items of at least 12 bytes to fit in the 173 bytes left"]
    .assert_eq(&err);
}
