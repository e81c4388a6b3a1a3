//! The map overview picture (`unreal-ls render`, the language server's `unrealLs/mapPreview`):
//! a plan of a T3D map as the engine builds it. Every brush is drawn where CSG places it
//! ([`unreal_analysis::t3d::brushes::placed_brushes`]): additive brushes blue, subtractive orange (in a
//! subtractive world those are the rooms), other brushes (movers, volumes) grey, semisolid and
//! non-solid ones dashed, the builder brush red and dashed as UnrealEd shows it; actors are small symbols by kind (player starts, lights in their
//! colour, pickups and weapons, movers, path nodes, triggers); a scale bar in Unreal units and
//! the map's title close it.
//!
//! Drawn with `tiny-skia`; labels with an 8x8 bitmap font. The picture is framed on where
//! the map is (brushes and actors whose centre is within three times the 90th-percentile
//! distance from the median centre, and before any far jump in distance among the farthest
//! tenth, never beyond the world's edge; widened by a tenth): real maps park unused brushes at
//! the edge of the world (UT2004's DM-Deck17 has some 262,000 units out), and a broken one
//! may hold an actor at 1e30, which would shrink the map to a dot. What the frame leaves out
//! is named on the picture ([`MapPicture::outside`]).

use font8x8::UnicodeFonts;
use tiny_skia::{Color, FillRule, Paint, PathBuilder, Pixmap, Rect, Stroke, StrokeDash, Transform};
use unreal_syntax::t3d::{BlockKind, T3dFile, Value};
use unreal_syntax::Span;

use crate::export::{LevelScene, LevelTextures};
use unreal_analysis::t3d::actors::ClassKind;
use unreal_analysis::t3d::brushes::{placed_brushes, BrushRole, PlacedBrush};
use unreal_analysis::t3d::walk;
use unreal_analysis::Generation;

/// Which way the map is looked at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum View {
    /// From above: X to the right, Y down (UnrealEd's top view).
    Top,
    /// From the side: X to the right, Z up.
    Side,
    /// From the front: Y to the right, Z up.
    Front,
    /// Isometric: X and Y at 30 degrees, Z up.
    Iso,
}

impl View {
    pub fn parse(word: &str) -> Option<View> {
        match word.to_ascii_lowercase().as_str() {
            "top" => Some(View::Top),
            "side" => Some(View::Side),
            "front" => Some(View::Front),
            "iso" => Some(View::Iso),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            View::Top => "top",
            View::Side => "side",
            View::Front => "front",
            View::Iso => "iso",
        }
    }

    /// Towards the viewer, in world axes: what is nearer has a larger dot product with it,
    /// and a surface whose normal points away from it is seen from behind.
    fn towards_viewer(self) -> [f64; 3] {
        match self {
            View::Top => [0.0, 0.0, 1.0],
            // Looking along +Y (X to the right in Unreal's left-handed axes) and along -X.
            View::Side => [0.0, -1.0, 0.0],
            View::Front => [1.0, 0.0, 0.0],
            // The iso projection flattens (1, 1, 1) to a point, and Z goes up the picture.
            View::Iso => {
                let k = 1.0 / 3f64.sqrt();
                [k, k, k]
            }
        }
    }

    /// A world point on the picture's plane (before scaling), y growing down.
    fn project(self, p: [f64; 3]) -> [f64; 2] {
        match self {
            View::Top => [p[0], p[1]],
            View::Side => [p[0], -p[2]],
            View::Front => [p[1], -p[2]],
            View::Iso => {
                let (c, s) = (30f64.to_radians().cos(), 30f64.to_radians().sin());
                [(p[0] - p[1]) * c, (p[0] + p[1]) * s - p[2]]
            }
        }
    }
}

/// An actor the picture shows, and where.
#[derive(Clone, Debug, PartialEq)]
pub struct ActorMark {
    pub name: String,
    pub class: String,
    pub kind: ClassKind,
    /// The actor's `Begin Actor` line (a click on the mark reveals it).
    pub begin_span: Span,
    /// Its place on the picture, in pixels.
    pub x: f32,
    pub y: f32,
}

/// The rendered picture.
#[derive(Clone, Debug, PartialEq)]
pub struct MapPicture {
    pub png: Vec<u8>,
    pub width: u32,
    pub height: u32,
    pub actors: Vec<ActorMark>,
    /// Brushes drawn, the builder brush not counted.
    pub brushes: usize,
    /// The built level's surfaces, when the picture draws the level ([`Geometry::Level`]).
    pub surfaces: Option<usize>,
    /// The Unreal units one pixel spans.
    pub units_per_pixel: f64,
    /// The brushes and actors whose centre lies outside the picture (parked far from the
    /// map, or at the edge of the world), by name, brushes first: the picture is framed on
    /// where the map is, and says what it left out.
    pub outside: Vec<String>,
    /// Why the level drawn stops short ([`crate::csg::CsgStopped`]): it holds only what its
    /// build made before it stopped.
    pub stopped: Option<String>,
}

/// An actor's facts the picture needs.
#[derive(Debug, PartialEq)]
struct MapActor {
    name: String,
    class: String,
    kind: ClassKind,
    location: [f64; 3],
    color: [u8; 3],
    begin_span: Span,
}

fn number(text: &str, value: &Value) -> Option<f64> {
    value
        .as_number()
        .or_else(|| value.span().text(text).trim().parse().ok())
        .filter(|n: &f64| n.is_finite())
}

