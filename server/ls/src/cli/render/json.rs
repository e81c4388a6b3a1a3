//! `--format json`: one document, version 1. Later versions may add fields but never remove
//! or rename these:
//!
//! `{"version":1,"files":N,"diagnostics":[{"file","line","column","end_line","end_column",
//! "severity","code","message"}]}`, plus `"tags":["unnecessary"]` on a finding that marks a
//! harmless no-op, and `"related"` on a finding with related places (each `{"line","column",
//! "end_line","end_column","message"}` in the finding's file, or `{"file","message"}` for
//! another file), both added in the same version and absent otherwise.
//!
//! Lines and columns are 1-based, columns count characters, and the end is exclusive (the
//! position just after the last character of the span). One diagnostic per line, so the
//! output stays readable in a diff and a `grep`.

use std::io::{self, Write};

use rayon::prelude::*;
use serde::Serialize;

use super::Report;

/// The contract's version; bumped only if a field ever has to change meaning.
pub const JSON_VERSION: u32 = 1;

#[derive(Serialize)]
struct JsonDiagnostic<'a> {
    file: &'a str,
    line: u32,
    column: u32,
    end_line: u32,
    end_column: u32,
    severity: &'static str,
    code: &'static str,
    message: &'a str,
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    tags: &'static [&'static str],
    #[serde(skip_serializing_if = "Vec::is_empty")]
    related: Vec<JsonRelated<'a>>,
}

/// A related place: in the finding's file with its range, or another file (whose text is not
/// at hand) by its path alone.
#[derive(Serialize)]
struct JsonRelated<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    file: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    line: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    column: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    end_line: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    end_column: Option<u32>,
    message: &'a str,
}

/// How many findings one task renders: enough that a task's set-up is noise.
const CHUNK: usize = 256;

pub fn render(report: &Report, out: &mut dyn Write) -> io::Result<()> {
    write!(
        out,
        "{{\"version\":{JSON_VERSION},\"files\":{},\"diagnostics\":[",
        report.files_checked
    )?;
    let mut first = true;
    for file in &report.files {
        // A big map's findings are rendered in chunks on every core, each into a buffer of
        // its own (serde_json's many small writes cost little in a `Vec`), and written in
        // order: the bytes are those of one pass. Each finding is written after ",\n"; the
        // very first drops the comma.
        let chunks: Vec<Vec<u8>> = file
            .diagnostics
            .par_chunks(CHUNK)
            .map(|chunk| {
                let mut buf = Vec::with_capacity(chunk.len() * 256);
                for diagnostic in chunk {
                    let (start, end) = file.range(diagnostic.span);
                    let related = diagnostic
                        .labels
                        .iter()
                        .map(|label| match &label.file {
                            None => {
                                let (start, end) = file.range(label.span);
                                JsonRelated {
                                    file: None,
                                    line: Some(start.line),
                                    column: Some(start.column),
                                    end_line: Some(end.line),
                                    end_column: Some(end.column),
                                    message: &label.message,
                                }
                            }
                            Some(path) => JsonRelated {
                                file: Some(path.to_string_lossy().replace('\\', "/")),
                                line: None,
                                column: None,
                                end_line: None,
                                end_column: None,
                                message: &label.message,
                            },
                        })
                        .collect();
                    let item = JsonDiagnostic {
                        file: &file.path,
                        line: start.line,
                        column: start.column,
                        end_line: end.line,
                        end_column: end.column,
                        severity: diagnostic.severity.as_str(),
                        code: diagnostic.code,
                        message: &diagnostic.message,
                        tags: if diagnostic.unnecessary { &["unnecessary"] } else { &[] },
                        related,
                    };
                    buf.extend_from_slice(b",\n");
                    serde_json::to_writer(&mut buf, &item)?;
                }
                Ok(buf)
            })
            .collect::<io::Result<_>>()?;
        for chunk in &chunks {
            let bytes = if first { chunk.get(1..).unwrap_or_default() } else { chunk };
            if !bytes.is_empty() {
                out.write_all(bytes)?;
                first = false;
            }
        }
    }
    if !first {
        out.write_all(b"\n")?;
    }
    out.write_all(b"]}\n")
}
