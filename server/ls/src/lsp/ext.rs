//! The protocol's extensions (docs/protocol.md), defined once: each `unrealLs/*` request
//! and notification is a type naming its method, its parameters and its result, and the
//! handlers take and return these. `docs/protocol.md` and `vscode-extension/src/protocol.ts`
//! are checked against them by a test below (every field by name, and whether it may be
//! left out), so the three cannot drift apart.
//!
//! Names follow the client's: each type here has the name of its TypeScript interface.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use tower_lsp_server::ls_types::notification::Notification;
use tower_lsp_server::ls_types::request::Request;
use tower_lsp_server::ls_types::Uri;

/// Key facts shown as a table: every value a string, number or boolean.
pub type Facts = Map<String, Value>;

/// `unrealLs/packageTree`: every export of a package.
pub enum PackageTree {}

impl Request for PackageTree {
    type Params = PackageTreeParams;
    type Result = PackageTreeResult;
    const METHOD: &'static str = "unrealLs/packageTree";
}

#[derive(Debug, Deserialize, Serialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct PackageTreeParams {
    /// The package file, as a `file:` URI.
    #[cfg_attr(test, schemars(with = "String"))]
    pub uri: Uri,
}

#[derive(Debug, Deserialize, Serialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct PackageTreeResult {
    /// Version, licensee, flags and the tables' sizes.
    pub header: Facts,
    pub objects: Vec<PackageObject>,
}

#[derive(Debug, Deserialize, Serialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct PackageObject {
    /// `Group.Name` inside the package (not unique: a `.ukx` holds a `SkeletalMesh` and a
    /// `MeshAnimation` of one name).
    pub path: String,
    /// The class without its package.
    pub class: String,
    /// The serialised size in bytes.
    pub size: usize,
    /// The index in the export table: the unique key.
    pub export: usize,
}

/// `unrealLs/objectPreview`: what a client shows for one object of a package, or for a file
/// that is one object.
pub enum ObjectPreview {}

impl Request for ObjectPreview {
    type Params = ObjectPreviewParams;
    type Result = ObjectPreviewResult;
    const METHOD: &'static str = "unrealLs/objectPreview";
}

#[derive(Debug, Deserialize, Serialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ObjectPreviewParams {
    #[cfg_attr(test, schemars(with = "String"))]
    pub uri: Uri,
    /// `Group.Name`, or `Class'Group.Name'`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub object: Option<String>,
    /// The object's index in the export table, as `unrealLs/packageTree` gave it: the one
    /// unambiguous key (a path is shared by objects of different classes).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub export: Option<usize>,
    /// The object's class, when the client names the object by path.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub class: Option<String>,
    /// The longest side of a thumbnail, in pixels.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_size: Option<u32>,
}

/// What an object preview holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum PreviewKind {
    /// A texture's picture.
    Texture,
    /// A TextBuffer's (or a class's) source.
    Text,
    /// Facts, and a rendering for meshes and built levels.
    Summary,
}

#[derive(Debug, Deserialize, Serialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ObjectPreviewResult {
    pub kind: PreviewKind,
    /// A PNG, base64: the texture, or a rendered mesh or level.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub png_base64: Option<String>,
    /// The source, for `text`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// Key facts, for every kind.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summary: Option<Facts>,
}

impl ObjectPreviewResult {
    /// A preview of `kind` with its facts.
    pub fn new(kind: PreviewKind, summary: Facts) -> Self {
        Self { kind, png_base64: None, text: None, summary: Some(summary) }
    }
}

/// `unrealLs/execLines`: the `#exec` block that imports a package's UE1 vertex mesh again,
/// and the files its lines name (`unreal-ls exec-lines`).
pub enum ExecLines {}

impl Request for ExecLines {
    type Params = ExecLinesParams;
    type Result = ExecLinesResult;
    const METHOD: &'static str = "unrealLs/execLines";
}

/// The mesh, named as `unrealLs/objectPreview` names an object of a package.
#[derive(Debug, Deserialize, Serialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ExecLinesParams {
    /// The package, as a `file:` URI.
    #[cfg_attr(test, schemars(with = "String"))]
    pub uri: Uri,
    /// `Group.Name`, or `Class'Group.Name'`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub object: Option<String>,
    /// The mesh's index in the export table, as `unrealLs/packageTree` gave it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub export: Option<usize>,
}

