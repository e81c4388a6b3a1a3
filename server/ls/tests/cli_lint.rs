//! `unreal-ls lint` as a user runs it: the built binary on the fixtures in
//! `tests/fixtures/lint/`, the bundled `examples/` and the shared corpus, with `NO_COLOR=1`.
//! Each case snapshots the exit code, stdout and stderr (`UPDATE_EXPECT=1` to refresh after
//! checking the diff).

// expect-test writes every snapshot as `r#"..."#`, quotes or not.
#![allow(clippy::needless_raw_string_hashes)]
// Helpers outside `#[test]` functions run the binary; a failure there is a test failure.
#![allow(clippy::unwrap_used)]

use std::path::{Path, PathBuf};
use std::process::Command;

use expect_test::{expect, expect_file, Expect, ExpectFile};

fn manifest_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn fixtures() -> PathBuf {
    manifest_dir().join("tests/fixtures/lint")
}

/// Runs `unreal-ls lint ARGS` in `cwd` and renders what a user sees.
fn run(cwd: &Path, args: &[&str]) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_unreal-ls"))
        .arg("lint")
        .args(args)
        .current_dir(cwd)
        .env("NO_COLOR", "1")
        .env_remove("CLICOLOR_FORCE")
        .output()
        .unwrap();
    let code = output.status.code().map_or("signal".to_owned(), |c| c.to_string());
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    let mut shown = format!("exit: {code}\n--- stdout\n{stdout}");
    if !stderr.is_empty() {
        shown.push_str("--- stderr\n");
        shown.push_str(&stderr);
    }
    shown
}

fn check(args: &[&str], expect: &Expect) {
    expect.assert_eq(&run(&fixtures(), args));
}

fn check_file(cwd: &Path, args: &[&str], expect: &ExpectFile) {
    expect.assert_eq(&run(cwd, args));
}

