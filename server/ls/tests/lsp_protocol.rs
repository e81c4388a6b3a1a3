//! The language server in-process, served as `unreal-ls lsp` serves it (`lsp::serve_framed`)
//! over in-memory pipes, with real JSON-RPC messages.
//!
//! Most tests substitute a small analyzer (`test-bad` on every `BAD` with a fix, `test-note`
//! on every `NOTE` with labels, a panic on `PANIC`) so that the protocol side (positions,
//! versions, fixes, settings, panics) is checked whichever analysis rules exist.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod lsp_client;

use std::fmt::Write as _;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use expect_test::{expect, Expect};
use lsp_client::{Model, Rng, TestClient};
use serde_json::{json, Value};
use unreal_analysis::{Diagnostic, Fix, Label, TextEdit};
use unreal_ls::lsp::{Analyzer, ServerOptions};
use unreal_syntax::Span;

const URI: &str = "file:///work/maps/DM-Test.t3d";

#[derive(Default)]
struct Recorder {
    calls: AtomicUsize,
    last_text: Mutex<String>,
}

fn fake_analyzer(recorder: &Arc<Recorder>, other_file: Option<PathBuf>) -> Analyzer {
    let recorder = Arc::clone(recorder);
    Arc::new(move |kind, _path, text, options, _workspace| {
        recorder.calls.fetch_add(1, Ordering::SeqCst);
        text.clone_into(&mut recorder.last_text.lock().unwrap());
        assert!(!text.contains("PANIC"), "analyzer panicked on purpose");
        let mut out = Vec::new();
        for (at, _) in text.match_indices("BAD") {
            let span = Span::from_range(at..at + 3);
            let message = format!("BAD is bad ({kind:?}, engine {:?})", options.engine);
            out.push(Diagnostic::warning("test-bad", span, message).with_fix(Fix {
                title: "Replace BAD with GOOD".to_owned(),
                edits: vec![TextEdit { span, new_text: "GOOD".to_owned() }],
                safe: true,
            }));
        }
        for (at, _) in text.match_indices("NOTE") {
            let mut diagnostic =
                Diagnostic::info("test-note", Span::from_range(at..at + 4), "a note")
                    .with_label(Span::new(0, 5), "the file starts here");
            diagnostic.labels.push(Label {
                file: Some(PathBuf::from("Textures/Missing.utx")),
                span: Span::new(0, 1),
                message: "no such package".to_owned(),
            });
            if let Some(path) = &other_file {
                diagnostic.labels.push(Label {
                    file: Some(path.clone()),
                    span: Span::new(9, 12),
                    message: "defined there".to_owned(),
                });
            }
            out.push(diagnostic);
        }
        out
    })
}

fn options(recorder: &Arc<Recorder>, debounce: Duration) -> ServerOptions {
    ServerOptions { analyzer: fake_analyzer(recorder, None), debounce, incremental_t3d: false }
}

/// One line per diagnostic (range, severity, code, message) and its related information.
fn render(published: &Value) -> String {
    let mut out = format!("version {}\n", published["version"]);
    for d in published["diagnostics"].as_array().unwrap() {
        let r = &d["range"];
        let _ = writeln!(
            out,
            "{}:{}-{}:{} sev{} {} [{}] {:?}",
            r["start"]["line"],
            r["start"]["character"],
            r["end"]["line"],
            r["end"]["character"],
            d["severity"],
            d["code"].as_str().unwrap(),
            d["source"].as_str().unwrap(),
            d["message"].as_str().unwrap(),
        );
        for related in d["relatedInformation"].as_array().into_iter().flatten() {
            let r = &related["location"]["range"];
            let _ = writeln!(
                out,
                "    {} {}:{}-{}:{} {:?}",
                related["location"]["uri"].as_str().unwrap(),
                r["start"]["line"],
                r["start"]["character"],
                r["end"]["line"],
                r["end"]["character"],
                related["message"].as_str().unwrap(),
            );
        }
    }
    out
}

fn check(actual: &str, expect: &Expect) {
    expect.assert_eq(actual);
}

fn code_action_params(range: &Value) -> Value {
    json!({
        "textDocument": { "uri": URI },
        "range": range,
        "context": { "diagnostics": [] },
    })
}

