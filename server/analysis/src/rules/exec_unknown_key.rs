//! `exec-unknown-key`: a key the command does not read (a misspelling such as `ANIMFILE=` on
//! `MESH IMPORT`), a key only the other engine generation reads, a stray word, or a value
//! without a key. The engine ignores all of them silently, so the intended setting is lost.

use unreal_syntax::exec::Arg;

use super::{Fixability, RuleMeta};
use crate::exec::keys::KeyVerdict;
use crate::exec::ExecContext;
use crate::{Diagnostic, Severity};

pub static RULE: RuleMeta = RuleMeta {
    code: "exec-unknown-key",
    severity: Severity::Warning,
    summary: "a key the command does not read",
    fix: Fixability::Unsafe,
    docs: DOCS,
    ..RuleMeta::UNREALSCRIPT
};

/// The rule's documentation: its `docs/rules.md` section after the `Severity:` lead.
const DOCS: &str = r"A key the command does not read (a misspelling), a key only the other
generation reads, a word without `=`, or a value without a key. The engine ignores all of them
silently. A key that ends in a real key after a non-alphanumeric character (`_SEQ=`) is read
as that key, and the message says so. A run of words without `=` is one finding: `TLOD 6`
(a key written without its `=`) says so and offers `TLOD=6`.

<!-- example
//- /Game/MyMod/Textures/Skin.pcx = pcx 64x64
-->
```unrealscript
#exec TEXTURE IMPORT TEXNAME=Skin FILE=Textures\Skin.pcx GROUP=Skins
```

Under a licensee's game (XIII, Deus Ex, `other`...) an unknown key is an info, since that
editor may read keys Epic's do not, and a key the package's classes write again and again
(Harry Potter 2's `COMPRESSION=` on every texture import) is said once, at its first use in the
package. A key within an edit or two of a key the command reads is `exec-misspelt-key`'s.
`PACKAGE=` naming the class's own package on a command that reads none (`MESH IMPORT`, which
puts the mesh in the class's package: UT v400 `Editor/Src/UnEdSrv.cpp:318-350`; decompilers
write it on every import) changes nothing: a hint.

Fix: correct the key (`NAME=`).

```unrealscript fixed
#exec TEXTURE IMPORT NAME=Skin FILE=Textures\Skin.pcx GROUP=Skins
```";

