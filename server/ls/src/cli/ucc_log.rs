//! `unreal-ls ucc-log UCC.log [--root DIR] [--format human|json|sarif|github]`: UCC's own
//! errors and warnings put back on the lines they blame, in the formats `lint` writes, so
//! that CI which runs UCC shows them where they belong.
//!
//! What UCC prints, as the engine writes it: while a class is compiled (its `#exec` lines
//! run then too), a message carries the compiler's context, `<Base>\<Package>\Classes\
//! <Class>.uc(<line>) : <Event>, <message>` (`FScriptCompiler::GetContext` and
//! `FFeedbackContextAnsi::Serialize`, UT2004 `Editor/Src/UnScrCom.cpp:143-164`,
//! `Core/Inc/FFeedbackContextAnsi.h:86-91`; UT v400 `Editor/Src/UnScrCom.cpp:146`), the event
//! being `Error`, `Warning`, `ExecWarning` (an import UT v400 could not do: "Import texture %s
//! from %s failed", `Editor/Src/UnEdSrv.cpp:207`) or `ScriptWarning`; in `UCC.log` each line
//! starts with its event's name (`Error: `), on the console not. Messages without a context
//! name their file only: a mesh whose file cannot be opened logs "Error opening file %s"
//! (`Editor/Src/UnMeshEd.cpp:108-122`): that one is put on the `#exec` line of the package
//! being built (the last `---- Package ----` heading) that names the file.
//!
//! Exit codes: 0 when the log holds no error, 1 when it does, 2 when it cannot be read.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use unreal_analysis::fs::RealFs;
use unreal_analysis::{Diagnostic, LineIndex, Severity, SourceText};
use unreal_assets::export::mesh_files::find_ignoring_case;
use unreal_syntax::Span;

use super::render::{self, FileReport, OutputFormat, Report};
use super::{printable_line, EXIT_CLEAN, EXIT_FINDINGS, EXIT_USAGE};

/// The code of UCC's errors, and of its warnings.
pub const UCC_ERROR: &str = "ucc-error";
pub const UCC_WARNING: &str = "ucc-warning";

#[derive(clap::Args)]
pub struct UccLogArgs {
    /// The log: `System/UCC.log`, or UCC's console output saved to a file.
    pub log: PathBuf,
    /// The game's folder, where the packages' `Classes/` are (default: the folder above the
    /// log's `System/`, else the current folder).
    #[arg(long)]
    pub root: Option<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value = "human")]
    pub format: OutputFormat,
}

/// One message of the log, on a class's line or on no line.
#[derive(Debug, PartialEq)]
pub struct LogMessage {
    /// `Package/Classes/Class.uc` and the 1-based line, when the message names them.
    pub place: Option<(String, u32)>,
    pub severity: Severity,
    pub text: String,
    /// The package being built when the message came (from the last heading).
    pub package: Option<String>,
}

/// The messages of a log's text that are errors or warnings.
pub fn read_log(text: &str) -> Vec<LogMessage> {
    let mut out = Vec::new();
    let mut package: Option<String> = None;
    for raw in text.lines() {
        // `UCC.log` starts each line with its event's name; the console does not.
        let body = strip_event(raw.trim_end());
        if let Some(name) = heading(body) {
            package = Some(name.to_owned());
            continue;
        }
        if let Some(message) = in_context(body) {
            out.push(LogMessage { package: package.clone(), ..message });
        } else if let Some(file) = body.strip_prefix("Error opening file ") {
            out.push(LogMessage {
                place: None,
                severity: Severity::Error,
                text: format!("Error opening file {file}"),
                package: package.clone(),
            });
        }
    }
    out
}

/// UCC make's heading for each package, the package's name between dashes: `MyMod - Release`
/// in UE2 (UT2004 `Editor/Src/UMakeCommandlet.cpp:53`), `MyMod` alone in UE1 (UT v400
/// `Editor/Src/UMakeCommandlet.cpp:49`).
fn heading(line: &str) -> Option<&str> {
    let inner = line.strip_prefix("--")?.trim_start_matches('-');
    let inner = inner.strip_suffix("--")?.trim_end_matches('-');
    let name = match inner.rsplit_once(" - ") {
        Some((name, "Release" | "Debug")) => name,
        _ => inner,
    };
    (!name.is_empty() && !name.contains(' ')).then_some(name)
}

/// The line without the event name `UCC.log` starts it with (`Error: `, `Log: `).
fn strip_event(line: &str) -> &str {
    match line.split_once(": ") {
        Some((event, rest))
            if !event.is_empty() && event.chars().all(|c| c.is_ascii_alphanumeric()) =>
        {
            rest
        }
        _ => line,
    }
}

