//! What a placed actor is, as far as its own lines tell: the builder brush, a brush that CSG
//! builds, a class the stock games name (a light, a player start, a mover...), another
//! brush-shaped actor (a volume) or anything else. Shared by the outline (its symbol kinds),
//! the map overview (its marks) and the rules that treat the builder brush apart.

use unreal_syntax::t3d::{Block, BlockKind};

/// The broad kind of an actor, from its class name and whether it holds a brush.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ActorKind {
    /// The red builder brush: a `Brush` actor with no `CsgOper` (or `CSG_Active`), the tool the
    /// mapper shapes the next brush with. CSG never builds it (`csgRebuild` takes only the
    /// level's other brushes, UT v400 `Editor/Src/UnEdCsg.cpp`; `Level->Brush()` is the
    /// builder).
    BuilderBrush,
    /// A `Brush` actor CSG builds into the level (added, subtracted, semisolid, ...).
    Brush,
    /// A class the stock games name so ([`ClassKind::of_class`]): player starts, lights,
    /// pickups, movers, path nodes, triggers.
    Named(ClassKind),
    /// Any other actor holding a brush: volumes, zone portals.
    BrushShaped,
    Other,
}

impl ActorKind {
    /// The kind of the actor `block` (any block that is not an actor is [`ActorKind::Other`]).
    pub fn of(block: &Block, text: &str) -> Self {
        if block.kind != BlockKind::Actor {
            return Self::Other;
        }
        let class = block.attribute_value(text, "Class").unwrap_or("");
        if class.eq_ignore_ascii_case("Brush") {
            return match csg_operation(block, text) {
                None => Self::BuilderBrush,
                Some(op) if op.eq_ignore_ascii_case("CSG_Active") => Self::BuilderBrush,
                Some(_) => Self::Brush,
            };
        }
        if let Some(kind) = ClassKind::of_class(class) {
            return Self::Named(kind);
        }
        if holds_brush(block) {
            return Self::BrushShaped;
        }
        Self::Other
    }
}

/// Whether the actor `block` holds a brush (`Begin Brush`).
pub fn holds_brush(block: &Block) -> bool {
    block.blocks().any(|b| b.kind == BlockKind::Brush)
}

/// The `Begin Brush Name=X` block of the actor `block` and its model's name `X`: the brush
/// UnrealEd's import builds for the actor (a `Begin Brush` without `Name=` builds none), and
/// then prepares through the actor's `Brush` reference.
pub fn imported_brush<'b, 't>(block: &'b Block, text: &'t str) -> Option<(&'b Block, &'t str)> {
    block
        .blocks()
        .filter(|b| b.kind == BlockKind::Brush)
        .find_map(|b| Some((b, b.attribute_value(text, "Name")?.trim_matches('"'))))
}

/// What an actor class is, by the names the stock games use: what the map overview draws a
/// mark for and the outline gives its own symbol kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ClassKind {
    PlayerStart,
    Light,
    Pickup,
    Mover,
    PathNode,
    Trigger,
}

impl ClassKind {
    /// The kind of an actor class, by the names the stock games use; `None` for the rest
    /// (decorations, zone infos, sounds...).
    pub fn of_class(class: &str) -> Option<ClassKind> {
        let c = class.rsplit('.').next().unwrap_or(class).to_ascii_lowercase();
        let ends = |suffixes: &[&str]| suffixes.iter().any(|s| c.ends_with(s));
        if ends(&["playerstart"]) {
            Some(ClassKind::PlayerStart)
        } else if c == "mover" || ends(&["mover"]) {
            Some(ClassKind::Mover)
        } else if ends(&["light", "spotlight", "sunlight"]) && c != "flashlight" {
            Some(ClassKind::Light)
        } else if c.contains("trigger") {
            Some(ClassKind::Trigger)
        } else if ends(&[
            "pathnode",
            "inventoryspot",
            "liftexit",
            "liftcenter",
            "jumpspot",
            "jumpdest",
            "teleporter",
            "ambushpoint",
            "defensepoint",
            "alternatepath",
        ]) {
            Some(ClassKind::PathNode)
        } else if ends(&[
            "pickup",
            "ammo",
            "armor",
            "armor2",
            "health",
            "healthpack",
            "healthvial",
            "medbox",
            "shieldbelt",
            "udamage",
            "thighpads",
            "boots",
            "weaponbase",
            "pickupbase",
            "weaponlocker",
        ]) || c.starts_with("ut_")
            || c.contains("weapon")
        {
            Some(ClassKind::Pickup)
        } else {
            None
        }
    }
}

/// The actor's `CsgOper` value as written (`CSG_Add`, `CSG_Subtract`, ...), when it has one:
/// the last line of it, the one UnrealEd's import leaves.
pub fn csg_operation<'t>(block: &Block, text: &'t str) -> Option<&'t str> {
    block.last_property(text, "CsgOper").map(|p| p.value.span().text(text).trim())
}

/// Whether `block` is the builder brush ([`ActorKind::BuilderBrush`]).
pub fn is_builder_brush(block: &Block, text: &str) -> bool {
    ActorKind::of(block, text) == ActorKind::BuilderBrush
}
