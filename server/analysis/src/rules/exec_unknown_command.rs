//! `exec-unknown-command`: the command words of an `#exec` line name no editor command (or one
//! the target generation lacks). No handler matches it, so the editor returns without a word
//! and UCC, which ignores the answer, goes on: nothing is imported.

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
const DOCS: &str = r#"The command words name no editor command, or one only the other generation
has (`STATICMESH IMPORT` in UE1). The engine imports nothing. The commands known are those of
`UEditorEngine::SafeExec`, which runs `#exec` lines (UT v400 Editor/Src/UnEdSrv.cpp:52;
UT2004 Editor/Src/UnEdSrv.cpp:387), among them `MACRO file` / `EXEC file` (both) and
`FONT INFO`, `FONT UPDATE`, `PREFAB IMPORT` (UE2).

A mistyped sub-command whose keys are all those of a command that itself does nothing
(`MESHMAP Foo MESHMAP=Foo MESH=Foo`, meant as `MESHMAP NEW`) loses nothing: UCC ignores the
editor's answer to a directive (`CompileDirective`, UT2004 `Editor/Src/UnScrCom.cpp:3697-3712`),
so it is a hint tagged unnecessary.

UE2's `MESH SCALE` in a UE1 workspace (whose spelling is `MESHMAP SCALE`) with `X=1 Y=1 Z=1`
asks for the scale every mesh has: UE1 skips the line and builds the same mesh, a hint tagged
unnecessary; another scale is lost.

Commands of licensees' editors that their trees show (Deus Ex: `CONVERSATION IMPORT`,
`DEUSEXTEXT IMPORT`, `ALLDEUSEXTEXT IMPORT`; Rune: `SKELETAL IMPORT`, `ORIGIN`, `SAVEPACKAGE`;
Splinter Cell: `MESH ADDPILLVERTEX` and its pill commands, `ANIM FLAG`, `SAVEPACKAGE`) are known
under their game and not checked; elsewhere an info names whose they are. Under a licensee's
game, a command of Epic's OldUnreal builds or a word no Epic editor knows is an info: that
editor is not public.

A word that is no misspelling of any command (within two edits: `TEXTUER`, `MESHMAP
SETTEXTUER`) is an info: SafeExec ignores the line and UCC goes on (`CompileDirective`, UT v400
`Editor/Src/UnScrCom.cpp:3033`), and a tool's marker (XC_Engine's `#exec _cpptext`) is no
mistake.

Commands that only an OldUnreal build has (UT v469: `TEXTURE MERGECOMPRESSED`, `BRUSH
TOMESH`, `MESH WEAPONATTACH`, `MESH WEAPONPOSITION`, `MESH BOUNDINGSPHERE`, from its release
notes; Unreal 227: `MESH SOCKET`, `MESH COLLISION`, `OBJ COLLISIONBRUSH`, `OBJ SET`, from its
stock classes) are errors when the workspace targets another game, and an info when no game is
set (`game = "ut469"` or `"unreal227"` in `unreal-ls.toml`, or `--game`).

<!-- example
//- /Game/MyMod/Textures/Skin.pcx = pcx 64x64
-->
```unrealscript
#exec TEXTUER IMPORT NAME=Skin FILE=Textures\Skin.pcx
```

Fix: correct the command (`TEXTURE IMPORT`).

