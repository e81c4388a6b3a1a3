//! ActorX skeletal meshes (`.psk`) and animations (`.psa`): a sequence of chunks, each with
//! a 32-byte header (`char id[20]; i32 type_flag, data_size, data_count`). Known chunks are
//! checked for their record size and cross-references; unknown chunks are skipped by their
//! size and listed.

use crate::error::{Error, Result};
use crate::reader::{ansi, Reader};

pub const CHUNK_HEADER_SIZE: usize = 32;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChunkHeader {
    pub id: String,
    pub type_flag: i32,
    pub data_size: usize,
    pub data_count: usize,
    /// Absolute offset of the header.
    pub offset: usize,
}

/// Splits a file into chunks, checking that each chunk's data lies inside the file.
pub fn chunks(data: &[u8]) -> Result<Vec<(ChunkHeader, &[u8])>> {
    let mut r = Reader::new(data, 0, "ActorX chunk header");
    let mut out = Vec::new();
    while !r.is_at_end() {
        let offset = r.pos();
        let id = ansi(r.bytes("chunk id", 20)?);
        let type_flag = r.i32("type flag")?;
        let size_pos = r.pos();
        let data_size = r.i32("data size")?;
        let data_count = r.i32("data count")?;
        if data_size < 0 || data_count < 0 {
            return Err(r.error_at(size_pos, format!("non-negative data size and count in chunk {id:?}, found {data_size} and {data_count}")));
        }
        let total = (data_size as usize).checked_mul(data_count as usize);
        let Some(total) = total.filter(|&t| t <= r.remaining()) else {
            return Err(r.error_at(
                size_pos,
                format!(
                    "chunk {id:?} data of {data_size} x {data_count} bytes inside the file, {} bytes left",
                    r.remaining()
                ),
            ));
        };
        let bytes = r.bytes("chunk data", total)?;
        out.push((
            ChunkHeader {
                id,
                type_flag,
                data_size: data_size as usize,
                data_count: data_count as usize,
                offset,
            },
            bytes,
        ));
    }
    Ok(out)
}

fn records<'a>(header: &ChunkHeader, bytes: &'a [u8], record: usize) -> Result<Reader<'a>> {
    if header.data_count > 0 && header.data_size != record {
        return Err(Error::new(
            format!("{} chunk", header.id),
            header.offset + 20 + 4,
            format!("records of {record} bytes, found {}", header.data_size),
        ));
    }
    // Positions inside a chunk reader are relative; errors are shifted below.
    Ok(Reader::new(bytes, 0, format!("{} chunk", header.id)))
}

