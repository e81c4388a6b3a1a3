//! DXT1 (BC1, with its 1-bit alpha mode), DXT3 (BC2) and DXT5 (BC3) block decoding. The block
//! decoders are `bcdec_rs`'s; this module walks the blocks, checks that they are all present
//! before decoding, and clips the 4x4 blocks at the right and bottom edges of sizes that are
//! not multiples of 4.

use super::RgbaImage;
use crate::error::{Error, Result};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BlockFormat {
    Dxt1,
    Dxt3,
    Dxt5,
}

impl BlockFormat {
    pub fn block_bytes(self) -> usize {
        match self {
            Self::Dxt1 => 8,
            Self::Dxt3 | Self::Dxt5 => 16,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Self::Dxt1 => "DXT1",
            Self::Dxt3 => "DXT3",
            Self::Dxt5 => "DXT5",
        }
    }

    /// Bytes of a `width` x `height` image in this format (at least one block each way).
    pub fn data_size(self, width: u32, height: u32) -> u64 {
        u64::from(width.div_ceil(4).max(1))
            * u64::from(height.div_ceil(4).max(1))
            * self.block_bytes() as u64
    }
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
    let mut block_pixels = [0u8; 64];
    for (i, block) in data.chunks_exact(size).take(needed as usize / size).enumerate() {
        match format {
            BlockFormat::Dxt1 => bcdec_rs::bc1(block, &mut block_pixels, 16),
            BlockFormat::Dxt3 => bcdec_rs::bc2(block, &mut block_pixels, 16),
            BlockFormat::Dxt5 => bcdec_rs::bc3(block, &mut block_pixels, 16),
        }
        let bx = (i % blocks_x.max(1)) as u32 * 4;
        let by = (i / blocks_x.max(1)) as u32 * 4;
        for (p, px) in block_pixels.chunks_exact(4).enumerate() {
            let (x, y) = (bx + (p % 4) as u32, by + (p / 4) as u32);
            image.put(x, y, [px[0], px[1], px[2], px[3]]);
        }
    }
    Ok(image)
}
