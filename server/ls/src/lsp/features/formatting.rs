//! `textDocument/formatting` and `/rangeFormatting`: UnrealEd's layout. A document with
//! syntax errors is left alone (no edits).

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::{
    DocumentFormattingParams, DocumentRangeFormattingParams, OneOf, Registration,
    ServerCapabilities, TextEdit,
};
use unreal_analysis::ide::t3d::formatting::{self, EditSink, FormatOptions};
use unreal_analysis::lint::FileKind;

use super::document::{self, DocumentAnalysis};

use crate::lsp::documents::{DocumentSnapshot, Session};

/// Static formatting capabilities, for clients that cannot register them later: they cover
/// every document the client sends, and UnrealScript gets `null`.
pub fn register(caps: &mut ServerCapabilities, session: &Session) {
    if !session.formats_by_registration {
        caps.document_formatting_provider = Some(OneOf::Left(true));
        caps.document_range_formatting_provider = Some(OneOf::Left(true));
    }
}

/// The T3D documents a formatter is registered for.
pub const T3D_SELECTOR: &str = "t3d";

/// The registrations of formatting and range formatting for T3D documents only, which the
/// server asks for (`client/registerCapability`) after `initialized`. A formatter registered
/// for UnrealScript, even one that answers `null`, makes VS Code ask "There are multiple
/// formatters for 'UnrealScript' files" beside an extension that formats UnrealScript (ucx).
pub fn t3d_registrations() -> Vec<Registration> {
    let selector = serde_json::json!({ "documentSelector": [{ "language": T3D_SELECTOR }] });
    ["textDocument/formatting", "textDocument/rangeFormatting"]
        .map(|method| Registration {
            id: format!("unreal-ls-{method}"),
            method: method.to_owned(),
            register_options: Some(selector.clone()),
        })
        .to_vec()
}

pub fn full(
    snapshot: &DocumentSnapshot,
    _params: &DocumentFormattingParams,
) -> Result<Option<Vec<TextEdit>>> {
    let document = DocumentAnalysis::of(snapshot);
    let Some(edits) = document.analysis().and_then(|a| a.format(FormatOptions::default())) else {
        return Ok(None);
    };
    Ok(edits.ok().map(|edits| document::into_edits(snapshot, edits)))
}

/// [`full`] with each edit handed to `sink` as it is made (the stdio answer writes them
/// straight into its frame: `lsp/direct.rs`). Reads only the text, so the snapshot may have
/// no T3D document ([`crate::lsp::documents::DocumentHandle::read_text_copy`]). False when
/// the answer is `null` (not a T3D document, or one with syntax errors); the sink may then
/// have received a part.
pub fn full_into(
    snapshot: &DocumentSnapshot,
    _params: &DocumentFormattingParams,
    sink: &mut dyn EditSink,
) -> bool {
    snapshot.kind() == Some(FileKind::T3d)
        && formatting::format_document_into(snapshot.text(), FormatOptions::default(), sink).is_ok()
}

pub fn range(
    snapshot: &DocumentSnapshot,
    params: &DocumentRangeFormattingParams,
) -> Result<Option<Vec<TextEdit>>> {
    let span = snapshot.span(params.range);
    let document = DocumentAnalysis::of(snapshot);
    let Some(analysis) = document.analysis() else { return Ok(None) };
    let Some(edits) = analysis.format_range(span, FormatOptions::default()) else {
        return Ok(None);
    };
    Ok(edits.ok().map(|edits| document::edits(snapshot, &edits)))
}
