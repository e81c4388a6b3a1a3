//! Package textures to RGBA: every `ETextureFormat` whose layout is fixed, any mip level, from
//! the plain mips or the compressed ones (`CompMips`). The block formats (DXT1/3/5, and UT v469's
//! and Unreal 227's BC4, BC5, BC6H, BC7) go through [`super::dxt`]. Which number means which
//! format depends on the package ([`crate::package::TextureNumbering`]).
//!
//! Byte orders follow the engine's `FColor` on little-endian machines: `RGBA8` is stored B, G,
//! R, A; `RGB8` B, G, R; `RGBA7` B, G, R, A with 7-bit channels (UE1 lightmaps); `RGB16` is
//! 5:6:5 with red in the high bits. `P8` goes through the texture's palette, with index 0
//! transparent when the texture is masked (`bMasked`, or `PF_Masked` in `PolyFlags`).

use super::dxt::{self, BlockFormat};
use super::RgbaImage;
use crate::error::{Error, Result};
use crate::package::properties::PropertyList;
use crate::package::{Mip, Package, Resolved, Texture, TextureFormat};

/// Which stored mips to decode from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum MipSource {
    /// The plain mips when their format is decodable, else the compressed ones.
    #[default]
    Auto,
    Plain,
    Compressed,
}

/// How the pixels of one mip are to be read.
#[derive(Debug, Clone, Copy)]
pub struct MipFormat<'p> {
    pub format: TextureFormat,
    /// RGBA palette for P8 (and nothing else).
    pub palette: Option<&'p [[u8; 4]]>,
    /// P8: palette index 0 is transparent.
    pub masked: bool,
}

/// True when [`decode_mip`] reads this format.
pub fn is_decodable(format: TextureFormat) -> bool {
    !matches!(
        format,
        TextureFormat::NoData
            | TextureFormat::Rrrgggbbb
            | TextureFormat::Mono
            | TextureFormat::Other(_)
            | TextureFormat::Unknown(_)
    )
}

/// One mip's pixels to RGBA.
pub fn decode_mip(mip: &Mip<'_>, how: MipFormat<'_>, structure: &str) -> Result<RgbaImage> {
    let (width, height, data, at) = (mip.width, mip.height, mip.data, mip.data_offset);
    let (w, h) = (width, height);
    let block = |f| dxt::decode(f, w, h, data, structure, at);
    match how.format {
        TextureFormat::Dxt1 => return block(BlockFormat::Dxt1),
        TextureFormat::Dxt3 => return block(BlockFormat::Dxt3),
        TextureFormat::Dxt5 => return block(BlockFormat::Dxt5),
        TextureFormat::Bc4 { signed } => return block(BlockFormat::Bc4 { signed }),
        TextureFormat::Bc5 { signed } => return block(BlockFormat::Bc5 { signed }),
        TextureFormat::Bc6h { signed } => return block(BlockFormat::Bc6h { signed }),
        TextureFormat::Bc7 => return block(BlockFormat::Bc7),
        TextureFormat::Mono => {
            return Err(Error::new(
                structure,
                at,
                "a texture format with pixels to decode, found MONO (Unreal 227's \
                 monochrome format, whose layout its public headers do not give)",
            ))
        }
        _ => {}
    }
    let bytes_per_pixel: usize = match how.format {
        TextureFormat::P8 | TextureFormat::L8 => 1,
        TextureFormat::Rgb16 | TextureFormat::G16 => 2,
        TextureFormat::Rgb8 => 3,
        TextureFormat::Rgba7 | TextureFormat::Rgba8 => 4,
        other => {
            return Err(Error::new(
                structure,
                at,
                format!("a texture format with pixels to decode, found {}", other.name()),
            ))
        }
    };
    let needed = u64::from(w) * u64::from(h) * bytes_per_pixel as u64;
    if (data.len() as u64) < needed {
        return Err(Error::new(
            structure,
            at,
            format!(
                "{needed} bytes of {} pixels for {w}x{h}, found {}",
                how.format.name(),
                data.len()
            ),
        ));
    }
    let palette = match (how.format, how.palette) {
        (TextureFormat::P8, Some(p)) if !p.is_empty() => p,
        (TextureFormat::P8, _) => {
            return Err(Error::new(structure, at, "a palette for a P8 texture"));
        }
        _ => &[],
    };
    let mut image = RgbaImage::new(w, h, structure, at)?;
    let pixels = data.chunks_exact(bytes_per_pixel).take((u64::from(w) * u64::from(h)) as usize);
    for (out, px) in image.pixels.chunks_exact_mut(4).zip(pixels) {
        let rgba = match (how.format, px) {
            (TextureFormat::P8, &[i]) => {
                if how.masked && i == 0 {
                    [0, 0, 0, 0]
                } else {
                    // Indices past a short palette read as black, as the engine's padded
                    // 256-entry palettes would.
                    palette.get(usize::from(i)).copied().unwrap_or([0, 0, 0, 255])
                }
            }
            (TextureFormat::L8, &[l]) => [l, l, l, 255],
            (TextureFormat::G16, &[_, hi]) => [hi, hi, hi, 255],
            (TextureFormat::Rgb16, &[lo, hi]) => {
                let v = u16::from_le_bytes([lo, hi]);
                let (r, g, b) = ((v >> 11) & 0x1f, (v >> 5) & 0x3f, v & 0x1f);
                [
                    ((r * 527 + 23) >> 6) as u8,
                    ((g * 259 + 33) >> 6) as u8,
                    ((b * 527 + 23) >> 6) as u8,
                    255,
                ]
            }
            (TextureFormat::Rgb8, &[b, g, r]) => [r, g, b, 255],
            (TextureFormat::Rgba8, &[b, g, r, a]) => [r, g, b, a],
            (TextureFormat::Rgba7, &[b, g, r, a]) => {
                let wide = |c: u8| (c << 1) | (c >> 6);
                [wide(r), wide(g), wide(b), wide(a)]
            }
            _ => [0, 0, 0, 0],
        };
        out.copy_from_slice(&rgba);
    }
    Ok(image)
}

