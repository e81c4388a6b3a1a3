//! The brushes of a T3D map placed in the world: every brush actor's polygons where the
//! engine puts them ([`crate::t3d::placement`]), with what CSG does with each brush
//! (`CsgOper`, Engine's `ECsgOper`; `PolyFlags`): `CSG_Add` and `CSG_Subtract` build the
//! level; a brush with no `CsgOper` is `CSG_Active`, the builder (red) brush; a brush with the
//! semisolid or non-solid flag adds no BSP cuts; actors of other classes with a brush (movers,
//! volumes) are not part of CSG. What the map picture, the glTF export and the built level
//! ([`crate::csg`]) all read.

use unreal_syntax::t3d::{Block, BlockKind, LineKeyword, T3dFile};

use crate::t3d::generation::Markers;
use crate::t3d::placement::Placement;
use crate::t3d::walk;
use crate::Generation;

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

/// True when the text holds at least one actor with a brush: a map (or a part of one) rather
/// than a lone brush.
pub fn has_brush_actors(text: &str) -> bool {
    brush_actors_in(text, crate::t3d::in_pieces::piece_bytes_for(text))
}

/// How many actors the map holds (a map of static meshes, a terrain or actors only has no
/// brush): what a level export and a picture can show.
pub fn actor_count(text: &str) -> usize {
    blocks_counted(text, crate::t3d::in_pieces::piece_bytes_for(text), &|block, _| {
        block.kind == BlockKind::Actor
    })
}

/// [`has_brush_actors`], in pieces of `piece_bytes` when set.
fn brush_actors_in(text: &str, piece_bytes: Option<usize>) -> bool {
    let brush_of_actor = |block: &Block, parent: Option<&Block>| {
        block.kind == BlockKind::Brush && parent.is_some_and(|p| p.kind == BlockKind::Actor)
    };
    blocks_counted(text, piece_bytes, &brush_of_actor) > 0
}

/// How many blocks of the map pass `test` (with their parent), read in pieces of
/// `piece_bytes` when set.
fn blocks_counted(
    text: &str,
    piece_bytes: Option<usize>,
    test: &(dyn Fn(&Block, Option<&Block>) -> bool + Sync),
) -> usize {
    let count = |file: &T3dFile| {
        walk::blocks(file).into_iter().filter(|&(block, parent)| test(block, parent)).count()
    };
    if let Some(piece_bytes) = piece_bytes {
        let read = crate::t3d::in_pieces::read_map_items(text, piece_bytes, |item| {
            count(&T3dFile { items: vec![item] })
        });
        if let Some((items, rest)) = read.joined() {
            return items.into_iter().sum::<usize>() + count(&rest.file);
        }
    }
    count(&unreal_syntax::t3d::parse(text).file)
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
    /// Each polygon's texture, flags and texture axes.
    pub poly_attributes: Vec<PolyAttributes>,
    /// The actor's `bStatic`, when it sets it.
    pub b_static: Option<bool>,
    /// The actor's `Begin Actor` line.
    pub begin_span: unreal_syntax::Span,
}

impl PlacedBrush {
    /// Semisolid (0x20) or non-solid (0x8): the brush cuts no BSP.
    pub fn is_semisolid_or_nonsolid(&self) -> bool {
        self.poly_flags & 0x28 != 0
    }
}

/// What a brush polygon says besides its vertices: `Texture=` (as written, empty when absent),
/// `Flags=`, and its texture axes placed in the world like its vertices (`Origin` as a point,
/// `TextureU`/`TextureV` as `FPoly::Transform` turns them), when it has them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PolyAttributes {
    pub texture: String,
    pub flags: u32,
    pub origin: Option<[f64; 3]>,
    pub texture_u: Option<[f64; 3]>,
    pub texture_v: Option<[f64; 3]>,
    /// `Pan U= V=` (UE1; 0 when absent).
    pub pan: [i16; 2],
    /// `Link=` on the `Begin Polygon` line (`iLink`): the brush's polygon whose surface this
    /// one shares (the first of those on its plane with its texture, as `bspValidateBrush`
    /// links them).
    pub link: Option<usize>,
    /// The base UT2004's T3D import makes, which has no pans: the last `Origin` with each
    /// `Pan` line after it folded in along the axes read before that line (`None` without
    /// `Origin`: the first vertex). Once placed for UE2, it is [`Self::origin`] and the pans
    /// are zero.
    pub ue2_origin: Option<[f64; 3]>,
    /// The polygon's `Begin Polygon` line: where a view of the built level sends a click on
    /// one of the surfaces it became.
    pub begin_span: unreal_syntax::Span,
}

