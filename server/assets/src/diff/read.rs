//! A map read for comparing: its actors in file order, each with what a change is measured
//! in (class, name, location, rotation, properties with numbers as numbers, a brush's
//! polygons), and nothing of how the file was laid out.

use unreal_engine::poly_flags::EDITOR_ONLY;
use unreal_syntax::t3d::{Block, BlockKind, Item, LineKeyword, Parse, Value};

use unreal_analysis::line_index::LineIndex;
use unreal_analysis::t3d::in_pieces::PiecesRead;

/// Properties that change without meaning on every export or edit: the actor's own name
/// (already on its `Begin Actor` line), the selection, the brush model's object name
/// (renumbered with the actors; the geometry is compared instead), the level it belongs to,
/// and what the editor derives from the location or a rebuild (`ColLocation`,
/// `OldLocation`, `Region`: zone and BSP leaf numbers).
pub const IGNORED_PROPERTIES: &[&str] =
    &["Name", "bSelected", "Brush", "Level", "ColLocation", "OldLocation", "Region"];

/// A property value as compared: numbers by value, words ignoring case, structs field by
/// field.
#[derive(Clone, Debug, PartialEq)]
pub enum PropValue {
    Number(f64),
    Text(String),
    Struct(Vec<(String, PropValue)>),
}

impl PropValue {
    /// The value written back for people: numbers without UnrealEd's padding (`96`, `0.25`).
    pub fn show(&self) -> String {
        match self {
            PropValue::Number(v) => show_number(*v),
            PropValue::Text(t) => t.clone(),
            PropValue::Struct(fields) => {
                let inner: Vec<String> =
                    fields.iter().map(|(k, v)| format!("{k}={}", v.show())).collect();
                format!("({})", inner.join(","))
            }
        }
    }
}

pub use unreal_syntax::t3d::show_number;

/// One polygon of a brush.
#[derive(Clone, Debug, PartialEq)]
pub struct Polygon {
    pub vertices: Vec<[f64; 3]>,
    pub texture: String,
    /// Without the editor-only bits ([`EDITOR_ONLY`]).
    pub flags: u32,
    /// `Origin`, `TextureU`, `TextureV` (zero when absent) and `Pan U V`.
    pub alignment: ([[f64; 3]; 3], [i64; 2]),
}

/// One actor of the map.
#[derive(Clone, Debug, PartialEq)]
pub struct MapActor {
    pub class: String,
    pub name: String,
    /// 1-based line of its `Begin Actor`.
    pub line: u32,
    pub location: [f64; 3],
    /// Pitch, Yaw, Roll in Unreal's units (65536 a turn).
    pub rotation: [f64; 3],
    /// Every other property, `Key` or `Key(3)`, struct fields nested, in file order.
    pub properties: Vec<(String, PropValue)>,
    /// The polygons of its `Begin Brush` (brush actors and volumes).
    pub brush: Option<Vec<Polygon>>,
}

impl MapActor {}

/// A map's actors in file order, and the syntax errors (line and message) that kept parts
/// of it from being read.
#[derive(Clone, Debug, Default)]
pub struct MapActors {
    pub actors: Vec<MapActor>,
    pub unparsed: Vec<(u32, String)>,
}

/// Reads a map's text (decoded); `Err` when the text holds no `Begin` block at all (it is no
/// map). A map of a few megabytes or more is read in pieces (`read_in_pieces`); a
/// smaller one in one plain parse (the two maps of a comparison are read in parallel).
pub fn read_map_text(text: &str) -> Result<MapActors, String> {
    // From 256 KB in pieces of 64 KB (as `lint` reads a map): a map of mismatched blocks then
    // stops the reading early instead of being parsed whole (3.9 MB of them: 150 MB).
    let small_pieces = (text.len() >= 256 << 10).then_some(64 << 10);
    let piece_bytes = unreal_analysis::t3d::in_pieces::piece_bytes_for(text).or(small_pieces);
    if let Some(piece_bytes) = piece_bytes {
        if let Some(read) = read_in_pieces(text, piece_bytes)? {
            return Ok(read);
        }
    }
    let parse = unreal_syntax::t3d::parse(text);
    if parse.file.items.iter().all(|i| i.as_block().is_none()) && !text.trim().is_empty() {
        return Err("no `Begin` block: expected a T3D map starting with `Begin Map`".to_owned());
    }
    Ok(read_actors(text, &parse))
}

