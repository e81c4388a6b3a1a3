//! `t3d-duplicate-actor-name`: two actors with the same `Name=` in one map. Object names are
//! unique within a level; on import UnrealEd renames one, and every reference by name
//! (`Brush=Model'...'`, `Event`, links between actors) may then point at the wrong actor.

use std::hash::{BuildHasher, Hasher};

use rustc_hash::FxBuildHasher;

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
other one. Two actors identical in every line, their name included, at one place are reported by
`t3d-actor-duplicated-in-place` alone: one was pasted twice, and deleting it answers both.

```t3d
Begin Map
Begin Actor Class=Light Name=Light0
    Location=(X=0.000000,Y=0.000000,Z=64.000000)
End Actor
Begin Actor Class=Light Name=Light0
    Location=(X=256.000000,Y=0.000000,Z=64.000000)
End Actor
End Map
```

Fix: rename one of the actors (and its references).

```t3d fixed
Begin Map
Begin Actor Class=Light Name=Light0
    Location=(X=0.000000,Y=0.000000,Z=64.000000)
End Actor
Begin Actor Class=Light Name=Light1
    Location=(X=256.000000,Y=0.000000,Z=64.000000)
End Actor
End Map
```"#;

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
    /// A hash of the name in lower case, computed once: the report compares hashes and reads
    /// the names only where they agree.
    hash: u64,
    /// As written, compared ignoring ASCII case as the engine does (no lower-case copy is
    /// kept for every actor of the map).
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
            let mut hasher = FxBuildHasher.build_hasher();
            for byte in name.bytes() {
                hasher.write_u8(byte.to_ascii_lowercase());
            }
            entries.push(NameEntry {
                scope: parent.map_or(u32::MAX, |p| p.span.start),
                scope_moves: parent.is_some_and(|p| p.span.start >= start),
                hash: hasher.finish(),
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
    // Run on every edit of a big map (thousands of names): the uses are sorted by scope and
    // hash (16 bytes each, no table; a hash table sized for every name was a fresh half
    // megabyte per edit, and a fifth of the server's time per edit), and only neighbours
    // with equal hashes read their names.
    let uses: Vec<(&NameEntry, i64)> = parts
        .into_iter()
        .flat_map(|(names, delta)| names.entries.iter().map(move |entry| (entry, delta)))
        .collect();
    let mut keys: Vec<(u32, u64, u32)> = uses
        .iter()
        .enumerate()
        .map(|(seq, &(entry, delta))| (scope_of(entry, delta), entry.hash, seq as u32))
        .collect();
    keys.sort_unstable();
    let mut found: Vec<(u32, Diagnostic)> = Vec::new();
    let mut group: Vec<u32> = Vec::new();
    for run in keys.chunk_by(|a, b| a.0 == b.0 && a.1 == b.1).filter(|run| run.len() > 1) {
        // Equal hashes: the uses of each name among them, in source order (the run is).
        let mut left: Vec<u32> = run.iter().map(|&(_, _, seq)| seq).collect();
        while let Some(&head) = left.first() {
            let name = |seq: u32| uses.get(seq as usize).map_or("", |(entry, _)| &*entry.name);
            group.clear();
            left.retain(|&seq| {
                let same = name(seq).eq_ignore_ascii_case(name(head));
                if same {
                    group.push(seq);
                }
                !same
            });
            let span =
                |seq: u32| uses.get(seq as usize).map(|&(entry, delta)| entry.span.shifted(delta));
            let [first, second, rest @ ..] = group.as_slice() else { continue };
            let (Some(first_span), Some(second_span)) = (span(*first), span(*second)) else {
                continue;
            };
            let times = match group.len() {
                2 => "twice".to_owned(),
                n => format!("{n} times"),
            };
            let message = format!("actor name `{}` is used {times} in this map", name(*second));
            let mut diagnostic =
                RULE.diagnostic(second_span, message).with_label(first_span, "first used here");
            for &seq in rest.iter().take(super::MAX_LABELS) {
                if let Some(span) = span(seq) {
                    diagnostic = diagnostic.with_label(span, "used again here");
                }
            }
            found.push((*second, diagnostic));
        }
    }
    // In the order of the second uses, as the names are read.
    found.sort_unstable_by_key(|&(second, _)| second);
    out.extend(found.into_iter().map(|(_, diagnostic)| diagnostic));
}

/// The start of a name's enclosing block, where it is now.
fn scope_of(entry: &NameEntry, delta: i64) -> u32 {
    if entry.scope_moves {
        unreal_syntax::Span::empty_at(entry.scope).shifted(delta).start
    } else {
        entry.scope
    }
}

pub fn check(ctx: &T3dContext<'_>, out: &mut Vec<Diagnostic>) {
    report([(&Names::collect(ctx, 0), 0)], out);
}

/// The rule over per-part summaries (the incremental document's segments).
pub struct Summarizer;

impl Summarized for Summarizer {
    fn summarize(&self, ctx: &T3dContext<'_>, start: u32) -> Summary {
        let names = Names::collect(ctx, start);
        let empty = names.entries.is_empty();
        Summary::unless_empty(names, empty)
    }

    fn report(&self, parts: &[(&Summary, i64)], out: &mut Vec<Diagnostic>) {
        let names =
            parts.iter().filter_map(|&(summary, delta)| Some((summary.get::<Names>()?, delta)));
        report(names, out);
    }

    fn same_content(&self, before: &[&Summary], after: &[&Summary]) -> bool {
        // The names with their maps; a map that starts inside the parts (a file of several
        // maps) is a position, so such parts are never the same.
        fn content<'a>(parts: &[&'a Summary]) -> Option<Vec<(u32, &'a str)>> {
            let entries = parts.iter().filter_map(|s| s.get::<Names>()).flat_map(|n| &n.entries);
            entries.map(|e| (!e.scope_moves).then_some((e.scope, &*e.name))).collect()
        }
        match (content(before), content(after)) {
            (Some(before), Some(after)) => super::summary::same_items(before, after),
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::hash_map::Entry;
    use std::hash::{Hash, Hasher};

    use rustc_hash::{FxBuildHasher, FxHashMap};
    use unreal_test_support::Rng;

    use super::*;

    /// The report as it was (a hash table of every name): the oracle of [`report`]. Reports each name used more than once over parts given in source order (with the
    /// distance each part's spans moved since they were collected): one finding per name, at its
    /// second use, saying how many times it is used, with the other uses as labels.
    fn report_by_table<'a>(
        parts: impl IntoIterator<Item = (&'a Names, i64)>,
        out: &mut Vec<Diagnostic>,
    ) {
        // Names are unique per level: key by the enclosing block (map or level) and the name.
        // Run on every edit of a big map (thousands of names): a fast hash, sized once, and no
        // allocation per name (a name's later uses are kept only once it is used twice).
        let parts: Vec<(&Names, i64)> = parts.into_iter().collect();
        let count = parts.iter().map(|(names, _)| names.entries.len()).sum();
        let mut uses: FxHashMap<Key<'_>, Uses<'_>> =
            FxHashMap::with_capacity_and_hasher(count, FxBuildHasher);
        let mut repeated: Vec<Key<'_>> = Vec::new();
        for (names, delta) in parts {
            for entry in &names.entries {
                let scope = if entry.scope_moves {
                    unreal_syntax::Span::empty_at(entry.scope).shifted(delta).start
                } else {
                    entry.scope
                };
                let key = Key { scope, hash: entry.hash, name: &entry.name };
                let span = entry.span.shifted(delta);
                match uses.entry(key) {
                    Entry::Vacant(vacant) => {
                        vacant.insert(Uses { first: span, later: Vec::new() });
                    }
                    Entry::Occupied(mut occupied) => {
                        let later = &mut occupied.get_mut().later;
                        later.push((span, &*entry.name));
                        if later.len() == 1 {
                            repeated.push(key);
                        }
                    }
                }
            }
        }
        for key in repeated {
            let Some(Uses { first, later }) = uses.get(&key) else { continue };
            let [(second, name), rest @ ..] = later.as_slice() else { continue };
            let times = match later.len() + 1 {
                2 => "twice".to_owned(),
                n => format!("{n} times"),
            };
            let mut diagnostic = RULE
                .diagnostic(*second, format!("actor name `{name}` is used {times} in this map"))
                .with_label(*first, "first used here");
            for (span, _) in rest.iter().take(super::super::MAX_LABELS) {
                diagnostic = diagnostic.with_label(*span, "used again here");
            }
            out.push(diagnostic);
        }
    }

    /// A name in its map: hashed by the hash computed when the name was collected, so that
    /// building the table reads no name unless two hashes agree.
    #[derive(Clone, Copy, Debug)]
    struct Key<'a> {
        scope: u32,
        hash: u64,
        name: &'a str,
    }

    impl Hash for Key<'_> {
        fn hash<H: Hasher>(&self, state: &mut H) {
            state.write_u32(self.scope);
            state.write_u64(self.hash);
        }
    }

    impl PartialEq for Key<'_> {
        fn eq(&self, other: &Self) -> bool {
            self.scope == other.scope
                && self.hash == other.hash
                && self.name.eq_ignore_ascii_case(other.name)
        }
    }

    impl Eq for Key<'_> {}

    /// Where a name is used: its first use, and the later ones (empty, so not allocated, for a
    /// name used once).
    struct Uses<'a> {
        first: unreal_syntax::Span,
        later: Vec<(unreal_syntax::Span, &'a str)>,
    }

    /// The sorted report equals the table's on random names: a few names (some differing
    /// only in case) over many parts that moved, in two scopes, with hash collisions forced.
    #[test]
    fn the_sorted_report_equals_the_table() {
        let mut rng = Rng::new(17);
        for round in 0..300 {
            let words = ["Light0", "LIGHT0", "light0", "Brush3", "PathNode12", "X", "Trigger"];
            let mut parts = Vec::new();
            for part in 0..=rng.below(12) {
                let mut entries = Vec::new();
                for i in 0..rng.below(6) {
                    let name = words[rng.below(words.len())];
                    let mut hasher = FxBuildHasher.build_hasher();
                    for byte in name.bytes() {
                        hasher.write_u8(byte.to_ascii_lowercase());
                    }
                    // Every fourth round, every name has one hash: names decide alone.
                    let hash = if round % 4 == 0 { 7 } else { hasher.finish() };
                    let at = (part * 1000 + i * 10) as u32;
                    entries.push(NameEntry {
                        scope: if rng.below(5) == 0 { u32::MAX } else { 3 },
                        scope_moves: false,
                        hash,
                        name: name.into(),
                        span: unreal_syntax::Span::new(at, at + 4),
                    });
                }
                parts.push((Names { entries }, rng.below(40) as i64));
            }
            let parts: Vec<(&Names, i64)> = parts.iter().map(|(n, d)| (n, *d)).collect();
            let (mut sorted, mut table) = (Vec::new(), Vec::new());
            report(parts.iter().copied(), &mut sorted);
            report_by_table(parts.iter().copied(), &mut table);
            assert_eq!(sorted, table, "round {round}");
        }
    }
}
