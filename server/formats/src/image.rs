//! Image headers of the files `#exec TEXTURE IMPORT` names: PCX, BMP, TGA, DDS and PNG.
//! Only headers (and the palette's presence) are read; pixels are never decoded.

use crate::error::{Error, Result};
use crate::reader::Reader;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ImageFormat {
    Pcx,
    Bmp,
    Tga,
    Dds,
    Png,
}

impl ImageFormat {
    pub fn name(self) -> &'static str {
        match self {
            Self::Pcx => "PCX",
            Self::Bmp => "BMP",
            Self::Tga => "TGA",
            Self::Dds => "DDS",
            Self::Png => "PNG",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImageInfo {
    pub format: ImageFormat,
    pub width: u32,
    pub height: u32,
    /// Bits per pixel as stored (8 for paletted images).
    pub bit_depth: u32,
    /// True for indexed-colour images with a palette.
    pub paletted: bool,
    /// DDS: the `FourCC` (`DXT1`, `ATI2`), the DXGI format of a DX10 header (`BC7_UNORM`), or
    /// the pixel layout (`RGB32`); others: `None`.
    pub pixel_format: Option<String>,
    /// DDS: mip levels stored.
    pub mips: u32,
    /// BMP: the pixels are compressed (RLE, bit fields; `biCompression` is not `BI_RGB`),
    /// which the engines' importers refuse.
    pub compressed: bool,
}

const MAX_DIMENSION: u32 = 1 << 16;

fn dims(r: &Reader<'_>, pos: usize, w: i64, h: i64) -> Result<(u32, u32)> {
    if w <= 0 || h <= 0 || w > i64::from(MAX_DIMENSION) || h > i64::from(MAX_DIMENSION) {
        return Err(r.error_at(pos, format!("dimensions from 1x1 to 65536x65536, found {w}x{h}")));
    }
    Ok((w as u32, h as u32))
}

impl ImageInfo {
    /// Reads the header of `data`, choosing the format by signature, or by `extension` for
    /// TGA (which has none).
    pub fn parse(data: &[u8], extension: &str) -> Result<Self> {
        match detect(data, extension) {
            Some(ImageFormat::Png) => parse_png(data),
            Some(ImageFormat::Bmp) => parse_bmp(data),
            Some(ImageFormat::Dds) => parse_dds(data),
            Some(ImageFormat::Pcx) => parse_pcx(data),
            Some(ImageFormat::Tga) => parse_tga(data),
            None => Err(Error::new(
                "image",
                0,
                format!("a PCX, BMP, TGA, DDS or PNG signature (extension {extension:?})"),
            )),
        }
    }
}

pub fn detect(data: &[u8], extension: &str) -> Option<ImageFormat> {
    let ext = extension.to_ascii_lowercase();
    if data.starts_with(b"\x89PNG\r\n\x1a\n") {
        Some(ImageFormat::Png)
    } else if data.starts_with(b"BM") && ext != "tga" {
        Some(ImageFormat::Bmp)
    } else if data.starts_with(b"DDS ") {
        Some(ImageFormat::Dds)
    } else if data.first() == Some(&0x0a) && ext == "pcx" {
        Some(ImageFormat::Pcx)
    } else {
        match ext.as_str() {
            "tga" => Some(ImageFormat::Tga),
            "pcx" => Some(ImageFormat::Pcx),
            "bmp" => Some(ImageFormat::Bmp),
            "png" => Some(ImageFormat::Png),
            "dds" => Some(ImageFormat::Dds),
            _ => None,
        }
    }
}

fn parse_png(data: &[u8]) -> Result<ImageInfo> {
    let mut decoder = png::Decoder::new(std::io::Cursor::new(data));
    // Neither the colour profile nor the text is used here: an iCCP chunk would be inflated
    // for nothing.
    decoder.set_ignore_iccp_chunk(true);
    decoder.set_ignore_text_chunk(true);
    let reader = decoder
        .read_info()
        .map_err(|e| Error::new("PNG header", 0, format!("a valid PNG header ({e})")))?;
    let info = reader.info();
    let channels: u32 = match info.color_type {
        png::ColorType::Grayscale | png::ColorType::Indexed => 1,
        png::ColorType::GrayscaleAlpha => 2,
        png::ColorType::Rgb => 3,
        png::ColorType::Rgba => 4,
    };
    let paletted = info.color_type == png::ColorType::Indexed;
    if paletted && info.palette.is_none() {
        return Err(Error::new(
            "PNG header",
            8,
            "a PLTE chunk before IDAT for an indexed-colour image",
        ));
    }
    Ok(ImageInfo {
        format: ImageFormat::Png,
        width: info.width,
        height: info.height,
        bit_depth: channels * info.bit_depth as u32,
        paletted,
        pixel_format: None,
        mips: 1,
        compressed: false,
    })
}

fn parse_bmp(data: &[u8]) -> Result<ImageInfo> {
    let mut r = Reader::new(data, 0, "BMP header");
    let sig = r.array::<2>("signature")?;
    if &sig != b"BM" {
        return Err(r.error_at(0, "the signature \"BM\""));
    }
    r.u32("file size")?;
    r.u32("reserved")?;
    let off_pos = r.pos();
    let data_offset = r.u32("pixel data offset")? as usize;
    let dib_pos = r.pos();
    let dib = r.u32("DIB header size")?;
    let (w, h, bpp, compression, colors_used) = if dib == 12 {
        let w = i64::from(r.u16("width")?);
        let h = i64::from(r.u16("height")?);
        r.u16("planes")?;
        let bpp = r.u16("bits per pixel")?;
        (w, h, bpp, 0, 0)
    } else if dib >= 40 {
        let w = i64::from(r.i32("width")?);
        let h = i64::from(r.i32("height")?);
        r.u16("planes")?;
        let bpp = r.u16("bits per pixel")?;
        let compression = r.u32("compression")?;
        r.skip("image size, resolution", 12)?;
        let colors_used = r.u32("colors used")?;
        (w, h, bpp, compression, colors_used)
    } else {
        return Err(
            r.error_at(dib_pos, format!("a DIB header size of 12 or at least 40, found {dib}"))
        );
    };
    let (width, height) = dims(&r, 18, w, h.abs())?;
    if ![1, 4, 8, 16, 24, 32].contains(&bpp) {
        return Err(r.error_at(28, format!("1, 4, 8, 16, 24 or 32 bits per pixel, found {bpp}")));
    }
    if data_offset > data.len() {
        return Err(r.error_at(
            off_pos,
            format!(
                "a pixel data offset inside the file ({} bytes), found {data_offset}",
                data.len()
            ),
        ));
    }
    // Uncompressed rows are padded to 4 bytes; the pixels must all be there.
    if compression == 0 || compression == 3 {
        let stride = (u64::from(width) * u64::from(bpp)).div_ceil(32) * 4;
        let needed = stride * u64::from(height);
        let available = (data.len() - data_offset) as u64;
        if needed > available {
            return Err(r.error_at(
                data_offset,
                format!("{needed} bytes of pixels for {width}x{height} at {bpp} bits, the file has {available}"),
            ));
        }
    }
    let paletted = bpp <= 8;
    let _ = colors_used;
    Ok(ImageInfo {
        format: ImageFormat::Bmp,
        width,
        height,
        bit_depth: u32::from(bpp),
        paletted,
        pixel_format: None,
        mips: 1,
        compressed: compression != 0,
    })
}

fn parse_pcx(data: &[u8]) -> Result<ImageInfo> {
    let mut r = Reader::new(data, 0, "PCX header");
    if data.len() < 128 {
        return Err(r.error_at(
            data.len(),
            format!("a 128-byte header, the file has {} bytes", data.len()),
        ));
    }
    let manufacturer = r.u8("manufacturer")?;
    if manufacturer != 0x0a {
        return Err(r.error_at(0, format!("manufacturer byte 0x0A, found {manufacturer:#04x}")));
    }
    r.u8("version")?;
    let encoding = r.u8("encoding")?;
    if encoding > 1 {
        return Err(r.error_at(2, format!("encoding 0 or 1 (RLE), found {encoding}")));
    }
    let bpp = r.u8("bits per plane")?;
    let xmin = i64::from(r.u16("xmin")?);
    let ymin = i64::from(r.u16("ymin")?);
    let xmax = i64::from(r.u16("xmax")?);
    let ymax = i64::from(r.u16("ymax")?);
    let (width, height) = dims(&r, 4, xmax - xmin + 1, ymax - ymin + 1)?;
    r.seek("planes", 65)?;
    let planes = r.u8("planes")?;
    let bit_depth = u32::from(bpp) * u32::from(planes);
    if ![1, 4, 8, 24, 32].contains(&bit_depth) {
        return Err(r.error_at(
            3,
            format!("1, 4, 8, 24 or 32 bits per pixel, found {bpp} x {planes} planes"),
        ));
    }
    // 8-bit single-plane images keep a 256-colour palette after 0x0C at the end.
    let paletted = if bit_depth == 8 {
        let marker = data.len().checked_sub(769).and_then(|i| data.get(i));
        if marker != Some(&0x0c) {
            return Err(Error::new(
                "PCX palette",
                data.len().saturating_sub(769),
                "the 256-colour palette marker 0x0C 769 bytes before the end of an 8-bit image",
            ));
        }
        true
    } else {
        bit_depth <= 4
    };
    Ok(ImageInfo {
        format: ImageFormat::Pcx,
        width,
        height,
        bit_depth,
        paletted,
        pixel_format: None,
        mips: 1,
        compressed: false,
    })
}

fn parse_tga(data: &[u8]) -> Result<ImageInfo> {
    let mut r = Reader::new(data, 0, "TGA header");
    let id_len = r.u8("id length")?;
    let cmap_type = r.u8("colour map type")?;
    let image_type = r.u8("image type")?;
    r.u16("colour map first entry")?;
    let cmap_len = r.u16("colour map length")?;
    let cmap_bits = r.u8("colour map entry size")?;
    r.skip("origin", 4)?;
    let w = r.u16("width")?;
    let h = r.u16("height")?;
    let bpp = r.u8("bits per pixel")?;
    r.u8("descriptor")?;
    if ![1, 2, 3, 9, 10, 11].contains(&image_type) {
        return Err(r.error_at(2, format!("image type 1, 2, 3, 9, 10 or 11, found {image_type}")));
    }
    if cmap_type > 1 {
        return Err(r.error_at(1, format!("colour map type 0 or 1, found {cmap_type}")));
    }
    let paletted = image_type == 1 || image_type == 9;
    if paletted && (cmap_type != 1 || cmap_len == 0) {
        return Err(r.error_at(1, "a colour map for a colour-mapped image"));
    }
    if ![8, 15, 16, 24, 32].contains(&bpp) {
        return Err(r.error_at(16, format!("8, 15, 16, 24 or 32 bits per pixel, found {bpp}")));
    }
    let (width, height) = dims(&r, 12, i64::from(w), i64::from(h))?;
    let cmap_bytes =
        if cmap_type == 1 { usize::from(cmap_len) * usize::from(cmap_bits).div_ceil(8) } else { 0 };
    let header_end = 18 + usize::from(id_len) + cmap_bytes;
    if header_end > data.len() {
        return Err(r.error_at(0, format!("the id field and colour map ({header_end} bytes with the header) inside the file of {} bytes", data.len())));
    }
    if image_type < 9 {
        let needed = u64::from(width) * u64::from(height) * u64::from(bpp).div_ceil(8);
        let available = (data.len() - header_end) as u64;
        if needed > available {
            return Err(r.error_at(
                header_end,
                format!("{needed} bytes of uncompressed pixels, the file has {available}"),
            ));
        }
    }
    Ok(ImageInfo {
        format: ImageFormat::Tga,
        width,
        height,
        bit_depth: u32::from(bpp),
        paletted,
        pixel_format: None,
        mips: 1,
        compressed: false,
    })
}

fn parse_dds(data: &[u8]) -> Result<ImageInfo> {
    let mut r = Reader::new(data, 0, "DDS header");
    let magic = r.array::<4>("magic")?;
    if &magic != b"DDS " {
        return Err(r.error_at(0, "the magic \"DDS \""));
    }
    let size = r.u32("header size")?;
    if size != 124 {
        return Err(r.error_at(4, format!("header size 124, found {size}")));
    }
    r.u32("flags")?;
    let h = r.u32("height")?;
    let w = r.u32("width")?;
    r.u32("pitch")?;
    r.u32("depth")?;
    let mips = r.u32("mip count")?.max(1);
    r.skip("reserved", 44)?;
    // The pixel format's own size field (32 by the format's document) is not checked: UT2004's
    // DDS importer reads only the magic, the linear-size flag and the FourCC, and its DDS
    // exporter leaves the field (and the pixel format flags) 0 (UnEdFact.cpp, the
    // `FDDSFileHeader` import and `UTextureExporterDDS`).
    r.u32("pixel format size")?;
    let pf_flags = r.u32("pixel format flags")?;
    let fourcc = r.array::<4>("FourCC")?;
    let rgb_bits = r.u32("RGB bit count")?;
    let (width, height) = dims(&r, 12, i64::from(w), i64::from(h))?;
    if mips > 32 {
        return Err(r.error_at(28, format!("at most 32 mips, found {mips}")));
    }
    // The FourCC counts when its flag says so, and also when no other layout flag (RGB,
    // luminance, alpha only) is set and it names a block format: the UT2004 exporter writes
    // the FourCC without its flag.
    let uses_fourcc = pf_flags & 0x4 != 0
        || (pf_flags & (0x40 | 0x2_0000 | 0x2) == 0 && dds_block_format(&fourcc, None).is_some());
    let (pixel_format, block, bit_depth) = if uses_fourcc {
        let dxgi = if &fourcc == b"DX10" {
            if data.len() < 148 {
                return Err(Error::new(
                    "DDS DX10 header",
                    128,
                    format!(
                        "the 20-byte DX10 header after the 128-byte header, the file has {} bytes",
                        data.len()
                    ),
                ));
            }
            Some(Reader::new(data, 128, "DDS DX10 header").u32("DXGI format")?)
        } else {
            None
        };
        match dds_block_format(&fourcc, dxgi) {
            Some((name, bytes)) => (name.to_owned(), Some(bytes), if bytes == 8 { 4 } else { 8 }),
            None => match dxgi {
                Some(n) => (format!("DX10 DXGI format {n}"), None, 0),
                None => (String::from_utf8_lossy(&fourcc).into_owned(), None, 0),
            },
        }
    } else {
        (format!("RGB{rgb_bits}"), None, rgb_bits)
    };
    // The first mip must be present whole (block formats).
    if let Some(block) = block {
        let start = dds_data_offset(data);
        let needed = u64::from(width.div_ceil(4)) * u64::from(height.div_ceil(4)) * block;
        let available = data.len().saturating_sub(start) as u64;
        if needed > available {
            return Err(Error::new(
                "DDS data",
                start,
                format!("{needed} bytes for the first {pixel_format} mip of {width}x{height}, the file has {available}"),
            ));
        }
    }
    Ok(ImageInfo {
        format: ImageFormat::Dds,
        width,
        height,
        bit_depth,
        paletted: pf_flags & 0x20 != 0,
        pixel_format: Some(pixel_format),
        mips,
        compressed: false,
    })
}

/// Where a DDS file's pixels start: after the 128-byte header, and the 20-byte DX10 header
/// when the `FourCC` is `DX10`.
pub fn dds_data_offset(data: &[u8]) -> usize {
    if data.get(84..88) == Some(b"DX10") {
        148
    } else {
        128
    }
}

/// The block format a DDS `FourCC` (or, for `DX10`, its DXGI format) names, as the name
/// [`ImageInfo::pixel_format`] carries and its bytes per 4x4 block. The legacy `FourCC`s:
/// `DXT1` to `DXT5`, `ATI1`/`BC4U`/`BC4S` (BC4) and `ATI2`/`BC5U`/`BC5S` (BC5); DXGI formats
/// 70 to 78 (BC1 to BC3), 79 to 84 (BC4, BC5), 94 to 99 (BC6H, BC7), typeless ones read as
/// unsigned.
pub fn dds_block_format(fourcc: &[u8; 4], dxgi: Option<u32>) -> Option<(&'static str, u64)> {
    let name = match (fourcc, dxgi) {
        (b"DX10", Some(n)) => match n {
            70 => "BC1_TYPELESS",
            71 => "BC1_UNORM",
            72 => "BC1_UNORM_SRGB",
            73 => "BC2_TYPELESS",
            74 => "BC2_UNORM",
            75 => "BC2_UNORM_SRGB",
            76 => "BC3_TYPELESS",
            77 => "BC3_UNORM",
            78 => "BC3_UNORM_SRGB",
            79 => "BC4_TYPELESS",
            80 => "BC4_UNORM",
            81 => "BC4_SNORM",
            82 => "BC5_TYPELESS",
            83 => "BC5_UNORM",
            84 => "BC5_SNORM",
            94 => "BC6H_TYPELESS",
            95 => "BC6H_UF16",
            96 => "BC6H_SF16",
            97 => "BC7_TYPELESS",
            98 => "BC7_UNORM",
            99 => "BC7_UNORM_SRGB",
            _ => return None,
        },
        (b"DXT1", _) => "DXT1",
        (b"DXT2", _) => "DXT2",
        (b"DXT3", _) => "DXT3",
        (b"DXT4", _) => "DXT4",
        (b"DXT5", _) => "DXT5",
        (b"ATI1", _) => "ATI1",
        (b"BC4U", _) => "BC4U",
        (b"BC4S", _) => "BC4S",
        (b"ATI2", _) => "ATI2",
        (b"BC5U", _) => "BC5U",
        (b"BC5S", _) => "BC5S",
        _ => return None,
    };
    let bytes =
        if name.starts_with("BC1") || name.starts_with("BC4") || name == "DXT1" || name == "ATI1" {
            8
        } else {
            16
        };
    Some((name, bytes))
}
