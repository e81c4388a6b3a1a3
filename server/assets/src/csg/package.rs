//! A built map package (`.unr`): the brushes that take part in CSG, read from the level's
//! actors in the level's order (each `Brush` actor's properties, its `Model` and the model's
//! `Polys`, placed in the world as UE1's CSG places them), and the level's own BSP as the
//! engine built it, one convex polygon per node ([`super::compare`] compares the two).

use unreal_formats::decode::model::{Model, Poly};
use unreal_formats::package::{ObjectRef, Package, Property, PropertyValue, Resolved};

use super::bsp::Oper;
use super::compare::AreaPolygon;
use super::{takes_part, BrushPoly, CsgBrush, V3};
use unreal_analysis::coords::{Scale, SheerAxis};
use unreal_analysis::t3d::placement::Placement;
use unreal_analysis::Generation;

/// What a built map holds.
#[derive(Clone, Debug, Default)]
pub struct BuiltMap {
    /// The brushes that take part, in the level's order.
    pub brushes: Vec<CsgBrush>,
    /// Brush-holding actors left out, with why (`Mover1: not static`).
    pub left_out: Vec<String>,
    /// The level's BSP: one polygon per node with vertices.
    pub engine: Vec<AreaPolygon>,
    /// The level model's `RootOutside`.
    pub root_outside: bool,
    pub nodes: usize,
    pub surfs: usize,
    /// The UE1 brushes placed with a rotation, scale or sheer (UE2 stores its brushes'
    /// polygons turned and scaled already): where one is found elsewhere than the stored level
    /// has it, this build's placement is not ruled out as the cause.
    pub turned: Vec<String>,
    /// Brushes the stored level's surfaces name that the level's actors do not hold: deleted
    /// after the level was last built (UnrealEd saves an actor that something still refers
    /// to), in the package's order, those that would take part read as a brush.
    pub deleted: Vec<CsgBrush>,
}

/// What a level's actor is to CSG.
enum ActorBrush {
    /// A brush that takes part.
    /// A brush that takes part; whether UE1 turns, scales or sheers it.
    Takes(CsgBrush, bool),
    /// A brush actor that does not, with why (`Mover1: not static`).
    LeftOut(String),
    /// No brush.
    None,
}

/// Actor export `actor` as CSG reads it.
fn actor_brush(p: &Package<'_>, actor: usize) -> Result<ActorBrush, unreal_formats::Error> {
    let header = p.read_object_header(actor)?;
    let props = &header.properties;
    let Some(model) = (match property(props, "Brush") {
        Some(PropertyValue::Object(r)) => export_of(*r),
        _ => None,
    }) else {
        return Ok(ActorBrush::None);
    };
    let class = p.class_name(actor);
    let name = p.export_name(actor).to_owned();
    let csg_oper = int_of(property(props, "CsgOper")).unwrap_or(0).to_string();
    let b_static = match property(props, "bStatic") {
        Some(PropertyValue::Bool(b)) => Some(*b),
        // Absent: the class's default (true for Brush, false for Mover).
        _ => None,
    };
    if !takes_part(class, &csg_oper, b_static, true) {
        let why = if !class.eq_ignore_ascii_case("Brush") {
            format!("class {class}")
        } else if b_static == Some(false) {
            "not static".to_owned()
        } else {
            format!("CsgOper {csg_oper}")
        };
        return Ok(ActorBrush::LeftOut(format!("{name}: {why}")));
    }
    let Some(oper) = super::oper_of(&csg_oper) else { return Ok(ActorBrush::None) };
    // By bare name, as the stored level's surfaces are compared (`engine_polygons`).
    let polys = placed_polys(p, props, model)?.into_iter().map(|(poly, _)| poly).collect();
    let plain = |scale: Option<Scale>| {
        // Any scale or sheer at all, however slight, is a placement of its own.
        scale.is_none_or(|s| {
            s.scale.iter().all(|&c| (c - 1.0).abs() < f64::EPSILON)
                && s.sheer_rate.abs() < f64::EPSILON
        })
    };
    let turned = !p.is_ue2()
        && (rotator_of(property(props, "Rotation")).is_some_and(|r| r != [0; 3])
            || !plain(scale_of(property(props, "MainScale")))
            || !plain(scale_of(property(props, "PostScale"))));
    let poly_flags = int_of(property(props, "PolyFlags")).unwrap_or(0) as u32;
    Ok(ActorBrush::Takes(CsgBrush { name, oper, poly_flags, polys }, turned))
}

fn export_of(r: ObjectRef) -> Option<usize> {
    match r.resolve() {
        Resolved::Export(i) => Some(i),
        _ => None,
    }
}

fn property<'p>(props: &'p [Property], name: &str) -> Option<&'p PropertyValue> {
    props.iter().find(|p| p.name.eq_ignore_ascii_case(name) && p.array_index == 0).map(|p| &p.value)
}

fn f32_at(bytes: &[u8], at: usize) -> Option<f32> {
    Some(f32::from_le_bytes(bytes.get(at..at + 4)?.try_into().ok()?))
}

fn vector_of(v: Option<&PropertyValue>) -> Option<V3> {
    match v? {
        PropertyValue::Vector(v) => Some(v.map(f64::from)),
        PropertyValue::Raw { bytes, .. } if bytes.len() == 12 => {
            Some([f32_at(bytes, 0)?, f32_at(bytes, 4)?, f32_at(bytes, 8)?].map(f64::from))
        }
        _ => None,
    }
}

fn rotator_of(v: Option<&PropertyValue>) -> Option<[i32; 3]> {
    let int = |b: &[u8], at: usize| Some(i32::from_le_bytes(b.get(at..at + 4)?.try_into().ok()?));
    match v? {
        PropertyValue::Rotator(r) => Some(*r),
        PropertyValue::Raw { bytes, .. } if bytes.len() == 12 => {
            Some([int(bytes, 0)?, int(bytes, 4)?, int(bytes, 8)?])
        }
        _ => None,
    }
}

/// `FScale`: the scale vector, `SheerRate`, `SheerAxis` (17 bytes).
fn scale_of(v: Option<&PropertyValue>) -> Option<Scale> {
    let PropertyValue::Raw { bytes, .. } = v? else { return None };
    let scale = [f32_at(bytes, 0)?, f32_at(bytes, 4)?, f32_at(bytes, 8)?].map(f64::from);
    let sheer_rate = f64::from(f32_at(bytes, 12).unwrap_or(0.0));
    let sheer_axis = match bytes.get(16).copied().unwrap_or(0) {
        1 => SheerAxis::Xy,
        2 => SheerAxis::Xz,
        3 => SheerAxis::Yx,
        4 => SheerAxis::Yz,
        5 => SheerAxis::Zx,
        6 => SheerAxis::Zy,
        _ => SheerAxis::None,
    };
    Some(Scale { scale, sheer_rate, sheer_axis })
}

