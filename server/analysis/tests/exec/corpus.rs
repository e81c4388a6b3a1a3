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
        unreal_test_support::corpus::absent(&format!("corpus folder {} is absent", dir.display()));
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
            (name, linted.text.into_string(), linted.diagnostics)
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

fn find<'a>(
    linted: &'a [(String, String, Vec<Diagnostic>)],
    name: &str,
) -> &'a (String, String, Vec<Diagnostic>) {
    linted.iter().find(|(n, _, _)| n == name).unwrap()
}

fn has(diagnostics: &[Diagnostic], code: &str, text: &str) -> bool {
    diagnostics.iter().any(|d| d.code == code && d.message.contains(text))
}

/// The facts issue 4 names for `Ut99Mods/HeadHunter`.
#[test]
fn headhunter() {
    let Some(root) = corpus() else { return };
    let linted = lint_all(&root, &LintOptions::default());

    let (_, text, item) = find(&linted, "Ut99Mods/HeadHunter/Classes/SkullItem.uc");
    assert!(has(item, "exec-path-case", "`MODELS\\Skull\\Skull_a.3D`"), "{item:#?}");
    assert!(has(item, "exec-path-case", "`Models\\Skull\\Skull_a.3d`"));
    // `X=0 Y=0 Z=0` is not read and could change nothing: one hint, tagged unnecessary.
    let xyz: Vec<_> = item.iter().filter(|d| d.code == "exec-ignored-key").collect();
    assert_eq!(xyz.len(), 1, "{xyz:#?}");
    assert!(xyz[0].message.contains("`X=0 Y=0 Z=0`") && xyz[0].unnecessary, "{xyz:#?}");
    assert_eq!(xyz[0].severity, Severity::Hint);
    // LODPARAMS (a LOD mesh by default), SETTEXTURE NUM=1 (the triangles use slot 1), the
    // textures and the sounds are right.
    let allowed = ["exec-path-case", "exec-ignored-key"];
    let others: Vec<_> = item.iter().filter(|d| !allowed.contains(&d.code)).collect();
    assert!(others.is_empty(), "{others:#?}");
    assert!(text.contains("#exec MESH LODPARAMS MESH=Skull"));

    // Outside Classes/: never compiled, its names do not clash with the package's.
    let (_, skull_text, skull) = find(&linted, "Ut99Mods/HeadHunter/Models/Skull/Skull.uc");
    // Said once for the file's paths (the same cause for each), at the first.
    let missing: Vec<_> = skull.iter().filter(|d| d.code == "exec-missing-file").collect();
    assert_eq!(missing.len(), 1, "{missing:#?}");
    assert_eq!(missing[0].span.text(skull_text), "texture1.pcx");
    assert!(missing[0].message.contains("outside Classes/"), "{missing:#?}");
    assert!(has(skull, "exec-duplicate-name", "`Jtex1`"));
    assert!(has(skull, "exec-ignored-key", "`PALETTE="));
    let unresolved: Vec<_> = skull.iter().filter(|d| d.code == "exec-unresolved-path").collect();
    assert_eq!(unresolved.len(), 2);
    for d in unresolved {
        let hint = d.labels.iter().find_map(|l| l.file.as_ref()).unwrap();
        assert!(
            hint.ends_with("Models/Skull/Skull_a.3d") || hint.ends_with("Models/Skull/Skull_d.3d")
        );
    }
    assert!(skull.iter().all(|d| d.severity <= Severity::Warning));
    assert!(!skull.iter().any(|d| d.code == "exec-duplicate-name" && d.message.contains("Skull`")));
}

/// The C4 mod's 24-bit BMPs: UT v400 and later builds import them (`UnEdFact.cpp`, 24-bit
/// branch), Unreal v1.200-era builds read only 8-bit palettized images.
#[test]
fn image_types_follow_the_engine_build() {
    let Some(root) = corpus() else { return };
    let count = |build: Option<u32>| {
        let options = LintOptions { engine_build: build, ..LintOptions::default() };
        let linted = lint_all(&root, &options);
        let (_, _, c4) = find(&linted, "Ut99Mods/C4/Classes/C4Weapon.uc");
        c4.iter().filter(|d| d.code == "exec-texture-unimportable").count()
    };
    assert_eq!(count(None), 0);
    assert_eq!(count(Some(469)), 0);
    assert_eq!(count(Some(436)), 0);
    assert_eq!(count(Some(226)), 27, "every TEXTURE IMPORT of C4Weapon.uc");
}
