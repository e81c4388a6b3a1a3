use expect_test::{expect, Expect};
use unreal_analysis::ide::t3d::semantic_tokens::semantic_tokens;

use crate::{pos, Fixture};

fn check(fixture: &str, expect: Expect) {
    let f = Fixture::new(fixture);
    let range = (f.markers.len() >= 2).then(|| f.selection());
    let out: String = semantic_tokens(&f.source(), range)
        .iter()
        .map(|t| {
            let modifiers =
                if t.modifiers == 0 { String::new() } else { format!(" +{}", t.modifiers) };
            format!(
                "{} {:?} {}{modifiers}\n",
                pos(&f.text, t.span.start),
                t.span.text(&f.text),
                t.token_type.name()
            )
        })
        .collect();
    expect.assert_eq(&out);
}

const SAMPLE: &str = "\
Begin Actor Class=Brush Name=Brush0
   bHidden=True
   Tag=\"Room\"
   Region=(Zone=LevelInfo'MyLevel.LevelInfo0',iLeaf=-1)
   Items(2)=None
   Begin PolyList
      Begin Polygon Texture=Wall Flags=258 Link=3
         Vertex   +00001.000000,-00002.000000,+00003.000000
         Pan      U=4 V=0
      End Polygon
   End PolyList
   Settings CSG=CSG_Add PolyFlags=8
End Actor
";

#[test]
fn every_kind_of_token() {
    check(
        SAMPLE,
        expect![[r#"
        1:1 "Begin" keyword
        1:7 "Actor" type
        1:13 "Class" parameter
        1:19 "Brush" class
        1:25 "Name" parameter
        1:30 "Brush0" variable +1
        2:4 "bHidden" property
        2:12 "True" enumMember
        3:4 "Tag" property
        3:8 "\"Room\"" string
        4:4 "Region" property
        4:12 "Zone" property
        4:17 "LevelInfo" class
        4:27 "MyLevel.LevelInfo0" variable
        4:47 "iLeaf" property
        4:53 "-1" number
        5:4 "Items" property
        5:10 "2" number
        5:13 "None" enumMember
        6:4 "Begin" keyword
        6:10 "PolyList" type
        7:7 "Begin" keyword
        7:13 "Polygon" type
        7:21 "Texture" parameter
        7:29 "Wall" variable
        7:34 "Flags" parameter
        7:40 "258" enumMember
        7:44 "Link" parameter
        7:49 "3" number
        8:10 "Vertex" keyword
        8:19 "+00001.000000" number
        8:33 "-00002.000000" number
        8:47 "+00003.000000" number
        9:10 "Pan" keyword
        9:19 "U" parameter
        9:21 "4" number
        9:23 "V" parameter
        9:25 "0" number
        10:7 "End" keyword
        10:11 "Polygon" type
        11:4 "End" keyword
        11:8 "PolyList" type
        12:4 "Settings" keyword
        12:13 "CSG" parameter
        12:17 "CSG_Add" enumMember
        12:25 "PolyFlags" parameter
        12:35 "8" enumMember
        13:1 "End" keyword
        13:5 "Actor" type
    "#]],
    );
}

#[test]
fn only_the_lines_in_range() {
    let start = SAMPLE.find("   Begin Polygon").unwrap();
    let end = SAMPLE.find("         Pan").unwrap();
    let fixture = format!("{}$0{}$0{}", &SAMPLE[..start], &SAMPLE[start..end], &SAMPLE[end..]);
    check(
        &fixture,
        expect![[r#"
        7:7 "Begin" keyword
        7:13 "Polygon" type
        7:21 "Texture" parameter
        7:29 "Wall" variable
        7:34 "Flags" parameter
        7:40 "258" enumMember
        7:44 "Link" parameter
        7:49 "3" number
        8:10 "Vertex" keyword
        8:19 "+00001.000000" number
        8:33 "-00002.000000" number
        8:47 "+00003.000000" number
    "#]],
    );
}
