//! The tree-sitter grammar for T3D, UnrealEd's text export of maps, brushes and actors
//! (Unreal Engine 1 and 2), for editors: highlighting, folds, text objects.
//!
//! ```
//! let mut parser = tree_sitter::Parser::new();
//! parser.set_language(&tree_sitter_t3d::LANGUAGE.into()).expect("ABI matches");
//! let tree = parser.parse("Begin Polygon\nVertex 1,2,3\nEnd Polygon\n", None).expect("parsed");
//! assert_eq!(tree.root_node().child(0).map(|n| n.kind()), Some("polygon_block"));
//! ```
//!
//! Blocks are `<kind>_block` nodes for the known kinds (`map`, `level`, `actor`, `brush`,
//! `polylist`, `polygon`, `object`, `surface`, `terrain`, `static_mesh`, `triangle`) and
//! `block` for any other `Begin X ... End X`; each has the fields `begin` (a `begin_line`
//! with `kind`, `name_attribute`, `class_attribute` and `attribute` children), `body` (a
//! `block_body`) and `end` (an `end_line`), or a `missing_end` child instead of `end` when its
//! end line is missing. See `src/node-types.json` ([`NODE_TYPES`]) for every node.

// The generated C parser is reached through its one exported function; this is the only
// unsafe code, the same two lines that `tree-sitter init` writes for every grammar.
#![allow(unsafe_code)]

use tree_sitter_language::LanguageFn;

unsafe extern "C" {
    fn tree_sitter_t3d() -> *const ();
}

/// The tree-sitter [`LanguageFn`] for T3D: `parser.set_language(&LANGUAGE.into())`.
pub const LANGUAGE: LanguageFn = unsafe { LanguageFn::from_raw(tree_sitter_t3d) };

/// The content of `src/node-types.json`: every node kind, its fields and children.
pub const NODE_TYPES: &str = include_str!("../../src/node-types.json");

/// The highlight query (`queries/highlights.scm`, Neovim capture names).
pub const HIGHLIGHTS_QUERY: &str = include_str!("../../queries/highlights.scm");

/// The fold query (`queries/folds.scm`): every block folds.
pub const FOLDS_QUERY: &str = include_str!("../../queries/folds.scm");

/// The locals query (`queries/locals.scm`).
pub const LOCALS_QUERY: &str = include_str!("../../queries/locals.scm");

#[cfg(test)]
mod tests {
    use std::fmt::Write as _;

    use expect_test::expect;
    use tree_sitter::{Node, Parser, Query};

    fn parse(text: &str) -> tree_sitter::Tree {
        let mut parser = Parser::new();
        parser
            .set_language(&super::LANGUAGE.into())
            .expect("the generated parser's ABI is supported");
        parser.parse(text, None).expect("a parser with a language always returns a tree")
    }

    /// The block structure: one line per block, indented by depth, with its `Name=` value
    /// and whether its end line is there.
    fn outline(text: &str) -> String {
        fn walk(node: Node<'_>, text: &str, depth: usize, out: &mut String) {
            let is_block = node.kind().ends_with("_block") || node.kind() == "block";
            let mut child_depth = depth;
            if is_block {
                let begin = node.child_by_field_name("begin");
                let kind = begin.and_then(|b| b.child_by_field_name("kind"));
                let name = begin.and_then(|b| {
                    let mut cursor = b.walk();
                    let found =
                        b.named_children(&mut cursor).find(|c| c.kind() == "name_attribute");
                    found.and_then(|n| n.child_by_field_name("value"))
                });
                let slice = |n: Option<Node<'_>>| n.map_or("-", |n| &text[n.byte_range()]);
                let end = if node.child_by_field_name("end").is_some() { "" } else { " (no end)" };
                let _ = writeln!(
                    out,
                    "{:indent$}{} {} {}{end}",
                    "",
                    node.kind(),
                    slice(kind),
                    slice(name),
                    indent = depth * 2
                );
                child_depth += 1;
            }
            let mut cursor = node.walk();
            for child in node.named_children(&mut cursor) {
                walk(child, text, child_depth, out);
            }
        }
        let tree = parse(text);
        let mut out = String::new();
        walk(tree.root_node(), text, 0, &mut out);
        if tree.root_node().has_error() {
            out.push_str("has errors\n");
        }
        out
    }

