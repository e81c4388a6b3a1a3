//! The tree-sitter grammar and the nom parser (the reference) agree on block structure: for
//! every T3D file of the shared corpus and every T3D fixture of the project, both find the
//! same blocks, with the same kinds, names and nesting, starting at the same byte and ending
//! at the same `End` line (or both finding the block unclosed). A disagreement names the file
//! and the first differing block.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};

use unreal_syntax::t3d::{self, BlockKind, Item};

/// One block as both parsers should see it.
#[derive(Debug, PartialEq, Eq)]
struct BlockShape {
    depth: usize,
    kind: String,
    name: Option<String>,
    start: usize,
    /// End of the `End` line's text, `None` when the block is never closed.
    end: Option<usize>,
}

fn nom_shapes(text: &str) -> Vec<BlockShape> {
    let parse = t3d::parse(text);
    let mut out = Vec::new();
    let mut stack: Vec<(std::slice::Iter<'_, Item>, usize)> = vec![(parse.file.items.iter(), 0)];
    while let Some((iter, depth)) = stack.last_mut() {
        let depth = *depth;
        match iter.next() {
            Some(Item::Block(block)) => {
                let kind = match block.kind {
                    BlockKind::Other => block.kind_span.text(text).to_ascii_lowercase(),
                    kind => format!("{kind:?}").to_ascii_lowercase(),
                };
                out.push(BlockShape {
                    depth,
                    kind,
                    // The name the import reads: `Name=` written together (`Name = X` is a
                    // key without a value here, and no name to UnrealEd).
                    name: block
                        .attribute_value(text, "Name")
                        .filter(|n| !n.is_empty())
                        .map(str::to_owned),
                    start: block.begin_span.start as usize,
                    end: block.end.map(|e| e.span.end as usize),
                });
                stack.push((block.children.iter(), depth + 1));
            }
            Some(_) => {}
            None => {
                stack.pop();
            }
        }
    }
    out
}

fn ts_shapes(text: &str) -> Vec<BlockShape> {
    let mut parser = tree_sitter::Parser::new();
    parser.set_language(&tree_sitter_t3d::LANGUAGE.into()).unwrap();
    let tree = parser.parse(text, None).unwrap();
    let mut out = Vec::new();
    walk(tree.root_node(), text, 0, &mut out);
    out
}

fn walk(node: tree_sitter::Node<'_>, text: &str, depth: usize, out: &mut Vec<BlockShape>) {
    let mut cursor = node.walk();
    for child in node.named_children(&mut cursor) {
        let kind = child.kind();
        if kind == "block" || kind.ends_with("_block") {
            let begin = child.child_by_field_name("begin").unwrap();
            let kind_node = begin.child_by_field_name("kind");
            let kind_name = match kind {
                "block" => kind_node.map_or("", |k| &text[k.byte_range()]).to_ascii_lowercase(),
                other => other.trim_end_matches("_block").replace('_', ""),
            };
            let mut begin_cursor = begin.walk();
            // The grammar (for editors) takes `Name = X` as a name too; UnrealEd's import
            // reads `NAME=` written together, as the other parser does.
            let name = begin
                .named_children(&mut begin_cursor)
                .find(|c| c.kind() == "name_attribute")
                .filter(|a| {
                    a.child_by_field_name("key")
                        .is_some_and(|k| text[k.end_byte()..].starts_with('='))
                })
                .and_then(|a| a.child_by_field_name("value"))
                .map(|v| text[v.byte_range()].to_owned());
            let end = child
                .child_by_field_name("end")
                .map(|e| e.start_byte() + text[e.byte_range()].trim_end().len());
            out.push(BlockShape { depth, kind: kind_name, name, start: begin.start_byte(), end });
            if let Some(body) = child.child_by_field_name("body") {
                walk(body, text, depth + 1, out);
            }
        }
    }
}

fn t3d_files() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut dirs = vec![
        root.join("examples"),
        root.join("server/syntax/tests/t3d/fixtures"),
        root.join("server/analysis/tests/rules/fixtures"),
    ];
    let corpus = root.join("../shared/corpus/t3d");
    if corpus.is_dir() {
        dirs.push(corpus);
    } else {
        eprintln!("skipping the corpus: {} is absent", corpus.display());
    }
    let mut files = Vec::new();
    for dir in dirs {
        collect(&dir, &mut files);
    }
    files.sort();
    files
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries {
        let path = entry.unwrap().path();
        if path.is_dir() {
            collect(&path, out);
        } else if path.extension().is_some_and(|e| e.eq_ignore_ascii_case("t3d")) {
            out.push(path);
        }
    }
}

#[test]
fn tree_sitter_and_nom_agree_on_block_structure() {
    let files = t3d_files();
    assert!(files.len() > 20, "expected the project's fixtures, found {}", files.len());
    let mut failures = Vec::new();
    for path in &files {
        let bytes = std::fs::read(path).unwrap();
        let text = unreal_syntax::text::decode(&bytes).text.into_owned();
        let nom = nom_shapes(&text);
        // By design the nom parser opens no block deeper than MAX_DEPTH (it reports
        // `t3d-nesting-too-deep` instead); the grammar has no such limit.
        let ts: Vec<_> =
            ts_shapes(&text).into_iter().filter(|b| b.depth < t3d::MAX_DEPTH).collect();
        if nom != ts {
            let first =
                nom.iter().zip(&ts).position(|(a, b)| a != b).unwrap_or(nom.len().min(ts.len()));
            failures.push(format!(
                "{}: first differing block #{first}:\n  nom:         {:?}\n  tree-sitter: {:?}\n  ({} blocks by nom, {} by tree-sitter)",
                path.display(),
                nom.get(first),
                ts.get(first),
                nom.len(),
                ts.len()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
