//! Coalesced diagnostics. Edits only tell the scheduler "this document changed"; one worker
//! task takes in every message already queued (the changes that arrived together), waits
//! the settle if one is set (none by default), then analyses the document as it is at that moment on a
//! blocking thread and publishes the result if the document is still at the analysed
//! version. The async threads never run analysis and a document is never analysed twice at
//! once: a change during an analysis queues one more run, right after it, of whatever is
//! the latest version then, so a burst of edits costs at most one analysis more than the
//! one already running.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use tokio::sync::mpsc::{self, UnboundedReceiver, UnboundedSender};
use tokio::time::Instant;
use tower_lsp_server::ls_types::{MessageType, Uri};

use super::features;
use super::shared::Shared;

enum Message {
    /// Analyse `uri` once `delay` has passed without another change to it (and no analysis of
    /// it is running).
    Changed { uri: Uri, delay: Duration },
    /// The document was closed: forget any pending analysis.
    Closed(Uri),
    /// An analysis of `uri` finished (published or not).
    Done(Uri),
}

pub struct Scheduler {
    tx: UnboundedSender<Message>,
    /// Taken by [`Scheduler::start`]; messages sent before that wait in the channel.
    rx: Mutex<Option<UnboundedReceiver<Message>>>,
}

impl Default for Scheduler {
    fn default() -> Self {
        let (tx, rx) = mpsc::unbounded_channel();
        Self { tx, rx: Mutex::new(Some(rx)) }
    }
}

impl Scheduler {
    /// Starts the worker on the current tokio runtime. Called from `initialize`, the first
    /// moment a runtime is certain to exist; later calls do nothing.
    pub fn start(&self, shared: Arc<Shared>) {
        let rx = self.rx.lock().unwrap_or_else(PoisonError::into_inner).take();
        if let Some(rx) = rx {
            tokio::spawn(run(shared, rx, self.tx.clone()));
        }
    }

    pub fn changed(&self, uri: Uri, delay: Duration) {
        // Sending fails only once the worker is gone, that is when the server is exiting.
        let _ = self.tx.send(Message::Changed { uri, delay });
    }

    /// Queues analyses from a task that outlives the borrow of the scheduler (the package
    /// index build checks every open document again when it is done).
    pub fn requeue_handle(&self) -> impl Fn(Uri) + Send + Sync + 'static {
        let tx = self.tx.clone();
        move |uri| {
            let _ = tx.send(Message::Changed { uri, delay: Duration::ZERO });
        }
    }

    pub fn closed(&self, uri: Uri) {
        let _ = self.tx.send(Message::Closed(uri));
    }
}

async fn run(
    shared: Arc<Shared>,
    mut rx: UnboundedReceiver<Message>,
    tx: UnboundedSender<Message>,
) {
    // Nothing is analysed before `initialized` has read the settings and the configuration:
    // the documents an editor opens meanwhile wait here, and each is analysed once, with
    // the settings the user chose.
    shared.settings_settled().await;
    let mut due_at: HashMap<Uri, Instant> = HashMap::new();
    let mut running: HashSet<Uri> = HashSet::new();
    loop {
        // Whatever is due starts now, without a trip through the timer: tokio's timer
        // rounds a deadline up to its next millisecond tick, so even a deadline already
        // reached (no settle) waited up to a millisecond more before its analysis started.
        let now = Instant::now();
        let ready: Vec<Uri> = due_at
            .iter()
            .filter(|(uri, at)| **at <= now && !running.contains(*uri))
            .map(|(uri, _)| uri.clone())
            .collect();
        for uri in ready {
            due_at.remove(&uri);
            running.insert(uri.clone());
            let (shared, tx) = (Arc::clone(&shared), tx.clone());
            tokio::spawn(async move {
                analyse_and_publish(&shared, &uri).await;
                // Published or not, whoever waits for this document's diagnostics looks again.
                shared.diagnostics_sent.notify_waiters();
                let _ = tx.send(Message::Done(uri));
            });
        }
        let next_due =
            due_at.iter().filter(|(uri, _)| !running.contains(*uri)).map(|(_, at)| *at).min();
        let message = match next_due {
            Some(at) => tokio::select! {
                message = rx.recv() => message,
                () = tokio::time::sleep_until(at) => continue,
            },
            None => rx.recv().await,
        };
        // The messages already queued behind this one are taken in before anything starts,
        // so that the changes that arrived together are analysed once.
        // `None`: every sender is gone, the server is stopping.
        let stopping = message.is_none();
        let mut message = message;
        while let Some(current) = message {
            match current {
                Message::Changed { uri, delay } => {
                    due_at.insert(uri, Instant::now() + delay);
                }
                Message::Closed(uri) => {
                    due_at.remove(&uri);
                }
                Message::Done(uri) => {
                    running.remove(&uri);
                }
            }
            message = rx.try_recv().ok();
        }
        if stopping {
            break;
        }
    }
}

async fn analyse_and_publish(shared: &Shared, uri: &Uri) {
    let Some(handle) = shared.handle(uri) else {
        return;
    };
    let document_id = handle.document_id;
    let options = shared.options.clone();
    let result = super::guard::off_thread(move || {
        features::diagnostics::compute(&handle, &options.analyzer, options.incremental_t3d)
    })
    .await;
    let published = match result {
        Ok(published) => published,
        Err(reason) => {
            let message =
                format!("diagnostics for {} failed: internal error: {reason}", uri.as_str());
            shared.log(MessageType::ERROR, &message).await;
            return;
        }
    };
    let Some(version) = published.version else { return };
    let diagnostics = published.items.iter().map(|item| &item.diagnostic);
    let frame = super::direct::diagnostics_frame(uri, diagnostics, Some(version));
    // Checking the version and sending happen under the gate, so a `didClose` cannot clear
    // the diagnostics between the two and then see stale ones arrive after its clearing.
    let _gate = shared.publish_gate.lock().await;
    {
        let mut documents = shared.documents();
        let Some(document) = documents.get_mut_at(uri, document_id, version) else {
            // Edited, closed or reopened meanwhile: a newer analysis is queued, or nothing
            // is wanted.
            return;
        };
        document.published = Arc::new(published);
    }
    // The writer is gone only when the server is stopping.
    let _ = shared.out.send(frame.into());
}
