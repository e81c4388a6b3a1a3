//! Files built by our own writers for every version branch and optional chunk, read back.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::pedantic)]

mod common;

use std::fmt::Write as _;

use unreal_formats::package::{Package, PropertyValue, RF_HAS_STACK};
use unreal_formats::psk::{Psa, Psk};
use unreal_formats::u3d::U3d;
use unreal_formats::vertex_mesh::VertexMesh;
use unreal_formats::{summarize, Summary};
use unreal_test_support::writers::{self, write_props, Obj, PackageWriter, Prop};

fn prop(name: usize, type_id: u8, value: Vec<u8>) -> Prop {
    Prop { name, type_id, struct_name: None, array_index: 0, bool_value: false, value }
}

/// A mip: lazy pixel array, then USize, VSize, UBits, VBits.
fn mip(o: &mut Obj, w: u32, h: u32, bytes: usize) {
    o.lazy(bytes, &vec![7u8; bytes]);
    o.u32(w).u32(h).u8(w.trailing_zeros() as u8).u8(h.trailing_zeros() as u8);
}

/// A package of `version` holding one object of every kind this crate reads.
fn build_package(version: u16, licensee: u16) -> Vec<u8> {
    let mut w = PackageWriter::new(version, licensee);
    let texture = w.engine_class("Texture");
    let palette = w.engine_class("Palette");
    let sound = w.engine_class("Sound");
    let music = w.engine_class("Music");
    let font = w.engine_class("Font");
    let text = w.import("Core", "Class", 0, "TextBuffer");
    let mesh = w.engine_class("Mesh");
    let actor = w.engine_class("Actor");
    let package = w.import("Core", "Class", 0, "Package");
    let ue2 = version >= 100;

    let skins = w.export(package, 0, "Skins", 0, Box::new(|o, w| write_props(o, &[], w.none())));
    let pal = w.export(
        palette,
        skins,
        "Pal",
        0,
        Box::new(|o, w| {
            write_props(o, &[], w.none());
            o.index(256);
            for i in 0..=255u8 {
                o.bytes(&[i, i, i, 17]);
            }
        }),
    );
    let names =
        ["Format", "USize", "VSize", "Palette", "bHasComp", "CompFormat", "UClamp", "VClamp"];
    for n in names {
        w.name(n);
    }
    let version_has_comp = !ue2;
    w.export(
        texture,
        skins,
        "Wood",
        0,
        Box::new(move |o, w| {
            let n = |s: &str| w.names.iter().position(|x| x == s).unwrap();
            let mut props = vec![
                prop(n("USize"), 2, 16u32.to_le_bytes().to_vec()),
                prop(n("VSize"), 2, 8u32.to_le_bytes().to_vec()),
                prop(n("Palette"), 5, writers::compact(pal)),
            ];
            if version_has_comp {
                props.push(Prop { bool_value: true, ..prop(n("bHasComp"), 3, Vec::new()) });
                props.push(prop(n("CompFormat"), 1, vec![3]));
            }
            write_props(o, &props, w.none());
            o.index(2);
            mip(o, 16, 8, 128);
            mip(o, 8, 4, 32);
            if version_has_comp {
                o.index(1);
                mip(o, 16, 8, 64); // DXT1: 4 x 2 blocks of 8 bytes
            }
        }),
    );
    w.export(
        texture,
        skins,
        "Shiny",
        0,
        Box::new(move |o, w| {
            let n = |s: &str| w.names.iter().position(|x| x == s).unwrap();
            // RGBA8 is 5 in both generations; DXT5 is 7 in UE1 (469) and 8 in UE2.
            let dxt5 = if ue2 { 8 } else { 7 };
            write_props(o, &[prop(n("Format"), 1, vec![dxt5])], w.none());
            o.index(1);
            mip(o, 8, 8, 64);
        }),
    );
    w.export(
        sound,
        0,
        "Beep",
        0,
        Box::new(move |o, w| {
            write_props(o, &[], w.none());
            let wav = writers::wav(11025, 8, 1, 1103);
            o.index(w.names.iter().position(|x| x == "WAV").unwrap() as i32);
            if ue2 && licensee >= 2 {
                // UT2004's Likelihood.
                o.bytes(&1.0f32.to_le_bytes());
            }
            o.lazy(wav.len(), &wav);
        }),
    );
    w.name("WAV");
    w.name("IT");
    w.export(
        music,
        0,
        "Song",
        0,
        Box::new(|o, w| {
            write_props(o, &[], w.none());
            o.index(w.names.iter().position(|x| x == "IT").unwrap() as i32);
            o.lazy(4, b"IMPM");
        }),
    );
    if !ue2 && version > 63 {
        w.export(
            font,
            0,
            "Small",
            0,
            Box::new(move |o, w| {
                write_props(o, &[], w.none());
                o.index(1).index(pal); // one page; its texture reference
                o.index(2);
                for c in 0..2 {
                    o.i32(c * 8).i32(0).i32(8).i32(8);
                }
                o.i32(256);
            }),
        );
    }
    let class = w.export(0, 0, "MyActor", 0, Box::new(|_, _| {}));
    w.exports.last_mut().unwrap().super_ = actor;
    w.export(
        text,
        class,
        "ScriptText",
        0,
        Box::new(|o, w| {
            write_props(o, &[], w.none());
            o.u32(0).u32(0).fstring("class MyActor extends Actor;\r\n");
        }),
    );
    // An object saved with its script state, and one property of every type.
    for n in [
        "Health", "Speed", "bHidden", "Tag", "Label", "Old", "Location", "Rotation", "Pad",
        "Extra", "Vector", "Team",
    ] {
        w.name(n);
    }
    w.export(
        actor,
        0,
        "MyActor0",
        RF_HAS_STACK,
        Box::new(move |o, w| {
            let n = |s: &str| w.names.iter().position(|x| x == s).unwrap();
            if version >= 55 {
                o.index(class).index(0).bytes(&[0; 8]).u32(0).index(12); // state frame with Node
            } else {
                // Before 51 the frame names a class and a node number (no node, so no code
                // offset), before 52 another class follows, before 55 no latent action.
                o.index(class).i32(3).index(class).bytes(&[0; 8]);
            }
            let vec3: Vec<u8> = [1.0f32, 2.0, 3.0].iter().flat_map(|f| f.to_le_bytes()).collect();
            let rot: Vec<u8> = [1i32, 2, 3].iter().flat_map(|f| f.to_le_bytes()).collect();
            let mut label = writers::compact(6);
            label.extend_from_slice(b"hello\0");
            let props = vec![
                prop(n("Team"), 1, vec![3]),
                prop(n("Health"), 2, 100i32.to_le_bytes().to_vec()),
                Prop { array_index: 300, ..prop(n("Health"), 2, 5i32.to_le_bytes().to_vec()) },
                Prop { array_index: 70_000, ..prop(n("Health"), 2, 6i32.to_le_bytes().to_vec()) },
                prop(n("Speed"), 4, 1.5f32.to_le_bytes().to_vec()),
                Prop { bool_value: true, ..prop(n("bHidden"), 3, Vec::new()) },
                prop(n("Tag"), 6, writers::compact(n("Team") as i32)),
                prop(n("Label"), 13, label),
                prop(n("Old"), 7, b"fixed\0\0\0".to_vec()),
                Prop { struct_name: Some(n("Vector")), ..prop(n("Location"), 10, vec3) },
                prop(n("Rotation"), 12, rot),
                prop(n("Pad"), 9, vec![0; 300]),
            ];
            write_props(o, &props, w.none());
        }),
    );
    if !ue2 {
        w.export(mesh, 0, "Tri", 0, Box::new(move |o, w| write_mesh(o, w, version)));
    }
    w.finish()
}

