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

#[derive(Debug, Clone, PartialEq)]
pub struct U3dMesh {
    pub name: String,
    pub frame: u16,
    pub lod: f32,
    pub vertices: u16,
    pub tex_coord_dimensions: [u16; 8],
    pub skin_weights: u16,
    pub triangles: u16,
    /// False when the mesh reuses the first frame's triangles.
    pub triangles_owned: bool,
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
    pub textures_used: u16,
    pub textures: Vec<U3dTexture>,
    /// The chunk embeds resources or a shader effect, which v1.0 does not document: the
    /// rest of the chunk was skipped up to the next chunk identifier.
    pub skipped_undocumented: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub struct U3dBone {
    pub name: String,
    /// `None` for a root bone (65535 on disk).
    pub parent: Option<u16>,
    pub meshes: Vec<u16>,
    pub scaling_keys: u16,
    pub translation_keys: u16,
    pub rotation_keys: u16,
}

#[derive(Debug, Clone, PartialEq)]
pub struct U3d {
    pub header: U3dHeader,
    pub meshes: Vec<U3dMesh>,
    pub materials: Vec<U3dMaterial>,
    pub bones: Vec<U3dBone>,
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

impl U3d {
    pub fn is_u3d(data: &[u8]) -> bool {
        data.starts_with(SIGNATURE)
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
            r.set_structure(format!("u3d mesh chunk {i}"));
            out_meshes.push(read_mesh(&mut r, materials)?);
        }
        let mut out_materials = Vec::with_capacity(usize::from(materials));
        for i in 0..materials {
            r.set_structure(format!("u3d material chunk {i}"));
            out_materials.push(read_material(&mut r, i + 1 == materials)?);
        }
        let mut out_bones = Vec::with_capacity(usize::from(bones));
        for i in 0..bones {
            r.set_structure(format!("u3d bone chunk {i}"));
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
        Ok(Self { header, meshes: out_meshes, materials: out_materials, bones: out_bones })
    }
}

fn read_mesh(r: &mut Reader<'_>, materials: u16) -> Result<U3dMesh> {
    expect_id(r, MESH_ID, "MeshID")?;
    let name = string(r, "Name")?;
    let frame = r.u16("Frame")?;
    let lod = r.f32("LOD")?;
    r.f32("NormalScalar")?;
    r.bool8("ValidInverseTangentSpaceMatrices")?;
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
    r.u8("iMaxBlendingMatrix")?;
    let sv_vertices = r.u16("nShadowVolumeVertex")?;
    let sv_triangles = r.u16("nShadowVolumeTriangle")?;
    let weighted = usize::from(skin_weights != 0);
    let sv_floats = (6 + usize::from(skin_weights) + weighted) * usize::from(sv_vertices);
    r.skip("pShadowVolumeVBuffer", sv_floats * 4)?;
    r.skip("pShadowVolumeIBuffer", usize::from(sv_triangles) * 6)?;
    let nv = usize::from(vertices);
    r.skip("pPosition", nv * 12)?;
    r.skip("pNormal", nv * 2)?;
    r.bool8("UseTextureCoordinateBuffer")?;
    let owned = r.bool8("TextureCoordinateOwned")?;
    if owned {
        for (i, &d) in tex_coord_dimensions.iter().enumerate() {
            r.skip(&format!("ppTextureCoordinateSet{i}"), nv * usize::from(d) * 4)?;
        }
    }
    r.skip("ppSkinWeight", nv * usize::from(skin_weights) * 4)?;
    r.skip("pSkinWeightIndex", nv * 4 * weighted)?;
    let triangles = r.u16("nTriangle")?;
    let triangles_owned = r.bool8("TrianglesOwned")?;
    if triangles_owned {
        for t in 0..triangles {
            let pos = r.pos();
            for _ in 0..3 {
                let v = r.u16("pTriangle")?;
                if v >= vertices {
                    return Err(r.error_at(
                        pos,
                        format!("triangle {t}: vertex indices below nVertex {vertices}, found {v}"),
                    ));
                }
            }
        }
        for t in 0..triangles {
            let pos = r.pos();
            let m = r.u16("piTriangleMaterial")?;
            if m >= materials {
                return Err(r.error_at(
                    pos,
                    format!(
                        "triangle {t}: a material index below nMaterial {materials}, found {m}"
                    ),
                ));
            }
        }
    }
    Ok(U3dMesh {
        name,
        frame,
        lod,
        vertices,
        tex_coord_dimensions,
        skin_weights,
        triangles,
        triangles_owned,
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
    r.skip("Ambient, Diffuse, Specular, Emissive, SpecularPower", 4 * 16 + 4)?;
    let textures_used = r.u16("nTexture")?;
    r.skip("pColorOp, piTexCoordSet", 2 * 8 * 4)?;
    let export_resources = r.bool8("ExportResources")?;
    let mut material =
        U3dMaterial { name, textures_used, textures: Vec::new(), skipped_undocumented: false };
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

fn read_bone(r: &mut Reader<'_>, meshes: u16) -> Result<U3dBone> {
    expect_id(r, BONE_ID, "BoneID")?;
    let name = string(r, "Name")?;
    let parent = r.u16("iParent")?;
    r.f32("BoneFrame")?;
    r.bool8("PassOnBoneFrame")?;
    let n = r.u16("nMesh")?;
    let mut mesh_indices = Vec::with_capacity(usize::from(n).min(r.remaining() / 2));
    for _ in 0..n {
        let pos = r.pos();
        let m = r.u16("piMesh")?;
        if m >= meshes {
            return Err(r.error_at(pos, format!("a mesh index below nMesh {meshes}, found {m}")));
        }
        mesh_indices.push(m);
    }
    r.skip("pMeshTransformation", usize::from(n) * 64)?;
    let mut keys = |what: &str, size: usize| -> Result<u16> {
        let k = r.u16(&format!("n{what}Key"))?;
        r.u16("Unused")?;
        r.skip(&format!("p{what}Key"), usize::from(k) * size)?;
        Ok(k)
    };
    let scaling_keys = keys("Scaling", 16)?;
    let translation_keys = keys("Translation", 16)?;
    let rotation_keys = keys("Rotation", 20)?;
    Ok(U3dBone {
        name,
        parent: (parent != u16::MAX).then_some(parent),
        meshes: mesh_indices,
        scaling_keys,
        translation_keys,
        rotation_keys,
    })
}
