//! `workspace/executeCommand` `unrealLs.mapDependencies`: a map URI in, what the map needs
//! out, as one map of `unreal-ls deps --format json` (docs/protocol.md). An open map is read
//! as the editor holds it, anything else as it is on disk; its packages are those its checks
//! use (the file's game folder and package paths, as `lint` finds them).

use std::str::FromStr;

use serde_json::Value;
use tower_lsp_server::jsonrpc::{Error, ErrorCode, Result};
use tower_lsp_server::ls_types::Uri;
use unreal_analysis::deps::{map_names, map_needs};

use crate::lsp::documents::Session;

/// The command's name, as the client sends it.
pub const DEPS_COMMAND: &str = "unrealLs.mapDependencies";

fn invalid(message: String) -> Error {
    Error { code: ErrorCode::InvalidParams, message: message.into(), data: None }
}

/// The map URI of the command's arguments (`[map]`).
pub fn argument(arguments: &[Value]) -> Result<Uri> {
    let text = arguments
        .first()
        .and_then(Value::as_str)
        .ok_or_else(|| invalid(format!("{DEPS_COMMAND} takes one map URI, [map]")))?;
    Uri::from_str(text).map_err(|e| invalid(format!("`{text}` is not a URI: {e}")))
}

/// What the map at `uri` (whose text is `text`) needs, from the packages its checks use.
pub fn needs(session: &Session, uri: &Uri, text: &str) -> Result<Value> {
    let path = crate::lsp::file_uri::file_path(uri)
        .ok_or_else(|| invalid(format!("`{}` is not a file", uri.as_str())))?;
    let mut options = session.lint_options(Some(&path));
    session.packages_for_checks(&mut options);
    let parse = unreal_syntax::t3d::parse(text);
    // Without a game folder the answer lists what the map names, none of it checked
    // (`unchecked_reason: "no-game-folder"`), for the client to offer choosing one. An index
    // of the workspace's class sources alone knows no package: the same.
    if !options.index_roots().knows_packages() {
        let needs = map_names(text, &parse);
        return Ok(crate::deps_json::to_json(uri.as_str(), text, &needs));
    }
    let Some(index) = options.packages.clone().filter(|index| index.knows_packages()) else {
        return Err(Error {
            code: ErrorCode::ServerError(-32803),
            message: format!(
                "{}: the game folder's packages are still being indexed; try again in a moment",
                path.display()
            )
            .into(),
            data: None,
        });
    };
    let needs = map_needs(text, &parse, &index);
    Ok(crate::deps_json::to_json(uri.as_str(), text, &needs))
}
