//! The server's handlers: [`routes`], the table of every request the server answers (each
//! one line naming its method's type, how it reads its document and its feature), the
//! document notifications applied the moment they are read ([`Backend::did_open`],
//! [`Backend::did_change`], [`Backend::did_close`]), and what the protocol library serves
//! ([`Lifecycle`]: `initialize`, `initialized`, `shutdown`, settings and workspace changes).
//! How a message reaches them: [`super::dispatch`].

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError, RwLock};

use futures::future::{BoxFuture, FutureExt};
use serde_json::Value;
use tokio::sync::mpsc::UnboundedSender;
use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::request::{self as lsp, Request as _};
use tower_lsp_server::ls_types::{
    ConfigurationItem, DidChangeConfigurationParams, DidChangeTextDocumentParams,
    DidChangeWatchedFilesParams, DidChangeWorkspaceFoldersParams, DidCloseTextDocumentParams,
    DidOpenTextDocumentParams, ExecuteCommandParams, InitializeParams, InitializeResult,
    InitializedParams, MessageType, Registration, ServerInfo, Uri, WorkspaceFolder,
};
use tower_lsp_server::{Client, LanguageServer};

use super::direct::{self, Kept};
use super::dispatch::{self, Reads, Routes, When};
use super::documents::{DocumentHandle, EditProblem, Session};
use super::ext;
use super::features;
use super::framing::Outgoing;
use super::options::ServerOptions;
use super::position::PositionEncoding;
use super::scheduler::Scheduler;
use super::settings::Settings;
use super::shared::Shared;

