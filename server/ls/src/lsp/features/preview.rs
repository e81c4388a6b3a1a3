//! The preview requests of `docs/protocol.md`: `unrealLs/packageTree` (every export of a
//! package) and `unrealLs/objectPreview` (a texture as PNG, a TextBuffer's source, a summary
//! with a rendered thumbnail for meshes) and `unrealLs/execLines` (the `#exec` block of a
//! vertex mesh and its files). Files are read when asked (mapped), never kept.

use std::path::{Path, PathBuf};

use serde_json::{json, Map, Value};
use tower_lsp_server::jsonrpc::{Error, ErrorCode, Result};
use tower_lsp_server::ls_types::{ServerCapabilities, Uri};
use unreal_analysis::fs::RealFs;
use unreal_analysis::thumbnail;
use unreal_assets::exec_lines;
use unreal_assets::export::mesh_files;
use unreal_assets::object_select::{self, ObjectSpec, SelectError};
use unreal_assets::package::PackageFile;
use unreal_assets::preview::{self, ObjectPreview};
use unreal_formats::mapped::{read_regular, MappedFile};
use unreal_formats::package::{ObjectRef, Package};

use crate::lsp::documents::Session;
use crate::lsp::ext::{
    ExecLinesFile, ExecLinesParams, ExecLinesResult, Facts, MapActorMark, MapPreviewParams,
    MapPreviewResult, ObjectPreviewParams, ObjectPreviewResult, PackageObject, PackageTreeParams,
    PackageTreeResult, PreviewKind, UnrealLsExperimental,
};

/// Thumbnails are at most this big unless the client asks for smaller (`maxSize`).
const DEFAULT_MAX_SIZE: u32 = 128;
/// And never bigger than this, whatever the client asks.
const LIMIT_MAX_SIZE: u32 = 1024;

/// Announces the requests under `experimental.unrealLs`, as `docs/protocol.md` says.
pub fn register(caps: &mut ServerCapabilities, _session: &Session) {
    let mut experimental = match caps.experimental.take() {
        Some(Value::Object(map)) => map,
        _ => Map::new(),
    };
    experimental.insert("unrealLs".to_owned(), json!(UnrealLsExperimental::ALL));
    caps.experimental = Some(Value::Object(experimental));
}

fn invalid(message: String) -> Error {
    Error { code: ErrorCode::InvalidParams, message: message.into(), data: None }
}

fn failed(message: String) -> Error {
    // RequestFailed (LSP 3.17).
    Error { code: ErrorCode::ServerError(-32803), message: message.into(), data: None }
}

pub(crate) fn path_of(uri: &Uri) -> Result<PathBuf> {
    crate::lsp::file_uri::file_path(uri)
        .ok_or_else(|| invalid(format!("{}: not a file: URI", uri.as_str())))
}

fn open(path: &Path) -> Result<MappedFile> {
    MappedFile::open(path).map_err(|e| failed(format!("{}: cannot be read: {e}", path.display())))
}

/// The package in a file: a compressed one (`.uz`, `.uz2`) decompressed, bounded, once per
/// version of the file for every preview ([`PackageFile`]).
fn open_package<'a>(path: &'a Path, bytes: &'a [u8]) -> Result<PackageFile<'a>> {
    PackageFile::open(path, bytes).map_err(|e| failed(format!("{}: {e}", e.path().display())))
}

fn parse<'a>(file: &'a PackageFile<'_>) -> Result<Package<'a>> {
    file.parse().map_err(|e| failed(format!("{}: {e}", e.path().display())))
}

/// `answer` unless the file changed while it was read (a rebuild truncated it: the pages
/// past its new end read as zeros), which is the error then.
fn unless_changed<T>(path: &Path, bytes: &MappedFile, answer: Result<T>) -> Result<T> {
    if let Err(e) = bytes.check() {
        // Its decompressed copy may be of what the file never was.
        unreal_analysis::unpacked::forget(path, bytes);
        return Err(failed(format!("{}: {e}", path.display())));
    }
    answer
}