/// Unreal's light colour: hue and saturation bytes (saturation 255 is white), full value.
fn light_color(hue: f64, saturation: f64) -> [u8; 3] {
    let s = 1.0 - (saturation / 255.0).clamp(0.0, 1.0);
    let h = (hue / 255.0).clamp(0.0, 1.0) * 6.0;
    let f = h - h.floor();
    let (p, q, t) = (1.0 - s, 1.0 - s * f, 1.0 - s * (1.0 - f));
    let (r, g, b) = match h.floor() as u32 % 6 {
        0 => (1.0, t, p),
        1 => (q, 1.0, p),
        2 => (p, 1.0, t),
        3 => (p, q, 1.0),
        4 => (t, p, 1.0),
        _ => (1.0, p, q),
    };
    [r, g, b].map(|c: f64| (c * 255.0).round() as u8)
}

/// The actors the picture marks, and the map's title, from one parse, or for a big map in
/// pieces whose trees are dropped as they are read (the same result).
fn actors(text: &str) -> (Vec<MapActor>, Option<String>) {
    actors_in(text, unreal_analysis::t3d::in_pieces::piece_bytes_for(text))
}

/// [`actors`], in pieces of `piece_bytes` when set.
fn actors_in(text: &str, piece_bytes: Option<usize>) -> (Vec<MapActor>, Option<String>) {
    if let Some(piece_bytes) = piece_bytes {
        let read = unreal_analysis::t3d::in_pieces::read_map_items(text, piece_bytes, |item| {
            actors_of(text, &T3dFile { items: vec![item] })
        });
        if let Some((items, rest)) = read.joined() {
            let (mut out, mut title) = (Vec::new(), None);
            for (actors, level_title) in items.into_iter().chain([actors_of(text, &rest.file)]) {
                out.extend(actors);
                if let Some(level_title) = level_title {
                    title = level_title;
                }
            }
            return (out, title);
        }
    }
    let (out, title) = actors_of(text, &unreal_syntax::t3d::parse(text).file);
    (out, title.flatten())
}

/// The actors of a parsed file, and the title of its last `LevelInfo` (`Some(None)`: one
/// without a `Title`; `None`: no `LevelInfo`).
#[allow(clippy::option_option)]
fn actors_of(text: &str, file: &T3dFile) -> (Vec<MapActor>, Option<Option<String>>) {
    let mut out = Vec::new();
    let mut title = None;
    for (block, _) in walk::blocks(file) {
        if block.kind != BlockKind::Actor {
            continue;
        }
        let class = block.attribute_value(text, "Class").unwrap_or_default().to_owned();
        if class.eq_ignore_ascii_case("LevelInfo") {
            title = Some(
                block
                    .last_property(text, "Title")
                    .map(|p| p.value.span().text(text).trim_matches('"').to_owned())
                    .filter(|t| !t.is_empty()),
            );
        }
        let Some(kind) = ClassKind::of_class(&class) else { continue };
        let mut location = [0.0; 3];
        let (mut hue, mut saturation) = (0.0, 255.0);
        for property in block.properties() {
            let key = property.key.text(text);
            if key.eq_ignore_ascii_case("Location") {
                for (i, axis) in ["X", "Y", "Z"].into_iter().enumerate() {
                    if let Some(n) =
                        property.value.field(text, axis).and_then(|f| number(text, &f.value))
                    {
                        location[i] = n;
                    }
                }
            } else if key.eq_ignore_ascii_case("LightHue") {
                hue = number(text, &property.value).unwrap_or(hue);
            } else if key.eq_ignore_ascii_case("LightSaturation") {
                saturation = number(text, &property.value).unwrap_or(saturation);
            }
        }
        out.push(MapActor {
            name: block.attribute_value(text, "Name").unwrap_or_default().to_owned(),
            class,
            kind,
            location,
            color: light_color(hue, saturation),
            begin_span: block.begin_span,
        });
    }
    (out, title)
}

/// The smallest and largest of `values`, or `None` without values.
fn extent(values: &[f64]) -> Option<(f64, f64)> {
    let min = values.iter().copied().reduce(f64::min)?;
    let max = values.iter().copied().reduce(f64::max)?;
    Some((min, max))
}

/// A round length for the scale bar: a power of two of Unreal units between `min` and `max`
/// pixels long, or the nearest.
fn scale_bar_units(units_per_pixel: f64) -> f64 {
    let mut units = 16.0;
    while units / units_per_pixel < 80.0 && units < 1e9 {
        units *= 2.0;
    }
    units
}

fn paint(rgba: [u8; 4]) -> Paint<'static> {
    let mut paint = Paint::default();
    paint.set_color_rgba8(rgba[0], rgba[1], rgba[2], rgba[3]);
    paint.anti_alias = true;
    paint
}

