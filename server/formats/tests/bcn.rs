//! BC4, BC5, BC6H and BC7 decoding checked pixel for pixel against an independent decoder:
//! random blocks of each format at several sizes (some not multiples of 4), the same blocks
//! in DDS files (legacy `FourCC`s and DX10 headers, and UT2004's exporter's header), and in
//! UE1 packages numbered as UT v469 and as Unreal 227.
//!
//! The second decoder is `texture2ddecoder` (a port of AssetStudio's Texture2DDecoder,
//! written apart from `bcdec`). It agrees with ours bit for bit on BC7 and, after the same
//! conversion of floats to 8 bits (clamp to 0..1, times 255, truncated), on BC6H. For BC4 and
//! BC5 it truncates the interpolated values ((6 a0 + a1) / 7 in integers) where the format's
//! document (Direct3D 10) interpolates in floats and the conversion to 8 bits rounds, so both
//! are checked against the exact value the document defines, worked out here in rationals:
//! ours must be it rounded, texture2ddecoder's it truncated, at every pixel. Signed BC4/BC5,
//! which texture2ddecoder does not decode, are checked against the exact value alone.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::pedantic)]

use std::fmt::Write as _;

use expect_test::expect;
use unreal_formats::decode::dxt::{self, signed_to_unorm8, BlockFormat};
use unreal_formats::decode::image::decode_image;
use unreal_formats::decode::texture::MipSource;
use unreal_formats::decode::RgbaImage;
use unreal_formats::image::ImageInfo;
use unreal_formats::package::Package;
use unreal_formats::summary::package_summary;
use unreal_test_support::writers::{self, write_props, DdsStyle, Obj, PackageWriter, Prop};
use unreal_test_support::Rng;

const SIZES: [(u32, u32); 7] = [(4, 4), (1, 1), (2, 3), (5, 3), (8, 8), (13, 7), (17, 12)];

const FORMATS: [BlockFormat; 7] = [
    BlockFormat::Bc4 { signed: false },
    BlockFormat::Bc4 { signed: true },
    BlockFormat::Bc5 { signed: false },
    BlockFormat::Bc5 { signed: true },
    BlockFormat::Bc6h { signed: false },
    BlockFormat::Bc6h { signed: true },
    BlockFormat::Bc7,
];

/// Random blocks for a `width` x `height` image. BC7 blocks cycle through the eight modes
/// (the mode is the lowest set bit of the first byte; a zero byte is the reserved mode 8,
/// which random bytes hit once in 256 blocks as well). BC6H blocks are made in mode 3: see
/// [`bc6h_mode3_block`].
fn random_blocks(rng: &mut Rng, format: BlockFormat, width: u32, height: u32) -> Vec<u8> {
    let mut data: Vec<u8> =
        (0..format.data_size(width, height)).map(|_| rng.next_u64() as u8).collect();
    match format {
        BlockFormat::Bc7 => {
            for (i, block) in data.chunks_exact_mut(16).enumerate() {
                let mode = (i + rng.below(8)) % 9;
                block[0] = if mode == 8 {
                    0
                } else {
                    let low = ((2u16 << mode) - 1) as u8;
                    (block[0] & !low) | (1 << mode)
                };
            }
        }
        BlockFormat::Bc6h { signed } => {
            for block in data.chunks_exact_mut(16) {
                bc6h_mode3_block(rng, block, signed);
            }
        }
        _ => {}
    }
    data
}

