//! `exec-sound-not-pcm`: `AUDIO IMPORT` of a WAV that is not plain PCM (ADPCM, IEEE float,
//! MP3 in a WAV wrapper, `WAVE_FORMAT_EXTENSIBLE`). The importer stores any `.wav` as it is
//! (`USoundFactory`, `Editor/Src/UnEdFact.cpp`), but the audio driver refuses a format tag other
//! than 1 when the sound is loaded (UT2004 `Engine/Src/UnAudio.cpp`,
//! `ALAudio/Src/ALAudioSubsystem.cpp`): the sound never plays.

use super::RuleMeta;
use crate::exec::{ExecContext, Expect, FileFacts, Resolution};
use crate::{Diagnostic, Severity};

pub static RULE: RuleMeta = RuleMeta {
    code: "exec-sound-not-pcm",
    severity: Severity::Error,
    summary: "an imported WAV file is not PCM",
    ..RuleMeta::UNREALSCRIPT
};

pub fn check(ctx: &ExecContext<'_>, out: &mut Vec<Diagnostic>) {
    let Some(env) = ctx.env else { return };
    for line in &ctx.file.lines {
        for file in line.paths.iter().filter(|p| p.expect == Expect::Sound) {
            let Resolution::Found { path, .. } = &file.resolution else { continue };
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
