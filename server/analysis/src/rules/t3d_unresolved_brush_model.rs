//! `t3d-unresolved-brush-model`: `Brush=Model'MyLevel.X'` where the map has no
//! `Begin Brush Name=X` (nor UE2 `Begin Object Class=Model Name=X`). The actor loses its
//! brush on import: a builder or volume with no geometry.

use rustc_hash::FxHashSet;

use unreal_syntax::t3d::{BlockKind, Value};

use super::summary::{Summarized, Summary};
use super::{RuleMeta, Scope, T3dContext};
use crate::t3d::actors::imported_brush;
use crate::{Diagnostic, Severity};

pub static RULE: RuleMeta = RuleMeta {
    code: "t3d-unresolved-brush-model",
    severity: Severity::Warning,
    summary: "`Brush=Model'...'` names no brush of the map",
    scope: Scope::Summarized,
    docs: DOCS,
    ..RuleMeta::T3D_LOCAL
};

/// The rule's documentation: its `docs/rules.md` section after the `Severity:` lead.
const DOCS: &str = r"`Brush=Model'MyLevel.X'` where the map has no `Begin Brush Name=X` (nor
UE2 `Begin Object Class=Model Name=X`). The actor loses its brush on import: a builder or
volume with no geometry.

Engine basis: a brush actor's `Begin Brush Name=X` creates a model named X in the map's package
(UT2004 `Editor/Src/UnEditor.cpp:772-792`, UT v400 `Editor/Src/UnEditor.cpp:707-729`); the
actor's `Brush=Model'MyLevel.X'` is resolved by `UObjectProperty::ImportText`, which looks the
object up by name, then tries to load it, and leaves the property `None` when both fail
(`Core/Src/UnProp.cpp:1280-1316`). The actor is left without a brush model. When the actor
holds its own `Begin Brush Name=` block, the finding is an error: import then prepares that
brush through the `None` reference and crashes (see `t3d-missing-brush-reference`).

```t3d
Begin Actor Class=Brush Name=Brush1
   Brush=Model'MyLevel.Model99'
End Actor
```

Fix: point the reference at the brush the actor contains (`Model'MyLevel.Brush1'` style
names are whatever `Begin Brush Name=` says), or add the brush block.

```t3d fixed
Begin Actor Class=Brush Name=Brush1
   Begin Brush Name=Model99
   End Brush
   Brush=Model'MyLevel.Model99'
End Actor
```";

/// The brushes part of a document defines and the `Brush=Model'...'` references it makes
/// (one segment of an incremental document, or the whole tree).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Models {
    /// Lower-case names of `Begin Brush` (and UE2 `Begin Object Class=Model`) blocks.
    defined: Vec<String>,
    references: Vec<Reference>,
}

#[derive(Clone, Debug, PartialEq)]
struct Reference {
    /// The path inside `Model'...'`.
    span: unreal_syntax::Span,
    full: String,
    name: String,
    lower: String,
    /// The actor holds its own `Begin Brush Name=` block: import then prepares the brush
    /// through this reference, and crashes on `None`.
    imports_brush: bool,
}

impl Models {
    pub fn collect(ctx: &T3dContext<'_>) -> Self {
        let mut models = Self::default();
        for &(block, _) in &ctx.blocks {
            let is_model = match block.kind {
                BlockKind::Brush => true,
                BlockKind::Object => block
                    .attribute_value(ctx.text, "Class")
                    .is_some_and(|c| c.eq_ignore_ascii_case("Model")),
                _ => false,
            };
            if let (true, Some(name)) = (is_model, block.attribute_value(ctx.text, "Name")) {
                models.defined.push(name.to_ascii_lowercase());
            }
            if block.kind != BlockKind::Actor {
                continue;
            }
            let imports_brush = imported_brush(block, ctx.text).is_some();
            for property in block.properties() {
                if !property.key.text(ctx.text).eq_ignore_ascii_case("Brush") {
                    continue;
                }
                let Value::ObjectRef { class, path, .. } = &property.value else { continue };
                if !class.text(ctx.text).eq_ignore_ascii_case("Model") {
                    continue;
                }
                let full = path.text(ctx.text);
                let name = full.rsplit('.').next().unwrap_or(full);
                models.references.push(Reference {
                    span: *path,
                    full: full.to_owned(),
                    name: name.to_owned(),
                    lower: name.to_ascii_lowercase(),
                    imports_brush,
                });
            }
        }
        // A part keeps its summary as long as the document lives: one actor's one name or
        // reference, not the four a growing vector reserves.
        models.defined.shrink_to_fit();
        models.references.shrink_to_fit();
        models
    }
}

/// Reports the references that no part defines, each part with the distance its spans
/// moved since it was collected.
pub fn report<'a>(
    parts: impl IntoIterator<Item = (&'a Models, i64)> + Clone,
    out: &mut Vec<Diagnostic>,
) {
    // Run on every edit of a big map (thousands of brushes): a fast hash.
    let defined: FxHashSet<&str> =
        parts.clone().into_iter().flat_map(|(m, _)| m.defined.iter().map(String::as_str)).collect();
    for (models, delta) in parts {
        for reference in &models.references {
            if defined.contains(reference.lower.as_str()) {
                continue;
            }
            let (full, name) = (&reference.full, &reference.name);
            let span = reference.span.shifted(delta);
            out.push(if reference.imports_brush {
                RULE.diagnostic(
                    span,
                    format!("`Model'{full}'` names no brush in this map, so this actor's `Brush` stays `None` and UnrealEd's import crashes preparing the brush it read: expected its `Begin Brush` name"),
                )
                .with_severity(Severity::Error)
            } else {
                RULE.diagnostic(
                    span,
                    format!("`Model'{full}'` names no brush in this map: expected a `Begin Brush Name={name}` block"),
                )
            });
        }
    }
}

pub fn check(ctx: &T3dContext<'_>, out: &mut Vec<Diagnostic>) {
    report([(&Models::collect(ctx), 0)], out);
}

/// The rule over per-part summaries (the incremental document's segments).
pub struct Summarizer;

impl Summarized for Summarizer {
    fn summarize(&self, ctx: &T3dContext<'_>, _start: u32) -> Summary {
        let models = Models::collect(ctx);
        let empty = models.defined.is_empty() && models.references.is_empty();
        Summary::unless_empty(models, empty)
    }

    fn report(&self, parts: &[(&Summary, i64)], out: &mut Vec<Diagnostic>) {
        let models =
            parts.iter().filter_map(|&(summary, delta)| Some((summary.get::<Models>()?, delta)));
        report(models, out);
    }

    fn same_content(&self, before: &[&Summary], after: &[&Summary]) -> bool {
        // What is defined and what is referred to (as written: the message quotes it).
        fn content<'a>(parts: &[&'a Summary]) -> (Vec<&'a str>, Vec<(&'a str, &'a str, bool)>) {
            let models = || parts.iter().filter_map(|s| s.get::<Models>());
            let defined = models().flat_map(|m| &m.defined).map(String::as_str).collect();
            let references = models()
                .flat_map(|m| &m.references)
                .map(|r| (r.full.as_str(), r.name.as_str(), r.imports_brush))
                .collect();
            (defined, references)
        }
        let (defined_before, references_before) = content(before);
        let (defined_after, references_after) = content(after);
        super::summary::same_items(defined_before, defined_after)
            && super::summary::same_items(references_before, references_after)
    }
}
