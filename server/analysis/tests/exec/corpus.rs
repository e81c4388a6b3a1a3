//! The real mods in `shared/corpus/uc`: every `.uc` linted as `unreal-ls lint` does (with the
//! package around it), a snapshot of everything reported, no error-level finding except the
//! real defects listed here, and the `HeadHunter` facts the issue names.

use std::fmt::Write;
use std::path::{Path, PathBuf};

use unreal_analysis::lint::{lint_path, FileKind, LintOptions, LintSession};
use unreal_analysis::{Diagnostic, Severity};

use crate::render::render;

fn corpus() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/uc");
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!("skipping: corpus folder {} is absent", dir.display());
        None
    }
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            collect(&path, out);
        } else if path.extension().is_some_and(|e| e.eq_ignore_ascii_case("uc")) {
            out.push(path);
        }
    }
}

fn lint_all(root: &Path, options: &LintOptions) -> Vec<(String, String, Vec<Diagnostic>)> {
    let session = LintSession::new(options);
    let mut files = Vec::new();
    collect(root, &mut files);
    files.sort();
    files
        .iter()
        .map(|path| {
            let bytes = std::fs::read(path).unwrap();
            let linted = lint_path(FileKind::UnrealScript, path, &bytes, options, &session);
            let name = path.strip_prefix(root).unwrap().display().to_string().replace('\\', "/");
            (name, linted.text, linted.diagnostics)
        })
        .collect()
}

/// Errors that are real defects of the corpus: these packages import `texture1.pcx`, which
/// their exporter's template names but nobody shipped.
const REAL_ERRORS: &[(&str, &str, &str)] = &[
    ("assimp_box/Classes/box.uc", "exec-missing-file", "texture1.pcx"),
    ("assimp_mar_rifle/Classes/mar_rifle.uc", "exec-missing-file", "texture1.pcx"),
];

#[test]
fn corpus_has_no_false_errors() {
    let Some(root) = corpus() else { return };
    let linted = lint_all(&root, &LintOptions::default());
    let mut out = String::new();
    for (name, text, diagnostics) in &linted {
        let _ = writeln!(out, "== {name}");
        out.push_str(&render(text, diagnostics, &root));
        for d in diagnostics.iter().filter(|d| d.severity == Severity::Error) {
            let known = REAL_ERRORS.iter().any(|(file, code, what)| {
                file == name && *code == d.code && d.message.contains(what)
            });
            assert!(known, "{name}: unexpected error {d:#?}");
        }
    }
    expect_test::expect_file!["corpus.diagnostics"].assert_eq(&out);
}
