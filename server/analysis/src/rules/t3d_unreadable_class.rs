//! `t3d-unreadable-class`: actors of a class (or of a class derived from one) that is compiled
//! in an indexed package whose data could not be read. The checks that need a class's flags
//! or defaults pass over those actors; this says so once per map, not once per actor.

use std::fmt::Write as _;

use super::map_facts::{self, MapFacts, UnreadableClass};
use super::{RuleMeta, Scope, T3dContext, MAX_LABELS};
use crate::{Diagnostic, Label, Severity};

pub static RULE: RuleMeta = RuleMeta {
    code: "t3d-unreadable-class",
    severity: Severity::Info,
    summary: "actors whose class (or a parent) is compiled but cannot be read: the checks that need its defaults pass over them",
    scope: Scope::Summarized,
    docs: DOCS,
    ..RuleMeta::T3D_LOCAL
};

/// The rule's documentation: its `docs/rules.md` section after the `Severity:` lead.
const DOCS: &str = r"Actors of the map are of a class, or derive from a class, that an indexed
package compiles but whose data the index could not read (a class body of a format or
licensee build the reader does not know, a damaged package). Its flags and default
properties are unknown, so every check that needs them passes over those actors without a
word: `t3d-abstract-class` (`CLASS_Abstract`), `t3d-static-flag-cleared` (`bStatic`,
`bNoDelete`), `t3d-obsolete-class` (`bObsolete`), `t3d-missing-draw-resource` (`DrawType`,
`bHidden`) and `t3d-beyond-world-edge` (`bCollideActors`). Said once per map, at the first
such actor, with how many actors each class that cannot be read leaves unjudged and the
reader's error; a label marks the first actor of each further class.

Only a class that is indexed and read is told apart from one that is not: a class no indexed
package defines is `t3d-unknown-class`'s, and a bare name two packages define is not judged
by any of them (the engine takes whichever it loaded first).

<!-- example index=compiled game=ut2004 -->
```t3d
Begin Actor Class=MyMod.BrokenChild Name=BrokenChild0
End Actor
```

Fix: nothing in the map; the checks resume once the package can be read (a package of
another game build than the one the index holds, rebuilt for it).

Once the class can be read (here a class of the same package the reader knows), the actor
is checked again and nothing is said:

```t3d fixed
Begin Actor Class=MyMod.Fine Name=Fine0
End Actor
```";

/// One class that cannot be read, over every part: its first actor and how many there are.
struct Met<'a> {
    first: &'a UnreadableClass,
    span: unreal_syntax::Span,
    actors: u64,
}

fn report(parts: &[(&MapFacts, i64)], out: &mut Vec<Diagnostic>) {
    let mut met: Vec<Met<'_>> = Vec::new();
    for &(facts, delta) in parts {
        for class in &facts.unreadable {
            match met.iter_mut().find(|m| m.first.class.eq_ignore_ascii_case(&class.class)) {
                Some(m) => m.actors += u64::from(class.actors),
                None => met.push(Met {
                    first: class,
                    span: class.span.shifted(delta),
                    actors: u64::from(class.actors),
                }),
            }
        }
    }
    let Some((first, rest)) = met.split_first() else { return };
    let mut message = format!(
        "class `{}` cannot be read ({}): the checks that need its flags or defaults pass over {} of this map (of it or of classes derived from it)",
        first.first.class,
        first.first.why,
        actors(first.actors)
    );
    if !rest.is_empty() {
        let _ = write!(
            message,
            "; {} more {} cannot be read (labelled)",
            rest.len(),
            if rest.len() == 1 { "class" } else { "classes" }
        );
    }
    let mut diagnostic = RULE.diagnostic(first.span, message);
    diagnostic.labels = rest
        .iter()
        .take(MAX_LABELS)
        .map(|m| Label {
            file: None,
            span: m.span,
            message: format!(
                "class `{}` cannot be read ({}): {} passed over",
                m.first.class,
                m.first.why,
                actors(m.actors)
            ),
        })
        .collect();
    out.push(diagnostic);
}

/// `1 actor`, `3 actors`.
fn actors(n: u64) -> String {
    if n == 1 {
        "1 actor".to_owned()
    } else {
        format!("{n} actors")
    }
}

pub fn check(ctx: &T3dContext<'_>, out: &mut Vec<Diagnostic>) {
    Summarizer.check(ctx, out);
}

/// The rule over per-part summaries (the incremental document's segments): the map facts of
/// each part, reported by [`report`].
#[allow(non_upper_case_globals)] // the rule registry names every rule's summarizer `Summarizer`
pub static Summarizer: map_facts::FactsRule = map_facts::FactsRule(report);
