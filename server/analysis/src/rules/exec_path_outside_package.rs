//! `exec-path-outside-package`: a path leaves the package folder (`..\..\Art\x.pcx`, a drive
//! letter, a leading backslash, or a symbolic link inside the package that leads out of it).
//! The build then depends on files outside the package, and the linter does not read them. `LOAD` of a game package is exempt: the engine finds those by
//! name in its package paths.

use super::RuleMeta;
use crate::exec::{ExecContext, Resolution};
use crate::{Diagnostic, Severity};

pub static RULE: RuleMeta = RuleMeta {
    code: "exec-path-outside-package",
    severity: Severity::Info,
    summary: "a path leaves the package folder and is not checked",
};

pub fn check(ctx: &ExecContext<'_>, out: &mut Vec<Diagnostic>) {
    for line in &ctx.file.lines {
        for path in &line.paths {
            let Resolution::OutsidePackage { link } = &path.resolution else { continue };
            let how = match link {
                Some(link) => format!(" through the symbolic link `{}`", ctx.show(link)),
                None => String::new(),
            };
            out.push(RULE.diagnostic(
                path.value.mark(),
                format!(
                    "`{}` leaves the package folder{how}; the build depends on files outside the package, which are not checked",
                    path.value.text
                ),
            ));
        }
    }
}
