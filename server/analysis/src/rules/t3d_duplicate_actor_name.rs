//! `t3d-duplicate-actor-name`: two actors with the same `Name=` in one map. Object names are
//! unique within a level; on import UnrealEd renames one, and every reference by name
//! (`Brush=Model'...'`, `Event`, links between actors) may then point at the wrong actor.

use rustc_hash::{FxBuildHasher, FxHashMap};

use unreal_syntax::t3d::BlockKind;

use super::summary::{Summarized, Summary};
use super::{RuleMeta, Scope, T3dContext};
use crate::{Diagnostic, Severity};

pub static RULE: RuleMeta = RuleMeta {
    code: "t3d-duplicate-actor-name",
    severity: Severity::Warning,
    summary: "two actors share one `Name=`",
    scope: Scope::Summarized,
    docs: DOCS,
    ..RuleMeta::T3D_LOCAL
};

/// The rule's documentation: its `docs/rules.md` section after the `Severity:` lead.
const DOCS: &str = r#"Two or more actors in one map (or level) share a `Name=` (compared
case-insensitively, as the engine does). On import UnrealEd renames all but one, and
references by name may then point at the wrong actor. One finding per name, at its second
use, says how many times it is used ("used 3 times"); labels mark the first use and every
other one.

Fix: rename one of the actors (and its references)."#;

/// The actor names of part of a document (one segment of an incremental document, or the
/// whole tree), in source order: what the rule compares across the map.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Names {
    entries: Vec<NameEntry>,
}

#[derive(Clone, Debug, PartialEq)]
struct NameEntry {
    /// The start of the enclosing block (map or level), `u32::MAX` at top level.
    scope: u32,
    /// Whether `scope` lies at or after the part's start, and so moves with it.
    scope_moves: bool,
    /// As written; compared ignoring ASCII case ([`NoCase`]).
    name: Box<str>,
    span: unreal_syntax::Span,
}

impl Names {
    /// The actor names of the context's blocks; a parent that starts before `start` (the
    /// map around a segment) is outside the part and does not move with it.
    pub fn collect(ctx: &T3dContext<'_>, start: u32) -> Self {
        let mut entries = Vec::new();
        for &(block, parent) in &ctx.blocks {
            if block.kind != BlockKind::Actor {
                continue;
            }
            let Some((attribute, name)) = block.attribute(ctx.text, "Name") else { continue };
            if name.is_empty() {
                continue;
            }
            entries.push(NameEntry {
                scope: parent.map_or(u32::MAX, |p| p.span.start),
                scope_moves: parent.is_some_and(|p| p.span.start >= start),
                name: name.into(),
                span: attribute.value,
            });
        }
        // Kept as long as the document lives: an actor's one name, not the four a growing
        // vector reserves.
        entries.shrink_to_fit();
        Self { entries }
    }
}

/// Reports each name used more than once over parts given in source order (with the
/// distance each part's spans moved since they were collected): one finding per name, at its
/// second use, saying how many times it is used, with the other uses as labels.
pub fn report<'a>(parts: impl IntoIterator<Item = (&'a Names, i64)>, out: &mut Vec<Diagnostic>) {
    // Names are unique per level: key by the enclosing block (map or level) and the name.
    // Run on every edit of a big map (thousands of names): a fast hash, sized once.
    let parts: Vec<(&Names, i64)> = parts.into_iter().collect();
    let count = parts.iter().map(|(names, _)| names.entries.len()).sum();
    let mut uses: FxHashMap<(u32, NoCase<'_>), Vec<(unreal_syntax::Span, &str)>> =
        FxHashMap::with_capacity_and_hasher(count, FxBuildHasher);
    let mut repeated: Vec<(u32, NoCase<'_>)> = Vec::new();
    for (names, delta) in parts {
        for entry in &names.entries {
            let scope = if entry.scope_moves {
                unreal_syntax::Span::empty_at(entry.scope).shifted(delta).start
            } else {
                entry.scope
            };
            let key = (scope, NoCase(&entry.name));
            let list = uses.entry(key).or_default();
            list.push((entry.span.shifted(delta), &entry.name));
            if list.len() == 2 {
                repeated.push(key);
            }
        }
    }
    for key in repeated {
        let Some(list) = uses.get(&key) else { continue };
        let [(first, _), (second, name), rest @ ..] = list.as_slice() else { continue };
        let times = match list.len() {
            2 => "twice".to_owned(),
            n => format!("{n} times"),
        };
        let mut diagnostic = RULE
            .diagnostic(*second, format!("actor name `{name}` is used {times} in this map"))
            .with_label(*first, "first used here");
        for (span, _) in rest.iter().take(super::MAX_LABELS) {
            diagnostic = diagnostic.with_label(*span, "used again here");
        }
        out.push(diagnostic);
    }
}

/// A name hashed and compared ignoring ASCII case, as the engine compares names, without a
/// lower-case copy kept for every actor of the map.
#[derive(Clone, Copy, Debug)]
struct NoCase<'a>(&'a str);

impl std::hash::Hash for NoCase<'_> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        for byte in self.0.bytes() {
            state.write_u8(byte.to_ascii_lowercase());
        }
        state.write_u8(0xff);
    }
}

impl PartialEq for NoCase<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.0.eq_ignore_ascii_case(other.0)
    }
}

impl Eq for NoCase<'_> {}

pub fn check(ctx: &T3dContext<'_>, out: &mut Vec<Diagnostic>) {
    report([(&Names::collect(ctx, 0), 0)], out);
}

/// The rule over per-part summaries (the incremental document's segments).
pub struct Summarizer;

impl Summarized for Summarizer {
    fn summarize(&self, ctx: &T3dContext<'_>, start: u32) -> Summary {
        let names = Names::collect(ctx, start);
        if names.entries.is_empty() {
            Summary::empty()
        } else {
            Summary::new(names)
        }
    }

    fn report(&self, parts: &[(&Summary, i64)], out: &mut Vec<Diagnostic>) {
        let names =
            parts.iter().filter_map(|&(summary, delta)| Some((summary.get::<Names>()?, delta)));
        report(names, out);
    }
}