fn int_of(v: Option<&PropertyValue>) -> Option<i64> {
    match v? {
        PropertyValue::Byte(b) => Some(i64::from(*b)),
        PropertyValue::Int(i) => Some(i64::from(*i)),
        _ => None,
    }
}

/// The export of a built map's `Level` (its `MyLevel`); an error naming what was expected in
/// a package that holds none (not a map).
pub fn level_export(p: &Package<'_>) -> Result<usize, unreal_formats::Error> {
    p.objects()
        .find(|o| p.class_name(o.export).eq_ignore_ascii_case("Level"))
        .map(|o| o.export)
        .ok_or_else(|| unreal_formats::Error::new("package", 0, "a Level object (a map)"))
}

/// Reads a built map: every error names the object and byte where reading stopped.
pub fn read_built_map(p: &Package<'_>) -> Result<BuiltMap, unreal_formats::Error> {
    let level = p.read_level(level_export(p)?)?;
    let mut map = BuiltMap::default();
    for actor in level.actors.iter().filter_map(|&a| export_of(a)) {
        match actor_brush(p, actor)? {
            ActorBrush::Takes(brush, turned) => {
                if turned {
                    map.turned.push(brush.name.clone());
                }
                map.brushes.push(brush);
            }
            ActorBrush::LeftOut(why) => map.left_out.push(why),
            ActorBrush::None => {}
        }
    }
    let model = export_of(level.model).ok_or_else(|| {
        unreal_formats::Error::new("Level", 0, "the level's Model to be an object of the map")
    })?;
    let model = p.read_model(model)?;
    map.root_outside = model.root_outside;
    map.nodes = model.nodes.len();
    map.surfs = model.surfs.len();
    map.engine = engine_polygons(p, &model);
    let in_level: std::collections::HashSet<usize> =
        level.actors.iter().filter_map(|&a| export_of(a)).collect();
    let mut named: Vec<usize> = model
        .surfs
        .iter()
        .filter_map(|s| export_of(s.actor))
        .filter(|a| !in_level.contains(a))
        .collect();
    named.sort_unstable();
    named.dedup();
    for actor in named {
        // One that cannot be read is only not rebuilt: its surfaces still say it is gone.
        if let Ok(ActorBrush::Takes(brush, _)) = actor_brush(p, actor) {
            map.deleted.push(brush);
        }
    }
    Ok(map)
}

/// The polygons of a brush actor's model `model`, placed in the world by its properties
/// (`Location`, `Rotation`, `PrePivot`, `MainScale`, `PostScale`) as CSG places them, each
/// named by its texture's bare name, with the texture as the package refers to it.
fn placed_polys(
    p: &Package<'_>,
    props: &[Property],
    model: usize,
) -> Result<Vec<(BrushPoly, ObjectRef)>, unreal_formats::Error> {
    let placement = Placement {
        location: vector_of(property(props, "Location")).unwrap_or_default(),
        rotation: rotator_of(property(props, "Rotation")).unwrap_or_default(),
        pre_pivot: vector_of(property(props, "PrePivot")).unwrap_or_default(),
        main_scale: scale_of(property(props, "MainScale")).unwrap_or_default(),
        post_scale: scale_of(property(props, "PostScale")).unwrap_or_default(),
    };
    let generation = if p.is_ue2() { Generation::Ue2 } else { Generation::Ue1 };
    let transform = placement.transform(Some(generation));
    let brush_model = p.read_model(model)?;
    let polys: Vec<Poly> = match export_of(brush_model.polys) {
        Some(polys) => p.read_polys(polys)?,
        None => Vec::new(),
    };
    Ok(polys
        .iter()
        .map(|poly| {
            let mut vertices: Vec<V3> =
                poly.vertices.iter().map(|v| transform.point(v.map(f64::from))).collect();
            if transform.mirrors {
                vertices.reverse();
            }
            let f = |v: [f32; 3]| v.map(f64::from);
            let poly_out = BrushPoly {
                vertices,
                texture: p.ref_name(poly.texture).to_owned(),
                poly_flags: poly.poly_flags,
                mapping: Some(super::TextureMapping {
                    base: transform.point(f(poly.base)),
                    texture_u: transform.texture_axis(f(poly.texture_u)),
                    texture_v: transform.texture_axis(f(poly.texture_v)),
                    pan: [poly.pan_u, poly.pan_v],
                }),
                source: None,
                link: usize::try_from(poly.link).ok(),
            };
            (poly_out, poly.texture)
        })
        .collect())
}

/// Every node of the level's model with a polygon, with its surface's plane and texture and
/// the brush it came from.
fn engine_polygons(p: &Package<'_>, model: &Model) -> Vec<AreaPolygon> {
    (0..model.nodes.len())
        .filter_map(|i| {
            let vertices: Vec<V3> =
                model.node_polygon(i).into_iter().map(|v| v.map(f64::from)).collect();
            if vertices.len() < 3 {
                return None;
            }
            let surf = model.node_surf(i)?;
            Some(AreaPolygon {
                vertices,
                normal: model.vector(surf.normal).map(f64::from),
                base: model.point(surf.base).map(f64::from),
                texture: p.ref_name(surf.texture).to_owned(),
                poly_flags: surf.poly_flags,
                source: p.ref_name(surf.actor).to_owned(),
                mapping: Some(super::TextureMapping {
                    base: model.point(surf.base).map(f64::from),
                    texture_u: model.vector(surf.texture_u).map(f64::from),
                    texture_v: model.vector(surf.texture_v).map(f64::from),
                    pan: [surf.pan_u, surf.pan_v],
                }),
            })
        })
        .collect()
}

impl Oper {
    pub fn word(self) -> &'static str {
        match self {
            Oper::Add => "CSG_Add",
            Oper::Subtract => "CSG_Subtract",
        }
    }
}

/// A built map's level built again from its brushes and compared with the BSP it stores.
#[derive(Clone, Debug)]
pub struct CsgCheck {
    pub map: BuiltMap,
    pub level: super::BuiltLevel,
    pub comparison: super::compare::Comparison,
    /// The part of the differences on detail brushes.
    pub on_detail: OnDetail,
    /// Semisolid brushes the stored level reads as built while they were solid, when there are
    /// any ([`find_stale_semisolid`]).
    pub stale_semisolid: Option<StaleSemisolid>,
    /// Stored surfaces of brushes the map no longer holds, when there are any
    /// ([`find_deleted`]).
    pub deleted: Option<Deleted>,
    /// Brushes moved since the last build, when moving them back gives the stored level
    /// ([`find_moved`]).
    pub moved: Option<Moved>,
    /// Time to build the level (not to read the package or compare).
    pub build_time: std::time::Duration,
}

