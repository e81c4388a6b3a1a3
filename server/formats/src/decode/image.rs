//! Import sources to RGBA: the PCX, BMP, TGA, DDS and PNG files `#exec TEXTURE IMPORT` names.
//!
//! PNG goes through the `png` crate, BMP and TGA through the `image` crate (only those two
//! codecs), compressed blocks in DDS (DXT1 to DXT5, BC4, BC5, BC6H, BC7) through
//! [`super::dxt`]. PCX and the DDS container are decoded
//! here: no maintained crate reads PCX without panicking on truncated files, and the DDS
//! container is 128 bytes of header that [`crate::image`] already validates. Every
//! decoder sees the image size before allocating and refuses more than [`MAX_PIXELS`].

use std::io::Cursor;

use super::dxt::{self, BlockFormat};
use super::{RgbaImage, MAX_PIXELS};
use crate::error::{Error, Result};
use crate::image::{ImageFormat, ImageInfo};

/// Decodes a whole import-source image (its first mip for DDS).
pub fn decode_image(data: &[u8], extension: &str) -> Result<RgbaImage> {
    let info = ImageInfo::parse(data, extension)?;
    if u64::from(info.width) * u64::from(info.height) > MAX_PIXELS {
        return Err(Error::new(
            format!("{} image", info.format.name()),
            0,
            format!("at most {MAX_PIXELS} pixels to decode, found {}x{}", info.width, info.height),
        ));
    }
    match info.format {
        ImageFormat::Png => decode_png(data),
        ImageFormat::Bmp => decode_with_image_crate(
            &bmp_without_bogus_bitfields(data),
            ::image::ImageFormat::Bmp,
            "BMP",
        ),
        ImageFormat::Tga => decode_with_image_crate(data, ::image::ImageFormat::Tga, "TGA"),
        ImageFormat::Pcx => decode_pcx(data, &info),
        ImageFormat::Dds => decode_dds(data, &info),
    }
}

fn decode_png(data: &[u8]) -> Result<RgbaImage> {
    let fail = |e: png::DecodingError| Error::new("PNG image", 0, format!("a decodable PNG ({e})"));
    let mut decoder = png::Decoder::new_with_limits(
        Cursor::new(data),
        png::Limits { bytes: (MAX_PIXELS * 4) as usize },
    );
    decoder.set_transformations(png::Transformations::normalize_to_color8());
    // As `ImageInfo::parse`: the colour profile and the text are not used (nor inflated).
    decoder.set_ignore_iccp_chunk(true);
    decoder.set_ignore_text_chunk(true);
    let mut reader = decoder.read_info().map_err(fail)?;
    // The image data read first: an APNG's first frame control overrides the header's size.
    let info = reader.info();
    let (width, height) =
        info.frame_control.map_or((info.width, info.height), |fc| (fc.width, fc.height));
    let interlaced = info.interlaced;
    let mut image = RgbaImage::new(width, height, "PNG image", 0)?;
    let (color_type, depth) = reader.output_color_type();
    let channels = match color_type {
        png::ColorType::Grayscale => 1,
        png::ColorType::GrayscaleAlpha => 2,
        png::ColorType::Rgb => 3,
        png::ColorType::Rgba => 4,
        png::ColorType::Indexed => {
            return Err(Error::new("PNG image", 0, "indexed colour expanded to RGB"));
        }
    };
    let line_size = reader.output_line_size(width);
    // Exactly the rows the image has, not `next_frame`: after the last row, that (and asking
    // for one row more) inflates and discards whatever compressed data the file has left,
    // up to about a thousand times its size in work that shows nothing.
    let rows = png_rows(width, height, interlaced);
    let missing =
        || Error::new("PNG image", 0, format!("{rows} rows of image data for {width}x{height}"));
    if !interlaced {
        // Each row straight into the image: no second buffer of the whole image.
        for y in 0..height {
            let row = reader.next_interlaced_row().map_err(fail)?.ok_or_else(missing)?;
            put_png_row(&mut image, y, row.data(), channels);
        }
        return Ok(image);
    }
    // Adam7: the passes' rows spread over the whole image first.
    let mut buf = vec![0; line_size * height as usize];
    let bits_per_pixel = color_type.samples() as u8 * depth as u8;
    for _ in 0..rows {
        let row = reader.next_interlaced_row().map_err(fail)?.ok_or_else(missing)?;
        if let png::InterlaceInfo::Adam7(pass) = row.interlace() {
            png::expand_interlaced_row(&mut buf, line_size, row.data(), pass, bits_per_pixel);
        }
    }
    for (y, row) in (0..height).zip(buf.chunks(line_size.max(1))) {
        put_png_row(&mut image, y, row, channels);
    }
    Ok(image)
}

