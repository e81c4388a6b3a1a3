//! What each part of a map (one segment of an open document, or the whole tree) tells the
//! map-wide checks, read once per part and shared by them: the names its actors answer to
//! and the links they make ([`super::actor_links`]), the actors placed one on another
//! (`t3d-actor-duplicated-in-place`), whether a start is placed (`t3d-no-player-start`),
//! which classes up its actors' chains cannot be read (`t3d-unreadable-class`), and where
//! its `LevelInfo` stands (only a file with one is a whole map).
//!
//! One summary per part, not one per rule: an open map of 200,000 actors keeps this for
//! every actor, and six rules each with its own copy cost three times the memory.

use std::hash::{BuildHasher, Hasher};

use rustc_hash::FxBuildHasher;
use smallvec::SmallVec;
use unreal_syntax::t3d::{Block, BlockKind, Item, Value};
use unreal_syntax::Span;

use super::summary::Summary;
use super::T3dContext;
use crate::t3d::actors::holds_brush;
use crate::t3d::placement::Placement;

/// Which property makes the link.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LinkKind {
    Event,
    AttachTag,
    AiScriptTag,
    TeleporterUrl,
}

/// One link an actor makes: the property's value and where it stands.
#[derive(Clone, Debug, PartialEq)]
pub struct Link {
    pub kind: LinkKind,
    /// The name it looks for, as written (without quotes).
    pub target: Box<str>,
    pub hash: u64,
    /// The value's span.
    pub span: Span,
    /// The hash of the linking actor's own `Tag`: a teleporter never picks itself.
    pub own_tag: u64,
    /// The linking actor's class, as written without a package (`AttachMover`).
    pub class: Box<str>,
    /// The generation of the part it stands in (`None`: not known).
    pub generation: Option<crate::Generation>,
}

/// The hash the links compare by: names are compared ignoring ASCII case, as the engine's
/// names are.
pub fn name_hash(name: &str) -> u64 {
    let mut hasher = FxBuildHasher.build_hasher();
    for byte in name.bytes() {
        hasher.write_u8(byte.to_ascii_lowercase());
    }
    hasher.finish()
}

/// A class name without its package (`Engine.LevelInfo` is `LevelInfo`), quotes trimmed.
pub fn bare_class(class: &str) -> &str {
    let class = class.trim().trim_matches('"');
    class.rsplit('.').next().unwrap_or(class)
}

/// The text of a one-word value (`Door1`, `"Door1"`), quotes and spaces trimmed; `None` for a
/// struct or object reference.
pub fn word_value<'t>(value: &Value, text: &'t str) -> Option<&'t str> {
    match value {
        Value::Word { span } | Value::String { span } | Value::Raw { span } => {
            Some(span.text(text).trim().trim_matches('"').trim())
        }
        Value::Number { span, .. } => Some(span.text(text).trim()),
        Value::Empty { .. } | Value::ObjectRef { .. } | Value::Struct { .. } => None,
    }
}

/// The value of the actor's property `key` (the last one written, as import keeps the last),
/// with its span.
pub fn property_word<'t>(block: &Block, text: &'t str, key: &str) -> Option<(Span, &'t str)> {
    block.last_property(text, key).and_then(|p| line_word(p, text))
}

/// A property line's value span and word ([`word_value`]).
fn line_word<'t>(
    property: &unreal_syntax::t3d::Property,
    text: &'t str,
) -> Option<(Span, &'t str)> {
    Some((property.value.span(), word_value(&property.value, text)?))
}

/// Whether a (local) teleporter URL names a place in this level: one without `/` or `#`
/// names a `Teleporter`'s `Tag`; the others name another level or server (`Teleporter.uc`'s
/// `Touch`).
pub fn is_local_url(url: &str) -> bool {
    !url.is_empty() && !url.contains('/') && !url.contains('#')
}

/// What one part says: most parts are one actor, so its lists hold one item without a heap
/// allocation of their own.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MapFacts {
    /// The `Class=` value of the part's `LevelInfo`, when it has one.
    pub level_info: Option<Span>,
    /// The hash of each actor's `Tag` (the class's own name when the actor has no `Tag=`
    /// line: spawning an actor sets its tag to its class's name), and of each name a UE2
    /// scripted controller takes as tag while it waits for an event.
    pub tags: SmallVec<[u64; 1]>,
    /// The hash of each actor's `Name=`.
    pub names: SmallVec<[u64; 1]>,
    /// Every link the part's actors make, of every kind.
    pub links: Vec<Link>,
    /// The actors a copy in place may be: every one but brushes, markers path building
    /// places, and actors whose lines are not their own.
    pub placed: SmallVec<[Placed; 1]>,
    /// An actor of the part is a `PlayerStart` (or derived from it).
    pub start_found: bool,
    /// An actor's class cannot be traced to its parents: it may be a start.
    pub start_unsure: bool,
    /// The compiled classes up the chains of the part's actors whose data could not be read
    /// (`t3d-unreadable-class`), in the order their first actor stands.
    pub unreadable: Vec<UnreadableClass>,
}

