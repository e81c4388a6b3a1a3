//! `exec-texture-unimportable`: UCC cannot import the image as given, or imports it into a
//! texture the engine draws wrongly.
//!
//! The texture factories (`UTextureFactory::FactoryCreateBinary`, `Editor/Src/UnEdFact.cpp`)
//! refuse BMP and PCX images whose sizes are not powers of two and BMPs whose pixels are
//! compressed, in every generation. Which types they take depends on the build: Unreal v1.200
//! (builds below 400) only 8-bit palettized BMP and PCX; UT v400 and later UE1 builds also
//! 24-bit BMP and three-plane PCX; OldUnreal's v469 also 32-bit BMP and PNG; UE2 adds TGA and
//! DDS, and never checks their sizes: `UTexture::Init` rounds the size bits up
//! (`appCeilLogTwo`), so a 100x64 TGA becomes a texture the renderer treats as 128x64. The
//! type check runs only when the engine build is set (`--engine-build`).

use unreal_engine::{Generation, Patch};
use unreal_formats::image::{ImageFormat, ImageInfo};

use super::RuleMeta;
use crate::exec::{ExecContext, Expect, FileFacts, Resolution};
use crate::{Diagnostic, Severity};

pub static RULE: RuleMeta = RuleMeta {
    code: "exec-texture-unimportable",
    severity: Severity::Error,
    summary: "an image UCC cannot import: sizes not powers of two, compressed, or a type the engine build cannot read",
    docs: DOCS,
    ..RuleMeta::UNREALSCRIPT
};

/// The rule's documentation: its `docs/rules.md` section after the `Severity:` lead.
const DOCS: &str = r#"UCC cannot import the image: a BMP or PCX whose sizes are not powers of two,
a compressed BMP (RLE or bit fields; checked for UE2 and for UE1 builds before v469), or (with
the engine build set) a type the build cannot read: Unreal v1.200-era builds (below 400) read
only 8-bit palettized PCX and BMP; UT v400 to v451 also 24-bit BMP and three-plane PCX;
OldUnreal's v469 also 32-bit BMP and PNG. UE2 imports a TGA or DDS of any size without a
check, but sizes the texture as the next powers of two (`UTexture::Init` uses
`appCeilLogTwo`, `Engine/Src/UnTex.cpp:425`), so it is drawn stretched or with garbage: a
warning.

Engine basis: the texture importer refuses BMP and PCX images whose sizes are not powers of two
("Texture dimensions are not powers of two"; Unreal v1.200 `Editor/Src/UnEdFact.cpp:877-881`,
930-934; UT v400 `Editor/Src/UnEdFact.cpp:1107-1111`, 1176-1180; UT2004
`Editor/Src/UnEdFact.cpp:2123-2127`, 2224-2228) and returns no texture. Image types: Unreal
v1.200 takes only 8-bit palettized BMP and PCX (871-876, 921-926); UT v400 also takes 24-bit
BMP (1143-1163) and 24-bit three-plane PCX (1214-1241) as RGBA8 textures, and refuses
RLE-compressed BMP (1112-1116); UT2004 adds 16-bit BMP (2194), 32-bit TGA (2314-2566) and DDS
(2569-2630), and checks neither TGA nor DDS for powers of two. A refused image loses the import
("Import texture ... failed", an error in UT2004, `Editor/Src/UnEdSrv.cpp:712`). Not found in
the available sources: the image types of OldUnreal's v469.

<!-- example
//- options engine=ue1 engine_build=226
//- /Game/MyMod/Textures/Skin.bmp = bmp 64x64 bpp=24
//- /Game/MyMod/Textures/Skin.pcx = pcx 64x64
-->
```unrealscript
#exec TEXTURE IMPORT NAME=Skin FILE=Textures\Skin.bmp   // 24-bit, with engine build 226
```

With `game = "ut469"` or `"unreal227"` the image type is not judged (both import PNG, DDS
and 32-bit images; their importers are not public). A `.fx` file (a texture written as text,
`Begin Object Class=IceTexture`) only Unreal 227 imports: an error for another game, an info
when no game is set.

Fix: convert the image to 8-bit palettized PCX or BMP with power-of-two sizes.

```unrealscript fixed
#exec TEXTURE IMPORT NAME=Skin FILE=Textures\Skin.pcx   // 8-bit, 64x64
```"#;

/// The first UE1 build (UT v400) that imports 24-bit BMP and three-plane PCX.
const FIRST_24_BIT_BUILD: u32 = 400;
/// The first OldUnreal UT build that imports 32-bit BMP and PNG.
const FIRST_TRUE_COLOUR_BUILD: u32 = 469;

