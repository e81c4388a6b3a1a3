//! The `#exec` block of a package's vertex mesh (`unreal_assets::exec_lines`): its lines on a
//! synthetic UE1 `Mesh` that sets every field the block writes, and on the corpus' LodMesh
//! against its author's own lines; its files read back as UCC reads them.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::pedantic)]

use expect_test::expect;
use unreal_assets::exec_lines::mesh_block;
use unreal_formats::decode::image::decode_image;
use unreal_formats::package::Package;
use unreal_formats::vertex_mesh::VertexMesh;
use unreal_test_support::writers::{self, write_props, Obj, PackageWriter, Prop};

/// A UE1 (v69) package with a plain `Mesh` named `Gem`: 4 vertices in 2 frames, three
/// triangles (translucent, unlit and two-sided, a weapon triangle), a sequence with a
/// notification, scale, origin and rotation, a P8 texture `Skins.Shine` in slots 1 and 2 and
/// a `ScriptedTexture` in slot 3.
fn gem_package() -> Vec<u8> {
    let mut w = PackageWriter::new(69, 0);
    let mesh = w.engine_class("Mesh");
    let texture = w.engine_class("Texture");
    let palette = w.engine_class("Palette");
    let package = w.import("Core", "Class", 0, "Package");
    for name in ["Sparkle", "Glint", "OnGlint", "USize", "VSize", "Palette", "bMasked", "bTwoSided"]
    {
        w.name(name);
    }
    let skins = w.export(package, 0, "Skins", 0, Box::new(|o, w| write_props(o, &[], w.none())));
    let pal = w.export(
        palette,
        skins,
        "ShinePal",
        0,
        Box::new(|o, w| {
            write_props(o, &[], w.none());
            o.index(256);
            for i in 0..=255u8 {
                o.bytes(&[i, 255 - i, i / 2, 255]);
            }
        }),
    );
    let shine = w.export(
        texture,
        skins,
        "Shine",
        0,
        Box::new(move |o, w| {
            let n = |s: &str| w.names.iter().position(|x| x == s).unwrap();
            let prop = |name: usize, type_id: u8, value: Vec<u8>| Prop {
                name,
                type_id,
                value,
                struct_name: None,
                array_index: 0,
                bool_value: false,
            };
            write_props(
                o,
                &[
                    prop(n("USize"), 2, 4u32.to_le_bytes().to_vec()),
                    prop(n("VSize"), 2, 2u32.to_le_bytes().to_vec()),
                    prop(n("Palette"), 5, writers::compact(pal)),
                    Prop { bool_value: true, ..prop(n("bMasked"), 3, Vec::new()) },
                    Prop { bool_value: true, ..prop(n("bTwoSided"), 3, Vec::new()) },
                ],
                w.none(),
            );
            o.index(1);
            o.lazy(8, &[0, 1, 2, 3, 250, 251, 252, 253]);
            o.u32(4).u32(2).u8(2).u8(1);
        }),
    );
    let scripted = w.engine_class("ScriptedTexture");
    let screen =
        w.export(scripted, skins, "Screen", 0, Box::new(|o, w| write_props(o, &[], w.none())));
    w.export(mesh, 0, "Gem", 0, Box::new(move |o, w| write_gem(o, w, shine, screen)));
    w.finish()
}

