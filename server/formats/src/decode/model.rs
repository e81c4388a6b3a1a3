//! Built level geometry: the `Model` (`UModel`) of a brush or of a level, its `Polys` (the
//! brush's editor polygons), and the `Level` object that names the level's own `Model` and the
//! order of its actors.
//!
//! Layouts, as the engines serialize them (UT2004's `Engine/Src/UnModel.cpp`, which keeps the
//! UE1 branches; the struct serializers of `Engine/Inc/UnObj.h` in UT2004 and in OldUnreal's
//! 227 headers; `UnMath.h` for spheres and boxes):
//!
//! - `Polys`: the object header, then `INT DbNum, INT DbMax` and `DbNum` polygons (`FPoly`):
//!   compact vertex count, `Base`, `Normal`, `TextureU`, `TextureV`, the vertices,
//!   `PolyFlags`, `Actor`, `Texture`, `ItemName`, compact `iLink`, `iBrushPoly`, then
//!   before version 78 `PanU`, `PanV` (16-bit), from 106 `LightMapScale`.
//! - `Model`: `UPrimitive`'s `BoundingBox` and `BoundingSphere` (a plane, a vector up to
//!   version 61), then the arrays `Vectors`, `Points`, `Nodes`, `Surfs`, `Verts`,
//!   `NumSharedSides`, `NumZones` and that many zones, the `Polys` object, before 92 the light
//!   map indices and light bits, then `Bounds`, `LeafHulls`, `Leaves`, `Lights`,
//!   `RootOutside`, `Linked`. UE2's render data after `Linked` (sections, light maps, from
//!   version 92) is not read; a UE1 model must end right after `Linked`.
//! - `FBspNode`: `Plane`, `ZoneMask`, `NodeFlags`, compact `iVertPool`, `iSurf`, `iBack`,
//!   `iFront`, `iPlane`, `iCollisionBound`, `iRenderBound`, from 70 one or two spheres,
//!   `iZone[2]`, `NumVertices`, `iLeaf[2]`, then UE2's render indices by version.
//! - `FBspSurf`: `Texture`, `PolyFlags`, compact `pBase`, `vNormal`, `vTextureU`,
//!   `vTextureV`, before 101 `iLightMap`, `iBrushPoly`, before 78 `PanU`, `PanV`, `Actor`,
//!   after 86 a plane, from 106 `LightMapScale`.
//! - `Level` (`ULevelBase`, `ULevel`): the object header, `INT DbNum, DbMax` and the actors,
//!   the URL (`Protocol`, `Host`, `Map`, `Portal`, the `Op` strings, `Port`, `Valid`), then
//!   the level's `Model`.
//!
//! Packages before version 62 kept the arrays in objects of their own (`UVectors`,
//! `UBspNodes`...): refused here with a precise error. Every count is checked against the
//! bytes left before anything is allocated, and every index against what it indexes, so that
//! a node's polygon ([`Model::node_polygon`]) can be built without a check that could fail.

use crate::error::Result;
use crate::package::{ObjectRef, Package, Resolved};
use crate::reader::Reader;

/// The oldest package version whose `Model` holds its arrays itself.
pub const MIN_MODEL_VERSION: u16 = 62;

/// `INDEX_NONE`.
pub const INDEX_NONE: i32 = -1;

/// One editor polygon of a brush (`FPoly`).
#[derive(Debug, Clone, PartialEq)]
pub struct Poly {
    pub base: [f32; 3],
    pub normal: [f32; 3],
    pub texture_u: [f32; 3],
    pub texture_v: [f32; 3],
    pub vertices: Vec<[f32; 3]>,
    pub poly_flags: u32,
    pub actor: ObjectRef,
    pub texture: ObjectRef,
    pub item_name: String,
    pub link: i32,
    pub brush_poly: i32,
    /// Before version 78 (0 from then on).
    pub pan_u: i16,
    pub pan_v: i16,
}

