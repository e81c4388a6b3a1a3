//! `textDocument/inlayHint`: flag names after `Flags=` values, vertex counts after
//! `Begin Polygon`.

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::{
    InlayHint, InlayHintKind, InlayHintLabel, InlayHintParams, OneOf, ServerCapabilities,
};
use unreal_analysis::ide::t3d::inlay_hints::InlayKind;
use unreal_syntax::Span;

use super::document::DocumentAnalysis;
use crate::lsp::documents::{DocumentSnapshot, Session};

pub fn register(caps: &mut ServerCapabilities, _session: &Session) {
    caps.inlay_hint_provider = Some(OneOf::Left(true));
}

pub fn handle(
    snapshot: &DocumentSnapshot,
    params: &InlayHintParams,
) -> Result<Option<Vec<InlayHint>>> {
    let range = snapshot.span(params.range);
    let document = DocumentAnalysis::of(snapshot);
    let Some(hints) = document.analysis().and_then(|a| a.inlay_hints(range)) else {
        return Ok(None);
    };
    Ok(Some(
        hints
            .into_iter()
            .map(|h| InlayHint {
                position: snapshot.range(Span::empty_at(h.offset)).start,
                label: InlayHintLabel::String(h.label),
                kind: Some(match h.kind {
                    InlayKind::Flags => InlayHintKind::TYPE,
                    InlayKind::VertexCount => InlayHintKind::PARAMETER,
                }),
                text_edits: None,
                tooltip: None,
                padding_left: Some(true),
                padding_right: None,
                data: None,
            })
            .collect(),
    ))
}