pub fn package_tree(params: &PackageTreeParams) -> Result<PackageTreeResult> {
    let path = path_of(&params.uri)?;
    let bytes = open(&path)?;
    let answer = package_tree_of(&path, &bytes);
    unless_changed(&path, &bytes, answer)
}

fn package_tree_of(path: &Path, bytes: &[u8]) -> Result<PackageTreeResult> {
    let file = open_package(path, bytes)?;
    let package = parse(&file)?;
    let objects = package
        .objects()
        .map(|o| PackageObject {
            path: o.path,
            class: o.class.to_owned(),
            size: o.size,
            export: o.export,
        })
        .collect();
    let header = facts(json!({
        "version": package.header.version,
        "licensee": package.header.licensee,
        "flags": package.header.flags,
        "names": package.names.len(),
        "imports": package.imports.len(),
        "exports": package.exports.len(),
    }));
    Ok(PackageTreeResult { header, objects })
}

/// The facts of a JSON object (`json!({...})`); nothing for any other value.
fn facts(object: Value) -> Facts {
    match object {
        Value::Object(map) => map,
        _ => Facts::new(),
    }
}

/// `engine`: the generation the file is for (its settings, as `export` resolves them), which
/// says how a PSK's axes are read.
pub fn object_preview(
    params: &ObjectPreviewParams,
    packages: Option<&unreal_analysis::index::PackageIndex>,
    engine: Option<unreal_analysis::Generation>,
) -> Result<ObjectPreviewResult> {
    let path = path_of(&params.uri)?;
    let max = params.max_size.unwrap_or(DEFAULT_MAX_SIZE).clamp(1, LIMIT_MAX_SIZE);
    let bytes = open(&path)?;
    let others: &dyn unreal_assets::export::OtherPackages = match packages {
        Some(index) => index,
        None => &unreal_assets::export::NoOtherPackages,
    };
    let answer = object_preview_of(params, &path, max, &bytes, others, engine);
    unless_changed(&path, &bytes, answer)
}

fn object_preview_of(
    params: &ObjectPreviewParams,
    path: &Path,
    max: u32,
    bytes: &[u8],
    others: &dyn unreal_assets::export::OtherPackages,
    engine: Option<unreal_analysis::Generation>,
) -> Result<ObjectPreviewResult> {
    let spec = match &params.object {
        Some(object) => Some(
            ObjectSpec::with_class(object, params.class.as_deref())
                .map_err(|e| invalid(format!("{}: {e}", path.display())))?,
        ),
        None => None,
    };
    let file = match (params.export, &spec) {
        (None, None) => return file_preview(path, bytes, max, engine),
        _ => open_package(path, bytes)?,
    };
    let package = parse(&file)?;
    let selected = match (params.export, &spec) {
        (Some(export), spec) => object_select::select_export(&package, export, spec.as_ref()),
        // A path that several objects share: the one with a preview of its own (a mesh
        // rather than its animation) when exactly one has one.
        (None, Some(spec)) => object_select::select(&package, spec, |i| previewable(&package, i)),
        (None, None) => Err(SelectError::NotFound { spec: String::new(), others: Vec::new() }),
    };
    let export = selected.map_err(|e| invalid(format!("{}: {e}", path.display())))?;
    let object = package.object_reference(export);
    let class = package.class_name(export).to_owned();
    let fail = |e: unreal_formats::Error| failed(format!("{} {object}: {e}", path.display()));
    if class == "Class" {
        if let Some(text) = class_source(&package, export) {
            return Ok(text_preview(text, &class));
        }
    }
    if class == "Level" {
        if let Some(answer) = level_preview(path, &package, max, others) {
            return Ok(answer);
        }
    }
    match preview::object_preview_with(&package, export, max, others).map_err(fail)? {
        ObjectPreview::Texture { width, height, format, mips, compressed, .. } => {
            let image = preview::texture_thumbnail(&package, export, max).map_err(fail)?;
            let png = preview::encode_png(&preview::thumbnail(&image, max));
            let mut summary = facts(json!({ "class": class, "width": width, "height": height,
                "format": format, "mips": mips }));
            if let Some((format, count)) = compressed {
                summary.insert("compressed".to_owned(), json!(format!("{count} {format} mips")));
            }
            let mut answer = ObjectPreviewResult::new(PreviewKind::Texture, summary);
            answer.png_base64 = Some(base64_of(&png));
            Ok(answer)
        }
        ObjectPreview::Text { text } => Ok(text_preview(text, &class)),
        ObjectPreview::Mesh {
            class,
            vertices,
            frames,
            faces,
            sequences,
            materials,
            thumbnail_png,
        } => {
            let mut summary = facts(json!({
                "class": class, "vertices": vertices, "frames": frames, "faces": faces,
                "sequences": sequences.join(", ") }));
            if !materials.is_empty() {
                summary.insert("materials".to_owned(), json!(materials.join(", ")));
            }
            let mut answer = ObjectPreviewResult::new(PreviewKind::Summary, summary);
            answer.png_base64 = thumbnail_png.map(|png| base64_of(&png));
            Ok(answer)
        }
        ObjectPreview::Animation { bones, sequences } => {
            let list: Vec<String> = sequences
                .iter()
                .map(|q| format!("{} ({} frames at {} fps)", q.name, q.frames, q.rate))
                .collect();
            Ok(ObjectPreviewResult::new(
                PreviewKind::Summary,
                facts(json!({ "class": class, "bones": bones, "sequences": list.join(", ") })),
            ))
        }
        ObjectPreview::Palette { colors, swatch_png } => {
            let mut answer = ObjectPreviewResult::new(
                PreviewKind::Summary,
                facts(json!({ "class": class, "colors": colors })),
            );
            answer.png_base64 = Some(base64_of(&swatch_png));
            Ok(answer)
        }
        other => Ok(ObjectPreviewResult::new(
            PreviewKind::Summary,
            facts(json!({ "class": class, "description": other.summary() })),
        )),
    }
}