fn whole_document() -> Value {
    json!({ "start": { "line": 0, "character": 0 }, "end": { "line": 99999, "character": 0 } })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn initialize_advertises_capabilities() {
    let recorder = Arc::default();
    let mut client = TestClient::new(options(&recorder, Duration::ZERO));
    let result = client.initialize(json!({}), Value::Null).await;
    check(
        &serde_json::to_string_pretty(&result).unwrap(),
        &expect![[r#"
            {
              "capabilities": {
                "codeActionProvider": {
                  "codeActionKinds": [
                    "quickfix",
                    "refactor"
                  ]
                },
                "completionProvider": {
                  "resolveProvider": true,
                  "triggerCharacters": [
                    " ",
                    "="
                  ]
                },
                "definitionProvider": true,
                "documentFormattingProvider": true,
                "documentRangeFormattingProvider": true,
                "documentSymbolProvider": true,
                "executeCommandProvider": {
                  "commands": [
                    "unrealLs.diff",
                    "unrealLs.mapDependencies",
                    "unrealLs.replaceTexture"
                  ]
                },
                "experimental": {
                  "unrealLs": {
                    "execLines": true,
                    "findAssets": true,
                    "levelScene": true,
                    "mapPreview": true,
                    "objectPreview": true,
                    "packageTree": true
                  }
                },
                "foldingRangeProvider": true,
                "hoverProvider": true,
                "inlayHintProvider": true,
                "positionEncoding": "utf-16",
                "referencesProvider": true,
                "renameProvider": {
                  "prepareProvider": true
                },
                "selectionRangeProvider": true,
                "semanticTokensProvider": {
                  "full": {
                    "delta": true
                  },
                  "legend": {
                    "tokenModifiers": [
                      "declaration"
                    ],
                    "tokenTypes": [
                      "keyword",
                      "type",
                      "parameter",
                      "property",
                      "number",
                      "string",
                      "class",
                      "variable",
                      "enumMember"
                    ]
                  },
                  "range": true
                },
                "textDocumentSync": {
                  "change": 2,
                  "openClose": true
                },
                "workspace": {
                  "workspaceFolders": {
                    "changeNotifications": true,
                    "supported": true
                  }
                },
                "workspaceSymbolProvider": true
              },
              "serverInfo": {
                "name": "unreal-ls",
                "version": "0.1.0"
              }
            }"#]],
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn position_encoding_is_negotiated() {
    for (offered, chosen) in [
        (json!(["utf-16"]), "utf-16"),
        (json!(["utf-32", "utf-16"]), "utf-32"),
        (json!(["utf-16", "utf-32", "utf-8"]), "utf-8"),
    ] {
        let recorder = Arc::default();
        let mut client = TestClient::new(options(&recorder, Duration::ZERO));
        let capabilities = json!({ "general": { "positionEncodings": offered } });
        let result = client.initialize(capabilities, Value::Null).await;
        assert_eq!(result["capabilities"]["positionEncoding"], chosen);

        // The same edit, expressed in the negotiated unit, lands in the same place.
        client.open(URI, "t3d", 1, "Name=\u{1F600}x BAD\n").await;
        client.diagnostics_for(URI, Some(1)).await;
        let col = match chosen {
            "utf-8" => 9,
            "utf-16" => 7,
            _ => 6,
        };
        let change = json!({ "range": {
            "start": { "line": 0, "character": col }, "end": { "line": 0, "character": col + 1 } },
            "text": "y" });
        let params =
            json!({ "textDocument": { "uri": URI, "version": 2 }, "contentChanges": [change] });
        client.notify("textDocument/didChange", params).await;
        let published = client.diagnostics_for(URI, Some(2)).await;
        assert_eq!(*recorder.last_text.lock().unwrap(), "Name=\u{1F600}y BAD\n");
        let start = &published["diagnostics"][0]["range"]["start"];
        assert_eq!(start["character"], col + 2, "{chosen}: {published}");
    }
}

/// A burst of 100 incremental edits at random places (fixed seed), sent together as a
/// client would pipe them, then a request: the edits apply in order, the burst costs one
/// analysis, and the diagnostics published carry the last version and match the final text.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn burst_of_edits_then_request() {
    let recorder = Arc::new(Recorder::default());
    // A debounce longer than a request waits for the diagnostics to go first (2 s), so that
    // the request below is certain to be answered before the analysis.
    let mut client = TestClient::new(options(&recorder, Duration::from_secs(3)));
    client.initialize(json!({}), Value::Null).await;
    let mut model = Model {
        text: "Begin Map\r\n   Begin Actor Class=Light Name=Light0\r\n      Tag=\u{e9}t\u{e9}\r\n   End Actor\r\nEnd Map\r\n"
            .to_owned(),
    };
    client.open(URI, "t3d", 1, &model.text).await;
    client.diagnostics_for(URI, Some(1)).await;
    assert_eq!(recorder.calls.load(Ordering::SeqCst), 1);

    let mut rng = Rng::new(5);
    for version in 2..=101 {
        let change = model.random_edit(&mut rng);
        let params = json!({
            "textDocument": { "uri": URI, "version": version },
            "contentChanges": [change],
        });
        client.notify("textDocument/didChange", params).await;
    }

    // The request sees version 101; the fixes published for version 1 no longer apply.
    let actions =
        client.request_ok("textDocument/codeAction", code_action_params(&whole_document())).await;
    assert_eq!(actions, Value::Null);

    let published = client.diagnostics_for(URI, Some(101)).await;
    assert_eq!(*recorder.last_text.lock().unwrap(), model.text);
    assert_eq!(recorder.calls.load(Ordering::SeqCst), 2, "the burst costs one analysis");
    let expected: Vec<Value> = model
        .text
        .match_indices("BAD")
        .map(|(at, _)| {
            let (l0, c0) = model.position(at);
            let (l1, c1) = model.position(at + 3);
            json!({ "start": { "line": l0, "character": c0 }, "end": { "line": l1, "character": c1 } })
        })
        .collect();
    let ranges: Vec<Value> =
        published["diagnostics"].as_array().unwrap().iter().map(|d| d["range"].clone()).collect();
    assert!(!expected.is_empty(), "the seed inserts BAD somewhere");
    assert_eq!(ranges, expected);

    // Now the fixes are current: apply the first one the way a client would.
    let actions =
        client.request_ok("textDocument/codeAction", code_action_params(&whole_document())).await;
    let actions = actions.as_array().unwrap();
    assert_eq!(actions.len(), expected.len());
    let edit = &actions[0]["edit"]["changes"][URI][0];
    let start = model.offset(
        edit["range"]["start"]["line"].as_u64().unwrap() as usize,
        edit["range"]["start"]["character"].as_u64().unwrap() as usize,
    );
    assert_eq!(&model.text[start..start + 3], "BAD");
    assert_eq!(edit["newText"], "GOOD");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn diagnostics_carry_code_source_and_related_information() {
    let dir = std::env::temp_dir().join(format!("unreal-ls-lsp-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let other = dir.join("Other.t3d");
    std::fs::write(&other, "line one\nline two\n").unwrap();
    let recorder = Arc::default();
    let analyzer = fake_analyzer(&recorder, Some(other.clone()));
    let mut client = TestClient::new(ServerOptions {
        analyzer,
        debounce: Duration::ZERO,
        incremental_t3d: false,
    });
    client.initialize(json!({}), Value::Null).await;
    client.open(URI, "t3d", 3, "Begin Map\n  NOTE \u{1F600} BAD\nEnd Map\n").await;
    let published = client.diagnostics_for(URI, Some(3)).await;
    let other_uri = format!("file://{}", other.display());
    let rendered = render(&published).replace(&other_uri, "file:///tmp/Other.t3d");
    let _ = std::fs::remove_dir_all(&dir);
    check(
        &rendered,
        &expect![[r#"
            version 3
            1:10-1:13 sev2 test-bad [unreal-ls] "BAD is bad (T3d, engine Auto)"
            1:2-1:6 sev3 test-note [unreal-ls] "a note\nTextures/Missing.utx: no such package"
                file:///work/maps/DM-Test.t3d 0:0-0:5 "the file starts here"
                file:///tmp/Other.t3d 1:0-1:3 "defined there"
        "#]],
    );
    // A link to the rule's documentation only once the project has a public address
    // (`repository` in Cargo.toml); none is made up.
    let diagnostic = &published["diagnostics"][0];
    match unreal_ls::rule_documentation_url("test-bad") {
        Some(url) => assert_eq!(diagnostic["codeDescription"]["href"], url.as_str()),
        None => assert!(diagnostic.get("codeDescription").is_none(), "{diagnostic}"),
    }

    // Quick fixes for the diagnostic under the cursor only.
    let at_bad =
        json!({ "start": { "line": 1, "character": 11 }, "end": { "line": 1, "character": 11 } });
    let actions = client.request_ok("textDocument/codeAction", code_action_params(&at_bad)).await;
    check(
        &serde_json::to_string_pretty(&actions[0]["edit"]).unwrap(),
        &expect![[r#"
            {
              "changes": {
                "file:///work/maps/DM-Test.t3d": [
                  {
                    "newText": "GOOD",
                    "range": {
                      "end": {
                        "character": 13,
                        "line": 1
                      },
                      "start": {
                        "character": 10,
                        "line": 1
                      }
                    }
                  }
                ]
              }
            }"#]],
    );
    assert_eq!(actions[0]["title"], "Replace BAD with GOOD");
    assert_eq!(actions[0]["kind"], "quickfix");
    assert_eq!(actions[0]["isPreferred"], true);
    assert_eq!(actions[0]["diagnostics"][0]["code"], "test-bad");
    assert_eq!(actions.as_array().unwrap().len(), 1);

    // Only source actions asked for: none.
    let mut params = code_action_params(&at_bad);
    params["context"]["only"] = json!(["source"]);
    assert_eq!(client.request_ok("textDocument/codeAction", params).await, Value::Null);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fixes_use_versioned_edits_when_the_client_supports_them() {
    let recorder = Arc::default();
    let mut client = TestClient::new(options(&recorder, Duration::ZERO));
    let capabilities = json!({ "workspace": { "workspaceEdit": { "documentChanges": true } } });
    client.initialize(capabilities, Value::Null).await;
    client.open(URI, "t3d", 7, "BAD\n").await;
    client.diagnostics_for(URI, Some(7)).await;
    let actions =
        client.request_ok("textDocument/codeAction", code_action_params(&whole_document())).await;
    let change = &actions[0]["edit"]["documentChanges"][0];
    assert_eq!(change["textDocument"], json!({ "uri": URI, "version": 7 }));
    assert_eq!(change["edits"][0]["newText"], "GOOD");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn settings_from_initialization_options_and_did_change_configuration() {
    let recorder = Arc::default();
    let mut client = TestClient::new(options(&recorder, Duration::ZERO));
    let init = json!({ "unrealLs": {
        "engine": "ue2",
        "rules": { "test-note": "off", "test-bad": "error" },
        "colour": "blue",
    }});
    client.initialize(json!({}), init).await;
    client.open(URI, "t3d", 1, "BAD NOTE\n").await;
    let published = client.diagnostics_for(URI, Some(1)).await;
    check(
        &render(&published),
        &expect![[r#"
            version 1
            0:0-0:3 sev1 test-bad [unreal-ls] "BAD is bad (T3d, engine Ue2)"
        "#]],
    );
    let logs: Vec<&str> = client
        .received_with("window/logMessage")
        .iter()
        .map(|m| m["message"].as_str().unwrap())
        .collect();
    assert!(logs.contains(&"unrealLs.colour: unknown setting, ignored"), "{logs:?}");

    // New settings re-publish the open document (same version) under the new rules.
    let settings = json!({ "settings": { "unrealLs": { "rules": { "test-bad": "hint" } } } });
    client.notify("workspace/didChangeConfiguration", settings).await;
    let published = client.diagnostics_for(URI, Some(1)).await;
    check(
        &render(&published),
        &expect![[r#"
            version 1
            0:4-0:8 sev3 test-note [unreal-ls] "a note\nTextures/Missing.utx: no such package"
                file:///work/maps/DM-Test.t3d 0:0-0:5 "the file starts here"
            0:0-0:3 sev4 test-bad [unreal-ls] "BAD is bad (T3d, engine Auto)"
        "#]],
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn settings_pulled_from_clients_that_answer_workspace_configuration() {
    let recorder = Arc::default();
    let mut client = TestClient::new(options(&recorder, Duration::ZERO));
    client.set_configuration(json!({ "rules": { "test-bad": "off" }, "engine": "ue1" }));
    client.initialize(json!({ "workspace": { "configuration": true } }), Value::Null).await;
    client.open(URI, "t3d", 1, "BAD NOTE\n").await;
    let published = client.diagnostics_for(URI, Some(1)).await;
    assert_eq!(published["diagnostics"].as_array().unwrap().len(), 1);
    assert_eq!(published["diagnostics"][0]["code"], "test-note");

    // An empty didChangeConfiguration means "ask again"; a `null` answer changes nothing.
    client.set_configuration(Value::Null);
    client.notify("workspace/didChangeConfiguration", json!({ "settings": null })).await;
    client.open("file:///work/maps/Other.t3d", "t3d", 1, "BAD\n").await;
    let published = client.diagnostics_for("file:///work/maps/Other.t3d", Some(1)).await;
    assert_eq!(published["diagnostics"], json!([]), "test-bad is still off");
    client.set_configuration(json!({}));
    client.notify("workspace/didChangeConfiguration", json!({ "settings": null })).await;
    let published = client.diagnostics_for(URI, Some(1)).await;
    assert_eq!(published["diagnostics"].as_array().unwrap().len(), 2);
}

/// A panic in the analysis is logged and nothing is published for that version; the server
/// goes on. (A panic in a request's handler: `lsp/dispatch.rs`'s tests.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_panic_is_logged_and_the_server_stays_up() {
    let recorder = Arc::default();
    let mut client = TestClient::new(options(&recorder, Duration::ZERO));
    client.initialize(json!({}), Value::Null).await;

    client.open(URI, "t3d", 1, "PANIC\n").await;
    let log = loop {
        let log = client.next_notification("window/logMessage").await;
        if log["type"] == 1 {
            break log;
        }
    };
    let message = log["message"].as_str().unwrap();
    assert!(message.contains("internal error: analyzer panicked on purpose"), "{message}");
    let change = json!({ "textDocument": { "uri": URI, "version": 2 }, "contentChanges": [{ "text": "BAD\n" }] });
    client.notify("textDocument/didChange", change).await;
    let published = client.diagnostics_for(URI, Some(2)).await;
    assert_eq!(published["diagnostics"].as_array().unwrap().len(), 1);
    assert!(client
        .received_with("textDocument/publishDiagnostics")
        .iter()
        .all(|p| p["version"] != 1));
    let actions =
        client.request_ok("textDocument/codeAction", code_action_params(&whole_document())).await;
    assert_eq!(actions.as_array().unwrap().len(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn closing_clears_diagnostics_and_unknown_documents_get_none() {
    let recorder = Arc::default();
    let mut client = TestClient::new(options(&recorder, Duration::ZERO));
    client.initialize(json!({}), Value::Null).await;
    client.open(URI, "t3d", 1, "BAD\n").await;
    client.diagnostics_for(URI, Some(1)).await;
    client.notify("textDocument/didClose", json!({ "textDocument": { "uri": URI } })).await;
    let published = client.diagnostics_for(URI, None).await;
    assert_eq!(published["diagnostics"], json!([]));
    // A request for a document that is not open: no answer, no error.
    let actions =
        client.request_ok("textDocument/codeAction", code_action_params(&whole_document())).await;
    assert_eq!(actions, Value::Null);

    // Plain text that is neither T3D nor UnrealScript is not analysed.
    let calls = recorder.calls.load(Ordering::SeqCst);
    client.open("file:///work/notes.txt", "plaintext", 1, "BAD\n").await;
    let published = client.diagnostics_for("file:///work/notes.txt", Some(1)).await;
    assert_eq!(published["diagnostics"], json!([]));
    assert_eq!(recorder.calls.load(Ordering::SeqCst), calls);
}

/// The real analysis, not a substitute: a T3D document gets whatever the rules find, with
/// the protocol's shape.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn real_analysis_publishes_for_t3d() {
    let mut client = TestClient::new(ServerOptions::default());
    client.initialize(json!({}), Value::Null).await;
    let text = "Begin Map\r\nBegin Actor Class=Brush Name=Brush0\r\n   Begin Polygon\r\n      Vertex   +00000.000000,+00000.000000,+00000.000000\r\n   End Polygon\r\nEnd Map\r\n";
    client.open(URI, "t3d", 1, text).await;
    let published = client.diagnostics_for(URI, Some(1)).await;
    for diagnostic in published["diagnostics"].as_array().unwrap() {
        assert_eq!(diagnostic["source"], "unreal-ls");
        assert!(diagnostic["code"].is_string());
    }
}

/// The incremental T3D analysis through the protocol: after bursts of random edits (block
/// lines, broken values, names that collide, plain typing), the diagnostics published for
/// the last version equal `lint_text` on the final text, range for range.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn incremental_diagnostics_equal_lint_text_after_random_edits() {
    const SNIPPETS: [&str; 12] = [
        "1",
        "-",
        "",
        "\r\n",
        "Begin Polygon\r\n",
        "End Polygon\r\n",
        "End Actor\r\n",
        "Begin Actor Class=Light Name=Light0\r\nEnd Actor\r\n",
        "   Brush=Model'MyLevel.Nowhere'\r\n",
        " Flags=x",
        "Vertex   +00001.000000,+00002.000000,+00003.000000\r\n",
        "\u{e9}",
    ];
    let mut client = TestClient::new(ServerOptions::default());
    client.initialize(json!({}), Value::Null).await;
    for seed in 0..4u64 {
        let uri = format!("file:///work/maps/Random{seed}.t3d");
        let mut model = Model { text: unreal_mapgen::generate_map(12_000, seed) };
        client.open(&uri, "t3d", 1, &model.text).await;
        client.diagnostics_for(&uri, Some(1)).await;
        let mut rng = Rng::new(seed);
        let mut version = 1;
        for _round in 0..4 {
            for _ in 0..15 {
                version += 1;
                let change = if rng.below(3) == 0 {
                    model.random_edit(&mut rng)
                } else {
                    let line = rng.below(model.line_count());
                    let cols = model.boundaries(line);
                    let col = cols[rng.below(cols.len())];
                    let text = SNIPPETS[rng.below(SNIPPETS.len())];
                    let at = model.offset(line, col);
                    model.text.insert_str(at, text);
                    let position = json!({ "line": line, "character": col });
                    json!({ "range": { "start": position, "end": position }, "text": text })
                };
                let params = json!({
                    "textDocument": { "uri": uri, "version": version },
                    "contentChanges": [change],
                });
                client.notify("textDocument/didChange", params).await;
            }
            let published = client.diagnostics_for(&uri, Some(version)).await;
            let found = unreal_analysis::lint::lint_text(
                unreal_analysis::lint::FileKind::T3d,
                &model.text,
                &unreal_analysis::lint::LintOptions::default(),
            );
            // Published: each flood of infos or hints as one finding, errors first, then
            // warnings, infos and hints, each in document order.
            let mut found = unreal_analysis::diagnostic::collapse_floods(found);
            found.sort_by_key(|d| std::cmp::Reverse(d.severity));
            let expected: Vec<String> = found
                .iter()
                .map(|d| {
                    let (l0, c0) = model.position(d.span.start as usize);
                    let (l1, c1) = model.position(d.span.end as usize);
                    format!("{l0}:{c0}-{l1}:{c1} {} {}", d.code, d.message)
                })
                .collect();
            let actual: Vec<String> = published["diagnostics"]
                .as_array()
                .unwrap()
                .iter()
                .map(|d| {
                    let r = &d["range"];
                    format!(
                        "{}:{}-{}:{} {} {}",
                        r["start"]["line"],
                        r["start"]["character"],
                        r["end"]["line"],
                        r["end"]["character"],
                        d["code"].as_str().unwrap(),
                        d["message"].as_str().unwrap()
                    )
                })
                .collect();
            assert_eq!(actual, expected, "seed {seed}, version {version}:\n{}", model.text);
        }
    }
}

/// A client that registers formatting dynamically gets a formatter for T3D only (no static
/// capability that would cover UnrealScript too, where another extension may format); any
/// other client gets the static capabilities.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn formatting_is_registered_for_t3d_only_when_the_client_can() {
    let recorder = Arc::new(Recorder::default());
    let mut client = TestClient::new(options(&recorder, Duration::ZERO));
    let dynamic = json!({ "dynamicRegistration": true });
    let capabilities = json!({ "textDocument": {
        "formatting": dynamic, "rangeFormatting": dynamic } });
    let result = client.initialize(capabilities, Value::Null).await;
    assert!(result["capabilities"].get("documentFormattingProvider").is_none(), "{result}");
    assert!(result["capabilities"].get("documentRangeFormattingProvider").is_none(), "{result}");
    let registered = client.next_notification("client/registerCapability").await;
    let formatting: Vec<&Value> = registered["registrations"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["method"].as_str().is_some_and(|m| m.ends_with("ormatting")))
        .collect();
    let methods: Vec<&str> = formatting.iter().map(|r| r["method"].as_str().unwrap()).collect();
    assert_eq!(methods, ["textDocument/formatting", "textDocument/rangeFormatting"]);
    for registration in formatting {
        assert_eq!(
            registration["registerOptions"]["documentSelector"],
            json!([{ "language": "t3d" }])
        );
    }

    let mut plain = TestClient::new(options(&recorder, Duration::ZERO));
    let result = plain.initialize(json!({}), Value::Null).await;
    assert_eq!(result["capabilities"]["documentFormattingProvider"], true, "{result}");
    assert_eq!(result["capabilities"]["documentRangeFormattingProvider"], true, "{result}");
}