```unrealscript fixed
#exec TEXTURE IMPORT NAME=Skin FILE=Textures\Skin.pcx
```"#;

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
            // A mistyped sub-command whose keys are those of a command that is itself a no-op
            // (`MESHMAP Foo MESHMAP=Foo MESH=Foo` for `MESHMAP NEW`): UCC ignores what the
            // editor answers (`CompileDirective`, UT2004 `Editor/Src/UnScrCom.cpp:3697-3712`),
            // so nothing is lost either way.
            let keys: Vec<&str> = line
                .line
                .args
                .iter()
                .filter(|a| matches!(a, unreal_syntax::exec::Arg::Key { .. }))
                .map(|a| a.name_span().text(ctx.text))
                .collect();
            let no_op = commands::commands_named(word.text(ctx.text)).find(|spec| {
                spec.ignored.is_some()
                    && !keys.is_empty()
                    && keys.iter().all(|k| spec.key_variants(k).next().is_some())
            });
            if let Some(spec) = no_op {
                out.push(
                    RULE.diagnostic(
                        line.words_span(),
                        format!(
                            "unknown command `{} {}`; its keys are those of `{}`, which does nothing either ({}): the line changes nothing",
                            word.text(ctx.text),
                            sub.unwrap_or(""),
                            spec.display_name(),
                            spec.ignored.unwrap_or("")
                        ),
                    )
                    .unnecessary(),
                );
                continue;
            }
            // A command a licensee's editor has: under that game known (its keys are not
            // known, so not checked); elsewhere named.
            if let Some(found) = commands::licensee_command(word.text(ctx.text), sub) {
                let words = match found.sub {
                    Some(sub) => format!("{} {sub}", found.command),
                    None => found.command.to_owned(),
                };
                if let Some(message) = licensee_message(ctx, found, &words) {
                    out.push(
                        RULE.diagnostic(line.words_span(), message).with_severity(Severity::Info),
                    );
                }
                continue;
            }
            // A misspelling of a real command meant an import that is lost; a word that is no
            // command at all (XC_Engine's `_cpptext` marker) is a line SafeExec ignores, and UCC
            // goes on (`CompileDirective`, UT v400 `Editor/Src/UnScrCom.cpp:3033`).
            let word_text = word.text(ctx.text);
            let (close, message) = if known.is_empty() {
                let near = commands::COMMANDS
                    .iter()
                    .map(|c| c.command)
                    .chain(commands::ALIASES.iter().map(|a| a.command))
                    .find(|c| near_miss(word_text, c));
                (
                    near.is_some(),
                    match near {
                        Some(c) => format!("unknown command `{word_text}` (`{c}`?)"),
                        None => match ctx.licensee() {
                            Some(game) => format!(
                                "unknown command `{word_text}`: no command of Epic's editors; the editor of game `{}`, which is not public, may have it: not checked",
                                game.name()
                            ),
                            None => format!(
                                "unknown command `{word_text}`: no editor command has that name, so the engine ignores the line"
                            ),
                        },
                    },
                )
            } else {
                let sub_text = sub.unwrap_or("");
                let near = commands::commands_named(word_text).any(|spec| match spec.sub {
                    unreal_engine::exec::Sub::Word(w) => near_miss(sub_text, w),
                    _ => false,
                });
                (
                    near || sub_text.is_empty(),
                    format!(
                        "unknown command `{word_text} {sub_text}`; known: {}",
                        known.join(", ")
                    ),
                )
            };
            let diagnostic = RULE.diagnostic(line.words_span(), message);
            out.push(if close { diagnostic } else { diagnostic.with_severity(Severity::Info) });
            continue;
        };
        if let Some(patch) = m.spec.only_in {
            if ctx.patch() != Some(patch) {
                let words = line.words_span().text(ctx.text);
                let (severity, targets) = match ctx.patch() {
                    Some(other) => {
                        (RULE.severity, format!("this workspace targets {}", other.name()))
                    }
                    // A licensee's editor may have it too (Harry Potter 2 writes `MESH
                    // WEAPONATTACH`, a handler of Epic's later UE1 skeletal editor).
                    None if ctx.licensee().is_some() => (
                        Severity::Info,
                        format!(
                            "the editor of game `{}`, which is not public, may have it: not checked",
                            ctx.game.map_or("other", unreal_engine::Game::name)
                        ),
                    ),
                    None if ctx.game_known() => (
                        RULE.severity,
                        "this workspace targets Epic's builds, whose editors have no such command, so the line imports nothing"
                            .to_owned(),
                    ),
                    None => (
                        Severity::Info,
                        format!("set the game (`game = \"{}\"`) to check it", patch.game().name()),
                    ),
                };
                out.push(
                    RULE.diagnostic(
                        line.words_span(),
                        format!("`{words}` exists only in {}; {targets}", patch.name()),
                    )
                    .with_severity(severity),
                );
                continue;
            }
        }
        let Some(generation) = ctx.generation else { continue };
        let in_469 = ctx.patch() == Some(unreal_engine::Patch::Ut469)
            && commands::UT469_UE2_COMMANDS.iter().any(|&(c, sub)| {
                m.spec.command == c && m.spec.sub == unreal_engine::exec::Sub::Word(sub)
            });
        if in_469 {
            continue;
        }
        let engines = m.alias.map_or(m.spec.engines, |a| a.engines);
        if !engines.includes(generation) || !m.spec.engines.includes(generation) {
            // UE1 has no `MESH SCALE` (its spelling is `MESHMAP SCALE`): SafeExec skips the
            // line and UCC goes on (`CompileDirective`, UT v400
            // `Editor/Src/UnScrCom.cpp:3033`). Asking for the scale every mesh already has
            // (1, 1, 1) loses nothing.
            if identity_mesh_scale(ctx, line, m.spec) {
                out.push(
                    RULE.diagnostic(
                        line.words_span(),
                        format!(
                            "`{}` exists only in UE2, so this UE1 build skips the line; it asks for the scale of 1 every mesh has, so nothing changes",
                            line.words_span().text(ctx.text)
                        ),
                    )
                    .with_severity(Severity::Hint)
                    .unnecessary(),
                );
                continue;
            }
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

/// True when `written` is a misspelling of `name`: within two edits, ignoring case, and not
/// too short to tell.
fn near_miss(written: &str, name: &str) -> bool {
    let a: Vec<u8> = written.bytes().map(|b| b.to_ascii_uppercase()).collect();
    let b = name.as_bytes();
    if a.len() < 3 || a.len().abs_diff(b.len()) > 2 {
        return false;
    }
    // Levenshtein distance, one row at a time.
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, &ca) in a.iter().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let cost = usize::from(ca != cb.to_ascii_uppercase());
            let next = (prev + cost).min(row[j] + 1).min(row[j + 1] + 1);
            prev = row[j + 1];
            row[j + 1] = next;
        }
    }
    row[b.len()] <= 2
}

