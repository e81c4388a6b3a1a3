//! Vertex meshes: a `_d.3d` data file (48-byte header, 16-byte triangles) and an `_a.3d`
//! animation file (`u16 frames, u16 frame_size`, then frames of packed vertices).
//!
//! Read as the engine reads them (`UEditorEngine::meshVertImport`, UnMeshEd.cpp in the UT v400
//! and UT2004 editor sources): the header's counts, then exactly that many triangles and
//! frames. The engine never looks at the file's size, so bytes after the last triangle or
//! frame are ignored (shipped files have them: UT2004's `SkaarjPack_rc`) and only counted here;
//! a file shorter than its counts is an error (the engine's read fails and the import is
//! lost). Every vertex index must be below the vertex count (the engine does not check, and
//! reads out of bounds).

use crate::error::{Error, Result};
use crate::reader::Reader;

pub const DATA_HEADER_SIZE: usize = 48;
pub const TRIANGLE_SIZE: usize = 16;
pub const ANIV_HEADER_SIZE: usize = 4;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Triangle {
    pub vertices: [u16; 3],
    /// James' mesh type: 0 normal, 1 two-sided, 2 translucent, 3 masked, 4 modulated, 8 weapon triangle.
    pub kind: u8,
    pub color: u8,
    /// `[u, v]` per corner, 0..=255.
    pub uv: [[u8; 2]; 3],
    pub texture: u8,
    pub flags: u8,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DataFile {
    pub polygons: u16,
    pub vertices: u16,
    pub triangles: Vec<Triangle>,
    /// Bytes after the last triangle, which the engine never reads.
    pub unused_bytes: usize,
}

impl DataFile {
    pub fn parse(data: &[u8]) -> Result<Self> {
        let mut r = Reader::new(data, 0, "vertex mesh data header");
        let polygons = r.u16("NumPolygons")?;
        let vertices = r.u16("NumVertices")?;
        if data.len() < DATA_HEADER_SIZE {
            return Err(Error::new(
                "vertex mesh data header",
                data.len(),
                format!("{DATA_HEADER_SIZE} header bytes, the file has {}", data.len()),
            ));
        }
        let expected = DATA_HEADER_SIZE + TRIANGLE_SIZE * usize::from(polygons);
        if data.len() < expected {
            return Err(Error::new(
                "vertex mesh data file",
                0,
                format!(
                    "at least 48 + 16 x {polygons} triangles = {expected} bytes, found {} bytes",
                    data.len()
                ),
            ));
        }
        r.seek("triangles", DATA_HEADER_SIZE)?;
        let mut triangles = Vec::with_capacity(usize::from(polygons));
        for i in 0..polygons {
            r.set_entry("vertex mesh triangle", usize::from(i));
            let start = r.pos();
            let v = [r.u16("vertex 0")?, r.u16("vertex 1")?, r.u16("vertex 2")?];
            if let Some(bad) = v.iter().find(|&&x| x >= vertices) {
                return Err(r.error_at(
                    start,
                    format!("vertex indices below NumVertices {vertices}, found {bad}"),
                ));
            }
            let kind = r.u8("type")?;
            let color = r.u8("color")?;
            let uv = r.array::<6>("uv")?;
            let texture = r.u8("texture number")?;
            let flags = r.u8("flags")?;
            triangles.push(Triangle {
                vertices: v,
                kind,
                color,
                uv: [[uv[0], uv[1]], [uv[2], uv[3]], [uv[4], uv[5]]],
                texture,
                flags,
            });
        }
        Ok(Self { polygons, vertices, triangles, unused_bytes: data.len() - expected })
    }

    /// The file as `UEditorEngine::meshImport` reads it: the header's two counts (the rest of
    /// the 48 bytes, which the engine skips, zero), then the triangles.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(DATA_HEADER_SIZE + TRIANGLE_SIZE * self.triangles.len());
        out.extend_from_slice(&self.polygons.to_le_bytes());
        out.extend_from_slice(&self.vertices.to_le_bytes());
        out.resize(DATA_HEADER_SIZE, 0);
        for t in &self.triangles {
            for v in t.vertices {
                out.extend_from_slice(&v.to_le_bytes());
            }
            out.extend_from_slice(&[t.kind, t.color]);
            for uv in t.uv {
                out.extend_from_slice(&uv);
            }
            out.extend_from_slice(&[t.texture, t.flags]);
        }
        out
    }

    /// The distinct texture numbers the triangles use, ascending.
    pub fn texture_slots(&self) -> Vec<u8> {
        let mut slots: Vec<u8> = self.triangles.iter().map(|t| t.texture).collect();
        slots.sort_unstable();
        slots.dedup();
        slots
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AnivFile<'a> {
    pub frames: u16,
    pub frame_size: u16,
    /// Frame data, `frames * frame_size` bytes.
    pub data: &'a [u8],
    /// Bytes after the last frame, which the engine never reads (unless a frame shorter than
    /// the data file's vertices makes the last frame's read run into them).
    pub unused_bytes: usize,
    /// Everything after the header: the frames and the bytes after them.
    body: &'a [u8],
}

impl<'a> AnivFile<'a> {
    pub fn parse(data: &'a [u8]) -> Result<Self> {
        let mut r = Reader::new(data, 0, "vertex mesh animation header");
        let frames = r.u16("NumFrames")?;
        let frame_size = r.u16("FrameSize")?;
        let expected = ANIV_HEADER_SIZE + usize::from(frames) * usize::from(frame_size);
        let Some(frame_data) = data.get(ANIV_HEADER_SIZE..expected) else {
            return Err(Error::new(
                "vertex mesh animation file",
                0,
                format!(
                    "at least 4 + {frames} frames x {frame_size} bytes = {expected} bytes, found {} bytes",
                    data.len()
                ),
            ));
        };
        Ok(Self {
            frames,
            frame_size,
            data: frame_data,
            unused_bytes: data.len() - expected,
            body: data.get(ANIV_HEADER_SIZE..).unwrap_or_default(),
        })
    }
}

/// An animation file: the header, then `frame_data` (`frames` x `frame_size` bytes).
pub fn aniv_bytes(frames: u16, frame_size: u16, frame_data: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(ANIV_HEADER_SIZE + frame_data.len());
    out.extend_from_slice(&frames.to_le_bytes());
    out.extend_from_slice(&frame_size.to_le_bytes());
    out.extend_from_slice(frame_data);
    out
}

/// A data file and its animation file read together.
#[derive(Debug, Clone, PartialEq)]
pub struct VertexMesh<'a> {
    pub data: DataFile,
    pub aniv: AnivFile<'a>,
    /// 4 (packed 11:11:10) or 8 (Deus Ex: three i16 and padding).
    pub bytes_per_vertex: usize,
}