/// Draws `label` with the 8x8 font, `scale` pixels a dot, on a white box, from its top left.
fn draw_label(pixmap: &mut Pixmap, label: &str, x: f32, y: f32, scale: f32) {
    let width = label.chars().count() as f32 * 8.0 * scale;
    if let Some(rect) = Rect::from_xywh(x - 2.0, y - 2.0, width + 4.0, 8.0 * scale + 4.0) {
        pixmap.fill_rect(rect, &paint([255, 255, 255, 220]), Transform::identity(), None);
    }
    let ink = paint([20, 20, 20, 255]);
    for (i, c) in label.chars().enumerate() {
        let Some(glyph) = font8x8::BASIC_FONTS.get(c).or_else(|| font8x8::BASIC_FONTS.get('?'))
        else {
            continue;
        };
        for (row, bits) in glyph.iter().enumerate() {
            for col in 0..8 {
                if bits & (1 << col) != 0 {
                    let px = x + (i as f32 * 8.0 + col as f32) * scale;
                    let py = y + row as f32 * scale;
                    if let Some(rect) = Rect::from_xywh(px, py, scale, scale) {
                        pixmap.fill_rect(rect, &ink, Transform::identity(), None);
                    }
                }
            }
        }
    }
}

/// Whether the picture carries the actors' symbols, or leaves them to a client that draws
/// them over it (grouped, thinned as it zooms); their marks are returned either way.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ActorSymbols {
    Drawn,
    Left,
}

/// What the picture draws of the map's geometry.
#[derive(Clone, Copy)]
pub enum Geometry<'t> {
    /// Every brush's outline, where CSG places it.
    Brushes,
    /// The level as UnrealEd builds it from the brushes ([`crate::csg`]): its surfaces filled,
    /// depth-tested, lit by their direction, textured where `textures` holds the texture.
    /// Surfaces facing away from the viewer are left out, so the view looks into the rooms
    /// through their ceilings and outer walls.
    Level(&'t dyn LevelTextures, crate::export::LevelParts),
}

/// Renders the map in `text` (named `name` when its `LevelInfo` has no `Title`) from `view`,
/// at most `max_size` pixels a side, its brushes as outlines. `None` when the text holds no
/// brush and no actor to show.
pub fn render_map(
    name: &str,
    text: &str,
    view: View,
    max_size: u32,
    generation: Option<Generation>,
    symbols: ActorSymbols,
) -> Option<MapPicture> {
    render_map_geometry(name, text, view, max_size, generation, symbols, Geometry::Brushes)
}

/// [`render_map`], drawing `geometry`.
pub fn render_map_geometry(
    name: &str,
    text: &str,
    view: View,
    max_size: u32,
    generation: Option<Generation>,
    symbols: ActorSymbols,
    geometry: Geometry<'_>,
) -> Option<MapPicture> {
    let (brushes, _) = placed_brushes(text, generation);
    let (map_actors, title) = actors(text);
    let framed: Vec<&PlacedBrush> = {
        let level: Vec<&PlacedBrush> = brushes
            .iter()
            .filter(|b| matches!(b.role, BrushRole::Additive | BrushRole::Subtractive))
            .collect();
        if level.is_empty() {
            brushes.iter().collect()
        } else {
            level
        }
    };
    let centre_of = |brush: &PlacedBrush| {
        let points: Vec<&[f64; 3]> = brush.polygons.iter().flatten().collect();
        let n = points.len().max(1) as f64;
        [0, 1, 2].map(|k| points.iter().map(|p| p[k]).sum::<f64>() / n)
    };
    let frame = Frame::on(view, max_size, || {
        let brushes = framed.iter().map(|b| {
            let points: Box<dyn Iterator<Item = [f64; 3]>> =
                Box::new(b.polygons.iter().flatten().copied());
            (centre_of(b), points)
        });
        let actors = map_actors.iter().map(|a| {
            let points: Box<dyn Iterator<Item = [f64; 3]>> = Box::new(std::iter::once(a.location));
            (a.location, points)
        });
        brushes.chain(actors)
    })?;
    let (width, height, units_per_pixel) = (frame.width, frame.height, frame.units_per_pixel);
    let mut pixmap = Pixmap::new(width, height)?;
    pixmap.fill(Color::WHITE);
    let to_pixel = |p: [f64; 3]| frame.to_pixel(view, p);

    // What lies outside the picture, named (the builder brush aside: UnrealEd parks it
    // anywhere).
    let inside = |(x, y): (f32, f32)| {
        (0.0..=width as f32).contains(&x) && (0.0..=height as f32).contains(&y)
    };
    let mut outside: Vec<String> = brushes
        .iter()
        .filter(|b| b.role != BrushRole::Builder && !b.polygons.is_empty())
        .filter(|b| !inside(to_pixel(centre_of(b))))
        .map(|b| b.name.clone())
        .collect();
    outside.extend(
        map_actors.iter().filter(|a| !inside(to_pixel(a.location))).map(|a| a.name.clone()),
    );

    let mut surfaces = None;
    let mut stopped = None;
    // Actors drawn as a shape (a static mesh, or the box in its place) need no symbol.
    let mut shaped: std::collections::HashSet<u32> = std::collections::HashSet::new();
    let mut leave_out_symbols = false;
    match geometry {
        Geometry::Brushes => {
            // Subtractive first, then the rest over it, as the eye reads a plan: rooms, then
            // what stands in them.
            let order =
                [BrushRole::Subtractive, BrushRole::Additive, BrushRole::Other, BrushRole::Builder];
            for role in order {
                for brush in brushes.iter().filter(|b| b.role == role) {
                    draw_brush(&mut pixmap, brush, &to_pixel);
                }
            }
        }
        Geometry::Level(textures, parts) => {
            let scene = crate::export::level_scene_of_parts(
                name,
                text,
                generation,
                textures,
                parts,
                &|| false,
            );
            if !parts.actors {
                // Marked (a click still finds them) but not drawn.
                leave_out_symbols = true;
            }
            draw_level(&mut pixmap, &scene, view, &to_pixel);
            surfaces = Some(scene.surfaces);
            stopped = scene.stopped.map(|s| s.to_string());
            shaped.extend(scene.placed.iter().filter_map(|p| p.begin));
        }
    }

    let marks = mark_actors(&mut pixmap, &map_actors, &to_pixel, symbols, &|actor| {
        leave_out_symbols || shaped.contains(&actor.begin_span.start)
    });

    let heading = format!("{} ({} view)", title.as_deref().unwrap_or(name), view.name());
    let png = finish_picture(pixmap, units_per_pixel, &heading, &outside);
    Some(MapPicture {
        png,
        width,
        height,
        actors: marks,
        brushes: brushes.iter().filter(|b| b.role != BrushRole::Builder).count(),
        surfaces,
        units_per_pixel,
        outside,
        stopped,
    })
}