/// A class whose compiled data cannot be read, as one part of a map meets it.
#[derive(Clone, Debug, PartialEq)]
pub struct UnreadableClass {
    /// `Package.Name` of the class that cannot be read (the actor's class or a parent).
    pub class: Box<str>,
    /// The reader's error.
    pub why: Box<str>,
    /// The `Class=` value of the part's first actor whose chain holds it.
    pub span: Span,
    /// How many of the part's actors have it in their chain.
    pub actors: u32,
}

/// One actor as `t3d-actor-duplicated-in-place` compares them.
#[derive(Clone, Debug, PartialEq)]
pub struct Placed {
    /// A hash of the class and every line but the name and the place.
    pub content: u64,
    pub location: [f64; 3],
    /// The actor's `Name=` value (or its `Begin Actor` line).
    pub span: Span,
}

/// The lines of an actor that do not say what the mapper made it: its place (compared apart,
/// with the engine's tolerance), where it was before a move, the editor's selection, and what
/// building the paths and the BSP wrote into it (its zone and leaf, its navigation links, a
/// pickup's marker), which differ between two copies once paths are rebuilt.
fn not_chosen(key: &str) -> bool {
    // By length first: every property line of every actor asks, and most keys have a
    // length none of these has.
    let candidates: &[&str] = match key.len() {
        4 => &["cost"],
        5 => &["Paths"],
        6 => &["Region"],
        8 => &["Location", "myMarker", "PathList"],
        9 => &["bSelected"],
        10 => &["markedItem"],
        11 => &["OldLocation", "ColLocation", "PrunedPaths", "nextOrdered", "prevOrdered"],
        12 => &["previousPath"],
        13 => &["upstreamPaths", "visitedWeight"],
        14 => &["bestPathWeight"],
        15 => &["VisNoReachPaths"],
        19 => &["nextNavigationPoint"],
        _ => &[],
    };
    candidates.iter().any(|k| key.eq_ignore_ascii_case(k))
}

/// The classes path building places by itself (a marker at each pickup, warp zone, button
/// and trigger): two of them at one place are the engine's doing, not a copy.
const PLACED_BY_PATHS: &[&str] =
    &["InventorySpot", "WarpZoneMarker", "ButtonMarker", "TriggerMarker"];

/// The links an actor may make, and the property that makes each.
const LINK_KEYS: [(LinkKind, LinkSlot); 4] = [
    (LinkKind::Event, LinkSlot::Event),
    (LinkKind::AttachTag, LinkSlot::AttachTag),
    (LinkKind::AiScriptTag, LinkSlot::AiScriptTag),
    (LinkKind::TeleporterUrl, LinkSlot::Url),
];

/// The property lines of an actor the map facts read, each the last one written (as the
/// import keeps it), found in one pass over the actor's lines rather than one per key: on
/// a map of thousands of actors, a pass per key was a tenth of a lint.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum LinkSlot {
    Tag,
    Event,
    AttachTag,
    AiScriptTag,
    Url,
}

#[derive(Default)]
struct ActorLines<'b> {
    found: [Option<&'b unreal_syntax::t3d::Property>; 5],
    static_mesh: bool,
}

impl<'b> ActorLines<'b> {
    fn read(block: &'b Block, text: &str) -> Self {
        let mut lines = ActorLines::default();
        for property in block.properties() {
            let key = property.key.text(text);
            if property.index.is_some() {
                lines.static_mesh |= key.eq_ignore_ascii_case("StaticMesh");
                continue;
            }
            // The lengths tell the keys apart before any comparison of letters.
            let slot = match key.len() {
                3 if key.eq_ignore_ascii_case("Tag") => LinkSlot::Tag,
                3 if key.eq_ignore_ascii_case("URL") => LinkSlot::Url,
                5 if key.eq_ignore_ascii_case("Event") => LinkSlot::Event,
                9 if key.eq_ignore_ascii_case("AttachTag") => LinkSlot::AttachTag,
                11 if key.eq_ignore_ascii_case("AIScriptTag") => LinkSlot::AiScriptTag,
                10 if key.eq_ignore_ascii_case("StaticMesh") => {
                    lines.static_mesh = true;
                    continue;
                }
                _ => continue,
            };
            lines.found[slot as usize] = Some(property);
        }
        lines
    }

