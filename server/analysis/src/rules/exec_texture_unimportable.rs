//! `exec-texture-unimportable`: UCC cannot import the image as given. Every engine needs
//! power-of-two sizes (`16x64`, not `100x64`). Which image types it takes depends on the
//! build: UT v436 and older UE1 builds read only 8-bit palettized PCX and BMP, while
//! OldUnreal's v469 also reads 24/32-bit BMP and PNG (the C4 mod ships 24-bit BMPs). The type
//! check runs only when the engine build is set (`--engine-build`); without it the checks
//! accept what the most permissive build reads.

use unreal_formats::image::{ImageFormat, ImageInfo};
use unreal_syntax::exec::Generation;

use super::RuleMeta;
use crate::exec::{ExecContext, Expect, FileFacts, Resolution};
use crate::{Diagnostic, Severity};

pub static RULE: RuleMeta = RuleMeta {
    code: "exec-texture-unimportable",
    severity: Severity::Error,
    summary: "an image UCC cannot import: sizes not powers of two, or a type the engine build cannot read",
};

/// The first OldUnreal UT build that imports true-colour BMP and PNG.
const FIRST_TRUE_COLOUR_BUILD: u32 = 469;

fn type_problem(info: &ImageInfo, ctx: &ExecContext<'_>) -> Option<String> {
    let build = ctx.engine_build?;
    if ctx.generation == Some(Generation::Ue2) || build >= FIRST_TRUE_COLOUR_BUILD {
        return None;
    }
    let palettized_8 = info.paletted && info.bit_depth == 8;
    if matches!(info.format, ImageFormat::Pcx | ImageFormat::Bmp) && palettized_8 {
        return None;
    }
    let what = if matches!(info.format, ImageFormat::Pcx | ImageFormat::Bmp) {
        format!("a {}-bit {}", info.bit_depth, info.format.name())
    } else {
        format!("a {}", info.format.name())
    };
    let newer = if info.format == ImageFormat::Bmp || info.format == ImageFormat::Png {
        " (OldUnreal's v469 imports it)"
    } else {
        ""
    };
    Some(format!(
        "engine build {build} imports only 8-bit palettized PCX or BMP images; this is {what}{newer}"
    ))
}

pub fn check(ctx: &ExecContext<'_>, out: &mut Vec<Diagnostic>) {
    let Some(env) = ctx.env else { return };
    for (line, _) in ctx.commands().filter(|(l, _)| l.is("TEXTURE", Some("IMPORT"))) {
        let Some(file) = line.path("FILE") else { continue };
        let Resolution::Found { path, .. } = &file.resolution else { continue };
        let FileFacts::Image(info) = &*env.facts(path, Expect::Image) else { continue };
        let mut problems = Vec::new();
        if !info.width.is_power_of_two() || !info.height.is_power_of_two() {
            problems.push(format!(
                "its size {}x{} is not a power of two in each direction",
                info.width, info.height
            ));
        }
        problems.extend(type_problem(info, ctx));
        if problems.is_empty() {
            continue;
        }
        out.push(RULE.diagnostic(
            file.value.mark(),
            format!("UCC cannot import `{}`: {}", ctx.show(path), problems.join("; ")),
        ));
    }
}
