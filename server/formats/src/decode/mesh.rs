//! Vertex-animated meshes in one shape, whichever file they came from: a `_d.3d` + `_a.3d`
//! pair ([`AnimatedMesh::from_vertex_mesh`]) or a package `Mesh`/`LodMesh`
//! ([`Package::read_mesh_geometry`]). Positions stay in the source's units and axes (Unreal:
//! X forward, Y right, Z up, left-handed); converting them is the exporter's business.

use crate::error::{Error, Result};
use crate::package::{MeshInfo, ObjectRef, Package};
use crate::reader::Reader;
use crate::vertex_mesh::{unpack_vertex, VertexMesh};

/// James' mesh type 8: a placeholder triangle that positions a held weapon; never drawn.
pub const WEAPON_TRIANGLE: u8 = 8;
/// `PF_Invisible` on a package mesh's triangle or material.
const PF_INVISIBLE: u32 = 0x1;

#[derive(Debug, Clone, PartialEq)]
pub struct AnimatedMesh {
    pub vertices_per_frame: usize,
    pub frames: usize,
    /// Frame-major: vertex `v` of frame `f` is `positions[f * vertices_per_frame + v]`.
    pub positions: Vec<[f32; 3]>,
    /// Visible faces only (weapon placeholders and invisible faces are left out).
    pub faces: Vec<MeshFace>,
    /// Texture slots in slot order; faces refer to them by index.
    pub materials: Vec<MeshMaterial>,
    /// Animation sequences stored with the mesh (package meshes; `.3d` files have none).
    pub sequences: Vec<MeshSequence>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct MeshFace {
    /// Vertex indices into one frame.
    pub vertices: [u32; 3],
    /// Texture coordinates per corner, in texture widths: UE1's bytes are 256ths (0..=255
    /// across the texture), UE2's vertex meshes keep floats (the imported bytes over 255).
    pub uvs: [[f32; 2]; 3],
    /// Index into [`AnimatedMesh::materials`].
    pub material: usize,
    /// Two-sided, translucent, masked or modulated (James' types 1 to 4, or the matching
    /// poly flags).
    pub two_sided: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MeshMaterial {
    /// The texture slot number (`#exec MESHMAP SETTEXTURE NUM=`).
    pub slot: usize,
    /// The texture a package mesh names for the slot.
    pub texture: Option<ObjectRef>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct MeshSequence {
    pub name: String,
    pub start_frame: usize,
    pub frames: usize,
    /// Frames per second.
    pub rate: f32,
}

impl MeshSequence {
    /// A sequence as a package stores it (`StartFrame`, `NumFrames` as signed numbers: a
    /// negative one counts as none).
    pub fn stored(name: &str, start_frame: i32, frames: i32, rate: f32) -> Self {
        Self {
            name: name.to_owned(),
            start_frame: start_frame.max(0) as usize,
            frames: frames.max(0) as usize,
            rate,
        }
    }
}

/// A UE1 texture coordinate pair (bytes, 256ths of the texture) in texture widths.
pub fn byte_uv(b: [u8; 2]) -> [f32; 2] {
    [f32::from(b[0]) / 256.0, f32::from(b[1]) / 256.0]
}

impl AnimatedMesh {
    /// The positions of frame `frame`, `None` past the last.
    pub fn frame(&self, frame: usize) -> Option<&[[f32; 3]]> {
        let start = frame.checked_mul(self.vertices_per_frame)?;
        self.positions.get(start..start.checked_add(self.vertices_per_frame)?)
    }

    pub fn from_vertex_mesh(mesh: &VertexMesh<'_>) -> Self {
        let vertices_per_frame = usize::from(mesh.data.vertices);
        let frames = usize::from(mesh.aniv.frames);
        let positions: Vec<[f32; 3]> =
            (0..frames).filter_map(|f| mesh.frame(f)).flatten().collect();
        let slots = mesh.data.texture_slots();
        let materials =
            slots.iter().map(|&s| MeshMaterial { slot: usize::from(s), texture: None }).collect();
        let faces = mesh
            .data
            .triangles
            .iter()
            .filter(|t| t.kind != WEAPON_TRIANGLE)
            .map(|t| MeshFace {
                vertices: t.vertices.map(u32::from),
                uvs: t.uv.map(byte_uv),
                material: slots.iter().position(|&s| s == t.texture).unwrap_or(0),
                two_sided: (1..=4).contains(&t.kind),
            })
            .collect();
        Self { vertices_per_frame, frames, positions, faces, materials, sequences: Vec::new() }
    }
}

impl Package<'_> {
    /// The geometry of a UE1 `Mesh`, `LodMesh` or `SkeletalMesh` (its reference pose as one
    /// frame), or a UE2 `VertMesh`: every frame's vertices, the faces (a LodMesh's wedges
    /// resolved to vertices and UVs) and the texture slots.
    pub fn read_mesh_geometry(&self, export: usize) -> Result<AnimatedMesh> {
        // UE2's vertex meshes have a reader of their own.
        if self.is_ue2() && self.class_name(export).eq_ignore_ascii_case("VertMesh") {
            return Ok(self.read_vert_mesh_ue2(export)?.mesh);
        }
        let info = self.read_mesh(export)?;
        let structure = format!("{} {} (export {export})", info.class, self.export_path(export));
        let mut r = Reader::new(self.data(), 0, structure);
        // A UE1 skeletal mesh has no vertex frames: its reference pose (`Points`, floats in
        // the engine's units, which its wedges index) is its one frame, and its sequences
        // are its animation's, not frames of its own.
        let (positions, vertices, frames, sequences) = if let Some(skeletal) = &info.skeletal {
            r.seek("Points", info.layout.points_offset)?;
            let mut points = Vec::with_capacity(skeletal.points);
            for _ in 0..skeletal.points {
                points.push([r.f32("Points")?, r.f32("Points")?, r.f32("Points")?]);
            }
            (points, skeletal.points, 1, Vec::new())
        } else {
            let sequences = info
                .sequences
                .iter()
                .map(|s| MeshSequence::stored(&s.name, s.start_frame, s.frames, s.rate))
                .collect();
            (read_frames(&mut r, &info)?, info.vertices, info.frames, sequences)
        };
        let mut mesh = AnimatedMesh {
            vertices_per_frame: vertices,
            frames,
            positions,
            faces: Vec::new(),
            materials: Vec::new(),
            sequences,
        };
        let texture = |slot: usize| info.textures.get(slot).copied().filter(|t| t.0 != 0);
        let material_index = |mesh: &mut AnimatedMesh, slot: usize| -> usize {
            if let Some(i) = mesh.materials.iter().position(|m| m.slot == slot) {
                return i;
            }
            mesh.materials.push(MeshMaterial { slot, texture: texture(slot) });
            mesh.materials.len() - 1
        };
        let vertex = |r: &Reader<'_>, v: usize, at: usize| -> Result<u32> {
            if v >= vertices {
                return Err(r.error_at(at, format!("a vertex index below {vertices}, found {v}")));
            }
            Ok(v as u32)
        };
        if let Some(lod) = &info.lod {
            r.seek("Materials", info.layout.materials_offset)?;
            let mut slots = Vec::with_capacity(lod.materials);
            for _ in 0..lod.materials {
                let flags = r.u32("Material PolyFlags")?;
                let slot = r.i32("Material TextureIndex")?.max(0) as usize;
                slots.push((flags, slot));
            }
            r.seek("Wedges", info.layout.wedges_offset)?;
            let mut wedges = Vec::with_capacity(lod.wedges);
            for _ in 0..lod.wedges {
                let at = r.pos();
                let v = usize::from(r.u16("Wedge iVertex")?) + info.layout.special_verts;
                let uv = r.array::<2>("Wedge UV")?;
                wedges.push((vertex(&r, v, at)?, uv));
            }
            r.seek("Faces", info.layout.faces_offset)?;
            for _ in 0..lod.faces {
                let at = r.pos();
                let w = [r.u16("Face iWedge")?, r.u16("Face iWedge")?, r.u16("Face iWedge")?];
                let m = usize::from(r.u16("Face MaterialIndex")?);
                let corner = |i: u16| {
                    wedges.get(usize::from(i)).copied().ok_or_else(|| {
                        r.error_at(at, format!("wedge indices below {}, found {i}", wedges.len()))
                    })
                };
                let c = [corner(w[0])?, corner(w[1])?, corner(w[2])?];
                let (flags, slot) = slots.get(m).copied().ok_or_else(|| {
                    r.error_at(at, format!("a material index below {}, found {m}", slots.len()))
                })?;
                if flags & PF_INVISIBLE != 0 {
                    continue;
                }
                let material = material_index(&mut mesh, slot);
                mesh.faces.push(MeshFace {
                    vertices: [c[0].0, c[1].0, c[2].0],
                    uvs: [c[0].1, c[1].1, c[2].1].map(byte_uv),
                    material,
                    two_sided: flags & 0x100 != 0,
                });
            }
        } else {
            r.seek("Tris", info.layout.tris_offset)?;
            for _ in 0..info.triangles {
                let at = r.pos();
                let v = [r.u16("Tri iVertex")?, r.u16("Tri iVertex")?, r.u16("Tri iVertex")?];
                let uv = r.array::<6>("Tri UV")?;
                let flags = r.u32("Tri PolyFlags")?;
                let slot = r.i32("Tri TextureIndex")?.max(0) as usize;
                let vertices = [
                    vertex(&r, usize::from(v[0]), at)?,
                    vertex(&r, usize::from(v[1]), at)?,
                    vertex(&r, usize::from(v[2]), at)?,
                ];
                if flags & PF_INVISIBLE != 0 {
                    continue;
                }
                let material = material_index(&mut mesh, slot);
                mesh.faces.push(MeshFace {
                    vertices,
                    uvs: [[uv[0], uv[1]], [uv[2], uv[3]], [uv[4], uv[5]]].map(byte_uv),
                    material,
                    two_sided: flags & 0x100 != 0,
                });
            }
        }
        Ok(mesh)
    }
}

/// Every frame's vertices, through `RemapAnimVerts` when the LodMesh has one.
fn read_frames(r: &mut Reader<'_>, info: &MeshInfo) -> Result<Vec<[f32; 3]>> {
    let bpv = info.bytes_per_vertex;
    let bytes = read_frame_bytes(r, info)?;
    Ok(bytes
        .chunks_exact(bpv)
        .map(|c| {
            if bpv == 8 {
                let v = |k: usize| f32::from(i16::from_le_bytes([c[k], c[k + 1]]));
                [v(0), v(2), v(4)]
            } else {
                unpack_vertex(u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            }
        })
        .collect())
}

/// A UE1 `Mesh` or `LodMesh` written back as the `_d.3d` + `_a.3d` pair that
/// `#exec MESH IMPORT` reads ([`Package::read_mesh_files`]).
#[derive(Debug, Clone, PartialEq)]
pub struct MeshFiles {
    pub data: crate::vertex_mesh::DataFile,
    pub frames: u16,
    pub frame_size: u16,
    /// `frames` x `frame_size` bytes: every frame's vertices as the package stores them.
    pub frame_data: Vec<u8>,
}

impl MeshFiles {
    /// The `_a.3d` file.
    pub fn aniv_bytes(&self) -> Vec<u8> {
        crate::vertex_mesh::aniv_bytes(self.frames, self.frame_size, &self.frame_data)
    }
}

/// `PF_Masked`, `PF_Translucent`, `PF_Environment`, `PF_Modulated`, `PF_TwoSided`,
/// `PF_NoSmooth`, `PF_Flat`, `PF_Unlit` (UT v400 `Engine/Inc/UnObj.h`).
const PF_MASKED: u32 = 0x2;
const PF_TRANSLUCENT: u32 = 0x4;
const PF_ENVIRONMENT: u32 = 0x10;
const PF_MODULATED: u32 = 0x40;
const PF_TWO_SIDED: u32 = 0x100;
const PF_NO_SMOOTH: u32 = 0x800;
const PF_FLAT: u32 = 0x4000;
const PF_UNLIT: u32 = 0x40_0000;

/// James' triangle type for a triangle's poly flags: the inverse of the table in
/// `UEditorEngine::meshImport` (UT v400 `Editor/Src/UnMeshEd.cpp`), which turns the type's
/// low four bits into one of six flag sets and each of its four high bits into one flag.
pub fn james_type(flags: u32) -> u8 {
    let base = if flags & PF_INVISIBLE != 0 {
        WEAPON_TRIANGLE
    } else if flags & PF_MODULATED != 0 {
        4
    } else if flags & PF_TRANSLUCENT != 0 {
        2
    } else if flags & PF_MASKED != 0 {
        3
    } else {
        // Two-sided (1) or normal (0).
        u8::from(flags & PF_TWO_SIDED != 0)
    };
    let bit = |flag: u32, value: u8| if flags & flag != 0 { value } else { 0 };
    base | bit(PF_UNLIT, 16) | bit(PF_FLAT, 32) | bit(PF_ENVIRONMENT, 64) | bit(PF_NO_SMOOTH, 128)
}

impl Package<'_> {
    /// A UE1 `Mesh` or `LodMesh` as the `_d.3d` + `_a.3d` pair that imports it again: every
    /// frame's vertices byte for byte as stored (through a LodMesh's `RemapAnimVerts`), and
    /// every triangle with its vertices, UVs, texture number and James' type from its poly
    /// flags. A LodMesh's triangles come from its faces and wedges; its weapon triangles
    /// (`SpecialFaces`, on the special vertices that start each frame) are written as type 8,
    /// texture 0 (the import keeps no texture number for them). Vertices the LOD build left
    /// out (used by no triangle) are not in the package and so not in the files.
    pub fn read_mesh_files(&self, export: usize) -> Result<MeshFiles> {
        let info = self.read_mesh(export)?;
        self.mesh_files(export, &info)
    }

    /// [`Self::read_mesh_files`] of a mesh whose [`MeshInfo`] the caller has already read
    /// (the `#exec` block reads its sequences and placement too).
    pub fn mesh_files(&self, export: usize, info: &MeshInfo) -> Result<MeshFiles> {
        use crate::vertex_mesh::{DataFile, Triangle};
        let structure = format!("{} {} (export {export})", info.class, self.export_path(export));
        if info.skeletal.is_some() {
            return Err(Error::new(
                structure,
                self.export(export).map_or(0, |e| e.serial_offset),
                "a vertex Mesh or LodMesh (a skeletal mesh is imported from PSK and PSA files)",
            ));
        }
        let mut r = Reader::new(self.data(), 0, structure);
        let too_many = |what: &str, n: usize| {
            r.error_at(
                info.layout.verts_offset,
                format!(
                    "at most 65,535 {what} (the `_d.3d` header counts them in 16 bits), found {n}"
                ),
            )
        };
        let vertices =
            u16::try_from(info.vertices).map_err(|_| too_many("vertices", info.vertices))?;
        let frames = u16::try_from(info.frames).map_err(|_| too_many("frames", info.frames))?;
        let frame_size = u16::try_from(info.vertices * info.bytes_per_vertex)
            .map_err(|_| too_many("bytes a frame", info.vertices * info.bytes_per_vertex))?;
        let frame_data = read_frame_bytes(&mut r, info)?;
        let mut triangles = Vec::new();
        let uv3 = |uv: [u8; 6]| [[uv[0], uv[1]], [uv[2], uv[3]], [uv[4], uv[5]]];
        if let Some(lod) = &info.lod {
            r.seek("Materials", info.layout.materials_offset)?;
            let mut materials = Vec::with_capacity(lod.materials);
            for _ in 0..lod.materials {
                let flags = r.u32("Material PolyFlags")?;
                let texture = r.i32("Material TextureIndex")?;
                materials.push((flags, u8::try_from(texture).unwrap_or(0)));
            }
            r.seek("Wedges", info.layout.wedges_offset)?;
            let mut wedges = Vec::with_capacity(lod.wedges);
            for _ in 0..lod.wedges {
                let at = r.pos();
                let v = usize::from(r.u16("Wedge iVertex")?) + info.layout.special_verts;
                let uv = r.array::<2>("Wedge UV")?;
                let v = u16::try_from(v).ok().filter(|&v| v < vertices).ok_or_else(|| {
                    r.error_at(at, format!("a vertex index below {vertices}, found {v}"))
                })?;
                wedges.push((v, uv));
            }
            r.seek("Faces", info.layout.faces_offset)?;
            for _ in 0..lod.faces {
                let at = r.pos();
                let w = [r.u16("Face iWedge")?, r.u16("Face iWedge")?, r.u16("Face iWedge")?];
                let m = usize::from(r.u16("Face MaterialIndex")?);
                let mut corners = [(0u16, [0u8; 2]); 3];
                for (corner, &i) in corners.iter_mut().zip(&w) {
                    *corner = wedges.get(usize::from(i)).copied().ok_or_else(|| {
                        r.error_at(at, format!("wedge indices below {}, found {i}", wedges.len()))
                    })?;
                }
                let (flags, texture) = materials.get(m).copied().ok_or_else(|| {
                    r.error_at(at, format!("a material index below {}, found {m}", materials.len()))
                })?;
                triangles.push(Triangle {
                    vertices: corners.map(|c| c.0),
                    kind: james_type(flags),
                    color: 0,
                    uv: corners.map(|c| c.1),
                    texture,
                    flags: 0,
                });
            }
            // SpecialFaces follow Materials: their wedge numbers are special vertex numbers.
            let special_at = info.layout.materials_offset + lod.materials * 8;
            r.seek("SpecialFaces", special_at)?;
            r.compact_index("SpecialFaces count")?;
            for _ in 0..lod.special_faces {
                let at = r.pos();
                let v = [
                    r.u16("SpecialFace vertex")?,
                    r.u16("SpecialFace vertex")?,
                    r.u16("SpecialFace vertex")?,
                ];
                r.u16("SpecialFace MaterialIndex")?;
                if let Some(bad) = v.iter().find(|&&v| usize::from(v) >= info.layout.special_verts)
                {
                    return Err(r.error_at(
                        at,
                        format!(
                            "special vertex numbers below SpecialVerts {}, found {bad}",
                            info.layout.special_verts
                        ),
                    ));
                }
                triangles.push(Triangle {
                    vertices: v,
                    kind: WEAPON_TRIANGLE,
                    color: 0,
                    uv: [[0; 2]; 3],
                    texture: 0,
                    flags: 0,
                });
            }
        } else {
            r.seek("Tris", info.layout.tris_offset)?;
            for _ in 0..info.triangles {
                let at = r.pos();
                let v = [r.u16("Tri iVertex")?, r.u16("Tri iVertex")?, r.u16("Tri iVertex")?];
                let uv = r.array::<6>("Tri UV")?;
                let flags = r.u32("Tri PolyFlags")?;
                let texture = r.i32("Tri TextureIndex")?;
                if let Some(bad) = v.iter().find(|&&v| v >= vertices) {
                    return Err(
                        r.error_at(at, format!("a vertex index below {vertices}, found {bad}"))
                    );
                }
                triangles.push(Triangle {
                    vertices: v,
                    kind: james_type(flags),
                    color: 0,
                    uv: uv3(uv),
                    texture: u8::try_from(texture).unwrap_or(0),
                    flags: 0,
                });
            }
        }
        let polygons = u16::try_from(triangles.len()).map_err(|_| {
            r.error_at(
                info.layout.tris_offset,
                format!("at most 65,535 triangles, found {}", triangles.len()),
            )
        })?;
        let data = DataFile { polygons, vertices, triangles, unused_bytes: 0 };
        Ok(MeshFiles { data, frames, frame_size, frame_data })
    }
}

/// Every frame's vertices as stored bytes (`FrameVerts` a frame, each `bytes_per_vertex`
/// long), through `RemapAnimVerts` when the LodMesh has one.
fn read_frame_bytes(r: &mut Reader<'_>, info: &MeshInfo) -> Result<Vec<u8>> {
    let (n, frames, bpv) = (info.vertices, info.frames, info.bytes_per_vertex);
    let stored_per_frame =
        if info.layout.remap_anim_verts > 0 { info.layout.old_frame_verts } else { n };
    let stored = stored_per_frame.saturating_mul(frames);
    // The stored array was validated against FrameVerts x AnimFrames by read_mesh.
    if stored != n * frames {
        return Err(r.error_at(
            info.layout.verts_offset,
            format!("OldFrameVerts x AnimFrames to equal the stored vertices, found {stored_per_frame} x {frames}"),
        ));
    }
    r.seek("Verts", info.layout.verts_offset)?;
    let bytes = r.bytes("Verts", stored.saturating_mul(bpv))?;
    if info.layout.remap_anim_verts == 0 {
        return Ok(bytes.to_vec());
    }
    if info.layout.remap_anim_verts != n {
        return Err(r.error_at(
            info.layout.remap_offset,
            format!(
                "one RemapAnimVerts entry per frame vertex ({n}), found {}",
                info.layout.remap_anim_verts
            ),
        ));
    }
    r.seek("RemapAnimVerts", info.layout.remap_offset)?;
    let mut remap = Vec::with_capacity(n);
    for _ in 0..n {
        let at = r.pos();
        let k = usize::from(r.u16("RemapAnimVerts entry")?);
        if k >= stored_per_frame {
            return Err(r.error_at(
                at,
                format!("a vertex below OldFrameVerts {stored_per_frame}, found {k}"),
            ));
        }
        remap.push(k);
    }
    let mut out = Vec::with_capacity(n * frames * bpv);
    for f in 0..frames {
        for &k in &remap {
            let i = (f * stored_per_frame + k) * bpv;
            out.extend_from_slice(bytes.get(i..i + bpv).unwrap_or(&[0; 8][..bpv]));
        }
    }
    Ok(out)
}