/// One row of 8-bit samples (grey, grey and alpha, RGB or RGBA) as line `y` of `image`.
/// By rows, not `put` by pixel: an RGBA row is one copy.
fn put_png_row(image: &mut RgbaImage, y: u32, row: &[u8], channels: usize) {
    let stride = image.width as usize * 4;
    let at = y as usize * stride;
    let Some(out) = image.pixels.get_mut(at..at + stride) else { return };
    if channels == 4 {
        if let Some(row) = row.get(..stride) {
            out.copy_from_slice(row);
            return;
        }
    }
    for (rgba, px) in out.chunks_exact_mut(4).zip(row.chunks_exact(channels)) {
        let value = match *px {
            [l] => [l, l, l, 255],
            [l, a] => [l, l, l, a],
            [r, g, b] => [r, g, b, 255],
            [r, g, b, a] => [r, g, b, a],
            _ => [0; 4],
        };
        rgba.copy_from_slice(&value);
    }
}

/// The rows a PNG of `width` x `height` stores: one per line, or for Adam7 those of its seven
/// passes (pass `p` takes every `dx`-th pixel from `x0` of every `dy`-th line from `y0`; a
/// pass with no pixel in a line stores no row).
fn png_rows(width: u32, height: u32, interlaced: bool) -> u32 {
    const PASSES: [(u32, u32, u32, u32); 7] = [
        (0, 8, 0, 8),
        (4, 8, 0, 8),
        (0, 4, 4, 8),
        (2, 4, 0, 4),
        (0, 2, 2, 4),
        (1, 2, 0, 2),
        (0, 1, 1, 2),
    ];
    if !interlaced {
        return height;
    }
    PASSES
        .iter()
        .filter(|&&(x0, dx, _, _)| width.saturating_sub(x0).div_ceil(dx) > 0)
        .map(|&(_, _, y0, dy)| height.saturating_sub(y0).div_ceil(dy))
        .sum()
}

/// Some editors write paletted (1-, 4- or 8-bit) BMPs that claim `BI_BITFIELDS` compression
/// with 5:6:5 masks (the corpus has one that UCC imported); masks mean nothing for palette
/// indices, so such a file is read as the uncompressed paletted image it is.
fn bmp_without_bogus_bitfields(data: &[u8]) -> std::borrow::Cow<'_, [u8]> {
    let field = |at: usize| data.get(at..at + 2).map_or(0, |b| u16::from_le_bytes([b[0], b[1]]));
    let compression = data.get(30..34).map_or(0, |b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]));
    if compression == 3 && field(28) <= 8 {
        let mut fixed = data.to_vec();
        if let Some(c) = fixed.get_mut(30..34) {
            c.copy_from_slice(&0u32.to_le_bytes());
        }
        return std::borrow::Cow::Owned(fixed);
    }
    std::borrow::Cow::Borrowed(data)
}

fn decode_with_image_crate(
    data: &[u8],
    format: ::image::ImageFormat,
    name: &str,
) -> Result<RgbaImage> {
    let structure = format!("{name} image");
    let mut reader = ::image::ImageReader::with_format(Cursor::new(data), format);
    let mut limits = ::image::Limits::default();
    limits.max_image_width = Some(8192);
    limits.max_image_height = Some(8192);
    limits.max_alloc = Some(MAX_PIXELS * 4 * 2);
    reader.limits(limits);
    let decoded = reader
        .decode()
        .map_err(|e| Error::new(structure.clone(), 0, format!("a decodable {name} image ({e})")))?;
    let rgba = decoded.into_rgba8();
    let (width, height) = rgba.dimensions();
    let mut image = RgbaImage::new(width, height, &structure, 0)?;
    let raw = rgba.into_raw();
    if raw.len() != image.pixels.len() {
        return Err(Error::new(structure, 0, "a decoded image of the size its header gives"));
    }
    image.pixels = raw;
    Ok(image)
}

