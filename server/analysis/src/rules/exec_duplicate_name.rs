//! `exec-duplicate-name`: two directives of the package create an object of the same name in
//! the same package and group from different files or with different options (three classes
//! importing three different images all as `JTapB`). The later import replaces the earlier
//! object (or, for objects of different classes, UCC stops with "Cannot replace"), so what
//! the earlier line says is lost. Names are compared ignoring case, across every class of
//! the package.
//!
//! Re-importing the same file with the same options under the same name (Epic does it in
//! every class that shows a shared texture) replaces the object with an identical one: no
//! finding. The comparison is the engine's reading of each line
//! ([`crate::exec::LineFacts::import_signature`]).

use std::fmt::Write as _;

use super::RuleMeta;
use crate::exec::{ExecContext, SymbolKind};
use crate::{Diagnostic, Label, Severity};

pub static RULE: RuleMeta = RuleMeta {
    code: "exec-duplicate-name",
    severity: Severity::Warning,
    summary: "two directives create an object of the same name in the same package and group",
    docs: DOCS,
    ..RuleMeta::UNREALSCRIPT
};

/// The rule's documentation: its `docs/rules.md` section after the `Severity:` lead.
const DOCS: &str = r#"Two directives of the package create an object of the same name in the same
package and group (compared ignoring case, across all classes; a missing `NAME=` is the file's
base name) from different files or with different options. The later import replaces the
earlier object, so what the earlier line says is lost; for objects of different classes UCC
stops with "Cannot replace". The label marks the first definition.

Re-importing the same file with the same options under the same name is not reported: the
object is replaced by an identical one (Epic does this in every class that shows a shared
texture). Lines are compared as the engine reads them: the first match of each key the command
reads, numbers and switches by value, names ignoring case, paths by the file they reach; keys
the engine ignores and the name's own key do not count.

<!-- example
//- /Game/MyMod/Models/Tap_green.pcx = pcx 64x64
//- /Game/MyMod/Models/Tap_blue.pcx = pcx 64x64
-->
```unrealscript
#exec TEXTURE IMPORT NAME=JTapB FILE=Models\Tap_green.pcx GROUP=Skins FLAGS=2
#exec TEXTURE IMPORT NAME=JTapB FILE=Models\Tap_green.pcx FLAGS=2 GROUP=Skins   // the same again: quiet
#exec TEXTURE IMPORT NAME=JTapB FILE=Models\Tap_blue.pcx GROUP=Skins FLAGS=2    // another file: warning
```

Under Unreal 227, whose editor source is not public, an import of the same file under the same
name with other options is an info: UT2004 keeps several of a texture's earlier options on such
a re-import (`Editor/Src/UnEdSrv.cpp:582-592`, 681-692), and what 227 does cannot be checked
(its stock classes import `TranslatorHUD3` with and without `HD=`).

A `MESH SEQUENCE` that names a sequence the mesh already has, with other frames, rate or
group, overwrites it (the handler looks the name up among the mesh's sequences, UT2004
`Editor/Src/UnEdSrv.cpp:1406-1413`, UT v400 `Editor/Src/UnEdSrv.cpp:435-441`): a warning on the
later line, the first labelled. The message names what differs.

Fix: give each distinct import its own name (and use that name where it is applied).

```unrealscript fixed
#exec TEXTURE IMPORT NAME=JTapG FILE=Models\Tap_green.pcx GROUP=Skins FLAGS=2
#exec TEXTURE IMPORT NAME=JTapB FILE=Models\Tap_blue.pcx GROUP=Skins FLAGS=2
```"#;