impl<'a> VertexMesh<'a> {
    pub fn parse(data_file: &[u8], aniv_file: &'a [u8]) -> Result<Self> {
        let data = DataFile::parse(data_file)?;
        let aniv = AnivFile::parse(aniv_file)?;
        let verts = usize::from(data.vertices);
        let fs = usize::from(aniv.frame_size);
        // The engine reads NumVertices x 4 bytes a frame, then seeks FrameSize - NumVertices x 4
        // on: a larger FrameSize is padding it skips, a smaller one makes the last vertices of
        // a frame the first of the next (Epic's SkaarjPack_rc ships both). Deus Ex writes
        // exactly 8 bytes a vertex.
        let bytes_per_vertex = if verts > 0 && fs == verts * 8 {
            8
        } else if verts > 0 && fs > 0 {
            4
        } else {
            return Err(Error::new(
                "vertex mesh animation header",
                2,
                format!(
                    "NumVertices and FrameSize above 0 (NumVertices x 4 = {} bytes a frame), found {verts} vertices and FrameSize {fs}",
                    verts * 4,
                ),
            ));
        };
        Ok(Self { data, aniv, bytes_per_vertex })
    }

    /// The vertices of one frame, in model units, read as the engine reads them: `NumVertices`
    /// vertices from the frame's start (`FrameSize` x index), whatever `FrameSize` says. Vertices
    /// past the end of the file (the engine's read fails there) are at the origin. `None` for
    /// a frame the file does not have.
    pub fn frame(&self, index: usize) -> Option<Vec<[f32; 3]>> {
        if index >= usize::from(self.aniv.frames) {
            return None;
        }
        let fs = usize::from(self.aniv.frame_size);
        let used = usize::from(self.data.vertices) * self.bytes_per_vertex;
        let start = index.checked_mul(fs)?;
        let end = start.checked_add(used)?.min(self.aniv.body.len());
        let bytes = self.aniv.body.get(start..end)?;
        let mut vertices: Vec<[f32; 3]> = bytes
            .chunks_exact(self.bytes_per_vertex)
            .map(|c| {
                if self.bytes_per_vertex == 8 {
                    let x = i16::from_le_bytes([c[0], c[1]]);
                    let y = i16::from_le_bytes([c[2], c[3]]);
                    let z = i16::from_le_bytes([c[4], c[5]]);
                    [f32::from(x), f32::from(y), f32::from(z)]
                } else {
                    unpack_vertex(u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                }
            })
            .collect();
        vertices.resize(usize::from(self.data.vertices), [0.0; 3]);
        Some(vertices)
    }
}

/// How many of the engine's raw units (`FMeshVert`'s integers, which it scales and places)
/// make one unit of a position [`unpack_vertex`] decodes.
pub const PACKED_RAW_PER_UNIT: [f32; 3] = [8.0, 8.0, 4.0];

/// X:11, Y:11, Z:10 signed bits; X and Y in eighths of a unit, Z in quarters (as the
/// exporters write them).
pub fn unpack_vertex(v: u32) -> [f32; 3] {
    let x = ((v << 21) as i32) >> 21;
    let y = ((v << 10) as i32) >> 21;
    let z = (v as i32) >> 22;
    [x as f32 / 8.0, y as f32 / 8.0, z as f32 / 4.0]
}

/// The inverse of [`unpack_vertex`], for writers.
pub fn pack_vertex(p: [f32; 3]) -> u32 {
    let x = ((p[0] * 8.0) as i32 & 0x7ff) as u32;
    let y = ((p[1] * 8.0) as i32 & 0x7ff) as u32;
    let z = ((p[2] * 4.0) as i32 & 0x3ff) as u32;
    x | (y << 11) | (z << 22)
}
