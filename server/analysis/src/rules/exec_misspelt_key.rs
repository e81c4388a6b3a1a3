//! `exec-misspelt-key`: a key the command does not have, one or two edits from a key it reads
//! (`GRUOP=` for `GROUP=`, `FLAG=` for `FLAGS=`). Every build's handler looks keys up by their
//! exact names (`Parse(Str, TEXT("GROUP="), ...)`), so the value is lost; a typo is a typo in a
//! licensee's editor too. Offers the key it resembles.

use super::{Fixability, RuleMeta};
use crate::exec::keys::misspelling;
use crate::exec::ExecContext;
use crate::{Diagnostic, Severity};
use std::fmt::Write as _;

pub static RULE: RuleMeta = RuleMeta {
    code: "exec-misspelt-key",
    severity: Severity::Warning,
    summary: "a misspelt key: the engine ignores it and its value is lost",
    fix: Fixability::Safe,
    docs: DOCS,
    ..RuleMeta::UNREALSCRIPT
};

/// The rule's documentation: its `docs/rules.md` section after the `Severity:` lead.
const DOCS: &str = r#"A key the command does not have, within one edit of a key it reads (two for
keys of five letters or more), and nearer to it than to any other: `GRUOP=` or `GROP=` for
`GROUP=`, `MIPZ=` for `MIPS=`, `FLAG=` for `FLAGS=`. The handlers find each key by its exact
name (`Parse(Str, TEXT("GROUP="), ...)`, UT v400 `Editor/Src/UnEdSrv.cpp`, UT2004 the same),
so the misspelt key is skipped silently and its value lost: the texture lands outside its group,
keeps its mipmaps, is not masked. This holds in every build, a licensee's too (whose other
unknown keys are only infos in `exec-unknown-key`, since its editor may read keys Epic's do
not). Keys only the other generation reads are not suggested.

<!-- example
//- /Game/MyMod/Textures/Skin.pcx = pcx 64x64
-->
```unrealscript
#exec TEXTURE IMPORT NAME=Skin FILE=Textures\Skin.pcx GRUOP=Skins FLAG=2
```

Fix: write the key it resembles ("Replace with `GROUP=`"); `lint --fix` does it where the line
does not already have that key.

```unrealscript fixed
#exec TEXTURE IMPORT NAME=Skin FILE=Textures\Skin.pcx GROUP=Skins FLAGS=2
```"#;

pub fn check(ctx: &ExecContext<'_>, out: &mut Vec<Diagnostic>) {
    for (line, m) in ctx.commands() {
        if m.spec.ignored.is_some() {
            continue;
        }
        for &(arg, ref verdict) in line.verdicts(ctx.text, ctx.generation, ctx.patch()) {
            let Some(key) = misspelling(m.spec, arg, verdict, ctx.text, ctx.generation) else {
                continue;
            };
            let name_span = arg.name_span();
            let written = name_span.text(ctx.text);
            let command = m.spec.display_name();
            let present = line.lookup(ctx.text, &format!("{key}=")).is_some();
            let mut message = format!(
                "{command} has no key `{written}=`: did you mean `{key}=`? The engine ignores the misspelt key, so its value is lost"
            );
            if present {
                let _ = write!(message, " (the line has `{key}=` already)");
            }
            let mut diagnostic = RULE.diagnostic(name_span, message);
            if !present {
                diagnostic = diagnostic.with_fix(crate::Fix {
                    title: format!("Replace with `{key}=`"),
                    edits: vec![crate::TextEdit { span: name_span, new_text: key.to_owned() }],
                    safe: true,
                });
            }
            out.push(diagnostic);
        }
    }
}
