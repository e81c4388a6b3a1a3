//! UE2 static meshes (`StaticMesh` in UT2003/UT2004 `.usx` packages and in maps' `myLevel`),
//! read as `UStaticMesh::Serialize` (UT2004's `Engine/Src/UnStaticMesh.cpp`) lays them out:
//! the `UPrimitive` bounds, the sections, the bounding box, then
//!
//! - from package version 112: one shared vertex stream (position and normal), the colour
//!   and alpha streams, the UV streams, the triangle-list index buffer and the wireframe one,
//!   the collision model, the collision data (triangles and nodes before version 126, a kDOP
//!   tree from 126) and, before 114, three collision flags;
//! - before 112 (UT2003-era builds, 100 to 111): each section carries its own vertex stream
//!   (with UVs inside the vertex, a second UV pair for licensee 5 and later, a colour at 111),
//!   index buffers and, from 111, UV streams, and the mesh keeps a tree of collision
//!   primitives;
//!
//! then the raw (import) triangles as a lazy array, `InternalVersion`, the licensee's
//! smoothing data (licensee 22: one float; later licensees: an array of angles), two fields
//! of licensees 24 and 25 before version 111, the Karma properties and, from 120, the
//! authentication key. The `Materials` array is a property (a struct per entry: `Material`,
//! `EnableCollision`), tagged from licensee 28 and binary (in the engine's field order,
//! `EnableCollision` first) before.
//!
//! Every count is checked against the bytes left before anything is allocated, every index
//! against what it indexes, and the object must end exactly where the layout says: a
//! licensee's different layout is refused, never read as something else.

use crate::error::Result;
use crate::package::properties::{read_properties, PropertyValue};
use crate::package::{ObjectReader, ObjectRef, Package};
use crate::reader::Reader;

/// One draw call of a static mesh: a run of the index buffer drawn with material `material`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StaticMeshSection {
    /// The index buffer holds a triangle strip for this section (PS2 builds), not a list.
    pub is_strip: bool,
    /// The first index of [`StaticMeshUe2::indices`] the section draws.
    pub first_index: u32,
    pub min_vertex_index: u32,
    pub max_vertex_index: u32,
    /// Triangles without the degenerate ones a strip adds.
    pub triangles: u16,
    /// Triangles drawn (a list's triangles, or a strip's length less two).
    pub primitives: u16,
    /// Which entry of [`StaticMeshUe2::materials`] skins it: the section's own index from
    /// version 112; before, the material the section names (appended to the list).
    pub material: usize,
}

/// An entry of the mesh's `Materials` property.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StaticMeshMaterial {
    pub material: ObjectRef,
    pub enable_collision: bool,
}

/// `UPrimitive::BoundingBox`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BoundingBox {
    pub min: [f32; 3],
    pub max: [f32; 3],
    pub valid: bool,
}

/// A UE2 `StaticMesh`: its render geometry, in the engine's axes.
#[derive(Debug, Clone, PartialEq)]
pub struct StaticMeshUe2 {
    /// `InternalVersion` as stored (the engine adds 2 to values from 6 on load for licensee 0).
    pub internal_version: i32,
    pub bounding_box: BoundingBox,
    pub sections: Vec<StaticMeshSection>,
    pub positions: Vec<[f32; 3]>,
    pub normals: Vec<[f32; 3]>,
    /// Entries of the colour and alpha streams (empty unless the mesh was lit per vertex).
    pub colors: usize,
    pub alphas: usize,
    /// Texture coordinates by set, each with one `[u, v]` per vertex.
    pub uv_sets: Vec<Vec<[f32; 2]>>,
    /// Triangle corners, indexing [`Self::positions`].
    pub indices: Vec<u32>,
    pub wireframe_indices: usize,
    pub materials: Vec<StaticMeshMaterial>,
    /// The material names, as the package names them (`""` for none).
    pub material_names: Vec<String>,
    /// Triangles of the collision data (kDOP tree or the older collision triangles).
    pub collision_triangles: usize,
    /// The import triangles the render data was built from.
    pub raw_triangles: usize,
    pub collision_model: ObjectRef,
    pub physics_props: ObjectRef,
}