/// Reads a map that starts with `Begin Map` (or `Begin Level`) in pieces of about
/// `piece_bytes` ([`unreal_analysis::t3d::in_pieces`]): the same result as one parse; `None` when the
/// map does not start with a map block or the pieces do not join (a broken file: then the
/// plain parse reads it); `Err` when so many of its `Begin`/`End` lines do not pair up that
/// reading stopped ([`unreal_analysis::t3d::in_pieces::MAX_MISMATCHES`]): such a file is not a
/// map to compare, and reading it whole would cost about 1 KB a mismatch.
fn read_in_pieces(text: &str, piece_bytes: usize) -> Result<Option<MapActors>, String> {
    let lines = LineIndex::new(text);
    let line_of = |offset: u32| {
        lines.line_col(text, offset, unreal_analysis::line_index::ColumnUnit::Utf8).line + 1
    };
    // The map's own actors; its other items are nothing the plain reading reads either.
    let read = unreal_analysis::t3d::in_pieces::read_map_items(text, piece_bytes, |item| {
        let Item::Block(block) = item else { return None };
        (block.kind == BlockKind::Actor)
            .then(|| read_actor(text, &block, line_of(block.begin_span.start)))
    });
    let (actors, rest) = match read {
        PiecesRead::Joined(actors, rest) => (actors, rest),
        PiecesRead::NotJoined => return Ok(None),
        PiecesRead::TooBroken(stop) => return Err(stop.message(text)),
    };
    // What the pieces left: the errors, and actors outside the map (after `End Map`).
    let mut out = read_parsed(&rest, &line_of);
    out.actors = actors.into_iter().flatten().collect();
    out.actors.extend(rest_actors(text, &rest, &line_of));
    Ok(Some(out))
}

/// Reads the actors of a parsed map (`Begin Actor` blocks at the top or inside `Begin Map`).
pub fn read_actors(text: &str, parse: &Parse) -> MapActors {
    let lines = LineIndex::new(text);
    let line_of = |offset: u32| {
        lines.line_col(text, offset, unreal_analysis::line_index::ColumnUnit::Utf8).line + 1
    };
    let mut out = read_parsed(parse, &line_of);
    out.actors = rest_actors(text, parse, &line_of);
    out
}

/// At most this many lines that could not be read are listed a map; one more entry says
/// how many were left out (400,000 actors never closed were 150 MB of `diff` output).
const MAX_UNPARSED: usize = 100;

/// A parse's syntax errors as lines that could not be read (the actors are left empty).
fn read_parsed(parse: &Parse, line_of: &dyn Fn(u32) -> u32) -> MapActors {
    let mut out = MapActors::default();
    for error in parse.errors.iter().take(MAX_UNPARSED) {
        out.unparsed.push((line_of(error.span.start), error.message.clone()));
    }
    if let Some(first_left) = parse.errors.get(MAX_UNPARSED) {
        let more = parse.errors.len() - MAX_UNPARSED;
        out.unparsed.push((
            line_of(first_left.span.start),
            format!("{more} more lines that could not be read from here on are not listed"),
        ));
    }
    out
}

/// The actor blocks of a parse, in file order, read.
fn rest_actors(text: &str, parse: &Parse, line_of: &dyn Fn(u32) -> u32) -> Vec<MapActor> {
    let mut blocks: Vec<&Block> = Vec::new();
    for item in &parse.file.items {
        let Item::Block(block) = item else { continue };
        if matches!(block.kind, BlockKind::Map | BlockKind::Level) {
            blocks.extend(block.blocks().filter(|b| b.kind == BlockKind::Actor));
        } else if block.kind == BlockKind::Actor {
            blocks.push(block);
        }
    }
    blocks
        .into_iter()
        .map(|block| read_actor(text, block, line_of(block.begin_span.start)))
        .collect()
}

