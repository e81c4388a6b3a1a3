//! `unreal-ls lint [PATHS...]`: finds T3D and UnrealScript files under the given paths,
//! checks them in parallel, and prints the findings in a deterministic order (by path, then
//! position) as code frames or JSON.
//!
//! Each file gets the `unreal-ls.toml` nearest above it (or `--config`): its engine, game,
//! include/exclude globs and severities. `--baseline` hides recorded findings, `--fix`
//! rewrites files (see `fix.rs`, `baseline.rs`).
//!
//! Exit codes: 0 without error-level findings, 1 with at least one (or with warnings under
//! `--deny-warnings`, or more than `--max-warnings`), 2 on a usage or configuration error or
//! when a path could not be read or written (reported on stderr; the other files are still
//! checked).

use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use rayon::prelude::*;
use unreal_analysis::config::{apply_severity, Config};
use unreal_analysis::lint::{
    lint_path, lint_path_owned, lint_source, LintOptions, LintSession, LintedFile,
};
use unreal_analysis::{Diagnostic, LineIndex, SourceText};
use unreal_ls::workspace_files::{self, read_checkable, Content, Walked};
use unreal_syntax::text::SourceEncoding;

use super::baseline::{self, Baseline, BaselineArgs};
use super::fix::{self, FixArgs, FixMode, FixTarget};
use super::render::{self, FileReport, OutputFormat, Report, Summary};
use super::settings::{config_errors, SettingsArgs, Workspace};
use super::{EXIT_CLEAN, EXIT_FINDINGS, EXIT_USAGE};

#[derive(clap::Args)]
pub struct LintArgs {
    /// Files and directories to check (directories recursively) [default: .]
    pub paths: Vec<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = OutputFormat::Human)]
    pub format: OutputFormat,
    #[command(flatten)]
    pub settings: SettingsArgs,
    /// Print how many findings each rule produced instead of the findings (human or json).
    #[arg(long)]
    pub statistics: bool,
    /// Exit 1 on warnings too.
    #[arg(long)]
    pub deny_warnings: bool,
    /// Exit 1 when there are more than N warnings.
    #[arg(long, value_name = "N")]
    pub max_warnings: Option<usize>,
    #[command(flatten)]
    pub baseline: BaselineArgs,
    #[command(flatten)]
    pub fix: FixArgs,
}

