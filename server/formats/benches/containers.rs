//! Decompressing packages: 2.8 MB of real-shaped package bytes (the generated game folder's
//! packages one after another) compressed as UE1 `.uz` (both signatures, the engine's 256 KiB
//! Burrows-Wheeler blocks) and UE2 `.uz2`, then decompressed; and a `.umod` of those packages
//! listed with its CRC checked.

#![allow(clippy::unwrap_used, clippy::expect_used)]
use criterion::{criterion_group, criterion_main, Criterion};
use unreal_test_support::{containers, writers};

fn bench(c: &mut Criterion) {
    let mut data = Vec::new();
    let mut files = Vec::new();
    for (path, bytes) in writers::game_folder(3000, 7) {
        if data.len() >= 4 << 20 {
            break;
        }
        data.extend_from_slice(&bytes);
        files.push((path, bytes));
    }
    let uz = containers::uz1("Big.u", &data, false, 0x40000);
    let uz_rle = containers::uz1("Big.u", &data, true, 0x40000);
    let uz2 = containers::uz2(&data);
    let listing: Vec<(&str, &[u8], u32)> =
        files.iter().map(|(p, b)| (p.as_str(), b.as_slice(), 0)).collect();
    let umod = containers::umod(&listing);
    eprintln!(
        "{} bytes: .uz {} bytes, .uz (5678) {}, .uz2 {}; .umod of {} files {} bytes",
        data.len(),
        uz.len(),
        uz_rle.len(),
        uz2.len(),
        files.len(),
        umod.len()
    );
    let mut group = c.benchmark_group("containers-2.8mb");
    group.sample_size(10);
    group.bench_function("uz-1234", |b| b.iter(|| unreal_formats::uz::decompress(&uz).unwrap()));
    group
        .bench_function("uz-5678", |b| b.iter(|| unreal_formats::uz::decompress(&uz_rle).unwrap()));
    group.bench_function("uz2", |b| b.iter(|| unreal_formats::uz::decompress(&uz2).unwrap()));
    group.bench_function("umod-list-and-crc", |b| {
        b.iter(|| unreal_formats::summarize(&umod, "Big.umod").unwrap());
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
