//! LSP soak test: a fixed-seed sequence of 10,000 random incremental edits against the
//! in-process server (the real analysis), in bursts sent without waiting, with positions
//! past line ends, past the last line, inside surrogate pairs and reversed ranges. After
//! every 100 edits the diagnostics the server publishes for that version must equal
//! `lint_text` on the client's own model of the text (so the server's incremental state
//! equals a fresh full parse), and hover and document symbols are asked for throughout: a
//! well-formed answer every time (or MethodNotFound while a feature is not advertised),
//! never a hang or an internal error.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::pedantic)]

mod lsp_client;

use std::time::Duration;

use lsp_client::{Rng, TestClient};
use serde_json::{json, Value};
use unreal_analysis::lint::{lint_text, FileKind, LintOptions};
use unreal_ls::lsp::ServerOptions;

const URI: &str = "file:///work/maps/DM-Soak.t3d";
const EDITS: usize = 10_000;
const CHECK_EVERY: usize = 100;

/// The client's model of the document, written from the protocol's rules and independent of
/// the server's position code: lines end at LF, CRLF or a lone CR; columns count UTF-16
/// units; a column past the end of its line means the end of the line (before its break), a
/// line past the last means the end of the text, and a column between the halves of a
/// surrogate pair means the start of that character. A reversed range is read with its ends
/// swapped.
struct Model {
    text: String,
}

impl Model {
    fn line_starts(&self) -> Vec<usize> {
        let b = self.text.as_bytes();
        let mut starts = vec![0];
        for i in 0..b.len() {
            if b[i] == b'\n' || (b[i] == b'\r' && b.get(i + 1) != Some(&b'\n')) {
                starts.push(i + 1);
            }
        }
        starts
    }

    /// Byte range of a line's content, without its line break.
    fn content(&self, starts: &[usize], line: usize) -> (usize, usize) {
        let start = starts[line];
        let mut end = starts.get(line + 1).copied().unwrap_or(self.text.len());
        let b = self.text.as_bytes();
        if end > start && b[end - 1] == b'\n' {
            end -= 1;
        }
        if end > start && b[end - 1] == b'\r' {
            end -= 1;
        }
        (start, end)
    }

    fn offset(&self, line: usize, col16: usize) -> usize {
        let starts = self.line_starts();
        if line >= starts.len() {
            return self.text.len();
        }
        let (start, end) = self.content(&starts, line);
        let mut units = 0;
        for (i, ch) in self.text[start..end].char_indices() {
            units += ch.len_utf16();
            if units > col16 {
                return start + i;
            }
        }
        end
    }

    fn position(&self, offset: usize) -> Value {
        let starts = self.line_starts();
        let line = starts.partition_point(|&s| s <= offset) - 1;
        let col: usize = self.text[starts[line]..offset].chars().map(char::len_utf16).sum();
        json!({ "line": line, "character": col })
    }

    /// UTF-16 length of a line's content.
    fn width(&self, line: usize) -> usize {
        let starts = self.line_starts();
        if line >= starts.len() {
            return 0;
        }
        let (s, e) = self.content(&starts, line);
        self.text[s..e].chars().map(char::len_utf16).sum()
    }

    fn line_count(&self) -> usize {
        self.line_starts().len()
    }
}

const SNIPPETS: &[&str] = &[
    "",
    "",
    "x",
    "Z9",
    " ",
    "\u{e9}",
    "\u{1F600}",
    "\u{1F600}\u{1F4A9}",
    "\r\n",
    "\n",
    "Begin Actor Class=Light Name=Light77\r\n",
    "End Actor\r\n",
    "Begin Polygon\r\n",
    "End Polygon\r\n",
    "Vertex   +00128.000000,+00000.000000,-00064.000000\r\n",
    "Flags=-2147483648",
    "End Map",
    "Location=(X=1,Y=",
    "Texture=Pkg.Group.Name ",
];

/// One random change: positions anywhere (past line ends, past the last line, inside a
/// surrogate pair), sometimes across lines or reversed, now and then a whole new text.
/// Applies it to the model and returns the protocol's change.
fn random_change(model: &mut Model, rng: &mut Rng) -> Value {
    if rng.below(1000) == 0 {
        let text = unreal_mapgen::generate_map(3_000, rng.next_u64());
        model.text.clone_from(&text);
        return json!({ "text": text });
    }
    let lines = model.line_count();
    let line = rng.below(lines + 1);
    let col = rng.below(model.width(line) + 3);
    let (end_line, end_col) = match rng.below(10) {
        0 => {
            let l = (line + 1 + rng.below(3)).min(lines + 1);
            (l, rng.below(model.width(l) + 2))
        }
        1 if line > 0 => (line - 1, rng.below(model.width(line - 1) + 2)),
        _ => (line, col + rng.below(6)),
    };
    // Keep the document between about 2 and 24 KB: deletions win when it is large.
    let text = if model.text.len() > 24_000 && rng.below(2) == 0 {
        ""
    } else {
        SNIPPETS[rng.below(SNIPPETS.len())]
    };
    let a = model.offset(line, col);
    let b = model.offset(end_line, end_col);
    let (start, end) = (a.min(b), a.max(b));
    model.text.replace_range(start..end, text);
    json!({
        "range": {
            "start": { "line": line, "character": col },
            "end": { "line": end_line, "character": end_col },
        },
        "text": text,
    })
}

