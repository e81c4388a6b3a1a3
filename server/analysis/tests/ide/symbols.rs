use expect_test::{expect, Expect};
use unreal_analysis::ide::symbols::{document_symbols, workspace_symbols, DocumentSymbol};

use crate::{show, Fixture, ROOM};

fn render(text: &str, symbols: &[DocumentSymbol], depth: usize, out: &mut String) {
    for s in symbols {
        out.push_str(&format!(
            "{}{:?} {:?} [{}] sel {}\n",
            "  ".repeat(depth),
            s.kind,
            s.name,
            s.detail.as_deref().unwrap_or("-"),
            show(text, s.selection_span)
        ));
        render(text, &s.children, depth + 1, out);
    }
}

fn check(fixture: &str, expect: Expect) {
    let f = Fixture::new(fixture);
    let mut out = String::new();
    render(&f.text, &document_symbols(&f.source()), 0, &mut out);
    expect.assert_eq(&out);
}

#[test]
fn outline_of_a_map() {
    check(
        ROOM,
        expect![[r#"
        Map "Map" [4 actors] sel 1:7..1:10 "Map"
          Actor "LevelInfo0" [LevelInfo] sel 2:34..2:44 "LevelInfo0"
          Actor "Light0" [Light] sel 7:30..7:36 "Light0"
          Actor "Light1" [Light] sel 14:30..14:36 "Light1"
          Actor "Brush0" [Brush] sel 18:30..18:36 "Brush0"
            Brush "Brush0" [Brush] sel 20:22..20:28 "Brush0"
              PolyList "PolyList" [2 polygons] sel 21:14..21:22 "PolyList"
                Polygon "Polygon 0" [Wall01, 4 vertices] sel 22:17..22:24 "Polygon"
                Polygon "Polygon 1" [Floor02, 4 vertices] sel 33:17..33:24 "Polygon"
    "#]],
    );
}

#[test]
fn outline_of_a_brush_export_and_odd_blocks() {
    check(
        "Begin PolyList\nBegin Polygon Texture=A.B.C\nVertex 0,0,0\nEnd Polygon\nEnd PolyList\nBegin Foo Name=Bar\nEnd Foo\nBegin Actor\n",
        expect![[r#"
            PolyList "PolyList" [1 polygon] sel 1:7..1:15 "PolyList"
              Polygon "Polygon 0" [A.B.C, 1 vertex] sel 2:7..2:14 "Polygon"
            Block "Foo Bar" [-] sel 6:16..6:19 "Bar"
            Actor "Actor" [-] sel 8:7..8:12 "Actor"
        "#]],
    );
}

#[test]
fn workspace_symbols_match_names_and_classes() {
    let f = Fixture::new(ROOM);
    let render = |query: &str| {
        workspace_symbols(&f.source(), query)
            .iter()
            .map(|s| format!("{} ({})", s.name, s.class.as_deref().unwrap_or("-")))
            .collect::<Vec<_>>()
            .join(", ")
    };
    expect!["Light1 (Light)"].assert_eq(&render("lt1"));
    expect!["Brush0 (Brush)"].assert_eq(&render("brush"));
    expect!["LevelInfo0 (LevelInfo), Light0 (Light), Light1 (Light), Brush0 (Brush)"]
        .assert_eq(&render(""));
}

#[test]
fn a_big_map_is_outlined_down_to_its_polygon_lists() {
    let map = unreal_mapgen::generate_map(5 << 20, 7);
    let f = Fixture::new(&map);
    let symbols = document_symbols(&f.source());
    let mut kinds = std::collections::BTreeMap::new();
    count(&symbols, &mut kinds);
    assert!(
        kinds["polygons in the lists"] > unreal_analysis::ide::symbols::OUTLINE_POLYGONS_UP_TO,
        "{kinds:?}"
    );
    assert!(!kinds.contains_key("Polygon"), "{kinds:?}");
    assert!(kinds["PolyList"] > 0 && kinds["Actor"] > 0, "{kinds:?}");
}

/// Counts symbols by kind, and the polygons the lists say they hold.
fn count(symbols: &[DocumentSymbol], kinds: &mut std::collections::BTreeMap<String, usize>) {
    for s in symbols {
        *kinds.entry(format!("{:?}", s.kind)).or_default() += 1;
        if let Some(n) = s.detail.as_deref().and_then(|d| d.strip_suffix(" polygons")) {
            *kinds.entry("polygons in the lists".to_owned()).or_default() +=
                n.parse::<usize>().unwrap();
        }
        count(&s.children, kinds);
    }
}