/// Makes `block` a BC6H block of mode 3 (mode bits `00011`, then the endpoints rw, gw, bw, rx,
/// gx, bx of 10 bits each, then 63 index bits), with endpoints that texture2ddecoder reads as
/// the format's document does. It departs from the document elsewhere (0.1.2, bc6.rs):
/// `unquantize` makes an unsigned endpoint of 512 (`1 << (bits - 1)`) 0xFFFF, where the
/// document's 1023 (`(1 << bits) - 1`) is; signed values are kept in two's complement,
/// interpolated as unsigned 32-bit numbers and then read as sign-and-magnitude halves
/// (`finish_unquantize`), right only while a channel's two endpoints share a sign; and the
/// 16-bit endpoints of mode 15 overflow a shift (`1 << mi.endpoint_bits` in u16). So unsigned
/// endpoints avoid 512 and 1023, and each channel's two signed endpoints share a sign. Every
/// other mode is decoded from random blocks by `random_blocks_match_the_independent_decoder`
/// without a reference.
fn bc6h_mode3_block(rng: &mut Rng, block: &mut [u8], signed: bool) {
    let mut bits = u128::from_le_bytes(block.try_into().unwrap());
    bits = (bits & !0x1f) | 0b00011;
    for channel in 0..3 {
        let negative = rng.below(2) == 1;
        for endpoint in [channel, channel + 3] {
            let at = 5 + 10 * endpoint;
            let mut value = ((bits >> at) & 0x3ff) as u32;
            if signed {
                value = (value & 0x1ff) | (u32::from(negative) << 9);
            } else if value == 512 || value == 1023 {
                value -= 1;
            }
            bits = (bits & !(0x3ff << at)) | (u128::from(value) << at);
        }
    }
    block.copy_from_slice(&bits.to_le_bytes());
}

/// texture2ddecoder's image for `format` (unsigned BC4/BC5, BC6H, BC7), as RGBA bytes.
fn reference(format: BlockFormat, width: u32, height: u32, data: &[u8]) -> Option<Vec<u8>> {
    let (w, h) = (width as usize, height as usize);
    let mut out = vec![0u32; w * h];
    match format {
        BlockFormat::Bc4 { signed: false } => texture2ddecoder::decode_bc4(data, w, h, &mut out),
        BlockFormat::Bc5 { signed: false } => texture2ddecoder::decode_bc5(data, w, h, &mut out),
        BlockFormat::Bc6h { signed } => texture2ddecoder::decode_bc6(data, w, h, &mut out, signed),
        BlockFormat::Bc7 => texture2ddecoder::decode_bc7(data, w, h, &mut out),
        _ => return None,
    }
    .unwrap();
    // Its pixels are B, G, R, A in memory order.
    Some(
        out.iter()
            .flat_map(|p| {
                let [b, g, r, a] = p.to_le_bytes();
                [r, g, b, a]
            })
            .collect(),
    )
}

/// The value of BC4 index `i` (3 bits) for endpoints `a0`, `a1` as the document defines it,
/// a rational `(numerator, denominator)`.
fn bc4_exact(a0: i32, a1: i32, i: usize, signed: bool) -> (i32, i32) {
    let (lo, hi) = if signed { (-127, 127) } else { (0, 255) };
    match i {
        0 => (a0, 1),
        1 => (a1, 1),
        _ if a0 > a1 => {
            let k = i as i32 - 1; // 1..=6
            ((7 - k) * a0 + k * a1, 7)
        }
        6 => (lo, 1),
        7 => (hi, 1),
        _ => {
            let k = i as i32 - 1; // 1..=4
            ((5 - k) * a0 + k * a1, 5)
        }
    }
}

fn round(n: i32, d: i32) -> i32 {
    (2 * n + d).div_euclid(2 * d)
}

/// The channel of one 8-byte BC4 block at pixel `p` (0..16): (rounded, truncated), both
/// as the 8-bit value the preview shows.
fn bc4_pixel(block: &[u8], p: usize, signed: bool) -> (u8, u8) {
    let endpoint = |b: u8| if signed { i32::from(b as i8).max(-127) } else { i32::from(b) };
    let (a0, a1) = (endpoint(block[0]), endpoint(block[1]));
    let bits = u64::from_le_bytes(block[..8].try_into().unwrap()) >> 16;
    let index = ((bits >> (3 * p)) & 7) as usize;
    let (n, d) = bc4_exact(a0, a1, index, signed);
    let show = |v: i32| if signed { signed_to_unorm8(v as i8 as u8) } else { v as u8 };
    (show(round(n, d)), show(n.div_euclid(d)))
}

