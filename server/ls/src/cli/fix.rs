//! `lint --fix` and `--fix-format`: applies the safe quick fixes of the findings (and, with
//! `--fix-format`, the canonical T3D layout) and writes the file back in its own encoding and
//! line endings, atomically (a temporary file in the same folder, then a rename).
//!
//! A file with a syntax-level error is never touched: its structure is a guess, and so would
//! be every edit. Nor is a file whose bytes its decoded text does not reproduce (invalid
//! UTF-16, say): writing it back would change more than the fixes.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

pub use super::output::{clean_temp_files_on_signals, sweep_stale_temp_files};
use super::output::{write_and_commit, Commit, NotWritten, Seams, REAL};

use unreal_analysis::ide::t3d::formatting::{self, FormatOptions};
use unreal_analysis::ide::t3d::Source;
use unreal_analysis::lint::FileKind;
use unreal_analysis::{Diagnostic, EngineSetting, TextEdit};
use unreal_syntax::text::SourceEncoding;

/// Rounds of fix-then-check: a fix can expose another (a cleared flag, then a normal); real
/// files settle in one or two.
const MAX_ROUNDS: usize = 8;

#[derive(clap::Args, Clone, Debug, Default)]
pub struct FixArgs {
    /// Apply the safe quick fixes and write the files back (encoding and line endings kept).
    #[arg(long)]
    pub fix: bool,
    /// Like --fix, then also bring T3D files into UnrealEd's canonical layout.
    #[arg(long)]
    pub fix_format: bool,
}

impl FixArgs {
    pub fn mode(&self) -> Option<FixMode> {
        if self.fix_format {
            Some(FixMode::FixAndFormat)
        } else if self.fix {
            Some(FixMode::Fix)
        } else {
            None
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FixMode {
    Fix,
    FixAndFormat,
}

/// What fixing one file did.
#[derive(Debug, Default)]
pub struct Fixed {
    /// The text and findings after fixing (the input's when nothing changed).
    pub text: String,
    pub diagnostics: Vec<Diagnostic>,
    /// Findings fixed (format edits are not counted).
    pub fixes: usize,
    /// Whether the file was rewritten.
    pub written: bool,
    /// Why the file was left alone, or what failed when writing it.
    pub skipped: Option<String>,
    pub failed: Option<String>,
}

/// The file being fixed and how to check a new version of its text.
pub struct FixTarget<'a> {
    pub path: &'a Path,
    pub kind: FileKind,
    pub bytes: &'a [u8],
    pub encoding: SourceEncoding,
    pub engine: EngineSetting,
    /// All findings on a text, before the configuration's severities.
    pub check: &'a (dyn Fn(&str) -> Vec<Diagnostic> + Sync),
    /// The configuration's severities (drops rules switched off).
    pub configure: &'a (dyn Fn(&mut Vec<Diagnostic>) + Sync),
}

/// Fixes one file. `raw` holds every finding on `text` before the configuration; the
/// returned findings are configured.
pub fn fix_file(
    target: &FixTarget<'_>,
    text: String,
    raw: Vec<Diagnostic>,
    mode: FixMode,
) -> Fixed {
    // What a killed run left in this folder goes, whether or not this file gets written.
    match target.path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => sweep_stale_temp_files(dir),
        _ => sweep_stale_temp_files(Path::new(".")),
    };
    let configured = |mut diagnostics: Vec<Diagnostic>| {
        (target.configure)(&mut diagnostics);
        diagnostics
    };
    let unchanged = |text: String, raw: Vec<Diagnostic>, skipped: Option<String>| Fixed {
        text,
        diagnostics: configured(raw),
        skipped,
        ..Fixed::default()
    };
    let wants_format = mode == FixMode::FixAndFormat && target.kind == FileKind::T3d;
    if let Some(code) = syntax_error(&raw) {
        // Say so only when something would have been done.
        let pending = wants_format || configured(raw.clone()).iter().any(has_safe_fix);
        let why = pending.then(|| format!("not fixed: the file has a syntax error ({code})"));
        return unchanged(text, raw, why);
    }

    let crlf = text.contains("\r\n");
    let (original, original_raw) = (text.clone(), raw.clone());
    let (mut text, mut raw, mut fixes) = (text, raw, 0);
    for _ in 0..MAX_ROUNDS {
        let Some((next, applied)) = apply_safe_fixes(&text, &configured(raw.clone()), crlf) else {
            break;
        };
        let next_raw = (target.check)(&next);
        if syntax_error(&next_raw).is_some() {
            // A fix that breaks the structure is a bug in its rule; keep the last good text.
            break;
        }
        (text, raw, fixes) = (next, next_raw, fixes + applied);
    }
    if wants_format {
        let parse = unreal_syntax::t3d::parse(&text);
        let source = Source::detect(&text, &parse, target.engine);
        if let Ok(formatted) = formatting::format_text(&source, FormatOptions::default()) {
            if formatted != text {
                let formatted_raw = (target.check)(&formatted);
                if syntax_error(&formatted_raw).is_none() {
                    (text, raw) = (formatted, formatted_raw);
                }
            }
        }
    }
    if text == original {
        return Fixed { text, diagnostics: configured(raw), fixes, ..Fixed::default() };
    }
    if encode(&original, target.encoding).as_deref() != Some(target.bytes) {
        let why = format!(
            "not fixed: writing the decoded text back as {} would not reproduce the file's other bytes",
            target.encoding.name()
        );
        return unchanged(original, original_raw, Some(why));
    }
    let failed = match encode(&text, target.encoding) {
        Some(bytes) => replace_file(target.path, Some(target.bytes), &bytes).err(),
        None => Some(NotWritten::failed(format!(
            "the fixed text has characters {} cannot hold; the file was left alone",
            target.encoding.name()
        ))),
    };
    match failed {
        None => {
            Fixed { text, diagnostics: configured(raw), fixes, written: true, ..Fixed::default() }
        }
        Some(NotWritten { message, skipped: true }) => {
            unchanged(original, original_raw, Some(message))
        }
        Some(NotWritten { message, .. }) => {
            Fixed { failed: Some(message), ..unchanged(original, original_raw, None) }
        }
    }
}

fn has_safe_fix(diagnostic: &Diagnostic) -> bool {
    diagnostic.fix.as_ref().is_some_and(|f| f.safe && !f.edits.is_empty())
}

fn syntax_error(diagnostics: &[Diagnostic]) -> Option<&'static str> {
    // The registry knows which rules mean the file could not be read as written.
    diagnostics.iter().map(|d| d.code).find(|code| unreal_analysis::rules::is_syntax_error(code))
}

