//! `unreal-ls lint` on a mod tree: `.uc` classes under `Classes/` with their models, textures
//! and sounds, a class outside `Classes/`, and a `.t3d` map, checked together in parallel.
//! The tree is written to a temporary folder by this test (binary files by the small writers
//! below), and the binary runs on it as a user would (`NO_COLOR=1`, relative paths).

// expect-test writes every snapshot as `r#"..."#`, quotes or not.
#![allow(clippy::needless_raw_string_hashes)]
// Helpers outside `#[test]` functions write files and run the binary; a failure is a test failure.
#![allow(clippy::unwrap_used)]

use std::path::{Path, PathBuf};
use std::process::Command;

use expect_test::expect_file;

fn mesh_data(verts: u16, tris: u16, slot: u8) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(&tris.to_le_bytes());
    out.extend_from_slice(&verts.to_le_bytes());
    out.resize(48, 0);
    for i in 0..tris {
        for corner in 0..3 {
            out.extend_from_slice(&((i + corner) % verts).to_le_bytes());
        }
        out.extend_from_slice(&[0, 0, 0, 0, 0, 0, 0, 0, slot, 0]);
    }
    out
}

fn mesh_anim(verts: u16, frames: u16) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(&frames.to_le_bytes());
    out.extend_from_slice(&(verts * 4).to_le_bytes());
    out.resize(4 + usize::from(frames) * usize::from(verts) * 4, 0);
    out
}

/// An 8-bit PCX with its palette.
fn pcx(w: u16, h: u16) -> Vec<u8> {
    let mut out = vec![0x0a, 5, 1, 8];
    for v in [0, 0, w - 1, h - 1] {
        out.extend_from_slice(&v.to_le_bytes());
    }
    out.resize(65, 0);
    out.push(1);
    out.resize(128, 0);
    out.push(0x0c);
    out.resize(128 + 769, 0);
    out
}

fn wav(format: u16) -> Vec<u8> {
    let mut out = b"RIFF".to_vec();
    out.extend_from_slice(&40u32.to_le_bytes());
    out.extend_from_slice(b"WAVEfmt ");
    out.extend_from_slice(&16u32.to_le_bytes());
    out.extend_from_slice(&format.to_le_bytes());
    out.extend_from_slice(&1u16.to_le_bytes());
    out.extend_from_slice(&22050u32.to_le_bytes());
    out.extend_from_slice(&44100u32.to_le_bytes());
    out.extend_from_slice(&2u16.to_le_bytes());
    out.extend_from_slice(&16u16.to_le_bytes());
    out.extend_from_slice(b"data");
    out.extend_from_slice(&4u32.to_le_bytes());
    out.extend_from_slice(&[0; 4]);
    out
}

const WEAPON: &str = "\
class Blaster extends Weapon;

#exec MESH IMPORT MESH=Blaster ANIVFILE=MODELS\\Blaster_a.3d DATAFILE=Models\\Blaster_d.3d X=0 Y=0 Z=0
#exec MESH ORIGIN MESH=Blaster X=0 Y=0 Z=0 YAW=64
#exec MESH SEQUENCE MESH=Blaster SEQ=All STARTFRAME=0 NUMFRAMES=10
#exec MESH SEQUENCE MESH=Blaster SEQ=Fire STARTFRAME=8 NUMFRAMES=4
#exec MESH NOTIFY MESH=Blaster SEQ=Reload TIME=0.5 FUNCTION=Click
#exec MESHMAP SCALE MESHMAP=Blaster X=0.1 Y=0.1 Z=0.2
#exec MESHMAP SETTEXTURE MESHMAP=Blaster NUM=1 TEXTURE=BlasterSkin
#exec AUDIO IMPORT FILE=Sounds\\Fire.wav NAME=BlasterFire GROUP=Blaster
#exec AUDIO IMPORT FILE=Sounds\\Hum.wav NAME=BlasterHum GROUP=Blaster
";

