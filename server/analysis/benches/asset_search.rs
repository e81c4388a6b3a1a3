//! The asset search on a generated game folder of 10,000 packages (about 160,000 objects):
//! building the index from the files (in memory), building the name search over it, and
//! queries of every rank (an exact name, a prefix, a dotted path, a fragment, scattered
//! letters, a word found nowhere). The search's size and the object count are printed once.

use std::sync::Arc;

use criterion::{criterion_group, criterion_main, Criterion};
use unreal_analysis::fs::MemoryFs;
use unreal_analysis::index::{AssetSearch, IndexRoots, PackageIndex, DEFAULT_LIMIT};

fn bench(c: &mut Criterion) {
    let mut fs = MemoryFs::new();
    for (path, bytes) in unreal_test_support::writers::game_folder(10_000, 33) {
        fs.insert(path, bytes);
    }
    let fs = Arc::new(fs);
    let roots = IndexRoots {
        game_dir: Some("/game".into()),
        package_paths: Vec::new(),
        ..IndexRoots::default()
    };
    let index = PackageIndex::build(fs.clone(), roots.clone(), &mut |_| {});
    let search = index.asset_search();
    eprintln!(
        "{} packages, {} objects, {} searchable; the search holds {} bytes ({:.1} bytes an entry)",
        index.packages().len(),
        index.object_count(),
        search.len(),
        search.memory(),
        search.memory() as f64 / search.len().max(1) as f64
    );
    let mut group = c.benchmark_group("asset-search-10k");
    group.sample_size(10);
    group.bench_function("index-build", |b| {
        b.iter(|| PackageIndex::build(fs.clone(), roots.clone(), &mut |_| {}));
    });
    group.bench_function("search-build", |b| b.iter(|| AssetSearch::build(&index)));
    for query in ["GraniteMarble7", "granite", "walls.granite", "nitemar", "gmw", "zzzz", "a"] {
        group.bench_function(format!("query-{query}"), |b| {
            b.iter(|| index.find_assets(query, DEFAULT_LIMIT));
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
