use expect_test::{expect, Expect};
use unreal_analysis::ide::exec::navigation::{find_references, goto_definition, rename};
use unreal_analysis::ide::t3d::formatting::apply_edits;

use crate::{at, pos, show, Fixture};

fn where_(f: &Fixture, file: Option<&std::path::Path>, span: unreal_syntax::Span) -> String {
    match file {
        None => format!("this {}", show(&f.text, span)),
        Some(path) if path.extension().is_some_and(|e| e == "uc") => {
            format!("{} {}", path.display(), show(&f.file_text(path), span))
        }
        Some(path) => format!("{} {}", path.display(), pos("", span.start)),
    }
}

fn check_definition(fixture: &str, expect: Expect) {
    let f = Fixture::new(fixture);
    let env = f.env();
    let src = f.source(&env);
    let out: String = goto_definition(&src, f.cursor())
        .iter()
        .map(|l| format!("{}\n", where_(&f, l.file.as_deref(), l.span)))
        .collect();
    expect.assert_eq(&out);
}

fn check_references(fixture: &str, expect: Expect) {
    let f = Fixture::new(fixture);
    let env = f.env();
    let src = f.source(&env);
    let out: String = find_references(&src, f.cursor(), true)
        .iter()
        .map(|o| {
            format!("{:?} {}\n", o.kind, where_(&f, o.location.file.as_deref(), o.location.span))
        })
        .collect();
    expect.assert_eq(&out);
}

/// The changed lines of every file.
fn check_rename(fixture: &str, new_name: &str, expect: Expect) {
    let f = Fixture::new(fixture);
    let env = f.env();
    let src = f.source(&env);
    let out = match rename(&src, f.cursor(), new_name) {
        Ok(files) => {
            let mut out = String::new();
            for file in files {
                let before = match &file.file {
                    None => f.text.clone(),
                    Some(path) => f.file_text(path),
                };
                let after = apply_edits(&before, &file.edits);
                let name =
                    file.file.as_ref().map_or("this".to_owned(), |p| p.display().to_string());
                out.push_str(&format!("{name}: {} edits\n", file.edits.len()));
                for (a, b) in after.lines().zip(before.lines()) {
                    if a != b {
                        out.push_str(&format!("  {a}\n"));
                    }
                }
            }
            out
        }
        Err(e) => format!("error: {}\n", e.message),
    };
    expect.assert_eq(&out);
}

