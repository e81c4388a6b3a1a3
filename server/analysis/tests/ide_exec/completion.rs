use expect_test::{expect, Expect};
use unreal_analysis::ide::exec::completion::completions;

use crate::{at_in, Fixture, PACKAGE};

/// One line per item: label, kind, detail, and what the edit replaces (`[old]`).
fn check_fixture(f: &Fixture, limit: usize, expect: Expect) {
    let env = f.env();
    let src = f.source(&env);
    let items = completions(&src, f.cursor());
    let mut out = String::new();
    for item in items.iter().take(limit) {
        let replaced = item.edit.span.text(&f.text);
        out.push_str(&format!(
            "{}{} {:?} [{replaced}]{}\n",
            if item.preselect { "*" } else { "" },
            item.label,
            item.kind,
            item.detail.as_deref().map(|d| format!(" ({d})")).unwrap_or_default()
        ));
    }
    if items.len() > limit {
        out.push_str(&format!("... {} more\n", items.len() - limit));
    }
    expect.assert_eq(&out);
}

fn check(fixture: &str, expect: Expect) {
    check_fixture(&Fixture::new(fixture), 40, expect);
}

/// `line` added to Skull.uc (after its last directive), with `$0` where the cursor is.
fn in_skull(line: &str) -> String {
    let anchor = "#exec OBJ LOAD FILE=Textures\\Decor.utx\n";
    let with = PACKAGE.replacen(anchor, &format!("{anchor}{line}\n"), 1);
    let cursor = with.find("$0").unwrap();
    let clean = with.replacen("$0", "", 1);
    let before = &clean[..cursor];
    let file = "/Game/Monsters/Classes/Skull.uc";
    at_in(
        &clean,
        file,
        &before[before.rfind('\n').unwrap() + 1..],
        cursor - before.rfind('\n').unwrap() - 1,
    )
}

