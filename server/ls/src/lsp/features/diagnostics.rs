//! Diagnostics, pushed with `textDocument/publishDiagnostics`. The scheduler calls
//! [`compute`] on a blocking thread with a document handle; this file turns analysis diagnostics
//! into LSP ones: the user's rule levels, the rule's code and documentation link, labels as
//! related information, and each fix kept for `textDocument/codeAction`.

use std::fmt::Write as _;
use std::path::Path;
use std::str::FromStr;

use tower_lsp_server::ls_types::{
    self as lsp, CodeDescription, DiagnosticRelatedInformation, DiagnosticSeverity, Location,
    NumberOrString, ServerCapabilities, Uri,
};
use unreal_analysis::{Diagnostic, Severity};

use super::other_files::OtherFiles;
use crate::lsp::documents::{
    DocumentHandle, Published, PublishedDiagnostic, PublishedFix, Session,
};
use crate::lsp::position::{self, Lines, PositionEncoding};
use unreal_analysis::lint::FileKind;

/// Shown as the diagnostic's source in every editor.
pub const SOURCE: &str = "unreal-ls";

/// Pushed diagnostics need no capability; pull diagnostics (`textDocument/diagnostic`) would
/// register here.
pub fn register(_caps: &mut ServerCapabilities, _session: &Session) {}

/// The diagnostics pass over one open document, given the document's file (`None` for a
/// buffer that is not one). The server calls [`features::exec::analyze`]: `.uc` files with
/// their package around them, everything else as [`unreal_analysis::lint::lint_text`] (T3D
/// documents go through their incremental document instead, see
/// `ServerOptions::incremental_t3d`), reading files through the workspace's lint sessions;
/// tests substitute their own to exercise the protocol side (fixes, labels, panics)
/// independently of which rules exist.
pub type Analyzer = std::sync::Arc<
    dyn Fn(
            FileKind,
            Option<&std::path::Path>,
            &str,
            &unreal_analysis::lint::LintOptions,
            &crate::lsp::workspace::Workspace,
        ) -> Vec<Diagnostic>
        + Send
        + Sync,
>;

/// Analyses the document as it is now (under its content's lock, so the result belongs to
/// exactly the version it names) and converts the result. A T3D document is analysed
/// incrementally: only the blocks edited since the last analysis are checked again.
/// Documents of no known kind get none.
pub fn compute(handle: &DocumentHandle, analyzer: &Analyzer, incremental_t3d: bool) -> Published {
    // The options are found before the document's lock is taken, with the package index of
    // a file under another installation (built the first time: seconds for a whole game),
    // so that edits to the document never wait for them.
    let path = super::exec::document_path(&handle.uri);
    let excluded = handle.session.excludes(path.as_deref());
    let mut lint_options = handle.session.lint_options(path.as_deref());
    if !excluded {
        handle.session.packages_for_checks(&mut lint_options);
    }
    handle.update(|content, handle| {
        let kind = handle.kind_of(content.text());
        let diagnostics = match kind {
            None => Vec::new(),
            // What `lint` leaves out (the `exclude` of the file's `unreal-ls.toml`), the editor
            // shows nothing for either.
            Some(_) if excluded => Vec::new(),
            Some(FileKind::T3d) if incremental_t3d => {
                let diagnostics = content.t3d_mut().diagnostics(&lint_options);
                crate::lsp::memory::release_after(content.text().len());
                diagnostics
            }
            Some(kind) => {
                let workspace = &handle.session.workspace;
                analyzer(kind, path.as_deref(), content.text(), &lint_options, workspace)
            }
        };
        let snapshot = handle.snapshot(content, kind);
        let target =
            Target { uri: snapshot.uri, lines: snapshot.lines(), encoding: snapshot.encoding() };
        let items = publishable(&handle.session, path.as_deref(), diagnostics, &target);
        Published { version: Some(snapshot.version), items }
    })
}

