//! An in-process LSP client for the protocol tests (and, in [`stdio`], a client of the built
//! binary for the stdio test and the latency benchmark). [`TestClient::new`] serves the server
//! exactly as `unreal-ls lsp` does ([`unreal_ls::lsp::serve_framed`]: the framing layer,
//! `didOpen` read from its frame, big answers written straight out), over in-memory pipes
//! instead of stdin and stdout: every message is a `Content-Length` frame both ways, so the
//! tests run the editor's path.
//! Requests the server makes of the client are answered here: `workspace/configuration` with
//! [`TestClient::set_configuration`]'s value, anything else with `null`.
#![allow(dead_code)] // the tests and the benchmark each use a different part
#![allow(clippy::missing_panics_doc, clippy::unwrap_used, clippy::expect_used)]

pub mod stdio;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{json, Value};
use tokio::io::AsyncWriteExt;
use tokio::sync::mpsc::{unbounded_channel, UnboundedReceiver, UnboundedSender};
use tokio::sync::oneshot;
use unreal_ls::lsp::ServerOptions;

/// Long enough for any honest wait on a loaded machine; only a hang reaches it.
pub const HANG_GUARD: Duration = Duration::from_secs(90);

pub struct TestClient {
    transport: Transport,
    next_id: i64,
    from_server: UnboundedReceiver<Value>,
    /// Every notification received so far, in order (logs included).
    pub received: Vec<Value>,
    configuration: Arc<Mutex<Value>>,
}

/// Frames over pipes, as an editor talks to `unreal-ls lsp`.
struct Transport {
    frames: UnboundedSender<Vec<u8>>,
    pending: Pending,
}

/// Responses awaited, by request id.
type Pending = Arc<Mutex<HashMap<i64, oneshot::Sender<Value>>>>;

/// The server's output: bytes as it writes them, to the client's reader.
struct ToClient(UnboundedSender<Vec<u8>>);

impl std::io::Write for ToClient {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        // The client may be gone (a test that ended): what the server writes then is dropped.
        let _ = self.0.send(bytes.to_vec());
        Ok(bytes.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn frame(message: &Value) -> Vec<u8> {
    let body = message.to_string();
    let mut out = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
    out.extend_from_slice(body.as_bytes());
    out
}

/// Whole frames out of the bytes read so far (`buf` keeps an unfinished one).
fn frames_in(buf: &mut Vec<u8>) -> Vec<Value> {
    let mut out = Vec::new();
    while let Some(end) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
        let header = String::from_utf8_lossy(&buf[..end]).into_owned();
        let length = header
            .lines()
            .find_map(|l| l.strip_prefix("Content-Length:"))
            .and_then(|v| v.trim().parse::<usize>().ok())
            .expect("every frame of the server has a Content-Length");
        if buf.len() < end + 4 + length {
            break;
        }
        let body: Vec<u8> = buf.drain(..end + 4 + length).skip(end + 4).collect();
        out.push(serde_json::from_slice(&body).expect("the server writes JSON"));
    }
    out
}

impl TestClient {
    /// Serves the server over in-memory pipes with the binary's framing. Must run inside a
    /// tokio runtime.
    pub fn new(options: ServerOptions) -> Self {
        let (client_end, server_end) = tokio::io::duplex(1 << 20);
        let (server_reader, _) = tokio::io::split(server_end);
        let (_, mut client_writer) = tokio::io::split(client_end);
        let (out_tx, mut out_rx) = unbounded_channel::<Vec<u8>>();
        tokio::spawn(unreal_ls::lsp::serve_framed(server_reader, ToClient(out_tx), options));

        // Frames to the server go through one writer task, in order.
        let (frames, mut frames_rx) = unbounded_channel::<Vec<u8>>();
        tokio::spawn(async move {
            while let Some(bytes) = frames_rx.recv().await {
                if client_writer.write_all(&bytes).await.is_err() {
                    break;
                }
            }
        });

        let (tx, from_server) = unbounded_channel();
        let pending: Pending = Arc::default();
        let configuration = Arc::new(Mutex::new(Value::Null));
        let answer_with = Arc::clone(&configuration);
        let answers = frames.clone();
        let waiting = Arc::clone(&pending);
        tokio::spawn(async move {
            let mut buf = Vec::new();
            while let Some(bytes) = out_rx.recv().await {
                buf.extend_from_slice(&bytes);
                for message in frames_in(&mut buf) {
                    let has_method = message.get("method").is_some();
                    match (message.get("id").cloned(), has_method) {
                        // A response to one of ours.
                        (Some(id), false) => {
                            let sender =
                                id.as_i64().and_then(|id| waiting.lock().unwrap().remove(&id));
                            if let Some(sender) = sender {
                                let _ = sender.send(message);
                            }
                        }
                        // A request of the server's: answered, and kept like a notification.
                        (Some(id), true) => {
                            let result = if message["method"] == "workspace/configuration" {
                                json!([answer_with.lock().unwrap().clone()])
                            } else {
                                Value::Null
                            };
                            let _ = answers.send(frame(
                                &json!({ "jsonrpc": "2.0", "id": id, "result": result }),
                            ));
                            if tx.send(message).is_err() {
                                return;
                            }
                        }
                        (None, _) => {
                            if tx.send(message).is_err() {
                                return;
                            }
                        }
                    }
                }
            }
        });
        Self {
            transport: Transport { frames, pending },
            next_id: 0,
            from_server,
            received: Vec::new(),
            configuration,
        }
    }

