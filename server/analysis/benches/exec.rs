//! `#exec` checks over a generated game folder of 10,000 directive lines: 20 packages of 10
//! classes, each class importing a mesh (with its `_d.3d`/`_a.3d`), textures and sounds and
//! setting sequences, slots and scales, with some defects. The tree lives in memory so the
//! numbers measure the analysis, not the disk. Throughput is in directive lines.
//!
//! `cold`: a new session per run (every package table and binary header read again), as one
//! `unreal-ls lint` run does. `warm`: one session reused, as an editor re-checking a file does.

#![allow(clippy::unwrap_used)]

use std::fmt::Write;
use std::hint::black_box;
use std::path::PathBuf;
use std::sync::Arc;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use unreal_analysis::exec::MemoryFs;
use unreal_analysis::lint::{lint_path, FileKind, LintOptions, LintSession};

const PACKAGES: usize = 20;
const CLASSES: usize = 10;
const LINES_PER_CLASS: usize = 50;

fn mesh_data(verts: u16, tris: u16) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(&tris.to_le_bytes());
    out.extend_from_slice(&verts.to_le_bytes());
    out.resize(48, 0);
    for i in 0..tris {
        for corner in 0..3 {
            out.extend_from_slice(&((i + corner) % verts).to_le_bytes());
        }
        out.extend_from_slice(&[0, 0, 0, 0, 0, 0, 0, 0, u8::try_from(i % 2).unwrap(), 0]);
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

fn pcx(size: u16) -> Vec<u8> {
    let mut out = vec![0x0a, 5, 1, 8];
    for v in [0, 0, size - 1, size - 1] {
        out.extend_from_slice(&v.to_le_bytes());
    }
    out.resize(65, 0);
    out.push(1);
    out.resize(128, 0);
    out.push(0x0c);
    out.resize(128 + 769, 0);
    out
}

fn wav() -> Vec<u8> {
    let mut out = b"RIFF".to_vec();
    out.extend_from_slice(&40u32.to_le_bytes());
    out.extend_from_slice(b"WAVEfmt ");
    out.extend_from_slice(&16u32.to_le_bytes());
    for v in [1u16, 1] {
        out.extend_from_slice(&v.to_le_bytes());
    }
    out.extend_from_slice(&22050u32.to_le_bytes());
    out.extend_from_slice(&44100u32.to_le_bytes());
    for v in [2u16, 16] {
        out.extend_from_slice(&v.to_le_bytes());
    }
    out.extend_from_slice(b"data");
    out.extend_from_slice(&4u32.to_le_bytes());
    out.extend_from_slice(&[0; 4]);
    out
}

/// One class: a mesh and what goes with it, 50 directive lines in all.
fn class_text(class: usize) -> String {
    let m = format!("Mesh{class}");
    let mut text = format!("class C{class} extends Actor;\n\n");
    let mut lines = vec![
        format!("#exec MESH IMPORT MESH={m} ANIVFILE=MODELS\\{m}_a.3D DATAFILE=Models\\{m}_d.3d X=0 Y=0 Z=0 LODSTYLE=12"),
        format!("#exec MESH ORIGIN MESH={m} X=0 Y=0 Z=0 YAW=64"),
        format!("#exec MESHMAP SCALE MESHMAP={m} X=0.1 Y=0.1 Z=0.2"),
        format!("#exec MESH LODPARAMS MESH={m} STRENGTH=0.5"),
        format!("#exec MESHMAP SETTEXTURE MESHMAP={m} NUM=0 TEXTURE=Skin{class}_0"),
        format!("#exec MESHMAP SETTEXTURE MESHMAP={m} NUM=1 TEXTURE=Skin{class}_1"),
    ];
    for i in 0..14 {
        lines.push(format!(
            "#exec MESH SEQUENCE MESH={m} SEQ=Seq{i} STARTFRAME={} NUMFRAMES=3 RATE=15 GROUP=G",
            i * 2
        ));
    }
    for i in 0..10 {
        lines.push(format!("#exec MESH NOTIFY MESH={m} SEQ=Seq{i} TIME=0.5 FUNCTION=Step"));
    }
    for i in 0..12 {
        lines.push(format!(
            "#exec TEXTURE IMPORT NAME=Skin{class}_{i} FILE=Textures\\Skin{i}.pcx GROUP=\"Skins\" FLAGS=2 MIPS=OFF"
        ));
    }
    for i in 0..8 {
        lines.push(format!(
            "#exec AUDIO IMPORT FILE=\"Sounds\\Sound{i}.wav\" NAME=\"Snd{class}_{i}\" GROUP=\"C{class}\""
        ));
    }
    assert_eq!(lines.len(), LINES_PER_CLASS);
    for line in lines {
        let _ = writeln!(text, "{line}");
    }
    text.push_str("\ndefaultproperties\n{\n}\n");
    text
}

fn tree() -> (MemoryFs, Vec<(PathBuf, Vec<u8>)>) {
    let mut fs = MemoryFs::new();
    let mut ucs = Vec::new();
    for p in 0..PACKAGES {
        let root = PathBuf::from(format!("/Game/Pkg{p}"));
        for c in 0..CLASSES {
            let path = root.join(format!("Classes/C{c}.uc"));
            let text = class_text(c).into_bytes();
            fs.insert(path.clone(), text.clone());
            ucs.push((path, text));
            fs.insert(root.join(format!("Models/Mesh{c}_d.3d")), mesh_data(200, 300));
            fs.insert(root.join(format!("Models/Mesh{c}_a.3d")), mesh_anim(200, 30));
        }
        for i in 0..12 {
            fs.insert(root.join(format!("Textures/Skin{i}.pcx")), pcx(64));
        }
        for i in 0..8 {
            fs.insert(root.join(format!("Sounds/Sound{i}.wav")), wav());
        }
    }
    (fs, ucs)
}

fn lint_all(ucs: &[(PathBuf, Vec<u8>)], options: &LintOptions, session: &LintSession) -> usize {
    ucs.iter()
        .map(|(path, bytes)| {
            lint_path(FileKind::UnrealScript, path, bytes, options, session).diagnostics.len()
        })
        .sum()
}

fn bench(c: &mut Criterion) {
    let (fs, ucs) = tree();
    let fs = Arc::new(fs);
    let options = LintOptions::default();
    let mut group = c.benchmark_group("exec");
    group.throughput(Throughput::Elements((PACKAGES * CLASSES * LINES_PER_CLASS) as u64));
    group.sample_size(20);
    group.bench_function("cold_10k_lines", |b| {
        b.iter(|| {
            let session = LintSession::with_fs(fs.clone(), &options);
            black_box(lint_all(&ucs, &options, &session))
        });
    });
    let session = LintSession::with_fs(fs.clone(), &options);
    lint_all(&ucs, &options, &session);
    group.bench_function("warm_10k_lines", |b| {
        b.iter(|| black_box(lint_all(&ucs, &options, &session)));
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
