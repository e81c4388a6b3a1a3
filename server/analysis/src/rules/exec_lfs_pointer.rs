//! `exec-lfs-pointer`: files a package imports are Git LFS pointers, not the files: the
//! checkout never fetched its LFS objects. Nothing they hold can be checked, and UCC would
//! import the pointer's text. Said once per package, on the first such path of its first class
//! (in path order) that has one.

use super::RuleMeta;
use crate::exec::ExecContext;
use crate::{Diagnostic, Severity};

pub static RULE: RuleMeta = RuleMeta {
    code: "exec-lfs-pointer",
    severity: Severity::Info,
    summary: "imported files are Git LFS pointers, not the files: fetch the LFS objects",
    docs: DOCS,
    ..RuleMeta::UNREALSCRIPT
};

/// The rule's documentation: its `docs/rules.md` section after the `Severity:` lead.
const DOCS: &str = r"Files the package's directives import are Git LFS pointer files: short texts
beginning `version https://git-lfs.github.com/spec/v1` that a clone holds in place of each
binary file until its LFS objects are fetched. What the real files hold (mesh counts, image
formats, package contents) cannot be checked, so the checks that read files say nothing of
them, and the other rules go on; `unreal-ls info` and the previews say the same of such a
file. UCC run in this checkout would import the pointer's text. One finding per package, on the
first pointer path of its first class (in path order) that has one.

<!-- example
//- /Game/System/Core.u = package
//- /Game/Textures/DH_GUI_Tex.utx
version https://git-lfs.github.com/spec/v1
oid sha256:5d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393
size 1200000
-->
```unrealscript
#exec OBJ LOAD FILE=..\Textures\DH_GUI_Tex.utx
```

Fix: fetch the LFS objects (`git lfs pull`), or lint a checkout that has them.

<!-- example
//- /Game/System/Core.u = package
//- /Game/Textures/DH_GUI_Tex.utx = package objects=Texture:Button
-->
```unrealscript fixed
#exec OBJ LOAD FILE=..\Textures\DH_GUI_Tex.utx   // after git lfs pull
```";

pub fn check(ctx: &ExecContext<'_>, out: &mut Vec<Diagnostic>) {
    let Some(env) = ctx.env else { return };
    if ctx.file.symbols.lfs_pointers == 0 {
        return;
    }
    // Only the package's first class with a pointer says it.
    if ctx.table.files.iter().position(|f| f.lfs_pointers > 0) != Some(ctx.table.current) {
        return;
    }
    let Some(first) = ctx.file.lines.iter().flat_map(|l| &l.paths).find(|p| p.lfs_pointer(env))
    else {
        return;
    };
    let total: usize = ctx.table.files.iter().map(|f| f.lfs_pointers).sum();
    let classes = ctx.table.files.iter().filter(|f| f.lfs_pointers > 0).count();
    let whose = ctx.package_phrase();
    let spread = if classes > 1 { format!(" in {classes} classes") } else { String::new() };
    out.push(RULE.diagnostic(
        first.value.mark(),
        format!(
            "{total} file{} {whose} imports{spread} {} Git LFS pointer{}, not the file{}: this checkout lacks the LFS objects, so what they hold is not checked; fetch them (`git lfs pull`)",
            if total == 1 { "" } else { "s" },
            if total == 1 { "is a" } else { "are" },
            if total == 1 { "" } else { "s" },
            if total == 1 { "" } else { "s" },
        ),
    ));
}