impl StaticMeshUe2 {
    /// The triangles section `section` draws, as indices into [`Self::positions`]; a strip's
    /// degenerate triangles are left out. Ranges were checked when the mesh was read.
    pub fn section_triangles(&self, section: &StaticMeshSection) -> Vec<[u32; 3]> {
        let start = section.first_index as usize;
        let count = usize::from(section.primitives);
        if section.is_strip {
            let Some(strip) = self.indices.get(start..start + count + 2) else {
                return Vec::new();
            };
            (0..count)
                .map(|k| {
                    let (a, b, c) = (strip[k], strip[k + 1], strip[k + 2]);
                    if k % 2 == 0 {
                        [a, b, c]
                    } else {
                        [b, a, c]
                    }
                })
                .filter(|t| t[0] != t[1] && t[1] != t[2] && t[0] != t[2])
                .collect()
        } else {
            self.indices
                .get(start..start + count * 3)
                .unwrap_or_default()
                .chunks_exact(3)
                .map(|t| [t[0], t[1], t[2]])
                .collect()
        }
    }

    /// Every drawn triangle.
    pub fn triangle_count(&self) -> usize {
        self.sections.iter().map(|s| self.section_triangles(s).len()).sum()
    }
}

/// A counted array whose items are skipped: the count, checked against the bytes left.
fn skip_array(r: &mut Reader<'_>, field: &str, item: usize) -> Result<usize> {
    let c = r.compact_index(&format!("{field} count"))?;
    let n = r.check_count(&format!("{field} count"), i64::from(c), item)?;
    r.skip(field, n * item)?;
    Ok(n)
}

fn vector(r: &mut Reader<'_>, field: &str) -> Result<[f32; 3]> {
    Ok([r.f32(field)?, r.f32(field)?, r.f32(field)?])
}

fn bounding_box(r: &mut Reader<'_>, field: &str) -> Result<BoundingBox> {
    let min = vector(r, field)?;
    let max = vector(r, field)?;
    let valid = r.u8(field)? != 0;
    Ok(BoundingBox { min, max, valid })
}

/// An `FRawIndexBuffer`: 16-bit indices, then `Revision`.
fn index_buffer(r: &mut Reader<'_>, field: &str) -> Result<Vec<u16>> {
    let c = r.compact_index(&format!("{field} count"))?;
    let n = r.check_count(&format!("{field} count"), i64::from(c), 2)?;
    let mut indices = Vec::with_capacity(n);
    for _ in 0..n {
        indices.push(r.u16(field)?);
    }
    r.skip(&format!("{field} Revision"), 4)?;
    Ok(indices)
}

/// An `FStaticMeshUVStream`: the coordinates, `CoordinateIndex`, `Revision`.
fn uv_stream(r: &mut Reader<'_>, field: &str) -> Result<Vec<[f32; 2]>> {
    let c = r.compact_index(&format!("{field} count"))?;
    let n = r.check_count(&format!("{field} count"), i64::from(c), 8)?;
    let mut uvs = Vec::with_capacity(n);
    for _ in 0..n {
        uvs.push([r.f32(field)?, r.f32(field)?]);
    }
    r.skip(&format!("{field} CoordinateIndex and Revision"), 8)?;
    Ok(uvs)
}

fn uv_streams(r: &mut Reader<'_>, field: &str) -> Result<Vec<Vec<[f32; 2]>>> {
    let c = r.compact_index(&format!("{field} count"))?;
    // Each stream takes at least a count byte, CoordinateIndex and Revision.
    let n = r.check_count(&format!("{field} count"), i64::from(c), 9)?;
    let mut streams = Vec::with_capacity(n);
    for i in 0..n {
        streams.push(uv_stream(r, &format!("{field}[{i}]"))?);
    }
    Ok(streams)
}

/// Vertices, normals and UV pairs of one vertex stream.
#[derive(Default)]
struct VertexStream {
    positions: Vec<[f32; 3]>,
    normals: Vec<[f32; 3]>,
    /// Before version 112 the vertex carries its UVs: one pair, two for licensee 5 and later.
    uvs: Vec<Vec<[f32; 2]>>,
}