/// Of a comparison's differences, the area on detail brushes ([`super::is_detail`]): the
/// engine's not built, and built but not stored. Which faces of a detail brush the engine
/// keeps depends on the cells of its own tree, which this build does not reproduce node for
/// node (docs/csg.md, "Detail brushes").
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct OnDetail {
    pub missing_area: f64,
    pub extra_area: f64,
}

impl OnDetail {
    /// The differences of `c` on the detail brushes among `brushes`.
    fn of(brushes: &[CsgBrush], c: &super::compare::Comparison) -> OnDetail {
        let detail = detail_names(brushes);
        let sum = |d: &[super::compare::Difference]| -> f64 {
            d.iter().filter(|d| detail.contains(d.source.as_str())).map(|d| d.area).sum()
        };
        OnDetail { missing_area: sum(&c.missing), extra_area: sum(&c.extra) }
    }

    /// The matched area of `c` with the detail brushes' missing area counted as matched, and
    /// its extra area without theirs.
    fn areas_outside(&self, c: &super::compare::Comparison) -> (f64, f64) {
        (c.matched_area + self.missing_area, c.built_area - c.matched_area - self.extra_area)
    }

    /// [`Self::areas_outside`]'s matched area in percent of the engine's.
    pub fn matched_outside_percent(&self, c: &super::compare::Comparison) -> f64 {
        super::compare::matched_percent_of(self.areas_outside(c).0, c.engine_area)
    }

    /// [`Self::areas_outside`]'s extra area in percent of the engine's.
    pub fn extra_outside_percent(&self, c: &super::compare::Comparison) -> f64 {
        super::compare::percent_of(self.areas_outside(c).1, c.engine_area)
    }
}

/// The names of the detail brushes ([`super::is_detail`]) among `brushes`.
fn detail_names(brushes: &[CsgBrush]) -> std::collections::HashSet<&str> {
    brushes
        .iter()
        .filter(|b| super::is_detail(b.oper, b.poly_flags))
        .map(|b| b.name.as_str())
        .collect()
}

/// Reads a built map, builds its level from its brushes and compares with its own BSP.
pub fn check(p: &Package<'_>) -> Result<CsgCheck, unreal_formats::Error> {
    let map = read_built_map(p)?;
    let start = std::time::Instant::now();
    let level = super::build(&map.brushes, map.root_outside);
    let build_time = start.elapsed();
    let built = super::compare::built_polygons(&level, &map.brushes);
    let comparison = super::compare::compare(&map.engine, &built);
    let on_detail = OnDetail::of(&map.brushes, &comparison);
    // A build stopped part-way is no level to judge the stored one by.
    let stale_semisolid = (comparison.extra_percent() > STALE_FROM_PERCENT
        && level.stopped.is_none())
    .then(|| find_stale_semisolid(&map, &built, &comparison))
    .flatten();
    let deleted = find_deleted(&map, &comparison);
    let moved = (level.stopped.is_none()
        && (comparison.matched_percent() < GOAL_MATCHED_PERCENT
            || comparison.extra_percent() > GOAL_EXTRA_PERCENT))
        .then(|| find_moved(&map, &built, &comparison))
        .flatten();
    Ok(CsgCheck { map, level, comparison, on_detail, stale_semisolid, deleted, moved, build_time })
}

/// Extra area above which [`find_stale_semisolid`] looks for its cause (the goal the oracle
/// holds the build to).
const STALE_FROM_PERCENT: f64 = 0.01;
/// The oracle's goal (`csg_oracle.rs`, docs/csg.md): a build at least this much matched and
/// at most this much extra gives the stored level.
const GOAL_MATCHED_PERCENT: f64 = 99.99;
const GOAL_EXTRA_PERCENT: f64 = 0.01;

/// A stored level that lacks world faces inside semisolid brushes: built while they were
/// solid ([`find_stale_semisolid`]).
#[derive(Clone, Debug)]
pub struct StaleSemisolid {
    /// Each semisolid brush inside which the stored level lacks faces of other brushes that a
    /// build of the brushes as they are makes, with that area (units²), most first.
    pub lacking: Vec<Lacking>,
    /// Their sum: area of the comparison's extra that no build of these brushes removes.
    pub lacking_area: f64,
    /// The build with them all solid, when it gives the stored level (within the oracle's
    /// goal outside detail brushes); `None` when it does not: the brushes then cut the world
    /// through a tree whose cells differ from this build's (skins).
    pub as_solid: Option<Rebuilt>,
}

/// A build with some brushes changed (semisolid ones made solid, deleted ones read back), and
/// its comparison with the stored level.
#[derive(Clone, Debug)]
pub struct Rebuilt {
    pub brushes: Vec<String>,
    pub comparison: super::compare::Comparison,
    /// The part of that comparison's differences on detail brushes.
    pub on_detail: OnDetail,
}

/// A semisolid brush and the area of world faces inside it the stored level lacks.
#[derive(Clone, Debug, PartialEq)]
pub struct Lacking {
    pub brush: String,
    pub area: f64,
}

impl StaleSemisolid {
    /// `c`'s extra area in percent of the engine's, without the area lacking inside the
    /// brushes.
    pub fn extra_percent(&self, c: &super::compare::Comparison) -> f64 {
        super::compare::percent_of(c.built_area - c.matched_area - self.lacking_area, c.engine_area)
    }

    /// The same, outside detail brushes (the lacking area is on other brushes' faces).
    pub fn extra_outside_detail_percent(
        &self,
        c: &super::compare::Comparison,
        on_detail: &OnDetail,
    ) -> f64 {
        super::compare::percent_of(on_detail.areas_outside(c).1 - self.lacking_area, c.engine_area)
    }
}

/// World-face area lacking inside one semisolid brush from which it is named.
const LACKING_FROM: f64 = 100.0;
/// How much of the lacking area of the polygons the named brushes split may lie outside every
/// semisolid brush, as a share of what lies inside them, for the gaps to be theirs: a gap
/// that only crosses a brush is not its doing.
const LACKING_OUTSIDE_SHARE: f64 = 0.25;

