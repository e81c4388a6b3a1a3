//! The links between a map's actors that the engine follows by name: an `Event` triggers
//! the actors whose `Tag` is that name, an `AttachTag` bases an actor on the one with that
//! `Tag` (or, in UE2, that name), a Pawn's `AIScriptTag` finds its `AIScript`, a
//! `Teleporter`'s local `URL` finds its destination's `Tag`. The rules that check such a
//! link (`t3d-unanswered-event`, `t3d-unmatched-attach-tag`, `t3d-unmatched-ai-script-tag`,
//! `t3d-unmatched-teleporter-url`) share what is here: each part of a document keeps the
//! names its actors answer to and the links they make (in its [`MapFacts`], read once with
//! the other map-wide facts), and a rule reports the links of its kind that nothing in the
//! whole map answers.
//!
//! Only a whole map can be judged: a T3D of a few copied actors (a prefab, the clipboard)
//! links to actors that are not in it. UnrealEd's map export always writes the `LevelInfo`,
//! so these rules stay quiet on a file without one.

use unreal_syntax::Span;

use super::map_facts::{self, Link, MapFacts};
use super::summary::Summary;
use super::T3dContext;

/// Every part's names, joined: what a link is looked up in.
pub struct MapNames {
    tags: Vec<u64>,
    names: Vec<u64>,
}

impl MapNames {
    /// `None` when no part holds a `LevelInfo` (not a whole map: nothing is judged).
    pub fn of<'a>(parts: impl IntoIterator<Item = &'a MapFacts> + Clone) -> Option<Self> {
        if !parts.clone().into_iter().any(|p| p.level_info.is_some()) {
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
fn links_of<'a>(parts: &'a [(&'a MapFacts, i64)]) -> impl Iterator<Item = (&'a Link, Span)> + 'a {
    parts
        .iter()
        .flat_map(|&(facts, delta)| facts.links.iter().map(move |l| (l, l.span.shifted(delta))))
}

/// A rule that checks one kind of link: which links it judges and what it says of one the
/// map's names do not answer. Every such rule is summarized the same way, from the parts'
/// shared [`MapFacts`].
pub trait LinkRule: Sync {
    /// Whether `link` (made by an actor of its class, in a part of its generation) is one
    /// the rule judges.
    fn wanted(&self, link: &Link) -> bool;

    /// The finding for `link`, at `span`, when the map's names do not answer it.
    fn judge(&self, names: &MapNames, link: &Link, span: Span) -> Option<crate::Diagnostic>;
}

/// The findings of `rule` over the parts of a document.
pub fn report(rule: &impl LinkRule, parts: &[(&MapFacts, i64)], out: &mut Vec<crate::Diagnostic>) {
    if !parts.iter().any(|(facts, _)| facts.links.iter().any(|l| rule.wanted(l))) {
        return;
    }
    let Some(names) = MapNames::of(parts.iter().map(|&(facts, _)| facts)) else { return };
    out.extend(
        links_of(parts)
            .filter(|(link, _)| rule.wanted(link))
            .filter_map(|(link, span)| rule.judge(&names, link, span)),
    );
}

/// `rule` over the whole tree of `ctx`.
pub fn check<R: LinkRule>(rule: &R, ctx: &T3dContext<'_>, out: &mut Vec<crate::Diagnostic>) {
    let summary = map_facts::summary_of(ctx);
    report(rule, &map_facts::parts_of(&[(&summary, 0)]), out);
}

impl<R: LinkRule> super::summary::Summarized for R {
    fn summarize(&self, ctx: &T3dContext<'_>, _start: u32) -> Summary {
        map_facts::summary_of(ctx)
    }

    fn report(&self, parts: &[(&Summary, i64)], out: &mut Vec<crate::Diagnostic>) {
        report(self, &map_facts::parts_of(parts), out);
    }

    fn same_content(&self, before: &[&Summary], after: &[&Summary]) -> bool {
        same_links(before, after)
    }
}

/// Whether two lists of parts link and answer the same names (positions aside).
fn same_links(before: &[&Summary], after: &[&Summary]) -> bool {
    fn parts<'a>(summaries: &[&'a Summary]) -> Vec<&'a MapFacts> {
        summaries.iter().filter_map(|s| s.get::<MapFacts>()).collect()
    }
    let (before, after) = (parts(before), parts(after));
    let hashes = |parts: &[&MapFacts], of: fn(&MapFacts) -> &[u64]| -> Vec<u64> {
        parts.iter().flat_map(|&f| of(f)).copied().collect()
    };
    let made = |parts: &[&MapFacts]| -> Vec<(u64, u64, Box<str>, u8)> {
        parts
            .iter()
            .flat_map(|f| &f.links)
            .map(|l| (l.hash, l.own_tag, l.class.clone(), l.kind as u8))
            .collect()
    };
    before.iter().any(|f| f.level_info.is_some()) == after.iter().any(|f| f.level_info.is_some())
        && super::summary::same_items(hashes(&before, |f| &f.tags), hashes(&after, |f| &f.tags))
        && super::summary::same_items(hashes(&before, |f| &f.names), hashes(&after, |f| &f.names))
        && super::summary::same_items(made(&before), made(&after))
}