#[test]
fn directive_words() {
    check(
        "#e$0\n",
        expect![[r#"
            *#exec Directive [#e] (UE1 and UE2)
            #AlwaysExec Directive [#e] (UE1 and UE2)
            #ForceExec Directive [#e] (UE1 and UE2)
            #call Directive [#e] (UE1 and UE2)
            #AlwaysCall Directive [#e] (UE1 and UE2)
            #error Directive [#e] (UE1 and UE2)
            #include Directive [#e] (UE2)
        "#]],
    );
}

#[test]
fn directive_words_for_ue1() {
    let f = Fixture::new("#$0\n").engine("ue1");
    check_fixture(
        &f,
        40,
        expect![[r#"
            *#exec Directive [#] (UE1 and UE2)
            #AlwaysExec Directive [#] (UE1 and UE2)
            #ForceExec Directive [#] (UE1 and UE2)
            #call Directive [#] (UE1 and UE2)
            #AlwaysCall Directive [#] (UE1 and UE2)
            #error Directive [#] (UE1 and UE2)
        "#]],
    );
}

#[test]
fn commands_after_exec() {
    check(
        "#exec M$0\n",
        expect![[r#"
            MESH Command [M] (IMPORT, MODELIMPORT, ORIGIN, SEQUENCE, NOTIFY, LODPARAMS, DROPFRAMES, DEFAULTANIM, SCALE, SETTEXTURE, ATTACHNAME, LODMODEL, BOUNDINGBOX, FLIPFACES, WEAPONATTACH, WEAPONPOSITION, BOUNDINGSPHERE, SOCKET, COLLISION)
            MESHMAP Command [M] (NEW, SCALE, SETTEXTURE)
            TEXTURE Command [M] (IMPORT, MERGECOMPRESSED, SETHITSOUND)
            AUDIO Command [M] (AUDIO IMPORT)
            MACRO Command [M] (MACRO)
            FONT Command [M] (INFO, UPDATE)
            PREFAB Command [M] (PREFAB IMPORT)
            LOAD Command [M] (LOAD)
            OBJ Command [M] (IMPORT, COLLISIONBRUSH, SET)
            NEW Command [M] (TRUETYPEFONTFACTORY, FONTFACTORY, STATICMESH, SOUND, <class>)
            STATICMESH Command [M] (IMPORT, SETPROJECTION)
            ANIM Command [M] (IMPORT, SEQUENCE, NOTIFY, DIGEST)
            BRUSH Command [M] (BRUSH TOMESH)
            EXEC Command [M]
            DECAMESH Command [M]
            DECAANIM Command [M]
        "#]],
    );
}

#[test]
fn subcommands() {
    check(
        "#exec MESH $0\n",
        expect![[r#"
            IMPORT Command [] (MESH IMPORT)
            MODELIMPORT Command [] (MESH MODELIMPORT)
            ORIGIN Command [] (MESH ORIGIN)
            SEQUENCE Command [] (MESH SEQUENCE)
            NOTIFY Command [] (MESH NOTIFY)
            LODPARAMS Command [] (MESH LODPARAMS)
            DROPFRAMES Command [] (MESH DROPFRAMES)
            DEFAULTANIM Command [] (MESH DEFAULTANIM)
            SCALE Command [] (MESH SCALE)
            SETTEXTURE Command [] (MESH SETTEXTURE)
            ATTACHNAME Command [] (MESH ATTACHNAME)
            LODMODEL Command [] (MESH LODMODEL)
            BOUNDINGBOX Command [] (MESH BOUNDINGBOX)
            FLIPFACES Command [] (MESH FLIPFACES)
            WEAPONATTACH Command [] (MESH WEAPONATTACH (OldUnreal's UT v469))
            WEAPONPOSITION Command [] (MESH WEAPONPOSITION (OldUnreal's UT v469))
            BOUNDINGSPHERE Command [] (MESH BOUNDINGSPHERE (OldUnreal's UT v469))
            SOCKET Command [] (MESH SOCKET (OldUnreal's Unreal 227))
            COLLISION Command [] (MESH COLLISION (OldUnreal's Unreal 227))
        "#]],
    );
}

#[test]
fn keys_of_the_command_leave_out_those_present() {
    check(
        "#exec MESH SEQUENCE MESH=Skull $0 SEQ=All\n",
        expect![[r#"
        *SEQ= Key [] (name, required)
        STARTFRAME= Key [] (integer, required)
        NUMFRAMES= Key [] (integer, required)
        RATE= Key [] (number)
        GROUP= Key [] (name)
    "#]],
    );
}

#[test]
fn keys_for_ue2() {
    let f = Fixture::new("#exec TEXTURE IMPORT $0\n").engine("ue2");
    check_fixture(
        &f,
        40,
        expect![[r#"
            *FILE= Key [] (file path, required)
            NAME= Key [] (name)
            PACKAGE= Key [] (name)
            GROUP= Key [] (name)
            MIPS= Key [] (boolean)
            LODSET= Key [] (integer)
            NEXT= Key [] (Texture reference)
            ALPHATRICK= Key [] (boolean)
            ALPHA= Key [] (boolean, UE2)
            NORMALLOD= Key [] (integer, UE2)
            MASKED= Key [] (boolean, UE2)
            ALPHATEXTURE= Key [] (boolean, UE2)
            UCLAMPMODE= Key [] (one of CLAMP, WRAP, UE2)
            VCLAMPMODE= Key [] (one of CLAMP, WRAP, UE2)
            DXT= Key [] (integer, UE2)
            MODULATED= Key [] (boolean, UE2)
            ADDITIVE= Key [] (boolean, UE2)
        "#]],
    );
}

#[test]
fn enum_and_bool_values() {
    check(
        "#exec MESH IMPORT MESH=A MLOD=$0\n",
        expect![[r#"
        1 Value [] (true)
        0 Value [] (false)
    "#]],
    );
}

#[test]
fn mesh_names_from_the_package() {
    check(
        &in_skull("#exec MESH LODPARAMS MESH=$0"),
        expect![[r#"
        Skull Name [] (mesh, this file)
    "#]],
    );
}

#[test]
fn texture_names_from_the_package() {
    check(
        &in_skull("#exec MESHMAP SETTEXTURE MESHMAP=Skull NUM=2 TEXTURE=J$0"),
        expect![[r#"
        JSkull1 Name [J] (texture, this file)
    "#]],
    );
}

#[test]
fn sequences_of_the_lines_mesh() {
    check(
        &in_skull("#exec MESH NOTIFY MESH=Skull SEQ=$0 TIME=0.1"),
        expect![[r#"
        All Name [] (sequence of Skull)
        Bite Name [] (sequence of Skull)
    "#]],
    );
}

#[test]
fn image_paths_relative_to_the_package() {
    check(
        &in_skull("#exec TEXTURE IMPORT NAME=X FILE=$0"),
        expect![[r#"
        Textures\Skull1.pcx File [] (pcx file)
        Textures\Skull2.bmp File [] (bmp file)
    "#]],
    );
}

#[test]
fn mesh_data_paths_inside_quotes() {
    check(
        &in_skull("#exec MESH IMPORT MESH=X DATAFILE=\"Mod$0\""),
        expect![[r#"
        Models\Skull_d.3d File [Mod] (3d file)
    "#]],
    );
}

#[test]
fn nothing_in_a_comment_or_outside_directives() {
    check("#exec MESH IMPORT // MESH=$0\n", expect![[""]]);
    check("var int $0;\n", expect![[""]]);
}
