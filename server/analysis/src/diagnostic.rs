//! The one diagnostic type. The CLI renders it as code frames, JSON (and later SARIF); the
//! language server renders it as LSP diagnostics with related information and quick fixes.

use std::path::PathBuf;

use unreal_syntax::Span;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    Hint,
    Info,
    Warning,
    Error,
}

impl Severity {
    /// The lowercase name used in JSON output and configuration files.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
            Severity::Hint => "hint",
        }
    }

    pub fn parse(name: &str) -> Option<Severity> {
        match name.to_ascii_lowercase().as_str() {
            "error" => Some(Severity::Error),
            "warning" | "warn" => Some(Severity::Warning),
            "info" | "information" => Some(Severity::Info),
            "hint" => Some(Severity::Hint),
            _ => None,
        }
    }
}

/// A secondary location with its own message ("first defined here", "opened here").
#[derive(Clone, Debug, PartialEq)]
pub struct Label {
    /// `None`: the same file as the diagnostic.
    pub file: Option<PathBuf>,
    pub span: Span,
    pub message: String,
}

/// One replacement in the diagnostic's own file.
#[derive(Clone, Debug, PartialEq)]
pub struct TextEdit {
    pub span: Span,
    pub new_text: String,
}

/// A machine-applicable fix: what it does, and the edits that do it.
#[derive(Clone, Debug, PartialEq)]
pub struct Fix {
    pub title: String,
    pub edits: Vec<TextEdit>,
    /// Safe fixes are applied by `lint --fix`; the others are offered only as editor actions.
    pub safe: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Diagnostic {
    /// Stable kebab-case rule code, listed in `docs/rules.md`.
    pub code: &'static str,
    pub severity: Severity,
    pub span: Span,
    pub message: String,
    pub labels: Vec<Label>,
    pub fix: Option<Fix>,
    /// The line or key does nothing and changes nothing (boilerplate the engine skips): editors
    /// fade it (`DiagnosticTag::Unnecessary`), JSON output tags it `"unnecessary"`.
    pub unnecessary: bool,
}

impl Diagnostic {
    pub fn new(
        code: &'static str,
        severity: Severity,
        span: Span,
        message: impl Into<String>,
    ) -> Self {
        Self {
            code,
            severity,
            span,
            message: bounded(message.into()),
            labels: Vec::new(),
            fix: None,
            unnecessary: false,
        }
    }

    pub fn error(code: &'static str, span: Span, message: impl Into<String>) -> Self {
        Self::new(code, Severity::Error, span, message)
    }

    pub fn warning(code: &'static str, span: Span, message: impl Into<String>) -> Self {
        Self::new(code, Severity::Warning, span, message)
    }

    pub fn info(code: &'static str, span: Span, message: impl Into<String>) -> Self {
        Self::new(code, Severity::Info, span, message)
    }

    pub fn hint(code: &'static str, span: Span, message: impl Into<String>) -> Self {
        Self::new(code, Severity::Hint, span, message)
    }

    #[must_use]
    pub fn with_label(mut self, span: Span, message: impl Into<String>) -> Self {
        self.labels.push(Label { file: None, span, message: bounded(message.into()) });
        self
    }

    /// Marks the finding as a harmless no-op: a hint that editors fade.
    #[must_use]
    pub fn unnecessary(mut self) -> Self {
        self.severity = Severity::Hint;
        self.unnecessary = true;
        self
    }

    #[must_use]
    pub fn with_severity(mut self, severity: Severity) -> Self {
        self.severity = severity;
        self
    }

