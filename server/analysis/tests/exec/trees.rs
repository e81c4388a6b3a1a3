//! Fixture trees: each `fixtures/*.tree` describes a small game folder in memory. A line
//! `//- /Path/File.uc` starts a text file (the lines up to the next `//-` header; add `crlf`
//! to write CRLF line ends), `//- /Path/File_d.3d = mesh-data verts=4 tris=2 slots=1` a
//! binary file built by `build.rs`, `//- /Path/Link -> ../Target` a symbolic link (absolute or
//! relative to the link's folder), and `//- options engine=ue1 engine_build=436 game=ut99` sets the
//! lint options. `<<X*600>>` in text expands to 600 `X`s. Every `.uc` of the tree is linted
//! with the package around it, and the rendering is compared with `<name>.diagnostics`.

use std::collections::BTreeSet;
use std::fmt::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use unreal_analysis::exec::MemoryFs;
use unreal_analysis::lint::{lint_path, FileKind, LintOptions, LintSession};
use unreal_analysis::rules::EXEC_RULES;
use unreal_analysis::EngineSetting;

use crate::render::render;
use unreal_test_support::spec_files::build;

pub struct Tree {
    pub fs: MemoryFs,
    pub options: LintOptions,
}

fn expand(line: &str) -> String {
    let mut out = String::new();
    let mut rest = line;
    while let Some(start) = rest.find("<<") {
        out.push_str(&rest[..start]);
        let end = rest[start..].find(">>").unwrap() + start;
        let (ch, count) = rest[start + 2..end].split_once('*').unwrap();
        out.push_str(&ch.repeat(count.parse().unwrap()));
        rest = &rest[end + 2..];
    }
    out.push_str(rest);
    out
}

pub fn parse(source: &str) -> Tree {
    let mut fs = MemoryFs::new();
    let mut options = LintOptions::default();
    let mut current: Option<(PathBuf, bool, String)> = None;
    let flush = |fs: &mut MemoryFs, current: &mut Option<(PathBuf, bool, String)>| {
        if let Some((path, crlf, text)) = current.take() {
            let text = if crlf { text.replace('\n', "\r\n") } else { text };
            fs.insert(path, text.into_bytes());
        }
    };
    for line in source.split_inclusive('\n') {
        let Some(header) = line.strip_prefix("//- ") else {
            if let Some((_, _, text)) = &mut current {
                text.push_str(&expand(line));
            }
            continue;
        };
        flush(&mut fs, &mut current);
        let header = header.trim();
        if let Some(settings) = header.strip_prefix("options") {
            for setting in settings.split_whitespace() {
                let (key, value) = setting.split_once('=').unwrap();
                match key {
                    "engine" => options.engine = EngineSetting::parse(value).unwrap(),
                    "engine_build" => options.engine_build = Some(value.parse().unwrap()),
                    "game" => options.game = Some(unreal_analysis::Game::parse(value).unwrap()),
                    "game_dir" => options.game_dir = Some(PathBuf::from(value)),
                    _ => panic!("unknown option {key}"),
                }
            }
        } else if let Some((path, target)) = header.split_once(" -> ") {
            fs.link(path.trim(), target.trim());
        } else if let Some((path, spec)) = header.split_once(" = ") {
            fs.insert(path.trim(), build(spec));
        } else {
            let mut words = header.split_whitespace();
            let path = PathBuf::from(words.next().unwrap());
            let crlf = words.next() == Some("crlf");
            current = Some((path, crlf, String::new()));
        }
    }
    flush(&mut fs, &mut current);
    Tree { fs, options }
}

/// Lints every `.uc` of the tree; returns the rendering and the codes reported.
pub fn lint_tree(tree: Tree) -> (String, BTreeSet<&'static str>) {
    let ucs: Vec<(PathBuf, Vec<u8>)> = tree
        .fs
        .files()
        .filter(|(p, _)| p.extension().is_some_and(|e| e.eq_ignore_ascii_case("uc")))
        .map(|(p, b)| (p.to_path_buf(), b.to_vec()))
        .collect();
    let options = tree.options;
    let session = LintSession::with_fs(Arc::new(tree.fs), &options);
    let mut out = String::new();
    let mut codes = BTreeSet::new();
    for (path, bytes) in ucs {
        let linted = lint_path(FileKind::UnrealScript, &path, &bytes, &options, &session);
        let _ = writeln!(out, "== {}", path.display());
        out.push_str(&render(&linted.text, &linted.diagnostics, Path::new("/")));
        codes.extend(linted.diagnostics.iter().map(|d| d.code));
    }
    (out, codes)
}

fn fixtures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/exec/fixtures")
}

#[test]
fn trees_match_their_snapshots() {
    let mut paths: Vec<_> = std::fs::read_dir(fixtures_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "tree"))
        .collect();
    paths.sort();
    let mut seen = BTreeSet::new();
    for path in &paths {
        let source = std::fs::read_to_string(path).unwrap();
        let (rendered, codes) = lint_tree(parse(&source));
        seen.extend(codes);
        expect_test::expect_file![path.with_extension("diagnostics")].assert_eq(&rendered);
    }
    let missing: Vec<_> =
        EXEC_RULES.iter().map(|r| r.meta.code).filter(|c| !seen.contains(c)).collect();
    assert!(missing.is_empty(), "exec rules never shown firing by a fixture tree: {missing:?}");
}
