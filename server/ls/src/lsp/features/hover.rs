//! `textDocument/hover`: poly flags, vectors, textures, classes, references and blocks.

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::{
    Hover, HoverContents, HoverParams, HoverProviderCapability, MarkupContent, MarkupKind,
    ServerCapabilities,
};

use super::exec::UcDocument;
use super::t3d::{self, Parsed};
use crate::lsp::documents::{DocumentSnapshot, Session};

pub fn register(caps: &mut ServerCapabilities, _session: &Session) {
    caps.hover_provider = Some(HoverProviderCapability::Simple(true));
}

pub fn handle(snapshot: &DocumentSnapshot, params: &HoverParams) -> Result<Option<Hover>> {
    let offset = t3d::offset(snapshot, params.text_document_position_params.position);
    let answer = if let Some(uc) = UcDocument::of(snapshot) {
        unreal_analysis::ide::exec::hover::hover(&uc.source(), offset)
    } else {
        let Some(parsed) = Parsed::at(snapshot, offset) else { return Ok(None) };
        let packages = snapshot.session.package_provider();
        unreal_analysis::ide::hover::hover(&parsed.source(), offset, &*packages)
    };
    Ok(answer.map(|h| Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            value: h.markdown,
        }),
        range: Some(t3d::range(snapshot, h.span)),
    }))
}