/// The text a file's diagnostics point into, for their conversion: an open document's, or
/// the decoded text of a file read from disk (the workspace's problems).
pub struct Target<'a> {
    pub uri: &'a Uri,
    pub lines: Lines<'a>,
    pub encoding: PositionEncoding,
}

/// A file's findings as they are published: the severities the configuration and the
/// settings give, each flood of infos or hints as one finding, converted to LSP, errors first.
pub fn publishable(
    session: &Session,
    path: Option<&Path>,
    mut diagnostics: Vec<Diagnostic>,
    target: &Target<'_>,
) -> Vec<PublishedDiagnostic> {
    session.apply_severities(path, &mut diagnostics);
    let diagnostics = unreal_analysis::diagnostic::collapse_floods(diagnostics);
    let mut other_files = OtherFiles::default();
    let mut items: Vec<PublishedDiagnostic> = diagnostics
        .iter()
        .map(|diagnostic| convert(target, diagnostic, diagnostic.severity, &mut other_files))
        .collect();
    // Errors first, then warnings, infos and hints, each in the order of the document: a
    // client that keeps only so many a file (VS Code: 1,000) keeps what matters.
    items.sort_by_key(|item| item.diagnostic.severity.map(severity_rank));
    items
}

/// Lower first: the protocol numbers severities from error (1) to hint (4).
fn severity_rank(severity: lsp::DiagnosticSeverity) -> i32 {
    match severity {
        lsp::DiagnosticSeverity::ERROR => 1,
        lsp::DiagnosticSeverity::WARNING => 2,
        lsp::DiagnosticSeverity::INFORMATION => 3,
        _ => 4,
    }
}

fn convert(
    target: &Target<'_>,
    diagnostic: &Diagnostic,
    severity: Severity,
    other_files: &mut OtherFiles,
) -> PublishedDiagnostic {
    let range = |span| position::range_of_span(target.lines, span, target.encoding);
    let mut message = diagnostic.message.clone();
    let mut related = Vec::new();
    for label in &diagnostic.labels {
        let location = match &label.file {
            None => Some(Location::new(target.uri.clone(), range(label.span))),
            Some(path) => other_files.location_in(path, label.span, target.encoding),
        };
        if let Some(location) = location {
            related.push(DiagnosticRelatedInformation { location, message: label.message.clone() });
        } else {
            // A file that has no URI (a relative path that does not exist) still gets its
            // label shown, as text.
            let path = label.file.as_deref().unwrap_or(Path::new("")).display();
            let _ = write!(message, "\n{path}: {}", label.message);
        }
    }
    let lsp_diagnostic = lsp::Diagnostic {
        range: range(diagnostic.span),
        severity: Some(lsp_severity(severity)),
        code: Some(NumberOrString::String(diagnostic.code.to_owned())),
        code_description: rule_documentation(diagnostic.code),
        source: Some(SOURCE.to_owned()),
        message,
        related_information: (!related.is_empty()).then_some(related),
        tags: diagnostic.unnecessary.then(|| vec![lsp::DiagnosticTag::UNNECESSARY]),
        data: None,
    };
    let fix = diagnostic.fix.as_ref().map(|fix| PublishedFix {
        title: fix.title.clone(),
        edits: fix
            .edits
            .iter()
            .map(|edit| lsp::TextEdit::new(range(edit.span), edit.new_text.clone()))
            .collect(),
        safe: fix.safe,
    });
    PublishedDiagnostic { diagnostic: lsp_diagnostic, fix }
}

pub fn lsp_severity(severity: Severity) -> DiagnosticSeverity {
    match severity {
        Severity::Error => DiagnosticSeverity::ERROR,
        Severity::Warning => DiagnosticSeverity::WARNING,
        Severity::Info => DiagnosticSeverity::INFORMATION,
        Severity::Hint => DiagnosticSeverity::HINT,
    }
}

/// The rule's entry in docs/rules.md (each rule is a heading named by its code).
fn rule_documentation(code: &str) -> Option<CodeDescription> {
    let href = crate::rule_documentation_url(code)?;
    Uri::from_str(&href).ok().map(|href| CodeDescription { href })
}