/// `unrealLs/execLines`: the `#exec` block of a package's vertex mesh and the files it names,
/// as `unreal-ls exec-lines` prints and writes them. The mesh is chosen as
/// `unrealLs/objectPreview` chooses an object (a path several objects share is the vertex
/// mesh among them); anything but a `Mesh` or `LodMesh` is `InvalidParams`, saying what it is.
pub fn exec_lines(params: &ExecLinesParams) -> Result<ExecLinesResult> {
    let path = path_of(&params.uri)?;
    let bytes = open(&path)?;
    let answer = exec_lines_of(params, &path, &bytes);
    unless_changed(&path, &bytes, answer)
}

fn exec_lines_of(params: &ExecLinesParams, path: &Path, bytes: &[u8]) -> Result<ExecLinesResult> {
    let spec = match &params.object {
        Some(object) => Some(
            ObjectSpec::with_class(object, None)
                .map_err(|e| invalid(format!("{}: {e}", path.display())))?,
        ),
        None => None,
    };
    let file = open_package(path, bytes)?;
    let package = parse(&file)?;
    let is_vertex_mesh = |i: usize| exec_lines::is_vertex_mesh_class(package.class_name(i));
    let selected = match (params.export, &spec) {
        (Some(export), spec) => object_select::select_export(&package, export, spec.as_ref()),
        (None, Some(spec)) => object_select::select(&package, spec, is_vertex_mesh),
        (None, None) => {
            return Err(invalid(format!(
                "{}: name the mesh by `object` or `export`",
                path.display()
            )))
        }
    };
    let export = selected.map_err(|e| invalid(format!("{}: {e}", path.display())))?;
    if let Some(message) = exec_lines::not_a_vertex_mesh(&package, export) {
        return Err(invalid(format!("{}: {message}", path.display())));
    }
    let object = package.object_reference(export);
    let block = exec_lines::mesh_block(&package, export)
        .map_err(|e| failed(format!("{} {object}: {e}", path.display())))?;
    let files = block
        .files
        .iter()
        .map(|f| ExecLinesFile { path: f.path.clone(), data: thumbnail::base64(&f.bytes) })
        .collect();
    Ok(ExecLinesResult { lines: block.lines, files })
}

/// A source shown as text, with its class.
/// A source shown as text, with its class.
fn text_preview(text: String, class: &str) -> ObjectPreviewResult {
    let mut answer = ObjectPreviewResult::new(PreviewKind::Text, facts(json!({ "class": class })));
    answer.text = Some(text);
    answer
}