/// Every request the server answers, each to its one handler: [`super::dispatch`] reads the
/// parameters as the method's type says, runs the handler (a panic becomes an internal error
/// naming the method) and writes the typed answer straight into the frame.
pub(super) fn routes() -> Routes {
    let mut routes = Routes::default();
    routes
        // At a cursor or in a range: the blocks there, parsed under the document's lock.
        .on::<lsp::HoverRequest>()
        .document(
            Reads::AtCursor,
            When::Now,
            |p| &p.text_document_position_params.text_document.uri,
            features::hover::handle,
        )
        .on::<lsp::SelectionRangeRequest>()
        .document(
            Reads::AtCursor,
            When::Now,
            |p| &p.text_document.uri,
            features::selection_range::handle,
        )
        .on::<lsp::RangeFormatting>()
        .document(Reads::AtCursor, When::Now, |p| &p.text_document.uri, features::formatting::range)
        // Asked by the editor on its own when a document opens or changes: the squiggles go
        // first.
        .on::<lsp::CodeActionRequest>()
        .document(
            Reads::AtCursor,
            When::AfterDiagnostics,
            |p| &p.text_document.uri,
            features::code_action::handle,
        )
        .on::<lsp::InlayHintRequest>()
        .document(
            Reads::AtCursor,
            When::AfterDiagnostics,
            |p| &p.text_document.uri,
            features::inlay_hint::handle,
        )
        .on::<lsp::SemanticTokensRangeRequest>()
        .document(
            Reads::AtCursor,
            When::AfterDiagnostics,
            |p| &p.text_document.uri,
            features::semantic_tokens::range,
        )
        .on::<lsp::SemanticTokensFullRequest>()
        .document(
            Reads::Whole,
            When::AfterDiagnostics,
            |p| &p.text_document.uri,
            features::semantic_tokens::full,
        )
        .on::<lsp::SemanticTokensFullDeltaRequest>()
        .document(
            Reads::Whole,
            When::AfterDiagnostics,
            |p| &p.text_document.uri,
            features::semantic_tokens::full_delta,
        )
        // The outline and the folds: written in pieces straight from what a big map's
        // segments keep, else from a copy.
        .on::<lsp::DocumentSymbolRequest>()
        .document(
            Reads::Kept(Kept::Symbols),
            When::AfterDiagnostics,
            |p| &p.text_document.uri,
            features::document_symbol::handle,
        )
        .on::<lsp::FoldingRangeRequest>()
        .document(
            Reads::Kept(Kept::Folds),
            When::AfterDiagnostics,
            |p| &p.text_document.uri,
            features::folding_range::handle,
        )
        // The whole document, on a copy.
        .on::<lsp::Completion>()
        .document(
            Reads::Whole,
            When::Now,
            |p| &p.text_document_position.text_document.uri,
            features::completion::handle,
        )
        // A mesh block's other lines: the package is read off the async threads, in an
        // expensive lane; other items come back at once.
        .on::<lsp::ResolveCompletionItem>()
        .request(|backend: Arc<Backend>, item| async move {
            if !features::exec_blocks::is_block_item(item.data.as_ref()) {
                return Ok(item);
            }
            dispatch::expensive(&backend.shared, lsp::ResolveCompletionItem::METHOD, move || {
                Ok(features::completion::resolve(item))
            })
            .await
        })
        .on::<lsp::GotoDefinition>()
        .document(
            Reads::Whole,
            When::Now,
            |p| &p.text_document_position_params.text_document.uri,
            features::definition::handle,
        )
        .on::<lsp::References>()
        .document(
            Reads::Whole,
            When::Now,
            |p| &p.text_document_position.text_document.uri,
            features::references::handle,
        )
        .on::<lsp::PrepareRenameRequest>()
        .document(Reads::Whole, When::Now, |p| &p.text_document.uri, features::rename::prepare)
        .on::<lsp::Rename>()
        .document(
            Reads::Whole,
            When::Now,
            |p| &p.text_document_position.text_document.uri,
            features::rename::handle,
        )
        // The whole document's formatting: the text alone, its edits written into the frame
        // as the formatter makes them.
        .on::<lsp::Formatting>()
        .document_framed(Reads::Text, When::Now, |p| &p.text_document.uri, direct::format_frame)
        // Beyond one document: each in one of the expensive lanes.
        .on::<lsp::WorkspaceSymbolRequest>()
        .expensive(|backend, params| {
            let session = backend.shared.session();
            let documents = backend.shared.documents();
            let handles: Vec<DocumentHandle> =
                documents.uris().filter_map(|uri| documents.handle(uri, &session)).collect();
            let index = session.workspace.package_objects();
            move || features::workspace_symbol::handle(&handles, index.as_ref(), &params)
        })
        .on::<lsp::ExecuteCommand>()
        .request(Backend::execute_command)
        .on::<ext::FindAssets>()
        .expensive(|backend, params| {
            let index = backend.package_index();
            move || Ok(features::workspace_symbol::find_assets(index.as_ref(), &params))
        })
        .on::<ext::PackageTree>()
        .expensive(|_, params| move || features::preview::package_tree(&params))
        // A mesh whose materials are in the game's other packages is textured from them (the
        // workspace's package index, once built).
        .on::<ext::ObjectPreview>()
        .expensive(|backend, params| {
            let packages = backend.package_index();
            // A PSK's axes follow the engine the file is for, resolved as `export` does.
            let path = features::preview::path_of(&params.uri).ok();
            let engine = backend.shared.session().engine(path.as_deref()).fixed();
            move || features::preview::object_preview(&params, packages.as_deref(), engine)
        })
        .on::<ext::ExecLines>()
        .expensive(|_, params| move || features::preview::exec_lines(&params))
        // The overview picture of a T3D map, from the open document's text when it is open
        // (so it follows edits), else from the file.
        .on::<ext::MapPreview>()
        .expensive(|backend, params| {
            let handle = backend.shared.handle(&params.uri);
            move || {
                let open = handle.map(|h| h.read(|snapshot| snapshot.text().to_owned()));
                features::preview::map_preview(&params, open)
            }
        })
        .on::<ext::LevelScene>()
        .request(Backend::level_scene);
    routes
}

