//! `exec-bool-read-as-false`: a switch written with a word that means "yes" to a person but
//! not to the engine. `ParseUBOOL` (Core/Src/UnMisc.cpp:1102, UE1 and UE2) takes only `On`,
//! `True` or `1` (any case) as true and anything else as false, so `MIPS=Yes` turns mipmaps
//! off and `MLOD=2` makes a plain mesh.

use unreal_engine::exec::KeyKind;

use super::{Fixability, RuleMeta};
use crate::exec::{parse_bool, ExecContext};
use crate::{Diagnostic, Fix, Severity, TextEdit};

pub static RULE: RuleMeta = RuleMeta {
    code: "exec-bool-read-as-false",
    severity: Severity::Warning,
    summary: "a switch written `Yes` (or `2`) that the engine reads as false",
    fix: Fixability::Unsafe,
    docs: DOCS,
    ..RuleMeta::UNREALSCRIPT
};

/// The rule's documentation: its `docs/rules.md` section after the `Severity:` lead.
const DOCS: &str = r#"A switch (`MIPS=`, `MLOD=`, `ZEROTEX=`, `UNMIRROR=`, `MASKED=`...) written
with a word that means "yes" to a person but not to the engine. `ParseUBOOL`
(Core/Src/UnMisc.cpp:1102, UE1 and UE2) takes only `On`, `True` or `1` (any case) as true and
anything else as false, so `MIPS=Yes` turns mipmaps off and `MLOD=2` makes a plain mesh.

<!-- example
//- /Game/MyMod/Textures/Skin.pcx = pcx 64x64
-->
```unrealscript
#exec TEXTURE IMPORT NAME=Skin FILE=Textures\Skin.pcx MIPS=Yes
```

Fix: write `True`, `On` or `1` (the quick fix writes `True`).

```unrealscript fixed
#exec TEXTURE IMPORT NAME=Skin FILE=Textures\Skin.pcx MIPS=True
```"#;

/// Words and numbers a person writes for "true" that `ParseUBOOL` reads as false.
fn means_true(value: &str) -> bool {
    let lower = value.trim().to_ascii_lowercase();
    matches!(lower.as_str(), "yes" | "y" | "t" | "enable" | "enabled")
        || lower.parse::<i64>().is_ok_and(|n| n != 0 && n != 1)
}

pub fn check(ctx: &ExecContext<'_>, out: &mut Vec<Diagnostic>) {
    for (line, m) in ctx.commands() {
        if m.spec.ignored.is_some() {
            continue;
        }
        let mut seen: Vec<&str> = Vec::new();
        for key in m.spec.keys_for_any(ctx.generation) {
            if key.kind != KeyKind::Bool || key.ignored.is_some() || seen.contains(&key.name) {
                continue;
            }
            seen.push(key.name);
            // The engine's reading, judged before the value is copied out for a finding.
            let Some(found) = line.lookup_key(ctx.text, key) else { continue };
            let read = found.text(ctx.text);
            if parse_bool(&read) || !means_true(&read) {
                continue;
            }
            let Some(value) = line.value(ctx.text, key.name) else { continue };
            out.push(
                RULE.diagnostic(
                    value.mark(),
                    format!(
                        "the engine reads `{}={}` as false: it takes only On, True or 1 as true",
                        key.name, value.text
                    ),
                )
                .with_fix(Fix {
                    title: "Write `True`".to_owned(),
                    edits: vec![TextEdit { span: value.span, new_text: "True".to_owned() }],
                    safe: false,
                }),
            );
        }
    }
}