fn type_problem(info: &ImageInfo, ctx: &ExecContext<'_>) -> Option<String> {
    // The OldUnreal builds import PNG, DDS and 32-bit images (UT v469's release notes; Unreal
    // 227's stock classes import DDS), and their importers are not public.
    if ctx.patch().is_some() {
        return None;
    }
    let build = ctx.engine_build?;
    if ctx.generation == Some(Generation::Ue2) || build >= FIRST_TRUE_COLOUR_BUILD {
        return None;
    }
    let bmp_or_pcx = matches!(info.format, ImageFormat::Pcx | ImageFormat::Bmp);
    let palettized_8 = info.paletted && info.bit_depth == 8;
    let rgb_24 = !info.paletted && info.bit_depth == 24;
    if bmp_or_pcx && (palettized_8 || (rgb_24 && build >= FIRST_24_BIT_BUILD)) {
        return None;
    }
    let what = if bmp_or_pcx {
        format!("a {}-bit {}", info.bit_depth, info.format.name())
    } else {
        format!("a {}", info.format.name())
    };
    let reads = if build >= FIRST_24_BIT_BUILD {
        "8-bit palettized or 24-bit PCX and BMP images"
    } else {
        "only 8-bit palettized PCX and BMP images"
    };
    let newer = if matches!(info.format, ImageFormat::Bmp | ImageFormat::Png) {
        " (OldUnreal's v469 imports it)"
    } else {
        ""
    };
    Some(format!("engine build {build} imports {reads}; this is {what}{newer}"))
}

/// True when the generation's importer checks this image's sizes (and refuses it).
fn sizes_checked(info: &ImageInfo, ctx: &ExecContext<'_>) -> bool {
    ctx.generation != Some(Generation::Ue2)
        || matches!(info.format, ImageFormat::Pcx | ImageFormat::Bmp)
}

pub fn check(ctx: &ExecContext<'_>, out: &mut Vec<Diagnostic>) {
    let Some(env) = ctx.env else { return };
    for (line, _) in ctx.commands().filter(|(l, _)| l.is("TEXTURE", Some("IMPORT"))) {
        let Some(file) = line.path("FILE") else { continue };
        let Resolution::Found { path, .. } = &file.resolution else { continue };
        let is_fx = path.extension().is_some_and(|e| e.eq_ignore_ascii_case("fx"));
        if is_fx && ctx.patch() != Some(Patch::Unreal227) {
            let (severity, why) = if ctx.game_known() {
                (RULE.severity, "the texture factory of the targeted build has no .fx importer")
            } else {
                (Severity::Info, "set the game (`game = \"unreal227\"`) to check it")
            };
            out.push(
                RULE.diagnostic(
                    file.value.mark(),
                    format!(
                        "`{}` is a .fx texture, which only Unreal 227 imports; {why}",
                        ctx.show(path)
                    ),
                )
                .with_severity(severity),
            );
            continue;
        }
        let FileFacts::Image(info) = &*env.facts(path, Expect::Image) else { continue };
        let mut problems = Vec::new();
        let power_of_two = info.width.is_power_of_two() && info.height.is_power_of_two();
        let size = format!("{}x{}", info.width, info.height);
        if !power_of_two && sizes_checked(info, ctx) {
            problems.push(format!("its size {size} is not a power of two in each direction"));
        }
        // UE1 builds before v469 and UT2004 refuse it; what v469 does is not in the sources.
        let refuses_compressed = match ctx.engine_build {
            _ if ctx.patch().is_some() => false,
            Some(build) => build < FIRST_TRUE_COLOUR_BUILD,
            None => ctx.generation == Some(Generation::Ue2),
        };
        if info.compressed && refuses_compressed {
            problems.push("its pixels are compressed (the importer takes only BI_RGB)".to_owned());
        }
        problems.extend(type_problem(info, ctx));
        if !problems.is_empty() {
            out.push(RULE.diagnostic(
                file.value.mark(),
                format!("UCC cannot import `{}`: {}", ctx.show(path), problems.join("; ")),
            ));
        } else if !power_of_two {
            let rounded =
                format!("{}x{}", info.width.next_power_of_two(), info.height.next_power_of_two());
            out.push(
                RULE.diagnostic(
                    file.value.mark(),
                    format!(
                        "UE2 imports `{}` without checking its size {size}, but sizes the texture as {rounded} (UTexture::Init rounds up to a power of two): it is drawn stretched or with garbage",
                        ctx.show(path)
                    ),
                )
                .with_severity(Severity::Warning),
            );
        }
    }
}
