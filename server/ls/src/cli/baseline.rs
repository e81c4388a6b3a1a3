//! Baselines: `--write-baseline FILE` records the current findings, `--baseline FILE` reports
//! only the findings not recorded, so a large existing map set can adopt the linter and fail
//! only on what is new.
//!
//! A finding is recorded by its file, its rule and a fingerprint: a hash of the rule code, the
//! file's path (relative to the baseline file's folder, with `/`), the trimmed text of the line
//! its primary span starts on, and its index among the findings of the same file, rule and
//! line text. Moving lines (inserting an actor above) keeps fingerprints; editing the
//! flagged line makes the finding new. The hash is FNV-1a (64 bits), fixed here so that a
//! baseline written by one build is read by every other.
//!
//! The file is JSON, one finding a line, sorted, so that it diffs well in review:
//!
//! `{"version":1,"findings":[{"file","code","fingerprint","message"}]}` (`message` is for
//! people reading the file; matching ignores it).

use std::collections::HashSet;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::render::fingerprint::fingerprints;
use super::render::FileReport;

pub const BASELINE_VERSION: u32 = 1;

#[derive(clap::Args, Clone, Debug, Default)]
pub struct BaselineArgs {
    /// Record the current findings in FILE and exit 0 (nothing else is printed on stdout).
    #[arg(long, value_name = "FILE", conflicts_with = "baseline")]
    pub write_baseline: Option<PathBuf>,
    /// Report only findings that FILE (written by --write-baseline) does not record.
    #[arg(long, value_name = "FILE")]
    pub baseline: Option<PathBuf>,
}

#[derive(Serialize, Deserialize)]
struct Entry {
    file: String,
    code: String,
    fingerprint: String,
    #[serde(default)]
    message: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Document {
    version: u32,
    findings: Vec<Entry>,
}

/// The path a baseline knows a file by: relative to the baseline's folder when the file is
/// inside it, else absolute; always with `/`.
pub fn path_key(display: &str, baseline_dir: &Path) -> String {
    let path = Path::new(display);
    let absolute = std::fs::canonicalize(path)
        .or_else(|_| std::path::absolute(path))
        .unwrap_or_else(|_| path.to_path_buf());
    let key = absolute.strip_prefix(baseline_dir).unwrap_or(&absolute);
    key.to_string_lossy().replace('\\', "/")
}

/// The folder a baseline file's paths are relative to (absolute, links resolved).
pub fn baseline_dir(baseline: &Path) -> PathBuf {
    let dir = match baseline.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir.to_path_buf(),
        _ => PathBuf::from("."),
    };
    std::fs::canonicalize(&dir).or_else(|_| std::path::absolute(&dir)).unwrap_or(dir)
}

/// Writes every finding of `files` to `path`; returns how many were written. `path` is never
/// one of `checked` (the files the run read) nor a link, folder or special file
/// ([`super::output::write_output`]).
pub fn write(path: &Path, files: &[FileReport], checked: &[PathBuf]) -> io::Result<usize> {
    let dir = baseline_dir(path);
    let mut entries = Vec::new();
    for file in files {
        let key = path_key(&file.path, &dir);
        for (diagnostic, fingerprint) in file.diagnostics.iter().zip(fingerprints(file, &key)) {
            entries.push(Entry {
                file: key.clone(),
                code: diagnostic.code.to_owned(),
                fingerprint,
                message: diagnostic.message.clone(),
            });
        }
    }
    entries.sort_by(|a, b| {
        (&a.file, &a.code, &a.fingerprint).cmp(&(&b.file, &b.code, &b.fingerprint))
    });
    let mut out = Vec::new();
    write!(out, "{{\"version\":{BASELINE_VERSION},\"findings\":[")?;
    for (i, entry) in entries.iter().enumerate() {
        out.write_all(if i == 0 { b"\n" } else { b",\n" })?;
        serde_json::to_writer(&mut out, entry)?;
    }
    if !entries.is_empty() {
        out.write_all(b"\n")?;
    }
    out.write_all(b"]}\n")?;
    let inputs: Vec<&Path> = checked.iter().map(PathBuf::as_path).collect();
    super::output::write_output(path, &out, super::output::Overwrite::OwnFile, &inputs)
        .map_err(io::Error::other)?;
    Ok(entries.len())
}

/// A loaded baseline: the findings it records.
pub struct Baseline {
    dir: PathBuf,
    known: HashSet<(String, String, String)>,
}

impl Baseline {
    /// Reads a baseline file; the error says what is wrong and where.
    pub fn load(path: &Path) -> Result<Baseline, String> {
        let shown = path.to_string_lossy().replace('\\', "/");
        let text = std::fs::read_to_string(path).map_err(|err| {
            format!(
                "{shown}: cannot read the baseline: {}",
                unreal_formats::mapped::io_message(&err)
            )
        })?;
        let document: Document = serde_json::from_str(&text).map_err(|err| {
            format!(
                "{shown}:{}:{}: not a baseline written by --write-baseline: {err}",
                err.line(),
                err.column()
            )
        })?;
        if document.version != BASELINE_VERSION {
            return Err(format!(
                "{shown}: baseline version {} is not supported (this build reads version {BASELINE_VERSION})",
                document.version
            ));
        }
        let known =
            document.findings.into_iter().map(|e| (e.file, e.code, e.fingerprint)).collect();
        Ok(Baseline { dir: baseline_dir(path), known })
    }

    /// Drops the findings the baseline records (and the files left without findings);
    /// returns how many were dropped.
    pub fn filter(&self, files: &mut Vec<FileReport>) -> usize {
        let mut hidden = 0;
        for file in files.iter_mut() {
            let key = path_key(&file.path, &self.dir);
            let known: Vec<bool> = file
                .diagnostics
                .iter()
                .zip(fingerprints(file, &key))
                .map(|(d, fingerprint)| {
                    self.known.contains(&(key.clone(), d.code.to_owned(), fingerprint))
                })
                .collect();
            hidden += known.iter().filter(|k| **k).count();
            let mut known = known.into_iter();
            file.diagnostics.retain(|_| !known.next().unwrap_or(false));
        }
        files.retain(|f| !f.diagnostics.is_empty());
        hidden
    }
}