/// The diagnostics a fresh lint of the model's text gives, as the protocol shows them.
fn expected(model: &Model) -> Vec<Value> {
    // What the editor publishes: each flood of infos or hints as one finding.
    let found = lint_text(FileKind::T3d, &model.text, &LintOptions::default());
    let mut out: Vec<Value> = unreal_analysis::diagnostic::collapse_floods(found)
        .iter()
        .map(|d| {
            json!({
                "range": {
                    "start": model.position(d.span.start as usize),
                    "end": model.position(d.span.end as usize),
                },
                "code": d.code,
                "message": d.message,
            })
        })
        .collect();
    out.sort_by_key(|v| v.to_string());
    out
}

fn published(params: &Value) -> Vec<Value> {
    let mut out: Vec<Value> = params["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| json!({ "range": d["range"], "code": d["code"], "message": d["message"] }))
        .collect();
    out.sort_by_key(|v| v.to_string());
    out
}

/// A request must be answered (the client's guard fails the test on a hang), with a
/// well-formed result when the feature is advertised, else a null/empty result or
/// MethodNotFound.
fn check_answer(
    method: &str,
    advertised: bool,
    response: &Value,
    well_formed: impl Fn(&Value) -> bool,
) {
    if let Some(error) = response.get("error") {
        assert!(!advertised && error["code"] == -32601, "{method} failed: {response}");
        return;
    }
    let result = &response["result"];
    assert!(result.is_null() || well_formed(result), "{method}: malformed answer {result}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ten_thousand_random_edits() {
    let options = ServerOptions { debounce: Duration::from_millis(2), ..ServerOptions::default() };
    let mut client = TestClient::new(options);
    let init = client.initialize(json!({}), Value::Null).await;
    let caps = &init["capabilities"];
    let hover = caps["hoverProvider"].as_bool().unwrap_or(caps["hoverProvider"].is_object());
    let symbols = caps["documentSymbolProvider"]
        .as_bool()
        .unwrap_or(caps["documentSymbolProvider"].is_object());

    let mut initial = unreal_mapgen::generate_map(6_000, 42);
    initial.insert_str(
        initial.find("\r\n").unwrap() + 2,
        "Begin Actor Class=Light Name=Light\u{1F600}\r\n   Tag=\u{1F600}\u{e9}\u{1F4A9}\r\nEnd Actor\r\n",
    );
    let mut model = Model { text: initial };
    client.open(URI, "t3d", 1, &model.text).await;
    let first = client.diagnostics_for(URI, Some(1)).await;
    assert_eq!(published(&first), expected(&model));

    let mut rng = Rng::new(0x50A4);
    let mut version = 1;
    let mut sent = 0;
    let (mut hovers, mut outlines, mut checkpoints) = (0, 0, 0);
    while sent < EDITS {
        // A burst of edits handed over together, never crossing a checkpoint.
        let to_checkpoint = CHECK_EVERY - sent % CHECK_EVERY;
        let burst = (1 + rng.below(20)).min(to_checkpoint);
        for _ in 0..burst {
            version += 1;
            let change = random_change(&mut model, &mut rng);
            let params = json!({
                "textDocument": { "uri": URI, "version": version },
                "contentChanges": [change],
            });
            client.notify("textDocument/didChange", params).await;
        }
        sent += burst;

        // Hover at a random position (valid or not) and the outline, between bursts.
        if rng.below(4) == 0 {
            let line = rng.below(model.line_count() + 2);
            let character = rng.below(model.width(line) + 4);
            let response = client
                .request(
                    "textDocument/hover",
                    json!({ "textDocument": { "uri": URI }, "position": { "line": line, "character": character } }),
                )
                .await;
            check_answer("hover", hover, &response, |r| r.get("contents").is_some());
            hovers += 1;
        }
        if rng.below(8) == 0 {
            let response = client
                .request("textDocument/documentSymbol", json!({ "textDocument": { "uri": URI } }))
                .await;
            check_answer("documentSymbol", symbols, &response, Value::is_array);
            outlines += 1;
        }

        if sent % CHECK_EVERY == 0 {
            let params = client.diagnostics_for(URI, Some(version)).await;
            let (got, want) = (published(&params), expected(&model));
            if got != want {
                let path = std::env::temp_dir().join("unreal-ls-soak-text.t3d");
                let _ = std::fs::write(&path, &model.text);
                panic!(
                    "after {sent} edits (version {version}) the published diagnostics differ from a fresh lint of the text (saved to {}):\npublished {got:#?}\nfresh {want:#?}",
                    path.display()
                );
            }
            checkpoints += 1;
            // Drop what was collected so far: the log would grow with every edit.
            client.received.clear();
        }
    }
    assert_eq!(checkpoints, EDITS / CHECK_EVERY);
    println!(
        "{EDITS} edits, {checkpoints} checkpoints equal to a fresh lint, {hovers} hovers, {outlines} outlines; final text {} bytes",
        model.text.len()
    );
}
