//! `--format human`: each diagnostic as a code frame drawn by `annotate-snippets` (severity,
//! code, message, `path:line:col`, the primary span underlined, every label with its
//! message, the fix title as `help:`), then one summary line.
//!
//! Only the lines around the spans are handed to the library, so a finding in a 50 MB map
//! costs as much as one in a 50-line brush. Labels far from the primary span get their own
//! frame (`::: path:line:col`) instead of a frame that spans the file.

use std::io::{self, Write};

use annotate_snippets::renderer::{AnsiColor, Style};
use annotate_snippets::{Level, Message, Renderer, Snippet};
use unreal_analysis::{Diagnostic, Severity};
use unreal_syntax::Span;

use super::{FileReport, Report, Summary};
use crate::cli::{printable_line, printable_message};

/// Annotations whose lines are at most this far apart share one frame (the library folds
/// the unannotated lines between them).
const SAME_FRAME_GAP: u32 = 8;
/// A span over more lines than this is drawn on its first line only: a frame holding a
/// whole 10,000-line block helps nobody, and the position printed is the same.
const MAX_SPAN_LINES: u32 = 12;

pub fn render(report: &Report, color: bool, out: &mut dyn Write) -> io::Result<()> {
    for file in &report.files {
        for diagnostic in &file.diagnostics {
            write_diagnostic(&renderer(diagnostic.severity, color), file, diagnostic, out)?;
        }
    }
    let summary = Summary::of(report);
    if color {
        let style = if summary.errors > 0 {
            AnsiColor::BrightRed.on_default().bold()
        } else if summary.warnings > 0 {
            AnsiColor::BrightYellow.on_default().bold()
        } else {
            Style::new().bold()
        };
        writeln!(out, "{style}{}{style:#}", summary.line())?;
    } else {
        writeln!(out, "{}", summary.line())?;
    }
    if report.references_unchecked && report.files_checked > 0 {
        writeln!(
            out,
            "references into packages (textures, classes, OBJ LOAD) were not checked: no game folder is set (--game-dir, or game-dir in unreal-ls.toml)"
        )?;
    }
    Ok(())
}

/// The library draws `^` only under `Error` annotations and prefixes labels of the other
/// levels but `Warning` with the level's name. So the primary span is always drawn as an
/// `Error` annotation and labels as `Warning` ones, and the colours are set per severity:
/// the primary span in the severity's colour, labels in blue (yellow for warnings, whose
/// title shares the `Warning` style).
fn renderer(severity: Severity, color: bool) -> Renderer {
    if !color {
        return Renderer::plain();
    }
    let bold = |c: AnsiColor| c.on_default().bold();
    let renderer = Renderer::styled();
    match severity {
        Severity::Error => renderer.warning(bold(AnsiColor::BrightBlue)),
        Severity::Warning => renderer.error(bold(AnsiColor::BrightYellow)),
        Severity::Info => {
            renderer.error(bold(AnsiColor::BrightBlue)).warning(bold(AnsiColor::BrightBlue))
        }
        Severity::Hint => {
            renderer.error(bold(AnsiColor::BrightGreen)).warning(bold(AnsiColor::BrightBlue))
        }
    }
}

fn title_level(severity: Severity) -> Level {
    match severity {
        Severity::Error => Level::Error,
        Severity::Warning => Level::Warning,
        Severity::Info => Level::Info,
        Severity::Hint => Level::Note,
    }
}

/// One span to draw, clamped to the text and to character boundaries.
struct Mark<'a> {
    span: Span,
    first_line: u32,
    last_line: u32,
    level: Level,
    label: Option<&'a str>,
    primary: bool,
}

fn write_diagnostic(
    renderer: &Renderer,
    file: &FileReport,
    diagnostic: &Diagnostic,
    out: &mut dyn Write,
) -> io::Result<()> {
    let level = title_level(diagnostic.severity);
    // Messages, labels and paths quote the files (names, values, whole lines): their control
    // characters are escaped like the code frames', so none reaches the terminal.
    let labels: Vec<_> = diagnostic.labels.iter().map(|l| printable_message(&l.message)).collect();
    let mut marks = vec![mark(file, diagnostic.span, Level::Error, None, true)];
    let mut elsewhere = Vec::new();
    for (label, text) in diagnostic.labels.iter().zip(&labels) {
        match &label.file {
            None => marks.push(mark(file, label.span, Level::Warning, Some(text), false)),
            // Another file's text is not at hand here: name the file and say what is there.
            Some(path) => {
                let path = path.to_string_lossy().replace('\\', "/");
                elsewhere.push(format!("{}: {text}", printable_line(&path)));
            }
        }
    }

    let frames = group_into_frames(marks);
    let sources: Vec<(usize, usize, String)> =
        frames.iter().map(|frame| frame_source(file, frame)).collect();
    let (title, origin) = (printable_message(&diagnostic.message), printable_line(&file.path));
    let mut message = level.title(&title).id(diagnostic.code);
    for (frame, source) in frames.iter().zip(&sources) {
        message = message.snippet(frame_snippet(&origin, frame, source));
    }
    for note in &elsewhere {
        message = message.footer(Level::Note.title(note));
    }
    let fix_title = diagnostic.fix.as_ref().map(|fix| printable_message(&fix.title));
    if let Some(fix_title) = &fix_title {
        message = message.footer(Level::Help.title(fix_title));
    }
    write_message(renderer, message, out)
}

fn write_message(renderer: &Renderer, message: Message<'_>, out: &mut dyn Write) -> io::Result<()> {
    writeln!(out, "{}", renderer.render(message))?;
    writeln!(out)
}

