//! The built binary as an editor runs it: `unreal-ls lsp --stdio`, JSON-RPC framed with
//! `Content-Length` headers over real pipes. Initialize, open a defective T3D, read the
//! published diagnostics (exactly what analysis finds in that text, converted to UTF-16
//! positions), shut down, exit with code 0.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod lsp_client;

use lsp_client::stdio::StdioServer;
use lsp_client::HANG_GUARD;

use std::path::{Path, PathBuf};

use serde_json::{json, Value};
use unreal_analysis::line_index::{ColumnUnit, LineIndex};
use unreal_analysis::lint::{lint_text, FileKind, LintOptions};

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

fn start() -> StdioServer {
    StdioServer::start(env!("CARGO_BIN_EXE_unreal-ls"), false, HANG_GUARD)
}

fn initialize(server: &mut StdioServer) -> Value {
    let params = json!({
        "processId": null,
        "rootUri": "file:///work/maps",
        "capabilities": { "textDocument": { "publishDiagnostics": { "relatedInformation": true } } },
    });
    let response = server.request("initialize", &params);
    server.notify("initialized", &json!({}));
    response
}

#[test]
fn initialize_open_diagnostics_shutdown_exit() {
    let mut server = start();
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
    // The same findings; the server lists a segment's local findings before the map-wide
    // ones, so the order is not compared.
    let sorted = |mut list: Vec<Value>| {
        list.sort_by_key(Value::to_string);
        list
    };
    assert_eq!(sorted(actual), sorted(expected));

    let response = server.request("shutdown", &Value::Null);
    assert_eq!(response["result"], Value::Null);
    assert!(response.get("error").is_none(), "{response}");
    server.notify("exit", &Value::Null);
    assert_eq!(server.wait_exit(), Some(0));
}

#[test]
fn exit_without_shutdown_is_exit_code_1() {
    let mut server = start();
    initialize(&mut server);
    server.notify("exit", &Value::Null);
    assert_eq!(server.wait_exit(), Some(1));
}

/// A client that closes its output while the server's `workspace/configuration` request is
/// unanswered: the server ran forever. The end of input ends it, with code 1 (no `shutdown`).
#[test]
fn the_end_of_input_ends_the_server_with_a_request_to_the_client_unanswered() {
    let mut server = StdioServer::start(
        env!("CARGO_BIN_EXE_unreal-ls"),
        false,
        std::time::Duration::from_secs(30),
    );
    let params = json!({
        "processId": null,
        "rootUri": "file:///work/maps",
        "capabilities": { "workspace": { "configuration": true, "didChangeConfiguration": { "dynamicRegistration": true } } },
    });
    server.request("initialize", &params);
    server.notify("initialized", &json!({}));
    server.wait_for_unanswered(|m| m["method"] == "workspace/configuration");
    let started = std::time::Instant::now();
    assert_eq!(server.wait_exit(), Some(1));
    // Not the ten-second backstop: the request to the client gave up at once.
    assert!(started.elapsed() < std::time::Duration::from_secs(8), "{:?}", started.elapsed());
}