/// A built map's `Level`: the level it stores drawn from above (as `unreal-ls render MAP.unr
/// --view top` draws it, at most `max` pixels a side; none below 64) and its counts. `None`
/// when the stored level cannot be read: the object's plain summary is answered then.
fn level_preview(
    path: &Path,
    package: &Package<'_>,
    max: u32,
    others: &dyn unreal_assets::export::OtherPackages,
) -> Option<ObjectPreviewResult> {
    let file_name = path.file_name().map(|n| n.to_string_lossy()).unwrap_or_default();
    let name = unreal_formats::package_name(&file_name);
    let scene = unreal_assets::export::stored_level_scene(name, package, others).ok()?;
    let textured = scene.materials.iter().filter(|m| m.image.is_some()).count();
    let summary = facts(json!({
        "class": "Level", "surfaces": scene.surfaces, "materials": scene.materials.len(),
        "textured": textured, "actors": scene.actors.len() }));
    let picture = (max >= 64)
        .then(|| preview::map::render_level_scene(&scene, name, preview::map::View::Top, max))
        .flatten();
    let mut answer = ObjectPreviewResult::new(PreviewKind::Summary, summary);
    answer.png_base64 = picture.map(|picture| base64_of(&picture.png));
    Some(answer)
}

/// Objects whose preview shows more than their class: what a shared path resolves to when
/// only one of its objects is such.
fn previewable(package: &Package<'_>, export: usize) -> bool {
    unreal_assets::export::export_kind(package, export).is_some()
        || package.class_name(export).eq_ignore_ascii_case("SkeletalMesh")
        || package.class_name(export).eq_ignore_ascii_case("StaticMesh")
}

/// The source of a class: the TextBuffer inside it (`ScriptText`).
fn class_source(package: &Package<'_>, class: usize) -> Option<String> {
    let outer = ObjectRef(i32::try_from(class).ok()? + 1);
    let text = (0..package.exports.len()).find(|&i| {
        package.export(i).is_some_and(|e| e.outer == outer) && package.class_name(i) == "TextBuffer"
    })?;
    unreal_assets::export::text_buffer_source(package, text).ok()
}

/// A file that is one object (`.psk`, `.psa`, `_d.3d`, `.u3d`, an image): its summary, and a
/// rendering for meshes.
fn file_preview(
    path: &Path,
    bytes: &[u8],
    max: u32,
    engine: Option<unreal_analysis::Generation>,
) -> Result<ObjectPreviewResult> {
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let lower = name.to_ascii_lowercase();
    let fail = |e: unreal_formats::Error| failed(format!("{}: {e}", path.display()));
    let (summary, render) = if lower.ends_with("_d.3d") || lower.ends_with("_a.3d") {
        // Either file of the pair: read both, the data file first.
        let class = mesh_files::importing_class(&RealFs, path);
        let pair = mesh_files::pair_read_by(&RealFs, path, class.as_ref())
            .map_err(|e| failed(format!("{}: {e}", path.display())))?;
        let data_file = pair.given_is_data;
        let partner_path = if data_file { &pair.animation } else { &pair.data };
        let partner = read_regular(partner_path).map_err(|e| {
            failed(format!(
                "{}: the {} file beside it cannot be read: {e}",
                partner_path.display(),
                if data_file { "animation" } else { "data" }
            ))
        })?;
        let (data, aniv) = if data_file { (bytes, &partner[..]) } else { (&partner[..], bytes) };
        let summary = unreal_formats::summarize_vertex_mesh(data, aniv).map_err(fail)?;
        // Posed and textured as the class that imports it says, as `export` does.
        let (setup, textures) = class
            .map(|class| (class.directives.setup, class.textures(&RealFs).0))
            .unwrap_or_default();
        let render =
            preview::vertex_mesh_thumbnail_data_uri(data, aniv, &textures, &setup, max).ok();
        (summary, render)
    } else {
        let summary = unreal_formats::summarize(bytes, &name).map_err(fail)?;
        let extension = path.extension().map(|e| e.to_string_lossy().to_ascii_lowercase());
        let render = if matches!(extension.as_deref(), Some("psk" | "pskx")) {
            let axes = unreal_assets::export::PskAxes::of(engine);
            preview::psk_thumbnail_data_uri(bytes, &[], max, axes).ok()
        } else {
            None
        };
        (summary, render)
    };
    let mut flat = Map::new();
    if let Ok(Value::Object(outer)) = serde_json::to_value(&summary) {
        flatten(&outer, &mut flat);
    }
    let mut answer = ObjectPreviewResult::new(PreviewKind::Summary, flat);
    answer.png_base64 =
        render.map(|uri| uri.trim_start_matches("data:image/png;base64,").to_owned());
    Ok(answer)
}