/// A UE1 Mesh: UPrimitive bounds, then the UMesh fields the reader walks.
fn write_mesh(o: &mut Obj, w: &PackageWriter, version: u16) {
    write_props(o, &[], w.none());
    let sphere = if version > 61 { 16 } else { 12 };
    o.bytes(&[0; 25]).bytes(&vec![0; sphere]);
    let (verts, frames) = (3usize, 2usize);
    o.lazy(verts * frames, &vec![0; verts * frames * 4]);
    o.lazy(1, &[0; 20]);
    o.index(1); // one sequence
    o.index(w.names.iter().position(|x| x == "Team").unwrap() as i32)
        .index(0)
        .i32(0)
        .i32(2)
        .index(0)
        .f32(10.0);
    o.lazy(3, &[0; 24]);
    o.bytes(&[0; 25]).bytes(&vec![0; sphere]);
    o.lazy(1, &[0; 4]);
    o.index(1).index(0); // textures
    o.index(0).index(0); // bounding boxes, spheres
    o.i32(verts as i32).i32(frames as i32);
}

fn describe_package(bytes: &[u8]) -> String {
    let p = Package::parse_named(bytes, "Synth").unwrap();
    let mut s = format!(
        "v{} licensee {}: {} names, {} imports, {} exports\n",
        p.header.version,
        p.header.licensee,
        p.names.len(),
        p.imports.len(),
        p.exports.len()
    );
    for o in p.objects() {
        let detail = match o.class {
            "Texture" => {
                let t = p.read_texture(o.export).unwrap();
                let mips: Vec<String> = t
                    .mips
                    .iter()
                    .map(|m| format!("{}x{}:{}", m.width, m.height, m.data.len()))
                    .collect();
                let comp: Vec<String> = t
                    .comp_mips
                    .iter()
                    .map(|m| format!("{}x{}:{}", m.width, m.height, m.data.len()))
                    .collect();
                format!(
                    "{} {}x{} mips [{}] comp {:?} [{}] palette {}",
                    t.format.name(),
                    t.width,
                    t.height,
                    mips.join(" "),
                    t.comp_format.map(|f| f.name()),
                    comp.join(" "),
                    t.palette.map_or(String::new(), |r| p.ref_path(r))
                )
            }
            "Palette" => {
                let pal = p.read_palette(o.export).unwrap();
                format!("{} colours, colour 255 = {:?}", pal.colors.len(), pal.colors[255])
            }
            "Sound" | "Music" => {
                let snd = p.read_sound(o.export).unwrap();
                let wav = snd
                    .wav
                    .map(|w| w.map(|w| (w.sample_rate, w.bits_per_sample, w.data_size)).unwrap());
                format!("{} {} bytes wav {wav:?}", snd.format, snd.data.len())
            }
            "Font" => {
                let f = p.read_font(o.export).unwrap();
                format!(
                    "{} pages, {} characters on page 0",
                    f.pages.len(),
                    f.pages[0].characters.len()
                )
            }
            "TextBuffer" => format!("{:?}", p.read_text_buffer(o.export).unwrap().text),
            "Class" => format!("{:?}", p.read_class(o.export).unwrap()),
            "Mesh" => {
                let m = p.read_mesh(o.export).unwrap();
                format!(
                    "{} tris, {} verts, {} frames, seqs {:?}",
                    m.triangles,
                    m.vertices,
                    m.frames,
                    m.sequences.iter().map(|s| &s.name).collect::<Vec<_>>()
                )
            }
            _ => {
                let h = p.read_object_header(o.export).unwrap();
                let props: Vec<String> = h
                    .properties
                    .iter()
                    .map(|pr| {
                        let v = match &pr.value {
                            PropertyValue::Raw { type_id, bytes } => {
                                format!("raw type {type_id} {} bytes", bytes.len())
                            }
                            other => format!("{other:?}"),
                        };
                        format!(
                            "{}[{}]{}={v}",
                            pr.name,
                            pr.array_index,
                            pr.struct_name
                                .as_deref()
                                .map(|s| format!(" ({s})"))
                                .unwrap_or_default()
                        )
                    })
                    .collect();
                format!(
                    "state {:?} props {}",
                    h.state_frame.map(|f| (f.node, f.offset)),
                    props.join(", ")
                )
            }
        };
        writeln!(s, "  {} [{}] {}", o.path, o.class, detail).unwrap();
    }
    // Lookups: qualified, relative, any case.
    for path in ["Synth.Skins.Wood", "skins.wood", "SKINS.PAL", "Wood", "MyActor.ScriptText"] {
        writeln!(s, "  find {path:?} -> {:?}", p.find(path).map(|e| p.export_path(e))).unwrap();
    }
    s
}

