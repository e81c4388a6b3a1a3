//! UE2 vertex-animated meshes (`VertMesh`: what UT2003/UT2004's `#exec MESH IMPORT` builds
//! from a `_d.3d` + `_a.3d` pair; the CTF flags and banners), read as the engine's own
//! serializers lay them out: `UPrimitive` (bounds), `ULodMesh::Serialize` (UnLodMesh.cpp:
//! internal version, the packed frame vertices, materials, faces, wedges and their materials)
//! and `UVertMesh::Serialize` (UnVertMesh.cpp: the render stream, `AnimVerts`, `FrameKeys`, the
//! sequences, `AnimNormals`, `FrameVerts`, `AnimFrames`, the per-frame bounds).
//!
//! The game draws frame `f` from `Verts`, `ModelVerts` vertices from `f * ModelVerts`
//! (`UVertMeshInstance::GetFrame`); each face's corners are wedges, a vertex and its texture
//! coordinates (floats: the file's bytes over 255, `meshVertImport`). Every count is checked
//! against the bytes left before anything is allocated, every index against what it indexes,
//! and the object must end where the layout says.

use crate::decode::mesh::{AnimatedMesh, MeshFace, MeshMaterial, MeshSequence};
use crate::error::Result;
use crate::package::{ObjectReader, ObjectRef, Package};
use crate::vertex_mesh::unpack_vertex;

/// `PF_Invisible` (a weapon placeholder's faces) and `PF_TwoSided` on a mesh material.
const PF_INVISIBLE: u32 = 0x1;
const PF_TWO_SIDED: u32 = 0x100;

/// A UE2 `VertMesh`: its frames, faces and materials, and how it sits in its own space.
#[derive(Debug, Clone, PartialEq)]
pub struct VertMeshUe2 {
    /// `ULodMesh::InternalVersion` (2 to 4).
    pub internal_version: i32,
    /// `ULodMesh::Materials`: the skins, by material index (an actor's `Skins(i)` replaces
    /// material `i`).
    pub materials: Vec<ObjectRef>,
    /// `MESH SCALE`/`ORIGIN`/`ROTORIGIN`, which apply to the raw vertex integers.
    pub scale: [f32; 3],
    pub origin: [f32; 3],
    pub rot_origin: [i32; 3],
    /// The frames (decoded as [`unpack_vertex`] decodes a `.3d` file's: eighths and quarters
    /// of the raw integers), the visible faces, one material per material index used, and the
    /// sequences.
    pub mesh: AnimatedMesh,
    /// `BoundingBoxes(0)`: the box around the first frame's raw vertices (`MeshBuildBounds`).
    pub first_frame_box: Option<[[f32; 3]; 2]>,
}

