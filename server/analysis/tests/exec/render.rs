//! Diagnostics as text: `line:col-line:col severity code: message`, then labels and fixes,
//! the same layout as the T3D rule snapshots.

use std::fmt::Write;
use std::path::Path;

use unreal_analysis::line_index::ColumnUnit;
use unreal_analysis::{Diagnostic, LineIndex};

/// Renders `diagnostics` of `text`; paths in labels are shown relative to `base`.
pub fn render(text: &str, diagnostics: &[Diagnostic], base: &Path) -> String {
    let index = LineIndex::new(text);
    let at = |offset: u32| {
        let lc = index.line_col(text, offset, ColumnUnit::Chars);
        format!("{}:{}", lc.line + 1, lc.col + 1)
    };
    let mut out = String::new();
    for d in diagnostics {
        let _ = writeln!(
            out,
            "{}-{} {} {}: {}",
            at(d.span.start),
            at(d.span.end),
            d.severity.as_str(),
            d.code,
            d.message
        );
        for label in &d.labels {
            match &label.file {
                None => {
                    let _ = writeln!(
                        out,
                        "    label {}-{}: {}",
                        at(label.span.start),
                        at(label.span.end),
                        label.message
                    );
                }
                Some(file) => {
                    let shown = file.strip_prefix(base).unwrap_or(file);
                    let _ = writeln!(
                        out,
                        "    label {} {:?}: {}",
                        shown.display().to_string().replace('\\', "/"),
                        label.span,
                        label.message
                    );
                }
            }
        }
        if let Some(fix) = &d.fix {
            let _ =
                writeln!(out, "    fix{}: {}", if fix.safe { "" } else { " (unsafe)" }, fix.title);
            for edit in &fix.edits {
                let _ = writeln!(
                    out,
                    "      {}-{} => {:?}",
                    at(edit.span.start),
                    at(edit.span.end),
                    edit.new_text
                );
            }
        }
    }
    out
}
