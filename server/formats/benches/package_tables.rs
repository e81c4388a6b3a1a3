//! Reading the tables and object list of the largest corpus package (skips, with a note,
//! where the corpus is absent).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use unreal_formats::Package;

fn largest_corpus_package() -> Option<(String, Vec<u8>)> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/packages");
    let mut best: Option<(u64, PathBuf)> = None;
    let mut stack = vec![root];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                if !path.ends_with("malformed") {
                    stack.push(path);
                }
            } else if let Ok(meta) = entry.metadata() {
                if best.as_ref().is_none_or(|(size, _)| meta.len() > *size) {
                    best = Some((meta.len(), path));
                }
            }
        }
    }
    let (_, path) = best?;
    Some((path.file_name()?.to_string_lossy().into_owned(), std::fs::read(&path).ok()?))
}

fn bench(c: &mut Criterion) {
    let Some((name, bytes)) = largest_corpus_package() else {
        println!("skipping: corpus not found next to the project");
        return;
    };
    c.bench_function(&format!("tables and object list of {name} ({} bytes)", bytes.len()), |b| {
        b.iter(|| {
            let package = Package::parse(black_box(&bytes)).unwrap();
            let objects: usize = package.objects().map(|o| o.path.len() + o.class.len()).sum();
            black_box(objects)
        });
    });
    c.bench_function(&format!("full summary of {name} (every object read)"), |b| {
        b.iter(|| black_box(unreal_formats::summarize(black_box(&bytes), &name).unwrap()));
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