/// What `#exec` lines read: classes, meshes, images, sounds and packages (compressed ones too:
/// the index holds them).
const WATCHED_FILES: &str =
    "**/*.{uc,uci,t3d,3d,psk,pskx,psa,pcx,bmp,tga,dds,png,wav,u,utx,uax,umx,usx,ukx,unr,usm,ut2,uz,uz2}";

/// The `unrealLs` settings section, as clients name it.
const SETTINGS_SECTION: &str = "unrealLs";

/// State shared by the protocol handlers and the diagnostics worker.
pub struct Backend {
    pub(super) shared: Arc<Shared>,
    scheduler: Scheduler,
    /// Set once the client sent `shutdown`.
    shutdown: AtomicBool,
    /// Settings problems found during `initialize`, logged once the client listens.
    startup_problems: Mutex<Vec<String>>,
    /// The client registers file watchers on request (`workspace/didChangeWatchedFiles`).
    watches_files: AtomicBool,
    /// Between `initialize` and `shutdown`: requests are served, document notifications
    /// applied ([`super::dispatch`]).
    serving: AtomicBool,
}

impl Backend {
    pub fn new(client: Client, options: ServerOptions, out: UnboundedSender<Outgoing>) -> Self {
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
                out,
            }),
            scheduler: Scheduler::default(),
            shutdown: AtomicBool::new(false),
            startup_problems: Mutex::default(),
            watches_files: AtomicBool::new(false),
            serving: AtomicBool::new(false),
        }
    }

    /// Between `initialize` and `shutdown`: requests are served, document notifications
    /// applied.
    pub fn serving(&self) -> bool {
        self.serving.load(Ordering::SeqCst)
    }

    /// Whether the client sent `shutdown`; decides the exit code.
    pub fn shutdown_requested(&self) -> bool {
        self.shutdown.load(Ordering::SeqCst)
    }

    /// The client's input has ended: requests to the client give up at once.
    pub(super) fn input_ended(&self) {
        self.shared.input_ended.send_replace(true);
    }

    /// The workspace's index of package objects ([`super::workspace::Workspace::package_objects`]).
    pub fn package_index(&self) -> Option<Arc<unreal_analysis::index::PackageIndex>> {
        self.shared.session().workspace.package_objects()
    }

    /// `textDocument/didOpen`: the document joins the store and is queued for analysis.
    /// Called the moment the message is read, however it was read (straight from its frame,
    /// [`super::opening`], or by serde).
    pub(super) fn did_open(&self, params: DidOpenTextDocumentParams) {
        let uri = self.shared.open_document(params);
        self.scheduler.changed(uri, std::time::Duration::ZERO);
    }

    /// `textDocument/didChange`: the edits applied now, under the document's lock, in the
    /// order the messages came (the dispatcher calls this the moment the message is read,
    /// before it looks at the next). What it returns logs what was odd about them.
    pub(super) fn did_change(&self, params: DidChangeTextDocumentParams) -> BoxFuture<'static, ()> {
        let uri = params.text_document.uri;
        let encoding = self.shared.session().encoding;
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
        let shared = Arc::clone(&self.shared);
        let Some((problems, previous)) = outcome else {
            return async move {
                let message = format!("didChange for {}, which is not open; ignored", uri.as_str());
                shared.log(MessageType::WARNING, &message).await;
            }
            .boxed();
        };
        self.scheduler.changed(uri.clone(), self.shared.options.debounce);
        let version = params.text_document.version;
        async move {
            if version <= previous {
                let message = format!(
                    "didChange for {} went from version {previous} to {version}",
                    uri.as_str(),
                );
                shared.log(MessageType::WARNING, &message).await;
            }
            for EditProblem::ReversedRange(range) in problems {
                let message = format!(
                    "didChange for {}: reversed range {range:?}, applied with its ends swapped",
                    uri.as_str()
                );
                shared.log(MessageType::WARNING, &message).await;
            }
        }
        .boxed()
    }

    /// `textDocument/didClose`: the document leaves the store now, in the order the messages
    /// came. What it returns clears its diagnostics, or shows them as the workspace check
    /// finds them on disk.
    pub(super) fn did_close(&self, params: DidCloseTextDocumentParams) -> BoxFuture<'static, ()> {
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
            return futures::future::ready(()).boxed();
        }
        let shared = Arc::clone(&self.shared);
        async move {
            let _gate = shared.publish_gate.lock().await;
            if shared.documents().get(&uri).is_none() {
                let frame = direct::diagnostics_frame(&uri, std::iter::empty(), None);
                // The writer is gone only when the server is stopping.
                let _ = shared.out.send(frame.into());
            }
        }
        .boxed()
    }

    /// `workspace/executeCommand`: the map comparison, a map's dependencies and the
    /// replacement of a texture everywhere.
    async fn execute_command(
        self: Arc<Self>,
        params: ExecuteCommandParams,
    ) -> Result<Option<Value>> {
        if params.command == features::deps::DEPS_COMMAND {
            let uri = features::deps::argument(&params.arguments)?;
            // An open map is read as the editor holds it.
            let open = self.shared.handle(&uri).map(|h| h.read(|s| s.text().to_owned()));
            let session = self.shared.session();
            return dispatch::expensive(&self.shared, features::deps::DEPS_COMMAND, move || {
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
            return dispatch::expensive(
                &self.shared,
                features::texture_actions::REPLACE_COMMAND,
                move || {
                    handle.read(|snapshot| features::texture_actions::replace(snapshot, &old, &new))
                },
            )
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
        let command = params.command;
        dispatch::expensive(&self.shared, &command, move || {
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
        .await
        .map(Some)
    }

    /// `unrealLs/levelScene`: a T3D map's built level for a 3D view, from the open
    /// document's text when it is open, textured from the packages its checks use.
    async fn level_scene(
        self: Arc<Self>,
        params: ext::LevelSceneParams,
    ) -> Result<ext::LevelSceneResult> {
        let handle = self.shared.handle(&params.uri);
        let session = self.shared.session();
        // Set when this request's future is dropped (the client cancelled it): the build,
        // on its blocking thread, stops at the next brush.
        let cancelled = super::guard::CancelOnDrop::default();
        let flag = cancelled.flag();
        dispatch::expensive(&self.shared, ext::LevelScene::METHOD, move || {
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

    // What the protocol library serves, through [`Lifecycle`].

    fn initialize(&self, params: &InitializeParams) -> InitializeResult {
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
        InitializeResult {
            capabilities: features::capabilities(&self.shared.session()),
            server_info: Some(ServerInfo {
                name: "unreal-ls".to_owned(),
                version: Some(env!("CARGO_PKG_VERSION").to_owned()),
            }),
            offset_encoding: None,
        }
    }

    async fn initialized(&self) {
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

    fn shutdown(&self) {
        self.serving.store(false, Ordering::SeqCst);
        self.shutdown.store(true, Ordering::SeqCst);
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

/// What the protocol library serves of the server: the lifecycle (`initialize`,
/// `initialized`, `shutdown`; `exit` is the library's own) and the notifications that are not
/// document sync. Requests and document sync never reach it ([`super::dispatch`]).
pub struct Lifecycle(pub(super) Arc<Backend>);

impl LanguageServer for Lifecycle {
    async fn initialize(&self, params: InitializeParams) -> Result<InitializeResult> {
        Ok(self.0.initialize(&params))
    }

    async fn initialized(&self, _: InitializedParams) {
        self.0.initialized().await;
    }

    async fn shutdown(&self) -> Result<()> {
        self.0.shutdown();
        Ok(())
    }

    async fn did_change_configuration(&self, params: DidChangeConfigurationParams) {
        self.0.did_change_configuration(params).await;
    }

    async fn did_change_workspace_folders(&self, params: DidChangeWorkspaceFoldersParams) {
        self.0.did_change_workspace_folders(params).await;
    }

    async fn did_change_watched_files(&self, params: DidChangeWatchedFilesParams) {
        self.0.did_change_watched_files(params).await;
    }
}
