//! The level as UnrealEd builds it from its brushes (`csgRebuild`, UT v400's
//! `Editor/Src/UnEdCsg.cpp`): the world starts solid, the static brushes are applied in the
//! level's order, first the structural ones (every brush that is not a semisolid addition;
//! portals are made non-solid for this), then the semisolid additions ("detail"), each by
//! `bspBrushCSG` ([`bsp`]). The result is the level's surfaces: convex polygons with their
//! texture, flags and plane, the brush polygon's texture mapping, and which brush polygon
//! each came from.
//!
//! Which brushes take part ([`takes_part`]): an actor of class `Brush` with a model,
//! `bStatic` (the class's default), a `CsgOper` of `CSG_Add` or `CSG_Subtract` (the builder
//! brush is `CSG_Active`; intersect and deintersect rewrite the brush itself, not the level).
//! Movers are not static; volumes (UE2) are not `Brush` actors (`IsStaticBrush`: 227's
//! `Engine/Inc/UnActor.h` requires the class `Brush` itself, UT2004's excludes volumes).
//!
//! Inputs: a T3D map ([`brushes_of_t3d`], placed as [`unreal_analysis::t3d::brushes::placed_brushes`]
//! places them) or a built `.unr` ([`package`]: its brush actors, models and polygons, with
//! the level's own BSP to compare with, [`compare`]).

pub mod bsp;
pub mod compare;
pub mod package;
pub mod uv;

use bsp::{
    calc_normal, BrushInput, Bsp, EdPoly, Oper, Surf, PF_NOT_SOLID, PF_PORTAL, PF_SEMISOLID,
};

pub type V3 = [f64; 3];

/// Whether a brush is a detail brush, composed after the others: a semisolid addition that
/// is not a zone portal (`csgRebuild`).
pub fn is_detail(oper: Oper, actor_flags: u32) -> bool {
    oper == Oper::Add && actor_flags & PF_SEMISOLID != 0 && actor_flags & PF_PORTAL == 0
}

/// The BSP `bspBrushCSG` builds of a brush to filter the world through
/// ([`BrushInput::own_tree`]), of the brush as if solid: what it would take from the world.
/// `None` when building it takes more than `budget` steps ([`Bsp::build`]).
pub fn solid_bsp_of(brush: &CsgBrush, budget: usize) -> Option<Bsp> {
    let (mut input, _) = brush_input(0, brush);
    input.actor_flags &= !(PF_SEMISOLID | PF_NOT_SOLID);
    input.own_tree(budget)
}

/// Brush `b` of the build as [`bsp::brush_csg`] takes it: its polygons with their planes, each
/// with a surface of its own, their links (which surface a linked polygon's nodes share is
/// decided as the world is built), and how many polygons were left out for having no area.
fn brush_input(b: usize, brush: &CsgBrush) -> (BrushInput, usize) {
    let mut input = BrushInput {
        polys: Vec::new(),
        surfs: Vec::new(),
        // A link outside the brush is read as none (the engine's `check` refuses it).
        links: (0..brush.polys.len())
            .map(|i| brush.polys[i].link.filter(|&l| l < brush.polys.len()).unwrap_or(i))
            .collect(),
        oper: brush.oper,
        actor_flags: brush.poly_flags,
    };
    let mut degenerate = 0;
    for (i, p) in brush.polys.iter().enumerate() {
        let Some(normal) = calc_normal(&p.vertices) else {
            degenerate += 1;
            continue;
        };
        let base = p.vertices[0];
        input.surfs.push(Surf { base, normal, flags: p.poly_flags, brush: b, brush_poly: i });
        input.polys.push(EdPoly {
            vertices: p.vertices.clone(),
            normal,
            base,
            flags: p.poly_flags,
            surf: input.surfs.len() - 1,
        });
    }
    (input, degenerate)
}

