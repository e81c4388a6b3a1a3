//! `t3d-actor-duplicated-in-place`: two actors of one class at the same place (within one
//! unit) whose every other line is the same: one was duplicated or pasted twice and never
//! moved. Both are built, one on top of the other, where the editor shows one.

use rustc_hash::FxHashMap;

use super::map_facts::{self, MapFacts, Placed};
use super::{RuleMeta, Scope, T3dContext};
use unreal_syntax::Span;

use crate::{Diagnostic, Severity};

pub static RULE: RuleMeta = RuleMeta {
    code: "t3d-actor-duplicated-in-place",
    severity: Severity::Warning,
    summary: "an actor identical to another of its class, at the same place",
    scope: Scope::Summarized,
    docs: DOCS,
    ..RuleMeta::T3D_LOCAL
};

/// The rule's documentation: its `docs/rules.md` section after the `Severity:` lead.
const DOCS: &str = r#"Two actors of the same class stand within one unit of each other and
every other line of theirs is the same (rotation, draw type and scale, mesh, light values,
tag, event, everything but the name). One of them was duplicated or pasted twice and never
moved: the engine builds both, one inside the other, where the editor seems to show one: a
pickup that gives two items, a light twice as bright in play as the mapper chose it, a
trigger that fires twice, a static mesh drawn twice.

Actors that differ in any line are not reported (two lights of different colours mixed at
one place, two triggers with different events, a static mesh and its copy without collision),
nor are brushes and volumes (their shapes differ where their lines do not show it), nor the
markers path building places by itself (`InventorySpot`, `WarpZoneMarker`, `ButtonMarker`,
`TriggerMarker`), nor a static mesh actor without its `StaticMesh` line (exports by other
tools leave set references out, and two meshes may share a pivot). What UnrealEd and path building write into an actor is not compared: its
zone and leaf (`Region`), its navigation links and weights, a pickup's `myMarker`,
`OldLocation`, `ColLocation`, `bSelected`. UT2004's map check reports a looser form (same
class, place, rotation, draw type and scale) as "X in same location as Y".

A copy that bears its original's name too (the same block pasted twice) is one defect: UnrealEd's
import renames the actor it read first and builds both. It gets this finding alone, which says
so, and no `t3d-duplicate-actor-name` beside it (deleting the copy answers both).

Engine basis: UT2004 `Engine/Src/UnErrorChecking.cpp:84-91` (`AActor::CheckForErrors`,
`(A->Location - Location).SizeSquared() < 1`).

```t3d
Begin Actor Class=HealthPack Name=HealthPack0
    Location=(X=128.000000,Y=64.000000,Z=32.000000)
End Actor
Begin Actor Class=HealthPack Name=HealthPack1
    Location=(X=128.000000,Y=64.000000,Z=32.000000)
End Actor
```

Fix: delete one of them (or move it where it was meant to go).

```t3d fixed
Begin Actor Class=HealthPack Name=HealthPack0
    Location=(X=128.000000,Y=64.000000,Z=32.000000)
End Actor
Begin Actor Class=HealthPack Name=HealthPack1
    Location=(X=256.000000,Y=64.000000,Z=32.000000)
End Actor
```"#;

