//! The links between a map's actors that the engine follows by name: an `Event` triggers
//! the actors whose `Tag` is that name, an `AttachTag` bases an actor on the one with that
//! `Tag` (or, in UE2, that name), a Pawn's `AIScriptTag` finds its `AIScript`, a
//! `Teleporter`'s local `URL` finds its destination's `Tag`. The rules that check such a
//! link (`t3d-unanswered-event`, `t3d-unmatched-attach-tag`, `t3d-unmatched-ai-script-tag`,
//! `t3d-unmatched-teleporter-url`) share this collector: each part of a document keeps the
//! names its actors answer to and the links they make, and a rule reports the links nothing
//! in the whole map answers.
//!
//! Only a whole map can be judged: a T3D of a few copied actors (a prefab, the clipboard)
//! links to actors that are not in it. UnrealEd's map export always writes the `LevelInfo`,
//! so these rules stay quiet on a file without one.

use std::hash::{BuildHasher, Hasher};

use rustc_hash::FxBuildHasher;
use unreal_syntax::t3d::{Block, BlockKind, Value};
use unreal_syntax::Span;

use super::summary::Summary;
use super::T3dContext;

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

/// What one part of a document says of the links: the names its actors answer to and the
/// links of the kind one rule checks.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Links {
    /// Whether the part holds a `LevelInfo`: only then is the file a whole map.
    pub level_info: bool,
    /// The hash of each actor's `Tag` (the class's own name when the actor has no `Tag=`
    /// line: spawning an actor sets its tag to its class's name), and of each name a
    /// scripted controller takes as tag while it waits for an event.
    pub tags: Vec<u64>,
    /// The hash of each actor's `Name=`.
    pub names: Vec<u64>,
    pub made: Vec<Link>,
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
    block
        .properties()
        .filter(|p| p.index.is_none() && p.key.text(text).eq_ignore_ascii_case(key))
        .last()
        .and_then(|p| Some((p.value.span(), word_value(&p.value, text)?)))
}

/// Whether a (local) teleporter URL names a place in this level: one without `/` or `#`
/// names a `Teleporter`'s `Tag`; the others name another level or server (`Teleporter.uc`'s
/// `Touch`).
pub fn is_local_url(url: &str) -> bool {
    !url.is_empty() && !url.contains('/') && !url.contains('#')
}

impl Links {
    /// The names and the links of kind `wanted` of the context's actors; actors' `Name=`s
    /// only `with_names` (a UE2 `AttachTag` also matches them).
    pub fn collect(
        ctx: &T3dContext<'_>,
        with_names: bool,
        wanted: impl Fn(&Block, &str, LinkKind) -> bool,
    ) -> Self {
        let text = ctx.text;
        let mut links = Links::default();
        for &(block, _) in &ctx.blocks {
            if block.kind != BlockKind::Actor {
                // UE2's `ACTION_WaitForEvent` (an object inside a `ScriptedSequence`) gives
                // the scripted controller its `ExternalEvent` as tag while it waits: that
                // name answers an `Event` (UT2004 `Gameplay/Classes/ACTION_WaitForEvent.uc`).
                if let Some((_, event)) = property_word(block, text, "ExternalEvent") {
                    if !event.is_empty() && !event.eq_ignore_ascii_case("None") {
                        links.tags.push(name_hash(event));
                    }
                }
                continue;
            }
            let class = block.attribute_value(text, "Class").map_or("", bare_class);
            if class.eq_ignore_ascii_case("LevelInfo") {
                links.level_info = true;
            }
            let tag = property_word(block, text, "Tag").map_or(class, |(_, tag)| tag);
            let own_tag = name_hash(tag);
            links.tags.push(own_tag);
            if let Some(name) = block.attribute_value(text, "Name").filter(|_| with_names) {
                links.names.push(name_hash(name.trim_matches('"')));
            }
            for (kind, key) in [
                (LinkKind::Event, "Event"),
                (LinkKind::AttachTag, "AttachTag"),
                (LinkKind::AiScriptTag, "AIScriptTag"),
                (LinkKind::TeleporterUrl, "URL"),
            ] {
                if !wanted(block, class, kind) {
                    continue;
                }
                let Some((span, target)) = property_word(block, text, key) else { continue };
                // `None` is the empty name; an empty URL makes a destination only.
                if target.is_empty() || target.eq_ignore_ascii_case("None") {
                    continue;
                }
                if kind == LinkKind::TeleporterUrl && !is_local_url(target) {
                    continue;
                }
                links.made.push(Link {
                    kind,
                    target: target.into(),
                    hash: name_hash(target),
                    span,
                    own_tag,
                    class: class.into(),
                    generation: ctx.generation,
                });
            }
        }
        links.tags.sort_unstable();
        links.tags.shrink_to_fit();
        links.names.sort_unstable();
        links.names.shrink_to_fit();
        links.made.shrink_to_fit();
        links
    }

    /// This part as a summary (empty when it holds no actor).
    pub fn into_summary(self) -> Summary {
        let empty = !self.level_info && self.tags.is_empty() && self.made.is_empty();
        Summary::unless_empty(self, empty)
    }
}

