//! Language-server latency on a big map, measured through the in-process service exactly as
//! the protocol tests drive it (real JSON-RPC messages, diagnostics read from the client
//! socket). Issue 5's "done means" numbers:
//!
//! - open a generated ~10 MB map (`unreal_mapgen::generate_map`, fixed seed);
//! - 200 single-character edits at random places (fixed seed), each timed from sending
//!   `didChange` to receiving the `publishDiagnostics` for that version: p50/p95/p99, once
//!   with the server's own debounce and once with none (the pipeline's own cost);
//! - hover p99 over 200 random positions, once the server advertises hover;
//! - resident memory (`VmRSS`, and the peak `VmHWM`) from /proc/self/status.
//!
//! `cargo bench -p unreal-ls --bench lsp_latency` (env `LSP_BENCH_MB` and `LSP_BENCH_EDITS`
//! change the map size and the number of edits). It measures; it asserts nothing.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::print_stdout)]

#[path = "../tests/lsp_client/mod.rs"]
mod lsp_client;

use std::time::{Duration, Instant};

use lsp_client::{Rng, TestClient};
use serde_json::{json, Value};
use unreal_analysis::lint::{lint_text, FileKind, LintOptions};
use unreal_ls::lsp::ServerOptions;

const URI: &str = "file:///bench/DM-Generated.t3d";
const SEED: u64 = 0x5EED_0005;

fn env_or(name: &str, default: usize) -> usize {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

fn main() {
    // `cargo bench` passes `--bench`; `cargo test --benches` passes nothing we need.
    let quick = std::env::args().all(|a| a != "--bench");
    let mb = env_or("LSP_BENCH_MB", if quick { 1 } else { 10 });
    let edits = env_or("LSP_BENCH_EDITS", if quick { 5 } else { 200 });

    println!("rss at start: {}", memory());
    let started = Instant::now();
    let map = unreal_mapgen::generate_map(mb * 1024 * 1024, SEED);
    println!(
        "map: {:.1} MB, {} lines, generated in {:.0?}",
        map.len() as f64 / 1_048_576.0,
        map.lines().count(),
        started.elapsed()
    );

    // The analysis alone, for comparison with what the server adds around it.
    let mut analysis = Vec::new();
    for _ in 0..5 {
        let started = Instant::now();
        let found = lint_text(FileKind::T3d, &map, &LintOptions::default());
        analysis.push(started.elapsed());
        std::hint::black_box(found);
    }
    println!("lint_text on the map alone, 5 runs: {}", percentiles(&mut analysis));

    let production = ServerOptions::default();
    let label = format!("debounce {:?}", production.debounce);
    let no_debounce = ServerOptions { debounce: Duration::ZERO, ..ServerOptions::default() };
    for (options, label) in [(production, label.as_str()), (no_debounce, "no debounce")] {
        // A runtime per server, dropped after it, so that each run's memory is its own.
        let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap();
        runtime.block_on(run(&map, edits, options, label));
        runtime.shutdown_background();
        println!("rss after dropping the server: {}", memory());
    }
}

async fn run(map: &str, edits: usize, options: ServerOptions, label: &str) {
    let mut client = TestClient::new(options);
    let init = client.initialize(json!({}), Value::Null).await;
    let has_hover = init["capabilities"].get("hoverProvider").is_some();

    let started = Instant::now();
    client.open(URI, "t3d", 1, map).await;
    let published = client.diagnostics_for(URI, Some(1)).await;
    println!(
        "[{label}] open to first diagnostics: {:.0?} ({} diagnostics); rss {}",
        started.elapsed(),
        published["diagnostics"].as_array().map_or(0, Vec::len),
        memory()
    );

    let lines: Vec<usize> = map.split('\n').map(|l| l.trim_end_matches('\r').len()).collect();
    let mut rng = Rng::new(SEED);
    let mut latencies = Vec::with_capacity(edits);
    for i in 0..edits {
        let version = 2 + i as i32;
        let line = rng.below(lines.len());
        let character = rng.below(lines[line] + 1);
        let text = ["1", " ", "x", "-"][rng.below(4)];
        let params = json!({
            "textDocument": { "uri": URI, "version": version },
            "contentChanges": [{
                "range": {
                    "start": { "line": line, "character": character },
                    "end": { "line": line, "character": character },
                },
                "text": text,
            }],
        });
        let sent = Instant::now();
        client.notify("textDocument/didChange", params).await;
        client.diagnostics_for(URI, Some(version)).await;
        latencies.push(sent.elapsed());
    }
    println!("[{label}] edit -> diagnostics over {edits} edits: {}", percentiles(&mut latencies));

    if has_hover {
        let mut hovers = Vec::with_capacity(edits);
        for _ in 0..edits {
            let line = rng.below(lines.len());
            let character = rng.below(lines[line] + 1);
            let params = json!({
                "textDocument": { "uri": URI },
                "position": { "line": line, "character": character },
            });
            let sent = Instant::now();
            client.request_ok("textDocument/hover", params).await;
            hovers.push(sent.elapsed());
        }
        println!("[{label}] hover over {edits} positions: {}", percentiles(&mut hovers));
    } else {
        println!("[{label}] hover: not measured (the server does not advertise hover yet)");
    }
    println!("[{label}] rss after edits: {}", memory());
}

fn percentiles(samples: &mut [Duration]) -> String {
    if samples.is_empty() {
        return "no samples".to_owned();
    }
    samples.sort();
    let at = |q: f64| samples[((samples.len() - 1) as f64 * q).round() as usize];
    format!(
        "p50 {:.1?}  p95 {:.1?}  p99 {:.1?}  max {:.1?}",
        at(0.50),
        at(0.95),
        at(0.99),
        samples[samples.len() - 1]
    )
}

/// Current and peak resident memory of this process (server and client share it; the
/// client side holds little beyond the map text).
fn memory() -> String {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .map_or_else(|| "?".to_owned(), |v| v.trim().to_owned())
    };
    format!("VmRSS {} (peak VmHWM {})", field("VmRSS:"), field("VmHWM:"))
}
