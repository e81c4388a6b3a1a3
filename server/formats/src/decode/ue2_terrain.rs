//! UE2 terrain (`TerrainInfo` actors of UT2003/UT2004 maps), read as
//! `ATerrainInfo::Serialize` (UT2004's `Engine/Src/UnTerrain.cpp`) lays it out after the
//! script properties (`AActor::Serialize` adds nothing on disk): the sectors (object
//! references), the world position of every heightmap vertex, the sector counts, the face
//! normals (two vectors a quad), before version 83 the old lighting (a plane a vertex), the
//! `ToWorld` and `ToHeightmap` coordinate systems, before version 76 the old 16-bit
//! heightmap, the heightmap's size, between versions 75 and 81 sixteen dummy decoration
//! layers, at versions 86 and 87 the quad visibility bitmap, and from version 117 the vertex
//! colours (a colour a vertex).
//!
//! So a built map's terrain is there as the engine last built it, without its heightmap
//! texture (which usually lives in another package). Which quads are drawn and which way
//! each is split are the script properties `QuadVisibilityBitmap` and `EdgeTurnBitmap` (a
//! bit a vertex, `x + y * HeightmapX`); `ATerrainInfo::PostLoad` resets either to "all
//! drawn" / "none turned" when its size is not `HeightmapX * HeightmapY / 32` words, and so
//! does this reader.
//!
//! Every count is checked against the bytes left before anything is allocated, the vertex
//! count against the heightmap's size, and the object must end exactly where the layout
//! says.

use crate::error::Result;
use crate::package::properties::{Property, PropertyValue};
use crate::package::{ObjectReader, Package};
use crate::reader::Reader;

/// A terrain as a built map stores it.
#[derive(Debug, Clone, PartialEq)]
pub struct TerrainUe2 {
    pub heightmap_x: u32,
    pub heightmap_y: u32,
    /// The world position of each heightmap vertex, `x + y * heightmap_x`.
    pub vertices: Vec<[f32; 3]>,
    /// Whether each vertex's quad (the one it is the lower corner of) is drawn: a bit a
    /// vertex, as `ATerrainInfo::GetQuadVisibilityBitmap` reads it.
    pub quad_visible: Vec<u32>,
    /// Whether each quad is split from its second corner to its fourth
    /// (`GetEdgeTurnBitmap`) rather than from its first to its third.
    pub edge_turned: Vec<u32>,
    /// `ToWorld`: heightmap coordinates to the world (`ATerrainInfo::CalcCoords`), as stored.
    pub to_world: StoredCoords,
    /// `ToHeightmap`: its inverse, as stored; what a layer's texture coordinates start from
    /// (`ATerrainInfo::CalcLayerTexCoords`).
    pub to_heightmap: StoredCoords,
}

/// An `FCoords` as the engine serializes it: its origin, then its X, Y and Z axes.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct StoredCoords {
    pub origin: [f32; 3],
    pub axes: [[f32; 3]; 3],
}

impl StoredCoords {
    fn read(r: &mut Reader<'_>, what: &str) -> Result<Self> {
        let mut vector = || -> Result<[f32; 3]> { Ok([r.f32(what)?, r.f32(what)?, r.f32(what)?]) };
        let origin = vector()?;
        Ok(Self { origin, axes: [vector()?, vector()?, vector()?] })
    }
}

impl TerrainUe2 {
    fn bit(words: &[u32], x: u32, y: u32, heightmap_x: u32) -> bool {
        let index = u64::from(x) + u64::from(y) * u64::from(heightmap_x);
        let word = words.get((index >> 5) as usize).copied().unwrap_or(0);
        word & (1 << (index & 31)) != 0
    }

    /// The triangles the engine draws (`FTerrainSectorRenderData`'s index buffer order,
    /// `UnTerrain.cpp`): for each drawn quad with corners `v1 = (x, y)`, `v2 = (x+1, y)`,
    /// `v3 = (x+1, y+1)`, `v4 = (x, y+1)`, either `v1 v4 v2` and `v4 v3 v2` (turned) or
    /// `v1 v4 v3` and `v1 v3 v2`. Indices into [`Self::vertices`].
    pub fn triangles(&self) -> Vec<[u32; 3]> {
        let (w, h) = (self.heightmap_x, self.heightmap_y);
        let mut out = Vec::new();
        for y in 0..h.saturating_sub(1) {
            for x in 0..w.saturating_sub(1) {
                if !Self::bit(&self.quad_visible, x, y, w) {
                    continue;
                }
                let v1 = x + y * w;
                let (v2, v4) = (v1 + 1, v1 + w);
                let v3 = v4 + 1;
                if Self::bit(&self.edge_turned, x, y, w) {
                    out.push([v1, v4, v2]);
                    out.push([v4, v3, v2]);
                } else {
                    out.push([v1, v4, v3]);
                    out.push([v1, v3, v2]);
                }
            }
        }
        out
    }
}

/// An `array<int>` script property's words (a count, then each `int`), or `None` when the
/// object does not set it or its bytes are not such an array.
fn int_array(properties: &[Property], name: &str) -> Option<Vec<u32>> {
    let property = properties.iter().find(|p| p.name.eq_ignore_ascii_case(name))?;
    let PropertyValue::Raw { bytes, .. } = &property.value else { return None };
    let mut r = Reader::new(bytes, 0, "array<int> property");
    let count = r.compact_index("count").ok()?;
    let n = r.check_count("count", i64::from(count), 4).ok()?;
    let mut words = Vec::with_capacity(n);
    for _ in 0..n {
        words.push(r.u32("word").ok()?);
    }
    r.is_at_end().then_some(words)
}