/// A brush's polygon in the world, as the map gives it.
#[derive(Clone, Debug, PartialEq)]
pub struct BrushPoly {
    /// In the engine's order (its `FPoly::CalcNormal` normal faces out of the brush).
    pub vertices: Vec<V3>,
    pub texture: String,
    pub poly_flags: u32,
    /// Its texture mapping in the world, when the map gives one.
    pub mapping: Option<TextureMapping>,
    /// Where its `Begin Polygon` starts in the T3D text (a byte offset); `None` for a built
    /// map's polygons, which have no text.
    pub source: Option<u32>,
    /// `iLink`: an earlier polygon of the brush whose world surface this one shares
    /// (`bspBrushCSG` gives a polygon a surface of its own only when it links to itself).
    pub link: Option<usize>,
}

/// How a polygon's texture lies on it (`Base`, `TextureU`, `TextureV`, `PanU`, `PanV`), in
/// the world: what the built surfaces carry over for texture coordinates.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct TextureMapping {
    pub base: V3,
    pub texture_u: V3,
    pub texture_v: V3,
    pub pan: [i16; 2],
}

/// A brush that takes part in CSG, placed in the world.
#[derive(Clone, Debug, PartialEq)]
pub struct CsgBrush {
    pub name: String,
    pub oper: Oper,
    /// The actor's `PolyFlags`.
    pub poly_flags: u32,
    pub polys: Vec<BrushPoly>,
}

/// One convex polygon of the built level.
#[derive(Clone, Debug, PartialEq)]
pub struct Surface {
    pub vertices: Vec<V3>,
    /// The surface's plane: its normal and a point on it (`pBase`).
    pub normal: V3,
    pub base: V3,
    pub texture: String,
    pub poly_flags: u32,
    /// The brush polygon's texture mapping, carried over.
    pub mapping: Option<TextureMapping>,
    /// Which brush (index into the input) and which of its polygons.
    pub brush: usize,
    pub brush_poly: usize,
    /// That polygon's `Begin Polygon` in the T3D text ([`BrushPoly::source`]).
    pub source: Option<u32>,
}

/// The built level.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BuiltLevel {
    pub surfaces: Vec<Surface>,
    /// Brushes applied, and polygons left out for having no area.
    pub brushes: usize,
    pub degenerate_polys: usize,
    /// Set when the build stopped before its end (the level so far is in `surfaces`).
    pub stopped: Option<CsgStopped>,
    /// The BSP nodes the build visited (filters, walks, cleanups): what its time grows with,
    /// the same on every machine.
    pub work: usize,
}

/// The world's nodes a build may always reach, and how many more it may reach per brush
/// polygon, before it stops. Built levels hold 1.6 to 2.5 nodes per brush polygon (the
/// corpus' UT99, UT2004, SWAT 4, Tribes and XIII maps); brushes nested inside one another
/// with their faces wound both ways split each other without end (150 such cubes made
/// 394,025 surfaces in 37 s): past this the work is not a level anyone built.
const NODES_ALWAYS_ALLOWED: usize = 20_000;
const NODES_PER_POLYGON: usize = 32;

/// The work ([`BuiltLevel::work`]) a build may always do, and how much more per brush
/// polygon, before it stops. Built levels take 3 to 393 node visits a brush polygon (the
/// corpus' and the other real maps of `docs/csg.md`: 1HH-TestBox-Large's nine large brushes
/// the most, DM-Liandri 209; generated maps up to 110, grids of 8,000 rooms 412 and 559); a
/// tree grows deep enough to pass this only when brushes lie nested in one another or lined
/// up by the thousand, each filtered down through all the others (1,000 nested cubes take 32
/// million visits, 5,381 a polygon). 20 million visits are about half a second.
const WORK_ALWAYS_ALLOWED: usize = 20_000_000;
const WORK_PER_POLYGON: usize = 2_048;

/// How far a build may go ([`build_limited`]): the world's BSP nodes and the node visits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    pub nodes: usize,
    pub work: usize,
}

