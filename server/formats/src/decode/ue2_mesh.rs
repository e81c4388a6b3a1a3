//! UE2 skeletal meshes (`SkeletalMesh` in UT2003/UT2004 `.ukx` packages), read as the
//! engine's own serializers lay them out: `UPrimitive::Serialize` (bounds),
//! `ULodMesh::Serialize` (UnLodMesh.cpp: internal version, materials, the LOD arrays) and
//! `USkeletalMesh::Serialize` (UnSkeletalMesh.cpp: the reference skeleton, the static LOD
//! models, then the raw import data as lazy arrays: `RawVerts`, `RawWedges`, `RawFaces`,
//! `RawInfluences`), with the version branches of UT2004's source (authentication key from
//! package version 120, collision primitives from 122, their blocking flags from 124 and 125,
//! the collision static mesh from 127).
//!
//! The raw arrays are what the editor built the mesh from (a PSK after `UnMeshEd.cpp`'s
//! import flipped Y), so [`SkeletalMeshUe2::to_psk`] gives back the PSK the mesh came from.
//!
//! Every count is checked against the bytes left before anything is allocated, every index
//! against what it indexes, and the object must end exactly where the layout says: a
//! licensee's different layout is refused, never read as something else.

use crate::error::Result;
use crate::package::{ObjectReader, ObjectRef, Package};
use crate::psk::{self, Psk};
use crate::reader::Reader;

/// The licensee words of Epic's own UE2 builds: UT2003 (25) to UT2004 (29); licensees (SWAT 4,
/// Tribes: Vengeance, XIII, ...) changed these serializers.
pub const MAX_EPIC_LICENSEE: u16 = 29;

/// A UE2 `SkeletalMesh`: its reference skeleton and the raw (full-detail) geometry, in the
/// engine's axes.
#[derive(Debug, Clone, PartialEq)]
pub struct SkeletalMeshUe2 {
    /// `ULodMesh::InternalVersion` (3 or 4 in UT2004's packages).
    pub internal_version: i32,
    /// `ULodMesh::Materials`: the skins, by material index.
    pub materials: Vec<ObjectRef>,
    /// The material names, as the package names them (`""` for none).
    pub material_names: Vec<String>,
    /// `MESH SCALE`/`ORIGIN`/`ROTORIGIN` of the mesh (how the game draws it; not applied).
    pub scale: [f32; 3],
    pub origin: [f32; 3],
    pub rot_origin: [i32; 3],
    /// The reference skeleton: rotation `x y z w` and position relative to the parent.
    pub bones: Vec<psk::Bone>,
    /// `DefaultAnim`: the `MeshAnimation` it plays without another.
    pub default_animation: ObjectRef,
    /// How many static LOD models the mesh keeps.
    pub lods: usize,
    pub points: Vec<[f32; 3]>,
    pub wedges: Vec<psk::Wedge>,
    pub faces: Vec<psk::Face>,
    pub influences: Vec<psk::Weight>,
}

impl SkeletalMeshUe2 {
    /// The mesh as the PSK it was imported from: the editor's import flipped Y of points and
    /// bone positions, negated a bone rotation's Y and W, and swapped a face's last two
    /// wedges (UnMeshEd.cpp, "from Max/Maya/etc space into Unreal space"); this undoes it, so
    /// the mesh exports as its PSK does.
    pub fn to_psk(&self) -> Psk {
        self.engine_psk().mirrored_y()
    }

    /// The mesh in PSK's shape but in the engine's own axes, as the game draws it: the arrays
    /// as the import left them. A level places this one; [`Self::to_psk`] is its mirror image.
    pub fn engine_psk(&self) -> Psk {
        Psk {
            version: 0,
            points: self.points.clone(),
            wedges: self.wedges.clone(),
            faces: self.faces.clone(),
            materials: self
                .material_names
                .iter()
                .enumerate()
                .map(|(i, name)| psk::Material {
                    name: name.clone(),
                    texture_index: i as i32,
                    poly_flags: 0,
                })
                .collect(),
            bones: self.bones.clone(),
            weights: self.influences.clone(),
            ..Psk::default()
        }
    }
}