/// True for UE2's `MESH SCALE` with `X=1 Y=1 Z=1`: the scale a mesh has unless something sets
/// another, so a build that skips the line builds the same mesh.
fn identity_mesh_scale(
    ctx: &ExecContext<'_>,
    line: &crate::exec::LineFacts,
    spec: &commands::CommandSpec,
) -> bool {
    spec.command == "MESH"
        && spec.sub == commands::Sub::Word("SCALE")
        && ["X", "Y", "Z"].iter().all(|key| {
            line.value(ctx.text, key)
                .is_some_and(|v| (crate::exec::atof(&v.text) - 1.0).abs() < f64::EPSILON)
        })
}

/// What to say of a licensee's command: nothing under its game; otherwise whose it is.
fn licensee_message(
    ctx: &ExecContext<'_>,
    found: &commands::LicenseeCommand,
    words: &str,
) -> Option<String> {
    match (found.game, ctx.game) {
        (Some(game), Some(target)) if game == target => None,
        (Some(game), None | Some(unreal_engine::Game::Other)) => Some(format!(
            "`{words}` is a command of {}'s editor, whose keys are not public: not checked (set `game = \"{}\"` to take it as known)",
            found.game_name,
            game.name()
        )),
        // A licensee's command under a licensee's game the settings cannot name (Splinter
        // Cell is `other`): taken as known.
        (None, _) if ctx.licensee().is_some() => None,
        (None, None) => Some(format!(
            "`{words}` is a command of {}'s editor, whose keys are not public: not checked",
            found.game_name
        )),
        _ => Some(format!(
            "`{words}` is a command of {}'s editor, not of `{}`'s: the engine ignores the line",
            found.game_name,
            ctx.game.map_or("this game", unreal_engine::Game::name)
        )),
    }
}