/// The mips [`decode_texture`] reads for `source`, and their format.
pub fn select_mips<'t, 'a>(
    texture: &'t Texture<'a>,
    source: MipSource,
) -> (&'t [Mip<'a>], TextureFormat) {
    let comp =
        || (texture.comp_mips.as_slice(), texture.comp_format.unwrap_or(TextureFormat::Dxt1));
    match source {
        MipSource::Compressed => comp(),
        MipSource::Auto if is_decodable(texture.format) && !texture.mips.is_empty() => {
            (texture.mips.as_slice(), texture.format)
        }
        MipSource::Auto if !texture.comp_mips.is_empty() => comp(),
        MipSource::Plain | MipSource::Auto => (texture.mips.as_slice(), texture.format),
    }
}

/// True when the texture draws palette index 0 as transparent.
pub fn is_masked(texture: &Texture<'_>) -> bool {
    const PF_MASKED: i32 = 0x2;
    let props = texture.header.properties.as_slice();
    props.bool("bMasked").unwrap_or(false)
        || props.int("PolyFlags").is_some_and(|f| f & PF_MASKED != 0)
}

impl Package<'_> {
    /// The RGBA pixels of mip `level` (0 is the full size) of the texture at `export`, its
    /// palette looked up in this package. A palette imported from another package cannot be
    /// read here: that is an error naming it.
    pub fn decode_texture(
        &self,
        export: usize,
        level: usize,
        source: MipSource,
    ) -> Result<RgbaImage> {
        self.decode_texture_drawn(export, level, source, false)
    }

    /// [`Package::decode_texture`] as a surface draws it: on a masked surface (`PF_Masked`,
    /// `on_masked_surface`) palette index 0 is transparent even when the texture itself is
    /// not masked (the render devices upload a P8 texture apart for masked surfaces, index 0
    /// cleared: OldUnreal's `D3D8drv` keys its texture cache on `PF_Masked`).
    pub fn decode_texture_drawn(
        &self,
        export: usize,
        level: usize,
        source: MipSource,
        on_masked_surface: bool,
    ) -> Result<RgbaImage> {
        let texture = self.read_texture(export)?;
        let structure = format!("Texture {} (export {export})", self.export_path(export));
        let (mips, format) = select_mips(&texture, source);
        let offset = self.export(export).map_or(0, |e| e.serial_offset);
        let mip = mips.get(level).ok_or_else(|| {
            let stored = if texture.mips.is_empty() && texture.comp_mips.is_empty() {
                // What a package stripped for a game server keeps of its textures.
                " (the texture stores none: its package was stripped of its pixels, as a game \
                 server's copy is)"
                    .to_owned()
            } else {
                String::new()
            };
            Error::new(
                structure.clone(),
                offset,
                format!("mip level {level} of the {} stored{stored}", mips.len()),
            )
        })?;
        if mip.data.is_empty() {
            return Err(Error::new(
                structure,
                mip.data_offset,
                format!(
                    "mip level {level}'s pixels, which the package does not store (the engine \
                     makes them when it loads the texture: an animated texture such as a \
                     FireTexture or WetTexture)"
                ),
            ));
        }
        let palette = if format == TextureFormat::P8 {
            Some(self.texture_palette(&texture, &structure, offset)?)
        } else {
            None
        };
        decode_mip(
            mip,
            MipFormat {
                format,
                palette: palette.as_deref(),
                masked: on_masked_surface || is_masked(&texture),
            },
            &structure,
        )
    }

    fn texture_palette(
        &self,
        texture: &Texture<'_>,
        structure: &str,
        offset: usize,
    ) -> Result<Vec<[u8; 4]>> {
        let palette = texture
            .palette
            .ok_or_else(|| Error::new(structure, offset, "a Palette property on a P8 texture"))?;
        match palette.resolve() {
            Resolved::Export(i) => Ok(self.read_palette(i)?.colors),
            Resolved::Import(_) => Err(Error::new(
                structure,
                offset,
                format!(
                    "a palette inside this package, it is imported ({})",
                    self.ref_path(palette)
                ),
            )),
            Resolved::None => {
                Err(Error::new(structure, offset, "a Palette property on a P8 texture"))
            }
        }
    }
}