/// A counted array whose items are skipped: the count, checked against the bytes left.
fn skip_array(r: &mut Reader<'_>, field: &str, item: usize) -> Result<usize> {
    let c = r.compact_index(&format!("{field} count"))?;
    let n = r.check_count(&format!("{field} count"), i64::from(c), item)?;
    r.skip(field, n * item)?;
    Ok(n)
}

/// An `FRawIndexBuffer`: the indices, then `Revision`.
fn skip_index_buffer(r: &mut Reader<'_>, field: &str) -> Result<()> {
    skip_array(r, field, 2)?;
    r.skip("index buffer Revision", 4)
}

impl Package<'_> {
    /// Refuses what these readers do not know: UE1 packages and licensee layouts.
    pub(crate) fn check_epic_ue2(&self, r: &Reader<'_>, class: &str) -> Result<()> {
        let (version, licensee) = (self.header.version, self.header.licensee);
        if version < 100 {
            return Err(r.error(format!(
                "a UE2 {class} (package version 100 or later), found package version {version}"
            )));
        }
        if licensee > MAX_EPIC_LICENSEE {
            return Err(r.error(format!(
                "a {class} of Epic's UE2 layout (licensee 0 to {MAX_EPIC_LICENSEE}, UT2003 and UT2004), found licensee {licensee}: this licensee's engine changed the layout, which is not known here"
            )));
        }
        Ok(())
    }

    /// A lazy array (skip offset, count, items) whose items `read` reads one at a time.
    fn lazy_items<T>(
        &self,
        r: &mut Reader<'_>,
        field: &str,
        item: usize,
        mut read: impl FnMut(&mut Reader<'_>) -> Result<T>,
    ) -> Result<Vec<T>> {
        let skip = self.lazy_skip(r, &format!("{field} skip offset"))?;
        let c = r.compact_index(&format!("{field} count"))?;
        let n = r.check_count(&format!("{field} count"), i64::from(c), item)?;
        let mut items = Vec::with_capacity(n);
        for _ in 0..n {
            items.push(read(r)?);
        }
        Self::check_skip(r, skip, field)?;
        Ok(items)
    }

    /// A UE2 `SkeletalMesh`.
    pub fn read_skeletal_mesh_ue2(&self, export: usize) -> Result<SkeletalMeshUe2> {
        self.labelled(export, || self.unlabelled_skeletal_mesh_ue2(export))
    }

    fn unlabelled_skeletal_mesh_ue2(&self, export: usize) -> Result<SkeletalMeshUe2> {
        let ObjectReader { reader: mut r, .. } = self.object_reader(export, &["SkeletalMesh"])?;
        self.check_epic_ue2(&r, "SkeletalMesh")?;
        let version = self.header.version;
        let lod = Self::lod_mesh_ue2(&mut r, "SkeletalMesh")?;
        let LodMeshUe2 { internal_version, materials, scale, origin, rot_origin, .. } = lod;
        let vector = |r: &mut Reader<'_>, field: &str| -> Result<[f32; 3]> {
            Ok([r.f32(field)?, r.f32(field)?, r.f32(field)?])
        };
        // USkeletalMesh.
        skip_array(&mut r, "Points", 12)?;
        let c = r.compact_index("RefSkeleton count")?;
        let n = r.check_count("RefSkeleton count", i64::from(c), 57)?;
        let mut bones = Vec::with_capacity(n);
        for _ in 0..n {
            let name = self.name_at(&mut r, "bone Name")?;
            let flags = r.u32("bone Flags")?;
            let rotation = [
                r.f32("bone Orientation")?,
                r.f32("bone Orientation")?,
                r.f32("bone Orientation")?,
                r.f32("bone Orientation")?,
            ];
            let position = vector(&mut r, "bone Position")?;
            r.skip("bone Length and sizes", 16)?;
            let children = r.i32("bone NumChildren")?;
            let parent_at = r.pos();
            let parent = r.i32("bone ParentIndex")?;
            if parent < 0 || parent as usize >= n {
                return Err(r.error_at(
                    parent_at,
                    format!("a bone ParentIndex below the {n} bones, found {parent}"),
                ));
            }
            bones.push(psk::Bone { name, flags, children, parent, rotation, position });
        }
        let default_animation = ObjectRef(r.compact_index("DefaultAnim")?);
        r.skip("SkeletalDepth", 4)?;
        let c = r.compact_index("MultiBlends count")?;
        let n = r.check_count("MultiBlends count", i64::from(c), 5)?;
        for _ in 0..n {
            skip_array(&mut r, "MultiBlends PointIndices", 2)?;
            r.skip("MultiBlends WeightBase", 4)?;
        }
        skip_array(&mut r, "Weights", 4)?;
        for field in ["TagAliases", "TagNames"] {
            let c = r.compact_index(&format!("{field} count"))?;
            let n = r.check_count(&format!("{field} count"), i64::from(c), 1)?;
            for _ in 0..n {
                r.compact_index(field)?;
            }
        }
        skip_array(&mut r, "TagCoords", 48)?;
        // The static LOD models: render data the exporter does not need, read to pass.
        let c = r.compact_index("LODModels count")?;
        let lods = r.check_count("LODModels count", i64::from(c), 75)?;
        for _ in 0..lods {
            skip_array(&mut r, "LOD SkinningStream", 4)?;
            skip_array(&mut r, "LOD SmoothVerts", 16)?;
            r.skip("LOD SmoothStreamWedges", 4)?;
            skip_array(&mut r, "LOD SmoothSections", 18)?;
            skip_array(&mut r, "LOD RigidSections", 18)?;
            skip_index_buffer(&mut r, "LOD SmoothIndexBuffer")?;
            skip_index_buffer(&mut r, "LOD RigidIndexBuffer")?;
            r.skip("LOD RigidVertexStream Revision, bPartial, bStreamCallback", 12)?;
            skip_array(&mut r, "LOD RigidVertexStream Vertices", 32)?;
            for (field, item) in
                [("LOD Influences", 8), ("LOD Wedges", 10), ("LOD Faces", 8), ("LOD Points", 12)]
            {
                let skip = self.lazy_skip(&mut r, &format!("{field} skip offset"))?;
                skip_array(&mut r, field, item)?;
                Self::check_skip(&r, skip, field)?;
            }
            r.skip("LOD DisplayFactor, LODHysteresis, DupVertCount, MaxInfluences, flags", 24)?;
        }
        r.compact_index("DefaultRefMesh")?;
        let points = self.lazy_items(&mut r, "RawVerts", 12, |r| vector(r, "RawVerts entry"))?;
        let wedges = self.lazy_items(&mut r, "RawWedges", 10, |r| {
            let at = r.pos();
            let point = u32::from(r.u16("RawWedge iVertex")?);
            if point as usize >= points.len() {
                return Err(r.error_at(
                    at,
                    format!("a RawWedge vertex below the {} RawVerts, found {point}", points.len()),
                ));
            }
            Ok(psk::Wedge { point, u: r.f32("RawWedge U")?, v: r.f32("RawWedge V")?, material: 0 })
        })?;
        let faces = self.lazy_items(&mut r, "RawFaces", 12, |r| {
            let at = r.pos();
            let w = [r.u16("RawFace wedge")?, r.u16("RawFace wedge")?, r.u16("RawFace wedge")?];
            if let Some(bad) = w.iter().find(|&&w| usize::from(w) >= wedges.len()) {
                return Err(r.error_at(
                    at,
                    format!("RawFace wedges below the {} RawWedges, found {bad}", wedges.len()),
                ));
            }
            Ok(psk::Face {
                wedges: w.map(u32::from),
                material: r.u8("RawFace MatIndex")?,
                aux_material: r.u8("RawFace AuxMatIndex")?,
                smoothing_groups: r.u32("RawFace SmoothingGroups")?,
            })
        })?;
        let influences = self.lazy_items(&mut r, "RawInfluences", 8, |r| {
            let at = r.pos();
            let weight = r.f32("RawInfluence Weight")?;
            let point = u32::from(r.u16("RawInfluence VertIndex")?);
            let bone = u32::from(r.u16("RawInfluence BoneIndex")?);
            if point as usize >= points.len() || bone as usize >= bones.len() {
                return Err(r.error_at(
                    at,
                    format!(
                        "a RawInfluence of one of the {} RawVerts on one of the {} bones, found vertex {point} on bone {bone}",
                        points.len(),
                        bones.len()
                    ),
                ));
            }
            Ok(psk::Weight { weight, point, bone })
        })?;
        for (field, item) in [("RawCollapseWedges", 2), ("RawFaceLevel", 2)] {
            let skip = self.lazy_skip(&mut r, &format!("{field} skip offset"))?;
            skip_array(&mut r, field, item)?;
            Self::check_skip(&r, skip, field)?;
        }
        if version >= 120 {
            r.skip("AuthenticationKey", 4)?;
        }
        if version >= 122 {
            r.compact_index("KPhysicsProps")?;
            let flags = if version >= 125 {
                12
            } else if version >= 124 {
                4
            } else {
                0
            };
            for (field, item) in [("BoneCollisionSpheres", 16), ("BoneCollisionBoxes", 24)] {
                let c = r.compact_index(&format!("{field} count"))?;
                let n = r.check_count(&format!("{field} count"), i64::from(c), 1 + item + flags)?;
                for _ in 0..n {
                    r.compact_index(&format!("{field} BoneName"))?;
                    r.skip(field, item + flags)?;
                }
            }
            let c = r.compact_index("BoneCollisionBoxModels count")?;
            let n = r.check_count("BoneCollisionBoxModels count", i64::from(c), 1)?;
            for _ in 0..n {
                r.compact_index("BoneCollisionBoxModels entry")?;
            }
        }
        if version >= 127 {
            r.compact_index("CollisionStaticMesh")?;
        }
        if !r.is_at_end() {
            return Err(r.error(format!(
                "the SkeletalMesh to end after CollisionStaticMesh (package version {version}, InternalVersion {internal_version}), {} bytes remain",
                r.remaining()
            )));
        }
        let material_names = materials.iter().map(|&m| self.ref_name(m).to_owned()).collect();
        Ok(SkeletalMeshUe2 {
            internal_version,
            materials,
            material_names,
            scale,
            origin,
            rot_origin,
            bones,
            default_animation,
            lods,
            points,
            wedges,
            faces,
            influences,
        })
    }
}

