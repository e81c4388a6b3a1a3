//! `textDocument/documentSymbol`: the outline (a map's actors; a brush file's polygons).

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::{
    DocumentSymbol, DocumentSymbolParams, DocumentSymbolResponse, OneOf, ServerCapabilities,
    SymbolKind,
};
use unreal_analysis::ide::t3d::symbols::{self, SymbolKind as Kind};
use unreal_analysis::t3d::actors::{ActorKind, ClassKind};

use super::document::{self, DocumentAnalysis};
use crate::lsp::documents::{DocumentSnapshot, Session};

pub fn register(caps: &mut ServerCapabilities, _session: &Session) {
    caps.document_symbol_provider = Some(OneOf::Left(true));
}

pub fn handle(
    snapshot: &DocumentSnapshot,
    _params: &DocumentSymbolParams,
) -> Result<Option<DocumentSymbolResponse>> {
    let document = DocumentAnalysis::of(snapshot);
    let Some(analysis) = document.analysis() else { return Ok(None) };
    let outline = analysis.document_symbols(symbols::OUTLINE_POLYGONS_UP_TO);
    Ok(Some(DocumentSymbolResponse::Nested(
        outline.into_iter().map(|s| convert(snapshot, s)).collect(),
    )))
}

/// Symbols nest as blocks do, which the parser bounds, so the recursion is bounded too.
pub fn convert(snapshot: &DocumentSnapshot, symbol: symbols::DocumentSymbol) -> DocumentSymbol {
    #[allow(deprecated)] // `deprecated` is a required field of the protocol type
    DocumentSymbol {
        name: symbol.name,
        detail: symbol.detail,
        kind: kind(symbol.kind),
        tags: None,
        deprecated: None,
        range: document::range(snapshot, symbol.span),
        selection_range: document::range(snapshot, symbol.selection_span),
        children: Some(symbol.children.into_iter().map(|c| convert(snapshot, c)).collect()),
    }
}

pub fn kind(kind: Kind) -> SymbolKind {
    match kind {
        Kind::Map => SymbolKind::NAMESPACE,
        // Kinds a client sorts by (VS Code's "Sort By: Category"), with icons that read as
        // what they are: a brush as a structure, a mover or volume as an interface, a light
        // as an event (a flash), a player start as a constructor, a pickup as a package (a
        // box), a trigger as a function, a path node as an enum member.
        Kind::Actor(ActorKind::Brush | ActorKind::BuilderBrush) | Kind::Brush => SymbolKind::STRUCT,
        Kind::Actor(ActorKind::BrushShaped | ActorKind::Named(ClassKind::Mover)) => {
            SymbolKind::INTERFACE
        }
        Kind::Actor(ActorKind::Named(ClassKind::Light)) => SymbolKind::EVENT,
        Kind::Actor(ActorKind::Named(ClassKind::PlayerStart)) => SymbolKind::CONSTRUCTOR,
        Kind::Actor(ActorKind::Named(ClassKind::Pickup)) => SymbolKind::PACKAGE,
        Kind::Actor(ActorKind::Named(ClassKind::Trigger)) | Kind::Directive => SymbolKind::FUNCTION,
        Kind::Actor(ActorKind::Named(ClassKind::PathNode)) => SymbolKind::ENUM_MEMBER,
        Kind::Actor(ActorKind::Other) => SymbolKind::OBJECT,
        Kind::PolyList => SymbolKind::ARRAY,
        Kind::Polygon => SymbolKind::FIELD,
        Kind::Object => SymbolKind::CLASS,
        Kind::Block => SymbolKind::MODULE,
    }
}