/// An `FStaticMeshVertexStream`: the vertices (position, normal, and before version 112 the
/// UVs, a second pair for licensee 5 and later, a colour at version 111), then `Revision`.
fn vertex_stream(r: &mut Reader<'_>, version: u16, licensee: u16) -> Result<VertexStream> {
    let old_uvs = if version < 112 { 1 + usize::from(licensee >= 5) } else { 0 };
    let color = usize::from(version == 111) * 4;
    let size = 24 + old_uvs * 8 + color;
    let c = r.compact_index("VertexStream count")?;
    let n = r.check_count("VertexStream count", i64::from(c), size)?;
    let mut stream = VertexStream {
        positions: Vec::with_capacity(n),
        normals: Vec::with_capacity(n),
        uvs: vec![Vec::with_capacity(n); old_uvs],
    };
    for _ in 0..n {
        stream.positions.push(vector(r, "vertex Position")?);
        stream.normals.push(vector(r, "vertex Normal")?);
        for set in &mut stream.uvs {
            set.push([r.f32("vertex UV")?, r.f32("vertex UV")?]);
        }
        r.skip("vertex Color", color)?;
    }
    r.skip("VertexStream Revision", 4)?;
    Ok(stream)
}

/// What the section serializer reads; the pre-112 streams are merged into the mesh's.
struct RawSection {
    is_strip: bool,
    first_index: u32,
    min_vertex_index: u32,
    max_vertex_index: u32,
    triangles: u16,
    primitives: u16,
    legacy_material: ObjectRef,
    /// Where the section starts (for errors about its ranges).
    at: usize,
}