/// Applies every safe fix whose edits overlap no edit of a fix applied before it (in
/// position order); `None` when there is none. Returns the new text and the number of fixes.
pub fn apply_safe_fixes(
    text: &str,
    diagnostics: &[Diagnostic],
    crlf: bool,
) -> Option<(String, usize)> {
    let mut fixes: Vec<&[TextEdit]> = diagnostics
        .iter()
        .filter(|d| has_safe_fix(d))
        .filter_map(|d| d.fix.as_ref().map(|f| f.edits.as_slice()))
        .collect();
    fixes.sort_by_key(|edits| edits.iter().map(|e| e.span.start).min().unwrap_or(0));
    let mut accepted: Vec<&TextEdit> = Vec::new();
    let mut count = 0;
    for edits in fixes {
        let fits = edits.iter().all(|e| {
            e.span.start <= e.span.end
                && text.is_char_boundary(e.span.start as usize)
                && text.is_char_boundary(e.span.end as usize)
                && (e.span.end as usize) <= text.len()
        });
        let overlaps = edits.iter().any(|e| accepted.iter().any(|a| overlap(a, e)));
        let changes = edits.iter().any(|e| e.span.text(text) != e.new_text);
        if fits && !overlaps && changes {
            accepted.extend(edits);
            count += 1;
        }
    }
    if count == 0 {
        return None;
    }
    accepted.sort_by_key(|e| (e.span.start, e.span.end));
    let mut out = String::with_capacity(text.len());
    let mut at = 0usize;
    for edit in accepted {
        let (start, end) = (edit.span.start as usize, edit.span.end as usize);
        out.push_str(text.get(at..start).unwrap_or(""));
        if crlf {
            out.push_str(&to_crlf(&edit.new_text));
        } else {
            out.push_str(&edit.new_text);
        }
        at = end.max(at);
    }
    out.push_str(text.get(at..).unwrap_or(""));
    Some((out, count))
}

