//! One summary per file, for `unreal-ls info` (human text and JSON) and for hovers.

use std::fmt::{self, Write as _};

use serde::Serialize;

use crate::error::Result;
use crate::image::ImageInfo;
use crate::package::{Package, TextureFormat};
use crate::psk::{Psa, Psk};
use crate::u3d::U3d;
use crate::vertex_mesh::VertexMesh;
use crate::wav::Wav;

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Summary {
    Package(PackageSummary),
    VertexMesh(VertexMeshSummary),
    Psk(PskSummary),
    Psa(PsaSummary),
    U3d(U3dSummary),
    Image(ImageSummary),
    Wav(WavSummary),
    Compressed(CompressedSummary),
    Umod(UmodSummary),
}

/// A compressed package (`.uz`, `.uz2`) and the summary of the file it holds.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CompressedSummary {
    pub format: crate::uz::UzFormat,
    /// The name a UE1 header stores; UE2 stores none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub original_name: Option<String>,
    pub compressed_size: usize,
    pub size: usize,
    pub contents: Box<Summary>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct UmodFileSummary {
    pub name: String,
    pub offset: u32,
    pub size: u32,
    pub flags: u32,
    /// What the file is, when this crate reads its format (`package`, `compressed`...).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub format: Option<&'static str>,
}

