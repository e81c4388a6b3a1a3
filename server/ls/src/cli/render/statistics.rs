//! `--statistics`: how many findings each rule produced, instead of the findings themselves.
//! For people (`human`: an aligned table, most frequent first, then the summary line) and for
//! scripts (`json`: `{"version":1,"files":N,"statistics":[{"code","severity","count",
//! "fixable"}]}`). A rule whose findings have different severities (per-path overrides) gets
//! one row per severity. `fixable` counts the findings `--fix` would fix.

use std::collections::BTreeMap;
use std::io::{self, Write};

use serde::Serialize;
use unreal_analysis::Severity;

use super::json::JSON_VERSION;
use super::{Report, Summary};

#[derive(Serialize)]
struct Row {
    code: &'static str,
    severity: &'static str,
    count: usize,
    fixable: usize,
}

fn rows(report: &Report) -> Vec<Row> {
    let mut counts: BTreeMap<(&'static str, std::cmp::Reverse<Severity>), (usize, usize)> =
        BTreeMap::new();
    for diagnostic in report.files.iter().flat_map(|f| &f.diagnostics) {
        let entry =
            counts.entry((diagnostic.code, std::cmp::Reverse(diagnostic.severity))).or_default();
        entry.0 += 1;
        if diagnostic.fix.as_ref().is_some_and(|f| f.safe) {
            entry.1 += 1;
        }
    }
    let mut rows: Vec<Row> = counts
        .into_iter()
        .map(|((code, severity), (count, fixable))| Row {
            code,
            severity: severity.0.as_str(),
            count,
            fixable,
        })
        .collect();
    // Most frequent first; ties by code, so the order never depends on the files' order.
    rows.sort_by(|a, b| b.count.cmp(&a.count).then(a.code.cmp(b.code)));
    rows
}

pub fn render_human(report: &Report, out: &mut dyn Write) -> io::Result<()> {
    let rows = rows(report);
    if !rows.is_empty() {
        let count_width = rows.iter().map(|r| r.count.to_string().len()).max().unwrap_or(1).max(5);
        let code_width = rows.iter().map(|r| r.code.len()).max().unwrap_or(4).max(4);
        writeln!(
            out,
            "{:>count_width$}  {:<8}  {:<code_width$}  fixable",
            "count", "severity", "rule"
        )?;
        for row in &rows {
            let fixable = if row.fixable > 0 { row.fixable.to_string() } else { String::new() };
            let line = format!(
                "{:>count_width$}  {:<8}  {:<code_width$}  {fixable}",
                row.count, row.severity, row.code
            );
            writeln!(out, "{}", line.trim_end())?;
        }
    }
    writeln!(out, "{}", Summary::of(report).line())
}

pub fn render_json(report: &Report, out: &mut dyn Write) -> io::Result<()> {
    write!(
        out,
        "{{\"version\":{JSON_VERSION},\"files\":{},\"statistics\":[",
        report.files_checked
    )?;
    let rows = rows(report);
    for (i, row) in rows.iter().enumerate() {
        out.write_all(if i == 0 { b"\n" } else { b",\n" })?;
        serde_json::to_writer(&mut *out, row)?;
    }
    if !rows.is_empty() {
        out.write_all(b"\n")?;
    }
    out.write_all(b"]}\n")
}