/// What `ULodMesh::Serialize` stores (UT2004 `Engine/Src/UnLodMesh.cpp`) after
/// `UPrimitive`'s bounds: the part a `VertMesh` and a `SkeletalMesh` share.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct LodMeshUe2 {
    pub internal_version: i32,
    /// Vertices per frame (`ModelVerts`).
    pub model_verts: i32,
    /// `Verts`: every frame's packed vertices (`FMeshVert`), frame after frame.
    pub verts: Vec<u32>,
    pub materials: Vec<ObjectRef>,
    pub scale: [f32; 3],
    pub origin: [f32; 3],
    pub rot_origin: [i32; 3],
    /// `Faces`: three wedges and a `MeshMaterials` index each.
    pub faces: Vec<([u16; 3], u16)>,
    /// `Wedges`: a vertex and its texture coordinates.
    pub wedges: Vec<(u16, [f32; 2])>,
    /// `MeshMaterials`: poly flags and a `Materials` index each.
    pub mesh_materials: Vec<(u32, i32)>,
}

impl Package<'_> {
    /// `UPrimitive`'s bounds, then `ULodMesh`'s fields, of a `class` object; the internal
    /// versions 2 to 4 (older meshes keep only legacy sections).
    pub(crate) fn lod_mesh_ue2(r: &mut Reader<'_>, class: &str) -> Result<LodMeshUe2> {
        // UPrimitive: BoundingBox (min, max, IsValid byte), BoundingSphere.
        r.skip("BoundingBox", 25)?;
        r.skip("BoundingSphere", 16)?;
        let iv_at = r.pos();
        let internal_version = r.i32("InternalVersion")?;
        if !(2..=4).contains(&internal_version) {
            return Err(r.error_at(
                iv_at,
                format!(
                    "a {class} InternalVersion from 2 to 4 (older meshes keep only legacy sections, newer ones are not known), found {internal_version}"
                ),
            ));
        }
        let model_verts = r.i32("ModelVerts")?;
        let c = r.compact_index("Verts count")?;
        let n = r.check_count("Verts count", i64::from(c), 4)?;
        let mut verts = Vec::with_capacity(n);
        for _ in 0..n {
            verts.push(r.u32("Verts entry")?);
        }
        let c = r.compact_index("Materials count")?;
        let n = r.check_count("Materials count", i64::from(c), 1)?;
        let mut materials = Vec::with_capacity(n);
        for _ in 0..n {
            materials.push(ObjectRef(r.compact_index("Materials entry")?));
        }
        let vector = |r: &mut Reader<'_>, field: &str| -> Result<[f32; 3]> {
            Ok([r.f32(field)?, r.f32(field)?, r.f32(field)?])
        };
        let scale = vector(r, "Scale")?;
        let origin = vector(r, "Origin")?;
        let rot_origin = [r.i32("RotOrigin")?, r.i32("RotOrigin")?, r.i32("RotOrigin")?];
        skip_array(r, "FaceLevel", 2)?;
        let c = r.compact_index("Faces count")?;
        let n = r.check_count("Faces count", i64::from(c), 8)?;
        let mut faces = Vec::with_capacity(n);
        for _ in 0..n {
            let wedges = [r.u16("Face iWedge")?, r.u16("Face iWedge")?, r.u16("Face iWedge")?];
            faces.push((wedges, r.u16("Face MeshMaterialIndex")?));
        }
        skip_array(r, "CollapseWedgeThus", 2)?;
        let c = r.compact_index("Wedges count")?;
        let n = r.check_count("Wedges count", i64::from(c), 10)?;
        let mut wedges = Vec::with_capacity(n);
        for _ in 0..n {
            let vertex = r.u16("Wedge iVertex")?;
            wedges.push((vertex, [r.f32("Wedge U")?, r.f32("Wedge V")?]));
        }
        let c = r.compact_index("MeshMaterials count")?;
        let n = r.check_count("MeshMaterials count", i64::from(c), 8)?;
        let mut mesh_materials = Vec::with_capacity(n);
        for _ in 0..n {
            mesh_materials.push((r.u32("MeshMaterial PolyFlags")?, r.i32("MeshMaterial Index")?));
        }
        r.skip(
            "MeshScaleMax, LODHysteresis, LODStrength, LODMinVerts, LODMorph, LODZDisplace",
            24,
        )?;
        if internal_version >= 3 {
            r.skip("bImpostorPresent", 4)?;
            r.compact_index("ImpostorProps Material")?;
            r.skip(
                "ImpostorProps location, rotation, scale, colour, modes",
                12 + 12 + 12 + 4 + 12,
            )?;
        }
        if internal_version >= 4 {
            r.skip("SkinTesselationFactor", 4)?;
        }
        Ok(LodMeshUe2 {
            internal_version,
            model_verts,
            verts,
            materials,
            scale,
            origin,
            rot_origin,
            faces,
            wedges,
            mesh_materials,
        })
    }

    /// `AnimSeqs`: UE2's `FMeshAnimSeq`s (UT2004 `Engine/Src/UnMesh.cpp`: the `Bookmark` from
    /// package version 115, a notify's object from 112).
    pub(crate) fn anim_seqs_ue2(&self, r: &mut Reader<'_>) -> Result<Vec<AnimationSequence>> {
        let version = self.header.version;
        let c = r.compact_index("AnimSeqs count")?;
        let min = if version >= 115 { 4 } else { 0 } + 1 + 1 + 8 + 1 + 4;
        let n = r.check_count("AnimSeqs count", i64::from(c), min)?;
        let mut sequences = Vec::with_capacity(n);
        for _ in 0..n {
            if version >= 115 {
                r.skip("AnimSeq Bookmark", 4)?;
            }
            let name = self.name_at(r, "AnimSeq Name")?;
            let c = r.compact_index("AnimSeq Groups count")?;
            let g = r.check_count("AnimSeq Groups count", i64::from(c), 1)?;
            let mut groups = Vec::with_capacity(g);
            for _ in 0..g {
                groups.push(self.name_at(r, "AnimSeq Group")?);
            }
            let start_frame = r.i32("AnimSeq StartFrame")?;
            let frames = r.i32("AnimSeq NumFrames")?;
            let c = r.compact_index("AnimSeq Notifys count")?;
            let item = if version >= 112 { 6 } else { 5 };
            let notifies = r.check_count("AnimSeq Notifys count", i64::from(c), item)?;
            for _ in 0..notifies {
                r.skip("AnimNotify Time", 4)?;
                self.name_at(r, "AnimNotify Function")?;
                if version >= 112 {
                    r.compact_index("AnimNotify NotifyObject")?;
                }
            }
            let rate = r.f32("AnimSeq Rate")?;
            sequences.push(AnimationSequence { name, groups, start_frame, frames, rate, notifies });
        }
        Ok(sequences)
    }
}