    #[must_use]
    pub fn with_fix(mut self, fix: Fix) -> Self {
        self.fix = Some(fix);
        self
    }
}

/// The longest message kept whole. Messages quote the files (names, values, whole lines), and
/// a 50 MB value must not become a 50 MB message: the middle of a longer one is left out.
pub const MAX_MESSAGE_BYTES: usize = 2_000;

/// `message`, or its start and end around a note of how much was left out.
pub fn bounded(message: String) -> String {
    if message.len() <= MAX_MESSAGE_BYTES {
        return message;
    }
    let floor = |at: usize| (0..=at).rev().find(|&i| message.is_char_boundary(i)).unwrap_or(0);
    let head_end = floor(MAX_MESSAGE_BYTES * 3 / 4);
    let tail_start = floor(message.len() - MAX_MESSAGE_BYTES / 8);
    let left_out = message[head_end..tail_start].chars().count();
    format!(
        "{}[... {left_out} characters left out ...]{}",
        &message[..head_end],
        &message[tail_start..]
    )
}

/// Infos of one rule with one message in one file say one thing (what could not be checked,
/// and why) of several places: a licensee's poly flag on 732 polygons of a Ravenshield map
/// is one fact. The first in source order keeps its place, counts the others and lists the
/// first [`FLOOD_PLACES_LISTED`] as related locations; the others are dropped. Infos with a
/// fix are left alone (each place has its own edit). What `lint` prints and the editor shows
/// alike; the order of what is kept does not change.
pub fn group_repeated_infos(diagnostics: &mut Vec<Diagnostic>) {
    let groupable = |d: &Diagnostic| d.severity == Severity::Info && d.fix.is_none();
    let mut first: std::collections::HashMap<(&'static str, &str), usize> =
        std::collections::HashMap::new();
    // For each finding, the one it is grouped under (itself when first).
    let mut under: Vec<usize> = (0..diagnostics.len()).collect();
    let mut grouped = false;
    for (i, d) in diagnostics.iter().enumerate().filter(|(_, d)| groupable(d)) {
        let head = *first.entry((d.code, d.message.as_str())).or_insert(i);
        under[i] = head;
        grouped |= head != i;
    }
    if !grouped {
        return;
    }
    let mut others: Vec<Vec<Span>> = vec![Vec::new(); diagnostics.len()];
    for (i, &head) in under.iter().enumerate() {
        if head != i {
            others[head].push(diagnostics[i].span);
        }
    }
    for (head, spans) in others.iter().enumerate().filter(|(_, s)| !s.is_empty()) {
        let d = &mut diagnostics[head];
        let listed = spans.len().min(FLOOD_PLACES_LISTED);
        for &span in &spans[..listed] {
            d.labels.push(Label { file: None, span, message: "the same here".to_owned() });
        }
        let more = spans.len();
        let places = if more == 1 { "place" } else { "places" };
        d.message = bounded(if listed == more {
            format!("{} (the same at {more} more {places} of this file, listed)", d.message)
        } else {
            format!(
                "{} (the same at {more} more places of this file: the first {listed} are listed)",
                d.message
            )
        });
    }
    let mut index = 0;
    diagnostics.retain(|_| {
        index += 1;
        under[index - 1] == index - 1
    });
}

/// More infos or hints of one rule in one file than this, none with a fix, and the editor
/// shows them as one ([`collapse_floods`]).
pub const FLOOD_ABOVE: usize = 50;
/// How many of a collapsed flood's places its finding lists as related locations: a few, as
/// an editor shows each as a row of its own under the finding (VS Code's Problems panel),
/// and a hundred pushed every other file's problems out of sight.
pub const FLOOD_PLACES_LISTED: usize = 5;

/// Collapses each flood of infos or hints (more than [`FLOOD_ABOVE`] of one rule in one
/// file, none with a fix) into its first finding, which says how many there are and lists
/// the first [`FLOOD_PLACES_LISTED`] other places, each with its own message, as related
/// locations. Warnings, errors and findings with a fix are never collapsed. What an editor
/// publishes: a client keeps only so many findings a file (VS Code 1,000), and a thousand
/// "cannot check" infos (a game folder whose packages are incomplete) would hide the rest.
/// The order of what is kept does not change.
pub fn collapse_floods(diagnostics: Vec<Diagnostic>) -> Vec<Diagnostic> {
    let collapsible = |d: &Diagnostic| d.severity <= Severity::Info && d.fix.is_none();
    let mut counts: std::collections::HashMap<(&'static str, Severity), usize> =
        std::collections::HashMap::new();
    for d in diagnostics.iter().filter(|d| collapsible(d)) {
        *counts.entry((d.code, d.severity)).or_default() += 1;
    }
    if counts.values().all(|&n| n <= FLOOD_ABOVE) {
        return diagnostics;
    }
    // Where each flood's first finding sits in the output, and how many labels it had.
    let mut first: std::collections::HashMap<(&'static str, Severity), (usize, usize)> =
        std::collections::HashMap::new();
    let mut out: Vec<Diagnostic> = Vec::with_capacity(diagnostics.len());
    for d in diagnostics {
        let key = (d.code, d.severity);
        if !collapsible(&d) || counts.get(&key).is_none_or(|&n| n <= FLOOD_ABOVE) {
            out.push(d);
            continue;
        }
        match first.get(&key) {
            None => {
                first.insert(key, (out.len(), d.labels.len()));
                out.push(d);
            }
            Some(&(at, own)) => {
                let head = &mut out[at];
                if head.labels.len() - own < FLOOD_PLACES_LISTED {
                    head.labels.push(Label { file: None, span: d.span, message: d.message });
                }
            }
        }
    }
    for (key, (at, own)) in first {
        let total = counts[&key];
        let head = &mut out[at];
        let listed = head.labels.len() - own;
        let listed_note = if listed + 1 < total {
            format!(
                "the first {listed} other places are listed, {} more are not; `unreal-ls lint` lists each",
                total - 1 - listed
            )
        } else {
            "each is listed".to_owned()
        };
        head.message = bounded(format!(
            "{} (and {} more like this in this file: {listed_note})",
            head.message,
            total - 1
        ));
    }
    out
}

#[cfg(test)]
mod flood_tests {
    use super::{
        collapse_floods, group_repeated_infos, Diagnostic, FLOOD_ABOVE, FLOOD_PLACES_LISTED,
    };
    use unreal_syntax::Span;

    /// Infos of one rule and one message are one finding at the first place, counting and
    /// listing the others; another message, another rule, a warning and an info with a fix
    /// stay as they are, in their order.
    #[test]
    fn repeated_infos_are_one_finding_at_the_first_place() {
        let flag =
            |at: u32| Diagnostic::info("t3d-unknown-poly-flag", Span::new(at, at + 1), "bit");
        let mut found: Vec<Diagnostic> = (0..8).map(|i| flag(i * 10)).collect();
        found.insert(2, Diagnostic::info("t3d-unknown-poly-flag", Span::new(15, 16), "other bit"));
        found.insert(3, Diagnostic::info("t3d-unknown-object", Span::new(16, 17), "bit"));
        found.insert(4, Diagnostic::warning("t3d-unknown-poly-flag", Span::new(17, 18), "bit"));
        let mut fixed = flag(18);
        fixed.fix = Some(super::Fix { title: "fix".into(), edits: Vec::new(), safe: true });
        found.insert(5, fixed.clone());
        group_repeated_infos(&mut found);
        let seen: Vec<(u32, &str)> = found.iter().map(|d| (d.span.start, d.code)).collect();
        assert_eq!(
            seen,
            [
                (0, "t3d-unknown-poly-flag"),
                (15, "t3d-unknown-poly-flag"),
                (16, "t3d-unknown-object"),
                (17, "t3d-unknown-poly-flag"),
                (18, "t3d-unknown-poly-flag"),
            ]
        );
        assert_eq!(
            found[0].message,
            "bit (the same at 7 more places of this file: the first 5 are listed)"
        );
        let listed: Vec<u32> = found[0].labels.iter().map(|l| l.span.start).collect();
        assert_eq!(listed, [10, 20, 30, 40, 50]);
        assert_eq!(found[4], fixed);
        // Two: the other is listed.
        let mut two = vec![flag(0), flag(10)];
        group_repeated_infos(&mut two);
        assert_eq!(two.len(), 1);
        assert_eq!(two[0].message, "bit (the same at 1 more place of this file, listed)");
    }

    fn info(at: u32) -> Diagnostic {
        Diagnostic::info("t3d-unknown-texture", Span::new(at, at + 1), format!("texture T{at}"))
    }

    #[test]
    fn a_flood_of_infos_becomes_one_finding_with_its_places_and_the_rest_stays() {
        let mut found: Vec<Diagnostic> = (0..300).map(|i| info(i * 10)).collect();
        found.insert(5, Diagnostic::warning("t3d-non-planar-polygon", Span::new(51, 52), "bent"));
        found.push(Diagnostic::hint("t3d-normal-mismatch", Span::new(9999, 10000), "normal"));
        let out = collapse_floods(found);
        assert_eq!(out.len(), 3, "{out:#?}");
        assert_eq!(out[0].code, "t3d-unknown-texture");
        assert_eq!(out[0].message, "texture T0 (and 299 more like this in this file: the first 5 other places are listed, 294 more are not; `unreal-ls lint` lists each)");
        assert_eq!(out[0].labels.len(), FLOOD_PLACES_LISTED);
        assert_eq!(out[0].labels[0].message, "texture T10");
        assert_eq!(out[1].code, "t3d-non-planar-polygon");
        assert_eq!(out[2].code, "t3d-normal-mismatch");
    }

    #[test]
    fn up_to_the_threshold_and_findings_with_fixes_are_kept_as_they_are() {
        let found: Vec<Diagnostic> = (0..FLOOD_ABOVE as u32).map(|i| info(i * 10)).collect();
        assert_eq!(collapse_floods(found.clone()), found);
        let fixed: Vec<Diagnostic> = (0..200)
            .map(|i| {
                let mut d = info(i * 10);
                d.fix = Some(super::Fix { title: "fix".into(), edits: Vec::new(), safe: true });
                d
            })
            .collect();
        assert_eq!(collapse_floods(fixed.clone()), fixed);
    }
}
