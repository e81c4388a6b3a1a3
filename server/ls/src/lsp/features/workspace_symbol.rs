//! `workspace/symbol`: the actors of every open T3D document whose name or class matches,
//! then the assets of every indexed package (textures, meshes, static meshes, sounds,
//! classes: `Package.Group.Name`, ranked by `unreal_analysis::index::AssetSearch`); and
//! `unrealLs/findAssets`, the same search with what an editor needs to open the object
//! (docs/protocol.md).

use std::sync::Arc;

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::{
    Location, OneOf, Position, Range, ServerCapabilities, SymbolInformation, SymbolKind, Uri,
    WorkspaceSymbolParams, WorkspaceSymbolResponse,
};
use unreal_analysis::index::{AssetHit, AssetKind, PackageIndex, DEFAULT_LIMIT};

use super::document::{self, DocumentAnalysis};
use crate::lsp::documents::{DocumentHandle, DocumentSnapshot, Session};
use crate::lsp::ext::{FindAssetsParams, FindAssetsResult, FoundAsset};

pub fn register(caps: &mut ServerCapabilities, _session: &Session) {
    caps.workspace_symbol_provider = Some(OneOf::Left(true));
}

/// The most hits `unrealLs/findAssets` returns, whatever the client asks.
const MAX_LIMIT: usize = 1000;

pub fn handle(
    documents: &[DocumentHandle],
    index: Option<&Arc<PackageIndex>>,
    params: &WorkspaceSymbolParams,
) -> Result<Option<WorkspaceSymbolResponse>> {
    let mut out = Vec::new();
    // One document locked at a time.
    for document in documents {
        document.read_copy(|snapshot| symbols_of(snapshot, params, &mut out));
    }
    if let Some(index) = index {
        for hit in index.find_assets(&params.query, DEFAULT_LIMIT) {
            let Some((package, object)) = index.entry(hit.id) else { continue };
            let Some(uri) = Uri::from_file_path(&package.path) else { continue };
            let file = package.path.file_name().map(|n| n.to_string_lossy().into_owned());
            #[allow(deprecated)] // `deprecated` is a required field of the protocol type
            out.push(SymbolInformation {
                name: index.full_path(hit.id),
                kind: symbol_kind(hit.kind),
                tags: None,
                deprecated: None,
                location: Location {
                    uri,
                    range: Range::new(Position::new(0, 0), Position::new(0, 0)),
                },
                container_name: Some(format!("{} in {}", object.class, file.unwrap_or_default())),
            });
        }
    }
    Ok(Some(WorkspaceSymbolResponse::Flat(out)))
}

/// Icons that read as what the asset is.
fn symbol_kind(kind: AssetKind) -> SymbolKind {
    match kind {
        AssetKind::Class => SymbolKind::CLASS,
        AssetKind::Texture => SymbolKind::FILE,
        AssetKind::Mesh | AssetKind::StaticMesh => SymbolKind::STRUCT,
        AssetKind::Animation => SymbolKind::FUNCTION,
        AssetKind::Sound | AssetKind::Music => SymbolKind::EVENT,
        AssetKind::Font => SymbolKind::STRING,
    }
}

/// `unrealLs/findAssets`: the hits with their package file, path inside it, class and export
/// index (what `unrealLs/objectPreview` takes); `indexed: false` while the index is being
/// built or when there is no game folder.
pub fn find_assets(
    index: Option<&Arc<PackageIndex>>,
    params: &FindAssetsParams,
) -> FindAssetsResult {
    let Some(index) = index else {
        return FindAssetsResult { indexed: false, assets: Vec::new() };
    };
    let limit = params.limit.unwrap_or(DEFAULT_LIMIT).min(MAX_LIMIT);
    let assets = index
        .find_assets(&params.query, limit)
        .iter()
        .filter_map(|hit| found_asset(index, hit))
        .collect();
    FindAssetsResult { indexed: true, assets }
}

fn found_asset(index: &PackageIndex, hit: &AssetHit) -> Option<FoundAsset> {
    let (package, object) = index.entry(hit.id)?;
    let uri = Uri::from_file_path(&package.path)?;
    Some(FoundAsset {
        name: index.full_path(hit.id),
        package: package.name.clone(),
        path: object.path.to_string(),
        class: object.class.to_string(),
        kind: hit.kind.name().to_owned(),
        uri: uri.as_str().to_owned(),
        export: object.export,
    })
}

fn symbols_of(
    snapshot: &DocumentSnapshot<'_>,
    params: &WorkspaceSymbolParams,
    out: &mut Vec<SymbolInformation>,
) {
    if snapshot.t3d().is_none() {
        return;
    }
    let document = DocumentAnalysis::of(snapshot);
    let Some(analysis) = document.analysis() else { return };
    for symbol in analysis.workspace_symbols(&params.query) {
        #[allow(deprecated)] // `deprecated` is a required field of the protocol type
        out.push(SymbolInformation {
            name: symbol.name,
            kind: super::document_symbol::kind(symbol.kind),
            tags: None,
            deprecated: None,
            location: Location {
                uri: snapshot.uri.clone(),
                range: document::range(snapshot, symbol.selection_span),
            },
            container_name: symbol.class,
        });
    }
}