    /// The word of the slot's line, as [`property_word`] reads it.
    fn word<'t>(&self, slot: LinkSlot, text: &'t str) -> Option<(Span, &'t str)> {
        line_word(self.found[slot as usize]?, text)
    }
}

/// The part's facts as a summary, read once per context whichever rule asks first.
pub fn summary_of(ctx: &T3dContext<'_>) -> Summary {
    ctx.map_facts
        .get_or_init(|| {
            let facts = MapFacts::collect(ctx);
            let empty = facts == MapFacts::default();
            Summary::unless_empty(facts, empty)
        })
        .clone()
}

/// A rule that reports over the map facts of every part (`t3d-no-player-start`,
/// `t3d-actor-duplicated-in-place`, `t3d-unreadable-class`): its whole-text check and its
/// summarizer read the facts each part collects once, whichever rule asks first, and differ
/// only in the report.
pub struct FactsRule(pub fn(&[(&MapFacts, i64)], &mut Vec<crate::Diagnostic>));

impl FactsRule {
    /// The rule over one whole text.
    pub fn check(&self, ctx: &T3dContext<'_>, out: &mut Vec<crate::Diagnostic>) {
        let summary = summary_of(ctx);
        (self.0)(&parts_of(&[(&summary, 0)]), out);
    }
}

impl super::summary::Summarized for FactsRule {
    fn summarize(&self, ctx: &T3dContext<'_>, _start: u32) -> Summary {
        summary_of(ctx)
    }

    fn report(&self, parts: &[(&Summary, i64)], out: &mut Vec<crate::Diagnostic>) {
        (self.0)(&parts_of(parts), out);
    }
}

/// The facts of each part of a summarized rule, with the distance each part moved.
pub fn parts_of<'a>(parts: &[(&'a Summary, i64)]) -> Vec<(&'a MapFacts, i64)> {
    parts.iter().filter_map(|&(summary, delta)| Some((summary.get::<MapFacts>()?, delta))).collect()
}

impl MapFacts {
    fn collect(ctx: &T3dContext<'_>) -> Self {
        let text = ctx.text;
        let mut facts = MapFacts::default();
        // A class is traced once per part, however many actors use it.
        let mut traced: Vec<(&str, Option<bool>)> = Vec::new();
        let mut unreadable_traced: Vec<(&str, Option<(String, String)>)> = Vec::new();
        for &(block, parent) in &ctx.blocks {
            if block.kind != BlockKind::Actor {
                // UE2's `ACTION_WaitForEvent` (an object inside a `ScriptedSequence`) gives
                // the scripted controller its `ExternalEvent` as tag while it waits: that
                // name answers an `Event` (UT2004 `Gameplay/Classes/ACTION_WaitForEvent.uc`).
                if let Some((_, event)) = property_word(block, text, "ExternalEvent") {
                    if !event.is_empty() && !event.eq_ignore_ascii_case("None") {
                        facts.tags.push(name_hash(event));
                    }
                }
                continue;
            }
            let class_value = block.attribute(text, "Class");
            let class = class_value.map_or("", |(_, c)| bare_class(c));
            if class.eq_ignore_ascii_case("LevelInfo") {
                facts.level_info = class_value.map(|(attribute, _)| attribute.value);
            } else if let Some((_, written)) = class_value {
                let known = traced.iter().find(|(c, _)| c.eq_ignore_ascii_case(written));
                let verdict = if let Some(&(_, verdict)) = known {
                    verdict
                } else {
                    let verdict = is_start(ctx, written);
                    traced.push((written, verdict));
                    verdict
                };
                match verdict {
                    Some(true) => facts.start_found = true,
                    Some(false) => {}
                    None => facts.start_unsure = true,
                }
            }
            if let (Some(index), Some((attribute, written))) = (ctx.packages, class_value) {
                let known = unreadable_traced.iter().find(|(c, _)| c.eq_ignore_ascii_case(written));
                let found = if let Some((_, found)) = known {
                    found.clone()
                } else {
                    let found = index.unreadable_in_chain(written.trim_matches('"'));
                    unreadable_traced.push((written, found.clone()));
                    found
                };
                if let Some((unreadable, why)) = found {
                    match facts
                        .unreadable
                        .iter_mut()
                        .find(|u| u.class.eq_ignore_ascii_case(&unreadable))
                    {
                        Some(seen) => seen.actors += 1,
                        None => facts.unreadable.push(UnreadableClass {
                            class: unreadable.into(),
                            why: why.into(),
                            span: attribute.value,
                            actors: 1,
                        }),
                    }
                }
            }
            let lines = ActorLines::read(block, text);
            let tag = lines.word(LinkSlot::Tag, text).map_or(class, |(_, tag)| tag);
            let own_tag = name_hash(tag);
            facts.tags.push(own_tag);
            if let Some(name) = block.attribute_value(text, "Name") {
                facts.names.push(name_hash(name.trim_matches('"')));
            }
            for (kind, slot) in LINK_KEYS {
                let Some((span, target)) = lines.word(slot, text) else { continue };
                // `None` is the empty name; an empty URL makes a destination only.
                if target.is_empty() || target.eq_ignore_ascii_case("None") {
                    continue;
                }
                if kind == LinkKind::TeleporterUrl && !is_local_url(target) {
                    continue;
                }
                facts.links.push(Link {
                    kind,
                    target: target.into(),
                    hash: name_hash(target),
                    span,
                    own_tag,
                    class: class.into(),
                    generation: ctx.generation,
                });
            }
            if let Some(placed) = placed(block, parent, text, class_value, &lines) {
                facts.placed.push(placed);
            }
        }
        facts.tags.shrink_to_fit();
        facts.names.shrink_to_fit();
        facts.links.shrink_to_fit();
        facts.placed.shrink_to_fit();
        facts.unreadable.shrink_to_fit();
        facts
    }
}