/// Two edits overlap when they share a character, or insert at the same place.
fn overlap(a: &TextEdit, b: &TextEdit) -> bool {
    (a.span.start < b.span.end && b.span.start < a.span.end)
        || (a.span.start == b.span.start)
        || (a.span.is_empty() && a.span.start > b.span.start && a.span.start < b.span.end)
        || (b.span.is_empty() && b.span.start > a.span.start && b.span.start < a.span.end)
}

/// `\n` not already preceded by `\r` becomes `\r\n`.
fn to_crlf(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut previous = '\0';
    for c in text.chars() {
        if c == '\n' && previous != '\r' {
            out.push('\r');
        }
        out.push(c);
        previous = c;
    }
    out
}

/// The bytes of `text` in `encoding` (with its BOM); `None` when a character has no byte in
/// Windows-1252.
pub fn encode(text: &str, encoding: SourceEncoding) -> Option<Vec<u8>> {
    match encoding {
        SourceEncoding::Utf8 => Some(text.as_bytes().to_vec()),
        SourceEncoding::Utf8Bom => {
            let mut bytes = b"\xEF\xBB\xBF".to_vec();
            bytes.extend_from_slice(text.as_bytes());
            Some(bytes)
        }
        SourceEncoding::Utf16LeBom => {
            let mut bytes = vec![0xFF, 0xFE];
            bytes.extend(text.encode_utf16().flat_map(u16::to_le_bytes));
            Some(bytes)
        }
        SourceEncoding::Utf16BeBom => {
            let mut bytes = vec![0xFE, 0xFF];
            bytes.extend(text.encode_utf16().flat_map(u16::to_be_bytes));
            Some(bytes)
        }
        SourceEncoding::Windows1252 => {
            let (bytes, _, unmappable) = encoding_rs::WINDOWS_1252.encode(text);
            (!unmappable).then(|| bytes.into_owned())
        }
    }
}

/// Replaces the file at `path` with `bytes`, safely:
/// - a symbolic link is written through: the file it points to is replaced, the link stays;
/// - a read-only file (as version control checkouts leave them) or one with several hard links
///   (a rename would split them) is left alone, with a note;
/// - the new text goes to a temporary file in the same folder, flushed, given the original's
///   permissions and (where permitted) owner, then renamed over the file: a crash leaves the
///   old file or the new one, never half of one. On Linux the temporary file is anonymous
///   (`O_TMPFILE`) until it is complete and checked, then linked to an unguessable name (a
///   link or file planted there is refused, never followed) and renamed at once; elsewhere,
///   or on a file system without anonymous files, it is created new (`O_EXCL`) under such a
///   name;
/// - just before the rename the file is read again: if it no longer holds `expected` (an edit
///   saved meanwhile), nothing is replaced and the write fails;
/// - SIGINT and SIGTERM remove the temporary file ([`clean_temp_files_on_signals`]); what a
///   SIGKILL leaves the next run removes ([`sweep_stale_temp_files`]).
pub fn replace_file(path: &Path, expected: Option<&[u8]>, bytes: &[u8]) -> Result<(), NotWritten> {
    replace_file_via(path, expected, bytes, &super::output::temp_name)
}