fn at(header: &ChunkHeader, e: Error) -> Error {
    Error { offset: e.offset + header.offset + CHUNK_HEADER_SIZE, ..e }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Wedge {
    pub point: u32,
    pub u: f32,
    pub v: f32,
    pub material: u8,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Face {
    pub wedges: [u32; 3],
    pub material: u8,
    pub aux_material: u8,
    pub smoothing_groups: u32,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Material {
    pub name: String,
    pub texture_index: i32,
    pub poly_flags: u32,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Bone {
    pub name: String,
    pub flags: u32,
    pub children: i32,
    pub parent: i32,
    pub rotation: [f32; 4],
    pub position: [f32; 3],
}

#[derive(Debug, Clone, PartialEq)]
pub struct Weight {
    pub weight: f32,
    pub point: u32,
    pub bone: u32,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Morph {
    pub name: String,
    pub vertex_count: i32,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct Psk {
    pub version: i32,
    pub points: Vec<[f32; 3]>,
    pub wedges: Vec<Wedge>,
    pub faces: Vec<Face>,
    pub materials: Vec<Material>,
    pub bones: Vec<Bone>,
    pub weights: Vec<Weight>,
    pub normals: usize,
    pub vertex_colors: usize,
    /// Wedge count of each `EXTRAUVSn` chunk, in file order.
    pub extra_uvs: Vec<usize>,
    pub morphs: Vec<Morph>,
    pub morph_data: usize,
    /// Chunks this reader does not know, skipped by their size.
    pub unknown_chunks: Vec<String>,
}

impl Psk {
    /// The mesh with its Y axis negated, as UT2004's import turns a PSK into the engine's axes
    /// ("Y-flip quaternions and translations from Max/Maya/etc space into Unreal space",
    /// `Editor/Src/UnMeshEd.cpp`): points and bone positions, a bone rotation's Y and W, and
    /// each face's last two wedges swapped so that it faces the same way. Its own inverse:
    /// what a UE2 `SkeletalMesh` stores, mirrored, is its PSK.
    pub fn mirrored_y(&self) -> Psk {
        let mut psk = self.clone();
        for p in &mut psk.points {
            p[1] = -p[1];
        }
        for f in &mut psk.faces {
            f.wedges.swap(1, 2);
        }
        for b in &mut psk.bones {
            b.rotation[1] = -b.rotation[1];
            b.rotation[3] = -b.rotation[3];
            b.position[1] = -b.position[1];
        }
        psk
    }
}

fn vec3(r: &mut Reader<'_>, field: &str) -> Result<[f32; 3]> {
    Ok([r.f32(field)?, r.f32(field)?, r.f32(field)?])
}

fn read_bone(r: &mut Reader<'_>) -> Result<Bone> {
    let name = ansi(r.bytes("bone name", 64)?).trim_end().to_owned();
    let flags = r.u32("bone flags")?;
    let children = r.i32("bone children")?;
    let parent = r.i32("bone parent")?;
    let rotation = [r.f32("rotation")?, r.f32("rotation")?, r.f32("rotation")?, r.f32("rotation")?];
    let position = vec3(r, "position")?;
    r.skip("length and size", 16)?;
    Ok(Bone { name, flags, children, parent, rotation, position })
}

impl Psk {
    pub fn parse(data: &[u8]) -> Result<Self> {
        let chunks = chunks(data)?;
        let Some((first, _)) = chunks.first() else {
            return Err(Error::new("PSK file", 0, "an ACTRHEAD chunk, the file is empty"));
        };
        if first.id != "ACTRHEAD" {
            return Err(Error::new(
                "PSK file",
                0,
                format!("an ACTRHEAD chunk first, found {:?}", first.id),
            ));
        }
        let mut psk = Psk { version: first.type_flag, ..Psk::default() };
        for (h, bytes) in &chunks[1..] {
            let n = h.data_count;
            match h.id.as_str() {
                "PNTS0000" => {
                    let mut r = records(h, bytes, 12)?;
                    psk.points = (0..n)
                        .map(|_| vec3(&mut r, "point"))
                        .collect::<Result<_>>()
                        .map_err(|e| at(h, e))?;
                }
                "VTXW0000" => {
                    let mut r = records(h, bytes, 16)?;
                    let wide = psk.points.len() > 65536;
                    psk.wedges = (0..n)
                        .map(|_| {
                            // The two bytes after a 16-bit point index are padding that exporters
                            // leave uninitialised: mask them unless indices need 32 bits.
                            let raw = r.u32("wedge point")?;
                            let point = if wide { raw } else { raw & 0xffff };
                            let u = r.f32("u")?;
                            let v = r.f32("v")?;
                            let material = r.u8("material")?;
                            r.skip("padding", 3)?;
                            Ok(Wedge { point, u, v, material })
                        })
                        .collect::<Result<_>>()
                        .map_err(|e| at(h, e))?;
                }
                "FACE0000" | "FACE3200" => {
                    let wide = h.id == "FACE3200";
                    let mut r = records(h, bytes, if wide { 18 } else { 12 })?;
                    psk.faces = (0..n)
                        .map(|_| {
                            let mut w = [0u32; 3];
                            for x in &mut w {
                                *x =
                                    if wide { r.u32("wedge")? } else { u32::from(r.u16("wedge")?) };
                            }
                            Ok(Face {
                                wedges: w,
                                material: r.u8("material")?,
                                aux_material: r.u8("aux material")?,
                                smoothing_groups: r.u32("smoothing groups")?,
                            })
                        })
                        .collect::<Result<_>>()
                        .map_err(|e| at(h, e))?;
                }
                "MATT0000" => {
                    let mut r = records(h, bytes, 88)?;
                    psk.materials = (0..n)
                        .map(|_| {
                            let name = ansi(r.bytes("material name", 64)?);
                            let texture_index = r.i32("texture index")?;
                            let poly_flags = r.u32("poly flags")?;
                            r.skip("aux material, aux flags, LOD bias, LOD style", 16)?;
                            Ok(Material { name, texture_index, poly_flags })
                        })
                        .collect::<Result<_>>()
                        .map_err(|e| at(h, e))?;
                }
                "REFSKELT" | "REFSKEL0" => {
                    let mut r = records(h, bytes, 120)?;
                    psk.bones = (0..n)
                        .map(|_| read_bone(&mut r))
                        .collect::<Result<_>>()
                        .map_err(|e| at(h, e))?;
                }
                "RAWWEIGHTS" | "RAWW0000" => {
                    let mut r = records(h, bytes, 12)?;
                    psk.weights = (0..n)
                        .map(|_| {
                            Ok(Weight {
                                weight: r.f32("weight")?,
                                point: r.u32("point")?,
                                bone: r.u32("bone")?,
                            })
                        })
                        .collect::<Result<_>>()
                        .map_err(|e| at(h, e))?;
                }
                "VTXNORMS" => {
                    records(h, bytes, 12)?;
                    psk.normals = n;
                }
                "VERTEXCOLOR" => {
                    records(h, bytes, 4)?;
                    psk.vertex_colors = n;
                }
                "MRPHINFO" => {
                    let mut r = records(h, bytes, 68)?;
                    psk.morphs = (0..n)
                        .map(|_| {
                            Ok(Morph {
                                name: ansi(r.bytes("morph name", 64)?),
                                vertex_count: r.i32("vertex count")?,
                            })
                        })
                        .collect::<Result<_>>()
                        .map_err(|e| at(h, e))?;
                }
                "MRPHDATA" => {
                    records(h, bytes, 28)?;
                    psk.morph_data = n;
                }
                id if id.starts_with("EXTRAUVS") => {
                    records(h, bytes, 8)?;
                    psk.extra_uvs.push(n);
                }
                _ => psk.unknown_chunks.push(h.id.clone()),
            }
        }
        psk.validate()?;
        Ok(psk)
    }

    fn validate(&self) -> Result<()> {
        if let Some((i, w)) =
            self.wedges.iter().enumerate().find(|(_, w)| w.point as usize >= self.points.len())
        {
            return Err(Error::new(
                format!("VTXW0000 wedge {i}"),
                0,
                format!("a point index below {}, found {}", self.points.len(), w.point),
            ));
        }
        for (i, f) in self.faces.iter().enumerate() {
            if let Some(bad) = f.wedges.iter().find(|&&x| x as usize >= self.wedges.len()) {
                return Err(Error::new(
                    format!("FACE chunk face {i}"),
                    0,
                    format!("wedge indices below {}, found {bad}", self.wedges.len()),
                ));
            }
        }
        for (i, w) in self.weights.iter().enumerate() {
            if w.point as usize >= self.points.len() || w.bone as usize >= self.bones.len().max(1) {
                return Err(Error::new(
                    format!("RAWWEIGHTS weight {i}"),
                    0,
                    format!(
                        "a point below {} and a bone below {}, found point {} bone {}",
                        self.points.len(),
                        self.bones.len(),
                        w.point,
                        w.bone
                    ),
                ));
            }
        }
        let per_wedge = [("VERTEXCOLOR", self.vertex_colors)]
            .into_iter()
            .chain(self.extra_uvs.iter().map(|&n| ("EXTRAUVS", n)));
        for (id, n) in per_wedge {
            if n != 0 && n != self.wedges.len() {
                return Err(Error::new(
                    format!("{id} chunk"),
                    0,
                    format!("one entry per wedge ({}), found {n}", self.wedges.len()),
                ));
            }
        }
        Ok(())
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Sequence {
    pub name: String,
    pub group: String,
    pub bones: i32,
    pub track_time: f32,
    pub rate: f32,
    pub first_frame: i32,
    pub frames: i32,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct Psa {
    pub version: i32,
    pub bones: Vec<Bone>,
    pub sequences: Vec<Sequence>,
    pub keys: usize,
    pub scale_keys: Option<usize>,
    pub unknown_chunks: Vec<String>,
}

impl Psa {
    pub fn parse(data: &[u8]) -> Result<Self> {
        let chunks = chunks(data)?;
        let Some((first, _)) = chunks.first() else {
            return Err(Error::new("PSA file", 0, "an ANIMHEAD chunk, the file is empty"));
        };
        if first.id != "ANIMHEAD" {
            return Err(Error::new(
                "PSA file",
                0,
                format!("an ANIMHEAD chunk first, found {:?}", first.id),
            ));
        }
        let mut psa = Psa { version: first.type_flag, ..Psa::default() };
        let mut keys_at = 0;
        for (h, bytes) in &chunks[1..] {
            let n = h.data_count;
            match h.id.as_str() {
                "BONENAMES" => {
                    let mut r = records(h, bytes, 120)?;
                    psa.bones = (0..n)
                        .map(|_| read_bone(&mut r))
                        .collect::<Result<_>>()
                        .map_err(|e| at(h, e))?;
                }
                "ANIMINFO" => {
                    let mut r = records(h, bytes, 168)?;
                    psa.sequences = (0..n)
                        .map(|_| {
                            let name = ansi(r.bytes("name", 64)?);
                            let group = ansi(r.bytes("group", 64)?);
                            let bones = r.i32("total bones")?;
                            r.skip(
                                "root include, key compression style, key quotum, key reduction",
                                16,
                            )?;
                            let track_time = r.f32("track time")?;
                            let rate = r.f32("anim rate")?;
                            r.skip("start bone", 4)?;
                            let first_frame = r.i32("first raw frame")?;
                            let frames = r.i32("num raw frames")?;
                            Ok(Sequence {
                                name,
                                group,
                                bones,
                                track_time,
                                rate,
                                first_frame,
                                frames,
                            })
                        })
                        .collect::<Result<_>>()
                        .map_err(|e| at(h, e))?;
                }
                "ANIMKEYS" => {
                    records(h, bytes, 32)?;
                    psa.keys = n;
                    keys_at = h.offset;
                }
                "SCALEKEYS" => {
                    records(h, bytes, 16)?;
                    psa.scale_keys = Some(n);
                }
                _ => psa.unknown_chunks.push(h.id.clone()),
            }
        }
        // Keys hold one track of `frames` keys per bone for every sequence.
        let bones = psa.bones.len() as u64;
        let expected: u64 =
            psa.sequences.iter().map(|s| u64::from(s.frames.max(0).unsigned_abs()) * bones).sum();
        if expected != psa.keys as u64 {
            return Err(Error::new(
                "ANIMKEYS chunk",
                keys_at,
                format!(
                    "{bones} bones x the sequences' frames = {expected} keys, found {}",
                    psa.keys
                ),
            ));
        }
        if let Some(s) = psa.scale_keys.filter(|&s| s != 0 && s != psa.keys) {
            return Err(Error::new(
                "SCALEKEYS chunk",
                0,
                format!("one scale key per key ({}), found {s}", psa.keys),
            ));
        }
        Ok(psa)
    }
}