/// Renders the level a built map stores (`scene`, from
/// [`crate::export::stored_level_scene`]) from `view`, at most `max_size` pixels a side, headed
/// `title`: its surfaces filled as [`Geometry::Level`] draws a T3D map's built level, its actors
/// by kind. `None` when it holds no surface and no actor to show.
pub fn render_level_scene(
    scene: &LevelScene,
    title: &str,
    view: View,
    max_size: u32,
) -> Option<MapPicture> {
    let world = |g: [f32; 3]| [f64::from(g[2]), -f64::from(g[0]), f64::from(g[1])];
    let map_actors: Vec<MapActor> = scene
        .actors
        .iter()
        .filter_map(|a| {
            let kind = ClassKind::of_class(&a.class)?;
            // The light's linear colour, as the picture's sRGB.
            let color = a.light.as_ref().map_or([255, 220, 120], |l| {
                l.color.map(|c| (c.clamp(0.0, 1.0).powf(1.0 / 2.2) * 255.0) as u8)
            });
            Some(MapActor {
                name: a.name.clone(),
                class: a.class.clone(),
                kind,
                location: world(a.position),
                color,
                begin_span: Span::default(),
            })
        })
        .collect();
    let triangles = || {
        scene.primitives.iter().flat_map(move |p| {
            p.triangles.iter().filter_map(move |t| {
                let corners = [
                    world(*p.positions.get(t[0] as usize)?),
                    world(*p.positions.get(t[1] as usize)?),
                    world(*p.positions.get(t[2] as usize)?),
                ];
                let centre = [0, 1, 2].map(|k| corners.iter().map(|c| c[k]).sum::<f64>() / 3.0);
                Some((centre, corners.into_iter()))
            })
        })
    };
    let placed: Vec<[f64; 3]> = scene.placed.iter().map(|p| world(p.position)).collect();
    let frame = Frame::on(view, max_size, || {
        triangles()
            .chain(map_actors.iter().map(|a| (a.location, [a.location; 3].into_iter())))
            .chain(placed.iter().map(|&p| (p, [p; 3].into_iter())))
    })?;
    let mut pixmap = Pixmap::new(frame.width, frame.height)?;
    pixmap.fill(Color::WHITE);
    let to_pixel = |p: [f64; 3]| frame.to_pixel(view, p);
    draw_level(&mut pixmap, scene, view, &to_pixel);
    let marks = mark_actors(&mut pixmap, &map_actors, &to_pixel, ActorSymbols::Drawn, &|_| false);
    let (width, height) = (frame.width as f32, frame.height as f32);
    let on_picture = |(x, y): (f32, f32)| (0.0..=width).contains(&x) && (0.0..=height).contains(&y);
    let outside: Vec<String> = map_actors
        .iter()
        .filter(|a| !on_picture(to_pixel(a.location)))
        .map(|a| a.name.clone())
        .collect();
    let heading = format!("{title} ({} view)", view.name());
    Some(MapPicture {
        png: finish_picture(pixmap, frame.units_per_pixel, &heading, &outside),
        width: frame.width,
        height: frame.height,
        actors: marks,
        brushes: 0,
        surfaces: Some(scene.surfaces),
        units_per_pixel: frame.units_per_pixel,
        outside,
        stopped: scene.stopped.as_ref().map(ToString::to_string),
    })
}

/// The marks of the actors that land on the picture, their symbols drawn when `symbols` says
/// and the actor is not drawn as a shape already (`shaped`).
fn mark_actors(
    pixmap: &mut Pixmap,
    actors: &[MapActor],
    to_pixel: &impl Fn([f64; 3]) -> (f32, f32),
    symbols: ActorSymbols,
    shaped: &dyn Fn(&MapActor) -> bool,
) -> Vec<ActorMark> {
    let (width, height) = (pixmap.width() as f32, pixmap.height() as f32);
    let mut marks = Vec::new();
    for actor in actors {
        let (x, y) = to_pixel(actor.location);
        if !(0.0..=width).contains(&x) || !(0.0..=height).contains(&y) {
            continue;
        }
        if symbols == ActorSymbols::Drawn && !shaped(actor) {
            draw_actor(pixmap, actor, x, y);
        }
        marks.push(ActorMark {
            name: actor.name.clone(),
            class: actor.class.clone(),
            kind: actor.kind,
            begin_span: actor.begin_span,
            x,
            y,
        });
    }
    marks
}

/// Where a picture looks and how big it is: the corner it starts at (in the view's plane),
/// the units a pixel spans, and its size in pixels.
struct Frame {
    x0: f64,
    y0: f64,
    units_per_pixel: f64,
    width: u32,
    height: u32,
}

