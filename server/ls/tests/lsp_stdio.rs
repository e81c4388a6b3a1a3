//! The built binary as an editor runs it: `unreal-ls lsp --stdio`, JSON-RPC framed with
//! `Content-Length` headers over real pipes. Initialize, open a defective T3D, read the
//! published diagnostics (exactly what analysis finds in that text, converted to UTF-16
//! positions), shut down, exit with code 0.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod lsp_client;

use lsp_client::stdio::StdioServer;
use lsp_client::HANG_GUARD;

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
    assert_eq!(actual, expected);

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
