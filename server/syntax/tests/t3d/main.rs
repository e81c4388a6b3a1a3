//! Snapshot tests of the T3D parser: every fixture in `fixtures/` is parsed and its tree and
//! errors compared with the `.tree` file beside it (`UPDATE_EXPECT=1` rewrites them).
#![allow(clippy::unwrap_used, clippy::expect_used)] // test helpers may panic on broken fixtures

use std::fmt::Write;
use std::path::{Path, PathBuf};

use unreal_syntax::t3d::{self, debug};
use unreal_syntax::text;

mod outline_pieces;

fn fixtures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/t3d/fixtures")
}

#[test]
fn fixtures_match_their_snapshots() {
    let mut count = 0;
    let mut entries: Vec<_> =
        std::fs::read_dir(fixtures_dir()).unwrap().map(|e| e.unwrap().path()).collect();
    entries.sort();
    for path in entries.into_iter().filter(|p| p.extension().is_some_and(|e| e == "t3d")) {
        let bytes = std::fs::read(&path).unwrap();
        let decoded = text::decode(&bytes);
        let parse = t3d::parse(&decoded.text);
        let rendered = debug::render(&decoded.text, &parse);
        expect_test::expect_file![path.with_extension("tree")].assert_eq(&rendered);
        count += 1;
    }
    assert!(count >= 9, "expected the fixtures, found {count}");
}

/// The same document in every encoding and line ending parses to the same tree (spans shift
/// by the CR bytes only, so the comparison is on the rendered tree without spans).
#[test]
fn every_encoding_and_line_ending_gives_the_same_tree() {
    let source = std::fs::read_to_string(fixtures_dir().join("map_ue1.t3d")).unwrap();
    let source = source.replace("\"Level Info", "\"Caf\u{e9} Info");
    let lf = source.replace("\r\n", "\n");
    let crlf = lf.replace('\n', "\r\n");
    let mut variants: Vec<(&str, Vec<u8>)> = Vec::new();
    for (name, body) in [("lf", &lf), ("crlf", &crlf)] {
        let utf8 = body.as_bytes().to_vec();
        let mut utf8_bom = b"\xEF\xBB\xBF".to_vec();
        utf8_bom.extend_from_slice(body.as_bytes());
        let mut utf16 = b"\xFF\xFE".to_vec();
        utf16.extend(body.encode_utf16().flat_map(u16::to_le_bytes));
        let cp1252: Vec<u8> = body.chars().map(|c| u8::try_from(u32::from(c)).unwrap()).collect();
        variants.push((name, utf8));
        variants.push((name, utf8_bom));
        variants.push((name, utf16));
        variants.push((name, cp1252));
    }
    let strip_spans =
        |s: &str| s.split_whitespace().filter(|w| !w.contains("..")).collect::<Vec<_>>().join(" ");
    let mut reference = None;
    for (name, bytes) in &variants {
        let decoded = text::decode(bytes);
        assert!(decoded.text.contains("Caf\u{e9}"), "{name} {:?}", decoded.encoding);
        let parse = t3d::parse(&decoded.text);
        assert!(parse.errors.is_empty(), "{name} {:?}: {:?}", decoded.encoding, parse.errors);
        let rendered = strip_spans(&debug::render(&decoded.text, &parse));
        match &reference {
            None => reference = Some(rendered),
            Some(r) => assert_eq!(r, &rendered, "{name} {:?}", decoded.encoding),
        }
    }
}

/// Binary garbage, hostile nesting and huge lines: no panic, bounded errors.
#[test]
fn hostile_inputs_do_not_panic() {
    // A fixed-seed xorshift stream of bytes, decoded as the CLI would.
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    let mut garbage = Vec::with_capacity(64 * 1024);
    for _ in 0..64 * 1024 {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        garbage.push((state >> 24) as u8);
    }
    let decoded = text::decode(&garbage);
    let parse = t3d::parse(&decoded.text);
    assert!(parse.errors.len() < 10_000);

    let deep = "Begin Object\n".repeat(10_000) + &"End Object\n".repeat(10_000);
    let parse = t3d::parse(&deep);
    let kinds: Vec<_> = parse.errors.iter().map(|e| e.kind).collect();
    assert_eq!(kinds, vec![t3d::SyntaxErrorKind::TooDeep]);

    // Actors never nest: each `Begin Actor` closes the one before it, so the first 9,999
    // are reported unclosed and all but one `End Actor` match nothing. Flat, not deep.
    let actors = "Begin Actor\n".repeat(10_000) + &"End Actor\n".repeat(10_000);
    let parse = t3d::parse(&actors);
    let count = |kind| parse.errors.iter().filter(|e| e.kind == kind).count();
    assert_eq!(count(t3d::SyntaxErrorKind::UnclosedBlock), 9_999);
    assert_eq!(count(t3d::SyntaxErrorKind::UnmatchedEnd), 9_999);
    assert_eq!(parse.errors.len(), 19_998);
    assert_eq!(parse.file.items.iter().filter(|i| i.as_block().is_some()).count(), 10_000);

    let long_line = format!("Begin Map\nTag=\"{}\"\nEnd Map\n", "x".repeat(1 << 20));
    let parse = t3d::parse(&long_line);
    assert!(parse.errors.is_empty());

    let nested_struct = format!("Begin Map\nA={}{}\nEnd Map\n", "(".repeat(5000), ")".repeat(5000));
    let parse = t3d::parse(&nested_struct);
    assert!(parse.errors.is_empty());
}