const SKINS: &str = "\
class BlasterSkins extends Object;

#exec TEXTURE IMPORT NAME=BlasterSkin FILE=Textures\\BlasterSkin.pcx GROUP=Skins FLAGS=2
#exec TEXTURE IMPORT NAME=BlasterIcon FILE=Textures\\Icon.pcx GROUP=Icons MIPS=OFF
#exec TEXTURE IMPORT NAME=blasterskin FILE=Textures\\BlasterSkin.pcx GROUP=Skins PALETTE=X
";

const TEMPLATE: &str = "\
#exec MESH IMPORT MESH=Blaster ANIVFILE=MODELS\\Blaster_a.3d DATAFILE=MODELS\\Blaster_d.3d
#exec TEXTURE IMPORT NAME=Jtex1 FILE=texture1.pcx GROUP=Skins
";

const MAP: &str = "\
Begin Map
Begin Actor Class=LevelInfo Name=LevelInfo0
End Actor
End Map
";

/// Writes the mod tree under a fresh temporary folder and returns it.
fn write_tree() -> PathBuf {
    let root = std::env::temp_dir().join(format!("unreal-ls-cli-uc-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let files: Vec<(&str, Vec<u8>)> = vec![
        ("BlasterMod/Classes/Blaster.uc", WEAPON.as_bytes().to_vec()),
        ("BlasterMod/Classes/BlasterSkins.uc", SKINS.as_bytes().to_vec()),
        ("BlasterMod/Models/Blaster_d.3d", mesh_data(6, 4, 1)),
        ("BlasterMod/Models/Blaster_a.3d", mesh_anim(6, 10)),
        ("BlasterMod/Models/Blaster/Blaster.uc", TEMPLATE.as_bytes().to_vec()),
        ("BlasterMod/Models/Blaster/Blaster_a.3d", mesh_anim(6, 10)),
        ("BlasterMod/Models/Blaster/Blaster_d.3d", mesh_data(6, 4, 1)),
        ("BlasterMod/Textures/BlasterSkin.pcx", pcx(64, 64)),
        ("BlasterMod/Textures/Icon.pcx", pcx(48, 48)),
        ("BlasterMod/Sounds/Fire.wav", wav(1)),
        ("BlasterMod/Sounds/Hum.wav", wav(2)),
        ("Maps/Room.t3d", MAP.as_bytes().to_vec()),
    ];
    for (path, bytes) in files {
        let path = root.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, bytes).unwrap();
    }
    root
}

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
    let mut shown =
        format!("exit: {code}\n--- stdout\n{}", String::from_utf8_lossy(&output.stdout));
    let stderr = String::from_utf8_lossy(&output.stderr);
    if !stderr.is_empty() {
        shown.push_str("--- stderr\n");
        shown.push_str(&stderr);
    }
    shown
}

#[test]
fn mod_tree_with_classes_models_and_a_map() {
    let root = write_tree();
    let whole_tree = run(&root, &[]);
    // One class named alone (from inside `Classes/`) still sees its package.
    let one_class = run(&root.join("BlasterMod/Classes"), &["Blaster.uc"]);
    // And from inside the package folder (`Classes/Blaster.uc`: the package folder is `.`,
    // named as the folder it is): the same findings, found in the same files.
    let from_package = run(&root.join("BlasterMod"), &["Classes/Blaster.uc"]);
    let json = run(&root, &["--format", "json", "BlasterMod/Classes/BlasterSkins.uc"]);
    let _ = std::fs::remove_dir_all(&root);
    expect_file!["fixtures/lint_uc/tree.out"].assert_eq(&whole_tree);
    expect_file!["fixtures/lint_uc/one_class.out"].assert_eq(&one_class);
    assert_eq!(from_package.replace("Classes/Blaster.uc", "Blaster.uc"), one_class);
    expect_file!["fixtures/lint_uc/json.out"].assert_eq(&json);
}
