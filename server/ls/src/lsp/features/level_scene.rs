//! `unrealLs/levelScene` (docs/protocol.md): a T3D map's built level for a 3D view, as the
//! `.glb` that `unreal-ls export MAP --to glb` writes, with what a click in the view needs:
//! for each glTF mesh, which `Begin Polygon` line each run of its triangles came from, and
//! each actor's `Begin Actor` line and place.

use std::path::Path;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use tower_lsp_server::jsonrpc::{Error, ErrorCode, Result};
use unreal_analysis::line_index::{ColumnUnit, LineIndex};
use unreal_assets::export::{self, LevelTextures, NoTextures};

use crate::lsp::documents::{KeptScene, Session};
use crate::lsp::ext::{LevelSceneActor, LevelSceneMesh, LevelSceneParams, LevelSceneResult};

fn failed(message: String) -> Error {
    // RequestFailed (LSP 3.17).
    Error { code: ErrorCode::ServerError(-32803), message: message.into(), data: None }
}

/// An open map, as [`level_scene`] reads it: its version now, its text (read only when the
/// answer is not kept already, with the version it is at then), and its kept answer.
pub struct OpenMap {
    pub version: i32,
    pub text: Box<dyn FnOnce() -> (i32, String) + Send>,
    /// The document's version at the moment it is asked: the build stops between two
    /// brushes once it is not the version being built.
    pub current: Box<dyn Fn() -> i32 + Send>,
    pub kept: Arc<Mutex<Option<KeptScene>>>,
}

fn lock(kept: &Mutex<Option<KeptScene>>) -> MutexGuard<'_, Option<KeptScene>> {
    // A panic while building leaves at worst no answer kept.
    kept.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The level of the map at `uri`, from `open` (the editor's text) when the map is open, else
/// from the file; textured from the packages the map's checks use. For an open map, the
/// answer is kept with the document: asked again on the same version (same settings and
/// package index), it is answered from there (`"reused": true`).
pub fn level_scene(
    session: &Arc<Session>,
    params: &LevelSceneParams,
    open: Option<OpenMap>,
    cancelled: &std::sync::atomic::AtomicBool,
) -> Result<LevelSceneResult> {
    let path = crate::lsp::file_uri::file_path(&params.uri);
    // Textures come from packages: an index of the workspace's class sources alone (no game
    // folder) textures nothing, and its arrival changes no answer.
    let packages = session.packages_of(path.as_deref());
    let mut keep = None;
    let mut current: Option<Box<dyn Fn() -> i32 + Send>> = None;
    let text = if let Some(open) = open {
        if let Some(kept) = lock(&open.kept).as_ref() {
            if let Some(answer) = kept.answer_for(open.version, session, packages.as_ref()) {
                let mut answer = answer.clone();
                answer.reused = true;
                return Ok(answer);
            }
        }
        let (version, text) = (open.text)();
        keep = Some((open.kept, version));
        current = Some(open.current);
        text
    } else {
        let path = path.as_deref().ok_or_else(|| Error {
            code: ErrorCode::InvalidParams,
            message: format!("{}: not a file: URI, and not open", params.uri.as_str()).into(),
            data: None,
        })?;
        super::other_files::read_text(path)
            .map_err(|e| failed(format!("{}: cannot read: {e}", path.display())))?
    };
    let name = path
        .as_deref()
        .and_then(Path::file_stem)
        .map_or_else(|| "map".to_owned(), |s| s.to_string_lossy().into_owned());
    // Refused as `unreal-ls export` refuses it: a file made of mismatched blocks.
    if let Some(stop) = unreal_analysis::t3d::in_pieces::too_broken(&text) {
        return Err(failed(format!("{name}: {}", stop.message(&text))));
    }
    let textures: &dyn LevelTextures = match packages.as_deref() {
        Some(index) => index,
        None => &NoTextures,
    };
    let built = keep.as_ref().map(|(_, version)| *version);
    let changed = || current.as_ref().zip(built).is_some_and(|(now, built)| now() != built);
    let stop = || cancelled.load(std::sync::atomic::Ordering::Relaxed) || changed();
    let scene = export::level_scene_until(&name, &text, None, textures, &stop);
    if let Some(stopped) = &scene.stopped {
        if stopped.cancelled {
            // The map changed (ContentModified) or the client stopped waiting
            // (RequestCancelled): the editor asks again for what it now shows.
            let (code, why) = if changed() {
                (-32801, "the map changed while its level was built")
            } else {
                (-32800, "cancelled")
            };
            return Err(Error {
                code: ErrorCode::ServerError(code),
                message: format!("{name}: {why}").into(),
                data: None,
            });
        }
        return Err(failed(format!("{name}: {stopped}")));
    }
    if scene.surfaces == 0 && scene.actors.is_empty() {
        return Err(failed(format!(
            "{name}: nothing to show: no brush that adds to or subtracts from the level, and no actor"
        )));
    }
    let glb = export::write_level_glb(&scene);
    let lines = LineIndex::new(&text);
    let line_of =
        |offset: Option<u32>| offset.map(|o| lines.line_col(&text, o, ColumnUnit::Utf16).line);
    // In the .glb's mesh order: the writer leaves out primitives without triangles.
    let meshes = scene
        .primitives
        .iter()
        .filter(|p| !p.triangles.is_empty())
        .map(|p| {
            // Neighbouring surfaces from one polygon share a run.
            let mut first = Vec::new();
            let mut line = Vec::new();
            for origin in &p.origins {
                let l = line_of(origin.source);
                if line.last() == Some(&l) {
                    continue;
                }
                first.push(origin.first_triangle);
                line.push(l);
            }
            let name = scene.materials.get(p.material).map_or("", |m| m.name.as_str());
            LevelSceneMesh { name: name.to_owned(), first_triangles: first, lines: line }
        })
        .collect();
    let actors = scene
        .actors
        .iter()
        .map(|a| LevelSceneActor {
            name: a.name.clone(),
            class: a.class.clone(),
            line: line_of(a.begin),
            position: a.position.map(|c| if c.is_finite() { c } else { 0.0 }),
            light: a.light.is_some(),
        })
        .collect();
    let placed = scene
        .placed
        .iter()
        .map(|p| LevelSceneActor {
            name: p.name.clone(),
            class: p.class.clone(),
            line: line_of(p.begin),
            position: p.position.map(|c| if c.is_finite() { c } else { 0.0 }),
            light: false,
        })
        .collect();
    let textured = scene.materials.iter().filter(|m| m.image.is_some()).count();
    let answer = LevelSceneResult {
        name: scene.name.clone(),
        glb_base64: unreal_assets::preview::png::base64(&glb),
        brushes: scene.brushes,
        surfaces: scene.surfaces,
        left_out: scene.left_out,
        materials: scene.materials.len(),
        textured,
        meshes,
        actors,
        placed,
        notes: scene.notes.clone(),
        reused: false,
    };
    if let Some((kept, version)) = keep {
        *lock(&kept) = Some(KeptScene::new(version, session, packages.as_ref(), answer.clone()));
    }
    Ok(answer)
}
