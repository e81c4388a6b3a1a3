//! The client's byte stream cut into checked messages, before anything reads them.
//!
//! A server that stops reading at the first malformed message loses the editor every feature
//! until a restart: tower-lsp-server's own transport did (its `FramedRead` ends its stream
//! after the first decoding error: bad JSON, an `id` of `1.5`, a batch array, invalid UTF-8).
//! [`Deframer`] splits the raw input into frames itself, checks each body the way the server
//! and the protocol library read it (UTF-8, JSON, one object, `"jsonrpc":"2.0"`, an `id` that
//! is an integer or a string, a string `method`, the shape of a request, notification or
//! response), passes on what is well formed and answers the rest itself: -32700 (parse
//! error) or -32600 (invalid request), with the message's `id` when it can be read and `null`
//! otherwise, as JSON-RPC 2.0 says, plus a line on stderr. A `$/` request that carries an id,
//! which the library would drop unanswered, gets -32601 (method not found). Garbage between
//! frames is skipped up to the next `Content-Length` header and logged.
//!
//! [`Deframer`] is a plain state machine over bytes (fuzzed by the `lsp_frames` target); the
//! async plumbing around it is [`pump`], which hands each message to
//! [`super::dispatch`], and [`write_frames`], the one writer of the output.

use std::io;

use serde_json::{json, Value};
use tokio::io::{AsyncRead, AsyncReadExt};
use tokio::sync::mpsc;
use tower_lsp_server::jsonrpc::{Request, Response};

/// A header block longer than this is not a header: the bytes are skipped.
const MAX_HEADER: usize = 8 * 1024;
/// The input buffer keeps at most this much room once a bigger message has gone through.
const KEEP_CAPACITY: usize = 256 * 1024;

/// A body this long is taken out of the input buffer whole instead of copied out of it.
const TAKE_WHOLE: usize = 64 * 1024;
/// The most room reserved at once for a body announced by its header (a longer one grows as
/// it arrives).
const MAX_RESERVE: usize = 256 << 20;

/// A body longer than this is refused without being held in memory (it is skipped as it
/// arrives). Far above any real document: a 200 MB map opens within it.
pub const MAX_BODY: usize = 1 << 30;

/// The longest body announced that is still skipped as it arrives (4 GiB: seconds through a
/// pipe). A longer announcement (`Content-Length: 1099511627776`, or 2^64-1) is a body that
/// will not arrive: skipping it would swallow every later message while the server looked
/// alive, so the stream counts as broken instead ([`Deframer::broken`]) and the server ends.
pub const MAX_SKIP: usize = 1 << 32;

/// What one frame of input became.
#[derive(Debug, PartialEq)]
pub enum Frame {
    /// A well-formed JSON-RPC message body, for the server.
    Message(Vec<u8>),
    /// Input that cannot be served: the error response to send (a JSON body, when the input
    /// was a message at all) and what to log.
    Rejected { response: Option<Vec<u8>>, log: String },
    /// A well-formed message the server will drop (a notification whose
    /// parameters it cannot read): passed on, and logged.
    Logged { body: Vec<u8>, log: String },
}

#[derive(Debug)]
enum State {
    Header,
    Body {
        len: usize,
    },
    /// Skipping the rest of an oversized body.
    Discard {
        remaining: usize,
    },
    /// The input cannot be followed any more (a body announced past [`MAX_SKIP`]): everything
    /// after is ignored.
    Broken,
}

/// Splits a byte stream into checked frames.
#[derive(Debug)]
pub struct Deframer {
    buf: Vec<u8>,
    state: State,
}

impl Default for Deframer {
    fn default() -> Self {
        Self::new()
    }
}

impl Deframer {
    pub fn new() -> Self {
        Self { buf: Vec::new(), state: State::Header }
    }

