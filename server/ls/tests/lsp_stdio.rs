//! The built binary as an editor runs it: `unreal-ls lsp --stdio`, JSON-RPC framed with
//! `Content-Length` headers over real pipes. Initialize, open a defective T3D, read the
//! published diagnostics (exactly what analysis finds in that text, converted to UTF-16
//! positions), shut down, exit with code 0.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use unreal_analysis::line_index::{ColumnUnit, LineIndex};
use unreal_analysis::lint::{lint_text, FileKind, LintOptions};

/// Only a hang reaches this.
const HANG_GUARD: Duration = Duration::from_secs(90);

const URI: &str = "file:///work/maps/Broken.t3d";

/// A brush whose polygon has two vertices, and a map that is never closed.
const DEFECTIVE_T3D: &str = "Begin Map\r\n\
Begin Actor Class=Brush Name=Brush0\r\n\
   Begin Brush Name=Brush\r\n\
      Begin PolyList\r\n\
         Begin Polygon\r\n\
            Origin   +00000.000000,+00000.000000,+00000.000000\r\n\
            Normal   +00000.000000,+00000.000000,+00001.000000\r\n\
            Vertex   +00000.000000,+00000.000000,+00000.000000\r\n\
            Vertex   +00128.000000,+00000.000000,+00000.000000\r\n\
         End Polygon\r\n\
      End PolyList\r\n\
   End Brush\r\n\
End Actor\r\n";

struct Server {
    child: Child,
    stdin: ChildStdin,
    messages: Receiver<Value>,
}

impl Server {
    fn start() -> Self {
        let mut child = Command::new(env!("CARGO_BIN_EXE_unreal-ls"))
            .args(["lsp", "--stdio"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("the unreal-ls binary starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, messages) = mpsc::channel();
        // A reader thread, so that a silent server fails the test instead of hanging it.
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            while let Some(message) = read_message(&mut reader) {
                if tx.send(message).is_err() {
                    break;
                }
            }
        });
        Self { child, stdin, messages }
    }

    fn send(&mut self, message: &Value) {
        let body = message.to_string();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).unwrap();
        self.stdin.flush().unwrap();
    }

    fn request(&mut self, id: i64, method: &str, params: &Value) -> Value {
        self.send(&json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }));
        self.wait_for(|m| m["id"] == id && m.get("method").is_none())
    }

    fn notify(&mut self, method: &str, params: &Value) {
        self.send(&json!({ "jsonrpc": "2.0", "method": method, "params": params }));
    }

    fn wait_for(&mut self, wanted: impl Fn(&Value) -> bool) -> Value {
        let deadline = Instant::now() + HANG_GUARD;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let message = self.messages.recv_timeout(left).expect("the server answers");
            if wanted(&message) {
                return message;
            }
        }
    }

    fn wait_exit(mut self) -> Option<i32> {
        drop(self.stdin);
        let deadline = Instant::now() + HANG_GUARD;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status.code();
            }
            if Instant::now() > deadline {
                let _ = self.child.kill();
                panic!("the server did not exit");
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

/// Reads one `Content-Length`-framed message; `None` at the end of the stream.
fn read_message(reader: &mut impl BufRead) -> Option<Value> {
    let mut length = None;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some(value) = line.strip_prefix("Content-Length:") {
            length = value.trim().parse::<usize>().ok();
        }
    }
    let mut body = vec![0; length?];
    reader.read_exact(&mut body).ok()?;
    serde_json::from_slice(&body).ok()
}

fn initialize(server: &mut Server) -> Value {
    let params = json!({
        "processId": null,
        "rootUri": "file:///work/maps",
        "capabilities": { "textDocument": { "publishDiagnostics": { "relatedInformation": true } } },
    });
    let response = server.request(1, "initialize", &params);
    server.notify("initialized", &json!({}));
    response
}

#[test]
fn initialize_open_diagnostics_shutdown_exit() {
    let mut server = Server::start();
    let response = initialize(&mut server);
    assert_eq!(response["result"]["serverInfo"]["name"], "unreal-ls");
    assert_eq!(response["result"]["capabilities"]["positionEncoding"], "utf-16");

    server.notify(
        "textDocument/didOpen",
        &json!({ "textDocument": {
            "uri": URI, "languageId": "t3d", "version": 1, "text": DEFECTIVE_T3D } }),
    );
    let published = server.wait_for(|m| {
        m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == URI
    });
    let params = &published["params"];
    assert_eq!(params["version"], 1);

    // Exactly what analysis finds, at the same places.
    let index = LineIndex::new(DEFECTIVE_T3D);
    let expected: Vec<Value> = lint_text(FileKind::T3d, DEFECTIVE_T3D, &LintOptions::default())
        .iter()
        .map(|d| {
            let start = index.line_col(DEFECTIVE_T3D, d.span.start, ColumnUnit::Utf16);
            let end = index.line_col(DEFECTIVE_T3D, d.span.end, ColumnUnit::Utf16);
            json!([d.code, [start.line, start.col], [end.line, end.col]])
        })
        .collect();
    let actual: Vec<Value> = params["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            assert_eq!(d["source"], "unreal-ls");
            let r = &d["range"];
            json!([
                d["code"],
                [r["start"]["line"], r["start"]["character"]],
                [r["end"]["line"], r["end"]["character"]]
            ])
        })
        .collect();
    assert_eq!(actual, expected);

    let response = server.request(2, "shutdown", &Value::Null);
    assert_eq!(response["result"], Value::Null);
    assert!(response.get("error").is_none(), "{response}");
    server.notify("exit", &Value::Null);
    assert_eq!(server.wait_exit(), Some(0));
}

#[test]
fn exit_without_shutdown_is_exit_code_1() {
    let mut server = Server::start();
    initialize(&mut server);
    server.notify("exit", &Value::Null);
    assert_eq!(server.wait_exit(), Some(1));
}
