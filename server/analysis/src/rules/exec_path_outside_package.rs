//! `exec-path-outside-package`: a path leaves the package folder (`..\..\Art\x.pcx`, a drive
//! letter, a leading backslash). The build then depends on files outside the package, and the
//! linter does not read them. `LOAD` of a game package is exempt: the engine finds those by
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
            if path.resolution != Resolution::OutsidePackage {
                continue;
            }
            out.push(RULE.diagnostic(
                path.value.mark(),
                format!(
                    "`{}` leaves the package folder; the build depends on files outside the package, which are not checked",
                    path.value.text
                ),
            ));
        }
    }
}