/// `UMesh::Serialize` of v69, field by field.
fn write_gem(o: &mut Obj, w: &PackageWriter, shine: i32, screen: i32) {
    let n = |s: &str| w.names.iter().position(|x| x == s).unwrap() as i32;
    write_props(o, &[], w.none());
    o.bytes(&[0; 25]).bytes(&[0; 16]); // UPrimitive bounds
    let pack = |x: i32, y: i32, z: i32| {
        ((x as u32) & 0x7ff) | (((y as u32) & 0x7ff) << 11) | (((z as u32) & 0x3ff) << 22)
    };
    let mut verts = Vec::new();
    for frame in 0..2 {
        for (x, y, z) in [(0, 0, 0), (80, 0, 0), (0, 80, 40), (-8 * frame, -16, -4)] {
            verts.extend_from_slice(&pack(x + frame, y, z).to_le_bytes());
        }
    }
    o.lazy(8, &verts);
    // Tris: iVertex[3], Tex[3] (U, V), PolyFlags, TextureIndex.
    let tri = |v: [u16; 3], uv: [u8; 6], flags: u32, texture: i32| {
        let mut t = Vec::new();
        for i in v {
            t.extend_from_slice(&i.to_le_bytes());
        }
        t.extend_from_slice(&uv);
        t.extend_from_slice(&flags.to_le_bytes());
        t.extend_from_slice(&texture.to_le_bytes());
        t
    };
    let mut tris = Vec::new();
    tris.extend(tri([0, 1, 2], [0, 0, 255, 0, 0, 255], 0x100 | 0x4, 1));
    tris.extend(tri([2, 1, 0], [9, 9, 8, 8, 7, 7], 0x100 | 0x40_0000, 1));
    tris.extend(tri([0, 3, 1], [0; 6], 0x100 | 0x1, 0));
    o.lazy(3, &tris);
    o.index(1); // AnimSeqs: Name, Group, StartFrame, NumFrames, Notifys, Rate
    o.index(n("Sparkle")).index(n("Glint")).i32(0).i32(2);
    o.index(1).f32(0.5).index(n("OnGlint"));
    o.f32(12.5);
    o.lazy(4, &[0; 32]); // Connects
    o.bytes(&[0; 25]).bytes(&[0; 16]);
    o.lazy(0, &[]); // VertLinks
                    // Textures: slot 1 and 2 the same texture, slot 3 one made in the package.
    o.index(4).index(0).index(shine).index(shine).index(screen);
    o.index(0).index(0); // BoundingBoxes, BoundingSpheres
    o.i32(4).i32(2); // FrameVerts, AnimFrames
    o.u32(0).u32(0); // AND/OR flags
    o.f32(0.25).f32(0.5).f32(2.0); // Scale
    o.f32(1.5).f32(-3.0).f32(0.0); // Origin
    o.i32(0).i32(16384).i32(-64); // RotOrigin: pitch, yaw, roll
    o.i32(0).i32(0); // CurPoly, CurVertex
    o.index(2).f32(1.0).f32(1.0); // TextureLOD
}