fn read_actor(text: &str, block: &Block, line: u32) -> MapActor {
    let class = block.attribute_value(text, "Class").unwrap_or_default().to_owned();
    let name = block.attribute_value(text, "Name").unwrap_or_default().to_owned();
    let mut actor = MapActor {
        class,
        name,
        line,
        location: [0.0; 3],
        rotation: [0.0; 3],
        properties: Vec::new(),
        brush: None,
    };
    for property in block.properties() {
        let key = property.key.text(text);
        if key.eq_ignore_ascii_case("Location") {
            actor.location = fields3(text, &property.value, ["X", "Y", "Z"]);
            continue;
        }
        if key.eq_ignore_ascii_case("Rotation") {
            actor.rotation = fields3(text, &property.value, ["Pitch", "Yaw", "Roll"]);
            continue;
        }
        if IGNORED_PROPERTIES.iter().any(|k| k.eq_ignore_ascii_case(key)) {
            continue;
        }
        let key = match property.index {
            Some((_, i)) => format!("{key}({i})"),
            None => key.to_owned(),
        };
        actor.properties.push((key, value(text, &property.value)));
    }
    if let Some(brush) = block.blocks().find(|b| b.kind == BlockKind::Brush) {
        actor.brush = Some(read_polygons(text, brush));
    }
    actor
}

fn fields3(text: &str, value: &Value, names: [&str; 3]) -> [f64; 3] {
    names.map(|n| value.field(text, n).and_then(|f| number(text, &f.value)).unwrap_or(0.0))
}

fn number(text: &str, value: &Value) -> Option<f64> {
    match value {
        Value::Number { value, .. } => Some(*value),
        other => unreal_syntax::t3d::parse_number(other.span().text(text)),
    }
}

fn value(text: &str, value: &Value) -> PropValue {
    match value {
        Value::Number { value, .. } => PropValue::Number(*value),
        Value::Struct { fields, .. } => PropValue::Struct(
            fields
                .iter()
                .enumerate()
                .map(|(i, f)| {
                    let key = match (f.key, f.index) {
                        (Some(k), Some((_, n))) => format!("{}({n})", k.text(text)),
                        (Some(k), None) => k.text(text).to_owned(),
                        (None, _) => format!("({i})"),
                    };
                    (key, self::value(text, &f.value))
                })
                .collect(),
        ),
        other => {
            let raw = other.span().text(text);
            match unreal_syntax::t3d::parse_number(raw) {
                Some(v) => PropValue::Number(v),
                None => PropValue::Text(raw.to_owned()),
            }
        }
    }
}

fn read_polygons(text: &str, brush: &Block) -> Vec<Polygon> {
    let mut polygons = Vec::new();
    let mut stack: Vec<&Block> = brush.blocks().collect();
    stack.reverse();
    while let Some(block) = stack.pop() {
        if block.kind != BlockKind::Polygon {
            let mut children: Vec<&Block> = block.blocks().collect();
            children.reverse();
            stack.extend(children);
            continue;
        }
        let vector = |k| block.vector(k).map_or([0.0; 3], |v| v.value);
        let pan = block.children.iter().find_map(|i| match i {
            Item::Keyword(k) if k.keyword == LineKeyword::Pan => Some(k),
            _ => None,
        });
        let pan_of = |key: &str| {
            pan.and_then(|p| p.arg(text, key))
                .and_then(|(_, v)| unreal_syntax::t3d::parse_int(v))
                .unwrap_or(0)
        };
        polygons.push(Polygon {
            vertices: block.vectors(LineKeyword::Vertex).map(|v| v.value).collect(),
            texture: block.attribute_value(text, "Texture").unwrap_or_default().to_owned(),
            flags: block
                .attribute_value(text, "Flags")
                .and_then(unreal_syntax::t3d::parse_flags)
                .unwrap_or(0)
                & !EDITOR_ONLY,
            alignment: (
                [
                    vector(LineKeyword::Origin),
                    vector(LineKeyword::TextureU),
                    vector(LineKeyword::TextureV),
                ],
                [pan_of("U"), pan_of("V")],
            ),
        });
    }
    polygons
}

#[cfg(test)]
mod tests {
    use super::{read_in_pieces, read_map_text, MAX_UNPARSED};

