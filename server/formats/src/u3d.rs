//! Ultimate 3D model files (`.u3d`), version 1.0 as documented by its author: a header, then
//! `nMesh` mesh chunks, `nMaterial` material chunks and `nBone` bone chunks.

use crate::error::Result;
use crate::reader::{ansi, Reader};

pub const SIGNATURE: &[u8; 13] = b"U3DModelFile\0";
pub const MESH_ID: &[u8; 10] = b"$U3D_MESH\0";
pub const MATERIAL_ID: &[u8; 9] = b"$U3D_MAT\0";
pub const BONE_ID: &[u8; 10] = b"$U3D_BONE\0";
const MAX_STRING: usize = 4096;

#[derive(Debug, Clone, PartialEq)]
pub struct U3dHeader {
    pub version: f32,
    pub meshes: u16,
    pub meshes_per_frame: u16,
    pub frames: u32,
    pub lods: u16,
    pub materials: u16,
    pub bones: u16,
    pub cel_shading_strength: f32,
    pub cel_shading_color: [f32; 4],
    pub alpha_blending: bool,
    pub vertex_tweening: bool,
    pub lod_levels: Vec<f32>,
    pub lod_distances_sq: Vec<f32>,
}

/// A per-vertex normal as two signed bytes: latitude (31.75 steps to a right angle, the
/// format's documented mistake) and longitude (127 steps to half a turn).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CompressedNormal {
    pub latitude: i8,
    pub longitude: i8,
}

