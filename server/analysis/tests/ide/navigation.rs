use expect_test::{expect, Expect};
use unreal_analysis::ide::t3d::formatting::apply_edits;
use unreal_analysis::ide::t3d::navigation::{
    find_references, goto_definition, package_definition, prepare_rename, rename,
};

use crate::{room_at, show, FakePackages, Fixture};

fn check_definition(fixture: &str, expect: Expect) {
    let f = Fixture::new(fixture);
    let actual = match goto_definition(&f.source(), f.cursor()) {
        Some(t) => format!("{}\nfocus {}\n", show(&f.text, t.span), show(&f.text, t.focus)),
        None => "no definition\n".to_owned(),
    };
    expect.assert_eq(&actual);
}

fn check_package_definition(fixture: &str, expect: Expect) {
    let f = Fixture::new(fixture);
    let actual = match package_definition(&f.source(), f.cursor(), &FakePackages) {
        Some(t) => format!(
            "{} -> {} ({} {})\n",
            show(&f.text, t.span),
            t.file,
            t.object.class,
            t.object.path
        ),
        None => "no package definition\n".to_owned(),
    };
    expect.assert_eq(&actual);
}

fn check_references(fixture: &str, expect: Expect) {
    let f = Fixture::new(fixture);
    let mut actual = String::new();
    for o in find_references(&f.source(), f.cursor(), true) {
        actual.push_str(&format!("{:?} {}\n", o.kind, show(&f.text, o.span)));
    }
    expect.assert_eq(&actual);
}

/// Renames and shows the changed lines (or the error).
fn check_rename(fixture: &str, new_name: &str, expect: Expect) {
    let f = Fixture::new(fixture);
    let src = f.source();
    let actual = match rename(&src, f.cursor(), new_name) {
        Ok(edits) => {
            let after = apply_edits(&f.text, &edits);
            let changed: Vec<&str> = after
                .lines()
                .zip(f.text.lines())
                .filter(|(a, b)| a != b)
                .map(|(a, _)| a.trim())
                .collect();
            format!("{} edits\n{}\n", edits.len(), changed.join("\n"))
        }
        Err(e) => format!("error: {}\n", e.message),
    };
    expect.assert_eq(&actual);
}