/// PCX: RLE scanlines of `planes` planes of `bytes_per_line` bytes each. 8-bit images keep
/// their 256-colour palette after a 0x0C marker at the end; 1- and 4-bit ones use the
/// 16-colour palette in the header; 24- and 32-bit images are 3 or 4 planes of 8 bits.
fn decode_pcx(data: &[u8], info: &ImageInfo) -> Result<RgbaImage> {
    let header = data.get(..128).ok_or_else(|| Error::new("PCX header", 0, "a 128-byte header"))?;
    let bits = header[3];
    let planes = header[65];
    let rle = header[2] == 1;
    let bytes_per_line = usize::from(u16::from_le_bytes([header[66], header[67]]));
    let (w, h) = (info.width as usize, info.height as usize);
    let line_bits = usize::from(bits) * w;
    if bytes_per_line * 8 < line_bits {
        return Err(Error::new(
            "PCX header",
            66,
            format!("bytes per line of at least {} for {w} pixels of {bits} bits, found {bytes_per_line}", line_bits.div_ceil(8)),
        ));
    }
    let scanline = bytes_per_line * usize::from(planes);
    let pixel_end = if info.bit_depth == 8 && planes == 1 {
        data.len().saturating_sub(769)
    } else {
        data.len()
    };
    let body = data.get(128..pixel_end).unwrap_or_default();
    // Unpack every scanline first: bounded by the header's size, which is bounded above.
    let total = scanline * h;
    let mut raw = Vec::with_capacity(total.min(body.len() * 64));
    let mut i = 0;
    while raw.len() < total {
        let Some(&b) = body.get(i) else {
            return Err(Error::new(
                "PCX pixels",
                128 + i,
                format!("{total} bytes of scanlines, the data ends after {}", raw.len()),
            ));
        };
        i += 1;
        if rle && b & 0xc0 == 0xc0 {
            let value = body
                .get(i)
                .copied()
                .ok_or_else(|| Error::new("PCX pixels", 128 + i, "the value byte of a run"))?;
            i += 1;
            let run = usize::from(b & 0x3f).min(total - raw.len());
            raw.extend(std::iter::repeat_n(value, run));
        } else {
            raw.push(b);
        }
    }
    let mut image = RgbaImage::new(info.width, info.height, "PCX image", 0)?;
    let ega: Vec<[u8; 4]> =
        header[16..64].chunks_exact(3).map(|c| [c[0], c[1], c[2], 255]).collect();
    let vga: Vec<[u8; 4]> = if info.bit_depth == 8 && planes == 1 {
        data.get(data.len().saturating_sub(768)..)
            .unwrap_or_default()
            .chunks_exact(3)
            .map(|c| [c[0], c[1], c[2], 255])
            .collect()
    } else {
        Vec::new()
    };
    for (y, line) in raw.chunks_exact(scanline).take(h).enumerate() {
        let plane =
            |p: usize| line.get(p * bytes_per_line..(p + 1) * bytes_per_line).unwrap_or_default();
        for x in 0..w {
            let rgba = match (bits, planes) {
                (8, 1) => vga.get(usize::from(plane(0).get(x).copied().unwrap_or(0))).copied().unwrap_or([0, 0, 0, 255]),
                (8, 3 | 4) => {
                    let c = |p| plane(p).get(x).copied().unwrap_or(0);
                    [c(0), c(1), c(2), if planes == 4 { c(3) } else { 255 }]
                }
                (1, 1..=4) => {
                    let mut index = 0usize;
                    for p in 0..usize::from(planes) {
                        let byte = plane(p).get(x / 8).copied().unwrap_or(0);
                        index |= usize::from((byte >> (7 - x % 8)) & 1) << p;
                    }
                    if planes == 1 {
                        if index == 1 { [255, 255, 255, 255] } else { [0, 0, 0, 255] }
                    } else {
                        ega.get(index).copied().unwrap_or([0, 0, 0, 255])
                    }
                }
                (4, 1) => {
                    let byte = plane(0).get(x / 2).copied().unwrap_or(0);
                    let index = if x % 2 == 0 { byte >> 4 } else { byte & 0x0f };
                    ega.get(usize::from(index)).copied().unwrap_or([0, 0, 0, 255])
                }
                _ => {
                    return Err(Error::new(
                        "PCX header",
                        3,
                        format!("8 bits in 1, 3 or 4 planes, or 1 bit in 1 to 4 planes, or 4 bits in 1 plane; found {bits} bits in {planes} planes"),
                    ))
                }
            };
            image.put(x as u32, y as u32, rgba);
        }
    }
    Ok(image)
}

