//! The built binary as an editor runs it: `unreal-ls lsp --stdio` in its own process,
//! JSON-RPC framed with `Content-Length` headers over pipes. For the stdio test and the
//! latency benchmark (which also reads the process's memory).

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

/// The binary to run: `UNREAL_LS_BIN` when set (a build of another commit, for a before and
/// after), else the one cargo built for this run.
pub fn binary() -> String {
    std::env::var("UNREAL_LS_BIN")
        .ok()
        .filter(|bin| !bin.is_empty())
        .unwrap_or_else(|| env!("CARGO_BIN_EXE_unreal-ls").to_owned())
}

pub struct StdioServer {
    child: Child,
    stdin: ChildStdin,
    /// Each message with when its last byte was read (before it was decoded).
    messages: Receiver<(Value, Instant)>,
    /// When the last message [`Self::wait_for`] returned had arrived whole, before this client
    /// decoded it: what the server and the pipe took, without the client's JSON decoding.
    pub last_arrived: Option<Instant>,
    next_id: i64,
    /// How long any one wait may take: only a hang reaches it.
    hang_guard: Duration,
}

impl StdioServer {
    /// Starts the binary; its stderr goes to the test's unless `quiet`.
    pub fn start(binary: &str, quiet: bool, hang_guard: Duration) -> Self {
        Self::start_with_stderr(
            binary,
            if quiet { Stdio::null() } else { Stdio::inherit() },
            hang_guard,
        )
    }

    /// Starts the binary with its stderr (the server's log) going to `stderr`.
    pub fn start_with_stderr(binary: &str, stderr: Stdio, hang_guard: Duration) -> Self {
        let mut child = Command::new(binary)
            .args(["lsp", "--stdio"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(stderr)
            .spawn()
            .expect("the unreal-ls binary starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, messages) = mpsc::channel();
        // A reader thread, so that a silent server fails the wait instead of hanging it.
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            while let Some(message) = read_message(&mut reader) {
                if tx.send(message).is_err() {
                    break;
                }
            }
        });
        Self { child, stdin, messages, last_arrived: None, next_id: 0, hang_guard }
    }

    pub fn send(&mut self, message: &Value) {
        let body = message.to_string();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).unwrap();
        self.stdin.flush().unwrap();
    }

    /// Sends bytes as they are: frames broken on purpose, garbage.
    pub fn send_raw(&mut self, bytes: &[u8]) {
        self.stdin.write_all(bytes).unwrap();
        self.stdin.flush().unwrap();
    }

    /// Sends a request and returns the whole response message.
    pub fn request(&mut self, method: &str, params: &Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        self.send(&json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }));
        self.wait_for(|m| m["id"] == id && m.get("method").is_none())
    }

    pub fn notify(&mut self, method: &str, params: &Value) {
        self.send(&json!({ "jsonrpc": "2.0", "method": method, "params": params }));
    }

    /// The `publishDiagnostics` of `version` (earlier ones are skipped).
    pub fn diagnostics_for(&mut self, version: i64) -> Value {
        let message = self.wait_for(|m| {
            m["method"] == "textDocument/publishDiagnostics" && m["params"]["version"] == version
        });
        message["params"].clone()
    }

    /// The next message `wanted` accepts; requests the server makes of the client on the way
    /// (configuration, registrations) are answered with `null`.
    pub fn wait_for(&mut self, wanted: impl Fn(&Value) -> bool) -> Value {
        let deadline = Instant::now() + self.hang_guard;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let (message, arrived) = self.messages.recv_timeout(left).expect("the server answers");
            if message.get("method").is_some() && message.get("id").is_some() {
                let id = message["id"].clone();
                self.send(&json!({ "jsonrpc": "2.0", "id": id, "result": null }));
                continue;
            }
            if wanted(&message) {
                self.last_arrived = Some(arrived);
                return message;
            }
        }
    }

    /// The next message `wanted` accepts, answering nothing on the way (a request from the
    /// server stays unanswered).
    pub fn wait_for_unanswered(&mut self, wanted: impl Fn(&Value) -> bool) -> Value {
        let deadline = Instant::now() + self.hang_guard;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let (message, _) = self.messages.recv_timeout(left).expect("the server answers");
            if wanted(&message) {
                return message;
            }
        }
    }

    /// The server process's id (for its `/proc` files).
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// The server process's current and peak resident memory (`VmRSS`, `VmHWM`).
    pub fn memory(&self) -> String {
        let path = format!("/proc/{}/status", self.child.id());
        let status = std::fs::read_to_string(path).unwrap_or_default();
        let field = |name: &str| {
            status
                .lines()
                .find_map(|l| l.strip_prefix(name))
                .map_or_else(|| "?".to_owned(), |v| v.trim().to_owned())
        };
        format!("server VmRSS {} (peak VmHWM {})", field("VmRSS:"), field("VmHWM:"))
    }

    /// Waits for the server to exit on its own, its input still open; its exit code.
    pub fn wait_exit_with_input_open(&mut self) -> Option<i32> {
        exit_code(&mut self.child, self.hang_guard)
    }

    /// Closes the server's input and waits for it to exit; its exit code.
    pub fn wait_exit(mut self) -> Option<i32> {
        drop(self.stdin);
        exit_code(&mut self.child, self.hang_guard)
    }
}

/// Reads one `Content-Length`-framed message, with when its last byte was read; `None` at
/// the end of the stream.
fn read_message(reader: &mut impl BufRead) -> Option<(Value, Instant)> {
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
    let arrived = Instant::now();
    serde_json::from_slice(&body).ok().map(|message| (message, arrived))
}

/// The exit code of `child` once it exits; killed, and a panic, after `hang_guard`.
fn exit_code(child: &mut std::process::Child, hang_guard: Duration) -> Option<i32> {
    let deadline = Instant::now() + hang_guard;
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status.code();
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("the server did not exit");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}
