//! The package browser's model: the object tree (groups, then objects, each with its class,
//! size and byte offset) and a preview per object.

use std::fmt::Write as _;

use unreal_formats::decode::texture::{select_mips, MipSource};
use unreal_formats::decode::RgbaImage;
use unreal_formats::package::{ObjectRef, Package, Resolved};
use unreal_formats::Result;

use super::png::{thumbnail, THUMBNAIL_SIZE};
use crate::export::png::encode_png;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PackageTree {
    pub version: u16,
    pub licensee: u16,
    /// Top-level objects and groups, in export-table order.
    pub roots: Vec<TreeNode>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TreeNode {
    pub export: usize,
    pub name: String,
    /// `Package` for groups.
    pub class: String,
    /// Serialized size and absolute offset of the object's data.
    pub size: usize,
    pub offset: usize,
    pub children: Vec<TreeNode>,
}

impl TreeNode {}

/// Every export placed under its outer (group, class or other object).
pub fn package_tree(package: &Package<'_>) -> PackageTree {
    // Outer chains were checked for cycles when the package was parsed; the depth bound
    // keeps this total anyway.
    fn build(package: &Package<'_>, children: &[Vec<usize>], i: usize, depth: usize) -> TreeNode {
        let e = package.export(i);
        TreeNode {
            export: i,
            name: package.export_name(i).to_owned(),
            class: package.class_name(i).to_owned(),
            size: e.map_or(0, |e| e.serial_size),
            offset: e.map_or(0, |e| e.serial_offset),
            children: if depth > 64 {
                Vec::new()
            } else {
                children.get(i).map_or_else(Vec::new, |c| {
                    c.iter().map(|&k| build(package, children, k, depth + 1)).collect()
                })
            },
        }
    }
    let n = package.exports.len();
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut roots = Vec::new();
    for (i, e) in package.exports.iter().enumerate() {
        match e.outer.resolve() {
            Resolved::Export(o) if o < n && o != i => children[o].push(i),
            _ => roots.push(i),
        }
    }
    PackageTree {
        version: package.header.version,
        licensee: package.header.licensee,
        roots: roots.into_iter().map(|i| build(package, &children, i, 0)).collect(),
    }
}

/// What the browser shows for one object.
#[derive(Debug, Clone, PartialEq)]
pub enum ObjectPreview {
    Texture {
        width: u32,
        height: u32,
        format: String,
        mips: usize,
        /// Compressed format and mip count, when the texture has `CompMips`.
        compressed: Option<(String, usize)>,
        /// A thumbnail PNG of at most [`THUMBNAIL_SIZE`] pixels a side.
        thumbnail_png: Vec<u8>,
    },
    Palette {
        colors: usize,
        /// 16 x 16 swatches of 8 pixels, one per entry (transparent past the last).
        swatch_png: Vec<u8>,
    },
    /// A TextBuffer: UnrealScript source.
    Text {
        text: String,
    },
    Sound {
        /// The imported file's extension (`WAV`, `IT`, ...).
        format: String,
        bytes: usize,
        /// For WAV: `44100 Hz 16-bit 1 ch, 0.186 s`.
        details: Option<String>,
    },
    Mesh {
        class: String,
        vertices: usize,
        frames: usize,
        faces: usize,
        sequences: Vec<String>,
        /// The names of the mesh's materials (UE2 meshes), by material index.
        materials: Vec<String>,
        /// A rendering of frame 0, when the geometry could be read.
        thumbnail_png: Option<Vec<u8>>,
    },
    /// A UE2 `MeshAnimation`: the bones it moves and its sequences.
    Animation {
        bones: usize,
        sequences: Vec<SequenceInfo>,
    },
    Class {
        super_class: Option<String>,
    },
    /// Anything else: the class only.
    Other {
        class: String,
    },
}

/// A sequence of an animation, as the browser lists it.
#[derive(Debug, Clone, PartialEq)]
pub struct SequenceInfo {
    pub name: String,
    pub frames: i32,
    /// Frames per second.
    pub rate: f32,
}

/// The preview of the object at `export`, with pictures of at most [`THUMBNAIL_SIZE`].
pub fn object_preview(package: &Package<'_>, export: usize) -> Result<ObjectPreview> {
    object_preview_sized(package, export, THUMBNAIL_SIZE)
}

/// [`object_preview`] with meshes rendered at `size` pixels a side (a panel's picture rather
/// than a list's thumbnail).
pub fn object_preview_sized(
    package: &Package<'_>,
    export: usize,
    size: u32,
) -> Result<ObjectPreview> {
    object_preview_with(package, export, size, &crate::export::NoOtherPackages)
}

/// [`object_preview_sized`] with meshes textured also where their materials are in other
/// packages, read from `others` (the game's packages).
pub fn object_preview_with(
    package: &Package<'_>,
    export: usize,
    size: u32,
    others: &dyn crate::export::OtherPackages,
) -> Result<ObjectPreview> {
    let class = package.class_name(export).to_owned();
    match class.as_str() {
        "Class" => {
            Ok(ObjectPreview::Class { super_class: package.read_class(export)?.super_class })
        }
        "Palette" => {
            let palette = package.read_palette(export)?;
            Ok(ObjectPreview::Palette {
                colors: palette.colors.len(),
                swatch_png: encode_png(&palette_swatch(&palette.colors)),
            })
        }
        "TextBuffer" => Ok(ObjectPreview::Text { text: package.read_text_buffer(export)?.text }),
        "Sound" | "Music" => {
            let sound = package.read_sound(export)?;
            let details = match &sound.wav {
                Some(Ok(w)) => Some(format!(
                    "{} Hz {}-bit {} ch, {:.3} s",
                    w.sample_rate, w.bits_per_sample, w.channels, w.duration
                )),
                Some(Err(e)) => Some(format!("unreadable WAV: {e}")),
                None => None,
            };
            Ok(ObjectPreview::Sound { format: sound.format, bytes: sound.data.len(), details })
        }
        "SkeletalMesh" if package.is_ue2() => {
            let mesh = package.read_skeletal_mesh_ue2(export)?;
            let thumbnail_png = crate::export::package_mesh_model_with(package, export, others)
                .ok()
                .map(|m| encode_png(&super::render::render_model(&m, size)));
            Ok(ObjectPreview::Mesh {
                class,
                vertices: mesh.points.len(),
                frames: 1,
                faces: mesh.faces.len(),
                sequences: Vec::new(),
                materials: mesh.material_names,
                thumbnail_png,
            })
        }
        "StaticMesh" if package.is_ue2() => {
            let mesh = package.read_static_mesh_ue2(export)?;
            let thumbnail_png = crate::export::package_mesh_model_with(package, export, others)
                .ok()
                .map(|m| encode_png(&super::render::render_model(&m, size)));
            Ok(ObjectPreview::Mesh {
                class,
                vertices: mesh.positions.len(),
                frames: 1,
                faces: mesh.triangle_count(),
                sequences: Vec::new(),
                materials: mesh.material_names,
                thumbnail_png,
            })
        }
        "MeshAnimation" if package.is_ue2() => {
            let animation = package.read_mesh_animation_ue2(export)?;
            Ok(ObjectPreview::Animation {
                bones: animation.bones.len(),
                sequences: animation
                    .sequences
                    .into_iter()
                    .map(|s| SequenceInfo { name: s.name, frames: s.frames, rate: s.rate })
                    .collect(),
            })
        }
        "Mesh" | "LodMesh" | "SkeletalMesh" => {
            let info = package.read_mesh(export)?;
            let faces = info.lod.as_ref().map_or(info.triangles, |l| l.faces);
            let thumbnail_png = crate::export::package_mesh_model_with(package, export, others)
                .ok()
                .map(|m| encode_png(&super::render::render_model(&m, size)));
            Ok(ObjectPreview::Mesh {
                class,
                vertices: info.vertices,
                frames: info.frames,
                faces,
                sequences: info.sequences.iter().map(|s| s.name.clone()).collect(),
                materials: Vec::new(),
                thumbnail_png,
            })
        }
        _ if is_texture(package, export) => {
            let texture = package.read_texture(export)?;
            let (mips, _) = select_mips(&texture, MipSource::Plain);
            let image = super::texture_thumbnail(package, export, THUMBNAIL_SIZE)?;
            Ok(ObjectPreview::Texture {
                width: texture.width,
                height: texture.height,
                format: texture.format.name().to_owned(),
                mips: mips.len(),
                compressed: texture
                    .comp_format
                    .map(|f| (f.name().to_owned(), texture.comp_mips.len())),
                thumbnail_png: encode_png(&thumbnail(&image, THUMBNAIL_SIZE)),
            })
        }
        _ => Ok(ObjectPreview::Other { class }),
    }
}

/// Texture and the engine's texture subclasses that keep their pixels in mips.
fn is_texture(package: &Package<'_>, export: usize) -> bool {
    let class = package.class_name(export);
    if package.texture_class_is_imageless(class) {
        return false;
    }
    [
        "Texture",
        "FireTexture",
        "WaterTexture",
        "WaveTexture",
        "WetTexture",
        "IceTexture",
        "ScriptedTexture",
    ]
    .iter()
    .any(|c| c.eq_ignore_ascii_case(class))
        || package
            .export(export)
            .is_some_and(|e| e.class != ObjectRef(0) && class.ends_with("Texture"))
}

/// Palette entries as a 16 x 16 grid of 8-pixel squares.
pub fn palette_swatch(colors: &[[u8; 4]]) -> RgbaImage {
    let mut image = RgbaImage { width: 128, height: 128, pixels: vec![0; 128 * 128 * 4] };
    for (i, c) in colors.iter().take(256).enumerate() {
        let (sx, sy) = ((i % 16) as u32 * 8, (i / 16) as u32 * 8);
        for y in sy..sy + 8 {
            for x in sx..sx + 8 {
                image.put(x, y, [c[0], c[1], c[2], 255]);
            }
        }
    }
    image
}

impl ObjectPreview {
    /// A one-paragraph text description (for hovers without images and for the CLI).
    pub fn summary(&self) -> String {
        let mut s = String::new();
        match self {
            Self::Texture { width, height, format, mips, compressed, .. } => {
                let _ = write!(s, "Texture {width}x{height} {format}, {mips} mips");
                if let Some((f, n)) = compressed {
                    let _ = write!(s, ", {n} {f} compressed mips");
                }
            }
            Self::Palette { colors, .. } => {
                let _ = write!(s, "Palette of {colors} colours");
            }
            Self::Text { text } => {
                let _ = write!(s, "TextBuffer, {} lines", text.lines().count());
            }
            Self::Sound { format, bytes, details } => {
                let _ = write!(s, "{format} sound, {bytes} bytes");
                if let Some(d) = details {
                    let _ = write!(s, ", {d}");
                }
            }
            Self::Mesh { class, vertices, frames, faces, sequences, materials, .. } => {
                let _ = write!(s, "{class}: {vertices} vertices x {frames} frames, {faces} faces");
                if !sequences.is_empty() {
                    let _ = write!(s, ", sequences {}", sequences.join(", "));
                }
                if !materials.is_empty() {
                    let _ = write!(s, ", materials {}", materials.join(", "));
                }
            }
            Self::Animation { bones, sequences } => {
                let frames: i64 = sequences.iter().map(|q| i64::from(q.frames)).sum();
                let _ = write!(
                    s,
                    "MeshAnimation: {bones} bones, {} sequences, {frames} frames",
                    sequences.len()
                );
                if !sequences.is_empty() {
                    let list: Vec<String> = sequences
                        .iter()
                        .map(|q| format!("{} ({} frames at {} fps)", q.name, q.frames, q.rate))
                        .collect();
                    let _ = write!(s, ": {}", list.join(", "));
                }
            }
            Self::Class { super_class } => {
                let _ = write!(s, "Class");
                if let Some(sup) = super_class {
                    let _ = write!(s, " extends {sup}");
                }
            }
            Self::Other { class } => s.push_str(class),
        }
        s
    }
}