pub fn check(ctx: &ExecContext<'_>, out: &mut Vec<Diagnostic>) {
    for (line, m) in ctx.commands() {
        if m.spec.ignored.is_some() {
            continue;
        }
        let verdicts = line.verdicts(ctx.text, ctx.generation, ctx.patch());
        // Most lines have nothing to report: the command's name and its key list are written
        // only for a finding, and once a line.
        if verdicts.iter().all(|(_, verdict)| !reported(verdict)) {
            continue;
        }
        let command = m.spec.display_name();
        let mut key_list: Option<String> = None;
        let mut index = 0;
        while let Some(&(arg, ref verdict)) = verdicts.get(index) {
            index += 1;
            // A near miss of a key the command reads is `exec-misspelt-key`'s.
            if crate::exec::keys::misspelling(m.spec, arg, verdict, ctx.text, ctx.generation)
                .is_some()
            {
                continue;
            }
            let name = arg.name_span().text(ctx.text);
            let message = match verdict {
                KeyVerdict::Unknown { read_as: Some(key) } => format!(
                    "{command} has no key `{name}=`; the engine reads it as `{key}=` (a key matches after any character that is not a letter or digit)"
                ),
                // `PACKAGE=` naming the class's own package where the command reads no
                // `PACKAGE=` (MESH IMPORT: a decompiler writes it on every import): the object
                // goes into that package anyway, so nothing is lost.
                KeyVerdict::Unknown { read_as: None }
                    if name.eq_ignore_ascii_case("PACKAGE")
                        && ctx.package_name().is_some_and(|own| {
                            arg.value().is_some_and(|v| {
                                v.content.text(ctx.text).eq_ignore_ascii_case(own)
                            })
                        }) =>
                {
                    out.push(
                        RULE.diagnostic(
                            arg.span(),
                            format!(
                                "{command} reads no `PACKAGE=`, and this one names the class's own package, where the object goes anyway: it changes nothing"
                            ),
                        )
                        .with_severity(crate::Severity::Hint)
                        .unnecessary()
                        .with_fix(crate::Fix {
                            title: format!("Remove `{}`", arg.span().text(ctx.text)),
                            edits: vec![crate::TextEdit {
                                span: unreal_syntax::Span::new(
                                    arg.span().start.saturating_sub(1),
                                    arg.span().end,
                                ),
                                new_text: String::new(),
                            }],
                            safe: false,
                        }),
                    );
                    continue;
                }
                KeyVerdict::Unknown { read_as: None } => {
                    let keys = key_list.get_or_insert_with(|| {
                        // The keys the engine reads: one it ignores is no alternative.
                        let known: Vec<&str> =
                            m.spec.keys.iter().filter(|k| k.ignored.is_none()).map(|k| k.name).collect();
                        dedup(&known).join(", ")
                    });
                    format!("{command} has no key `{name}=`; the engine ignores it (keys: {keys})")
                }
                KeyVerdict::StrayWord => {
                    // A run of stray words is one problem: `TLOD 6` (a key written without
                    // `=`) or words left on the line.
                    let mut last = arg;
                    while let Some(&(next, KeyVerdict::StrayWord)) = verdicts.get(index) {
                        last = next;
                        index += 1;
                    }
                    let span = arg.span().cover(last.span());
                    let run = span.text(ctx.text);
                    let is_key = m.spec.key_variants(name).next().is_some();
                    let mut diagnostic = if is_key && last != arg {
                        RULE.diagnostic(
                            span,
                            format!(
                                "`{run}` is no key and value of {command}: the engine reads keys written `{}=value`, so this is lost",
                                name.to_ascii_uppercase()
                            ),
                        )
                    } else {
                        RULE.diagnostic(
                            span,
                            format!("`{run}` is not a key of {command} (a key is written `KEY=value`)"),
                        )
                    };
                    if is_key && last != arg {
                        let value = last.span().text(ctx.text);
                        diagnostic = diagnostic.with_fix(crate::Fix {
                            title: format!("Write `{name}={value}`"),
                            edits: vec![crate::TextEdit { span, new_text: format!("{name}={value}") }],
                            safe: false,
                        });
                    }
                    out.push(diagnostic);
                    continue;
                }
                KeyVerdict::EmptyKey => "a value without a key (`=` starts the token)".to_owned(),
                KeyVerdict::OtherGeneration { engines } => format!(
                    "`{name}=` is read only by {} {command}; this workspace targets {}",
                    engines.name(),
                    ctx.generation.map_or("another generation", unreal_engine::Generation::name)
                ),
                KeyVerdict::OtherBuild { patch } => {
                    let span = arg.span();
                    out.push(match ctx.patch() {
                        Some(_) => RULE.diagnostic(
                            span,
                            format!(
                                "`{name}=` is read only by {}'s {command}; this workspace targets {}, whose {command} ignores it",
                                patch.name(),
                                ctx.patch().map_or("Epic's builds", unreal_engine::Patch::name)
                            ),
                        ),
                        None if ctx.game_known() => RULE.diagnostic(
                            span,
                            format!(
                                "`{name}=` is read only by {}'s {command}; Epic's builds, which this workspace targets, ignore it",
                                patch.name()
                            ),
                        ),
                        None => RULE
                            .diagnostic(
                                span,
                                format!(
                                    "`{name}=` is read only by {}'s {command}; set the game (`game = \"{}\"`) to check it",
                                    patch.name(),
                                    patch.game().name()
                                ),
                            )
                            .with_severity(crate::Severity::Info),
                    });
                    continue;
                }
                _ => continue,
            };
            let span = match arg {
                Arg::Key { key, value } if key.is_empty() => value.span.cover(key),
                _ => arg.span(),
            };
            out.push(RULE.diagnostic(span, message));
        }
    }
}

/// The verdicts this rule reports.
fn reported(verdict: &KeyVerdict) -> bool {
    matches!(
        verdict,
        KeyVerdict::Unknown { .. }
            | KeyVerdict::StrayWord
            | KeyVerdict::EmptyKey
            | KeyVerdict::OtherGeneration { .. }
            | KeyVerdict::OtherBuild { .. }
    )
}

fn dedup<'a>(names: &[&'a str]) -> Vec<&'a str> {
    let mut out: Vec<&str> = Vec::new();
    for name in names {
        if !out.contains(name) {
            out.push(name);
        }
    }
    out
}
