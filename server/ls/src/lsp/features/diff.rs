//! `workspace/executeCommand` `unrealLs.diff`: two map URIs in, the comparison out as the
//! JSON of `unreal-ls diff --format json` (`docs/diff.md`). An open document is compared as
//! the editor holds it, anything else as it is on disk.

use std::str::FromStr;

use serde_json::Value;
use tower_lsp_server::jsonrpc::{Error, ErrorCode, Result};
use tower_lsp_server::ls_types::{ExecuteCommandOptions, ServerCapabilities, Uri};
use unreal_assets::diff::diff;
use unreal_assets::diff::read::read_map_text;

use crate::lsp::documents::Session;

/// The command's name, as the client sends it.
pub const DIFF_COMMAND: &str = "unrealLs.diff";

pub fn register(caps: &mut ServerCapabilities, _session: &Session) {
    caps.execute_command_provider = Some(ExecuteCommandOptions {
        commands: vec![
            DIFF_COMMAND.to_owned(),
            super::deps::DEPS_COMMAND.to_owned(),
            super::texture_actions::REPLACE_COMMAND.to_owned(),
        ],
        work_done_progress_options: tower_lsp_server::ls_types::WorkDoneProgressOptions::default(),
    });
}

fn invalid(message: String) -> Error {
    Error { code: ErrorCode::InvalidParams, message: message.into(), data: None }
}

/// The two URIs of the command's arguments (`[old, new]`).
pub fn arguments(arguments: &[Value]) -> Result<(Uri, Uri)> {
    let uri = |i: usize| -> Result<Uri> {
        let text = arguments
            .get(i)
            .and_then(Value::as_str)
            .ok_or_else(|| invalid(format!("{DIFF_COMMAND} takes two map URIs, [old, new]")))?;
        Uri::from_str(text).map_err(|e| invalid(format!("`{text}` is not a URI: {e}")))
    };
    Ok((uri(0)?, uri(1)?))
}

/// The text of a map that is not open: read from its file.
pub fn read_file(uri: &Uri) -> Result<String> {
    let path = crate::lsp::file_uri::file_path(uri)
        .ok_or_else(|| invalid(format!("`{}` is not a file", uri.as_str())))?;
    super::other_files::read_text(&path).map_err(|e| Error {
        code: ErrorCode::ServerError(-32803),
        message: format!("{}: {}", path.display(), unreal_formats::mapped::io_message(&e)).into(),
        data: None,
    })
}

/// Compares the two maps' texts.
pub fn compare(old: (&Uri, &str), new: (&Uri, &str)) -> Result<Value> {
    let failed = |uri: &Uri, e: String| Error {
        code: ErrorCode::ServerError(-32803),
        message: format!("{}: {e}", uri.as_str()).into(),
        data: None,
    };
    let (a, b) = rayon::join(|| read_map_text(old.1), || read_map_text(new.1));
    let a = a.map_err(|e| failed(old.0, e))?;
    let b = b.map_err(|e| failed(new.0, e))?;
    Ok(crate::diff_json::to_json(old.0.as_str(), new.0.as_str(), &diff(&a, &b)))
}