impl Frame {
    /// The frame on where the map is, at most `max_size` pixels a side: `pieces` (each a
    /// centre and the points it spans; asked for twice) whose centre lies within
    /// [`frame_radius`] of the median centre, then their full extent and a margin. Parked
    /// pieces far out, and anything beyond the world's edge, are left out of the frame.
    /// `None` when no piece is left.
    fn on<I, P>(view: View, max_size: u32, pieces: impl Fn() -> I) -> Option<Frame>
    where
        I: Iterator<Item = ([f64; 3], P)>,
        P: Iterator<Item = [f64; 3]>,
    {
        let centres: Vec<[f64; 3]> = pieces().map(|(centre, _)| centre).collect();
        let in_world = |c: &[f64; 3]| c.iter().all(|v| v.abs() <= HALF_WORLD_MAX);
        let median = [0, 1, 2].map(|k| {
            let mut values: Vec<f64> =
                centres.iter().filter(|c| in_world(c)).map(|c| c[k]).collect();
            values.sort_by(f64::total_cmp);
            values.get(values.len() / 2).copied().unwrap_or(0.0)
        });
        let distance = |c: [f64; 3]| {
            if !in_world(&c) {
                return f64::INFINITY;
            }
            ((c[0] - median[0]).powi(2) + (c[1] - median[1]).powi(2) + (c[2] - median[2]).powi(2))
                .sqrt()
        };
        // Beyond the world's edge is never framed (an infinite distance).
        let mut distances: Vec<f64> =
            centres.iter().map(|c| distance(*c)).filter(|d| d.is_finite()).collect();
        distances.sort_by(f64::total_cmp);
        let near = frame_radius(&distances);
        let mut xs = Vec::new();
        let mut ys = Vec::new();
        for (_, points) in pieces().filter(|(centre, _)| distance(*centre) <= near) {
            for p in points {
                let [x, y] = view.project(p);
                xs.push(x);
                ys.push(y);
            }
        }
        let ((x0, x1), (y0, y1)) = (extent(&xs)?, extent(&ys)?);
        let margin = ((x1 - x0).max(y1 - y0) * 0.1).max(64.0);
        let (x0, x1, y0, y1) = (x0 - margin, x1 + margin, y0 - margin, y1 + margin);
        let max_size = f64::from(max_size.clamp(64, 8192));
        let units_per_pixel = (x1 - x0).max(y1 - y0) / max_size;
        let width = ((x1 - x0) / units_per_pixel).ceil().clamp(64.0, max_size) as u32;
        let height = ((y1 - y0) / units_per_pixel).ceil().clamp(64.0, max_size) as u32;
        Some(Frame { x0, y0, units_per_pixel, width, height })
    }

    /// Where the world point `p` lands on the picture, in pixels.
    fn to_pixel(&self, view: View, p: [f64; 3]) -> (f32, f32) {
        let [x, y] = view.project(p);
        (
            ((x - self.x0) / self.units_per_pixel) as f32,
            ((y - self.y0) / self.units_per_pixel) as f32,
        )
    }
}

/// Adds the scale bar (bottom left), the heading (top left) and the note on what lies
/// `outside` to the picture, and encodes it as PNG.
fn finish_picture(
    mut pixmap: Pixmap,
    units_per_pixel: f64,
    heading: &str,
    outside: &[String],
) -> Vec<u8> {
    let (width, height) = (pixmap.width(), pixmap.height());
    let units = scale_bar_units(units_per_pixel);
    let bar = (units / units_per_pixel) as f32;
    let (bx, by) = (12.0, height as f32 - 14.0);
    let mut pb = PathBuilder::new();
    pb.move_to(bx, by - 5.0);
    pb.line_to(bx, by);
    pb.line_to(bx + bar, by);
    pb.line_to(bx + bar, by - 5.0);
    if let Some(path) = pb.finish() {
        let stroke = Stroke { width: 2.0, ..Stroke::default() };
        pixmap.stroke_path(&path, &paint([20, 20, 20, 255]), &stroke, Transform::identity(), None);
    }
    let fits = |scale: f32| (width as f32 - 16.0) / (8.0 * scale);
    let bar_label = shortened(&format!("{} uu", units as u64), (width as f32 - bx - 4.0) / 8.0);
    draw_label(&mut pixmap, &bar_label, bx, by - 20.0, 1.0);
    // The heading at twice the size on a wide picture, when it fits; else as much of it as
    // fits at the small size.
    let heading_scale =
        if width >= 512 && heading.chars().count() as f32 <= fits(2.0) { 2.0 } else { 1.0 };
    draw_label(&mut pixmap, &shortened(heading, fits(heading_scale)), 8.0, 8.0, heading_scale);
    if !outside.is_empty() {
        // Right of the scale bar when it fits there (naming fewer brushes if need be), else
        // on a line of its own above the bar's label, shortened to the picture's width.
        let room_beside = (width as f32 - 10.0 - (bx + bar + 12.0)) / 8.0;
        let beside = (0..=OUTSIDE_NAMED)
            .rev()
            .map(|named| outside_note(outside, named))
            .find(|note| note.chars().count() as f32 <= room_beside);
        if let Some(note) = beside {
            let x = width as f32 - note.chars().count() as f32 * 8.0 - 10.0;
            draw_label(&mut pixmap, &note, x, by - 8.0, 1.0);
        } else {
            let note = (0..=OUTSIDE_NAMED)
                .rev()
                .map(|named| outside_note(outside, named))
                .find(|note| note.chars().count() as f32 <= fits(1.0))
                .unwrap_or_else(|| shortened(&outside_note(outside, 0), fits(1.0)));
            draw_label(&mut pixmap, &note, 8.0, by - 34.0, 1.0);
        }
    }
    let image = unreal_formats::decode::RgbaImage {
        width,
        height,
        pixels: pixmap
            .pixels()
            .iter()
            .flat_map(|p| {
                let c = p.demultiply();
                [c.red(), c.green(), c.blue(), c.alpha()]
            })
            .collect(),
    };
    crate::export::png::encode_png(&image)
}

