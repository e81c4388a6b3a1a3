//! A T3D map's brushes as they stand, before CSG (`export --brushes`, and OBJ): every brush
//! actor's polygons placed in the world ([`unreal_analysis::t3d::brushes`]), one part per brush grouped
//! by what CSG does with it (additive, subtractive, other; the builder brush left out), so
//! that a Blender user can select brushes by what they are. The level CSG builds from them is
//! [`super::level`].

use super::model::point_to_gltf;
use unreal_analysis::t3d::brushes::{placed_brushes, BrushRole};
use unreal_analysis::Generation;

/// One brush of the map, in world coordinates (glTF axes).
#[derive(Clone, Debug, PartialEq)]
pub struct SceneBrush {
    /// The actor's name (`Brush12`).
    pub name: String,
    pub class: String,
    /// `CSG_Add`, `CSG_Subtract`...; empty for an actor without one.
    pub csg_oper: String,
    /// The actor's `PolyFlags` (semisolid 0x20, non-solid 0x8).
    pub poly_flags: i64,
    pub role: BrushRole,
    pub positions: Vec<[f32; 3]>,
    /// Front-facing counter-clockwise triangles (glTF).
    pub triangles: Vec<[u32; 3]>,
}

/// The brushes of a map.
#[derive(Clone, Debug, PartialEq)]
pub struct MapScene {
    pub name: String,
    pub brushes: Vec<SceneBrush>,
    /// Builder brushes left out.
    pub builder_brushes: usize,
}

impl MapScene {
    /// Every brush as one model (for OBJ): one group per role.
    pub fn to_model(&self) -> super::Model {
        use super::model::{Material, Primitive};
        let mut positions = Vec::new();
        let mut primitives: Vec<Primitive> = Vec::new();
        let roles = [BrushRole::Additive, BrushRole::Subtractive, BrushRole::Other];
        for (material, role) in roles.into_iter().enumerate() {
            let mut triangles = Vec::new();
            for brush in self.brushes.iter().filter(|b| b.role == role) {
                let base = positions.len() as u32;
                positions.extend_from_slice(&brush.positions);
                triangles.extend(brush.triangles.iter().map(|t| t.map(|i| i + base)));
            }
            primitives.push(Primitive { material, triangles });
        }
        super::Model {
            name: self.name.clone(),
            positions,
            uvs: None,
            primitives,
            materials: roles
                .into_iter()
                .map(|role| Material {
                    name: role.group_name().replace(' ', "_"),
                    texture: None,
                    double_sided: role != BrushRole::Additive,
                })
                .collect(),
            morph_targets: Vec::new(),
            morph_animations: Vec::new(),
            skin: None,
            skeletal_animations: Vec::new(),
            notes: Vec::new(),
        }
    }
}

/// The brushes of a map text as glTF-ready meshes (see [`placed_brushes`]).
pub fn map_scene(name: &str, text: &str, generation: Option<Generation>) -> MapScene {
    let (placed, builder_brushes) = placed_brushes(text, generation);
    let brushes = placed
        .into_iter()
        .filter(|brush| brush.role != BrushRole::Builder)
        .map(|brush| {
            let mut positions = Vec::new();
            let mut triangles = Vec::new();
            for points in &brush.polygons {
                let base = positions.len() as u32;
                positions.extend(points.iter().map(|p| point_to_gltf(p.map(|c| c as f32))));
                // A fan in UnrealEd's order, reversed for glTF's front faces (see model.rs).
                for i in 1..points.len() as u32 - 1 {
                    triangles.push([base, base + i + 1, base + i]);
                }
            }
            SceneBrush {
                name: brush.name,
                class: brush.class,
                csg_oper: brush.csg_oper,
                poly_flags: brush.poly_flags,
                role: brush.role,
                positions,
                triangles,
            }
        })
        .collect();
    MapScene { name: name.to_owned(), brushes, builder_brushes }
}
