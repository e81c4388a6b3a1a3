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
    /// The writer of whole frames (the output thread): answers and published diagnostics
    /// are serialized straight into a frame for it ([`super::direct`]).
    pub out: tokio::sync::mpsc::UnboundedSender<super::framing::Outgoing>,
    /// Woken whenever a document's diagnostics were published or its analysis ended without
    /// publishing: what [`Shared::after_diagnostics`] waits for.
    pub diagnostics_sent: tokio::sync::Notify,
    /// Set when the client's input has ended (stdin closed): a request the server sent the
    /// client can no longer be answered ([`Shared::ask_client`]).
    pub input_ended: tokio::sync::watch::Sender<bool>,
    /// False from `initialize` until `initialized` has read the settings (pulled from a
    /// client that answers `workspace/configuration`) and the workspace's configuration:
    /// diagnostics wait for them ([`Shared::settings_settled`]), so a rule the user turned off
    /// is never shown first and a document opened meanwhile is analysed once.
    pub settings_settled: tokio::sync::watch::Sender<bool>,
}

/// How long diagnostics wait at most for the client's settings ([`Shared::settings_settled`]).
const SETTINGS_FIRST_WAIT: std::time::Duration = std::time::Duration::from_secs(2);

/// How long a request that [`Shared::after_diagnostics`] holds back waits at most.
const DIAGNOSTICS_FIRST_WAIT: std::time::Duration = std::time::Duration::from_secs(2);

impl Shared {
    /// The document store. Never held across an `.await`.
    pub fn documents(&self) -> MutexGuard<'_, Documents> {
        self.documents.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Waits until `initialized` has read the settings and the configuration (at most
    /// [`SETTINGS_FIRST_WAIT`], and not at all once the client's input has ended): an editor
    /// sends `didOpen` right after `initialized`, before it has answered the server's
    /// `workspace/configuration`, and the first diagnostics must already follow the user's
    /// settings.
    pub async fn settings_settled(&self) {
        let mut settled = self.settings_settled.subscribe();
        let mut ended = self.input_ended.subscribe();
        let wait = async {
            tokio::select! {
                _ = settled.wait_for(|s| *s) => {}
                _ = ended.wait_for(|e| *e) => {}
            }
        };
        let _ = tokio::time::timeout(SETTINGS_FIRST_WAIT, wait).await;
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
    /// ask).
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

    /// Waits until the diagnostics of `uri`'s current version are published, for at most
    /// [`DIAGNOSTICS_FIRST_WAIT`]. The requests an editor sends on its own when a document
    /// opens or changes (outline, folding, semantic tokens, inlay hints, code actions) call
    /// this first, so that the squiggles are computed and sent before them instead of
    /// queueing behind their answers: opening a 4 MB map, VS Code asked for six such answers
    /// (7 MB of JSON) along with the document, and the diagnostics came after some of them.
    /// A closed document, or one whose diagnostics are current, does not wait.
    pub async fn after_diagnostics(&self, uri: &Uri) {
        let deadline = tokio::time::Instant::now() + DIAGNOSTICS_FIRST_WAIT;
        loop {
            let sent = self.diagnostics_sent.notified();
            tokio::pin!(sent);
            // Registered before the check, so that a publish between the two still wakes it.
            sent.as_mut().enable();
            let pending = self
                .documents()
                .get(uri)
                .is_some_and(|document| document.published.version != Some(document.version));
            if !pending || tokio::time::timeout_at(deadline, sent).await.is_err() {
                return;
            }
        }
    }

    /// A request to the client (`workspace/configuration`, `client/registerCapability`,
    /// `window/workDoneProgress/create`), given up with an error once the client's input has
    /// ended: its answer can never come, and a handler waiting for it kept the protocol
    /// library, so the server, running forever after the client closed stdin.
    pub async fn ask_client<T>(
        &self,
        request: impl std::future::Future<Output = tower_lsp_server::jsonrpc::Result<T>>,
    ) -> tower_lsp_server::jsonrpc::Result<T> {
        let mut ended = self.input_ended.subscribe();
        tokio::select! {
            answer = request => answer,
            _ = ended.wait_for(|ended| *ended) => Err(tower_lsp_server::jsonrpc::Error {
                code: tower_lsp_server::jsonrpc::ErrorCode::InternalError,
                message: "the client's input ended before it answered".into(),
                data: None,
            }),
        }
    }

    /// Logs to the client; errors also go to stderr, which survives a client that is not
    /// listening (not initialized yet, or gone). Every message is one line of the log: a
    /// line break in a name it quotes from a file (a package's, an object's) is escaped, so
    /// that no file can write a line of its own into the log.
    pub async fn log(&self, typ: MessageType, message: &str) {
        let message = unreal_formats::printable::printable_message(message);
        if typ == MessageType::ERROR {
            super::log::stderr(&message);
        }
        self.client.log_message(typ, message.into_owned()).await;
    }
}