/// A bone of a `MeshAnimation`'s reference skeleton (`FNamedBone`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AnimationBone {
    pub name: String,
    pub flags: u32,
    /// The parent's index (the root names itself, 0).
    pub parent: i32,
}

/// A sequence of a UE2 `MeshAnimation` (`FMeshAnimSeq`).
#[derive(Debug, Clone, PartialEq)]
pub struct AnimationSequence {
    pub name: String,
    pub groups: Vec<String>,
    pub start_frame: i32,
    pub frames: i32,
    /// Frames per second.
    pub rate: f32,
    pub notifies: usize,
}

/// A UE2 `MeshAnimation`: the skeleton it animates, its compressed motion (one chunk per
/// sequence), and the sequences.
#[derive(Debug, Clone, PartialEq)]
pub struct MeshAnimationUe2 {
    pub internal_version: i32,
    pub bones: Vec<AnimationBone>,
    /// `Moves`: how many motion chunks, and the keys all their tracks hold (rotation and
    /// position keys).
    pub moves: usize,
    pub keys: usize,
    pub sequences: Vec<AnimationSequence>,
}

/// An `AnalogTrack`: `Flags`, then the rotation, position and time keys; returns the
/// rotation and position keys.
fn skip_analog_track(r: &mut Reader<'_>) -> Result<usize> {
    r.skip("track Flags", 4)?;
    let quats = skip_array(r, "track KeyQuat", 16)?;
    let positions = skip_array(r, "track KeyPos", 12)?;
    skip_array(r, "track KeyTime", 4)?;
    Ok(quats + positions)
}

