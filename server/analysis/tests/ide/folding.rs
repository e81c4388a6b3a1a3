use expect_test::{expect, Expect};
use unreal_analysis::ide::t3d::folding::folding_ranges;

use crate::{pos, Fixture, ROOM};

fn check(fixture: &str, expect: Expect) {
    let f = Fixture::new(fixture);
    let out: String = folding_ranges(&f.source())
        .iter()
        .map(|r| {
            format!(
                "{}..{} {:?}\n",
                pos(&f.text, r.span.start),
                pos(&f.text, r.span.end),
                r.collapsed_text
            )
        })
        .collect();
    expect.assert_eq(&out);
}

#[test]
fn every_multi_line_block() {
    check(
        ROOM,
        expect![[r#"
        1:1..44:8 "Begin Map"
        2:1..6:10 "Begin Actor Class=LevelInfo Name=LevelInfo0"
        7:1..13:10 "Begin Actor Class=Light Name=Light0"
        14:1..17:10 "Begin Actor Class=Light Name=Light1"
        18:1..43:10 "Begin Actor Class=Brush Name=Brush0"
        20:5..42:14 "Begin Brush Name=Brush0"
        21:8..41:20 "Begin PolyList"
        22:11..32:22 "Begin Polygon Texture=Wall01 Flags=258 Link=0"
        33:11..40:22 "Begin Polygon Texture=Floor02"
    "#]],
    );
}

#[test]
fn unclosed_and_single_line_blocks() {
    check(
        "Begin Actor Class=A\nBegin Brush\nEnd Brush\n   X=1\n",
        expect![[r#"
        1:1..4:7 "Begin Actor Class=A"
        2:1..3:10 "Begin Brush"
    "#]],
    );
}