    /// Takes the next bytes of input and returns every frame they complete.
    pub fn push(&mut self, bytes: &[u8]) -> Vec<Frame> {
        let mut out = Vec::new();
        if self.broken() {
            return out;
        }
        let mut bytes = bytes;
        if let State::Discard { remaining } = &mut self.state {
            let take = bytes.len().min(*remaining);
            *remaining -= take;
            bytes = bytes.get(take..).unwrap_or_default();
            if *remaining > 0 {
                return out;
            }
            self.state = State::Header;
        }
        self.buf.extend_from_slice(bytes);
        loop {
            match self.state {
                State::Header => match self.header(&mut out) {
                    Some(next) => self.state = next,
                    None => return out,
                },
                State::Body { len } => {
                    if self.buf.len() < len {
                        return out;
                    }
                    let body = if len >= TAKE_WHOLE {
                        // A big message (a map's `didOpen`): the buffer becomes the body,
                        // without a copy, and what follows it gets a buffer of its own.
                        let rest = self.buf.split_off(len);
                        std::mem::replace(&mut self.buf, rest)
                    } else {
                        self.buf.drain(..len).collect()
                    };
                    out.push(check(body));
                    // A big message would otherwise keep its size of memory for the life of
                    // the server.
                    if self.buf.capacity() > KEEP_CAPACITY && self.buf.len() <= KEEP_CAPACITY {
                        self.buf.shrink_to(KEEP_CAPACITY);
                    }
                    self.state = State::Header;
                }
                State::Broken => {
                    self.buf = Vec::new();
                    return out;
                }
                State::Discard { remaining } => {
                    let take = self.buf.len().min(remaining);
                    self.buf.drain(..take);
                    if take < remaining {
                        self.state = State::Discard { remaining: remaining - take };
                        return out;
                    }
                    self.state = State::Header;
                }
            }
        }
    }

    /// Whatever is left when the input ends: a frame cut short.
    pub fn finish(&mut self) -> Option<Frame> {
        let left = std::mem::take(&mut self.buf);
        let cut = match self.state {
            State::Body { len } => Some(format!(
                "the input ended inside a message: {} of its {len} bytes arrived",
                left.len()
            )),
            State::Discard { remaining } => Some(format!(
                "the input ended inside an oversized message, {remaining} bytes short"
            )),
            State::Header if left.iter().any(|b| !b.is_ascii_whitespace()) => {
                Some(format!("the input ended with {} bytes that are not a message", left.len()))
            }
            State::Header | State::Broken => None,
        };
        if !self.broken() {
            self.state = State::Header;
        }
        cut.map(|log| Frame::Rejected { response: None, log })
    }

    /// Whether the input can no longer be split into messages (a body announced longer than
    /// [`MAX_SKIP`]): the caller stops reading, and the server ends as at the end of input.
    pub fn broken(&self) -> bool {
        matches!(self.state, State::Broken)
    }

    /// Reads one header block from the buffer. `None`: more input is needed.
    fn header(&mut self, out: &mut Vec<Frame>) -> Option<State> {
        // Blank lines between messages are harmless.
        let lead = self.buf.iter().take_while(|b| b.is_ascii_whitespace()).count();
        self.buf.drain(..lead);
        match looks_like_header(&self.buf) {
            Looks::Header => {}
            Looks::Unknown if self.buf.len() <= MAX_HEADER => return None,
            Looks::Unknown | Looks::Garbage => {
                // Skip to the next `Content-Length`, keeping a tail that may start one.
                let skip = match find_ignore_case(
                    self.buf.get(1..).unwrap_or_default(),
                    b"content-length",
                ) {
                    Some(at) => at + 1,
                    None if self.buf.len() > MAX_HEADER => self.buf.len() - b"content-length".len(),
                    None => return None,
                };
                self.buf.drain(..skip);
                out.push(rejected_garbage(skip));
                return Some(State::Header);
            }
        }
        let (end, terminator) = match (find(&self.buf, b"\r\n\r\n"), find(&self.buf, b"\n\n")) {
            (Some(a), Some(b)) if b < a => (b, 2),
            (Some(a), _) => (a, 4),
            (None, Some(b)) => (b, 2),
            (None, None) => {
                if self.buf.len() > MAX_HEADER {
                    // Not a header after all: skip its first byte and look again.
                    self.buf.drain(..1);
                    out.push(rejected_garbage(1));
                    return Some(State::Header);
                }
                return None;
            }
        };
        let block: Vec<u8> = self.buf.drain(..end + terminator).collect();
        let text = String::from_utf8_lossy(block.get(..end).unwrap_or_default()).into_owned();
        let mut length: Option<Result<usize, String>> = None;
        for line in text.lines() {
            let Some((name, value)) = line.split_once(':') else { continue };
            if name.trim().eq_ignore_ascii_case("content-length") {
                let value = value.trim();
                length = Some(value.parse::<usize>().map_err(|_| value.to_owned()));
            }
        }
        match length {
            Some(Ok(len)) if len > MAX_SKIP => {
                out.push(Frame::Rejected {
                    response: Some(error_body(-32600, &Value::Null, "message too large")),
                    log: format!(
                        "a message announces {len} bytes, more than the {MAX_SKIP} bytes that can be skipped: the input cannot be followed any further, so the server stops"
                    ),
                });
                Some(State::Broken)
            }
            Some(Ok(len)) if len > MAX_BODY => {
                out.push(Frame::Rejected {
                    response: Some(error_body(-32600, &Value::Null, "message too large")),
                    log: format!(
                        "skipped a message of {len} bytes: more than the {MAX_BODY} bytes accepted"
                    ),
                });
                Some(State::Discard { remaining: len })
            }
            Some(Ok(len)) => {
                // Room for the whole body at once: a big one is not moved while it arrives.
                let room = len.min(MAX_RESERVE).saturating_sub(self.buf.len());
                self.buf.reserve(room);
                Some(State::Body { len })
            }
            Some(Err(value)) => {
                out.push(Frame::Rejected {
                    response: None,
                    log: format!(
                        "skipped a header with an unreadable Content-Length `{}`",
                        quote(&value)
                    ),
                });
                Some(State::Header)
            }
            None => {
                out.push(Frame::Rejected {
                    response: None,
                    log: "skipped a header block without Content-Length".to_owned(),
                });
                Some(State::Header)
            }
        }
    }
}

