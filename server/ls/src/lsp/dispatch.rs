//! One road from the wire to a handler.
//!
//! Every message the client sends takes one path: [`super::framing`] cuts the input into
//! checked frames (and answers the malformed ones itself), [`Incoming::read`] reads each
//! frame once (a `didOpen` straight from its bytes, [`super::opening`]), and [`serve`] hands
//! it to the one place that deals with its method:
//!
//! - **document sync** (`didOpen`, `didChange`, `didClose`) is applied here, by
//!   [`Backend`]'s plain functions, the moment the message is read: under the document
//!   store's lock, before anything later is looked at. A request or an edit read after a
//!   `didOpen` sees that document, whatever the size of its text.
//! - **requests** the server answers are looked up in [`Routes`], one typed handler per
//!   method (the table is `server::routes`): the parameters are read as the protocol types
//!   them, the handler runs, and its typed answer is serialized once, straight into the
//!   frame the writer thread writes ([`super::direct`]). A panic anywhere in it becomes an
//!   internal error naming the method; `$/cancelRequest` drops its future (and with it the
//!   work's [`super::guard::CancelOnDrop`]) and answers "Canceled".
//! - everything else (`initialize`, `initialized`, `shutdown`, `exit`, the other
//!   notifications, the client's answers to the server's own requests) goes to the protocol
//!   library, tower-lsp-server, which keeps what it does well: the lifecycle (no message
//!   taken while `initialize` runs, the errors before it and after `shutdown`, `exit`) and
//!   the server's requests to the client (`Client`: logs, configuration, registrations,
//!   progress) with their answers.
//!
//! Why not the library's transport and router for everything: its `Server` reads the input
//! with a codec that ends at the first malformed frame, makes a JSON tree of every message
//! (a 10 MB map's `didOpen` held four or five times over) and of every answer (half the
//! server's time on the outline of a big map), and starts the handlers on its own schedule,
//! so that a `didOpen` read apart from it had to be sent through it again under another name
//! to keep its place among the messages (the marker this module replaced). Here the order
//! is simply the order of the loop: each message is started, and its handler run up to its
//! first `.await`, before the next is read, as tower-lsp-server started its handlers.
//! Measured in docs/performance.md ("One road from the wire to a handler").

use std::collections::HashMap;
use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::task::Poll;
use std::time::Duration;

use futures::future::{AbortHandle, Abortable, BoxFuture, FutureExt};
use futures::stream::{FuturesUnordered, StreamExt};
use futures::SinkExt;
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;
use tokio::sync::mpsc::{self, UnboundedSender};
use tower::Service as _;
use tower_lsp_server::jsonrpc::{Error, ErrorCode, Id, Request, Response, Result};
use tower_lsp_server::ls_types::request::Request as LspRequest;
use tower_lsp_server::ls_types::{
    DidChangeTextDocumentParams, DidCloseTextDocumentParams, DidOpenTextDocumentParams,
    MessageType, Uri,
};
use tower_lsp_server::LspService;

use super::direct::{self, Kept};
use super::documents::DocumentSnapshot;
use super::framing::{self, Outgoing};
use super::guard;
use super::log;
use super::options::ServerOptions;
use super::server::{Backend, Lifecycle};
use super::shared::Shared;

/// How many requests the server takes on at once: the library's default of four let four
/// slow previews hold a hover back for their whole build. The expensive ones wait for a lane
/// of their own (`guard::off_thread_expensive`), so the rest always find room here.
const REQUESTS_IN_FLIGHT: usize = 64;

/// Messages read ahead of the dispatcher (the reading waits beyond).
const READ_AHEAD: usize = 64;

/// How long the server may go on answering what it was asked once the client's input has
/// ended (a script that pipes its requests in and reads the answers), or after `exit`: then
/// it stops anyway.
const INPUT_ENDED_GRACE: Duration = Duration::from_secs(10);

