//! Answers written straight into their frames.
//!
//! A protocol library such as tower-lsp-server turns every answer into a `serde_json::Value`
//! tree (`to_value`), then into a string, then into its output buffer, and drops the tree
//! afterwards on the thread that writes every message. For the outline, the folding ranges
//! and the formatting of a big map the answer is megabytes: on the 10 MB map of
//! `benches/lsp_latency.rs` the tree and its copies took about half the server's time for
//! those requests and most of their peak memory. So every answer of the server's own routes
//! ([`super::dispatch`]) is serialized once from its typed value, on the thread that made
//! it, straight into the frame the writer thread writes ([`frame_result`]); three go further:
//! the whole document's formatting is written into the frame as the formatter makes its edits
//! ([`format_frame`]), and the outline and the folds of a big map are written in pieces
//! straight from what its segments keep, never held whole ([`stream_kept`]). Published
//! diagnostics, sent after every edit, are framed the same way ([`diagnostics_frame`]).
//! Tests here hold the frames to serde's JSON of the same answers; why the path exists:
//! docs/performance.md, "Big answers written straight to the output" and the `lsp_latency`
//! benchmark.

use std::io::Write as _;

use serde::Serialize;
use tokio::sync::mpsc::UnboundedSender;
use tower_lsp_server::jsonrpc::{Id, Response};
use tower_lsp_server::ls_types::{self as lsp, DocumentFormattingParams, Uri};

use unreal_analysis::document::KeptOutline;
use unreal_analysis::ide::t3d::formatting::EditSink;
use unreal_analysis::ide::t3d::symbols;
use unreal_syntax::Span;

use super::documents::DocumentSnapshot;
use super::features;
use super::framing::Outgoing;

