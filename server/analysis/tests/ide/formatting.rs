use expect_test::{expect, Expect};
use unreal_analysis::ide::t3d::formatting::{
    format, format_range, format_text, FormatOptions, LineEnding,
};

use crate::Fixture;

fn check(fixture: &str, expect: Expect) {
    let f = Fixture::new(fixture);
    let src = f.source();
    let actual = match f.markers.len() {
        0 => match format_text(&src, FormatOptions { line_ending: Some(LineEnding::Lf) }) {
            Ok(text) => text,
            Err(e) => format!("error: {}\n", e.reason),
        },
        _ => match format_range(&src, f.selection(), FormatOptions::default()) {
            Ok(edits) => unreal_analysis::ide::t3d::formatting::apply_edits(&f.text, &edits),
            Err(e) => format!("error: {}\n", e.reason),
        },
    };
    expect.assert_eq(&actual);
}

const MESSY: &str = "\
begin map
  BEGIN Actor   Class=Brush Name=Brush0

   Location=(X=16.000000)
 Begin Brush Name=Brush0
Begin PolyList
 begin polygon Texture=Wall01 Flags=3221225474   Link=0
origin 0,0,0
  NORMAL   -1,0,0
        Pan U=3 V=-2
  TextureU 0,1,0
    TextureV 0,0,-1
 vertex -128,-128.5,-128.123456789
     Vertex   -128,-128,128
 Vertex  -128,128,128
  end polygon
  End PolyList
  End Brush
 end actor
END MAP
";

#[test]
fn canonical_layout() {
    check(
        MESSY,
        expect![[r#"
        Begin Map
        Begin Actor Class=Brush Name=Brush0
           Location=(X=16.000000)
           Begin Brush Name=Brush0
              Begin PolyList
                 Begin Polygon Texture=Wall01 Flags=-1073741822 Link=0
                    Origin   +00000.000000,+00000.000000,+00000.000000
                    Normal   -00001.000000,+00000.000000,+00000.000000
                    Pan      U=3 V=-2
                    TextureU +00000.000000,+00001.000000,+00000.000000
                    TextureV +00000.000000,+00000.000000,-00001.000000
                    Vertex   -00128.000000,-00128.500000,-00128.123457
                    Vertex   -00128.000000,-00128.000000,+00128.000000
                    Vertex   -00128.000000,+00128.000000,+00128.000000
                 End Polygon
              End PolyList
           End Brush
        End Actor
        End Map
    "#]],
    );
}

#[test]
fn idempotent_and_crlf_kept() {
    let crlf = MESSY.replace('\n', "\r\n");
    let f = Fixture::new(&crlf);
    let once = format_text(&f.source(), FormatOptions::default()).unwrap();
    assert!(once.contains("\r\n") && !once.replace("\r\n", "").contains('\n'));
    let again = Fixture::new(&once);
    assert_eq!(format(&again.source(), FormatOptions::default()).unwrap(), vec![]);
}

#[test]
fn only_the_lines_in_range() {
    let start = MESSY.find("origin").unwrap();
    let end = MESSY.find("        Pan").unwrap() + 3;
    check(
        &format!("{}$0{}$0{}", &MESSY[..start], &MESSY[start..end], &MESSY[end..]),
        expect![[r#"
        begin map
          BEGIN Actor   Class=Brush Name=Brush0

           Location=(X=16.000000)
         Begin Brush Name=Brush0
        Begin PolyList
         begin polygon Texture=Wall01 Flags=3221225474   Link=0
                    Origin   +00000.000000,+00000.000000,+00000.000000
                    Normal   -00001.000000,+00000.000000,+00000.000000
                    Pan      U=3 V=-2
          TextureU 0,1,0
            TextureV 0,0,-1
         vertex -128,-128.5,-128.123456789
             Vertex   -128,-128,128
         Vertex  -128,128,128
          end polygon
          End PolyList
          End Brush
         end actor
        END MAP
    "#]],
    );
}

#[test]
fn refuses_documents_with_syntax_errors() {
    check(
        "Begin Map\nBegin Actor Class=A\nEnd Map\n",
        expect![[r#"
        error: the document has 1 syntax error (the first at byte 10: `Begin Actor` is never closed: expected `End Actor` before `End Map`); formatting would guess at its structure
    "#]],
    );
    check(
        "Begin Polygon Flags=x\nEnd Polygon\n",
        expect![[r#"
        error: the document has 1 syntax error (the first at byte 20: `Flags=x` is not a 32-bit integer: expected a decimal number from -2147483648 to 4294967295); formatting would guess at its structure
    "#]],
    );
}

#[test]
fn line_ending_of_a_document_without_one_is_crlf() {
    let f = Fixture::new("Begin PolyList\nEnd PolyList");
    let edits = format(&f.source(), FormatOptions::default());
    expect![[r#"Ok([TextEdit { span: 15..27, new_text: "End PolyList\n" }])"#]]
        .assert_eq(&format!("{edits:?}"));
}
