//! Acceptance over real files: hover names the flags of every `Flags=`, and every corpus T3D
//! gets symbols, folding, semantic tokens and formatting without panics; formatting keeps the
//! tree's structure and is idempotent.

use std::path::{Path, PathBuf};

use unreal_analysis::ide::t3d::formatting::{format, format_text, FormatOptions};
use unreal_analysis::ide::t3d::{self as ide, NoPackages, Source};
use unreal_analysis::EngineSetting;
use unreal_syntax::t3d::{Item, Parse};

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/t3d")
}

fn examples_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples")
}

fn t3d_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e.eq_ignore_ascii_case("t3d")) {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

fn read(path: &Path) -> String {
    unreal_syntax::text::decode(&std::fs::read(path).unwrap()).text.into_owned()
}

/// Hover on every `Flags=` value of a file; returns how many were checked.
fn hover_every_flags(text: &str) -> usize {
    let parse = unreal_syntax::t3d::parse(text);
    let src = Source::detect(text, &parse, EngineSetting::Auto);
    let mut checked = 0;
    let mut from = 0;
    while let Some(i) = text[from..].find("Flags=") {
        let at = from + i;
        from = at + 6;
        let is_attribute = text[..at].ends_with(' ') && !text[..at].ends_with("Poly");
        let Some(bits) =
            text[at + 6..].split_whitespace().next().and_then(unreal_syntax::t3d::parse_flags)
        else {
            continue;
        };
        if !is_attribute || bits == 0 {
            continue;
        }
        let hover =
            ide::hover::hover(&src, (at + 7) as u32, &NoPackages).expect("a hover on Flags=");
        for bit in unreal_engine::poly_flags::bits(bits) {
            let generation = src.generation.unwrap_or(unreal_analysis::Generation::Ue1);
            let name = unreal_engine::poly_flags::name(bit, generation);
            assert!(
                hover.markdown.contains(&name),
                "hover at {at} misses {name}: {}",
                hover.markdown
            );
        }
        checked += 1;
    }
    checked
}

#[test]
fn hover_names_the_flags_of_every_flags_value() {
    let mut files: Vec<PathBuf> =
        ["ue1/blender_t3d_test_map.t3d", "ue1/t3dpy_terraininfo_polygon_fragment.t3d"]
            .iter()
            .map(|f| corpus_dir().join(f))
            .filter(|p| {
                let exists = p.exists();
                if !exists {
                    unreal_test_support::corpus::absent(&format!(
                        "{}: the corpus file is absent",
                        p.display()
                    ));
                }
                exists
            })
            .collect();
    files.extend(t3d_files(&examples_dir().join("defects")));
    let mut total = 0;
    for path in files {
        let n = hover_every_flags(&read(&path));
        println!("{}: {n} Flags= hovers", path.display());
        total += n;
    }
    assert!(total > 0, "no Flags= value was found in the corpus or the examples");
}

/// The block structure of a tree: kinds and nesting, no spans.
fn structure(parse: &Parse) -> String {
    fn walk(items: &[Item], depth: usize, out: &mut String) {
        for item in items {
            let kind = match item {
                Item::Block(b) => {
                    out.push_str(&format!(
                        "{}{:?} {}\n",
                        " ".repeat(depth),
                        b.kind,
                        b.attributes.len()
                    ));
                    walk(&b.children, depth + 1, out);
                    continue;
                }
                Item::Property(_) => "property",
                Item::Vector(_) => "vector",
                Item::Keyword(_) => "keyword",
                Item::Unknown(_) => "unknown",
            };
            out.push_str(&format!("{}{kind}\n", " ".repeat(depth)));
        }
    }
    let mut out = String::new();
    walk(&parse.file.items, 0, &mut out);
    out
}

#[test]
fn every_corpus_file_gets_every_whole_document_feature() {
    let mut files = t3d_files(&corpus_dir());
    if files.is_empty() {
        unreal_test_support::corpus::absent(&format!(
            "the corpus: {} is absent",
            corpus_dir().display()
        ));
    }
    files.extend(t3d_files(&examples_dir()));
    for path in files {
        let text = read(&path);
        let parse = unreal_syntax::t3d::parse(&text);
        let src = Source::detect(&text, &parse, EngineSetting::Auto);
        let symbols = ide::symbols::document_symbols(&src);
        let folds = ide::folding::folding_ranges(&src);
        let tokens = ide::semantic_tokens::semantic_tokens(&src, None);
        assert!(
            tokens.windows(2).all(|w| w[0].span.end <= w[1].span.start),
            "{}: tokens overlap",
            path.display()
        );
        let _ = ide::inlay_hints::inlay_hints(&src, unreal_syntax::Span::from_range(0..text.len()));
        let _ =
            ide::code_actions::code_actions(&src, unreal_syntax::Span::from_range(0..text.len()));
        match format_text(&src, FormatOptions::default()) {
            Ok(formatted) => {
                let reparsed = unreal_syntax::t3d::parse(&formatted);
                assert!(
                    reparsed.errors.is_empty(),
                    "{}: formatting introduced errors",
                    path.display()
                );
                assert_eq!(
                    structure(&reparsed),
                    structure(&parse),
                    "{}: formatting changed the structure",
                    path.display()
                );
                let again = Source::detect(&formatted, &reparsed, EngineSetting::Auto);
                assert_eq!(
                    format(&again, FormatOptions::default()).unwrap(),
                    vec![],
                    "{}: not idempotent",
                    path.display()
                );
                println!(
                    "{}: {} symbols, {} folds, {} tokens, formatted",
                    path.display(),
                    symbols.len(),
                    folds.len(),
                    tokens.len()
                );
            }
            Err(e) => println!("{}: not formatted: {}", path.display(), e.reason),
        }
    }
}

/// `format_document` (one top-level block at a time, for the server's whole-document
/// formatting) gives the same text as [`format`] of the whole tree, and refuses the same
/// documents, on every corpus map, the examples and the rule fixtures, as they are and with
/// their layout destroyed (indentation removed, blank lines added, keywords upper-cased).
#[test]
fn format_document_equals_formatting_the_whole_tree() {
    use unreal_analysis::ide::t3d::formatting::{apply_edits, format_document};
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/rules/fixtures");
    let mut files = t3d_files(&corpus_dir());
    files.extend(t3d_files(&examples_dir()));
    files.extend(t3d_files(&fixtures));
    assert!(files.len() > 20, "{} files", files.len());
    let mut compared = 0;
    for path in &files {
        let original = read(path);
        let messy: String = original
            .lines()
            .map(|l| format!("{}\n\n", l.trim_start().replacen("Begin ", "BEGIN ", 1)))
            .collect();
        for text in [original.as_str(), messy.as_str()] {
            let parse = unreal_syntax::t3d::parse(text);
            let src = Source::new(text, &parse, None);
            let whole = format(&src, FormatOptions::default()).map(|e| apply_edits(text, &e));
            let streamed =
                format_document(text, FormatOptions::default()).map(|e| apply_edits(text, &e));
            match (&whole, &streamed) {
                (Ok(a), Ok(b)) => assert!(a == b, "{}: the formatted texts differ", path.display()),
                (Err(_), Err(_)) => {}
                _ => panic!(
                    "{}: one refuses, the other not: {:?} / {:?}",
                    path.display(),
                    whole.as_ref().err().map(|e| &e.reason),
                    streamed.as_ref().err().map(|e| &e.reason)
                ),
            }
            compared += 1;
        }
    }
    assert!(compared >= 2 * files.len());
}
