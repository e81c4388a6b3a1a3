//! Language-server latency and memory on a big map, measured on the built binary exactly as
//! an editor runs it: `unreal-ls lsp --stdio` in its own process, JSON-RPC framed with
//! `Content-Length` headers over pipes. Issue 5's "done means" numbers:
//!
//! - open a generated ~10 MB map (`unreal_mapgen::generate_map`, fixed seed);
//! - 200 single-character edits at random places (fixed seed), each timed from writing
//!   `didChange` to reading the `publishDiagnostics` for that version: p50/p95/p99, with the
//!   server's production options;
//! - after each edit is published, one hover at a random `Flags=` or `Vertex` line, timed
//!   from request to response: p99;
//! - five `documentSymbol` and `foldingRange` requests, which read the whole map, each timed
//!   to its answer decoded (into a `serde_json::Value`) and to the answer's last byte read
//!   (the server and the pipe, without this client's decoding);
//! - the server process's resident memory (`VmRSS`, and the peak `VmHWM`, from
//!   /proc/<pid>/status) after it starts, after opening and after the edits: the server's
//!   own, since the client is this process.
//!
//! `cargo bench -p unreal-ls --bench lsp_latency` (env `LSP_BENCH_MB` and `LSP_BENCH_EDITS`
//! change the map size and the number of edits). It measures; it asserts nothing.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::print_stdout)]

#[path = "../tests/lsp_client/mod.rs"]
mod lsp_client;

use std::time::{Duration, Instant};

use lsp_client::percentiles;
use lsp_client::stdio::StdioServer;
use lsp_client::Rng;
use serde_json::{json, Value};
use unreal_analysis::lint::{lint_text, FileKind, LintOptions};

const URI: &str = "file:///bench/DM-Generated.t3d";
const SEED: u64 = 0x5EED_0005;
/// Only a hang reaches this.
const HANG_GUARD: Duration = Duration::from_mins(5);

fn env_or(name: &str, default: usize) -> usize {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

fn main() {
    // `cargo bench` passes `--bench`; `cargo test --benches` passes nothing we need.
    let quick = std::env::args().all(|a| a != "--bench");
    let mb = env_or("LSP_BENCH_MB", if quick { 1 } else { 10 });
    let edits = env_or("LSP_BENCH_EDITS", if quick { 5 } else { 200 });

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

    run(&map, edits);
}

fn run(map: &str, edits: usize) {
    let mut server = StdioServer::start(&lsp_client::stdio::binary(), true, HANG_GUARD);
    server.request("initialize", &json!({ "processId": null, "capabilities": {} }));
    server.notify("initialized", &json!({}));
    println!("server ready: {}", server.memory());

    let started = Instant::now();
    server.notify(
        "textDocument/didOpen",
        &json!({ "textDocument": { "uri": URI, "languageId": "t3d", "version": 1, "text": map } }),
    );
    let published = server.diagnostics_for(1);
    println!(
        "open to first diagnostics: {:.0?} ({} diagnostics); {}",
        started.elapsed(),
        published["diagnostics"].as_array().map_or(0, Vec::len),
        server.memory()
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
        let version = 2 + i as i64;
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
        server.notify("textDocument/didChange", &params);
        server.diagnostics_for(version);
        latencies.push(sent.elapsed());

        if let Some(&(line, character)) = targets.get(rng.below(targets.len().max(1))) {
            let params = json!({
                "textDocument": { "uri": URI },
                "position": { "line": line, "character": character },
            });
            let sent = Instant::now();
            let answer = server.request("textDocument/hover", &params);
            hovers.push(sent.elapsed());
            answered += usize::from(!answer["result"].is_null());
        }
    }
    println!("edit -> diagnostics over {edits} edits: {}", percentiles(&mut latencies));
    println!(
        "hover on Flags=/Vertex after each edit ({answered} of {} answered): {}",
        hovers.len(),
        percentiles(&mut hovers)
    );
    println!("after the edits: {}", server.memory());

    // Whole-document requests parse the whole map (on a copy of it).
    // Timed to the answer decoded (into a `serde_json::Value`, as the bench's client reads
    // every message), and to its last byte read: what the server and the pipe took.
    for method in ["textDocument/documentSymbol", "textDocument/foldingRange"] {
        let (mut decoded, mut arrived) = (Vec::new(), Vec::new());
        let mut bytes = 0;
        for _ in 0..5 {
            let sent = Instant::now();
            let answer = server.request(method, &json!({ "textDocument": { "uri": URI } }));
            decoded.push(sent.elapsed());
            arrived.push(server.last_arrived.unwrap() - sent);
            bytes = answer.to_string().len();
        }
        println!("{method}, 5 requests ({:.2} MB of JSON):", bytes as f64 / 1e6);
        println!("  to the answer decoded: {}", percentiles(&mut decoded));
        println!("  to its last byte read: {}", percentiles(&mut arrived));
    }
    println!("after the whole-document requests: {}", server.memory());
    // One more edit: its analysis gives back what the answers above left free.
    let version = 2 + edits as i64;
    server.notify(
        "textDocument/didChange",
        &json!({
            "textDocument": { "uri": URI, "version": version },
            "contentChanges": [{
                "range": { "start": { "line": 1, "character": 0 }, "end": { "line": 1, "character": 0 } },
                "text": " ",
            }],
        }),
    );
    server.diagnostics_for(version);
    println!("after one more edit: {}", server.memory());
    server.request("shutdown", &Value::Null);
    server.notify("exit", &Value::Null);
    server.wait_exit();
}