    /// The plain parse's reading of a map.
    fn plain(text: &str) -> super::MapActors {
        super::read_actors(text, &unreal_syntax::t3d::parse(text))
    }

    /// Read in pieces of a few kilobytes, a map gives what one parse gives; a broken map
    /// whose pieces do not join is left to the plain parse.
    #[test]
    fn pieces_read_what_one_parse_reads() {
        let mut maps = vec![
            ("generated".to_owned(), unreal_mapgen::generate_map(400_000, 7)),
            (
                "broken".to_owned(),
                "Begin Map\nBegin Actor Class=Light Name=A\nLocation=(X=1)\nBegin Actor Class=Light Name=B\nEnd Actor\nEnd Map\nBegin Actor Class=Light Name=C\nEnd Actor\n".repeat(300),
            ),
            (
                "after the map".to_owned(),
                format!(
                    "{}Begin Actor Class=Light Name=Late\nEnd Actor\n",
                    "Begin Map\nBegin Actor Class=Light Name=A\nEnd Actor\nEnd Map\n"
                ),
            ),
        ];
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let corpus = root.join("../shared/corpus/t3d");
        let files = ["examples/defects/Defects.t3d", "examples/clean/Room.t3d"]
            .map(|f| root.join(f))
            .into_iter()
            .chain(["ue1/blender_t3d_test_map.t3d", "ue2/xiii_cubes.t3d"].map(|f| corpus.join(f)));
        for file in files {
            match std::fs::read(&file) {
                Ok(bytes) => maps.push((
                    file.display().to_string(),
                    String::from_utf8_lossy(&bytes).into_owned(),
                )),
                Err(_) => {
                    eprintln!("skipped {}: not present (../shared/corpus absent?)", file.display());
                }
            }
        }
        let mut read_so = 0;
        for (name, text) in &maps {
            for piece_bytes in [512, 4096, 65_536] {
                if let Ok(Some(pieces)) = read_in_pieces(text, piece_bytes) {
                    read_so += 1;
                    let plain = plain(text);
                    assert_eq!(pieces.actors, plain.actors, "{name}, pieces of {piece_bytes}");
                    assert_eq!(pieces.unparsed, plain.unparsed, "{name}, pieces of {piece_bytes}");
                }
            }
        }
        assert!(read_so >= 6, "the generated map and the examples are read in pieces: {read_so}");
        let generated = &maps[0].1;
        assert!(plain(generated).actors.len() > 50);
    }

    /// 400,000 actors never closed are 100 lines and one that counts the rest.
    #[test]
    fn the_lines_not_read_are_listed_up_to_a_bound() {
        let text = format!("Begin Map\n{}", "Begin Actor Class=Light Name=L\n".repeat(1_000));
        let read = read_map_text(&text).unwrap();
        assert_eq!(read.unparsed.len(), MAX_UNPARSED + 1);
        let (line, last) = read.unparsed.last().unwrap();
        assert_eq!(
            (*line, last.as_str()),
            (101, "901 more lines that could not be read from here on are not listed")
        );
    }

    /// A big map made of actors never closed (400,000 in 16 MB) is not read to its end: the
    /// reading in pieces stops once more than `MAX_MISMATCHES` `Begin`/`End` lines do not
    /// pair up, and the comparison says so instead of reading each of them (about 1 KB
    /// apiece).
    #[test]
    fn a_map_of_mismatches_stops_the_reading() {
        use std::fmt::Write;
        let mut text = String::from("Begin Map\n");
        for i in 0..400_000 {
            let _ = writeln!(text, "Begin Actor Class=Light Name=Light{i}");
        }
        let Err(message) = read_map_text(&text) else { panic!("read to its end") };
        let stopped: usize = message
            .split("stopped on line ")
            .nth(1)
            .and_then(|rest| rest.split(':').next())
            .and_then(|line| line.parse().ok())
            .unwrap_or(0);
        assert!(
            message.starts_with(
                "more than 10000 `Begin`/`End` lines do not pair up (the first on line 2)"
            ),
            "{message}"
        );
        // The line of the 10,001st mismatch (the first is on line 2).
        assert_eq!(stopped, 10_002, "{message}");
    }
}