/// One node of a BSP (`FBspNode`): a convex polygon of `num_vertices` entries of the verts
/// pool from `vert_pool`, on surface `surf`, with its children.
#[derive(Debug, Clone, PartialEq)]
pub struct BspNode {
    /// `(X, Y, Z, W)`: points `p` on the plane satisfy `p . (X, Y, Z) = W`.
    pub plane: [f32; 4],
    pub zone_mask: u64,
    pub node_flags: u8,
    pub vert_pool: i32,
    pub surf: i32,
    /// Behind the plane (`iBack`, `iChild[0]`).
    pub back: i32,
    /// In front of the plane (`iFront`).
    pub front: i32,
    /// The next node of the same plane (`iPlane`).
    pub coplanar: i32,
    pub collision_bound: i32,
    pub render_bound: i32,
    pub zone: [u8; 2],
    pub num_vertices: u8,
    pub leaf: [i32; 2],
}

/// One surface of a BSP (`FBspSurf`): what every node on it shares.
#[derive(Debug, Clone, PartialEq)]
pub struct BspSurf {
    pub texture: ObjectRef,
    pub poly_flags: u32,
    /// Index into [`Model::points`].
    pub base: i32,
    /// Indices into [`Model::vectors`].
    pub normal: i32,
    pub texture_u: i32,
    pub texture_v: i32,
    /// Before version 101.
    pub light_map: i32,
    pub brush_poly: i32,
    /// Before version 78.
    pub pan_u: i16,
    pub pan_v: i16,
    /// The brush the surface came from.
    pub actor: ObjectRef,
}

/// A node's vertex (`FVert`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Vert {
    /// Index into [`Model::points`].
    pub vertex: i32,
    pub side: i32,
}

/// A zone of the level (`FZoneProperties`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Zone {
    pub actor: ObjectRef,
    pub connectivity: u64,
    pub visibility: u64,
}

/// A `Model`: a brush's or the level's BSP, with the counts of what the renderer and the
/// collision code keep beside it.
#[derive(Debug, Clone, PartialEq)]
pub struct Model {
    pub bounding_box: ([f32; 3], [f32; 3], bool),
    /// Centre and radius (the radius is 0 up to version 61).
    pub bounding_sphere: [f32; 4],
    pub vectors: Vec<[f32; 3]>,
    pub points: Vec<[f32; 3]>,
    pub nodes: Vec<BspNode>,
    pub surfs: Vec<BspSurf>,
    pub verts: Vec<Vert>,
    pub num_shared_sides: i32,
    pub zones: Vec<Zone>,
    /// The brush's editor polygons (a `Polys` object), or none.
    pub polys: ObjectRef,
    pub light_maps: usize,
    pub light_bits: usize,
    pub bounds: usize,
    pub leaf_hulls: usize,
    pub leaves: usize,
    pub lights: usize,
    pub root_outside: bool,
    pub linked: bool,
}

impl Model {
    /// The convex polygon of node `node` in world space (the level's model) or brush space;
    /// empty for a node without vertices (a pure splitter) or a node out of range. Indices
    /// were checked when the model was read.
    pub fn node_polygon(&self, node: usize) -> Vec<[f32; 3]> {
        let Some(n) = self.nodes.get(node) else { return Vec::new() };
        let start = usize::try_from(n.vert_pool).unwrap_or(usize::MAX);
        let verts = start
            .checked_add(usize::from(n.num_vertices))
            .and_then(|end| self.verts.get(start..end))
            .unwrap_or_default();
        verts
            .iter()
            .filter_map(|v| usize::try_from(v.vertex).ok().and_then(|i| self.points.get(i)))
            .copied()
            .collect()
    }

    /// The surface of node `node`, when it has one.
    pub fn node_surf(&self, node: usize) -> Option<&BspSurf> {
        let n = self.nodes.get(node)?;
        self.surfs.get(usize::try_from(n.surf).ok()?)
    }

    /// A vector of the model's table, `[0; 3]` out of range (checked at read time).
    pub fn vector(&self, index: i32) -> [f32; 3] {
        usize::try_from(index).ok().and_then(|i| self.vectors.get(i)).copied().unwrap_or_default()
    }

    /// A point of the model's table, `[0; 3]` out of range (checked at read time).
    pub fn point(&self, index: i32) -> [f32; 3] {
        usize::try_from(index).ok().and_then(|i| self.points.get(i)).copied().unwrap_or_default()
    }
}

/// A `Level`: its actors in the level's order (the order CSG builds brushes in; entries may be
/// none) and its own `Model`.
#[derive(Debug, Clone, PartialEq)]
pub struct Level {
    pub actors: Vec<ObjectRef>,
    pub url_map: String,
    pub model: ObjectRef,
}

