//! In-process protocol tests of the T3D editor features: each request goes through the real
//! server as JSON-RPC and its JSON answer is compared with a snapshot.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::needless_raw_string_hashes)]

mod lsp_client;

use expect_test::{expect, Expect};
use lsp_client::TestClient;
use serde_json::{json, Value};
use unreal_ls::lsp::ServerOptions;

const URI: &str = "file:///work/maps/Room.t3d";

const ROOM: &str = "Begin Map\r
Begin Actor Class=Light Name=Light0\r
     LightHue=24\r
     Location=(X=64.000000)\r
End Actor\r
Begin Actor Class=Brush Name=Brush0\r
     Brush=Model'MyLevel.Brush0'\r
   Begin Brush Name=Brush0\r
      Begin PolyList\r
         Begin Polygon Texture=Wall Flags=258\r
            Normal   +00000.000000,+00000.000000,+00001.000000\r
            Vertex   +00000.000000,+00000.000000,+00000.000000\r
            Vertex   +00000.000000,+00064.000000,+00000.000000\r
            Vertex   +00064.000000,+00064.000000,+00000.000000\r
         End Polygon\r
      End PolyList\r
   End Brush\r
End Actor\r
End Map\r
";

async fn client() -> TestClient {
    let mut client = TestClient::new(ServerOptions::default());
    client.initialize(json!({}), Value::Null).await;
    client.open(URI, "t3d", 1, ROOM).await;
    client
}

fn at(line: u32, character: u32) -> Value {
    json!({ "textDocument": { "uri": URI }, "position": { "line": line, "character": character } })
}

fn doc() -> Value {
    json!({ "textDocument": { "uri": URI } })
}

