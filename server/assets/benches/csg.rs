//! Building the level from its brushes (`csg::build`, issue 32 item 5): generated maps of
//! DM-Deck17's size (576 brushes) and larger, the corpus's T3D map and its built maps (`.unr`,
//! the brushes they store) when present, and the brush lists of issue 43 item 3 that made the
//! cost grow faster than the map (`unreal_mapgen::csg`): grids of 1,000 to 8,000 rooms, with
//! walls between them and opening into one another, cubes nested in one another, and nested
//! cubes with faces wound both ways (the last two stop at the build's bounds). The brushes
//! are read once; only the CSG is measured.

use std::path::Path;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use unreal_assets::csg::{self, CsgBrush};
use unreal_formats::package::Package;

fn inputs() -> Vec<(String, Vec<CsgBrush>, bool)> {
    let mut inputs = Vec::new();
    // About 180 brushes a generated megabyte: 3 MB is DM-Deck17's 576 brushes.
    for mb in [3, 10, 20] {
        let text = unreal_mapgen::generate_map(mb * 1024 * 1024, 1);
        let brushes = csg::brushes_of_t3d(&text, None);
        inputs.push((format!("generated-{mb}mb-{}-brushes", brushes.len()), brushes, false));
    }
    for rooms in [1000, 2000, 4000, 8000] {
        for (name, wall) in [("grid", 64.0), ("open-grid", 0.0)] {
            let text = unreal_mapgen::csg::room_grid(rooms, wall);
            inputs.push((format!("{name}-{rooms}-rooms"), csg::brushes_of_t3d(&text, None), false));
        }
    }
    for cubes in [300, 3000] {
        let text = unreal_mapgen::csg::nested_cubes(cubes);
        inputs.push((format!("nested-{cubes}-cubes"), csg::brushes_of_t3d(&text, None), false));
    }
    let text = unreal_mapgen::csg::nested_cubes_mixed_windings(150, 1);
    inputs.push(("mixed-windings-150-cubes".to_owned(), csg::brushes_of_t3d(&text, None), false));
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus");
    let t3d = corpus.join("t3d/ue1/blender_t3d_test_map.t3d");
    match std::fs::read(&t3d) {
        Ok(bytes) => {
            let text = unreal_syntax::text::decode(&bytes).text.into_owned();
            inputs.push((
                "blender_t3d_test_map.t3d".to_owned(),
                csg::brushes_of_t3d(&text, None),
                false,
            ));
        }
        Err(_) => eprintln!("skipping the corpus map: {} is absent", t3d.display()),
    }
    let unr = corpus.join("packages/unr");
    let mut maps: Vec<_> = std::fs::read_dir(&unr)
        .map(|d| d.filter_map(Result::ok).map(|e| e.path()).collect())
        .unwrap_or_default();
    maps.sort();
    for path in maps.iter().filter(|p| p.extension().is_some_and(|e| e.eq_ignore_ascii_case("unr")))
    {
        let Ok(bytes) = std::fs::read(path) else { continue };
        let Ok(package) = Package::parse(&bytes) else { continue };
        let Ok(built) = csg::package::read_built_map(&package) else { continue };
        let name = path.file_name().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        inputs.push((name, built.brushes, built.root_outside));
    }
    inputs
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("csg");
    group.sample_size(10);
    for (name, brushes, root_outside) in inputs() {
        group.bench_with_input(BenchmarkId::new("build", &name), &brushes, |b, brushes| {
            b.iter(|| csg::build(brushes, root_outside));
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
