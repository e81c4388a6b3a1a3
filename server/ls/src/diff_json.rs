//! The JSON form of a map comparison (`docs/diff.md`, version 1), shared by `unreal-ls diff
//! --format json` and the server's `unrealLs.diff` command.

use serde_json::{json, Value};
use unreal_assets::diff::{ActorRef, MapDiff};

fn actor_json(a: &ActorRef) -> Value {
    json!({ "class": a.class, "name": a.name, "line": a.line, "location": a.location })
}

/// The JSON document, version 1 (docs/diff.md).
pub fn to_json(old_name: &str, new_name: &str, result: &MapDiff) -> Value {
    let s = result.summary();
    json!({
        "version": 1,
        "old": old_name,
        "new": new_name,
        "same": result.is_empty(),
        "summary": {
            "added": s.added,
            "removed": s.removed,
            "renamed": s.renamed,
            "moved": s.moved,
            "properties_changed": s.properties,
            "brushes_reshaped": s.reshaped,
            "brush_order_changed": s.brush_order_changed,
        },
        "added": result.added.iter().map(actor_json).collect::<Vec<_>>(),
        "removed": result.removed.iter().map(actor_json).collect::<Vec<_>>(),
        "changed": result.changed.iter().map(|c| json!({
            "old": actor_json(&c.old),
            "new": actor_json(&c.new),
            "renamed": c.renamed,
            "moved": c.moved,
            "turned": c.turned,
            "properties": c.properties.iter().map(|p| json!({
                "key": p.key, "old": p.old, "new": p.new,
            })).collect::<Vec<_>>(),
            "brush": c.brush.as_ref().map(|b| json!({
                "old_polygons": b.old_polygons,
                "new_polygons": b.new_polygons,
                "added": b.added,
                "removed": b.removed,
                "retextured": b.retextured,
                "flags_changed": b.flags_changed,
                "realigned": b.realigned,
            })),
        })).collect::<Vec<_>>(),
        "brush_order": result.brush_order.as_ref().map(|o| json!({
            "old": o.old,
            "new": o.new,
            "moved": o.moved.iter().map(|m| json!({ "name": m.name, "old": m.old_place, "new": m.new_place })).collect::<Vec<_>>(),
        })),
        "unparsed": {
            "old": result.unparsed_old.iter().map(|(l, m)| json!({ "line": l, "message": m })).collect::<Vec<_>>(),
            "new": result.unparsed_new.iter().map(|(l, m)| json!({ "line": l, "message": m })).collect::<Vec<_>>(),
        },
    })
}
