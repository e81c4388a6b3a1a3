//! Editor features on a synthetic 10 MB map: cursor features (hover, definition) must not
//! depend on the document's size; whole-document ones (symbols, folding, tokens, formatting)
//! are measured for throughput; and an incremental edit is compared with a full parse.

use criterion::{criterion_group, criterion_main, Criterion};
use unreal_analysis::document::T3dDocument;
use unreal_analysis::ide::t3d::{self as ide, NoPackages, Source};
use unreal_analysis::lint::LintOptions;
use unreal_analysis::EngineSetting;
use unreal_syntax::Span;

fn bench(c: &mut Criterion) {
    let text = unreal_mapgen::generate_map(10 << 20, 1);
    let parse = unreal_syntax::t3d::parse(&text);
    let src = Source::detect(&text, &parse, EngineSetting::Auto);
    // Cursor positions deep in the second half of the map.
    let middle = text.len() / 2;
    let flags_at = text[middle..].find("Flags=").map_or(middle, |i| middle + i + 7) as u32;
    let vertex_at = text[middle..].find("Vertex").map_or(middle, |i| middle + i + 20) as u32;
    let name_at = text[middle..].find("Brush=Model'").map_or(middle, |i| middle + i + 22) as u32;

    let mut group = c.benchmark_group("ide-10mb");
    group.sample_size(10);
    group.bench_function("hover-flags", |b| {
        b.iter(|| ide::hover::hover(&src, flags_at, &NoPackages));
    });
    group.bench_function("hover-vertex", |b| {
        b.iter(|| ide::hover::hover(&src, vertex_at, &NoPackages));
    });
    group.bench_function("goto-definition", |b| {
        b.iter(|| ide::navigation::goto_definition(&src, name_at));
    });
    group.bench_function("document-symbols", |b| {
        b.iter(|| ide::symbols::document_symbols(&src));
    });
    group.bench_function("workspace-symbols", |b| {
        b.iter(|| ide::symbols::workspace_symbols(&src, "light"));
    });
    group.bench_function("folding", |b| {
        b.iter(|| ide::folding::folding_ranges(&src));
    });
    let screen = Span::new(middle as u32, middle as u32 + 6000);
    group.bench_function("semantic-tokens-screen", |b| {
        b.iter(|| ide::semantic_tokens::semantic_tokens(&src, Some(screen)));
    });
    group.bench_function("semantic-tokens-full", |b| {
        b.iter(|| ide::semantic_tokens::semantic_tokens(&src, None));
    });
    group.bench_function("inlay-hints-screen", |b| {
        b.iter(|| ide::inlay_hints::inlay_hints(&src, screen));
    });
    group.bench_function("format", |b| {
        b.iter(|| ide::formatting::format(&src, ide::formatting::FormatOptions::default()));
    });

    group.bench_function("full-parse", |b| {
        b.iter(|| unreal_syntax::t3d::parse(&text));
    });
    let mut doc = T3dDocument::new(text.clone());
    let edit_at = vertex_at;
    group.bench_function("incremental-edit", |b| {
        b.iter(|| {
            doc.apply_edit(Span::empty_at(edit_at), "1");
            doc.apply_edit(Span::new(edit_at, edit_at + 1), "")
        });
    });
    let options = LintOptions::default();
    let _ = doc.diagnostics(&options);
    group.bench_function("edit-and-diagnostics", |b| {
        b.iter(|| {
            doc.apply_edit(Span::empty_at(edit_at), "1");
            doc.apply_edit(Span::new(edit_at, edit_at + 1), "");
            doc.diagnostics(&options)
        });
    });
    group.bench_function("full-lint", |b| {
        b.iter(|| unreal_analysis::rules::check_t3d(&text, &options));
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
