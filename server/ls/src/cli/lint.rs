//! `unreal-ls lint [PATHS...]`: finds T3D and UnrealScript files under the given paths,
//! checks them in parallel, and prints the findings in a deterministic order (by path, then
//! position) as code frames or JSON.
//!
//! Exit codes: 0 without error-level findings, 1 with at least one, 2 on a usage error or
//! when a path could not be read (reported on stderr; the other files are still checked).

use std::fs::File;
use std::io::{self, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use rayon::prelude::*;
use unreal_analysis::lint::{detect_kind, lint_path, FileKind, LintOptions, LintSession};
use unreal_analysis::{Diagnostic, EngineSetting, LineIndex};

use super::render::{self, FileReport, OutputFormat, Report, Summary};
use super::{EXIT_CLEAN, EXIT_FINDINGS, EXIT_USAGE};

#[derive(clap::Args)]
pub struct LintArgs {
    /// Files and directories to check (directories recursively) [default: .]
    pub paths: Vec<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = OutputFormat::Human)]
    pub format: OutputFormat,
    /// Engine generation the files target (poly flags and #exec keys differ).
    #[arg(long, value_enum, default_value_t = EngineArg::Auto)]
    pub engine: EngineArg,
    /// Engine build the files target (436, 469): which image types #exec may import.
    #[arg(long, value_name = "BUILD")]
    pub engine_build: Option<u32>,
    /// Game folder (with System/, Textures/...) whose packages #exec names may refer to.
    #[arg(long, value_name = "DIR")]
    pub game_dir: Option<PathBuf>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum EngineArg {
    /// Detect from each file.
    Auto,
    /// Unreal, UT99, Deus Ex, Rune and the other UE1 games.
    Ue1,
    /// UT2004 and the other UE2 games.
    Ue2,
}

impl From<EngineArg> for EngineSetting {
    fn from(engine: EngineArg) -> Self {
        match engine {
            EngineArg::Auto => EngineSetting::Auto,
            EngineArg::Ue1 => EngineSetting::Ue1,
            EngineArg::Ue2 => EngineSetting::Ue2,
        }
    }
}

pub fn run(args: &LintArgs) -> ExitCode {
    let options = LintOptions {
        engine: args.engine.into(),
        engine_build: args.engine_build,
        game_dir: args.game_dir.clone(),
    };
    // Shared by every thread: packages, meshes and images are read once per run.
    let session = LintSession::new(&options);
    let roots: Vec<(PathBuf, bool)> = if args.paths.is_empty() {
        vec![(PathBuf::from("."), true)]
    } else {
        args.paths.iter().map(|p| (p.clone(), false)).collect()
    };

    let mut problems = Vec::new();
    let candidates = collect_candidates(&roots, &mut problems);
    let outcomes: Vec<(Candidate, Outcome)> = candidates
        .into_par_iter()
        .map(|candidate| {
            let outcome = check(&candidate, &options, &session);
            (candidate, outcome)
        })
        .collect();

    let mut files_checked = 0;
    let mut files = Vec::new();
    for (candidate, outcome) in outcomes {
        match outcome {
            Outcome::Checked(report) => {
                files_checked += 1;
                files.extend(report);
            }
            Outcome::NotRecognized if candidate.explicit => problems.push(Problem::note(
                &candidate.display,
                "not a T3D map or UnrealScript file; skipped",
            )),
            Outcome::NotRecognized => {}
            Outcome::Failed(message) => problems.push(Problem::error(&candidate.display, message)),
        }
    }
    files.sort_by(|a, b| a.path.cmp(&b.path));
    problems.sort_by(|a, b| a.path.cmp(&b.path));

    let io_failed = problems.iter().any(|p| p.is_error);
    let stderr = &mut anstream::stderr().lock();
    for problem in &problems {
        let _ = writeln!(stderr, "{}: {}: {}", problem.kind(), problem.path, problem.message);
    }
    if files_checked == 0 && !io_failed {
        let _ = writeln!(stderr, "warning: no T3D or UnrealScript files found");
    }

    let report = Report { files_checked, files };
    let summary = Summary::of(&report);
    let color = anstream::AutoStream::choice(&io::stdout()) != anstream::ColorChoice::Never
        && args.format == OutputFormat::Human;
    let mut out = BufWriter::new(anstream::stdout().lock());
    let written = render::render(args.format, &report, color, &mut out).and_then(|()| out.flush());
    match written {
        Err(err) if err.kind() == io::ErrorKind::BrokenPipe => {}
        Err(err) => {
            let _ = writeln!(stderr, "error: writing the report: {err}");
            return ExitCode::from(EXIT_USAGE);
        }
        Ok(()) => {}
    }

    if io_failed {
        ExitCode::from(EXIT_USAGE)
    } else if summary.errors > 0 {
        ExitCode::from(EXIT_FINDINGS)
    } else {
        ExitCode::from(EXIT_CLEAN)
    }
}

/// A file to look at: named on the command line (`explicit`) or found in a directory.
struct Candidate {
    path: PathBuf,
    /// The path as the user gave it, with forward slashes.
    display: String,
    explicit: bool,
}

enum Outcome {
    /// Checked; the report is there when something was found.
    Checked(Option<FileReport>),
    /// Neither T3D nor UnrealScript.
    NotRecognized,
    Failed(String),
}

/// A message for stderr about one path.
struct Problem {
    path: String,
    message: String,
    is_error: bool,
}

impl Problem {
    fn error(path: &str, message: impl Into<String>) -> Self {
        Self { path: path.to_owned(), message: message.into(), is_error: true }
    }

    fn note(path: &str, message: impl Into<String>) -> Self {
        Self { path: path.to_owned(), message: message.into(), is_error: false }
    }

