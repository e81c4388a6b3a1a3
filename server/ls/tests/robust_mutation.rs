//! Mutation tests: every corpus file truncated at many offsets and with random bytes
//! overwritten (fixed seed, bounded count), through what `unreal-ls info` reads, through
//! `unreal-ls lint` and through the analysis (lint with the file system around it, the
//! incremental document, hover and symbols). No panic anywhere, and every failure is an
//! error with a place: a reader error names its byte offset, a diagnostic has a span inside
//! the text on character boundaries, and the CLI exits 0 or 1 with `path:line:col` findings.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::pedantic)]

mod robust_common;

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;

use robust_common::{binary, corpus_files, Rng, TempDir};
use unreal_analysis::document::T3dDocument;
use unreal_analysis::lint::{lint_file, lint_path, FileKind, LintOptions, LintSession};
use unreal_analysis::Diagnostic;

const BINARY_EXTS: &[&str] = &[
    "u", "utx", "uax", "umx", "unr", "usx", "ukx", "psk", "psa", "bmp", "pcx", "tga", "dds", "png",
    "wav", "u3d",
];

/// Truncations (dense over the first 256 bytes, where headers are, then spread) and copies
/// with one to four bytes overwritten by edge values or random ones.
fn mutations(bytes: &[u8], seed: u64, cuts: usize, flips: usize) -> Vec<(String, Vec<u8>)> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    let len = bytes.len();
    for i in 0..cuts {
        let cut =
            if i < cuts / 2 { (i * 256 / (cuts / 2).max(1)).min(len) } else { rng.below(len + 1) };
        out.push((format!("cut{cut}"), bytes[..cut].to_vec()));
    }
    for i in 0..flips {
        if len == 0 {
            break;
        }
        let mut m = bytes.to_vec();
        for _ in 0..1 + rng.below(4) {
            let pos = if rng.below(2) == 0 { rng.below(len.min(512)) } else { rng.below(len) };
            let random = rng.next_u64() as u8;
            m[pos] = *rng.pick(&[0x00, 0xff, 0x7f, 0x80, random]);
        }
        out.push((format!("flip{i}"), m));
    }
    out
}

fn guarded<T>(what: &str, input: &[u8], f: impl FnOnce() -> T) -> T {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(v) => v,
        Err(panic) => {
            let path = std::env::temp_dir().join("unreal-ls-mutation-panic.bin");
            let _ = std::fs::write(&path, input);
            eprintln!("panic on {what}; input saved to {}", path.display());
            std::panic::resume_unwind(panic)
        }
    }
}

/// A reader error says where: `<structure> at byte <n>: expected <what>`.
fn assert_placed(message: &str, what: &str) {
    assert!(
        message.contains(" at byte ") && message.contains("expected"),
        "{what}: the error does not say where and what was expected: {message}"
    );
}

/// Every span (and label span) inside the text, on character boundaries; a code and a message.
fn assert_diagnostics_placed(text: &str, diagnostics: &[Diagnostic], what: &str) {
    for d in diagnostics {
        let spans = std::iter::once(d.span)
            .chain(d.labels.iter().filter(|l| l.file.is_none()).map(|l| l.span));
        for span in spans {
            let (s, e) = (span.start as usize, span.end as usize);
            assert!(
                s <= e && e <= text.len() && text.is_char_boundary(s) && text.is_char_boundary(e),
                "{what}: {} has span {s}..{e} outside the {}-byte text or inside a character",
                d.code,
                text.len()
            );
        }
        assert!(!d.code.is_empty() && !d.message.is_empty(), "{what}: {d:?}");
    }
}

