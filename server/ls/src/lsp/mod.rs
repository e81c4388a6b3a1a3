//! The language server. Only this module tree knows LSP types; every answer it gives is
//! computed by a plain-data function of `unreal-analysis` and converted here.
//!
//! - [`server`]: the `LanguageServer` implementation, one thin method per LSP message;
//! - [`options`]: how the server is put together (`ServerOptions`);
//! - [`shared`]: what the handlers, the scheduler and the indexing share (client, documents,
//!   session);
//! - [`documents`]: open documents (text, line index, incremental T3D tree), edits, snapshots;
//! - [`position`]: the one place where LSP positions meet byte offsets;
//! - [`settings`]: `unrealLs.*` settings from `initializationOptions` and the client;
//! - [`workspace`]: `unreal-ls.toml`, the game folder and the package index of the workspace;
//! - [`indexing`]: building that index and keeping it current;
//! - [`workspace_problems`]: the problems of the workspace's files that are not open, checked
//!   from disk in the background as `lint` checks them;
//! - [`scheduler`]: coalesced diagnostics, computed off the async threads;
//! - [`features`]: one file per LSP feature, each a plain function over a snapshot;
//! - [`direct`]: big answers (outline, folding, formatting) serialized straight to the output;
//! - [`framing`]: the JSON-RPC framing layer that answers or skips malformed messages;
//! - [`opening`]: `didOpen` read straight from its frame, with no JSON tree;
//! - [`guard`]: turns a panic in any handler into an error response;
//! - [`log`] and [`memory`]: the server's log and its memory reports.
#![deny(clippy::print_stdout, clippy::print_stderr)]

pub mod direct;
pub mod documents;
pub mod ext;
pub mod features;
pub mod file_uri;
pub mod framing;
pub mod guard;
pub mod hover_formats;
pub mod indexing;
pub mod lint_sessions;
pub mod log;
pub mod memory;
pub mod opening;
pub mod options;
pub mod position;
pub mod scheduler;
pub mod server;
pub mod settings;
pub mod shared;
pub mod workspace;
pub mod workspace_problems;

use std::process::ExitCode;
use std::time::Duration;

use tower_lsp_server::ls_types::request::Request as _;
use tower_lsp_server::{ClientSocket, LspService, Server};

pub use options::{Analyzer, ServerOptions};
pub use server::Backend;

/// The server as a tower service: [`Backend`] behind tower-lsp-server's protocol layer,
/// behind the panic guard.
pub type Service = guard::CatchPanics<LspService<Backend>>;

/// How many requests the server takes on at once (see [`serve_framed`]).
const REQUESTS_IN_FLIGHT: usize = 64;

#[derive(clap::Args)]
pub struct LspArgs {
    /// Accepted for clients that always pass it; stdio is the only transport.
    #[arg(long)]
    pub stdio: bool,
}

/// Builds the server as a tower service: what [`run`] serves over stdio and what the
/// one test that calls a handler itself calls directly (the protocol tests and the benchmarks
/// are served with [`serve_framed`], as the binary is).
pub fn service(options: ServerOptions) -> (Service, ClientSocket) {
    let (service, socket) = LspService::build(|client| Backend::new(client, options))
        .custom_method(ext::PackageTree::METHOD, Backend::package_tree)
        .custom_method(ext::ObjectPreview::METHOD, Backend::object_preview)
        .custom_method(ext::MapPreview::METHOD, Backend::map_preview)
        .custom_method(ext::LevelScene::METHOD, Backend::level_scene)
        .custom_method(ext::FindAssets::METHOD, Backend::find_assets)
        .finish();
    (guard::CatchPanics::new(service), socket)
}

/// How long the server may go on answering what it was asked once the client's input has
/// ended (a script that pipes its requests in and reads the answers): then it stops anyway.
const INPUT_ENDED_GRACE: Duration = Duration::from_secs(10);

