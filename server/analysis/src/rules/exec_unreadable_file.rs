//! `exec-unreadable-file`: the file exists but is not what the key expects (a `_d.3d` whose
//! size does not match its triangle count, a `.wav` without a `fmt ` chunk, a `.pcx` that is
//! no image). UCC fails or imports garbage; the message gives the reader's precise error.

use super::RuleMeta;
use crate::exec::{ExecContext, Expect, FileFacts, Resolution};
use crate::{Diagnostic, Severity};

pub static RULE: RuleMeta = RuleMeta {
    code: "exec-unreadable-file",
    severity: Severity::Error,
    summary: "an imported file is damaged or not of the expected format",
    docs: DOCS,
    ..RuleMeta::UNREALSCRIPT
};

/// The rule's documentation: its `docs/rules.md` section after the `Severity:` lead.
const DOCS: &str = r"The file exists but is not what the key expects: a `_d.3d` shorter than its
triangle count says, a WAV without a `fmt ` chunk, an image with a broken header. The message
gives the reader's error (structure, byte offset, what was expected). Files are read as the
engine reads them: a `_d.3d` or `_a.3d` with bytes after the triangles or frames its header
counts is fine (`meshVertImport` in UnMeshEd.cpp reads by the counts and never looks at the
file size; UT2004's SkaarjPack_rc ships such files), and `unreal-ls info` shows how many bytes
are unused.

```unrealscript
#exec MESH IMPORT MESH=Box ANIVFILE=Models\Box_a.3d DATAFILE=Models\Box_d.3d
```

Fix: re-export the file.";

fn expected(expect: Expect) -> &'static str {
    match expect {
        Expect::MeshData => "vertex mesh data file (_d.3d)",
        Expect::MeshAnimation => "vertex mesh animation file (_a.3d)",
        Expect::Skin => "ActorX skin (.psk)",
        Expect::Animation => "ActorX animation (.psa)",
        Expect::Image => "image",
        Expect::Sound => "WAV sound",
        Expect::Package => "package",
        Expect::Any => "file",
    }
}

pub fn check(ctx: &ExecContext<'_>, out: &mut Vec<Diagnostic>) {
    let Some(env) = ctx.env else { return };
    for line in &ctx.file.lines {
        for path in &line.paths {
            let (Resolution::Found { path: file, .. } | Resolution::Indexed { path: file }) =
                &path.resolution
            else {
                continue;
            };
            if path.expect == Expect::Any {
                continue;
            }
            let message = match &*env.facts(file, path.expect) {
                FileFacts::Unreadable(error) => format!(
                    "`{}` is not a valid {}: {error}",
                    ctx.show(file),
                    expected(path.expect)
                ),
                FileFacts::Unopenable => format!("`{}` cannot be opened", ctx.show(file)),
                _ => continue,
            };
            out.push(RULE.diagnostic(path.value.mark(), message));
        }
    }
}
