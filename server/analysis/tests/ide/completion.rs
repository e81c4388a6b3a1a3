use expect_test::{expect, Expect};
use unreal_analysis::ide::t3d::completion::completions;
use unreal_analysis::ide::t3d::{NoPackages, ObjectFacts};
use unreal_analysis::EngineSetting;

use crate::{show, Fixture, ROOM};

fn check_with(
    fixture: &str,
    setting: EngineSetting,
    packages: &dyn ObjectFacts,
    limit: usize,
    expect: Expect,
) {
    let f = Fixture::new(fixture);
    let items = completions(&f.source_with(setting), f.cursor(), packages);
    let mut out = String::new();
    if let Some(first) = items.first() {
        out.push_str(&format!("replace {}\n", show(&f.text, first.edit.span)));
    }
    for item in items.iter().take(limit) {
        out.push_str(&format!(
            "{:?} {:?} -> {:?}{}{}\n",
            item.kind,
            item.label,
            item.edit.new_text,
            item.detail.as_deref().map(|d| format!(" [{d}]")).unwrap_or_default(),
            if item.preselect { " *" } else { "" }
        ));
    }
    if items.len() > limit {
        out.push_str(&format!("... {} more\n", items.len() - limit));
    }
    expect.assert_eq(&out);
}

fn check(fixture: &str, limit: usize, expect: Expect) {
    check_with(fixture, EngineSetting::Auto, &NoPackages, limit, expect);
}

/// ROOM with `insert` placed (with the cursor marker in it) before the line holding `before`.
fn room_with(before: &str, insert: &str) -> String {
    let i = ROOM.find(before).unwrap();
    let line = ROOM[..i].rfind('\n').map_or(0, |n| n + 1);
    format!("{}{insert}\n{}", &ROOM[..line], &ROOM[line..])
}

