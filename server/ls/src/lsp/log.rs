//! Logging that can never corrupt the protocol: stdout carries JSON-RPC, so the server
//! writes to the client (`window/logMessage`, see `Backend::log`) or, when there is no
//! client to talk to, to stderr through this one function.

use std::any::Any;

/// Writes one line to stderr, which editors show in their server log.
#[allow(clippy::print_stderr)] // the one sanctioned way out besides the client
pub fn stderr(message: &str) {
    eprintln!("unreal-ls: {message}");
}

/// The message of a caught panic, for the log and the error response.
pub fn panic_message(payload: &(dyn Any + Send)) -> &str {
    if let Some(message) = payload.downcast_ref::<&str>() {
        message
    } else if let Some(message) = payload.downcast_ref::<String>() {
        message
    } else {
        "(no message)"
    }
}