#[test]
fn plain_mesh_block_and_files() {
    let bytes = gem_package();
    let package = Package::parse_named(&bytes, "GemPkg").unwrap();
    let export = package.objects().find(|o| o.name == "Gem").unwrap().export;
    let block = mesh_block(&package, export).unwrap();
    expect![[r#"
        #exec MESH IMPORT MESH=Gem ANIVFILE=Models\Gem_a.3d DATAFILE=Models\Gem_d.3d MLOD=0
        #exec MESH ORIGIN MESH=Gem X=1.5 Y=-3 Z=0 YAW=64 PITCH=0 ROLL=-0.25
        #exec MESH SEQUENCE MESH=Gem SEQ=Sparkle STARTFRAME=0 NUMFRAMES=2 RATE=12.5 GROUP=Glint
        #exec MESH NOTIFY MESH=Gem SEQ=Sparkle TIME=0.5 FUNCTION=OnGlint
        #exec MESHMAP SCALE MESHMAP=Gem X=0.25 Y=0.5 Z=2
        #exec TEXTURE IMPORT NAME=Shine FILE=Textures\Skins\Shine.bmp GROUP=Skins FLAGS=258 MIPS=OFF
        #exec MESHMAP SETTEXTURE MESHMAP=Gem NUM=1 TEXTURE=Shine
        #exec MESHMAP SETTEXTURE MESHMAP=Gem NUM=2 TEXTURE=Shine
        // Screen: not written (a ScriptedTexture, made in the package rather than imported from an image: create it as the package's source does)
        #exec MESHMAP SETTEXTURE MESHMAP=Gem NUM=3 TEXTURE=Screen
    "#]]
    .assert_eq(&(block.lines.join("\n") + "\n"));
    let paths: Vec<&str> = block.files.iter().map(|f| f.path.as_str()).collect();
    assert_eq!(paths, ["Models\\Gem_d.3d", "Models\\Gem_a.3d", "Textures\\Skins\\Shine.bmp"]);
    let mesh = VertexMesh::parse(&block.files[0].bytes, &block.files[1].bytes).unwrap();
    assert_eq!((mesh.data.vertices, mesh.aniv.frames, mesh.aniv.frame_size), (4, 2, 16));
    let kinds: Vec<(u8, u8, [u16; 3])> =
        mesh.data.triangles.iter().map(|t| (t.kind, t.texture, t.vertices)).collect();
    // Translucent (2), two-sided and unlit (1 + 16), the weapon triangle (8).
    assert_eq!(kinds, [(2, 1, [0, 1, 2]), (17, 1, [2, 1, 0]), (8, 0, [0, 3, 1])]);
    assert_eq!(mesh.data.triangles[1].uv, [[9, 9], [8, 8], [7, 7]]);
    // The vertices as stored, frame by frame: (x + frame, ...) in the engine's units.
    assert_eq!(mesh.frame(1).unwrap()[1], [81.0 / 8.0, 0.0, 0.0]);
    assert_eq!(mesh.frame(1).unwrap()[3], [-7.0 / 8.0, -2.0, -1.0]);
    // The texture's BMP holds its indices through its palette, bottom row first.
    let image = decode_image(&block.files[2].bytes, "bmp").unwrap();
    assert_eq!((image.width, image.height), (4, 2));
    let pixel = |x: usize, y: usize| image.pixels[(y * 4 + x) * 4..(y * 4 + x) * 4 + 3].to_vec();
    assert_eq!(pixel(1, 0), [1, 254, 0]);
    assert_eq!(pixel(0, 1), [250, 5, 125]);
}

/// KillConfirmed's `dogTag` LodMesh, built by its author from `Tags_d.3d`/`Tags_a.3d` with
/// these lines (`Classes/DogTagItemVisuals.uc`):
///
/// ```text
/// #exec MESH IMPORT MESH=DogTag ANIVFILE=Models\DogTags\Tags_a.3D DATAFILE=Models\DogTags\Tags_d.3D X=0 Y=0 Z=0 LODSTYLE=12
/// #exec MESH LODPARAMS MESH=DogTag STRENGTH=0.0
/// #exec MESHMAP SCALE MESHMAP=DogTag X=0.2 Y=0.2 Z=0.4
/// #exec MESH ORIGIN MESH=DogTag X=0 Y=0 Z=0
/// #exec TEXTURE IMPORT NAME=DogTags FILE=Textures\DogTags\DogTags.bmp GROUP="DogTags" FLAGS=2 MIPS=OFF
/// #exec MESHMAP SETTEXTURE MESHMAP=DogTag NUM=1 TEXTURE=DogTags
/// ```
///
/// The block says the same (the LOD parameters the author left at their defaults written
/// out, the LOD style noted as not stored), and its texture file holds the texture's pixels.
#[test]
fn corpus_lod_mesh_block_says_what_its_author_wrote() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus");
    let Ok(bytes) = std::fs::read(root.join("packages/u/Ut99Mods_KillConfirmed.u")) else {
        unreal_test_support::corpus::absent("packages/u/Ut99Mods_KillConfirmed.u");
        return;
    };
    let package = Package::parse_named(&bytes, "KillConfirmed").unwrap();
    let export = package.objects().find(|o| o.path == "dogTag").unwrap().export;
    let block = mesh_block(&package, export).unwrap();
    expect![[r#"
        #exec MESH IMPORT MESH=dogTag ANIVFILE=Models\dogTag_a.3d DATAFILE=Models\dogTag_d.3d
        // LODSTYLE, LODFRAME and LODNOTEX steer the LOD build and are not stored in the package: add the ones first used
        #exec MESH LODPARAMS MESH=dogTag STRENGTH=0 MINVERTS=10 MORPH=0.3 HYSTERESIS=0 ZDISP=0
        #exec MESH ORIGIN MESH=dogTag X=0 Y=0 Z=0 YAW=0 PITCH=0 ROLL=0
        #exec MESHMAP SCALE MESHMAP=dogTag X=0.2 Y=0.2 Z=0.4
        #exec TEXTURE IMPORT NAME=DogTags FILE=Textures\DogTags\DogTags.bmp GROUP=DogTags FLAGS=2 MIPS=OFF
        #exec MESHMAP SETTEXTURE MESHMAP=dogTag NUM=1 TEXTURE=DogTags
    "#]]
    .assert_eq(&(block.lines.join("\n") + "\n"));
    let texture = package.objects().find(|o| o.path == "DogTags.DogTags").unwrap().export;
    let expected = unreal_assets::export::texture_png(&package, texture, 0).unwrap();
    let expected = decode_image(&expected, "png").unwrap();
    let written = decode_image(&block.files[2].bytes, "bmp").unwrap();
    // The PNG clears palette index 0 of a masked texture; the BMP keeps the index's colour.
    let opaque = |p: &[u8]| p.chunks(4).map(|c| [c[0], c[1], c[2], c[3]]).collect::<Vec<_>>();
    let (e, w) = (opaque(&expected.pixels), opaque(&written.pixels));
    assert_eq!(e.len(), w.len());
    for (e, w) in e.iter().zip(&w) {
        if e[3] == 255 {
            assert_eq!(e, w);
        }
    }
}
