//! `textDocument/semanticTokens/full` and `/range`, with the legend analysis defines.

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::{
    SemanticToken, SemanticTokenModifier, SemanticTokenType, SemanticTokens,
    SemanticTokensFullOptions, SemanticTokensLegend, SemanticTokensOptions, SemanticTokensParams,
    SemanticTokensRangeParams, SemanticTokensRangeResult, SemanticTokensResult,
    SemanticTokensServerCapabilities, ServerCapabilities, WorkDoneProgressOptions,
};
use unreal_analysis::ide::semantic_tokens::{self as analysis, TOKEN_MODIFIERS, TOKEN_TYPES};
use unreal_syntax::Span;

use super::exec::UcDocument;
use super::t3d::Parsed;
use crate::lsp::documents::{DocumentSnapshot, Session};

pub fn register(caps: &mut ServerCapabilities, _session: &Session) {
    caps.semantic_tokens_provider =
        Some(SemanticTokensServerCapabilities::SemanticTokensOptions(SemanticTokensOptions {
            legend: SemanticTokensLegend {
                token_types: TOKEN_TYPES.iter().map(|t| SemanticTokenType::new(t.name())).collect(),
                token_modifiers: TOKEN_MODIFIERS
                    .iter()
                    .map(|m| SemanticTokenModifier::new(m))
                    .collect(),
            },
            range: Some(true),
            full: Some(SemanticTokensFullOptions::Bool(true)),
            work_done_progress_options: WorkDoneProgressOptions::default(),
        }));
}

pub fn full(
    snapshot: &DocumentSnapshot,
    _params: &SemanticTokensParams,
) -> Result<Option<SemanticTokensResult>> {
    Ok(tokens(snapshot, None).map(SemanticTokensResult::Tokens))
}

pub fn range(
    snapshot: &DocumentSnapshot,
    params: &SemanticTokensRangeParams,
) -> Result<Option<SemanticTokensRangeResult>> {
    let span = snapshot.span(params.range);
    Ok(tokens(snapshot, Some(span)).map(SemanticTokensRangeResult::Tokens))
}

/// Tokens in the protocol's relative encoding; lengths in the negotiated position unit.
fn tokens(snapshot: &DocumentSnapshot, range: Option<Span>) -> Option<SemanticTokens> {
    let found = if let Some(uc) = UcDocument::of(snapshot) {
        unreal_analysis::ide::exec::semantic_tokens::semantic_tokens(&uc.source(), range)
    } else {
        let parsed = match range {
            Some(span) => Parsed::around(snapshot, span)?,
            None => Parsed::whole(snapshot)?,
        };
        analysis::semantic_tokens(&parsed.source(), range)
    };
    let mut data = Vec::with_capacity(found.len());
    let (mut line, mut start) = (0u32, 0u32);
    for token in found {
        let r = snapshot.range(token.span);
        if r.end.line != r.start.line {
            continue;
        }
        let delta_line = r.start.line - line;
        let delta_start =
            if delta_line == 0 { r.start.character - start } else { r.start.character };
        data.push(SemanticToken {
            delta_line,
            delta_start,
            length: r.end.character - r.start.character,
            token_type: token.token_type.index(),
            token_modifiers_bitset: token.modifiers,
        });
        line = r.start.line;
        start = r.start.character;
    }
    Some(SemanticTokens { result_id: None, data })
}
