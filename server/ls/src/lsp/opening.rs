//! `textDocument/didOpen` read straight from its frame.
//!
//! Opening a map sends its whole text in one message. Through the protocol library that
//! message was held four or five times over: the input layer's buffer, its JSON tree (and two
//! copies of it, to check the message as the library will read it), the framed copy handed
//! to the library, the library's read buffer (which keeps its size for the life of the
//! server) and the library's own JSON tree of it: 49 MB at the peak for a 10 MB map, 46 MB
//! after. Now [`super::dispatch::Incoming::read`] gives every well-formed message to
//! [`read`] first: a `didOpen` is read there with no JSON tree, and [`Opened::params`]
//! unescapes the text within the message's own buffer, which becomes the document's
//! `String`: no copy at all. The dispatcher opens the document the moment the message is
//! read, in the order the messages came, with the function every `didOpen` goes to
//! (`Backend::did_open`); what this reading does not take (an unknown or repeated member, a
//! text that is not a string) is read by serde like any other notification and opens through
//! the same function. Why it exists: docs/performance.md, "`didOpen` without a JSON tree".

use std::borrow::Cow;
use std::ops::Range;

use serde::Deserialize;
use serde_json::value::RawValue;
use tower_lsp_server::ls_types::{DidOpenTextDocumentParams, TextDocumentItem, Uri};