/// One message of the client, read from its frame.
pub enum Incoming {
    /// `textDocument/didOpen` read straight from its frame: no JSON tree, the text decoded
    /// within the frame's own buffer ([`super::opening`]).
    Open(DidOpenTextDocumentParams),
    /// A request or a notification.
    Message(Request),
    /// The client's answer to one of the server's requests.
    Response(Response),
}

impl Incoming {
    /// Reads a well-formed body ([`framing::Deframer`] checked it as the library reads it).
    /// `None` only for what the checks let through and this cannot read (nothing known).
    pub fn read(body: Vec<u8>) -> Option<Self> {
        if let Some(opened) = super::opening::read(&body) {
            return Some(Self::Open(opened.params(body)));
        }
        // A response reads as a request without a method (the library's `Request` takes a
        // missing one as empty): only then is it read again, as a response.
        match serde_json::from_slice::<Request>(&body) {
            Ok(request) if !request.method().is_empty() => Some(Self::Message(request)),
            request => serde_json::from_slice::<Response>(&body)
                .ok()
                .map(Self::Response)
                .or_else(|| request.ok().map(Self::Message)),
        }
    }
}

/// What a route makes of one request: its frame, or `None` when it went out in pieces.
type Answer = BoxFuture<'static, Option<Vec<u8>>>;

type Route = Box<dyn Fn(&Arc<Backend>, Id, Option<Value>) -> Answer + Send + Sync>;

/// The requests the server answers: one typed handler per method.
#[derive(Default)]
pub struct Routes {
    requests: HashMap<&'static str, Route>,
}

/// When a document request runs.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum When {
    /// At once.
    Now,
    /// Once the document's diagnostics are out (at most 2 s): what an editor asks on its own
    /// when a document opens or changes, so that the squiggles come first
    /// ([`Shared::after_diagnostics`]).
    AfterDiagnostics,
}

/// How much of a document a request reads, which decides whether it runs on the document
/// (under its lock) or on a copy.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Reads {
    /// The blocks at a cursor or in a range: parsed in microseconds, under the lock.
    AtCursor,
    /// The whole document (completion, references, semantic tokens...): on a copy.
    Whole,
    /// The text alone (the whole document's formatting, which copies nothing else).
    Text,
    /// What the segments of a T3D map keep of its outline or folds, written in pieces
    /// straight from them ([`direct::stream_kept`]); the copy when they cannot answer.
    Kept(Kept),
}

impl Routes {
    /// The route of request `R`, to give it its handler.
    pub fn on<R: LspRequest>(&mut self) -> On<'_, R> {
        On { routes: self, request: std::marker::PhantomData }
    }
}

/// The route of one request type `R` being made ([`Routes::on`]).
pub struct On<'a, R> {
    routes: &'a mut Routes,
    request: std::marker::PhantomData<R>,
}

impl<'a, R: LspRequest> On<'a, R> {
    /// The one typed path of `R`: its parameters read as the protocol types them (a reading
    /// error is "invalid params", as the library answers), `handler` run, its result
    /// serialized straight into the frame. A panic in it, here or on the blocking thread it
    /// uses, becomes an internal error naming the method.
    pub fn request<F, Fut>(self, handler: F) -> &'a mut Routes
    where
        F: Fn(Arc<Backend>, R::Params) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<R::Result>> + Send + 'static,
    {
        self.framed(move |backend, id, params| {
            let answer = handler(backend, params);
            async move { Some(frame_answer(&id, answer.await)) }
        })
    }

    /// A request whose work is expensive (a preview, a 3D scene, a search of every package):
    /// `prepare` takes what the work needs from the server, the work runs in one of the
    /// expensive lanes ([`guard::off_thread_expensive`]).
    pub fn expensive<P, W>(self, prepare: P) -> &'a mut Routes
    where
        P: Fn(&Backend, R::Params) -> W + Send + Sync + 'static,
        W: FnOnce() -> Result<R::Result> + Send + 'static,
    {
        self.request(move |backend, params| {
            let work = prepare(&backend, params);
            async move { expensive(&backend.shared, R::METHOD, work).await }
        })
    }

