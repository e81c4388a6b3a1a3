//! In-process protocol tests of the workspace's package index and the preview requests: the
//! `unrealLs/packageTree` and `unrealLs/objectPreview` requests on a corpus texture package,
//! `$/progress` while the index builds, hover on a `Texture=` that names a package texture
//! (with its thumbnail) and go to definition into its package, the reference rules with an index, and `didChangeWatchedFiles`
//! re-reading a changed package; `unrealLs/execLines` on the corpus' LodMesh.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::pedantic)]

mod lsp_client;
use unreal_test_support::writers;

use std::path::{Path, PathBuf};

use lsp_client::TestClient;
use serde_json::{json, Value};
use unreal_ls::lsp::ServerOptions;

fn corpus_packages() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/packages");
    if dir.is_dir() {
        Some(std::fs::canonicalize(dir).unwrap())
    } else {
        unreal_test_support::corpus::absent(&format!("the corpus is not at {}", dir.display()));
        None
    }
}

fn file_uri(path: &Path) -> String {
    format!("file://{}", path.display())
}

const MAP_URI: &str = "file:///work/maps/Checkers.t3d";

fn polygon(texture: &str) -> String {
    format!(
        "Begin Map\r\nBegin Actor Class=Brush Name=Brush0\r\n   Brush=Model'MyLevel.Brush0'\r\n   \
         Begin Brush Name=Brush0\r\n      Begin PolyList\r\n         Begin Polygon Texture={texture} Flags=0\r\n            \
         Normal   +00000.000000,+00000.000000,+00001.000000\r\n            \
         Vertex   +00000.000000,+00000.000000,+00000.000000\r\n            \
         Vertex   +00064.000000,+00000.000000,+00000.000000\r\n            \
         Vertex   +00064.000000,+00064.000000,+00000.000000\r\n         End Polygon\r\n      \
         End PolyList\r\n   End Brush\r\nEnd Actor\r\nEnd Map\r\n"
    )
}

/// Waits for the log line that says the index is built and returns it.
async fn indexed(client: &mut TestClient) -> String {
    loop {
        let params = client.next_notification("window/logMessage").await;
        let message = params["message"].as_str().unwrap_or_default().to_owned();
        if message.starts_with("indexed ") {
            return message;
        }
    }
}

