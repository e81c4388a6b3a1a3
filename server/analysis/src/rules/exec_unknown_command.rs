//! `exec-unknown-command`: the command words of an `#exec` line name no editor command (or one
//! the target generation lacks). The engine logs "Unrecognized command" and imports nothing.

use unreal_engine::exec as commands;

use super::RuleMeta;
use crate::exec::ExecContext;
use crate::{Diagnostic, Severity};

pub static RULE: RuleMeta = RuleMeta {
    code: "exec-unknown-command",
    severity: Severity::Error,
    summary: "an `#exec` line whose command the engine does not know",
    docs: DOCS,
    ..RuleMeta::UNREALSCRIPT
};

/// The rule's documentation: its `docs/rules.md` section after the `Severity:` lead.
const DOCS: &str = r"The command words name no editor command, or one only the other generation
has (`STATICMESH IMPORT` in UE1). The engine imports nothing. The commands known are those of
`UEditorEngine::SafeExec`, which runs `#exec` lines (UT v400 Editor/Src/UnEdSrv.cpp:52;
UT2004 Editor/Src/UnEdSrv.cpp:387), among them `MACRO file` / `EXEC file` (both) and
`FONT INFO`, `FONT UPDATE`, `PREFAB IMPORT` (UE2).

```unrealscript
#exec TEXTUER IMPORT NAME=Skin FILE=Textures\Skin.pcx
```

Fix: correct the command (`TEXTURE IMPORT`).";

pub fn check(ctx: &ExecContext<'_>, out: &mut Vec<Diagnostic>) {
    for line in ctx.file.lines.iter().filter(|l| l.directive.kind.runs_command()) {
        let Some(word) = line.line.command else {
            out.push(RULE.diagnostic(
                line.directive.hash_span,
                format!("`#{}` without a command", line.directive.kind.name()),
            ));
            continue;
        };
        let Some(m) = line.command else {
            let sub = line.line.subcommand_text(ctx.text);
            let known: Vec<String> = commands::commands_named(word.text(ctx.text))
                .map(unreal_engine::exec::CommandSpec::display_name)
                .collect();
            let message = if known.is_empty() {
                format!("unknown command `{}`", word.text(ctx.text))
            } else {
                format!(
                    "unknown command `{} {}`; known: {}",
                    word.text(ctx.text),
                    sub.unwrap_or(""),
                    known.join(", ")
                )
            };
            out.push(RULE.diagnostic(line.words_span(), message));
            continue;
        };
        let Some(generation) = ctx.generation else { continue };
        let engines = m.alias.map_or(m.spec.engines, |a| a.engines);
        if !engines.includes(generation) || !m.spec.engines.includes(generation) {
            out.push(RULE.diagnostic(
                line.words_span(),
                format!(
                    "`{}` exists only in {}; this workspace targets {}",
                    line.words_span().text(ctx.text),
                    engines.name(),
                    generation.name()
                ),
            ));
        }
    }
}