/// Half the world's size, `HALF_WORLD_MAX` (UT2004 `Engine/Inc/Engine.h:58`): the world box is
/// +-262,144 units. Nothing beyond it is part of the level a player sees, so it never widens
/// the frame.
const HALF_WORLD_MAX: f64 = 262_144.0;

/// How far from the map's median centre a brush or actor may lie and still be framed, from
/// the distances of every centre (sorted): three times the 90th-percentile distance, and no
/// farther than a jump among the farthest tenth where the distance grows more than eightfold
/// and by more than 16,384 units (in a map of a few pieces one parked actor is the 90th
/// percentile itself). Only the farthest tenth: actors left at the origin (no `Location`)
/// can be most of a map built elsewhere.
fn frame_radius(sorted: &[f64]) -> f64 {
    let tenth = sorted.len() * 9 / 10;
    let p90 = sorted.get(tenth).copied().unwrap_or(0.0);
    let mut near = p90 * 3.0 + 512.0;
    for pair in sorted.get(tenth.saturating_sub(1)..).unwrap_or_default().windows(2) {
        let (before, here) = (pair[0], pair[1]);
        if here > before * 8.0 + 16_384.0 {
            near = near.min(f64::midpoint(before, here)).min(before * 3.0 + 16_384.0);
            break;
        }
    }
    near
}

/// How many of the brushes and actors outside the picture its note names at most.
const OUTSIDE_NAMED: usize = 3;

/// The picture's note on what lies outside it: the first `named` names, and how many more
/// (only the count when `named` is 0).
fn outside_note(outside: &[String], named: usize) -> String {
    if named == 0 {
        return format!("{} outside the picture", outside.len());
    }
    let names: Vec<&str> = outside.iter().take(named).map(String::as_str).collect();
    let more = outside.len().saturating_sub(named);
    let tail = if more > 0 { format!(" and {more} more") } else { String::new() };
    format!("outside the picture: {}{tail}", names.join(", "))
}

/// `text` cut to `room` characters of the label font, ending in `...` when cut.
fn shortened(text: &str, room: f32) -> String {
    let room = room.max(0.0) as usize;
    if text.chars().count() <= room {
        return text.to_owned();
    }
    let kept: String = text.chars().take(room.saturating_sub(3)).collect();
    format!("{kept}...")
}

fn draw_brush(
    pixmap: &mut Pixmap,
    brush: &PlacedBrush,
    to_pixel: &impl Fn([f64; 3]) -> (f32, f32),
) {
    let (fill, line) = match brush.role {
        BrushRole::Subtractive => ([255, 170, 60, 40], [220, 120, 20, 255]),
        BrushRole::Additive => ([60, 110, 255, 40], [40, 80, 220, 255]),
        BrushRole::Other => ([150, 150, 150, 25], [120, 120, 120, 255]),
        BrushRole::Builder => ([0, 0, 0, 0], [220, 30, 30, 200]),
    };
    let mut stroke = Stroke { width: 1.0, ..Stroke::default() };
    if brush.is_semisolid_or_nonsolid() || brush.role == BrushRole::Builder {
        stroke.dash = StrokeDash::new(vec![5.0, 3.0], 0.0);
    }
    let mut pb = PathBuilder::new();
    for polygon in &brush.polygons {
        let mut points = polygon.iter().map(|p| to_pixel(*p));
        let Some((x, y)) = points.next() else { continue };
        pb.move_to(x, y);
        for (x, y) in points {
            pb.line_to(x, y);
        }
        pb.close();
    }
    let Some(path) = pb.finish() else { return };
    pixmap.fill_path(&path, &paint(fill), FillRule::Winding, Transform::identity(), None);
    pixmap.stroke_path(&path, &paint(line), &stroke, Transform::identity(), None);
}

/// The light that shades the level's surfaces (world axes): from above, a little from +Y and
/// +X, so that floors, and walls facing different ways, read apart.
const LEVEL_LIGHT: [f64; 3] = [0.27, 0.53, 0.8];