/// Scalars of a serialized summary, one level of nesting lifted; lists and deeper objects
/// become counts, so every value is a string, number or boolean.
fn flatten(object: &Map<String, Value>, out: &mut Map<String, Value>) {
    for (key, value) in object {
        match value {
            Value::Object(inner) => {
                for (k, v) in inner {
                    match v {
                        Value::Array(items) => {
                            out.insert(k.clone(), json!(items.len()));
                        }
                        Value::Object(_) | Value::Null => {}
                        scalar => {
                            out.insert(k.clone(), scalar.clone());
                        }
                    }
                }
            }
            Value::Array(items) => {
                out.insert(key.clone(), json!(items.len()));
            }
            Value::Null => {}
            scalar => {
                out.insert(key.clone(), scalar.clone());
            }
        }
    }
}

fn base64_of(png: &[u8]) -> String {
    preview::png_data_uri(png).trim_start_matches("data:image/png;base64,").to_owned()
}

/// The picture of a map and its actors' marks, each with the line (0-based) of its
/// `Begin Actor`, for a click to reveal it.
pub fn map_preview(params: &MapPreviewParams, open: Option<String>) -> Result<MapPreviewResult> {
    let view = match params.view.as_deref() {
        None => preview::map::View::Top,
        Some(word) => preview::map::View::parse(word)
            .ok_or_else(|| invalid(format!("unknown view `{word}`: top, side, front or iso")))?,
    };
    let path = path_of(&params.uri).ok();
    let text = if let Some(text) = open {
        text
    } else {
        let path = path.clone().ok_or_else(|| invalid("not a file URI".to_owned()))?;
        super::other_files::read_text(&path)
            .map_err(|e| failed(format!("{}: cannot read: {e}", path.display())))?
    };
    let name = path
        .as_deref()
        .and_then(Path::file_stem)
        .map_or_else(|| "map".to_owned(), |s| s.to_string_lossy().into_owned());
    // A file made of mismatched blocks is refused as `unreal-ls render` refuses it: it would
    // be read whole (about 1 KB a mismatch) for a picture of nothing.
    if let Some(stop) = unreal_analysis::t3d::in_pieces::too_broken(&text) {
        return Err(failed(format!("{name}: {}", stop.message(&text))));
    }
    let size = params.max_size.unwrap_or(LIMIT_MAX_SIZE).clamp(64, 4096);
    let symbols = match params.actor_symbols {
        Some(false) => preview::map::ActorSymbols::Left,
        _ => preview::map::ActorSymbols::Drawn,
    };
    let picture = preview::map::render_map(&name, &text, view, size, None, symbols)
        .ok_or_else(|| failed(format!("{name}: no brush or actor to draw")))?;
    let index = unreal_analysis::line_index::LineIndex::new(&text);
    let actors = picture
        .actors
        .iter()
        .map(|a| MapActorMark {
            name: a.name.clone(),
            class: a.class.clone(),
            kind: format!("{:?}", a.kind),
            line: index
                .line_col(&text, a.begin_span.start, unreal_analysis::line_index::ColumnUnit::Utf16)
                .line,
            x: a.x,
            y: a.y,
        })
        .collect();
    Ok(MapPreviewResult {
        png_base64: base64_of(&picture.png),
        width: picture.width,
        height: picture.height,
        units_per_pixel: picture.units_per_pixel,
        brushes: picture.brushes,
        actors,
        outside: picture.outside,
    })
}
