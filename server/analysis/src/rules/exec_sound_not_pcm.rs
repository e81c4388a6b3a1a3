//! `exec-sound-not-pcm`: `AUDIO IMPORT` of a WAV that is not plain PCM (ADPCM, IEEE float,
//! MP3 in a WAV wrapper, `WAVE_FORMAT_EXTENSIBLE`). The importer stores any `.wav` as it is
//! (`USoundFactory`, `Editor/Src/UnEdFact.cpp`), but the audio driver refuses a format tag other
//! than 1 when the sound is loaded (UT2004 `Engine/Src/UnAudio.cpp`,
//! `ALAudio/Src/ALAudioSubsystem.cpp`): the sound never plays.

use super::RuleMeta;
use crate::exec::{ExecContext, Expect, FileFacts, Resolution};
use crate::{Diagnostic, Severity};
use unreal_engine::Game;

pub static RULE: RuleMeta = RuleMeta {
    code: "exec-sound-not-pcm",
    severity: Severity::Error,
    summary: "an imported WAV file is not PCM",
    docs: DOCS,
    ..RuleMeta::UNREALSCRIPT
};

/// The rule's documentation: its `docs/rules.md` section after the `Severity:` lead.
const DOCS: &str = r#"`AUDIO IMPORT` of a WAV that is not plain PCM (ADPCM, IEEE float, MP3 in a WAV,
`WAVE_FORMAT_EXTENSIBLE`). UCC stores it as it is, but the engine's audio driver plays only PCM
(format tag 1): the sound never plays.

Engine basis: `AUDIO IMPORT` becomes a `NEW SOUND` command (UT2004
`Editor/Src/UnEdSrv.cpp:1440-1459`, UT v400 `Editor/Src/UnEdSrv.cpp:467-487`), and the sound
importer stores the bytes of any `.wav` file without looking at its format (UT2004
`Editor/Src/UnEdFact.cpp:1771-1780`, UT v400 `Editor/Src/UnEdFact.cpp:894-903`): the import
itself succeeds. When the game loads the sound, UT2004's OpenAL driver reads the header with
`FWaveModInfo::ReadWaveInfo`, which fails for any format tag but 1 (PCM)
(`Engine/Src/UnAudio.cpp:2036-2037`), and then drops the sound ("is not a WAVE file?",
`ALAudio/Src/ALAudioSubsystem.cpp:1606-1613`): it never plays. Not found in the available
sources: UE1's audio drivers.

<!-- example
//- /Game/MyMod/Sounds/Hit.wav = wav format=2
-->
```unrealscript
#exec AUDIO IMPORT FILE=Sounds\Hit.wav NAME=Hit
```

Under `game = "ut2004"` (or `"ut2003"`) an `.mp3` is a warning for the same reason: the factory
stores it as it is (`FileType` MP3), and the OpenAL driver drops it. Other games' drivers are
not public (Deus Ex mods ship `.mp3` sounds that play), so it is not judged there.

Fix: save the sound as 16-bit (or 8-bit) PCM WAV.

<!-- example
//- /Game/MyMod/Sounds/Hit.wav = wav format=1
-->
```unrealscript fixed
#exec AUDIO IMPORT FILE=Sounds\Hit.wav NAME=Hit   // saved again as 16-bit PCM
```"#;

pub fn check(ctx: &ExecContext<'_>, out: &mut Vec<Diagnostic>) {
    let Some(env) = ctx.env else { return };
    for line in &ctx.file.lines {
        for file in line.paths.iter().filter(|p| p.expect == Expect::Sound) {
            let Resolution::Found { path, .. } = &file.resolution else { continue };
            // UT2004's factory stores an `.mp3` too, but its OpenAL driver reads every sound
            // as a PCM WAV and drops it (`ALAudio/Src/ALAudioSubsystem.cpp:1606-1613`).
            // Other games' drivers (Deus Ex mods ship `.mp3` sounds) are not known.
            let mp3 = path.extension().is_some_and(|e| e.eq_ignore_ascii_case("mp3"));
            if mp3 && matches!(ctx.game, Some(Game::Ut2003 | Game::Ut2004)) {
                out.push(
                    RULE.diagnostic(
                        file.value.mark(),
                        format!(
                            "`{}` is an MP3; UCC stores it, but the game's OpenAL driver reads sounds only as PCM WAV (\"is not a WAVE file?\"), so the sound never plays",
                            ctx.show(path)
                        ),
                    )
                    .with_severity(Severity::Warning),
                );
                continue;
            }
            let FileFacts::Sound { format_tag, format_name } = *env.facts(path, Expect::Sound)
            else {
                continue;
            };
            if format_tag == 1 {
                continue;
            }
            out.push(RULE.diagnostic(
                file.value.mark(),
                format!(
                    "`{}` is {format_name} (format tag {format_tag:#06x}); UCC stores it, but the engine's audio driver plays only PCM (format tag 1), so the sound never plays",
                    ctx.show(path)
                ),
            ));
        }
    }
}