/// The framed answer to `textDocument/formatting`: the edits are written into the frame as
/// the formatter makes them ([`JsonEdits`]), so the formatted text is held once, as JSON,
/// never as edits first. The bytes are those of serde's answer of the same edits.
pub fn format_frame(
    snapshot: &DocumentSnapshot<'_>,
    params: &DocumentFormattingParams,
    id: &Id,
) -> Vec<u8> {
    let mut out = vec![b' '; HEADER_ROOM];
    // Room for a whole map's new text, escaped line breaks and all, so that the frame is not
    // moved while it grows (pages of the room never written are never resident).
    let text = snapshot.text().len();
    out.reserve(text.saturating_add(text / 2).saturating_add(4096));
    out.extend_from_slice(br#"{"jsonrpc":"2.0","result":"#);
    let result_at = out.len();
    out.push(b'[');
    let mut edits = JsonEdits { out: &mut out, snapshot, edits: 0, end_at: 0 };
    if features::formatting::full_into(snapshot, params, &mut edits) {
        out.push(b']');
    } else {
        // No edits to give (`null`): whatever was written goes.
        out.truncate(result_at);
        out.extend_from_slice(b"null");
    }
    out.extend_from_slice(br#","id":"#);
    let _ = serde_json::to_writer(&mut out, id);
    out.push(b'}');
    with_header(out)
}

/// Writes the whole document's formatting edits into the frame as the formatter makes them,
/// as serde writes a `Vec<TextEdit>`: `{"range":{"start":…,"end":…},"newText":"…"}` with
/// commas between. An edit's end is known only when its text is done (runs of changed lines
/// are joined), but comes before it: room for the longest end is kept, the text is written
/// after the room, and when the edit is closed the room is filled and closed up over the text
/// (a move within the frame: the text is never anywhere else).
struct JsonEdits<'o, 'd> {
    out: &'o mut Vec<u8>,
    snapshot: &'o DocumentSnapshot<'d>,
    edits: usize,
    /// Where the open edit's end position goes.
    end_at: usize,
}

/// The longest end of a `range` and what follows it up to the text.
const END_ROOM: usize = r#"{"line":4294967295,"character":4294967295}},"newText":""#.len();

impl EditSink for JsonEdits<'_, '_> {
    fn open(&mut self, start: u32) {
        if self.edits > 0 {
            self.out.push(b',');
        }
        self.edits += 1;
        self.out.extend_from_slice(br#"{"range":{"start":"#);
        let _ = serde_json::to_writer(&mut *self.out, &self.snapshot.position(start as usize));
        self.out.extend_from_slice(br#","end":"#);
        self.end_at = self.out.len();
        self.out.resize(self.end_at + END_ROOM, b' ');
    }

    fn text(&mut self, piece: &str) {
        write_escaped(self.out, piece);
    }

    fn close(&mut self, span: Span) {
        let mut end = Vec::with_capacity(END_ROOM);
        let _ = serde_json::to_writer(&mut end, &self.snapshot.position(span.end as usize));
        end.extend_from_slice(br#"},"newText":""#);
        let text_at = self.end_at + END_ROOM;
        if let Some(room) = self.out.get_mut(self.end_at..self.end_at + end.len()) {
            room.copy_from_slice(&end);
            self.out.copy_within(text_at.., self.end_at + end.len());
            self.out.truncate(self.out.len() - (END_ROOM - end.len()));
        }
        self.out.extend_from_slice(br#""}"#);
    }
}

/// The contents of a JSON string for `text` (without its quotes), escaped exactly as
/// `serde_json` escapes it: `"` and `\\`, and the control characters below 0x20 as `\b \t \n
/// \f \r` or `\u00xx`; everything else as it is.
fn write_escaped(out: &mut Vec<u8>, text: &str) {
    let bytes = text.as_bytes();
    let mut plain = 0;
    for (i, &byte) in bytes.iter().enumerate() {
        let escape: &[u8] = match byte {
            b'"' => br#"\""#,
            b'\\' => br"\\",
            b'\n' => br"\n",
            b'\r' => br"\r",
            b'\t' => br"\t",
            0x08 => br"\b",
            0x0c => br"\f",
            0..=0x1f => &[],
            _ => continue,
        };
        out.extend_from_slice(bytes.get(plain..i).unwrap_or_default());
        plain = i + 1;
        if escape.is_empty() {
            const HEX: &[u8; 16] = b"0123456789abcdef";
            let hex = |n: u8| HEX.get(usize::from(n)).copied().unwrap_or(b'0');
            out.extend_from_slice(&[b'\\', b'u', b'0', b'0', hex(byte >> 4), hex(byte & 0xf)]);
        } else {
            out.extend_from_slice(escape);
        }
    }
    out.extend_from_slice(bytes.get(plain..).unwrap_or_default());
}

/// The answers written from what the segments keep ([`stream_kept`]).
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Kept {
    Symbols,
    Folds,
}

/// The outline or folding ranges of a T3D map from what its segments keep, sent to the
/// writer in pieces as they are written ([`Outgoing::Pieces`]): the answer is never held
/// whole (the outline of the 10 MB map of the latency benchmark was held as the analysis'
/// symbols, as the protocol's and as a 2.3 MB frame, 8 MB in all for a moment). It is
/// written twice, first only to count its bytes for the header. The bytes are those of the
/// feature's answer (the oracle tests hold the kept outline to a whole parse's, a stdio test
/// the answers to those of a fresh parse). `None`, having sent nothing, when the outline
/// shows polygons (a small map: its segments keep none).
pub fn stream_kept(
    snapshot: &DocumentSnapshot<'_>,
    outline: &KeptOutline,
    kept: Kept,
    id: &Id,
    out: &UnboundedSender<Outgoing>,
) -> Option<()> {
    let mut count = Count(0);
    write_kept(snapshot, outline, kept, id, &mut count)?;
    // A few pieces ahead of the writer at most.
    let (tx, rx) = std::sync::mpsc::sync_channel(2);
    out.send(Outgoing::Pieces(rx)).ok()?;
    let mut pieces = Pieces { piece: Vec::with_capacity(PIECE), tx };
    let _ = write!(pieces.piece, "Content-Length: {}\r\n\r\n", count.0);
    // Only a writer gone (the server stopping) ends it early.
    let _ = write_kept(snapshot, outline, kept, id, &mut pieces);
    pieces.send();
    Some(())
}

/// How big a piece of a streamed answer is.
const PIECE: usize = 64 * 1024;

/// Counts the bytes written.
struct Count(usize);

impl std::io::Write for Count {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0 += buf.len();
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Sends what is written in pieces of [`PIECE`] bytes.
struct Pieces {
    piece: Vec<u8>,
    tx: std::sync::mpsc::SyncSender<Vec<u8>>,
}

impl Pieces {
    fn send(&mut self) -> bool {
        let piece = std::mem::replace(&mut self.piece, Vec::with_capacity(PIECE));
        piece.is_empty() || self.tx.send(piece).is_ok()
    }
}

impl std::io::Write for Pieces {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.piece.extend_from_slice(buf);
        if self.piece.len() >= PIECE && !self.send() {
            return Err(std::io::ErrorKind::BrokenPipe.into());
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The body of the answer [`stream_kept`] sends.
fn write_kept(
    snapshot: &DocumentSnapshot<'_>,
    outline: &KeptOutline,
    kept: Kept,
    id: &Id,
    out: &mut impl std::io::Write,
) -> Option<()> {
    out.write_all(br#"{"jsonrpc":"2.0","result":["#).ok()?;
    match kept {
        Kept::Symbols => {
            let frame = outline.frame_symbol(symbols::OUTLINE_POLYGONS_UP_TO)?;
            let frame = features::document_symbol::convert(snapshot, frame);
            // The frame's symbol without children ends with `"children":[]}`: the children
            // are written between the brackets.
            let head = serde_json::to_vec(&frame).ok()?;
            let head = head.strip_suffix(b"]}")?;
            if !head.ends_with(b"[") {
                return None;
            }
            out.write_all(head).ok()?;
            for (i, symbol) in outline.symbols().enumerate() {
                if i > 0 {
                    out.write_all(b",").ok()?;
                }
                let symbol = features::document_symbol::convert(snapshot, symbol);
                serde_json::to_writer(&mut *out, &symbol).ok()?;
            }
            out.write_all(b"]}").ok()?;
        }
        Kept::Folds => {
            let ranges =
                outline.folds().filter_map(|r| features::folding_range::convert(snapshot, r));
            for (i, range) in ranges.enumerate() {
                if i > 0 {
                    out.write_all(b",").ok()?;
                }
                serde_json::to_writer(&mut *out, &range).ok()?;
            }
        }
    }
    out.write_all(br#"],"id":"#).ok()?;
    serde_json::to_writer(&mut *out, id).ok()?;
    out.write_all(b"}").ok()
}

/// Room kept before the body for its `Content-Length` header.
const HEADER_ROOM: usize = 40;

/// `{"jsonrpc":"2.0","result":…,"id":…}` with its header, the result written straight from
/// its typed value.
pub fn frame_result<T: Serialize + ?Sized>(id: &Id, result: &T) -> Vec<u8> {
    let mut out = vec![b' '; HEADER_ROOM];
    out.extend_from_slice(br#"{"jsonrpc":"2.0","result":"#);
    if serde_json::to_writer(&mut out, result).is_err() {
        // Only a type that cannot be JSON fails (none of the LSP answers): say so, as the
        // library would.
        let error = tower_lsp_server::jsonrpc::Error::internal_error();
        return frame_response(&Response::from_error(id.clone(), error));
    }
    out.extend_from_slice(br#","id":"#);
    let _ = serde_json::to_writer(&mut out, id);
    out.push(b'}');
    with_header(out)
}

/// A whole response (an error, mostly) with its header.
pub fn frame_response(response: &Response) -> Vec<u8> {
    let mut out = vec![b' '; HEADER_ROOM];
    let _ = serde_json::to_writer(&mut out, response);
    with_header(out)
}

/// Writes the header into the room kept before the body and moves the frame to the front
/// (in place: no second buffer).
fn with_header(mut out: Vec<u8>) -> Vec<u8> {
    let body = out.len().saturating_sub(HEADER_ROOM);
    let mut header = Vec::with_capacity(HEADER_ROOM);
    let _ = write!(header, "Content-Length: {body}\r\n\r\n");
    let start = HEADER_ROOM.saturating_sub(header.len());
    if let Some(room) = out.get_mut(start..HEADER_ROOM) {
        room.copy_from_slice(&header);
    }
    out.drain(..start);
    out
}

/// The `textDocument/publishDiagnostics` notification with its header, written straight from
/// the typed diagnostics.
pub fn diagnostics_frame<'a>(
    uri: &Uri,
    diagnostics: impl Iterator<Item = &'a lsp::Diagnostic>,
    version: Option<i32>,
) -> Vec<u8> {
    let mut out = vec![b' '; HEADER_ROOM];
    out.extend_from_slice(br#"{"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","#);
    out.extend_from_slice(br#""params":{"uri":"#);
    let _ = serde_json::to_writer(&mut out, uri);
    out.extend_from_slice(br#","diagnostics":["#);
    for (i, diagnostic) in diagnostics.enumerate() {
        if i > 0 {
            out.push(b',');
        }
        let _ = serde_json::to_writer(&mut out, diagnostic);
    }
    out.push(b']');
    if let Some(version) = version {
        let _ = write!(out, r#","version":{version}"#);
    }
    out.extend_from_slice(b"}}");
    with_header(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn published_diagnostics_are_the_protocol_notification() {
        let uri: Uri = "file:///m.t3d".parse().unwrap();
        let diagnostic = lsp::Diagnostic::new_simple(lsp::Range::default(), "a \"b\"".to_owned());
        for (diagnostics, version) in [(vec![diagnostic], Some(3)), (Vec::new(), None)] {
            let frame = diagnostics_frame(&uri, diagnostics.iter(), version);
            let (header, body) = split(frame);
            assert_eq!(header, format!("Content-Length: {}", body.len()));
            let params = lsp::PublishDiagnosticsParams::new(uri.clone(), diagnostics, version);
            let expected = serde_json::json!({
                "jsonrpc": "2.0",
                "method": "textDocument/publishDiagnostics",
                "params": params,
            });
            assert_eq!(serde_json::from_str::<serde_json::Value>(&body).unwrap(), expected);
        }
    }

    fn split(frame: Vec<u8>) -> (String, String) {
        let text = String::from_utf8(frame).unwrap();
        let (header, body) = text.split_once("\r\n\r\n").unwrap();
        (header.to_owned(), body.to_owned())
    }

    /// The formatting frame written as the edits are made is, byte for byte, the frame of
    /// the edits collected first, serialized by serde.
    #[test]
    fn formatting_frames_equal_those_of_the_collected_edits() {
        use crate::lsp::documents::{Document, Documents, Session};
        let wide = "Begin Map\r\nBegin Actor Class=Light Name=L\u{e9}\u{1F600}\r\n\r\n  \
            Tag=\"a\\\"b\t\u{1}\"\r\n  Begin Brush Name=Model1\r\nEnd Brush\r\nEnd Actor\r\nEnd Map";
        let messy = unreal_mapgen::generate_map(16 << 10, 12).replace("\r\n   ", "\r\n ");
        let flat: String = messy.split_inclusive('\n').map(|l| l.trim_start_matches(' ')).collect();
        let formatted = "Begin Map\nBegin Actor Class=Light Name=L\nEnd Actor\nEnd Map\n";
        let broken = "Begin Map\r\n Begin Actor Class=Light\r\nEnd Map\r\n";
        let params: DocumentFormattingParams = serde_json::from_value(serde_json::json!({
            "textDocument": { "uri": "file:///m.t3d" },
            "options": { "tabSize": 3, "insertSpaces": true },
        }))
        .unwrap();
        let session = std::sync::Arc::new(Session::default());
        for (i, text) in
            [wide, &messy, &flat, formatted, broken, "", "\r\n\r\n"].into_iter().enumerate()
        {
            let uri: Uri = format!("file:///m{i}.t3d").parse().unwrap();
            let mut documents = Documents::default();
            documents.open(uri.clone(), Document::new(text.to_owned(), 1, "t3d".to_owned()));
            let handle = documents.handle(&uri, &session).unwrap();
            let id = Id::Number(i as i64);
            let (streamed, collected) = handle.read(|snapshot| {
                let collected = features::formatting::full(snapshot, &params).unwrap();
                let collected = frame_result(&id, &collected);
                (format_frame(snapshot, &params, &id), collected)
            });
            let show = |frame: &[u8]| String::from_utf8_lossy(frame).into_owned();
            assert_eq!(show(&streamed), show(&collected), "document {i}");
            let edits = show(&streamed).matches("newText").count();
            let null = show(&streamed).contains(r#""result":null"#);
            match i {
                0 => assert_eq!(edits, 2),
                1 | 2 => assert!(edits > 0, "{edits}"),
                4 => assert!(null),
                _ => assert!(edits <= 1 && !null, "document {i}"),
            }
        }
    }

    #[test]
    fn strings_are_escaped_as_serde_json_escapes_them() {
        let mut every: String = (0..=0x7f_u8).map(char::from).collect();
        every.push_str("\u{e9}\u{7f}\u{80}\u{2028}\u{1F600}\"\\ end");
        for text in [every.as_str(), "", "plain", "\r\n", "a\"", "\u{1}x"] {
            let mut out = b"\"".to_vec();
            write_escaped(&mut out, text);
            out.push(b'"');
            assert_eq!(String::from_utf8(out).unwrap(), serde_json::to_string(text).unwrap());
        }
    }

    #[test]
    fn frames_carry_their_length() {
        let (header, body) = split(frame_result(&Id::Number(7), &[1, 2]));
        assert_eq!(body, r#"{"jsonrpc":"2.0","result":[1,2],"id":7}"#);
        assert_eq!(header, format!("Content-Length: {}", body.len()));
        let (header, body) = split(frame_result(&Id::String("a".to_owned()), &None::<u8>));
        assert_eq!(body, r#"{"jsonrpc":"2.0","result":null,"id":"a"}"#);
        assert_eq!(header, format!("Content-Length: {}", body.len()));
        let long: Vec<String> = (0..1000).map(|i| i.to_string()).collect();
        let (header, body) = split(frame_result(&Id::Number(1), &long));
        assert_eq!(header, format!("Content-Length: {}", body.len()));
    }
}