/// The brushes of a map text, placed as `generation`'s CSG places them (`None`: detected from
/// the text, UE1's placement when it cannot tell), builder brushes included, and how many
/// builder brushes there are. A map of a few megabytes or more is read in pieces whose trees
/// are dropped as they are read ([`crate::t3d::in_pieces`]; the same brushes).
pub fn placed_brushes(text: &str, generation: Option<Generation>) -> (Vec<PlacedBrush>, usize) {
    let (unplaced, markers) = crate::t3d::in_pieces::piece_bytes_for(text)
        .and_then(|piece_bytes| unplaced_in_pieces(text, piece_bytes))
        .unwrap_or_else(|| unplaced_brushes(text));
    let generation = generation.or_else(|| markers.generation());
    // Every builder brush counts, drawn or not (one without polygons too).
    let builder_brushes = unplaced.iter().filter(|b| b.role == BrushRole::Builder).count();
    let mut brushes = Vec::new();
    for brush in unplaced {
        if let Some(placed) = brush.place(brushes.len(), generation) {
            brushes.push(placed);
        }
    }
    (brushes, builder_brushes)
}

/// A brush actor as the file gives it, before the generation's placement is known.
struct UnplacedBrush {
    name: String,
    class: String,
    csg_oper: String,
    poly_flags: i64,
    role: BrushRole,
    placement: Placement,
    /// Each polygon's `Vertex` lines, as written.
    polygons: Vec<Vec<[f64; 3]>>,
    poly_attributes: Vec<PolyAttributes>,
    b_static: Option<bool>,
    begin_span: unreal_syntax::Span,
}

impl UnplacedBrush {
    /// Reads a brush actor (an actor holding a `Begin Brush`); `None` for another block.
    fn read(text: &str, actor: &Block) -> Option<UnplacedBrush> {
        if actor.kind != BlockKind::Actor {
            return None;
        }
        let brush = actor.blocks().find(|b| b.kind == BlockKind::Brush)?;
        let class = actor.attribute_value(text, "Class").unwrap_or_default().to_owned();
        let word = |key: &str| {
            actor.last_property(text, key).map(|p| p.value.span().text(text).to_owned())
        };
        let csg_oper = word("CsgOper").unwrap_or_default();
        let poly_flags = word("PolyFlags").and_then(|f| f.trim().parse::<i64>().ok()).unwrap_or(0);
        let role = match csg_oper.to_ascii_uppercase().as_str() {
            _ if !class.eq_ignore_ascii_case("Brush") => BrushRole::Other,
            "CSG_ADD" => BrushRole::Additive,
            "CSG_SUBTRACT" => BrushRole::Subtractive,
            "" | "CSG_ACTIVE" => BrushRole::Builder,
            _ => BrushRole::Other,
        };
        let blocks = polygons_of(brush);
        let polygons = blocks
            .iter()
            .map(|polygon| polygon.vectors(LineKeyword::Vertex).map(|v| v.value).collect())
            .collect();
        let poly_attributes = blocks
            .iter()
            .map(|polygon| {
                let texture = polygon.attribute_value(text, "Texture").unwrap_or_default();
                let flags = polygon
                    .attribute_value(text, "Flags")
                    .and_then(|f| f.trim().parse::<i64>().ok())
                    .unwrap_or(0);
                let line = |k| polygon.vectors(k).next().map(|v| v.value);
                let mut pan = [0i16; 2];
                // UT2004's import, line by line (`UPolysFactory`, `Editor/Src/UnEdFact.cpp`):
                // `Origin` sets the base, `Pan` adds `TextureU * U + TextureV * V` to it with the
                // axes read so far, and a polygon without `Origin` takes its first vertex.
                let (mut ue2_origin, mut axes): (Option<[f64; 3]>, [[f64; 3]; 2]) =
                    (None, [[0.0; 3]; 2]);
                for item in &polygon.children {
                    match item {
                        unreal_syntax::t3d::Item::Vector(v) => match v.keyword {
                            LineKeyword::Origin => ue2_origin = Some(v.value),
                            LineKeyword::TextureU => axes[0] = v.value,
                            LineKeyword::TextureV => axes[1] = v.value,
                            _ => {}
                        },
                        unreal_syntax::t3d::Item::Keyword(k) if k.keyword == LineKeyword::Pan => {
                            for (i, key) in ["U", "V"].into_iter().enumerate() {
                                pan[i] = k
                                    .arg(text, key)
                                    .and_then(|(_, v)| v.trim().parse::<f64>().ok())
                                    .filter(|v| v.is_finite())
                                    .map_or(0, |v| v.clamp(-32768.0, 32767.0) as i16);
                            }
                            // Before any `Origin` the sum is overwritten (by a later `Origin`
                            // or the first vertex): lost.
                            if let Some(origin) = &mut ue2_origin {
                                for (axis, p) in axes.iter().zip(pan) {
                                    for c in 0..3 {
                                        origin[c] += axis[c] * f64::from(p);
                                    }
                                }
                            }
                        }
                        _ => {}
                    }
                }
                PolyAttributes {
                    texture: texture.to_owned(),
                    flags: flags as u32,
                    origin: line(LineKeyword::Origin),
                    texture_u: line(LineKeyword::TextureU),
                    texture_v: line(LineKeyword::TextureV),
                    pan,
                    link: polygon
                        .attribute_value(text, "Link")
                        .and_then(|l| l.trim().parse::<usize>().ok()),
                    ue2_origin,
                    begin_span: polygon.begin_span,
                }
            })
            .collect();
        let b_static = word("bStatic").map(|v| v.trim().eq_ignore_ascii_case("true"));
        Some(UnplacedBrush {
            name: actor.attribute_value(text, "Name").unwrap_or_default().to_owned(),
            class,
            csg_oper,
            poly_flags,
            role,
            placement: Placement::of_actor(text, actor),
            polygons,
            poly_attributes,
            b_static,
            begin_span: actor.begin_span,
        })
    }