pub fn check(ctx: &ExecContext<'_>, out: &mut Vec<Diagnostic>) {
    let Some(current) = ctx.table.current_file() else { return };
    for (index, definition) in current.definitions.iter().enumerate() {
        if definition.kind == SymbolKind::Sequence {
            check_sequence(ctx, index, definition, out);
            continue;
        }
        // The first definition of the same name and outer, in file order, before this one,
        // that builds something else (a re-import of the same thing changes nothing).
        let first = ctx.table.named(&definition.name).find(|f| {
            f.definition.same_outer(definition)
                && (f.file_index, f.index) < (ctx.table.current, index)
                && !(f.definition.kind == definition.kind
                    && f.definition.import == definition.import)
        });
        let Some(first) = first else { continue };
        let (file, first) = (first.file.map(std::path::Path::to_path_buf), first.definition);
        let group =
            definition.group.as_ref().map_or_else(String::new, |g| format!(" in group `{g}`"));
        let message = if first.kind == definition.kind {
            format!(
                "{} `{}` is already defined{group} differently ({}); this import replaces it",
                definition.kind.name(),
                definition.name,
                differences(&first.import, &definition.import)
            )
        } else {
            format!(
                "`{}` is already the name of a {}{group}; UCC cannot replace it with a {}",
                definition.name,
                first.kind.name(),
                definition.kind.name()
            )
        };
        let mut diagnostic = RULE.diagnostic(definition.span, message);
        // A build whose editor source is not public may keep an object's earlier options when
        // the same file is imported again under its name (UT2004 keeps several, `UnEdSrv.cpp:
        // 582-592`, 681-692): with the same files, what is lost cannot be checked.
        if let Some(patch) = ctx.patch().filter(|p| !p.keys_known()) {
            if first.kind == definition.kind && same_files(&first.import, &definition.import) {
                let _ = write!(
                    diagnostic.message,
                    "; whether {} keeps the earlier options when the same file is imported again cannot be checked: its editor source is not public",
                    patch.name()
                );
                diagnostic = diagnostic.with_severity(Severity::Info);
            }
        }
        diagnostic.labels.push(Label {
            file,
            span: first.span,
            message: format!("first defined here ({})", first.kind.name()),
        });
        out.push(diagnostic);
    }
}

/// A `MESH SEQUENCE` naming a sequence the mesh already has with other frames, rate or
/// group: the handler looks the name up among the mesh's sequences and overwrites it
/// (UT2004 `Editor/Src/UnEdSrv.cpp:1406-1413`, UT v400 `Editor/Src/UnEdSrv.cpp:435-441`), so
/// the earlier line's frames are lost.
fn check_sequence(
    ctx: &ExecContext<'_>,
    index: usize,
    definition: &crate::exec::Definition,
    out: &mut Vec<Diagnostic>,
) {
    let Some(mesh) = definition.owner.as_deref() else { return };
    let first = ctx.table.sequences(mesh).find(|f| {
        f.definition.name.eq_ignore_ascii_case(&definition.name)
            && (f.file_index, f.index) < (ctx.table.current, index)
            && f.definition.import != definition.import
    });
    let Some(first) = first else { return };
    let mut diagnostic = RULE.diagnostic(
        definition.span,
        format!(
            "mesh `{mesh}` already has a sequence `{}`, defined differently ({}); the engine overwrites it with this one, so the earlier definition is lost",
            definition.name,
            differences(&first.definition.import, &definition.import)
        ),
    );
    diagnostic.labels.push(Label {
        file: first.file.map(std::path::Path::to_path_buf),
        span: first.definition.span,
        message: "first defined here".to_owned(),
    });
    out.push(diagnostic);
}

/// An import signature's keys and values, in order (`FILE=/game/p/a.pcx` -> (`FILE`,
/// `/game/p/a.pcx`)); a value with blanks continues until the next `KEY=`.
fn keys_of(signature: &str) -> Vec<(&str, String)> {
    let mut out: Vec<(&str, String)> = Vec::new();
    // The command's own words come first, up to the first `KEY=`.
    for token in signature.split(' ') {
        let key = token.split_once('=').filter(|(k, _)| {
            !k.is_empty()
                && k.bytes().all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
        });
        match (key, out.last_mut()) {
            (Some((k, v)), _) => out.push((k, v.to_owned())),
            (None, Some((_, value))) => {
                value.push(' ');
                value.push_str(token);
            }
            (None, None) => {}
        }
    }
    out
}

