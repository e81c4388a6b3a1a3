//! Pixel and geometry decoding: bytes in, RGBA images and plain vertex/triangle lists out.
//!
//! Everything here follows the crate's rules: no panic on any input, and every size is
//! checked against [`MAX_PIXELS`] (images) or the bytes present (geometry) before anything
//! is allocated.
//!
//! - [`texture`]: package textures (every `ETextureFormat` with a fixed layout) through their
//!   palette, any mip level, plain or compressed mips.
//! - [`image`]: the import sources `#exec TEXTURE IMPORT` names (PCX, BMP, TGA, DDS, PNG).
//! - [`dxt`]: DXT1/DXT3/DXT5 blocks (through `bcdec_rs`).
//! - [`indices`]: the palette indices an 8-bit BMP or PCX uses (does a pixel hold index 0).
//! - [`mesh`]: vertex-animated meshes (`_d.3d` + `_a.3d`, or a package `Mesh`/`LodMesh`) as
//!   one shape: frames of positions, faces with per-corner UVs, material slots.
//! - [`skeletal`]: PSA key tracks (the PSK reader keeps counts only).
//! - [`ue2_mesh`]: UE2 `SkeletalMesh` objects (skeleton and raw geometry, as a PSK) and
//!   `MeshAnimation` objects (skeleton, motion, sequences).
//! - [`ue2_static_mesh`]: UE2 `StaticMesh` objects: sections, vertex streams, indices, materials.

// Pixel code names its channels r, g, b, a.
#![allow(clippy::many_single_char_names)]

pub mod dxt;
pub mod image;
pub mod indices;
pub mod mesh;
pub mod model;
pub mod skeletal;
pub mod texture;
pub mod ue2_mesh;
pub mod ue2_static_mesh;
pub mod ue2_terrain;
pub mod ue2_vert_mesh;

use crate::error::{Error, Result};

/// The largest image decoded: 8192 x 8192 (256 MiB of RGBA). UE1/UE2 textures stop at 2048,
/// import sources at a few thousand pixels a side.
pub const MAX_PIXELS: u64 = 8192 * 8192;

/// An 8-bit RGBA image, rows top to bottom, `width * height * 4` bytes.
#[derive(Clone, PartialEq, Eq)]
pub struct RgbaImage {
    pub width: u32,
    pub height: u32,
    pub pixels: Vec<u8>,
}

impl std::fmt::Debug for RgbaImage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "RgbaImage({}x{})", self.width, self.height)
    }
}

impl RgbaImage {
    /// A transparent image of `width` x `height`, refused above [`MAX_PIXELS`] or when empty.
    pub fn new(width: u32, height: u32, structure: &str, offset: usize) -> Result<Self> {
        let pixels = u64::from(width) * u64::from(height);
        if width == 0 || height == 0 || pixels > MAX_PIXELS {
            return Err(Error::new(
                structure,
                offset,
                format!(
                    "an image from 1x1 to {MAX_PIXELS} pixels to decode, found {width}x{height}"
                ),
            ));
        }
        Ok(Self { width, height, pixels: vec![0; pixels as usize * 4] })
    }

    /// The pixel at `(x, y)`, transparent black outside the image.
    pub fn get(&self, x: u32, y: u32) -> [u8; 4] {
        if x >= self.width || y >= self.height {
            return [0; 4];
        }
        let i = (y as usize * self.width as usize + x as usize) * 4;
        match self.pixels.get(i..i + 4) {
            Some(&[r, g, b, a]) => [r, g, b, a],
            _ => [0; 4],
        }
    }

    pub fn put(&mut self, x: u32, y: u32, rgba: [u8; 4]) {
        if x >= self.width || y >= self.height {
            return;
        }
        let i = (y as usize * self.width as usize + x as usize) * 4;
        if let Some(p) = self.pixels.get_mut(i..i + 4) {
            p.copy_from_slice(&rgba);
        }
    }
}