pub fn run(args: &LintArgs) -> ExitCode {
    let stderr = &mut anstream::stderr().lock();
    if args.statistics && !matches!(args.format, OutputFormat::Human | OutputFormat::Json) {
        let _ = writeln!(stderr, "error: --statistics prints with --format human or json only");
        return ExitCode::from(EXIT_USAGE);
    }
    let settings = match args.settings.workspace() {
        Ok(workspace) => workspace.with_source_paths(source_paths(&args.paths)),
        Err(errors) => return config_errors(stderr, &errors),
    };
    let baseline = match &args.baseline.baseline {
        None => None,
        Some(path) => match Baseline::load(path) {
            Ok(baseline) => Some(baseline),
            Err(message) => {
                let _ = writeln!(stderr, "error: {message}");
                return ExitCode::from(EXIT_USAGE);
            }
        },
    };
    let roots: Vec<(PathBuf, bool)> = if args.paths.is_empty() {
        vec![(PathBuf::from("."), true)]
    } else {
        args.paths.iter().map(|p| (p.clone(), false)).collect()
    };

    let mut problems = Vec::new();
    let candidates = collect_candidates(&roots, &mut problems);
    let (candidates, setups) = configure(candidates, &settings);
    if let Err(code) = settings.check(stderr) {
        return code;
    }
    let fix_mode = args.fix.mode();
    if fix_mode.is_some() || args.baseline.write_baseline.is_some() {
        super::fix::clean_temp_files_on_signals();
    }
    let outcomes: Vec<(Candidate, Outcome)> = candidates
        .into_par_iter()
        .map(|(candidate, setup)| {
            let outcome = match setups.get(setup) {
                Some(setup) => check(&candidate, setup, fix_mode),
                None => Outcome::Failed("internal error: no settings".to_owned()),
            };
            (candidate, outcome)
        })
        .collect();

    let mut files_checked = 0;
    let mut files = Vec::new();
    let (mut fixes, mut files_fixed) = (0, 0);
    // What a baseline may never be written over.
    let mut checked_paths = Vec::new();
    for (candidate, outcome) in outcomes {
        match outcome {
            Outcome::Checked(report, fixed) => {
                files_checked += 1;
                checked_paths.push(candidate.path.clone());
                files.extend(report);
                fixes += fixed.fixes;
                files_fixed += usize::from(fixed.written);
                problems.extend(fixed.problem);
            }
            Outcome::NotRecognized if candidate.explicit => problems.push(Problem::note(
                &candidate.display,
                "not a T3D map or UnrealScript file; skipped",
            )),
            Outcome::NotRecognized => {}
            Outcome::Failed(message) => problems.push(Problem::error(&candidate.display, message)),
        }
    }
    // What a package search left out (a game folder set too wide) is said once per setup.
    for setup in &setups {
        let Some(index) = setup.session.exec.built_packages() else { continue };
        let roots = index.roots();
        // Each note names the folder it stopped at; this says which setting led there.
        let root = match (&roots.game_dir, roots.package_paths.is_empty()) {
            (Some(dir), _) => dir.display().to_string(),
            (None, false) => "package-paths".to_owned(),
            (None, true) => "class sources".to_owned(),
        };
        for note in index.walk_notes() {
            problems.push(Problem::note(&root, note.clone()));
        }
    }
    files.sort_by(|a, b| a.path.cmp(&b.path));
    problems.sort_by(|a, b| a.path.cmp(&b.path));

    let io_failed = problems.iter().any(|p| p.is_error);
    for problem in &problems {
        let _ = writeln!(
            stderr,
            "{}: {}: {}",
            problem.kind(),
            super::printable_line(&problem.path),
            super::printable_message(&problem.message)
        );
    }
    if files_checked == 0 && !io_failed {
        let _ = writeln!(stderr, "warning: no T3D or UnrealScript files found");
    }

    if fix_mode.is_some() {
        let _ = writeln!(
            stderr,
            "fixed {} in {}",
            plural(fixes, "finding"),
            plural(files_fixed, "file")
        );
    }
    if let Some(path) = &args.baseline.write_baseline {
        let shown = path.to_string_lossy().replace('\\', "/");
        return match baseline::write(path, &files, &checked_paths) {
            Ok(count) => {
                let _ = writeln!(stderr, "wrote {} to {shown}", plural(count, "finding"));
                ExitCode::from(if io_failed { EXIT_USAGE } else { EXIT_CLEAN })
            }
            Err(err) => {
                let _ =
                    writeln!(stderr, "error: {shown}: writing the baseline: {}", io_message(&err));
                ExitCode::from(EXIT_USAGE)
            }
        };
    }
    if let Some(baseline) = &baseline {
        let hidden = baseline.filter(&mut files);
        if hidden > 0 {
            let _ = writeln!(
                stderr,
                "note: {} recorded in the baseline not shown",
                plural(hidden, "finding")
            );
        }
    }

    // What was not checked is said once, not left to silence.
    let references_unchecked = setups.iter().all(|s| !s.options.index_roots().knows_packages());
    let report = Report { files_checked, files, references_unchecked };
    let summary = Summary::of(&report);
    let color = anstream::AutoStream::choice(&io::stdout()) != anstream::ColorChoice::Never
        && args.format == OutputFormat::Human;
    // Only human output goes through anstream (which strips colour for a pipe); the other
    // formats never hold escape sequences (JSON escapes control characters, the GitHub and
    // SARIF writers quote through `printable`), and stripping a large JSON report costs.
    let stdout: Box<dyn Write> = if args.format == OutputFormat::Human {
        Box::new(anstream::stdout().lock())
    } else {
        Box::new(io::stdout().lock())
    };
    let mut out = BufWriter::with_capacity(1 << 16, stdout);
    let written = if args.statistics {
        render::render_statistics(args.format, &report, &mut out)
    } else {
        render::render(args.format, &report, color, &mut out)
    }
    .and_then(|()| out.flush());
    match written {
        Err(err) if err.kind() == io::ErrorKind::BrokenPipe => {}
        Err(err) => {
            let _ = writeln!(stderr, "error: writing the report: {err}");
            return ExitCode::from(EXIT_USAGE);
        }
        Ok(()) => {}
    }

    let too_many_warnings = args.max_warnings.filter(|max| summary.warnings > *max);
    if let Some(max) = too_many_warnings {
        let _ = writeln!(
            stderr,
            "error: {} is more than --max-warnings {max}",
            plural(summary.warnings, "warning")
        );
    }
    if io_failed {
        ExitCode::from(EXIT_USAGE)
    } else if summary.errors > 0
        || (args.deny_warnings && summary.warnings > 0)
        || too_many_warnings.is_some()
    {
        ExitCode::from(EXIT_FINDINGS)
    } else {
        ExitCode::from(EXIT_CLEAN)
    }
}