impl Package<'_> {
    /// A UE2 `MeshAnimation` (`UMeshAnimation::Serialize`, UnSkeletalMesh.cpp):
    /// `InternalVersion`, `RefBones`, `Moves`, `AnimSeqs`.
    pub fn read_mesh_animation_ue2(&self, export: usize) -> Result<MeshAnimationUe2> {
        self.labelled(export, || self.unlabelled_mesh_animation_ue2(export))
    }

    fn unlabelled_mesh_animation_ue2(&self, export: usize) -> Result<MeshAnimationUe2> {
        let ObjectReader { reader: mut r, .. } = self.object_reader(export, &["MeshAnimation"])?;
        self.check_epic_ue2(&r, "MeshAnimation")?;
        let version = self.header.version;
        let internal_version = r.i32("InternalVersion")?;
        let c = r.compact_index("RefBones count")?;
        let n = r.check_count("RefBones count", i64::from(c), 9)?;
        let mut bones = Vec::with_capacity(n);
        for _ in 0..n {
            let name = self.name_at(&mut r, "RefBone Name")?;
            let flags = r.u32("RefBone Flags")?;
            let at = r.pos();
            let parent = r.i32("RefBone ParentIndex")?;
            if parent < 0 || parent as usize >= n {
                return Err(r.error_at(
                    at,
                    format!("a RefBone ParentIndex below the {n} bones, found {parent}"),
                ));
            }
            bones.push(AnimationBone { name, flags, parent });
        }
        let c = r.compact_index("Moves count")?;
        // RootSpeed3D, TrackTime, StartBone, Flags, two counts and the root track's five fields.
        let moves = r.check_count("Moves count", i64::from(c), 24 + 2 + 7)?;
        let mut keys = 0usize;
        for _ in 0..moves {
            r.skip("Move RootSpeed3D, TrackTime, StartBone, Flags", 24)?;
            skip_array(&mut r, "Move BoneIndices", 4)?;
            let c = r.compact_index("Move AnimTracks count")?;
            let tracks = r.check_count("Move AnimTracks count", i64::from(c), 7)?;
            for _ in 0..tracks {
                keys += skip_analog_track(&mut r)?;
            }
            keys += skip_analog_track(&mut r)?;
        }
        let sequences = self.anim_seqs_ue2(&mut r)?;
        if !r.is_at_end() {
            return Err(r.error(format!(
                "the MeshAnimation to end after AnimSeqs (package version {version}), {} bytes remain",
                r.remaining()
            )));
        }
        Ok(MeshAnimationUe2 { internal_version, bones, moves, keys, sequences })
    }
}