#[test]
fn block_kinds_after_begin() {
    check(
        &room_with("End PolyList", "          Begin Po$0"),
        3,
        expect![[r#"
        replace 41:17..41:19 "Po"
        BlockKind "Polygon" -> "Polygon" [Begin Polygon] *
        BlockKind "Map" -> "Map" [Begin Map]
        BlockKind "Level" -> "Level" [Begin Level]
        ... 8 more
    "#]],
    );
    check(
        "Begin $0",
        5,
        expect![[r#"
        replace 1:7..1:7 ""
        BlockKind "Map" -> "Map" [Begin Map] *
        BlockKind "Actor" -> "Actor" [Begin Actor] *
        BlockKind "PolyList" -> "PolyList" [Begin PolyList] *
        BlockKind "Brush" -> "Brush" [Begin Brush] *
        BlockKind "Level" -> "Level" [Begin Level]
        ... 6 more
    "#]],
    );
}

#[test]
fn end_completes_the_innermost_open_block() {
    check(
        &room_with("End PolyList", "          Begin Polygon\n          End $0"),
        5,
        expect![[r#"
        replace 42:15..42:15 ""
        BlockKind "PolyList" -> "PolyList" [closes `Begin PolyList`] *
    "#]],
    );
    check(
        "Begin Map\nBegin Actor Class=Light\n   X=1\nEnd Ac$0",
        5,
        expect![[r#"
        replace 4:5..4:7 "Ac"
        BlockKind "Actor" -> "Actor" [closes `Begin Actor Class=Light`] *
    "#]],
    );
}

#[test]
fn flags_with_values_and_combinations() {
    check(
        "Begin PolyList\nBegin Polygon Flags=$0\nEnd Polygon\nEnd PolyList\n",
        4,
        expect![[r#"
        replace 2:21..2:21 ""
        Flag "PF_Invisible" -> "1" [1 (0x00000001)]
        Flag "PF_Masked" -> "2" [2 (0x00000002)]
        Flag "PF_Translucent" -> "4" [4 (0x00000004)]
        Flag "PF_NotSolid" -> "8" [8 (0x00000008)]
        ... 39 more
    "#]],
    );
    check_with(
        "Begin Polygon Texture=A Flags=256$0 Link=0\nEnd Polygon\n",
        EngineSetting::Ue1,
        &NoPackages,
        40,
        expect![[r#"
            replace 1:31..1:34 "256"
            Flag "PF_Invisible" -> "257" [1 (0x00000001)]
            Flag "PF_Masked" -> "258" [2 (0x00000002)]
            Flag "PF_Translucent" -> "260" [4 (0x00000004)]
            Flag "PF_NotSolid" -> "264" [8 (0x00000008)]
            Flag "PF_Environment" -> "272" [16 (0x00000010)]
            Flag "PF_Semisolid" -> "288" [32 (0x00000020)]
            Flag "PF_Modulated" -> "320" [64 (0x00000040)]
            Flag "PF_FakeBackdrop" -> "384" [128 (0x00000080)]
            Flag "PF_TwoSided" -> "256" [256 (0x00000100)]
            Flag "PF_AutoUPan" -> "768" [512 (0x00000200)]
            Flag "PF_AutoVPan" -> "1280" [1024 (0x00000400)]
            Flag "PF_NoSmooth" -> "2304" [2048 (0x00000800)]
            Flag "PF_BigWavy" -> "4352" [4096 (0x00001000)]
            Flag "PF_SmallWavy" -> "8448" [8192 (0x00002000)]
            Flag "PF_Flat" -> "16640" [16384 (0x00004000)]
            Flag "PF_LowShadowDetail" -> "33024" [32768 (0x00008000)]
            Flag "PF_NoMerge" -> "65792" [65536 (0x00010000)]
            Flag "PF_CloudWavy" -> "131328" [131072 (0x00020000)]
            Flag "PF_DirtyShadows" -> "262400" [262144 (0x00040000)]
            Flag "PF_BrightCorners" -> "524544" [524288 (0x00080000)]
            Flag "PF_SpecialLit" -> "1048832" [1048576 (0x00100000)]
            Flag "PF_Gouraud" -> "2097408" [2097152 (0x00200000)]
            Flag "PF_Unlit" -> "4194560" [4194304 (0x00400000)]
            Flag "PF_HighShadowDetail" -> "8388864" [8388608 (0x00800000)]
            Flag "PF_Memorized" -> "16777472" [16777216 (0x01000000)]
            Flag "PF_Selected" -> "33554688" [33554432 (0x02000000)]
            Flag "PF_Portal" -> "67109120" [67108864 (0x04000000)]
            Flag "PF_Mirrored" -> "134217984" [134217728 (0x08000000)]
            Flag "PF_Highlighted" -> "268435712" [268435456 (0x10000000)]
            Flag "PF_FlatShaded" -> "1073742080" [1073741824 (0x40000000)]
            Flag "PF_Occlude" -> "-2147483392" [-2147483648 (0x80000000)]
            FlagCombination "PF_Masked | PF_TwoSided" -> "258" [258 (0x00000102)]
            FlagCombination "PF_Translucent | PF_TwoSided" -> "260" [260 (0x00000104)]
            FlagCombination "PF_Invisible | PF_NotSolid" -> "9" [9 (0x00000009)]
            FlagCombination "PF_NoOcclude" -> "71" [71 (0x00000047)]
            FlagCombination "PF_AddLast" -> "40" [40 (0x00000028)]
            FlagCombination "PF_NoShadows" -> "4194449" [4194449 (0x00400091)]
        "#]],
    );
}

#[test]
fn textures_used_in_the_document() {
    check(
        &room_with("End PolyList", "          Begin Polygon Texture=Wa$0"),
        5,
        expect![[r#"
        replace 41:33..41:35 "Wa"
        Texture "Floor02" -> "Floor02" [used 1 time in this document] *
        Texture "Wall01" -> "Wall01" [used 1 time in this document]
    "#]],
    );
}

#[test]
fn classes_and_packages() {
    struct Classes;
    impl ObjectFacts for Classes {
        fn names(&self, class: &str) -> Vec<String> {
            if class == "Class" {
                vec!["Engine.Light".to_owned(), "UnrealShare.Flashlight".to_owned()]
            } else {
                Vec::new()
            }
        }
    }
    check_with(
        &room_with("End Map", "Begin Actor Class=$0"),
        EngineSetting::Auto,
        &Classes,
        10,
        expect![[r#"
        replace 44:19..44:19 ""
        Class "Light" -> "Light" [used 2 times in this document] *
        Class "Brush" -> "Brush" [used 1 time in this document]
        Class "LevelInfo" -> "LevelInfo" [used 1 time in this document]
        Class "Engine.Light" -> "Engine.Light" [Class in a package]
        Class "UnrealShare.Flashlight" -> "UnrealShare.Flashlight" [Class in a package]
    "#]],
    );
}

#[test]
fn polygon_line_keywords() {
    check(
        &room_with("End Polygon", "             Ve$0"),
        8,
        expect![[r#"
        replace 32:14..32:16 "Ve"
        LineKeyword "Origin" -> "Origin   "
        LineKeyword "Normal" -> "Normal   "
        LineKeyword "TextureU" -> "TextureU "
        LineKeyword "TextureV" -> "TextureV "
        LineKeyword "Vertex" -> "Vertex   "
        LineKeyword "Pan" -> "Pan      U=0 V=0"
        Keyword "Begin" -> "Begin "
        Keyword "End" -> "End "
    "#]],
    );
}

#[test]
fn properties_other_actors_of_the_class_use() {
    check(
        &room_with("Name=\"Light0\"", "     $0"),
        10,
        expect![[r#"
        replace 12:6..12:6 ""
        Property "LightRadius" -> "LightRadius=" [set on 1 of 1 other Light actors]
        Keyword "Begin" -> "Begin "
        Keyword "End" -> "End "
    "#]],
    );
}

#[test]
fn nothing_in_a_value() {
    check(&room_with("LightHue", "     Tag=\"a$0"), 5, expect![[r#""#]]);
}
