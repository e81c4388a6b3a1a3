//! The last line of defence: a tower layer around the protocol library's service (the
//! lifecycle and the notifications it serves, [`super::dispatch`]) that catches a panic in
//! any of its handlers. A request gets an internal-error response, a notification is dropped,
//! both are logged to stderr, and the server keeps serving. Without it, a panic in a handler
//! unwinds through the dispatcher's loop and ends the process. The server's own routes and
//! document notifications are guarded the same way in [`super::dispatch`].
//!
//! Features that run analysis run it on a blocking thread through [`off_thread`], which turns
//! a panic there into an error the caller reports (and tells the client); the guards catch
//! what is left.

use std::panic::AssertUnwindSafe;
use std::task::{Context, Poll};

use futures::future::{BoxFuture, FutureExt};
use tower::Service;
use tower_lsp_server::jsonrpc::{Error, ErrorCode, Request, Response};

use super::log;

/// Wraps a service so that a panic in one of its futures becomes a response.
#[derive(Debug)]
pub struct CatchPanics<S> {
    inner: S,
}

impl<S> CatchPanics<S> {
    pub fn new(inner: S) -> Self {
        Self { inner }
    }

    pub fn get_ref(&self) -> &S {
        &self.inner
    }
}

impl<S> Service<Request> for CatchPanics<S>
where
    S: Service<Request, Response = Option<Response>>,
    S::Future: Send + 'static,
{
    type Response = Option<Response>;
    type Error = S::Error;
    type Future = BoxFuture<'static, Result<Option<Response>, S::Error>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: Request) -> Self::Future {
        let method = request.method().to_owned();
        let id = request.id().cloned();
        // The handler's own code runs when the future is polled, not in `call`.
        let future = self.inner.call(request);
        AssertUnwindSafe(future)
            .catch_unwind()
            .map(move |outcome| match outcome {
                Ok(result) => result,
                Err(payload) => {
                    let reason = log::panic_message(&*payload);
                    let message = format!("{method} failed: internal error: {reason}");
                    log::stderr(&message);
                    Ok(id.map(|id| {
                        Response::from_error(
                            id,
                            Error {
                                code: ErrorCode::InternalError,
                                message: message.into(),
                                data: None,
                            },
                        )
                    }))
                }
            })
            .boxed()
    }
}

/// Runs `f` on a blocking thread. A panic there (or a cancelled task) is `Err` with the
/// reason, for the caller to log and answer as an internal error: the one place the features,
/// the previews and the diagnostics pass leave the async threads.
pub async fn off_thread<T: Send + 'static>(
    f: impl FnOnce() -> T + Send + 'static,
) -> std::result::Result<T, String> {
    match tokio::task::spawn_blocking(f).await {
        Ok(value) => Ok(value),
        Err(err) if err.is_panic() => Err(log::panic_message(&*err.into_panic()).to_owned()),
        Err(_) => Err("cancelled".to_owned()),
    }
}

/// How many expensive requests (a 3D scene, a preview, an asset search, a dependency list:
/// each may take seconds of a core) run at once: one core is always left for the rest
/// (hover, completion, the squiggles), and the others wait their turn.
fn expensive_lanes() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get().saturating_sub(1).max(1))
}

static EXPENSIVE: std::sync::LazyLock<std::sync::Arc<tokio::sync::Semaphore>> =
    std::sync::LazyLock::new(|| {
        std::sync::Arc::new(tokio::sync::Semaphore::new(expensive_lanes()))
    });

/// [`off_thread`] for an expensive request: it waits for one of the [`expensive_lanes`]
/// first, and holds it until its work is done, even when the client stops waiting for the
/// answer (cancelled, or the document changed and it asked again), so that abandoned builds
/// never add up beyond the lanes. A request cancelled while it waits never starts.
pub async fn off_thread_expensive<T: Send + 'static>(
    f: impl FnOnce() -> T + Send + 'static,
) -> std::result::Result<T, String> {
    let lane = std::sync::Arc::clone(&EXPENSIVE)
        .acquire_owned()
        .await
        .map_err(|_| "the server is shutting down".to_owned())?;
    off_thread(move || {
        let value = f();
        drop(lane);
        value
    })
    .await
}

/// A flag set when this guard is dropped: held by a request's future, it tells the work the
/// request started on a blocking thread that nobody waits for its answer any more (the
/// protocol library drops the future of a cancelled request).
#[derive(Default)]
pub struct CancelOnDrop(std::sync::Arc<std::sync::atomic::AtomicBool>);

impl CancelOnDrop {
    /// The flag, for the work to read.
    pub fn flag(&self) -> std::sync::Arc<std::sync::atomic::AtomicBool> {
        std::sync::Arc::clone(&self.0)
    }
}

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.store(true, std::sync::atomic::Ordering::Relaxed);
    }
}

/// The JSON-RPC internal error for a request that failed with `message`.
pub fn internal_error(message: String) -> Error {
    Error { code: ErrorCode::InternalError, message: message.into(), data: None }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::convert::Infallible;
    use std::future::{ready, Ready};

    /// Answers every request with its id, and panics on the method "boom".
    struct Echo;

    impl Service<Request> for Echo {
        type Response = Option<Response>;
        type Error = Infallible;
        type Future = futures::future::Either<
            Ready<Result<Option<Response>, Infallible>>,
            BoxFuture<'static, Result<Option<Response>, Infallible>>,
        >;

        fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
            Poll::Ready(Ok(()))
        }

        fn call(&mut self, request: Request) -> Self::Future {
            if request.method() == "boom" {
                futures::future::Either::Right(
                    async { panic!("handler panicked on purpose") }.boxed(),
                )
            } else {
                let response =
                    request.id().cloned().map(|id| Response::from_ok(id, serde_json::Value::Null));
                futures::future::Either::Left(ready(Ok(response)))
            }
        }
    }

    fn message(json: &str) -> Request {
        json.parse().unwrap()
    }

    #[test]
    fn panics_become_error_responses_and_the_service_goes_on() {
        let mut service = CatchPanics::new(Echo);
        let run = |service: &mut CatchPanics<Echo>, json: &str| {
            let response = futures::executor::block_on(service.call(message(json))).unwrap();
            response.map(|r| serde_json::to_string(&r).unwrap())
        };
        expect_test::expect![[r#"
            Some(
                "{\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32603,\"message\":\"boom failed: internal error: handler panicked on purpose\"},\"id\":1}",
            )
        "#]]
        .assert_debug_eq(&run(&mut service, r#"{"jsonrpc":"2.0","id":1,"method":"boom"}"#));
        // A panicking notification has nobody to answer.
        assert_eq!(run(&mut service, r#"{"jsonrpc":"2.0","method":"boom"}"#), None);
        assert_eq!(
            run(&mut service, r#"{"jsonrpc":"2.0","id":2,"method":"fine"}"#).as_deref(),
            Some(r#"{"jsonrpc":"2.0","result":null,"id":2}"#)
        );
    }
}