#[test]
fn packages_of_every_version_read_back() {
    let mut out = String::new();
    for (version, licensee) in
        [(50, 0), (57, 0), (61, 0), (62, 0), (63, 0), (64, 0), (66, 0), (68, 0), (69, 0), (128, 29)]
    {
        writeln!(out, "== version {version}").unwrap();
        out.push_str(&describe_package(&build_package(version, licensee)));
    }
    expect_test::expect_file!["snapshots/synthetic_packages.txt"].assert_eq(&out);
}

#[test]
fn vertex_meshes_standard_and_deus_ex() {
    let tris = [([0u16, 1, 2], 0u8), ([2, 1, 3], 2)];
    let (d, a) = writers::vertex_mesh(&tris, 4, 3, false);
    let m = VertexMesh::parse(&d, &a).unwrap();
    assert_eq!(
        (m.data.triangles.len(), m.data.vertices, m.aniv.frames, m.bytes_per_vertex),
        (2, 4, 3, 4)
    );
    assert_eq!(m.data.texture_slots(), vec![0, 2]);
    assert_eq!(m.frame(2).unwrap()[3], [3.0, 2.0, -1.0]);

    let (d, a) = writers::vertex_mesh(&tris, 4, 3, true);
    let m = VertexMesh::parse(&d, &a).unwrap();
    assert_eq!(m.bytes_per_vertex, 8);
    assert_eq!(m.frame(1).unwrap()[2], [2.0, 1.0, -1.0]);

    // Bytes after the counted triangles and frames are ignored, as the engine ignores them
    // (and counted); a file shorter than its counts is refused; indices must be in range.
    let (mut d1, mut a1) = writers::vertex_mesh(&tris, 4, 3, false);
    d1.extend_from_slice(&[7; 353]);
    a1.extend_from_slice(&[9; 5]);
    let m = VertexMesh::parse(&d1, &a1).unwrap();
    assert_eq!((m.data.triangles.len(), m.aniv.frames), (2, 3));
    assert_eq!((m.data.unused_bytes, m.aniv.unused_bytes), (353, 5));
    assert_eq!(m.frame(2).unwrap()[3], [3.0, 2.0, -1.0]);
    let err = |d: &[u8], a: &[u8]| VertexMesh::parse(d, a).unwrap_err().to_string();
    let (mut d2, a2) = writers::vertex_mesh(&tris, 4, 3, false);
    d2.pop();
    expect_test::expect!["vertex mesh data file at byte 0: expected at least 48 + 16 x 2 triangles = 80 bytes, found 79 bytes"].assert_eq(&err(&d2, &a2));
    let (d3, mut a3) = writers::vertex_mesh(&tris, 4, 3, false);
    a3.pop();
    expect_test::expect!["vertex mesh animation file at byte 0: expected at least 4 + 3 frames x 16 bytes = 52 bytes, found 51 bytes"].assert_eq(&err(&d3, &a3));
    let (d4, a4) = writers::vertex_mesh(&[([0, 1, 9], 0)], 4, 1, false);
    expect_test::expect![
        "vertex mesh triangle 0 at byte 48: expected vertex indices below NumVertices 4, found 9"
    ]
    .assert_eq(&err(&d4, &a4));
    // A FrameSize above 4 bytes a vertex is padding the engine skips; below, a frame's last
    // vertices are the next frame's first (and past the end of the file, at the origin), as
    // the engine reads them.
    let (d4v, _) = writers::vertex_mesh(&tris, 4, 2, false);
    let (d5v, a5v) = writers::vertex_mesh(&tris, 5, 2, false);
    let (_, a4v) = writers::vertex_mesh(&tris, 4, 2, false);
    let padded = VertexMesh::parse(&d4v, &a5v).unwrap();
    let whole = VertexMesh::parse(&d5v, &a5v).unwrap();
    assert_eq!(padded.bytes_per_vertex, 4);
    assert_eq!(padded.frame(1).unwrap()[..], whole.frame(1).unwrap()[..4]);
    let short = VertexMesh::parse(&d5v, &a4v).unwrap();
    let exact = VertexMesh::parse(&d4v, &a4v).unwrap();
    assert_eq!(short.frame(0).unwrap()[4], exact.frame(1).unwrap()[0]);
    assert_eq!(short.frame(1).unwrap()[4], [0.0; 3]);
    assert_eq!(short.frame(2), None);
    let mut empty_frames = a4v.clone();
    empty_frames[2..4].copy_from_slice(&0u16.to_le_bytes());
    expect_test::expect!["vertex mesh animation header at byte 2: expected NumVertices and FrameSize above 0 (NumVertices x 4 = 16 bytes a frame), found 4 vertices and FrameSize 0"].assert_eq(&err(&d4v, &empty_frames));
}