#[derive(Debug, Deserialize, Serialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ExecLinesResult {
    /// The lines for a class, each starting with `#exec` (or `//` for a note).
    pub lines: Vec<String>,
    /// The files the lines name, to be written under the package's folder.
    pub files: Vec<ExecLinesFile>,
}

#[derive(Debug, Deserialize, Serialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ExecLinesFile {
    /// Under the package's folder, with the backslashes the lines use (`Models\X_d.3d`).
    pub path: String,
    /// The file's bytes, base64.
    pub data: String,
}

/// `unrealLs/mapPreview`: the overview picture of a T3D map.
pub enum MapPreview {}

impl Request for MapPreview {
    type Params = MapPreviewParams;
    type Result = MapPreviewResult;
    const METHOD: &'static str = "unrealLs/mapPreview";
}

#[derive(Debug, Deserialize, Serialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct MapPreviewParams {
    #[cfg_attr(test, schemars(with = "String"))]
    pub uri: Uri,
    /// `top` (default), `side`, `front` or `iso`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub view: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_size: Option<u32>,
    /// `false`: the picture without the actors' symbols, which the client draws over it
    /// from `actors` (default `true`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub actor_symbols: Option<bool>,
}

#[derive(Debug, Deserialize, Serialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct MapActorMark {
    pub name: String,
    pub class: String,
    /// `PlayerStart`, `Light`, `Pickup`, `Mover`, `PathNode` or `Trigger`.
    pub kind: String,
    /// The 0-based line of the actor's `Begin Actor`.
    pub line: u32,
    /// Its mark on the picture, in pixels.
    pub x: f32,
    pub y: f32,
}

#[derive(Debug, Deserialize, Serialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct MapPreviewResult {
    pub png_base64: String,
    pub width: u32,
    pub height: u32,
    /// Unreal units one pixel spans.
    pub units_per_pixel: f64,
    /// Brushes drawn (the builder brush is not).
    pub brushes: usize,
    pub actors: Vec<MapActorMark>,
    /// Brushes, then actors, left outside the picture: far from the rest of the map.
    pub outside: Vec<String>,
}

/// `unrealLs/levelScene`: a T3D map's level as UnrealEd's CSG builds it, for a 3D view.
pub enum LevelScene {}

impl Request for LevelScene {
    type Params = LevelSceneParams;
    type Result = LevelSceneResult;
    const METHOD: &'static str = "unrealLs/levelScene";
}

#[derive(Debug, Deserialize, Serialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct LevelSceneParams {
    #[cfg_attr(test, schemars(with = "String"))]
    pub uri: Uri,
}

/// One glTF mesh of the level's `.glb`, in the document's mesh order: the lines its
/// triangles came from, in runs.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct LevelSceneMesh {
    pub name: String,
    /// The first triangle of each run, ascending.
    pub first_triangles: Vec<u32>,
    /// The 0-based line of each run's `Begin Polygon` (`None`: no source line).
    pub lines: Vec<Option<u32>>,
}

#[derive(Clone, Debug, Deserialize, Serialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct LevelSceneActor {
    pub name: String,
    pub class: String,
    /// The 0-based line of its `Begin Actor`.
    pub line: Option<u32>,
    /// glTF axes: (-Y, Z, X) of Unreal's.
    pub position: [f32; 3],
    pub light: bool,
}

#[derive(Clone, Debug, Deserialize, Serialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct LevelSceneResult {
    /// The file's name without extension.
    pub name: String,
    /// The `.glb`, base64.
    pub glb_base64: String,
    pub brushes: usize,
    pub surfaces: usize,
    /// Surfaces left out (invisible or portal).
    pub left_out: usize,
    pub materials: usize,
    pub textured: usize,
    pub meshes: Vec<LevelSceneMesh>,
    pub actors: Vec<LevelSceneActor>,
    /// The actors drawn as a static mesh (or as the box in place of one that cannot be read),
    /// in the order of the children of the `.glb`'s node `StaticMeshes`.
    pub placed: Vec<LevelSceneActor>,
    /// Textures drawn in a flat colour, static meshes drawn as boxes, and why.
    pub notes: Vec<String>,
    /// Answered from the answer kept for this version of the document.
    pub reused: bool,
}