/// The semisolid brushes the stored level reads as built while they were solid. A semisolid
/// addition never takes anything from the world: `bspBrushCSG` filters the world only
/// through a brush that is neither semisolid nor non-solid, and the detail pass of
/// `csgRebuild`, which adds the semisolid brushes, takes no world face away (UT v400 and
/// Unreal v1.200 `Editor/Src/UnBsp.cpp`, `UnEdCsg.cpp`). So the faces of other brushes that a
/// build makes inside a semisolid brush are in any level built with it semisolid; a stored
/// level that lacks them there was built while the brush cut the world (its flag set after
/// that build). Deus Ex's `Texas_v5` lacks the street under `Brush3075`, which its later
/// saves `Texas_v6` to `v10`, with the same brush and flags, have; `skins` lacks the floors
/// and walls inside twelve.
///
/// The built polygons the stored level lacks (some of) are split by each semisolid brush's own
/// tree (what it would take from the world built solid), and the pieces inside it compared
/// with the stored level. A brush is named when at least a hundred units² lacking lie inside
/// it, and the brushes named so when, of the polygons they split, at most a quarter as much
/// is lacking outside every semisolid brush (the gaps follow the brushes). Then the level is
/// built with them all solid: where that gives the stored level, it is said; where it does
/// not, they cut the world through a tree whose cells differ from this build's (which tree,
/// the stored level does not say), and only the gaps are said.
pub fn find_stale_semisolid(
    map: &BuiltMap,
    built: &[super::compare::AreaPolygon],
    base: &super::compare::Comparison,
) -> Option<StaleSemisolid> {
    let lacking = lacking_inside_semisolids(map, built, base);
    if lacking.is_empty() {
        return None;
    }
    let lacking_area = lacking.iter().map(|l| l.area).sum();
    // Built solid all at once: shown when that gives the stored level (within the oracle's
    // goal outside detail brushes, whose faces the engine keeps by the cells of its own tree).
    let mut brushes = map.brushes.clone();
    for b in &mut brushes {
        if lacking.iter().any(|l| l.brush == b.name) {
            b.poly_flags &= !super::bsp::PF_SEMISOLID;
        }
    }
    let names = lacking.iter().map(|l| l.brush.clone()).collect();
    let rebuilt = Rebuilt::of(map, &brushes, names);
    let as_solid = rebuilt.gives_stored_level().then_some(rebuilt);
    Some(StaleSemisolid { lacking, lacking_area, as_solid })
}

impl Rebuilt {
    /// The level built from `brushes` (the map's, some changed: `names`), compared with the
    /// map's stored level.
    fn of(map: &BuiltMap, brushes: &[CsgBrush], names: Vec<String>) -> Rebuilt {
        let level = super::build(brushes, map.root_outside);
        let comparison =
            super::compare::compare(&map.engine, &super::compare::built_polygons(&level, brushes));
        let on_detail = OnDetail::of(brushes, &comparison);
        Rebuilt { brushes: names, comparison, on_detail }
    }

    /// Within the oracle's goal outside detail brushes (whose faces the engine keeps by the
    /// cells of its own tree).
    pub fn gives_stored_level(&self) -> bool {
        self.on_detail.matched_outside_percent(&self.comparison) >= GOAL_MATCHED_PERCENT
            && self.on_detail.extra_outside_percent(&self.comparison) <= GOAL_EXTRA_PERCENT
    }
}

/// Brushes whose stored surfaces lie elsewhere than the brushes build them, moved back to
/// where those surfaces are ([`find_moved`]).
#[derive(Clone, Debug)]
pub struct Moved {
    /// Each brush, how far it moved since the last build (where it is now less where the
    /// stored level has it) and the area of its stored surfaces not built, most first.
    pub brushes: Vec<MovedBrush>,
    /// The build with them where the stored level has them: it gives the stored level.
    pub rebuilt: Rebuilt,
}

#[derive(Clone, Debug, PartialEq)]
pub struct MovedBrush {
    pub brush: String,
    pub moved_by: V3,
    pub area: f64,
    /// Placed with a rotation, scale or sheer ([`BuiltMap::turned`]): moved, or placed by this
    /// build otherwise than by the editor that built the level; the level does not tell.
    pub turned: bool,
}

/// A brush's stored surfaces not built, and its built faces not stored, from which it is
/// looked at as moved (units² each).
const MOVED_FROM: f64 = 1000.0;
/// The most brushes looked at as moved.
const MOVED_AT_MOST: usize = 8;

/// Brushes moved since the level was last built: a brush whose stored surfaces are not built
/// and whose built faces are not stored, both in bulk, is moved back by the offset between
/// where the stored level has it and where it is ([`box_moved_by`]),
/// and the level built with every such brush moved so; they are named only when that build
/// gives the stored level. Deus Ex's `50_OpheliaL2-v16` stores `Brush1831` 5 and 62 units from where
/// it stands; `-v17`, saved with the brush where it is, stores it there.
pub fn find_moved(
    map: &BuiltMap,
    built: &[AreaPolygon],
    c: &super::compare::Comparison,
) -> Option<Moved> {
    let (missing, extra) = (area_by_source(&c.missing), area_by_source(&c.extra));
    let mut candidates: Vec<(&str, f64)> = missing
        .iter()
        .filter(|(name, area)| {
            **area >= MOVED_FROM && extra.get(*name).is_some_and(|e| *e >= MOVED_FROM)
        })
        .map(|(name, area)| (*name, *area))
        .collect();
    candidates.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(b.0)));
    candidates.truncate(MOVED_AT_MOST);
    let mut moved = Vec::new();
    for (name, area) in candidates {
        let Some(brush) = map.brushes.iter().find(|b| b.name == name) else { continue };
        let stored = map.engine.iter().filter(|e| e.source == name);
        let built = built.iter().filter(|b| b.source == name);
        let Some(moved_by) = box_moved_by(brush, stored, built) else { continue };
        let turned = map.turned.iter().any(|t| t == name);
        moved.push(MovedBrush { brush: name.to_owned(), moved_by, area, turned });
    }
    if moved.is_empty() {
        return None;
    }
    let mut brushes = map.brushes.clone();
    for b in &mut brushes {
        let Some(m) = moved.iter().find(|m| m.brush == b.name) else { continue };
        let back = |v: V3| -> V3 { std::array::from_fn(|k| v[k] - m.moved_by[k]) };
        for poly in &mut b.polys {
            for v in &mut poly.vertices {
                *v = back(*v);
            }
            if let Some(mapping) = &mut poly.mapping {
                mapping.base = back(mapping.base);
            }
        }
    }
    let rebuilt = Rebuilt::of(map, &brushes, moved.iter().map(|m| m.brush.clone()).collect());
    rebuilt.gives_stored_level().then_some(Moved { brushes: moved, rebuilt })
}

/// The area of differences by the brush they are of.
fn area_by_source(d: &[super::compare::Difference]) -> std::collections::HashMap<&str, f64> {
    let mut out: std::collections::HashMap<&str, f64> = std::collections::HashMap::new();
    for d in d {
        *out.entry(d.source.as_str()).or_default() += d.area;
    }
    out
}