    fn kind(&self) -> &'static str {
        if self.is_error {
            "error"
        } else {
            "note"
        }
    }
}

/// Extensions of binary files that live next to maps and scripts; never opened.
const BINARY_EXTENSIONS: &[&str] = &[
    "u", "utx", "uax", "umx", "unr", "usx", "ukx", "uvx", "ut2", "rom", "dx", "run", "psk", "psa",
    "3d", "u3d", "pcx", "bmp", "tga", "dds", "png", "jpg", "wav", "ogg", "mp3", "exe", "dll", "so",
    "zip", "7z", "rar", "gz", "uz", "uz2",
];

fn collect_candidates(roots: &[(PathBuf, bool)], problems: &mut Vec<Problem>) -> Vec<Candidate> {
    let mut seen = std::collections::HashSet::new();
    let mut candidates = Vec::new();
    let mut push = |path: PathBuf, explicit: bool, defaulted: bool| {
        let key = std::fs::canonicalize(&path).unwrap_or_else(|_| path.clone());
        if seen.insert(key) {
            let display = display_path(&path, defaulted);
            candidates.push(Candidate { path, display, explicit });
        }
    };
    for (root, defaulted) in roots {
        let metadata = match std::fs::metadata(root) {
            Ok(metadata) => metadata,
            Err(err) => {
                problems.push(Problem::error(&display_path(root, false), io_message(&err)));
                continue;
            }
        };
        if !metadata.is_dir() {
            push(root.clone(), true, *defaulted);
            continue;
        }
        let walker = walkdir::WalkDir::new(root)
            .follow_links(true)
            .sort_by_file_name()
            .into_iter()
            // Below the root, hidden folders (.git, .vscode) hold no maps of the user's.
            .filter_entry(|e| e.depth() == 0 || !is_hidden(e.file_name()));
        for entry in walker {
            match entry {
                Ok(entry) if entry.file_type().is_file() => {
                    if !has_binary_extension(entry.path()) {
                        push(entry.into_path(), false, *defaulted);
                    }
                }
                Ok(_) => {}
                Err(err) => {
                    let path = err.path().unwrap_or(root);
                    let message = err.io_error().map_or_else(|| err.to_string(), io_message);
                    problems.push(Problem::error(&display_path(path, *defaulted), message));
                }
            }
        }
    }
    candidates
}

fn is_hidden(name: &std::ffi::OsStr) -> bool {
    name.to_str().is_some_and(|n| n.starts_with('.') && n != "." && n != "..")
}

fn has_binary_extension(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| BINARY_EXTENSIONS.iter().any(|b| b.eq_ignore_ascii_case(e)))
}

/// The path as given, with forward slashes; `./` is dropped only from the default root.
fn display_path(path: &Path, defaulted: bool) -> String {
    let text = path.to_string_lossy();
    let text = if cfg!(windows) { text.replace('\\', "/") } else { text.into_owned() };
    if defaulted {
        if let Some(rest) = text.strip_prefix("./") {
            return rest.to_owned();
        }
    }
    text
}

fn io_message(err: &io::Error) -> String {
    match err.kind() {
        io::ErrorKind::NotFound => "no such file or directory".to_owned(),
        io::ErrorKind::PermissionDenied => "permission denied".to_owned(),
        _ => err.to_string(),
    }
}

/// How much of a file without a telling extension is read to decide what it is.
const SNIFF_BYTES: usize = 8192;

fn check(candidate: &Candidate, options: &LintOptions, session: &LintSession) -> Outcome {
    let (kind, bytes) = match read_candidate(&candidate.path) {
        Ok(Some(read)) => read,
        Ok(None) => return Outcome::NotRecognized,
        Err(message) => return Outcome::Failed(message),
    };
    let linted = lint_path(kind, &candidate.path, &bytes, options, session);
    drop(bytes);
    if linted.diagnostics.is_empty() {
        return Outcome::Checked(None);
    }
    let mut diagnostics = linted.diagnostics;
    diagnostics.sort_by(compare_position);
    let line_index = LineIndex::new(&linted.text);
    Outcome::Checked(Some(FileReport {
        path: candidate.display.clone(),
        text: linted.text,
        line_index,
        diagnostics,
    }))
}

fn compare_position(a: &Diagnostic, b: &Diagnostic) -> std::cmp::Ordering {
    (a.span.start, a.span.end, a.code, &a.message).cmp(&(
        b.span.start,
        b.span.end,
        b.code,
        &b.message,
    ))
}

/// Reads a file if it is one unreal-ls checks: by extension without looking inside, else by
/// its first bytes.
fn read_candidate(path: &Path) -> Result<Option<(FileKind, Vec<u8>)>, String> {
    let mut file = File::open(path).map_err(|e| io_message(&e))?;
    let len = file.metadata().map_err(|e| io_message(&e))?.len();
    if len > u64::from(u32::MAX) {
        return Err(format!("{len} bytes is more than the 4 GiB unreal-ls reads"));
    }
    let mut bytes = Vec::new();
    let kind = if let Some(kind) = detect_kind(path, b"") {
        kind
    } else {
        (&mut file).take(SNIFF_BYTES as u64).read_to_end(&mut bytes).map_err(|e| io_message(&e))?;
        match detect_kind(path, &bytes) {
            Some(kind) => kind,
            None => return Ok(None),
        }
    };
    // The length is the file's own (checked above), so reserving it up front is safe.
    bytes.reserve((len as usize).saturating_sub(bytes.len()));
    file.read_to_end(&mut bytes).map_err(|e| io_message(&e))?;
    Ok(Some((kind, bytes)))
}
