use expect_test::{expect, Expect};
use unreal_analysis::ide::t3d::symbols::{document_symbols, workspace_symbols, DocumentSymbol};

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
              Actor(Other) "LevelInfo0" [LevelInfo] sel 2:34..2:44 "LevelInfo0"
              Actor(Named(Light)) "Light0" [Light] sel 7:30..7:36 "Light0"
              Actor(Named(Light)) "Light1" [Light] sel 14:30..14:36 "Light1"
              Actor(BuilderBrush) "Brush0" [Brush, builder brush, 2 polygons] sel 18:30..18:36 "Brush0"
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
            Actor(Other) "Actor" [-] sel 8:7..8:12 "Actor"
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
fn a_clipboard_dump_of_actors_shows_their_polygons_and_kinds() {
    // What UnrealEd puts on the clipboard for selected actors: no map around them.
    check(
        "Begin Actor Class=Brush Name=Brush3\n CsgOper=CSG_Subtract\n Begin Brush Name=Model5\n  Begin PolyList\n   Begin Polygon\n   End Polygon\n  End PolyList\n End Brush\nEnd Actor\nBegin Actor Class=Mover Name=Mover0\n Begin Brush Name=Model6\n  Begin PolyList\n  End PolyList\n End Brush\nEnd Actor\nBegin Actor Class=UnrealShare.TriggerLight Name=TriggerLight0\nEnd Actor\nBegin Actor Class=Brush Name=Brush0\nEnd Actor\n",
        expect![[r#"
            Actor(Brush) "Brush3" [Brush, Subtract, 1 polygon] sel 1:30..1:36 "Brush3"
              Brush "Model5" [Brush] sel 3:19..3:25 "Model5"
                PolyList "PolyList" [1 polygon] sel 4:9..4:17 "PolyList"
                  Polygon "Polygon 0" [0 vertices] sel 5:10..5:17 "Polygon"
            Actor(Named(Mover)) "Mover0" [Mover, 0 polygons] sel 10:30..10:36 "Mover0"
              Brush "Model6" [Brush] sel 11:19..11:25 "Model6"
                PolyList "PolyList" [0 polygons] sel 12:9..12:17 "PolyList"
            Actor(Named(Light)) "TriggerLight0" [UnrealShare.TriggerLight] sel 16:49..16:62 "TriggerLight0"
            Actor(BuilderBrush) "Brush0" [Brush, builder brush, 0 polygons] sel 18:30..18:36 "Brush0"
        "#]],
    );
}

#[test]
fn a_big_map_is_outlined_down_to_its_actors() {
    let map = unreal_mapgen::generate_map(5 << 20, 7);
    let f = Fixture::new(&map);
    let symbols = document_symbols(&f.source());
    let mut kinds = std::collections::BTreeMap::new();
    count(&symbols, &mut kinds);
    let actors = map.lines().filter(|l| l.trim_start().starts_with("Begin Actor")).count();
    let polygons = map.lines().filter(|l| l.trim_start().starts_with("Begin Polygon")).count();
    // One map, its actors, nothing inside them; the brushes' details count every polygon.
    assert_eq!(symbols.len(), 1, "{kinds:?}");
    assert_eq!(symbols[0].children.len(), actors, "{kinds:?}");
    assert!(symbols[0].children.iter().all(|a| a.children.is_empty()), "{kinds:?}");
    assert_eq!(kinds["polygons in the details"], polygons, "{kinds:?}");
}

/// Counts symbols by kind, and the polygons the lists say they hold.
fn count(symbols: &[DocumentSymbol], kinds: &mut std::collections::BTreeMap<String, usize>) {
    for s in symbols {
        *kinds.entry(format!("{:?}", s.kind)).or_default() += 1;
        let counted = s.detail.as_deref().and_then(|d| d.rsplit(", ").next());
        let counted =
            counted.and_then(|d| d.strip_suffix(" polygons").or(d.strip_suffix(" polygon")));
        if let Some(n) = counted {
            *kinds.entry("polygons in the details".to_owned()).or_default() +=
                n.parse::<usize>().unwrap();
        }
        count(&s.children, kinds);
    }
}
