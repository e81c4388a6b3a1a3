//! `t3d-unknown-object`: an object reference `Class'Package.Group.Name'` (`Skin=`,
//! `AmbientSound=`, `StaticMesh=`...) names nothing in the indexed packages. The property is
//! left at `None` on import. References into the map itself (`MyLevel.`) are another rule's
//! business. Runs only with a package index.
//!
//! Also home of [`Reporter`], which the texture and class rules share: the lookup, the
//! message with up to three nearest names, and the replacement as an unsafe fix.

use std::collections::HashMap;
use std::fmt::Write as _;

use unreal_syntax::Span;

use super::{Fixability, RuleMeta, T3dContext};
use crate::index::{Lookup, ObjectKind, PackageIndex};
use crate::{Diagnostic, Fix, Severity, TextEdit};

pub static RULE: RuleMeta = RuleMeta {
    code: "t3d-unknown-object",
    severity: Severity::Warning,
    summary: "an object reference `Class'Package.Name'` names nothing in the indexed packages",
    fix: Fixability::Unsafe,
    docs: DOCS,
    ..RuleMeta::T3D_LOCAL
};

/// The rule's documentation: its `docs/rules.md` section after the `Severity:` lead.
const DOCS: &str = r"An object reference `Class'Package.Group.Name'` in an actor's properties
(`Skin=`, `AmbientSound=`, `StaticMesh=`) names nothing in the indexed packages: its package is
not indexed, or the package has no object at that path. The property stays `None` on import.
Without the `Engine` package in the index, a bare name or a package the index does not have
cannot be checked: an info that says so, not a warning.

<!-- example index=indexed -->
```t3d
Begin Actor Class=AmbientSound Name=AmbientSound0
    AmbientSound=Sound'AmbModern.Looping.comp1x'
End Actor
```

Fix: the object's full path as the package holds it, groups included.

```t3d fixed
Begin Actor Class=AmbientSound Name=AmbientSound0
    AmbientSound=Sound'AmbModern.Looping.comp1'
End Actor
```";

/// How many nearest names a finding offers.
const SUGGESTIONS: usize = 3;

pub fn check(ctx: &T3dContext<'_>, out: &mut Vec<Diagnostic>) {
    let Some(index) = ctx.packages else { return };
    let mut reporter = Reporter::new(&RULE, index, ObjectKind::Any);
    for &(block, _) in &ctx.blocks {
        for property in block.properties() {
            crate::t3d::walk::for_each_object_ref(&property.value, &mut |_, class, path| {
                let (class, path_text) = (class.text(ctx.text), path.text(ctx.text));
                reporter.check(path, path_text, &format!("`{class}'{path_text}'`"), out);
            });
        }
    }
}

/// Looks references up and words the findings; each distinct value is looked up once.
///
/// A finding is a warning only where the index can tell: a `Package.Name` in an indexed
/// package, or any name when the engine's own packages are indexed (`Engine`, and for bare
/// texture names `Editor` too). With a partial index (a game folder without them, or package
/// paths alone) a bare name or an unknown package may well live in what is not indexed
/// (`Bkgnd` is `Editor.Bkgnd`): that is an info, "cannot check", never a warning.
pub(crate) struct Reporter<'a> {
    rule: &'static RuleMeta,
    index: &'a PackageIndex,
    kind: ObjectKind,
    /// Lowercased value -> the message and suggestions (`None`: known or not judged).
    seen: HashMap<String, Option<(String, Vec<String>, Severity)>>,
}

impl<'a> Reporter<'a> {
    pub(crate) fn new(rule: &'static RuleMeta, index: &'a PackageIndex, kind: ObjectKind) -> Self {
        Self { rule, index, kind, seen: HashMap::new() }
    }

    /// Checks one reference at `span` (the value as written) and reports it when unknown;
    /// `what` names it in the message (``texture `X` ``, `` `Sound'X'` ``).
    pub(crate) fn check(&mut self, span: Span, value: &str, what: &str, out: &mut Vec<Diagnostic>) {
        let value = value.trim_matches('"');
        let key = value.to_ascii_lowercase();
        if !self.seen.contains_key(&key) {
            let finding = self.finding(value, what);
            self.seen.insert(key.clone(), finding);
        }
        let Some(Some((message, suggestions, severity))) = self.seen.get(&key) else { return };
        let mut diagnostic = self.rule.diagnostic(span, message.clone()).with_severity(*severity);
        if let Some(first) = suggestions.first() {
            diagnostic = diagnostic.with_fix(Fix {
                title: format!("Replace with `{first}`"),
                edits: vec![TextEdit { span, new_text: first.clone() }],
                safe: false,
            });
        }
        out.push(diagnostic);
    }

    fn finding(&self, value: &str, what: &str) -> Option<(String, Vec<String>, Severity)> {
        // Classes and objects of a map come from the engine and the game; bare texture names
        // also from UnrealEd's own package (`Bkgnd` is `Editor.Bkgnd`).
        let needed: &[&str] =
            if self.kind == ObjectKind::Texture { &["Engine", "Editor"] } else { &["Engine"] };
        let absent: Vec<&str> =
            needed.iter().copied().filter(|p| self.index.package(p).is_none()).collect();
        let lookup = self.index.lookup(self.kind, value);
        // Only a miss inside an indexed package is certain when the index is partial.
        let certain =
            absent.is_empty() || (matches!(lookup, Lookup::Missing) && value.contains('.'));
        let mut message = match lookup {
            Lookup::Found(_) | Lookup::Declared | Lookup::Unchecked => return None,
            Lookup::NoPackage(package) => {
                format!("{what}: no indexed package is named `{package}`")
            }
            Lookup::Missing => match value.split_once('.') {
                Some((package, rest)) => format!("{what}: package `{package}` has no `{rest}`"),
                None => format!("{what} is in none of the indexed packages"),
            },
        };
        if !certain {
            let list: Vec<String> = absent.iter().map(|p| format!("`{p}`")).collect();
            let _ = write!(
                message,
                "; cannot check: {} not indexed (the engine's and UnrealEd's own objects live there)",
                list.join(" and ")
            );
        }
        let suggestions = self.index.suggestions(self.kind, value, SUGGESTIONS);
        if !suggestions.is_empty() {
            let list: Vec<String> = suggestions.iter().map(|s| format!("`{s}`")).collect();
            let _ = write!(message, "; did you mean {}?", list.join(", "));
        }
        let severity = if certain { self.rule.severity } else { Severity::Info };
        Some((message, suggestions, severity))
    }
}