/// Serves the protocol over `input` and `output` until `exit` (or the end of the input):
/// the client's bytes through the repairing framing layer, `didOpen` read straight from its
/// frame, big answers written straight to the output. What `unreal-ls lsp` runs over stdio,
/// and what the protocol tests run over in-memory pipes: one path for both. `true` when the
/// client sent `shutdown` first.
pub async fn serve_framed<R, W>(input: R, output: W, options: ServerOptions) -> bool
where
    R: tokio::io::AsyncRead + Unpin + Send + 'static,
    W: std::io::Write + Send + 'static,
{
    let (service, socket) = service(options);
    let shutdown = service.get_ref().inner().shutdown_flag();
    let direct = service.get_ref().inner().direct();
    // The client's bytes go through the repairing layer (framing.rs) before the protocol
    // library sees them; its answers to malformed input and the library's own output
    // share one writer, whole frames at a time.
    let (frames_tx, frames_rx) = tokio::sync::mpsc::unbounded_channel();
    let (written, all_written) = std::sync::mpsc::channel();
    let writer = std::thread::Builder::new()
        .name("unreal-ls-out".to_owned())
        .spawn(move || framing::write_frames(output, frames_rx, &written));
    if let Err(err) = writer {
        log::stderr(&format!("cannot start the output thread: {err}"));
        return false;
    }
    let (to_server, from_pump) = tokio::io::duplex(1 << 16);
    let replies = frames_tx.clone();
    // A `didOpen` is read straight from its frame (opening.rs); the library gets a marker.
    let opens = std::sync::Arc::clone(&direct.opens);
    let take = move |body| opens.take(body);
    let shared = std::sync::Arc::clone(&direct.shared);
    let mut pump = tokio::spawn(framing::pump(input, to_server, replies, log::stderr, take));
    // Big answers skip the library's JSON tree and go to the writer as whole frames.
    let _ = direct.shared.direct_out.set(frames_tx.clone());
    let service = direct::DirectAnswers::new(service, direct, frames_tx.clone());
    // Requests in flight at once: the library's default of four let four slow previews hold
    // a hover back for their whole build. The expensive ones wait for a lane of their own
    // (`guard::off_thread_expensive`), so the rest always find room here.
    let serve = Server::new(from_pump, framing::FrameSink::new(frames_tx.clone()), socket)
        .concurrency_level(REQUESTS_IN_FLIGHT)
        .serve(service);
    tokio::pin!(serve);
    // The end of input ends the server (exit code 1 without `shutdown`, as after `exit`):
    // requests to the client give up at once, answers in flight get `INPUT_ENDED_GRACE`.
    let input_ended = async {
        let _ = (&mut pump).await;
        shared.input_ended.send_replace(true);
        tokio::time::sleep(INPUT_ENDED_GRACE).await;
    };
    tokio::select! {
        () = &mut serve => {}
        () = input_ended => {
            log::stderr("the input ended and the server did not finish in time: stopping");
        }
    }
    // Everything the server wrote goes out before the process ends: the writer stops at
    // the empty frame, after every frame queued before it.
    pump.abort();
    let _ = frames_tx.send(framing::Outgoing::Frame(Vec::new()));
    let _ =
        tokio::task::spawn_blocking(move || all_written.recv_timeout(Duration::from_secs(2))).await;
    shutdown.load(std::sync::atomic::Ordering::SeqCst)
}

/// `unreal-ls lsp`: serves the protocol over stdin/stdout until `exit`. Exit code 0 when the
/// client sent `shutdown` first, 1 otherwise (as the protocol asks).
pub fn run(_args: &LspArgs) -> ExitCode {
    memory::tune_allocator();
    let runtime = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(runtime) => runtime,
        Err(err) => {
            log::stderr(&format!("cannot start the async runtime: {err}"));
            return ExitCode::FAILURE;
        }
    };
    let shut_down = runtime.block_on(serve_framed(
        tokio::io::stdin(),
        std::io::stdout(),
        ServerOptions::default(),
    ));
    // Tokio's stdin reader is a blocking thread that may still wait for input (clients need
    // not close the pipe after `exit`), and an analysis may still be running: neither may
    // keep the process alive.
    runtime.shutdown_background();
    if shut_down {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
