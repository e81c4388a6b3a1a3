//! Throughput of the T3D parser and of the full T3D lint (parse + every rule) on a synthetic
//! 10 MB map and on the largest real map of the corpus. Reports bytes per second.

use std::path::Path;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use unreal_analysis::lint::LintOptions;
use unreal_analysis::rules::check_t3d;

fn inputs() -> Vec<(String, String)> {
    let mut inputs =
        vec![("synthetic-10mb".to_owned(), unreal_mapgen::generate_map(10 * 1024 * 1024, 1))];
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/corpus/t3d/ue1/blender_t3d_test_map.t3d");
    match std::fs::read(&corpus) {
        Ok(bytes) => inputs.push((
            "blender_t3d_test_map".to_owned(),
            unreal_syntax::text::decode(&bytes).text.into_owned(),
        )),
        Err(_) => eprintln!("skipping the corpus map: {} is absent", corpus.display()),
    }
    inputs
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("t3d");
    group.sample_size(10);
    for (name, text) in inputs() {
        group.throughput(Throughput::Bytes(text.len() as u64));
        group.bench_with_input(BenchmarkId::new("parse", &name), &text, |b, text| {
            b.iter(|| unreal_syntax::t3d::parse(text));
        });
        group.bench_with_input(BenchmarkId::new("lint", &name), &text, |b, text| {
            b.iter(|| check_t3d(text, &LintOptions::default()));
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