/// How far `brush` moved from where the stored level has it (`stored`: its surfaces there;
/// `built`: its faces as built now): by the box of its stored surfaces against the box of its
/// polygons, on each axis where the two boxes' low and high sides moved alike (nothing cut
/// that side in either place), else by the middle of the stored surfaces' box against the
/// middle of the built faces' box. `None` when that is no move.
fn box_moved_by<'a>(
    brush: &'a CsgBrush,
    stored: impl Iterator<Item = &'a AreaPolygon>,
    built: impl Iterator<Item = &'a AreaPolygon>,
) -> Option<V3> {
    use super::bsp::Bounds;
    let non_empty = |b: Bounds| (b.min[0] <= b.max[0]).then_some(b);
    let stored = non_empty(Bounds::around(stored.map(|e| e.vertices.as_slice())))?;
    let built = non_empty(Bounds::around(built.map(|b| b.vertices.as_slice())))?;
    let whole = non_empty(Bounds::around(brush.polys.iter().map(|p| p.vertices.as_slice())))?;
    let moved_by: V3 = std::array::from_fn(|k| {
        let (low, high) = (whole.min[k] - stored.min[k], whole.max[k] - stored.max[k]);
        if (low - high).abs() < 0.5 {
            f64::midpoint(low, high)
        } else {
            f64::midpoint(built.min[k], built.max[k]) - f64::midpoint(stored.min[k], stored.max[k])
        }
    });
    let moved_by = moved_by.map(|d| (d * 10.0).round() / 10.0 + 0.0);
    moved_by.iter().any(|d| d.abs() >= 0.5).then_some(moved_by)
}

/// Stored surfaces of brushes the map's level no longer holds ([`BuiltMap::deleted`]).
#[derive(Clone, Debug)]
pub struct Deleted {
    /// Each brush with the area of its stored surfaces that no built face matches, most first.
    pub brushes: Vec<Lacking>,
    /// Their sum.
    pub area: f64,
    /// The build with the deleted brushes read back, each before the first brush numbered
    /// after it or all after the others, whichever gives the closer level (where a brush stood
    /// in the level's order is not stored), when they could be read.
    pub rebuilt: Option<Rebuilt>,
}

impl Deleted {
    /// `c`'s matched area in percent of the engine's without the deleted brushes' area.
    pub fn matched_percent(&self, c: &super::compare::Comparison) -> f64 {
        super::compare::matched_percent_of(c.matched_area, c.engine_area - self.area)
    }

    /// `c`'s extra area in percent of the engine's without the deleted brushes' area.
    pub fn extra_percent(&self, c: &super::compare::Comparison) -> f64 {
        super::compare::percent_of(c.built_area - c.matched_area, c.engine_area - self.area)
    }

    /// The lines `info --csg` prints of them, `c` being the comparison they are part of.
    fn write(
        &self,
        f: &mut std::fmt::Formatter<'_>,
        c: &super::compare::Comparison,
    ) -> std::fmt::Result {
        use unreal_formats::printable::printable_line;
        let deleted = self;
        let n = deleted.brushes.len();
        let names: Vec<String> = deleted
            .brushes
            .iter()
            .take(5)
            .map(|b| format!("{} ({:.0} units²)", printable_line(&b.brush), b.area))
            .chain((n > 5).then(|| format!("{} more", n - 5)))
            .collect();
        writeln!(
            f,
            "  the stored level holds {:.0} units² of {n} brush{} the map's level no longer has: {}; deleted since the level was last built (the file keeps an actor the level's surfaces refer to), so building the map now leaves {}; without that area: {:.3}% matched, {:.3}% extra",
            deleted.area,
            if n == 1 { "" } else { "es" },
            names.join(", "),
            if n == 1 { "it out" } else { "them out" },
            deleted.matched_percent(c),
            deleted.extra_percent(c)
        )?;
        if let Some(rebuilt) = &deleted.rebuilt {
            let c = &rebuilt.comparison;
            writeln!(
                f,
                "  built with {} read back (before the first brush numbered after, or after all the others, the closer of the two: the level's order does not keep a deleted brush's place), {}: {:.3}% matched, {:.3}% extra ({:.3}% and {:.3}% outside detail brushes)",
                if rebuilt.brushes.len() == 1 { "it" } else { "them" },
                if rebuilt.gives_stored_level() { "it gives the stored level" } else { "it reads" },
                c.matched_percent(),
                c.extra_percent(),
                rebuilt.on_detail.matched_outside_percent(c),
                rebuilt.on_detail.extra_outside_percent(c)
            )?;
        }
        Ok(())
    }
}

/// The stored level's surfaces of brushes the map's level does not hold, where there are any:
/// UnrealEd saves an actor that something still refers to, and a level's surfaces refer to
/// the brush that made them, so a brush deleted after the last build stays in the file with
/// the surfaces it made. Building the map now leaves it out. (Jazz Jackrabbit 3D's `Surf`
/// holds nothing but such surfaces; Deus Ex's `50_station7` one brush's.)
pub fn find_deleted(map: &BuiltMap, c: &super::compare::Comparison) -> Option<Deleted> {
    let held: std::collections::HashSet<&str> = map
        .brushes
        .iter()
        .map(|b| b.name.as_str())
        .chain(map.left_out.iter().map(|l| l.split(':').next().unwrap_or(l)))
        .collect();
    let mut brushes: Vec<Lacking> = area_by_source(&c.missing)
        .into_iter()
        .filter(|(source, _)| !source.is_empty() && !held.contains(source))
        .map(|(source, area)| Lacking { brush: source.to_owned(), area })
        .collect();
    if brushes.is_empty() {
        return None;
    }
    brushes.sort_by(|a, b| b.area.total_cmp(&a.area).then_with(|| a.brush.cmp(&b.brush)));
    let area = brushes.iter().map(|b| b.area).sum();
    let rebuilt = (!map.deleted.is_empty()).then(|| {
        // Where each stood is not stored; UnrealEd numbers the brushes it makes in order
        // (`Brush77` after `Brush76`), so each goes before the first brush numbered after it.
        let number = |b: &CsgBrush| -> Option<u64> {
            let digits = b.name.trim_start_matches(|c: char| !c.is_ascii_digit());
            digits.parse().ok()
        };
        let mut numbered: Vec<CsgBrush> = map.brushes.clone();
        for gone in &map.deleted {
            let at = number(gone)
                .and_then(|n| numbered.iter().position(|b| number(b).is_some_and(|m| m > n)))
                .unwrap_or(numbered.len());
            numbered.insert(at, gone.clone());
        }
        // Brushes are not always in the order of their numbers (a level's order changes with
        // "to first", "to last" and copies): after all the others is tried too, and the closer
        // of the two kept.
        let last: Vec<CsgBrush> = map.brushes.iter().chain(&map.deleted).cloned().collect();
        let names = || map.deleted.iter().map(|b| b.name.clone()).collect();
        // Matched area less extra area.
        let score = |r: &Rebuilt| 2.0 * r.comparison.matched_area - r.comparison.built_area;
        let by_number = Rebuilt::of(map, &numbered, names());
        if numbered.iter().map(|b| &b.name).eq(last.iter().map(|b| &b.name)) {
            return by_number;
        }
        let after_all = Rebuilt::of(map, &last, names());
        if score(&after_all) > score(&by_number) {
            after_all
        } else {
            by_number
        }
    });
    Some(Deleted { brushes, area, rebuilt })
}

