//! What a placed actor's property is: the value its own line writes (the last one, as import
//! keeps the last), else the default its class (or a parent) sets, as the package index's
//! class knowledge tells ([`PackageIndex::default_of`]). UnrealEd writes into a T3D only the
//! properties that differ from the class's defaults, so a missing line means the default.

use unreal_syntax::t3d::Block;
use unreal_syntax::Span;

use super::map_facts::word_value;
use super::T3dContext;
use crate::index::DefaultValue;

/// An actor's property, and where its value comes from.
#[derive(Clone, Debug, PartialEq)]
pub enum ActorValue<'t> {
    /// The actor's own line: its value (quotes trimmed) and the value's span.
    Written(&'t str, Span),
    /// No line: the class default, as T3D text, and the class that sets it.
    Default(String, String),
    /// No line, and no class up the chain sets it: the engine's zero (`False`, `None`, 0).
    Zero,
    /// No line, and the class or a parent cannot be read (or no package index is set).
    Unknown,
}

impl ActorValue<'_> {
    /// The value as text (`None` when unknown): the zero is `""`.
    pub fn text(&self) -> Option<&str> {
        match self {
            ActorValue::Written(text, _) => Some(text),
            ActorValue::Default(text, _) => Some(text.trim().trim_matches('"')),
            ActorValue::Zero => Some(""),
            ActorValue::Unknown => None,
        }
    }

    /// `Some(true)` for `True`, `Some(false)` for `False` or the zero, `None` when unknown
    /// or not a boolean.
    pub fn as_bool(&self) -> Option<bool> {
        match self.text()? {
            t if t.eq_ignore_ascii_case("True") || t == "1" => Some(true),
            t if t.eq_ignore_ascii_case("False") || t == "0" || t.is_empty() => Some(false),
            _ => None,
        }
    }
}

/// The value of the actor `block`'s property `key` (no array index), from its line or its
/// class `class` (`Class=` as written).
pub fn actor_value<'t>(
    ctx: &T3dContext<'t>,
    block: &Block,
    class: &str,
    key: &str,
) -> ActorValue<'t> {
    if let Some(property) = block.last_property(ctx.text, key) {
        let span = property.value.span();
        let text = word_value(&property.value, ctx.text).unwrap_or_else(|| span.text(ctx.text));
        return ActorValue::Written(text, span);
    }
    let Some(index) = ctx.classes else { return ActorValue::Unknown };
    match index.default_of(class.trim_matches('"'), key) {
        DefaultValue::Set(value, by) => ActorValue::Default(value, by),
        DefaultValue::EngineZero => ActorValue::Zero,
        DefaultValue::Unknown(_) => ActorValue::Unknown,
    }
}