/// `unrealLs/findAssets`: the package index's asset search.
pub enum FindAssets {}

impl Request for FindAssets {
    type Params = FindAssetsParams;
    type Result = FindAssetsResult;
    const METHOD: &'static str = "unrealLs/findAssets";
}

#[derive(Debug, Deserialize, Serialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct FindAssetsParams {
    pub query: String,
    /// 200 by default, at most 1000.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit: Option<usize>,
}

#[derive(Debug, Deserialize, Serialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct FoundAsset {
    /// `Package.Group.Name`.
    pub name: String,
    pub package: String,
    /// `Group.Name` inside the package: `object` of `unrealLs/objectPreview`.
    pub path: String,
    pub class: String,
    /// `texture`, `mesh`, `static mesh`, `animation`, `sound`, `music`, `font` or `class`.
    pub kind: String,
    /// The package file.
    pub uri: String,
    /// The export index: `export` of `unrealLs/objectPreview`.
    pub export: u32,
}

#[derive(Debug, Deserialize, Serialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct FindAssetsResult {
    /// `false` while the index is being built, or without a game folder.
    pub indexed: bool,
    pub assets: Vec<FoundAsset>,
}

/// `unrealLs/gameDirectoryMissing` (server to client): no game folder, so references into
/// packages are not checked; sent to a client that shows the notice itself.
pub enum GameDirectoryMissing {}

impl Notification for GameDirectoryMissing {
    type Params = GameDirectoryMissingParams;
    const METHOD: &'static str = "unrealLs/gameDirectoryMissing";
}

#[derive(Debug, Deserialize, Serialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct GameDirectoryMissingParams {
    pub message: String,
}

/// `capabilities.experimental.unrealLs` of the `initialize` result: the requests this
/// server answers (the protocol's flags, one a request).
#[allow(clippy::struct_excessive_bools)]
#[derive(Debug, Deserialize, Serialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct UnrealLsExperimental {
    pub package_tree: bool,
    pub object_preview: bool,
    pub map_preview: bool,
    pub find_assets: bool,
    pub level_scene: bool,
    pub exec_lines: bool,
}

impl UnrealLsExperimental {
    /// Every request of this module.
    pub const ALL: Self = Self {
        package_tree: true,
        object_preview: true,
        map_preview: true,
        find_assets: true,
        level_scene: true,
        exec_lines: true,
    };
}

/// docs/protocol.md and the VS Code client's `protocol.ts` against the types above: every
/// field by its name on the wire, and whether it may be left out.
#[cfg(test)]
mod tests {
    use std::collections::{BTreeMap, BTreeSet};

    use serde_json::Value;

    use super::*;

    /// A type's fields on the wire: name -> whether it may be left out.
    type Fields = BTreeMap<String, bool>;

