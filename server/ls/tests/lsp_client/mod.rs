//! An in-process LSP client for the protocol tests (and, in [`stdio`], a client of the built
//! binary for the stdio test and the latency benchmark): real JSON-RPC
//! messages (JSON text parsed into `jsonrpc::Request`) through the server's tower service
//! (`LspService` behind the panic guard, as `unreal-ls lsp` serves it) with tower's
//! `Service::call`, and everything the server sends back collected from its `ClientSocket`.
//! Requests the server makes of the client are answered here: `workspace/configuration` with
//! [`TestClient::set_configuration`]'s value, anything else with `null`.
#![allow(dead_code)] // the tests and the benchmark each use a different part
#![allow(clippy::missing_panics_doc, clippy::unwrap_used, clippy::expect_used)]

pub mod stdio;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures::future::BoxFuture;
use futures::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio::sync::mpsc::{unbounded_channel, UnboundedReceiver};
use tower::{Service, ServiceExt};
use tower_lsp_server::jsonrpc::{Request, Response};
use unreal_ls::lsp::{Backend, ServerOptions};

/// Long enough for any honest wait on a loaded machine; only a hang reaches it.
pub const HANG_GUARD: Duration = Duration::from_secs(90);

pub struct TestClient {
    service: unreal_ls::lsp::Service,
    next_id: i64,
    from_server: UnboundedReceiver<Value>,
    /// Every notification received so far, in order (logs included).
    pub received: Vec<Value>,
    configuration: Arc<Mutex<Value>>,
}

impl TestClient {
    /// Builds the server in-process. Must run inside a tokio runtime.
    pub fn new(options: ServerOptions) -> Self {
        let (service, socket) = unreal_ls::lsp::service(options);
        let (mut requests, mut responses) = socket.split();
        let (tx, from_server) = unbounded_channel();
        let configuration = Arc::new(Mutex::new(Value::Null));
        let answer_with = Arc::clone(&configuration);
        tokio::spawn(async move {
            while let Some(request) = requests.next().await {
                let message = serde_json::to_value(&request).unwrap();
                let (method, id, _) = request.into_parts();
                if let Some(id) = id {
                    let result = if method == "workspace/configuration" {
                        json!([answer_with.lock().unwrap().clone()])
                    } else {
                        Value::Null
                    };
                    let _ = responses.send(Response::from_ok(id, result)).await;
                }
                if tx.send(message).is_err() {
                    break;
                }
            }
        });
        Self { service, next_id: 0, from_server, received: Vec::new(), configuration }
    }

    pub fn backend(&self) -> &Backend {
        self.service.get_ref().inner()
    }

    /// What the client answers to `workspace/configuration`.
    pub fn set_configuration(&self, value: Value) {
        *self.configuration.lock().unwrap() = value;
    }

    fn parse(message: &Value) -> Request {
        message.to_string().parse().expect("a valid JSON-RPC message")
    }

    /// Sends a request and returns the whole JSON-RPC response (`result` or `error`).
    pub async fn request(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let message =
            json!({ "jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params });
        let response = self.call(Self::parse(&message)).await;
        serde_json::to_value(response.expect("a response to a request")).unwrap()
    }

    /// Sends a request and returns its `result`, failing on an error response.
    pub async fn request_ok(&mut self, method: &str, params: Value) -> Value {
        let response = self.request(method, params).await;
        assert!(response.get("error").is_none(), "{method} failed: {response}");
        response["result"].clone()
    }

    pub async fn notify(&mut self, method: &str, params: Value) {
        let response = self.notify_later(method, params).await.await;
        assert!(response.is_none(), "a notification got a response: {response:?}");
    }

    /// Hands a notification to the server and returns its handler without driving it: the
    /// burst tests and the benchmark hand over many before awaiting any, as tower-lsp-server
    /// does with messages that arrive together.
    pub async fn notify_later(
        &mut self,
        method: &str,
        params: Value,
    ) -> BoxFuture<'static, Option<Response>> {
        let message = json!({ "jsonrpc": "2.0", "method": method, "params": params });
        let service = self.service.ready().await.expect("the server has not exited");
        let future = service.call(Self::parse(&message));
        Box::pin(async move { future.await.expect("the server has not exited") })
    }

    async fn call(&mut self, request: Request) -> Option<Response> {
        let service = self.service.ready().await.expect("the server has not exited");
        service.call(request).await.expect("the server has not exited")
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
