//! The `LanguageServer` implementation: one thin method per LSP message. Notifications update
//! the document store synchronously (before their first `.await`, so that tower-lsp-server,
//! which starts handlers in arrival order, applies a burst of edits in order); requests take
//! a snapshot and run their feature on a blocking thread behind a panic guard.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError, RwLock};

use serde_json::Value;
use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::{
    CodeActionParams, CodeActionResponse, ConfigurationItem, DidChangeConfigurationParams,
    DidChangeTextDocumentParams, DidChangeWatchedFilesParams, DidChangeWorkspaceFoldersParams,
    DidCloseTextDocumentParams, DidOpenTextDocumentParams, ExecuteCommandParams, InitializeParams,
    InitializeResult, InitializedParams, MessageType, Registration, ServerInfo, Uri,
    WorkspaceFolder,
};
use tower_lsp_server::ls_types::{
    CompletionParams, CompletionResponse, DocumentFormattingParams, DocumentRangeFormattingParams,
    DocumentSymbolParams, DocumentSymbolResponse, FoldingRange, FoldingRangeParams,
    GotoDefinitionParams, GotoDefinitionResponse, Hover, HoverParams, InlayHint, InlayHintParams,
    Location, PrepareRenameResponse, ReferenceParams, RenameParams, SelectionRange,
    SelectionRangeParams, SemanticTokensDeltaParams, SemanticTokensFullDeltaResult,
    SemanticTokensParams, SemanticTokensRangeParams, SemanticTokensRangeResult,
    SemanticTokensResult, TextDocumentPositionParams, TextEdit, WorkspaceEdit,
    WorkspaceSymbolParams, WorkspaceSymbolResponse,
};
use tower_lsp_server::{Client, LanguageServer};

use super::documents::{DocumentHandle, DocumentSnapshot, EditProblem, Session};
use super::ext::{self, FindAssets, LevelScene, MapPreview, ObjectPreview, PackageTree};
use super::features;
use super::options::ServerOptions;
use super::position::PositionEncoding;
use super::scheduler::Scheduler;
use super::settings::Settings;
use super::shared::Shared;
use tower_lsp_server::ls_types::request::Request as _;

/// How much of a document a request reads, which decides whether it runs on the document
/// (under its lock) or on a copy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reads {
    /// The blocks at a cursor or in a range: parsed in microseconds, under the lock.
    AtCursor,
    /// The whole document (outline, folding, references...): on a copy.
    Whole,
}

/// What `#exec` lines read: classes, meshes, images, sounds and packages (compressed ones too:
/// the index holds them).
const WATCHED_FILES: &str =
    "**/*.{uc,uci,t3d,3d,psk,pskx,psa,pcx,bmp,tga,dds,png,wav,u,utx,uax,umx,usx,ukx,unr,usm,ut2,uz,uz2}";

/// The `unrealLs` settings section, as clients name it.
const SETTINGS_SECTION: &str = "unrealLs";

/// State shared by the protocol handlers and the diagnostics worker.
pub struct Backend {
    shared: Arc<Shared>,
    scheduler: Scheduler,
    shutdown: Arc<AtomicBool>,
    /// Settings problems found during `initialize`, logged once the client listens.
    startup_problems: Mutex<Vec<String>>,
    /// The client registers file watchers on request (`workspace/didChangeWatchedFiles`).
    watches_files: AtomicBool,
    /// Between `initialize` and `shutdown`: requests are served (see [`super::direct`]).
    serving: Arc<AtomicBool>,
}

impl Backend {
    pub fn new(client: Client, options: ServerOptions) -> Self {
        Self {
            shared: Arc::new(Shared {
                client,
                options,
                documents: Mutex::default(),
                session: RwLock::default(),
                publish_gate: tokio::sync::Mutex::default(),
                diagnostics_sent: tokio::sync::Notify::new(),
                input_ended: tokio::sync::watch::Sender::new(false),
                settings_settled: tokio::sync::watch::Sender::new(true),
                direct_out: std::sync::OnceLock::new(),
            }),
            scheduler: Scheduler::default(),
            shutdown: Arc::new(AtomicBool::new(false)),
            startup_problems: Mutex::default(),
            watches_files: AtomicBool::new(false),
            serving: Arc::new(AtomicBool::new(false)),
        }
    }