/// For each semisolid brush, the area of other brushes' built faces inside it that the stored
/// level lacks, where that names it ([`find_stale_semisolid`]), most first. The built
/// polygons are split by each brush's tree in the level's order, a piece inside one brush
/// belonging to it and not looked at again.
fn lacking_inside_semisolids(
    map: &BuiltMap,
    built: &[super::compare::AreaPolygon],
    base: &super::compare::Comparison,
) -> Vec<Lacking> {
    use super::bsp::{Bounds, EdPoly, Filter};
    use super::compare::{compare, AreaPolygon};
    let detail = detail_names(&map.brushes);
    // The built polygons the stored level lacks (some of), of brushes other than detail ones,
    // as pieces that remember their polygon.
    let mut pool: Vec<(usize, AreaPolygon, Bounds)> = base
        .unmatched_built
        .iter()
        .filter(|(_, area)| *area >= 1.0)
        .filter_map(|&(i, _)| built.get(i))
        .filter(|b| !detail.contains(b.source.as_str()))
        .enumerate()
        .map(|(k, b)| (k, b.clone(), Bounds::of(&b.vertices)))
        .collect();
    if pool.is_empty() {
        return Vec::new();
    }
    let engine_bounds: Vec<Bounds> = map.engine.iter().map(|e| Bounds::of(&e.vertices)).collect();
    // The area of `pieces` the stored level lacks.
    let lacking_in = |pieces: &[AreaPolygon]| -> f64 {
        let reach = Bounds::around(pieces.iter().map(|p| p.vertices.as_slice()));
        let near: Vec<AreaPolygon> = map
            .engine
            .iter()
            .zip(&engine_bounds)
            .filter(|(_, b)| b.meets(&reach, 1.0))
            .map(|(e, _)| e.clone())
            .collect();
        let c = compare(&near, pieces);
        c.built_area - c.matched_area
    };
    // Each semisolid brush's pieces, and the polygons it split; the trees and the filtering
    // within the bound of a build of these brushes (brushes whose faces cut each other make
    // trees without end): past it, the brushes left are not looked at.
    let mut claimed: Vec<(&CsgBrush, Vec<AreaPolygon>, Vec<usize>)> = Vec::new();
    let mut budget = super::Limits::for_brushes(&map.brushes).work;
    for brush in map.brushes.iter().filter(|b| super::is_detail(b.oper, b.poly_flags)) {
        let own = Bounds::around(brush.polys.iter().map(|p| p.vertices.as_slice()));
        if !pool.iter().any(|(_, _, b)| b.meets(&own, 0.5)) {
            continue;
        }
        // What the brush would take from the world built solid: the pieces its tree does not
        // keep outside.
        let Some(tree) = super::solid_bsp_of(brush, budget) else { break };
        let (mut inside, mut met) = (Vec::new(), Vec::new());
        let mut rest = Vec::with_capacity(pool.len());
        for (k, polygon, bounds) in pool {
            if !bounds.meets(&own, 0.5) {
                rest.push((k, polygon, bounds));
                continue;
            }
            let poly = EdPoly {
                vertices: polygon.vertices.clone(),
                normal: polygon.normal,
                base: polygon.base,
                flags: 0,
                surf: 0,
            };
            for leaf in tree.filter(poly) {
                let piece = AreaPolygon { vertices: leaf.poly.vertices, ..polygon.clone() };
                if matches!(leaf.filter, Filter::Outside | Filter::CoplanarOutside) {
                    let bounds = Bounds::of(&piece.vertices);
                    rest.push((k, piece, bounds));
                } else {
                    inside.push(piece);
                    met.push(k);
                }
            }
        }
        pool = rest;
        budget = budget.saturating_sub(tree.steps());
        if !inside.is_empty() {
            claimed.push((brush, inside, met));
        }
    }
    let mut found = Vec::new();
    let mut met_by_named = std::collections::HashSet::new();
    for (brush, inside, met) in &claimed {
        let area = lacking_in(inside);
        if area >= LACKING_FROM {
            found.push(Lacking { brush: brush.name.clone(), area });
            met_by_named.extend(met.iter().copied());
        }
    }
    // The gaps must follow the brushes: of the polygons they split, little may be lacking
    // outside every semisolid brush.
    let outside: Vec<AreaPolygon> =
        pool.into_iter().filter(|(k, _, _)| met_by_named.contains(k)).map(|(_, p, _)| p).collect();
    let inside_area: f64 = found.iter().map(|l| l.area).sum();
    if found.is_empty() || lacking_in(&outside) > LACKING_OUTSIDE_SHARE * inside_area {
        return Vec::new();
    }
    found.sort_by(|a, b| b.area.total_cmp(&a.area).then_with(|| a.brush.cmp(&b.brush)));
    found
}

impl Moved {
    /// The line `info --csg` prints of them.
    fn write(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use unreal_formats::printable::printable_line;
        let moved = self;
        let n = moved.brushes.len();
        let names: Vec<String> = moved
            .brushes
            .iter()
            .map(|m| {
                let [dx, dy, dz] = m.moved_by.map(|d| (d * 10.0).round() / 10.0 + 0.0);
                format!(
                    "{} by ({dx}, {dy}, {dz}){} ({:.0} units² of its stored surfaces not built)",
                    printable_line(&m.brush),
                    if m.turned { ", turned or scaled" } else { "" },
                    m.area
                )
            })
            .collect();
        let r = &moved.rebuilt;
        // A brush placed with a rotation, scale or sheer may stand elsewhere because this build
        // places it otherwise than the editor that built the level: not said to have moved.
        let what = match (n, moved.brushes.iter().any(|m| m.turned)) {
            (1, false) => "a brush moved since the level was last built",
            (_, false) => "brushes moved since the level was last built",
            (1, true) => "a brush stands elsewhere than the stored level has it (moved since the last build, or, turned or scaled, placed by this build otherwise than by the editor: the level does not tell)",
            (_, true) => "brushes stand elsewhere than the stored level has them (moved since the last build, or, those turned or scaled, placed by this build otherwise than by the editor: the level does not tell)",
        };
        writeln!(
            f,
            "  {what}: {}; built where the stored level has {}, it gives the stored level: {:.3}% matched, {:.3}% extra ({:.3}% and {:.3}% outside detail brushes)",
            names.join(", "),
            if n == 1 { "it" } else { "them" },
            r.comparison.matched_percent(),
            r.comparison.extra_percent(),
            r.on_detail.matched_outside_percent(&r.comparison),
            r.on_detail.extra_outside_percent(&r.comparison)
        )?;
        Ok(())
    }
}

