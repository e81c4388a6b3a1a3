//! `t3d-beyond-world-edge`: a brush, a polygon's texture origin or an actor beyond the edge of
//! the world UnrealEd builds: the box of ±32,768 units (UE1) or ±262,144 (UE2) that its BSP
//! build starts from. The part of the level beyond it gets no collision hull.

use std::fmt::Write as _;

use unreal_syntax::t3d::{Block, BlockKind, LineKeyword, VectorLine};
use unreal_syntax::Span;

use super::actor_values::actor_value;
use super::map_facts::bare_class;
use super::{RuleMeta, T3dContext};
use crate::t3d::actors::{csg_operation, holds_brush, imported_brush};
use crate::t3d::geometry::{polygon_normal, Vec3, THRESH_SPLIT};
use crate::t3d::placement::{Placement, Transform};
use crate::{Diagnostic, Game, Generation, Severity};

pub static RULE: RuleMeta = RuleMeta {
    code: "t3d-beyond-world-edge",
    severity: Severity::Warning,
    summary: "a brush, texture origin or actor beyond the world's edge (UE1 ±32,768, UE2 ±262,144): no collision hull there",
    docs: DOCS,
    ..RuleMeta::T3D_LOCAL
};

/// The rule's documentation: its `docs/rules.md` section after the `Severity:` lead.
const DOCS: &str = r#"Something of the map lies beyond the world's edge: a point farther than
32,768 units from the origin along an axis in UE1, 262,144 in UE2. UnrealEd builds the
level's collision hulls and render bounds by filtering a box of exactly that size down the
BSP (`bspBuildBounds`, after every rebuild); a solid leaf the box never reaches gets no hull,
and a hull's extent stops at the box. The engine's collision of anything with a size
(players, bots, most projectiles) clips against those hulls, so walls and floors beyond the
edge do not stop it (a trace without a size, a hitscan shot, still hits them). That is
UT2004's collision code; UE1's is not public, but OldUnreal UT issue 1509 shows a surface
whose hulls miss its face turn non-solid there too. One finding
per actor, at its farthest point:

