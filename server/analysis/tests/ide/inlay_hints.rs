use expect_test::{expect, Expect};
use unreal_analysis::ide::t3d::inlay_hints::inlay_hints;
use unreal_syntax::Span;

use crate::{Fixture, ROOM};

/// Shows the hints inline as `‹label›`.
fn check(fixture: &str, expect: Expect) {
    let f = Fixture::new(fixture);
    let range =
        if f.markers.len() >= 2 { f.selection() } else { Span::from_range(0..f.text.len()) };
    let hints = inlay_hints(&f.source(), range);
    let mut out = String::new();
    let mut at = 0;
    for h in &hints {
        out.push_str(&f.text[at..h.offset as usize]);
        out.push_str(&format!("‹{}›", h.label));
        at = h.offset as usize;
    }
    out.push_str(&f.text[at..]);
    let changed: Vec<&str> = out.lines().filter(|l| l.contains('‹')).map(str::trim).collect();
    expect.assert_eq(&changed.join("\n"));
}

#[test]
fn flags_and_vertex_counts() {
    check(
        ROOM,
        expect![[r#"
                      Begin Polygon Texture=Wall01 Flags=258‹PF_Masked | PF_TwoSided› Link=0‹4 vertices›
                      Begin Polygon Texture=Floor02‹4 vertices›"#]],
    );
}

#[test]
fn poly_flags_and_unknown_generation() {
    check(
        "Begin Actor Class=Brush Name=B\n   PolyFlags=4104\n   Settings CSG=CSG_Add PolyFlags=1\nBegin Polygon Flags=0\nEnd Polygon\nEnd Actor\n",
        expect![[r#"
            PolyFlags=4104‹PF_NotSolid | PF_BigWavy/PF_AlphaTexture›
            Settings CSG=CSG_Add PolyFlags=1‹PF_Invisible›
            Begin Polygon Flags=0‹0 vertices›"#]],
    );
}

#[test]
fn only_in_range() {
    let start = ROOM.find("Begin Polygon Texture=Floor02").unwrap();
    let fixture =
        format!("{}$0{}$0{}", &ROOM[..start], &ROOM[start..start + 5], &ROOM[start + 5..]);
    check(&fixture, expect!["Begin Polygon Texture=Floor02‹4 vertices›"]);
}