/// A `didOpen` notification as the library reads it, with its text left in the body.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Envelope<'a> {
    #[serde(borrow)]
    jsonrpc: Cow<'a, str>,
    #[serde(borrow)]
    method: Cow<'a, str>,
    #[serde(borrow)]
    params: Params<'a>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Params<'a> {
    #[serde(borrow)]
    text_document: Item<'a>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Item<'a> {
    uri: Uri,
    language_id: String,
    version: i32,
    #[serde(borrow)]
    text: &'a RawValue,
}

/// A `didOpen` found in a message body: its parameters but the text, and where the text's
/// JSON string (quotes included) is in the body.
pub struct Opened {
    uri: Uri,
    language_id: String,
    version: i32,
    text: Range<usize>,
}

/// Reads `body` as a `didOpen` notification the library would accept (`"jsonrpc":"2.0"`, no
/// id, the parameters it reads), without a JSON tree and without decoding the text. `None`
/// for anything else, or anything unusual (an unknown member, a member twice): the ordinary
/// checks and the library take those.
pub fn read(body: &[u8]) -> Option<Opened> {
    let envelope: Envelope<'_> = serde_json::from_slice(body).ok()?;
    if envelope.jsonrpc != "2.0" || envelope.method != "textDocument/didOpen" {
        return None;
    }
    let item = envelope.params.text_document;
    let raw = item.text.get().as_bytes();
    if raw.first() != Some(&b'"') {
        return None;
    }
    // The raw text is a slice of `body`: its place there, by address.
    let start = (raw.as_ptr() as usize).checked_sub(body.as_ptr() as usize)?;
    let end = start.checked_add(raw.len()).filter(|&end| end <= body.len())?;
    Some(Opened {
        uri: item.uri,
        language_id: item.language_id,
        version: item.version,
        text: start..end,
    })
}

impl Opened {
    /// The parameters, the text decoded within `body` (the body [`read`] found this in),
    /// which becomes the text's `String`.
    pub fn params(self, body: Vec<u8>) -> DidOpenTextDocumentParams {
        let text = unescape_in_place(body, self.text);
        DidOpenTextDocumentParams {
            text_document: TextDocumentItem {
                uri: self.uri,
                language_id: self.language_id,
                version: self.version,
                text,
            },
        }
    }
}

/// The JSON string at `string` (quotes included; a valid JSON string, as [`read`] checked)
/// decoded into the front of `buf`, which becomes the `String`. An escape is never shorter
/// than what it stands for, so the decoded text never overtakes what is still to read. A lone
/// UTF-16 surrogate (`\ud800` alone, which JavaScript strings can hold) becomes U+FFFD, as
/// one UTF-16 unit stays one.
fn unescape_in_place(mut buf: Vec<u8>, string: Range<usize>) -> String {
    let end = string.end.saturating_sub(1).min(buf.len());
    let mut read = string.start + 1;
    let mut write = 0;
    while read < end {
        let run = buf.get(read..end).and_then(|rest| memchr::memchr(b'\\', rest));
        let plain = run.unwrap_or(end - read);
        buf.copy_within(read..read + plain, write);
        write += plain;
        read += plain;
        if read >= end {
            break;
        }
        // An escape at `read`.
        let hex = |at: usize| {
            let digits = buf.get(at..at + 4).and_then(|d| std::str::from_utf8(d).ok())?;
            u16::from_str_radix(digits, 16).ok()
        };
        let (ch, len) = match buf.get(read + 1) {
            Some(b'"') => ('"', 2),
            Some(b'\\') => ('\\', 2),
            Some(b'/') => ('/', 2),
            Some(b'b') => ('\u{8}', 2),
            Some(b'f') => ('\u{c}', 2),
            Some(b'n') => ('\n', 2),
            Some(b'r') => ('\r', 2),
            Some(b't') => ('\t', 2),
            Some(b'u') => match hex(read + 2) {
                Some(high @ 0xD800..=0xDBFF) => {
                    let low = (buf.get(read + 6..read + 8) == Some(b"\\u"))
                        .then(|| hex(read + 8))
                        .flatten()
                        .filter(|low| (0xDC00..=0xDFFF).contains(low));
                    match low {
                        Some(low) => {
                            let code = 0x10000
                                + ((u32::from(high) - 0xD800) << 10)
                                + (u32::from(low) - 0xDC00);
                            (char::from_u32(code).unwrap_or('\u{FFFD}'), 12)
                        }
                        None => ('\u{FFFD}', 6),
                    }
                }
                Some(unit) => (char::from_u32(u32::from(unit)).unwrap_or('\u{FFFD}'), 6),
                None => ('\u{FFFD}', 2),
            },
            _ => ('\u{FFFD}', 2),
        };
        let mut utf8 = [0; 4];
        let encoded = ch.encode_utf8(&mut utf8).as_bytes();
        if let Some(slot) = buf.get_mut(write..write + encoded.len()) {
            slot.copy_from_slice(encoded);
        }
        write += encoded.len();
        read += len;
    }
    buf.truncate(write);
    if buf.capacity() - buf.len() > 4096 {
        buf.shrink_to_fit();
    }
    String::from_utf8(buf)
        .unwrap_or_else(|err| String::from_utf8_lossy(err.as_bytes()).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn open(text: &str) -> Vec<u8> {
        let message = json!({
            "jsonrpc": "2.0",
            "method": "textDocument/didOpen",
            "params": { "textDocument": {
                "uri": "file:///m.t3d", "languageId": "t3d", "version": 3, "text": text } },
        });
        message.to_string().into_bytes()
    }

    /// The parameters read from the frame equal the library's reading of it.
    #[test]
    fn taken_parameters_equal_the_library_reading() {
        let every: String = (0..=0x7f_u8).map(char::from).collect();
        let texts = [
            String::new(),
            "Begin Map\r\nEnd Map\r\n".to_owned(),
            format!("{every}\u{e9}\u{2028}\u{1F600}\\\"\\u0041 end"),
            "\"\\".repeat(1000),
        ];
        for text in &texts {
            let body = open(text);
            let expected: serde_json::Value = serde_json::from_slice(&body).unwrap();
            let expected: DidOpenTextDocumentParams =
                serde_json::from_value(expected["params"].clone()).unwrap();
            let params = read(&body).unwrap().params(body);
            assert_eq!(params, expected);
        }
        // Written by hand: escapes serde_json does not make (`\/`, `\u` for plain letters,
        // surrogate pairs, upper-case hex) and a lone surrogate.
        let body = br#"{"params":{"textDocument":{"text":"a\/b\u0041\uD83D\uDE00\u00e9\ud800x\uDC00","version":1,"uri":"file:///a.t3d","languageId":"t3d"}},"method":"textDocument/didOpen","jsonrpc":"2.0"}"#;
        let params = read(body).unwrap().params(body.to_vec());
        assert_eq!(params.text_document.text, "a/bA\u{1F600}\u{e9}\u{FFFD}x\u{FFFD}");
        assert_eq!(params.text_document.version, 1);
    }

    #[test]
    fn only_plain_did_open_notifications_are_taken() {
        let not_taken = [
            // A request (an id), another method, another version, a text that is not a
            // string, an unknown member, a member twice, bad JSON.
            br#"{"jsonrpc":"2.0","id":1,"method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///a","languageId":"t3d","version":1,"text":""}}}"#.to_vec(),
            br#"{"jsonrpc":"2.0","method":"textDocument/didClose","params":{"textDocument":{"uri":"file:///a","languageId":"t3d","version":1,"text":""}}}"#.to_vec(),
            br#"{"jsonrpc":"1.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///a","languageId":"t3d","version":1,"text":""}}}"#.to_vec(),
            br#"{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///a","languageId":"t3d","version":1,"text":5}}}"#.to_vec(),
            br#"{"jsonrpc":"2.0","x":1,"method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///a","languageId":"t3d","version":1,"text":""}}}"#.to_vec(),
            br#"{"jsonrpc":"2.0","method":"textDocument/didOpen","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///a","languageId":"t3d","version":1,"text":""}}}"#.to_vec(),
            br#"{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///a","languageId":"t3d","version":1,"text":"x}}}"#.to_vec(),
        ];
        for body in not_taken {
            assert!(read(&body).is_none(), "{}", String::from_utf8_lossy(&body));
        }
        let body = open("Begin Map");
        let params = read(&body).unwrap().params(body);
        assert_eq!(params.text_document.text, "Begin Map");
    }
}