fn check(value: &Value, expect: &Expect) {
    expect.assert_eq(&serde_json::to_string(value).unwrap());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn capabilities_advertise_every_t3d_feature() {
    let mut client = TestClient::new(ServerOptions::default());
    let result = client.initialize(json!({}), Value::Null).await;
    let caps = &result["capabilities"];
    let mut names: Vec<&str> = caps.as_object().unwrap().keys().map(String::as_str).collect();
    names.sort_unstable();
    expect!["codeActionProvider completionProvider definitionProvider documentFormattingProvider documentRangeFormattingProvider documentSymbolProvider executeCommandProvider experimental foldingRangeProvider hoverProvider inlayHintProvider positionEncoding referencesProvider renameProvider selectionRangeProvider semanticTokensProvider textDocumentSync workspace workspaceSymbolProvider"].assert_eq(&names.join(" "));
    check(
        &caps["semanticTokensProvider"]["legend"],
        &expect![[
            r#"{"tokenModifiers":["declaration"],"tokenTypes":["keyword","type","parameter","property","number","string","class","variable","enumMember"]}"#
        ]],
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hover_decodes_flags() {
    let mut client = client().await;
    let answer = client.request_ok("textDocument/hover", at(9, 38)).await;
    check(
        &answer,
        &expect![[
            r#"{"contents":{"kind":"markdown","value":"**Flags** `258` = `0x00000102`\n\nUE1:\n- `PF_Masked` `0x00000002`: Polygon should be drawn masked.\n- `PF_TwoSided` `0x00000100`: Polygon is visible from both sides.\n\npart of `PF_NoOcclude`"},"range":{"end":{"character":45,"line":9},"start":{"character":36,"line":9}}}"#
        ]],
    );
}

/// Hover on `Flags=` follows the engine that only the workspace's `unreal-ls.toml` sets: bit
/// 0x1000 is `PF_BigWavy` in UE1 and `PF_AlphaTexture` in UE2, and the map itself does not
/// tell (no `Pan` lines, no `Package.Group.Name` textures).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hover_follows_the_engine_of_unreal_ls_toml() {
    let dir = std::env::temp_dir().join(format!("unreal-ls-hover-engine-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("unreal-ls.toml"), "engine = \"ue2\"\n").unwrap();
    let folder = format!("file://{}", dir.display());
    let uri = format!("{folder}/Room.t3d");
    let text =
        "Begin PolyList\r\n   Begin Polygon Flags=4096\r\n   End Polygon\r\nEnd PolyList\r\n";
    let mut client = TestClient::new(ServerOptions::default());
    client.initialize_in(&folder, json!({}), Value::Null).await;
    client.open(&uri, "t3d", 1, text).await;
    let at = json!({ "textDocument": { "uri": uri }, "position": { "line": 1, "character": 24 } });
    let mut value = String::new();
    // The configuration is read when the workspace is set up, off the request's path.
    for _ in 0..50 {
        let answer = client.request_ok("textDocument/hover", at.clone()).await;
        value = answer["contents"]["value"].as_str().unwrap_or_default().to_owned();
        if value.contains("UE2") {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(value.contains("PF_AlphaTexture") && !value.contains("PF_BigWavy"), "{value}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn completion_after_end_closes_the_open_block() {
    let mut client = client().await;
    let end_line = json!({ "textDocument": { "uri": URI, "version": 2 }, "contentChanges": [
        { "range": { "start": { "line": 15, "character": 0 }, "end": { "line": 15, "character": 0 } }, "text": "         Begin Polygon\r\n         End \r\n" }
    ]});
    client.notify("textDocument/didChange", end_line).await;
    let answer = client.request_ok("textDocument/completion", at(16, 13)).await;
    check(
        &answer,
        &expect![[
            r#"[{"detail":"closes `Begin PolyList`","kind":22,"label":"PolyList","preselect":true,"sortText":"00000","textEdit":{"newText":"PolyList","range":{"end":{"character":13,"line":16},"start":{"character":13,"line":16}}}}]"#
        ]],
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn definition_references_and_rename() {
    let mut client = client().await;
    check(
        &client.request_ok("textDocument/definition", at(6, 28)).await,
        &expect![[
            r#"{"range":{"end":{"character":26,"line":7},"start":{"character":20,"line":7}},"uri":"file:///work/maps/Room.t3d"}"#
        ]],
    );
    let mut params = at(7, 20);
    params["context"] = json!({ "includeDeclaration": true });
    check(
        &client.request_ok("textDocument/references", params).await,
        &expect![[
            r#"[{"range":{"end":{"character":31,"line":6},"start":{"character":25,"line":6}},"uri":"file:///work/maps/Room.t3d"},{"range":{"end":{"character":26,"line":7},"start":{"character":20,"line":7}},"uri":"file:///work/maps/Room.t3d"}]"#
        ]],
    );
    check(
        &client.request_ok("textDocument/prepareRename", at(1, 31)).await,
        &expect![[r#"{"end":{"character":35,"line":1},"start":{"character":29,"line":1}}"#]],
    );
    let mut params = at(7, 20);
    params["newName"] = json!("Model7");
    check(
        &client.request_ok("textDocument/rename", params).await,
        &expect![[
            r#"{"changes":{"file:///work/maps/Room.t3d":[{"newText":"Model7","range":{"end":{"character":31,"line":6},"start":{"character":25,"line":6}}},{"newText":"Model7","range":{"end":{"character":26,"line":7},"start":{"character":20,"line":7}}}]}}"#
        ]],
    );
    let mut params = at(1, 31);
    params["newName"] = json!("Bad Name");
    check(
        &client.request("textDocument/rename", params).await["error"],
        &expect![[
            r#"{"code":-32602,"message":"`Bad Name` is not a valid object name: use letters, digits and `_`, starting with a letter or `_`"}"#
        ]],
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn symbols_folding_and_selection() {
    let mut client = client().await;
    check(
        &client.request_ok("textDocument/documentSymbol", doc()).await,
        &expect![[
            r#"[{"children":[{"children":[],"detail":"Light","kind":24,"name":"Light0","range":{"end":{"character":9,"line":4},"start":{"character":0,"line":1}},"selectionRange":{"end":{"character":35,"line":1},"start":{"character":29,"line":1}}},{"children":[],"detail":"Brush, builder brush, 1 polygon","kind":23,"name":"Brush0","range":{"end":{"character":9,"line":17},"start":{"character":0,"line":5}},"selectionRange":{"end":{"character":35,"line":5},"start":{"character":29,"line":5}}}],"detail":"2 actors","kind":3,"name":"Map","range":{"end":{"character":7,"line":18},"start":{"character":0,"line":0}},"selectionRange":{"end":{"character":9,"line":0},"start":{"character":6,"line":0}}}]"#
        ]],
    );
    check(
        &client.request_ok("workspace/symbol", json!({ "query": "lig" })).await,
        &expect![[
            r#"[{"containerName":"Light","kind":24,"location":{"range":{"end":{"character":35,"line":1},"start":{"character":29,"line":1}},"uri":"file:///work/maps/Room.t3d"},"name":"Light0"}]"#
        ]],
    );
    check(
        &client.request_ok("textDocument/foldingRange", doc()).await,
        &expect![[
            r#"[{"collapsedText":"Begin Map","endLine":18,"kind":"region","startLine":0},{"collapsedText":"Begin Actor Class=Light Name=Light0","endLine":4,"kind":"region","startLine":1},{"collapsedText":"Begin Actor Class=Brush Name=Brush0","endLine":17,"kind":"region","startLine":5},{"collapsedText":"Begin Brush Name=Brush0","endLine":16,"kind":"region","startLine":7},{"collapsedText":"Begin PolyList","endLine":15,"kind":"region","startLine":8},{"collapsedText":"Begin Polygon Texture=Wall Flags=258","endLine":14,"kind":"region","startLine":9}]"#
        ]],
    );
    let params =
        json!({ "textDocument": { "uri": URI }, "positions": [{ "line": 2, "character": 7 }] });
    check(
        &client.request_ok("textDocument/selectionRange", params).await,
        &expect![[
            r#"[{"parent":{"parent":{"parent":{"parent":{"range":{"end":{"character":0,"line":19},"start":{"character":0,"line":0}}},"range":{"end":{"character":7,"line":18},"start":{"character":0,"line":0}}},"range":{"end":{"character":9,"line":4},"start":{"character":0,"line":1}}},"range":{"end":{"character":16,"line":2},"start":{"character":5,"line":2}}},"range":{"end":{"character":13,"line":2},"start":{"character":5,"line":2}}}]"#
        ]],
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn semantic_tokens_and_inlay_hints() {
    let mut client = client().await;
    let range =
        json!({ "start": { "line": 9, "character": 0 }, "end": { "line": 10, "character": 0 } });
    let mut params = doc();
    params["range"] = range;
    check(
        &client.request_ok("textDocument/semanticTokens/range", params.clone()).await,
        &expect![[r#"{"data":[9,9,5,0,0,0,6,7,1,0,0,8,7,2,0,0,8,4,7,0,0,5,5,2,0,0,6,3,8,0]}"#]],
    );
    let full = client.request_ok("textDocument/semanticTokens/full", doc()).await;
    assert_eq!(full["data"].as_array().unwrap().len() % 5, 0);

    // An edit, then the delta from the tokens just sent: one edit that turns them into what a
    // full request now gives.
    client
        .notify(
            "textDocument/didChange",
            json!({ "textDocument": { "uri": URI, "version": 2 }, "contentChanges": [{
                "range": { "start": { "line": 3, "character": 0 }, "end": { "line": 3, "character": 0 } },
                "text": "     LightBrightness=64\r\n",
            }] }),
        )
        .await;
    let mut delta_params = doc();
    delta_params["previousResultId"] = full["resultId"].clone();
    let delta = client.request_ok("textDocument/semanticTokens/full/delta", delta_params).await;
    check(
        &delta["edits"],
        &expect![[r#"[{"data":[1,5,15,3,0,0,16,2,4,0],"deleteCount":0,"start":50}]"#]],
    );
    let mut patched: Vec<Value> = full["data"].as_array().unwrap().clone();
    for edit in delta["edits"].as_array().unwrap() {
        let start = edit["start"].as_u64().unwrap() as usize;
        let delete = edit["deleteCount"].as_u64().unwrap() as usize;
        let data = edit["data"].as_array().cloned().unwrap_or_default();
        patched.splice(start..start + delete, data);
    }
    let fresh = client.request_ok("textDocument/semanticTokens/full", doc()).await;
    assert_eq!(Value::Array(patched), fresh["data"]);
    // A delta from a result that is no longer the last one sent: the whole tokens.
    let mut stale = doc();
    stale["previousResultId"] = delta["resultId"].clone();
    let whole = client.request_ok("textDocument/semanticTokens/full/delta", stale).await;
    assert_eq!(whole["data"], fresh["data"]);
    assert!(whole.get("edits").is_none());
    check(&client.request_ok("textDocument/inlayHint", params).await, &expect!["[]"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn formatting_and_polygon_actions() {
    let mut client = client().await;
    let mut params = doc();
    params["options"] = json!({ "tabSize": 3, "insertSpaces": true });
    let edits = client.request_ok("textDocument/formatting", params.clone()).await;
    check(&json!(edits.as_array().unwrap().len()), &expect!["2"]);
    check(
        &edits[0],
        &expect![[
            r#"{"newText":"   LightHue=24\r\n   Location=(X=64.000000)\r\n","range":{"end":{"character":0,"line":4},"start":{"character":0,"line":2}}}"#
        ]],
    );
    let mut actions = doc();
    actions["range"] =
        json!({ "start": { "line": 11, "character": 0 }, "end": { "line": 11, "character": 0 } });
    actions["context"] = json!({ "diagnostics": [], "only": ["refactor"] });
    let answer = client.request_ok("textDocument/codeAction", actions).await;
    let titles: Vec<&str> =
        answer.as_array().unwrap().iter().map(|a| a["title"].as_str().unwrap()).take(4).collect();
    expect![[r#"
        Reverse the winding of 1 polygon
        Set PF_Invisible on 1 polygon
        Clear PF_Masked on 1 polygon
        Set PF_Translucent on 1 polygon"#]]
    .assert_eq(&titles.join("\n"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn other_documents_get_nothing() {
    let mut client = client().await;
    let uc = "file:///work/Classes/A.uc";
    client.open(uc, "unrealscript", 1, "class A extends Actor;\n").await;
    let params =
        json!({ "textDocument": { "uri": uc }, "position": { "line": 0, "character": 2 } });
    check(&client.request_ok("textDocument/hover", params).await, &expect!["null"]);
}

/// `workspace/executeCommand` `unrealLs.diff`: a map on disk against the same map open in the
/// editor with a light moved (the open document's text is what is compared).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_diff_command_compares_the_open_map_with_a_file() {
    let fixtures = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/diff");
    let base = format!("file://{}", fixtures.join("base.t3d").display());
    let edited = format!("file://{}", fixtures.join("edited-in-editor.t3d").display());
    let mut client = TestClient::new(ServerOptions::default());
    client.initialize(json!({}), Value::Null).await;
    let moved = std::fs::read_to_string(fixtures.join("moved.t3d")).unwrap();
    client.open(&edited, "t3d", 1, &moved).await;
    let answer = client
        .request_ok(
            "workspace/executeCommand",
            json!({ "command": "unrealLs.diff", "arguments": [base, edited] }),
        )
        .await;
    check(
        &answer["summary"],
        &expect![[
            r#"{"added":0,"brush_order_changed":false,"brushes_reshaped":0,"moved":1,"properties_changed":0,"removed":0,"renamed":0}"#
        ]],
    );
    check(&answer["changed"][0]["moved"], &expect!["[16.0,0.0,0.0]"]);
    let bad = client
        .request(
            "workspace/executeCommand",
            json!({ "command": "unrealLs.diff", "arguments": [base] }),
        )
        .await;
    check(&bad["error"]["code"], &expect!["-32602"]);
    // Only `file:` URIs are files: an editor's unsaved buffer or a web address is not read
    // as a path (`untitled:Untitled-1` was the file `Untitled-1` of the server's folder, and
    // `http://host/etc/passwd` the file `/etc/passwd`).
    for uri in ["untitled:Untitled-1", "http://example.com/etc/passwd"] {
        let answer = client
            .request(
                "workspace/executeCommand",
                json!({ "command": "unrealLs.diff", "arguments": [uri, edited] }),
            )
            .await;
        check(&answer["error"]["code"], &expect!["-32602"]);
        assert!(answer["error"]["message"].as_str().unwrap().contains("is not a file"), "{answer}");
        let picture =
            client.request("unrealLs/mapPreview", json!({ "uri": uri, "maxSize": 128 })).await;
        check(&picture["error"]["code"], &expect!["-32602"]);
    }
}