    #[test]
    fn parses_a_map_into_blocks() {
        let text = "Begin Map\r\nBegin Actor Class=Brush Name=Brush0\r\n   Begin Brush Name=Model1\r\n      Begin PolyList\r\n         Begin Polygon Flags=-2147483648\r\n            Vertex +00001.000000,-00002.000000,+00003.000000\r\n         End Polygon\r\n      End PolyList\r\n   End Brush\r\n   Location=(X=1.0,Y=2.0)\r\nEnd Actor\r\nBegin Foo Name=X\r\nEnd Foo\r\nEnd Map\r\n";
        expect![[r"
            map_block Map -
              actor_block Actor Brush0
                brush_block Brush Model1
                  polylist_block PolyList -
                    polygon_block Polygon -
              block Foo X
        "]]
        .assert_eq(&outline(text));
    }

    #[test]
    fn a_missing_end_line_damages_only_its_block() {
        let text = "begin polylist\n  begin polygon\n    vertex 1,2,3\n  begin polygon\n  end polygon\nend polylist\nbegin actor name=A\nend actor\n";
        expect![[r"
            polylist_block polylist -
              polygon_block polygon - (no end)
                polygon_block polygon -
            actor_block actor A
        "]]
        .assert_eq(&outline(text));
    }

    /// Editors re-parse after every edit from the old tree; with the scanner's stack of open
    /// blocks in play, that must give the same tree as a parse from scratch.
    #[test]
    fn incremental_reparse_equals_a_fresh_parse() {
        let base = "Begin Map\nBegin Actor Name=A\n   Begin Brush\n      Begin PolyList\n         Begin Polygon\n            Vertex 1,2,3\n         End Polygon\n      End PolyList\n   End Brush\nEnd Actor\nBegin Actor Name=B\nEnd Actor\nEnd Map\n";
        let line_starts: Vec<usize> =
            std::iter::once(0).chain(base.match_indices('\n').map(|(i, _)| i + 1)).collect();
        let insertions =
            ["Begin Polygon\n", "End PolyList\n", "End Actor\n", "Begin Foo\n", "x=1\n"];
        let mut mismatches = Vec::new();
        for (row, &at) in line_starts.iter().enumerate() {
            for inserted in insertions {
                let edited = format!("{}{inserted}{}", &base[..at], &base[at..]);
                let mut parser = Parser::new();
                parser.set_language(&super::LANGUAGE.into()).expect("ABI supported");
                let mut old = parser.parse(base, None).expect("tree");
                old.edit(&tree_sitter::InputEdit {
                    start_byte: at,
                    old_end_byte: at,
                    new_end_byte: at + inserted.len(),
                    start_position: tree_sitter::Point::new(row, 0),
                    old_end_position: tree_sitter::Point::new(row, 0),
                    new_end_position: tree_sitter::Point::new(row + 1, 0),
                });
                let incremental = parser.parse(&edited, Some(&old)).expect("tree");
                let fresh = parse(&edited);
                if incremental.root_node().to_sexp() != fresh.root_node().to_sexp() {
                    mismatches.push(format!("{inserted:?} at line {row}"));
                }
            }
        }
        assert!(mismatches.is_empty(), "incremental parse differs: {mismatches:?}");
    }

    #[test]
    fn queries_compile_against_the_grammar() {
        let language = super::LANGUAGE.into();
        for (name, source) in [
            ("highlights", super::HIGHLIGHTS_QUERY),
            ("folds", super::FOLDS_QUERY),
            ("locals", super::LOCALS_QUERY),
            ("indents", include_str!("../../queries/indents.scm")),
            ("textobjects", include_str!("../../queries/textobjects.scm")),
        ] {
            let query = Query::new(&language, source);
            assert!(query.is_ok(), "{name}.scm: {:?}", query.err());
        }
    }
}
