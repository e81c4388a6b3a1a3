//! `exec-shadowed-key`: the engine never reads this key, because its search for `KEY=` stops
//! at an earlier match: the same key written twice (the first wins), or the key's text inside
//! another value (`GROUP="NAME=x" NAME=y` reads `NAME=x`).
//!
//! A key written again is one finding per key, however many times, with the other uses as
//! labels. Its severity is decided by what the lost value would have changed: the same value
//! (as the engine reads it) changes nothing, a hint; another value of a key that changes the
//! import (`FILE=`, `LODSET=`, a texture to set) is lost, a warning; another *name* (`NAME=`,
//! `SEQ=`, `GROUP=`) only names the object differently, so it is a warning only when something
//! in the package refers to the lost name (a default property, an object literal, another
//! directive) and no other directive defines it, and otherwise a hint: nothing is lost.
use unreal_engine::exec::KeyKind;

use super::RuleMeta;
use crate::exec::keys::KeyVerdict;
use crate::exec::references::Reference;
use crate::exec::{atof, atoi, parse_bool, ExecContext, LineFacts};
use crate::{Diagnostic, Label, Severity};

pub static RULE: RuleMeta = RuleMeta {
    code: "exec-shadowed-key",
    severity: Severity::Warning,
    summary: "a key the engine never reads because it finds the key earlier on the line",
    docs: DOCS,
    ..RuleMeta::UNREALSCRIPT
};

/// The rule's documentation: its `docs/rules.md` section after the `Severity:` lead.
const DOCS: &str = r"The engine never reads this key: its search stops at an earlier match,
either the same key written again (the first wins) or the key's text inside another value. A
key written again is one finding however many times it is repeated, the other uses labelled.

The severity follows from what the lost value would have changed. Written again with the
same value (as the engine reads it: `MIPS=0` and `MIPS=off` are the same), it changes
nothing: a hint tagged unnecessary. Another value of a key that changes the import (`FILE=`,
`LODSET=`, `TEXTURE=` on `SETTEXTURE`) is lost: a warning. Another value of a naming key
(`NAME=`, `MESH=` on `MESH IMPORT`, `SEQ=`, `ANIM=`, `GROUP=`, `PACKAGE=`) only names the object
otherwise, so it is a warning only when the package refers to the lost name (`Texture=BM_A01`
or `Texture'BM_A01'` in defaultproperties or code, `TEXTURE=BM_A01` on another directive, a
name literal `'Landed'` for a sequence, `Pkg.Group.Name` for a group) and no other directive
defines that name; the reference is labelled. Nothing referring to it, the later name is dead
text: a hint tagged unnecessary. Where the package around the file cannot be read (an editor
buffer without a path), whether anything refers to it cannot be checked: an info.

Engine basis: `Parse(Stream, Match, Value)` returns the value after the first occurrence of
`Match` on the line (UT2004 `Core/Src/UnMisc.cpp:814-845`, UT v400 the same), so only the first
`NAME=` names the object that TEXTURE IMPORT creates (`UnEdSrv.cpp`); the class refers to
objects by the names they were created under.

<!-- example
//- /Game/MyMod/Textures/A.pcx = pcx 64x64
-->
```unrealscript
#exec TEXTURE IMPORT NAME=Old FILE=Textures\A.pcx NAME=New
```

Fix: write each key once, and keep key-like text out of values.

```unrealscript fixed
#exec TEXTURE IMPORT NAME=New FILE=Textures\A.pcx
```";

/// A key's value as the engine reads it, for comparing repeats: numbers and switches by
/// value, paths with either slash, everything else ignoring case.
fn normalised(kind: KeyKind, raw: &str) -> String {
    let raw = raw.trim();
    match kind {
        KeyKind::Int => atoi(raw).to_string(),
        KeyKind::Float => format!("{}", atof(raw)),
        KeyKind::Bool => parse_bool(raw).to_string(),
        KeyKind::Switch => String::new(),
        KeyKind::Path => raw.replace('\\', "/").to_ascii_lowercase(),
        _ => raw.to_ascii_lowercase(),
    }
}

/// True for the naming keys that name an object's outer (its group or package), not the
/// object.
fn kind_is_outer(key: &str) -> bool {
    key.eq_ignore_ascii_case("GROUP") || key.eq_ignore_ascii_case("PACKAGE")
}