/// Whether the buffer starts with a header field (`Name:`).
enum Looks {
    Header,
    Garbage,
    /// Only name characters so far: more input decides.
    Unknown,
}

fn looks_like_header(buf: &[u8]) -> Looks {
    for (i, &b) in buf.iter().enumerate() {
        match b {
            b':' if i > 0 => return Looks::Header,
            b if b.is_ascii_alphanumeric() || b == b'-' => {}
            _ => return Looks::Garbage,
        }
    }
    Looks::Unknown
}

fn rejected_garbage(bytes: usize) -> Frame {
    Frame::Rejected {
        response: None,
        log: format!("skipped {bytes} bytes between messages that are not a message header"),
    }
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

fn find_ignore_case(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w.eq_ignore_ascii_case(needle))
}

/// At most 80 characters of user input, for a log line.
fn quote(text: &str) -> String {
    let mut out: String = text.chars().take(80).flat_map(char::escape_default).collect();
    if text.chars().count() > 80 {
        out.push('…');
    }
    out
}

/// A JSON-RPC error response body.
fn error_body(code: i64, id: &Value, message: &str) -> Vec<u8> {
    json!({ "jsonrpc": "2.0", "error": { "code": code, "message": message }, "id": id })
        .to_string()
        .into_bytes()
}

/// Checks one body the way the server and the protocol library will read it.
fn check(body: Vec<u8>) -> Frame {
    // A document's opening, the one big message an editor sends, read without a JSON tree
    // (three of them below: 30 MB for a 10 MB map).
    if super::opening::read(&body).is_some() {
        return Frame::Message(body);
    }
    let reject = |code: i64, id: &Value, why: String| Frame::Rejected {
        response: Some(error_body(
            code,
            id,
            if code == -32700 { "Parse error" } else { "Invalid request" },
        )),
        log: format!("answered a malformed message with {code}: {why}"),
    };
    let Ok(text) = std::str::from_utf8(&body) else {
        return reject(-32700, &Value::Null, "the body is not UTF-8".to_owned());
    };
    if text.trim().is_empty() {
        return Frame::Rejected { response: None, log: "skipped an empty message".to_owned() };
    }
    let value: Value = match serde_json::from_str(text) {
        Ok(value) => value,
        Err(err) => return reject(-32700, &Value::Null, format!("not JSON ({err})")),
    };
    let Value::Object(object) = &value else {
        let what = if value.is_array() { "a batch (array)" } else { "not an object" };
        return reject(-32600, &Value::Null, format!("the message is {what}"));
    };
    // An id the response can carry: an integer or a string (null is allowed by JSON-RPC).
    let id = match object.get("id") {
        None => Value::Null,
        Some(id @ (Value::String(_) | Value::Null)) => id.clone(),
        Some(Value::Number(n)) if n.is_i64() => Value::Number(n.clone()),
        Some(other) => {
            return reject(
                -32600,
                &Value::Null,
                format!("the id `{}` is not an integer or a string", quote(&other.to_string())),
            )
        }
    };
    if object.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return reject(-32600, &id, "`jsonrpc` is not \"2.0\"".to_owned());
    }
    match object.get("method") {
        // The library drops every `$/` message unanswered; a request (one with an id) must
        // still get an answer, and no `$/` request exists that the server implements.
        Some(Value::String(method)) if method.starts_with("$/") && object.contains_key("id") => {
            return Frame::Rejected {
                response: Some(error_body(-32601, &id, "Method not found")),
                log: format!(
                    "answered the request `{}` with -32601: no such method",
                    quote(method)
                ),
            };
        }
        Some(Value::String(_)) => {}
        Some(_) => return reject(-32600, &id, "`method` is not a string".to_owned()),
        None if object.contains_key("result") || object.contains_key("error") => {
            // A response to one of our requests.
            return match serde_json::from_value::<Response>(value.clone()) {
                Ok(_) => Frame::Message(body),
                Err(err) => Frame::Rejected {
                    response: None,
                    log: format!("skipped a malformed response ({err})"),
                },
            };
        }
        None => return reject(-32600, &id, "no `method`, `result` or `error`".to_owned()),
    }
    if let Err(err) = serde_json::from_value::<Request>(value.clone()) {
        return reject(-32600, &id, format!("not a request ({err})"));
    }
    // A notification whose parameters cannot be read is dropped without a
    // word (an edit with a negative position): pass it on, and say so.
    if !object.contains_key("id") {
        if let (Some(Value::String(method)), Some(params)) =
            (object.get("method"), object.get("params"))
        {
            if let Some(problem) = notification_problem(method, params) {
                return Frame::Logged {
                    body,
                    log: format!("the notification `{}` will be dropped: {problem}", quote(method)),
                };
            }
        }
    }
    Frame::Message(body)
}

