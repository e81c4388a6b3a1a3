//! The language server's extra memory for `textDocument/formatting` of a big map that needs
//! it everywhere (issue 15, item 6: under 2 times the document's size above what the server
//! holds after opening it), measured on the built binary over stdio as an editor runs it.
//!
//! - a generated map (`unreal_mapgen::generate_map`, `LSP_BENCH_MB`, 10 MB by default, the
//!   seed of `lsp_latency`) with every line's indentation removed, so that every nested line
//!   changes (one edit per actor: the `Begin Actor` lines stay at column 0);
//! - opened, its first diagnostics awaited, then the server's peak resident memory is reset
//!   (`5` into `/proc/<pid>/clear_refs`) and its `VmRSS` read;
//! - `FORMAT_RUNS` (3) formatting requests, each followed by the peak `VmHWM` since the
//!   reset and the time from request to the whole answer decoded by this client;
//! - then the same for the map as generated; the edits of both, applied here, must give the
//!   same map (a check of the answers, not of the timing).
//!
//! `cargo bench -p unreal-ls --bench lsp_format_memory`. It measures; it asserts only that
//! the answer is right.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::print_stdout)]

#[path = "../tests/lsp_client/mod.rs"]
mod lsp_client;

use std::time::{Duration, Instant};

use lsp_client::stdio::StdioServer;
use serde_json::{json, Value};

const URI: &str = "file:///bench/DM-Flat.t3d";
const SEED: u64 = 0x5EED_0005;
const HANG_GUARD: Duration = Duration::from_mins(5);

fn env_or(name: &str, default: usize) -> usize {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

fn main() {
    let quick = std::env::args().all(|a| a != "--bench");
    let mb = env_or("LSP_BENCH_MB", if quick { 1 } else { 10 });
    let runs = env_or("FORMAT_RUNS", if quick { 1 } else { 3 });
    let map = unreal_mapgen::generate_map(mb * 1024 * 1024, SEED);
    let flat: String =
        map.split_inclusive('\n').map(|l| l.trim_start_matches([' ', '\t'])).collect();
    println!(
        "map: {:.2} MB as generated, {:.2} MB without indentation",
        map.len() as f64 / 1e6,
        flat.len() as f64 / 1e6
    );

    let mut server = StdioServer::start(&lsp_client::stdio::binary(), true, HANG_GUARD);
    server.request("initialize", &json!({ "processId": null, "capabilities": {} }));
    server.notify("initialized", &json!({}));
    let mut first = None;
    for (version, text) in [(1, &flat), (2, &map)] {
        if version == 1 {
            server.notify(
                "textDocument/didOpen",
                &json!({ "textDocument": {
                    "uri": URI, "languageId": "t3d", "version": 1, "text": text } }),
            );
        } else {
            server.notify(
                "textDocument/didChange",
                &json!({ "textDocument": { "uri": URI, "version": version },
                    "contentChanges": [{ "text": text }] }),
            );
        }
        server.diagnostics_for(version);
        let after_open = reset_peak(&server);
        let label = if version == 1 { "without indentation" } else { "as generated" };
        println!("{label}: server VmRSS {:.1} MB after opening", after_open as f64 / 1e6);
        for run in 0..runs {
            let sent = Instant::now();
            let answer = server.request(
                "textDocument/formatting",
                &json!({ "textDocument": { "uri": URI },
                    "options": { "tabSize": 3, "insertSpaces": true } }),
            );
            let took = sent.elapsed();
            let peak = kb(&server, "VmHWM:");
            let edits = answer["result"].as_array().expect("edits");
            let new_text: usize = edits.iter().map(|e| e["newText"].as_str().unwrap().len()).sum();
            println!(
                "  formatting {}: {} edits, {:.1} MB of new text, {} ms (request to decoded \
                 answer); peak {:.1} MB above the RSS after opening ({:.2}x the document)",
                run + 1,
                edits.len(),
                new_text as f64 / 1e6,
                took.as_millis(),
                peak.saturating_sub(after_open) as f64 / 1e6,
                peak.saturating_sub(after_open) as f64 / text.len() as f64,
            );
            if run == 0 {
                let formatted = apply(text, edits);
                match &first {
                    None => first = Some(formatted),
                    Some(first) => assert!(*first == formatted, "both give the same map"),
                }
            }
            reset_peak(&server);
        }
    }
    server.request("shutdown", &Value::Null);
    server.notify("exit", &Value::Null);
    server.wait_exit();
}

/// Resets the server's peak resident memory to its current one and returns that (bytes).
fn reset_peak(server: &StdioServer) -> u64 {
    // The pages the allocator freed may come back to the system a little later.
    std::thread::sleep(Duration::from_millis(200));
    std::fs::write(format!("/proc/{}/clear_refs", server.pid()), "5").unwrap();
    kb(server, "VmRSS:")
}

/// A field of the server's `/proc/<pid>/status`, in bytes.
fn kb(server: &StdioServer, field: &str) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{}/status", server.pid())).unwrap();
    let value = status.lines().find_map(|l| l.strip_prefix(field)).unwrap();
    value.trim().trim_end_matches(" kB").parse::<u64>().unwrap() * 1024
}

/// The LSP edits (UTF-16 positions, this map is ASCII) applied to `text`.
fn apply(text: &str, edits: &[Value]) -> String {
    let mut starts = vec![0];
    starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
    let offset = |p: &Value| {
        let line = p["line"].as_u64().unwrap() as usize;
        starts.get(line).map_or(text.len(), |s| s + p["character"].as_u64().unwrap() as usize)
    };
    let mut out = String::with_capacity(text.len() * 2);
    let mut at = 0;
    for edit in edits {
        let (start, end) = (offset(&edit["range"]["start"]), offset(&edit["range"]["end"]));
        out.push_str(&text[at..start]);
        out.push_str(edit["newText"].as_str().unwrap());
        at = end;
    }
    out.push_str(&text[at..]);
    out
}
