//! UE2 `VertMesh` objects built by the test-support writer (laid out as UT2004's
//! `UVertMesh::Serialize` writes them) read back; every truncation of one, a hostile count and
//! a licensee's package give precise errors.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::pedantic)]

use expect_test::expect;
use unreal_formats::package::{ObjectRef, Package};
use unreal_formats::summarize;
use unreal_test_support::writers::{self, write_props, PackageWriter};

#[test]
#[allow(clippy::float_cmp)] // exact: eighths and quarters of integers
fn a_vert_mesh_reads_back_as_the_game_draws_it() {
    for version in [119u16, 126, 128] {
        let bytes = writers::ue2_vert_mesh_package(version, 29, "Banner");
        let package = Package::parse(&bytes).unwrap();
        let read = package.read_vert_mesh_ue2(package.find("Banner").unwrap()).unwrap();
        let mesh = &read.mesh;
        // Two frames of ModelVerts (4) vertices, decoded as a `.3d` file's: eighths of the raw
        // X and Y, quarters of Z.
        assert_eq!((mesh.frames, mesh.vertices_per_frame), (2, 4), "version {version}");
        for (f, frame) in writers::VERT_MESH_FRAMES.iter().enumerate() {
            let decoded: Vec<[f32; 3]> = frame
                .iter()
                .map(|p| [p[0] as f32 / 8.0, p[1] as f32 / 8.0, p[2] as f32 / 4.0])
                .collect();
            assert_eq!(mesh.frame(f).unwrap(), decoded.as_slice());
        }
        // The invisible face is left out; the others keep their wedges' float coordinates.
        assert_eq!(mesh.faces.len(), 2);
        assert_eq!(mesh.faces[0].vertices, [0, 1, 2]);
        assert_eq!(mesh.faces[1].uvs, [[0.0, 0.0], [1.0, 0.5], [0.0, 0.5]]);
        assert_eq!(mesh.materials.len(), 1);
        assert_eq!((mesh.materials[0].slot, mesh.materials[0].texture), (0, Some(ObjectRef(2))));
        assert_eq!(read.materials, [ObjectRef(2)]);
        let (scale, origin, rot_origin) = writers::VERT_MESH_SPACE;
        assert_eq!((read.scale, read.origin, read.rot_origin), (scale, origin, rot_origin));
        assert_eq!(read.first_frame_box, Some([[0.0; 3], [512.0, 256.0, 0.0]]));
        assert_eq!(mesh.sequences.len(), 1);
        assert_eq!(
            (mesh.sequences[0].name.as_str(), mesh.sequences[0].frames, mesh.sequences[0].rate),
            ("Wave", 2, 10.0)
        );
        // The geometry reader every mesh export goes through takes it too.
        assert_eq!(&package.read_mesh_geometry(0).unwrap(), mesh);
    }
    let bytes = writers::ue2_vert_mesh_package(128, 29, "Banner");
    expect![[r#"
        package version 128 (licensee 29), flags 0x00000001
        names 13, imports 3, exports 2
          path    class         size  detail
          Banner  VertMesh       411  2 faces, 4 vertices, 2 frames, 1 material, 1 sequence
          Skin    Texture         48  RGBA8 2x2, 1 mip
    "#]]
    .assert_eq(&summarize(&bytes, "Flags.ukx").unwrap().to_string());
}

/// The package with its mesh's body (properties included) cut to `cut` bytes.
fn cut_package(cut: usize) -> Vec<u8> {
    let mut w = PackageWriter::new(128, 29);
    let mesh = w.engine_class("VertMesh");
    let sequence = w.name("Wave");
    w.export(
        mesh,
        0,
        "Banner",
        0,
        Box::new(move |o, w| {
            write_props(o, &[], w.none());
            writers::ue2_vert_mesh(o, &[0], sequence);
            o.buf.truncate(cut);
        }),
    );
    w.finish()
}

#[test]
fn every_truncation_is_a_precise_error() {
    let body_len = {
        let full = cut_package(usize::MAX);
        let package = Package::parse(&full).unwrap();
        assert!(package.read_vert_mesh_ue2(0).is_ok());
        package.export(0).unwrap().serial_size
    };
    let mut middle = None;
    for cut in 0..body_len {
        let bytes = cut_package(cut);
        let package = Package::parse(&bytes).unwrap();
        let err = package.read_vert_mesh_ue2(0).unwrap_err().to_string();
        assert!(err.starts_with("VertMesh Banner (export 0) at byte "), "cut {cut}: {err}");
        if cut == body_len / 2 {
            middle = Some(err);
        }
    }
    expect!["VertMesh Banner (export 0) at byte 360: expected MeshMaterials count of 2 items of at least 8 bytes to fit in the 15 bytes left"].assert_eq(&middle.unwrap());
}

#[test]
fn licensee_layouts_ue1_and_hostile_counts_are_refused() {
    let bytes = writers::ue2_vert_mesh_package(128, 33, "Banner");
    let package = Package::parse(&bytes).unwrap();
    let err = package.read_vert_mesh_ue2(0).unwrap_err().to_string();
    expect!["VertMesh Banner (export 0) at byte 235: expected a VertMesh of Epic's UE2 layout (licensee 0 to 29, UT2003 and UT2004), found licensee 33: this licensee's engine changed the layout, which is not known here"].assert_eq(&err);
    let bytes = writers::ue2_vert_mesh_package(69, 0, "Banner");
    let package = Package::parse(&bytes).unwrap();
    let err = package.read_vert_mesh_ue2(0).unwrap_err().to_string();
    expect!["VertMesh Banner (export 0) at byte 235: expected a UE2 VertMesh (package version 100 or later), found package version 69"].assert_eq(&err);
    // Verts claiming 2^30 - 1 vertices: the count stands before the first packed vertex
    // (0, 0, 0), then (512, 0, 0).
    let mut bytes = writers::ue2_vert_mesh_package(128, 29, "Banner");
    let mut pattern = vec![8u8, 0, 0, 0, 0];
    pattern.extend_from_slice(&512u32.to_le_bytes());
    let at = bytes.windows(pattern.len()).position(|w| w == pattern).unwrap();
    bytes[at..at + 5].copy_from_slice(&[0x7f, 0xff, 0xff, 0xff, 0x07]);
    let package = Package::parse(&bytes).unwrap();
    let err = package.read_vert_mesh_ue2(0).unwrap_err().to_string();
    expect!["VertMesh Banner (export 0) at byte 289: expected Verts count of 1073741823 items of at least 4 bytes to fit in the 356 bytes left"].assert_eq(&err);
}