fn plural(count: usize, noun: &str) -> String {
    if count == 1 {
        format!("{count} {noun}")
    } else {
        format!("{count} {noun}s")
    }
}

/// What the files under one configuration are checked with.
struct Setup {
    config: Option<Arc<Config>>,
    options: LintOptions,
    /// Shared by every thread: packages, meshes and images are read once per run.
    session: LintSession,
}

/// Finds each candidate's settings (its configuration and game folder, as the language
/// server finds them: [`Settings::for_file`]), drops the files its configuration excludes
/// (and, among the files found in folders, those its `include` does not name), and makes one
/// [`Setup`] per configuration and game folder. Command-line options win over the
/// configuration's ([`super::settings`]).
fn configure(
    candidates: Vec<Candidate>,
    settings: &Workspace,
) -> (Vec<(Candidate, usize)>, Vec<Setup>) {
    let mut setups: Vec<Setup> = Vec::new();
    let mut by_key: std::collections::HashMap<(Option<PathBuf>, Option<PathBuf>), usize> =
        std::collections::HashMap::new();
    let mut kept = Vec::new();
    for candidate in candidates {
        let file = settings.for_absolute(&candidate.absolute);
        let skipped = if candidate.explicit {
            file.excludes(&candidate.absolute)
        } else {
            !file.includes(&candidate.absolute)
        };
        if skipped {
            continue;
        }
        let key =
            (file.config.as_ref().and_then(|c| c.path.clone()), file.options.game_dir.clone());
        let index = *by_key.entry(key).or_insert_with(|| {
            let session = LintSession::new(&file.options);
            setups.push(Setup { config: file.config.clone(), options: file.options, session });
            setups.len() - 1
        });
        kept.push((candidate, index));
    }
    (kept, setups)
}

/// The folders whose packages' `Classes/*.uc` every file's checks know (abstract classes,
/// parents, defaults), with or without a game folder, as the language server knows its
/// workspace folders': the folders named on the command line, and the current folder when
/// nothing is named or something named lies inside it (`lint Maps` in a mod's repository
/// knows the repository's classes; `lint /elsewhere/Maps` does not read the folder it runs
/// in). Made absolute, so that they compare with the game folder's paths.
fn source_paths(paths: &[PathBuf]) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = Vec::new();
    let mut add = |folder: &Path| {
        let absolute = std::path::absolute(folder).unwrap_or_else(|_| folder.to_path_buf());
        if !out.contains(&absolute) {
            out.push(absolute);
        }
    };
    for folder in paths.iter().filter(|p| p.is_dir()) {
        add(folder);
    }
    // Links resolved and `..` applied: `Maps/../..` is not inside.
    let current = std::fs::canonicalize(".").ok();
    let inside = |path: &PathBuf| {
        let real = std::fs::canonicalize(path).ok();
        real.zip(current.as_ref()).is_some_and(|(real, current)| real.starts_with(current))
    };
    if paths.is_empty() || paths.iter().any(inside) {
        add(Path::new("."));
    }
    out
}

/// A file to look at: named on the command line (`explicit`) or found in a directory.
struct Candidate {
    path: PathBuf,
    /// The path as the user gave it, with forward slashes.
    display: String,
    /// Absolute, links resolved: what configurations match against.
    absolute: PathBuf,
    explicit: bool,
}

/// What `--fix` did to one file.
#[derive(Default)]
struct FixReport {
    fixes: usize,
    written: bool,
    problem: Option<Problem>,
}

