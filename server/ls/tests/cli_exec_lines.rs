//! `unreal-ls exec-lines` and `export --to 3d` run as a process on the corpus' LodMesh: the
//! lines printed, the files written under `-o` (the same by both commands, and read back as a
//! vertex mesh of the source's size), the safe writer's refusal, and what is not a vertex mesh.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::pedantic)]

use std::path::{Path, PathBuf};
use std::process::Command;

use expect_test::{expect, Expect};

fn corpus() -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus");
    if dir.is_dir() {
        Some(dir)
    } else {
        unreal_test_support::corpus::absent(&format!("corpus not found at {}", dir.display()));
        None
    }
}

/// Runs the binary in `dir`; the snapshot is the exit code, stdout and stderr, with the
/// folder's path written as `DIR`.
fn run(dir: &Path, args: &[&str], expected: Expect) {
    let out =
        Command::new(env!("CARGO_BIN_EXE_unreal-ls")).current_dir(dir).args(args).output().unwrap();
    let text = format!(
        "exit {}\n--- stdout\n{}--- stderr\n{}",
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    expected.assert_eq(&text.replace(&dir.display().to_string(), "DIR"));
}

#[test]
fn corpus_lod_mesh_lines_and_files() {
    let Some(root) = corpus() else { return };
    let dir = unreal_test_support::ScratchDir::new("cli-exec-lines");
    let package = root.join("packages/u/Ut99Mods_KillConfirmed.u");
    std::fs::copy(&package, dir.join("KillConfirmed.u")).unwrap();
    run(
        &dir,
        &["exec-lines", "KillConfirmed.u", "--object", "dogTag", "-o", "out"],
        expect![[r#"
            exit 0
            --- stdout
            #exec MESH IMPORT MESH=dogTag ANIVFILE=Models\dogTag_a.3d DATAFILE=Models\dogTag_d.3d
            // LODSTYLE, LODFRAME and LODNOTEX steer the LOD build and are not stored in the package: add the ones first used
            #exec MESH LODPARAMS MESH=dogTag STRENGTH=0 MINVERTS=10 MORPH=0.3 HYSTERESIS=0 ZDISP=0
            #exec MESH ORIGIN MESH=dogTag X=0 Y=0 Z=0 YAW=0 PITCH=0 ROLL=0
            #exec MESHMAP SCALE MESHMAP=dogTag X=0.2 Y=0.2 Z=0.4
            #exec TEXTURE IMPORT NAME=DogTags FILE=Textures\DogTags\DogTags.bmp GROUP=DogTags FLAGS=2 MIPS=OFF
            #exec MESHMAP SETTEXTURE MESHMAP=dogTag NUM=1 TEXTURE=DogTags
            --- stderr
            wrote 3 files under out
        "#]],
    );
    // The pair reads back as a vertex mesh the size of the author's source files.
    let d = std::fs::read(dir.join("out/Models/dogTag_d.3d")).unwrap();
    let a = std::fs::read(dir.join("out/Models/dogTag_a.3d")).unwrap();
    let mesh = unreal_formats::vertex_mesh::VertexMesh::parse(&d, &a).unwrap();
    assert_eq!((mesh.data.polygons, mesh.data.vertices, mesh.aniv.frames), (250, 123, 30));
    // Again: the safe writer refuses to replace the files without --force.
    run(
        &dir,
        &["exec-lines", "KillConfirmed.u", "--object", "dogTag", "-o", "out"],
        expect![[r#"
            exit 1
            --- stdout
            #exec MESH IMPORT MESH=dogTag ANIVFILE=Models\dogTag_a.3d DATAFILE=Models\dogTag_d.3d
            // LODSTYLE, LODFRAME and LODNOTEX steer the LOD build and are not stored in the package: add the ones first used
            #exec MESH LODPARAMS MESH=dogTag STRENGTH=0 MINVERTS=10 MORPH=0.3 HYSTERESIS=0 ZDISP=0
            #exec MESH ORIGIN MESH=dogTag X=0 Y=0 Z=0 YAW=0 PITCH=0 ROLL=0
            #exec MESHMAP SCALE MESHMAP=dogTag X=0.2 Y=0.2 Z=0.4
            #exec TEXTURE IMPORT NAME=DogTags FILE=Textures\DogTags\DogTags.bmp GROUP=DogTags FLAGS=2 MIPS=OFF
            #exec MESHMAP SETTEXTURE MESHMAP=dogTag NUM=1 TEXTURE=DogTags
            --- stderr
            error: out/Models/dogTag_d.3d: it exists; pass --force to replace it
        "#]],
    );
    // `export --to 3d` writes the same files.
    run(
        &dir,
        &["export", "KillConfirmed.u", "--object", "dogTag", "--to", "3d", "-o", "export"],
        expect![[r#"
            exit 0
            --- stdout
            --- stderr
            wrote export/Models/dogTag_d.3d
            wrote export/Models/dogTag_a.3d
            wrote export/Textures/DogTags/DogTags.bmp
        "#]],
    );
    for file in ["Models/dogTag_d.3d", "Models/dogTag_a.3d", "Textures/DogTags/DogTags.bmp"] {
        let by_export = std::fs::read(dir.join("export").join(file)).unwrap();
        assert_eq!(by_export, std::fs::read(dir.join("out").join(file)).unwrap(), "{file}");
    }
}

#[test]
fn corpus_skeletal_mesh_and_missing_objects_are_said() {
    let Some(root) = corpus() else { return };
    let dir = unreal_test_support::ScratchDir::new("cli-exec-lines-other");
    std::fs::copy(root.join("packages/u/Ut99Mods_C4.u"), dir.join("C4.u")).unwrap();
    run(
        &dir,
        &["exec-lines", "C4.u", "--object", "C4"],
        expect![[r#"
            exit 2
            --- stdout
            --- stderr
            error: C4.u: SkeletalMesh'C4' is a SkeletalMesh: the #exec block is written for a vertex mesh (Mesh or LodMesh); a skeletal mesh is imported from PSK and PSA files, which are not written back
        "#]],
    );
    run(
        &dir,
        &["exec-lines", "C4.u", "--object", "Nothing"],
        expect![[r#"
            exit 1
            --- stdout
            --- stderr
            error: C4.u: no object named Nothing
        "#]],
    );
}