/// Compares our decoding of `data` with the exact BC4/BC5 values and texture2ddecoder's;
/// returns the number of pixels compared.
fn check_bc45(
    format: BlockFormat,
    width: u32,
    height: u32,
    data: &[u8],
    ours: &RgbaImage,
) -> usize {
    let (channels, signed) = match format {
        BlockFormat::Bc4 { signed } => (1, signed),
        BlockFormat::Bc5 { signed } => (2, signed),
        _ => unreachable!(),
    };
    let theirs = reference(format, width, height, data);
    let blocks_x = width.div_ceil(4);
    let mut compared = 0;
    for y in 0..height {
        for x in 0..width {
            let b = ((y / 4) * blocks_x + x / 4) as usize * format.block_bytes();
            let p = ((y % 4) * 4 + x % 4) as usize;
            let mut expected_ours = [0u8, 0, 0, 255];
            let mut expected_theirs = [0u8, 0, 0, 255];
            for c in 0..channels {
                let (rounded, truncated) = bc4_pixel(&data[b + 8 * c..b + 8 * c + 8], p, signed);
                expected_ours[c] = rounded;
                expected_theirs[c] = truncated;
            }
            if channels == 1 {
                expected_ours = [expected_ours[0], expected_ours[0], expected_ours[0], 255];
            }
            assert_eq!(ours.get(x, y), expected_ours, "{format:?} {width}x{height} at {x},{y}");
            if let Some(theirs) = &theirs {
                let i = (y * width + x) as usize * 4;
                assert_eq!(
                    &theirs[i..i + 4],
                    &expected_theirs,
                    "texture2ddecoder {format:?} {width}x{height} at {x},{y}"
                );
            }
            compared += 1;
        }
    }
    compared
}

/// Checks one decoded image against the independent decoders; returns pixels compared.
fn check(format: BlockFormat, width: u32, height: u32, data: &[u8], ours: &RgbaImage) -> usize {
    assert_eq!((ours.width, ours.height), (width, height));
    match format {
        BlockFormat::Bc4 { .. } | BlockFormat::Bc5 { .. } => {
            check_bc45(format, width, height, data, ours)
        }
        _ => {
            let theirs = reference(format, width, height, data).unwrap();
            for y in 0..height {
                for x in 0..width {
                    let i = (y * width + x) as usize * 4;
                    let mut expected = <[u8; 4]>::try_from(&theirs[i..i + 4]).unwrap();
                    if let BlockFormat::Bc6h { .. } = format {
                        // BC6H has no alpha: ours is opaque everywhere, texture2ddecoder's
                        // blocks of a reserved mode are (0, 0, 0, 0).
                        expected[3] = 255;
                    }
                    assert_eq!(ours.get(x, y), expected, "{format:?} {width}x{height} at {x},{y}");
                }
            }
            (width * height) as usize
        }
    }
}

