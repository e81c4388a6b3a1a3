//! `unreal-ls ucc-log` run as a process on a log written in UCC's own wording
//! (`FFeedbackContextAnsi`, `FScriptCompiler::GetContext`, `UnMeshEd.cpp`'s "Error opening
//! file"): each message lands on the line of the class it blames, an import failure without
//! a context on the `#exec` line that names the file, in the human and JSON formats; exit 1
//! with an error in the log.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::pedantic)]

use std::process::Command;

use expect_test::expect;

fn game() -> unreal_test_support::ScratchDir {
    let dir = unreal_test_support::ScratchDir::new("cli-ucc-log");
    std::fs::create_dir_all(dir.join("System")).unwrap();
    std::fs::create_dir_all(dir.join("MyMod/Classes")).unwrap();
    std::fs::write(
        dir.join("MyMod/Classes/MyGun.uc"),
        "class MyGun extends Weapon;\r\n\r\n#exec MESH IMPORT MESH=Gun ANIVFILE=Models\\Gun_a.3d DATAFILE=Models\\Gun_d.3d\r\n#exec TEXTURE IMPORT NAME=Skin FILE=Textures\\Skin.pcx\r\n\r\nfunction Fire()\r\n{\r\n\tAmmo = ;\r\n}\r\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("System/UCC.log"),
        "Log: Log file open, 11/29/26 04:00:00\r\n\
         Log: --------------------MyMod - Release--------------------\r\n\
         Log: Parsing MyGun\r\n\
         Log: Error opening file Models\\Gun_a.3d\r\n\
         ExecWarning: C:\\UnrealTournament\\MyMod\\Classes\\MyGun.uc(4) : ExecWarning, Import texture Skin from Textures\\Skin.pcx failed\r\n\
         Log: Compiling MyGun\r\n\
         Error: C:\\UnrealTournament\\MyMod\\Classes\\MyGun.uc(8) : Error, Bad or missing expression in '='\r\n\
         Critical: appError called:\r\n",
    )
    .unwrap();
    dir
}

fn run(dir: &std::path::Path, args: &[&str]) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_unreal-ls"))
        .arg("ucc-log")
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    format!(
        "exit {}\n--- stdout\n{}--- stderr\n{}",
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

#[test]
fn messages_land_on_the_lines_they_blame() {
    let dir = game();
    expect![[r#"
        exit 1
        --- stdout
        error[ucc-error]: UCC: Error opening file Models\Gun_a.3d
         --> MyMod/Classes/MyGun.uc:3:1
          |
        3 | #exec MESH IMPORT MESH=Gun ANIVFILE=Models\Gun_a.3d DATAFILE=Models\Gun_d.3d
          | ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
          |

        warning[ucc-warning]: UCC: Import texture Skin from Textures\Skin.pcx failed
         --> MyMod/Classes/MyGun.uc:4:1
          |
        4 | #exec TEXTURE IMPORT NAME=Skin FILE=Textures\Skin.pcx
          | ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
          |

        error[ucc-error]: UCC: Bad or missing expression in '='
         --> MyMod/Classes/MyGun.uc:8:1
          |
        8 |     Ammo = ;
          | ^^^^^^^^
          |

        2 errors, 1 warning in 1 file checked
        --- stderr
    "#]]
    .assert_eq(&run(&dir, &["System/UCC.log"]));
    expect![[r#"
        exit 1
        --- stdout
        {"version":1,"files":1,"diagnostics":[
        {"file":"MyMod/Classes/MyGun.uc","line":3,"column":1,"end_line":3,"end_column":77,"severity":"error","code":"ucc-error","message":"UCC: Error opening file Models\\Gun_a.3d"},
        {"file":"MyMod/Classes/MyGun.uc","line":4,"column":1,"end_line":4,"end_column":54,"severity":"warning","code":"ucc-warning","message":"UCC: Import texture Skin from Textures\\Skin.pcx failed"},
        {"file":"MyMod/Classes/MyGun.uc","line":8,"column":1,"end_line":8,"end_column":10,"severity":"error","code":"ucc-error","message":"UCC: Bad or missing expression in '='"}
        ]}
        --- stderr
    "#]].assert_eq(&run(&dir, &["System/UCC.log", "--format", "json"]));
}
