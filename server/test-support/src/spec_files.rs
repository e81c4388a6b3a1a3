//! Writers of tiny binary files for fixture trees, from one-line specs such as
//! `mesh-data verts=4 tris=2 slots=1` or `bmp 64x64 bpp=24`. Every file is the smallest one
//! the readers accept; pixels and samples are zero (an 8-bit BMP's pixels hold index `fill=N`
//! when given).

fn u16le(out: &mut Vec<u8>, v: u16) {
    out.extend_from_slice(&v.to_le_bytes());
}

fn u32le(out: &mut Vec<u8>, v: u32) {
    out.extend_from_slice(&v.to_le_bytes());
}

/// `key=value` of a spec, parsed as a number.
fn num(words: &[&str], key: &str, default: u32) -> u32 {
    words
        .iter()
        .find_map(|w| w.strip_prefix(key).and_then(|r| r.strip_prefix('=')))
        .map_or(default, |v| v.parse().unwrap())
}

fn list(words: &[&str], key: &str) -> Vec<u8> {
    words
        .iter()
        .find_map(|w| w.strip_prefix(key).and_then(|r| r.strip_prefix('=')))
        .map(|v| v.split(',').map(|n| n.parse().unwrap()).collect())
        .unwrap_or_default()
}

/// `WxH` as the first argument.
fn size(words: &[&str]) -> (u32, u32) {
    let (w, h) = words[1].split_once('x').unwrap();
    (w.parse().unwrap(), h.parse().unwrap())
}

/// Builds the file a spec describes.
pub fn build(spec: &str) -> Vec<u8> {
    let words: Vec<&str> = spec.split_whitespace().collect();
    match words[0] {
        "mesh-data" => {
            mesh_data(num(&words, "verts", 3), num(&words, "tris", 1), &list(&words, "slots"))
        }
        "mesh-anim" => {
            // `cut=N`: the last N bytes missing (a file shorter than its header counts).
            let mut anim = mesh_anim(num(&words, "verts", 3), num(&words, "frames", 1));
            anim.truncate(anim.len().saturating_sub(num(&words, "cut", 0) as usize));
            // `size=N`: the header states frames of N bytes whatever the data holds.
            let size = num(&words, "size", 0);
            if size != 0 {
                anim[2..4].copy_from_slice(&(size as u16).to_le_bytes());
            }
            anim
        }
        "bmp" => {
            let (w, h) = size(&words);
            let mut image = bmp(w, h, num(&words, "bpp", 8));
            // `fill=N`: every pixel of an 8-bit image holds palette index N (not 0), rows'
            // padding aside.
            let fill = num(&words, "fill", 0);
            if fill != 0 && num(&words, "bpp", 8) == 8 {
                let stride = w.div_ceil(4) * 4;
                let offset = image.len() - (stride * h) as usize;
                for row in image[offset..].chunks_mut(stride as usize) {
                    row[..w as usize].fill(fill as u8);
                }
            }
            image
        }
        "pcx" => {
            let (w, h) = size(&words);
            pcx(w, h, num(&words, "bpp", 8))
        }
        "tga" => {
            let (w, h) = size(&words);
            tga(w, h, num(&words, "bpp", 24))
        }
        "png" => {
            let (w, h) = size(&words);
            png_image(w, h)
        }
        "dds" => {
            let (w, h) = size(&words);
            dds_dxt1(w, h)
        }
        // `package objects=Texture:Skins.Rust,Texture:Chrome`: a v69 package of those empty
        // objects (`Group.Name` makes a group).
        "package" if words.iter().any(|w| w.starts_with("objects=")) => {
            let spec = words.iter().find_map(|w| w.strip_prefix("objects=")).unwrap_or("");
            let objects: Vec<(&str, &str)> =
                spec.split(',').map(|o| o.split_once(':').unwrap_or(("Texture", o))).collect();
            crate::writers::object_package(&objects)
        }
        // `package version=69 licensee=227`: an empty package with that version word.
        "package" => crate::writers::PackageWriter::new(
            num(&words, "version", 69) as u16,
            num(&words, "licensee", 0) as u16,
        )
        .finish(),
        "wav" => wav(num(&words, "format", 1)),
        "psk" => psk(num(&words, "materials", 1), &list(&words, "slots")),
        "psa" => chunk("ANIMHEAD", 0, 0),
        "text" => words[1..].join(" ").into_bytes(),
        other => panic!("unknown file spec {other:?}"),
    }
}

/// `_d.3d`: 48-byte header, then 16-byte triangles on the given slots (cycled).
fn mesh_data(verts: u32, tris: u32, slots: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    u16le(&mut out, tris as u16);
    u16le(&mut out, verts as u16);
    out.resize(48, 0);
    for i in 0..tris {
        for corner in 0..3 {
            u16le(&mut out, ((i + corner) % verts) as u16);
        }
        out.extend_from_slice(&[0, 0, 0, 0, 0, 0, 0, 0]); // type, color, uv
        let slot = if slots.is_empty() { 0 } else { slots[i as usize % slots.len()] };
        out.extend_from_slice(&[slot, 0]);
    }
    out
}