#[test]
fn definition_of_an_actor_reference() {
    check_definition(
        &room_at("LevelInfo'MyLevel.LevelInfo0'\n", 21),
        expect![[r#"
        2:1..6:10 "Begin Actor Class=LevelInfo Name=LevelIn"…
        focus 2:34..2:44 "LevelInfo0"
    "#]],
    );
}

#[test]
fn definition_of_a_brush_model() {
    check_definition(
        &room_at("Model'MyLevel.Brush0'", 15),
        expect![[r#"
        20:5..42:14 "Begin Brush Name=Brush0\n       Begin Pol"…
        focus 20:22..20:28 "Brush0"
    "#]],
    );
}

#[test]
fn no_definition_for_package_paths_and_plain_words() {
    check_definition(
        "Begin Map\nBegin Actor Class=A Name=A0\n   Skin=Texture'Pkg.$0Skin'\nEnd Actor\nEnd Map\n",
        expect![[r#"
            no definition
        "#]],
    );
    check_definition(
        &room_at("LightHue", 2),
        expect![[r#"
        no definition
    "#]],
    );
}

#[test]
fn references_from_the_definition_include_the_name_property() {
    check_references(
        &room_at("Name=LevelInfo0", 7),
        expect![[r#"
        Definition 2:34..2:44 "LevelInfo0"
        Reference 4:30..4:40 "LevelInfo0"
        Definition 5:12..5:22 "LevelInfo0"
        Reference 10:37..10:47 "LevelInfo0"
    "#]],
    );
}

#[test]
fn references_from_a_use_and_separate_namespaces() {
    // The actor Brush0 and its model Brush0 are two objects.
    check_references(
        &room_at("Brush=Model'MyLevel.Brush0'", 22),
        expect![[r#"
        Reference 19:26..19:32 "Brush0"
        Definition 20:22..20:28 "Brush0"
    "#]],
    );
    check_references(
        &room_at("Class=Brush Name=Brush0", 19),
        expect![[r#"
        Definition 18:30..18:36 "Brush0"
    "#]],
    );
}

#[test]
fn rename_updates_definition_and_references() {
    check_rename(
        &room_at("Name=LevelInfo0", 7),
        "MainInfo",
        expect![[r#"
        4 edits
        Begin Actor Class=LevelInfo Name=MainInfo
        Level=LevelInfo'MyLevel.MainInfo'
        Name="MainInfo"
        Region=(Zone=LevelInfo'MyLevel.MainInfo',iLeaf=-1)
    "#]],
    );
    check_rename(
        &room_at("Name=Brush0\n       Begin PolyList", 6),
        "Model7",
        expect![[r#"
        2 edits
        Brush=Model'MyLevel.Model7'
        Begin Brush Name=Model7
    "#]],
    );
}

#[test]
fn rename_validates_the_new_name() {
    check_rename(
        &room_at("Name=Light0", 7),
        "Light1",
        expect![[r#"
        error: `Light1` is already the name of another actor in this map
    "#]],
    );
    check_rename(
        &room_at("Name=Light0", 7),
        "light1",
        expect![[r#"
        error: `light1` is already the name of another actor in this map
    "#]],
    );
    check_rename(
        &room_at("Name=Light0", 7),
        "My Light",
        expect![[r#"
        error: `My Light` is not a valid object name: use letters, digits and `_`, starting with a letter or `_`
    "#]],
    );
    check_rename(
        &room_at("Name=Light0", 7),
        "3Light",
        expect![[r#"
        error: `3Light` is not a valid object name: use letters, digits and `_`, starting with a letter or `_`
    "#]],
    );
    check_rename(
        &room_at("LightHue", 2),
        "X",
        expect![[r#"
        error: nothing to rename here: place the cursor on an actor or brush name
    "#]],
    );
}

#[test]
fn prepare_rename_span() {
    let f = Fixture::new(&room_at("\"Light0\"", 3));
    let span = prepare_rename(&f.source(), f.cursor()).unwrap();
    expect![[r#"12:12..12:18 "Light0""#]].assert_eq(&show(&f.text, span));
}

#[test]
fn package_objects_lead_to_their_package_file() {
    check_package_definition(
        "Begin Polygon Texture=GenFluid.Water.$0Wave1\nEnd Polygon\n",
        expect![[r#"
            1:23..1:43 "GenFluid.Water.Wave1" -> Textures/GenFluid.utx (Texture GenFluid.Water.Wave1)
        "#]],
    );
    // Case differs from the package, as UnrealEd allows.
    check_package_definition(
        "Begin Actor Class=WaterZone Name=W\n   Skin=Texture'genfluid.water.$0WAVE1'\nEnd Actor\n",
        expect![[r#"
            2:17..2:37 "genfluid.water.WAVE1" -> Textures/GenFluid.utx (Texture genfluid.water.WAVE1)
        "#]],
    );
    // Unknown to the index, a class the index does not hold, a reference into the map.
    check_package_definition(
        "Begin Polygon Texture=GenFluid.Water.$0Wave2\nEnd Polygon\n",
        expect![[r#"
            no package definition
        "#]],
    );
    check_package_definition(
        "Begin Actor Class=$0Light Name=L\nEnd Actor\n",
        expect![[r#"
            no package definition
        "#]],
    );
    check_package_definition(
        "Begin Actor Class=Brush Name=B\n   Brush=Model'MyLevel.$0Wave1'\nEnd Actor\n",
        expect![[r#"
            no package definition
        "#]],
    );
    check_package_definition(
        "Begin Polygon Flags=$032 Texture=GenFluid.Water.Wave1\nEnd Polygon\n",
        expect![[r#"
            no package definition
        "#]],
    );
}
