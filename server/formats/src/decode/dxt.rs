//! Block-compressed (S3TC, RGTC, BPTC) decoding: DXT1 (BC1, with its 1-bit alpha mode), DXT3 (BC2), DXT5 (BC3), BC4 and
//! BC5 (unsigned and signed), BC6H (unsigned and signed) and BC7. The block decoders are
//! `bcdec_rs`'s; this module walks the blocks, checks that they are all present before
//! decoding, clips the 4x4 blocks at the right and bottom edges of sizes that are not
//! multiples of 4, and turns each format's channels into 8-bit RGBA for previews:
//!
//! - BC4: its one channel as grey (`r, r, r, 255`), as the engines' one-channel formats (L8)
//!   are shown;
//! - BC5: its two channels as red and green, blue 0 and alpha 255, what a Direct3D sampler
//!   returns for BC5 (a normal map's Z is not reconstructed);
//! - signed BC4 and BC5: -1..1 (stored -127..127; -128 reads as -127, as the format
//!   defines) onto 0..255, so that 0 is mid-grey 128: `((s + 127) * 255 + 127) / 254`;
//! - BC6H: linear half floats, clamped to 0..1 and scaled by 255, truncated (no tone curve:
//!   exposure 1, what an 8-bit target stores with the fraction dropped; values above 1 are
//!   white, negatives of the signed variant black);
//! - BC7: RGBA as decoded.

use super::RgbaImage;
use crate::error::{Error, Result};
use crate::package::TextureFormat;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BlockFormat {
    Dxt1,
    Dxt3,
    Dxt5,
    Bc4 { signed: bool },
    Bc5 { signed: bool },
    Bc6h { signed: bool },
    Bc7,
}

impl BlockFormat {
    pub fn block_bytes(self) -> usize {
        match self {
            Self::Dxt1 | Self::Bc4 { .. } => 8,
            Self::Dxt3 | Self::Dxt5 | Self::Bc5 { .. } | Self::Bc6h { .. } | Self::Bc7 => 16,
        }
    }

    /// The package texture format that stores these blocks.
    pub fn texture_format(self) -> TextureFormat {
        match self {
            Self::Dxt1 => TextureFormat::Dxt1,
            Self::Dxt3 => TextureFormat::Dxt3,
            Self::Dxt5 => TextureFormat::Dxt5,
            Self::Bc4 { signed } => TextureFormat::Bc4 { signed },
            Self::Bc5 { signed } => TextureFormat::Bc5 { signed },
            Self::Bc6h { signed } => TextureFormat::Bc6h { signed },
            Self::Bc7 => TextureFormat::Bc7,
        }
    }

    /// The format's name, as the package's texture format tells it (one table of names).
    pub fn name(self) -> &'static str {
        self.texture_format().name()
    }

    /// Bytes of a `width` x `height` image in this format (at least one block each way).
    pub fn data_size(self, width: u32, height: u32) -> u64 {
        u64::from(width.div_ceil(4).max(1))
            * u64::from(height.div_ceil(4).max(1))
            * self.block_bytes() as u64
    }
}

/// A signed BC4/BC5 channel byte (two's complement, -128 read as -127) onto 0..255.
pub fn signed_to_unorm8(v: u8) -> u8 {
    let s = i32::from(v as i8).max(-127);
    ((s + 127) * 255 + 127).div_euclid(254) as u8
}

/// A linear BC6H value to 8 bits: clamped to 0..1, times 255, truncated (NaN reads as 0).
pub fn hdr_to_unorm8(v: f32) -> u8 {
    if v.is_nan() {
        return 0;
    }
    (v.clamp(0.0, 1.0) * 255.0) as u8
}

/// The 16 RGBA pixels of one block, row by row.
fn decode_block(format: BlockFormat, block: &[u8]) -> [u8; 64] {
    let mut out = [0u8; 64];
    match format {
        BlockFormat::Dxt1 => bcdec_rs::bc1(block, &mut out, 16),
        BlockFormat::Dxt3 => bcdec_rs::bc2(block, &mut out, 16),
        BlockFormat::Dxt5 => bcdec_rs::bc3(block, &mut out, 16),
        BlockFormat::Bc7 => bcdec_rs::bc7(block, &mut out, 16),
        BlockFormat::Bc4 { signed } => {
            let mut r = [0u8; 16];
            bcdec_rs::bc4(block, &mut r, 4, signed);
            for (px, &v) in out.chunks_exact_mut(4).zip(&r) {
                let l = if signed { signed_to_unorm8(v) } else { v };
                px.copy_from_slice(&[l, l, l, 255]);
            }
        }
        BlockFormat::Bc5 { signed } => {
            let mut rg = [0u8; 32];
            bcdec_rs::bc5(block, &mut rg, 8, signed);
            for (px, c) in out.chunks_exact_mut(4).zip(rg.chunks_exact(2)) {
                let (r, g) = match *c {
                    [r, g] if signed => (signed_to_unorm8(r), signed_to_unorm8(g)),
                    [r, g] => (r, g),
                    _ => (0, 0),
                };
                px.copy_from_slice(&[r, g, 0, 255]);
            }
        }
        BlockFormat::Bc6h { signed } => {
            let mut rgb = [0f32; 48];
            bcdec_rs::bc6h_float(block, &mut rgb, 12, signed);
            for (px, c) in out.chunks_exact_mut(4).zip(rgb.chunks_exact(3)) {
                if let [r, g, b] = *c {
                    px.copy_from_slice(&[
                        hdr_to_unorm8(r),
                        hdr_to_unorm8(g),
                        hdr_to_unorm8(b),
                        255,
                    ]);
                }
            }
        }
    }
    out
}

/// Decodes `width` x `height` pixels of `format` blocks from the start of `data`.
/// `offset` is the absolute position of `data` in its file, for errors.
pub fn decode(
    format: BlockFormat,
    width: u32,
    height: u32,
    data: &[u8],
    structure: &str,
    offset: usize,
) -> Result<RgbaImage> {
    let needed = format.data_size(width, height);
    if (data.len() as u64) < needed {
        return Err(Error::new(
            structure,
            offset,
            format!(
                "{needed} bytes of {} blocks for {width}x{height}, found {}",
                format.name(),
                data.len()
            ),
        ));
    }
    let mut image = RgbaImage::new(width, height, structure, offset)?;
    let blocks_x = width.div_ceil(4) as usize;
    let size = format.block_bytes();
    for (i, block) in data.chunks_exact(size).take(needed as usize / size).enumerate() {
        let block_pixels = decode_block(format, block);
        let bx = (i % blocks_x.max(1)) as u32 * 4;
        let by = (i / blocks_x.max(1)) as u32 * 4;
        for (p, px) in block_pixels.chunks_exact(4).enumerate() {
            let (x, y) = (bx + (p % 4) as u32, by + (p / 4) as u32);
            image.put(x, y, [px[0], px[1], px[2], px[3]]);
        }
    }
    Ok(image)
}