/// Fills the built level's surfaces into the picture: depth-tested, each triangle shaded by
/// its normal against [`LEVEL_LIGHT`], the texture sampled where there is one (nearest
/// texel, wrapping, as the software renderer draws), cut out where a masked texture is
/// transparent; surfaces seen from behind are left out.
fn draw_level(
    pixmap: &mut Pixmap,
    scene: &LevelScene,
    view: View,
    to_pixel: &impl Fn([f64; 3]) -> (f32, f32),
) {
    use crate::csg::bsp::{cross, dot, sub};
    let (width, height) = (pixmap.width(), pixmap.height());
    let mut image = unreal_formats::decode::RgbaImage {
        width,
        height,
        pixels: vec![0; width as usize * height as usize * 4],
    };
    let mut depth = vec![f32::NEG_INFINITY; width as usize * height as usize];
    let towards = view.towards_viewer();
    // glTF axes back to the world's (the inverse of `point_to_gltf`).
    let world = |g: [f32; 3]| [f64::from(g[2]), -f64::from(g[0]), f64::from(g[1])];
    let mut draw = |corners: [[f64; 3]; 3],
                    uv: [[f32; 2]; 3],
                    tint: Option<[[f32; 3]; 3]>,
                    look: &Look<'_>| {
        let [a, b, c] = corners;
        // glTF's counter-clockwise front in mirrored axes: the world normal is (c-a)x(b-a).
        let n = cross(sub(c, a), sub(b, a));
        let length = dot(n, n).sqrt();
        if length.is_nan() || length <= 1e-9 {
            return;
        }
        let n = n.map(|x| x / length);
        let facing = dot(n, towards);
        if facing <= 0.0 && !look.double_sided {
            return;
        }
        let n = if facing < 0.0 { n.map(|x| -x) } else { n };
        let shade = (0.45 + 0.55 * dot(n, LEVEL_LIGHT).max(0.0)) as f32;
        let screen = [a, b, c].map(|p| {
            let (x, y) = to_pixel(p);
            [x, y, dot(p, towards) as f32]
        });
        super::render::fill_triangle(&mut image, &mut depth, screen, |bary| {
            let base = match look.texture {
                Some(t) => {
                    let u = bary[0] * uv[0][0] + bary[1] * uv[1][0] + bary[2] * uv[2][0];
                    let v = bary[0] * uv[0][1] + bary[1] * uv[1][1] + bary[2] * uv[2][1];
                    let texel = super::render::sample(t, u, v);
                    if look.cut_out && texel[3] < 128 {
                        return None;
                    }
                    [texel[0], texel[1], texel[2]]
                }
                None => look.flat,
            };
            // A colour per corner (a terrain's layers), blended across the triangle.
            let base = match tint {
                Some(t) => [0, 1, 2].map(|k| {
                    let c = bary[0] * t[0][k] + bary[1] * t[1][k] + bary[2] * t[2][k];
                    (f32::from(base[k]) * crate::export::level::linear_to_srgb(c)).clamp(0.0, 255.0)
                        as u8
                }),
                None => base,
            };
            Some([
                (f32::from(base[0]) * shade) as u8,
                (f32::from(base[1]) * shade) as u8,
                (f32::from(base[2]) * shade) as u8,
                255,
            ])
        });
    };
    for primitive in &scene.primitives {
        let Some(material) = scene.materials.get(primitive.material) else { continue };
        let look = Look {
            texture: material.image.as_ref(),
            cut_out: material.alpha == crate::export::level::Alpha::Mask,
            double_sided: material.double_sided,
            flat: material.color.map(|c| (c * 255.0) as u8),
        };
        for tri in &primitive.triangles {
            let Some(corners) = tri
                .iter()
                .map(|&i| primitive.positions.get(i as usize).map(|p| world(*p)))
                .collect::<Option<Vec<_>>>()
            else {
                continue;
            };
            let uv = tri.map(|i| primitive.uvs.get(i as usize).copied().unwrap_or_default());
            let tint = (primitive.colors.len() == primitive.positions.len()).then(|| {
                tri.map(|i| primitive.colors.get(i as usize).copied().unwrap_or([1.0; 3]))
            });
            draw([corners[0], corners[1], corners[2]], uv, tint, &look);
        }
    }
    // The static meshes, each actor's copy moved by its matrix (glTF axes).
    for placed in &scene.placed {
        let Some(mesh) = scene.meshes.get(placed.mesh) else { continue };
        let model = &mesh.model;
        let m = placed.matrix.map(f64::from);
        let moved: Vec<[f64; 3]> = model
            .positions
            .iter()
            .map(|p| {
                let g = p.map(f64::from);
                let at = [0, 1, 2]
                    .map(|row| (0..3).map(|c| m[c * 4 + row] * g[c]).sum::<f64>() + m[12 + row]);
                world(at.map(|c| c as f32))
            })
            .collect();
        // A mirroring scale turns the triangles' winding.
        let mirrored = {
            let column = |c: usize| [m[c * 4], m[c * 4 + 1], m[c * 4 + 2]];
            dot(cross(column(0), column(1)), column(2)) < 0.0
        };
        for primitive in &model.primitives {
            let material = model.materials.get(primitive.material);
            let look = Look {
                texture: material.and_then(|m| m.texture.as_ref()),
                cut_out: false,
                double_sided: material.is_some_and(|m| m.double_sided),
                flat: if mesh.is_box {
                    [140, 140, 153]
                } else {
                    crate::export::level::flat_color(material.map_or("", |m| m.name.as_str()))
                        .map(|c| (c * 255.0) as u8)
                },
            };
            for tri in &primitive.triangles {
                let tri = if mirrored { [tri[0], tri[2], tri[1]] } else { *tri };
                let Some(corners) =
                    tri.iter().map(|&i| moved.get(i as usize).copied()).collect::<Option<Vec<_>>>()
                else {
                    continue;
                };
                let uv = tri.map(|i| {
                    model
                        .uvs
                        .as_ref()
                        .and_then(|uvs| uvs.get(i as usize))
                        .copied()
                        .unwrap_or_default()
                });
                draw([corners[0], corners[1], corners[2]], uv, None, &look);
            }
        }
    }
    // Opaque pixels are the same premultiplied; the rest stay the background.
    for (out, drawn) in pixmap.data_mut().chunks_exact_mut(4).zip(image.pixels.chunks_exact(4)) {
        if drawn[3] == 255 {
            out.copy_from_slice(drawn);
        }
    }
}

