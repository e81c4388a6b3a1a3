//! What every part of the running server shares: the client, the server's options, the open
//! documents and the current session (settings and workspace). The server's handlers, the
//! diagnostics scheduler and the workspace's indexing all reach the client through it.

use std::sync::{Arc, Mutex, MutexGuard, PoisonError, RwLock};

use tower_lsp_server::ls_types::{DidOpenTextDocumentParams, MessageType, Uri};
use tower_lsp_server::Client;

use super::documents::{Document, DocumentHandle, Documents, Session};
use super::options::ServerOptions;

pub struct Shared {
    pub client: Client,
    pub options: ServerOptions,
    pub(crate) documents: Mutex<Documents>,
    pub(crate) session: RwLock<Arc<Session>>,
    /// Held while deciding to publish and publishing, so that publishes and the clearing on
    /// `didClose` never interleave.
    pub publish_gate: tokio::sync::Mutex<()>,
    /// Over stdio, the writer of whole frames: published diagnostics are serialized straight
    /// into a frame for it ([`super::direct`]) instead of going through the protocol
    /// library's JSON tree. Unset in-process (tests), where the library sends them.
    pub direct_out:
        std::sync::OnceLock<tokio::sync::mpsc::UnboundedSender<super::framing::Outgoing>>,
}

impl Shared {
    /// The document store. Never held across an `.await`.
    pub fn documents(&self) -> MutexGuard<'_, Documents> {
        self.documents.lock().unwrap_or_else(PoisonError::into_inner)
    }

    pub fn session(&self) -> Arc<Session> {
        Arc::clone(&self.session.read().unwrap_or_else(PoisonError::into_inner))
    }

    pub(crate) fn update_session(&self, update: impl FnOnce(&mut Session)) {
        let mut guard = self.session.write().unwrap_or_else(PoisonError::into_inner);
        let mut session = Session::clone(&guard);
        update(&mut session);
        *guard = Arc::new(session);
    }

    /// `didOpen`: the document joins the store (its first analysis is for the caller to
    /// ask). The library's `didOpen` handler and a `didOpen` read straight from its frame
    /// ([`super::opening`]) both come here.
    pub(crate) fn open_document(&self, params: DidOpenTextDocumentParams) -> Uri {
        let item = params.text_document;
        let document = Document::new(item.text, item.version, item.language_id);
        self.documents().open(item.uri.clone(), document);
        item.uri
    }

    /// A handle on the open document `uri`, to read after the store's lock is released.
    pub fn handle(&self, uri: &Uri) -> Option<DocumentHandle> {
        let session = self.session();
        self.documents().handle(uri, &session)
    }

    /// Logs to the client; errors also go to stderr, which survives a client that is not
    /// listening (not initialized yet, or gone).
    pub async fn log(&self, typ: MessageType, message: &str) {
        if typ == MessageType::ERROR {
            super::log::stderr(message);
        }
        self.client.log_message(typ, message).await;
    }
}