/// Why the parameters of a notification the server handles cannot be read, if they cannot.
fn notification_problem(method: &str, params: &Value) -> Option<String> {
    use tower_lsp_server::ls_types as lsp;
    fn read<T: serde::de::DeserializeOwned>(params: &Value) -> Option<String> {
        serde_json::from_value::<T>(params.clone()).err().map(|err| quote(&err.to_string()))
    }
    match method {
        "textDocument/didOpen" => read::<lsp::DidOpenTextDocumentParams>(params),
        "textDocument/didChange" => read::<lsp::DidChangeTextDocumentParams>(params),
        "textDocument/didClose" => read::<lsp::DidCloseTextDocumentParams>(params),
        "textDocument/didSave" => read::<lsp::DidSaveTextDocumentParams>(params),
        "workspace/didChangeConfiguration" => read::<lsp::DidChangeConfigurationParams>(params),
        "workspace/didChangeWatchedFiles" => read::<lsp::DidChangeWatchedFilesParams>(params),
        _ => None,
    }
}

/// `Content-Length` framing for one body.
pub fn framed(body: &[u8]) -> Vec<u8> {
    let mut out = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
    out.extend_from_slice(body);
    out
}

/// Reads `input` through a [`Deframer`]: each well-formed message is read with `read` (see
/// [`super::dispatch::Incoming::read`]) and sent on `to_server`, in order; rejections are
/// answered on `replies` and logged with `log`. Returns when the input ends or the server
/// stops reading (`to_server` closed); a full `to_server` holds the reading back.
pub async fn pump<R, T>(
    mut input: R,
    to_server: mpsc::Sender<T>,
    replies: mpsc::UnboundedSender<Outgoing>,
    log: impl Fn(&str),
    read: impl Fn(Vec<u8>) -> Option<T>,
) -> io::Result<()>
where
    R: AsyncRead + Unpin,
{
    let mut deframer = Deframer::new();
    let mut chunk = vec![0u8; 64 * 1024];
    loop {
        let read_len = input.read(&mut chunk).await?;
        let frames = if read_len == 0 {
            deframer.finish().into_iter().collect()
        } else {
            deframer.push(chunk.get(..read_len).unwrap_or_default())
        };
        for frame in frames {
            let body = match frame {
                Frame::Message(body) => body,
                Frame::Logged { body, log: line } => {
                    log(&line);
                    body
                }
                Frame::Rejected { response, log: line } => {
                    log(&line);
                    if let Some(response) = response {
                        // The writer is gone only when the server is stopping.
                        let _ = replies.send(framed(&response).into());
                    }
                    continue;
                }
            };
            if let Some(message) = read(body) {
                if to_server.send(message).await.is_err() {
                    return Ok(());
                }
            }
        }
        if read_len == 0 || deframer.broken() {
            return Ok(());
        }
    }
}

