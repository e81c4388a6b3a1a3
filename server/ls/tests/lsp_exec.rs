//! In-process protocol tests of the `.uc` editor features: a package folder written to a
//! temporary directory (two classes, a vertex mesh), each request through the real server
//! as JSON-RPC, its answer compared with a snapshot. Paths in answers are shown relative to
//! the temporary folder.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::needless_raw_string_hashes)]

mod lsp_client;

use std::path::PathBuf;

use expect_test::{expect, Expect};
use lsp_client::TestClient;
use serde_json::{json, Value};
use unreal_ls::lsp::ServerOptions;

const SKULL: &str = "class Skull extends Decoration;\n\
\n\
#exec MESH IMPORT MESH=Skull ANIVFILE=Models\\Skull_a.3d DATAFILE=MODELS\\Skull_d.3d X=0 Y=0 Z=0\n\
#exec MESH SEQUENCE MESH=Skull SEQ=All STARTFRAME=0 NUMFRAMES=1\n\
#exec TEXTURE IMPORT NAME=JSkull1 FILE=Textures\\Skull1.pcx GROUP=Skins\n\
#exec MESH SEQUENCE MESH=Skull \n";

const NOTIFY: &str = "class SkullNotify extends Skull;\n\
#exec MESH NOTIFY MESH=Skull SEQ=All TIME=0.5 FUNCTION=Chomp\n";

/// A package folder `<tmp>/<name>/Skulls` with both classes and the mesh files.
struct Package {
    dir: PathBuf,
}

impl Package {
    fn new(name: &str) -> Self {
        let dir = std::env::temp_dir()
            .join(format!("unreal-ls-lsp-exec-{}-{name}", std::process::id()))
            .join("Skulls");
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("Classes")).unwrap();
        std::fs::create_dir_all(dir.join("Models")).unwrap();
        std::fs::write(dir.join("Classes/Skull.uc"), SKULL).unwrap();
        std::fs::write(dir.join("Classes/SkullNotify.uc"), NOTIFY).unwrap();
        // The smallest vertex mesh the readers accept: 1 triangle over 3 vertices, 1 frame.
        let mut data = vec![1, 0, 3, 0];
        data.resize(48, 0);
        data.extend_from_slice(&[0, 0, 1, 0, 2, 0]);
        data.resize(64, 0);
        std::fs::write(dir.join("Models/Skull_d.3d"), data).unwrap();
        let mut aniv = vec![1, 0, 12, 0];
        aniv.resize(16, 0);
        std::fs::write(dir.join("Models/Skull_a.3d"), aniv).unwrap();
        Self { dir }
    }

    fn uri(&self, class: &str) -> String {
        format!("file://{}", self.dir.join("Classes").join(class).display())
    }

    /// `value` as JSON text with the package folder written as `$PKG`.
    fn show(&self, value: &Value) -> String {
        let dir = format!("file://{}", self.dir.display());
        serde_json::to_string(value).unwrap().replace(&dir, "$PKG")
    }
}

impl Drop for Package {
    fn drop(&mut self) {
        if let Some(parent) = self.dir.parent() {
            let _ = std::fs::remove_dir_all(parent);
        }
    }
}

async fn client(package: &Package) -> TestClient {
    let mut client = TestClient::new(ServerOptions::default());
    client.initialize(json!({}), Value::Null).await;
    client.open(&package.uri("Skull.uc"), "unrealscript", 1, SKULL).await;
    client
}

fn at(package: &Package, class: &str, line: u32, character: u32) -> Value {
    json!({
        "textDocument": { "uri": package.uri(class) },
        "position": { "line": line, "character": character },
    })
}

