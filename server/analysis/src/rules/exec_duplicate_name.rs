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

```unrealscript
#exec TEXTURE IMPORT NAME=JTapB FILE=Models\Tap_green.pcx GROUP=Skins FLAGS=2   // in GreenTapestry.uc
#exec TEXTURE IMPORT NAME=JTapB FILE=Models\Tap_blue.pcx GROUP=Skins FLAGS=2    // in BlueTapestry.uc: warning
#exec TEXTURE IMPORT NAME=JTapB FILE=MODELS\tap_green.PCX GROUP=Skins FLAGS=2   // same as the first: quiet
```

Fix: give each distinct import its own name (and use that name where it is applied)."#;

pub fn check(ctx: &ExecContext<'_>, out: &mut Vec<Diagnostic>) {
    let Some(current) = ctx.table.current_file() else { return };
    for (index, definition) in current.definitions.iter().enumerate() {
        if definition.kind == SymbolKind::Sequence {
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
                "{} `{}` is already defined{group} from another file or with other options; this import replaces it",
                definition.kind.name(),
                definition.name
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
        diagnostic.labels.push(Label {
            file,
            span: first.span,
            message: format!("first defined here ({})", first.kind.name()),
        });
        out.push(diagnostic);
    }
}