fn codes(diagnostics: &Value) -> Vec<String> {
    diagnostics["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| format!("{} {}", d["code"].as_str().unwrap(), d["message"].as_str().unwrap()))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn preview_requests_on_a_texture_package() {
    let Some(dir) = corpus_packages() else { return };
    let utx = file_uri(&dir.join("utx/blender_t3d_Checkers.utx"));
    let mut client = TestClient::new(ServerOptions::default());
    let init = client.initialize(json!({}), Value::Null).await;
    assert_eq!(
        init["capabilities"]["experimental"]["unrealLs"],
        json!({
            "packageTree": true, "objectPreview": true, "mapPreview": true, "findAssets": true,
            "levelScene": true, "execLines": true,
        })
    );

    let tree = client.request_ok("unrealLs/packageTree", json!({ "uri": utx })).await;
    expect_test::expect![[r#"{"header":{"exports":10,"flags":1,"imports":3,"licensee":0,"names":30,"version":69},"objects":[{"class":"Palette","export":0,"path":"Palette0","size":1027},{"class":"Palette","export":1,"path":"Palette4","size":1027},{"class":"Palette","export":2,"path":"Palette2","size":1027},{"class":"Palette","export":3,"path":"Palette5","size":1027},{"class":"Palette","export":4,"path":"Palette6","size":1027},{"class":"Texture","export":5,"path":"checkers_abcd","size":87586},{"class":"Texture","export":6,"path":"checkers_circle","size":87586},{"class":"Texture","export":7,"path":"coordinates","size":87579},{"class":"Texture","export":8,"path":"rectangle_128x64","size":11103},{"class":"Texture","export":9,"path":"checkers_base","size":131393}]}"#]]
        .assert_eq(&tree.to_string());

    let preview = client
        .request_ok(
            "unrealLs/objectPreview",
            json!({ "uri": utx, "object": "CHECKERS_BASE", "maxSize": 32 }),
        )
        .await;
    assert_eq!(preview["kind"], "texture");
    let png = preview["pngBase64"].as_str().unwrap();
    // `iVBORw0KGgo` is the base64 of the PNG signature.
    assert!(png.starts_with("iVBORw0KGgo"), "{png}");
    expect_test::expect![[r#"{"class":"Texture","compressed":"7 DXT1 mips","format":"P8","height":256,"mips":9,"width":256}"#]]
        .assert_eq(&preview["summary"].to_string());

    let missing =
        client.request("unrealLs/objectPreview", json!({ "uri": utx, "object": "Nope" })).await;
    assert_eq!(missing["error"]["code"], -32602, "{missing}");
    let unreadable = client
        .request("unrealLs/packageTree", json!({ "uri": "file:///no/such/Package.utx" }))
        .await;
    assert_eq!(unreadable["error"]["code"], -32803, "{unreadable}");
    assert!(unreadable["error"]["message"].as_str().unwrap().contains("/no/such/Package.utx"));
    let malformed = client
        .request(
            "unrealLs/packageTree",
            json!({ "uri": file_uri(&dir.join("umx/malformed/libxmp_load_umx_invalid_objname.umx")) }),
        )
        .await;
    expect_test::expect![[
        r#""package header at byte 4: expected a package version from 50 to 128, found 37""#
    ]]
    .assert_eq(
        &json!(malformed["error"]["message"].as_str().unwrap().rsplit(".umx: ").next().unwrap())
            .to_string(),
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn indexing_reports_progress_then_hover_shows_the_texture() {
    let Some(dir) = corpus_packages() else { return };
    let mut client = TestClient::new(ServerOptions::default());
    client
        .initialize(
            json!({ "window": { "workDoneProgress": true } }),
            json!({ "gameDirectory": dir.display().to_string() }),
        )
        .await;
    let summary = indexed(&mut client).await;
    assert!(summary.starts_with("indexed 12 packages ("), "{summary}");
    // Let the progress end arrive (it is sent before the log line).
    let kinds: Vec<String> = client
        .received_with("$/progress")
        .iter()
        .map(|p| p["value"]["kind"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(kinds.first().map(String::as_str), Some("begin"), "{kinds:?}");
    assert_eq!(kinds.last().map(String::as_str), Some("end"), "{kinds:?}");
    assert!(kinds.iter().any(|k| k == "report"), "{kinds:?}");
    let created = client.received_with("window/workDoneProgress/create");
    assert_eq!(created.len(), 1);
    let begin = &client.received_with("$/progress")[0];
    assert_eq!(begin["token"], created[0]["token"]);
    assert_eq!(begin["value"]["title"], "Indexing packages");

    client.open(MAP_URI, "t3d", 1, &polygon("checkers_base")).await;
    let diagnostics = client.diagnostics_for(MAP_URI, Some(1)).await;
    assert_eq!(codes(&diagnostics), Vec::<String>::new());
    let hover = client
        .request_ok(
            "textDocument/hover",
            json!({ "textDocument": { "uri": MAP_URI }, "position": { "line": 5, "character": 35 } }),
        )
        .await;
    let markdown = hover["contents"]["value"].as_str().unwrap();
    let (text, image) = markdown.split_once("(data:image/png;base64,").expect("a thumbnail");
    assert!(image.starts_with("iVBORw0KGgo"), "{image}");
    let from = dir.join("utx/blender_t3d_Checkers.utx").display().to_string();
    expect_test::expect![[r#"
        **Texture** `checkers_base`

        bare name: UE1 exports write textures without their package; the editor finds the texture among the loaded packages

        from `FILE`
        - class: Texture
        - size: 256x256
        - format: P8
        - mips: 9
        - preview: ![checkers_base]"#]]
    .assert_eq(&text.replace(&from, "FILE"));

    // Go to definition on the texture opens the package that holds it.
    let definition = client
        .request_ok(
            "textDocument/definition",
            json!({ "textDocument": { "uri": MAP_URI }, "position": { "line": 5, "character": 35 } }),
        )
        .await;
    assert_eq!(definition["uri"], file_uri(&dir.join("utx/blender_t3d_Checkers.utx")));
    assert_eq!(definition["range"]["start"], json!({ "line": 0, "character": 0 }));

    // A misspelt texture: the nearest names, and the unsafe fix as a code action.
    let text = polygon("checkers_bsae");
    client.replace(MAP_URI, 2, &text).await;
    let diagnostics = client.diagnostics_for(MAP_URI, Some(2)).await;
    expect_test::expect![[r#"["t3d-unknown-texture texture `checkers_bsae` is in none of the indexed packages; cannot check: `Engine` and `Editor` not indexed (the engine's and UnrealEd's own objects live there); did you mean `checkers_base`, `checkers_abcd`?"]"#]]
        .assert_eq(&json!(codes(&diagnostics)).to_string());

    let completion = client
        .request_ok(
            "textDocument/completion",
            json!({ "textDocument": { "uri": MAP_URI }, "position": { "line": 5, "character": 33 } }),
        )
        .await;
    let items = completion.as_array().or_else(|| completion["items"].as_array()).unwrap();
    let labels: Vec<&str> = items.iter().filter_map(|i| i["label"].as_str()).collect();
    assert!(labels.contains(&"blender_t3d_Checkers.checkers_base"), "{labels:?}");
}

/// A texture package of empty textures, written by the formats crate's package writer.
fn texture_package(names: &[&str]) -> Vec<u8> {
    let mut w = writers::PackageWriter::new(69, 0);
    for name in names {
        let class = w.engine_class("Texture");
        w.export(class, 0, name, 0, Box::new(|_, _| {}));
    }
    w.finish()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn watched_package_changes_refresh_the_index() {
    let game = std::env::temp_dir().join(format!("unreal-ls-index-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&game);
    std::fs::create_dir_all(game.join("System")).unwrap();
    std::fs::create_dir_all(game.join("Textures")).unwrap();
    let package = game.join("Textures/Rocks.utx");
    std::fs::write(&package, texture_package(&["Granite"])).unwrap();

    let mut client = TestClient::new(ServerOptions::default());
    client.initialize(json!({}), json!({ "gameDirectory": game.display().to_string() })).await;
    indexed(&mut client).await;
    client.open(MAP_URI, "t3d", 1, &polygon("Marble")).await;
    let before = client.diagnostics_for(MAP_URI, Some(1)).await;
    expect_test::expect![[r#"["t3d-unknown-texture texture `Marble` is in none of the indexed packages; cannot check: `Engine` and `Editor` not indexed (the engine's and UnrealEd's own objects live there)"]"#]]
        .assert_eq(&json!(codes(&before)).to_string());

    std::fs::write(&package, texture_package(&["Granite", "Marble"])).unwrap();
    client
        .notify(
            "workspace/didChangeWatchedFiles",
            json!({ "changes": [{ "uri": file_uri(&package), "type": 2 }] }),
        )
        .await;
    loop {
        let params = client.next_notification("textDocument/publishDiagnostics").await;
        if params["uri"] == MAP_URI && codes(&params).is_empty() {
            break;
        }
    }
    // The log line and the new diagnostics go out from different tasks: either may come
    // first.
    let said = |client: &TestClient| {
        client
            .received_with("window/logMessage")
            .iter()
            .filter_map(|p| p["message"].as_str())
            .any(|m| m.starts_with("package index refreshed: 1 packages (2 objects)"))
    };
    while !said(&client) {
        client.next_notification("window/logMessage").await;
    }
    let _ = std::fs::remove_dir_all(&game);
}

/// A FIFO in the game folder (a `.utx` and a `.u` that are named pipes, with nobody writing)
/// does not stop the package index: it finishes, says which files it could not read, and the
/// real package beside them is indexed. Before, the index never finished.
#[cfg(unix)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fifo_in_the_game_folder_does_not_stop_the_index() {
    let game = std::env::temp_dir().join(format!("unreal-ls-index-fifo-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&game);
    std::fs::create_dir_all(game.join("System")).unwrap();
    std::fs::create_dir_all(game.join("Textures")).unwrap();
    std::fs::write(game.join("Textures/Rocks.utx"), texture_package(&["Granite"])).unwrap();
    for fifo in ["Textures/Pipe.utx", "System/Piped.u"] {
        let status = std::process::Command::new("mkfifo").arg(game.join(fifo)).status().unwrap();
        assert!(status.success());
    }
    let mut client = TestClient::new(ServerOptions::default());
    client.initialize(json!({}), json!({ "gameDirectory": game.display().to_string() })).await;
    // Within the client's hang guard: a hang fails here.
    let summary = indexed(&mut client).await;
    client.open(MAP_URI, "t3d", 1, &polygon("Granite")).await;
    let diagnostics = client.diagnostics_for(MAP_URI, Some(1)).await;
    // The warnings follow the summary on the indexing task, while the document opened after
    // the summary is checked at once: either may come first. Within the client's hang guard.
    let warned = |client: &TestClient, name: &str| {
        client
            .received_with("window/logMessage")
            .iter()
            .filter_map(|p| p["message"].as_str())
            .any(|m| m.contains(name) && m.contains("not a regular file"))
    };
    while !(warned(&client, "Pipe.utx") && warned(&client, "Piped.u")) {
        client.next_notification("window/logMessage").await;
    }
    let logs: Vec<String> = client
        .received_with("window/logMessage")
        .iter()
        .filter_map(|p| p["message"].as_str())
        .map(str::to_owned)
        .collect();
    let _ = std::fs::remove_dir_all(&game);
    println!("{summary}\n{logs:#?}");
    // The pipes are known by name only (as any unreadable package), each with its warning.
    assert!(summary.starts_with("indexed 3 packages (1 objects, "), "{summary}");
    for name in ["Pipe.utx", "Piped.u"] {
        assert!(
            logs.iter().any(|l| l.contains(name) && l.contains("not a regular file")),
            "{name}: {logs:#?}"
        );
    }
    assert_eq!(codes(&diagnostics), Vec::<String>::new());
}

/// A vertex mesh previews from either of its files, and when the package's class that imports
/// it sets `MESH ORIGIN`/`MESHMAP SCALE`, the rendering is the mesh as posed there.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn vertex_mesh_preview_from_either_file_posed_by_its_class() {
    use unreal_formats::vertex_mesh::pack_vertex;
    let package = std::env::temp_dir().join(format!("unreal-ls-pose-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&package);
    std::fs::create_dir_all(package.join("Models")).unwrap();
    let mut d = vec![0u8; 48];
    d[0..2].copy_from_slice(&1u16.to_le_bytes());
    d[2..4].copy_from_slice(&3u16.to_le_bytes());
    d.extend_from_slice(&[0, 0, 1, 0, 2, 0, 0, 0, 0, 0, 255, 0, 0, 255, 0, 0]);
    let mut a = Vec::new();
    a.extend_from_slice(&1u16.to_le_bytes());
    a.extend_from_slice(&12u16.to_le_bytes());
    for p in [[10.0, 0.0, 0.0], [0.0, 10.0, 0.0], [0.0, 0.0, 30.0]] {
        a.extend_from_slice(&pack_vertex(p).to_le_bytes());
    }
    std::fs::write(package.join("Models/Thing_d.3d"), d).unwrap();
    std::fs::write(package.join("Models/Thing_a.3d"), a).unwrap();

    let mut client = TestClient::new(ServerOptions::default());
    client.initialize(json!({}), Value::Null).await;
    let preview = |file: &str| json!({ "uri": file_uri(&package.join(file)), "maxSize": 32 });
    let from_data = client.request_ok("unrealLs/objectPreview", preview("Models/Thing_d.3d")).await;
    let from_anim = client.request_ok("unrealLs/objectPreview", preview("Models/Thing_a.3d")).await;
    assert_eq!(from_data["summary"], from_anim["summary"]);
    assert_eq!(from_data["summary"]["triangles"], 1, "{from_data}");
    let raw = from_data["pngBase64"].clone();
    assert!(raw.as_str().is_some_and(|u| u.starts_with("iVBORw0KGgo")), "{from_data}");
    assert_eq!(from_anim["pngBase64"], raw);

    std::fs::create_dir_all(package.join("Classes")).unwrap();
    std::fs::write(
        package.join("Classes/Thing.uc"),
        "class Thing extends Actor;\r\n\
#exec MESH IMPORT MESH=Thing ANIVFILE=MODELS\\Thing_a.3d DATAFILE=MODELS\\Thing_d.3d\r\n\
#exec MESH ORIGIN MESH=Thing YAW=64 ROLL=-64\r\n\
#exec MESHMAP SCALE MESHMAP=Thing X=0.1 Y=0.1 Z=0.2\r\n",
    )
    .unwrap();
    let posed = client.request_ok("unrealLs/objectPreview", preview("Models/Thing_d.3d")).await;
    assert_ne!(posed["pngBase64"], raw, "the class's pose changes the rendering");
    let _ = std::fs::remove_dir_all(&package);
}

/// `unrealLs/mapPreview`: the map's picture from the open document, with each shown actor's
/// `Begin Actor` line; an edit shows in the next picture.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn map_preview_follows_the_open_document() {
    let room = |extra: &str| {
        format!(
            "Begin Map\r\nBegin Actor Class=Brush Name=Brush1\r\n   CsgOper=CSG_Subtract\r\n   Begin Brush Name=Model1\r\n      Begin PolyList\r\n         Begin Polygon\r\n            Vertex   -00256.000000,-00256.000000,+00000.000000\r\n            Vertex   +00256.000000,-00256.000000,+00000.000000\r\n            Vertex   +00256.000000,+00256.000000,+00000.000000\r\n            Vertex   -00256.000000,+00256.000000,+00000.000000\r\n         End Polygon\r\n      End PolyList\r\n   End Brush\r\nEnd Actor\r\nBegin Actor Class=PlayerStart Name=PlayerStart0\r\n   Location=(X=-128.000000)\r\nEnd Actor\r\n{extra}End Map\r\n"
        )
    };
    let mut client = TestClient::new(ServerOptions::default());
    let init = client.initialize(json!({}), Value::Null).await;
    assert_eq!(init["capabilities"]["experimental"]["unrealLs"]["mapPreview"], true);
    client.open(MAP_URI, "t3d", 1, &room("")).await;
    let first =
        client.request_ok("unrealLs/mapPreview", json!({ "uri": MAP_URI, "maxSize": 128 })).await;
    assert!(first["pngBase64"].as_str().unwrap().starts_with("iVBORw0KGgo"));
    expect_test::expect![[r#"[{"class":"PlayerStart","kind":"PlayerStart","line":14,"name":"PlayerStart0","x":38.4,"y":64.0}]"#]].assert_eq(&first["actors"].to_string());

    let light =
        "Begin Actor Class=Light Name=Light0\r\n   Location=(X=128.000000)\r\nEnd Actor\r\n";
    client.replace(MAP_URI, 2, &room(light)).await;
    let second = client
        .request_ok("unrealLs/mapPreview", json!({ "uri": MAP_URI, "view": "iso", "maxSize": 128 }))
        .await;
    expect_test::expect![[r#"[{"class":"PlayerStart","kind":"PlayerStart","line":14,"name":"PlayerStart0","x":50.666668,"y":33.760677},{"class":"Light","kind":"Light","line":17,"name":"Light0","x":77.333336,"y":49.156685}]"#]].assert_eq(&second["actors"].to_string());
    let bad =
        client.request("unrealLs/mapPreview", json!({ "uri": MAP_URI, "view": "upside" })).await;
    assert_eq!(bad["error"]["code"], -32602, "{bad}");
}

/// A map made of mismatched blocks (100,000 actors never closed) is not read whole for a
/// picture or a 3D view: both requests fail at once naming the first mismatch's line and the
/// line where reading stops, as `render` and `export` do.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_map_of_mismatches_has_no_picture_or_3d_view() {
    let text =
        format!("Begin Map\r\n{}End Map\r\n", "Begin Actor Class=Light Name=L\r\n".repeat(100_000));
    let mut client = TestClient::new(ServerOptions::default());
    client.initialize(json!({}), Value::Null).await;
    client.open(MAP_URI, "t3d", 1, &text).await;
    for method in ["unrealLs/mapPreview", "unrealLs/levelScene"] {
        let answer = client.request(method, json!({ "uri": MAP_URI, "maxSize": 128 })).await;
        let message = answer["error"]["message"].as_str().unwrap_or_default();
        assert!(
            message.contains(
                "more than 10000 `Begin`/`End` lines do not pair up (the first on line 2), so reading stopped on line 10002"
            ),
            "{method}: {answer}"
        );
    }
}

/// A built map's `Level` object previews as the level the map stores, drawn from above within
/// `maxSize`, with its counts; below 64 pixels, the counts alone.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_built_maps_level_previews_as_its_stored_level() {
    let Some(dir) = corpus_packages() else { return };
    let unr = file_uri(&dir.join("unr/blender_t3d_test_map.unr"));
    let mut client = TestClient::new(ServerOptions::default());
    client.initialize(json!({}), Value::Null).await;
    let level =
        |max: u32| json!({ "uri": unr, "object": "MyLevel", "class": "Level", "maxSize": max });
    let preview = client.request_ok("unrealLs/objectPreview", level(256)).await;
    assert_eq!(preview["kind"], "summary", "{preview}");
    expect_test::expect![[
        r#"{"actors":16,"class":"Level","materials":6,"surfaces":276,"textured":0}"#
    ]]
    .assert_eq(&preview["summary"].to_string());
    let png = base64_decode(preview["pngBase64"].as_str().expect("a picture"));
    assert_eq!(png.get(1..4), Some(&b"PNG"[..]));
    let be = |i: usize| u32::from_be_bytes(png[i..i + 4].try_into().unwrap());
    let (width, height) = (be(16), be(20));
    assert!(width.max(height) == 256 && width.min(height) >= 64, "{width}x{height}");
    let small = client.request_ok("unrealLs/objectPreview", level(32)).await;
    assert_eq!(small["summary"], preview["summary"]);
    assert!(small.get("pngBase64").is_none(), "{small}");
}

/// The glTF document inside a `.glb`: its JSON chunk.
fn glb_json(glb: &[u8]) -> Value {
    assert_eq!(glb.get(..4), Some(&b"glTF"[..]), "not a .glb");
    let length = u32::from_le_bytes(glb[12..16].try_into().unwrap()) as usize;
    serde_json::from_slice(&glb[20..20 + length]).unwrap()
}

fn base64_decode(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        b'/' => 63,
        _ => panic!("not base64: {c}"),
    };
    let digits: Vec<u8> = text.bytes().filter(|c| *c != b'=').map(value).collect();
    let mut out = Vec::new();
    for chunk in digits.chunks(4) {
        let n = chunk.iter().enumerate().fold(0u32, |n, (i, d)| n | u32::from(*d) << (18 - 6 * i));
        out.extend(n.to_be_bytes()[1..chunk.len()].iter());
    }
    out
}

/// `unrealLs/levelScene`: the open document's built level as the `.glb` that `unreal-ls
/// export --to glb` writes, with each mesh's triangle runs mapped to their `Begin Polygon`
/// lines and each actor's `Begin Actor` line; a repeated request on the same version is
/// answered from the answer kept with the document (`reused`), an edit shows in the next
/// answer, text that builds nothing is a precise error, after which the server still
/// answers, and closing the document drops what was kept.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn level_scene_follows_the_open_document() {
    let fixture =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/vscode/fixtures/Overview.t3d");
    let room = std::fs::read_to_string(fixture).unwrap();
    let mut client = TestClient::new(ServerOptions::default());
    client.initialize(json!({}), Value::Null).await;
    client.open(MAP_URI, "t3d", 1, &room).await;
    let scene = client.request_ok("unrealLs/levelScene", json!({ "uri": MAP_URI })).await;
    let glb = base64_decode(scene["glbBase64"].as_str().unwrap());
    let exported = unreal_assets::export::write_level_glb(&unreal_assets::export::level_scene(
        "Checkers",
        &room,
        None,
        &unreal_assets::export::NoTextures,
    ));
    assert!(glb == exported, "the same .glb as the export");
    let document = glb_json(&glb);
    // The level's meshes, then the static meshes' (here the one box of a crate whose package
    // is not there), which the answer leaves to `placed`.
    assert_eq!(
        document["meshes"].as_array().unwrap().len(),
        scene["meshes"].as_array().unwrap().len() + 1
    );
    let nodes = document["nodes"].as_array().unwrap();
    let placed_group = nodes.iter().find(|n| n["name"] == "StaticMeshes").unwrap();
    assert_eq!(
        placed_group["children"].as_array().unwrap().len(),
        scene["placed"].as_array().unwrap().len()
    );
    let mut summary = scene.clone();
    summary["glbBase64"] = json!(glb.len());
    // The cube's six polygons (lines 10, 20, ... 60, 0-based 9..59), two triangles each; the
    // PlayerStart and the Light at their `Begin Actor` lines, in glTF axes (-Y, Z, X); the
    // static mesh actor placed (as a box, with the note saying why) at its line.
    expect_test::expect![[r#"{"actors":[{"class":"LevelInfo","light":false,"line":1,"name":"LevelInfo0","position":[0.0,0.0,0.0]},{"class":"PlayerStart","light":false,"line":72,"name":"PlayerStart0","position":[-256.0,-200.0,384.0]},{"class":"Light","light":true,"line":75,"name":"Light0","position":[-256.0,128.0,640.0]}],"brushes":1,"glbBase64":3396,"leftOut":0,"materials":1,"meshes":[{"firstTriangles":[0,2,4,6,8,10],"lines":[9,19,29,39,49,59],"name":"None"}],"name":"Checkers","notes":["no game folder or package path is set to read meshes from: 1 mesh not read, drawn as boxes of their actors' collision size (1 actor)"],"placed":[{"class":"StaticMeshActor","light":false,"line":80,"name":"StaticMeshActor0","position":[-128.0,-240.0,384.0]}],"reused":false,"surfaces":6,"textured":0}"#]]
        .assert_eq(&summary.to_string());

    // Asked again on the same version: the answer kept with the document, not built again.
    let kept = client.request_ok("unrealLs/levelScene", json!({ "uri": MAP_URI })).await;
    assert_eq!(kept["reused"], true);
    let mut unmarked = kept.clone();
    unmarked["reused"] = json!(false);
    assert!(unmarked == scene, "the kept answer is the first one");

    // The same map with the room's first polygon gone: five surfaces.
    let start = room.find("         Begin Polygon").unwrap();
    let end = room.find("End Polygon\r\n").unwrap() + "End Polygon\r\n".len();
    let edited = format!("{}{}", &room[..start], &room[end..]);
    client.replace(MAP_URI, 2, &edited).await;
    let second = client.request_ok("unrealLs/levelScene", json!({ "uri": MAP_URI })).await;
    assert_eq!(second["surfaces"], 5, "{}", second["meshes"]);
    assert_eq!(second["reused"], false, "a new version is built again");
    assert_eq!(second["meshes"][0]["lines"], json!([9, 19, 29, 39, 49]));

    // Nothing, and a brush cut off in its first polygon.
    let cut = "Begin Map\r\nBegin Actor Class=Brush Name=Brush1\r\n   CsgOper=CSG_Add\r\n   \
               Begin Brush Name=Model1\r\n      Begin PolyList\r\n         Begin Polygon\r\n            \
               Vertex   +00000.000000,+00000.000000,+00000.000000\r\n";
    for (version, text) in [(3, ""), (4, cut)] {
        client.replace(MAP_URI, version, text).await;
        let nothing = client.request("unrealLs/levelScene", json!({ "uri": MAP_URI })).await;
        assert_eq!(nothing["error"]["code"], -32803, "{nothing}");
        expect_test::expect!["Checkers: nothing to show: no brush that adds to or subtracts from the level, and no actor"]
            .assert_eq(nothing["error"]["message"].as_str().unwrap());
    }
    let bad = client.request("unrealLs/levelScene", json!({ "uri": "untitled:Untitled-1" })).await;
    assert_eq!(bad["error"]["code"], -32602, "{bad}");
    client.replace(MAP_URI, 5, &room).await;
    let again = client.request_ok("unrealLs/levelScene", json!({ "uri": MAP_URI })).await;
    assert_eq!(again["surfaces"], 6, "the server still answers");

    // Closing drops the kept answer: opened again at version 1, the level is built anew.
    client.notify("textDocument/didClose", json!({ "textDocument": { "uri": MAP_URI } })).await;
    client.open(MAP_URI, "t3d", 1, &room).await;
    let reopened = client.request_ok("unrealLs/levelScene", json!({ "uri": MAP_URI })).await;
    assert_eq!(
        (reopened["surfaces"].clone(), reopened["reused"].clone()),
        (json!(6), json!(false))
    );
    let kept = client.request_ok("unrealLs/levelScene", json!({ "uri": MAP_URI })).await;
    assert_eq!(kept["reused"], true);
}

/// A SkeletalMesh and a MeshAnimation sharing the path `AssaultRifle_1st` (as in UT2004's
/// `Weapons.ukx`): the tree gives each its export index, and the preview request selects by
/// index, by `Class'Path'` or by path and `class`; a bare shared path is the mesh (the one of
/// the two with a preview), never the animation.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn objects_sharing_a_path_are_previewed_by_index_or_class() {
    use writers::{write_props, PackageWriter};
    let dir = unreal_test_support::ScratchDir::new("lsp-shared");
    let mut w = PackageWriter::new(126, 29);
    let animation = w.engine_class("MeshAnimation");
    let mesh = w.engine_class("SkeletalMesh");
    // The animation reads (one bone, one sequence); the mesh's body is empty.
    let bones = vec![w.name("Bone_Root")];
    let sequences = vec![(w.name("Idle"), 10, 15.0f32)];
    w.export(
        animation,
        0,
        "AssaultRifle_1st",
        0,
        Box::new(move |o, w| {
            write_props(o, &[], w.none());
            writers::ue2_mesh_animation(o, &bones, &sequences, w.none(), 1);
        }),
    );
    w.export(mesh, 0, "AssaultRifle_1st", 0, Box::new(|o, w| write_props(o, &[], w.none())));
    std::fs::write(dir.join("Weapons.ukx"), w.finish()).unwrap();
    let ukx = file_uri(&dir.join("Weapons.ukx"));
    let mut client = TestClient::new(ServerOptions::default());
    client.initialize(json!({}), Value::Null).await;
    let tree = client.request_ok("unrealLs/packageTree", json!({ "uri": ukx })).await;
    expect_test::expect![[r#"[{"class":"MeshAnimation","export":0,"path":"AssaultRifle_1st","size":119},{"class":"SkeletalMesh","export":1,"path":"AssaultRifle_1st","size":1}]"#]]
        .assert_eq(&tree["objects"].to_string());
    let animation = client
        .request_ok(
            "unrealLs/objectPreview",
            json!({ "uri": ukx, "object": "AssaultRifle_1st", "export": 0 }),
        )
        .await;
    assert_eq!(animation["summary"]["class"], "MeshAnimation", "{animation}");
    assert_eq!(animation["summary"]["bones"], 1, "{animation}");
    assert_eq!(animation["summary"]["sequences"], "Idle (10 frames at 15 fps)", "{animation}");
    // The mesh's body is empty, so its preview fails: naming the mesh, not the animation.
    let message = |answer: &Value| answer["error"]["message"].as_str().unwrap_or("").to_owned();
    for params in [
        json!({ "uri": ukx, "export": 1 }),
        json!({ "uri": ukx, "object": "SkeletalMesh'AssaultRifle_1st'" }),
        json!({ "uri": ukx, "object": "AssaultRifle_1st", "class": "skeletalmesh" }),
        json!({ "uri": ukx, "object": "AssaultRifle_1st" }),
    ] {
        let answer = client.request("unrealLs/objectPreview", params.clone()).await;
        assert!(message(&answer).contains("SkeletalMesh'AssaultRifle_1st'"), "{params}: {answer}");
    }
    let wrong = client
        .request(
            "unrealLs/objectPreview",
            json!({ "uri": ukx, "object": "Sniper_1st", "export": 1 }),
        )
        .await;
    assert_eq!(wrong["error"]["code"], -32602, "{wrong}");
    let out_of_range =
        client.request("unrealLs/objectPreview", json!({ "uri": ukx, "export": 7 })).await;
    assert_eq!(out_of_range["error"]["code"], -32602, "{out_of_range}");
}

/// Without a game folder the server says once, on screen, that references are not checked:
/// to a client that offers to set the folder (`experimental.unrealLs.gameDirectoryMissing`)
/// as `unrealLs/gameDirectoryMissing`, to any other as `window/showMessage`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_a_game_folder_the_notice_goes_once_to_the_screen() {
    let mut client = TestClient::new(ServerOptions::default());
    let offers = json!({ "experimental": { "unrealLs": { "gameDirectoryMissing": true } } });
    client.initialize(offers, Value::Null).await;
    let notice = client.next_notification("unrealLs/gameDirectoryMissing").await;
    let message = notice["message"].as_str().unwrap();
    assert!(
        message.contains("not checked") && message.contains("unrealLs.gameDirectory"),
        "{message}"
    );
    // Settings that still name no game folder say nothing again.
    client
        .notify("workspace/didChangeConfiguration", json!({ "settings": { "unrealLs": {} } }))
        .await;
    client.open(MAP_URI, "t3d", 1, &polygon("Granite")).await;
    client.diagnostics_for(MAP_URI, Some(1)).await;
    assert_eq!(client.received_with("unrealLs/gameDirectoryMissing").len(), 1);
    assert!(client.received_with("window/showMessage").is_empty());

    let mut other = TestClient::new(ServerOptions::default());
    other.initialize(json!({}), Value::Null).await;
    let shown = other.next_notification("window/showMessage").await;
    assert_eq!(shown["type"], 3, "{shown}");
    assert_eq!(shown["message"], message);
    assert!(other.received_with("unrealLs/gameDirectoryMissing").is_empty());
}

/// Issue 30, item 2: a package cut short while the server previews it (what a UCC rebuild
/// does) killed the server with SIGBUS. Now each answer is the preview or an error naming
/// the file, and the server goes on answering. Bounded: 24 cuts at 0 to 69 ms, then one
/// more request on a whole copy.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_package_cut_short_during_a_preview_is_an_error_never_a_crash() {
    let Some(dir) = corpus_packages() else { return };
    let original = std::fs::read(dir.join("utx/blender_t3d_Checkers.utx")).unwrap();
    let work = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("lsp_package_cut");
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work).unwrap();
    let package = work.join("Checkers.utx");
    std::fs::write(&package, &original).unwrap();
    let uri = file_uri(&package);
    let mut client = TestClient::new(ServerOptions::default());
    client.initialize(json!({}), Value::Null).await;
    let (mut previewed, mut refused) = (0, 0);
    for round in 0..24u64 {
        // Padded to 32 MB, as a big package is: the cut takes away pages already mapped.
        let mut bytes = original.clone();
        bytes.resize(32 << 20, 0);
        std::fs::write(&package, &bytes).unwrap();
        let cut = {
            let package = package.clone();
            std::thread::spawn(move || {
                std::thread::sleep(std::time::Duration::from_millis(round * 3));
                std::fs::OpenOptions::new()
                    .write(true)
                    .open(&package)
                    .unwrap()
                    .set_len(2000)
                    .unwrap();
            })
        };
        let object = ["checkers_base", "coordinates", "checkers_abcd"][round as usize % 3];
        let answer = client
            .request(
                "unrealLs/objectPreview",
                json!({ "uri": uri, "object": object, "maxSize": 256 }),
            )
            .await;
        cut.join().unwrap();
        if answer["result"]["kind"] == "texture" {
            previewed += 1;
        } else {
            let message = answer["error"]["message"].as_str().unwrap_or_default();
            assert!(message.contains("Checkers.utx"), "{answer}");
            refused += 1;
        }
    }
    assert_eq!(previewed + refused, 24);
    std::fs::write(&package, &original).unwrap();
    let answer = client
        .request_ok(
            "unrealLs/objectPreview",
            json!({ "uri": uri, "object": "checkers_base", "maxSize": 32 }),
        )
        .await;
    assert_eq!(answer["kind"], "texture");
    eprintln!("{previewed} previewed before the cut, {refused} refused after it");
    let _ = std::fs::remove_dir_all(&work);
}

/// A compressed package previews as the package it holds: the tree of a `.uz` (UE1) and a
/// `.uz2` (UE2), an object's preview from either, and the file preview of a `.umod` (its
/// directory); a corrupt `.uz` is an error naming the file and the byte.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn compressed_packages_preview_as_the_packages_they_hold() {
    use unreal_test_support::containers;
    let dir = unreal_test_support::ScratchDir::new("lsp-uz");
    let package = writers::ue2_static_package(128, 29);
    std::fs::write(dir.join("Crates.usx.uz2"), containers::uz2(&package)).unwrap();
    std::fs::write(dir.join("Crates.usx.uz"), containers::uz1("Crates.usx", &package, false, 4096))
        .unwrap();
    let mut bad = containers::uz1("Crates.usx", &package, false, 4096);
    bad.truncate(bad.len() / 2);
    std::fs::write(dir.join("Bad.usx.uz"), bad).unwrap();
    std::fs::write(
        dir.join("Crates.umod"),
        containers::umod(&[("StaticMeshes\\Crates.usx", &package, 0)]),
    )
    .unwrap();
    let mut client = TestClient::new(ServerOptions::default());
    client.initialize(json!({}), Value::Null).await;
    for name in ["Crates.usx.uz2", "Crates.usx.uz"] {
        let uri = file_uri(&dir.join(name));
        let tree = client.request_ok("unrealLs/packageTree", json!({ "uri": uri })).await;
        let paths: Vec<String> = tree["objects"]
            .as_array()
            .unwrap()
            .iter()
            .map(|o| format!("{} {}", o["class"].as_str().unwrap(), o["path"].as_str().unwrap()))
            .collect();
        assert_eq!(
            paths.join(", "),
            "Package Meshes, StaticMesh Meshes.Crate, Texture Wood, Shader WoodShader, FinalBlend WoodBlend",
            "{name}"
        );
        let wood = client
            .request_ok("unrealLs/objectPreview", json!({ "uri": uri, "object": "Crates.Wood" }))
            .await;
        assert_eq!(wood["kind"], "texture", "{name}: {wood}");
        assert_eq!(wood["summary"]["width"], 2, "{name}: {wood}");
    }
    let umod = client
        .request_ok("unrealLs/objectPreview", json!({ "uri": file_uri(&dir.join("Crates.umod")) }))
        .await;
    assert_eq!(umod["summary"]["kind"], "umod", "{umod}");
    let bad = client
        .request("unrealLs/packageTree", json!({ "uri": file_uri(&dir.join("Bad.usx.uz")) }))
        .await;
    let message = bad["error"]["message"].as_str().unwrap_or_default();
    assert!(message.contains("Bad.usx.uz: uz Huffman stream at byte"), "{bad}");
}

/// Any asset one search away: `workspace/symbol` lists the game folder's textures, sounds,
/// meshes and classes matching a fragment (after the open documents' actors), as
/// `Package.Group.Name` with class and file; `unrealLs/findAssets` gives the same hits with
/// the path and export index a preview takes; a changed package is found after the refresh.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn workspace_symbol_and_find_assets_search_every_package() {
    use unreal_test_support::containers;
    let game = unreal_test_support::ScratchDir::new("find");
    for folder in ["System", "Textures", "Sounds"] {
        std::fs::create_dir_all(game.join(folder)).unwrap();
    }
    std::fs::write(game.join("System/Engine.u"), writers::object_package(&[("Class", "Actor")]))
        .unwrap();
    let rocks = writers::object_package(&[
        ("Texture", "Walls.Granite"),
        ("Texture", "Walls.GraniteDark"),
        ("Texture", "Floors.Marble"),
    ]);
    std::fs::write(
        game.join("Textures/Rocks.utx.uz"),
        containers::uz1("Rocks.utx", &rocks, false, 0x40000),
    )
    .unwrap();
    std::fs::write(
        game.join("Sounds/Quarry.uax"),
        writers::object_package(&[("Sound", "GraniteCrack")]),
    )
    .unwrap();
    let mut client = TestClient::new(ServerOptions::default());
    let init =
        client.initialize(json!({}), json!({ "gameDirectory": game.display().to_string() })).await;
    assert_eq!(init["capabilities"]["experimental"]["unrealLs"]["findAssets"], true, "{init}");
    let summary = indexed(&mut client).await;
    // 7 objects: two groups of Rocks are not assets.
    assert!(summary.contains("(7 objects, 5 assets to find)"), "{summary}");
    let symbols = client.request_ok("workspace/symbol", json!({ "query": "granit" })).await;
    let listed: Vec<String> = symbols
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            let file =
                s["location"]["uri"].as_str().unwrap().rsplit('/').next().unwrap().to_owned();
            format!(
                "{} kind {} ({}) {file}",
                s["name"],
                s["kind"],
                s["containerName"].as_str().unwrap()
            )
        })
        .collect();
    expect_test::expect![[r#"
        "Rocks.Walls.Granite" kind 1 (Texture in Rocks.utx.uz) Rocks.utx.uz
        "Rocks.Walls.GraniteDark" kind 1 (Texture in Rocks.utx.uz) Rocks.utx.uz
        "Quarry.GraniteCrack" kind 24 (Sound in Quarry.uax) Quarry.uax"#]]
    .assert_eq(&listed.join("\n"));
    let found = client
        .request_ok("unrealLs/findAssets", json!({ "query": "walls.granite", "limit": 1 }))
        .await;
    let asset = &found["assets"][0];
    assert_eq!(found["assets"].as_array().unwrap().len(), 1, "{found}");
    expect_test::expect![[
        r#""Rocks.Walls.Granite" "Rocks" "Walls.Granite" "Texture" "texture" 1"#
    ]]
    .assert_eq(&format!(
        "{} {} {} {} {} {}",
        asset["name"],
        asset["package"],
        asset["path"],
        asset["class"],
        asset["kind"],
        asset["export"]
    ));
    // The hit opens: its preview request answers with the texture.
    let preview = client
        .request(
            "unrealLs/objectPreview",
            json!({ "uri": asset["uri"], "object": asset["path"], "export": asset["export"] }),
        )
        .await;
    assert!(
        preview["error"]["message"].as_str().unwrap_or_default().contains("Walls.Granite"),
        "{preview}"
    );
    // A package changes: the new texture is found once the index is refreshed.
    let quarry = game.join("Sounds/Quarry.uax");
    std::fs::write(
        &quarry,
        writers::object_package(&[("Sound", "GraniteCrack"), ("Sound", "GraniteSlide")]),
    )
    .unwrap();
    client
        .notify(
            "workspace/didChangeWatchedFiles",
            json!({ "changes": [{ "uri": file_uri(&quarry), "type": 2 }] }),
        )
        .await;
    loop {
        let params = client.next_notification("window/logMessage").await;
        if params["message"].as_str().unwrap_or_default().starts_with("package index refreshed") {
            break;
        }
    }
    let slide = client.request_ok("unrealLs/findAssets", json!({ "query": "graniteslide" })).await;
    assert_eq!(slide["assets"][0]["name"], "Quarry.GraniteSlide", "{slide}");
    let _ = std::fs::remove_dir_all(&game);
}

/// `unrealLs.mapDependencies`: the open map's packages as the editor holds the text, placed
/// (the game folder, missing), with what it names in them; a map under no game folder gets
/// what it names, not checked.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn map_dependencies_of_the_open_map() {
    let game = unreal_test_support::ScratchDir::new("map-deps");
    for folder in ["System", "Textures", "Maps"] {
        std::fs::create_dir_all(game.join(folder)).unwrap();
    }
    std::fs::write(game.join("System/Engine.u"), writers::object_package(&[("Class", "Actor")]))
        .unwrap();
    std::fs::write(game.join("Textures/Rocks.utx"), texture_package(&["Granite"])).unwrap();
    let map = game.join("Maps/Quarry.t3d");
    std::fs::write(&map, polygon("Marble")).unwrap();
    let uri = file_uri(&map);
    let mut client = TestClient::new(ServerOptions::default());
    client.initialize(json!({}), json!({ "gameDirectory": game.display().to_string() })).await;
    indexed(&mut client).await;
    // The editor's text, not the file's: the polygon now names Granite, and a sound.
    let text = polygon("Granite").replace(
        "Begin Actor Class=Brush Name=Brush0\r\n",
        "Begin Actor Class=Brush Name=Brush0\r\n   AmbientSound=Sound'Wind.Howl'\r\n",
    );
    client.open(&uri, "t3d", 1, &text).await;
    let answer = client
        .request_ok(
            "workspace/executeCommand",
            json!({ "command": "unrealLs.mapDependencies", "arguments": [uri] }),
        )
        .await;
    let packages: Vec<String> = answer["packages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let names: Vec<String> = p["found"]
                .as_array()
                .unwrap()
                .iter()
                .chain(p["missing"].as_array().unwrap())
                .map(|u| format!("{} {}", u["kind"].as_str().unwrap(), u["name"].as_str().unwrap()))
                .collect();
            format!(
                "{} ({}): {}",
                p["name"].as_str().unwrap(),
                p["place"].as_str().unwrap(),
                names.join(", ")
            )
        })
        .collect();
    assert_eq!(
        packages,
        ["Rocks (game folder): texture Granite", "Wind (missing): object Wind.Howl"],
        "{answer:#}"
    );
    assert_eq!(answer["missing"], true);

    // Without a game folder (no setting, none around the file) there is nothing to resolve
    // against: what the map names is listed, none of it checked, and the answer says why,
    // for the client to offer choosing a game folder.
    let mut bare = TestClient::new(ServerOptions::default());
    bare.initialize(json!({}), json!({})).await;
    let elsewhere = "file:///nowhere/Lost.t3d";
    bare.open(elsewhere, "t3d", 1, &polygon("Granite")).await;
    let listed = bare
        .request_ok(
            "workspace/executeCommand",
            json!({ "command": "unrealLs.mapDependencies", "arguments": [elsewhere] }),
        )
        .await;
    assert_eq!(listed["unchecked_reason"], "no-game-folder", "{listed:#}");
    let names: Vec<&str> =
        listed["unchecked"].as_array().unwrap().iter().filter_map(|u| u["name"].as_str()).collect();
    assert_eq!(names, ["Brush", "Granite"], "{listed:#}");
    assert_eq!(listed["packages"], json!([]));
    assert_eq!(listed["missing"], false);
}

/// Issue 42, item 4: the mod repository `lint` checks without an installation
/// (`tests/fixtures/mod-repo`), opened as the workspace folder: its classes are known from
/// its sources, and the map gets the finding `lint` gives it (the abstract `MyBase`), no
/// more: the references are not checked without a game folder, which the server says once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_mod_repository_as_workspace_folder_knows_its_classes() {
    let repo = std::fs::canonicalize(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/mod-repo"),
    )
    .unwrap();
    let map = repo.join("Maps/Test.t3d");
    let uri = file_uri(&map);
    let mut client = TestClient::new(ServerOptions::default());
    client.initialize_in(&file_uri(&repo), json!({}), json!({})).await;
    let shown = client.next_notification("window/showMessage").await;
    assert!(shown["message"].as_str().unwrap().starts_with("no game folder found"), "{shown}");
    let summary = indexed(&mut client).await;
    assert!(
        summary.starts_with(
            "indexed 0 packages (0 objects, 0 assets to find) and 3 classes declared in sources"
        ),
        "{summary}"
    );
    client.open(&uri, "t3d", 1, &std::fs::read_to_string(&map).unwrap()).await;
    let diagnostics = client.diagnostics_for(&uri, Some(1)).await;
    let found = codes(&diagnostics);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert!(
        found[0].starts_with("t3d-abstract-class class `MyBase` is abstract (declared in ")
            && found[0].contains(&repo.join("MyMod/Classes/MyBase.uc").display().to_string()),
        "{found:#?}"
    );
    assert_eq!(
        diagnostics["diagnostics"][0]["range"]["start"],
        json!({ "line": 26, "character": 18 })
    );
}

/// A workspace without a game folder and, at first, without a class: the map is checked as
/// before (no index). The first class saved (`didChangeWatchedFiles`) makes the classes
/// known; a later save that drops `abstract` takes the finding away.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_class_saved_in_the_workspace_is_known_at_once() {
    let repo = unreal_test_support::ScratchDir::new("lsp-mod-repo");
    std::fs::create_dir_all(repo.join("Maps")).unwrap();
    let map = repo.join("Maps/Test.t3d");
    let text = "Begin Map\r\nBegin Actor Class=LevelInfo Name=LevelInfo0\r\n    Title=\"T\"\r\nEnd Actor\r\n\
                Begin Actor Class=MyBase Name=MyBase0\r\nEnd Actor\r\nEnd Map\r\n";
    std::fs::write(&map, text).unwrap();
    let uri = file_uri(&map);
    let mut client = TestClient::new(ServerOptions::default());
    client.initialize_in(&file_uri(repo.path()), json!({}), json!({})).await;
    client.open(&uri, "t3d", 1, text).await;
    assert_eq!(codes(&client.diagnostics_for(&uri, Some(1)).await), Vec::<String>::new());

    let class = repo.join("MyMod/Classes/MyBase.uc");
    std::fs::create_dir_all(class.parent().unwrap()).unwrap();
    for (source, abstract_found) in
        [("class MyBase extends Actor abstract;", true), ("class MyBase extends Actor;", false)]
    {
        std::fs::write(&class, source).unwrap();
        client
            .notify(
                "workspace/didChangeWatchedFiles",
                json!({ "changes": [{ "uri": file_uri(&class), "type": 1 }] }),
            )
            .await;
        // The map is checked again with what the save made known (published for version 1).
        loop {
            let params = client.diagnostics_for(&uri, Some(1)).await;
            let found = codes(&params).iter().any(|c| c.starts_with("t3d-abstract-class "));
            if found == abstract_found {
                break;
            }
        }
    }
}

/// A bare `Texture=` name one package of the game folder holds: the code actions write it out
/// with its package, on the polygon at the cursor or on every polygon that names it; a name
/// no package holds gets none.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bare_texture_names_are_qualified_by_a_code_action() {
    let game = std::env::temp_dir().join(format!("unreal-ls-textures-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&game);
    std::fs::create_dir_all(game.join("System")).unwrap();
    std::fs::create_dir_all(game.join("Textures")).unwrap();
    std::fs::write(game.join("Textures/Rocks.utx"), texture_package(&["Granite"])).unwrap();

    let mut client = TestClient::new(ServerOptions::default());
    client.initialize(json!({}), json!({ "gameDirectory": game.display().to_string() })).await;
    indexed(&mut client).await;
    // Two polygons name `Granite`: the map of `polygon` with a second brush appended.
    let map = polygon("Granite").replace("End Map\r\n", "") + &polygon("Granite")[11..];
    client.open(MAP_URI, "t3d", 1, &map).await;
    client.diagnostics_for(MAP_URI, Some(1)).await;
    let actions = client
        .request_ok(
            "textDocument/codeAction",
            json!({
                "textDocument": { "uri": MAP_URI },
                "range": { "start": { "line": 5, "character": 12 }, "end": { "line": 5, "character": 12 } },
                "context": { "diagnostics": [] },
            }),
        )
        .await;
    let titles: Vec<&str> = actions
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|a| a["title"].as_str())
        .filter(|t| t.starts_with("Write"))
        .collect();
    expect_test::expect![[r#"["Write `Rocks.Granite` (the one package that holds `Granite`)","Write `Rocks.Granite` on all 2 polygons"]"#]]
        .assert_eq(&json!(titles).to_string());
    let every = actions
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["title"] == "Write `Rocks.Granite` on all 2 polygons")
        .unwrap();
    let edits = every["edit"]["changes"][MAP_URI].as_array().unwrap();
    assert_eq!(edits.len(), 2);
    assert!(edits.iter().all(|e| e["newText"] == "Rocks.Granite"));
    let _ = std::fs::remove_dir_all(&game);
}

/// A texture no package holds: a client that lets the user pick one (it announces
/// `experimental.unrealLs.pickTexture`) gets the action that runs its `unrealLs.pickTexture`
/// command; `unrealLs.replaceTexture` then gives the edit of every polygon; a client without
/// that capability gets no such action.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_missing_texture_is_replaced_by_one_the_user_picks() {
    let game = std::env::temp_dir().join(format!("unreal-ls-pick-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&game);
    std::fs::create_dir_all(game.join("System")).unwrap();
    std::fs::create_dir_all(game.join("Textures")).unwrap();
    std::fs::write(game.join("Textures/Rocks.utx"), texture_package(&["Granite"])).unwrap();
    let map = polygon("Marble").replace("End Map\r\n", "") + &polygon("marble")[11..];
    let at_cursor = json!({
        "textDocument": { "uri": MAP_URI },
        "range": { "start": { "line": 5, "character": 12 }, "end": { "line": 5, "character": 12 } },
        "context": { "diagnostics": [] },
    });
    let picks = |actions: &Value| -> Vec<Value> {
        actions
            .as_array()
            .unwrap()
            .iter()
            .filter(|a| a["command"]["command"] == "unrealLs.pickTexture")
            .cloned()
            .collect()
    };

    let mut client = TestClient::new(ServerOptions::default());
    let capabilities = json!({ "experimental": { "unrealLs": { "pickTexture": true } } });
    client.initialize(capabilities, json!({ "gameDirectory": game.display().to_string() })).await;
    indexed(&mut client).await;
    client.open(MAP_URI, "t3d", 1, &map).await;
    client.diagnostics_for(MAP_URI, Some(1)).await;
    let actions = client.request_ok("textDocument/codeAction", at_cursor.clone()).await;
    let found = picks(&actions);
    assert_eq!(found.len(), 1, "{actions}");
    assert_eq!(found[0]["command"]["arguments"], json!([MAP_URI, "Marble"]));
    let edit = client
        .request_ok(
            "workspace/executeCommand",
            json!({ "command": "unrealLs.replaceTexture", "arguments": [MAP_URI, "Marble", "Rocks.Granite"] }),
        )
        .await;
    let edits = edit["changes"][MAP_URI].as_array().unwrap();
    assert_eq!(edits.len(), 2, "{edit}");
    assert!(edits.iter().all(|e| e["newText"] == "Rocks.Granite"));
    let refused = client
        .request(
            "workspace/executeCommand",
            json!({ "command": "unrealLs.replaceTexture", "arguments": [MAP_URI, "Marble", "Rocks.Nothing"] }),
        )
        .await;
    assert!(refused["error"]["message"].as_str().unwrap().contains("Rocks.Nothing"), "{refused}");

    let mut plain = TestClient::new(ServerOptions::default());
    plain.initialize(json!({}), json!({ "gameDirectory": game.display().to_string() })).await;
    indexed(&mut plain).await;
    plain.open(MAP_URI, "t3d", 1, &map).await;
    plain.diagnostics_for(MAP_URI, Some(1)).await;
    let actions = plain.request_ok("textDocument/codeAction", at_cursor).await;
    assert!(picks(&actions).is_empty(), "{actions}");
    let _ = std::fs::remove_dir_all(&game);
}

/// `unrealLs/execLines` on the corpus' LodMesh `dogTag` (KillConfirmed, export 220): the lines
/// `unreal-ls exec-lines` prints, by export index and by name, and its files, the pair reading
/// back as the author's mesh; a texture, an export that is not there and a file that is not
/// there are precise errors, and the server still answers after them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn exec_lines_of_a_corpus_vertex_mesh() {
    let Some(dir) = corpus_packages() else { return };
    let u = file_uri(&dir.join("u/Ut99Mods_KillConfirmed.u"));
    let mut client = TestClient::new(ServerOptions::default());
    client.initialize(json!({}), Value::Null).await;
    let by_export =
        client.request_ok("unrealLs/execLines", json!({ "uri": u, "export": 220 })).await;
    expect_test::expect![[r#"
        #exec MESH IMPORT MESH=dogTag ANIVFILE=Models\dogTag_a.3d DATAFILE=Models\dogTag_d.3d
        // LODSTYLE, LODFRAME and LODNOTEX steer the LOD build and are not stored in the package: add the ones first used
        #exec MESH LODPARAMS MESH=dogTag STRENGTH=0 MINVERTS=10 MORPH=0.3 HYSTERESIS=0 ZDISP=0
        #exec MESH ORIGIN MESH=dogTag X=0 Y=0 Z=0 YAW=0 PITCH=0 ROLL=0
        #exec MESHMAP SCALE MESHMAP=dogTag X=0.2 Y=0.2 Z=0.4
        #exec TEXTURE IMPORT NAME=DogTags FILE=Textures\DogTags\DogTags.bmp GROUP=DogTags FLAGS=2 MIPS=OFF
        #exec MESHMAP SETTEXTURE MESHMAP=dogTag NUM=1 TEXTURE=DogTags
    "#]]
    .assert_eq(
        &by_export["lines"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| format!("{}\n", l.as_str().unwrap()))
            .collect::<String>(),
    );
    let by_name = client
        .request_ok("unrealLs/execLines", json!({ "uri": u, "object": "LodMesh'DOGTAG'" }))
        .await;
    assert_eq!(by_name, by_export);
    let files = by_export["files"].as_array().unwrap();
    let paths: Vec<&str> = files.iter().map(|f| f["path"].as_str().unwrap()).collect();
    assert_eq!(
        paths,
        ["Models\\dogTag_d.3d", "Models\\dogTag_a.3d", "Textures\\DogTags\\DogTags.bmp"],
        "{by_export}"
    );
    let d = base64_decode(files[0]["data"].as_str().unwrap());
    let a = base64_decode(files[1]["data"].as_str().unwrap());
    let mesh = unreal_formats::vertex_mesh::VertexMesh::parse(&d, &a).unwrap();
    assert_eq!((mesh.data.polygons, mesh.data.vertices, mesh.aniv.frames), (250, 123, 30));
    let bmp = base64_decode(files[2]["data"].as_str().unwrap());
    assert_eq!(bmp.get(..2), Some(&b"BM"[..]));

    let texture = client
        .request("unrealLs/execLines", json!({ "uri": u, "object": "DogTags.DogTags" }))
        .await;
    assert_eq!(texture["error"]["code"], -32602, "{texture}");
    let message = texture["error"]["message"].as_str().unwrap();
    assert!(
        message.ends_with(
            "Ut99Mods_KillConfirmed.u: Texture'DogTags.DogTags' is a Texture: the #exec block is \
             written for a vertex mesh (Mesh or LodMesh)"
        ),
        "{message}"
    );
    let beyond = client.request("unrealLs/execLines", json!({ "uri": u, "export": 99999 })).await;
    assert_eq!(beyond["error"]["code"], -32602, "{beyond}");
    let unnamed = client.request("unrealLs/execLines", json!({ "uri": u })).await;
    assert_eq!(unnamed["error"]["code"], -32602, "{unnamed}");
    let missing = client
        .request("unrealLs/execLines", json!({ "uri": "file:///no/such/Mod.u", "object": "M" }))
        .await;
    assert_eq!(missing["error"]["code"], -32803, "{missing}");
    assert!(missing["error"]["message"].as_str().unwrap().contains("/no/such/Mod.u"));
    // Still answering.
    let again = client.request_ok("unrealLs/execLines", json!({ "uri": u, "export": 220 })).await;
    assert_eq!(again, by_export);
}

/// The text after `edits` (LSP `TextEdit`s on an ASCII text, any line endings).
fn apply_edits(text: &str, edits: &[&Value]) -> String {
    let mut starts = vec![0];
    for (i, c) in text.char_indices() {
        if c == '\n' || (c == '\r' && !text[i + 1..].starts_with('\n')) {
            starts.push(i + 1);
        }
    }
    let offset = |p: &Value| {
        starts[p["line"].as_u64().unwrap() as usize] + p["character"].as_u64().unwrap() as usize
    };
    let mut spans: Vec<(usize, usize, &str)> = edits
        .iter()
        .map(|e| {
            (
                offset(&e["range"]["start"]),
                offset(&e["range"]["end"]),
                e["newText"].as_str().unwrap(),
            )
        })
        .collect();
    spans.sort_by_key(|s| std::cmp::Reverse(s.0));
    let mut out = text.to_owned();
    for (start, end, new) in spans {
        out.replace_range(start..end, new);
    }
    out
}

/// Completion of a whole `#exec` block on a class's `#exec` line, from a game folder holding
/// the corpus' KillConfirmed.u (its LodMesh `dogTag`) and a package of 60 more meshes known by
/// their export table alone: one item per vertex mesh, at most 50 (`isIncomplete`), narrowed
/// by the name typed after `MESH IMPORT`; an item writes `MESH IMPORT`, and resolving it reads
/// the mesh for the other lines, inserted below with the line's indentation and the
/// document's line endings (or after the last line, when the document ends there). A mesh
/// that cannot be read says why, with no edit.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_exec_line_completes_the_block_of_a_package_mesh() {
    let Some(dir) = corpus_packages() else { return };
    let game = unreal_test_support::ScratchDir::new("exec-blocks");
    std::fs::create_dir_all(game.join("System")).unwrap();
    std::fs::copy(dir.join("u/Ut99Mods_KillConfirmed.u"), game.join("System/KillConfirmed.u"))
        .unwrap();
    let names: Vec<String> = (0..60).map(|i| format!("Gem{i:02}")).collect();
    let mut objects: Vec<(&str, &str)> = names.iter().map(|n| ("LodMesh", n.as_str())).collect();
    objects.push(("Mesh", "Rock"));
    objects.push(("SkeletalMesh", "Dogfish"));
    std::fs::write(game.join("System/Gems.u"), writers::object_package(&objects)).unwrap();
    let mut client = TestClient::new(ServerOptions::default());
    client.initialize(json!({}), json!({ "gameDirectory": game.display().to_string() })).await;
    indexed(&mut client).await;
    let uri = file_uri(&game.join("MyMod/Classes/Tags.uc"));
    let text = "class Tags extends Actor;\r\n\r\n  #exec \r\nvar int X;\r\n";
    client.open(&uri, "unrealscript", 1, text).await;
    let complete = |line: u32, character: u32| json!({ "textDocument": { "uri": uri }, "position": { "line": line, "character": character } });

    let list = client.request_ok("textDocument/completion", complete(2, 8)).await;
    assert_eq!(list["isIncomplete"], true, "{list}");
    let items = list["items"].as_array().unwrap();
    let blocks: Vec<&Value> =
        items.iter().filter(|i| i["label"].as_str().unwrap().starts_with("MESH IMPORT ")).collect();
    assert_eq!(blocks.len(), 50);
    // The core's command words come first.
    assert!(items[0]["label"].as_str().unwrap().chars().all(|c| c.is_ascii_uppercase()));
    let dog = blocks.iter().find(|i| i["label"] == "MESH IMPORT dogTag").expect("dogTag listed");
    assert_eq!(dog["detail"], "KillConfirmed");
    expect_test::expect![[r#"{"newText":"MESH IMPORT MESH=dogTag ANIVFILE=Models\\dogTag_a.3d DATAFILE=Models\\dogTag_d.3d","range":{"end":{"character":8,"line":2},"start":{"character":8,"line":2}}}"#]]
        .assert_eq(&dog["textEdit"].to_string());
    assert!(dog.get("additionalTextEdits").is_none());

    let resolved = client.request_ok("completionItem/resolve", (*dog).clone()).await;
    let mut edits = vec![&resolved["textEdit"]];
    let additional = resolved["additionalTextEdits"].as_array().unwrap();
    edits.extend(additional);
    expect_test::expect![[r#"
        class Tags extends Actor;

          #exec MESH IMPORT MESH=dogTag ANIVFILE=Models\dogTag_a.3d DATAFILE=Models\dogTag_d.3d
          // LODSTYLE, LODFRAME and LODNOTEX steer the LOD build and are not stored in the package: add the ones first used
          #exec MESH LODPARAMS MESH=dogTag STRENGTH=0 MINVERTS=10 MORPH=0.3 HYSTERESIS=0 ZDISP=0
          #exec MESH ORIGIN MESH=dogTag X=0 Y=0 Z=0 YAW=0 PITCH=0 ROLL=0
          #exec MESHMAP SCALE MESHMAP=dogTag X=0.2 Y=0.2 Z=0.4
          #exec TEXTURE IMPORT NAME=DogTags FILE=Textures\DogTags\DogTags.bmp GROUP=DogTags FLAGS=2 MIPS=OFF
          #exec MESHMAP SETTEXTURE MESHMAP=dogTag NUM=1 TEXTURE=DogTags
        var int X;
    "#]]
    .assert_eq(&apply_edits(text, &edits).replace("\r\n", "\n"));
    // Every line break is the document's CRLF.
    assert!(!apply_edits(text, &edits).replace("\r\n", "").contains('\n'));
    let documentation = resolved["documentation"]["value"].as_str().unwrap();
    assert!(documentation.contains("#exec MESH ORIGIN MESH=dogTag"), "{documentation}");

    // Typing the name narrows the list; the skeletal mesh is never offered.
    let typed = "class Tags extends Actor;\n#exec MESH IMPORT dog";
    client.replace(&uri, 2, typed).await;
    let narrowed = client.request_ok("textDocument/completion", complete(1, 21)).await;
    // (After the core's keys of `MESH IMPORT`.)
    let blocks: Vec<&Value> = narrowed
        .as_array()
        .unwrap()
        .iter()
        .filter(|i| i["label"].as_str().unwrap().starts_with("MESH IMPORT "))
        .collect();
    let labels: Vec<&str> = blocks.iter().map(|i| i["label"].as_str().unwrap()).collect();
    assert_eq!(labels, ["MESH IMPORT dogTag"]);
    let item = blocks[0];
    assert_eq!(item["textEdit"]["range"]["start"], json!({ "line": 1, "character": 6 }));
    // The document's last line: the other lines go after it, each after an LF.
    let resolved = client.request_ok("completionItem/resolve", item.clone()).await;
    let edits: Vec<&Value> = std::iter::once(&resolved["textEdit"])
        .chain(resolved["additionalTextEdits"].as_array().unwrap())
        .collect();
    let written = apply_edits(typed, &edits);
    assert!(
        written.ends_with(
            "\n#exec MESHMAP SCALE MESHMAP=dogTag X=0.2 Y=0.2 Z=0.4\n#exec TEXTURE IMPORT NAME=DogTags FILE=Textures\\DogTags\\DogTags.bmp GROUP=DogTags FLAGS=2 MIPS=OFF\n#exec MESHMAP SETTEXTURE MESHMAP=dogTag NUM=1 TEXTURE=DogTags"
        ),
        "{written}"
    );

    // A plain Mesh writes MLOD=0; one whose data cannot be read says why, with no edit.
    let rock = "#exec MESH IMPORT Ro";
    client.replace(&uri, 3, rock).await;
    let list = client.request_ok("textDocument/completion", complete(0, 20)).await;
    let item = list.as_array().unwrap().iter().find(|i| i["label"] == "MESH IMPORT Rock").unwrap();
    assert!(item["textEdit"]["newText"].as_str().unwrap().ends_with(" MLOD=0"), "{item}");
    let resolved = client.request_ok("completionItem/resolve", item.clone()).await;
    assert!(resolved.get("additionalTextEdits").is_none(), "{resolved}");
    let why = resolved["documentation"]["value"].as_str().unwrap();
    assert!(why.contains("Gems.u"), "{why}");

    // Not a command word: no blocks.
    let other = "#exec TEXTURE ";
    client.replace(&uri, 4, other).await;
    let list = client.request_ok("textDocument/completion", complete(0, 14)).await;
    let items = list.as_array().or_else(|| list["items"].as_array()).unwrap();
    assert!(items.iter().all(|i| !i["label"].as_str().unwrap().starts_with("MESH IMPORT")));
}
