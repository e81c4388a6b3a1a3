//! Hover: what the thing under the cursor means. Poly flags decoded for the document's engine
//! generation, vectors with their length (and a polygon's computed normal), textures, classes
//! and object references split into package, group and name, and blocks with their counts.

use std::fmt::Write as _;

use unreal_syntax::t3d::{
    Attribute, Block, BlockKind, Item, KeywordLine, LineKeyword, Property, Value, VectorLine,
};
use unreal_syntax::Span;

use super::{plural, CursorPath, ObjectFacts, ObjectPath, Source};
use crate::t3d::geometry::{self, Vec3};
use crate::Generation;
use unreal_engine::poly_flags::{self as flags, FlagRole};

/// A hover: the span it describes, Markdown text, and a picture of what it names when there
/// is one (the protocol layer shows it where the client renders Markdown images).
#[derive(Clone, Debug, PartialEq)]
pub struct Hover {
    pub span: Span,
    pub markdown: String,
    pub image: Option<HoverImage>,
}

/// A thumbnail for a hover: a PNG, already scaled down and size-capped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HoverImage {
    /// What the picture shows (the file's name), for its alternative text.
    pub alt: String,
    pub png: Vec<u8>,
    pub width: u32,
    pub height: u32,
}

impl Hover {
    /// A hover of text alone.
    pub fn text(span: Span, markdown: String) -> Self {
        Self { span, markdown, image: None }
    }
}

/// The hover at `offset`, or `None` where there is nothing to say.
pub fn hover(src: &Source<'_>, offset: u32, packages: &dyn ObjectFacts) -> Option<Hover> {
    let path = src.path_at(offset);
    match path.item? {
        Item::Block(block) => Some(block_line(src, &path, block, offset, packages)),
        Item::Property(property) => property_hover(src, property, offset, packages),
        Item::Vector(line) => Some(vector_hover(src, &path, line)),
        Item::Keyword(line) => keyword_hover(src, line, offset),
        Item::Unknown(_) => None,
    }
}

fn block_line(
    src: &Source<'_>,
    path: &CursorPath<'_>,
    block: &Block,
    offset: u32,
    packages: &dyn ObjectFacts,
) -> Hover {
    if block.begin_span.touches(offset) {
        if let Some(attribute) =
            block.attributes.iter().find(|a| a.key.cover(a.value).touches(offset))
        {
            if let Some(hover) = attribute_hover(src, path, block, *attribute, packages) {
                return hover;
            }
        }
    }
    let span = if block.begin_span.touches(offset) {
        Span::new(block.begin_span.start, block.kind_span.end.max(block.begin_span.start))
    } else {
        block.end.map_or(block.begin_span, |e| e.span)
    };
    Hover::text(span, block_summary(src, block))
}

fn attribute_hover(
    src: &Source<'_>,
    path: &CursorPath<'_>,
    block: &Block,
    attribute: Attribute,
    packages: &dyn ObjectFacts,
) -> Option<Hover> {
    let key = src.slice(attribute.key);
    let value = src.slice(attribute.value);
    let span = attribute.key.cover(attribute.value);
    let markdown = if key.eq_ignore_ascii_case("Flags") || key.eq_ignore_ascii_case("PolyFlags") {
        flags_markdown(key, value, src.generation)
    } else if key.eq_ignore_ascii_case("Texture") {
        texture_markdown(value, packages)
    } else if key.eq_ignore_ascii_case("Class") {
        class_markdown(value, packages)
    } else if key.eq_ignore_ascii_case("Name") {
        name_markdown(src, path, block, value)
    } else if key.eq_ignore_ascii_case("Link") {
        format!(
            "**Link** `{value}`\n\nThe index of the surface this polygon belongs to; coplanar polygons \
             merged by the editor share one."
        )
    } else if key.eq_ignore_ascii_case("Item") {
        format!("**Item** `{value}`\n\nThe polygon's item name (used only for editor selection).")
    } else {
        return None;
    };
    Some(Hover::text(span, markdown))
}

fn property_hover(
    src: &Source<'_>,
    property: &Property,
    offset: u32,
    packages: &dyn ObjectFacts,
) -> Option<Hover> {
    let key = src.slice(property.key);
    if let Some((span, class, path)) = object_ref_at(&property.value, offset) {
        let markdown = object_ref_markdown(src.slice(class), src.slice(path), packages);
        return Some(Hover::text(span, markdown));
    }
    let span = property.span;
    if key.eq_ignore_ascii_case("PolyFlags") {
        let value = src.slice(property.value.span());
        return Some(Hover::text(span, flags_markdown(key, value, src.generation)));
    }
    if let Some(v) = struct_vector(src.text, &property.value) {
        let mut markdown = format!("**{key}** `({}, {}, {})`", num(v.x), num(v.y), num(v.z));
        let _ = write!(markdown, "\n\nlength {}", num(v.length()));
        return Some(Hover::text(span, markdown));
    }
    None
}

