//! The workspace check (issue 42, item 2) on the built binary as an editor runs it: a
//! workspace of many classes and maps, no file of it opened but one small map, and hovers on
//! that map every 20 ms while the server checks the rest in the background.
//!
//! - the workspace: `LSP_WS_CLASSES` classes (13,000 by default with `--bench`) in packages of
//!   100 (`PkgN/Classes/*.uc`, each with a texture import whose file is missing: a finding
//!   per class, and a mesh import), and `LSP_WS_MAPS` generated maps (100) of
//!   `LSP_WS_MAP_KB` KB (64), in `Maps/`; no game folder;
//! - timed: from `initialized` to the server's "workspace checked" log line (its own figure,
//!   printed with it), the hovers while the check runs (p50/p95/p99), how many files were
//!   published, and the server's memory (`VmRSS`, `VmHWM`) at the end.
//!
//! `cargo bench -p unreal-ls --bench lsp_workspace`; `cargo test --benches` runs a small one.
//! It measures; it asserts nothing.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::print_stdout)]

#[path = "../tests/lsp_client/mod.rs"]
mod lsp_client;

use std::cell::{Cell, RefCell};
use std::path::Path;
use std::time::{Duration, Instant};

use lsp_client::percentiles;
use lsp_client::stdio::StdioServer;
use serde_json::{json, Value};

const SEED: u64 = 0x5EED_0042;
/// Only a hang reaches this.
const HANG_GUARD: Duration = Duration::from_mins(10);

fn env_or(name: &str, default: usize) -> usize {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// A small map the editor has open: one brush with a `Flags=` line to hover on.
const OPEN_MAP: &str = "Begin Map\r\nBegin Actor Class=Brush Name=Brush0\r\n   Begin Brush Name=Model0\r\n      Begin PolyList\r\n         Begin Polygon Flags=264\r\n            Vertex   +00000.000000,+00000.000000,+00000.000000\r\n            Vertex   +00128.000000,+00000.000000,+00000.000000\r\n            Vertex   +00128.000000,+00128.000000,+00000.000000\r\n         End Polygon\r\n      End PolyList\r\n   End Brush\r\n   Brush=Model'MyLevel.Model0'\r\nEnd Actor\r\nEnd Map\r\n";

fn write_workspace(dir: &Path, classes: usize, maps: usize, map_kb: usize) {
    for i in 0..classes {
        let package = dir.join(format!("Pkg{}", i / 100)).join("Classes");
        if i % 100 == 0 {
            std::fs::create_dir_all(&package).unwrap();
        }
        let text = format!(
            "class Thing{i} extends Actor;\r\n\r\n#exec TEXTURE IMPORT NAME=Skin{i} FILE=Textures\\Skin{i}.pcx GROUP=Skins\r\n#exec MESH IMPORT MESH=Mesh{i} ANIVFILE=Models\\Mesh{i}_a.3d DATAFILE=Models\\Mesh{i}_d.3d X=0 Y=0 Z=0\r\n\r\ndefaultproperties\r\n{{\r\n    Skin=Texture'Skin{i}'\r\n}}\r\n"
        );
        std::fs::write(package.join(format!("Thing{i}.uc")), text).unwrap();
    }
    let folder = dir.join("Maps");
    std::fs::create_dir_all(&folder).unwrap();
    for i in 0..maps {
        let map = unreal_mapgen::generate_map(map_kb * 1024, SEED + i as u64);
        std::fs::write(folder.join(format!("DM-Map{i}.t3d")), map).unwrap();
    }
    std::fs::write(dir.join("Open.t3d"), OPEN_MAP).unwrap();
}

fn main() {
    // `cargo bench` passes `--bench`; `cargo test --benches` passes nothing we need.
    let quick = std::env::args().all(|a| a != "--bench");
    let classes = env_or("LSP_WS_CLASSES", if quick { 300 } else { 13_000 });
    let maps = env_or("LSP_WS_MAPS", if quick { 3 } else { 100 });
    let map_kb = env_or("LSP_WS_MAP_KB", 64);

    let dir = std::env::temp_dir().join(format!("unreal-ls-bench-ws-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let started = Instant::now();
    write_workspace(&dir, classes, maps, map_kb);
    println!(
        "workspace: {classes} classes in {} packages, {maps} maps of {map_kb} KB, written in {:.1?}",
        classes.div_ceil(100),
        started.elapsed()
    );

    let mut server = StdioServer::start(&lsp_client::stdio::binary(), true, HANG_GUARD);
    let folder = format!("file://{}", dir.display());
    server.request(
        "initialize",
        &json!({
            "processId": null,
            "rootUri": null,
            "capabilities": {},
            "workspaceFolders": [{ "uri": folder, "name": "bench" }],
        }),
    );
    let started = Instant::now();
    server.notify("initialized", &json!({}));
    let uri = format!("file://{}", dir.join("Open.t3d").display());
    server.notify(
        "textDocument/didOpen",
        &json!({ "textDocument": { "uri": uri, "languageId": "t3d", "version": 1, "text": OPEN_MAP } }),
    );

    // Hovers on the open map's `Flags=` every 20 ms until the check says it is done; every
    // message on the way is looked at for that line and for closed files' diagnostics.
    let done: RefCell<Option<String>> = RefCell::new(None);
    let published = Cell::new(0usize);
    let watch = |m: &Value| {
        if m["method"] == "window/logMessage" {
            let text = m["params"]["message"].as_str().unwrap_or_default();
            if text.starts_with("workspace checked") {
                *done.borrow_mut() = Some(text.to_owned());
            }
        }
        if m["method"] == "textDocument/publishDiagnostics" && m["params"]["version"].is_null() {
            published.set(published.get() + 1);
        }
    };
    let mut hovers = Vec::new();
    let mut id = 1_000;
    while done.borrow().is_none() {
        id += 1;
        server.send(&json!({
            "jsonrpc": "2.0", "id": id, "method": "textDocument/hover",
            "params": { "textDocument": { "uri": uri }, "position": { "line": 4, "character": 32 } },
        }));
        let sent = Instant::now();
        server.wait_for(|m| {
            watch(m);
            m["id"] == id && m.get("method").is_none()
        });
        hovers.push(sent.elapsed());
        std::thread::sleep(Duration::from_millis(20));
    }
    println!(
        "initialized -> workspace checked: {:.1?} (server: {}); {} closed files published",
        started.elapsed(),
        done.borrow().as_deref().unwrap_or_default(),
        published.get()
    );
    println!("hover while the check ran ({} hovers): {}", hovers.len(), percentiles(&mut hovers));
    println!("at the end: {}", server.memory());
    server.request("shutdown", &Value::Null);
    server.notify("exit", &Value::Null);
    server.wait_exit();
    let _ = std::fs::remove_dir_all(&dir);
}