impl Package<'_> {
    /// A UE2 `StaticMesh`.
    pub fn read_static_mesh_ue2(&self, export: usize) -> Result<StaticMeshUe2> {
        self.labelled(export, || self.unlabelled_static_mesh_ue2(export))
    }

    fn unlabelled_static_mesh_ue2(&self, export: usize) -> Result<StaticMeshUe2> {
        let ObjectReader { header, reader: mut r } = self.object_reader(export, &["StaticMesh"])?;
        self.check_epic_ue2(&r, "StaticMesh")?;
        let (version, licensee) = (self.header.version, self.header.licensee);
        let mut materials = self.static_mesh_materials(&header.properties)?;
        // UPrimitive.
        r.skip("BoundingBox", 25)?;
        r.skip("BoundingSphere", 16)?;
        // Sections: before 112 each carries its own vertex and index data.
        let mut positions = Vec::new();
        let mut normals = Vec::new();
        let mut uv_sets: Vec<Vec<[f32; 2]>> = Vec::new();
        let mut indices: Vec<u32> = Vec::new();
        let mut wireframe_indices = 0;
        let c = r.compact_index("Sections count")?;
        let min_section = if version < 112 { 4 + 2 + 2 + 1 + 4 + 4 + 5 + 5 } else { 14 };
        let n = r.check_count("Sections count", i64::from(c), min_section)?;
        let mut raw_sections = Vec::with_capacity(n);
        for _ in 0..n {
            let at = r.pos();
            let section = if version < 112 {
                let is_strip = r.u32("section IsStrip")? != 0;
                let triangles = r.u16("section NumTriangles")?;
                let primitives = r.u16("section NumPrimitives")?;
                let legacy_material = ObjectRef(r.compact_index("section LegacyMaterial")?);
                r.skip("section PolyFlags", 4)?;
                let stream = vertex_stream(&mut r, version, licensee)?;
                let list = index_buffer(&mut r, "section IndexBuffer")?;
                wireframe_indices += index_buffer(&mut r, "section WireframeIndexBuffer")?.len();
                let streams = if version >= 111 {
                    uv_streams(&mut r, "section UVStreams")?
                } else {
                    Vec::new()
                };
                if licensee >= 5 && version < 111 {
                    r.skip("section AreaColorId", 1)?;
                }
                // The section's vertices join the mesh's, its indices shifted past those
                // already there.
                let base = positions.len() as u32;
                let first_index = indices.len() as u32;
                let count = stream.positions.len();
                let mut sets = stream.uvs;
                sets.extend(streams);
                for (k, set) in sets.into_iter().enumerate() {
                    if set.len() != count {
                        return Err(r.error_at(
                            at,
                            format!(
                                "the section's UV set {k} to hold one pair for each of its {count} vertices, found {}",
                                set.len()
                            ),
                        ));
                    }
                    if uv_sets.len() <= k {
                        uv_sets.push(vec![[0.0; 2]; positions.len()]);
                    }
                    uv_sets[k].extend(set);
                }
                positions.extend(stream.positions);
                normals.extend(stream.normals);
                for set in &mut uv_sets {
                    set.resize(positions.len(), [0.0; 2]);
                }
                let (min, max) = match (list.iter().min(), list.iter().max()) {
                    (Some(&lo), Some(&hi)) => (base + u32::from(lo), base + u32::from(hi)),
                    _ => (base, base),
                };
                indices.extend(list.iter().map(|&i| base + u32::from(i)));
                RawSection {
                    is_strip,
                    first_index,
                    min_vertex_index: min,
                    max_vertex_index: max,
                    triangles,
                    primitives,
                    legacy_material,
                    at,
                }
            } else {
                RawSection {
                    is_strip: r.u32("section IsStrip")? != 0,
                    first_index: u32::from(r.u16("section FirstIndex")?),
                    min_vertex_index: u32::from(r.u16("section MinVertexIndex")?),
                    max_vertex_index: u32::from(r.u16("section MaxVertexIndex")?),
                    triangles: r.u16("section NumTriangles")?,
                    primitives: r.u16("section NumPrimitives")?,
                    legacy_material: ObjectRef(0),
                    at,
                }
            };
            raw_sections.push(section);
        }
        let bounding_box = bounding_box(&mut r, "BoundingBox")?;
        let mut collision_triangles = 0;
        if version < 112 {
            Self::skip_collision_primitives(&mut r)?;
        }
        let mut collision_model = ObjectRef(0);
        let mut colors = 0;
        let mut alphas = 0;
        if version >= 112 {
            let stream = vertex_stream(&mut r, version, licensee)?;
            positions = stream.positions;
            normals = stream.normals;
            colors = skip_array(&mut r, "ColorStream", 4)?;
            r.skip("ColorStream Revision", 4)?;
            alphas = skip_array(&mut r, "AlphaStream", 4)?;
            r.skip("AlphaStream Revision", 4)?;
            let uvs_at = r.pos();
            uv_sets = uv_streams(&mut r, "UVStreams")?;
            if let Some((k, set)) =
                uv_sets.iter().enumerate().find(|(_, s)| s.len() != positions.len())
            {
                return Err(r.error_at(
                    uvs_at,
                    format!(
                        "UV stream {k} to hold one pair for each of the {} vertices, found {}",
                        positions.len(),
                        set.len()
                    ),
                ));
            }
            indices = index_buffer(&mut r, "IndexBuffer")?.into_iter().map(u32::from).collect();
            wireframe_indices = index_buffer(&mut r, "WireframeIndexBuffer")?.len();
            collision_model = ObjectRef(r.compact_index("CollisionModel")?);
            if version < 126 {
                let c = r.compact_index("CollisionTriangles count")?;
                let n = r.check_count("CollisionTriangles count", i64::from(c), 68)?;
                for _ in 0..n {
                    r.skip("CollisionTriangle planes", 64)?;
                    for _ in 0..4 {
                        r.compact_index("CollisionTriangle index")?;
                    }
                }
                collision_triangles = n;
                let c = r.compact_index("CollisionNodes count")?;
                let n = r.check_count("CollisionNodes count", i64::from(c), 29)?;
                for _ in 0..n {
                    for _ in 0..4 {
                        r.compact_index("CollisionNode index")?;
                    }
                    r.skip("CollisionNode BoundingBox", 25)?;
                }
            } else {
                skip_array(&mut r, "kDOPTree Nodes", 32)?;
                collision_triangles = skip_array(&mut r, "kDOPTree Triangles", 8)?;
            }
            if version < 114 {
                r.skip("UseSimpleLineCollision, UseSimpleBoxCollision, UseVertexColor", 12)?;
            }
        }
        let raw_triangles = self.skip_raw_triangles(&mut r)?;
        let internal_version = r.i32("InternalVersion")?;
        if licensee == 0x16 {
            r.skip("SmoothingThreshold", 4)?;
        } else if licensee > 0x16 {
            skip_array(&mut r, "MaxSmoothingAngles", 4)?;
        }
        if licensee >= 0x18 && version < 111 {
            r.skip("RenderDataVersion", 4)?;
        }
        if licensee >= 0x19 && version < 111 {
            r.skip("CrossFadePolys", 4)?;
        }
        let physics_props = ObjectRef(r.compact_index("KPhysicsProps")?);
        if version >= 120 {
            r.skip("AuthenticationKey", 4)?;
        }
        if !r.is_at_end() {
            return Err(r.error(format!(
                "the StaticMesh to end after {} (package version {version}, licensee {licensee}), {} bytes remain",
                if version >= 120 { "AuthenticationKey" } else { "KPhysicsProps" },
                r.remaining()
            )));
        }
        // Before 112 a section names its material; the engine moves them into Materials.
        if version < 112 && materials.is_empty() {
            for s in &raw_sections {
                materials.push(StaticMeshMaterial {
                    material: s.legacy_material,
                    enable_collision: true,
                });
            }
        }
        let vertex_count = positions.len();
        let mut sections = Vec::with_capacity(raw_sections.len());
        for (i, s) in raw_sections.into_iter().enumerate() {
            let primitives = usize::from(s.primitives);
            let needed = if s.is_strip {
                if primitives == 0 {
                    0
                } else {
                    primitives + 2
                }
            } else {
                primitives * 3
            };
            let first = s.first_index as usize;
            if first + needed > indices.len() {
                return Err(r.error_at(
                    s.at,
                    format!(
                        "section {i} to draw {primitives} {} from index {first} within the {} indices",
                        if s.is_strip { "strip triangles" } else { "triangles" },
                        indices.len()
                    ),
                ));
            }
            if let Some(bad) =
                indices[first..first + needed].iter().find(|&&v| v as usize >= vertex_count)
            {
                return Err(r.error_at(
                    s.at,
                    format!("section {i}'s indices to be below the {vertex_count} vertices, found {bad}"),
                ));
            }
            sections.push(StaticMeshSection {
                is_strip: s.is_strip,
                first_index: s.first_index,
                min_vertex_index: s.min_vertex_index,
                max_vertex_index: s.max_vertex_index,
                triangles: s.triangles,
                primitives: s.primitives,
                material: i,
            });
        }
        let material_names =
            materials.iter().map(|m| self.ref_name(m.material).to_owned()).collect();
        Ok(StaticMeshUe2 {
            internal_version,
            bounding_box,
            sections,
            positions,
            normals,
            colors,
            alphas,
            uv_sets,
            indices,
            wireframe_indices,
            materials,
            material_names,
            collision_triangles,
            raw_triangles,
            collision_model,
            physics_props,
        })
    }

    /// The `Materials` property: a count, then per entry the `StaticMeshMaterial` struct,
    /// as tagged properties from licensee 28 (`UStructProperty::SerializeItem`), as its
    /// fields in the engine's order (`EnableCollision` byte, `Material` reference) before.
    fn static_mesh_materials(
        &self,
        properties: &[crate::package::Property],
    ) -> Result<Vec<StaticMeshMaterial>> {
        let Some(p) = properties.iter().find(|p| p.name.eq_ignore_ascii_case("Materials")) else {
            return Ok(Vec::new());
        };
        let PropertyValue::Raw { type_id: crate::package::properties::types::ARRAY, bytes } =
            &p.value
        else {
            return Err(Reader::new(self.data(), p.offset, "").error(
                "the Materials property to be an array of StaticMeshMaterial structs".to_owned(),
            ));
        };
        // A reader over the file up to the value's end: errors carry file offsets.
        let end = p.offset + bytes.len();
        let mut r = Reader::new(self.data().get(..end).unwrap_or_default(), p.offset, "");
        let c = r.compact_index("Materials count")?;
        let n = r.check_count("Materials count", i64::from(c), 2)?;
        let mut materials = Vec::with_capacity(n);
        for _ in 0..n {
            if self.header.licensee >= 0x1c {
                let fields = read_properties(self, &mut r)?;
                let material = fields
                    .iter()
                    .find(|f| f.name.eq_ignore_ascii_case("Material"))
                    .map_or(Some(ObjectRef(0)), |f| match f.value {
                        PropertyValue::Object(o) => Some(o),
                        _ => None,
                    });
                let enable_collision = fields
                    .iter()
                    .find(|f| f.name.eq_ignore_ascii_case("EnableCollision"))
                    .map_or(Some(false), |f| match f.value {
                        PropertyValue::Bool(b) => Some(b),
                        _ => None,
                    });
                let (Some(material), Some(enable_collision)) = (material, enable_collision) else {
                    return Err(r.error(
                        "a StaticMeshMaterial whose Material is an object and EnableCollision a bool"
                            .to_owned(),
                    ));
                };
                materials.push(StaticMeshMaterial { material, enable_collision });
            } else {
                let enable_collision = r.u8("StaticMeshMaterial EnableCollision")? != 0;
                let material = ObjectRef(r.compact_index("StaticMeshMaterial Material")?);
                materials.push(StaticMeshMaterial { material, enable_collision });
            }
        }
        if !r.is_at_end() {
            return Err(r.error(format!(
                "the Materials property to end after its {n} entries, {} bytes remain",
                r.remaining()
            )));
        }
        for m in &materials {
            let known = match m.material.resolve() {
                crate::package::Resolved::None => true,
                crate::package::Resolved::Export(i) => i < self.exports.len(),
                crate::package::Resolved::Import(i) => i < self.imports.len(),
            };
            if !known {
                return Err(Reader::new(self.data(), p.offset, "").error(format!(
                    "Materials to reference one of {} exports or {} imports, found {}",
                    self.exports.len(),
                    self.imports.len(),
                    m.material.0
                )));
            }
        }
        Ok(materials)
    }

    /// The collision primitives of meshes before version 112: each a list of children, a
    /// box, and for a leaf its plane, three vertices and material.
    fn skip_collision_primitives(r: &mut Reader<'_>) -> Result<()> {
        let c = r.compact_index("CollisionPrimitives count")?;
        let n = r.check_count("CollisionPrimitives count", i64::from(c), 26)?;
        for _ in 0..n {
            let children = skip_array(r, "CollisionPrimitive Children", 4)?;
            r.skip("CollisionPrimitive BoundingBox", 25)?;
            if children == 0 {
                r.skip("CollisionPrimitive Plane and Vertices", 16 + 36)?;
                r.compact_index("CollisionPrimitive Material")?;
            }
        }
        Ok(())
    }

    /// `RawTriangles`, a lazy array of `FStaticMeshTriangle` whose layout follows the version
    /// and licensee; returns how many there are.
    fn skip_raw_triangles(&self, r: &mut Reader<'_>) -> Result<usize> {
        let (version, licensee) = (self.header.version, self.header.licensee);
        let skip = self.lazy_skip(r, "RawTriangles skip offset")?;
        let c = r.compact_index("RawTriangles count")?;
        let min = if version < 111 { 3 * 32 } else { 36 + 4 + 12 };
        let n = r.check_count("RawTriangles count", i64::from(c), min)?;
        for _ in 0..n {
            if version < 111 {
                let vertex = 32 + if licensee >= 5 { 8 } else { 0 };
                r.skip("RawTriangle vertices", 3 * vertex)?;
            } else {
                r.skip("RawTriangle vertices", 36)?;
                let at = r.pos();
                let uvs = r.i32("RawTriangle NumUVs")?;
                if !(0..=8).contains(&uvs) {
                    return Err(
                        r.error_at(at, format!("a RawTriangle NumUVs from 0 to 8, found {uvs}"))
                    );
                }
                r.skip("RawTriangle UVs", uvs as usize * 24)?;
                r.skip("RawTriangle Colors", 12)?;
            }
            if version < 112 {
                r.skip("RawTriangle Normal", 12)?;
                r.compact_index("RawTriangle LegacyMaterial")?;
                r.skip("RawTriangle LegacyPolyFlags", 4)?;
            } else {
                r.skip("RawTriangle MaterialIndex", 4)?;
            }
            r.skip("RawTriangle SmoothingMask", 4)?;
            if licensee > 1 && version < 112 {
                r.skip("RawTriangle AreaColor", 1)?;
            }
            if licensee >= 0x19 && version < 112 {
                r.skip("RawTriangle colours", 12)?;
            }
        }
        Self::check_skip(r, skip, "RawTriangles")?;
        Ok(n)
    }
}