fn vector(r: &mut Reader<'_>, field: &str) -> Result<[f32; 3]> {
    Ok([r.f32(field)?, r.f32(field)?, r.f32(field)?])
}

fn plane(r: &mut Reader<'_>, field: &str) -> Result<[f32; 4]> {
    Ok([r.f32(field)?, r.f32(field)?, r.f32(field)?, r.f32(field)?])
}

/// A compact array count, checked against the bytes left at `item` bytes an entry at least.
fn count(r: &mut Reader<'_>, field: &str, item: usize) -> Result<usize> {
    let pos = r.pos();
    let c = r.compact_index(field)?;
    r.check_count(field, i64::from(c), item).map_err(|e| crate::error::Error { offset: pos, ..e })
}

/// `INT DbNum, INT DbMax`, the old-style array header of `Polys` and the level's actors.
fn db_count(r: &mut Reader<'_>, field: &str, item: usize) -> Result<usize> {
    let pos = r.pos();
    let num = r.i32(&format!("{field} DbNum"))?;
    let max = r.i32(&format!("{field} DbMax"))?;
    if max < num {
        return Err(r.error_at(pos, format!("{field} DbMax ({max}) at least DbNum ({num})")));
    }
    r.check_count(&format!("{field} DbNum"), i64::from(num), item)
}

/// An index into a table of `len` entries, or `INDEX_NONE` when `none_ok`.
fn index(r: &mut Reader<'_>, field: &str, len: usize, none_ok: bool) -> Result<i32> {
    let pos = r.pos();
    let i = r.compact_index(field)?;
    if (none_ok && i == INDEX_NONE) || usize::try_from(i).is_ok_and(|i| i < len) {
        Ok(i)
    } else {
        let none = if none_ok { " or -1" } else { "" };
        Err(r.error_at(pos, format!("{field} indexing one of {len} entries{none}, found {i}")))
    }
}