/// True when two import signatures name the same files (every file key equal).
fn same_files(first: &str, later: &str) -> bool {
    fn files(signature: &str) -> Vec<(&str, String)> {
        let mut keys: Vec<(&str, String)> = keys_of(signature)
            .into_iter()
            .filter(|(k, _)| {
                matches!(*k, "FILE" | "ANIVFILE" | "DATAFILE" | "MODELFILE" | "ANIMFILE")
            })
            .collect();
        keys.sort();
        keys
    }
    files(first) == files(later)
}

/// A value for a message: a path by its last two parts (the folder and the file).
fn shown(value: &str) -> String {
    shown_parts(value, 2)
}

/// A path by its last `count` parts (the whole value when it has no more).
fn shown_parts(value: &str, count: usize) -> String {
    let parts: Vec<&str> = value.split(['/', '\\']).filter(|p| !p.is_empty()).collect();
    if parts.len() > count {
        parts[parts.len() - count..].join("/")
    } else {
        value.to_owned()
    }
}

/// Two values that differ, by as many last parts as it takes to tell them apart: the same
/// file name in two folders (`..\Textures\X.pcx` from the package folder and `Textures\X.pcx`)
/// reads as two paths, not as one twice.
fn shown_apart(earlier: &str, later: &str) -> (String, String) {
    let most = earlier.split(['/', '\\']).count().max(later.split(['/', '\\']).count());
    (2..=most.max(2))
        .map(|count| (shown_parts(earlier, count), shown_parts(later, count)))
        .find(|(a, b)| a != b)
        .unwrap_or_else(|| (earlier.to_owned(), later.to_owned()))
}

/// What makes two import signatures differ, for the message: the keys whose values differ,
/// then the keys only one of them gives.
fn differences(first: &str, later: &str) -> String {
    let (a, b) = (keys_of(first), keys_of(later));
    let mut out: Vec<String> = Vec::new();
    for (key, value) in &b {
        match a.iter().find(|(k, _)| k == key) {
            Some((_, earlier)) if earlier != value => {
                let (there, here) = shown_apart(earlier, value);
                out.push(format!("`{key}={there}` there, `{key}={here}` here"));
            }
            Some(_) => {}
            None => out.push(format!("`{key}={}` only here", shown(value))),
        }
    }
    for (key, value) in &a {
        if !b.iter().any(|(k, _)| k == key) {
            out.push(format!("`{key}={}` only there", shown(value)));
        }
    }
    if out.is_empty() {
        // The same keys and values under another command (`AUDIO IMPORT` and `NEW SOUND`).
        return "another command".to_owned();
    }
    out.join(", ")
}

#[cfg(test)]
mod tests {
    use super::differences;

    #[test]
    fn differences_name_the_keys() {
        assert_eq!(
            differences(
                "TEXTURE IMPORT FILE=/game/p/models/tap_green.pcx GROUP=skins FLAGS=2",
                "TEXTURE IMPORT FILE=/game/p/models/tap_blue.pcx GROUP=skins MIPS=false"
            ),
            "`FILE=models/tap_green.pcx` there, `FILE=models/tap_blue.pcx` here, `MIPS=false` only here, `FLAGS=2` only there"
        );
        assert_eq!(differences("AUDIO IMPORT FILE=a", "NEW SOUND FILE=a"), "another command");
        assert_eq!(
            differences("X GROUP=a b", "X GROUP=a c"),
            "`GROUP=a b` there, `GROUP=a c` here"
        );
        // One file name in two folders: shown by as many parts as tell them apart.
        assert_eq!(
            differences(
                "TEXTURE IMPORT FILE=/game/textures/t.pcx",
                "TEXTURE IMPORT FILE=/game/p/textures/t.pcx"
            ),
            "`FILE=/game/textures/t.pcx` there, `FILE=p/textures/t.pcx` here"
        );
    }
}