/// The binary files `info` reads (vertex meshes as pairs, as `info` reads them): every
/// mutation through the summary, errors placed.
#[test]
fn binary_corpus_through_info_readers() {
    let files = corpus_files(BINARY_EXTS);
    let mut count = 0;
    for (i, (path, rel)) in files.iter().enumerate() {
        let bytes = std::fs::read(path).unwrap();
        let name = path.file_name().unwrap().to_str().unwrap();
        let (cuts, flips) = if bytes.len() > 200_000 { (16, 16) } else { (40, 40) };
        for (label, m) in mutations(&bytes, 0xB1A + i as u64, cuts, flips) {
            let what = format!("{rel} {label}");
            let result = guarded(&what, &m, || unreal_formats::summarize(&m, name));
            match result {
                Err(e) => assert_placed(&e.to_string(), &what),
                Ok(summary) => {
                    for problem in summary.problems() {
                        assert!(!problem.is_empty(), "{what}");
                    }
                }
            }
            count += 1;
        }
    }
    // Vertex meshes: each file of a pair mutated with its partner intact.
    for (d_path, rel) in corpus_files(&["3d"]) {
        let lower = rel.to_ascii_lowercase();
        let Some(stem) = lower.strip_suffix("_d.3d") else { continue };
        let Some(a_path) =
            std::fs::read_dir(d_path.parent().unwrap()).unwrap().flatten().map(|e| e.path()).find(
                |p| {
                    p.to_string_lossy()
                        .to_ascii_lowercase()
                        .ends_with(&format!("{}_a.3d", stem.rsplit('/').next().unwrap()))
                },
            )
        else {
            continue;
        };
        let d = std::fs::read(&d_path).unwrap();
        let a = std::fs::read(&a_path).unwrap();
        for (label, m) in mutations(&d, 0x3D, 30, 30) {
            let what = format!("{rel} _d {label}");
            if let Err(e) = guarded(&what, &m, || unreal_formats::summarize_vertex_mesh(&m, &a)) {
                assert_placed(&e.to_string(), &what);
            }
            count += 1;
        }
        for (label, m) in mutations(&a, 0x3E, 30, 30) {
            let what = format!("{rel} _a {label}");
            if let Err(e) = guarded(&what, &m, || unreal_formats::summarize_vertex_mesh(&d, &m)) {
                assert_placed(&e.to_string(), &what);
            }
            count += 1;
        }
    }
    println!("{count} mutated binary inputs through the info readers");
}