impl Package<'_> {
    /// An object reference, checked against the import and export tables.
    fn checked_ref(&self, r: &mut Reader<'_>, field: &str) -> Result<ObjectRef> {
        let pos = r.pos();
        let o = ObjectRef(r.compact_index(field)?);
        let ok = match o.resolve() {
            Resolved::None => true,
            Resolved::Export(i) => i < self.exports.len(),
            Resolved::Import(i) => i < self.imports.len(),
        };
        if ok {
            Ok(o)
        } else {
            Err(r.error_at(
                pos,
                format!(
                    "{field} referencing one of {} exports or {} imports, found {}",
                    self.exports.len(),
                    self.imports.len(),
                    o.0
                ),
            ))
        }
    }

    fn model_version_check(&self, r: &Reader<'_>) -> Result<()> {
        let version = self.version();
        if version < MIN_MODEL_VERSION {
            return Err(r.error(format!(
                "a package from version {MIN_MODEL_VERSION} (version {version} keeps a model's \
                 arrays in UVectors, UBspNodes, UBspSurfs and UVerts objects, not read)"
            )));
        }
        Ok(())
    }

    /// A `Polys` object: a brush's editor polygons.
    pub fn read_polys(&self, export: usize) -> Result<Vec<Poly>> {
        self.labelled(export, || {
            let mut o = self.object_reader(export, &["Polys"])?;
            let r = &mut o.reader;
            self.model_version_check(r)?;
            let version = self.version();
            // Vertex count, four vectors, flags and five compact fields at least.
            let n = db_count(r, "Polys", 1 + 48 + 4 + 5)?;
            let mut polys = Vec::with_capacity(n);
            for i in 0..n {
                polys.push(self.read_poly(r, version, i)?);
            }
            if !r.is_at_end() {
                return Err(r.error(format!(
                    "the Polys object to end after its {n} polygons, {} bytes remain",
                    r.remaining()
                )));
            }
            Ok(polys)
        })
    }

    fn read_poly(&self, r: &mut Reader<'_>, version: u16, i: usize) -> Result<Poly> {
        let f = |name: &str| format!("polygon {i} {name}");
        let vertex_count = count(r, &f("NumVertices"), 12)?;
        let base = vector(r, &f("Base"))?;
        let normal = vector(r, &f("Normal"))?;
        let texture_u = vector(r, &f("TextureU"))?;
        let texture_v = vector(r, &f("TextureV"))?;
        r.check_count(&f("vertices"), vertex_count as i64, 12)?;
        let mut vertices = Vec::with_capacity(vertex_count);
        for _ in 0..vertex_count {
            vertices.push(vector(r, &f("Vertex"))?);
        }
        let poly_flags = r.u32(&f("PolyFlags"))?;
        let actor = self.checked_ref(r, &f("Actor"))?;
        let texture = self.checked_ref(r, &f("Texture"))?;
        let item_name = self.name_at(r, &f("ItemName"))?;
        let link = r.compact_index(&f("iLink"))?;
        let brush_poly = r.compact_index(&f("iBrushPoly"))?;
        let (mut pan_u, mut pan_v) = (0, 0);
        if version < 78 {
            pan_u = r.u16(&f("PanU"))? as i16;
            pan_v = r.u16(&f("PanV"))? as i16;
        }
        if version >= 106 {
            r.f32(&f("LightMapScale"))?;
        }
        Ok(Poly {
            base,
            normal,
            texture_u,
            texture_v,
            vertices,
            poly_flags,
            actor,
            texture,
            item_name,
            link,
            brush_poly,
            pan_u,
            pan_v,
        })
    }

    /// A `Model` object: a brush's or the level's BSP.
    pub fn read_model(&self, export: usize) -> Result<Model> {
        self.labelled(export, || {
            let mut o = self.object_reader(export, &["Model"])?;
            let r = &mut o.reader;
            self.model_version_check(r)?;
            self.read_model_body(r)
        })
    }

    fn read_model_body(&self, r: &mut Reader<'_>) -> Result<Model> {
        let version = self.version();
        let min = vector(r, "BoundingBox Min")?;
        let max = vector(r, "BoundingBox Max")?;
        let valid = r.u8("BoundingBox IsValid")? != 0;
        let bounding_sphere = if version <= 61 {
            let c = vector(r, "BoundingSphere")?;
            [c[0], c[1], c[2], 0.0]
        } else {
            plane(r, "BoundingSphere")?
        };

        let n = count(r, "Vectors count", 12)?;
        let mut vectors = Vec::with_capacity(n);
        for _ in 0..n {
            vectors.push(vector(r, "Vectors entry")?);
        }
        let n = count(r, "Points count", 12)?;
        let mut points = Vec::with_capacity(n);
        for _ in 0..n {
            points.push(vector(r, "Points entry")?);
        }

        // Nodes: indices into surfs, verts and nodes are checked once those are read.
        let node_size = 16 + 8 + 1 + 7 + 2 + 1 + 8;
        let n = count(r, "Nodes count", node_size)?;
        let mut nodes = Vec::with_capacity(n);
        let mut node_offsets = Vec::with_capacity(n);
        for i in 0..n {
            node_offsets.push(r.pos());
            nodes.push(read_node(r, version, i)?);
        }

        let n = count(r, "Surfs count", 4 + 7)?;
        let mut surfs = Vec::with_capacity(n);
        for i in 0..n {
            surfs.push(self.read_surf(r, version, i, points.len(), vectors.len())?);
        }

        let n = count(r, "Verts count", 2)?;
        let mut verts = Vec::with_capacity(n);
        for i in 0..n {
            // Checked through the nodes: the pool keeps stale entries no node uses.
            let vertex = r.compact_index(&format!("vert {i} pVertex"))?;
            let side = r.compact_index(&format!("vert {i} iSide"))?;
            verts.push(Vert { vertex, side });
        }

        let num_shared_sides = r.i32("NumSharedSides")?;
        let zones_pos = r.pos();
        let num_zones = r.i32("NumZones")?;
        if !(0..=64).contains(&num_zones) {
            return Err(r.error_at(zones_pos, format!("NumZones from 0 to 64, found {num_zones}")));
        }
        let mut zones = Vec::with_capacity(num_zones as usize);
        for i in 0..num_zones {
            let actor = self.checked_ref(r, &format!("zone {i} ZoneActor"))?;
            let connectivity = r.u64(&format!("zone {i} Connectivity"))?;
            let visibility = r.u64(&format!("zone {i} Visibility"))?;
            if version >= 100 {
                r.f32(&format!("zone {i} LastRenderTime"))?;
            }
            zones.push(Zone { actor, connectivity, visibility });
        }
        let polys = self.checked_ref(r, "Polys")?;

        let (mut light_maps, mut light_bits) = (0, 0);
        if version < 92 {
            // FLightMapIndex: DataOffset, Pan, UClamp, VClamp, UScale, VScale, iLightActors.
            light_maps = count(r, "LightMap count", 4 + 12 + 2 + 8 + 4)?;
            for i in 0..light_maps {
                let field = format!("light map {i}");
                r.skip(&field, 16)?;
                r.compact_index(&format!("{field} UClamp"))?;
                r.compact_index(&format!("{field} VClamp"))?;
                r.skip(&field, 12)?;
            }
            light_bits = count(r, "LightBits count", 1)?;
            r.skip("LightBits", light_bits)?;
        } else if version < 105 {
            return Err(r.error(format!(
                "a model of a version before 92 or from 105 (version {version} stores light \
                 bitmaps, not read)"
            )));
        }
        let bounds = count(r, "Bounds count", 25)?;
        r.skip("Bounds", bounds * 25)?;
        let leaf_hulls = count(r, "LeafHulls count", 4)?;
        r.skip("LeafHulls", leaf_hulls * 4)?;
        let leaves = count(r, "Leaves count", 3 + 8)?;
        for i in 0..leaves {
            for field in ["iZone", "iPermeating", "iVolumetric"] {
                r.compact_index(&format!("leaf {i} {field}"))?;
            }
            r.u64(&format!("leaf {i} VisibleZones"))?;
        }
        let lights = count(r, "Lights count", 1)?;
        for i in 0..lights {
            self.checked_ref(r, &format!("light {i}"))?;
        }
        let root_outside = r.i32("RootOutside")? != 0;
        let linked = r.i32("Linked")? != 0;
        if version < 92 && !r.is_at_end() {
            return Err(
                r.error(format!("the model to end after Linked, {} bytes remain", r.remaining()))
            );
        }

        // Node links, now that every table's size is known.
        for (i, (node, &at)) in nodes.iter().zip(&node_offsets).enumerate() {
            let bad = |what: String| r.error_at(at, format!("node {i} {what}"));
            let within = |v: i32, len: usize| usize::try_from(v).is_ok_and(|v| v < len);
            for (name, child) in
                [("iBack", node.back), ("iFront", node.front), ("iPlane", node.coplanar)]
            {
                if child != INDEX_NONE && !within(child, nodes.len()) {
                    return Err(bad(format!(
                        "{name} indexing one of {} nodes or -1, found {child}",
                        nodes.len()
                    )));
                }
            }
            if node.num_vertices > 0 {
                if !within(node.surf, surfs.len()) {
                    return Err(bad(format!(
                        "iSurf indexing one of {} surfaces, found {}",
                        surfs.len(),
                        node.surf
                    )));
                }
                let end = i64::from(node.vert_pool) + i64::from(node.num_vertices);
                let pool = usize::try_from(node.vert_pool)
                    .ok()
                    .filter(|_| end <= verts.len() as i64)
                    .and_then(|start| verts.get(start..start + usize::from(node.num_vertices)));
                let Some(pool) = pool else {
                    return Err(bad(format!(
                        "iVertPool {} and NumVertices {} within the {} verts",
                        node.vert_pool,
                        node.num_vertices,
                        verts.len()
                    )));
                };
                if let Some(v) = pool.iter().find(|v| !within(v.vertex, points.len())) {
                    return Err(bad(format!(
                        "vertices indexing one of {} points, found {}",
                        points.len(),
                        v.vertex
                    )));
                }
            }
        }

        Ok(Model {
            bounding_box: (min, max, valid),
            bounding_sphere,
            vectors,
            points,
            nodes,
            surfs,
            verts,
            num_shared_sides,
            zones,
            polys,
            light_maps,
            light_bits,
            bounds,
            leaf_hulls,
            leaves,
            lights,
            root_outside,
            linked,
        })
    }

    fn read_surf(
        &self,
        r: &mut Reader<'_>,
        version: u16,
        i: usize,
        points: usize,
        vectors: usize,
    ) -> Result<BspSurf> {
        let f = |name: &str| format!("surf {i} {name}");
        let texture = self.checked_ref(r, &f("Texture"))?;
        let poly_flags = r.u32(&f("PolyFlags"))?;
        let base = index(r, &f("pBase"), points, false)?;
        let normal = index(r, &f("vNormal"), vectors, false)?;
        let texture_u = index(r, &f("vTextureU"), vectors, false)?;
        let texture_v = index(r, &f("vTextureV"), vectors, false)?;
        let light_map = if version < 101 { r.compact_index(&f("iLightMap"))? } else { INDEX_NONE };
        let brush_poly = r.compact_index(&f("iBrushPoly"))?;
        let (mut pan_u, mut pan_v) = (0, 0);
        if version < 78 {
            pan_u = r.u16(&f("PanU"))? as i16;
            pan_v = r.u16(&f("PanV"))? as i16;
        }
        let actor = self.checked_ref(r, &f("Actor"))?;
        if version > 86 {
            r.skip(&f("Plane"), 16)?;
        }
        if version >= 106 {
            r.f32(&f("LightMapScale"))?;
        }
        Ok(BspSurf {
            texture,
            poly_flags,
            base,
            normal,
            texture_u,
            texture_v,
            light_map,
            brush_poly,
            pan_u,
            pan_v,
            actor,
        })
    }

    /// A `Level` object: its actors and its own `Model`.
    pub fn read_level(&self, export: usize) -> Result<Level> {
        self.labelled(export, || {
            let mut o = self.object_reader(export, &["Level"])?;
            let r = &mut o.reader;
            // Before 61 a level has no travel lists, before 59 no URL (Unreal v200
            // `Engine/Src/UnLevel.cpp`, `ULevelBase::Serialize`).
            if self.version() < 61 {
                return Err(r.error(format!(
                    "a package from version 61 (a level of version {} is laid out otherwise, not read)",
                    self.version()
                )));
            }
            let n = db_count(r, "Actors", 1)?;
            let mut actors = Vec::with_capacity(n);
            for i in 0..n {
                actors.push(self.checked_ref(r, &format!("actor {i}"))?);
            }
            let _protocol = Self::fstring(r, "URL Protocol")?;
            let _host = Self::fstring(r, "URL Host")?;
            let url_map = Self::fstring(r, "URL Map")?;
            let _portal = Self::fstring(r, "URL Portal")?;
            let ops = count(r, "URL Op count", 1)?;
            for i in 0..ops {
                Self::fstring(r, &format!("URL Op {i}"))?;
            }
            r.i32("URL Port")?;
            r.i32("URL Valid")?;
            let model = self.checked_ref(r, "Model")?;
            Ok(Level { actors, url_map, model })
        })
    }
}