impl Limits {
    /// The bounds for these brushes: 20,000 nodes and 32 a brush polygon, 20 million
    /// visits and 2,048 a brush polygon.
    pub fn for_brushes(brushes: &[CsgBrush]) -> Limits {
        let polygons = polygon_count(brushes);
        Limits {
            nodes: NODES_ALWAYS_ALLOWED.saturating_add(NODES_PER_POLYGON.saturating_mul(polygons)),
            work: WORK_ALWAYS_ALLOWED.saturating_add(WORK_PER_POLYGON.saturating_mul(polygons)),
        }
    }
}

/// Why a CSG build stopped: the brush whose cuts passed the size bound or the work bound.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CsgStopped {
    pub brush: String,
    pub nodes: usize,
    pub polygons: usize,
    /// The bound on nodes.
    pub limit: usize,
    /// The node visits so far ([`BuiltLevel::work`]) and their bound: stopped for its work
    /// when `work` passed `work_limit`.
    pub work: usize,
    pub work_limit: usize,
    /// Stopped because the caller asked to, not for its size.
    pub cancelled: bool,
}

impl std::fmt::Display for CsgStopped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.cancelled {
            return write!(
                f,
                "the level's build was stopped at brush `{}`: its answer was no longer wanted",
                unreal_formats::printable::printable_line(&self.brush)
            );
        }
        if self.work > self.work_limit && self.nodes <= self.limit {
            return write!(
                f,
                "the level's build stopped at brush `{}`: it had visited {} BSP nodes for {} brush polygons, past the bound of {} (20 million and 2,048 a polygon; built levels take 3 to 393 a polygon): each brush is filtered down through the ones it lies in, so brushes nested in one another or lined up by the thousand make a tree too deep to build; see what overlaps near that brush",
                unreal_formats::printable::printable_line(&self.brush),
                self.work,
                self.polygons,
                self.work_limit
            );
        }
        write!(
            f,
            "the level's build stopped at brush `{}`: its cuts made {} BSP nodes from {} brush polygons, past the bound of {} (20,000 and 32 a polygon; built levels hold 1.6 to 2.5 a polygon): brushes nested in one another, or with faces wound both ways, split each other without end; see what overlaps near that brush",
            unreal_formats::printable::printable_line(&self.brush),
            self.nodes,
            self.polygons,
            self.limit
        )
    }
}

impl BuiltLevel {
    pub fn area(&self) -> f64 {
        self.surfaces.iter().map(|s| polygon_area(&s.vertices)).sum()
    }
}

/// The area of a planar polygon.
pub fn polygon_area(v: &[V3]) -> f64 {
    let Some(&first) = v.first() else { return 0.0 };
    let mut n = [0.0; 3];
    for pair in v.get(1..).unwrap_or_default().windows(2) {
        n = bsp::add(n, bsp::cross(bsp::sub(pair[0], first), bsp::sub(pair[1], first)));
    }
    bsp::dot(n, n).sqrt() / 2.0
}

/// Whether a brush actor takes part in CSG (see the module's notes): `class` as written,
/// `csg_oper` as its `CsgOper` word or number, `b_static` when the actor sets it.
pub fn takes_part(class: &str, csg_oper: &str, b_static: Option<bool>, has_model: bool) -> bool {
    has_model
        && class.rsplit('.').next().unwrap_or(class).eq_ignore_ascii_case("Brush")
        && b_static.unwrap_or(true)
        && oper_of(csg_oper).is_some()
}

/// `CSG_Add` / `CSG_Subtract` (or 1 / 2), anything else none.
pub fn oper_of(csg_oper: &str) -> Option<Oper> {
    match csg_oper.trim().to_ascii_uppercase().as_str() {
        "CSG_ADD" | "1" => Some(Oper::Add),
        "CSG_SUBTRACT" | "2" => Some(Oper::Subtract),
        _ => None,
    }
}

/// Builds the level from brushes that take part, in the level's order (`root_outside`:
/// false for a level, whose world starts solid).
pub fn build(brushes: &[CsgBrush], root_outside: bool) -> BuiltLevel {
    build_until(brushes, root_outside, &|| false)
}