fn vector_hover(src: &Source<'_>, path: &CursorPath<'_>, line: &VectorLine) -> Hover {
    let v = Vec3::from_array(line.value);
    let name = super::vector_keyword(src.text, line.span);
    let mut markdown = format!(
        "**{}** `({}, {}, {})`\n\nlength {}",
        src.slice(name),
        num(v.x),
        num(v.y),
        num(v.z),
        num(v.length())
    );
    let polygon = path.container().filter(|b| b.kind == BlockKind::Polygon);
    if let (LineKeyword::Normal, Some(polygon)) = (line.keyword, polygon) {
        let vertices: Vec<Vec3> =
            polygon.vectors(LineKeyword::Vertex).map(|v| Vec3::from_array(v.value)).collect();
        match geometry::polygon_normal(&vertices) {
            Some(computed) => {
                let _ = write!(
                    markdown,
                    "\n\ncomputed from the {}: `{}`",
                    plural(vertices.len(), "vertex", "vertices"),
                    geometry::format_vector(computed)
                );
                let cos = computed.dot(v.normalized().unwrap_or(Vec3::ZERO)).clamp(-1.0, 1.0);
                let degrees = cos.acos().to_degrees();
                if degrees < 0.01 {
                    markdown.push_str(" (matches)");
                } else {
                    let _ = write!(markdown, " (differs by {degrees:.2}°)");
                }
            }
            None => {
                markdown.push_str("\n\nthe vertices enclose no area: no normal can be computed");
            }
        }
    }
    Hover::text(line.span, markdown)
}

fn keyword_hover(src: &Source<'_>, line: &KeywordLine, offset: u32) -> Option<Hover> {
    if let Some(arg) = line.args.iter().find(|a| {
        a.key.is_some_and(|k| {
            k.cover(a.value).touches(offset) && src.slice(k).eq_ignore_ascii_case("PolyFlags")
        })
    }) {
        let key = arg.key.unwrap_or(arg.value);
        return Some(Hover::text(
            key.cover(arg.value),
            flags_markdown("PolyFlags", src.slice(arg.value), src.generation),
        ));
    }
    match line.keyword {
        LineKeyword::Pan => {
            let u = line.arg(src.text, "U").map_or("0", |(_, v)| v);
            let v = line.arg(src.text, "V").map_or("0", |(_, v)| v);
            Some(Hover::text(
                line.span,
                format!(
                    "**Pan** U={u} V={v}\n\nThe texture offset in texels along TextureU and TextureV \
                     (UE1; UE2 exports from package version 78 drop it)."
                ),
            ))
        }
        _ => None,
    }
}

/// The innermost object reference of a value that holds `offset`.
fn object_ref_at(value: &Value, offset: u32) -> Option<(Span, Span, Span)> {
    let mut found = None;
    crate::t3d::walk::for_each_object_ref(value, &mut |span, class, path| {
        if span.touches(offset) && found.is_none() {
            found = Some((span, class, path));
        }
    });
    found
}

/// `(X=..,Y=..,Z=..)` as a vector (missing components are 0, as UnrealEd reads them).
pub(crate) fn struct_vector(text: &str, value: &Value) -> Option<Vec3> {
    let component = |name: &str| value.field(text, name).map(|f| f.value.as_number());
    let (x, y, z) = (component("X"), component("Y"), component("Z"));
    if x.is_none() && y.is_none() && z.is_none() {
        return None;
    }
    // A present component that is not a number makes the value something else.
    let get = |c: Option<Option<f64>>| match c {
        None => Some(0.0),
        Some(v) => v,
    };
    Some(Vec3::new(get(x)?, get(y)?, get(z)?))
}

