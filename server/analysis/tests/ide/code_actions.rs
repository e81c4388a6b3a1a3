use expect_test::{expect, Expect};
use unreal_analysis::ide::t3d::code_actions::code_actions;
use unreal_analysis::ide::t3d::formatting::apply_edits;

use crate::{Fixture, ROOM};

/// Applies the action whose title starts with `apply` and shows the lines it changed.
fn check(fixture: &str, apply: &str, expect: Expect) {
    let f = Fixture::new(fixture);
    let actions = code_actions(&f.source(), f.selection());
    let mut out = String::new();
    match actions.iter().find(|a| a.title.starts_with(apply)) {
        Some(action) => {
            out.push_str(&format!("{:?}: {}\n", action.kind, action.title));
            let after = apply_edits(&f.text, &action.edits);
            for (new, old) in after.lines().zip(f.text.lines()) {
                if new != old {
                    out.push_str(new.trim());
                    out.push('\n');
                }
            }
        }
        None => out.push_str("no such action\n"),
    }
    expect.assert_eq(&out);
}

/// The titles of every action offered.
fn check_titles(fixture: &str, expect: Expect) {
    let f = Fixture::new(fixture);
    let out: String = code_actions(&f.source(), f.selection())
        .iter()
        .map(|a| format!("{:?}: {}\n", a.kind, a.title))
        .collect();
    expect.assert_eq(&out);
}

const TILTED: &str = "\
Begin PolyList
   Begin Polygon Texture=Floor Flags=256 Link=2
      Origin   +00000.300000,+00000.000000,+00000.000000
      Normal   +00000.000000,+00000.000000,+00001.000000
      Vertex   +00000.300000,+00000.000000,+00000.000000
      Vertex   +00000.000000,+00063.700000,+00000.000000
      Vertex   +00064.000000,+00064.000000,+00000.000000
      Vertex   +00064.000000,+00000.000000,+00000.000000
   End Polygon
   Begin Polygon Texture=Wall
      Vertex   +00000.000000,+00000.000000,+00000.000000
      Vertex   +00000.000000,+00000.000000,+00064.000000
      Vertex   +00000.000000,+00064.000000,+00064.000000
   End Polygon
End PolyList
";

#[test]
fn actions_on_the_polygon_at_the_cursor() {
    let i = TILTED.find("Vertex").unwrap();
    let fixture = format!("{}$0{}", &TILTED[..i], &TILTED[i..]);
    check_titles(
        &fixture,
        expect![[r#"
        Quickfix: Recompute the normal of 1 polygon
        Refactor: Reverse the winding of 1 polygon
        Refactor: Snap 2 vertices of 1 polygon to grid 1
        Refactor: Snap 2 vertices of 1 polygon to grid 2
        Refactor: Snap 2 vertices of 1 polygon to grid 4
        Refactor: Snap 2 vertices of 1 polygon to grid 8
        Refactor: Snap 2 vertices of 1 polygon to grid 16
        Refactor: Set PF_Invisible on 1 polygon
        Refactor: Set PF_Masked on 1 polygon
        Refactor: Set PF_Translucent on 1 polygon
        Refactor: Set PF_NotSolid on 1 polygon
        Refactor: Set PF_Environment on 1 polygon
        Refactor: Set PF_Semisolid on 1 polygon
        Refactor: Set PF_Modulated on 1 polygon
        Refactor: Set PF_FakeBackdrop on 1 polygon
        Refactor: Clear PF_TwoSided on 1 polygon
        Refactor: Set PF_AutoUPan on 1 polygon
        Refactor: Set PF_AutoVPan on 1 polygon
        Refactor: Set PF_NoSmooth on 1 polygon
        Refactor: Set PF_BigWavy on 1 polygon
        Refactor: Set PF_SmallWavy on 1 polygon
        Refactor: Set PF_Flat on 1 polygon
        Refactor: Set PF_LowShadowDetail on 1 polygon
        Refactor: Set PF_NoMerge on 1 polygon
        Refactor: Set PF_CloudWavy on 1 polygon
        Refactor: Set PF_DirtyShadows on 1 polygon
        Refactor: Set PF_BrightCorners on 1 polygon
        Refactor: Set PF_SpecialLit on 1 polygon
        Refactor: Set PF_Gouraud on 1 polygon
        Refactor: Set PF_Unlit on 1 polygon
        Refactor: Set PF_HighShadowDetail on 1 polygon
        Refactor: Set PF_Portal on 1 polygon
        Refactor: Set PF_Mirrored on 1 polygon
    "#]],
    );
    check(
        &fixture,
        "Recompute",
        expect![[r#"
        Quickfix: Recompute the normal of 1 polygon
        Normal   +00000.000000,+00000.000000,-00001.000000
    "#]],
    );
    check(
        &fixture,
        "Reverse",
        expect![[r#"
        Refactor: Reverse the winding of 1 polygon
        Vertex   +00064.000000,+00000.000000,+00000.000000
        Vertex   +00064.000000,+00064.000000,+00000.000000
        Vertex   +00000.000000,+00063.700000,+00000.000000
        Vertex   +00000.300000,+00000.000000,+00000.000000
    "#]],
    );
    check(
        &fixture,
        "Snap 2 vertices of 1 polygon to grid 16",
        expect![[r#"
        Refactor: Snap 2 vertices of 1 polygon to grid 16
        Origin   +00000.000000,+00000.000000,+00000.000000
        Normal   +00000.000000,+00000.000000,-00001.000000
        Vertex   +00000.000000,+00000.000000,+00000.000000
        Vertex   +00000.000000,+00064.000000,+00000.000000
    "#]],
    );
    check(
        &fixture,
        "Clear PF_TwoSided",
        expect![[r#"
        Refactor: Clear PF_TwoSided on 1 polygon
        Begin Polygon Texture=Floor Link=2
    "#]],
    );
}

#[test]
fn set_flag_on_every_polygon_in_the_selection() {
    let fixture = format!("$0{TILTED}$0");
    check(
        &fixture,
        "Set PF_TwoSided",
        expect![[r#"
        Refactor: Set PF_TwoSided on 1 polygon
        Begin Polygon Texture=Wall Flags=256
    "#]],
    );
    check(
        &fixture,
        "Set PF_Masked",
        expect![[r#"
        Refactor: Set PF_Masked on 2 polygons
        Begin Polygon Texture=Floor Flags=258 Link=2
        Begin Polygon Texture=Wall Flags=2
    "#]],
    );
}

#[test]
fn nothing_outside_polygons() {
    let i = ROOM.find("LightHue").unwrap();
    check_titles(&format!("{}$0{}", &ROOM[..i], &ROOM[i..]), expect![[r#""#]]);
}