impl std::fmt::Display for CsgCheck {
    /// The summary `unreal-ls info --csg` prints; names from the map one line's worth each.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use unreal_formats::printable::printable_line;
        let c = &self.comparison;
        writeln!(
            f,
            "level BSP: {} nodes, {} surfaces, {} polygons, {:.0} units²",
            self.map.nodes,
            self.map.surfs,
            self.map.engine.len(),
            c.engine_area
        )?;
        writeln!(
            f,
            "built from {} brushes ({} left out): {} polygons, {:.0} units², in {} ms",
            self.map.brushes.len(),
            self.map.left_out.len(),
            self.level.surfaces.len(),
            c.built_area,
            self.build_time.as_millis()
        )?;
        if c.engine_area <= 0.0 && c.built_area <= 0.0 {
            // Nothing on either side: a percentage of nothing would read as a perfect match.
            writeln!(f, "against the stored BSP: both are empty, nothing to compare")?;
        } else {
            writeln!(
                f,
                "against the stored BSP: {:.3}% matched, {:.3}% extra",
                c.matched_percent(),
                c.extra_percent()
            )?;
        }
        let on = &self.on_detail;
        if on.missing_area + on.extra_area >= 1.0 {
            writeln!(
                f,
                "  on detail (semisolid) brushes: {:.0} units² not built, {:.0} built and not stored; the engine keeps or drops their faces by the cells of its own BSP, which this build does not reproduce node for node (docs/csg.md, \"Detail brushes\"); elsewhere {:.3}% matched, {:.3}% extra",
                on.missing_area,
                on.extra_area,
                on.matched_outside_percent(c),
                on.extra_outside_percent(c)
            )?;
        }
        if let Some(deleted) = &self.deleted {
            deleted.write(f, c)?;
        }
        if let Some(moved) = &self.moved {
            moved.write(f)?;
        }
        if let Some(stale) = &self.stale_semisolid {
            const NAMED: usize = 5;
            let mut names: Vec<String> = stale
                .lacking
                .iter()
                .take(NAMED)
                .map(|l| format!("{} ({:.0} units²)", printable_line(&l.brush), l.area))
                .collect();
            if stale.lacking.len() > NAMED {
                names.push(format!("{} more", stale.lacking.len() - NAMED));
            }
            writeln!(
                f,
                "  the stored level lacks {:.0} units² of other brushes' faces inside {} semisolid brush{}; a semisolid brush never cuts the world, so the level was last built while {} solid (the flag set since; building the map now gives what this build does): {}; without that area: {:.3}% matched, {:.3}% extra ({:.3}% and {:.3}% outside detail brushes)",
                stale.lacking_area,
                stale.lacking.len(),
                if stale.lacking.len() == 1 { "" } else { "es" },
                if stale.lacking.len() == 1 { "it was" } else { "they were" },
                names.join(", "),
                c.matched_percent(),
                stale.extra_percent(c),
                on.matched_outside_percent(c),
                stale.extra_outside_detail_percent(c, on)
            )?;
            if let Some(solid) = &stale.as_solid {
                let names: Vec<String> =
                    solid.brushes.iter().map(|n| printable_line(n).into_owned()).collect();
                writeln!(
                    f,
                    "  built solid, {} give{} the stored level: {:.3}% matched, {:.3}% extra ({:.3}% and {:.3}% outside detail brushes)",
                    names.join(", "),
                    if names.len() == 1 { "s" } else { "" },
                    solid.comparison.matched_percent(),
                    solid.comparison.extra_percent(),
                    solid.on_detail.matched_outside_percent(&solid.comparison),
                    solid.on_detail.extra_outside_percent(&solid.comparison)
                )?;
            }
        }
        for d in c.missing.iter().take(5).filter(|d| d.area >= 1.0) {
            writeln!(
                f,
                "  not built: {:.0} units² of {} ({})",
                d.area,
                printable_line(&d.source),
                printable_line(&d.texture)
            )?;
        }
        for d in c.extra.iter().take(5).filter(|d| d.area >= 1.0) {
            writeln!(
                f,
                "  built, not stored: {:.0} units² of {} ({})",
                d.area,
                printable_line(&d.source),
                printable_line(&d.texture)
            )?;
        }
        Ok(())
    }
}

/// The level a built map stores (its `Level`'s `Model`, as UnrealEd last built it), for
/// drawing: one convex polygon per BSP node with vertices, and the level's other actors.
#[derive(Clone, Debug, Default)]
pub struct StoredLevel {
    /// The nodes' polygons as surfaces (named by their texture's path in the package, with
    /// the surface's own mapping: `pBase`, `vTextureU`, `vTextureV`, pans), and each one's
    /// texture as the package refers to it.
    pub level: super::BuiltLevel,
    pub textures: Vec<ObjectRef>,
    /// Every actor of the level that holds no brush, in the level's order, and the movers that
    /// draw a static mesh.
    pub actors: Vec<StoredActor>,
    /// The movers drawn with their brush, placed where the map stores them, their faces named
    /// by their texture's path as the surfaces are.
    pub movers: Vec<CsgBrush>,
    /// The textures of the movers' faces as the package refers to them (for each path once).
    pub mover_textures: Vec<ObjectRef>,
    /// Movers whose brush could not be read, with why.
    pub unread_movers: Vec<String>,
    pub nodes: usize,
    pub surfs: usize,
}

/// An actor of a built map, with what a drawing of the level places and lights it by.
#[derive(Clone, Debug, PartialEq)]
pub struct StoredActor {
    pub name: String,
    pub class: String,
    /// `Location` (the origin when the actor stores none: at its class's default).
    pub location: V3,
    /// `LightHue`, `LightSaturation`, `LightBrightness`, `LightRadius` where stored (absent
    /// ones are at the class's default).
    pub light_properties: [Option<f64>; 4],
    /// What places and draws its mesh, where stored.
    pub drawing: StoredDrawing,
}

/// The properties of a built map's actor that say how it is drawn (`None`: not stored, at the
/// class's default).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StoredDrawing {
    /// `DrawType` (`EDrawType`: 8 is `DT_StaticMesh`).
    pub draw_type: Option<u8>,
    /// `StaticMesh`, an object of the map or an import.
    pub static_mesh: Option<ObjectRef>,
    /// `Mesh` (drawn with `DT_Mesh`).
    pub mesh: Option<ObjectRef>,
    pub rotation: Option<[i32; 3]>,
    pub draw_scale: Option<f64>,
    pub draw_scale_3d: Option<V3>,
    pub pre_pivot: Option<V3>,
    /// `Skins`, by section (a null reference where a section keeps the mesh's material).
    pub skins: Vec<ObjectRef>,
    /// UE1's `MultiSkins`, by texture slot (null where unset), and `Skin`.
    pub multi_skins: Vec<ObjectRef>,
    pub skin: Option<ObjectRef>,
    /// `CollisionRadius` and `CollisionHeight`.
    pub collision: [Option<f64>; 2],
    /// `bHidden`.
    pub hidden: Option<bool>,
}

