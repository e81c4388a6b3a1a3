//! `textDocument/semanticTokens/full`, `/full/delta` and `/range`, with the legend analysis
//! defines. Full results carry a result id and are kept per document, so that the next
//! request sends one edit (the tokens between the unchanged start and end) instead of every
//! token again; documents above [`KEEP_TOKENS_UP_TO`] are answered in full each time instead,
//! because their tokens would take more memory than their text. Maps above
//! [`T3D_TOKENS_UP_TO`] get none.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::PoisonError;
use tower_lsp_server::jsonrpc::Result;

use tower_lsp_server::ls_types::{
    SemanticToken, SemanticTokenModifier, SemanticTokenType, SemanticTokens, SemanticTokensDelta,
    SemanticTokensDeltaParams, SemanticTokensEdit, SemanticTokensFullDeltaResult,
    SemanticTokensFullOptions, SemanticTokensLegend, SemanticTokensOptions, SemanticTokensParams,
    SemanticTokensRangeParams, SemanticTokensRangeResult, SemanticTokensResult,
    SemanticTokensServerCapabilities, ServerCapabilities, WorkDoneProgressOptions,
};
use unreal_analysis::ide::t3d::semantic_tokens::{TOKEN_MODIFIERS, TOKEN_TYPES};
use unreal_syntax::Span;

use super::document::DocumentAnalysis;
use crate::lsp::documents::{DocumentSnapshot, SentTokens, Session};

/// Documents up to this size keep their last tokens for deltas (a 10 MB map's would take
/// about 16 MB).
pub const KEEP_TOKENS_UP_TO: usize = 2 << 20;

/// Result ids, unique for the server's life.
static NEXT_RESULT: AtomicU64 = AtomicU64::new(1);

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
            full: Some(SemanticTokensFullOptions::Delta { delta: Some(true) }),
            work_done_progress_options: WorkDoneProgressOptions::default(),
        }));
}

pub fn full(
    snapshot: &DocumentSnapshot,
    _params: &SemanticTokensParams,
) -> Result<Option<SemanticTokensResult>> {
    Ok(tokens(snapshot, None).map(|tokens| SemanticTokensResult::Tokens(keep(snapshot, tokens))))
}

/// The change from the tokens sent as `previous_result_id`: one edit replacing what lies
/// between the tokens both have at the start and at the end. The whole tokens when that
/// result is not the one kept (a newer one was sent, or the document is too big to keep).
pub fn full_delta(
    snapshot: &DocumentSnapshot,
    params: &SemanticTokensDeltaParams,
) -> Result<Option<SemanticTokensFullDeltaResult>> {
    let Some(tokens) = tokens(snapshot, None) else { return Ok(None) };
    let previous = {
        let mut kept = snapshot.tokens.lock().unwrap_or_else(PoisonError::into_inner);
        kept.take().filter(|sent| sent.result_id == params.previous_result_id)
    };
    let Some(previous) = previous else {
        return Ok(Some(SemanticTokensFullDeltaResult::Tokens(keep(snapshot, tokens))));
    };
    let edits = edit_between(&previous.data, &tokens.data).into_iter().collect();
    let sent = keep(snapshot, tokens);
    Ok(Some(SemanticTokensFullDeltaResult::TokensDelta(SemanticTokensDelta {
        result_id: sent.result_id,
        edits,
    })))
}

/// Gives `tokens` a result id and keeps them as the document's last (when it is small
/// enough); without a result id the client asks in full next time.
fn keep(snapshot: &DocumentSnapshot, mut tokens: SemanticTokens) -> SemanticTokens {
    let mut kept = snapshot.tokens.lock().unwrap_or_else(PoisonError::into_inner);
    if snapshot.text().len() > KEEP_TOKENS_UP_TO {
        *kept = None;
        return tokens;
    }
    let result_id = NEXT_RESULT.fetch_add(1, Ordering::Relaxed).to_string();
    *kept = Some(SentTokens { result_id: result_id.clone(), data: tokens.data.clone() });
    tokens.result_id = Some(result_id);
    tokens
}

/// The single edit (in the protocol's units: five numbers per token) that turns `old` into
/// `new`, `None` when they are equal.
pub fn edit_between(old: &[SemanticToken], new: &[SemanticToken]) -> Option<SemanticTokensEdit> {
    let prefix = old.iter().zip(new).take_while(|(a, b)| a == b).count();
    let suffix = old[prefix..]
        .iter()
        .rev()
        .zip(new[prefix..].iter().rev())
        .take_while(|(a, b)| a == b)
        .count();
    let removed = old.len() - prefix - suffix;
    let added = &new[prefix..new.len() - suffix];
    if removed == 0 && added.is_empty() {
        return None;
    }
    Some(SemanticTokensEdit {
        start: (prefix * 5) as u32,
        delete_count: (removed * 5) as u32,
        data: Some(added.to_vec()),
    })
}

pub fn range(
    snapshot: &DocumentSnapshot,
    params: &SemanticTokensRangeParams,
) -> Result<Option<SemanticTokensRangeResult>> {
    let span = snapshot.span(params.range);
    Ok(tokens(snapshot, Some(span)).map(SemanticTokensRangeResult::Tokens))
}

/// T3D documents above this size get no semantic tokens: the editor's grammar colours them
/// as well (T3D's tokens add nothing a grammar cannot tell), and opening DM-Deck17 (4.2 MB)
/// in VS Code its full tokens were 3.4 MB of JSON that the editor decoded while the user
/// waited for the squiggles. None for the ranges either: VS Code drops range tokens once a
/// full answer arrives, so they would flash and vanish.
pub const T3D_TOKENS_UP_TO: usize = 1 << 20;

/// Tokens in the protocol's relative encoding; lengths in the negotiated position unit.
fn tokens(snapshot: &DocumentSnapshot, range: Option<Span>) -> Option<SemanticTokens> {
    if snapshot.t3d().is_some() && snapshot.text().len() > T3D_TOKENS_UP_TO {
        return None;
    }
    let document = DocumentAnalysis::of(snapshot);
    let found = document.analysis()?.semantic_tokens(range);
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
