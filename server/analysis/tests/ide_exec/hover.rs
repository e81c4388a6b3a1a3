use expect_test::{expect, Expect};
use unreal_analysis::ide::exec::hover::hover;

use crate::{at, show, Fixture};

fn check_fixture(f: &Fixture, expect: Expect) {
    let env = f.env();
    let src = f.source(&env);
    let actual = match hover(&src, f.cursor()) {
        Some(h) => {
            let image = h.image.map_or_else(String::new, |i| {
                assert!(i.png.starts_with(b"\x89PNG"), "a PNG");
                format!("--- image\n{} {}x{}\n", i.alt, i.width, i.height)
            });
            format!("{}\n---\n{}\n{image}", show(&f.text, h.span), h.markdown)
        }
        None => "no hover\n".to_owned(),
    };
    expect.assert_eq(&actual);
}

fn check(fixture: &str, expect: Expect) {
    check_fixture(&Fixture::new(fixture), expect);
}

#[test]
fn directive_word() {
    check(
        &at("/Game/Monsters/Classes/Skull.uc", "#exec MESH ORIGIN", 2),
        expect![[r##"
            4:1..4:6 "#exec"
            ---
            **#exec** (UE1 and UE2)

            Runs an editor command while UCC compiles the class. Runs only in a full compile of the package (not when only the script changed).
        "##]],
    );
}

#[test]
fn command_words_document_the_command_and_its_keys() {
    check(
        &at("/Game/Monsters/Classes/Skull.uc", "SEQUENCE", 3),
        expect![[r#"
        5:7..5:20 "MESH SEQUENCE"
        ---
        **MESH SEQUENCE** (UE1 and UE2)

        Defines (or redefines) a named animation sequence of a vertex mesh.

        Keys:
        - `MESH=` Mesh reference, required
        - `SEQ=` name, required
        - `STARTFRAME=` integer, required
        - `NUMFRAMES=` integer, required
        - `RATE=` number
        - `GROUP=` name

        Without a required key the engine logs "Bad MESH SEQUENCE".
    "#]],
    );
}

#[test]
fn key_documentation_with_engines() {
    check(
        &at("/Game/Monsters/Classes/Skull.uc", "NUMFRAMES", 1),
        expect![[r#"
        5:53..5:64 "NUMFRAMES=2"
        ---
        **NUMFRAMES=** integer of MESH SEQUENCE

        Number of frames.

        *UE1 and UE2; required*
    "#]],
    );
}

#[test]
fn key_ignored_by_the_engine() {
    check(
        "#exec MESHMAP SCALE MESHMAP=Skull X=1 YA$0W=64\n",
        expect![[r#"
        1:39..1:45 "YAW=64"
        ---
        **YAW=** number of MESHMAP SCALE

        Yaw in 1/256 turns (64 = 90 degrees); multiplied by 256 into rotation units.

        *UE1 and UE2; ignored by the engine: MESHMAP SCALE reads no rotation; use MESH ORIGIN*
    "#]],
    );
}

#[test]
fn unknown_key() {
    check(
        "#exec MESH SEQUENCE MESH=Skull SEQ=All STARTFRAME=0 NUMFRAMES=1 BO$0GUS=10\n",
        expect![[r#"
            1:65..1:73 "BOGUS=10"
            ---
            `BOGUS` is not a key of MESH SEQUENCE that unreal-ls knows: the engine never reads it.
        "#]],
    );
}

#[test]
fn mesh_files_summarised_together() {
    check(
        &at("/Game/Monsters/Classes/Skull.uc", "Models\\Skull_d", 3),
        expect![[r#"
        3:66..3:83 "Models\\Skull_d.3d"
        ---
        **DATAFILE=** `Models\Skull_d.3d`

        `Models/Skull_d.3d`

        ```text
        vertex mesh: 2 triangles, 4 vertices, 2 frames, 4 bytes per vertex
        texture slots: 0, 1
        ```
    "#]],
    );
}

#[test]
fn path_with_other_case() {
    check(
        &at("/Game/Monsters/Classes/Skull.uc", "MODELS\\Skull_a", 3),
        expect![[r#"
        3:39..3:56 "MODELS\\Skull_a.3d"
        ---
        **ANIVFILE=** `MODELS\Skull_a.3d`

        `Models/Skull_a.3d`

        On disk the path is spelt `Models\Skull_a.3d`: found on Windows, missing on case-sensitive file systems.

        ```text
        vertex mesh: 2 triangles, 4 vertices, 2 frames, 4 bytes per vertex
        texture slots: 0, 1
        ```
    "#]],
    );
}

#[test]
fn image_file() {
    check(
        &at("/Game/Monsters/Classes/Skull.uc", "Skull1.pcx", 3),
        expect![[r#"
        10:40..10:59 "Textures\\Skull1.pcx"
        ---
        **FILE=** `Textures\Skull1.pcx`

        `Textures/Skull1.pcx`

        ```text
        PCX image: 64x32, 8 bits per pixel, paletted
        ```
    "#]],
    );
}

#[test]
fn sound_file_in_quotes() {
    check(
        &at("/Game/Monsters/Classes/Skull.uc", "Sounds\\Bite", 3),
        expect![[r#"
        12:26..12:41 "Sounds\\Bite.wav"
        ---
        **FILE=** `Sounds\Bite.wav`

        `Sounds/Bite.wav`

        ```text
        WAV sound: PCM (tag 1), 1 channel, 22050 Hz, 16 bits, 4 bytes, 0.000 s
        ```
    "#]],
    );
}

#[test]
fn missing_file() {
    check(
        &at("/Game/Monsters/Classes/Skull.uc", "Decor.utx", 3),
        expect![[r#"
            13:21..13:39 "Textures\\Decor.utx"
            ---
            **FILE=** `Textures\Decor.utx`

            No such file under `/Game/Monsters`.
        "#]],
    );
}

#[test]
fn paths_leading_out() {
    let tree = "//- /Game/Out/Textures/Linked -> /Elsewhere
//- /Elsewhere/Secret.pcx = pcx 16x16 bpp=8
//- /Game/Out/Classes/Out.uc
#exec TEXTURE IMPORT NAME=Far FILE=..\\..\\Art\\Rock.pcx
#exec TEXTURE IMPORT NAME=Linked FILE=textures\\linked\\Secret.p$0cx
";
    check(
        tree,
        expect![[r#"
            2:39..2:65 "textures\\linked\\Secret.pcx"
            ---
            **FILE=** `textures\linked\Secret.pcx`

            The path leaves the package folder through the symbolic link `Textures/Linked`; nothing behind it was looked up.
        "#]],
    );
    check(
        &tree.replace("$0", "").replace("Rock.pcx", "Ro$0ck.pcx"),
        expect![[r#"
            1:36..1:54 "..\\..\\Art\\Rock.pcx"
            ---
            **FILE=** `..\..\Art\Rock.pcx`

            The path leaves the package folder; it was not looked up.
        "#]],
    );
}

#[test]
fn name_defined_in_another_class() {
    check(
        &at("/Game/Monsters/Classes/SkullNotify.uc", "MESH=Skull SEQ", 6),
        expect![[r#"
        3:24..3:29 "Skull"
        ---
        **mesh `Skull`**

        Defined in `Classes/Skull.uc`, line 3 (vertex mesh, with LOD).
    "#]],
    );
}

#[test]
fn sequence_of_a_mesh() {
    check(
        &at("/Game/Monsters/Classes/SkullNotify.uc", "SEQ=Bite", 5),
        expect![[r#"
        3:34..3:38 "Bite"
        ---
        **sequence `Bite` of mesh `Skull`**

        Defined in `Classes/Skull.uc`, line 6.
    "#]],
    );
}

#[test]
fn definition_lists_sequences() {
    check(
        &at("/Game/Monsters/Classes/Skull.uc", "MESH=Skull ANIV", 6),
        expect![[r#"
        3:24..3:29 "Skull"
        ---
        **mesh `Skull`**

        Defined here.

        Sequences: All, Bite
    "#]],
    );
}

#[test]
fn undefined_name() {
    check(
        "#exec MESHMAP NEW MESHMAP=Skull MESH=Sk$0ull\n",
        expect![[r#"
            1:38..1:43 "Skull"
            ---
            **mesh `Skull`**

            No directive of package `Test` defines it.
        "#]],
    );
}

#[test]
fn buffer_without_a_path() {
    let f = Fixture::new("#exec TEXTURE IMPORT FILE=Textures\\A$0.pcx\n");
    let src = f.buffer();
    let h = hover(&src, f.cursor()).unwrap();
    expect![[r#"
        **FILE=** `Textures\A.pcx`

        Not looked up: the document is not in a folder on disk."#]]
    .assert_eq(&h.markdown);
}

#[test]
fn nothing_outside_directives() {
    check(
        "class A extends Actor;$0\n#exec MESH IMPORT MESH=A\n",
        expect![[r#"
        no hover
    "#]],
    );
}

/// An image `FILE=` gets its picture (scaled to at most 256 pixels a side) besides the text;
/// a file that is not the image it claims to be gets none.
#[test]
fn image_file_with_its_picture() {
    let tree = r#"//- /Game/Art/Classes/Art.uc
#exec TEXTURE IMPORT NAME=Wide FILE=Textures\Wide.bmp
#exec TEXTURE IMPORT NAME=Broken FILE=Textures\Broken.tga
//- /Game/Art/Textures/Wide.bmp = bmp 1024x512 bpp=8 fill=3
//- /Game/Art/Textures/Broken.tga = text not an image
"#;
    check(
        &crate::at_in(tree, "/Game/Art/Classes/Art.uc", "Wide.bmp", 2),
        expect![[r#"
            1:37..1:54 "Textures\\Wide.bmp"
            ---
            **FILE=** `Textures\Wide.bmp`

            `Textures/Wide.bmp`

            ```text
            BMP image: 1024x512, 8 bits per pixel, paletted
            ```
            --- image
            Wide.bmp 256x128
        "#]],
    );
    check(
        &crate::at_in(tree, "/Game/Art/Classes/Art.uc", "Broken.tga", 2),
        expect![[r#"
            2:39..2:58 "Textures\\Broken.tga"
            ---
            **FILE=** `Textures\Broken.tga`

            `Textures/Broken.tga`

            The file cannot be read as expected: TGA header at byte 12: expected width (2 bytes), but the file ends after 0 more
        "#]],
    );
}