/// A header announcing a body that cannot arrive (1 TiB, 2^64-1): the server answered
/// "message too large", then swallowed every later message as that body and never answered
/// again while looking alive. Now it answers, says why on stderr and ends (code 1), so that
/// the editor sees it stop and can start it again.
#[test]
fn a_body_that_cannot_arrive_ends_the_server() {
    for len in ["1099511627776", "18446744073709551615"] {
        let mut server = StdioServer::start(
            env!("CARGO_BIN_EXE_unreal-ls"),
            false,
            std::time::Duration::from_secs(30),
        );
        initialize(&mut server);
        let mut bytes = format!("Content-Length: {len}\r\n\r\n{{}}").into_bytes();
        bytes.extend(frame(br#"{"jsonrpc":"2.0","id":99,"method":"shutdown"}"#));
        server.send_raw(&bytes);
        let answer = server.wait_for(|m| m.get("error").is_some());
        assert_eq!(answer["error"]["message"], "message too large", "{answer}");
        assert_eq!(server.wait_exit_with_input_open(), Some(1), "{len}");
    }
}

/// A T3D line whose `Flags=` a hover decodes: the answer every check below compares.
const HOVER_T3D: &str = "Begin Map\r\nBegin Actor Class=Brush Name=Brush0\r\n   Begin Brush Name=Brush\r\n      Begin PolyList\r\n         Begin Polygon Flags=264\r\n            Vertex   +00000.000000,+00000.000000,+00000.000000\r\n            Vertex   +00128.000000,+00000.000000,+00000.000000\r\n            Vertex   +00128.000000,+00128.000000,+00000.000000\r\n         End Polygon\r\n      End PolyList\r\n   End Brush\r\nEnd Actor\r\nEnd Map\r\n";

fn hover(server: &mut StdioServer) -> Value {
    let params = json!({
        "textDocument": { "uri": URI },
        "position": { "line": 4, "character": 26 },
    });
    server.request("textDocument/hover", &params)["result"].clone()
}

fn frame(body: &[u8]) -> Vec<u8> {
    let mut out = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
    out.extend_from_slice(body);
    out
}

/// Each malformed message gets its error answer (with its id where it has a readable one),
/// and the server goes on serving: a hover afterwards answers as before, and shutdown and
/// exit still end it with code 0.
#[test]
fn malformed_messages_are_answered_and_the_server_goes_on() {
    let mut server = start();
    initialize(&mut server);
    server.notify(
        "textDocument/didOpen",
        &json!({ "textDocument": { "uri": URI, "languageId": "t3d", "version": 1, "text": HOVER_T3D } }),
    );
    let before = hover(&mut server);
    assert!(before["contents"]["value"].as_str().unwrap_or("").contains("TwoSided"), "{before}");

    let cases: [(&[u8], i64, Value); 7] = [
        (br#"{"jsonrpc":"2.0","id":101,"method":"#, -32700, Value::Null),
        (br#"{"jsonrpc":"2.0","id":1.5,"method":"textDocument/hover"}"#, -32600, Value::Null),
        (br#"{"jsonrpc":"2.0","id":{"x":1},"method":"x"}"#, -32600, Value::Null),
        (br#"{"jsonrpc":"1.0","id":102,"method":"textDocument/hover"}"#, -32600, json!(102)),
        (br#"[{"jsonrpc":"2.0","id":103,"method":"shutdown"}]"#, -32600, Value::Null),
        (br#"{"jsonrpc":"2.0","id":104,"method":12}"#, -32600, json!(104)),
        (b"{\"jsonrpc\":\"2.0\",\"id\":105,\"method\":\"\xc3\x28\"}", -32700, Value::Null),
    ];
    for (body, code, id) in cases {
        server.send_raw(&frame(body));
        let answer = server.wait_for(|m| m.get("error").is_some());
        assert_eq!(
            (answer["error"]["code"].as_i64(), &answer["id"]),
            (Some(code), &id),
            "{answer}"
        );
    }
    // A `$/` request that carries an id is a request like any other: MethodNotFound.
    server.send(&json!({ "jsonrpc": "2.0", "id": 106, "method": "$/unknownThing" }));
    let answer = server.wait_for(|m| m["id"] == 106);
    assert_eq!(answer["error"]["code"], -32601, "{answer}");
    // Garbage between frames and a broken header are skipped.
    server.send_raw(b"\r\nthis is not a header\r\n\r\nContent-Length: nope\r\n\r\n");
    assert_eq!(hover(&mut server), before);

    let response = server.request("shutdown", &Value::Null);
    assert!(response.get("error").is_none(), "{response}");
    server.notify("exit", &Value::Null);
    assert_eq!(server.wait_exit(), Some(0));
}

/// A `didChange` whose range has a negative line cannot be read by the protocol library,
/// which drops it without a word: the server's log (stderr) says so, names the value, and the
/// document stays as it was.
#[test]
fn a_negative_position_in_did_change_is_logged() {
    let log = std::env::temp_dir().join(format!("unreal-ls-stdio-log-{}", std::process::id()));
    let mut server = StdioServer::start_with_stderr(
        env!("CARGO_BIN_EXE_unreal-ls"),
        std::fs::File::create(&log).unwrap().into(),
        HANG_GUARD,
    );
    initialize(&mut server);
    server.notify(
        "textDocument/didOpen",
        &json!({ "textDocument": { "uri": URI, "languageId": "t3d", "version": 1, "text": HOVER_T3D } }),
    );
    let before = hover(&mut server);
    server.notify(
        "textDocument/didChange",
        &json!({ "textDocument": { "uri": URI, "version": 2 }, "contentChanges": [{
            "range": { "start": { "line": -3, "character": 0 }, "end": { "line": 0, "character": 0 } },
            "text": "Garbage\r\n" }] }),
    );
    // Frames are read in order: once this hover is answered, the edit has been through.
    assert_eq!(hover(&mut server), before);
    let response = server.request("shutdown", &Value::Null);
    assert!(response.get("error").is_none(), "{response}");
    server.notify("exit", &Value::Null);
    assert_eq!(server.wait_exit(), Some(0));
    let logged = std::fs::read_to_string(&log).unwrap();
    let _ = std::fs::remove_file(&log);
    assert!(
        logged.contains("the notification `textDocument/didChange` will be dropped")
            && logged.contains("`-3`"),
        "{logged}"
    );
}

/// 10,000 fuzzed frames (cut, corrupted, duplicated, random bytes, random JSON-RPC shapes),
/// with a hover every 500: every hover answers as the first one did.
#[test]
fn survives_ten_thousand_fuzzed_frames() {
    let mut rng = lsp_client::Rng::new(0x5EED_F4A3);
    let mut server = StdioServer::start(env!("CARGO_BIN_EXE_unreal-ls"), true, HANG_GUARD);
    initialize(&mut server);
    server.notify(
        "textDocument/didOpen",
        &json!({ "textDocument": { "uri": URI, "languageId": "t3d", "version": 1, "text": HOVER_T3D } }),
    );
    let before = hover(&mut server);
    let shapes: [&[u8]; 8] = [
        br#"{"jsonrpc":"2.0","id":900007,"method":"textDocument/hover","params":{"textDocument":{"uri":"file:///work/maps/Broken.t3d"},"position":{"line":-1,"character":99999}}}"#,
        br#"{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"file:///nowhere.t3d","version":2},"contentChanges":[{"range":{"start":{"line":-5,"character":0},"end":{"line":0,"character":0}},"text":"x"}]}}"#,
        br#"{"jsonrpc":"2.0","id":"a","method":"textDocument/definition","params":null}"#,
        br#"{"jsonrpc":"2.0","id":900008,"result":{"weird":[1,2,3]}}"#,
        br#"{"jsonrpc":"2.0","id":900009,"method":"workspace/symbol","params":{"query":"Brush"}}"#,
        br#"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":900009}}"#,
        br#"{"id":900010,"method":"initialize"}"#,
        br#"{"jsonrpc":"2.0","id":900011,"method":"textDocument/formatting","params":{"textDocument":{"uri":"file:///missing.t3d"},"options":{"tabSize":-3,"insertSpaces":true}}}"#,
    ];
    let mut batch = Vec::new();
    for i in 0..10_000u32 {
        let mut body = rng.pick(&shapes).to_vec();
        match rng.below(6) {
            0 => body.truncate(rng.below(body.len() + 1)),
            1 => {
                for _ in 0..=rng.below(4) {
                    let at = rng.below(body.len().max(1));
                    if let Some(b) = body.get_mut(at) {
                        *b = rng.below(256) as u8;
                    }
                }
            }
            2 => body = (0..rng.below(64)).map(|_| rng.below(256) as u8).collect(),
            _ => {}
        }
        match rng.below(10) {
            0 => batch.extend_from_slice(&body),
            1 => batch.extend(format!("Content-Length: {}\r\n\r\n", body.len() + 3).into_bytes()),
            _ => batch.extend(frame(&body)),
        }
        if i % 500 == 499 {
            // A cut header or body may swallow what follows: close it with a blank frame run.
            batch.extend_from_slice(&[b' '; 80]);
            batch.extend(frame(b"{}"));
            server.send_raw(&std::mem::take(&mut batch));
            assert_eq!(hover(&mut server), before, "after {} frames", i + 1);
        }
    }
    let response = server.request("shutdown", &Value::Null);
    assert!(response.get("error").is_none(), "{response}");
    server.notify("exit", &Value::Null);
    assert_eq!(server.wait_exit(), Some(0));
}

/// The outline, the folding ranges and the formatting are written straight into their
/// frames over stdio (`lsp/direct.rs`), without a JSON tree: their answers equal serde's JSON
/// of what the features give on a fresh parse of the same text, for two generated maps (lines
/// out of UnrealEd's layout for formatting to fix), for a document that is not open, and
/// before `initialize` (the library's error). A map with more polygons than the outline shows
/// has its outline and folds written in pieces from what its segments keep.
#[test]
fn whole_document_answers_over_stdio_equal_those_of_a_fresh_parse() {
    let map = unreal_mapgen::generate_map(128 << 10, 11);
    let messy = unreal_mapgen::generate_map(16 << 10, 12).replacen("\r\n   ", "\r\n ", 40);
    // Formatting edits are written into the frame as they are made: positions in UTF-16
    // after non-ASCII text, escaped characters, a last line with no line break, and a
    // document with a syntax error (no edits: `null`).
    let wide = "Begin Map\r\nBegin Actor Class=Light Name=L\u{e9}\u{1F600}\r\n\r\n  Tag=\"a\\\"b\t\u{1}\"\r\n  \
        Begin Brush Name=Model1\r\nEnd Brush\r\nEnd Actor\r\nEnd Map"
        .to_owned();
    let broken = "Begin Map\r\n Begin Actor Class=Light\r\nEnd Map\r\n".to_owned();
    let documents = [
        ("file:///work/maps/Map.t3d", map),
        ("file:///work/maps/Messy.t3d", messy),
        ("file:///work/maps/Wide.t3d", wide),
        ("file:///work/maps/Broken.t3d", broken),
    ];
    let methods =
        ["textDocument/documentSymbol", "textDocument/foldingRange", "textDocument/formatting"];
    let params = |uri: &str| json!({ "textDocument": { "uri": uri }, "options": { "tabSize": 3, "insertSpaces": true } });

    let mut server = start();
    let early = server.request(methods[0], &params(documents[0].0));
    assert!(early.get("error").is_some(), "{early}");
    initialize(&mut server);
    for (uri, text) in &documents {
        let open = json!({ "textDocument": {
            "uri": uri, "languageId": "t3d", "version": 1, "text": text } });
        server.notify("textDocument/didOpen", &open);
        server.wait_for(|m| {
            m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == *uri
        });
    }
    let mut over_stdio = Vec::new();
    for (uri, _) in &documents {
        for method in methods {
            over_stdio.push(server.request(method, &params(uri))["result"].clone());
        }
    }
    // More polygons than the outline shows (`OUTLINE_POLYGONS_UP_TO`), after an edit.
    let big_uri = "file:///work/maps/Big.t3d";
    let big = unreal_mapgen::generate_map(4_500_000, 13);
    let open = json!({ "textDocument": {
        "uri": big_uri, "languageId": "t3d", "version": 1, "text": big } });
    server.notify("textDocument/didOpen", &open);
    let change = json!({
        "textDocument": { "uri": big_uri, "version": 2 },
        "contentChanges": [{ "range": { "start": { "line": 7, "character": 0 },
            "end": { "line": 7, "character": 0 } }, "text": "\u{e9}" }],
    });
    server.notify("textDocument/didChange", &change);
    server.wait_for(|m| {
        m["method"] == "textDocument/publishDiagnostics" && m["params"]["version"] == 2
    });
    let mut big_over_stdio = Vec::new();
    for method in &methods[..2] {
        big_over_stdio.push(server.request(method, &params(big_uri))["result"].clone());
    }
    let missing = server.request(methods[0], &params("file:///work/maps/Missing.t3d"));
    assert_eq!(missing["result"], Value::Null, "{missing}");
    server.request("shutdown", &Value::Null);
    server.notify("exit", &Value::Null);
    assert_eq!(server.wait_exit(), Some(0));

    let fresh: Vec<Value> = documents
        .iter()
        .flat_map(|(uri, text)| methods.map(|method| fresh_answer(uri, text, method)))
        .collect();
    let line_7 = big.match_indices('\n').nth(6).map_or(0, |(i, _)| i + 1);
    let mut edited = big.clone();
    edited.insert(line_7, '\u{e9}');
    let big_fresh: Vec<Value> =
        methods[..2].iter().map(|method| fresh_answer(big_uri, &edited, method)).collect();
    assert!(big_over_stdio == big_fresh, "the big map's outline or folds differ");
    let polygons_shown = big_over_stdio[0].to_string().matches("\"kind\":8").count();
    assert_eq!(polygons_shown, 0, "the big map's outline shows its polygons");
    assert_eq!(over_stdio.len(), fresh.len());
    for (i, (stdio, expected)) in over_stdio.iter().zip(&fresh).enumerate() {
        assert!(stdio == expected, "answer {i} differs over stdio");
    }
    assert!(over_stdio[0].as_array().is_some_and(|outline| outline.len() == 1));
    assert!(over_stdio[1].as_array().is_some_and(|folds| folds.len() > 100));
    assert!(over_stdio[2].as_array().is_some_and(|edits| !edits.is_empty()));
    assert!(over_stdio[5].as_array().is_some_and(|edits| !edits.is_empty()));
    assert!(over_stdio[8].as_array().is_some_and(|edits| edits.len() == 2), "{}", over_stdio[8]);
    assert_eq!(over_stdio[11], Value::Null);
}

/// What the feature behind `method` answers on a document of `text` opened afresh (never
/// analysed, so nothing kept: a whole parse), as serde writes it.
fn fresh_answer(uri: &str, text: &str, method: &str) -> Value {
    use unreal_ls::lsp::documents::{Document, Documents, Session};
    use unreal_ls::lsp::features;
    let uri: tower_lsp_server::ls_types::Uri = uri.parse().unwrap();
    let mut documents = Documents::default();
    documents.open(uri.clone(), Document::new(text.to_owned(), 1, "t3d".to_owned()));
    let handle = documents.handle(&uri, &std::sync::Arc::new(Session::default())).unwrap();
    let params = json!({ "textDocument": { "uri": uri.as_str() },
        "options": { "tabSize": 3, "insertSpaces": true } });
    let answer = handle.read_copy(|snapshot| match method {
        "textDocument/documentSymbol" => {
            let params = serde_json::from_value(params).unwrap();
            serde_json::to_value(features::document_symbol::handle(snapshot, &params).unwrap())
        }
        "textDocument/foldingRange" => {
            let params = serde_json::from_value(params).unwrap();
            serde_json::to_value(features::folding_range::handle(snapshot, &params).unwrap())
        }
        _ => {
            let params = serde_json::from_value(params).unwrap();
            serde_json::to_value(features::formatting::full(snapshot, &params).unwrap())
        }
    });
    answer.unwrap()
}

/// Over stdio a `didOpen` is read straight from its frame (`lsp/opening.rs`) and applied the
/// moment it is read (`lsp/dispatch.rs`): the document opens in the order the messages came
/// (open, close, open, change sent at once); a `didOpen` before `initialize` is dropped, as
/// the library drops it; a notification under the name the library used to get in its place
/// opens nothing; a `didOpen` the quick reading does not take (a member twice) is read by
/// serde and opens all the same.
#[test]
fn did_open_is_taken_from_its_frame_in_order() {
    let symbols = |server: &mut StdioServer, uri: &str| {
        let params = json!({ "textDocument": { "uri": uri } });
        server.request("textDocument/documentSymbol", &params)["result"].clone()
    };
    let open = |uri: &str, text: &str| {
        json!({ "jsonrpc": "2.0", "method": "textDocument/didOpen", "params": { "textDocument": {
            "uri": uri, "languageId": "t3d", "version": 1, "text": text } } })
    };
    let map =
        "Begin Map\r\nBegin Actor Class=Light Name=L\u{e9}\u{1F600}\r\nEnd Actor\r\nEnd Map\r\n";
    let mut server = start();
    server.send(&open("file:///work/maps/Early.t3d", map));
    initialize(&mut server);
    assert_eq!(symbols(&mut server, "file:///work/maps/Early.t3d"), Value::Null);

    let marker =
        json!({ "jsonrpc": "2.0", "method": "unrealLs/$taken/didOpen", "params": { "n": 1 } });
    server.send(&marker);
    // Opened, then closed and opened again with other text, then changed, all sent at once.
    let uri = "file:///work/maps/A.t3d";
    server.send(&open(uri, "Begin Map\r\nEnd Map\r\n"));
    server.notify("textDocument/didClose", &json!({ "textDocument": { "uri": uri } }));
    server.send(&open(uri, map));
    let change = json!({ "textDocument": { "uri": uri, "version": 2 }, "contentChanges": [{
        "range": { "start": { "line": 1, "character": 33 }, "end": { "line": 1, "character": 33 } },
        "text": "x" }] });
    server.notify("textDocument/didChange", &change);
    server.diagnostics_for(2);
    let outline = symbols(&mut server, uri);
    assert_eq!(outline[0]["children"][0]["name"], "L\u{e9}\u{1F600}x", "{outline}");

    // A member twice: serde reads it (the last one wins), not the quick reading.
    let twice = format!(
        r#"{{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{{"textDocument":{{"uri":"file:///work/maps/B.t3d","languageId":"t3d","version":1,"text":"x","text":{}}}}}}}"#,
        serde_json::to_string(map).unwrap()
    );
    server.send_raw(&frame(twice.as_bytes()));
    let outline = symbols(&mut server, "file:///work/maps/B.t3d");
    assert_eq!(outline[0]["children"][0]["name"], "L\u{e9}\u{1F600}", "{outline}");
    server.request("shutdown", &Value::Null);
    server.notify("exit", &Value::Null);
    assert_eq!(server.wait_exit(), Some(0));
}

/// Opening a map, an editor asks at once for its outline, folds, semantic tokens, inlay
/// hints and code actions: the diagnostics are published before any of those answers (they
/// wait for them), and the outline lists the map's actors, nothing inside them.
#[test]
fn diagnostics_go_out_before_the_answers_an_editor_asks_for_on_opening() {
    let map = unreal_mapgen::generate_map(2 << 20, 11);
    let actors = map.lines().filter(|l| l.trim_start().starts_with("Begin Actor")).count();
    let mut server = start();
    initialize(&mut server);
    let uri = "file:///work/maps/DM-Big.t3d";
    server.notify(
        "textDocument/didOpen",
        &json!({ "textDocument": { "uri": uri, "languageId": "t3d", "version": 1, "text": map } }),
    );
    let document = json!({ "textDocument": { "uri": uri } });
    let top =
        json!({ "start": { "line": 0, "character": 0 }, "end": { "line": 60, "character": 0 } });
    let requests = [
        ("textDocument/documentSymbol", document.clone()),
        ("textDocument/foldingRange", document.clone()),
        ("textDocument/semanticTokens/full", document.clone()),
        ("textDocument/inlayHint", json!({ "textDocument": { "uri": uri }, "range": top })),
        (
            "textDocument/codeAction",
            json!({ "textDocument": { "uri": uri }, "range": top, "context": { "diagnostics": [] } }),
        ),
    ];
    for (id, (method, params)) in requests.iter().enumerate() {
        server
            .send(&json!({ "jsonrpc": "2.0", "id": 100 + id, "method": method, "params": params }));
    }
    let mut order = Vec::new();
    let mut outline = Value::Null;
    while order.len() < requests.len() + 1 {
        let message = server.wait_for(|m| {
            m["method"] == "textDocument/publishDiagnostics" || m["id"].as_u64().is_some()
        });
        if message["method"] == "textDocument/publishDiagnostics" {
            order.push("diagnostics".to_owned());
        } else {
            let id = usize::try_from(message["id"].as_u64().unwrap()).unwrap();
            order.push(requests[id - 100].0.to_owned());
            if id == 100 {
                outline = message["result"].clone();
            }
        }
    }
    assert_eq!(order[0], "diagnostics", "{order:?}");
    let listed = outline[0]["children"].as_array().unwrap();
    assert_eq!(listed.len(), actors);
    assert!(listed.iter().all(|a| a["children"].as_array().is_some_and(Vec::is_empty)));
    server.request("shutdown", &Value::Null);
    server.notify("exit", &Value::Null);
    assert_eq!(server.wait_exit(), Some(0));
}

/// A tree with a configuration per folder: `Maps/B`'s `unreal-ls.toml` turns a rule off and
/// excludes a file, the root's raises it, an override of the root's lowers it again for
/// `Maps/A/Imported`, `Maps/C`'s names a UE2 game; two game installations whose packages
/// differ; a mod's class whose `#exec` names a file that is not there. Returns the folder
/// (canonical) and each file with its text.
fn configured_tree(name: &str) -> (PathBuf, Vec<(&'static str, String)>) {
    let dir = std::env::temp_dir().join(format!("unreal-ls-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("Maps/A")).unwrap();
    std::fs::create_dir_all(dir.join("Maps/B")).unwrap();
    let dir = std::fs::canonicalize(&dir).unwrap();
    // A polygon of two vertices (a warning) whose normal points away (a hint).
    let defective = "Begin Map\r\nBegin Actor Class=Brush Name=Brush1\r\n   CsgOper=CSG_Add\r\n   Begin Brush Name=Model1\r\n      Begin PolyList\r\n         Begin Polygon\r\n            Normal   +00000.000000,+00000.000000,+00001.000000\r\n            Vertex   +00000.000000,+00000.000000,+00000.000000\r\n            Vertex   +00128.000000,+00000.000000,+00000.000000\r\n         End Polygon\r\n      End PolyList\r\n   End Brush\r\nEnd Actor\r\nEnd Map\r\n";
    std::fs::create_dir_all(dir.join("Maps/A/Imported")).unwrap();
    std::fs::create_dir_all(dir.join("Maps/C")).unwrap();
    std::fs::create_dir_all(dir.join("Mod/Classes")).unwrap();
    // A polygon with bit 0x200, which UE1 defines and stock UE2 leaves unused: a warning only
    // where the file's own configuration says the game is UT2004.
    let ue2_flag = defective.replace(
        "         Begin Polygon\r\n",
        "         Begin Polygon Flags=512\r\n            Vertex   +00000.000000,+00128.000000,+00000.000000\r\n",
    );
    // Two game installations, each with its own `Rocks.utx`, and a map in each that names
    // `Rocks.Marble`: only the second's package lacks it. No setting or configuration names
    // a game folder: each map's is the installation it stands in, for lint and the editor.
    let textured = |texture: &str| {
        defective.replace("         Begin Polygon\r\n", &format!("         Begin Polygon Texture={texture}\r\n            Vertex   +00000.000000,+00128.000000,+00000.000000\r\n"))
    };
    let marble = textured("Rocks.Marble");
    for (game, textures) in
        [("Games/UT", &["Granite", "Marble"][..]), ("Games/Other", &["Granite"][..])]
    {
        std::fs::create_dir_all(dir.join(game).join("System")).unwrap();
        std::fs::create_dir_all(dir.join(game).join("Textures")).unwrap();
        std::fs::create_dir_all(dir.join(game).join("Maps")).unwrap();
        std::fs::write(dir.join(game).join("Textures/Rocks.utx"), texture_package(textures))
            .unwrap();
        // What makes the folder an installation: the engine's own package.
        std::fs::write(dir.join(game).join("System/Core.u"), texture_package(&[])).unwrap();
    }
    let class = "class ModThing extends Actor;\r\n#exec TEXTURE IMPORT NAME=Skin FILE=Textures\\Skin.pcx\r\n";
    let files = vec![
        ("Maps/A/Defects.t3d", defective.to_owned()),
        ("Maps/A/Imported/Defects.t3d", defective.to_owned()),
        ("Maps/B/Defects.t3d", defective.to_owned()),
        ("Maps/B/Excluded.t3d", defective.to_owned()),
        ("Maps/C/Flags.t3d", ue2_flag),
        ("Games/UT/Maps/Marble.t3d", marble.clone()),
        ("Games/Other/Maps/Marble.t3d", marble),
        ("Mod/Classes/ModThing.uc", class.to_owned()),
    ];
    for (file, text) in &files {
        std::fs::write(dir.join(file), text).unwrap();
    }
    std::fs::write(dir.join("Maps/C/unreal-ls.toml"), "game = \"ut2004\"\n").unwrap();
    std::fs::write(
        dir.join("unreal-ls.toml"),
        "[rules]\nt3d-too-few-vertices = \"error\"\n\n[[overrides]]\nfiles = [\"Maps/A/Imported/**\"]\nrules = { t3d-too-few-vertices = \"info\" }\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("Maps/B/unreal-ls.toml"),
        "exclude = [\"Excluded.t3d\"]\n[rules]\nt3d-too-few-vertices = \"off\"\n",
    )
    .unwrap();
    (dir, files)
}

/// What `unreal-ls lint --format json` reports run in `dir`, per file: `code severity`, sorted.
fn lint_findings(dir: &Path) -> std::collections::BTreeMap<String, Vec<String>> {
    let lint = std::process::Command::new(env!("CARGO_BIN_EXE_unreal-ls"))
        .args(["lint", "--format", "json"])
        .current_dir(dir)
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&lint.stdout).unwrap();
    let mut found: std::collections::BTreeMap<String, Vec<String>> =
        std::collections::BTreeMap::new();
    for d in report["diagnostics"].as_array().unwrap() {
        let file = d["file"].as_str().unwrap().to_owned();
        let entry = format!("{} {}", d["code"].as_str().unwrap(), d["severity"].as_str().unwrap());
        found.entry(file).or_default().push(entry);
    }
    for list in found.values_mut() {
        list.sort();
    }
    found
}

/// `code severity` of each diagnostic a `publishDiagnostics` carries, sorted.
fn published_findings(params: &Value) -> Vec<String> {
    let mut found: Vec<String> = params["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            let severity = match d["severity"].as_i64() {
                Some(1) => "error",
                Some(2) => "warning",
                Some(3) => "info",
                _ => "hint",
            };
            format!("{} {severity}", d["code"].as_str().unwrap())
        })
        .collect();
    found.sort();
    found
}

/// The editor and `lint` agree on a tree with a configuration per folder ([`configured_tree`]).
/// What the server publishes for each file, over stdio, is what `unreal-ls lint` reports for it.
#[test]
fn each_file_gets_the_configuration_lint_gives_it() {
    let (dir, files) = configured_tree("lsp-configs");
    let from_lint = lint_findings(&dir);

    // The built binary over stdio, as an editor runs it. No workspace folder: each file
    // finds its configuration from where it lies.
    let mut server = start();
    initialize(&mut server);
    let mut seen = Vec::new();
    for (version, (file, text)) in (1..).zip(&files) {
        let uri = format!("file://{}", dir.join(file).display());
        let language = if file.starts_with("Mod/") { "unrealscript" } else { "t3d" };
        server.notify(
            "textDocument/didOpen",
            &json!({ "textDocument": {
                "uri": uri, "languageId": language, "version": version, "text": text } }),
        );
        let published = server.wait_for(|m| {
            m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri.as_str()
        });
        let found = published_findings(&published["params"]);
        let expected = from_lint.get(*file).cloned().unwrap_or_default();
        assert_eq!(found, expected, "{file}: the editor and lint differ");
        seen.push(format!("{file}: {found:?}"));
    }
    server.request("shutdown", &Value::Null);
    server.notify("exit", &Value::Null);
    assert_eq!(server.wait_exit(), Some(0));
    let _ = std::fs::remove_dir_all(&dir);
    // Not vacuous: the rule is an error at the root, off in B, and B's excluded file is empty;
    // C's own configuration names a UE2 game (before, the editor read the root's only); the
    // second installation's map names a texture its packages lack (before, lint found no
    // game folder around a file, and the editor only one around its workspace).
    expect_test::expect![[r#"
        Maps/A/Defects.t3d: ["t3d-missing-brush-reference error", "t3d-too-few-vertices error"]
        Maps/A/Imported/Defects.t3d: ["t3d-missing-brush-reference error", "t3d-too-few-vertices info"]
        Maps/B/Defects.t3d: ["t3d-missing-brush-reference error"]
        Maps/B/Excluded.t3d: []
        Maps/C/Flags.t3d: ["t3d-missing-brush-reference error", "t3d-unknown-poly-flag hint"]
        Games/UT/Maps/Marble.t3d: ["t3d-missing-brush-reference error"]
        Games/Other/Maps/Marble.t3d: ["t3d-missing-brush-reference error", "t3d-unknown-texture warning"]
        Mod/Classes/ModThing.uc: ["exec-missing-file error"]"#]]
    .assert_eq(&seen.join("\n"));
}

/// The workspace's problems without opening a file: with the tree as the workspace folder,
/// the server checks every file in the background and publishes, for each, what `lint .`
/// reports for it; then a file is deleted and one is fixed on disk, and their problems go.
#[test]
fn the_workspace_problems_are_lint_s_without_opening_a_file() {
    let (dir, files) = configured_tree("lsp-workspace-problems");
    let from_lint = lint_findings(&dir);
    let mut server = start();
    let folder = format!("file://{}", dir.display());
    server.request(
        "initialize",
        &json!({
            "processId": null,
            "rootUri": null,
            "capabilities": {},
            "workspaceFolders": [{ "uri": folder, "name": "tree" }],
        }),
    );
    server.notify("initialized", &json!({}));
    // Every publication until the check says it is done, the latest per file.
    let published =
        std::cell::RefCell::new(std::collections::BTreeMap::<String, Vec<String>>::new());
    let prefix = format!("file://{}/", dir.display());
    let record = |m: &Value| {
        if m["method"] == "textDocument/publishDiagnostics" {
            let uri = m["params"]["uri"].as_str().unwrap();
            let file = uri.strip_prefix(&prefix).unwrap_or(uri).to_owned();
            published.borrow_mut().insert(file, published_findings(&m["params"]));
        }
    };
    server.wait_for(|m| {
        record(m);
        m["method"] == "window/logMessage"
            && m["params"]["message"].as_str().is_some_and(|t| t.starts_with("workspace checked"))
    });
    let shown: std::collections::BTreeMap<String, Vec<String>> = published
        .borrow()
        .iter()
        .filter(|(_, f)| !f.is_empty())
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    assert_eq!(shown, from_lint, "the workspace's problems and lint's differ");
    // Not vacuous: every file with findings in the tree is there, the excluded one is not.
    assert_eq!(shown.len(), files.len() - 1, "{shown:#?}");

    // Deleted on disk: cleared. Fixed on disk: cleared.
    std::fs::remove_file(dir.join("Maps/A/Defects.t3d")).unwrap();
    std::fs::write(dir.join("Mod/Classes/ModThing.uc"), "class ModThing extends Actor;\r\n")
        .unwrap();
    let uri = |file: &str| format!("file://{}", dir.join(file).display());
    server.notify(
        "workspace/didChangeWatchedFiles",
        &json!({ "changes": [
            { "uri": uri("Maps/A/Defects.t3d"), "type": 3 },
            { "uri": uri("Mod/Classes/ModThing.uc"), "type": 2 },
        ] }),
    );
    for file in ["Maps/A/Defects.t3d", "Mod/Classes/ModThing.uc"] {
        let cleared = server.wait_for(|m| {
            m["method"] == "textDocument/publishDiagnostics"
                && m["params"]["uri"] == uri(file).as_str()
        });
        assert_eq!(cleared["params"]["diagnostics"], json!([]), "{file}");
    }
    server.request("shutdown", &Value::Null);
    server.notify("exit", &Value::Null);
    assert_eq!(server.wait_exit(), Some(0));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A texture package of empty textures, written by the test support's package writer.
fn texture_package(names: &[&str]) -> Vec<u8> {
    let mut w = unreal_test_support::writers::PackageWriter::new(69, 0);
    for name in names {
        let class = w.engine_class("Texture");
        w.export(class, 0, name, 0, Box::new(|_, _| {}));
    }
    w.finish()
}

/// Issue 43, item 4: four 3D views of big maps in flight held a hover back for their whole
/// build (the protocol library takes four requests at once). Now the expensive requests wait
/// for their own lanes and the rest always find room: the hover is answered before the
/// builds are.
#[test]
fn a_hover_is_answered_while_four_3d_views_are_built() {
    let mut server = start();
    let params = json!({
        "processId": null,
        "rootUri": "file:///work/maps",
        "capabilities": {},
        "initializationOptions": { "experimental": { "levelScene": true } },
    });
    server.request("initialize", &params);
    server.notify("initialized", &json!({}));
    let maps: Vec<String> = (0..4).map(|i| format!("file:///work/maps/DM-Slow{i}.t3d")).collect();
    for (i, uri) in maps.iter().enumerate() {
        let text = unreal_mapgen::generate_map(1 << 20, 40 + i as u64);
        server.notify(
            "textDocument/didOpen",
            &json!({ "textDocument": { "uri": uri, "languageId": "t3d", "version": 1, "text": text } }),
        );
    }
    server.notify(
        "textDocument/didOpen",
        &json!({ "textDocument": { "uri": URI, "languageId": "t3d", "version": 1, "text": DEFECTIVE_T3D } }),
    );
    let mut checked = std::collections::HashSet::new();
    while checked.len() < 5 {
        let published = server.wait_for(|m| m["method"] == "textDocument/publishDiagnostics");
        checked.insert(published["params"]["uri"].as_str().unwrap().to_owned());
    }
    let started = std::time::Instant::now();
    for (i, uri) in maps.iter().enumerate() {
        server.send(&json!({ "jsonrpc": "2.0", "id": 200 + i, "method": "unrealLs/levelScene", "params": { "uri": uri } }));
    }
    let position =
        json!({ "textDocument": { "uri": URI }, "position": { "line": 4, "character": 26 } });
    server.send(
        &json!({ "jsonrpc": "2.0", "id": 300, "method": "textDocument/hover", "params": position }),
    );
    let mut order = Vec::new();
    while order.len() < 5 {
        let message = server.wait_for(|m| m["id"].as_u64().is_some_and(|id| id >= 200));
        let id = message["id"].as_u64().unwrap();
        assert!(message.get("error").is_none(), "{message}");
        order.push((id, started.elapsed()));
    }
    eprintln!("answers in order (id, time since the first request): {order:?}");
    assert_eq!(order[0].0, 300, "the hover waited behind a 3D view: {order:?}");

    // A 3D view cancelled while it waits for its turn never starts: its answer is the
    // cancellation, at once, while the view before it still builds.
    let text = unreal_mapgen::generate_map(1 << 20, 50);
    let changed = json!({
        "textDocument": { "uri": maps[0], "version": 2 },
        "contentChanges": [{ "text": text }],
    });
    server.notify("textDocument/didChange", &changed);
    server.send(&json!({ "jsonrpc": "2.0", "id": 400, "method": "unrealLs/levelScene", "params": { "uri": maps[0] } }));
    server.send(&json!({ "jsonrpc": "2.0", "id": 401, "method": "unrealLs/levelScene", "params": { "uri": maps[1] } }));
    server.notify("$/cancelRequest", &json!({ "id": 401 }));
    let first = server.wait_for(|m| m["id"].as_u64().is_some_and(|id| id >= 400));
    assert_eq!(first["id"], 401, "{first}");
    assert_eq!(first["error"]["code"], -32800, "{first}");
    let built = server.wait_for(|m| m["id"] == 400);
    assert!(built.get("error").is_none(), "{built}");
    server.request("shutdown", &Value::Null);
    server.notify("exit", &Value::Null);
    assert_eq!(server.wait_exit(), Some(0));
}