/// Where the package refers to a name the engine drops, found as evidence that the drop
/// matters: (the file's index in the table, the reference).
fn reference_to_lost<'a>(
    ctx: &'a ExecContext<'_>,
    line: &LineFacts,
    key: &str,
    lost: &'a str,
) -> Option<(usize, &'a Reference)> {
    let on_this_line = |file: usize, r: &Reference| {
        file == ctx.table.current && line.directive.span.range().contains(&r.span.range().start)
    };
    if kind_is_outer(key) {
        // A group or package is lost only for paths through it to this line's object.
        let object = line.value(ctx.text, "NAME").map(|v| v.text)?;
        return ctx.table.references().find(|&(file, r)| {
            !on_this_line(file, r)
                && r.names(&object)
                && r.outers().any(|o| o.eq_ignore_ascii_case(lost))
        });
    }
    // Another directive creating the lost name: references find that object.
    if ctx.table.named(lost).next().is_some() {
        return None;
    }
    ctx.table.references_to(lost).find(|&(file, r)| !on_this_line(file, r))
}

pub fn check(ctx: &ExecContext<'_>, out: &mut Vec<Diagnostic>) {
    for (line, m) in ctx.commands() {
        if m.spec.ignored.is_some() {
            continue;
        }
        // Repeats of one key, by where the engine reads it: (read at, the repeats).
        let mut repeats: Vec<(unreal_syntax::Span, Vec<unreal_syntax::exec::Arg>)> = Vec::new();
        for (arg, verdict) in line.verdicts(ctx.text, ctx.generation, ctx.patch()) {
            let KeyVerdict::Shadowed { at, inside_other } = verdict else { continue };
            let name = arg.name_span().text(ctx.text);
            if *inside_other {
                out.push(
                    RULE.diagnostic(
                        arg.span(),
                        format!("the engine never reads this `{name}=`: it finds `{name}=` earlier, inside another value"),
                    )
                    .with_label(*at, "the engine reads the key here"),
                );
                continue;
            }
            match repeats.iter_mut().find(|(first, _)| first == at) {
                Some((_, args)) => args.push(*arg),
                None => repeats.push((*at, vec![*arg])),
            }
        }
        for (at, args) in repeats {
            let Some(first) = args.first() else { continue };
            let name = first.name_span().text(ctx.text);
            let kind = m
                .spec
                .key_variants(name)
                .find(|k| ctx.generation.is_none_or(|g| k.engines.includes(g)))
                .map_or(KeyKind::Text, |k| k.kind);
            let read = line.value(ctx.text, name).map(|v| v.text).unwrap_or_default();
            let read_as = normalised(kind, &read);
            let lost: Vec<String> = args
                .iter()
                .filter_map(|a| a.value().map(|v| v.text(ctx.text).trim().to_owned()))
                .filter(|v| normalised(kind, v) != read_as)
                .collect();
            let times = match args.len() + 1 {
                2 => "twice".to_owned(),
                n => format!("{n} times"),
            };
            let mut diagnostic = if lost.is_empty() {
                RULE.diagnostic(
                    first.span(),
                    format!("`{name}=` is written {times} with the same value `{read}`; the engine reads the first, the rest change nothing"),
                )
                .unnecessary()
            } else if kind == KeyKind::Name {
                let evidence =
                    lost.iter().find_map(|v| reference_to_lost(ctx, line, name, v).map(|r| (v, r)));
                match evidence {
                    Some((value, (file, reference))) => {
                        let mut d = RULE.diagnostic(
                            first.span(),
                            format!(
                                "`{name}=` is written {times} with different values; the engine reads only the first, `{name}={read}`, so `{name}={value}` is lost, yet `{}` refers to `{value}`",
                                reference.describe()
                            ),
                        );
                        let message = if kind_is_outer(name) {
                            format!("refers to the object through `{value}`, which the engine never makes its outer")
                        } else {
                            format!("refers to `{value}`, which the engine never creates")
                        };
                        d.labels.push(Label {
                            file: ctx.table.file_path(file).map(std::path::Path::to_path_buf),
                            span: reference.span,
                            message,
                        });
                        d
                    }
                    None if !ctx.knows_package() => RULE
                        .diagnostic(
                            first.span(),
                            format!(
                                "`{name}=` is written {times}; the engine reads only the first, `{name}={read}`; whether another class refers to `{}` cannot be checked without the package around this file",
                                lost.join("`, `")
                            ),
                        )
                        .with_severity(Severity::Info),
                    None => RULE
                        .diagnostic(
                            first.span(),
                            format!(
                                "`{name}=` is written {times}; the engine reads only the first, `{name}={read}`, and nothing in the package refers to `{}`: the rest changes nothing",
                                lost.join("`, `")
                            ),
                        )
                        .unnecessary(),
                }
            } else {
                RULE.diagnostic(
                    first.span(),
                    format!("`{name}=` is written {times} with different values; the engine reads only the first, `{name}={read}`, and the rest are lost"),
                )
            };
            diagnostic = diagnostic.with_label(at, "the engine reads this one");
            // A key written thousands of times (generated or hostile text) shows a few uses.
            for other in args[1..].iter().take(super::MAX_LABELS) {
                diagnostic = diagnostic.with_label(other.span(), "written again here");
            }
            out.push(diagnostic);
        }
    }
}