fn read_node(r: &mut Reader<'_>, version: u16, i: usize) -> Result<BspNode> {
    let f = |name: &str| format!("node {i} {name}");
    let plane = plane(r, &f("Plane"))?;
    let zone_mask = r.u64(&f("ZoneMask"))?;
    let node_flags = r.u8(&f("NodeFlags"))?;
    let vert_pool = r.compact_index(&f("iVertPool"))?;
    let surf = r.compact_index(&f("iSurf"))?;
    let back = r.compact_index(&f("iBack"))?;
    let front = r.compact_index(&f("iFront"))?;
    let coplanar = r.compact_index(&f("iPlane"))?;
    let collision_bound = r.compact_index(&f("iCollisionBound"))?;
    let render_bound = r.compact_index(&f("iRenderBound"))?;
    if version >= 70 {
        r.skip(&f("ExclusiveSphereBound"), 16)?;
        if version < 123 {
            r.skip(&f("InclusiveSphereBound"), 16)?;
        }
    }
    let zone = [r.u8(&f("iZone"))?, r.u8(&f("iZone"))?];
    let num_vertices = r.u8(&f("NumVertices"))?;
    let leaf = [r.i32(&f("iLeaf"))?, r.i32(&f("iLeaf"))?];
    match version {
        0..=91 => {}
        92 => r.skip(&f("iRenderVertices"), 4)?,
        93..=100 => r.skip(&f("iVertexStream and iRenderVertices"), 8)?,
        _ => r.skip(&f("iSection, iFirstVertex and iLightMap"), 12)?,
    }
    Ok(BspNode {
        plane,
        zone_mask,
        node_flags,
        vert_pool,
        surf,
        back,
        front,
        coplanar,
        collision_bound,
        render_bound,
        zone,
        num_vertices,
        leaf,
    })
}