/// [`replace_file`] with the temporary file's name from `temp_name` (tests plant files there).
fn replace_file_via(
    path: &Path,
    expected: Option<&[u8]>,
    bytes: &[u8],
    temp_name: &dyn Fn(&Path, &str) -> PathBuf,
) -> Result<(), NotWritten> {
    let io = |what: &str, e: io::Error| NotWritten::failed(format!("{what}: {e}"));
    let link = fs::symlink_metadata(path).map_err(|e| io("cannot read the file", e))?;
    let real = if link.file_type().is_symlink() {
        fs::canonicalize(path).map_err(|e| io("cannot follow the link", e))?
    } else {
        path.to_path_buf()
    };
    let metadata = fs::metadata(&real).map_err(|e| io("cannot read the file", e))?;
    // Only a regular file is replaced: a rename onto a folder fails, and one onto a device or a
    // FIFO (`/dev/null`) would swap it for a plain file.
    if metadata.is_dir() {
        return Err(NotWritten::failed("it is a folder, not a file".to_owned()));
    }
    if !metadata.is_file() {
        return Err(NotWritten::failed(
            "it is not a regular file (a device, FIFO or socket); nothing is written to it"
                .to_owned(),
        ));
    }
    if metadata.permissions().readonly() {
        return Err(NotWritten::skipped("not fixed: the file is read-only".to_owned()));
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt as _;
        if metadata.nlink() > 1 {
            return Err(NotWritten::skipped(format!(
                "not fixed: the file has {} hard links, which a rewrite would split",
                metadata.nlink()
            )));
        }
    }
    let dir = match real.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = real.file_name().map_or_else(|| "file".into(), |n| n.to_string_lossy());
    let mut check = |file: &fs::File| {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt as _;
            // Only root may give a file away, and only a member may give it to a group: when
            // the new file cannot have the old one's owner and group, the file is left alone
            // rather than silently given to whoever runs the fix.
            let _ = std::os::unix::fs::fchown(file, Some(metadata.uid()), Some(metadata.gid()));
            let new = file.metadata().map_err(|e| io("cannot read the temporary file", e))?;
            if (new.uid(), new.gid()) != (metadata.uid(), metadata.gid()) {
                return Err(NotWritten::skipped(format!(
                    "not fixed: the file belongs to user {} and group {}, which a rewrite by this user would not keep",
                    metadata.uid(),
                    metadata.gid()
                )));
            }
        }
        // After the owner (a change of owner clears set-id bits), on the handle (never
        // through a link someone could put at the temporary name).
        file.set_permissions(metadata.permissions())
            .map_err(|e| io("cannot keep the file's mode", e))?;
        if let Some(expected) = expected {
            let now = unreal_formats::mapped::read_regular(&real)
                .map_err(|e| io("cannot read the file again", e))?;
            if now != expected {
                return Err(NotWritten::failed(
                    "not fixed: the file changed while it was being fixed (an edit saved meanwhile); run again".to_owned(),
                ));
            }
        }
        Ok(())
    };
    let seams = Seams { temp_name, write: REAL.write };
    write_and_commit(&dir, &name, 0o600, bytes, &seams, &mut check, &Commit::Replace(&real))
}

#[cfg(test)]
mod tests {
    use unreal_analysis::{Diagnostic, Fix, TextEdit};
    use unreal_syntax::text::{decode, SourceEncoding};
    use unreal_syntax::Span;

    use super::{apply_safe_fixes, encode};