    /// The workspace's package index, once built.
    /// `unrealLs/findAssets`.
    pub async fn find_assets(
        &self,
        params: ext::FindAssetsParams,
    ) -> Result<ext::FindAssetsResult> {
        let index = self.package_index();
        off_thread(FindAssets::METHOD, move || {
            Ok(features::workspace_symbol::find_assets(index.as_ref(), &params))
        })
        .await
    }

    /// `unrealLs/mapPreview`: the overview picture of a T3D map, from the open document's
    /// text when it is open (so it follows edits), else from the file.
    pub async fn map_preview(
        &self,
        params: ext::MapPreviewParams,
    ) -> Result<ext::MapPreviewResult> {
        let handle = self.document_handle(&params.uri);
        off_thread(MapPreview::METHOD, move || {
            let open = handle.map(|h| h.read(|snapshot| snapshot.text().to_owned()));
            features::preview::map_preview(&params, open)
        })
        .await
    }

    /// `unrealLs/levelScene`: a T3D map's built level for a 3D view, from the open
    /// document's text when it is open, textured from the packages its checks use.
    pub async fn level_scene(
        &self,
        params: ext::LevelSceneParams,
    ) -> Result<ext::LevelSceneResult> {
        let handle = self.document_handle(&params.uri);
        let session = self.shared.session();
        // Set when this request's future is dropped (the client cancelled it): the build,
        // on its blocking thread, stops at the next brush.
        let cancelled = super::guard::CancelOnDrop::default();
        let flag = cancelled.flag();
        off_thread(LevelScene::METHOD, move || {
            let open = handle.map(|h| {
                let probe = h.clone();
                features::level_scene::OpenMap {
                    version: h.read(|snapshot| snapshot.version),
                    kept: Arc::clone(&h.level_scene),
                    current: Box::new(move || probe.read(|snapshot| snapshot.version)),
                    text: Box::new(move || {
                        h.read(|snapshot| (snapshot.version, snapshot.text().to_owned()))
                    }),
                }
            });
            features::level_scene::level_scene(&session, &params, open, &flag)
        })
        .await
    }

    /// `unrealLs/packageTree`.
    pub async fn package_tree(
        &self,
        params: ext::PackageTreeParams,
    ) -> Result<ext::PackageTreeResult> {
        off_thread(PackageTree::METHOD, move || features::preview::package_tree(&params)).await
    }

    /// `unrealLs/objectPreview`.
    pub async fn object_preview(
        &self,
        params: ext::ObjectPreviewParams,
    ) -> Result<ext::ObjectPreviewResult> {
        // A mesh whose materials are in the game's other packages is textured from them
        // (the workspace's package index, once built).
        let packages = self.package_index();
        off_thread(ObjectPreview::METHOD, move || {
            features::preview::object_preview(&params, packages.as_deref())
        })
        .await
    }

    /// The workspace's index of package objects ([`super::workspace::Workspace::package_objects`]).
    pub fn package_index(&self) -> Option<Arc<unreal_analysis::index::PackageIndex>> {
        self.shared.session().workspace.package_objects()
    }

    /// A handle on the open document `uri` (`None` when it is not open), to read on a
    /// blocking thread.
    pub fn document_handle(&self, uri: &Uri) -> Option<DocumentHandle> {
        self.shared.handle(uri)
    }

    /// What the layer that writes big answers straight to the output needs
    /// ([`super::direct::DirectAnswers`]).
    pub fn direct(&self) -> super::direct::Direct {
        super::direct::Direct {
            shared: Arc::clone(&self.shared),
            serving: Arc::clone(&self.serving),
            opens: Arc::default(),
            analyse: Arc::new(self.scheduler.requeue_handle()),
        }
    }

