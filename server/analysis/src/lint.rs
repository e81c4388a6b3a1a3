//! The entry point that both `unreal-ls lint` and the language server's diagnostics call:
//! bytes of one file in, decoded text and diagnostics out.

use std::path::Path;

use unreal_syntax::text::{self, SourceEncoding};

use crate::{Diagnostic, EngineSetting};

/// The kinds of text file unreal-ls checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileKind {
    T3d,
    UnrealScript,
}

/// Decides whether a file is one unreal-ls checks: `.t3d` by extension, `.uc`/`.uci` by
/// extension, and any other text file whose first non-blank line is `Begin Map`,
/// `Begin Actor`, `Begin PolyList`, `Begin Brush` or `Begin Polygon` (UnrealEd's clipboard
/// and exports with other extensions).
pub fn detect_kind(path: &Path, head: &[u8]) -> Option<FileKind> {
    let ext = path.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase);
    match ext.as_deref() {
        Some("t3d") => return Some(FileKind::T3d),
        Some("uc" | "uci") => return Some(FileKind::UnrealScript),
        _ => {}
    }
    if !text::looks_like_text(head) {
        return None;
    }
    let decoded = text::decode(&head[..head.len().min(4096)]);
    let first = decoded.text.lines().map(str::trim).find(|l| !l.is_empty())?;
    let mut words = first.split_ascii_whitespace();
    let begin = words.next()?;
    let kind = words.next()?;
    let starts_t3d = begin.eq_ignore_ascii_case("begin")
        && ["map", "actor", "polylist", "brush", "polygon"]
            .iter()
            .any(|k| kind.eq_ignore_ascii_case(k));
    starts_t3d.then_some(FileKind::T3d)
}

#[derive(Clone, Debug, Default)]
pub struct LintOptions {
    pub engine: EngineSetting,
}

/// One checked file: the decoded text (diagnostic spans are byte offsets into it) and what
/// was found.
#[derive(Debug)]
pub struct LintedFile {
    pub text: String,
    pub encoding: SourceEncoding,
    pub diagnostics: Vec<Diagnostic>,
}

/// Decodes and checks one file of the given kind.
pub fn lint_file(kind: FileKind, bytes: &[u8], options: &LintOptions) -> LintedFile {
    let decoded = text::decode(bytes);
    let encoding = decoded.encoding;
    let text = decoded.text.into_owned();
    let diagnostics = lint_text(kind, &text, options);
    LintedFile { text, encoding, diagnostics }
}

/// Checks text that is already decoded (an editor's open document). Spans are byte offsets
/// into `text`.
pub fn lint_text(kind: FileKind, text: &str, options: &LintOptions) -> Vec<Diagnostic> {
    match kind {
        FileKind::T3d => crate::rules::check_t3d(text, options),
        FileKind::UnrealScript => Vec::new(),
    }
}
