//! `exec-line-too-long`: a directive's command does not fit UCC's command buffer, and the
//! compile stops. `GetRawToken` (`Editor/Src/UnScrCom.cpp`) copies the command, from its first
//! non-blank character to the line end or the first `//` or `/*`, into a buffer of
//! `MAX_STRING_CONST_SIZE` characters (256 in UE1, 1024 in UE2) and throws "Identifier exceeds
//! maximum" when the buffer fills; nothing is cut silently, so a shorter command is read whole.

use unreal_engine::Generation;
use unreal_syntax::exec::{COMMAND_BUFFER_UE1, COMMAND_BUFFER_UE2};

use super::RuleMeta;
use crate::exec::ExecContext;
use unreal_syntax::Span;

use crate::{Diagnostic, Severity};

pub static RULE: RuleMeta = RuleMeta {
    code: "exec-line-too-long",
    severity: Severity::Error,
    summary: "a directive command longer than UCC's buffer (256 characters in UE1, 1024 in UE2)",
    docs: DOCS,
    ..RuleMeta::UNREALSCRIPT
};

/// The rule's documentation: its `docs/rules.md` section after the `Severity:` lead.
const DOCS: &str = r#"A directive's command does not fit UCC's command buffer: 255 characters in
UE1, 1023 in UE2, counted from the first non-blank character after the directive word to the
line end or the first `//` or `/*` (trailing blanks included). The compile stops with
"Identifier exceeds maximum". Nothing is cut silently: a shorter command reaches the editor
whole. With the engine unknown, a command between 256 and 1023 characters is an info (it
fails only in UE1).

Engine basis: the directive's command (from the first non-blank after the directive word to the
line end or the first `//` or `/*`) is read into a buffer of `MAX_STRING_CONST_SIZE`
characters, and when it fills the compile stops with "Identifier exceeds maximum" (UT2004
`Editor/Src/UnScrCom.cpp:975-991`, 1024 characters per `Core/Inc/UnStack.h:16`; UT v400
`Editor/Src/UnScrCom.cpp:843-858`, 256 characters in UT 432's public `Core/Inc/UnStack.h`,
which is not in these trees). A shorter command reaches `SafeExec` whole
(UnScrCom.cpp:3706-3711), and every import command is handled there with the whole line (UT2004
`Editor/Src/UnEdSrv.cpp:387-1482`, UT v400 `Editor/Src/UnEdSrv.cpp:52-487`). The 512-character
copy (`MAX_EDCMD`, UT2004 `Editor/Inc/Editor.h:41`, used at `Editor/Src/UnEdSrv.cpp:5365`)
serves only commands that `SafeExec` does not take; single values are cut at 256 or 512
characters (e.g. `FILE=`, UnEdSrv.cpp:500). No engine source shows a silent cut of a directive
line at 512 characters.

<!-- example
//- options engine=ue1
//- /Game/MyMod/Textures/Detail.pcx = pcx 64x64
//- /Game/MyMod/Textures/Weapons/HeavyAssaultRifle/FirstPerson/HeavyAssaultRifleFirstPersonBlueTeamSkin.pcx = pcx 256x256
-->
```unrealscript
// UE1: the second command has 257 characters
#exec TEXTURE IMPORT NAME=HeavyAssaultRifleDetail FILE=Textures\Detail.pcx
#exec TEXTURE IMPORT NAME=HeavyAssaultRifleFirstPersonBlueTeamSkin FILE=Textures\Weapons\HeavyAssaultRifle\FirstPerson\HeavyAssaultRifleFirstPersonBlueTeamSkin.pcx GROUP=HeavyAssaultRifleFirstPersonTeamSkins MIPS=On FLAGS=2 LODSET=2 DETAIL=HeavyAssaultRifleDetail
```

Under `game = "ut469"` or `"unreal227"` a UE1 command over the limit is an info: UT v469's
release notes say its editor takes commands longer than 256 characters, and neither build's
compiler source is public.

Fix: shorten the command: shorter names and groups, or split it (`TEXTURE IMPORT` first,
then `MESHMAP SETTEXTURE` and the like on their own lines).

```unrealscript fixed
#exec TEXTURE IMPORT NAME=RifleDetail FILE=Textures\Detail.pcx
#exec TEXTURE IMPORT NAME=RifleBlue FILE=Textures\Weapons\HeavyAssaultRifle\FirstPerson\HeavyAssaultRifleFirstPersonBlueTeamSkin.pcx GROUP=RifleSkins MIPS=On FLAGS=2 LODSET=2 DETAIL=RifleDetail
```"#;

pub fn check(ctx: &ExecContext<'_>, out: &mut Vec<Diagnostic>) {
    for line in &ctx.file.lines {
        let command = line.line.raw_command;
        let text = command.text(ctx.text);
        // No character takes more UTF-16 units than UTF-8 bytes, so a command shorter than the
        // smaller buffer in bytes fits every buffer (nearly every line), and an ASCII one has
        // as many units as bytes: only other text is counted character by character.
        if text.len() < COMMAND_BUFFER_UE1 {
            continue;
        }
        let ascii = text.is_ascii();
        // The compiler's characters are UTF-16 units.
        let chars: usize = if ascii { text.len() } else { text.chars().map(char::len_utf16).sum() };
        let (limit, known) = match ctx.generation {
            Some(Generation::Ue1) => (COMMAND_BUFFER_UE1, true),
            Some(Generation::Ue2) => (COMMAND_BUFFER_UE2, true),
            None if chars >= COMMAND_BUFFER_UE2 => (COMMAND_BUFFER_UE2, true),
            None => (COMMAND_BUFFER_UE1, false),
        };
        if chars < limit {
            continue;
        }
        // The span starts at the character that fills the buffer (in ASCII, the limit-th byte).
        let fill = if ascii {
            command.start as usize + limit - 1
        } else {
            let mut units = 0;
            text.char_indices()
                .find(|(_, c)| {
                    units += c.len_utf16();
                    units >= limit
                })
                .map_or(command.end as usize, |(at, _)| command.start as usize + at)
        };
        let span = Span::from_range(fill..command.end as usize);
        // The OldUnreal builds' compilers are not public; UT v469's editor takes commands over
        // 256 characters (its release notes), and whether its UCC's directive buffer grew too
        // is not said.
        if let (Some(patch), Some(Generation::Ue1)) = (ctx.patch(), ctx.generation) {
            out.push(
                RULE.diagnostic(
                    span,
                    format!(
                        "the command has {chars} characters; Epic's UE1 UCC holds {} and stops the compile; whether {}'s compiler holds more cannot be checked",
                        limit - 1,
                        patch.name()
                    ),
                )
                .with_severity(Severity::Info),
            );
            continue;
        }
        let diagnostic = if known {
            RULE.diagnostic(
                span,
                format!(
                    "the command has {chars} characters; UCC's buffer holds {} and the compile stops with \"Identifier exceeds maximum\"",
                    limit - 1
                ),
            )
        } else {
            RULE.diagnostic(
                span,
                format!(
                    "the command has {chars} characters: UE1's UCC holds {} and stops the compile, UE2's holds {}; set the engine to check",
                    COMMAND_BUFFER_UE1 - 1,
                    COMMAND_BUFFER_UE2 - 1
                ),
            )
            .with_severity(Severity::Info)
        };
        out.push(diagnostic);
    }
}