- A subtractive brush (`CsgOper=CSG_Subtract`) with a vertex beyond the edge, placed as CSG
  places it (`PrePivot`, `MainScale`, `Rotation`, `PostScale`, `Location` in UE1; UE2
  exports carry the editor's baked vertices): the space it carves there has walls players
  pass through, into solid space where the engine kills them as fallen out of the world. A
  warning.
- An additive brush (or another CSG operation) with a vertex beyond the edge: an info. The
  world starts solid (a map import makes a level whose root is inside), so CSG builds
  nothing of it beyond the edge unless a subtractive brush carved space there, which this
  rule then reports.
- UE1 only: a polygon's texture origin (`Origin`, placed like the vertices) beyond the edge
  on a brush whose vertices are all inside. UE1's `bspBuildBounds` splits the box at each
  surface with the plane through its origin and closes the halves with a square of
  ±65,536 around that origin (`BuildInfiniteFPoly`); when that plane or square does not
  reach across the world's box, the hulls next to the surface miss its face and the surface
  can turn non-solid (OldUnreal UT issue 1509: "Poly goes be non-solid if origin of it goes
  outside map boundaries"). Only an origin whose square misses part of the box is reported;
  for a surface along the world's axes that is every origin beyond the edge. A warning for
  Unreal and UT up to v469d; UT v469e fixed it ("backport from Unreal 227"), so under
  `game = "ut469"` (469a to 469f) and `"unreal227"` it is an info. UE2 builds the square
  around the plane's point nearest the world's centre instead, so its origins are not
  judged.
- Any other actor whose `Location` is beyond the edge. In UE2 an actor that collides
  (`bCollideActors`) is left out of the collision octree when its collision box lies wholly
  beyond the edge ("Octree Warning (AddActor): ... Outside World."): nothing touches, bumps
  into or traces it. That is a warning when the actor's own lines or its class's defaults
  (from the package index) show it collides with its cylinder (no `Mesh` and no
  `StaticMesh`, or a static mesh with `bUseCylinderCollision`) and the cylinder's box
  (`CollisionRadius`, `CollisionHeight`, one unit more, and the octree's 4.2) lies wholly
  beyond; an info otherwise (a volume, mover, mesh or static mesh collides with its own
  box; a class that cannot be read; an actor that does not collide). In UE1 it is an info:
  UE1's engine source is not public.

Neither `ULevel::SpawnActor`, `FarMoveActor`, the T3D import nor UT2004's map check
(`CheckForErrors`) looks at coordinates: nothing is moved, clipped, destroyed or reported
when the map loads. The builder brush is never built (and UT2004's brush moves keep it
within ±262,143, `HALF_WORLD_MAX1`). A point within 0.25 unit of the edge (`THRESH_SPLIT_POLY_WITH_PLANE`) counts as
on it. When the generation is not known, only what lies beyond both edges (262,144) is
judged, and an origin not at all. Under a licensee's game (Deus Ex, Rune, SWAT 4, Tribes:
Vengeance, XIII...) a finding is an info: its build's constants are not public.

Engine basis: UT v400 `Editor/Src/UnVisi.cpp:2040-2119` (`bspBuildBounds`, the box of
±32,768), `:1912-1942` (`FilterBound` splits at the plane through `Surf.pBase`), `:1851-1905`
(`SplitPartitioner` drops the square when it misses the hull, "infifront"), `:2129-2151`
(`BuildInfiniteFPoly`, `WORLD_MAX` 65,536 at `:20`), `Editor/Src/UnBsp.cpp:216` (`pBase` is
the polygon's `Base`, which the import reads from `Origin`, `Editor/Src/UnEdFact.cpp:744-768`),
`Editor/Src/UnEdCsg.cpp:209` (the rebuild ends with `bspBuildBounds`); Unreal v1.200
`Editor/Src/UnVisi.cpp:1819` (the same box). UT2004 `Engine/Inc/Engine.h:57-59`
(`WORLD_MAX`, `HALF_WORLD_MAX`), `Editor/Src/UnVisi.cpp:1987-2060` (the box of
±`HALF_WORLD_MAX`), `:1856-1869` and `:2076-2082` (the plane's point replaces `pBase`,
"OLD: HIDEOUS BUG"), `Engine/Src/UnTrace.cpp:118-140`, `:183-191`, `:291` and `:582` (box
collision only in a leaf with a hull, within the hull's extent), `Engine/Src/UnOctree.cpp:1421-1434`
(the octree leaves out an actor outside the world), `Engine/Src/UnActor.cpp:2234-2243`,
`Engine/Src/UnPrim.cpp:44-50` and `Engine/Src/UnStaticMeshCollision.cpp:26-37` (the actor's
collision box), `Engine/Src/UnPhysic.cpp:329-333` (an actor in solid space, zone 0,
falls out of the world), `Editor/Src/UnEdSrv.cpp:3019` (a map import makes
`ULevel(this, 0)`: a solid world), `Editor/Src/UnEdSrv.cpp:2107` (the builder brush kept
within `HALF_WORLD_MAX1`). UT v469 `ReleaseNotes.md:493` (469e).

```t3d
Begin Actor Class=Brush Name=Brush12
    CsgOper=CSG_Subtract
    Location=(X=262100.000000,Y=0.000000,Z=0.000000)
    Begin Brush Name=Model13
       Begin PolyList
          Begin Polygon
             Origin   +00128.000000,-00128.000000,-00128.000000
             Vertex   +00128.000000,-00128.000000,-00128.000000
             Vertex   +00128.000000,+00128.000000,-00128.000000
             Vertex   +00128.000000,+00128.000000,+00128.000000
             Vertex   +00128.000000,-00128.000000,+00128.000000
          End Polygon
       End PolyList
    End Brush
    Brush=Model'myLevel.Model13'
End Actor
```

Fix: move the map (select all, move) or the brush back inside the edge; in UE1, align the
texture (which sets the origin anew) or move the origin near the surface.

```t3d fixed
Begin Actor Class=Brush Name=Brush12
    CsgOper=CSG_Subtract
    Location=(X=0.000000,Y=0.000000,Z=0.000000)
    Begin Brush Name=Model13
       Begin PolyList
          Begin Polygon
             Origin   +00128.000000,-00128.000000,-00128.000000
             Vertex   +00128.000000,-00128.000000,-00128.000000
             Vertex   +00128.000000,+00128.000000,-00128.000000
             Vertex   +00128.000000,+00128.000000,+00128.000000
             Vertex   +00128.000000,-00128.000000,+00128.000000
          End Polygon
       End PolyList
    End Brush
    Brush=Model'myLevel.Model13'
End Actor
```"#;

/// UE1's world box: `bspBuildBounds` filters a cube of ±32,768 (UT v400
/// `Editor/Src/UnVisi.cpp:2058-2096`; Unreal v1.200 the same).
const UE1_EDGE: f64 = 32_768.0;
/// UE2's: `HALF_WORLD_MAX` (UT2004 `Engine/Inc/Engine.h:58`), the cube of
/// `Editor/Src/UnVisi.cpp:2005-2043` and the collision octree's root.
const UE2_EDGE: f64 = 262_144.0;
/// UE1's `WORLD_MAX` (UT v400 `Editor/Src/UnVisi.cpp:20`): `BuildInfiniteFPoly`'s square
/// reaches this far from the surface's origin along each of its two axes.
const UE1_INFINITE: f64 = 65_536.0;
/// `THRESH_SPLIT_POLY_WITH_PLANE`: a point this close to a plane is on it when the box is
/// split.
const ON_EDGE: f64 = THRESH_SPLIT;
/// How much UE2's collision octree grows an actor's box (UT2004 `Engine/Src/UnOctree.cpp:25`).
const ACTORBOX_EPSILON: f64 = 4.2;

pub fn check(ctx: &T3dContext<'_>, out: &mut Vec<Diagnostic>) {
    let text = ctx.text;
    // Without a known generation only what lies beyond both edges is judged.
    let edge = if ctx.generation == Some(Generation::Ue1) { UE1_EDGE } else { UE2_EDGE };
    for &(block, parent) in &ctx.blocks {
        // An actor inside another (a missing `End Actor`) has lines that are not its own.
        if block.kind != BlockKind::Actor || parent.is_some_and(|p| p.kind == BlockKind::Actor) {
            continue;
        }
        let class = block.attribute_value(text, "Class").unwrap_or_default();
        let finding = if bare_class(class).eq_ignore_ascii_case("Brush") {
            match csg_operation(block, text) {
                // The builder brush: CSG never builds it.
                None => continue,
                Some(op) if op.eq_ignore_ascii_case("CSG_Active") => continue,
                Some(op) => {
                    brush_finding(ctx, block, op.eq_ignore_ascii_case("CSG_Subtract"), edge)
                }
            }
        } else {
            actor_finding(ctx, block, class, edge)
        };
        let Some((span, severity, mut message)) = finding else { continue };
        let mut severity = severity;
        if let Some(game) = ctx.game.filter(|g| !g.is_stock()) {
            if severity > Severity::Info {
                severity = Severity::Info;
                let _ = write!(
                    message,
                    " (so Epic's editor and engine do; those of game `{}` are not public and may differ)",
                    game.name()
                );
            }
        }
        let mut diagnostic = RULE.diagnostic(span, message);
        diagnostic.severity = severity;
        out.push(diagnostic);
    }
}

/// `±32,768` or `±262,144`.
fn edge_text(edge: f64) -> &'static str {
    if edge < UE2_EDGE {
        "±32,768"
    } else {
        "±262,144"
    }
}

/// How far the point lies beyond the edge along its farthest axis (negative: inside).
fn beyond(point: [f64; 3], edge: f64) -> f64 {
    point.iter().fold(f64::NEG_INFINITY, |far, c| far.max(c.abs())) - edge
}

/// A brush CSG builds: its farthest vertex beyond the edge, else (UE1) its farthest texture
/// origin whose bounding square misses part of the world.
fn brush_finding(
    ctx: &T3dContext<'_>,
    block: &Block,
    subtractive: bool,
    edge: f64,
) -> Option<(Span, Severity, String)> {
    // A `Begin Brush` without `Name=` builds no brush at import.
    let (brush, _) = imported_brush(block, ctx.text)?;
    let transform = Placement::of_actor(ctx.text, block).transform(ctx.generation);
    let polygons = polygons_of(brush);
    let mut farthest: Option<(f64, &VectorLine, [f64; 3])> = None;
    let (mut out_count, mut total) = (0usize, 0usize);
    for polygon in &polygons {
        let vertices: Vec<&VectorLine> = polygon.vectors(LineKeyword::Vertex).collect();
        if vertices.len() < 3 {
            continue;
        }
        for line in vertices {
            total += 1;
            let point = transform.point(line.value);
            let past = beyond(point, edge);
            if past > ON_EDGE {
                out_count += 1;
            }
            if farthest.is_none_or(|(far, _, _)| past > far) {
                farthest = Some((past, line, point));
            }
        }
    }
    if let Some((past, line, point)) = farthest.filter(|(past, _, _)| *past > ON_EDGE) {
        let head = format!(
            "this brush reaches beyond the world's edge ({}): its vertex at {} lies {} units past it ({out_count} of its {total} `Vertex` lines beyond)",
            edge_text(edge),
            point_text(point),
            units(past)
        );
        return Some(if subtractive {
            (
                line.span,
                Severity::Warning,
                format!("{head}; UnrealEd's BSP build bounds the level by that box, so the space this brush carves there gets no collision hull: players and anything else with a size pass through its walls"),
            )
        } else {
            (
                line.span,
                Severity::Info,
                format!("{head}; the world starts solid, so CSG builds nothing of it there unless a subtractive brush carved space beyond the edge"),
            )
        });
    }
    if ctx.generation == Some(Generation::Ue1) {
        return origin_finding(ctx, &polygons, &transform);
    }
    None
}

/// UE1: the texture origin farthest beyond the edge among those whose `BuildInfiniteFPoly`
/// square (or plane) misses part of the world's box.
fn origin_finding(
    ctx: &T3dContext<'_>,
    polygons: &[&Block],
    transform: &Transform,
) -> Option<(Span, Severity, String)> {
    let mut farthest: Option<(f64, &VectorLine, [f64; 3])> = None;
    for polygon in polygons {
        let Some(origin) = polygon.vector(LineKeyword::Origin) else { continue };
        let vertices: Vec<Vec3> = polygon
            .vectors(LineKeyword::Vertex)
            .map(|v| Vec3::from_array(transform.point(v.value)))
            .collect();
        if vertices.len() < 3 {
            continue;
        }
        // The import computes the normal from the vertices (`FPoly::Finalize`); a polygon
        // without one is not imported.
        let Some(normal) = polygon_normal(&vertices) else { continue };
        let point = transform.point(origin.value);
        let past = beyond(point, UE1_EDGE);
        if past <= ON_EDGE || covers_world(Vec3::from_array(point), normal) {
            continue;
        }
        if farthest.is_none_or(|(far, _, _)| past > far) {
            farthest = Some((past, origin, point));
        }
    }
    let (past, line, point) = farthest?;
    let fixed = matches!(ctx.game, Some(Game::Ut469 | Game::Unreal227));
    let message = format!(
        "this polygon's texture origin lies beyond the world's edge (±32,768) at {} ({} units past it): UnrealEd builds the surface's collision hulls from the plane through its origin, closed by a square of ±65,536 around it that does not reach across the world's box, so the surface can turn non-solid (OldUnreal UT issue 1509){}",
        point_text(point),
        units(past),
        if fixed { "; UT v469e and Unreal 227 fixed this, so only their older builds do so" } else { "" }
    );
    Some((line.span, if fixed { Severity::Info } else { Severity::Warning }, message))
}

/// Whether the square `BuildInfiniteFPoly` makes around `origin` (±65,536 along the two axes
/// `FindBestAxisVectors` picks in the plane through `origin` with `normal`) holds the whole
/// section of UE1's world box by that plane: then the hulls split there are closed as for
/// an origin inside the world. A plane that misses the box splits no hull at all.
fn covers_world(origin: Vec3, normal: Vec3) -> bool {
    let (axis1, axis2) = best_axis_vectors(normal);
    let corner = |i: usize| {
        let sign = |bit: usize| if i & bit == 0 { -UE1_EDGE } else { UE1_EDGE };
        Vec3::new(sign(1), sign(2), sign(4))
    };
    let mut section = Vec::new();
    for a in 0..8 {
        for bit in [1, 2, 4] {
            let b = a | bit;
            if b == a {
                continue;
            }
            let (pa, pb) = (corner(a), corner(b));
            let (da, db) = ((pa - origin).dot(normal), (pb - origin).dot(normal));
            if (da <= 0.0 && db >= 0.0) || (da >= 0.0 && db <= 0.0) {
                // Both ends on the plane: the corner itself.
                let t = if (da - db).abs() < f64::EPSILON { 0.0 } else { da / (da - db) };
                section.push(pa + (pb - pa) * t);
            }
        }
    }
    !section.is_empty()
        && section.iter().all(|&p| {
            let d = p - origin;
            d.dot(axis1).abs() <= UE1_INFINITE + ON_EDGE
                && d.dot(axis2).abs() <= UE1_INFINITE + ON_EDGE
        })
}

/// `FVector::FindBestAxisVectors` (UT2004 `Core/Src/UnMath.cpp:68-84`; UE1's source is not
/// public): the world X axis (or Z, for a normal mostly along X or Y) with the normal taken
/// out, and its cross product with the normal.
fn best_axis_vectors(normal: Vec3) -> (Vec3, Vec3) {
    let (nx, ny, nz) = (normal.x.abs(), normal.y.abs(), normal.z.abs());
    let start =
        if nz > nx && nz > ny { Vec3::new(1.0, 0.0, 0.0) } else { Vec3::new(0.0, 0.0, 1.0) };
    let axis1 = (start - normal * start.dot(normal)).normalized().unwrap_or(start);
    (axis1, axis1.cross(normal))
}

/// An actor that is not a CSG brush: its `Location`.
fn actor_finding(
    ctx: &T3dContext<'_>,
    block: &Block,
    class: &str,
    edge: f64,
) -> Option<(Span, Severity, String)> {
    let property = block.last_property(ctx.text, "Location")?;
    let location = Placement::of_actor(ctx.text, block).location;
    let past = beyond(location, edge);
    if past <= 0.0 {
        return None;
    }
    let head = format!(
        "this `{}` stands beyond the world's edge ({}) at {}, {} units past it",
        bare_class(class),
        edge_text(edge),
        point_text(location),
        units(past)
    );
    let span = property.value.span();
    if ctx.generation != Some(Generation::Ue2) {
        let tail = if ctx.generation == Some(Generation::Ue1) {
            "UnrealEd builds no collision hull there; what UE1's engine does with an actor out there is not public"
        } else {
            "the generation is not known, so what the engine does with it cannot be told"
        };
        return Some((span, Severity::Info, format!("{head}: {tail}")));
    }
    Some(match ue2_collision(ctx, block, class, location, edge) {
        Collision::WhollyBeyond => (
            span,
            Severity::Warning,
            format!("{head}: its collision cylinder lies wholly beyond, so UT2004's collision octree leaves it out (\"Outside World\"): nothing touches, bumps into or traces it"),
        ),
        Collision::Other(why) => (
            span,
            Severity::Info,
            format!("{head}: UT2004's collision octree leaves out a colliding actor whose collision box lies wholly beyond the edge; {why}"),
        ),
    })
}

/// What UE2's collision octree does with the actor, as far as its lines and class tell.
enum Collision {
    /// It collides with a cylinder that lies wholly beyond the edge: left out.
    WhollyBeyond,
    /// Anything else, with why it is not judged further.
    Other(&'static str),
}

fn ue2_collision(
    ctx: &T3dContext<'_>,
    block: &Block,
    class: &str,
    location: [f64; 3],
    edge: f64,
) -> Collision {
    // A volume or mover collides with its brush, whose box is not the cylinder's.
    if holds_brush(block) {
        return Collision::Other("this actor collides with its brush, whose box is not judged");
    }
    match actor_value(ctx, block, class, "bCollideActors").as_bool() {
        Some(true) => {}
        Some(false) => return Collision::Other("this actor does not collide"),
        None => {
            return Collision::Other(
                "whether this actor collides cannot be told (no package index, or its class cannot be read)",
            )
        }
    }
    // The primitive the box comes from (`AActor::GetPrimitive`, UT2004
    // `Engine/Src/UnActor.cpp:2234-2243`): the mesh when one is set, else the static mesh
    // (whose box is the cylinder's only with `bUseCylinderCollision`,
    // `Engine/Src/UnStaticMeshCollision.cpp:26-37`), else the cylinder.
    let set = |key: &str| {
        actor_value(ctx, block, class, key)
            .text()
            .map(|t| !t.is_empty() && !t.eq_ignore_ascii_case("None"))
    };
    match (set("Mesh"), set("StaticMesh")) {
        (Some(true), _) => {
            return Collision::Other("this actor collides with its mesh, whose box is not judged")
        }
        (Some(false), Some(true)) => {
            if actor_value(ctx, block, class, "bUseCylinderCollision").as_bool() != Some(true) {
                return Collision::Other(
                    "this actor collides with its static mesh, whose box is not judged",
                );
            }
        }
        (Some(false), Some(false)) => {}
        _ => return Collision::Other(
            "its collision shape cannot be told (no package index, or its class cannot be read)",
        ),
    }
    let size = |key: &str| {
        actor_value(ctx, block, class, key).text().and_then(|t| t.trim().parse::<f64>().ok())
    };
    let (Some(radius), Some(height)) = (size("CollisionRadius"), size("CollisionHeight")) else {
        return Collision::Other("its collision size cannot be told");
    };
    // The cylinder's box is `Location ± (radius + 1, radius + 1, height + 1)`
    // (`UPrimitive::GetCollisionBoundingBox`, `Engine/Src/UnPrim.cpp:44-50`), grown by
    // `ACTORBOX_EPSILON` (4.2); the octree leaves it out when it lies outside the root on one
    // axis (`Engine/Src/UnOctree.cpp:1421-1434`).
    let outside = location
        .iter()
        .zip([radius, radius, height])
        .any(|(c, extent)| c.abs() - (extent.abs() + 1.0 + ACTORBOX_EPSILON) > edge);
    if outside {
        Collision::WhollyBeyond
    } else {
        Collision::Other("its collision cylinder still reaches inside")
    }
}

/// The polygons of a brush block, however deep (`Begin PolyList` inside it), in order.
fn polygons_of(brush: &Block) -> Vec<&Block> {
    let mut out = Vec::new();
    let mut stack = vec![brush];
    while let Some(block) = stack.pop() {
        for child in block.blocks().collect::<Vec<_>>().into_iter().rev() {
            if child.kind == BlockKind::Polygon {
                out.push(child);
            } else {
                stack.push(child);
            }
        }
    }
    out
}

/// `(X=270000,Y=0,Z=128)`, to a tenth of a unit; a coordinate too big for that as the
/// number it is (`1e30`), not a saturated integer.
fn point_text(p: [f64; 3]) -> String {
    let c = |v: f64| {
        if v.abs() >= HUGE {
            return format!("{v:e}");
        }
        let tenths = (v * 10.0).round() as i64;
        if tenths % 10 == 0 {
            format!("{}", tenths / 10)
        } else {
            format!("{:.1}", tenths as f64 / 10.0)
        }
    };
    format!("(X={},Y={},Z={})", c(p[0]), c(p[1]), c(p[2]))
}

/// Beyond this a coordinate or distance is shown as the number it is (`1e30`): whole units
/// with separators would be digits nobody reads, and an integer would saturate.
const HUGE: f64 = 1e12;

/// A distance in whole units with thousands separated (`7,856`), at least `1`.
fn units(d: f64) -> String {
    if d >= HUGE {
        return format!("{d:e}");
    }
    let whole = d.ceil().max(1.0) as u64;
    let digits = whole.to_string();
    let mut out = String::new();
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{covers_world, point_text, units, Vec3};

    #[test]
    fn the_square_covers_the_world_only_from_an_origin_near_it() {
        let up = Vec3::new(0.0, 0.0, 1.0);
        // A floor's origin inside the world, and one just beyond its edge along X.
        assert!(covers_world(Vec3::new(32_000.0, -32_000.0, 0.0), up));
        assert!(!covers_world(Vec3::new(33_000.0, 0.0, 0.0), up));
        // Beyond along the normal: the plane through the origin misses the world.
        assert!(!covers_world(Vec3::new(0.0, 0.0, 40_000.0), up));
        // A plane cutting off a corner of the world: an origin on it beyond the edge still
        // has the whole (small) section within its square.
        let n = Vec3::new(1.0, 1.0, 1.0).normalized().unwrap_or(up);
        assert!(covers_world(Vec3::new(33_000.0, 31_500.0, 31_500.0), n));
    }

    #[test]
    fn distances_read_as_whole_units() {
        assert_eq!(units(7_855.2), "7,856");
        assert_eq!(units(0.3), "1");
        assert_eq!(units(1_234_567.0), "1,234,567");
        // A vertex at 1e30 (a broken export): the number, not a saturated integer.
        assert_eq!(units(1e30 - 32_768.0), "1e30");
        assert_eq!(point_text([1e30, -2.5, 0.0]), "(X=1e30,Y=-2.5,Z=0)");
    }
}