    /// A link planted at the temporary file's name (the old name was `.NAME.unreal-ls-PID.tmp`,
    /// easy to guess) is neither written through nor removed: the fix fails, nothing changes.
    #[cfg(unix)]
    #[test]
    fn a_link_planted_at_the_temporary_name_is_not_written_through() {
        let dir = std::env::temp_dir().join(format!("unreal-ls-planted-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let (path, victim) = (dir.join("Map.t3d"), dir.join("victim"));
        std::fs::write(&path, "original").unwrap();
        std::fs::write(&victim, "precious").unwrap();
        let planted = dir.join(".Map.t3d.unreal-ls-1234.tmp");
        std::os::unix::fs::symlink(&victim, &planted).unwrap();
        let guessed = |_: &std::path::Path, _: &str| planted.clone();
        let err =
            super::replace_file_via(&path, Some(b"original"), b"fixed", &guessed).unwrap_err();
        assert!(err.message.starts_with("cannot create a temporary file"), "{err:?}");
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "original");
        assert!(planted.is_symlink(), "someone else's file at the name is left alone");
        // The real names differ from one write to the next.
        let (a, b) = (
            super::super::output::temp_name(&dir, "Map.t3d"),
            super::super::output::temp_name(&dir, "Map.t3d"),
        );
        assert_ne!(a, b);
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// The builds of 24 November (04:26 to 19:35 UTC) named their temporary files without a
    /// process id (`.NAME.unreal-ls-RANDOM.tmp`): the sweep removes such a file once it has not
    /// been written for 15 minutes, never a younger one, a link, or a name that differs.
    #[cfg(target_os = "linux")]
    #[test]
    fn the_sweep_removes_old_temporary_files_without_a_process_id() {
        let dir = std::env::temp_dir().join(format!("unreal-ls-pidless-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let old = std::time::SystemTime::now() - std::time::Duration::from_mins(20);
        let write = |name: &str, modified: Option<std::time::SystemTime>| {
            let file = std::fs::File::create(dir.join(name)).unwrap();
            if let Some(at) = modified {
                file.set_modified(at).unwrap();
            }
        };
        let stale = ".Map.t3d.unreal-ls-0123456789abcdef.tmp";
        let young = ".Young.t3d.unreal-ls-0123456789abcdef.tmp";
        let kept_old = [
            ".Map.t3d.unreal-ls-0123456789ABCDEF.tmp", // not what the builds wrote
            ".Map.t3d.unreal-ls-0123456789abcde.tmp",  // 15 digits
            ".Map.t3d.unreal-ls-0123456789abcdefa.tmp", // 17
            ".unreal-ls-0123456789abcdef.tmp",         // no file name
            "Map.t3d.unreal-ls-0123456789abcdef.tmp",  // no leading dot
            ".Map.t3d.unreal-ls-0123456789abcdef.tmp.bak",
        ];
        write(stale, Some(old));
        write(young, None);
        for name in kept_old {
            write(name, Some(old));
        }
        std::fs::write(dir.join("victim"), "precious").unwrap();
        let link = dir.join(".Link.t3d.unreal-ls-fedcba9876543210.tmp");
        std::os::unix::fs::symlink(dir.join("victim"), &link).unwrap();
        assert_eq!(super::sweep_stale_temp_files(&dir), 1);
        assert!(!dir.join(stale).exists());
        assert!(dir.join(young).exists());
        for name in kept_old {
            assert!(dir.join(name).exists(), "{name}");
        }
        assert!(link.is_symlink());
        assert_eq!(std::fs::read_to_string(dir.join("victim")).unwrap(), "precious");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn an_edit_saved_meanwhile_is_not_overwritten() {
        let dir = std::env::temp_dir().join(format!("unreal-ls-replace-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("Map.t3d");
        std::fs::write(&path, "edited by someone else").unwrap();
        let err = super::replace_file(&path, Some(b"what was read"), b"fixed").unwrap_err();
        assert!(
            !err.skipped && err.message.contains("changed while it was being fixed"),
            "{err:?}"
        );
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "edited by someone else");
        super::replace_file(&path, Some(b"edited by someone else"), b"fixed").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "fixed");
        let left: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
        assert_eq!(left.len(), 1, "no temporary file left");
        let _ = std::fs::remove_dir_all(&dir);
    }

    fn fix(span: Span, new_text: &str, safe: bool) -> Diagnostic {
        Diagnostic::warning("t3d-x", span, "m").with_fix(Fix {
            title: "t".into(),
            edits: vec![TextEdit { span, new_text: new_text.into() }],
            safe,
        })
    }

    #[test]
    fn applies_safe_non_overlapping_fixes() {
        let text = "abc def ghi";
        let diagnostics = [
            fix(Span::new(0, 3), "ABC", true),
            fix(Span::new(1, 2), "x", true),     // overlaps the first
            fix(Span::new(4, 7), "DEF", false),  // not safe
            fix(Span::new(8, 11), "G\nH", true), // a line break, in a CRLF file
            fix(Span::new(20, 30), "out", true), // out of range
        ];
        let (out, count) = apply_safe_fixes(text, &diagnostics, true).unwrap();
        assert_eq!((out.as_str(), count), ("ABC def G\r\nH", 2));
        assert!(apply_safe_fixes("ABC", &[fix(Span::new(0, 3), "ABC", true)], false).is_none());
    }

    #[test]
    fn encodings_round_trip() {
        let cases: [&[u8]; 5] = [
            b"Begin Map\r\nCaf\xC3\xA9\r\n",
            b"\xEF\xBB\xBFBegin Map\n",
            b"\xFF\xFEB\x00e\x00\r\x00\n\x00\xE9\x00",
            b"\xFE\xFF\x00B\x00e",
            b"Tag=\"Caf\xE9\x81\"\r\n",
        ];
        for bytes in cases {
            let decoded = decode(bytes);
            assert_eq!(encode(&decoded.text, decoded.encoding).as_deref(), Some(bytes));
        }
        assert_eq!(encode("\u{1F600}", SourceEncoding::Windows1252), None);
    }
}