    /// What the client answers to `workspace/configuration`.
    pub fn set_configuration(&self, value: Value) {
        *self.configuration.lock().unwrap() = value;
    }

    /// Sends a request and returns the whole JSON-RPC response (`result` or `error`).
    pub async fn request(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        let message = json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params });
        let Transport { frames, pending } = &mut self.transport;
        let (sender, answer) = oneshot::channel();
        pending.lock().unwrap().insert(id, sender);
        frames.send(frame(&message)).expect("the client's writer runs");
        tokio::time::timeout(HANG_GUARD, answer)
            .await
            .unwrap_or_else(|_| panic!("no answer to {method} from the server"))
            .expect("the server has not exited")
    }

    /// Sends a request and returns its `result`, failing on an error response.
    pub async fn request_ok(&mut self, method: &str, params: Value) -> Value {
        let response = self.request(method, params).await;
        assert!(response.get("error").is_none(), "{method} failed: {response}");
        response["result"].clone()
    }

    /// Sends a notification: its frame is written (the server reads frames in order).
    #[allow(clippy::unused_async)] // awaited in line with the requests it is sent among
    pub async fn notify(&mut self, method: &str, params: Value) {
        let message = json!({ "jsonrpc": "2.0", "method": method, "params": params });
        self.transport.frames.send(frame(&message)).expect("the client's writer runs");
    }

    /// `initialize` with the given client capabilities and options, then `initialized`.
    /// Returns the `initialize` result.
    pub async fn initialize(&mut self, capabilities: Value, options: Value) -> Value {
        self.initialize_in("file:///work/maps", capabilities, options).await
    }

    /// `initialize` with one workspace folder at `folder` (a `file:` URI), then `initialized`.
    pub async fn initialize_in(
        &mut self,
        folder: &str,
        capabilities: Value,
        options: Value,
    ) -> Value {
        let result = self
            .request_ok(
                "initialize",
                json!({
                    "processId": null,
                    "rootUri": null,
                    "capabilities": capabilities,
                    "initializationOptions": options,
                    "workspaceFolders": [{ "uri": folder, "name": "workspace" }],
                }),
            )
            .await;
        self.notify("initialized", json!({})).await;
        result
    }

    pub async fn open(&mut self, uri: &str, language_id: &str, version: i32, text: &str) {
        let params = json!({ "textDocument": {
            "uri": uri, "languageId": language_id, "version": version, "text": text } });
        self.notify("textDocument/didOpen", params).await;
    }

    /// Replaces the whole text of the open document `uri` (a `didChange` without a range).
    pub async fn replace(&mut self, uri: &str, version: i32, text: &str) {
        let params = json!({ "textDocument": { "uri": uri, "version": version },
                             "contentChanges": [{ "text": text }] });
        self.notify("textDocument/didChange", params).await;
    }

    /// The next notification with this method, keeping the others in [`Self::received`].
    pub async fn next_notification(&mut self, method: &str) -> Value {
        loop {
            let message = tokio::time::timeout(HANG_GUARD, self.from_server.recv())
                .await
                .unwrap_or_else(|_| panic!("no {method} from the server; got {:#?}", self.received))
                .expect("the server's socket stays open");
            self.received.push(message.clone());
            if message["method"] == method {
                return message["params"].clone();
            }
        }
    }

    /// The next `publishDiagnostics` for `uri` at `version` (earlier ones are skipped).
    pub async fn diagnostics_for(&mut self, uri: &str, version: Option<i32>) -> Value {
        loop {
            let params = self.next_notification("textDocument/publishDiagnostics").await;
            if params["uri"] == uri
                && params.get("version").and_then(Value::as_i64) == version.map(i64::from)
            {
                return params;
            }
        }
    }

    /// Notifications received so far with this method.
    pub fn received_with(&self, method: &str) -> Vec<&Value> {
        self.received.iter().filter(|m| m["method"] == method).map(|m| &m["params"]).collect()
    }
}