fn check(package: &Package, value: &Value, expect: &Expect) {
    expect.assert_eq(&package.show(value));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn diagnostics_see_the_package_folder() {
    let package = Package::new("diagnostics");
    let mut client = client(&package).await;
    let published = client.diagnostics_for(&package.uri("Skull.uc"), Some(1)).await;
    let lines: Vec<String> = published["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            // Severity as LSP numbers it (1 error .. 4 hint); tags: 1 = Unnecessary.
            let tags = d.get("tags").map_or_else(String::new, |t| format!(" tags={t}"));
            format!(
                "{} {} {}{tags}: {}",
                d["range"]["start"]["line"], d["severity"], d["code"], d["message"]
            )
        })
        .collect();
    expect![[r#"
        4 1 "exec-missing-file": "file not found: `Textures\\Skull1.pcx` (searched from the package folder Skulls/, ignoring case)"
        5 1 "exec-missing-key": "MESH SEQUENCE needs `SEQ=`, `STARTFRAME=`, `NUMFRAMES=`; the engine logs \"Bad MESH SEQUENCE\" and does nothing"
        2 3 "exec-missing-texture-slot": "triangles of mesh `Skull` use slot 0 but no SETTEXTURE gives it a texture and this class sets no skin; unless Skins/MultiSkins are set elsewhere (a subclass, code, the map), those triangles draw with the default texture"
        2 4 "exec-path-case": "`MODELS\\Skull_d.3d` differs in case from the file on disk `Models\\Skull_d.3d`; Windows ignores case; a build or tool on a case-sensitive file system may not find it"
        2 4 "exec-ignored-key" tags=[1]: "MESH IMPORT does not read `X=0 Y=0 Z=0`, and they would change nothing: the line builds the same without them""#]].assert_eq(&lines.join("\n"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hover_on_a_key() {
    let package = Package::new("hover");
    let mut client = client(&package).await;
    let answer = client.request_ok("textDocument/hover", at(&package, "Skull.uc", 3, 55)).await;
    check(
        &package,
        &answer,
        &expect![[
            r#"{"contents":{"kind":"markdown","value":"**NUMFRAMES=** integer of MESH SEQUENCE\n\nNumber of frames.\n\n*UE1 and UE2; required*"},"range":{"end":{"character":63,"line":3},"start":{"character":52,"line":3}}}"#
        ]],
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn completion_of_keys() {
    let package = Package::new("completion");
    let mut client = client(&package).await;
    let answer =
        client.request_ok("textDocument/completion", at(&package, "Skull.uc", 5, 31)).await;
    let labels: Vec<&str> =
        answer.as_array().unwrap().iter().map(|i| i["label"].as_str().unwrap()).collect();
    expect!["SEQ= STARTFRAME= NUMFRAMES= RATE= GROUP="].assert_eq(&labels.join(" "));
    check(
        &package,
        &answer[0],
        &expect![[
            r#"{"detail":"name, required","documentation":"Sequence name, used by PlayAnim and LoopAnim.","filterText":"SEQ","kind":5,"label":"SEQ=","preselect":true,"sortText":"00000","textEdit":{"newText":"SEQ=","range":{"end":{"character":31,"line":5},"start":{"character":31,"line":5}}}}"#
        ]],
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn definition_in_another_class_and_references() {
    let package = Package::new("navigation");
    let mut client = client(&package).await;
    client.open(&package.uri("SkullNotify.uc"), "unrealscript", 1, NOTIFY).await;
    let answer =
        client.request_ok("textDocument/definition", at(&package, "SkullNotify.uc", 1, 25)).await;
    check(
        &package,
        &answer,
        &expect![[
            r#"{"range":{"end":{"character":28,"line":2},"start":{"character":23,"line":2}},"uri":"$PKG/Classes/Skull.uc"}"#
        ]],
    );
    let mut params = at(&package, "Skull.uc", 2, 24);
    params["context"] = json!({ "includeDeclaration": true });
    let answer = client.request_ok("textDocument/references", params).await;
    check(
        &package,
        &answer,
        &expect![[
            r#"[{"range":{"end":{"character":28,"line":2},"start":{"character":23,"line":2}},"uri":"$PKG/Classes/Skull.uc"},{"range":{"end":{"character":30,"line":3},"start":{"character":25,"line":3}},"uri":"$PKG/Classes/Skull.uc"},{"range":{"end":{"character":30,"line":5},"start":{"character":25,"line":5}},"uri":"$PKG/Classes/Skull.uc"},{"range":{"end":{"character":28,"line":1},"start":{"character":23,"line":1}},"uri":"$PKG/Classes/SkullNotify.uc"}]"#
        ]],
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn symbols_and_folding() {
    let package = Package::new("outline");
    let mut client = client(&package).await;
    let doc = json!({ "textDocument": { "uri": package.uri("Skull.uc") } });
    let answer = client.request_ok("textDocument/documentSymbol", doc.clone()).await;
    let names: Vec<&str> =
        answer.as_array().unwrap().iter().map(|s| s["name"].as_str().unwrap()).collect();
    expect!["MESH IMPORT Skull | MESH SEQUENCE All | TEXTURE IMPORT JSkull1 | MESH SEQUENCE Skull"]
        .assert_eq(&names.join(" | "));
    let answer = client.request_ok("textDocument/foldingRange", doc).await;
    check(
        &package,
        &answer,
        &expect![[
            r##"[{"collapsedText":"#exec MESH IMPORT MESH=Skull ANIVFILE=Models\\Skull_a.3d DATAFILE=MODELS\\Skull_d.3d X=0 Y=0 Z=0 (4 directives)","endLine":5,"kind":"region","startLine":2}]"##
        ]],
    );
}

/// Hovering an image path shows the image itself, as a PNG `data:` URI in the Markdown, for a
/// client whose hover formats include Markdown; a plain-text client gets the text alone.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hover_on_an_image_path_shows_the_picture() {
    let package = Package::new("hover-image");
    std::fs::create_dir_all(package.dir.join("Textures")).unwrap();
    std::fs::write(
        package.dir.join("Textures/Skin.bmp"),
        unreal_test_support::spec_files::build("bmp 640x320 bpp=8 fill=7"),
    )
    .unwrap();
    let text =
        "class Skin extends Actor;\n#exec TEXTURE IMPORT NAME=Skin FILE=Textures\\Skin.bmp\n";
    let uri = package.uri("Skin.uc");
    let position =
        json!({ "textDocument": { "uri": uri }, "position": { "line": 1, "character": 45 } });
    for (formats, picture) in [
        (json!(["markdown", "plaintext"]), true),
        (json!(["plaintext"]), false),
        (Value::Null, false),
    ] {
        let mut client = TestClient::new(ServerOptions::default());
        let capabilities = if formats.is_null() {
            json!({})
        } else {
            json!({ "textDocument": { "hover": { "contentFormat": formats } } })
        };
        client.initialize(capabilities, Value::Null).await;
        client.open(&uri, "unrealscript", 1, text).await;
        let answer = client.request_ok("textDocument/hover", position.clone()).await;
        let value = answer["contents"]["value"].as_str().unwrap();
        assert!(value.contains("BMP image: 640x320"), "{formats}: {value}");
        let kind = answer["contents"]["kind"].as_str().unwrap();
        assert_eq!(kind, if formats == json!(["plaintext"]) { "plaintext" } else { "markdown" });
        let image = value.find("![Skin.bmp](data:image/png;base64,");
        assert_eq!(image.is_some(), picture, "{formats}: {value}");
        if picture {
            // 640x320 scaled to 256x128: far under the cap, and it ends the hover.
            assert!(value.ends_with(')'), "{value}");
            assert!(value.len() < 8 << 10, "{}", value.len());
        }
    }
}
