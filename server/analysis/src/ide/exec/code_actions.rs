//! Code actions on `#exec` lines beyond the fixes that diagnostics carry (those reach the
//! editor through the diagnostics path, among them "write the path as spelt on disk"):
//! add the keys a command needs, and write a path with backslashes as real sources do.

use unreal_engine::exec::KeySpec;
use unreal_engine::{Engines, Generation};
use unreal_syntax::Span;

use super::ExecSource;
use crate::exec::LineFacts;
use crate::ide::t3d::code_actions::{Action, ActionKind};
use crate::TextEdit;

/// The actions for the directive lines that intersect `range`.
pub fn code_actions(src: &ExecSource<'_>, range: Span) -> Vec<Action> {
    let mut actions = Vec::new();
    for line in &src.file.lines {
        let span = line.directive.span;
        if span.end < range.start || span.start > range.end {
            continue;
        }
        add_missing_keys(src, line, &mut actions);
        backslash_paths(src, line, &mut actions);
    }
    actions
}

/// Whether `key` is required for `generation` (unknown: required in every generation).
fn required(keys: &[KeySpec], key: &KeySpec, generation: Option<Generation>) -> bool {
    if !key.required || key.ignored.is_some() {
        return false;
    }
    match generation {
        Some(g) => key.engines.includes(g),
        None => {
            key.engines == Engines::Both
                || [Generation::Ue1, Generation::Ue2].iter().all(|g| {
                    keys.iter().any(|k| k.name == key.name && k.engines.includes(*g) && k.required)
                })
        }
    }
}

fn add_missing_keys(src: &ExecSource<'_>, line: &LineFacts, out: &mut Vec<Action>) {
    let Some(m) = line.command else { return };
    if m.spec.ignored.is_some() {
        return;
    }
    let mut missing: Vec<&str> = Vec::new();
    for key in m.spec.keys {
        if missing.contains(&key.name) || !required(m.spec.keys, key, src.generation) {
            continue;
        }
        // A misspelling of the key on the line is replaced by `exec-misspelt-key`'s fix, not
        // added to.
        let misspelt = line.line.args.iter().any(|arg| {
            matches!(arg, unreal_syntax::exec::Arg::Key { .. })
                && crate::exec::keys::misspelt_key(
                    m.spec,
                    arg.name_span().text(src.text),
                    src.generation,
                ) == Some(key.name)
        });
        if !misspelt && line.lookup(src.text, &key.search_text()).is_none() {
            missing.push(key.name);
        }
    }
    if missing.is_empty() {
        return;
    }
    // After the last token the engine reads (before a trailing comment).
    let end = line.line.args.last().map_or_else(|| line.words_span().end, |a| a.span().end);
    let insert: String = missing.iter().fold(String::new(), |mut out, k| {
        out.push(' ');
        out.push_str(k);
        out.push('=');
        out
    });
    let names: Vec<String> = missing.iter().map(|k| format!("`{k}=`")).collect();
    out.push(Action {
        title: format!("Add {}", names.join(", ")),
        kind: ActionKind::Quickfix,
        edits: vec![TextEdit { span: Span::empty_at(end), new_text: insert }],
    });
}

fn backslash_paths(src: &ExecSource<'_>, line: &LineFacts, out: &mut Vec<Action>) {
    for path in &line.paths {
        let raw = path.value.span.text(src.text);
        if !raw.contains('/') || raw.contains("//") {
            continue;
        }
        let fixed = raw.replace('/', "\\");
        out.push(Action {
            title: format!("Write `{fixed}` with backslashes"),
            kind: ActionKind::Refactor,
            edits: vec![TextEdit { span: path.value.span, new_text: fixed }],
        });
    }
}