#[test]
fn clean_file() {
    check(
        &["clean.t3d"],
        &expect![[r#"
            exit: 0
            --- stdout
            info[t3d-no-player-start]: this map has no `PlayerStart`: a player who joins a game on it has no place to start
             --> clean.t3d:2:19
              |
            2 | Begin Actor Class=LevelInfo Name=LevelInfo0
              |                   ^^^^^^^^^
              |

            info[t3d-untitled-level]: this `LevelInfo` sets no `Title`: server browsers and scoreboards show the map as "Untitled"
             --> clean.t3d:2:19
              |
            2 | Begin Actor Class=LevelInfo Name=LevelInfo0
              |                   ^^^^^^^^^
              |

            0 errors, 0 warnings, 2 info in 1 file checked
            references into packages (textures, classes, OBJ LOAD) were not checked: no game folder is set (--game-dir, or game-dir in unreal-ls.toml)
        "#]],
    );
    check(
        &["--format", "json", "clean.t3d"],
        &expect![[r#"
            exit: 0
            --- stdout
            {"version":1,"files":1,"diagnostics":[
            {"file":"clean.t3d","line":2,"column":19,"end_line":2,"end_column":28,"severity":"info","code":"t3d-no-player-start","message":"this map has no `PlayerStart`: a player who joins a game on it has no place to start"},
            {"file":"clean.t3d","line":2,"column":19,"end_line":2,"end_column":28,"severity":"info","code":"t3d-untitled-level","message":"this `LevelInfo` sets no `Title`: server browsers and scoreboards show the map as \"Untitled\""}
            ]}
        "#]],
    );
}

#[test]
fn file_with_errors() {
    check(
        &["error.t3d"],
        &expect![[r#"
            exit: 0
            --- stdout
            info[t3d-no-player-start]: this map has no `PlayerStart`: a player who joins a game on it has no place to start
             --> error.t3d:2:19
              |
            2 | Begin Actor Class=LevelInfo Name=LevelInfo0
              |                   ^^^^^^^^^
              |

            info[t3d-untitled-level]: this `LevelInfo` sets no `Title`: server browsers and scoreboards show the map as "Untitled"
             --> error.t3d:2:19
              |
            2 | Begin Actor Class=LevelInfo Name=LevelInfo0
              |                   ^^^^^^^^^
              |

            warning[t3d-too-few-vertices]: polygon has 2 vertices; a polygon needs at least 3
              --> error.t3d:10:11
               |
            10 |           Begin Polygon
               |           ^^^^^^^^^^^^^
               |

            warning[t3d-malformed-number]: malformed `Vertex` vector: found `+00000.00.000` where a number was expected (vectors are three numbers `X,Y,Z`, as in `+00128.000000,-00064.000000,+00000.000000`); UnrealEd reads it as 0
              --> error.t3d:25:51
               |
            25 |              Vertex   +00128.000000,+00128.000000,+00000.00.000
               |                                                   ^^^^^^^^^^^^^
               |

            0 errors, 2 warnings, 2 info in 1 file checked
            references into packages (textures, classes, OBJ LOAD) were not checked: no game folder is set (--game-dir, or game-dir in unreal-ls.toml)
        "#]],
    );
    check(
        &["--format", "json", "error.t3d"],
        &expect![[r#"
            exit: 0
            --- stdout
            {"version":1,"files":1,"diagnostics":[
            {"file":"error.t3d","line":2,"column":19,"end_line":2,"end_column":28,"severity":"info","code":"t3d-no-player-start","message":"this map has no `PlayerStart`: a player who joins a game on it has no place to start"},
            {"file":"error.t3d","line":2,"column":19,"end_line":2,"end_column":28,"severity":"info","code":"t3d-untitled-level","message":"this `LevelInfo` sets no `Title`: server browsers and scoreboards show the map as \"Untitled\""},
            {"file":"error.t3d","line":10,"column":11,"end_line":10,"end_column":24,"severity":"warning","code":"t3d-too-few-vertices","message":"polygon has 2 vertices; a polygon needs at least 3"},
            {"file":"error.t3d","line":25,"column":51,"end_line":25,"end_column":64,"severity":"warning","code":"t3d-malformed-number","message":"malformed `Vertex` vector: found `+00000.00.000` where a number was expected (vectors are three numbers `X,Y,Z`, as in `+00128.000000,-00064.000000,+00000.000000`); UnrealEd reads it as 0"}
            ]}
        "#]],
    );
}

#[test]
fn file_with_only_warnings() {
    check(
        &["warnings.t3d"],
        &expect![[r#"
            exit: 0
            --- stdout
            info[t3d-no-player-start]: this map has no `PlayerStart`: a player who joins a game on it has no place to start
             --> warnings.t3d:2:19
              |
            2 | Begin Actor Class=LevelInfo Name=LevelInfo0
              |                   ^^^^^^^^^
              |

            info[t3d-untitled-level]: this `LevelInfo` sets no `Title`: server browsers and scoreboards show the map as "Untitled"
             --> warnings.t3d:2:19
              |
            2 | Begin Actor Class=LevelInfo Name=LevelInfo0
              |                   ^^^^^^^^^
              |

            warning[t3d-duplicate-actor-name]: actor name `lamp` is used twice in this map
             --> warnings.t3d:9:30
              |
            6 | Begin Actor Class=Light Name=Lamp
              |                              ---- first used here
            7 |      Name="Lamp"
            8 | End Actor
            9 | Begin Actor Class=Light Name=lamp
              |                              ^^^^
              |

            warning[t3d-non-planar-polygon]: polygon is not planar: vertex 4 is 2.000 units off the plane through vertex 1 (the BSP's splits take less than 0.25 as in the plane); triangulate it or move the vertex
              --> warnings.t3d:16:11
               |
            16 |           Begin Polygon Texture=GenFloor.Floor.Flr06
               |           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
            17 |              Origin   +00000.000000,+00000.000000,+00000.000000
            ...
            23 |              Vertex   +00128.000000,+00128.000000,+00000.000000
            24 |              Vertex   +00128.000000,+00000.000000,+00004.000000
               |              -------------------------------------------------- off the plane
               |
               = help: Tessellate: 2 planar triangles with the polygon's texture, flags and mapping

            note[t3d-normal-mismatch]: stored normal +00000.000000,+00000.000000,-00001.000000 differs from the normal of the vertices +00000.015621,-00000.015621,-00000.999756; import recomputes it
              --> warnings.t3d:18:23
               |
            18 |              Normal   +00000.000000,+00000.000000,-00001.000000
               |                       ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
               |
               = help: Recompute the normal from the vertices

            0 errors, 2 warnings, 2 info, 1 hint in 1 file checked
            references into packages (textures, classes, OBJ LOAD) were not checked: no game folder is set (--game-dir, or game-dir in unreal-ls.toml)
        "#]],
    );
    check(
        &["--format=json", "warnings.t3d"],
        &expect![[r#"
            exit: 0
            --- stdout
            {"version":1,"files":1,"diagnostics":[
            {"file":"warnings.t3d","line":2,"column":19,"end_line":2,"end_column":28,"severity":"info","code":"t3d-no-player-start","message":"this map has no `PlayerStart`: a player who joins a game on it has no place to start"},
            {"file":"warnings.t3d","line":2,"column":19,"end_line":2,"end_column":28,"severity":"info","code":"t3d-untitled-level","message":"this `LevelInfo` sets no `Title`: server browsers and scoreboards show the map as \"Untitled\""},
            {"file":"warnings.t3d","line":9,"column":30,"end_line":9,"end_column":34,"severity":"warning","code":"t3d-duplicate-actor-name","message":"actor name `lamp` is used twice in this map","related":[{"line":6,"column":30,"end_line":6,"end_column":34,"message":"first used here"}]},
            {"file":"warnings.t3d","line":16,"column":11,"end_line":16,"end_column":53,"severity":"warning","code":"t3d-non-planar-polygon","message":"polygon is not planar: vertex 4 is 2.000 units off the plane through vertex 1 (the BSP's splits take less than 0.25 as in the plane); triangulate it or move the vertex","related":[{"line":24,"column":14,"end_line":24,"end_column":64,"message":"off the plane"}]},
            {"file":"warnings.t3d","line":18,"column":23,"end_line":18,"end_column":64,"severity":"hint","code":"t3d-normal-mismatch","message":"stored normal +00000.000000,+00000.000000,-00001.000000 differs from the normal of the vertices +00000.015621,-00000.015621,-00000.999756; import recomputes it","tags":["unnecessary"]}
            ]}
        "#]],
    );
}

/// A directory: `.t3d` in any case, a `.txt` whose first line is `Begin Map`; not other
/// text, not hidden folders, not binary extensions (`Textures.utx` starts with `Begin Map`
/// but is never opened).
#[test]
fn directory() {
    check(
        &["dir"],
        &expect![[r#"
            exit: 0
            --- stdout
            warning[t3d-duplicate-actor-name]: actor name `PathNode0` is used twice in this map
             --> dir/clipboard.txt:6:33
              |
            2 | Begin Actor Class=PathNode Name=PathNode0
              |                                 --------- first used here
            3 |      Location=(X=128.000000)
            4 |      Name="PathNode0"
            5 | End Actor
            6 | Begin Actor Class=PathNode Name=PathNode0
              |                                 ^^^^^^^^^
              |

            warning[t3d-degenerate-polygon]: polygon has no area: its 3 vertices are collinear or coincide
             --> dir/sub/Brush.T3D:2:4
              |
            2 |    Begin Polygon
              |    ^^^^^^^^^^^^^
              |

            0 errors, 2 warnings in 2 files checked
            references into packages (textures, classes, OBJ LOAD) were not checked: no game folder is set (--game-dir, or game-dir in unreal-ls.toml)
        "#]],
    );
    check(
        &["--format", "json", "dir/"],
        &expect![[r#"
            exit: 0
            --- stdout
            {"version":1,"files":2,"diagnostics":[
            {"file":"dir/clipboard.txt","line":6,"column":33,"end_line":6,"end_column":42,"severity":"warning","code":"t3d-duplicate-actor-name","message":"actor name `PathNode0` is used twice in this map","related":[{"line":2,"column":33,"end_line":2,"end_column":42,"message":"first used here"}]},
            {"file":"dir/sub/Brush.T3D","line":2,"column":4,"end_line":2,"end_column":17,"severity":"warning","code":"t3d-degenerate-polygon","message":"polygon has no area: its 3 vertices are collinear or coincide"}
            ]}
        "#]],
    );
}

#[test]
fn explicit_file_that_is_not_t3d_is_skipped_with_a_note() {
    check(
        &["dir/notes.txt"],
        &expect![[r#"
            exit: 0
            --- stdout
            0 errors, 0 warnings in 0 files checked
            --- stderr
            note: dir/notes.txt: not a T3D map or UnrealScript file; skipped
            warning: no T3D or UnrealScript files found
        "#]],
    );
}

#[test]
fn empty_file() {
    check(
        &["empty.t3d"],
        &expect![[r#"
            exit: 1
            --- stdout
            error[t3d-not-t3d]: the file is empty: expected a T3D export starting with `Begin Map`, `Begin Actor` or `Begin PolyList`
            --> empty.t3d:1:1
             |
             |

            1 error, 0 warnings in 1 file checked
            references into packages (textures, classes, OBJ LOAD) were not checked: no game folder is set (--game-dir, or game-dir in unreal-ls.toml)
        "#]],
    );
    check(
        &["--format", "json", "empty.t3d"],
        &expect![[r#"
            exit: 1
            --- stdout
            {"version":1,"files":1,"diagnostics":[
            {"file":"empty.t3d","line":1,"column":1,"end_line":1,"end_column":1,"severity":"error","code":"t3d-not-t3d","message":"the file is empty: expected a T3D export starting with `Begin Map`, `Begin Actor` or `Begin PolyList`"}
            ]}
        "#]],
    );
}

/// Files that only code can write: binary garbage named `.t3d`, and a UTF-16LE export with
/// a BOM (columns count characters of the decoded text, not bytes).
#[test]
fn binary_garbage_and_utf16() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli-lint-generated");
    std::fs::create_dir_all(&dir).unwrap();

    let mut state = 0x2545_F491_4F6C_DD1D_u64;
    let garbage: Vec<u8> = (0..4096)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 24) as u8
        })
        .collect();
    std::fs::write(dir.join("garbage.t3d"), garbage).unwrap();

    let text = "Begin Map\r\nBegin Actor Class=Light Name=Lumi\u{e8}re\r\n     Name=\"Lumi\u{e8}re\"\r\nEnd Actor\r\nBegin Actor Class=Light Name=Lumi\u{e8}re\r\nEnd Actor\r\nEnd Mop\r\n";
    let mut utf16 = vec![0xFF, 0xFE];
    utf16.extend(text.encode_utf16().flat_map(u16::to_le_bytes));
    std::fs::write(dir.join("utf16.t3d"), utf16).unwrap();

    expect![[r#"
        exit: 1
        --- stdout
        error[t3d-not-t3d]: the file is binary, not T3D text: expected a T3D export starting with `Begin Map`, `Begin Actor` or `Begin PolyList`
        --> garbage.t3d:1:1
         |
         |

        note[t3d-unbalanced-block]: `Begin Map` is never closed; UnrealEd reads the map to the end of the text, so nothing is lost
         --> utf16.t3d:1:1
          |
        1 | Begin Map
          | ^^^^^^^^^
        2 | Begin Actor Class=Light Name=Lumière
        ...
        6 | End Actor
        7 | End Mop
          |        - the file ends here
          |

        warning[t3d-duplicate-actor-name]: actor name `Lumière` is used twice in this map
         --> utf16.t3d:5:30
          |
        2 | Begin Actor Class=Light Name=Lumière
          |                              ------- first used here
        3 |      Name="Lumière"
        4 | End Actor
        5 | Begin Actor Class=Light Name=Lumière
          |                              ^^^^^^^
          |

        note[t3d-unbalanced-block]: `End Mop` does not match the open `Begin Map`: expected `End Map`; UnrealEd skips this line
         --> utf16.t3d:7:1
          |
        1 | Begin Map
          | --------- the open block starts here
        2 | Begin Actor Class=Light Name=Lumière
        ...
        6 | End Actor
        7 | End Mop
          | ^^^^^^^
          |

        1 error, 1 warning, 2 hints in 2 files checked
        references into packages (textures, classes, OBJ LOAD) were not checked: no game folder is set (--game-dir, or game-dir in unreal-ls.toml)
    "#]].assert_eq(&run(&dir, &["garbage.t3d", "utf16.t3d"]));
    expect![[r#"
        exit: 1
        --- stdout
        {"version":1,"files":2,"diagnostics":[
        {"file":"garbage.t3d","line":1,"column":1,"end_line":1,"end_column":1,"severity":"error","code":"t3d-not-t3d","message":"the file is binary, not T3D text: expected a T3D export starting with `Begin Map`, `Begin Actor` or `Begin PolyList`"},
        {"file":"utf16.t3d","line":1,"column":1,"end_line":1,"end_column":10,"severity":"hint","code":"t3d-unbalanced-block","message":"`Begin Map` is never closed; UnrealEd reads the map to the end of the text, so nothing is lost","related":[{"line":8,"column":1,"end_line":8,"end_column":1,"message":"the file ends here"}]},
        {"file":"utf16.t3d","line":5,"column":30,"end_line":5,"end_column":37,"severity":"warning","code":"t3d-duplicate-actor-name","message":"actor name `Lumière` is used twice in this map","related":[{"line":2,"column":30,"end_line":2,"end_column":37,"message":"first used here"}]},
        {"file":"utf16.t3d","line":7,"column":1,"end_line":7,"end_column":8,"severity":"hint","code":"t3d-unbalanced-block","message":"`End Mop` does not match the open `Begin Map`: expected `End Map`; UnrealEd skips this line","related":[{"line":1,"column":1,"end_line":1,"end_column":10,"message":"the open block starts here"}]}
        ]}
    "#]].assert_eq(&run(&dir, &["--format", "json", "garbage.t3d", "utf16.t3d"]));
}

/// Files of 64 KB and more are mapped instead of read when they are UTF-8 (with or without
/// a byte order mark); others are read and decoded. Every encoding of the same big map must
/// give the same findings at the same lines and columns, in JSON and in code frames.
#[test]
fn big_files_report_the_same_in_every_encoding() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli-lint-big");
    std::fs::create_dir_all(&dir).unwrap();
    let mut text = String::from("Begin Map\r\n");
    for i in 0..1200 {
        let actor = format!(
            "Begin Actor Class=Light Name=Lumi\u{e8}re{i}\r\n    Location=(X={i}.0,Y=2.0)\r\nEnd Actor\r\n"
        );
        text.push_str(&actor);
    }
    text.push_str("Begin Actor Class=Light Name=Lumi\u{e8}re7\r\nEnd Actor\r\nEnd Mop\r\n");
    assert!(text.len() > 64 * 1024);
    let mut bom = b"\xEF\xBB\xBF".to_vec();
    bom.extend(text.as_bytes());
    let cp1252: Vec<u8> =
        text.chars().map(|c| if c == '\u{e8}' { 0xE8 } else { c as u8 }).collect();
    let mut utf16 = vec![0xFF, 0xFE];
    utf16.extend(text.encode_utf16().flat_map(u16::to_le_bytes));
    let files = [("utf8", text.into_bytes()), ("bom", bom), ("cp1252", cp1252), ("utf16", utf16)];
    let mut outputs = Vec::new();
    for (name, bytes) in files {
        let file = format!("{name}.t3d");
        std::fs::write(dir.join(&file), bytes).unwrap();
        let json = run(&dir, &["--format", "json", &file]).replace(&file, "MAP");
        let human = run(&dir, &[&file]).replace(&file, "MAP");
        outputs.push((name, json, human));
    }
    for (name, json, human) in &outputs[1..] {
        assert_eq!(json, &outputs[0].1, "{name}");
        assert_eq!(human, &outputs[0].2, "{name}");
    }
    expect![[r#"
        exit: 0
        --- stdout
        {"version":1,"files":1,"diagnostics":[
        {"file":"MAP","line":1,"column":1,"end_line":1,"end_column":10,"severity":"hint","code":"t3d-unbalanced-block","message":"`Begin Map` is never closed; UnrealEd reads the map to the end of the text, so nothing is lost","related":[{"line":3605,"column":1,"end_line":3605,"end_column":1,"message":"the file ends here"}]},
        {"file":"MAP","line":3602,"column":30,"end_line":3602,"end_column":38,"severity":"warning","code":"t3d-duplicate-actor-name","message":"actor name `Lumière7` is used twice in this map","related":[{"line":23,"column":30,"end_line":23,"end_column":38,"message":"first used here"}]},
        {"file":"MAP","line":3604,"column":1,"end_line":3604,"end_column":8,"severity":"hint","code":"t3d-unbalanced-block","message":"`End Mop` does not match the open `Begin Map`: expected `End Map`; UnrealEd skips this line","related":[{"line":1,"column":1,"end_line":1,"end_column":10,"message":"the open block starts here"}]}
        ]}
    "#]]
    .assert_eq(&outputs[0].1);
}

#[test]
fn usage_errors() {
    check(
        &["--bogus", "clean.t3d"],
        &expect![[r#"
        exit: 2
        --- stdout
        --- stderr
        error: unexpected argument '--bogus' found

          tip: to pass '--bogus' as a value, use '-- --bogus'

        Usage: unreal-ls lint [OPTIONS] [PATHS]...

        For more information, try '--help'.
    "#]],
    );
    check(
        &["--format", "xml", "clean.t3d"],
        &expect![[r#"
            exit: 2
            --- stdout
            --- stderr
            error: invalid value 'xml' for '--format <FORMAT>'
              [possible values: human, json, sarif, github]

            For more information, try '--help'.
        "#]],
    );
    check(
        &["--engine", "ue3", "clean.t3d"],
        &expect![[r#"
        exit: 2
        --- stdout
        --- stderr
        error: invalid value 'ue3' for '--engine <ENGINE>'
          [possible values: auto, ue1, ue2]

          tip: a similar value exists: 'ue2'

        For more information, try '--help'.
    "#]],
    );
}

/// A missing path is an I/O failure (exit 2, named on stderr) and the other paths are still
/// checked.
#[test]
fn missing_path() {
    check(
        &["missing.t3d", "clean.t3d", "no/such/dir"],
        &expect![[r#"
            exit: 2
            --- stdout
            info[t3d-no-player-start]: this map has no `PlayerStart`: a player who joins a game on it has no place to start
             --> clean.t3d:2:19
              |
            2 | Begin Actor Class=LevelInfo Name=LevelInfo0
              |                   ^^^^^^^^^
              |

            info[t3d-untitled-level]: this `LevelInfo` sets no `Title`: server browsers and scoreboards show the map as "Untitled"
             --> clean.t3d:2:19
              |
            2 | Begin Actor Class=LevelInfo Name=LevelInfo0
              |                   ^^^^^^^^^
              |

            0 errors, 0 warnings, 2 info in 1 file checked
            references into packages (textures, classes, OBJ LOAD) were not checked: no game folder is set (--game-dir, or game-dir in unreal-ls.toml)
            --- stderr
            error: missing.t3d: no such file or directory
            error: no/such/dir: no such file or directory
        "#]],
    );
    check(
        &["--format", "json", "missing.t3d", "warnings.t3d"],
        &expect![[r#"
            exit: 2
            --- stdout
            {"version":1,"files":1,"diagnostics":[
            {"file":"warnings.t3d","line":2,"column":19,"end_line":2,"end_column":28,"severity":"info","code":"t3d-no-player-start","message":"this map has no `PlayerStart`: a player who joins a game on it has no place to start"},
            {"file":"warnings.t3d","line":2,"column":19,"end_line":2,"end_column":28,"severity":"info","code":"t3d-untitled-level","message":"this `LevelInfo` sets no `Title`: server browsers and scoreboards show the map as \"Untitled\""},
            {"file":"warnings.t3d","line":9,"column":30,"end_line":9,"end_column":34,"severity":"warning","code":"t3d-duplicate-actor-name","message":"actor name `lamp` is used twice in this map","related":[{"line":6,"column":30,"end_line":6,"end_column":34,"message":"first used here"}]},
            {"file":"warnings.t3d","line":16,"column":11,"end_line":16,"end_column":53,"severity":"warning","code":"t3d-non-planar-polygon","message":"polygon is not planar: vertex 4 is 2.000 units off the plane through vertex 1 (the BSP's splits take less than 0.25 as in the plane); triangulate it or move the vertex","related":[{"line":24,"column":14,"end_line":24,"end_column":64,"message":"off the plane"}]},
            {"file":"warnings.t3d","line":18,"column":23,"end_line":18,"end_column":64,"severity":"hint","code":"t3d-normal-mismatch","message":"stored normal +00000.000000,+00000.000000,-00001.000000 differs from the normal of the vertices +00000.015621,-00000.015621,-00000.999756; import recomputes it","tags":["unnecessary"]}
            ]}
            --- stderr
            error: missing.t3d: no such file or directory
        "#]],
    );
}

/// Output is sorted by path whatever the order on the command line, and a file named twice
/// is checked once.
#[test]
fn order_and_duplicates() {
    let forward = run(&fixtures(), &["--format", "json", "warnings.t3d", "error.t3d", "dir"]);
    let backward =
        run(&fixtures(), &["--format", "json", "dir", "error.t3d", "warnings.t3d", "error.t3d"]);
    assert_eq!(forward, backward);
}

#[test]
fn engine_flag() {
    check(
        &["--engine", "ue2", "--format", "json", "warnings.t3d"],
        &expect![[r#"
            exit: 0
            --- stdout
            {"version":1,"files":1,"diagnostics":[
            {"file":"warnings.t3d","line":2,"column":19,"end_line":2,"end_column":28,"severity":"info","code":"t3d-no-player-start","message":"this map has no `PlayerStart`: a player who joins a game on it has no place to start"},
            {"file":"warnings.t3d","line":2,"column":19,"end_line":2,"end_column":28,"severity":"info","code":"t3d-untitled-level","message":"this `LevelInfo` sets no `Title`: server browsers and scoreboards show the map as \"Untitled\""},
            {"file":"warnings.t3d","line":9,"column":30,"end_line":9,"end_column":34,"severity":"warning","code":"t3d-duplicate-actor-name","message":"actor name `lamp` is used twice in this map","related":[{"line":6,"column":30,"end_line":6,"end_column":34,"message":"first used here"}]},
            {"file":"warnings.t3d","line":16,"column":11,"end_line":16,"end_column":53,"severity":"warning","code":"t3d-non-planar-polygon","message":"polygon is not planar: vertex 4 is 2.000 units off the plane through vertex 1 (the BSP's splits take less than 0.25 as in the plane); triangulate it or move the vertex","related":[{"line":24,"column":14,"end_line":24,"end_column":64,"message":"off the plane"}]},
            {"file":"warnings.t3d","line":18,"column":23,"end_line":18,"end_column":64,"severity":"hint","code":"t3d-normal-mismatch","message":"stored normal +00000.000000,+00000.000000,-00001.000000 differs from the normal of the vertices +00000.015621,-00000.015621,-00000.999756; import recomputes it","tags":["unnecessary"]}
            ]}
        "#]],
    );
}

#[test]
fn bundled_examples() {
    let root = manifest_dir().join("../..");
    check_file(&root, &["examples"], &expect_file!["fixtures/lint/expected/examples.human"]);
    check_file(
        &root,
        &["--format", "json", "examples/"],
        &expect_file!["fixtures/lint/expected/examples.json"],
    );
}

/// Every T3D file of the shared corpus: real exports, so no error-level finding.
#[test]
fn corpus_has_no_errors() {
    let relative = "../../../shared/corpus/t3d";
    if !manifest_dir().join(relative).is_dir() {
        unreal_test_support::corpus::absent(&format!(
            "the shared corpus is not at {relative} (relative to server/ls)"
        ));
        return;
    }
    let shown = run(&manifest_dir(), &["--format", "json", relative]);
    let json = shown.split_once("--- stdout\n").map_or("", |(_, rest)| rest);
    let json = json.split("--- stderr").next().unwrap_or("");
    let parsed: serde_json::Value = serde_json::from_str(json).unwrap();
    let errors: Vec<&serde_json::Value> = parsed["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["severity"] == "error")
        .collect();
    assert!(errors.is_empty(), "error-level findings in the corpus: {errors:#?}");
    expect_file!["fixtures/lint/expected/corpus.json"].assert_eq(&shown);
}

/// `examples/defects/README.md` names each finding of `unreal-ls lint examples/defects/` by
/// line and rule, no more and no fewer, and the rules it says are not shown are exactly the
/// T3D rules without a finding there.
#[test]
fn the_defects_readme_names_exactly_what_lint_reports() {
    let root = manifest_dir().join("../..");
    let readme = std::fs::read_to_string(root.join("examples/defects/README.md")).unwrap();
    let mut named: Vec<(u64, String)> = readme
        .lines()
        .filter_map(|l| {
            let rest = l.strip_prefix("- line ")?;
            let (line, rest) = rest.split_once(": `")?;
            let code = rest.split('`').next()?;
            Some((line.parse().ok()?, code.to_owned()))
        })
        .collect();
    named.sort();
    let output = Command::new(env!("CARGO_BIN_EXE_unreal-ls"))
        .current_dir(&root)
        .args(["lint", "--format", "json", "examples/defects/"])
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let mut reported: Vec<(u64, String)> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| (d["line"].as_u64().unwrap(), d["code"].as_str().unwrap().to_owned()))
        .collect();
    reported.sort();
    assert_eq!(named, reported, "README bullets against lint's findings");

    let not_shown = readme.split("Not shown here:").nth(1).expect("a 'Not shown here' paragraph");
    let mut accounted: Vec<String> = not_shown
        .split('`')
        .skip(1)
        .step_by(2)
        .filter(|code| code.starts_with("t3d-"))
        .map(str::to_owned)
        .chain(reported.iter().map(|(_, code)| code.clone()))
        .collect();
    accounted.sort();
    accounted.dedup();
    let mut t3d_rules: Vec<String> =
        unreal_analysis::rules::T3D_RULES.iter().map(|r| r.meta.code.to_owned()).collect();
    t3d_rules.sort();
    assert_eq!(accounted, t3d_rules, "every T3D rule is shown or said not to be");
}

/// A map in a game folder where a package is being written (`MyMod/Classes/*.uc`, UCC's
/// layout, not compiled into `System/`): its classes are known, and an actor of one declared
/// `abstract` is an error; an actor of an undeclared class is still unknown.
#[test]
fn classes_declared_in_the_game_folders_sources() {
    use unreal_test_support::writers;
    let game = unreal_test_support::ScratchDir::new("cli-lint-class-sources");
    for folder in ["System", "Maps", "MyMod/Classes"] {
        std::fs::create_dir_all(game.join(folder)).unwrap();
    }
    // Compiled classes with their data, as UCC writes them (a class listed without data
    // could not be read, which `t3d-unreadable-class` would say).
    let class =
        |name: &str, parent: Option<&str>, flags: u32| writers::TestClass::new(name, parent, flags);
    std::fs::write(
        game.join("System/Core.u"),
        writers::class_package(69, 0, &[class("Object", None, 0)]),
    )
    .unwrap();
    std::fs::write(
        game.join("System/Engine.u"),
        writers::class_package(
            69,
            0,
            &[class("Actor", Some("Object"), 1), class("LevelInfo", Some("Actor"), 0)],
        ),
    )
    .unwrap();
    std::fs::write(
        game.join("MyMod/Classes/MyBase.uc"),
        "//=============\r\n// MyBase: what every gadget shares.\r\n//=============\r\nclass MyBase extends Actor\r\n\tabstract;\r\n",
    )
    .unwrap();
    std::fs::write(game.join("MyMod/Classes/MyGadget.uc"), "class MyGadget extends MyBase;\r\n")
        .unwrap();
    std::fs::write(
        game.join("Maps/Gadgets.t3d"),
        "Begin Map\r\nBegin Actor Class=LevelInfo Name=LevelInfo0\r\nTitle=\"Gadgets\"\r\nEnd Actor\r\n\
         Begin Actor Class=MyGadget Name=MyGadget0\r\nEnd Actor\r\n\
         Begin Actor Class=MyBase Name=MyBase0\r\nEnd Actor\r\n\
         Begin Actor Class=MyGadjet Name=MyGadjet0\r\nEnd Actor\r\nEnd Map\r\n",
    )
    .unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_unreal-ls"))
        .current_dir(game.path())
        .args(["lint", "--format", "json", "Maps/Gadgets.t3d"])
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let found: Vec<String> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            let text = |key: &str| d[key].as_str().unwrap_or_default().to_owned();
            format!("{} {} {}", d["line"], text("severity"), text("code"))
        })
        .collect();
    assert_eq!(
        found,
        ["7 error t3d-abstract-class", "9 warning t3d-unknown-class"],
        "{}",
        String::from_utf8_lossy(&output.stdout)
    );
    assert_eq!(output.status.code(), Some(1));
}

/// `lint` on the codes and lines of a JSON report, run in `cwd` with `args`.
fn json_findings(cwd: &Path, args: &[&str]) -> (Vec<String>, serde_json::Value, Option<i32>) {
    let output = Command::new(env!("CARGO_BIN_EXE_unreal-ls"))
        .current_dir(cwd)
        .arg("lint")
        .args(args)
        .args(["--format", "json"])
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    let report: serde_json::Value = serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&output.stdout)));
    let found = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| format!("{} {}", d["line"], d["code"].as_str().unwrap_or_default()))
        .collect();
    (found, report, output.status.code())
}

/// Issue 42, item 4: a mod's repository without an installation (`tests/fixtures/mod-repo`:
/// `MyMod/Classes/*.uc`, `Maps/Test.t3d`, no game folder anywhere around) knows its classes
/// from its sources: the actor of the abstract `MyBase` is an error, as it is when the same
/// classes sit in a game folder; the look-alike `MyBaseImpl` (not abstract) is quiet, and
/// so is every reference the sources cannot judge (`Light`, `Brush`, `PlayerStart`, the
/// misspelt `Ligth`, textures of no known package): without packages they are not checked.
/// The same whether `lint` is given the repository, nothing, the map, or its folder.
#[test]
fn a_mod_repository_without_a_game_folder_knows_its_classes() {
    let repo = manifest_dir().join("tests/fixtures/mod-repo");
    for args in [&["."][..], &[], &["Maps/Test.t3d"], &["Maps"]] {
        let (found, report, code) = json_findings(&repo, args);
        assert_eq!(found, ["27 t3d-abstract-class"], "lint {args:?}: {report:#}");
        let message = report["diagnostics"][0]["message"].as_str().unwrap();
        assert!(
            message.starts_with("class `MyBase` is abstract (declared in ")
                && message.contains("MyMod/Classes/MyBase.uc"),
            "{message}"
        );
        assert_eq!(code, Some(1));
    }
    // Given from elsewhere, the repository itself is the folder its classes come from.
    let (found, _, _) = json_findings(&manifest_dir(), &["tests/fixtures/mod-repo"]);
    assert_eq!(found, ["27 t3d-abstract-class"]);

    // A look-alike whose `MyBase` is not abstract: nothing to say.
    let copy = unreal_test_support::ScratchDir::new("cli-lint-mod-repo");
    for file in [
        "MyMod/Classes/MyBase.uc",
        "MyMod/Classes/MyBaseImpl.uc",
        "MyMod/Classes/MyStart.uc",
        "Maps/Test.t3d",
    ] {
        let to = copy.join(file);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(repo.join(file), to).unwrap();
    }
    std::fs::write(copy.join("MyMod/Classes/MyBase.uc"), "class MyBase extends Actor;\r\n")
        .unwrap();
    let (found, report, code) = json_findings(copy.path(), &["."]);
    assert_eq!(found, Vec::<String>::new(), "{report:#}");
    assert_eq!(code, Some(0));
}