impl StoredDrawing {
    fn read(props: &[Property]) -> Self {
        let float = |name: &str| match property(props, name) {
            Some(PropertyValue::Float(f)) => Some(f64::from(*f)),
            _ => None,
        };
        Self {
            draw_type: int_of(property(props, "DrawType")).and_then(|n| u8::try_from(n).ok()),
            static_mesh: match property(props, "StaticMesh") {
                Some(PropertyValue::Object(r)) => Some(*r),
                _ => None,
            },
            mesh: match property(props, "Mesh") {
                Some(PropertyValue::Object(r)) => Some(*r),
                _ => None,
            },
            rotation: rotator_of(property(props, "Rotation")),
            draw_scale: float("DrawScale"),
            draw_scale_3d: vector_of(property(props, "DrawScale3D")),
            pre_pivot: vector_of(property(props, "PrePivot")),
            skins: match property(props, "Skins") {
                Some(PropertyValue::Raw { bytes, .. }) => object_array(bytes),
                _ => Vec::new(),
            },
            multi_skins: {
                let mut slots = Vec::new();
                for p in props.iter().filter(|p| p.name.eq_ignore_ascii_case("MultiSkins")) {
                    let (PropertyValue::Object(r), Ok(slot)) =
                        (&p.value, usize::try_from(p.array_index))
                    else {
                        continue;
                    };
                    // `MultiSkins` has 8 slots (UT v432 `Actor.uc`).
                    if slot < 8 {
                        if slots.len() <= slot {
                            slots.resize(slot + 1, ObjectRef(0));
                        }
                        slots[slot] = *r;
                    }
                }
                slots
            },
            skin: match property(props, "Skin") {
                Some(PropertyValue::Object(r)) => Some(*r),
                _ => None,
            },
            collision: [float("CollisionRadius"), float("CollisionHeight")],
            hidden: match property(props, "bHidden") {
                Some(PropertyValue::Bool(hidden)) => Some(*hidden),
                _ => None,
            },
        }
    }
}

/// A dynamic array of object references as a property stores it: a compact count, then each
/// reference as a compact index. Empty when the bytes are not exactly that.
fn object_array(bytes: &[u8]) -> Vec<ObjectRef> {
    let mut r = unreal_formats::reader::Reader::new(bytes, 0, "an array of objects");
    let Ok(count) = r.compact_index("count") else { return Vec::new() };
    let Ok(count) = usize::try_from(count) else { return Vec::new() };
    // Each element takes at least a byte.
    if count > r.remaining() {
        return Vec::new();
    }
    let mut out = Vec::with_capacity(count);
    for _ in 0..count {
        let Ok(index) = r.compact_index("element") else { return Vec::new() };
        out.push(ObjectRef(index));
    }
    if r.is_at_end() {
        out
    } else {
        Vec::new()
    }
}

/// Reads the level a built map stores (see [`StoredLevel`]); an actor whose properties
/// cannot be read is left out, the level's model must read.
pub fn read_stored_level(p: &Package<'_>) -> Result<StoredLevel, unreal_formats::Error> {
    let level = p.read_level(level_export(p)?)?;
    let mut stored = StoredLevel::default();
    for actor in level.actors.iter().filter_map(|&a| export_of(a)) {
        let Ok(header) = p.read_object_header(actor) else { continue };
        let props = &header.properties;
        if let Some(PropertyValue::Object(brush)) = property(props, "Brush") {
            if brush.0 != 0 {
                let class = p.class_name(actor);
                let drawing = StoredDrawing::read(props);
                let draws_mesh =
                    drawing.draw_type == Some(8) && drawing.static_mesh.is_some_and(|m| m.0 != 0);
                if !super::is_mover_class(class) {
                    continue;
                }
                if !draws_mesh {
                    let name = p.export_name(actor).to_owned();
                    match export_of(*brush).map(|model| placed_polys(p, props, model)) {
                        Some(Ok(polys)) => {
                            // Named by path as the surfaces are: a mover's face and a surface
                            // of one texture are one material, found in one place.
                            let polys = polys
                                .into_iter()
                                .map(|(mut poly, texture)| {
                                    poly.texture = p.ref_path(texture);
                                    if !stored.mover_textures.contains(&texture) {
                                        stored.mover_textures.push(texture);
                                    }
                                    poly
                                })
                                .collect();
                            stored.movers.push(CsgBrush {
                                name,
                                oper: super::Oper::Add,
                                poly_flags: 0,
                                polys,
                            });
                        }
                        Some(Err(e)) => stored.unread_movers.push(format!("{name}: {e}")),
                        None => stored
                            .unread_movers
                            .push(format!("{name}: its brush is not in the map")),
                    }
                    continue;
                }
            }
        }
        let number = |name: &str| int_of(property(props, name)).map(|n| n as f64);
        stored.actors.push(StoredActor {
            name: p.export_name(actor).to_owned(),
            class: p.class_name(actor).to_owned(),
            location: vector_of(property(props, "Location")).unwrap_or_default(),
            light_properties: [
                number("LightHue"),
                number("LightSaturation"),
                number("LightBrightness"),
                number("LightRadius"),
            ],
            drawing: StoredDrawing::read(props),
        });
    }
    let model = export_of(level.model).ok_or_else(|| {
        unreal_formats::Error::new("Level", 0, "the level's Model to be an object of the map")
    })?;
    let model = p.read_model(model)?;
    stored.nodes = model.nodes.len();
    stored.surfs = model.surfs.len();
    for polygon in engine_polygons(p, &model) {
        stored.level.surfaces.push(super::Surface {
            vertices: polygon.vertices,
            normal: polygon.normal,
            base: polygon.base,
            texture: polygon.texture,
            poly_flags: polygon.poly_flags,
            mapping: polygon.mapping,
            brush: 0,
            brush_poly: 0,
            source: None,
        });
    }
    // In the order `engine_polygons` keeps them: nodes with a polygon and a surface.
    stored.textures = (0..model.nodes.len())
        .filter(|&i| model.node_polygon(i).len() >= 3)
        .filter_map(|i| model.node_surf(i).map(|s| s.texture))
        .collect();
    // Named by path, not bare name: two packages may hold textures of one name.
    for (surface, &texture) in stored.level.surfaces.iter_mut().zip(&stored.textures) {
        surface.texture = p.ref_path(texture);
    }
    Ok(stored)
}
