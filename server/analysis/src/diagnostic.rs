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
