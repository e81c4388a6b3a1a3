//! The language server. Only this module tree knows LSP types; every answer it gives is
//! computed by a plain-data function of `unreal-analysis` and converted here.
//!
//! - [`dispatch`]: one road from the wire to a handler: document sync applied as it is read,
//!   every request to its one typed handler, the lifecycle to the protocol library;
//! - [`server`]: the handlers: the table of requests, document sync, the lifecycle;
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
//! - [`direct`]: answers serialized straight into their frames (the outline, the folds and
//!   the formatting of a big map written as they are made);
//! - [`framing`]: the JSON-RPC framing layer that answers or skips malformed messages, and
//!   the one writer of the output;
//! - [`opening`]: `didOpen` read straight from its frame, with no JSON tree;
//! - [`guard`]: turns a panic in the library's handlers into an error response, and runs
//!   work off the async threads;
//! - [`log`] and [`memory`]: the server's log and its memory reports.
#![deny(clippy::print_stdout, clippy::print_stderr)]

pub mod direct;
pub mod dispatch;
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

pub use options::{Analyzer, ServerOptions};
pub use server::Backend;

#[derive(clap::Args)]
pub struct LspArgs {
    /// Accepted for clients that always pass it; stdio is the only transport.
    #[arg(long)]
    pub stdio: bool,
}

/// Serves the protocol over `input` and `output` until `exit` (or the end of the input):
/// the client's bytes through the repairing framing layer, each message on its one road
/// ([`dispatch`]), answers written straight into their frames. What `unreal-ls lsp` runs over
/// stdio, and what the protocol tests run over in-memory pipes: one path for both. `true`
/// when the client sent `shutdown` first.
pub async fn serve_framed<R, W>(input: R, output: W, options: ServerOptions) -> bool
where
    R: tokio::io::AsyncRead + Unpin + Send + 'static,
    W: std::io::Write + Send + 'static,
{
    dispatch::serve(input, output, options, server::routes()).await
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