impl Package<'_> {
    /// A UE2 `VertMesh`.
    pub fn read_vert_mesh_ue2(&self, export: usize) -> Result<VertMeshUe2> {
        self.labelled(export, || self.unlabelled_vert_mesh_ue2(export))
    }

    fn unlabelled_vert_mesh_ue2(&self, export: usize) -> Result<VertMeshUe2> {
        let ObjectReader { reader: mut r, .. } = self.object_reader(export, &["VertMesh"])?;
        self.check_epic_ue2(&r, "VertMesh")?;
        let lod_at = r.pos();
        let lod = Self::lod_mesh_ue2(&mut r, "VertMesh")?;
        // UVertMesh: the render stream (position, normal, UV: 32 bytes a vertex) and its
        // revision, then the animation's arrays, which the game does not draw from.
        let c = r.compact_index("VertexStream Vertices count")?;
        let n = r.check_count("VertexStream Vertices count", i64::from(c), 32)?;
        r.skip("VertexStream Vertices", n * 32)?;
        r.skip("VertexStream Revision", 4)?;
        for (field, item) in [("AnimVerts", 4), ("FrameKeys", 4)] {
            let c = r.compact_index(&format!("{field} count"))?;
            let n = r.check_count(&format!("{field} count"), i64::from(c), item)?;
            r.skip(field, n * item)?;
        }
        let sequences = self.anim_seqs_ue2(&mut r)?;
        let c = r.compact_index("AnimNormals count")?;
        let n = r.check_count("AnimNormals count", i64::from(c), 4)?;
        r.skip("AnimNormals", n * 4)?;
        r.skip("FrameVerts", 4)?;
        r.skip("AnimFrames", 4)?;
        let c = r.compact_index("BoundingBoxes count")?;
        let boxes = r.check_count("BoundingBoxes count", i64::from(c), 25)?;
        let first_frame_box = if boxes > 0 {
            let mut corner = || -> Result<[f32; 3]> {
                Ok([r.f32("BoundingBoxes")?, r.f32("BoundingBoxes")?, r.f32("BoundingBoxes")?])
            };
            let found = [corner()?, corner()?];
            r.skip("BoundingBoxes", boxes * 25 - 24)?;
            Some(found)
        } else {
            None
        };
        let c = r.compact_index("BoundingSpheres count")?;
        let n = r.check_count("BoundingSpheres count", i64::from(c), 16)?;
        r.skip("BoundingSpheres", n * 16)?;
        if !r.is_at_end() {
            return Err(r.error(format!(
                "the VertMesh to end after BoundingSpheres (package version {}, InternalVersion {}), {} bytes remain",
                self.header.version,
                lod.internal_version,
                r.remaining()
            )));
        }
        // The frames: `ModelVerts` vertices each, as the game reads them.
        let per_frame = usize::try_from(lod.model_verts).unwrap_or(0);
        if per_frame == 0 || lod.verts.len() % per_frame != 0 {
            return Err(r.error_at(
                lod_at,
                format!(
                    "Verts in whole frames of ModelVerts vertices, found {} vertices and ModelVerts {}",
                    lod.verts.len(),
                    lod.model_verts
                ),
            ));
        }
        let frames = lod.verts.len() / per_frame;
        let positions = lod.verts.iter().map(|&v| unpack_vertex(v)).collect();
        let mut mesh = AnimatedMesh {
            vertices_per_frame: per_frame,
            frames,
            positions,
            faces: Vec::with_capacity(lod.faces.len()),
            materials: Vec::new(),
            sequences: sequences
                .iter()
                .map(|s| MeshSequence::stored(&s.name, s.start_frame, s.frames, s.rate))
                .collect(),
        };
        for (k, &(wedges, mesh_material)) in lod.faces.iter().enumerate() {
            let bad = |what: String| r.error_at(lod_at, format!("face {k}: {what}"));
            let corner = |w: u16| {
                let &(vertex, uv) = lod.wedges.get(usize::from(w)).ok_or_else(|| {
                    bad(format!("wedges below the {} Wedges, found {w}", lod.wedges.len()))
                })?;
                if usize::from(vertex) >= per_frame {
                    return Err(bad(format!(
                        "a wedge vertex below ModelVerts {per_frame}, found {vertex}"
                    )));
                }
                Ok((u32::from(vertex), uv))
            };
            let c = [corner(wedges[0])?, corner(wedges[1])?, corner(wedges[2])?];
            let &(flags, index) =
                lod.mesh_materials.get(usize::from(mesh_material)).ok_or_else(|| {
                    bad(format!(
                        "a material below the {} MeshMaterials, found {mesh_material}",
                        lod.mesh_materials.len()
                    ))
                })?;
            if flags & PF_INVISIBLE != 0 {
                continue;
            }
            let slot = usize::try_from(index).unwrap_or(0);
            let material = if let Some(i) = mesh.materials.iter().position(|m| m.slot == slot) {
                i
            } else {
                let texture = lod.materials.get(slot).copied().filter(|t| t.0 != 0);
                mesh.materials.push(MeshMaterial { slot, texture });
                mesh.materials.len() - 1
            };
            mesh.faces.push(MeshFace {
                vertices: [c[0].0, c[1].0, c[2].0],
                uvs: [c[0].1, c[1].1, c[2].1],
                material,
                two_sided: flags & PF_TWO_SIDED != 0,
            });
        }
        Ok(VertMeshUe2 {
            internal_version: lod.internal_version,
            materials: lod.materials,
            scale: lod.scale,
            origin: lod.origin,
            rot_origin: lod.rot_origin,
            mesh,
            first_frame_box,
        })
    }
}