/// The actor as the copy-in-place rule compares it, unless it is not compared.
fn placed(
    block: &Block,
    parent: Option<&Block>,
    text: &str,
    class_value: Option<(&unreal_syntax::t3d::Attribute, &str)>,
    lines: &ActorLines<'_>,
) -> Option<Placed> {
    let written_class = class_value?.1;
    let class = bare_class(written_class);
    // An actor never closed, or inside another (a missing `End Actor`), has lines that are
    // not its own; a brush's shape is not in its lines.
    let misplaced = block.end.is_none() || parent.is_some_and(|p| p.kind == BlockKind::Actor);
    if misplaced
        || holds_brush(block)
        || PLACED_BY_PATHS.iter().any(|c| class.eq_ignore_ascii_case(c))
    {
        return None;
    }
    // A static mesh actor without its `StaticMesh` line: exports by other tools than
    // UnrealEd leave set references out (real SWAT 4 and Tribes exports), and two meshes
    // sharing a pivot (a pillar's base and top) would look alike.
    let ending = "staticmeshactor";
    if class.len() >= ending.len()
        && class.as_bytes()[class.len() - ending.len()..].eq_ignore_ascii_case(ending.as_bytes())
        && !lines.static_mesh
    {
        return None;
    }
    let mut hasher = FxBuildHasher.build_hasher();
    for byte in written_class.trim_matches('"').bytes() {
        hasher.write_u8(byte.to_ascii_lowercase());
    }
    for child in &block.children {
        if let Item::Property(p) = child {
            let key = p.key.text(text);
            if not_chosen(key) {
                continue;
            }
        }
        hasher.write_u8(0);
        hasher.write(child.span().text(text).trim_ascii().as_bytes());
    }
    let span = block.attribute(text, "Name").map_or(block.begin_span, |(a, _)| a.value);
    let location = Placement::of_actor(text, block).location;
    Some(Placed { content: hasher.finish(), location, span })
}

/// Whether `class` is `PlayerStart` or derives from it; `None` when its parents cannot be
/// traced (no package index, or a class it does not know).
fn is_start(ctx: &T3dContext<'_>, class: &str) -> Option<bool> {
    // Without packages, a class the sources do not declare may still be a stock one, whose
    // place in the hierarchy the stock table knows (for the stock games only: a licensee's
    // class of the same name may descend from elsewhere). With packages, a name they do not
    // hold is unknown, whatever the stock games ship.
    let stock = ctx.classes.is_none_or(|index| !index.knows_packages())
        && ctx.game.is_none_or(unreal_engine::Game::is_stock);
    let mut current = class.trim_matches('"').to_owned();
    for _ in 0..64 {
        let bare = bare_class(&current);
        if bare.eq_ignore_ascii_case("PlayerStart") {
            return Some(true);
        }
        let mut facts =
            ctx.classes.map(|index| index.class_facts_all(&current)).unwrap_or_default();
        match facts.len() {
            0 if stock => return unreal_engine::stock_actor_is_player_start(ctx.generation, bare),
            1 => match facts.pop().and_then(|facts| facts.parent) {
                Some(parent) => current = parent,
                None => return Some(false),
            },
            _ => return None,
        }
    }
    None
}