/// Parsing a range gives the same nodes, with absolute spans, as the whole document.
#[test]
fn parse_range_keeps_absolute_spans() {
    let source = std::fs::read_to_string(fixtures_dir().join("map_ue1.t3d")).unwrap();
    let whole = t3d::parse(&source);
    let map = whole.file.items[0].as_block().unwrap();
    let second = map.children[1].span();
    let part = t3d::parse_range(&source, second.start as usize, second.end as usize);
    assert!(part.errors.is_empty());
    assert_eq!(part.file.items[0], map.children[1]);
}

/// Every T3D file of the shared corpus parses without syntax errors.
#[test]
fn corpus_parses_without_errors() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/t3d");
    if !corpus.is_dir() {
        unreal_test_support::corpus::absent(&format!(
            "corpus folder {} is absent",
            corpus.display()
        ));
        return;
    }
    let mut files = Vec::new();
    collect(&corpus, &mut files);
    files.sort();
    let mut summary = String::new();
    for path in &files {
        let bytes = std::fs::read(path).unwrap();
        let decoded = text::decode(&bytes);
        let parse = t3d::parse(&decoded.text);
        let mut counts = std::collections::BTreeMap::new();
        count_blocks(&parse.file.items, &mut counts);
        let name = path.strip_prefix(&corpus).unwrap().display().to_string();
        let _ = writeln!(
            summary,
            "{name}: {:?}, {} errors, blocks {counts:?}",
            decoded.encoding,
            parse.errors.len()
        );
        assert!(parse.errors.is_empty(), "{name}: {:#?}", parse.errors);
    }
    expect_test::expect_file!["corpus_summary.txt"].assert_eq(&summary);
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            collect(&path, out);
        } else if path.extension().is_some_and(|e| e.eq_ignore_ascii_case("t3d")) {
            out.push(path);
        }
    }
}

fn count_blocks(items: &[t3d::Item], counts: &mut std::collections::BTreeMap<String, usize>) {
    for item in items {
        if let t3d::Item::Block(block) = item {
            *counts.entry(format!("{:?}", block.kind)).or_default() += 1;
            count_blocks(&block.children, counts);
        }
    }
}

/// The outline keeps the first two levels of a full parse's blocks exactly (what an editor
/// splits a map into), on every fixture (broken ones included) and every corpus file.
#[test]
fn outline_has_the_top_blocks_of_a_full_parse() {
    let texts = fixture_and_corpus_texts();
    assert!(texts.len() >= 10);
    for (name, text) in &texts {
        let (mut full, mut outline) = (Vec::new(), Vec::new());
        for item in &t3d::parse(text).file.items {
            shape(item, 1, &mut full);
        }
        for item in &t3d::outline(text).file.items {
            shape(item, 1, &mut outline);
        }
        assert_eq!(outline, full, "{name}");
    }
}

/// Every fixture (broken ones included) and every corpus map, by name.
fn fixture_and_corpus_texts() -> Vec<(String, String)> {
    let mut texts: Vec<(String, String)> = std::fs::read_dir(fixtures_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "t3d"))
        .map(|p| (p.display().to_string(), std::fs::read_to_string(&p).unwrap()))
        .collect();
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/t3d");
    if corpus.is_dir() {
        let mut files = Vec::new();
        collect(&corpus, &mut files);
        for path in files {
            let bytes = std::fs::read(&path).unwrap();
            let decoded = text::decode(&bytes);
            texts.push((path.display().to_string(), decoded.text.into_owned()));
        }
    } else {
        eprintln!("corpus folder {} is absent: only the fixtures are compared", corpus.display());
    }
    texts
}

/// Block lines and spans of an item and, for a block, of its children (not deeper).
fn shape(item: &t3d::Item, level: usize, out: &mut Vec<String>) {
    match item {
        t3d::Item::Block(block) => {
            out.push(format!(
                "{level} {:?} {:?} {:?} {:?} {:?} {:?}",
                block.kind,
                block.kind_span,
                block.begin_span,
                block.attributes,
                block.end,
                block.span
            ));
            if level < 2 {
                for child in &block.children {
                    shape(child, level + 1, out);
                }
            }
        }
        other => out.push(format!("{level} line {:?}", other.span())),
    }
}