    /// Set once the client sent `shutdown`; decides the exit code.
    pub fn shutdown_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.shutdown)
    }

    /// Runs a request's feature on the document as it is now (its current text and blocks,
    /// read under the content's lock), on a blocking thread. No open document: no answer. A
    /// panic becomes an error response and a log entry; the server stays up.
    pub async fn with_document<T, F>(
        &self,
        method: &'static str,
        uri: &Uri,
        feature: F,
    ) -> Result<Option<T>>
    where
        T: Send + 'static,
        F: FnOnce(&DocumentSnapshot<'_>) -> Result<Option<T>> + Send + 'static,
    {
        self.with_document_reading(method, uri, Reads::AtCursor, feature).await
    }

    /// [`Self::with_document`] for a feature that reads as much as `reads` says: one that
    /// parses the whole document runs on a copy ([`DocumentHandle::read_copy`]).
    pub async fn with_document_reading<T, F>(
        &self,
        method: &'static str,
        uri: &Uri,
        reads: Reads,
        feature: F,
    ) -> Result<Option<T>>
    where
        T: Send + 'static,
        F: FnOnce(&DocumentSnapshot<'_>) -> Result<Option<T>> + Send + 'static,
    {
        let Some(handle) = self.shared.handle(uri) else {
            return Ok(None);
        };
        let run = move || match reads {
            Reads::AtCursor => handle.read(feature),
            Reads::Whole => handle.read_copy(feature),
        };
        match super::guard::off_thread(run).await {
            Ok(answer) => answer,
            Err(reason) => {
                let message =
                    format!("{method} on {} failed: internal error: {reason}", uri.as_str());
                self.shared.log(MessageType::ERROR, &message).await;
                Err(super::guard::internal_error(message))
            }
        }
    }

    /// Replaces the settings and re-analyses every open document with them. `null` says
    /// nothing (a client without an `unrealLs` section answers so) and keeps the settings
    /// as they are, those from `initializationOptions` included.
    async fn apply_settings(&self, value: &Value) {
        if value.is_null() {
            return;
        }
        let (settings, problems) = Settings::from_json(value);
        for problem in problems {
            self.shared.log(MessageType::WARNING, &problem).await;
        }
        self.shared.update_session(|session| session.settings = settings);
        // Checks every open document again, with the game directory the settings name.
        super::indexing::update(&self.shared, &self.scheduler).await;
    }

    /// Asks the client to report changes to the files `#exec` lines import and to classes
    /// (`workspace/didChangeWatchedFiles`), which the `.uc` checks cache.
    async fn watch_package_files(&self) {
        let watchers = serde_json::json!({ "watchers": [
            { "globPattern": WATCHED_FILES },
            { "globPattern": "**/unreal-ls.toml" },
        ] });
        let registration = Registration {
            id: "unreal-ls-watched-files".to_owned(),
            method: "workspace/didChangeWatchedFiles".to_owned(),
            register_options: Some(watchers),
        };
        if let Err(err) =
            self.shared.ask_client(self.shared.client.register_capability(vec![registration])).await
        {
            let message = format!("cannot watch package files: {}", err.message);
            self.shared.log(MessageType::WARNING, &message).await;
        }
    }

    /// Asks the client for the `unrealLs` section (`workspace/configuration`).
    async fn pull_settings(&self) {
        let item =
            ConfigurationItem { scope_uri: None, section: Some(SETTINGS_SECTION.to_owned()) };
        match self.shared.ask_client(self.shared.client.configuration(vec![item])).await {
            Ok(values) => {
                let value = values.into_iter().next().unwrap_or(Value::Null);
                self.apply_settings(&value).await;
            }
            Err(err) => {
                let message = format!("workspace/configuration failed: {}", err.message);
                self.shared.log(MessageType::WARNING, &message).await;
            }
        }
    }
}

fn folder_paths(folders: &[WorkspaceFolder]) -> Vec<PathBuf> {
    folders.iter().filter_map(|f| super::file_uri::file_path(&f.uri)).collect()
}

impl LanguageServer for Backend {
    async fn initialize(&self, params: InitializeParams) -> Result<InitializeResult> {
        let capabilities = &params.capabilities;
        let encoding = PositionEncoding::negotiate(
            capabilities.general.as_ref().and_then(|g| g.position_encodings.as_deref()),
        );
        let (settings, problems) = match &params.initialization_options {
            Some(options) => Settings::from_json(options),
            None => (Settings::default(), Vec::new()),
        };
        *self.startup_problems.lock().unwrap_or_else(PoisonError::into_inner) = problems;
        #[allow(deprecated)] // root_uri is what older clients send instead of folders
        let roots = match (&params.workspace_folders, &params.root_uri) {
            (Some(folders), _) => folder_paths(folders),
            (None, Some(root)) => {
                super::file_uri::file_path(root).map(|p| vec![p]).unwrap_or_default()
            }
            (None, None) => Vec::new(),
        };
        let hover = crate::lsp::hover_formats::HoverFormats::negotiate(
            capabilities
                .text_document
                .as_ref()
                .and_then(|t| t.hover.as_ref())
                .and_then(|h| h.content_format.as_deref()),
        );
        let workspace = capabilities.workspace.as_ref();
        let versioned_edits = workspace
            .and_then(|w| w.workspace_edit.as_ref())
            .and_then(|e| e.document_changes)
            .unwrap_or(false);
        let pulls_configuration = workspace.and_then(|w| w.configuration).unwrap_or(false);
        let watches_files = workspace
            .and_then(|w| w.did_change_watched_files)
            .and_then(|w| w.dynamic_registration)
            .unwrap_or(false);
        self.watches_files.store(watches_files, Ordering::SeqCst);
        let text_document = capabilities.text_document.as_ref();
        let formats_by_registration = text_document.is_some_and(|t| {
            t.formatting.as_ref().and_then(|f| f.dynamic_registration) == Some(true)
                && t.range_formatting.as_ref().and_then(|f| f.dynamic_registration) == Some(true)
        });
        self.shared.update_session(|session| {
            let workspace = std::mem::take(&mut session.workspace);
            *session = Session {
                encoding,
                hover,
                settings,
                roots,
                versioned_edits,
                pulls_configuration,
                formats_by_registration,
                workspace,
            };
        });
        let progress = capabilities.window.as_ref().and_then(|w| w.work_done_progress);
        let workspace = &self.shared.session().workspace;
        workspace.progress.store(progress == Some(true), Ordering::SeqCst);
        let notice = capabilities
            .experimental
            .as_ref()
            .and_then(|e| e.pointer("/unrealLs/gameDirectoryMissing"))
            .and_then(serde_json::Value::as_bool);
        workspace.notice_by_client.store(notice == Some(true), Ordering::SeqCst);
        let picks = capabilities
            .experimental
            .as_ref()
            .and_then(|e| e.pointer("/unrealLs/pickTexture"))
            .and_then(serde_json::Value::as_bool);
        workspace.picks_textures.store(picks == Some(true), Ordering::SeqCst);
        // What `initialized` reads (the client's settings, `unreal-ls.toml`) decides the first
        // diagnostics: they wait for it.
        self.shared.settings_settled.send_replace(false);
        self.scheduler.start(Arc::clone(&self.shared));
        self.serving.store(true, Ordering::SeqCst);
        Ok(InitializeResult {
            capabilities: features::capabilities(&self.shared.session()),
            server_info: Some(ServerInfo {
                name: "unreal-ls".to_owned(),
                version: Some(env!("CARGO_PKG_VERSION").to_owned()),
            }),
            offset_encoding: None,
        })
    }

    async fn initialized(&self, _: InitializedParams) {
        let problems = std::mem::take(
            &mut *self.startup_problems.lock().unwrap_or_else(PoisonError::into_inner),
        );
        for problem in problems {
            self.shared.log(MessageType::WARNING, &problem).await;
        }
        let session = self.shared.session();
        let message = format!(
            "unreal-ls {} ready (positions in {:?})",
            env!("CARGO_PKG_VERSION"),
            session.encoding
        );
        self.shared.log(MessageType::INFO, &message).await;
        if session.pulls_configuration {
            self.pull_settings().await;
        }
        if session.formats_by_registration {
            let registrations = features::formatting::t3d_registrations();
            if let Err(err) = self.shared.client.register_capability(registrations).await {
                let message = format!("cannot register formatting for T3D: {}", err.message);
                self.shared.log(MessageType::WARNING, &message).await;
            }
        }
        if self.watches_files.load(Ordering::SeqCst) {
            self.watch_package_files().await;
        }
        super::indexing::update(&self.shared, &self.scheduler).await;
        self.shared.settings_settled.send_replace(true);
    }

    /// Files that `.uc` checks read changed: forget what was read and check again.
    async fn did_change_watched_files(&self, params: DidChangeWatchedFilesParams) {
        super::indexing::files_changed(&self.shared, &self.scheduler, &params.changes).await;
        self.shared.session().workspace.lint_sessions.clear();
        let uris: Vec<Uri> = self.shared.documents().uris().cloned().collect();
        for uri in uris {
            self.scheduler.changed(uri, std::time::Duration::ZERO);
        }
        // The workspace's problems: a changed map or class is checked again (a class with its
        // package); a changed package, mesh, image or sound may change any file's findings.
        let paths: Vec<PathBuf> =
            params.changes.iter().filter_map(|c| super::file_uri::file_path(&c.uri)).collect();
        let is_text = |p: &PathBuf| {
            p.extension().and_then(|e| e.to_str()).is_some_and(|e| {
                ["uc", "uci", "t3d"].iter().any(|text| e.eq_ignore_ascii_case(text))
            })
        };
        let is_config = |p: &PathBuf| {
            p.file_name()
                .is_some_and(|n| n.eq_ignore_ascii_case(unreal_analysis::config::CONFIG_FILE_NAME))
        };
        // A changed unreal-ls.toml has re-read the configuration, which checks everything.
        if paths.iter().any(is_config) {
            return;
        }
        if paths.iter().all(is_text) {
            super::workspace_problems::check_files(&self.shared, paths);
        } else {
            super::workspace_problems::check_workspace(&self.shared);
        }
    }

    async fn shutdown(&self) -> Result<()> {
        self.serving.store(false, Ordering::SeqCst);
        self.shutdown.store(true, Ordering::SeqCst);
        Ok(())
    }

    async fn did_open(&self, params: DidOpenTextDocumentParams) {
        let uri = self.shared.open_document(params);
        self.scheduler.changed(uri, std::time::Duration::ZERO);
    }

    async fn did_change(&self, params: DidChangeTextDocumentParams) {
        let uri = params.text_document.uri;
        let encoding = self.shared.session().encoding;
        // Everything up to the first `.await` runs when tower-lsp-server first polls this
        // handler, which it does in arrival order: the edit lands before any later message
        // is looked at.
        let outcome = {
            let mut documents = self.shared.documents();
            documents.get_mut(&uri).map(|document| {
                let version = params.text_document.version;
                let mut content = document.content();
                let problems: Vec<EditProblem> = params
                    .content_changes
                    .into_iter()
                    .filter_map(|change| content.apply_change(change, encoding))
                    .collect();
                content.version = version;
                drop(content);
                let previous = std::mem::replace(&mut document.version, version);
                (problems, previous)
            })
        };
        let Some((problems, previous)) = outcome else {
            let message = format!("didChange for {}, which is not open; ignored", uri.as_str());
            self.shared.log(MessageType::WARNING, &message).await;
            return;
        };
        self.scheduler.changed(uri.clone(), self.shared.options.debounce);
        if params.text_document.version <= previous {
            let message = format!(
                "didChange for {} went from version {previous} to {}",
                uri.as_str(),
                params.text_document.version
            );
            self.shared.log(MessageType::WARNING, &message).await;
        }
        for EditProblem::ReversedRange(range) in problems {
            let message = format!(
                "didChange for {}: reversed range {range:?}, applied with its ends swapped",
                uri.as_str()
            );
            self.shared.log(MessageType::WARNING, &message).await;
        }
    }

    async fn did_close(&self, params: DidCloseTextDocumentParams) {
        let uri = params.text_document.uri;
        self.shared.documents().close(&uri);
        self.scheduler.closed(uri.clone());
        // A closed file of the workspace shows its problems as they are on disk (the
        // workspace check's); any other closed file's are no longer tracked: leave no stale
        // squiggles behind (unless it was opened again meanwhile and has fresh ones).
        let session = self.shared.session();
        let path = super::file_uri::file_path(&uri);
        if let Some(path) = path.filter(|p| {
            session.settings.workspace_problems()
                && super::workspace_problems::in_workspace(&session, p)
        }) {
            session.workspace.problems.mark_shown(&uri);
            super::workspace_problems::check_files(&self.shared, vec![path]);
            return;
        }
        let _gate = self.shared.publish_gate.lock().await;
        if self.shared.documents().get(&uri).is_none() {
            self.shared.client.publish_diagnostics(uri, Vec::new(), None).await;
        }
    }

    async fn did_change_configuration(&self, params: DidChangeConfigurationParams) {
        let empty = params.settings.is_null()
            || params.settings.as_object().is_some_and(serde_json::Map::is_empty);
        // Clients on the pull model send an empty notification as a "go and ask" signal.
        if empty && self.shared.session().pulls_configuration {
            self.pull_settings().await;
        } else {
            self.apply_settings(&params.settings).await;
        }
    }

    async fn did_change_workspace_folders(&self, params: DidChangeWorkspaceFoldersParams) {
        let added = folder_paths(&params.event.added);
        let removed = folder_paths(&params.event.removed);
        self.shared.update_session(|session| {
            session.roots.retain(|root| !removed.contains(root));
            session.roots.extend(added);
        });
        super::indexing::update(&self.shared, &self.scheduler).await;
    }

    async fn code_action(&self, params: CodeActionParams) -> Result<Option<CodeActionResponse>> {
        let uri = params.text_document.uri.clone();
        // Asked by the editor on its own: the squiggles go first.
        self.shared.after_diagnostics(&uri).await;
        self.with_document("textDocument/codeAction", &uri, move |snapshot| {
            features::code_action::handle(snapshot, &params)
        })
        .await
    }

    async fn execute_command(&self, params: ExecuteCommandParams) -> Result<Option<Value>> {
        if params.command == features::deps::DEPS_COMMAND {
            let uri = features::deps::argument(&params.arguments)?;
            // An open map is read as the editor holds it.
            let open = self.shared.handle(&uri).map(|h| h.read(|s| s.text().to_owned()));
            let session = self.shared.session();
            return off_thread(features::deps::DEPS_COMMAND, move || {
                let text = match open {
                    Some(text) => text,
                    None => features::diff::read_file(&uri)?,
                };
                features::deps::needs(&session, &uri, &text)
            })
            .await
            .map(Some);
        }
        if params.command == features::texture_actions::REPLACE_COMMAND {
            let (uri, old, new) = features::texture_actions::arguments(&params.arguments)?;
            let Some(handle) = self.shared.handle(&uri) else {
                return Err(tower_lsp_server::jsonrpc::Error::invalid_params(format!(
                    "{}: not open",
                    uri.as_str()
                )));
            };
            return off_thread(features::texture_actions::REPLACE_COMMAND, move || {
                handle.read(|snapshot| features::texture_actions::replace(snapshot, &old, &new))
            })
            .await
            .map(Some);
        }
        if params.command != features::diff::DIFF_COMMAND {
            return Err(tower_lsp_server::jsonrpc::Error::invalid_params(format!(
                "unknown command `{}`",
                params.command
            )));
        }
        let (old, new) = features::diff::arguments(&params.arguments)?;
        // An open map is compared as the editor holds it.
        let text_of = |uri: &Uri| self.shared.handle(uri).map(|h| h.read(|s| s.text().to_owned()));
        let (old_text, new_text) = (text_of(&old), text_of(&new));
        let answer = super::guard::off_thread_expensive(move || {
            let old_text = match old_text {
                Some(text) => text,
                None => features::diff::read_file(&old)?,
            };
            let new_text = match new_text {
                Some(text) => text,
                None => features::diff::read_file(&new)?,
            };
            features::diff::compare((&old, &old_text), (&new, &new_text))
        })
        .await;
        match answer {
            Ok(result) => result.map(Some),
            Err(reason) => {
                let message = format!("{} failed: internal error: {reason}", params.command);
                self.shared.log(MessageType::ERROR, &message).await;
                Err(super::guard::internal_error(message))
            }
        }
    }

    async fn hover(&self, params: HoverParams) -> Result<Option<Hover>> {
        let uri = params.text_document_position_params.text_document.uri.clone();
        self.with_document("textDocument/hover", &uri, move |snapshot| {
            features::hover::handle(snapshot, &params)
        })
        .await
    }

    async fn completion(&self, params: CompletionParams) -> Result<Option<CompletionResponse>> {
        let uri = params.text_document_position.text_document.uri.clone();
        self.with_document_reading("textDocument/completion", &uri, Reads::Whole, move |snapshot| {
            features::completion::handle(snapshot, &params)
        })
        .await
    }

    async fn goto_definition(
        &self,
        params: GotoDefinitionParams,
    ) -> Result<Option<GotoDefinitionResponse>> {
        let uri = params.text_document_position_params.text_document.uri.clone();
        self.with_document_reading("textDocument/definition", &uri, Reads::Whole, move |snapshot| {
            features::definition::handle(snapshot, &params)
        })
        .await
    }

    async fn references(&self, params: ReferenceParams) -> Result<Option<Vec<Location>>> {
        let uri = params.text_document_position.text_document.uri.clone();
        self.with_document_reading("textDocument/references", &uri, Reads::Whole, move |snapshot| {
            features::references::handle(snapshot, &params)
        })
        .await
    }

    async fn prepare_rename(
        &self,
        params: TextDocumentPositionParams,
    ) -> Result<Option<PrepareRenameResponse>> {
        let uri = params.text_document.uri.clone();
        self.with_document_reading(
            "textDocument/prepareRename",
            &uri,
            Reads::Whole,
            move |snapshot| features::rename::prepare(snapshot, &params),
        )
        .await
    }

    async fn rename(&self, params: RenameParams) -> Result<Option<WorkspaceEdit>> {
        let uri = params.text_document_position.text_document.uri.clone();
        self.with_document_reading("textDocument/rename", &uri, Reads::Whole, move |snapshot| {
            features::rename::handle(snapshot, &params)
        })
        .await
    }

    async fn document_symbol(
        &self,
        params: DocumentSymbolParams,
    ) -> Result<Option<DocumentSymbolResponse>> {
        let uri = params.text_document.uri.clone();
        // Asked by the editor on its own: the squiggles go first.
        self.shared.after_diagnostics(&uri).await;
        self.with_document_reading(
            "textDocument/documentSymbol",
            &uri,
            Reads::Whole,
            move |snapshot| features::document_symbol::handle(snapshot, &params),
        )
        .await
    }

    async fn folding_range(&self, params: FoldingRangeParams) -> Result<Option<Vec<FoldingRange>>> {
        let uri = params.text_document.uri.clone();
        // Asked by the editor on its own: the squiggles go first.
        self.shared.after_diagnostics(&uri).await;
        self.with_document_reading(
            "textDocument/foldingRange",
            &uri,
            Reads::Whole,
            move |snapshot| features::folding_range::handle(snapshot, &params),
        )
        .await
    }

    async fn selection_range(
        &self,
        params: SelectionRangeParams,
    ) -> Result<Option<Vec<SelectionRange>>> {
        let uri = params.text_document.uri.clone();
        self.with_document("textDocument/selectionRange", &uri, move |snapshot| {
            features::selection_range::handle(snapshot, &params)
        })
        .await
    }

    async fn semantic_tokens_full(
        &self,
        params: SemanticTokensParams,
    ) -> Result<Option<SemanticTokensResult>> {
        let uri = params.text_document.uri.clone();
        // Asked by the editor on its own: the squiggles go first.
        self.shared.after_diagnostics(&uri).await;
        self.with_document_reading(
            "textDocument/semanticTokens/full",
            &uri,
            Reads::Whole,
            move |snapshot| features::semantic_tokens::full(snapshot, &params),
        )
        .await
    }

    async fn semantic_tokens_full_delta(
        &self,
        params: SemanticTokensDeltaParams,
    ) -> Result<Option<SemanticTokensFullDeltaResult>> {
        let uri = params.text_document.uri.clone();
        // Asked by the editor on its own: the squiggles go first.
        self.shared.after_diagnostics(&uri).await;
        let method = "textDocument/semanticTokens/full/delta";
        self.with_document_reading(method, &uri, Reads::Whole, move |snapshot| {
            features::semantic_tokens::full_delta(snapshot, &params)
        })
        .await
    }

    async fn semantic_tokens_range(
        &self,
        params: SemanticTokensRangeParams,
    ) -> Result<Option<SemanticTokensRangeResult>> {
        let uri = params.text_document.uri.clone();
        // Asked by the editor on its own: the squiggles go first.
        self.shared.after_diagnostics(&uri).await;
        self.with_document("textDocument/semanticTokens/range", &uri, move |snapshot| {
            features::semantic_tokens::range(snapshot, &params)
        })
        .await
    }

    async fn inlay_hint(&self, params: InlayHintParams) -> Result<Option<Vec<InlayHint>>> {
        let uri = params.text_document.uri.clone();
        // Asked by the editor on its own: the squiggles go first.
        self.shared.after_diagnostics(&uri).await;
        self.with_document("textDocument/inlayHint", &uri, move |snapshot| {
            features::inlay_hint::handle(snapshot, &params)
        })
        .await
    }

    async fn formatting(&self, params: DocumentFormattingParams) -> Result<Option<Vec<TextEdit>>> {
        let uri = params.text_document.uri.clone();
        self.with_document_reading("textDocument/formatting", &uri, Reads::Whole, move |snapshot| {
            features::formatting::full(snapshot, &params)
        })
        .await
    }

    async fn range_formatting(
        &self,
        params: DocumentRangeFormattingParams,
    ) -> Result<Option<Vec<TextEdit>>> {
        let uri = params.text_document.uri.clone();
        self.with_document("textDocument/rangeFormatting", &uri, move |snapshot| {
            features::formatting::range(snapshot, &params)
        })
        .await
    }

    async fn symbol(
        &self,
        params: WorkspaceSymbolParams,
    ) -> Result<Option<WorkspaceSymbolResponse>> {
        let (handles, index): (Vec<DocumentHandle>, _) = {
            let session = self.shared.session();
            let documents = self.shared.documents();
            let uris: Vec<Uri> = documents.uris().cloned().collect();
            let handles = uris.iter().filter_map(|uri| documents.handle(uri, &session)).collect();
            (handles, session.workspace.package_objects())
        };
        match super::guard::off_thread_expensive(move || {
            features::workspace_symbol::handle(&handles, index.as_ref(), &params)
        })
        .await
        {
            Ok(answer) => answer,
            Err(reason) => {
                let message = format!("workspace/symbol failed: internal error: {reason}");
                self.shared.log(MessageType::ERROR, &message).await;
                Err(super::guard::internal_error(message))
            }
        }
    }
}

/// Answers one of the server's own requests (previews, 3D scenes, asset searches, dependency
/// lists: the expensive ones) off the async threads, in one of the expensive lanes
/// ([`super::guard::off_thread_expensive`]); a panic becomes an internal error naming the
/// method.
async fn off_thread<T: Send + 'static>(
    method: &'static str,
    f: impl FnOnce() -> Result<T> + Send + 'static,
) -> Result<T> {
    super::guard::off_thread_expensive(f).await.unwrap_or_else(|reason| {
        Err(super::guard::internal_error(format!("{method} failed: internal error: {reason}")))
    })
}
