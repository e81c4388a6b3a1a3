//! One file per LSP feature. A feature is plain code over a [`DocumentSnapshot`]: it converts
//! LSP positions to byte offsets, calls one method of the document's
//! [`unreal_analysis::ide::Analysis`] ([`document::DocumentAnalysis`] makes it, for a map or a
//! class alike), and converts the answer back. It never touches locks, the client or async
//! code; the dispatcher runs it on a blocking thread with a panic guard
//! (`dispatch::On::document`).
//!
//! Adding a feature (hover, say):
//! 1. `Analysis::hover` in `unreal-analysis` (`ide/analysis.rs`), answering for both languages;
//! 2. `features/hover.rs` with `pub fn register(caps: &mut ServerCapabilities, session: &Session)`
//!    (set `hover_provider`) and `pub fn handle(snapshot: &DocumentSnapshot, params: &HoverParams)
//!    -> jsonrpc::Result<Option<Hover>>`;
//! 3. a `pub mod hover;` line and a `hover::register` call in [`capabilities`] below;
//! 4. in `server.rs`, its line in `routes`: `.on::<lsp::HoverRequest>().document(Reads::AtCursor,
//!    When::Now, |p| &p.text_document_position_params.text_document.uri,
//!    features::hover::handle)`.
//!
//! [`DocumentSnapshot`]: super::documents::DocumentSnapshot

pub mod code_action;
pub mod completion;
pub mod definition;
pub mod deps;
pub mod diagnostics;
pub mod diff;
pub mod document;
pub mod document_symbol;
pub mod exec;
pub mod exec_blocks;
pub mod folding_range;
pub mod formatting;
pub mod hover;
pub mod inlay_hint;
pub mod level_scene;
pub mod other_files;
pub mod polygon_actions;
pub mod preview;
pub mod references;
pub mod rename;
pub mod selection_range;
pub mod semantic_tokens;
pub mod texture_actions;
pub mod workspace_symbol;

use tower_lsp_server::ls_types::{
    OneOf, ServerCapabilities, TextDocumentSyncCapability, TextDocumentSyncKind,
    TextDocumentSyncOptions, WorkspaceFoldersServerCapabilities, WorkspaceServerCapabilities,
};

use super::documents::Session;

/// What the server advertises: document sync and workspace folders, plus whatever each
/// feature registers.
pub fn capabilities(session: &Session) -> ServerCapabilities {
    let mut caps = ServerCapabilities {
        position_encoding: Some(session.encoding.kind()),
        text_document_sync: Some(TextDocumentSyncCapability::Options(TextDocumentSyncOptions {
            open_close: Some(true),
            change: Some(TextDocumentSyncKind::INCREMENTAL),
            ..TextDocumentSyncOptions::default()
        })),
        workspace: Some(WorkspaceServerCapabilities {
            workspace_folders: Some(WorkspaceFoldersServerCapabilities {
                supported: Some(true),
                change_notifications: Some(OneOf::Left(true)),
            }),
            file_operations: None,
        }),
        ..ServerCapabilities::default()
    };
    diagnostics::register(&mut caps, session);
    code_action::register(&mut caps, session);
    hover::register(&mut caps, session);
    completion::register(&mut caps, session);
    definition::register(&mut caps, session);
    references::register(&mut caps, session);
    rename::register(&mut caps, session);
    document_symbol::register(&mut caps, session);
    workspace_symbol::register(&mut caps, session);
    folding_range::register(&mut caps, session);
    selection_range::register(&mut caps, session);
    semantic_tokens::register(&mut caps, session);
    inlay_hint::register(&mut caps, session);
    formatting::register(&mut caps, session);
    preview::register(&mut caps, session);
    diff::register(&mut caps, session);
    caps
}