/// `<path>.uc(<line>)[ : defaultproperties] : <Event>, <message>`.
fn in_context(body: &str) -> Option<LogMessage> {
    let lower = body.to_ascii_lowercase();
    let uc = lower.find(".uc(")?;
    let path = &body[..uc + 3];
    let rest = &body[uc + 4..];
    let close = rest.find(')')?;
    let line: u32 = rest[..close].parse().ok()?;
    let mut rest = rest[close + 1..].strip_prefix(" : ")?;
    if let Some(after) = rest.strip_prefix("defaultproperties : ") {
        rest = after;
    }
    let (event, message) = rest.split_once(", ")?;
    let severity = match event {
        "Error" | "Critical" => Severity::Error,
        "Warning" | "ExecWarning" | "ScriptWarning" => Severity::Warning,
        _ => return None,
    };
    Some(LogMessage {
        place: Some((class_path(path)?, line)),
        severity,
        text: message.to_owned(),
        package: None,
    })
}

/// `C:\UT\MyMod\Classes\Foo.uc` as `MyMod/Classes/Foo.uc`: the package folder, `Classes`
/// and the file, where the log's base folder may be another machine's.
fn class_path(path: &str) -> Option<String> {
    let parts: Vec<&str> = path.split(['\\', '/']).filter(|p| !p.is_empty()).collect();
    let [.., package, classes, file] = parts.as_slice() else { return None };
    classes.eq_ignore_ascii_case("Classes").then(|| format!("{package}/Classes/{file}"))
}

/// A class file's messages, by `Package/Classes/File.uc`: where it is, and each message's
/// line, severity and text.
type Placed = BTreeMap<String, (PathBuf, Vec<(u32, Severity, String)>)>;

pub fn run(args: &UccLogArgs) -> ExitCode {
    let bytes = match std::fs::read(&args.log) {
        Ok(bytes) => bytes,
        Err(e) => {
            eprintln!("error: {}: cannot read: {e}", args.log.display());
            return ExitCode::from(EXIT_USAGE);
        }
    };
    let log = unreal_syntax::text::decode(&bytes).text.into_owned();
    let root = args.root.clone().unwrap_or_else(|| default_root(&args.log));
    let messages = read_log(&log);
    let mut files = Placed::new();
    let mut unplaced = Vec::new();
    for message in &messages {
        let place = match &message.place {
            Some((relative, line)) => {
                find_file(&root, relative).map(|file| (relative.clone(), file, *line))
            }
            None => opened_file_line(&root, message),
        };
        match place {
            Some((relative, file, line)) => files
                .entry(relative)
                .or_insert_with(|| (file, Vec::new()))
                .1
                .push((line, message.severity, message.text.clone())),
            None => unplaced.push(message),
        }
    }
    let mut report_files = Vec::new();
    for (relative, (file, found)) in files {
        let text = std::fs::read(&file)
            .map(|b| unreal_syntax::text::decode(&b).text.into_owned())
            .unwrap_or_default();
        let line_index = LineIndex::new(&text);
        let mut diagnostics: Vec<Diagnostic> = found
            .into_iter()
            .map(|(line, severity, message)| {
                let span = line_span(&text, &line_index, line);
                let code = if severity == Severity::Error { UCC_ERROR } else { UCC_WARNING };
                Diagnostic::new(code, severity, span, format!("UCC: {message}"))
            })
            .collect();
        diagnostics.sort_by_key(|d| d.span.start);
        let shown =
            if root == Path::new(".") { PathBuf::from(&relative) } else { root.join(&relative) };
        report_files.push(FileReport {
            path: shown.display().to_string().replace('\\', "/"),
            text: SourceText::from(text),
            line_index,
            diagnostics,
        });
    }
    for message in &unplaced {
        let place = match &message.place {
            Some((relative, line)) => {
                format!("{relative}({line}), not found under {}", root.display())
            }
            None => "no class line".to_owned(),
        };
        eprintln!("note: UCC ({place}): {}", printable_line(&message.text));
    }
    let report = Report {
        files_checked: report_files.len(),
        files: report_files,
        references_unchecked: false,
    };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let color = anstream::AutoStream::choice(&std::io::stdout()) != anstream::ColorChoice::Never;
    if render::render(args.format, &report, color, &mut out).is_err() || out.flush().is_err() {
        return ExitCode::from(EXIT_USAGE);
    }
    if messages.iter().any(|m| m.severity == Severity::Error) {
        ExitCode::from(EXIT_FINDINGS)
    } else {
        ExitCode::from(EXIT_CLEAN)
    }
}