/// `_a.3d`: frame count, frame size (4 bytes a vertex), zero frames.
fn mesh_anim(verts: u32, frames: u32) -> Vec<u8> {
    let mut out = Vec::new();
    u16le(&mut out, frames as u16);
    u16le(&mut out, (verts * 4) as u16);
    out.resize(4 + (frames * verts * 4) as usize, 0);
    out
}

fn bmp(w: u32, h: u32, bpp: u32) -> Vec<u8> {
    let palette = if bpp <= 8 { 4 * (1 << bpp) } else { 0 };
    let stride = (w * bpp).div_ceil(32) * 4;
    let offset = 14 + 40 + palette;
    let mut out = b"BM".to_vec();
    u32le(&mut out, offset + stride * h);
    u32le(&mut out, 0);
    u32le(&mut out, offset);
    u32le(&mut out, 40);
    u32le(&mut out, w);
    u32le(&mut out, h);
    u16le(&mut out, 1);
    u16le(&mut out, bpp as u16);
    u32le(&mut out, 0); // uncompressed
    out.resize((offset + stride * h) as usize, 0);
    out
}

fn pcx(w: u32, h: u32, bpp: u32) -> Vec<u8> {
    let planes = if bpp == 24 { 3 } else { 1 };
    let mut out = vec![0x0a, 5, 1, 8];
    for v in [0, 0, w - 1, h - 1] {
        u16le(&mut out, v as u16);
    }
    out.resize(65, 0);
    out.push(planes);
    out.resize(128, 0);
    if planes == 1 {
        out.push(0x0c);
        out.resize(128 + 769, 0);
    }
    out
}

fn tga(w: u32, h: u32, bpp: u32) -> Vec<u8> {
    let mut out = vec![0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0];
    u16le(&mut out, w as u16);
    u16le(&mut out, h as u16);
    out.extend_from_slice(&[bpp as u8, 0]);
    out.resize(18 + (w * h * bpp / 8) as usize, 0);
    out
}

/// An 8-bit RGBA PNG of zero pixels.
fn png_image(w: u32, h: u32) -> Vec<u8> {
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, w, h);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header().unwrap();
    writer.write_image_data(&vec![0; (w * h * 4) as usize]).unwrap();
    writer.finish().unwrap();
    out
}

/// A DXT1 DDS of one mip level, zero blocks.
fn dds_dxt1(w: u32, h: u32) -> Vec<u8> {
    let mut out = b"DDS ".to_vec();
    u32le(&mut out, 124);
    u32le(&mut out, 0x1 | 0x2 | 0x4 | 0x1000 | 0x80000); // caps, height, width, pixel format, linear size
    u32le(&mut out, h);
    u32le(&mut out, w);
    let blocks = w.div_ceil(4) * h.div_ceil(4);
    u32le(&mut out, blocks * 8);
    u32le(&mut out, 0); // depth
    u32le(&mut out, 1); // mips
    out.resize(4 + 72, 0); // reserved
    u32le(&mut out, 32);
    u32le(&mut out, 0x4); // FourCC
    out.extend_from_slice(b"DXT1");
    out.resize(4 + 124 - 20, 0);
    u32le(&mut out, 0x1000); // caps: texture
    out.resize(4 + 124, 0);
    out.resize(4 + 124 + (blocks * 8) as usize, 0);
    out
}

fn wav(format: u32) -> Vec<u8> {
    let mut out = b"RIFF".to_vec();
    u32le(&mut out, 4 + 24 + 8 + 4);
    out.extend_from_slice(b"WAVEfmt ");
    u32le(&mut out, 16);
    u16le(&mut out, format as u16);
    u16le(&mut out, 1); // channels
    u32le(&mut out, 22050);
    u32le(&mut out, 44100);
    u16le(&mut out, 2);
    u16le(&mut out, 16);
    out.extend_from_slice(b"data");
    u32le(&mut out, 4);
    out.extend_from_slice(&[0; 4]);
    out
}

fn chunk(id: &str, size: u32, count: u32) -> Vec<u8> {
    let mut out = id.as_bytes().to_vec();
    out.resize(20, 0);
    u32le(&mut out, 0x001e_83b9);
    u32le(&mut out, size);
    u32le(&mut out, count);
    out
}

/// A `.psk` with three points, one wedge a face corner, one face per slot, and `materials`
/// materials.
fn psk(materials: u32, slots: &[u8]) -> Vec<u8> {
    let faces = slots.len().max(1) as u32;
    let mut out = chunk("ACTRHEAD", 0, 0);
    out.extend(chunk("PNTS0000", 12, 3));
    out.resize(out.len() + 36, 0);
    out.extend(chunk("VTXW0000", 16, 3));
    for point in 0..3 {
        u32le(&mut out, point);
        out.extend_from_slice(&[0; 12]);
    }
    out.extend(chunk("FACE0000", 12, faces));
    for i in 0..faces {
        for wedge in 0..3 {
            u16le(&mut out, wedge);
        }
        out.extend_from_slice(&[slots.get(i as usize).copied().unwrap_or(0), 0]);
        u32le(&mut out, 0);
    }
    out.extend(chunk("MATT0000", 88, materials));
    out.resize(out.len() + 88 * materials as usize, 0);
    out
}