#[test]
fn random_blocks_match_the_independent_decoder() {
    let mut rng = Rng::new(0xbc7);
    let mut out = String::new();
    for format in FORMATS {
        let mut pixels = 0;
        let mut distinct = std::collections::BTreeSet::new();
        for &(w, h) in &SIZES {
            for _ in 0..12 {
                let data = random_blocks(&mut rng, format, w, h);
                let ours = dxt::decode(format, w, h, &data, "test", 0).unwrap();
                pixels += check(format, w, h, &data, &ours);
                distinct.extend(ours.pixels.chunks_exact(4).map(|p| p.to_vec()));
            }
        }
        // Blocks of any bits at all decode (to something) too.
        let any: Vec<u8> = (0..format.data_size(17, 12)).map(|_| rng.next_u64() as u8).collect();
        dxt::decode(format, 17, 12, &any, "test", 0).unwrap();
        // Enough different colours that the comparison is not of blank images.
        assert!(distinct.len() > 100, "{format:?}: {} colours", distinct.len());
        writeln!(out, "{}: {pixels} pixels equal", format.name()).unwrap();
    }
    expect![[r#"
        BC4: 4764 pixels equal
        BC4_S: 4764 pixels equal
        BC5: 4764 pixels equal
        BC5_S: 4764 pixels equal
        BC6H: 4764 pixels equal
        BC6H_S: 4764 pixels equal
        BC7: 4764 pixels equal
    "#]]
    .assert_eq(&out);
}

#[test]
fn missing_blocks_are_an_error() {
    let mut out = String::new();
    for format in FORMATS {
        let needed = format.data_size(5, 3) as usize;
        let err = dxt::decode(format, 5, 3, &vec![0; needed - 1], "test", 64).unwrap_err();
        writeln!(out, "{err}").unwrap();
    }
    expect![[r#"
        test at byte 64: expected 16 bytes of BC4 blocks for 5x3, found 15
        test at byte 64: expected 16 bytes of BC4_S blocks for 5x3, found 15
        test at byte 64: expected 32 bytes of BC5 blocks for 5x3, found 31
        test at byte 64: expected 32 bytes of BC5_S blocks for 5x3, found 31
        test at byte 64: expected 32 bytes of BC6H blocks for 5x3, found 31
        test at byte 64: expected 32 bytes of BC6H_S blocks for 5x3, found 31
        test at byte 64: expected 32 bytes of BC7 blocks for 5x3, found 31
    "#]]
    .assert_eq(&out);
}

/// Every `FourCC` and DXGI format a DDS may name a block format with, and the format.
const DDS_FORMATS: [(&[u8; 4], u32, BlockFormat); 15] = [
    (b"ATI1", 0, BlockFormat::Bc4 { signed: false }),
    (b"BC4U", 0, BlockFormat::Bc4 { signed: false }),
    (b"BC4S", 0, BlockFormat::Bc4 { signed: true }),
    (b"ATI2", 0, BlockFormat::Bc5 { signed: false }),
    (b"BC5U", 0, BlockFormat::Bc5 { signed: false }),
    (b"BC5S", 0, BlockFormat::Bc5 { signed: true }),
    (b"DX10", 80, BlockFormat::Bc4 { signed: false }),
    (b"DX10", 81, BlockFormat::Bc4 { signed: true }),
    (b"DX10", 83, BlockFormat::Bc5 { signed: false }),
    (b"DX10", 84, BlockFormat::Bc5 { signed: true }),
    (b"DX10", 95, BlockFormat::Bc6h { signed: false }),
    (b"DX10", 96, BlockFormat::Bc6h { signed: true }),
    (b"DX10", 98, BlockFormat::Bc7),
    (b"DX10", 99, BlockFormat::Bc7),
    (b"DX10", 71, BlockFormat::Dxt1),
];

#[test]
fn dds_files_of_every_block_format() {
    let mut rng = Rng::new(0xdd5);
    let mut out = String::new();
    for (fourcc, dxgi, format) in DDS_FORMATS {
        for style in [DdsStyle::Standard, DdsStyle::Ut2004Exporter] {
            if style == DdsStyle::Ut2004Exporter && fourcc == b"DX10" {
                continue;
            }
            let (w, h) = (13, 6);
            let blocks = random_blocks(&mut rng, format, w, h);
            let file = writers::dds(w, h, fourcc, dxgi, style, &blocks);
            let info = ImageInfo::parse(&file, "dds").unwrap();
            let image = decode_image(&file, "dds").unwrap();
            assert_eq!(image, dxt::decode(format, w, h, &blocks, "", 0).unwrap());
            if format != BlockFormat::Dxt1 {
                check(format, w, h, &blocks, &image);
            }
            // Cut inside the last block: a precise error, from the header reader already.
            let cut = ImageInfo::parse(&file[..file.len() - 1], "dds").unwrap_err();
            writeln!(
                out,
                "{} {style:?}: {} {}x{} {} bits; cut: {cut}",
                String::from_utf8_lossy(fourcc),
                info.pixel_format.unwrap(),
                info.width,
                info.height,
                info.bit_depth,
            )
            .unwrap();
        }
    }
    // The UT2004 exporter's header with its own format, DXT1 (pixel format size and flags 0).
    let blocks = random_blocks(&mut rng, BlockFormat::Dxt1, 8, 4);
    let file = writers::dds(8, 4, b"DXT1", 0, DdsStyle::Ut2004Exporter, &blocks);
    assert_eq!(
        decode_image(&file, "dds").unwrap(),
        dxt::decode(BlockFormat::Dxt1, 8, 4, &blocks, "", 0).unwrap()
    );
    // A DX10 header cut short, and a DXGI format that is no block format.
    let short = writers::dds(4, 4, b"DX10", 98, DdsStyle::Standard, &[])[..140].to_vec();
    let rgba = writers::dds(1, 1, b"DX10", 28, DdsStyle::Standard, &[0; 4]);
    let unknown = writers::dds(4, 4, b"ATI3", 0, DdsStyle::Standard, &[0; 16]);
    for (name, file) in [("short DX10", &short), ("DXGI 28", &rgba), ("ATI3", &unknown)] {
        let result = decode_image(file, "dds").map(|i| format!("{}x{}", i.width, i.height));
        writeln!(out, "{name}: {}", result.unwrap_or_else(|e| e.to_string())).unwrap();
    }
    expect![[r#"
        ATI1 Standard: ATI1 13x6 4 bits; cut: DDS data at byte 128: expected 64 bytes for the first ATI1 mip of 13x6, the file has 63
        ATI1 Ut2004Exporter: ATI1 13x6 4 bits; cut: DDS data at byte 128: expected 64 bytes for the first ATI1 mip of 13x6, the file has 63
        BC4U Standard: BC4U 13x6 4 bits; cut: DDS data at byte 128: expected 64 bytes for the first BC4U mip of 13x6, the file has 63
        BC4U Ut2004Exporter: BC4U 13x6 4 bits; cut: DDS data at byte 128: expected 64 bytes for the first BC4U mip of 13x6, the file has 63
        BC4S Standard: BC4S 13x6 4 bits; cut: DDS data at byte 128: expected 64 bytes for the first BC4S mip of 13x6, the file has 63
        BC4S Ut2004Exporter: BC4S 13x6 4 bits; cut: DDS data at byte 128: expected 64 bytes for the first BC4S mip of 13x6, the file has 63
        ATI2 Standard: ATI2 13x6 8 bits; cut: DDS data at byte 128: expected 128 bytes for the first ATI2 mip of 13x6, the file has 127
        ATI2 Ut2004Exporter: ATI2 13x6 8 bits; cut: DDS data at byte 128: expected 128 bytes for the first ATI2 mip of 13x6, the file has 127
        BC5U Standard: BC5U 13x6 8 bits; cut: DDS data at byte 128: expected 128 bytes for the first BC5U mip of 13x6, the file has 127
        BC5U Ut2004Exporter: BC5U 13x6 8 bits; cut: DDS data at byte 128: expected 128 bytes for the first BC5U mip of 13x6, the file has 127
        BC5S Standard: BC5S 13x6 8 bits; cut: DDS data at byte 128: expected 128 bytes for the first BC5S mip of 13x6, the file has 127
        BC5S Ut2004Exporter: BC5S 13x6 8 bits; cut: DDS data at byte 128: expected 128 bytes for the first BC5S mip of 13x6, the file has 127
        DX10 Standard: BC4_UNORM 13x6 4 bits; cut: DDS data at byte 148: expected 64 bytes for the first BC4_UNORM mip of 13x6, the file has 63
        DX10 Standard: BC4_SNORM 13x6 4 bits; cut: DDS data at byte 148: expected 64 bytes for the first BC4_SNORM mip of 13x6, the file has 63
        DX10 Standard: BC5_UNORM 13x6 8 bits; cut: DDS data at byte 148: expected 128 bytes for the first BC5_UNORM mip of 13x6, the file has 127
        DX10 Standard: BC5_SNORM 13x6 8 bits; cut: DDS data at byte 148: expected 128 bytes for the first BC5_SNORM mip of 13x6, the file has 127
        DX10 Standard: BC6H_UF16 13x6 8 bits; cut: DDS data at byte 148: expected 128 bytes for the first BC6H_UF16 mip of 13x6, the file has 127
        DX10 Standard: BC6H_SF16 13x6 8 bits; cut: DDS data at byte 148: expected 128 bytes for the first BC6H_SF16 mip of 13x6, the file has 127
        DX10 Standard: BC7_UNORM 13x6 8 bits; cut: DDS data at byte 148: expected 128 bytes for the first BC7_UNORM mip of 13x6, the file has 127
        DX10 Standard: BC7_UNORM_SRGB 13x6 8 bits; cut: DDS data at byte 148: expected 128 bytes for the first BC7_UNORM_SRGB mip of 13x6, the file has 127
        DX10 Standard: BC1_UNORM 13x6 4 bits; cut: DDS data at byte 148: expected 64 bytes for the first BC1_UNORM mip of 13x6, the file has 63
        short DX10: DDS DX10 header at byte 128: expected the 20-byte DX10 header after the 128-byte header, the file has 140 bytes
        DXGI 28: DDS header at byte 84: expected a FourCC of DXT1 to DXT5, ATI1, ATI2, BC4U, BC4S, BC5U or BC5S, or a DX10 header of a BC1 to BC7 format, found DX10 DXGI format 28
        ATI3: DDS header at byte 84: expected a FourCC of DXT1 to DXT5, ATI1, ATI2, BC4U, BC4S, BC5U or BC5S, or a DX10 header of a BC1 to BC7 format, found ATI3
    "#]]
    .assert_eq(&out);
}

fn prop(name: usize, type_id: u8, value: Vec<u8>) -> Prop {
    Prop { name, type_id, struct_name: None, array_index: 0, bool_value: false, value }
}

fn mip(o: &mut Obj, w: u32, h: u32, pixels: &[u8]) {
    o.lazy(pixels.len(), pixels);
    o.u32(w).u32(h).u8(w.trailing_zeros() as u8).u8(h.trailing_zeros() as u8);
}

/// A v69 package with licensee `licensee` holding, for each `(name, format byte, blocks)`, a
/// texture of 13x6 with that `Format` and one mip; and `NoDataComp`, whose `Format` is
/// `nodata` and whose only pixels are one BC7 `CompMips` mip.
fn package(
    licensee: u16,
    textures: &[(&'static str, u8, Vec<u8>)],
    nodata: u8,
    comp: &[u8],
) -> Vec<u8> {
    let mut w = PackageWriter::new(69, licensee);
    let texture = w.engine_class("Texture");
    for n in ["Format", "USize", "VSize", "bHasComp", "CompFormat"] {
        w.name(n);
    }
    for (name, format, blocks) in textures.iter().cloned() {
        w.export(
            texture,
            0,
            name,
            0,
            Box::new(move |o, w| {
                let n = |s: &str| w.names.iter().position(|x| x == s).unwrap();
                write_props(o, &[prop(n("Format"), 1, vec![format])], w.none());
                o.index(1);
                mip(o, 13, 6, &blocks);
            }),
        );
    }
    let comp = comp.to_vec();
    w.export(
        texture,
        0,
        "NoDataComp",
        0,
        Box::new(move |o, w| {
            let n = |s: &str| w.names.iter().position(|x| x == s).unwrap();
            let props = [
                prop(n("Format"), 1, vec![nodata]),
                prop(n("USize"), 2, 13u32.to_le_bytes().to_vec()),
                prop(n("VSize"), 2, 6u32.to_le_bytes().to_vec()),
                Prop { bool_value: true, ..prop(n("bHasComp"), 3, Vec::new()) },
                prop(n("CompFormat"), 1, vec![12]),
            ];
            write_props(o, &props, w.none());
            o.index(0);
            o.index(1);
            mip(o, 13, 6, &comp);
        }),
    );
    w.finish()
}

#[test]
fn package_textures_in_v469_and_227_numbering() {
    let mut rng = Rng::new(0x469);
    // UT v469's Bitmap.uc: 8 BC4, 9 BC4_S, 10 BC5, 11 BC5_S, 12 BC7, 13 BC6H_S, 14 BC6H.
    let numbered = [
        ("Bc4", 8, BlockFormat::Bc4 { signed: false }),
        ("Bc4S", 9, BlockFormat::Bc4 { signed: true }),
        ("Bc5", 10, BlockFormat::Bc5 { signed: false }),
        ("Bc5S", 11, BlockFormat::Bc5 { signed: true }),
        ("Bc7", 12, BlockFormat::Bc7),
        ("Bc6hS", 13, BlockFormat::Bc6h { signed: true }),
        ("Bc6h", 14, BlockFormat::Bc6h { signed: false }),
    ];
    let mut textures: Vec<_> = numbered
        .iter()
        .map(|&(name, byte, format)| (name, byte, random_blocks(&mut rng, format, 13, 6)))
        .collect();
    // Format 19 with a plain mip: NODATA in v469, MONO in 227; neither has pixels to show.
    textures.push(("Nineteen", 19, vec![0xaa; 10]));
    let comp = random_blocks(&mut rng, BlockFormat::Bc7, 13, 6);
    let mut out = String::new();
    // 469 (licensee 0): 19 is NODATA. 227 (licensee 227): 19 is MONO, 122 NODATA.
    for (licensee, nodata) in [(0, 19), (227, 122), (227, 19)] {
        let bytes = package(licensee, &textures, nodata, &comp);
        let package = Package::parse(&bytes).unwrap();
        writeln!(out, "licensee {licensee}, NoDataComp Format={nodata}:").unwrap();
        for ((name, _, format), (_, _, blocks)) in numbered.iter().zip(&textures) {
            let export = package.find(name).unwrap();
            let image = package.decode_texture(export, 0, MipSource::Auto).unwrap();
            check(*format, 13, 6, blocks, &image);
        }
        let export = package.find("NoDataComp").unwrap();
        match package.decode_texture(export, 0, MipSource::Auto) {
            Ok(image) => {
                check(BlockFormat::Bc7, 13, 6, &comp, &image);
                writeln!(out, "  NoDataComp: the BC7 CompMips decode").unwrap();
            }
            Err(e) => writeln!(out, "  NoDataComp: {e}").unwrap(),
        }
        let summary = package_summary(&package);
        for o in &summary.objects {
            writeln!(out, "  {} {}", o.path, o.detail.as_deref().unwrap_or("-")).unwrap();
        }
        let nineteen = package.find("Nineteen").unwrap();
        let err = package.decode_texture(nineteen, 0, MipSource::Auto).unwrap_err();
        writeln!(out, "  Nineteen: {err}").unwrap();
    }
    expect![[r#"
        licensee 0, NoDataComp Format=19:
          NoDataComp: the BC7 CompMips decode
          Bc4 BC4 13x6, 1 mip
          Bc4S BC4_S 13x6, 1 mip
          Bc5 BC5 13x6, 1 mip
          Bc5S BC5_S 13x6, 1 mip
          Bc7 BC7 13x6, 1 mip
          Bc6hS BC6H_S 13x6, 1 mip
          Bc6h BC6H 13x6, 1 mip
          Nineteen NODATA 13x6, 1 mip
          NoDataComp NODATA 13x6, 0 mips, 1 BC7 CompMips
          Nineteen: Texture Nineteen (export 7) at byte 1234: expected a texture format with pixels to decode, found NODATA
        licensee 227, NoDataComp Format=122:
          NoDataComp: the BC7 CompMips decode
          Bc4 BC4 13x6, 1 mip
          Bc4S BC4_S 13x6, 1 mip
          Bc5 BC5 13x6, 1 mip
          Bc5S BC5_S 13x6, 1 mip
          Bc7 BC7 13x6, 1 mip
          Bc6hS BC6H_S 13x6, 1 mip
          Bc6h BC6H 13x6, 1 mip
          Nineteen MONO 13x6, 1 mip
          NoDataComp NODATA 13x6, 0 mips, 1 BC7 CompMips
          Nineteen: Texture Nineteen (export 7) at byte 1234: expected a texture format with pixels to decode, found MONO (Unreal 227's monochrome format, whose layout its public headers do not give)
        licensee 227, NoDataComp Format=19:
          NoDataComp: the BC7 CompMips decode
          Bc4 BC4 13x6, 1 mip
          Bc4S BC4_S 13x6, 1 mip
          Bc5 BC5 13x6, 1 mip
          Bc5S BC5_S 13x6, 1 mip
          Bc7 BC7 13x6, 1 mip
          Bc6hS BC6H_S 13x6, 1 mip
          Bc6h BC6H 13x6, 1 mip
          Nineteen MONO 13x6, 1 mip
          NoDataComp MONO 13x6, 0 mips, 1 BC7 CompMips
          Nineteen: Texture Nineteen (export 7) at byte 1234: expected a texture format with pixels to decode, found MONO (Unreal 227's monochrome format, whose layout its public headers do not give)
    "#]].assert_eq(&out);
}