/// The folder above the log's `System/` (where UCC writes `UCC.log`), else the current one.
fn default_root(log: &Path) -> PathBuf {
    let folder = log.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let is_system = folder.file_name().is_some_and(|n| n.eq_ignore_ascii_case("System"));
    match folder.parent() {
        Some(parent) if is_system => {
            if parent.as_os_str().is_empty() {
                PathBuf::from(".")
            } else {
                parent.to_path_buf()
            }
        }
        _ => PathBuf::from("."),
    }
}

/// The file `relative` under `root`, each part matched without case (the log is Windows').
fn find_file(root: &Path, relative: &str) -> Option<PathBuf> {
    find_ignoring_case(&RealFs, root, relative).filter(|path| path.is_file())
}

/// "Error opening file X": the `#exec` line of the package being built that names X.
fn opened_file_line(root: &Path, message: &LogMessage) -> Option<(String, PathBuf, u32)> {
    let file = message.text.strip_prefix("Error opening file ")?;
    let name = file.rsplit(['\\', '/']).next()?.to_ascii_lowercase();
    let package = message.package.as_deref()?;
    let classes = find_ignoring_case(&RealFs, root, &format!("{package}/Classes"))?;
    let mut entries: Vec<PathBuf> =
        std::fs::read_dir(&classes).ok()?.flatten().map(|e| e.path()).collect();
    entries.sort();
    for path in entries {
        if !path.extension().is_some_and(|e| e.eq_ignore_ascii_case("uc")) {
            continue;
        }
        let Ok(bytes) = std::fs::read(&path) else { continue };
        let text = unreal_syntax::text::decode(&bytes).text.into_owned();
        for (number, line) in text.lines().enumerate() {
            let lower = line.to_ascii_lowercase();
            if lower.trim_start().starts_with("#exec") && lower.contains(&name) {
                let file_name = path.file_name()?.to_string_lossy().into_owned();
                return Some((format!("{package}/Classes/{file_name}"), path, number as u32 + 1));
            }
        }
    }
    None
}

/// The span of the 1-based `line` of `text` (its content, without the line break).
fn line_span(text: &str, index: &LineIndex, line: u32) -> Span {
    let start = index.line_start(line.saturating_sub(1)).unwrap_or(text.len() as u32);
    let rest = text.get(start as usize..).unwrap_or_default();
    let len = rest.find(['\r', '\n']).unwrap_or(rest.len());
    Span::new(start, start + len as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A message as the test compares it: its place, severity and text.
    type Shown<'a> = (Option<(String, u32)>, Severity, &'a str);

    #[test]
    fn headings_name_the_package_in_both_generations() {
        assert_eq!(
            heading("--------------------MyMod - Release--------------------"),
            Some("MyMod")
        );
        assert_eq!(heading("--------------------MyMod--------------------"), Some("MyMod"));
        assert_eq!(heading("-------- Not a package --------"), None);
        assert_eq!(heading("MyMod"), None);
    }

    #[test]
    fn messages_are_read_with_their_place() {
        let log = "Log: --------------------MyMod - Release--------------------\r\n\
                   Log: Parsing MyGun\r\n\
                   ExecWarning: C:\\UT\\MyMod\\Classes\\MyGun.uc(4) : ExecWarning, Import texture Skin from Textures\\Skin.pcx failed\r\n\
                   Error: C:\\UT\\MyMod\\Classes\\MyGun.uc(27) : Error, Bad or missing expression in '='\r\n\
                   C:\\UT\\MyMod\\Classes\\MyGun.uc(1) : defaultproperties : Warning, Unknown property\r\n\
                   Log: Error opening file Models\\Gun_a.3d\r\n\
                   Log: Compiling MyGun\r\n";
        let read = read_log(log);
        let shown: Vec<Shown<'_>> =
            read.iter().map(|m| (m.place.clone(), m.severity, m.text.as_str())).collect();
        assert_eq!(
            shown,
            [
                (
                    Some(("MyMod/Classes/MyGun.uc".to_owned(), 4)),
                    Severity::Warning,
                    "Import texture Skin from Textures\\Skin.pcx failed"
                ),
                (
                    Some(("MyMod/Classes/MyGun.uc".to_owned(), 27)),
                    Severity::Error,
                    "Bad or missing expression in '='"
                ),
                (
                    Some(("MyMod/Classes/MyGun.uc".to_owned(), 1)),
                    Severity::Warning,
                    "Unknown property"
                ),
                (None, Severity::Error, "Error opening file Models\\Gun_a.3d"),
            ]
        );
        assert!(read.iter().all(|m| m.package.as_deref() == Some("MyMod")));
    }
}