/// What the writer thread writes.
pub enum Outgoing {
    /// A whole frame (an empty one stops the writer).
    Frame(Vec<u8>),
    /// One frame in pieces, made as it is written (a big answer that is never held whole): its
    /// header, then its body. The writer writes every piece until the sender is dropped,
    /// before anything else; the sender must make exactly the bytes its header announces.
    Pieces(std::sync::mpsc::Receiver<Vec<u8>>),
}

impl From<Vec<u8>> for Outgoing {
    fn from(frame: Vec<u8>) -> Self {
        Self::Frame(frame)
    }
}

/// Writes every frame from `frames` to `output`, in order, on the calling thread (the
/// server's own writer thread), until all senders are gone or an empty frame comes: then
/// `done` hears of it. Each frame is written from its own buffer: tokio's stdout copied every
/// frame into a buffer of its own (2 MB of a big answer at a time) and handed each write to
/// a thread of the blocking pool, a hop for every published diagnostics.
pub fn write_frames(
    mut output: impl io::Write,
    mut frames: mpsc::UnboundedReceiver<Outgoing>,
    done: &std::sync::mpsc::Sender<()>,
) -> io::Result<()> {
    let written = (|| {
        while let Some(frame) = frames.blocking_recv() {
            match frame {
                Outgoing::Frame(frame) if frame.is_empty() => break,
                Outgoing::Frame(frame) => output.write_all(&frame)?,
                Outgoing::Pieces(pieces) => {
                    while let Ok(piece) = pieces.recv() {
                        output.write_all(&piece)?;
                    }
                }
            }
            output.flush()?;
        }
        Ok(())
    })();
    let _ = done.send(());
    written
}

#[cfg(test)]
mod tests {
    use super::{framed, Deframer, Frame, KEEP_CAPACITY};

    #[test]
    fn a_big_message_leaves_no_big_buffer_behind() {
        let text = "x".repeat(4 << 20);
        let body = format!(
            r#"{{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{{"textDocument":{{"uri":"file:///a.t3d","languageId":"t3d","version":1,"text":"{text}"}}}}}}"#
        );
        let mut deframer = Deframer::new();
        let frames = deframer.push(&framed(body.as_bytes()));
        assert!(matches!(frames.as_slice(), [Frame::Message(_)]));
        assert!(deframer.buf.capacity() <= KEEP_CAPACITY, "{}", deframer.buf.capacity());
    }