    fn fields_of(schema: &schemars::Schema) -> Fields {
        let schema = serde_json::to_value(schema).unwrap_or_default();
        let required: BTreeSet<&str> = schema["required"]
            .as_array()
            .map(|names| names.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        schema["properties"]
            .as_object()
            .map(|properties| {
                properties.keys().map(|k| (k.clone(), !required.contains(k.as_str()))).collect()
            })
            .unwrap_or_default()
    }

    /// Which way a type goes: parameters the client sends, or what the server answers.
    #[derive(Clone, Copy, PartialEq)]
    enum Way {
        Sent,
        Answered,
    }

    /// Every type of the protocol, by the name of its TypeScript interface.
    fn types() -> Vec<(&'static str, Way, Fields)> {
        // What goes on the wire: a field the client sends may be left out when it has a
        // default; one the server answers, when it is skipped (an `Option` without the skip
        // is sent as `null`, and so is always there).
        macro_rules! of {
            ($way:ident: $($ty:ident),*) => {{
                let settings = schemars::generate::SchemaSettings::draft2020_12();
                let settings = match Way::$way {
                    Way::Sent => settings.for_deserialize(),
                    Way::Answered => settings.for_serialize(),
                };
                let mut generator = schemars::SchemaGenerator::new(settings);
                vec![$((
                    stringify!($ty),
                    Way::$way,
                    fields_of(&generator.root_schema_for::<$ty>()),
                )),*]
            }};
        }
        let mut all = of!(Sent: PackageTreeParams, ObjectPreviewParams, MapPreviewParams,
            LevelSceneParams, FindAssetsParams, ExecLinesParams);
        all.extend(of!(Answered: PackageTreeResult, PackageObject, ObjectPreviewResult,
            MapPreviewResult, MapActorMark, LevelSceneResult, LevelSceneMesh, LevelSceneActor,
            FindAssetsResult, FoundAsset, ExecLinesResult, ExecLinesFile, UnrealLsExperimental,
            GameDirectoryMissingParams));
        all
    }

    /// The client's types and the protocol's document, built into the test: the Windows suite
    /// runs these tests where the checkout is not.
    const PROTOCOL_TS: &str = include_str!("../../../../vscode-extension/src/protocol.ts");
    const PROTOCOL_MD: &str = include_str!("../../../../docs/protocol.md");

    fn read(text: &str) -> String {
        text.replace("\r\n", "\n")
    }

    /// The interfaces of a TypeScript file: name -> fields (name -> optional).
    fn interfaces(ts: &str) -> BTreeMap<String, Fields> {
        let mut out = BTreeMap::new();
        let mut current: Option<(String, Fields)> = None;
        for line in ts.lines() {
            if let Some(rest) = line.strip_prefix("export interface ") {
                let name = rest.split([' ', '{']).next().unwrap_or_default().to_owned();
                current = Some((name, Fields::new()));
            } else if line.starts_with('}') {
                if let Some((name, fields)) = current.take() {
                    out.insert(name, fields);
                }
            } else if let Some((_, fields)) = &mut current {
                let line = line.trim();
                if line.starts_with("/*") || line.starts_with('*') || line.starts_with("//") {
                    continue;
                }
                let name: String =
                    line.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
                let after = &line[name.len()..];
                if !name.is_empty() && (after.starts_with(':') || after.starts_with("?:")) {
                    fields.insert(name, after.starts_with('?'));
                }
            }
        }
        out
    }

    /// What the client's `protocol.ts` may say that the server does not: a flag for a
    /// request this server does not answer (docs/protocol.md, Discovery).
    const CLIENT_ONLY: &[(&str, &str)] = &[("UnrealLsExperimental", "exportGltf")];

    #[test]
    fn the_vs_code_client_types_every_field_as_the_server_does() {
        let ts = interfaces(&read(PROTOCOL_TS));
        let mut problems = Vec::new();
        for (name, way, fields) in types() {
            if name == "GameDirectoryMissingParams" {
                // The client reads `params.message` (gameFolder.ts): no interface of its own.
                continue;
            }
            let Some(client) = ts.get(name) else {
                problems.push(format!("protocol.ts has no interface {name}"));
                continue;
            };
            for (field, &optional) in &fields {
                match client.get(field) {
                    None => problems.push(format!("{name}.{field}: not in protocol.ts")),
                    // The server may leave it out: the client must not count on it.
                    Some(false) if optional && way == Way::Answered => {
                        problems.push(format!(
                            "{name}.{field}: may be absent, protocol.ts requires it"
                        ));
                    }
                    // The server needs it: the client must always send it.
                    Some(true) if !optional && way == Way::Sent => {
                        problems.push(format!("{name}.{field}: required, optional in protocol.ts"));
                    }
                    _ => {}
                }
            }
            for field in client.keys() {
                if !fields.contains_key(field) && !CLIENT_ONLY.contains(&(name, field.as_str())) {
                    problems
                        .push(format!("{name}.{field}: in protocol.ts, not in the server's type"));
                }
            }
        }
        assert!(problems.is_empty(), "{}", problems.join("\n"));
    }

    /// The section of docs/protocol.md headed by `heading`, up to the next `## `.
    fn section<'d>(doc: &'d str, heading: &str) -> &'d str {
        let start = doc.find(heading).unwrap_or_else(|| panic!("no section {heading}"));
        let body = &doc[start + heading.len()..];
        &body[..body.find("\n## ").unwrap_or(body.len())]
    }

    /// The field names written `name:` or `name?:` in a section's code blocks of `language`
    /// (`ts`: the types; `json`: examples and the capabilities).
    fn documented_fields(section: &str, language: &str) -> BTreeSet<String> {
        let mut names = BTreeSet::new();
        for block in section.split("```").skip(1).step_by(2) {
            let Some(block) = block.strip_prefix(language).filter(|b| b.starts_with('\n')) else {
                continue;
            };
            // Comments and index signatures (`[key: string]`) name no field.
            let code: String = block
                .lines()
                .map(|line| line.split("//").next().unwrap_or_default())
                .map(|line| match (line.find('['), line.find(']')) {
                    (Some(open), Some(close)) if open < close => {
                        format!("{}{}", &line[..open], &line[close + 1..])
                    }
                    _ => line.to_owned(),
                })
                .collect::<Vec<_>>()
                .join("\n");
            let mut rest = code.as_str();
            while let Some(colon) = rest.find(':') {
                let before = rest[..colon].trim_end_matches(['?', '"']);
                let name: String = before
                    .chars()
                    .rev()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect::<Vec<_>>()
                    .into_iter()
                    .rev()
                    .collect();
                let name = name.trim_matches('"').to_owned();
                if !name.is_empty() && !name.starts_with(|c: char| c.is_ascii_digit()) {
                    names.insert(name);
                }
                rest = &rest[colon + 1..];
            }
        }
        names
    }

    #[test]
    fn docs_protocol_names_every_field_of_every_request() {
        let doc = read(PROTOCOL_MD);
        let by_name: BTreeMap<_, _> =
            types().into_iter().map(|(name, _, fields)| (name, fields)).collect();
        let requests: &[(&str, &[&str])] = &[
            (PackageTree::METHOD, &["PackageTreeParams", "PackageTreeResult", "PackageObject"]),
            (ObjectPreview::METHOD, &["ObjectPreviewParams", "ObjectPreviewResult"]),
            (MapPreview::METHOD, &["MapPreviewParams", "MapPreviewResult", "MapActorMark"]),
            (
                LevelScene::METHOD,
                &["LevelSceneParams", "LevelSceneResult", "LevelSceneMesh", "LevelSceneActor"],
            ),
            (FindAssets::METHOD, &["FindAssetsParams", "FindAssetsResult", "FoundAsset"]),
            (ExecLines::METHOD, &["ExecLinesParams", "ExecLinesResult", "ExecLinesFile"]),
        ];
        let mut problems = Vec::new();
        for (method, names) in requests {
            let text = section(&doc, &format!("## `{method}`"));
            let written = documented_fields(text, "ts");
            let mut known = BTreeSet::new();
            for name in *names {
                for field in by_name[name].keys() {
                    known.insert(field.clone());
                    if !written.contains(field) {
                        problems.push(format!("{method}: `{field}` ({name}) is not documented"));
                    }
                }
            }
            for field in written.difference(&known) {
                if !["params", "result"].contains(&field.as_str()) {
                    problems.push(format!("{method}: `{field}` is documented, not in the types"));
                }
            }
        }
        // The notification, and the flags the server announces.
        let notice = section(&doc, &format!("## `{}`", GameDirectoryMissing::METHOD));
        for field in by_name["GameDirectoryMissingParams"].keys() {
            if !notice.contains(&format!("{field}: string")) {
                problems
                    .push(format!("{}: `{field}` is not documented", GameDirectoryMissing::METHOD));
            }
        }
        let discovery = documented_fields(section(&doc, "## Discovery"), "json");
        for field in by_name["UnrealLsExperimental"].keys() {
            if !discovery.contains(field) {
                problems.push(format!("Discovery: the flag `{field}` is not documented"));
            }
        }
        assert!(problems.is_empty(), "{}", problems.join("\n"));
    }

    #[test]
    fn the_announced_flags_are_every_request() {
        let announced = serde_json::to_value(UnrealLsExperimental::ALL).unwrap_or_default();
        let flags = announced.as_object().map(serde_json::Map::len).unwrap_or_default();
        assert_eq!(flags, 6);
        assert!(announced.as_object().into_iter().flatten().all(|(_, v)| v == &Value::Bool(true)));
    }
}