fn mark<'a>(
    file: &FileReport,
    span: Span,
    level: Level,
    label: Option<&'a str>,
    primary: bool,
) -> Mark<'a> {
    let text = &file.text;
    let span = file.clamp(span);
    let (start, mut end) = (span.start as usize, span.end as usize);
    let first_line = file.line_index.line_col(text, start as u32, COLUMNS).line;
    let mut last_line = file.line_index.line_col(text, end as u32, COLUMNS).line;
    // A span ending right after a line break ends on the line before.
    if last_line > first_line && file.line_index.line_start(last_line) == Some(end as u32) {
        last_line -= 1;
    }
    if last_line - first_line >= MAX_SPAN_LINES {
        if let Some(line) = file.line_index.line_span(text, first_line) {
            end = (line.end as usize).max(start);
        }
        last_line = first_line;
    }
    Mark { span: Span::from_range(start..end), first_line, last_line, level, label, primary }
}

const COLUMNS: unreal_analysis::line_index::ColumnUnit =
    unreal_analysis::line_index::ColumnUnit::Utf8;

/// Groups marks whose lines are close into frames; the primary mark's frame comes first and
/// the primary mark first within it (the library prints the position of a frame's first
/// annotation).
fn group_into_frames(mut marks: Vec<Mark<'_>>) -> Vec<Vec<Mark<'_>>> {
    marks.sort_by_key(|m| (m.first_line, !m.primary));
    let mut frames: Vec<Vec<Mark<'_>>> = Vec::new();
    for mark in marks {
        match frames.last_mut() {
            Some(frame)
                if frame.iter().map(|m| m.last_line).max().unwrap_or(0) + SAME_FRAME_GAP
                    >= mark.first_line =>
            {
                frame.push(mark);
            }
            _ => frames.push(vec![mark]),
        }
    }
    for frame in &mut frames {
        if let Some(i) = frame.iter().position(|m| m.primary) {
            let primary = frame.remove(i);
            frame.insert(0, primary);
        }
    }
    if let Some(i) = frames.iter().position(|f| f.first().is_some_and(|m| m.primary)) {
        let primary_frame = frames.remove(i);
        frames.insert(0, primary_frame);
    }
    frames
}

/// The lines a frame shows: their first line, their start offset in the file, and their text
/// made safe for a terminal.
fn frame_source(file: &FileReport, frame: &[Mark<'_>]) -> (usize, usize, String) {
    let text = file.text.as_str();
    let first = frame.iter().map(|m| m.first_line).min().unwrap_or(0);
    let last = frame.iter().map(|m| m.last_line).max().unwrap_or(0);
    let start = file.line_index.line_start(first).unwrap_or(0) as usize;
    let end = file
        .line_index
        .line_span(text, last)
        .map_or(text.len(), |line| line.end as usize)
        .max(frame.iter().map(|m| m.span.end as usize).max().unwrap_or(0))
        .min(text.len());
    // One very long line (a 50 MB `Vertex` line) is shown as a window around the marks: the
    // frame shows a few hundred characters either way, and drawing the rest costs seconds.
    let (start, end) = if first == last && end - start > MAX_FRAME_LINE_BYTES {
        let at = frame.iter().map(|m| m.span.start as usize).min().unwrap_or(start);
        let floor = |i: usize| (0..=i).rev().find(|&b| text.is_char_boundary(b)).unwrap_or(0);
        let from = floor(at.saturating_sub(FRAME_WINDOW_BEFORE).max(start));
        (from, floor((at + FRAME_WINDOW_AFTER).min(end)))
    } else {
        (start, end)
    };
    (first as usize, start, terminal_safe(text.get(start..end).unwrap_or("")))
}

/// A line longer than this is shown as a window of this many bytes before the first mark and
/// after it.
const MAX_FRAME_LINE_BYTES: usize = 4096;
const FRAME_WINDOW_BEFORE: usize = 200;
const FRAME_WINDOW_AFTER: usize = 600;

/// Replaces control characters (binary junk) with characters of the same UTF-8 length, so
/// annotation offsets stay valid and nothing reaches the terminal that could move its cursor.
/// Tabs, line feeds and the CR of a CRLF stay; a lone CR, a line break of its own (as the
/// line index counts lines), becomes a line feed, so the frame numbers its lines as the
/// `line:col` above it does.
fn terminal_safe(source: &str) -> String {
    let mut out = String::with_capacity(source.len());
    let mut chars = source.chars().peekable();
    while let Some(c) = chars.next() {
        let keep = c == '\t' || c == '\n' || (c == '\r' && chars.peek() == Some(&'\n'));
        out.push(match c {
            _ if keep || !c.is_control() => c,
            '\r' => '\n',
            // C1 controls take two bytes in UTF-8, like the inverted question mark.
            '\u{80}'..='\u{9f}' => '\u{bf}',
            _ => '?',
        });
    }
    out
}

fn frame_snippet<'a>(
    origin: &'a str,
    frame: &[Mark<'a>],
    (first, start, source): &'a (usize, usize, String),
) -> Snippet<'a> {
    let (first, start, source) = (*first, *start, source.as_str());
    let mut snippet = Snippet::source(source).line_start(first + 1).origin(origin).fold(true);
    for mark in frame {
        let from = (mark.span.start as usize).saturating_sub(start).min(source.len());
        let to = (mark.span.end as usize).saturating_sub(start).clamp(from, source.len());
        let mut annotation = mark.level.span(from..to);
        if let Some(label) = mark.label {
            annotation = annotation.label(label);
        }
        snippet = snippet.annotation(annotation);
    }
    snippet
}
