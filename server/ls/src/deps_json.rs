//! The JSON form of what a map needs (`unreal_analysis::deps`), shared by `unreal-ls deps
//! --format json` and the server's `unrealLs.mapDependencies` command.

use std::path::Path;

use serde_json::{json, Value};
use unreal_analysis::deps::{MapNeeds, MapUse, PackageNeed};
use unreal_analysis::LineIndex;

/// One map's needs: its packages, the names no package holds, the names not checked, and the
/// packages a server sends with it. Lines are 1-based.
pub fn to_json(file: &str, text: &str, needs: &MapNeeds) -> Value {
    let lines = LineIndex::new(text);
    json!({
        "file": file,
        "missing": needs.has_missing(),
        "packages": needs.packages.iter().map(|p| package_json(p, &lines, text)).collect::<Vec<_>>(),
        "not_found": needs.not_found.iter().map(|u| use_json(u, &lines, text)).collect::<Vec<_>>(),
        "unchecked": needs.unchecked.iter().map(|u| use_json(u, &lines, text)).collect::<Vec<_>>(),
        "unchecked_reason": needs.unchecked_reason.code(),
        "send": needs.to_send().map(|p| p.name.clone()).collect::<Vec<_>>(),
    })
}

fn use_json(used: &MapUse, lines: &LineIndex, text: &str) -> Value {
    let at = lines.line_col(text, used.first.start, unreal_analysis::line_index::ColumnUnit::Utf8);
    json!({
        "kind": used.kind.name(),
        "class": (!used.class.is_empty()).then_some(&used.class),
        "name": used.name,
        "found_as": used.found_as,
        "line": at.line + 1,
        "uses": used.count,
    })
}

fn package_json(package: &PackageNeed, lines: &LineIndex, text: &str) -> Value {
    json!({
        "name": package.name,
        "place": package.place.name(),
        "file": package.file.as_deref().map(Path::display).map(|d| d.to_string()),
        "found": package.found.iter().map(|u| use_json(u, lines, text)).collect::<Vec<_>>(),
        "missing": package.missing.iter().map(|u| use_json(u, lines, text)).collect::<Vec<_>>(),
    })
}