    /// The brush placed as `generation` places it (`index`: how many brushes were placed
    /// before it, for a brush without a name); `None` when no polygon has three vertices.
    fn place(self, index: usize, generation: Option<Generation>) -> Option<PlacedBrush> {
        let transform = self.placement.transform(generation);
        let (polygons, poly_attributes): (Vec<_>, Vec<_>) = self
            .polygons
            .into_iter()
            .zip(self.poly_attributes)
            .filter(|(points, _)| points.len() >= 3)
            .map(|(mut points, mut attributes)| {
                for point in &mut points {
                    *point = transform.point(*point);
                }
                if generation == Some(Generation::Ue2) {
                    attributes.origin = attributes.ue2_origin;
                    attributes.pan = [0, 0];
                }
                attributes.origin = attributes.origin.map(|o| transform.point(o));
                attributes.ue2_origin = attributes.ue2_origin.map(|o| transform.point(o));
                attributes.texture_u = attributes.texture_u.map(|u| transform.texture_axis(u));
                attributes.texture_v = attributes.texture_v.map(|v| transform.texture_axis(v));
                if transform.mirrors {
                    points.reverse();
                }
                (points, attributes)
            })
            .unzip();
        if polygons.is_empty() {
            return None;
        }
        Some(PlacedBrush {
            name: if self.name.is_empty() { format!("Brush{index}") } else { self.name },
            class: self.class,
            csg_oper: self.csg_oper,
            poly_flags: self.poly_flags,
            role: self.role,
            polygons,
            poly_attributes,
            b_static: self.b_static,
            begin_span: self.begin_span,
        })
    }
}

/// Every brush actor of a map text, in file order (CSG's order), and the text's generation
/// markers, from one parse.
fn unplaced_brushes(text: &str) -> (Vec<UnplacedBrush>, Markers) {
    let parse = unreal_syntax::t3d::parse(text);
    let markers = crate::t3d::generation::markers(text, &parse.file.items);
    let brushes =
        walk::blocks(&parse.file).into_iter().filter_map(|(b, _)| UnplacedBrush::read(text, b));
    (brushes.collect(), markers)
}