fn report(parts: &[(&MapFacts, i64)], out: &mut Vec<Diagnostic>) {
    let mut all: Vec<(&Placed, i64)> = parts
        .iter()
        .flat_map(|&(facts, delta)| facts.placed.iter().map(move |e| (e, delta)))
        .collect();
    // Source order within equal contents: the first actor at a place is the original.
    all.sort_by_key(|&(e, delta)| (e.content, e.span.shifted(delta).start));
    let mut found = Vec::new();
    for run in all.chunk_by(|a, b| a.0.content == b.0.content).filter(|run| run.len() > 1) {
        // Each actor is a copy of the first earlier one within one unit (squared distance
        // under 1, as the engine measures). Only originals go in the grid of unit cells, so
        // a cell holds few of them (they stand a unit apart) however many copies a hostile
        // map stacks: linear in the actors.
        let mut grid: FxHashMap<[i64; 3], Vec<usize>> = FxHashMap::default();
        let mut copies: Vec<Vec<usize>> = vec![Vec::new(); run.len()];
        let cell = |l: [f64; 3]| l.map(|c| if c.is_finite() { c.floor() as i64 } else { i64::MAX });
        for (i, &(entry, _)) in run.iter().enumerate() {
            let [x, y, z] = cell(entry.location);
            let original = neighbours(x, y, z)
                .filter_map(|c| grid.get(&c))
                .flatten()
                .copied()
                .filter(|&j| {
                    let other = run[j].0.location;
                    (0..3).map(|k| (other[k] - entry.location[k]).powi(2)).sum::<f64>() < 1.0
                })
                .min();
            match original {
                Some(j) => copies[j].push(i),
                None => grid.entry([x, y, z]).or_default().push(i),
            }
        }
        for (j, copies) in copies.iter().enumerate() {
            let [first, rest @ ..] = copies.as_slice() else { continue };
            let (original, original_delta) = run[j];
            let (copy, delta) = run[*first];
            let message = match rest.len() {
                0 => format!("this actor is a copy of another at the same place {BUT_ITS_NAME}: both are built, one inside the other"),
                more => format!(
                    "this actor and {more} more are copies of another at the same place (every line but the name is the same): all are built, one inside the other"
                ),
            };
            let mut diagnostic = RULE
                .diagnostic(copy.span.shifted(delta), message)
                .with_label(original.span.shifted(original_delta), "the actor it copies");
            for &k in rest.iter().take(super::MAX_LABELS) {
                let (other, other_delta) = run[k];
                diagnostic = diagnostic.with_label(other.span.shifted(other_delta), "another copy");
            }
            found.push(diagnostic);
        }
    }
    found.sort_by_key(|d| d.span.start);
    out.extend(found);
}

/// What a single copy's message says of the two actors' lines.
const BUT_ITS_NAME: &str = "(every line but its name is the same)";

/// A copy in place that also bears its original's name is one defect, not two: UnrealEd's
/// import renames the actor already read (`Found->Rename()`, UT v400 `Editor/Src/UnEdFact.cpp:450-455`)
/// and builds both, one inside the other. Where `t3d-duplicate-actor-name` reports a name used by
/// exactly those two (its second use the copy, its first the original), that finding is dropped
/// and the copy's says the name is the same too; deleting the copy answers both. `diagnostics`
/// are one document's findings in any order.
pub(crate) fn fold_shared_names(diagnostics: &mut Vec<Diagnostic>) {
    let name_code = super::t3d_duplicate_actor_name::RULE.code;
    let copies: FxHashMap<(Span, Span), usize> = diagnostics
        .iter()
        .enumerate()
        .filter(|(_, d)| d.code == RULE.code && d.labels.len() == 1)
        .filter_map(|(i, d)| Some(((d.span, d.labels.first()?.span), i)))
        .collect();
    if copies.is_empty() {
        return;
    }
    let mut dropped = vec![false; diagnostics.len()];
    let mut amended = Vec::new();
    for (i, d) in diagnostics.iter().enumerate() {
        let [first] = d.labels.as_slice() else { continue };
        if d.code != name_code {
            continue;
        }
        if let Some(&copy) = copies.get(&(d.span, first.span)) {
            dropped[i] = true;
            amended.push(copy);
        }
    }
    for copy in amended {
        let message = &mut diagnostics[copy].message;
        *message = message.replace(
            BUT_ITS_NAME,
            "(every line is the same, its name too: UnrealEd's import renames the first)",
        );
    }
    let mut index = 0;
    diagnostics.retain(|_| {
        index += 1;
        !dropped[index - 1]
    });
}

/// The 27 unit cells around and including `(x, y, z)`.
fn neighbours(x: i64, y: i64, z: i64) -> impl Iterator<Item = [i64; 3]> {
    (-1..=1).flat_map(move |dx| {
        (-1..=1).flat_map(move |dy| {
            (-1..=1)
                .map(move |dz| [x.saturating_add(dx), y.saturating_add(dy), z.saturating_add(dz)])
        })
    })
}

pub fn check(ctx: &T3dContext<'_>, out: &mut Vec<Diagnostic>) {
    Summarizer.check(ctx, out);
}

/// The rule over per-part summaries (the incremental document's segments): the map facts of
/// each part, reported by [`report`].
#[allow(non_upper_case_globals)] // the rule registry names every rule's summarizer `Summarizer`
pub static Summarizer: map_facts::FactsRule = map_facts::FactsRule(report);