enum Outcome {
    /// Checked; the report is there when something was found.
    Checked(Option<FileReport>, FixReport),
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

fn collect_candidates(roots: &[(PathBuf, bool)], problems: &mut Vec<Problem>) -> Vec<Candidate> {
    let mut seen = std::collections::HashSet::new();
    let mut candidates = Vec::new();
    let mut push = |path: PathBuf, explicit: bool, defaulted: bool| {
        let key = std::fs::canonicalize(&path)
            .or_else(|_| std::path::absolute(&path))
            .unwrap_or_else(|_| path.clone());
        if seen.insert(key.clone()) {
            let display = display_path(&path, defaulted);
            candidates.push(Candidate { path, display, absolute: key, explicit });
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
        // Links are followed only while they stay under the root: a link to a folder or file
        // elsewhere (a downloaded mod's `Maps -> /home/you`) would have `--fix` rewrite files
        // the user never named. Naming such a folder or file on the command line checks it.
        workspace_files::walk(root, &mut |walked| {
            match walked {
                Walked::File(path) => push(path, false, *defaulted),
                Walked::LinkOutside { path, target, .. } => problems.push(Problem::note(
                    &display_path(&path, *defaulted),
                    format!(
                    "skipped: a link to {}, outside {}; name it on the command line to check it",
                    display_path(&target, false),
                    display_path(root, false)
                ),
                )),
                // Said once, the run goes on.
                Walked::NotRegular(path) => problems.push(Problem::note(
                    &display_path(&path, *defaulted),
                    "skipped: not a regular file (a FIFO, socket or device)",
                )),
                Walked::Failed { path, message } => {
                    problems.push(Problem::error(&display_path(&path, *defaulted), message));
                }
            }
            // Every file the user's folders hold is checked: the walk is theirs to bound.
            true
        });
    }
    candidates
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

pub(super) use unreal_formats::mapped::io_message;

fn check(candidate: &Candidate, setup: &Setup, fix_mode: Option<FixMode>) -> Outcome {
    // Only the findings are needed without fixes: a UTF-8 file is mapped, not read.
    let (kind, content) = match read_checkable(&candidate.path, fix_mode.is_none()) {
        Ok(Some(read)) => read,
        Ok(None) => return Outcome::NotRecognized,
        Err(message) => return Outcome::Failed(message),
    };
    let (options, session) = (&setup.options, &setup.session);
    let configure = |diagnostics: &mut Vec<Diagnostic>| {
        if let Some(config) = &setup.config {
            apply_severity(config, &candidate.absolute, diagnostics);
        }
    };
    let bytes = match content {
        Content::Mapped(text) => {
            let encoding =
                if text.has_bom() { SourceEncoding::Utf8Bom } else { SourceEncoding::Utf8 };
            let linted =
                lint_source(kind, &candidate.path, text.into(), encoding, options, session);
            if let Err(err) = linted.text.check() {
                return Outcome::Failed(io_message(&err));
            }
            return finish(candidate, linted, &configure);
        }
        Content::Read(bytes) => bytes,
    };
    let Some(mode) = fix_mode else {
        // The bytes become the text (no copy of a UTF-8 map).
        let linted = lint_path_owned(kind, &candidate.path, bytes, options, session);
        return finish(candidate, linted, &configure);
    };
    let linted = lint_path(kind, &candidate.path, &bytes, options, session);
    let check_text = |text: &str| {
        lint_path(kind, &candidate.path, text.as_bytes(), options, session).diagnostics
    };
    let target = FixTarget {
        path: &candidate.path,
        kind,
        bytes: &bytes,
        encoding: linted.encoding,
        engine: options.engine,
        check: &check_text,
        configure: &configure,
    };
    let result = fix::fix_file(&target, linted.text.into_string(), linted.diagnostics, mode);
    let fixed = FixReport {
        fixes: result.fixes,
        written: result.written,
        problem: match (result.failed, result.skipped) {
            (Some(message), _) => Some(Problem::error(&candidate.display, message)),
            (None, Some(message)) => Some(Problem::note(&candidate.display, message)),
            (None, None) => None,
        },
    };
    report(candidate, result.text.into(), result.diagnostics, None, fixed)
}

/// The outcome of a check without fixes.
fn finish(
    candidate: &Candidate,
    linted: LintedFile,
    configure: &dyn Fn(&mut Vec<Diagnostic>),
) -> Outcome {
    let LintedFile { text, mut diagnostics, line_index, .. } = linted;
    configure(&mut diagnostics);
    report(candidate, text, diagnostics, line_index, FixReport::default())
}

/// `line_index` is the text's when the check built one on the way.
fn report(
    candidate: &Candidate,
    text: SourceText,
    mut diagnostics: Vec<Diagnostic>,
    line_index: Option<LineIndex>,
    fixed: FixReport,
) -> Outcome {
    if diagnostics.is_empty() {
        return Outcome::Checked(None, fixed);
    }
    diagnostics.sort_by(compare_position);
    let line_index = line_index.unwrap_or_else(|| LineIndex::new(&text));
    Outcome::Checked(
        Some(FileReport { path: candidate.display.clone(), text, line_index, diagnostics }),
        fixed,
    )
}

fn compare_position(a: &Diagnostic, b: &Diagnostic) -> std::cmp::Ordering {
    (a.span.start, a.span.end, a.code, &a.message).cmp(&(
        b.span.start,
        b.span.end,
        b.code,
        &b.message,
    ))
}