/// DDS: the first mip, in a block format (DXT1 to DXT5, DXT2/4 read as 3/5 with their
/// premultiplied alpha left as is; BC4, BC5, BC6H and BC7 by legacy `FourCC` or DX10 header) or
/// an uncompressed layout described by channel masks.
fn decode_dds(data: &[u8], info: &ImageInfo) -> Result<RgbaImage> {
    let block = match info.pixel_format.as_deref() {
        Some("DXT1" | "BC1_TYPELESS" | "BC1_UNORM" | "BC1_UNORM_SRGB") => Some(BlockFormat::Dxt1),
        Some("DXT2" | "DXT3" | "BC2_TYPELESS" | "BC2_UNORM" | "BC2_UNORM_SRGB") => {
            Some(BlockFormat::Dxt3)
        }
        Some("DXT4" | "DXT5" | "BC3_TYPELESS" | "BC3_UNORM" | "BC3_UNORM_SRGB") => {
            Some(BlockFormat::Dxt5)
        }
        Some("ATI1" | "BC4U" | "BC4_TYPELESS" | "BC4_UNORM") => {
            Some(BlockFormat::Bc4 { signed: false })
        }
        Some("BC4S" | "BC4_SNORM") => Some(BlockFormat::Bc4 { signed: true }),
        Some("ATI2" | "BC5U" | "BC5_TYPELESS" | "BC5_UNORM") => {
            Some(BlockFormat::Bc5 { signed: false })
        }
        Some("BC5S" | "BC5_SNORM") => Some(BlockFormat::Bc5 { signed: true }),
        Some("BC6H_TYPELESS" | "BC6H_UF16") => Some(BlockFormat::Bc6h { signed: false }),
        Some("BC6H_SF16") => Some(BlockFormat::Bc6h { signed: true }),
        // sRGB is not converted: the preview shows the stored values, as for every other
        // format here.
        Some("BC7_TYPELESS" | "BC7_UNORM" | "BC7_UNORM_SRGB") => Some(BlockFormat::Bc7),
        _ => None,
    };
    let start = crate::image::dds_data_offset(data);
    if let Some(block) = block {
        let pixels = data.get(start..).unwrap_or_default();
        return dxt::decode(block, info.width, info.height, pixels, "DDS data", start);
    }
    let pixels = data.get(128..).unwrap_or_default();
    let u32_at = |pos: usize| -> u32 {
        data.get(pos..pos + 4).map_or(0, |b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    };
    let flags = u32_at(80);
    if flags & 0x4 != 0 || start != 128 {
        return Err(Error::new(
            "DDS header",
            84,
            format!(
                "a FourCC of DXT1 to DXT5, ATI1, ATI2, BC4U, BC4S, BC5U or BC5S, or a DX10 \
                 header of a BC1 to BC7 format, found {}",
                info.pixel_format.as_deref().unwrap_or("?")
            ),
        ));
    }
    let bits = u32_at(88);
    let masks =
        [u32_at(92), u32_at(96), u32_at(100), if flags & 0x3 != 0 { u32_at(104) } else { 0 }];
    if ![8, 16, 24, 32].contains(&bits) {
        return Err(Error::new(
            "DDS header",
            88,
            format!("8, 16, 24 or 32 bits per pixel, found {bits}"),
        ));
    }
    let bpp = bits as usize / 8;
    let needed = u64::from(info.width) * u64::from(info.height) * bpp as u64;
    if (pixels.len() as u64) < needed {
        return Err(Error::new(
            "DDS data",
            128,
            format!(
                "{needed} bytes of pixels for {}x{}, the file has {}",
                info.width,
                info.height,
                pixels.len()
            ),
        ));
    }
    let luminance = flags & 0x20000 != 0;
    let alpha_only = flags & 0x2 != 0 && flags & 0x40 == 0 && !luminance;
    let channel = |v: u32, mask: u32| -> u8 {
        if mask == 0 {
            return 0;
        }
        let shift = mask.trailing_zeros();
        let max = u64::from(mask >> shift);
        ((u64::from((v & mask) >> shift) * 255 + max / 2) / max.max(1)) as u8
    };
    let mut image = RgbaImage::new(info.width, info.height, "DDS image", 128)?;
    for (out, px) in image.pixels.chunks_exact_mut(4).zip(pixels.chunks_exact(bpp)) {
        let mut v = 0u32;
        for (i, b) in px.iter().enumerate() {
            v |= u32::from(*b) << (8 * i);
        }
        let a = if masks[3] == 0 { 255 } else { channel(v, masks[3]) };
        let rgba = if alpha_only {
            [255, 255, 255, a]
        } else if luminance {
            let l = channel(v, masks[0]);
            [l, l, l, a]
        } else {
            [channel(v, masks[0]), channel(v, masks[1]), channel(v, masks[2]), a]
        };
        out.copy_from_slice(&rgba);
    }
    Ok(image)
}
