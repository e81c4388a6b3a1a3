//! Plain-text renderings of scan and line results, for snapshot tests here and in the
//! analysis layer. Stable and readable; not a user-facing format.

use std::fmt::Write as _;

use super::line::{Arg, ExecLine, LineIssue, Quoting};
use super::scan::{ScanError, ScanResult};
use crate::Span;

/// 1-based `line:col` (col in characters) of a byte offset.
pub fn line_col(src: &str, offset: u32) -> String {
    let offset = (offset as usize).min(src.len());
    let before = src.get(..offset).unwrap_or("");
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |p| p + 1);
    let col = before.get(line_start..).map_or(0, |s| s.chars().count()) + 1;
    format!("{line}:{col}")
}

fn at(src: &str, span: Span) -> String {
    format!("{}({:?})", line_col(src, span.start), span)
}

pub fn render_scan(src: &str, scan: &ScanResult) -> String {
    let mut out = String::new();
    for d in &scan.directives {
        let _ = writeln!(
            out,
            "{} {:?} hash={:?} body={:?}{}",
            at(src, d.hash_span),
            d.kind,
            d.hash_span.text(src),
            d.body_span.text(src),
            if d.at_line_start { "" } else { " (not at line start)" }
        );
    }
    for e in &scan.errors {
        let _ = match *e {
            ScanError::UnterminatedBlockComment { open } => {
                writeln!(out, "error {} unterminated block comment", at(src, open))
            }
            ScanError::UnterminatedCppBlock { keyword } => {
                writeln!(
                    out,
                    "error {} unterminated {:?} block",
                    at(src, keyword),
                    keyword.text(src)
                )
            }
            ScanError::UnknownDirective { span } => {
                writeln!(out, "error {} unknown directive {:?}", at(src, span), span.text(src))
            }
        };
    }
    out
}

/// One line per token, then the issues.
pub fn render_line(src: &str, line: &ExecLine) -> String {
    let mut out = String::new();
    let word = |s: Option<Span>| {
        s.map_or_else(|| "-".to_owned(), |s| format!("{:?}@{:?}", s.text(src), s))
    };
    let _ = writeln!(out, "command {} sub {}", word(line.command), word(line.subcommand));
    for arg in &line.args {
        let _ = match *arg {
            Arg::Bare { span } => writeln!(out, "  bare {:?}@{:?}", span.text(src), span),
            Arg::Key { key, value } => {
                let quoting = match value.quoting {
                    Quoting::Unquoted => "",
                    Quoting::Closed => " quoted",
                    Quoting::Unclosed => " unclosed-quote",
                };
                writeln!(
                    out,
                    "  key {:?}@{:?} = {:?}@{:?}{quoting}{}{} -> {:?}",
                    key.text(src),
                    key,
                    value.raw(src),
                    value.span,
                    if value.cut_by_comment { " cut-by-comment" } else { "" },
                    if value.has_escapes { " escapes" } else { "" },
                    value.text(src),
                )
            }
        };
    }
    if let Some(comment) = line.comment {
        let _ = writeln!(out, "  comment {:?}", comment.text(src));
    }
    for issue in &line.issues {
        let _ = match *issue {
            LineIssue::ValueCutByComment { value, comment } => writeln!(
                out,
                "  issue value {:?} cut by comment at {}",
                value.text(src),
                line_col(src, comment.start)
            ),
            LineIssue::UnterminatedQuote { value } => {
                writeln!(out, "  issue unterminated quote {:?}", value.text(src))
            }
            LineIssue::EscapeInQuotes { at } => {
                writeln!(out, "  issue escape {:?} at {}", at.text(src), line_col(src, at.start))
            }
            LineIssue::EmptyKey { at } => {
                writeln!(out, "  issue empty key at {}", line_col(src, at.start))
            }
        };
    }
    out
}