#[test]
fn psk_with_every_optional_chunk() {
    for wide in [false, true] {
        let psk = Psk::parse(&writers::psk(wide)).unwrap();
        assert_eq!(
            (
                psk.points.len(),
                psk.wedges.len(),
                psk.faces.len(),
                psk.materials.len(),
                psk.bones.len(),
                psk.weights.len()
            ),
            (4, 4, 2, 1, 2, 4)
        );
        assert_eq!(psk.wedges[3].point, 3, "padding bytes after the point index are masked");
        assert_eq!(
            (
                psk.normals,
                psk.vertex_colors,
                psk.extra_uvs.clone(),
                psk.morphs.len(),
                psk.morph_data
            ),
            (4, 4, vec![4, 4], 1, 2)
        );
        assert_eq!(psk.unknown_chunks, vec!["SOMETHING".to_owned()]);
        assert_eq!(psk.faces[1].wedges, [0, 2, 3]);
    }
    let Summary::Psk(s) = summarize(&writers::psk(false), "quad.psk").unwrap() else { panic!() };
    expect_test::expect![[r#"
        PskSummary {
            points: 4,
            wedges: 4,
            faces: 2,
            materials: 1,
            bones: 2,
            weights: 4,
            normals: 4,
            vertex_colors: 4,
            extra_uvs: 2,
            morphs: 1,
            material_names: [
                "Skin0",
            ],
            unknown_chunks: [
                "SOMETHING",
            ],
        }
    "#]]
    .assert_debug_eq(&s);
}

#[test]
fn psa_with_and_without_scale_keys() {
    for scale in [false, true] {
        let psa = Psa::parse(&writers::psa(scale)).unwrap();
        assert_eq!((psa.bones.len(), psa.sequences.len(), psa.keys), (2, 2, 10));
        assert_eq!(psa.scale_keys, scale.then_some(10));
        assert_eq!(
            (psa.sequences[1].name.as_str(), psa.sequences[1].frames, psa.sequences[1].rate),
            ("Idle", 2, 30.0)
        );
    }
    let mut bad = writers::psa(false);
    // Drop one key: the key count no longer matches bones x frames.
    let n = bad.len();
    bad.truncate(n - 32);
    let keys_count_at = n - 32 * 10 - 4;
    bad[keys_count_at..keys_count_at + 4].copy_from_slice(&9i32.to_le_bytes());
    expect_test::expect![
        "ANIMKEYS chunk at byte 672: expected 2 bones x the sequences' frames = 10 keys, found 9"
    ]
    .assert_eq(&Psa::parse(&bad).unwrap_err().to_string());
}

#[test]
fn u3d_frame_and_skeletal_models() {
    let m = U3d::parse(&writers::u3d(3, 0)).unwrap();
    assert_eq!((m.meshes.len(), m.materials.len(), m.bones.len(), m.header.frames), (6, 2, 0, 3));
    assert_eq!(m.materials[0].textures[0].file, "textures\\Stone.bmp");
    assert!(m.materials[1].skipped_undocumented);
    let s = U3d::parse(&writers::u3d(4, 3)).unwrap();
    assert_eq!((s.meshes.len(), s.bones.len()), (2, 3));
    assert_eq!(s.bones[2].parent, Some(1));
    assert_eq!((s.bones[0].meshes.clone(), s.bones[0].rotation_keys.len()), (vec![0, 1], 2));
    let text = summarize(&writers::u3d(4, 3), "model.u3d").unwrap().to_string();
    expect_test::expect![[r#"
        Ultimate 3D model: 2 meshes (4 triangles, 8 vertices), 2 materials, 3 bones, 4 frames, 2 LODs
        textures: textures\Stone.bmp, textures\Glow.bmp
    "#]]
    .assert_eq(&text);
    let mut trailing = writers::u3d(1, 2);
    trailing.push(0);
    assert!(U3d::parse(&trailing).is_err());
}

/// Every geometry view of a skinned model with three stored weights, and of frame meshes
/// that reuse the first frame's triangles and texture coordinates.
#[test]
fn u3d_geometry_views() {
    let skinned = writers::u3d_with(&writers::U3dOptions {
        skin_weights: 3,
        undocumented_materials: true,
        ..writers::U3dOptions::new(4, 3)
    });
    let s = U3d::parse(&skinned).unwrap();
    let mesh = &s.meshes[0];
    let mut text = String::new();
    writeln!(text, "positions {:?}", mesh.positions).unwrap();
    let n = mesh.normal(0).unwrap().map(|c| (c * 1000.0).round() / 1000.0);
    writeln!(text, "normal 0 {n:?}").unwrap();
    writeln!(text, "uv 2 {:?}, set 1 of vertex 3 {:?}", mesh.uv(2), mesh.tex_coord(1, 3)).unwrap();
    writeln!(text, "skin 0 {:?}, skin 3 {:?}", mesh.skin(0), mesh.skin(3)).unwrap();
    writeln!(text, "triangles {:?} materials {:?}", s.triangles_of(0).0, s.triangles_of(0).1)
        .unwrap();
    for m in &s.materials {
        writeln!(
            text,
            "material {} diffuse {:?} ops {:?} textures {} skipped {}",
            m.name,
            m.diffuse,
            &m.color_ops[..2],
            m.textures.len(),
            m.skipped_undocumented
        )
        .unwrap();
    }
    for b in &s.bones {
        writeln!(
            text,
            "bone {} parent {:?} meshes {:?} transform row 4 {:?}",
            b.name,
            b.parent,
            b.meshes,
            b.mesh_transforms.first().map(|m| &m[12..])
        )
        .unwrap();
        writeln!(
            text,
            "  scaling {:?}\n  translation {:?}\n  rotation {:?}",
            b.scaling_keys, b.translation_keys, b.rotation_keys
        )
        .unwrap();
    }
    let frames = writers::u3d_with(&writers::U3dOptions {
        reuse_first_frame: true,
        ..writers::U3dOptions::new(3, 0)
    });
    let f = U3d::parse(&frames).unwrap();
    for i in 0..f.meshes.len() {
        let m = &f.meshes[i];
        writeln!(
            text,
            "frame mesh {i} frame {} lod {} owned {}/{} counterpart {:?} triangles {} uv of 1 {:?} top right {:?}",
            m.frame,
            m.lod,
            m.tex_coords_owned,
            m.triangles_owned,
            f.first_frame_counterpart(i),
            f.triangles_of(i).0.len(),
            f.tex_coord_source(i).and_then(|t| t.uv(1)),
            m.positions[2]
        )
        .unwrap();
    }
    expect_test::expect_file!["snapshots/u3d_geometry.txt"].assert_eq(&text);
}

/// The committed `.u3d` fixtures (exported and validated by `tests/gltf/run`) are what the
/// writer writes; `UPDATE_EXPECT=1` rewrites them.
#[test]
fn u3d_fixtures_match_the_writer() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/u3d");
    for (name, bytes) in writers::u3d_fixtures() {
        let path = dir.join(name);
        if std::env::var_os("UPDATE_EXPECT").is_some() {
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(&path, &bytes).unwrap();
        }
        let committed = std::fs::read(&path).unwrap_or_default();
        assert!(
            committed == bytes,
            "{} differs from the writer; run with UPDATE_EXPECT=1",
            path.display()
        );
        U3d::parse(&committed).unwrap();
    }
}

/// Errors name where they happened, though the names are built only for an error (table
/// entries, objects): a bad mip, a bad property, a class mismatch, an empty object, an
/// embedded WAV, a bad import outer, and the entries of the tables.
#[test]
fn errors_name_the_table_entry_and_the_object() {
    let mut w = PackageWriter::new(69, 0);
    let texture = w.engine_class("Texture");
    let sound = w.engine_class("Sound");
    let package = w.import("Core", "Class", 0, "Package");
    let skins = w.export(package, 0, "Skins", 0, Box::new(|o, w| write_props(o, &[], w.none())));
    // Mip 1 says 8x4 of P8 (32 bytes) over 30 bytes of data.
    w.export(
        texture,
        skins,
        "Short",
        0,
        Box::new(|o, w| {
            write_props(o, &[], w.none());
            o.index(2);
            mip(o, 16, 8, 128);
            mip(o, 8, 4, 30);
        }),
    );
    // A property name past the name table.
    w.export(
        texture,
        skins,
        "BadProp",
        0,
        Box::new(|o, _| {
            o.index(9999);
        }),
    );
    w.export(texture, 0, "Empty", 0, Box::new(|_, _| {}));
    w.name("WAV");
    w.export(
        sound,
        0,
        "Noise",
        0,
        Box::new(|o, w| {
            write_props(o, &[], w.none());
            o.index(w.names.iter().position(|x| x == "WAV").unwrap() as i32);
            o.lazy(6, b"RIFF\0\0");
        }),
    );
    let bytes = w.finish();
    let p = Package::parse(&bytes).unwrap();
    let mut out = String::new();
    for o in p.objects() {
        let i = o.export;
        // Every reader that checks the class (the mesh's and the palette's at least), the
        // ones that read any object, and the sound's embedded WAV.
        for (reader, result) in [
            ("texture", p.read_texture(i).map(|_| ())),
            ("palette", p.read_palette(i).map(|_| ())),
            ("header", p.read_object_header(i).map(|_| ())),
            ("sound", p.read_sound(i).and_then(|s| s.wav.map_or(Ok(()), |wav| wav.map(|_| ())))),
            ("mesh", p.read_mesh(i).map(|_| ())),
        ] {
            if let Err(e) = result {
                writeln!(out, "{} {reader}: {e}", o.path).unwrap();
            }
        }
    }
    // The tables: the entry's number is in the error.
    let header = &p.header;
    let mut bad = bytes.clone();
    bad[header.name_offset as usize] = 0x7f; // a name length whose continuation runs on
    for at in 1..5 {
        bad[header.name_offset as usize + at] = 0xff;
    }
    writeln!(out, "{}", Package::parse(&bad).unwrap_err()).unwrap();
    let mut bad = bytes.clone();
    // The last import's Package (outer) points past both tables. An import is three compact
    // indices of one byte (13 names) and the i32 outer after the first two.
    let last_import = header.import_offset as usize + 7 * (p.imports.len() - 1);
    bad[last_import + 2..last_import + 6].copy_from_slice(&1000i32.to_le_bytes());
    writeln!(out, "{}", Package::parse(&bad).unwrap_err()).unwrap();
    let mut bad = bytes.clone();
    bad[header.export_offset as usize] = 0x3f; // export 0's Class: export 63, past the table
    writeln!(out, "{}", Package::parse(&bad).unwrap_err()).unwrap();
    expect_test::expect![[r#"
        Skins texture: Package Skins (export 0) at byte 239: expected Mips count (1 bytes), but the file ends after 0 more
        Skins palette: Package Skins (export 0) at byte 238: expected an object of class Palette
        Skins sound: Package Skins (export 0) at byte 238: expected an object of class Sound or Music
        Skins mesh: Package Skins (export 0) at byte 238: expected an object of class Mesh or LodMesh or SkeletalMesh
        Skins.Short texture: Texture Skins.Short (export 1) at byte 390: expected Mips[1]: 32 bytes of P8 data for 8x4, found 30
        Skins.Short palette: Texture Skins.Short (export 1) at byte 239: expected an object of class Palette
        Skins.Short sound: Texture Skins.Short (export 1) at byte 239: expected an object of class Sound or Music
        Skins.Short mesh: Texture Skins.Short (export 1) at byte 239: expected an object of class Mesh or LodMesh or SkeletalMesh
        Skins.BadProp texture: Texture Skins.BadProp (export 2) at byte 430: expected a property name indexing one of 13 names, found 9999
        Skins.BadProp palette: Texture Skins.BadProp (export 2) at byte 430: expected an object of class Palette
        Skins.BadProp header: Texture Skins.BadProp (export 2) at byte 430: expected a property name indexing one of 13 names, found 9999
        Skins.BadProp sound: Texture Skins.BadProp (export 2) at byte 430: expected an object of class Sound or Music
        Skins.BadProp mesh: Texture Skins.BadProp (export 2) at byte 430: expected an object of class Mesh or LodMesh or SkeletalMesh
        Empty texture: Texture Empty (export 3) at byte 0: expected object data (the export has SerialSize 0)
        Empty palette: Texture Empty (export 3) at byte 0: expected an object of class Palette
        Empty header: Texture Empty (export 3) at byte 0: expected object data (the export has SerialSize 0)
        Empty sound: Texture Empty (export 3) at byte 0: expected an object of class Sound or Music
        Empty mesh: Texture Empty (export 3) at byte 0: expected an object of class Mesh or LodMesh or SkeletalMesh
        Noise texture: Sound Noise (export 4) at byte 435: expected Mips count of 11 items of at least 11 bytes to fit in the 11 bytes left
        Noise palette: Sound Noise (export 4) at byte 433: expected an object of class Palette
        Noise sound: Sound Noise (export 4): WAV header at byte 444: expected RIFF size (4 bytes), but the file ends after 2 more
        Noise mesh: Sound Noise (export 4) at byte 433: expected an object of class Mesh or LodMesh or SkeletalMesh
        name table entry 0 at byte 64: expected name length as a compact index of at most 5 bytes within 32 bits, found fifth byte 0xff
        import table entry 3 at byte 0: expected Package to reference one of 5 exports or 4 imports, found 1000
        export table entry 0 (Skins) at byte 0: expected Class to reference one of 5 exports or 4 imports, found 63
    "#]].assert_eq(&out);
}

/// A legal chain of 20,000 outers (each export inside the one before): every path names at
/// most `MAX_PATH_NAMES` objects, innermost first, so listing the package costs in proportion
/// to its size (before: paths thousands of names long, `info` printed 800 MB and the server
/// held 1.5 GB for this 240 KB package).
#[test]
fn a_deep_chain_of_outers_gives_bounded_paths() {
    use unreal_formats::package::{DEEPER_OUTERS, MAX_PATH_NAMES};
    let mut writer = unreal_test_support::writers::PackageWriter::new(69, 0);
    let class = writer.import("Core", "Class", 0, "Package");
    let mut outer = 0;
    for i in 0..20_000 {
        outer = writer.export(class, outer, &format!("G{i}"), 0, Box::new(|_, _| {}));
    }
    let bytes = writer.finish();
    let package = unreal_formats::package::Package::parse(&bytes).unwrap();
    let total: usize = package.objects().map(|o| o.path.len()).sum();
    let deepest = package.export_path(19_999);
    let names: Vec<&str> = deepest.split('.').collect();
    assert_eq!(names.len(), MAX_PATH_NAMES + 1);
    assert_eq!(names[0], DEEPER_OUTERS);
    assert_eq!(names.last().copied(), Some("G19999"));
    assert_eq!(package.export_path(2), "G0.G1.G2");
    assert!(total < 20_000 * (MAX_PATH_NAMES + 1) * 8, "{total} bytes of paths");
}

/// Outers that lead back to themselves are refused, precisely, wherever the cycle starts.
#[test]
fn a_cycle_of_outers_is_refused() {
    let mut writer = unreal_test_support::writers::PackageWriter::new(69, 0);
    let class = writer.import("Core", "Class", 0, "Package");
    writer.export(class, 0, "Free", 0, Box::new(|_, _| {}));
    writer.export(class, 3, "A", 0, Box::new(|_, _| {}));
    writer.export(class, 2, "B", 0, Box::new(|_, _| {}));
    let bytes = writer.finish();
    let error = unreal_formats::package::Package::parse(&bytes).err().unwrap().to_string();
    assert!(error.contains("the outers of object reference 2 to end, found a cycle"), "{error}");
}

/// Issue 43, item 6: a file of 65,535 frame meshes did not finish in 60 s: each mesh's
/// first-frame counterpart was a search over all the meshes. They are found once now; every
/// mesh of 32,767 frames (65,534 meshes) reuses its first-frame counterpart's triangles.
#[test]
fn u3d_of_sixty_five_thousand_meshes_reads_each_counterpart_once() {
    let bytes = writers::u3d_with(&writers::U3dOptions {
        reuse_first_frame: true,
        ..writers::U3dOptions::new(32_767, 0)
    });
    let model = U3d::parse(&bytes).unwrap();
    assert_eq!(model.meshes.len(), 65_534);
    for i in 0..model.meshes.len() {
        let expected = if i < 2 { None } else { Some(i % 2) };
        assert_eq!(model.first_frame_counterpart(i), expected, "mesh {i}");
        assert_eq!(model.triangles_of(i).0.len(), 2, "mesh {i}");
        assert!(model.tex_coord_source(i).is_some(), "mesh {i}");
    }
}

/// An animated texture as the engine saves it (UE1's FireTexture, WetTexture...): its mips
/// hold no pixels, which the engine makes when it loads it. The texture reads, says it
/// stores none, and asking for its pixels is a precise error; a mip whose data has another
/// size than its format needs is still refused.
#[test]
fn a_texture_whose_mips_hold_no_pixels_reads_and_says_so() {
    let build = |bytes: usize| texture_package("FireTexture", "Flames", Some(bytes));
    let bytes = build(0);
    let p = Package::parse(&bytes).unwrap();
    let t = p.read_texture(0).unwrap();
    assert_eq!((t.mips.len(), t.mips[0].width, t.mips[0].data.len()), (1, 64, 0));
    assert!(p.texture_stores_no_pixels(0));
    let err = plain_decode_error(&p);
    assert!(err.contains("Flames") && err.contains("does not store"), "{err}");
    let short = build(100);
    let p = Package::parse(&short).unwrap();
    let err = p.read_texture(0).unwrap_err().to_string();
    assert!(err.contains("4096 bytes of P8 data for 64x64, found 100"), "{err}");
}

/// A texture of a package stripped for a game server: no mip level at all. It reads, stores
/// no pixels, and asking for them says why.
#[test]
fn a_texture_without_mip_levels_reads_and_says_so() {
    let bytes = texture_package("Texture", "Stripped", None);
    let p = Package::parse(&bytes).unwrap();
    assert!(p.read_texture(0).unwrap().mips.is_empty());
    assert!(p.texture_stores_no_pixels(0));
    let err = plain_decode_error(&p);
    assert!(err.contains("Stripped") && err.contains("stripped of its pixels"), "{err}");
}

/// The error decoding the first texture of `p` (its first mip, as stored) gives.
fn plain_decode_error(p: &Package<'_>) -> String {
    p.decode_texture(0, 0, unreal_formats::decode::texture::MipSource::Plain)
        .unwrap_err()
        .to_string()
}

/// A package holding one 64x64 texture of `class` named `name`: one P8 mip of `mip_bytes`
/// bytes of pixels, or none at all.
fn texture_package(class: &str, name: &str, mip_bytes: Option<usize>) -> Vec<u8> {
    let mut w = PackageWriter::new(69, 0);
    let class = w.engine_class(class);
    for n in ["USize", "VSize"] {
        w.name(n);
    }
    w.export(
        class,
        0,
        name,
        0,
        Box::new(move |o, w| {
            let n = |s: &str| w.names.iter().position(|x| x == s).unwrap();
            let props = [
                prop(n("USize"), 2, 64u32.to_le_bytes().to_vec()),
                prop(n("VSize"), 2, 64u32.to_le_bytes().to_vec()),
            ];
            write_props(o, &props, w.none());
            match mip_bytes {
                Some(bytes) => {
                    o.index(1);
                    mip(o, 64, 64, bytes);
                }
                None => {
                    o.index(0);
                }
            }
        }),
    );
    w.finish()
}