/// [`build`], stopping between two brushes when `stop` says so (the map changed, the
/// request was cancelled): [`CsgStopped::cancelled`].
pub fn build_until(
    brushes: &[CsgBrush],
    root_outside: bool,
    stop: &dyn Fn() -> bool,
) -> BuiltLevel {
    build_limited(brushes, root_outside, Limits::for_brushes(brushes), stop)
}

/// The polygons the brushes give, degenerate ones too: what the size bound is counted from.
fn polygon_count(brushes: &[CsgBrush]) -> usize {
    brushes.iter().map(|b| b.polys.len()).sum()
}

/// [`build`], stopping once the world holds more than `limit` nodes ([`CsgStopped`]), or
/// between two brushes when `stop` says so; the work bound is that of
/// [`Limits::for_brushes`].
pub fn build_bounded(
    brushes: &[CsgBrush],
    root_outside: bool,
    limit: usize,
    stop: &dyn Fn() -> bool,
) -> BuiltLevel {
    let limits = Limits { nodes: limit, ..Limits::for_brushes(brushes) };
    build_limited(brushes, root_outside, limits, stop)
}

/// [`build`], stopping once the world holds more than `limits.nodes` nodes or the build has
/// visited more than `limits.work` ([`CsgStopped`]; a brush that passes the work bound is
/// left part-way), or between two brushes when `stop` says so.
pub fn build_limited(
    brushes: &[CsgBrush],
    root_outside: bool,
    limits: Limits,
    stop: &dyn Fn() -> bool,
) -> BuiltLevel {
    let Limits { nodes: limit, work: work_limit } = limits;
    let mut world = Bsp::new(root_outside);
    let mut degenerate = 0;
    let mut inputs: Vec<(usize, BrushInput)> = Vec::new();
    for (b, brush) in brushes.iter().enumerate() {
        let (input, left_out) = brush_input(b, brush);
        degenerate += left_out;
        inputs.push((b, input));
    }
    let structural = |input: &BrushInput| !is_detail(input.oper, input.actor_flags);
    let polygons = polygon_count(brushes);
    let mut stopped = None;
    let too_big = |world: &Bsp, brush: usize| {
        let cancelled = stop();
        let work = world.steps();
        (cancelled || world.nodes.len() > limit || work > work_limit).then(|| CsgStopped {
            brush: brushes.get(brush).map(|b| b.name.clone()).unwrap_or_default(),
            nodes: world.nodes.len(),
            polygons,
            limit,
            work,
            work_limit,
            cancelled,
        })
    };
    for (b, input) in inputs.iter_mut().filter(|(_, i)| structural(i)) {
        // Portals cut as non-solid brushes.
        if input.actor_flags & PF_PORTAL != 0 {
            input.actor_flags = (input.actor_flags & !PF_SEMISOLID) | PF_NOT_SOLID;
        }
        bsp::brush_csg(&mut world, input, work_limit);
        stopped = too_big(&world, *b);
        if stopped.is_some() {
            break;
        }
    }
    if stopped.is_none() {
        // The structural BSP is built anew before the detail brushes go through it.
        // Past the bounds it stops part-way: the build stops at the first detail brush (or the
        // last brush, without one).
        world.repartition(work_limit);
        let next = inputs.iter().find(|(_, i)| !structural(i)).or(inputs.last());
        if let Some((at, _)) = next {
            stopped = too_big(&world, *at);
        }
    }
    if stopped.is_none() {
        for (b, input) in inputs.iter().filter(|(_, i)| !structural(i)) {
            bsp::brush_csg(&mut world, input, work_limit);
            stopped = too_big(&world, *b);
            if stopped.is_some() {
                break;
            }
        }
    }

    let surfaces = world
        .reachable()
        .into_iter()
        .filter_map(|i| {
            let n = world.nodes.get(i)?;
            if n.vertices.len() < 3 {
                return None;
            }
            let s = world.surfs.get(n.surf)?;
            let poly = brushes.get(s.brush)?.polys.get(s.brush_poly);
            Some(Surface {
                vertices: n.vertices.clone(),
                normal: s.normal,
                base: s.base,
                texture: poly.map(|p| p.texture.clone()).unwrap_or_default(),
                mapping: poly.and_then(|p| p.mapping),
                poly_flags: s.flags,
                brush: s.brush,
                brush_poly: s.brush_poly,
                source: poly.and_then(|p| p.source),
            })
        })
        .collect();
    BuiltLevel {
        surfaces,
        brushes: inputs.len(),
        degenerate_polys: degenerate,
        stopped,
        work: world.steps(),
    }
}