/// The same mutations through the real `unreal-ls info --json`, a few per file, all in one
/// process: exit 0 or 1 (never a panic's 101 or a signal), valid JSON, every error placed.
#[test]
fn binary_corpus_through_the_info_command() {
    let files = corpus_files(&[BINARY_EXTS, &["3d"]].concat());
    if files.is_empty() {
        return;
    }
    let dir = TempDir::new("info-mutations");
    let mut args: Vec<std::ffi::OsString> = vec!["info".into(), "--json".into()];
    for (i, (path, rel)) in files.iter().enumerate() {
        let bytes = std::fs::read(path).unwrap();
        // Each mutation in its own folder, under the original name, with the vertex-mesh
        // partner beside it so that `info` reads the pair.
        for (label, m) in mutations(&bytes, 0x1F0 + i as u64, 3, 3) {
            let sub = dir.path().join(format!("{}-{label}", rel.replace('/', "_")));
            std::fs::create_dir_all(&sub).unwrap();
            let name = path.file_name().unwrap();
            std::fs::write(sub.join(name), &m).unwrap();
            let lower = name.to_string_lossy().to_ascii_lowercase();
            if let Some(stem) = lower.strip_suffix("_d.3d").or_else(|| lower.strip_suffix("_a.3d"))
            {
                for entry in std::fs::read_dir(path.parent().unwrap()).unwrap().flatten() {
                    let other = entry.file_name().to_string_lossy().to_ascii_lowercase();
                    if other != lower
                        && other.starts_with(stem)
                        && other.ends_with(".3d")
                        && other.len() == lower.len()
                    {
                        std::fs::copy(entry.path(), sub.join(entry.file_name())).unwrap();
                    }
                }
            }
            args.push(sub.join(name).into_os_string());
        }
    }
    let output = std::process::Command::new(binary()).args(&args).output().unwrap();
    let code = output.status.code();
    assert!(
        matches!(code, Some(0 | 1)),
        "info exited {code:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let entries: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let entries = entries.as_array().unwrap();
    assert_eq!(entries.len(), args.len() - 2);
    let mut errors = 0;
    for entry in entries {
        if let Some(message) = entry["error"].as_str() {
            errors += 1;
            if !message.contains("partner") {
                assert_placed(message, entry["file"].as_str().unwrap());
            }
        }
    }
    for line in String::from_utf8_lossy(&output.stderr).lines() {
        assert!(line.starts_with("error: "), "stray stderr line: {line}");
    }
    println!(
        "{} mutated files through `unreal-ls info`, {errors} refused with a placed error",
        entries.len()
    );
}

fn text_kind(rel: &str) -> FileKind {
    if rel.to_ascii_lowercase().ends_with(".t3d") {
        FileKind::T3d
    } else {
        FileKind::UnrealScript
    }
}

/// T3D and UnrealScript corpus files through the analysis: `lint_file`, `lint_path` with the
/// real file system around the original path (so `#exec` lines resolve against the corpus
/// tree), and for T3D the incremental document, hover and symbols.
#[test]
fn text_corpus_through_the_analysis() {
    let files = corpus_files(&["t3d", "uc", "uci"]);
    let options = LintOptions::default();
    let session = LintSession::new(&options);
    let mut count = 0;
    for (i, (path, rel)) in files.iter().enumerate() {
        let bytes = std::fs::read(path).unwrap();
        let kind = text_kind(rel);
        let (cuts, flips) = if bytes.len() > 20_000 { (8, 8) } else { (24, 24) };
        for (label, m) in mutations(&bytes, 0x7E7 + i as u64, cuts, flips) {
            let what = format!("{rel} {label}");
            let linted = guarded(&what, &m, || lint_file(kind, &m, &options));
            assert_diagnostics_placed(&linted.text, &linted.diagnostics, &what);
            let with_fs = guarded(&what, &m, || lint_path(kind, path, &m, &options, &session));
            assert_diagnostics_placed(&with_fs.text, &with_fs.diagnostics, &what);
            if kind == FileKind::T3d {
                guarded(&what, &m, || ide_pass(&linted.text, &options, i as u64));
            }
            count += 1;
        }
    }
    println!("{count} mutated text files through the analysis");
}

/// Symbols, hover at a few places, and the incremental document's diagnostics.
fn ide_pass(text: &str, options: &LintOptions, seed: u64) {
    use unreal_analysis::ide::t3d::{self as ide, NoPackages, Source};
    let mut doc = T3dDocument::new(text);
    let diagnostics = doc.diagnostics(options);
    assert_diagnostics_placed(text, &diagnostics, "incremental document");
    let parse = unreal_syntax::t3d::parse(text);
    let src = Source::detect(text, &parse, options.engine);
    let _ = ide::symbols::document_symbols(&src);
    let mut rng = Rng::new(seed);
    for _ in 0..5 {
        let offset = rng.below(text.len() + 2) as u32;
        let _ = ide::hover::hover(&src, offset, &NoPackages);
    }
}

/// The same text mutations through the real `unreal-ls lint --format json`, one process over
/// a folder of them: exit 0 or 1, valid JSON, every finding at a 1-based line and column.
#[test]
fn text_corpus_through_the_lint_command() {
    let files = corpus_files(&["t3d", "uc"]);
    if files.is_empty() {
        return;
    }
    let dir = TempDir::new("lint-mutations");
    let mut written = 0;
    for (i, (path, rel)) in files.iter().enumerate() {
        let bytes = std::fs::read(path).unwrap();
        let ext = Path::new(rel).extension().unwrap().to_str().unwrap();
        for (label, m) in mutations(&bytes, 0x11E + i as u64, 4, 4) {
            let name = format!("{}-{label}.{ext}", rel.replace(['/', '.'], "_"));
            std::fs::write(dir.path().join(name), &m).unwrap();
            written += 1;
        }
    }
    let output = std::process::Command::new(binary())
        .args(["lint", "--format", "json"])
        .arg(dir.path())
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    let code = output.status.code();
    assert!(
        matches!(code, Some(0 | 1)),
        "lint exited {code:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["files"], written);
    for d in report["diagnostics"].as_array().unwrap() {
        for key in ["line", "column", "end_line", "end_column"] {
            assert!(d[key].as_u64().is_some_and(|v| v >= 1), "{d}");
        }
        assert!(d["code"].is_string() && d["message"].is_string(), "{d}");
    }
    println!("{written} mutated text files through `unreal-ls lint`");
}