#[test]
fn definition_of_a_mesh_in_another_class() {
    check_definition(
        &at("/Game/Monsters/Classes/SkullNotify.uc", "MESH=Skull STR", 6),
        expect![[r#"
            /Game/Monsters/Classes/Skull.uc 3:24..3:29 "Skull"
        "#]],
    );
}

#[test]
fn definition_of_a_texture() {
    check_definition(
        &at("/Game/Monsters/Classes/Skull.uc", "TEXTURE=JSkull1", 9),
        expect![[r#"
        this 10:27..10:34 "JSkull1"
    "#]],
    );
}

#[test]
fn definition_of_a_sequence() {
    check_definition(
        &at("/Game/Monsters/Classes/SkullNotify.uc", "SEQ=Bite", 4),
        expect![[r#"
        /Game/Monsters/Classes/Skull.uc 6:36..6:40 "Bite"
    "#]],
    );
}

#[test]
fn definition_of_a_file_value() {
    check_definition(
        &at("/Game/Monsters/Classes/Skull.uc", "Textures\\Skull1", 2),
        expect![[r#"
        /Game/Monsters/Textures/Skull1.pcx 1:1
    "#]],
    );
}

#[test]
fn references_across_the_package() {
    check_references(
        &at("/Game/Monsters/Classes/Skull.uc", "MESH=Skull ANIV", 5),
        expect![[r#"
            Definition this 3:24..3:29 "Skull"
            Reference this 4:24..4:29 "Skull"
            Reference this 5:26..5:31 "Skull"
            Reference this 6:26..6:31 "Skull"
            Reference this 7:27..7:32 "Skull"
            Reference this 7:38..7:43 "Skull"
            Reference this 8:29..8:34 "Skull"
            Reference this 11:34..11:39 "Skull"
            Reference /Game/Monsters/Classes/SkullNotify.uc 3:24..3:29 "Skull"
            Reference /Game/Monsters/Classes/SkullNotify.uc 4:27..4:32 "Skull"
            Reference /Game/Monsters/Classes/SkullNotify.uc 5:34..5:39 "Skull"
        "#]],
    );
}

#[test]
fn references_of_a_texture_named_after_its_file() {
    check_references(
        "//- /P/Classes/A.uc\n#exec TEXTURE IMPORT FILE=Textures\\Wall.pcx\n#exec MESHMAP SETTEXTURE MESHMAP=M NUM=0 TEXTURE=Wa$0ll\n",
        expect![[r#"
            Definition this 1:27..1:44 "Textures\\Wall.pcx"
            Reference this 2:50..2:54 "Wall"
        "#]],
    );
}

#[test]
fn rename_a_mesh_everywhere() {
    check_rename(
        &at("/Game/Monsters/Classes/Skull.uc", "MESHMAP=Skull MESH", 9),
        "Skull2",
        expect![[r#"
            this: 8 edits
              #exec MESH IMPORT MESH=Skull2 ANIVFILE=MODELS\Skull_a.3d DATAFILE=Models\Skull_d.3d
              #exec MESH ORIGIN MESH=Skull2 X=0 Y=0 Z=0
              #exec MESH SEQUENCE MESH=Skull2 SEQ=All STARTFRAME=0 NUMFRAMES=2
              #exec MESH SEQUENCE MESH=Skull2 SEQ=Bite STARTFRAME=1 NUMFRAMES=1
              #exec MESHMAP NEW MESHMAP=Skull2 MESH=Skull2
              #exec MESHMAP SCALE MESHMAP=Skull2 X=0.1 Y=0.1 Z=0.2
              #exec MESHMAP SETTEXTURE MESHMAP=Skull2 NUM=0 TEXTURE=JSkull1
            /Game/Monsters/Classes/SkullNotify.uc: 3 edits
              #exec MESH NOTIFY MESH=Skull2 SEQ=Bite TIME=0.5 FUNCTION=Chomp
              #exec MESH LODPARAMS MESH=Skull2 STRENGTH=0.5
              #exec MESHMAP SETTEXTURE MESHMAP=Skull2 NUM=1 TEXTURE=JSkull1
        "#]],
    );
}

#[test]
fn rename_a_name_from_a_file_adds_name() {
    check_rename(
        "//- /P/Classes/A.uc\n#exec TEXTURE IMPORT FILE=\"Textures\\Wall.pcx\" GROUP=G\n#exec MESHMAP SETTEXTURE MESHMAP=M NUM=0 TEXTURE=Wa$0ll\n",
        "Brick",
        expect![[r#"
            this: 2 edits
              #exec TEXTURE IMPORT FILE="Textures\Wall.pcx" NAME=Brick GROUP=G
              #exec MESHMAP SETTEXTURE MESHMAP=M NUM=0 TEXTURE=Brick
        "#]],
    );
}

#[test]
fn rename_refuses_bad_names_and_non_names() {
    check_rename(
        &at("/Game/Monsters/Classes/Skull.uc", "MESHMAP=Skull MESH", 9),
        "Two words",
        expect![[r#"
            error: `Two words` is not a valid object name (letters, digits and `_`, at most 63 characters)
        "#]],
    );
    check_rename(
        &at("/Game/Monsters/Classes/Skull.uc", "STARTFRAME=0", 11),
        "X",
        expect![[r#"
        error: only names that `#exec` directives define or use can be renamed
    "#]],
    );
}