/// [`unplaced_brushes`] from pieces of about `piece_bytes`; `None` where the pieces do not
/// join.
fn unplaced_in_pieces(text: &str, piece_bytes: usize) -> Option<(Vec<UnplacedBrush>, Markers)> {
    let read_items = |items: &T3dFile| {
        let markers = crate::t3d::generation::markers(text, &items.items);
        let brushes: Vec<UnplacedBrush> = walk::blocks(items)
            .into_iter()
            .filter_map(|(b, _)| UnplacedBrush::read(text, b))
            .collect();
        (brushes, markers)
    };
    let (read, rest) = crate::t3d::in_pieces::read_map_items(text, piece_bytes, |item| {
        read_items(&T3dFile { items: vec![item] })
    })
    .joined()?;
    let (mut brushes, mut markers) = (Vec::new(), Markers::default());
    // The map's items, then what the pieces left (the map block itself, anything after it).
    for (item_brushes, item_markers) in read.into_iter().chain([read_items(&rest.file)]) {
        brushes.extend(item_brushes);
        markers = markers.plus(item_markers);
    }
    Some((brushes, markers))
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

#[cfg(test)]
mod tests {
    use super::{brush_actors_in, unplaced_brushes, unplaced_in_pieces, UnplacedBrush};

    fn placed(
        (unplaced, markers): (Vec<UnplacedBrush>, crate::t3d::generation::Markers),
    ) -> Vec<super::PlacedBrush> {
        let generation = markers.generation();
        let mut out = Vec::new();
        for brush in unplaced {
            if let Some(placed) = brush.place(out.len(), generation) {
                out.push(placed);
            }
        }
        out
    }

    /// UnrealEd's import sets a property once per line, so the last `CsgOper` and
    /// `PolyFlags` lines are the ones the level is built with.
    #[test]
    fn the_last_line_of_a_property_decides() {
        let text = "Begin Actor Class=Brush Name=Brush1\n   CsgOper=CSG_Subtract\n   PolyFlags=8\n   CsgOper=CSG_Add\n   PolyFlags=0\n   Begin Brush Name=Model1\n      Begin PolyList\n         Begin Polygon\n            Vertex 0,0,0\n            Vertex 1,0,0\n            Vertex 0,1,0\n         End Polygon\n      End PolyList\n   End Brush\nEnd Actor\n";
        let (brushes, _) = unplaced_brushes(text);
        assert_eq!(brushes.len(), 1);
        assert_eq!(brushes[0].role, super::BrushRole::Additive);
        assert_eq!(brushes[0].poly_flags, 0);
    }

    /// Read in pieces of a few kilobytes, a map gives the brushes (and the generation) one
    /// parse gives.
    #[test]
    fn pieces_give_the_brushes_one_parse_gives() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let corpus = root.join("../shared/corpus/t3d");
        let mut maps = vec![
            unreal_mapgen::generate_map(300_000, 3),
            format!(
                "{}Begin Actor Class=Brush Name=After\n   Begin Brush Name=M\n      Begin Polygon\n         Vertex 0,0,0\n         Vertex 1,0,0\n         Vertex 0,1,0\n      End Polygon\n   End Brush\nEnd Actor\n",
                unreal_mapgen::generate_map(20_000, 4)
            ),
        ];
        for file in
            [root.join("examples/defects/Defects.t3d"), root.join("examples/clean/Room.t3d")]
                .into_iter()
                .chain(
                    ["ue1/blender_t3d_test_map.t3d", "ue2/xiii_cubes.t3d"].map(|f| corpus.join(f)),
                )
        {
            match std::fs::read(&file) {
                Ok(bytes) => maps.push(String::from_utf8_lossy(&bytes).into_owned()),
                Err(_) => eprintln!("skipped {}: not present", file.display()),
            }
        }
        let mut read_so = 0;
        for (i, text) in maps.iter().enumerate() {
            let plain = placed(unplaced_brushes(text));
            for piece_bytes in [512, 8192] {
                let has = brush_actors_in(text, None);
                assert_eq!(brush_actors_in(text, Some(piece_bytes)), has, "map {i}");
                if let Some(pieces) = unplaced_in_pieces(text, piece_bytes) {
                    read_so += 1;
                    assert_eq!(placed(pieces), plain, "map {i}, pieces of {piece_bytes}");
                }
            }
        }
        assert!(read_so >= 4, "{read_so}");
        assert!(placed(unplaced_brushes(&maps[0])).len() > 20);
        assert_eq!(
            placed(unplaced_brushes(&maps[1])).last().map(|b| b.name.as_str()),
            Some("After")
        );
    }
}
