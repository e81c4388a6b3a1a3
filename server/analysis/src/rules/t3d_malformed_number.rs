//! `t3d-malformed-number`: a number or vector that UnrealEd reads as something other than
//! what it evidently says. The importers read numbers with `atof`/`atoi`/`strtoul`
//! (`appAtof`, `Core/Src/UnAnsi.cpp`; `GetFVECTOR`, `Editor/Src/UnParams.cpp`), which take the
//! longest leading number and 0 when none starts the text. So `+0O128.000000` is read as 0
//! (a warning), while `+00128.0O0000` is read as 128, which is what it says: nothing to
//! report. Text after a vector's three numbers is never read: a hint, tagged unnecessary.

use unreal_syntax::t3d::{parse_number, show_number, SyntaxErrorKind};

use super::{RuleMeta, T3dContext};
use crate::{Diagnostic, Severity};

pub static RULE: RuleMeta = RuleMeta {
    code: "t3d-malformed-number",
    severity: Severity::Warning,
    summary: "a number or `X,Y,Z` vector UnrealEd reads as another value",
    syntax: true,
    ..RuleMeta::T3D_LOCAL
};

pub fn check(ctx: &T3dContext<'_>, out: &mut Vec<Diagnostic>) {
    for error in &ctx.parse.errors {
        match error.kind {
            SyntaxErrorKind::TrailingText => {
                out.push(
                    RULE.diagnostic(error.span, error.message.clone())
                        .with_severity(Severity::Hint)
                        .unnecessary(),
                );
            }
            SyntaxErrorKind::MalformedNumber | SyntaxErrorKind::MalformedVector => {
                let text = error.span.text(ctx.text);
                let message = match error.engine_reads {
                    Some(read) if evident_value(text) == Some(read) => continue,
                    Some(read) => {
                        format!("{}; UnrealEd reads it as {}", error.message, show_number(read))
                    }
                    None => error.message.clone(),
                };
                out.push(RULE.diagnostic(error.span, message));
            }
            _ => {}
        }
    }
}

/// The value a person reads in `text`, letters that look like digits taken as those digits
/// (`0O` and `l1` are the usual typing slips); `None` when it still is no number.
fn evident_value(text: &str) -> Option<f64> {
    let digits: String = text
        .chars()
        .map(|c| match c {
            'O' | 'o' => '0',
            'l' | 'I' => '1',
            other => other,
        })
        .collect();
    parse_number(&digits)
}