/// A bitmap of the engine's size, or what `PostLoad` puts in its place: every bit `fill`.
fn bitmap(stored: Option<Vec<u32>>, heightmap_x: u32, heightmap_y: u32, fill: u32) -> Vec<u32> {
    let words = (u64::from(heightmap_x) * u64::from(heightmap_y) / 32) as usize;
    match stored {
        Some(words_stored) if words_stored.len() == words => words_stored,
        // The engine's bitmap then holds whole words only: the last quads of a heightmap
        // whose size is not a multiple of 32 have no bit, and read as 0 here.
        _ => vec![fill; words],
    }
}

impl Package<'_> {
    /// Reads export `export` as a UE2 `TerrainInfo` (see the module's comment).
    pub fn read_terrain_ue2(&self, export: usize) -> Result<TerrainUe2> {
        self.labelled(export, || self.unlabelled_terrain_ue2(export))
    }

    fn unlabelled_terrain_ue2(&self, export: usize) -> Result<TerrainUe2> {
        let ObjectReader { header, reader: mut r } =
            self.object_reader(export, &["TerrainInfo"])?;
        self.check_epic_ue2(&r, "TerrainInfo")?;
        let version = self.header.version;
        let sectors = r.compact_index("Sectors count")?;
        let n = r.check_count("Sectors count", i64::from(sectors), 1)?;
        for _ in 0..n {
            r.compact_index("sector")?;
        }
        let count = r.compact_index("Vertices count")?;
        let n = r.check_count("Vertices count", i64::from(count), 12)?;
        let mut vertices = Vec::with_capacity(n);
        for _ in 0..n {
            vertices.push([r.f32("vertex X")?, r.f32("vertex Y")?, r.f32("vertex Z")?]);
        }
        r.skip("SectorsX, SectorsY", 8)?;
        let normals = r.compact_index("FaceNormals count")?;
        let n = r.check_count("FaceNormals count", i64::from(normals), 24)?;
        r.skip("FaceNormals", n * 24)?;
        if version < 83 {
            let planes = r.compact_index("old lighting count")?;
            let n = r.check_count("old lighting count", i64::from(planes), 16)?;
            r.skip("old lighting", n * 16)?;
        }
        let to_world = StoredCoords::read(&mut r, "ToWorld")?;
        let to_heightmap = StoredCoords::read(&mut r, "ToHeightmap")?;
        if version < 76 {
            let words = r.compact_index("old heightmap count")?;
            let n = r.check_count("old heightmap count", i64::from(words), 2)?;
            r.skip("old heightmap", n * 2)?;
        }
        let heightmap_x = r.i32("HeightmapX")?;
        let heightmap_y = r.i32("HeightmapY")?;
        if version > 74 && version < 82 {
            for _ in 0..16 {
                r.skip("dummy decoration layer", 7 * 4)?;
                // An FString: its length with the terminator, negative for UTF-16.
                let len = r.compact_index("dummy decoration layer name length")?;
                let unit = if len < 0 { 2 } else { 1 };
                let n = r.check_count("dummy decoration layer name", i64::from(len).abs(), unit)?;
                r.skip("dummy decoration layer name", n * unit)?;
            }
        }
        let mut stored_visibility = None;
        if version == 86 || version == 87 {
            let words = r.compact_index("QuadVisibilityBitmap count")?;
            let n = r.check_count("QuadVisibilityBitmap count", i64::from(words), 4)?;
            let mut bits = Vec::with_capacity(n);
            for _ in 0..n {
                bits.push(r.u32("QuadVisibilityBitmap word")?);
            }
            stored_visibility = Some(bits);
        }
        if version >= 117 {
            let colors = r.compact_index("VertexColors count")?;
            let n = r.check_count("VertexColors count", i64::from(colors), 4)?;
            r.skip("VertexColors", n * 4)?;
        }
        if !r.is_at_end() {
            return Err(r.error(
                "the end of the TerrainInfo after its vertex colours (Epic's layout)".to_owned(),
            ));
        }
        let (Ok(hx), Ok(hy)) = (u32::try_from(heightmap_x), u32::try_from(heightmap_y)) else {
            return Err(r.error(format!(
                "a heightmap size of at least 0 by 0, found {heightmap_x} by {heightmap_y}"
            )));
        };
        if u64::from(hx) * u64::from(hy) != vertices.len() as u64 {
            return Err(r.error(format!(
                "{hx} by {hy} vertices (the heightmap's size), found {}",
                vertices.len()
            )));
        }
        // Versions 86 and 87 read the bitmap natively after the script properties: it wins.
        let visibility =
            stored_visibility.or_else(|| int_array(&header.properties, "QuadVisibilityBitmap"));
        let turns = int_array(&header.properties, "EdgeTurnBitmap");
        Ok(TerrainUe2 {
            heightmap_x: hx,
            heightmap_y: hy,
            vertices,
            quad_visible: bitmap(visibility, hx, hy, u32::MAX),
            edge_turned: bitmap(turns, hx, hy, 0),
            to_world,
            to_heightmap,
        })
    }
}
