//! `exec-missing-file`: a path names no file, searched from the package folder (the parent of
//! `Classes/`) ignoring case. UCC fails to import it, and everything that uses the object
//! fails after it.

use super::RuleMeta;
use crate::exec::{ExecContext, Resolution};
use crate::{Diagnostic, Severity};

pub static RULE: RuleMeta = RuleMeta {
    code: "exec-missing-file",
    severity: Severity::Error,
    summary: "a file a directive imports does not exist",
    ..RuleMeta::UNREALSCRIPT
};

pub fn check(ctx: &ExecContext<'_>, out: &mut Vec<Diagnostic>) {
    let package = ctx.root().map(|r| ctx.show_dir(r));
    for line in &ctx.file.lines {
        for path in &line.paths {
            if path.resolution != (Resolution::Missing { beside: None }) {
                continue;
            }
            let message = match (&ctx.file.location, &package) {
                (Some(crate::exec::Location::Package { .. }), Some(package)) => format!(
                    "file not found: `{}` (searched from the package folder {package}, ignoring case)",
                    path.value.text
                ),
                _ => format!(
                    "file not found: `{}` resolves from no package folder, and no file of that name is beside this file (it is outside Classes/, so UCC never compiles it)",
                    path.value.text
                ),
            };
            out.push(RULE.diagnostic(path.value.mark(), message));
        }
    }
}
