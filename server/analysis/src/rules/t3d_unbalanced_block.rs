//! `t3d-unbalanced-block`: a `Begin` without its `End`, an `End` that closes nothing, or an
//! `End` of another kind.
//!
//! The importers pair nothing: each reads lines until its own `End` (`UnEdFact.cpp`,
//! `UnEditor.cpp`). So what a mismatch costs depends on which `End` is missing. An actor, brush,
//! poly list or polygon without its `End` swallows what follows (the next actor is never
//! spawned, geometry is lost): an error. A map without `End Map` loses nothing, the importer
//! reads to the end of the text: a hint. An `End` that closes nothing, or a `Begin` without a
//! kind, is skipped: a hint (tagged unnecessary when nothing at all is open).

use unreal_syntax::t3d::{SyntaxError, SyntaxErrorKind};
use unreal_syntax::Span;

use super::{RuleMeta, Scope, T3dContext};
use crate::t3d::in_pieces::{TooBroken, MAX_MISMATCHES};
use crate::{Diagnostic, Severity};

pub static RULE: RuleMeta = RuleMeta {
    code: "t3d-unbalanced-block",
    severity: Severity::Error,
    summary: "`Begin`/`End` lines do not pair up",
    scope: Scope::TopLevel,
    syntax: true,
    docs: DOCS,
    ..RuleMeta::T3D_LOCAL
};

/// The rule's documentation: its `docs/rules.md` section after the `Severity:` lead.
const DOCS: &str = r#"`Begin`/`End` lines do not pair up. What it costs depends on which `End` is
missing, because each importer reads until its own `End`: an actor, brush, poly list or
polygon never closed swallows what follows (the next actor is never spawned, geometry is
lost): an error. A map without `End Map` loses nothing (the importer reads to the end of the
text): a hint. An `End` of another kind, an `End` that closes nothing, or a `Begin` without a
kind is skipped by the importer: a hint, tagged unnecessary when no block is open at all. The
error points at the `Begin` and labels the `End` (or the end of the file) that exposed it. Actors never nest, so
a `Begin Actor` closes whatever is still open inside the map: an actor whose `End Actor` is
lost or misspelt is reported with a label on the next actor's `Begin` line, and the actors
after it are read as they stand (not as children of the broken one). The first 100 mismatches
are listed and the rest counted. A file whose mismatches pass 10,000 (no map UnrealEd writes
has one: a file of actors that never close) is read only that far, in `lint` and in the
editor (a map of 256 KB or more): one more finding, on the line of the mismatch past 10,000,
says that the rest of the file and the other rules were not checked, and the editor's
features answer nothing until the file reads as a map; `diff`, `export` and `render` refuse
it. Each mismatch would otherwise cost about 1 KB, twenty times the text of a one-line actor.

Engine basis: the importers pair nothing; each reads lines until its own `End` and ignores the
others. The map loop runs until `End Map` or the end of the text (UT2004
`Editor/Src/UnEdFact.cpp:564-572`), so a missing `End Map` loses nothing. An actor's property
text is every line up to the next `End Actor` (UnEdFact.cpp:629-636; UT v400
`Editor/Src/UnEdFact.cpp:462-469`), so an actor whose `End Actor` is missing swallows the next
actor up to that actor's `End Actor`: the next actor is never spawned, and its property lines
are applied to the broken actor (UT v400 lets them overwrite; UT2004 refuses properties set
twice as "redundant data", `Editor/Src/UnEditor.cpp:929-933`). A brush reads to `End Brush`
(UnEdFact.cpp:1704-1709), a poly list to `End PolyList` (UnEdFact.cpp:988-994), and a polygon
is kept only at its `End Polygon`, a new `Begin Polygon` resetting it first
(UnEdFact.cpp:1591-1594, 1641-1648). An `End` that closes nothing is skipped at map level and
inside an actor is logged as a property line without `=` (`Editor/Src/UnEditor.cpp:899-903`),
changing nothing. The engine does not stop at the first mismatch.

```t3d
Begin Actor Class=Brush Name=Brush
   Begin Brush Name=Brush
      Begin PolyList
      End PolyList
End Actor
```

Fix: add the missing `End Brush` before `End Actor` (or correct the misspelt kind).

```t3d fixed
Begin Actor Class=Brush Name=Brush
   Begin Brush Name=Brush
      Begin PolyList
      End PolyList
   End Brush
End Actor
```"#;

