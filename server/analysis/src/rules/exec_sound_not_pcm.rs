//! `exec-sound-not-pcm`: `AUDIO IMPORT` of a WAV that is not plain PCM (ADPCM, IEEE float,
//! MP3 in a WAV wrapper, `WAVE_FORMAT_EXTENSIBLE`). The engine plays only PCM; the import
//! fails or the sound stays silent.

use super::RuleMeta;
use crate::exec::{ExecContext, Expect, FileFacts, Resolution};
use crate::{Diagnostic, Severity};

pub static RULE: RuleMeta = RuleMeta {
    code: "exec-sound-not-pcm",
    severity: Severity::Error,
    summary: "an imported WAV file is not PCM",
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
                    "`{}` is {format_name} (format tag {format_tag:#06x}); the engine imports only PCM WAV files",
                    ctx.show(path)
                ),
            ));
        }
    }
}