/// Flags hover text: the value, every set bit with its name and meaning in the document's
/// generation (both generations when unknown and they disagree), and the combinations.
pub fn flags_markdown(key: &str, value: &str, generation: Option<Generation>) -> String {
    let Some(bits) = unreal_syntax::t3d::parse_flags(value) else {
        return format!("**{key}** `{value}`\n\nnot a 32-bit integer: UnrealEd reads it as 0");
    };
    let mut out = format!("**{key}** `{value}` = `0x{bits:08X}`");
    if bits == 0 {
        out.push_str("\n\nno flags set");
        return out;
    }
    let same = flags::bits(bits).all(|b| {
        flags::lookup(b, Generation::Ue1).map(|f| f.name)
            == flags::lookup(b, Generation::Ue2).map(|f| f.name)
    });
    let generations: Vec<Generation> = if let Some(g) = generation {
        vec![g]
    } else if same {
        vec![Generation::Ue1]
    } else {
        vec![Generation::Ue1, Generation::Ue2]
    };
    let both = generations.len() > 1;
    if generation.is_none() && !both {
        out.push_str("\n\n(the same in UE1 and UE2)");
    } else if both {
        out.push_str(
            "\n\nThe engine generation is unknown and these bits mean different things in each:",
        );
    }
    for g in generations {
        out.push_str("\n\n");
        if both || generation.is_some() {
            let _ = writeln!(out, "{}:", g.name());
        }
        for bit in flags::bits(bits) {
            match flags::lookup(bit, g) {
                Some(flag) => {
                    let role = match flag.role {
                        FlagRole::InGame => "",
                        FlagRole::Editor => " *(editor only, dropped on import)*",
                        FlagRole::Internal => " *(internal)*",
                    };
                    let _ =
                        writeln!(out, "- `{}` `0x{bit:08X}`: {}{role}", flag.name, flag.meaning);
                }
                None => {
                    let _ = writeln!(out, "- `0x{bit:08X}`: not defined in {}", g.name());
                }
            }
        }
        let combinations = flags::combinations(bits, g);
        if !combinations.is_empty() {
            let names: Vec<String> = combinations.iter().map(|c| format!("`{}`", c.name)).collect();
            let _ = write!(out, "\npart of {}", names.join(", "));
        }
        while out.ends_with('\n') {
            out.pop();
        }
    }
    out
}

fn texture_markdown(value: &str, packages: &dyn ObjectFacts) -> String {
    let path = ObjectPath::parse(value);
    let mut out = format!("**Texture** `{}`", path.name);
    match path.package {
        Some(package) => {
            let _ = write!(out, "\n\n- package `{package}`");
            if !path.groups.is_empty() {
                let _ = write!(out, "\n- group `{}`", path.groups.join("."));
            }
        }
        None => out.push_str(
            "\n\nbare name: UE1 exports write textures without their package; the editor finds \
             the texture among the loaded packages",
        ),
    }
    append_package_object(&mut out, packages.object(Some("Texture"), value));
    out
}

fn class_markdown(value: &str, packages: &dyn ObjectFacts) -> String {
    let path = ObjectPath::parse(value);
    let mut out = format!("**Class** `{}`", path.name);
    if let Some(package) = path.package {
        let _ = write!(out, "\n\n- package `{package}`");
    }
    append_package_object(&mut out, packages.object(Some("Class"), value));
    out
}

fn object_ref_markdown(class: &str, full: &str, packages: &dyn ObjectFacts) -> String {
    let path = ObjectPath::parse(full);
    let mut out = format!("**{class}** `{}`\n", path.name);
    match path.package {
        Some(package) if package.eq_ignore_ascii_case("MyLevel") => {
            let _ = write!(out, "\n- in this map (`{package}`)");
        }
        Some(package) => {
            let _ = write!(out, "\n- package `{package}`");
        }
        None => {}
    }
    if !path.groups.is_empty() {
        let _ = write!(out, "\n- group `{}`", path.groups.join("."));
    }
    let _ = write!(out, "\n- class `{class}`");
    append_package_object(&mut out, packages.object(Some(class), full));
    out
}

fn append_package_object(out: &mut String, object: Option<super::PackageObject>) {
    let Some(object) = object else { return };
    if let Some(file) = &object.file {
        let _ = write!(out, "\n\nfrom `{file}`");
    }
    for (key, value) in &object.details {
        let _ = write!(out, "\n- {key}: {value}");
    }
}

fn name_markdown(src: &Source<'_>, path: &CursorPath<'_>, block: &Block, name: &str) -> String {
    match block.kind {
        BlockKind::Actor => actor_summary(src, block, name),
        BlockKind::Brush => {
            let polygons = brush_polygon_count(block);
            let mut out =
                format!("**Brush model** `{name}`\n\n{}", plural(polygons, "polygon", "polygons"));
            if let Some(actor) =
                path.blocks.iter().rev().nth(1).filter(|b| b.kind == BlockKind::Actor)
            {
                if let Some(actor_name) = actor.attribute_value(src.text, "Name") {
                    let _ = write!(out, "\n\nthe brush of actor `{actor_name}`");
                }
            }
            out
        }
        _ => format!("**{}** `{name}`", block.kind_span.text(src.text)),
    }
}

