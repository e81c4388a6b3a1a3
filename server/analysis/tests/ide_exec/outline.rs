//! Document symbols, folding ranges and semantic tokens.

use expect_test::{expect, Expect};
use unreal_analysis::ide::exec::folding::folding_ranges;
use unreal_analysis::ide::exec::semantic_tokens::semantic_tokens;
use unreal_analysis::ide::exec::symbols::document_symbols;

use crate::{at, pos, Fixture};

fn skull() -> Fixture {
    Fixture::new(&at("/Game/Monsters/Classes/Skull.uc", "class", 0))
}

fn check_symbols(f: &Fixture, expect: Expect) {
    let env = f.env();
    let src = f.source(&env);
    let out: String = document_symbols(&src)
        .iter()
        .map(|s| {
            format!(
                "{} | {} | {:?}\n",
                s.name,
                s.detail.as_deref().unwrap_or("-"),
                s.selection_span.text(&f.text)
            )
        })
        .collect();
    expect.assert_eq(&out);
}

fn check_folding(f: &Fixture, expect: Expect) {
    let env = f.env();
    let src = f.source(&env);
    let out: String = folding_ranges(&src)
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

fn check_tokens(f: &Fixture, range: Option<unreal_syntax::Span>, expect: Expect) {
    let env = f.env();
    let src = f.source(&env);
    let out: String = semantic_tokens(&src, range)
        .iter()
        .map(|t| {
            let decl = if t.modifiers != 0 { " declaration" } else { "" };
            format!(
                "{} {:?} {}{decl}\n",
                pos(&f.text, t.span.start),
                t.span.text(&f.text),
                t.token_type.name()
            )
        })
        .collect();
    expect.assert_eq(&out);
}

#[test]
fn a_symbol_per_directive() {
    check_symbols(
        &skull(),
        expect![[r#"
            MESH IMPORT Skull | defines mesh | "Skull"
            MESH ORIGIN Skull | uses mesh | "Skull"
            MESH SEQUENCE All | sequence of Skull | "All"
            MESH SEQUENCE Bite | sequence of Skull | "Bite"
            MESHMAP NEW Skull | uses mesh | "Skull"
            MESHMAP SCALE Skull | uses mesh | "Skull"
            TEXTURE IMPORT JSkull1 | defines texture | "JSkull1"
            MESHMAP SETTEXTURE Skull | uses mesh | "Skull"
            AUDIO IMPORT Bite | defines sound | "Sounds\\Bite.wav"
            OBJ LOAD | - | "OBJ LOAD"
        "#]],
    );
}

#[test]
fn symbols_of_other_directives() {
    check_symbols(
        &Fixture::new("#error Do not compile$0\n#include Shared.uci\n#exec FOO BAR=1\n"),
        expect![[r##"
            #error Do not compile | - | "#error"
            #include Shared.uci | - | "#include"
            #exec FOO BAR=1 | - | "#exec"
        "##]],
    );
}

#[test]
fn runs_of_consecutive_directives_fold() {
    check_folding(
        &skull(),
        expect![[r##"
        3:1..8:52 "#exec MESH IMPORT MESH=Skull ANIVFILE=MODELS\\Skull_a.3d DATAFILE=Models\\Skull_d.3d (6 directives)"
        10:1..13:39 "#exec TEXTURE IMPORT NAME=JSkull1 FILE=Textures\\Skull1.pcx GROUP=Skins (4 directives)"
    "##]],
    );
}

#[test]
fn crlf_runs_fold_too() {
    check_folding(
        &Fixture::new("$0#exec A\r\n#exec B\r\n\r\n#exec C\r\n"),
        expect![[r##"
        1:1..2:8 "#exec A (2 directives)"
    "##]],
    );
}

#[test]
fn tokens_of_a_line() {
    let f = Fixture::new(
        "#exec MESH IMPORT MESH=Skull ANIVFILE=\"Models\\A_a.3d\" MLOD=0 LODSTYLE=12 Bogus=1\n$0#exec MESHMAP SETTEXTURE MESHMAP=Skull NUM=0 TEXTURE=Wall // comment\n",
    );
    check_tokens(
        &f,
        None,
        expect![[r##"
        1:1 "#exec" keyword
        1:7 "MESH" type
        1:12 "IMPORT" type
        1:19 "MESH" parameter
        1:24 "Skull" variable declaration
        1:30 "ANIVFILE" parameter
        1:39 "\"Models\\A_a.3d\"" string
        1:55 "MLOD" parameter
        1:60 "0" enumMember
        1:62 "LODSTYLE" parameter
        1:71 "12" number
        1:74 "Bogus" parameter
        1:80 "1" string
        2:1 "#exec" keyword
        2:7 "MESHMAP" type
        2:15 "SETTEXTURE" type
        2:26 "MESHMAP" parameter
        2:34 "Skull" variable
        2:40 "NUM" parameter
        2:44 "0" number
        2:46 "TEXTURE" parameter
        2:54 "Wall" variable
    "##]],
    );
}

#[test]
fn tokens_of_a_range() {
    let f = Fixture::new("#exec A B=1\n#exec MESH ORIGIN $0MESH=X$0 YAW=64\n#exec C D=1\n");
    check_tokens(
        &f,
        Some(f.selection()),
        expect![[r##"
        2:1 "#exec" keyword
        2:7 "MESH" type
        2:12 "ORIGIN" type
        2:19 "MESH" parameter
        2:24 "X" variable
        2:26 "YAW" parameter
        2:30 "64" number
    "##]],
    );
}
