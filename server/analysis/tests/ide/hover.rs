use expect_test::{expect, Expect};
use unreal_analysis::ide::t3d::hover::hover;
use unreal_analysis::ide::t3d::{NoPackages, ObjectFacts};
use unreal_analysis::EngineSetting;

use crate::{room_at, show, FakePackages, Fixture};

fn check_with(fixture: &str, setting: EngineSetting, packages: &dyn ObjectFacts, expect: Expect) {
    let f = Fixture::new(fixture);
    let src = f.source_with(setting);
    let actual = match hover(&src, f.cursor(), packages) {
        Some(h) => format!("{}\n---\n{}\n", show(&f.text, h.span), h.markdown),
        None => "no hover\n".to_owned(),
    };
    expect.assert_eq(&actual);
}

fn check(fixture: &str, expect: Expect) {
    check_with(fixture, EngineSetting::Auto, &NoPackages, expect);
}

#[test]
fn flags_known_generation() {
    check(
        &room_at("Flags=258", 7),
        expect![[r#"
            22:40..22:49 "Flags=258"
            ---
            **Flags** `258` = `0x00000102`

            UE1:
            - `PF_Masked` `0x00000002`: Polygon should be drawn masked.
            - `PF_TwoSided` `0x00000100`: Polygon is visible from both sides.

            part of `PF_NoOcclude`
        "#]],
    );
}

#[test]
fn flags_unknown_generation_shows_both_meanings() {
    check(
        "Begin PolyList\nBegin Polygon Flags=$0-2147479552\nEnd Polygon\nEnd PolyList\n",
        expect![[r#"
            2:15..2:32 "Flags=-2147479552"
            ---
            **Flags** `-2147479552` = `0x80001000`

            The engine generation is unknown and these bits mean different things in each:

            UE1:
            - `PF_BigWavy` `0x00001000`: Polygon has a big wavy pattern in it.
            - `PF_Occlude` `0x80000000`: Occludes even if PF_NoOcclude (also PF_EdCut: FPoly has been split by SplitPolyWithPlane).

            UE2:
            - `PF_AlphaTexture` `0x00001000`: Honor texture alpha (also part of PF_NoOcclude).
            - `PF_Occlude` `0x80000000`: Occludes even if PF_NoOcclude (also PF_EdCut: FPoly has been split by SplitPolyWithPlane).

            part of `PF_NoOcclude`
        "#]],
    );
}

#[test]
fn flags_same_in_both_generations() {
    check(
        "Begin Polygon Fla$0gs=264\nEnd Polygon\n",
        expect![[r#"
            1:15..1:24 "Flags=264"
            ---
            **Flags** `264` = `0x00000108`

            (the same in UE1 and UE2)

            - `PF_NotSolid` `0x00000008`: Polygon is not solid, doesn't block.
            - `PF_TwoSided` `0x00000100`: Polygon is visible from both sides.

            part of `PF_AddLast`
        "#]],
    );
}

#[test]
fn flags_ue2_setting_and_combination() {
    check_with(
        "Begin Polygon Flags=$04098\nEnd Polygon\n",
        EngineSetting::Ue2,
        &NoPackages,
        expect![[r#"
            1:15..1:25 "Flags=4098"
            ---
            **Flags** `4098` = `0x00001002`

            UE2:
            - `PF_Masked` `0x00000002`: Polygon should be drawn masked.
            - `PF_AlphaTexture` `0x00001000`: Honor texture alpha (also part of PF_NoOcclude).

            part of `PF_NoOcclude`
        "#]],
    );
}

#[test]
fn flags_editor_bits_and_malformed() {
    check(
        "Begin Polygon Flags=$033554432\nEnd Polygon\n",
        expect![[r#"
        1:15..1:29 "Flags=33554432"
        ---
        **Flags** `33554432` = `0x02000000`

        (the same in UE1 and UE2)

        - `PF_Selected` `0x02000000`: Editor: polygon is selected. *(editor only, dropped on import)*
    "#]],
    );
    check(
        "Begin Polygon Flags=$0abc\nEnd Polygon\n",
        expect![[r#"
        1:15..1:24 "Flags=abc"
        ---
        **Flags** `abc`

        not a 32-bit integer: UnrealEd reads it as 0
    "#]],
    );
}

#[test]
fn poly_flags_property() {
    check(
        "Begin Actor Class=Brush Name=B\n   PolyFlags=$0256\nEnd Actor\n",
        expect![[r#"
            2:4..2:17 "PolyFlags=256"
            ---
            **PolyFlags** `256` = `0x00000100`

            (the same in UE1 and UE2)

            - `PF_TwoSided` `0x00000100`: Polygon is visible from both sides.
        "#]],
    );
}

#[test]
fn vector_with_length() {
    check(
        &room_at("Vertex   -00128.000000,-00128.000000,+00128", 15),
        expect![[r#"
        29:14..29:64 "Vertex   -00128.000000,-00128.000000,+00"…
        ---
        **Vertex** `(-128, -128, 128)`

        length 221.702503
    "#]],
    );
}

#[test]
fn normal_compared_with_the_vertices() {
    check(
        &room_at("Normal   -00001", 2),
        expect![[r#"
        24:14..24:64 "Normal   -00001.000000,+00000.000000,+00"…
        ---
        **Normal** `(-1, 0, 0)`

        length 1

        computed from the 4 vertices: `-00001.000000,+00000.000000,+00000.000000` (matches)
    "#]],
    );
    check(
        &room_at("Normal   +00000.000000,+00000.000000,-00001", 2),
        expect![[r#"
        35:14..35:64 "Normal   +00000.000000,+00000.000000,-00"…
        ---
        **Normal** `(0, 0, -1)`

        length 1

        computed from the 4 vertices: `+00000.000000,+00000.000000,-00001.000000` (matches)
    "#]],
    );
}

#[test]
fn texture_bare_and_qualified() {
    check(
        &room_at("Texture=Wall01", 10),
        expect![[r#"
        22:25..22:39 "Texture=Wall01"
        ---
        **Texture** `Wall01`

        bare name: UE1 exports write textures without their package; the editor finds the texture among the loaded packages
    "#]],
    );
    check(
        "Begin Polygon Texture=Gen$0Fluid.Water.Wave1\nEnd Polygon\n",
        expect![[r#"
            1:15..1:43 "Texture=GenFluid.Water.Wave1"
            ---
            **Texture** `Wave1`

            - package `GenFluid`
            - group `Water`
        "#]],
    );
}

#[test]
fn class_and_object_reference() {
    check(
        &room_at("Class=Light Name=Light0", 8),
        expect![[r#"
        7:13..7:24 "Class=Light"
        ---
        **Class** `Light`
    "#]],
    );
    check(
        &room_at("LevelInfo'MyLevel.LevelInfo0',iLeaf", 20),
        expect![[r#"
        10:19..10:48 "LevelInfo'MyLevel.LevelInfo0'"
        ---
        **LevelInfo** `LevelInfo0`

        - in this map (`MyLevel`)
        - class `LevelInfo`
    "#]],
    );
    check(
        &room_at("Model'MyLevel.Brush0'", 3),
        expect![[r#"
        19:12..19:33 "Model'MyLevel.Brush0'"
        ---
        **Model** `Brush0`

        - in this map (`MyLevel`)
        - class `Model`
    "#]],
    );
}

#[test]
fn block_keywords_with_counts() {
    check(
        &room_at("Begin PolyList", 2),
        expect![[r#"
        21:8..21:22 "Begin PolyList"
        ---
        **Begin PolyList**: the polygons of a brush

        2 polygons
    "#]],
    );
    check(
        &room_at("Begin Map", 7),
        expect![[r#"
        1:1..1:10 "Begin Map"
        ---
        **Begin Map**: a whole level

        4 actors
    "#]],
    );
    check(
        &room_at("Begin Polygon Texture=Wall01", 8),
        expect![[r#"
        22:11..22:24 "Begin Polygon"
        ---
        **Begin Polygon**: one polygon of a brush

        - 4 vertices
        - texture `Wall01`
        - flags PF_Masked | PF_TwoSided
    "#]],
    );
    check(
        &room_at("End Polygon", 1),
        expect![[r#"
        32:11..32:22 "End Polygon"
        ---
        **Begin Polygon**: one polygon of a brush

        - 4 vertices
        - texture `Wall01`
        - flags PF_Masked | PF_TwoSided
    "#]],
    );
    check(
        &room_at("Begin Brush", 7),
        expect![[r#"
        20:5..20:16 "Begin Brush"
        ---
        **Begin Brush** `Brush0`: a brush model

        2 polygons
    "#]],
    );
}

#[test]
fn actor_name_with_class_and_location() {
    check(
        &room_at("Name=Light0", 7),
        expect![[r#"
        7:25..7:36 "Name=Light0"
        ---
        **Actor** `Light0`

        - class `Light`
        - location `(64, -32, 16)`
        - 5 properties
    "#]],
    );
    check(
        &room_at("Begin Actor Class=Light Name=Light1", 2),
        expect![[r#"
        14:1..14:12 "Begin Actor"
        ---
        **Begin Actor** `Light1`

        - class `Light`
        - location `(128, 0, 0)`
        - 2 properties
    "#]],
    );
}

#[test]
fn location_property() {
    check(
        &room_at("Location=(X=64", 3),
        expect![[r#"
        11:6..11:53 "Location=(X=64.000000,Y=-32.000000,Z=16."…
        ---
        **Location** `(64, -32, 16)`

        length 73.321211
    "#]],
    );
}

#[test]
fn pan_line_and_nothing() {
    check(
        &room_at("Pan      U=16", 1),
        expect![[r#"
        25:14..25:31 "Pan      U=16 V=0"
        ---
        **Pan** U=16 V=0

        The texture offset in texels along TextureU and TextureV (UE1; UE2 exports from package version 78 drop it).
    "#]],
    );
    check(
        &room_at("LightHue=24", 2),
        expect![[r#"
        no hover
    "#]],
    );
    check(
        "$0",
        expect![[r#"
        no hover
    "#]],
    );
}

#[test]
fn package_provider_details() {
    check_with(
        "Begin Polygon Texture=GenFluid.Water.$0Wave1\nEnd Polygon\n",
        EngineSetting::Auto,
        &FakePackages,
        expect![[r#"
            1:15..1:43 "Texture=GenFluid.Water.Wave1"
            ---
            **Texture** `Wave1`

            - package `GenFluid`
            - group `Water`

            from `Textures/GenFluid.utx`
            - size: 256x256
            - format: P8
        "#]],
    );
}
