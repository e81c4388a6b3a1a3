//! `textDocument/hover`: poly flags, vectors, textures, classes, references and blocks.

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::{
    Hover, HoverContents, HoverParams, HoverProviderCapability, MarkupContent, MarkupKind,
    ServerCapabilities,
};

use super::document::{self, DocumentAnalysis};
use crate::lsp::documents::{DocumentSnapshot, Session};
use crate::lsp::hover_formats::HoverFormats;

pub fn register(caps: &mut ServerCapabilities, _session: &Session) {
    caps.hover_provider = Some(HoverProviderCapability::Simple(true));
}

pub fn handle(snapshot: &DocumentSnapshot, params: &HoverParams) -> Result<Option<Hover>> {
    let offset = document::offset(snapshot, params.text_document_position_params.position);
    let document = DocumentAnalysis::of(snapshot);
    let Some(analysis) = document.analysis() else { return Ok(None) };
    let answer = analysis.hover(offset);
    Ok(answer.map(|h| Hover {
        contents: HoverContents::Markup(contents(h.markdown, h.image, snapshot.session.hover)),
        range: Some(document::range(snapshot, h.span)),
    }))
}

/// The hover's text as the client reads it: Markdown (with the picture as a PNG `data:` URI
/// when the client named Markdown among its hover formats), or plain text for a client that
/// reads only that.
fn contents(
    markdown: String,
    image: Option<unreal_analysis::ide::t3d::hover::HoverImage>,
    formats: HoverFormats,
) -> MarkupContent {
    match (formats, image) {
        (HoverFormats::PlainText, _) => {
            MarkupContent { kind: MarkupKind::PlainText, value: without_images(&markdown) }
        }
        (HoverFormats::Markdown { images: true }, Some(image)) => {
            let alt: String =
                image.alt.chars().filter(|c| !matches!(c, '[' | ']' | '\\')).collect();
            let uri = unreal_assets::preview::png_data_uri(&image.png);
            MarkupContent {
                kind: MarkupKind::Markdown,
                value: format!("{markdown}\n\n![{alt}]({uri})"),
            }
        }
        (HoverFormats::Markdown { .. }, _) => {
            MarkupContent { kind: MarkupKind::Markdown, value: markdown }
        }
    }
}

/// Markdown with its inline `data:` images (texture thumbnails in T3D hovers) left out, for
/// a client that shows hovers as plain text.
fn without_images(markdown: &str) -> String {
    let mut out = String::with_capacity(markdown.len());
    let mut rest = markdown;
    while let Some(start) = rest.find("![") {
        let image_end = rest[start..].find("](data:").and_then(|mid| {
            let after = start + mid + 2;
            rest[after..].find(')').map(|close| after + close + 1)
        });
        let Some(end) = image_end else { break };
        out.push_str(&rest[..start]);
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::without_images;

    #[test]
    fn plain_text_drops_inline_images() {
        assert_eq!(
            without_images("- size: 8x8\n- preview: ![Wood](data:image/png;base64,AAAA)\n- end"),
            "- size: 8x8\n- preview: \n- end"
        );
        assert_eq!(without_images("a ![b](http://x) c"), "a ![b](http://x) c");
    }
}
