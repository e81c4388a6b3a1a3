//! `#exec` throughput: scanning and parsing a generated class with 10,000 directive lines
//! between ordinary UnrealScript (comments, strings, a cpptext block). Criterion reports the
//! directive lines per second as "elements".

use std::fmt::Write as _;
use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use unreal_syntax::exec::{parse_line, scan};

const DIRECTIVES: usize = 10_000;

/// A class with `DIRECTIVES` directive lines in the shapes real mods use, with code, comments
/// and strings every few lines so the scanner's skipping paths are exercised too.
fn generated_class() -> String {
    let mut src = String::from(
        "class Generated extends Actor;\r\n\r\ncpptext\r\n{\r\n#include \"Gen.h\"\r\n}\r\n",
    );
    for i in 0..DIRECTIVES {
        let _ = match i % 8 {
            0 => write!(src, "#exec MESH IMPORT MESH=M{i} ANIVFILE=MODELS\\M{i}_a.3d DATAFILE=MODELS\\M{i}_d.3d X=0 Y=0 Z=0 LODSTYLE=12\r\n"),
            1 => write!(src, "#exec MESH ORIGIN MESH=M{i} X=0 Y=0 Z=0 YAW=64\r\n"),
            2 => write!(src, "#exec MESH SEQUENCE MESH=M{i} SEQ=All STARTFRAME=0 NUMFRAMES=30 RATE=15\r\n"),
            3 => write!(src, "#exec MESHMAP SCALE MESHMAP=M{i} X=0.1 Y=0.1 Z=0.2\r\n"),
            4 => write!(src, "#exec TEXTURE IMPORT NAME=T{i} FILE=Textures\\Skins\\T{i}.pcx GROUP=\"Skins\" FLAGS=2 MIPS=OFF\r\n"),
            5 => write!(src, "#exec MESHMAP SETTEXTURE MESHMAP=M{i} NUM=1 TEXTURE=T{i} // skin\r\n"),
            6 => write!(src, "#exec AUDIO IMPORT FILE=\"Sounds\\S{i}.wav\" NAME=\"S{i}\" GROUP=\"Weapon\"\r\n"),
            _ => write!(src, "    #exec OBJ LOAD FILE=..\\Textures\\Pack{i}.utx PACKAGE=Pack{i}\r\n"),
        };
        if i % 4 == 3 {
            let _ = write!(src, "var string S{i}; // \"#exec\" in a comment\r\n/* #exec MESH IMPORT MESH=Hidden{i} */\r\n");
        }
    }
    src
}

fn bench(c: &mut Criterion) {
    let src = generated_class();
    assert_eq!(scan(&src).directives.len(), DIRECTIVES);
    let plain: String = src.replace('#', "@");

    let mut group = c.benchmark_group("exec");
    group.throughput(Throughput::Elements(DIRECTIVES as u64));
    group.bench_function("scan_10k_directive_lines", |b| b.iter(|| scan(black_box(&src))));
    group.bench_function("scan_and_parse_10k_directive_lines", |b| {
        b.iter(|| {
            let result = scan(black_box(&src));
            result.directives.iter().map(|d| parse_line(&src, d).args.len()).sum::<usize>()
        });
    });
    group.throughput(Throughput::Bytes(plain.len() as u64));
    group.bench_function("scan_same_text_without_hash", |b| b.iter(|| scan(black_box(&plain))));
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
