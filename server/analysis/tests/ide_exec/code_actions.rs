use expect_test::{expect, Expect};
use unreal_analysis::ide::exec::code_actions::code_actions;
use unreal_analysis::ide::t3d::formatting::apply_edits;

use crate::Fixture;

/// Each action's title and the lines it changes.
fn check(fixture: &str, expect: Expect) {
    let f = Fixture::new(fixture);
    let env = f.env();
    let src = f.source(&env);
    let mut out = String::new();
    for action in code_actions(&src, f.selection()) {
        out.push_str(&format!("{:?} {}\n", action.kind, action.title));
        let after = apply_edits(&f.text, &action.edits);
        for (a, b) in after.lines().zip(f.text.lines()) {
            if a != b {
                out.push_str(&format!("  {a}\n"));
            }
        }
    }
    expect.assert_eq(&out);
}

#[test]
fn add_missing_required_keys() {
    check(
        "#exec MESH SEQUENCE MESH=Skull$0 // the walk\n",
        expect![[r#"
        Quickfix Add `SEQ=`, `STARTFRAME=`, `NUMFRAMES=`
          #exec MESH SEQUENCE MESH=Skull SEQ= STARTFRAME= NUMFRAMES= // the walk
    "#]],
    );
}

#[test]
fn backslashes_in_paths() {
    check(
        "#exec TEXTURE IMPORT NAME=A FILE=Textures/A.pcx$0\n",
        expect![[r#"
        Refactor Write `Textures\A.pcx` with backslashes
          #exec TEXTURE IMPORT NAME=A FILE=Textures\A.pcx
    "#]],
    );
}

#[test]
fn nothing_for_a_complete_line() {
    check("#exec MESHMAP NEW MESHMAP=A MESH=A$0\n#exec MESH IMPORT\n", expect![[""]]);
}

#[test]
fn every_line_of_a_selection() {
    check(
        "$0#exec MESH ORIGIN\n#exec AUDIO IMPORT FILE=Sounds/A.wav$0\n",
        expect![[r#"
        Quickfix Add `MESH=`
          #exec MESH ORIGIN MESH=
        Refactor Write `Sounds\A.wav` with backslashes
          #exec AUDIO IMPORT FILE=Sounds\A.wav
    "#]],
    );
}