/// After this many findings the rest of a file's mismatches are one summary finding: 100,000
/// actors without `End Actor` are one cause repeated, not 100,000 things to read. The rule
/// reads every error of the document at once (its scope is the top level), so it makes the
/// first findings only and counts the rest: a finding costs far more than the error behind
/// it.
const MAX_FINDINGS: usize = 100;

pub fn check(ctx: &T3dContext<'_>, out: &mut Vec<Diagnostic>) {
    // The mismatches in text order (the errors come segment by segment).
    let mut mismatches: Vec<&SyntaxError> =
        ctx.parse.errors.iter().filter(|e| e.kind.is_mismatch()).collect();
    mismatches.sort_by_key(|e| (e.span.start, e.span.end));
    for error in mismatches.iter().take(MAX_FINDINGS) {
        out.push(finding(ctx.text, error));
    }
    if let Some(first_unlisted) = mismatches.get(MAX_FINDINGS) {
        let more = mismatches.len() - MAX_FINDINGS;
        out.push(RULE.diagnostic(
            first_unlisted.span,
            format!(
                "{more} more `Begin`/`End` mismatches from here on are not listed; correct the ones above and check again"
            ),
        ));
    }
}

/// The findings of a map whose reading in pieces stopped (`in_pieces::read_pieces_bounded`),
/// from the `errors` of the pieces read: the first mismatches, as [`check`] lists them, then
/// one on the line of the mismatch past the limit (`in_pieces::TooBroken`), saying why and
/// what was left unchecked; `None` when the errors hold no more than the limit.
pub(crate) fn stopped<'a>(
    text: &str,
    errors: impl IntoIterator<Item = &'a SyntaxError> + Clone,
) -> Option<Vec<Diagnostic>> {
    let stop = TooBroken::after(text, errors.clone())?;
    let mut mismatches: Vec<&SyntaxError> = errors
        .into_iter()
        .filter(|e| e.kind.is_mismatch() && (e.span.start as usize) < stop.stopped_at)
        .collect();
    mismatches.sort_by_key(|e| (e.span.start, e.span.end));
    let mut out: Vec<Diagnostic> =
        mismatches.iter().take(MAX_FINDINGS).map(|error| finding(text, error)).collect();
    let unlisted = mismatches.len().saturating_sub(MAX_FINDINGS);
    let not_listed = if unlisted > 0 {
        format!(" ({unlisted} more before this line are not listed)")
    } else {
        String::new()
    };
    let line = text.get(stop.stopped_at..).unwrap_or_default();
    let line_len = line.find(['\r', '\n']).unwrap_or(line.len());
    let span = Span::new(stop.stopped_at as u32, (stop.stopped_at + line_len) as u32);
    out.push(RULE.diagnostic(
        span,
        format!(
            "reading stopped on this line: more than {MAX_MISMATCHES} `Begin`/`End` lines do not pair up{not_listed}, so the rest of the file is not read and no other rule was run; correct the ones above and check again"
        ),
    ));
    Some(out)
}

fn finding(text: &str, error: &SyntaxError) -> Diagnostic {
    let mut diagnostic = match error.kind {
        SyntaxErrorKind::UnclosedBlock if begins_map(error.span.text(text)) => RULE
            .diagnostic(
                error.span,
                "`Begin Map` is never closed; UnrealEd reads the map to the end of the text, so nothing is lost",
            )
            .with_severity(Severity::Hint),
        SyntaxErrorKind::UnclosedBlock => RULE.diagnostic(error.span, error.message.clone()),
        SyntaxErrorKind::MismatchedEnd => RULE
            .diagnostic(error.span, format!("{}; UnrealEd skips this line", error.message))
            .with_severity(Severity::Hint),
        _ => RULE
            .diagnostic(error.span, format!("{}; UnrealEd skips this line", error.message))
            .with_severity(Severity::Hint)
            .unnecessary(),
    };
    for (span, message) in &error.related {
        diagnostic = diagnostic.with_label(*span, message.clone());
    }
    diagnostic
}

/// True for a `Begin Map` line (any case, any blanks).
fn begins_map(line: &str) -> bool {
    let mut words = line.split_whitespace();
    words.next().is_some_and(|w| w.eq_ignore_ascii_case("Begin"))
        && words.next().is_some_and(|w| w.eq_ignore_ascii_case("Map"))
}