/// How a triangle of the level is filled: its texture (or flat colour), cut out where the
/// texture is transparent, drawn from behind too.
struct Look<'i> {
    texture: Option<&'i unreal_formats::decode::RgbaImage>,
    cut_out: bool,
    double_sided: bool,
    flat: [u8; 3],
}

fn draw_actor(pixmap: &mut Pixmap, actor: &MapActor, x: f32, y: f32) {
    let outline = Stroke { width: 1.0, ..Stroke::default() };
    let dark = paint([20, 20, 20, 255]);
    let shape = |points: &[(f32, f32)]| {
        let mut pb = PathBuilder::new();
        let (first, rest) = points.split_first()?;
        pb.move_to(x + first.0, y + first.1);
        for (dx, dy) in rest {
            pb.line_to(x + dx, y + dy);
        }
        pb.close();
        pb.finish()
    };
    let (path, color) = match actor.kind {
        ClassKind::PlayerStart => {
            (shape(&[(0.0, -7.0), (6.0, 5.0), (-6.0, 5.0)]), [40, 180, 60, 255])
        }
        ClassKind::Light => {
            let [r, g, b] = actor.color;
            (PathBuilder::from_circle(x, y, 5.0), [r, g, b, 255])
        }
        ClassKind::Pickup => {
            (shape(&[(0.0, -6.0), (6.0, 0.0), (0.0, 6.0), (-6.0, 0.0)]), [250, 210, 30, 255])
        }
        ClassKind::Mover => {
            (shape(&[(-5.0, -5.0), (5.0, -5.0), (5.0, 5.0), (-5.0, 5.0)]), [170, 60, 200, 255])
        }
        ClassKind::PathNode => (PathBuilder::from_circle(x, y, 2.0), [130, 130, 130, 255]),
        ClassKind::Trigger => {
            (shape(&[(-4.0, -4.0), (4.0, -4.0), (4.0, 4.0), (-4.0, 4.0)]), [220, 40, 40, 255])
        }
    };
    let Some(path) = path else { return };
    pixmap.fill_path(&path, &paint(color), FillRule::Winding, Transform::identity(), None);
    if actor.kind != ClassKind::PathNode {
        pixmap.stroke_path(&path, &dark, &outline, Transform::identity(), None);
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn labels_are_shortened_to_the_picture() {
        assert_eq!(super::shortened("Deck 17 (iso view)", 30.0), "Deck 17 (iso view)");
        assert_eq!(super::shortened("Deck 17 (iso view)", 10.0), "Deck 17...");
        assert_eq!(super::shortened("Deck", 2.0), "...");
        let outside: Vec<String> = (0..5).map(|i| format!("Brush{i}")).collect();
        assert_eq!(
            super::outside_note(&outside, 2),
            "outside the picture: Brush0, Brush1 and 3 more"
        );
        assert_eq!(super::outside_note(&outside, 0), "5 outside the picture");
    }

    use super::{actors_in, light_color, ClassKind};

    /// Read in pieces, a map gives the actors and the title one parse gives; the last
    /// `LevelInfo` names the map even when it has no title.
    #[test]
    fn pieces_give_the_actors_one_parse_gives() {
        let generated = unreal_mapgen::generate_map(300_000, 5);
        let titled = "Begin Map\nBegin Actor Class=LevelInfo Name=LevelInfo0\n Title=\"First\"\nEnd Actor\nBegin Actor Class=Light Name=L\nEnd Actor\nEnd Map\n";
        let untitled_last =
            format!("{titled}Begin Actor Class=LevelInfo Name=LevelInfo1\nEnd Actor\n");
        for (text, title) in [
            (generated.as_str(), Some("Synthetic")),
            (titled, Some("First")),
            (untitled_last.as_str(), None),
        ] {
            let plain = actors_in(text, None);
            assert_eq!(plain.1.as_deref(), title);
            for piece_bytes in [256, 4096] {
                assert_eq!(actors_in(text, Some(piece_bytes)), plain, "pieces of {piece_bytes}");
            }
        }
        assert!(actors_in(&generated, None).0.len() > 20);
    }

    #[test]
    fn light_colours_and_kinds() {
        assert_eq!(light_color(0.0, 255.0), [255, 255, 255]);
        assert_eq!(light_color(0.0, 0.0), [255, 0, 0]);
        assert_eq!(light_color(170.0, 0.0), [0, 0, 255]);
        assert_eq!(ClassKind::of_class("Botpack.PlayerStart"), Some(ClassKind::PlayerStart));
        assert_eq!(ClassKind::of_class("TriggerLight"), Some(ClassKind::Light));
        assert_eq!(ClassKind::of_class("Trigger"), Some(ClassKind::Trigger));
        assert_eq!(ClassKind::of_class("Flashlight"), None);
        assert_eq!(ClassKind::of_class("HealthVial"), Some(ClassKind::Pickup));
        assert_eq!(ClassKind::of_class("Decoration"), None);
    }
}