    fn show(frames: &[Frame]) -> String {
        frames
            .iter()
            .map(|f| match f {
                Frame::Message(body) => format!("message {}", String::from_utf8_lossy(body)),
                Frame::Logged { body, log } => {
                    format!("logged ({log}) {}", String::from_utf8_lossy(body))
                }
                Frame::Rejected { response, log } => format!(
                    "rejected ({log}){}",
                    response.as_ref().map_or_else(String::new, |r| format!(
                        " -> {}",
                        String::from_utf8_lossy(r)
                    ))
                ),
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    fn run(input: &[u8]) -> String {
        let mut deframer = Deframer::new();
        let mut frames = Vec::new();
        // Byte by byte: frames must not depend on how the input is cut.
        for b in input {
            frames.extend(deframer.push(std::slice::from_ref(b)));
        }
        frames.extend(deframer.finish());
        let whole = {
            let mut d = Deframer::new();
            let mut f = d.push(input);
            f.extend(d.finish());
            show(&f)
        };
        let shown = show(&frames);
        assert_eq!(shown, whole, "cut byte by byte vs whole");
        shown
    }

    #[test]
    fn malformed_messages_are_answered_and_the_stream_goes_on() {
        let mut input = Vec::new();
        for body in [
            r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#,
            r#"{"jsonrpc":"2.0","id":2,"method":"#,
            r#"{"jsonrpc":"2.0","id":1.5,"method":"x"}"#,
            r#"{"jsonrpc":"2.0","id":{"a":1},"method":"x"}"#,
            r#"{"jsonrpc":"1.0","id":3,"method":"x"}"#,
            r#"[{"jsonrpc":"2.0","id":4,"method":"x"}]"#,
            r#"{"jsonrpc":"2.0","id":5,"method":7}"#,
            r#"{"jsonrpc":"2.0","id":"s","result":null}"#,
            r#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#,
            r#"{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"file:///a.t3d","version":2},"contentChanges":[{"range":{"start":{"line":-1,"character":0},"end":{"line":0,"character":0}},"text":""}]}}"#,
        ] {
            input.extend(framed(body.as_bytes()));
        }
        input.extend(framed(b"{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"\xff\"}"));
        input.extend_from_slice(b"garbage here\r\n");
        input.extend(framed(br#"{"jsonrpc":"2.0","id":7,"method":"shutdown"}"#));
        input.extend_from_slice(b"Content-Length: x\r\n\r\n");
        input.extend_from_slice(b"Content-Length: 99\r\n\r\n{\"cut\":");
        expect_test::expect![[r#"
            message {"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}
            rejected (answered a malformed message with -32700: not JSON (EOF while parsing a value at line 1 column 33)) -> {"error":{"code":-32700,"message":"Parse error"},"id":null,"jsonrpc":"2.0"}
            rejected (answered a malformed message with -32600: the id `1.5` is not an integer or a string) -> {"error":{"code":-32600,"message":"Invalid request"},"id":null,"jsonrpc":"2.0"}
            rejected (answered a malformed message with -32600: the id `{\"a\":1}` is not an integer or a string) -> {"error":{"code":-32600,"message":"Invalid request"},"id":null,"jsonrpc":"2.0"}
            rejected (answered a malformed message with -32600: `jsonrpc` is not "2.0") -> {"error":{"code":-32600,"message":"Invalid request"},"id":3,"jsonrpc":"2.0"}
            rejected (answered a malformed message with -32600: the message is a batch (array)) -> {"error":{"code":-32600,"message":"Invalid request"},"id":null,"jsonrpc":"2.0"}
            rejected (answered a malformed message with -32600: `method` is not a string) -> {"error":{"code":-32600,"message":"Invalid request"},"id":5,"jsonrpc":"2.0"}
            message {"jsonrpc":"2.0","id":"s","result":null}
            message {"jsonrpc":"2.0","method":"initialized","params":{}}
            logged (the notification `textDocument/didChange` will be dropped: invalid value: integer `-1`, expected u32) {"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"file:///a.t3d","version":2},"contentChanges":[{"range":{"start":{"line":-1,"character":0},"end":{"line":0,"character":0}},"text":""}]}}
            rejected (answered a malformed message with -32700: the body is not UTF-8) -> {"error":{"code":-32700,"message":"Parse error"},"id":null,"jsonrpc":"2.0"}
            rejected (skipped 14 bytes between messages that are not a message header)
            message {"jsonrpc":"2.0","id":7,"method":"shutdown"}
            rejected (skipped a header with an unreadable Content-Length `x`)
            rejected (the input ended inside a message: 7 of its 99 bytes arrived)"#]]
        .assert_eq(&run(&input));
    }

    #[test]
    fn oversized_bodies_are_skipped_as_they_arrive() {
        let mut deframer = Deframer::new();
        let len = super::MAX_BODY + 10;
        let first = deframer.push(format!("Content-Length: {len}\r\n\r\n").as_bytes());
        assert!(matches!(first.as_slice(), [Frame::Rejected { response: Some(_), .. }]));
        let chunk = vec![b'x'; 1 << 20];
        let mut fed = 0;
        while fed + chunk.len() <= len {
            assert!(deframer.push(&chunk).is_empty());
            fed += chunk.len();
        }
        let mut tail = vec![b'x'; len - fed];
        tail.extend(framed(br#"{"jsonrpc":"2.0","method":"exit"}"#));
        expect_test::expect![[r#"message {"jsonrpc":"2.0","method":"exit"}"#]]
            .assert_eq(&show(&deframer.push(&tail)));
    }

    /// A body that cannot arrive (1 TiB, 2^64-1) swallowed every later message: hover never
    /// answered again. Now the answer is "message too large" and the input counts as broken.
    #[test]
    fn a_body_that_cannot_arrive_breaks_the_stream() {
        for len in [1u64 << 40, u64::MAX] {
            let mut deframer = Deframer::new();
            let mut input = format!("Content-Length: {len}\r\n\r\n{{}}").into_bytes();
            input.extend(framed(br#"{"jsonrpc":"2.0","method":"exit"}"#));
            let frames = deframer.push(&input);
            assert!(
                matches!(frames.as_slice(), [Frame::Rejected { response: Some(r), .. }]
                    if String::from_utf8_lossy(r).contains("message too large")),
                "{}",
                show(&frames)
            );
            assert!(deframer.broken());
            assert!(deframer.push(&framed(b"{}")).is_empty());
            assert!(deframer.finish().is_none());
        }
        // Just past the accepted size: skipped as it arrives, not broken.
        let mut deframer = Deframer::new();
        deframer.push(format!("Content-Length: {}\r\n\r\n", super::MAX_BODY + 1).as_bytes());
        assert!(!deframer.broken());
    }
}