/// A mod installer's directory.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct UmodSummary {
    pub version: u32,
    pub crc: u32,
    /// Whether the stored CRC is the one the engine computes (it refuses the archive as
    /// corrupt otherwise).
    pub crc_matches: bool,
    pub files: Vec<UmodFileSummary>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ObjectSummary {
    /// The index in the export table: the one key that tells apart objects sharing a path.
    pub export: usize,
    pub name: String,
    pub path: String,
    pub class: String,
    pub size: usize,
    /// What the object's reader found (`P8 256x256, 9 mips`), when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PackageSummary {
    pub version: u16,
    pub licensee: u16,
    pub flags: u32,
    pub names: usize,
    pub imports: usize,
    pub exports: usize,
    pub objects: Vec<ObjectSummary>,
    /// Objects whose data could not be read, with the reason.
    pub problems: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct VertexMeshSummary {
    pub triangles: usize,
    pub vertices: usize,
    pub frames: usize,
    pub bytes_per_vertex: usize,
    pub texture_slots: Vec<u8>,
    /// Bytes after the last triangle of the `_d.3d` and after the last frame of the `_a.3d`:
    /// the engine reads by the header's counts and never looks at them.
    pub unused_data_bytes: usize,
    pub unused_animation_bytes: usize,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PskSummary {
    pub points: usize,
    pub wedges: usize,
    pub faces: usize,
    pub materials: usize,
    pub bones: usize,
    pub weights: usize,
    pub normals: usize,
    pub vertex_colors: usize,
    pub extra_uvs: usize,
    pub morphs: usize,
    pub material_names: Vec<String>,
    pub unknown_chunks: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SequenceSummary {
    pub name: String,
    pub frames: i32,
    pub rate: f32,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PsaSummary {
    pub bones: usize,
    pub keys: usize,
    pub scale_keys: Option<usize>,
    pub sequences: Vec<SequenceSummary>,
    pub unknown_chunks: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct U3dSummary {
    pub meshes: usize,
    pub materials: usize,
    pub bones: usize,
    pub frames: u32,
    pub lods: u16,
    pub triangles: usize,
    pub vertices: usize,
    pub textures: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ImageSummary {
    pub format: &'static str,
    pub width: u32,
    pub height: u32,
    pub bit_depth: u32,
    pub paletted: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pixel_format: Option<String>,
    pub mips: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct WavSummary {
    pub format_tag: u16,
    pub format: &'static str,
    pub channels: u16,
    pub sample_rate: u32,
    pub bits_per_sample: u16,
    pub data_size: usize,
    pub duration: f64,
}

impl Summary {
    /// Problems found inside an otherwise readable file (objects that failed to read).
    pub fn problems(&self) -> &[String] {
        match self {
            Self::Package(p) => &p.problems,
            Self::Compressed(c) => c.contents.problems(),
            _ => &[],
        }
    }
}

fn texture_detail(
    format: TextureFormat,
    w: u32,
    h: u32,
    mips: usize,
    comp: Option<(TextureFormat, usize)>,
) -> String {
    let mut s =
        format!("{} {w}x{h}, {mips} mip{}", format.name(), if mips == 1 { "" } else { "s" });
    if let Some((f, n)) = comp {
        let _ = write!(s, ", {n} {} CompMips", f.name());
    }
    s
}

/// A package's tables and object list, with each texture, sound, mesh... read for its details.
pub fn package_summary(package: &Package<'_>) -> PackageSummary {
    let mut problems = Vec::new();
    let objects = package
        .objects()
        .map(|o| {
            let detail: Option<Result<String>> = match o.class {
                class if package.texture_class_is_imageless(class) => {
                    Some(Ok("drawn by script at run time: no image".to_owned()))
                }
                "Texture" | "FireTexture" | "WaterTexture" | "WaveTexture" | "WetTexture"
                | "IceTexture" | "ScriptedTexture" => {
                    Some(package.read_texture(o.export).map(|t| {
                        texture_detail(
                            t.format,
                            t.width,
                            t.height,
                            t.mips.len(),
                            t.comp_format.map(|f| (f, t.comp_mips.len())),
                        )
                    }))
                }
                "Palette" => Some(
                    package.read_palette(o.export).map(|p| format!("{} colours", p.colors.len())),
                ),
                "Sound" | "Music" => Some(package.read_sound(o.export).map(|s| match &s.wav {
                    Some(Ok(w)) => format!(
                        "{} {} bytes, {} Hz {}-bit {} ch, {:.3} s",
                        s.format,
                        s.data.len(),
                        w.sample_rate,
                        w.bits_per_sample,
                        w.channels,
                        w.duration
                    ),
                    Some(Err(e)) => {
                        format!("{} {} bytes (WAV header unreadable: {e})", s.format, s.data.len())
                    }
                    None => format!("{} {} bytes", s.format, s.data.len()),
                })),
                "TextBuffer" => Some(
                    package
                        .read_text_buffer(o.export)
                        .map(|t| format!("{} lines", t.text.lines().count())),
                ),
                "Font" if !package.is_ue2() => Some(package.read_font(o.export).map(|f| {
                    let chars: usize = f.pages.iter().map(|p| p.characters.len()).sum();
                    format!("{} pages, {chars} characters", f.pages.len())
                })),
                "Class" => Some(package.read_class(o.export).map(|c| match c.super_class {
                    Some(s) => format!("extends {s}"),
                    None => "no super class".to_owned(),
                })),
                "Mesh" | "LodMesh" | "SkeletalMesh" if !package.is_ue2() => {
                    Some(package.read_mesh(o.export).map(|m| {
                        let mut s = match (&m.lod, &m.skeletal) {
                            (_, Some(sk)) => format!(
                                "{} points, {} faces, {} bones, {} weights",
                                sk.points,
                                m.lod.as_ref().map_or(0, |l| l.faces),
                                sk.bones.len(),
                                sk.weights
                            ),
                            (Some(l), None) => format!(
                                "{} faces, {} vertices, {} frames",
                                l.faces, m.vertices, m.frames
                            ),
                            (None, None) => format!(
                                "{} triangles, {} vertices, {} frames",
                                m.triangles, m.vertices, m.frames
                            ),
                        };
                        if !m.sequences.is_empty() {
                            let _ = write!(s, ", {} sequences", m.sequences.len());
                        }
                        s
                    }))
                }
                "SkeletalMesh" => Some(package.read_skeletal_mesh_ue2(o.export).map(|m| {
                    format!(
                        "{} points, {} wedges, {} faces, {} bones, {} influences, {} material{}, {} LOD{}",
                        m.points.len(),
                        m.wedges.len(),
                        m.faces.len(),
                        m.bones.len(),
                        m.influences.len(),
                        m.materials.len(),
                        if m.materials.len() == 1 { "" } else { "s" },
                        m.lods,
                        if m.lods == 1 { "" } else { "s" },
                    )
                })),
                "VertMesh" if package.is_ue2() => Some(package.read_vert_mesh_ue2(o.export).map(|m| {
                    let plural = |n: usize| if n == 1 { "" } else { "s" };
                    let (faces, frames) = (m.mesh.faces.len(), m.mesh.frames);
                    let sequences = m.mesh.sequences.len();
                    format!(
                        "{faces} face{}, {} vertices, {frames} frame{}, {} material{}, {sequences} sequence{}",
                        plural(faces),
                        m.mesh.vertices_per_frame,
                        plural(frames),
                        m.materials.len(),
                        plural(m.materials.len()),
                        plural(sequences),
                    )
                })),
                "TerrainInfo" if package.is_ue2() => Some(package.read_terrain_ue2(o.export).map(|t| {
                    format!(
                        "terrain of {} by {} vertices, {} triangles",
                        t.heightmap_x,
                        t.heightmap_y,
                        t.triangles().len()
                    )
                })),
                "StaticMesh" if package.is_ue2() => {
                    Some(package.read_static_mesh_ue2(o.export).map(|m| {
                        format!(
                            "{} vertices, {} triangles, {} section{}, {} material{}, {} UV set{}",
                            m.positions.len(),
                            m.triangle_count(),
                            m.sections.len(),
                            plural(m.sections.len()),
                            m.materials.len(),
                            plural(m.materials.len()),
                            m.uv_sets.len(),
                            plural(m.uv_sets.len()),
                        )
                    }))
                }
                "MeshAnimation" if package.is_ue2() => {
                    Some(package.read_mesh_animation_ue2(o.export).map(|a| {
                        let frames: i64 = a.sequences.iter().map(|s| i64::from(s.frames)).sum();
                        format!(
                            "{} bones, {} sequence{}, {frames} frame{}",
                            a.bones.len(),
                            a.sequences.len(),
                            plural(a.sequences.len()),
                            plural(frames as usize),
                        )
                    }))
                }
                "Animation" if !package.is_ue2() => {
                    Some(package.read_animation(o.export).map(|a| {
                        format!("{} bones, {} sequences", a.bones.len(), a.sequences.len())
                    }))
                }
                _ => None,
            };
            let detail = match detail {
                Some(Ok(d)) => Some(d),
                Some(Err(e)) => {
                    problems.push(e.to_string());
                    Some(format!("unreadable: {e}"))
                }
                None => None,
            };
            ObjectSummary {
                export: o.export,
                name: o.name.to_owned(),
                path: o.path,
                class: o.class.to_owned(),
                size: o.size,
                detail,
            }
        })
        .collect();
    PackageSummary {
        version: package.header.version,
        licensee: package.header.licensee,
        flags: package.header.flags,
        names: package.names.len(),
        imports: package.imports.len(),
        exports: package.exports.len(),
        objects,
        problems,
    }
}

pub fn vertex_mesh_summary(mesh: &VertexMesh<'_>) -> VertexMeshSummary {
    VertexMeshSummary {
        triangles: mesh.data.triangles.len(),
        vertices: usize::from(mesh.data.vertices),
        frames: usize::from(mesh.aniv.frames),
        bytes_per_vertex: mesh.bytes_per_vertex,
        texture_slots: mesh.data.texture_slots(),
        unused_data_bytes: mesh.data.unused_bytes,
        unused_animation_bytes: mesh.aniv.unused_bytes,
    }
}

pub fn psk_summary(psk: &Psk) -> PskSummary {
    PskSummary {
        points: psk.points.len(),
        wedges: psk.wedges.len(),
        faces: psk.faces.len(),
        materials: psk.materials.len(),
        bones: psk.bones.len(),
        weights: psk.weights.len(),
        normals: psk.normals,
        vertex_colors: psk.vertex_colors,
        extra_uvs: psk.extra_uvs.len(),
        morphs: psk.morphs.len(),
        material_names: psk.materials.iter().map(|m| m.name.clone()).collect(),
        unknown_chunks: psk.unknown_chunks.clone(),
    }
}

pub fn psa_summary(psa: &Psa) -> PsaSummary {
    PsaSummary {
        bones: psa.bones.len(),
        keys: psa.keys,
        scale_keys: psa.scale_keys,
        sequences: psa
            .sequences
            .iter()
            .map(|s| SequenceSummary { name: s.name.clone(), frames: s.frames, rate: s.rate })
            .collect(),
        unknown_chunks: psa.unknown_chunks.clone(),
    }
}

pub fn u3d_summary(u3d: &U3d) -> U3dSummary {
    U3dSummary {
        meshes: u3d.meshes.len(),
        materials: u3d.materials.len(),
        bones: u3d.bones.len(),
        frames: u3d.header.frames,
        lods: u3d.header.lods,
        triangles: u3d.meshes.iter().map(|m| usize::from(m.triangles)).sum(),
        vertices: u3d.meshes.iter().map(|m| usize::from(m.vertices)).sum(),
        textures: u3d
            .materials
            .iter()
            .flat_map(|m| m.textures.iter().map(|t| t.file.clone()))
            .collect(),
    }
}

pub fn image_summary(info: &ImageInfo) -> ImageSummary {
    ImageSummary {
        format: info.format.name(),
        width: info.width,
        height: info.height,
        bit_depth: info.bit_depth,
        paletted: info.paletted,
        pixel_format: info.pixel_format.clone(),
        mips: info.mips,
    }
}

pub fn wav_summary(wav: &Wav) -> WavSummary {
    WavSummary {
        format_tag: wav.format_tag,
        format: wav.format_name(),
        channels: wav.channels,
        sample_rate: wav.sample_rate,
        bits_per_sample: wav.bits_per_sample,
        data_size: wav.data_size,
        duration: wav.duration,
    }
}

/// A short name of a format, for listings.
pub fn format_name(kind: crate::FormatKind) -> &'static str {
    use crate::FormatKind as K;
    match kind {
        K::Package => "package",
        K::VertexMeshData => "vertex mesh data",
        K::VertexMeshAnimation => "vertex mesh animation",
        K::Psk => "psk",
        K::Psa => "psa",
        K::U3d => "u3d",
        K::Image(_) => "image",
        K::Wav => "wav",
        K::Compressed(_) => "compressed package",
        K::Umod => "umod",
    }
}

pub fn umod_summary(umod: &crate::umod::Umod<'_>) -> UmodSummary {
    let computed = umod.computed_crc();
    UmodSummary {
        version: umod.version,
        crc: umod.stored_crc,
        crc_matches: computed == umod.stored_crc,
        files: umod
            .entries
            .iter()
            .map(|e| {
                let base = e.name.rsplit(['/', '\\']).next().unwrap_or(&e.name);
                let format = crate::detect(umod.bytes(e), base).map(format_name);
                UmodFileSummary {
                    name: e.name.clone(),
                    offset: e.offset,
                    size: e.size,
                    flags: e.flags,
                    format,
                }
            })
            .collect(),
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// Text from the file, one line's worth ([`crate::printable::printable_line`]).
fn line(text: &str) -> std::borrow::Cow<'_, str> {
    crate::printable::printable_line(text)
}

fn list(items: &[String]) -> String {
    if items.is_empty() {
        "none".to_owned()
    } else {
        items.join(", ")
    }
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Package(p) => {
                writeln!(
                    f,
                    "package version {} (licensee {}), flags {:#010x}",
                    p.version, p.licensee, p.flags
                )?;
                writeln!(f, "names {}, imports {}, exports {}", p.names, p.imports, p.exports)?;
                // Names come from the file: one line each, whatever they hold.
                let shown = |t: &str| crate::printable::printable_line(t).into_owned();
                let w_path =
                    p.objects.iter().map(|o| shown(&o.path).len()).max().unwrap_or(0).max(4);
                let w_class =
                    p.objects.iter().map(|o| shown(&o.class).len()).max().unwrap_or(0).max(5);
                writeln!(f, "  {:<w_path$}  {:<w_class$}  {:>8}  detail", "path", "class", "size")?;
                for o in &p.objects {
                    let line = format!(
                        "  {:<w_path$}  {:<w_class$}  {:>8}  {}",
                        shown(&o.path),
                        shown(&o.class),
                        o.size,
                        shown(o.detail.as_deref().unwrap_or(""))
                    );
                    writeln!(f, "{}", line.trim_end())?;
                }
                Ok(())
            }
            Self::VertexMesh(m) => {
                writeln!(
                    f,
                    "vertex mesh: {} triangles, {} vertices, {} frames, {} bytes per vertex{}",
                    m.triangles,
                    m.vertices,
                    m.frames,
                    m.bytes_per_vertex,
                    if m.bytes_per_vertex == 8 { " (Deus Ex)" } else { "" }
                )?;
                let slots: Vec<String> = m.texture_slots.iter().map(u8::to_string).collect();
                writeln!(f, "texture slots: {}", list(&slots))?;
                if m.unused_data_bytes > 0 || m.unused_animation_bytes > 0 {
                    writeln!(
                        f,
                        "unused: {} bytes after the last triangle (_d.3d), {} after the last frame (_a.3d); the engine reads by the header's counts and ignores them",
                        m.unused_data_bytes, m.unused_animation_bytes
                    )?;
                }
                Ok(())
            }
            Self::Psk(p) => {
                writeln!(
                    f,
                    "PSK skeletal mesh: {} points, {} wedges, {} faces, {} materials, {} bones, {} weights",
                    p.points, p.wedges, p.faces, p.materials, p.bones, p.weights
                )?;
                writeln!(
                    f,
                    "optional: {} normals, {} vertex colours, {} extra UV sets, {} morphs",
                    p.normals, p.vertex_colors, p.extra_uvs, p.morphs
                )?;
                writeln!(f, "materials: {}", line(&list(&p.material_names)))?;
                if !p.unknown_chunks.is_empty() {
                    writeln!(f, "skipped unknown chunks: {}", line(&p.unknown_chunks.join(", ")))?;
                }
                Ok(())
            }
            Self::Psa(p) => {
                writeln!(
                    f,
                    "PSA animation: {} bones, {} keys{}, {} sequences",
                    p.bones,
                    p.keys,
                    p.scale_keys.map(|s| format!(", {s} scale keys")).unwrap_or_default(),
                    p.sequences.len()
                )?;
                for s in &p.sequences {
                    writeln!(f, "  {}  {} frames at {} fps", line(&s.name), s.frames, s.rate)?;
                }
                if !p.unknown_chunks.is_empty() {
                    writeln!(f, "skipped unknown chunks: {}", line(&p.unknown_chunks.join(", ")))?;
                }
                Ok(())
            }
            Self::U3d(u) => {
                writeln!(
                    f,
                    "Ultimate 3D model: {} meshes ({} triangles, {} vertices), {} materials, {} bones, {} frames, {} LODs",
                    u.meshes, u.triangles, u.vertices, u.materials, u.bones, u.frames, u.lods
                )?;
                writeln!(f, "textures: {}", line(&list(&u.textures)))
            }
            Self::Image(i) => writeln!(
                f,
                "{} image: {}x{}, {} bits per pixel{}{}{}",
                i.format,
                i.width,
                i.height,
                i.bit_depth,
                if i.paletted { ", paletted" } else { "" },
                i.pixel_format.as_deref().map(|p| format!(", {p}")).unwrap_or_default(),
                if i.mips > 1 { format!(", {} mips", i.mips) } else { String::new() }
            ),
            Self::Compressed(c) => {
                writeln!(
                    f,
                    "compressed: {}{}, {} bytes -> {} bytes",
                    c.format.describe(),
                    c.original_name
                        .as_deref()
                        .map(|n| format!(", holds {}", crate::printable::printable_line(n)))
                        .unwrap_or_default(),
                    c.compressed_size,
                    c.size
                )?;
                write!(f, "{}", c.contents)
            }
            Self::Umod(u) => {
                writeln!(
                    f,
                    "umod installer version {}, {} file{}, CRC {:#010x} ({})",
                    u.version,
                    u.files.len(),
                    plural(u.files.len()),
                    u.crc,
                    if u.crc_matches {
                        "matches"
                    } else {
                        "does not match the contents: the engine refuses the archive as corrupt"
                    }
                )?;
                let shown = |t: &str| crate::printable::printable_line(t).into_owned();
                let w = u.files.iter().map(|e| shown(&e.name).len()).max().unwrap_or(0).max(4);
                writeln!(f, "  {:<w$}  {:>10}  {:>5}  format", "file", "size", "flags")?;
                for e in &u.files {
                    let line = format!(
                        "  {:<w$}  {:>10}  {:>5}  {}",
                        shown(&e.name),
                        e.size,
                        format!("{:#x}", e.flags),
                        e.format.unwrap_or("")
                    );
                    writeln!(f, "{}", line.trim_end())?;
                }
                Ok(())
            }
            Self::Wav(w) => writeln!(
                f,
                "WAV sound: {} (tag {}), {} channel{}, {} Hz, {} bits, {} bytes, {:.3} s",
                w.format,
                w.format_tag,
                w.channels,
                if w.channels == 1 { "" } else { "s" },
                w.sample_rate,
                w.bits_per_sample,
                w.data_size,
                w.duration
            ),
        }
    }
}
