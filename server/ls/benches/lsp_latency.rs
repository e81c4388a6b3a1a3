//! Language-server latency on a big map, measured through the in-process service exactly as
//! the protocol tests drive it (real JSON-RPC messages, diagnostics read from the client
//! socket). Issue 5's "done means" numbers:
//!
//! - open a generated ~10 MB map (`unreal_mapgen::generate_map`, fixed seed);
//! - 200 single-character edits at random places (fixed seed), each timed from sending
//!   `didChange` to receiving the `publishDiagnostics` for that version: p50/p95/p99, with
//!   the server's production options (incremental T3D analysis, a 2 ms settle);
//! - after each edit is published, one hover at a random `Flags=` or `Vertex` line, timed
//!   from request to response: p99 (the hover reads the document's current tree);
//! - resident memory (`VmRSS`, and the peak `VmHWM`) from /proc/self/status, before the
//!   server exists, after opening and after the edits. Server and client share the process:
//!   the client side holds the map text and the JSON of the `didOpen` it sent, so the
//!   server's own share is the growth over the "client ready" line minus that.
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
    for _ in 0..3 {
        let started = Instant::now();
        let found = lint_text(FileKind::T3d, &map, &LintOptions::default());
        analysis.push(started.elapsed());
        std::hint::black_box(found);
    }
    println!("lint_text on the whole map, 3 runs: {}", percentiles(&mut analysis));

    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap();
    runtime.block_on(run(&map, edits, ServerOptions::default()));
    runtime.shutdown_background();
    println!("rss after dropping the server: {}", memory());
}

async fn run(map: &str, edits: usize, options: ServerOptions) {
    let label = format!("settle {:?}", options.debounce);
    let mut client = TestClient::new(options);
    client.initialize(json!({}), Value::Null).await;
    println!("[{label}] client ready: rss {}", memory());

    let started = Instant::now();
    client.open(URI, "t3d", 1, map).await;
    let published = client.diagnostics_for(URI, Some(1)).await;
    println!(
        "[{label}] open to first diagnostics: {:.0?} ({} diagnostics); rss {}",
        started.elapsed(),
        published["diagnostics"].as_array().map_or(0, Vec::len),
        memory()
    );

    let lines: Vec<&str> = map.split('\n').map(|l| l.trim_end_matches('\r')).collect();
    // Hover targets: inside the value of a `Flags=` line or a `Vertex` line. The edits
    // insert no line breaks, so a line keeps its number (its columns may move by one).
    let targets: Vec<(usize, usize)> = lines
        .iter()
        .enumerate()
        .filter_map(|(i, line)| {
            let at = line
                .find("Flags=")
                .map(|c| c + 7)
                .or_else(|| line.find("Vertex").map(|c| c + 10))?;
            Some((i, at.min(line.len())))
        })
        .collect();
    let mut rng = Rng::new(SEED);
    let mut latencies = Vec::with_capacity(edits);
    let mut hovers = Vec::with_capacity(edits);
    let mut answered = 0;
    for i in 0..edits {
        let version = 2 + i as i32;
        let line = rng.below(lines.len());
        let character = rng.below(lines[line].len() + 1);
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

        if let Some(&(line, character)) = targets.get(rng.below(targets.len().max(1))) {
            let params = json!({
                "textDocument": { "uri": URI },
                "position": { "line": line, "character": character },
            });
            let sent = Instant::now();
            let answer = client.request_ok("textDocument/hover", params).await;
            hovers.push(sent.elapsed());
            answered += usize::from(!answer.is_null());
        }
    }
    println!("[{label}] edit -> diagnostics over {edits} edits: {}", percentiles(&mut latencies));
    println!(
        "[{label}] hover on Flags=/Vertex after each edit ({answered} of {} answered): {}",
        hovers.len(),
        percentiles(&mut hovers)
    );
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