impl CompressedNormal {
    /// The unit vector in the file's axes, with the constants the format's author gives.
    pub fn to_vector(self) -> [f32; 3] {
        let lat = f32::from(self.latitude) * 0.049_473_9;
        let lon = f32::from(self.longitude) * 0.024_736_95;
        [lat.cos() * lon.sin(), -lat.sin(), lat.cos() * lon.cos()]
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct U3dMesh {
    pub name: String,
    pub frame: u16,
    pub lod: f32,
    /// -1 when a bone mirrors the mesh; not applied by [`Self::normal`].
    pub normal_scalar: f32,
    pub inverse_tangent_space: bool,
    pub vertices: u16,
    pub tex_coord_dimensions: [u16; 8],
    /// Stored weights per vertex (the last of `skin_weights + 1` is implied).
    pub skin_weights: u16,
    pub max_blending_matrix: u8,
    /// Mesh space, the file's axes (left-handed: x right, y up, z into the screen).
    pub positions: Vec<[f32; 3]>,
    pub normals: Vec<CompressedNormal>,
    /// False when the mesh reuses the first frame's texture coordinates (then every set
    /// below is empty; see [`U3d::tex_coord_source`]).
    pub tex_coords_owned: bool,
    /// Per set, `vertices * tex_coord_dimensions[set]` floats, vertex by vertex.
    pub tex_coord_sets: [Vec<f32>; 8],
    /// `vertices * skin_weights` floats, vertex by vertex.
    pub skin_weight_values: Vec<f32>,
    /// Four bone indices per vertex when skinned, else empty.
    pub skin_indices: Vec<[u8; 4]>,
    pub triangles: u16,
    /// False when the mesh reuses the first frame's triangles (then the two lists below
    /// are empty; see [`U3d::triangles_of`]).
    pub triangles_owned: bool,
    /// Vertex indices, each checked below `vertices`.
    pub triangle_indices: Vec<[u16; 3]>,
    /// Material per triangle, each checked below the header's `nMaterial`.
    pub triangle_materials: Vec<u16>,
}

impl U3dMesh {
    /// Vertex `v`'s decoded normal (unit length, file axes).
    pub fn normal(&self, v: usize) -> Option<[f32; 3]> {
        self.normals.get(v).map(|n| n.to_vector())
    }

    /// Vertex `v`'s coordinates in texture coordinate set `set` (0 to 4 floats).
    pub fn tex_coord(&self, set: usize, v: usize) -> Option<&[f32]> {
        let dims = usize::from(*self.tex_coord_dimensions.get(set)?);
        self.tex_coord_sets.get(set)?.get(v * dims..(v + 1) * dims)
    }

    /// Vertex `v`'s first two coordinates of set 0 (u right, v down), when set 0 has them.
    pub fn uv(&self, v: usize) -> Option<[f32; 2]> {
        match self.tex_coord(0, v)? {
            [u, w, ..] => Some([*u, *w]),
            _ => None,
        }
    }

    /// Vertex `v`'s four bone indices and weights (the implied last weight is one minus
    /// the stored ones; unused slots weigh 0). `None` when the mesh is not skinned.
    pub fn skin(&self, v: usize) -> Option<([u8; 4], [f32; 4])> {
        let indices = *self.skin_indices.get(v)?;
        let n = usize::from(self.skin_weights);
        let stored = self.skin_weight_values.get(v * n..(v + 1) * n)?;
        let mut weights = [0f32; 4];
        for (w, s) in weights.iter_mut().zip(stored) {
            *w = *s;
        }
        if let Some(last) = weights.get_mut(n) {
            *last = 1.0 - stored.iter().sum::<f32>();
        }
        Some((indices, weights))
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct U3dTexture {
    pub stage: usize,
    pub kind: u32,
    pub id: String,
    pub width: u16,
    pub height: u16,
    pub file: String,
}

#[derive(Debug, Clone, PartialEq)]
pub struct U3dMaterial {
    pub name: String,
    /// Colours as r, g, b, a from 0 to 1.
    pub ambient: [f32; 4],
    pub diffuse: [f32; 4],
    pub specular: [f32; 4],
    pub emissive: [f32; 4],
    pub specular_power: f32,
    pub textures_used: u16,
    /// Direct3D `D3DTEXTUREOP` per stage.
    pub color_ops: [u32; 8],
    /// Texture coordinate set per stage.
    pub stage_tex_coord_sets: [u32; 8],
    pub textures: Vec<U3dTexture>,
    /// The chunk embeds resources or a shader effect, which v1.0 does not document: the
    /// rest of the chunk was skipped up to the next chunk identifier.
    pub skipped_undocumented: bool,
}

/// An animation key: the frame it is at and its value.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct U3dKey<T> {
    pub frame: u16,
    pub value: T,
}

#[derive(Debug, Clone, PartialEq)]
pub struct U3dBone {
    pub name: String,
    /// `None` for a root bone (65535 on disk).
    pub parent: Option<u16>,
    /// Negative: the parent's frame is used.
    pub bone_frame: f32,
    pub pass_on_bone_frame: bool,
    pub meshes: Vec<u16>,
    /// Mesh to bone space per attached mesh, 16 floats row by row as stored (Direct3D's
    /// row-vector layout: the translation is in the fourth row).
    pub mesh_transforms: Vec<[f32; 16]>,
    /// Scaling along the bone's axes.
    pub scaling_keys: Vec<U3dKey<[f32; 3]>>,
    /// Translation in the parent bone's space.
    pub translation_keys: Vec<U3dKey<[f32; 3]>>,
    /// Rotation `(x, y, z, w)` in the parent bone's space.
    pub rotation_keys: Vec<U3dKey<[f32; 4]>>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct U3d {
    pub header: U3dHeader,
    pub meshes: Vec<U3dMesh>,
    pub materials: Vec<U3dMaterial>,
    pub bones: Vec<U3dBone>,
    /// [`U3d::first_frame_counterpart`] of each mesh, found once when the file is read:
    /// asked of each mesh by a search over all of them, a file of 65,535 meshes took
    /// minutes.
    counterparts: Vec<Option<usize>>,
}

/// For each mesh, the mesh in the first frame with the same rank among the meshes of the
/// same LOD, when it has the same vertex count (and is another mesh).
fn counterparts(meshes: &[U3dMesh]) -> Vec<Option<usize>> {
    use std::collections::HashMap;
    let Some(first) = meshes.iter().map(|m| m.frame).min() else { return Vec::new() };
    let mut in_first: HashMap<u32, Vec<usize>> = HashMap::new();
    for (i, m) in meshes.iter().enumerate().filter(|(_, m)| m.frame == first) {
        in_first.entry(m.lod.to_bits()).or_default().push(i);
    }
    let mut ranks: HashMap<(u16, u32), usize> = HashMap::new();
    meshes
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let seen = ranks.entry((m.frame, m.lod.to_bits())).or_default();
            let rank = *seen;
            *seen += 1;
            let index = *in_first.get(&m.lod.to_bits())?.get(rank)?;
            let other = meshes.get(index)?;
            (other.vertices == m.vertices && index != i).then_some(index)
        })
        .collect()
}

fn string(r: &mut Reader<'_>, field: &str) -> Result<String> {
    Ok(ansi(r.cstring(field, MAX_STRING)?))
}

fn expect_id(r: &mut Reader<'_>, id: &[u8], what: &str) -> Result<()> {
    let pos = r.pos();
    let found = r.bytes(what, id.len())?;
    if found != id {
        return Err(r.error_at(
            pos,
            format!(
                "the chunk identifier {:?}, found {:?}",
                String::from_utf8_lossy(&id[..id.len() - 1]),
                String::from_utf8_lossy(found)
            ),
        ));
    }
    Ok(())
}

/// `count` items of `size` bytes each, counted against the bytes left before allocating.
fn items<T>(
    r: &mut Reader<'_>,
    field: &str,
    count: usize,
    size: usize,
    mut read: impl FnMut(&mut Reader<'_>) -> Result<T>,
) -> Result<Vec<T>> {
    let n = r.check_count(field, i64::try_from(count).unwrap_or(i64::MAX), size)?;
    let mut out = Vec::with_capacity(n);
    for _ in 0..n {
        out.push(read(r)?);
    }
    Ok(out)
}

fn floats<const N: usize>(r: &mut Reader<'_>, field: &str) -> Result<[f32; N]> {
    let mut out = [0f32; N];
    for v in &mut out {
        *v = r.f32(field)?;
    }
    Ok(out)
}

impl U3d {
    pub fn is_u3d(data: &[u8]) -> bool {
        data.starts_with(SIGNATURE)
    }

    /// For a mesh that reuses the first frame's data (`TrianglesOwned` or
    /// `TextureCoordinateOwned` false), the mesh it reuses: the one in the first frame with
    /// the same rank among the meshes of the same LOD, when it has the same vertex count.
    pub fn first_frame_counterpart(&self, mesh: usize) -> Option<usize> {
        *self.counterparts.get(mesh)?
    }

    /// A mesh's triangles and their materials, the first frame's when it reuses them
    /// (empty when there is nothing to reuse).
    pub fn triangles_of(&self, mesh: usize) -> (&[[u16; 3]], &[u16]) {
        let source = match self.meshes.get(mesh) {
            Some(m) if m.triangles_owned => Some(m),
            Some(_) => self
                .first_frame_counterpart(mesh)
                .and_then(|i| self.meshes.get(i))
                .filter(|m| m.triangles_owned),
            None => None,
        };
        source.map_or((&[], &[]), |m| (&m.triangle_indices[..], &m.triangle_materials[..]))
    }

    /// The mesh whose texture coordinates this mesh uses: itself, or the first frame's.
    pub fn tex_coord_source(&self, mesh: usize) -> Option<&U3dMesh> {
        let m = self.meshes.get(mesh)?;
        if m.tex_coords_owned {
            return Some(m);
        }
        self.first_frame_counterpart(mesh)
            .and_then(|i| self.meshes.get(i))
            .filter(|o| o.tex_coords_owned && o.tex_coord_dimensions == m.tex_coord_dimensions)
    }

    pub fn parse(data: &[u8]) -> Result<Self> {
        let mut r = Reader::new(data, 0, "u3d header");
        let sig = r.bytes("signature", SIGNATURE.len())?;
        if sig != SIGNATURE {
            return Err(r.error_at(0, "the signature \"U3DModelFile\" followed by a NUL"));
        }
        let version = r.f32("FileVersion")?;
        if (version - 1.0).abs() > f32::EPSILON {
            return Err(r.error_at(13, format!("FileVersion 1.0, found {version}")));
        }
        let meshes = r.u16("nMesh")?;
        let meshes_per_frame = r.u16("nMeshesPerFrame")?;
        let frames = r.u32("nFrame")?;
        let lods_pos = r.pos();
        let lods = r.u16("nLOD")?;
        let materials = r.u16("nMaterial")?;
        let bones = r.u16("nBone")?;
        if lods == 0 {
            return Err(r.error_at(lods_pos, "nLOD of at least 1, found 0"));
        }
        let cel_shading_strength = r.f32("CelShadingStrength")?;
        let cel_shading_color = [
            r.f32("CelShadingColor")?,
            r.f32("CelShadingColor")?,
            r.f32("CelShadingColor")?,
            r.f32("CelShadingColor")?,
        ];
        let alpha_blending = r.bool8("AlphaBlending")?;
        let vertex_tweening = r.bool8("VertexTweening")?;
        let extra = r.check_count("nLOD - 1", i64::from(lods) - 1, 8)?;
        let lod_levels =
            (0..extra).map(|_| r.f32("pLODLevelOfDetail")).collect::<Result<Vec<_>>>()?;
        let lod_distances_sq =
            (0..extra).map(|_| r.f32("pLODCameraDistanceSq")).collect::<Result<Vec<_>>>()?;
        let header = U3dHeader {
            version,
            meshes,
            meshes_per_frame,
            frames,
            lods,
            materials,
            bones,
            cel_shading_strength,
            cel_shading_color,
            alpha_blending,
            vertex_tweening,
            lod_levels,
            lod_distances_sq,
        };
        // Every chunk takes more than 20 bytes; bound the counts before allocating.
        r.check_count(
            "nMesh + nMaterial + nBone",
            i64::from(meshes) + i64::from(materials) + i64::from(bones),
            20,
        )?;
        let mut out_meshes = Vec::with_capacity(usize::from(meshes));
        for i in 0..meshes {
            r.set_entry("u3d mesh chunk", usize::from(i));
            out_meshes.push(read_mesh(&mut r, materials)?);
        }
        let mut out_materials = Vec::with_capacity(usize::from(materials));
        for i in 0..materials {
            r.set_entry("u3d material chunk", usize::from(i));
            out_materials.push(read_material(&mut r, i + 1 == materials)?);
        }
        let mut out_bones = Vec::with_capacity(usize::from(bones));
        for i in 0..bones {
            r.set_entry("u3d bone chunk", usize::from(i));
            let bone = read_bone(&mut r, meshes)?;
            if let Some(p) = bone.parent.filter(|&p| p >= bones) {
                return Err(r.error(format!("iParent below nBone {bones} or 65535, found {p}")));
            }
            out_bones.push(bone);
        }
        if !r.is_at_end() {
            r.set_structure("u3d file");
            return Err(r.error(format!(
                "the end of the file after the last chunk, {} bytes remain",
                r.remaining()
            )));
        }
        let counterparts = counterparts(&out_meshes);
        Ok(Self {
            header,
            meshes: out_meshes,
            materials: out_materials,
            bones: out_bones,
            counterparts,
        })
    }
}

fn read_mesh(r: &mut Reader<'_>, materials: u16) -> Result<U3dMesh> {
    expect_id(r, MESH_ID, "MeshID")?;
    let name = string(r, "Name")?;
    let frame = r.u16("Frame")?;
    let lod = r.f32("LOD")?;
    let normal_scalar = r.f32("NormalScalar")?;
    let inverse_tangent_space = r.bool8("ValidInverseTangentSpaceMatrices")?;
    let vertices = r.u16("nVertex")?;
    let dims_pos = r.pos();
    let mut tex_coord_dimensions = [0u16; 8];
    for d in &mut tex_coord_dimensions {
        *d = r.u16("pTexCoordDimensions")?;
    }
    if let Some(d) = tex_coord_dimensions.iter().find(|&&d| d > 4) {
        return Err(
            r.error_at(dims_pos, format!("texture coordinate dimensions from 0 to 4, found {d}"))
        );
    }
    let sw_pos = r.pos();
    let skin_weights = r.u16("nSkinWeight")?;
    if skin_weights > 3 {
        return Err(r.error_at(sw_pos, format!("nSkinWeight from 0 to 3, found {skin_weights}")));
    }
    let max_blending_matrix = r.u8("iMaxBlendingMatrix")?;
    let sv_vertices = r.u16("nShadowVolumeVertex")?;
    let sv_triangles = r.u16("nShadowVolumeTriangle")?;
    let weighted = usize::from(skin_weights != 0);
    let sv_floats = (6 + usize::from(skin_weights) + weighted) * usize::from(sv_vertices);
    r.skip("pShadowVolumeVBuffer", sv_floats * 4)?;
    r.skip("pShadowVolumeIBuffer", usize::from(sv_triangles) * 6)?;
    let nv = usize::from(vertices);
    let positions = items(r, "pPosition", nv, 12, |r| floats::<3>(r, "pPosition"))?;
    let normals = items(r, "pNormal", nv, 2, |r| {
        let [latitude, longitude] = r.array::<2>("pNormal")?.map(|b| i8::from_le_bytes([b]));
        Ok(CompressedNormal { latitude, longitude })
    })?;
    r.bool8("UseTextureCoordinateBuffer")?;
    let tex_coords_owned = r.bool8("TextureCoordinateOwned")?;
    let mut tex_coord_sets: [Vec<f32>; 8] = Default::default();
    if tex_coords_owned {
        for (i, (&d, set)) in tex_coord_dimensions.iter().zip(&mut tex_coord_sets).enumerate() {
            let field = format!("ppTextureCoordinateSet{i}");
            *set = items(r, &field, nv * usize::from(d), 4, |r| r.f32(&field))?;
        }
    }
    let skin_weight_values =
        items(r, "ppSkinWeight", nv * usize::from(skin_weights), 4, |r| r.f32("ppSkinWeight"))?;
    let skin_indices =
        items(r, "pSkinWeightIndex", nv * weighted, 4, |r| r.array::<4>("pSkinWeightIndex"))?;
    let triangles = r.u16("nTriangle")?;
    let triangles_owned = r.bool8("TrianglesOwned")?;
    let nt = if triangles_owned { usize::from(triangles) } else { 0 };
    let mut t = 0usize;
    let triangle_indices = items(r, "pTriangle", nt, 6, |r| {
        let pos = r.pos();
        let mut tri = [0u16; 3];
        for v in &mut tri {
            *v = r.u16("pTriangle")?;
            if *v >= vertices {
                return Err(r.error_at(
                    pos,
                    format!("triangle {t}: vertex indices below nVertex {vertices}, found {v}"),
                ));
            }
        }
        t += 1;
        Ok(tri)
    })?;
    let mut t = 0usize;
    let triangle_materials = items(r, "piTriangleMaterial", nt, 2, |r| {
        let pos = r.pos();
        let m = r.u16("piTriangleMaterial")?;
        if m >= materials {
            return Err(r.error_at(
                pos,
                format!("triangle {t}: a material index below nMaterial {materials}, found {m}"),
            ));
        }
        t += 1;
        Ok(m)
    })?;
    Ok(U3dMesh {
        name,
        frame,
        lod,
        normal_scalar,
        inverse_tangent_space,
        vertices,
        tex_coord_dimensions,
        skin_weights,
        max_blending_matrix,
        positions,
        normals,
        tex_coords_owned,
        tex_coord_sets,
        skin_weight_values,
        skin_indices,
        triangles,
        triangles_owned,
        triangle_indices,
        triangle_materials,
    })
}

fn skip_to_next_chunk(r: &mut Reader<'_>, last: bool) -> Result<()> {
    let rest = r.data().get(r.pos()..).unwrap_or_default();
    let next: &[u8] = if last { BONE_ID } else { MATERIAL_ID };
    let found = rest.windows(next.len()).position(|w| w == next);
    match (found, last) {
        (Some(i), _) => r.skip("undocumented material data", i),
        (None, true) => r.skip("undocumented material data", rest.len()),
        (None, false) => {
            Err(r.error("another \"$U3D_MAT\" chunk after the undocumented material data"))
        }
    }
}

fn read_material(r: &mut Reader<'_>, last: bool) -> Result<U3dMaterial> {
    expect_id(r, MATERIAL_ID, "MaterialID")?;
    let name = string(r, "Name")?;
    let ambient = floats::<4>(r, "Ambient")?;
    let diffuse = floats::<4>(r, "Diffuse")?;
    let specular = floats::<4>(r, "Specular")?;
    let emissive = floats::<4>(r, "Emissive")?;
    let specular_power = r.f32("SpecularPower")?;
    let textures_used = r.u16("nTexture")?;
    let mut color_ops = [0u32; 8];
    for op in &mut color_ops {
        *op = r.u32("pColorOp")?;
    }
    let mut stage_tex_coord_sets = [0u32; 8];
    for set in &mut stage_tex_coord_sets {
        *set = r.u32("piTexCoordSet")?;
    }
    let export_resources = r.bool8("ExportResources")?;
    let mut material = U3dMaterial {
        name,
        ambient,
        diffuse,
        specular,
        emissive,
        specular_power,
        textures_used,
        color_ops,
        stage_tex_coord_sets,
        textures: Vec::new(),
        skipped_undocumented: false,
    };
    if export_resources {
        material.skipped_undocumented = true;
        skip_to_next_chunk(r, last)?;
        return Ok(material);
    }
    for stage in 0..8 {
        if !r.bool8("texture used")? {
            continue;
        }
        let kind = r.u32("texture type")?;
        let id = string(r, "texture identifier")?;
        let width = r.u16("texture width")?;
        let height = r.u16("texture height")?;
        let file = string(r, "texture file")?;
        material.textures.push(U3dTexture { stage, kind, id, width, height, file });
        if kind != 0 {
            material.skipped_undocumented = true;
            skip_to_next_chunk(r, last)?;
            return Ok(material);
        }
    }
    if r.bool8("EffectUsed")? {
        material.skipped_undocumented = true;
        skip_to_next_chunk(r, last)?;
    }
    Ok(material)
}

fn keys<T>(
    r: &mut Reader<'_>,
    what: &str,
    value: impl Fn(&mut Reader<'_>, &str) -> Result<T>,
    size: usize,
) -> Result<Vec<U3dKey<T>>> {
    let count = r.u16(&format!("n{what}Key"))?;
    r.u16("Unused")?;
    let field = format!("p{what}Key");
    items(r, &field, usize::from(count), size, |r| {
        let frame = r.u16(&field)?;
        r.u16(&field)?;
        Ok(U3dKey { frame, value: value(r, &field)? })
    })
}

fn read_bone(r: &mut Reader<'_>, meshes: u16) -> Result<U3dBone> {
    expect_id(r, BONE_ID, "BoneID")?;
    let name = string(r, "Name")?;
    let parent = r.u16("iParent")?;
    let bone_frame = r.f32("BoneFrame")?;
    let pass_on_bone_frame = r.bool8("PassOnBoneFrame")?;
    let n = usize::from(r.u16("nMesh")?);
    let mesh_indices = items(r, "piMesh", n, 2, |r| {
        let pos = r.pos();
        let m = r.u16("piMesh")?;
        if m >= meshes {
            return Err(r.error_at(pos, format!("a mesh index below nMesh {meshes}, found {m}")));
        }
        Ok(m)
    })?;
    let mesh_transforms =
        items(r, "pMeshTransformation", n, 64, |r| floats::<16>(r, "pMeshTransformation"))?;
    let scaling_keys = keys(r, "Scaling", floats::<3>, 16)?;
    let translation_keys = keys(r, "Translation", floats::<3>, 16)?;
    let rotation_keys = keys(r, "Rotation", floats::<4>, 20)?;
    Ok(U3dBone {
        name,
        parent: (parent != u16::MAX).then_some(parent),
        bone_frame,
        pass_on_bone_frame,
        meshes: mesh_indices,
        mesh_transforms,
        scaling_keys,
        translation_keys,
        rotation_keys,
    })
}
