//! A T3D map as the engine builds it from its brushes: every brush actor's polygons placed in
//! the world ([`crate::t3d::placement`]), one part per brush with what CSG does with it, so
//! that a glTF of the map shows its layout and a Blender user can select brushes by what they
//! are.
//!
//! What each brush is (`CsgOper`, Engine's `ECsgOper`; `PolyFlags`): `CSG_Add` and
//! `CSG_Subtract` build the level (in a subtractive world the rooms are the subtracted
//! brushes); a brush with no `CsgOper` is `CSG_Active`, the builder (red) brush, which is not
//! geometry and is left out; a brush with the semisolid or non-solid flag adds no BSP cuts.
//! Actors of other classes with a brush (movers, volumes, zone infos' brushes) are not part of
//! CSG and are kept apart.

use unreal_syntax::t3d::{Block, BlockKind, LineKeyword};

use super::model::point_to_gltf;
use crate::t3d::placement::Placement;
use crate::t3d::walk;
use crate::EngineGeneration;

/// What a brush does in the built level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BrushRole {
    /// `CSG_Add`.
    Additive,
    /// `CSG_Subtract`.
    Subtractive,
    /// Another actor's brush (a mover, a volume) or an intersect/deintersect: not level
    /// geometry.
    Other,
    /// The builder (red) brush, `CSG_Active` (no `CsgOper`): drawn in the picture as UnrealEd
    /// draws it, never exported.
    Builder,
}

impl BrushRole {
    pub fn group_name(self) -> &'static str {
        match self {
            BrushRole::Additive => "Additive brushes",
            BrushRole::Subtractive => "Subtractive brushes",
            BrushRole::Other => "Other brushes",
            BrushRole::Builder => "Builder brush",
        }
    }
}

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

/// True when the text holds at least one actor with a brush: a map (or a part of one) rather
/// than a lone brush.
pub fn has_brush_actors(text: &str) -> bool {
    let parse = unreal_syntax::t3d::parse(text);
    walk::blocks(&parse.file).into_iter().any(|(block, parent)| {
        block.kind == BlockKind::Brush && parent.is_some_and(|p| p.kind == BlockKind::Actor)
    })
}

/// One brush of the map in the world, Unreal's axes: what the map picture and the glTF
/// export both draw.
#[derive(Clone, Debug, PartialEq)]
pub struct PlacedBrush {
    pub name: String,
    pub class: String,
    pub csg_oper: String,
    pub poly_flags: i64,
    pub role: BrushRole,
    /// Each polygon's vertices in the world, in the engine's order (mirrored brushes already
    /// reversed).
    pub polygons: Vec<Vec<[f64; 3]>>,
    /// The actor's `Begin Actor` line.
    pub begin_span: unreal_syntax::Span,
}

impl PlacedBrush {
    /// Semisolid (0x20) or non-solid (0x8): the brush cuts no BSP.
    pub fn is_semisolid_or_nonsolid(&self) -> bool {
        self.poly_flags & 0x28 != 0
    }
}

/// The brushes of a map text, placed as `generation`'s CSG places them (`None`: detected from
/// the text, UE1's placement when it cannot tell), builder brushes included, and how many
/// builder brushes there are.
pub fn placed_brushes(
    text: &str,
    generation: Option<EngineGeneration>,
) -> (Vec<PlacedBrush>, usize) {
    let parse = unreal_syntax::t3d::parse(text);
    let generation = generation.or_else(|| crate::t3d::generation::detect(text, &parse.file));
    let mut brushes = Vec::new();
    let mut builder_brushes = 0;
    for (actor, _) in walk::blocks(&parse.file) {
        if actor.kind != BlockKind::Actor {
            continue;
        }
        let Some(brush) = actor.blocks().find(|b| b.kind == BlockKind::Brush) else { continue };
        let class = actor.attribute_value(text, "Class").unwrap_or_default().to_owned();
        let actor_name = actor.attribute_value(text, "Name").unwrap_or_default().to_owned();
        let word = |key: &str| {
            actor
                .properties()
                .find(|p| p.key.text(text).eq_ignore_ascii_case(key))
                .map(|p| p.value.span().text(text).to_owned())
        };
        let csg_oper = word("CsgOper").unwrap_or_default();
        let poly_flags = word("PolyFlags").and_then(|f| f.trim().parse::<i64>().ok()).unwrap_or(0);
        let is_brush_class = class.eq_ignore_ascii_case("Brush");
        let role = match csg_oper.to_ascii_uppercase().as_str() {
            _ if !is_brush_class => BrushRole::Other,
            "CSG_ADD" => BrushRole::Additive,
            "CSG_SUBTRACT" => BrushRole::Subtractive,
            "" | "CSG_ACTIVE" => {
                builder_brushes += 1;
                BrushRole::Builder
            }
            _ => BrushRole::Other,
        };
        let transform = Placement::of_actor(text, actor).transform(generation);
        let polygons: Vec<Vec<[f64; 3]>> = polygons_of(brush)
            .into_iter()
            .filter_map(|polygon| {
                let mut points: Vec<[f64; 3]> = polygon
                    .vectors(LineKeyword::Vertex)
                    .map(|v| transform.point(v.value))
                    .collect();
                if transform.mirrors {
                    points.reverse();
                }
                (points.len() >= 3).then_some(points)
            })
            .collect();
        if polygons.is_empty() {
            continue;
        }
        brushes.push(PlacedBrush {
            name: if actor_name.is_empty() {
                format!("Brush{}", brushes.len())
            } else {
                actor_name
            },
            class,
            csg_oper,
            poly_flags,
            role,
            polygons,
            begin_span: actor.begin_span,
        });
    }
    (brushes, builder_brushes)
}

/// The brushes of a map text as glTF-ready meshes (see [`placed_brushes`]).
pub fn map_scene(name: &str, text: &str, generation: Option<EngineGeneration>) -> MapScene {
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

/// The polygons of a brush block, however deep (`Begin PolyList` inside it).
fn polygons_of(brush: &Block) -> Vec<&Block> {
    let mut out = Vec::new();
    let mut stack = vec![brush];
    while let Some(block) = stack.pop() {
        for child in block.blocks() {
            if child.kind == BlockKind::Polygon {
                out.push(child);
            } else {
                stack.push(child);
            }
        }
    }
    out
}