/// The brushes of a T3D map that take part in CSG, placed as the generation's CSG places them
/// (`None`: detected from the text).
pub fn brushes_of_t3d(
    text: &str,
    generation: Option<unreal_analysis::Generation>,
) -> Vec<CsgBrush> {
    level_brushes_of_t3d(text, generation).0
}

/// The brushes of a T3D map that take part in the level ([`brushes_of_t3d`]), and its movers:
/// the brushes of actors whose class is a mover (`Mover`, `ElevatorMover`...: its name ends
/// in `Mover`), placed where the map stores them (the editor leaves a mover at the key it
/// last showed; the game starts it at `KeyNum`, which a saved map holds too), for drawing
/// beside the level: movers take no part in CSG.
pub fn level_brushes_of_t3d(
    text: &str,
    generation: Option<unreal_analysis::Generation>,
) -> (Vec<CsgBrush>, Vec<CsgBrush>) {
    let (placed, _) = unreal_analysis::t3d::brushes::placed_brushes(text, generation);
    let mut brushes = Vec::new();
    let mut movers = Vec::new();
    for b in placed {
        let is_mover = is_mover_class(&b.class);
        let takes_part = takes_part(&b.class, &b.csg_oper, b.b_static, true);
        if !is_mover && !takes_part {
            continue;
        }
        let oper = if is_mover { Some(Oper::Add) } else { oper_of(&b.csg_oper) };
        let Some(oper) = oper else { continue };
        let polys = b
            .polygons
            .into_iter()
            .zip(b.poly_attributes)
            .map(|(vertices, a)| {
                // As the T3D import finishes a polygon: the base is the first vertex when
                // no `Origin` is given, and axes both zero are generated.
                let mut texture_u = a.texture_u.unwrap_or_default();
                let mut texture_v = a.texture_v.unwrap_or_default();
                let is_zero = |v: V3| v.iter().all(|c| *c == 0.0);
                if is_zero(texture_u) && is_zero(texture_v) {
                    (texture_u, texture_v) =
                        uv::generated_axes(&vertices).unwrap_or((texture_u, texture_v));
                }
                let base = a.origin.or_else(|| vertices.first().copied()).unwrap_or_default();
                BrushPoly {
                    texture: a.texture,
                    poly_flags: a.flags,
                    mapping: Some(TextureMapping { base, texture_u, texture_v, pan: a.pan }),
                    source: Some(a.begin_span.start),
                    link: a.link,
                    vertices,
                }
            })
            .collect();
        let brush = CsgBrush { name: b.name, oper, poly_flags: b.poly_flags as u32, polys };
        if is_mover {
            movers.push(brush);
        } else {
            brushes.push(brush);
        }
    }
    (brushes, movers)
}

/// Whether actors of `class` are movers: `Mover` and the stock kinds (`ElevatorMover`,
/// `AssertMover`, `RotatingMover`...), whose names all end in `Mover`.
pub fn is_mover_class(class: &str) -> bool {
    let short = class.rsplit('.').next().unwrap_or(class);
    short.len() >= 5
        && short.get(short.len() - 5..).is_some_and(|end| end.eq_ignore_ascii_case("mover"))
}