/// Every part's names, joined: what a link is looked up in.
pub struct MapNames {
    tags: Vec<u64>,
    names: Vec<u64>,
}

impl MapNames {
    /// `None` when no part holds a `LevelInfo` (not a whole map: nothing is judged).
    pub fn of<'a>(parts: impl IntoIterator<Item = &'a Links> + Clone) -> Option<Self> {
        if !parts.clone().into_iter().any(|p| p.level_info) {
            return None;
        }
        let mut tags: Vec<u64> = parts.clone().into_iter().flat_map(|p| &p.tags).copied().collect();
        let mut names: Vec<u64> = parts.into_iter().flat_map(|p| &p.names).copied().collect();
        tags.sort_unstable();
        names.sort_unstable();
        Some(Self { tags, names })
    }

    /// How many actors have `Tag` `hash`.
    pub fn tagged(&self, hash: u64) -> usize {
        let start = self.tags.partition_point(|&t| t < hash);
        self.tags[start..].iter().take_while(|&&t| t == hash).count()
    }

    /// Whether an actor is named `hash`.
    pub fn named(&self, hash: u64) -> bool {
        self.names.binary_search(&hash).is_ok()
    }
}

/// The links of parts given in source order (with the distance each part moved), each with
/// its span where it stands now.
pub fn links_of<'a>(parts: &'a [(&'a Links, i64)]) -> impl Iterator<Item = (&'a Link, Span)> + 'a {
    parts
        .iter()
        .flat_map(|&(links, delta)| links.made.iter().map(move |l| (l, l.span.shifted(delta))))
}

/// The [`Links`] of each part of a summarized rule.
pub fn parts_of<'a>(parts: &[(&'a Summary, i64)]) -> Vec<(&'a Links, i64)> {
    parts.iter().filter_map(|&(summary, delta)| Some((summary.get::<Links>()?, delta))).collect()
}

/// Whether two lists of parts link and answer the same names (positions aside).
pub fn same_links(before: &[&Summary], after: &[&Summary]) -> bool {
    fn parts<'a>(summaries: &[&'a Summary]) -> Vec<&'a Links> {
        summaries.iter().filter_map(|s| s.get::<Links>()).collect()
    }
    let (before, after) = (parts(before), parts(after));
    let hashes = |parts: &[&Links], of: fn(&Links) -> &Vec<u64>| -> Vec<u64> {
        parts.iter().flat_map(|&l| of(l)).copied().collect()
    };
    let made = |parts: &[&Links]| -> Vec<(u64, u64, Box<str>)> {
        parts.iter().flat_map(|l| &l.made).map(|l| (l.hash, l.own_tag, l.class.clone())).collect()
    };
    before.iter().any(|l| l.level_info) == after.iter().any(|l| l.level_info)
        && super::summary::same_items(hashes(&before, |l| &l.tags), hashes(&after, |l| &l.tags))
        && super::summary::same_items(hashes(&before, |l| &l.names), hashes(&after, |l| &l.names))
        && super::summary::same_items(made(&before), made(&after))
}

/// A rule that checks one kind of link: what it collects and what it says of a link the
/// map's names do not answer. Every such rule is summarized the same way.
pub trait LinkRule: Sync {
    /// Whether a link may name an actor by its `Name=` (not only its `Tag`): the names are
    /// then kept too.
    const BY_NAME: bool = false;

    /// Whether the link of `kind` an actor of `class` (without package) makes is checked.
    fn wanted(&self, ctx: &T3dContext<'_>, class: &str, kind: LinkKind) -> bool;

    /// The finding for `link`, at `span`, when the map's names do not answer it.
    fn judge(&self, names: &MapNames, link: &Link, span: Span) -> Option<crate::Diagnostic>;
}

/// The findings of `rule` over the parts of a document.
pub fn report(rule: &impl LinkRule, parts: &[(&Links, i64)], out: &mut Vec<crate::Diagnostic>) {
    let Some(names) = MapNames::of(parts.iter().map(|&(links, _)| links)) else { return };
    out.extend(links_of(parts).filter_map(|(link, span)| rule.judge(&names, link, span)));
}

/// `rule` over the whole tree of `ctx`.
pub fn check<R: LinkRule>(rule: &R, ctx: &T3dContext<'_>, out: &mut Vec<crate::Diagnostic>) {
    let links = Links::collect(ctx, R::BY_NAME, |_, class, kind| rule.wanted(ctx, class, kind));
    report(rule, &[(&links, 0)], out);
}

impl<R: LinkRule> super::summary::Summarized for R {
    fn summarize(&self, ctx: &T3dContext<'_>, _start: u32) -> Summary {
        Links::collect(ctx, R::BY_NAME, |_, class, kind| self.wanted(ctx, class, kind))
            .into_summary()
    }

    fn report(&self, parts: &[(&Summary, i64)], out: &mut Vec<crate::Diagnostic>) {
        report(self, &parts_of(parts), out);
    }

    fn same_content(&self, before: &[&Summary], after: &[&Summary]) -> bool {
        same_links(before, after)
    }
}