    /// A request on one open document: `feature` runs on a blocking thread on the document
    /// named by `uri`, read as `reads` says, when `when` says. A document that is not open
    /// gets the result's default (`null`).
    pub fn document(
        self,
        reads: Reads,
        when: When,
        uri: fn(&R::Params) -> &Uri,
        feature: fn(&DocumentSnapshot<'_>, &R::Params) -> Result<R::Result>,
    ) -> &'a mut Routes
    where
        R::Result: Default,
    {
        self.framed(move |backend, id, params| {
            let uri = uri(&params).clone();
            let feature = move |snapshot: &DocumentSnapshot<'_>, _: &Id| feature(snapshot, &params);
            let frame = |answer: Result<R::Result>, id: &Id| frame_answer(id, answer);
            let shared = Arc::clone(&backend.shared);
            on_document(shared, R::METHOD, (reads, when), uri, id, (feature, frame, absent::<R>))
        })
    }

    /// [`Self::document`] for a feature that writes its framed answer itself.
    pub fn document_framed(
        self,
        reads: Reads,
        when: When,
        uri: fn(&R::Params) -> &Uri,
        write: fn(&DocumentSnapshot<'_>, &R::Params, &Id) -> Vec<u8>,
    ) -> &'a mut Routes
    where
        R::Result: Default,
    {
        self.framed(move |backend, id, params| {
            let uri = uri(&params).clone();
            let write =
                move |snapshot: &DocumentSnapshot<'_>, id: &Id| write(snapshot, &params, id);
            let frame = |frame: Vec<u8>, _: &Id| frame;
            let shared = Arc::clone(&backend.shared);
            on_document(shared, R::METHOD, (reads, when), uri, id, (write, frame, absent::<R>))
        })
    }

    /// Registers the route of `R`: the parameters read, `handler` started when the request is
    /// (its code runs inside the panic guard, from its first line).
    fn framed<F, Fut>(self, handler: F) -> &'a mut Routes
    where
        F: Fn(Arc<Backend>, Id, R::Params) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Option<Vec<u8>>> + Send + 'static,
    {
        let handler = Arc::new(handler);
        let route = move |backend: &Arc<Backend>, id: Id, params: Option<Value>| -> Answer {
            let params = match read_params::<R::Params>(params) {
                Ok(params) => params,
                Err(error) => return futures::future::ready(Some(frame_error(id, error))).boxed(),
            };
            let (handler, backend, id_out) =
                (Arc::clone(&handler), Arc::clone(backend), id.clone());
            let shared = Arc::clone(&backend.shared);
            let answer = async move { handler(backend, id, params).await };
            AssertUnwindSafe(answer)
                .catch_unwind()
                .then(move |outcome| async move {
                    match outcome {
                        Ok(frame) => frame,
                        Err(payload) => {
                            let reason = log::panic_message(&*payload);
                            let message = format!("{} failed: internal error: {reason}", R::METHOD);
                            shared.log(MessageType::ERROR, &message).await;
                            Some(frame_error(id_out, guard::internal_error(message)))
                        }
                    }
                })
                .boxed()
        };
        self.routes.requests.insert(R::METHOD, Box::new(route));
        self.routes
    }
}

/// What a document request answers when its document is not open.
type Absent = fn(&Id) -> Vec<u8>;

/// The answer of a document request when the document is not open: the result's default.
fn absent<R: LspRequest>(id: &Id) -> Vec<u8>
where
    R::Result: Default,
{
    direct::frame_result(id, &R::Result::default())
}

/// Parameters as the library reads them (`FromParams`): missing ones and ones of another
/// shape are "invalid params".
fn read_params<P: DeserializeOwned>(params: Option<Value>) -> Result<P> {
    let params = params.ok_or_else(|| Error::invalid_params("Missing params field"))?;
    serde_json::from_value(params).map_err(|err| Error::invalid_params(err.to_string()))
}

/// Runs `feature` on a blocking thread on the open document `uri`, read as `reads` says,
/// and frames what it gives with `frame` (after the document's lock is released). A panic
/// there is logged and answered as an internal error naming the method and the document.
async fn on_document<T, F, M>(
    shared: Arc<Shared>,
    method: &'static str,
    (reads, when): (Reads, When),
    uri: Uri,
    id: Id,
    (feature, frame, absent): (F, M, Absent),
) -> Option<Vec<u8>>
where
    T: Send + 'static,
    F: FnOnce(&DocumentSnapshot<'_>, &Id) -> T + Send + 'static,
    M: FnOnce(T, &Id) -> Vec<u8> + Send + 'static,
{
    if when == When::AfterDiagnostics {
        shared.after_diagnostics(&uri).await;
    }
    let Some(handle) = shared.handle(&uri) else {
        return Some(absent(&id));
    };
    let out = shared.out.clone();
    let id_in = id.clone();
    let run = move || {
        let answer = match reads {
            Reads::AtCursor => handle.read(|snapshot| feature(snapshot, &id_in)),
            Reads::Whole => handle.read_copy(|snapshot| feature(snapshot, &id_in)),
            Reads::Text => handle.read_text_copy(|snapshot| feature(snapshot, &id_in)),
            Reads::Kept(kept) => {
                let streamed = handle.read_kept_outline(|snapshot, outline| {
                    direct::stream_kept(snapshot, outline, kept, &id_in, &out)
                });
                if streamed.is_some() {
                    return None;
                }
                handle.read_copy(|snapshot| feature(snapshot, &id_in))
            }
        };
        Some(frame(answer, &id_in))
    };
    match guard::off_thread(run).await {
        Ok(frame) => frame,
        Err(reason) => {
            let message = format!("{method} on {} failed: internal error: {reason}", uri.as_str());
            shared.log(MessageType::ERROR, &message).await;
            Some(frame_error(id, guard::internal_error(message)))
        }
    }
}

/// Runs `work` in one of the expensive lanes ([`guard::off_thread_expensive`]); a panic there
/// is logged and becomes an internal error naming `method`.
pub async fn expensive<T: Send + 'static>(
    shared: &Shared,
    method: &str,
    work: impl FnOnce() -> Result<T> + Send + 'static,
) -> Result<T> {
    match guard::off_thread_expensive(work).await {
        Ok(answer) => answer,
        Err(reason) => {
            let message = format!("{method} failed: internal error: {reason}");
            shared.log(MessageType::ERROR, &message).await;
            Err(guard::internal_error(message))
        }
    }
}

/// The frame of a typed answer, serialized straight into it.
fn frame_answer<T: Serialize>(id: &Id, answer: Result<T>) -> Vec<u8> {
    match answer {
        Ok(result) => direct::frame_result(id, &result),
        Err(error) => frame_error(id.clone(), error),
    }
}

fn frame_error(id: Id, error: Error) -> Vec<u8> {
    direct::frame_response(&Response::from_error(id, error))
}

/// A message of the library's, framed.
fn frame_json(message: &impl Serialize) -> Vec<u8> {
    framing::framed(&serde_json::to_vec(message).unwrap_or_default())
}

/// A started message: the request it answers, if one of ours, and its frame.
type Started = BoxFuture<'static, (Option<Id>, Option<Vec<u8>>)>;

/// The protocol library's side of the server: the lifecycle, the other notifications, and
/// the server's requests to the client.
type Library = guard::CatchPanics<LspService<Lifecycle>>;

/// Serves the protocol over `input` and `output` until `exit` or the end of the input, with
/// `routes` for the requests. `true` when the client sent `shutdown` first.
pub async fn serve<R, W>(input: R, output: W, options: ServerOptions, routes: Routes) -> bool
where
    R: tokio::io::AsyncRead + Unpin + Send + 'static,
    W: std::io::Write + Send + 'static,
{
    // One writer thread for every frame: answers, the library's messages, diagnostics, the
    // framing layer's answers to malformed input.
    let (out, frames) = mpsc::unbounded_channel();
    let (written, all_written) = std::sync::mpsc::channel();
    let writer = std::thread::Builder::new()
        .name("unreal-ls-out".to_owned())
        .spawn(move || framing::write_frames(output, frames, &written));
    if let Err(err) = writer {
        log::stderr(&format!("cannot start the output thread: {err}"));
        return false;
    }
    let mut backend = None;
    let (service, socket) = LspService::build(|client| {
        let server = Arc::new(Backend::new(client, options, out.clone()));
        backend = Some(Arc::clone(&server));
        Lifecycle(server)
    })
    .finish();
    let Some(backend) = backend else { return false };
    // The server's requests and notifications to the client, as the library makes them.
    let (mut to_client, client_answers) = socket.split();
    let to_writer = out.clone();
    let forward = tokio::spawn(async move {
        while let Some(request) = to_client.next().await {
            let _ = to_writer.send(frame_json(&request).into());
        }
    });
    let (incoming_tx, incoming) = mpsc::channel(READ_AHEAD);
    let pump =
        tokio::spawn(framing::pump(input, incoming_tx, out.clone(), log::stderr, Incoming::read));
    let mut dispatcher = Dispatcher {
        backend: Arc::clone(&backend),
        library: guard::CatchPanics::new(service),
        client_answers,
        routes,
        running: FuturesUnordered::new(),
        pending: HashMap::new(),
        out: out.clone(),
    };
    dispatcher.run(incoming).await;
    // Everything the server wrote goes out before the process ends: the writer stops at
    // the empty frame, after every frame queued before it.
    pump.abort();
    forward.abort();
    let _ = out.send(Outgoing::Frame(Vec::new()));
    let _ =
        tokio::task::spawn_blocking(move || all_written.recv_timeout(Duration::from_secs(2))).await;
    backend.shutdown_requested()
}

struct Dispatcher {
    backend: Arc<Backend>,
    library: Library,
    client_answers: <tower_lsp_server::ClientSocket as tower_lsp_server::Loopback>::ResponseSink,
    routes: Routes,
    /// Every message started and not done, each polled once already.
    running: FuturesUnordered<Started>,
    /// The requests of [`Routes`] running, by id, for `$/cancelRequest`.
    pending: HashMap<Id, AbortHandle>,
    out: UnboundedSender<Outgoing>,
}

/// Whether the loop goes on after a message.
#[derive(PartialEq, Eq)]
enum Flow {
    Go,
    Exit,
}

impl Dispatcher {
    async fn run(&mut self, mut incoming: mpsc::Receiver<Incoming>) {
        loop {
            if !self.make_room().await {
                break;
            }
            tokio::select! {
                biased;
                Some(done) = self.running.next(), if !self.running.is_empty() => self.finished(done),
                message = incoming.recv() => {
                    let Some(message) = message else {
                        // Requests to the client give up at once (nobody will answer them),
                        // answers in flight get `INPUT_ENDED_GRACE`.
                        self.backend.input_ended();
                        self.finish_running("the input ended").await;
                        return;
                    };
                    if self.dispatch(message).await == Flow::Exit {
                        // As the library does on `exit`: what is still running is cancelled,
                        // what has an answer gets it.
                        for (_, handle) in self.pending.drain() {
                            handle.abort();
                        }
                        self.finish_running("exit").await;
                        return;
                    }
                }
            }
        }
    }

    /// Waits until the library takes messages (not while `initialize` runs: the library
    /// answers nothing else meanwhile, and nor does this) and fewer than
    /// [`REQUESTS_IN_FLIGHT`] messages run, driving those that run meanwhile. `false` once the
    /// library has exited.
    async fn make_room(&mut self) -> bool {
        loop {
            let library = &mut self.library;
            match futures::poll!(futures::future::poll_fn(|cx| library.poll_ready(cx))) {
                Poll::Ready(Err(_)) => return false,
                Poll::Ready(Ok(())) if self.running.len() < REQUESTS_IN_FLIGHT => return true,
                _ => {}
            }
            match self.running.next().await {
                Some(done) => self.finished(done),
                None => tokio::task::yield_now().await,
            }
        }
    }

    /// Drives what still runs to its end, for at most [`INPUT_ENDED_GRACE`].
    async fn finish_running(&mut self, why: &str) {
        let drain = async {
            while let Some(done) = self.running.next().await {
                self.finished(done);
            }
        };
        if tokio::time::timeout(INPUT_ENDED_GRACE, drain).await.is_err() {
            log::stderr(&format!("{why} and the server did not finish in time: stopping"));
        }
    }

    fn finished(&mut self, (id, frame): (Option<Id>, Option<Vec<u8>>)) {
        if let Some(id) = id {
            self.pending.remove(&id);
        }
        if let Some(frame) = frame {
            // The writer is gone only when the server is stopping.
            let _ = self.out.send(frame.into());
        }
    }

    /// Starts one message, in the order they came: its handler runs up to its first `.await`
    /// before the next message is looked at.
    async fn start(&mut self, mut started: Started) {
        match futures::poll!(&mut started) {
            Poll::Ready(done) => self.finished(done),
            Poll::Pending => self.running.push(started),
        }
    }

    async fn dispatch(&mut self, message: Incoming) -> Flow {
        let request = match message {
            Incoming::Open(params) => {
                self.sync(None, |backend| {
                    backend.did_open(params);
                    None
                })
                .await;
                return Flow::Go;
            }
            Incoming::Response(response) => {
                // The library matches it with the request it made; gone only when stopping.
                let _ = self.client_answers.send(response).await;
                return Flow::Go;
            }
            Incoming::Message(request) => request,
        };
        match request.method() {
            "textDocument/didOpen" => {
                let (_, id, params) = request.into_parts();
                if let Some(params) = params_of::<DidOpenTextDocumentParams>(params) {
                    self.sync(id, |backend| {
                        backend.did_open(params);
                        None
                    })
                    .await;
                }
            }
            "textDocument/didChange" => {
                let (_, id, params) = request.into_parts();
                if let Some(params) = params_of::<DidChangeTextDocumentParams>(params) {
                    self.sync(id, |backend| Some(backend.did_change(params))).await;
                }
            }
            "textDocument/didClose" => {
                let (_, id, params) = request.into_parts();
                if let Some(params) = params_of::<DidCloseTextDocumentParams>(params) {
                    self.sync(id, |backend| Some(backend.did_close(params))).await;
                }
            }
            method if self.routes.requests.contains_key(method) => self.request(request).await,
            method => {
                if method == "$/cancelRequest" {
                    self.cancel(request.params());
                }
                let exit = method == "exit";
                let answer = self.library.call(request);
                self.start(
                    answer
                        .map(|answer| (None, answer.ok().flatten().map(|r| frame_json(&r))))
                        .boxed(),
                )
                .await;
                if exit {
                    return Flow::Exit;
                }
            }
        }
        Flow::Go
    }

    /// Applies a document notification now, in the order the messages came (before the next
    /// is read), as the library would: dropped before `initialize` and after `shutdown`, an
    /// error answer when it came as a request. What `apply` leaves to do later (logging,
    /// clearing a closed document's diagnostics) runs like any other message.
    async fn sync(
        &mut self,
        id: Option<Id>,
        apply: impl FnOnce(&Backend) -> Option<BoxFuture<'static, ()>>,
    ) {
        if let Some(id) = id {
            let error = Error::invalid_request();
            self.finished((None, Some(frame_error(id, error))));
            return;
        }
        if !self.backend.serving() {
            return;
        }
        let backend = Arc::clone(&self.backend);
        match std::panic::catch_unwind(AssertUnwindSafe(|| apply(&backend))) {
            Ok(Some(rest)) => {
                let rest = AssertUnwindSafe(rest).catch_unwind().map(|outcome| {
                    if let Err(payload) = outcome {
                        log::stderr(&format!(
                            "a document notification failed: internal error: {}",
                            log::panic_message(&*payload)
                        ));
                    }
                    (None, None)
                });
                self.start(rest.boxed()).await;
            }
            Ok(None) => {}
            Err(payload) => log::stderr(&format!(
                "a document notification failed: internal error: {}",
                log::panic_message(&*payload)
            )),
        }
    }

    /// A request of [`Routes`]: answered with the library's errors before `initialize`,
    /// after `shutdown` and for an id already running; else started, cancellable.
    async fn request(&mut self, request: Request) {
        let (method, id, params) = request.into_parts();
        // A notification with a request's name: dropped, as the library drops it.
        let Some(id) = id else { return };
        let refused = if self.backend.shutdown_requested() {
            Some(Error::invalid_request())
        } else if !self.backend.serving() {
            Some(Error {
                code: ErrorCode::ServerError(-32002),
                message: "Server not initialized".into(),
                data: None,
            })
        } else if self.pending.contains_key(&id) {
            Some(Error::invalid_request())
        } else {
            None
        };
        if let Some(error) = refused {
            self.finished((None, Some(frame_error(id, error))));
            return;
        }
        let Some(route) = self.routes.requests.get(method.as_ref()) else { return };
        let (handle, registration) = AbortHandle::new_pair();
        let answer = Abortable::new(route(&self.backend, id.clone(), params), registration);
        self.pending.insert(id.clone(), handle);
        let started = async move {
            let frame = match answer.await {
                Ok(frame) => frame,
                Err(_) => Some(frame_error(id.clone(), Error::request_cancelled())),
            };
            (Some(id), frame)
        };
        self.start(started.boxed()).await;
    }

    /// `$/cancelRequest` for a request of [`Routes`]: its future is dropped (the library
    /// cancels its own the same way) and it answers "Canceled".
    fn cancel(&mut self, params: Option<&Value>) {
        let id = params.and_then(|p| p.get("id")).cloned();
        let Some(id) = id.and_then(|id| serde_json::from_value::<Id>(id).ok()) else { return };
        if let Some(handle) = self.pending.remove(&id) {
            handle.abort();
        }
    }
}

/// A notification's parameters, `None` when they cannot be read (the framing layer logged
/// it: "will be dropped").
fn params_of<P: DeserializeOwned>(params: Option<Value>) -> Option<P> {
    read_params(params).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use tokio::io::AsyncWriteExt;
    use tower_lsp_server::ls_types::DocumentSymbolParams;

    /// A request on a document whose feature panics (on the blocking thread).
    enum PanicsOnThread {}

    impl LspRequest for PanicsOnThread {
        type Params = DocumentSymbolParams;
        type Result = Option<()>;
        const METHOD: &'static str = "test/panicsOnThread";
    }

    /// A request whose handler panics where it starts (on the async thread).
    enum PanicsAtOnce {}

    impl LspRequest for PanicsAtOnce {
        type Params = Value;
        type Result = Option<()>;
        const METHOD: &'static str = "test/panicsAtOnce";
    }

    struct ToChannel(mpsc::UnboundedSender<Vec<u8>>);

    impl std::io::Write for ToChannel {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            let _ = self.0.send(bytes.to_vec());
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    /// A panic in a request's handler, wherever it runs, becomes an internal-error answer
    /// naming the method, is logged, and the server goes on answering.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_panic_in_a_handler_becomes_an_error_answer() {
        let mut routes = super::super::server::routes();
        routes
            .on::<PanicsOnThread>()
            .document(
                Reads::AtCursor,
                When::Now,
                |p| &p.text_document.uri,
                |_, _| panic!("feature panicked on purpose"),
            )
            .on::<PanicsAtOnce>()
            .request(|_, params: Value| {
                assert!(params.is_null(), "handler panicked on purpose");
                async { Ok(None) }
            });
        let (client, server) = tokio::io::duplex(1 << 16);
        let (from_client, _) = tokio::io::split(server);
        let (_, mut to_server) = tokio::io::split(client);
        let (tx, mut output) = mpsc::unbounded_channel();
        let served =
            tokio::spawn(serve(from_client, ToChannel(tx), ServerOptions::default(), routes));
        let uri = "file:///work/maps/A.t3d";
        let document = json!({ "textDocument": { "uri": uri } });
        let text = json!({ "textDocument": {
            "uri": uri, "languageId": "t3d", "version": 1, "text": "Begin Map\r\nEnd Map\r\n" } });
        let mut send = async |message: Value| {
            to_server.write_all(&framing::framed(message.to_string().as_bytes())).await.unwrap();
        };
        for message in [
            json!({ "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": { "capabilities": {} } }),
            json!({ "jsonrpc": "2.0", "method": "initialized", "params": {} }),
            json!({ "jsonrpc": "2.0", "method": "textDocument/didOpen", "params": text }),
            json!({ "jsonrpc": "2.0", "id": 2, "method": PanicsOnThread::METHOD, "params": document }),
            json!({ "jsonrpc": "2.0", "id": 3, "method": PanicsAtOnce::METHOD, "params": 7 }),
            json!({ "jsonrpc": "2.0", "id": 4, "method": "textDocument/documentSymbol", "params": document }),
        ] {
            send(message).await;
        }
        let mut answers = HashMap::new();
        let mut logs: Vec<String> = Vec::new();
        let mut bytes = Vec::new();
        // Every answer, and each panic's log line, which may come after the answers.
        let logged = |logs: &[String], method: &str| logs.iter().any(|log| log.contains(method));
        while !((2..=4).all(|id| answers.contains_key(&id))
            && [PanicsOnThread::METHOD, PanicsAtOnce::METHOD].iter().all(|m| logged(&logs, m)))
        {
            let piece = tokio::time::timeout(Duration::from_mins(1), output.recv()).await;
            bytes.extend(piece.unwrap().unwrap());
            while let Some(at) = bytes.windows(4).position(|w| w == b"\r\n\r\n") {
                let header = std::str::from_utf8(&bytes[..at]).unwrap();
                let len: usize = header.trim_start_matches("Content-Length: ").parse().unwrap();
                if bytes.len() < at + 4 + len {
                    break;
                }
                let message: Value = serde_json::from_slice(&bytes[at + 4..at + 4 + len]).unwrap();
                bytes.drain(..at + 4 + len);
                match message["id"].as_i64() {
                    Some(id) => drop(answers.insert(id, message)),
                    None => logs.push(message["params"]["message"].to_string()),
                }
            }
        }
        send(json!({ "jsonrpc": "2.0", "id": 5, "method": "shutdown" })).await;
        send(json!({ "jsonrpc": "2.0", "method": "exit" })).await;
        assert!(served.await.unwrap(), "shut down");
        for (id, method) in [(2, PanicsOnThread::METHOD), (3, PanicsAtOnce::METHOD)] {
            let error = &answers[&id]["error"];
            assert_eq!(error["code"], -32603, "{error}");
            let message = error["message"].as_str().unwrap();
            assert!(message.contains(method) && message.contains("on purpose"), "{message}");
            assert!(logged(&logs, method), "{logs:?}");
        }
        assert!(answers[&4]["result"].is_array(), "{}", answers[&4]);
    }
}