pub use unreal_test_support::Rng;

/// A client-side model of a document with UTF-16 positions, written independently of the
/// server's position code so that the two check each other. Lines end at `\n`; a `\r` before
/// it is part of the line break. (The model never inserts a lone `\r`.)
pub struct Model {
    pub text: String,
}

impl Model {
    fn line_starts(&self) -> Vec<usize> {
        let mut starts = vec![0];
        starts.extend(self.text.match_indices('\n').map(|(i, _)| i + 1));
        starts
    }

    pub fn line_count(&self) -> usize {
        self.line_starts().len()
    }

    /// Byte range of a line's content (without its line break).
    pub fn line_content(&self, line: usize) -> (usize, usize) {
        let starts = self.line_starts();
        let start = starts[line];
        let mut end = starts.get(line + 1).map_or(self.text.len(), |next| next - 1);
        if end > start && self.text.as_bytes()[end - 1] == b'\r' {
            end -= 1;
        }
        (start, end)
    }

    /// Byte offset of (line, UTF-16 column); the column must be on a character boundary.
    pub fn offset(&self, line: usize, col16: usize) -> usize {
        let (start, end) = self.line_content(line);
        let mut units = 0;
        for (i, ch) in self.text[start..end].char_indices() {
            if units >= col16 {
                return start + i;
            }
            units += ch.len_utf16();
        }
        end
    }

    /// (line, UTF-16 column) of a byte offset on a character boundary.
    pub fn position(&self, offset: usize) -> (usize, usize) {
        let starts = self.line_starts();
        let line = starts.partition_point(|&s| s <= offset) - 1;
        let col = self.text[starts[line]..offset].chars().map(char::len_utf16).sum();
        (line, col)
    }

    /// UTF-16 columns of the character boundaries of a line's content.
    pub fn boundaries(&self, line: usize) -> Vec<usize> {
        let (start, end) = self.line_content(line);
        let mut cols = vec![0];
        let mut units = 0;
        for ch in self.text[start..end].chars() {
            units += ch.len_utf16();
            cols.push(units);
        }
        cols
    }

    /// A random edit: replace a short range (usually within one line, sometimes across a
    /// line break) with one of a few snippets, some of them non-ASCII or multi-line.
    /// Returns the LSP change and applies it to the model.
    pub fn random_edit(&mut self, rng: &mut Rng) -> Value {
        const SNIPPETS: [&str; 9] =
            ["", "a", "BAD", "\u{e9}", "\u{1F600}", "\n", "x\r\n", "  ", "Z"];
        let line = rng.below(self.line_count());
        let cols = self.boundaries(line);
        let start_col = cols[rng.below(cols.len())];
        let (end_line, end_col) = if rng.below(10) == 0 && line + 1 < self.line_count() {
            let next = self.boundaries(line + 1);
            (line + 1, next[rng.below(next.len())])
        } else {
            let after: Vec<usize> =
                cols.iter().copied().filter(|&c| c >= start_col).take(3).collect();
            (line, after[rng.below(after.len())])
        };
        let text = SNIPPETS[rng.below(SNIPPETS.len())];
        let start = self.offset(line, start_col);
        let end = self.offset(end_line, end_col);
        self.text.replace_range(start..end, text);
        json!({
            "range": {
                "start": { "line": line, "character": start_col },
                "end": { "line": end_line, "character": end_col },
            },
            "text": text,
        })
    }
}

/// p50, p95, p99 and the maximum of `samples` (sorted in place), for the benchmarks.
pub fn percentiles(samples: &mut [std::time::Duration]) -> String {
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
