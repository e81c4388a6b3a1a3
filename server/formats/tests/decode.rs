//! Pixel and geometry decoding: synthetic textures with known pixels, every texture, import
//! image and mesh of the corpus decoded at its size, and the checkers texture's colours.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::pedantic)]

mod common;

use std::fmt::Write as _;

use expect_test::expect;
use unreal_formats::decode::dxt::{self, BlockFormat};
use unreal_formats::decode::image::decode_image;
use unreal_formats::decode::mesh::AnimatedMesh;
use unreal_formats::decode::texture::MipSource;
use unreal_formats::decode::RgbaImage;
use unreal_formats::package::Package;
use unreal_formats::vertex_mesh::VertexMesh;
use unreal_test_support::writers::{self, write_props, Obj, PackageWriter, Prop};

fn prop(name: usize, type_id: u8, value: Vec<u8>) -> Prop {
    Prop { name, type_id, struct_name: None, array_index: 0, bool_value: false, value }
}

fn mip(o: &mut Obj, w: u32, h: u32, pixels: &[u8]) {
    o.lazy(pixels.len(), pixels);
    o.u32(w).u32(h).u8(w.trailing_zeros() as u8).u8(h.trailing_zeros() as u8);
}

/// Every pixel as `rrggbbaa`, one row per line.
fn dump(image: &RgbaImage) -> String {
    let mut s = format!("{}x{}\n", image.width, image.height);
    for y in 0..image.height {
        let row: Vec<String> = (0..image.width)
            .map(|x| image.get(x, y).iter().map(|c| format!("{c:02x}")).collect())
            .collect();
        writeln!(s, "{}", row.join(" ")).unwrap();
    }
    s
}

/// A v69 package with a masked P8 texture (2 mips), an RGBA8 one (stored BGRA), and a P8
/// texture whose DXT1 compressed mip is the only decodable one when asked for.
fn texture_package() -> Vec<u8> {
    let mut w = PackageWriter::new(69, 0);
    let texture = w.engine_class("Texture");
    let palette = w.engine_class("Palette");
    for n in ["Format", "USize", "VSize", "Palette", "bMasked", "bHasComp", "CompFormat"] {
        w.name(n);
    }
    let pal = w.export(
        palette,
        0,
        "Pal",
        0,
        Box::new(|o, w| {
            write_props(o, &[], w.none());
            o.index(4);
            for c in [[0, 0, 0, 255], [255, 0, 0, 255], [0, 255, 0, 255], [0, 0, 255, 255]] {
                o.bytes(&c);
            }
        }),
    );
    w.export(
        texture,
        0,
        "Masked",
        0,
        Box::new(move |o, w| {
            let n = |s: &str| w.names.iter().position(|x| x == s).unwrap();
            let props = [
                prop(n("USize"), 2, 4u32.to_le_bytes().to_vec()),
                prop(n("VSize"), 2, 2u32.to_le_bytes().to_vec()),
                prop(n("Palette"), 5, writers::compact(pal)),
                Prop { bool_value: true, ..prop(n("bMasked"), 3, Vec::new()) },
            ];
            write_props(o, &props, w.none());
            o.index(2);
            mip(o, 4, 2, &[0, 1, 2, 3, 3, 2, 1, 0]);
            mip(o, 2, 1, &[1, 0]);
        }),
    );
    w.export(
        texture,
        0,
        "True",
        0,
        Box::new(move |o, w| {
            let n = |s: &str| w.names.iter().position(|x| x == s).unwrap();
            write_props(o, &[prop(n("Format"), 1, vec![5])], w.none());
            o.index(1);
            mip(o, 2, 1, &[1, 2, 3, 4, 10, 20, 30, 40]);
        }),
    );
    w.export(
        texture,
        0,
        "Comp",
        0,
        Box::new(move |o, w| {
            let n = |s: &str| w.names.iter().position(|x| x == s).unwrap();
            let props = [
                prop(n("Palette"), 5, writers::compact(pal)),
                Prop { bool_value: true, ..prop(n("bHasComp"), 3, Vec::new()) },
                prop(n("CompFormat"), 1, vec![3]),
            ];
            write_props(o, &props, w.none());
            o.index(1);
            mip(o, 4, 4, &[2; 16]);
            o.index(1);
            // One DXT1 block: colour 0 pure red, colour 1 pure blue; rows use indices 0, 1,
            // 2 (their mean) and 3, which is transparent black in the 1-bit-alpha mode
            // (colour 0 <= colour 1).
            let red = 0xf800u16.to_le_bytes();
            let blue = 0x001fu16.to_le_bytes();
            mip(o, 4, 4, &[blue[0], blue[1], red[0], red[1], 0x00, 0x55, 0xaa, 0xff]);
        }),
    );
    w.export(
        texture,
        0,
        "Plain",
        0,
        Box::new(move |o, w| {
            let n = |s: &str| w.names.iter().position(|x| x == s).unwrap();
            write_props(o, &[prop(n("Palette"), 5, writers::compact(pal))], w.none());
            o.index(1);
            mip(o, 4, 1, &[0, 1, 2, 3]);
        }),
    );
    w.finish()
}