fn actor_summary(src: &Source<'_>, actor: &Block, name: &str) -> String {
    let class = actor.attribute_value(src.text, "Class").unwrap_or("?");
    let mut out = format!("**Actor** `{name}`\n\n- class `{class}`");
    if let Some(location) = actor_location(src.text, actor) {
        let _ = write!(
            out,
            "\n- location `({}, {}, {})`",
            num(location.x),
            num(location.y),
            num(location.z)
        );
    }
    let properties = actor.properties().count();
    let _ = write!(out, "\n- {}", plural(properties, "property", "properties"));
    if let Some(brush) = actor.blocks().find(|b| b.kind == BlockKind::Brush) {
        let _ = write!(
            out,
            "\n- brush of {}",
            plural(brush_polygon_count(brush), "polygon", "polygons")
        );
    }
    out
}

/// The actor's `Location=(X=..,Y=..,Z=..)` (a direct child: no deep walk).
pub(crate) fn actor_location(text: &str, actor: &Block) -> Option<Vec3> {
    actor.last_property(text, "Location").and_then(|p| struct_vector(text, &p.value))
}

fn brush_polygon_count(brush: &Block) -> usize {
    brush
        .blocks()
        .filter(|b| b.kind == BlockKind::PolyList)
        .map(|list| list.blocks().filter(|b| b.kind == BlockKind::Polygon).count())
        .sum()
}

fn block_summary(src: &Source<'_>, block: &Block) -> String {
    let kind = block.kind_span.text(src.text);
    match block.kind {
        BlockKind::Map | BlockKind::Level => {
            let actors = block.blocks().filter(|b| b.kind == BlockKind::Actor).count();
            format!("**Begin {kind}**: a whole level\n\n{}", plural(actors, "actor", "actors"))
        }
        BlockKind::Actor => {
            let name = block.attribute_value(src.text, "Name").unwrap_or("?");
            actor_summary(src, block, name).replacen("**Actor**", "**Begin Actor**", 1)
        }
        BlockKind::Brush => {
            let name = block.attribute_value(src.text, "Name").unwrap_or("?");
            format!(
                "**Begin Brush** `{name}`: a brush model\n\n{}",
                plural(brush_polygon_count(block), "polygon", "polygons")
            )
        }
        BlockKind::PolyList => {
            let polygons = block.blocks().filter(|b| b.kind == BlockKind::Polygon).count();
            format!(
                "**Begin PolyList**: the polygons of a brush\n\n{}",
                plural(polygons, "polygon", "polygons")
            )
        }
        BlockKind::Polygon => {
            let vertices = block.vectors(LineKeyword::Vertex).count();
            let mut out = format!(
                "**Begin Polygon**: one polygon of a brush\n\n- {}",
                plural(vertices, "vertex", "vertices")
            );
            if let Some(texture) = block.attribute_value(src.text, "Texture") {
                let _ = write!(out, "\n- texture `{texture}`");
            }
            if let Some(bits) =
                block.attribute_value(src.text, "Flags").and_then(unreal_syntax::t3d::parse_flags)
            {
                let names = flag_names(bits, src.generation);
                if !names.is_empty() {
                    let _ = write!(out, "\n- flags {names}");
                }
            }
            out
        }
        BlockKind::Object => {
            let class = block.attribute_value(src.text, "Class").unwrap_or("?");
            let name = block.attribute_value(src.text, "Name").unwrap_or("?");
            format!("**Begin Object** `{name}`: an object of class `{class}` (UE2)")
        }
        BlockKind::Surface => "**Begin Surface**: the surfaces of a UE2 brush model".to_owned(),
        BlockKind::Terrain => format!("**Begin {kind}**: UE2 terrain data"),
        BlockKind::StaticMesh => "**Begin StaticMesh**: a UE2 static mesh".to_owned(),
        BlockKind::Triangle => "**Begin Triangle**: one static mesh triangle".to_owned(),
        BlockKind::Other => format!("**Begin {kind}**"),
    }
}

/// `PF_Masked | PF_TwoSided` for a value in a generation (UE1 names where unknown, with the
/// bits whose names differ shown as `UE1/UE2`).
pub(crate) fn flag_names(bits: u32, generation: Option<Generation>) -> String {
    let names: Vec<String> = flags::bits(bits)
        .map(|bit| {
            if let Some(g) = generation {
                return flags::name(bit, g);
            }
            let ue1 = flags::name(bit, Generation::Ue1);
            let ue2 = flags::name(bit, Generation::Ue2);
            if ue1 == ue2 {
                ue1
            } else {
                format!("{ue1}/{ue2}")
            }
        })
        .collect();
    names.join(" | ")
}

/// A number without trailing zeros (`128`, `0.5`, `-0.333333`).
pub(crate) fn num(v: f64) -> String {
    let s = format!("{v:.6}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" {
        "0".to_owned()
    } else {
        s.to_owned()
    }
}