/// A P8 texture that is not masked itself draws palette index 0 opaque, except on a masked
/// surface (`PF_Masked`), where the render devices clear it.
#[test]
fn p8_index_zero_is_cleared_on_masked_surfaces_only() {
    let bytes = texture_package();
    let package = Package::parse(&bytes).unwrap();
    let plain = package.find("Plain").unwrap();
    let masked = package.find("Masked").unwrap();
    let mut out = String::new();
    for (name, export) in [("Plain", plain), ("Masked", masked)] {
        for on_masked_surface in [false, true] {
            let image = package
                .decode_texture_drawn(export, 0, MipSource::Auto, on_masked_surface)
                .unwrap();
            write!(out, "{name} on a masked surface {on_masked_surface}: {}", dump(&image))
                .unwrap();
        }
    }
    expect![[r#"
        Plain on a masked surface false: 4x1
        000000ff ff0000ff 00ff00ff 0000ffff
        Plain on a masked surface true: 4x1
        00000000 ff0000ff 00ff00ff 0000ffff
        Masked on a masked surface false: 4x2
        00000000 ff0000ff 00ff00ff 0000ffff
        0000ffff 00ff00ff ff0000ff 00000000
        Masked on a masked surface true: 4x2
        00000000 ff0000ff 00ff00ff 0000ffff
        0000ffff 00ff00ff ff0000ff 00000000
    "#]]
    .assert_eq(&out);
}

#[test]
fn synthetic_textures() {
    let bytes = texture_package();
    let package = Package::parse(&bytes).unwrap();
    let mut out = String::new();
    for name in ["Masked", "True", "Comp"] {
        let export = package.find(name).unwrap();
        for (level, source) in
            [(0, MipSource::Auto), (1, MipSource::Auto), (0, MipSource::Compressed)]
        {
            write!(out, "{name} mip {level} {source:?}: ").unwrap();
            match package.decode_texture(export, level, source) {
                Ok(image) => out.push_str(&dump(&image)),
                Err(e) => writeln!(out, "error: {e}").unwrap(),
            }
        }
    }
    expect![[r#"
        Masked mip 0 Auto: 4x2
        00000000 ff0000ff 00ff00ff 0000ffff
        0000ffff 00ff00ff ff0000ff 00000000
        Masked mip 1 Auto: 2x1
        ff0000ff 00000000
        Masked mip 0 Compressed: error: Texture Masked (export 1) at byte 314: expected mip level 0 of the 0 stored
        True mip 0 Auto: 2x1
        03020104 1e140a28
        True mip 1 Auto: error: Texture True (export 2) at byte 373: expected mip level 1 of the 1 stored
        True mip 0 Compressed: error: Texture True (export 2) at byte 373: expected mip level 0 of the 0 stored
        Comp mip 0 Auto: 4x4
        00ff00ff 00ff00ff 00ff00ff 00ff00ff
        00ff00ff 00ff00ff 00ff00ff 00ff00ff
        00ff00ff 00ff00ff 00ff00ff 00ff00ff
        00ff00ff 00ff00ff 00ff00ff 00ff00ff
        Comp mip 1 Auto: error: Texture Comp (export 3) at byte 401: expected mip level 1 of the 1 stored
        Comp mip 0 Compressed: 4x4
        0000ffff 0000ffff 0000ffff 0000ffff
        ff0000ff ff0000ff ff0000ff ff0000ff
        800080ff 800080ff 800080ff 800080ff
        00000000 00000000 00000000 00000000
    "#]]
    .assert_eq(&out);
}

#[test]
fn dxt_edges_and_truncation() {
    // A 5x3 DXT5 image needs 2 x 1 blocks; one block is too few.
    let one_block = [0u8; 16];
    let err = dxt::decode(BlockFormat::Dxt5, 5, 3, &one_block, "test", 100).unwrap_err();
    expect!["test at byte 100: expected 32 bytes of DXT5 blocks for 5x3, found 16"]
        .assert_eq(&err.to_string());
    let image = dxt::decode(BlockFormat::Dxt5, 5, 3, &[0u8; 32], "test", 0).unwrap();
    assert_eq!((image.width, image.height, image.pixels.len()), (5, 3, 60));
}

/// A 2x2 8-bit PCX (RLE) with its 256-colour palette, and a 24-bit one in three planes.
fn pcx(bits_planes: (u8, u8), body: &[u8], palette: Option<&[u8]>) -> Vec<u8> {
    let mut h = vec![0u8; 128];
    h[0] = 0x0a;
    h[1] = 5;
    h[2] = 1;
    h[3] = bits_planes.0;
    h[8..10].copy_from_slice(&1u16.to_le_bytes()); // xmax
    h[10..12].copy_from_slice(&1u16.to_le_bytes()); // ymax
    h[65] = bits_planes.1;
    h[66..68].copy_from_slice(&2u16.to_le_bytes());
    h.extend_from_slice(body);
    if let Some(p) = palette {
        h.push(0x0c);
        h.extend_from_slice(p);
    }
    h
}

#[test]
fn import_images() {
    let mut palette = vec![0u8; 768];
    palette[3..6].copy_from_slice(&[255, 128, 0]);
    // Row 0: a run of two index-1 pixels; row 1: index 0, index 1 (0xC1 escapes a literal 1... no: 1 < 0xC0).
    let p8 = pcx((8, 1), &[0xc2, 1, 0, 1], Some(&palette));
    let rgb = pcx((8, 3), &[10, 11, 20, 21, 30, 31, 0xc2, 5, 0xc2, 6, 0xc2, 7], None);
    let truncated = pcx((8, 3), &[10, 11], None);
    let mut out = String::new();
    for (name, bytes) in [("p8.pcx", &p8), ("rgb.pcx", &rgb), ("cut.pcx", &truncated)] {
        write!(out, "{name}: ").unwrap();
        match decode_image(bytes, "pcx") {
            Ok(image) => out.push_str(&dump(&image)),
            Err(e) => writeln!(out, "error: {e}").unwrap(),
        }
    }
    expect![[r#"
        p8.pcx: 2x2
        ff8000ff ff8000ff
        000000ff ff8000ff
        rgb.pcx: 2x2
        0a141eff 0b151fff
        050607ff 050607ff
        cut.pcx: error: PCX pixels at byte 130: expected 12 bytes of scanlines, the data ends after 2
    "#]]
    .assert_eq(&out);
}

#[test]
fn corpus_textures_and_images() {
    let mut out = String::new();
    for (path, bytes) in common::corpus_files(&["u", "utx", "unr", "umx", "uax"]) {
        let Ok(package) = Package::parse(&bytes) else { continue };
        let textures: Vec<_> = package.objects().filter(|o| o.class == "Texture").collect();
        if textures.is_empty() {
            continue;
        }
        writeln!(out, "== {path}").unwrap();
        for o in textures {
            let texture = package.read_texture(o.export).unwrap();
            let mut line = format!("  {} {}x{}:", o.path, texture.width, texture.height);
            for source in [MipSource::Plain, MipSource::Compressed] {
                let stored = match source {
                    MipSource::Compressed => texture.comp_mips.len(),
                    _ => texture.mips.len(),
                };
                for level in 0..stored {
                    let image = package.decode_texture(o.export, level, source).unwrap();
                    let mip = match source {
                        MipSource::Compressed => &texture.comp_mips[level],
                        _ => &texture.mips[level],
                    };
                    assert_eq!(
                        (image.width, image.height),
                        (mip.width, mip.height),
                        "{path} {}",
                        o.path
                    );
                }
                if stored > 0 {
                    write!(line, " {source:?} {stored} ok").unwrap();
                }
            }
            let full = package.decode_texture(o.export, 0, MipSource::Auto).unwrap();
            assert_eq!((full.width, full.height), (texture.width, texture.height));
            writeln!(out, "{line}").unwrap();
        }
    }
    for (path, bytes) in common::corpus_files(&["bmp", "pcx", "tga", "dds", "png"]) {
        let ext = path.rsplit('.').next().unwrap();
        let image = decode_image(&bytes, ext).unwrap_or_else(|e| panic!("{path}: {e}"));
        let info = unreal_formats::image::ImageInfo::parse(&bytes, ext).unwrap();
        assert_eq!((image.width, image.height), (info.width, info.height), "{path}");
    }
    if common::corpus().is_none() {
        return;
    }
    expect_test::expect_file!["snapshots/decode_textures.txt"].assert_eq(&out);
}

/// The checkers textures of blender_t3d look like checkers: `checkers_base` is four
/// quadrants alternating light and dark, `coordinates` is 16-pixel squares whose red grows
/// with x and green with y, `checkers_abcd` has a blue disc in the middle.
#[test]
fn corpus_checkers_look_like_checkers() {
    let Some(root) = common::corpus() else { return };
    let bytes = std::fs::read(root.join("packages/utx/blender_t3d_Checkers.utx")).unwrap();
    let package = Package::parse(&bytes).unwrap();
    let decode = |name: &str| {
        package.decode_texture(package.find(name).unwrap(), 0, MipSource::Auto).unwrap()
    };
    let base = decode("checkers_base");
    let luma = |x0: u32, y0: u32| -> u32 {
        let mut sum = 0u32;
        for y in y0..y0 + 128 {
            for x in x0..x0 + 128 {
                let p = base.get(x, y);
                sum += (u32::from(p[0]) + u32::from(p[1]) + u32::from(p[2])) / 3;
            }
        }
        sum / (128 * 128)
    };
    let (tl, tr, bl, br) = (luma(0, 0), luma(128, 0), luma(0, 128), luma(128, 128));
    let mut out = format!("checkers_base quadrant luma: {tl} {tr} / {bl} {br}\n");
    assert!(tl.abs_diff(br) < 6 && tr.abs_diff(bl) < 6, "diagonal quadrants alike");
    assert!(tl.min(br) > tr.max(bl), "light and dark quadrants alternate");

    let coordinates = decode("coordinates");
    out.push_str("coordinates, top-left pixel of every 64th square:\n");
    for sy in [0, 4, 8, 12, 15] {
        let row: Vec<String> = [0, 4, 8, 12, 15]
            .iter()
            .map(|&sx| {
                let p = coordinates.get(sx * 16 + 1, sy * 16 + 1);
                format!("{:02x}{:02x}{:02x}", p[0], p[1], p[2])
            })
            .collect();
        writeln!(out, "  {}", row.join(" ")).unwrap();
    }
    let p = decode("checkers_abcd").get(100, 100);
    writeln!(out, "checkers_abcd at (100, 100): {:02x}{:02x}{:02x}{:02x}", p[0], p[1], p[2], p[3])
        .unwrap();
    assert!(p[2] > 200 && p[0] < 100, "the centre disc is blue");
    expect![[r#"
        checkers_base quadrant luma: 134 117 / 118 136
        coordinates, top-left pixel of every 64th square:
          665753 71625d 86615c a95f5b a90700
          616b5d 74765a 89705b a26c5b af2600
          63875c 768e5c 8e8b5b 9d8f5a b35f00
          61a158 74a25b 8ea85b b2a75c aa8500
          09b500 35b300 5fb100 90b300 babc5c
        checkers_abcd at (100, 100): 049effff
    "#]]
    .assert_eq(&out);
}

#[test]
fn corpus_meshes() {
    let mut out = String::new();
    for (path, bytes) in common::corpus_files(&["u"]) {
        let Ok(package) = Package::parse(&bytes) else { continue };
        for o in package.objects().filter(|o| o.class == "Mesh" || o.class == "LodMesh") {
            let mesh = package.read_mesh_geometry(o.export).unwrap();
            let max_vertex = mesh.faces.iter().flat_map(|f| f.vertices).max().unwrap_or(0);
            writeln!(
                out,
                "{path} {}: {} frames of {} vertices, {} faces (max vertex {max_vertex}), {} materials, {} sequences",
                o.path,
                mesh.frames,
                mesh.vertices_per_frame,
                mesh.faces.len(),
                mesh.materials.len(),
                mesh.sequences.len()
            )
            .unwrap();
        }
    }
    for (path, _) in common::corpus_files(&["3d"]) {
        let Some(stem) = path.strip_suffix("_d.3d") else { continue };
        let root = common::corpus().unwrap();
        let d = std::fs::read(root.join(&path)).unwrap();
        let a = std::fs::read(root.join(format!("{stem}_a.3d"))).unwrap();
        let mesh = AnimatedMesh::from_vertex_mesh(&VertexMesh::parse(&d, &a).unwrap());
        assert_eq!(mesh.positions.len(), mesh.frames * mesh.vertices_per_frame);
        writeln!(
            out,
            "{path}: {} frames of {} vertices, {} faces",
            mesh.frames,
            mesh.vertices_per_frame,
            mesh.faces.len()
        )
        .unwrap();
    }
    if common::corpus().is_none() {
        return;
    }
    expect![[r#"
        packages/u/Ut99Mods_KillConfirmed.u dogTag: 30 frames of 123 vertices, 250 faces (max vertex 122), 1 materials, 0 sequences
        uc/Ut99Mods/HeadHunter/Models/Skull/Skull_d.3d: 30 frames of 708 vertices, 236 faces
        uc/Ut99Mods/KillConfirmed/Models/DogTags/Tags_d.3d: 30 frames of 123 vertices, 250 faces
        uc/Ut99Mods/LGDUtilities/Models/Key/Key_d.3d: 30 frames of 281 vertices, 420 faces
        uc/Ut99Mods/LGDUtilities/Models/Shared/BasicMesh_d.3d: 30 frames of 4 vertices, 2 faces
        uc/assimp_box/Models/box_d.3d: 30 frames of 8 vertices, 12 faces
        uc/assimp_mar_rifle/Models/mar_rifle_d.3d: 30 frames of 421 vertices, 572 faces
    "#]].assert_eq(&out);
}

/// CRC-32 (ISO-HDLC, as PNG chunks use).
fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in bytes {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 != 0 { (crc >> 1) ^ 0xEDB8_8320 } else { crc >> 1 };
        }
    }
    !crc
}

/// A PNG of 8-bit samples (`channels` 1 to 4: grey, grey + alpha, RGB, RGBA), pixel `(x, y)`
/// sample `c` being `sample(x, y, c)`, rows unfiltered, in one IDAT whose zlib stream is
/// stored blocks; Adam7 when `interlaced`. `tail` is put in the zlib stream after the rows,
/// then the stream ends, or with `broken_end` goes on with a block of the reserved type that
/// no inflater accepts.
fn png_file(
    width: u32,
    height: u32,
    channels: u8,
    interlaced: bool,
    (tail, broken_end): (&[u8], bool),
    sample: impl Fn(u32, u32, u8) -> u8,
) -> Vec<u8> {
    let mut raw = Vec::new();
    let mut line = |xs: &mut dyn Iterator<Item = u32>, y: u32| {
        let xs: Vec<u32> = xs.collect();
        if xs.is_empty() {
            return;
        }
        raw.push(0); // filter None
        for x in xs {
            raw.extend((0..channels).map(|c| sample(x, y, c)));
        }
    };
    if interlaced {
        for (x0, dx, y0, dy) in [
            (0, 8, 0, 8),
            (4, 8, 0, 8),
            (0, 4, 4, 8),
            (2, 4, 0, 4),
            (0, 2, 2, 4),
            (1, 2, 0, 2),
            (0, 1, 1, 2),
        ] {
            for y in (y0..height).step_by(dy) {
                line(&mut (x0..width).step_by(dx), y);
            }
        }
    } else {
        for y in 0..height {
            line(&mut (0..width), y);
        }
    }
    // zlib: header, stored blocks of at most 65,535 bytes (the rows, then the tail), an
    // empty final block, Adler-32 of the rows and the tail.
    let mut zlib = vec![0x78, 0x01];
    let body: Vec<u8> = raw.iter().chain(tail).copied().collect();
    for block in body.chunks(65_535) {
        zlib.push(0);
        let n = block.len() as u16;
        zlib.extend(n.to_le_bytes());
        zlib.extend((!n).to_le_bytes());
        zlib.extend(block);
    }
    if broken_end {
        zlib.extend([0x07, 0, 0, 0, 0]);
    }
    zlib.extend([1, 0, 0, 0xff, 0xff]);
    let (mut a, mut b) = (1u32, 0u32);
    for &byte in &body {
        a = (a + u32::from(byte)) % 65_521;
        b = (b + a) % 65_521;
    }
    zlib.extend(((b << 16) | a).to_be_bytes());
    let color_type = [0u8, 4, 2, 6][usize::from(channels - 1)];
    let mut ihdr = Vec::new();
    ihdr.extend(width.to_be_bytes());
    ihdr.extend(height.to_be_bytes());
    ihdr.extend([8, color_type, 0, 0, u8::from(interlaced)]);
    let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
    for (kind, data) in [(b"IHDR", &ihdr), (b"IDAT", &zlib), (b"IEND", &Vec::new())] {
        out.extend((data.len() as u32).to_be_bytes());
        let start = out.len();
        out.extend(kind);
        out.extend(data.iter());
        let crc = crc32(&out[start..]);
        out.extend(crc.to_be_bytes());
    }
    out
}

/// PNG pixels land where they belong, interlaced or not, in every 8-bit colour type and at
/// sizes where Adam7 passes are empty (1 pixel wide or high) or partial; and only the rows
/// are read: compressed data after them, even junk, is not inflated.
#[test]
fn png_rows_interlaced_or_not() {
    let sample = |x: u32, y: u32, c: u8| (x * 7 + y * 31 + u32::from(c) * 101) as u8;
    for channels in 1..=4u8 {
        for (width, height) in
            [(1, 1), (1, 9), (9, 1), (2, 2), (3, 5), (5, 3), (8, 8), (13, 11), (33, 17)]
        {
            for interlaced in [false, true] {
                let file = png_file(width, height, channels, interlaced, (&[], false), sample);
                let image = decode_image(&file, "png").unwrap();
                assert_eq!((image.width, image.height), (width, height));
                for y in 0..height {
                    for x in 0..width {
                        let s = |c| sample(x, y, c);
                        let expected = match channels {
                            1 => [s(0), s(0), s(0), 255],
                            2 => [s(0), s(0), s(0), s(1)],
                            3 => [s(0), s(1), s(2), 255],
                            _ => [s(0), s(1), s(2), s(3)],
                        };
                        assert_eq!(
                            image.get(x, y),
                            expected,
                            "{width}x{height} {channels} channels interlaced {interlaced} at {x},{y}"
                        );
                    }
                }
            }
        }
    }
    // After the rows, a megabyte of stored data, then a block no inflater accepts: the png
    // crate's `next_frame` inflates all of it and fails, the decoder stops after the last
    // row (so that the work stays proportional to the image, not to the file).
    let tail = vec![0x55; 1 << 20];
    let plain = png_file(13, 11, 4, true, (&[], false), sample);
    let tailed = png_file(13, 11, 4, true, (&tail, true), sample);
    let whole_stream = |file: &[u8]| {
        let mut reader = png::Decoder::new(std::io::Cursor::new(file)).read_info().unwrap();
        let mut buf = vec![0; reader.output_buffer_size()];
        reader.next_frame(&mut buf).map(|_| ()).map_err(|e| e.to_string())
    };
    assert_eq!(whole_stream(&plain), Ok(()));
    assert!(whole_stream(&tailed).is_err());
    assert!(decode_image(&plain, "png").unwrap() == decode_image(&tailed, "png").unwrap());
}

/// A triangle as a key that ignores how the vertices are numbered and where the corners
/// start: its type and texture number, then per corner its UV and the vertex's place in every
/// frame (bits of the floats), the corners rotated to start at the least.
/// A corner: its UV and its vertex's place in every frame.
type CornerKey = ([u8; 2], Vec<[u32; 3]>);

fn triangle_keys(mesh: &VertexMesh<'_>) -> Vec<(u8, u8, Vec<CornerKey>)> {
    let frames: Vec<Vec<[f32; 3]>> =
        (0..usize::from(mesh.aniv.frames)).map(|f| mesh.frame(f).unwrap()).collect();
    let mut keys: Vec<_> = mesh
        .data
        .triangles
        .iter()
        .map(|t| {
            let corners: Vec<CornerKey> = (0..3)
                .map(|c| {
                    let v = usize::from(t.vertices[c]);
                    (t.uv[c], frames.iter().map(|f| f[v].map(f32::to_bits)).collect())
                })
                .collect();
            let first = (0..3).min_by_key(|&c| &corners[c]).unwrap();
            let rotated = (0..3).map(|c| corners[(first + c) % 3].clone()).collect();
            (t.kind, t.texture, rotated)
        })
        .collect();
    keys.sort();
    keys
}

/// The author's `Tags_d.3d`/`Tags_a.3d` (KillConfirmed's sources) and the `dogTag` LodMesh UCC
/// built from them (`Ut99Mods_KillConfirmed.u`): the pair written back from the package holds
/// the same triangles, each with the same type, texture number, UVs and vertex in every frame.
#[test]
fn corpus_lod_mesh_written_back_as_its_source_files() {
    let Some(root) = common::corpus() else { return };
    let package = std::fs::read(root.join("packages/u/Ut99Mods_KillConfirmed.u")).unwrap();
    let package = Package::parse(&package).unwrap();
    let export = package.objects().find(|o| o.path == "dogTag").unwrap().export;
    let files = package.read_mesh_files(export).unwrap();
    let (d, a) = (files.data.to_bytes(), files.aniv_bytes());
    let written = VertexMesh::parse(&d, &a).unwrap();
    let source_d =
        std::fs::read(root.join("uc/Ut99Mods/KillConfirmed/Models/DogTags/Tags_d.3d")).unwrap();
    let source_a =
        std::fs::read(root.join("uc/Ut99Mods/KillConfirmed/Models/DogTags/Tags_a.3d")).unwrap();
    let source = VertexMesh::parse(&source_d, &source_a).unwrap();
    assert_eq!(
        (written.aniv.frames, written.data.polygons),
        (source.aniv.frames, source.data.polygons)
    );
    assert_eq!(written.data.vertices, source.data.vertices);
    assert_eq!(triangle_keys(&written), triangle_keys(&source));
}
