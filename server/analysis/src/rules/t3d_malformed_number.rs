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
    docs: DOCS,
    ..RuleMeta::T3D_LOCAL
};

/// The rule's documentation: its `docs/rules.md` section after the `Severity:` lead.
const DOCS: &str = r"A number or `X,Y,Z` vector that UnrealEd reads as another value than it
evidently says: `Flags=`, `Link=`, `Pan U= V=`, the vector of
`Origin`/`Normal`/`TextureU`/`TextureV`/`Vertex` (and `Location`/`PrePivot`/`Base` lines), and
`X`/`Y`/`Z`/`Pitch`/`Yaw`/`Roll` inside property structs. UnrealEd reads the longest leading
number (0 when none starts the text), which moves vertices; the message says what it reads.
A slip that reads as meant (`+00128.0O0000` is read as 128, which is what it says) is not
reported, nor UnrealEd's own spelling of a vector component just below zero, `+000-0.000000`
(read as the zero it says; Epic's DM-Deck16][ export holds it hundreds of times), nor its
spelling of a float that is not a finite number, Microsoft's `1.#INF00`, `-1.#IND00`,
`1.#QNAN0` (shipped UT2004 and Unreal II maps hold them in unused terrain layers' matrices):
what the editor wrote, read back as the leading 1. Text after a vector's three numbers is never read: a hint, tagged unnecessary.
`Flags=` may be written signed or unsigned (`-2147483648` and `2147483648` are the same bit).

Engine basis: vectors are read by `GetFVECTOR` (UT2004 `Editor/Src/UnParams.cpp:25-49`, UT
v400 the same): first the old form, each of `X=`, `Y=`, `Z=` looked up anywhere in the line
ignoring case and read by `appAtof` (`X=-00020.000000 Y=+00008.000000 Z=0`, as pre-release
brushes write vectors: read, not reported); when the line names none of them, three
`appAtof` calls on the text split at commas, a missing comma leaving the remaining components
as they were. `appAtof` is the C library's `atof` (`Core/Src/UnAnsi.cpp:407-413`), which takes
the longest leading number and gives 0 only when no number starts the field; `Link=` and `Pan
U=`/`V=` use `appAtoi` (`Core/Src/UnMisc.cpp:1086-1095`) the same way. `Flags=` goes through
`strtoul` (`Core/Src/UnMisc.cpp:995-1006`, `Core/Src/UnAnsi.cpp:416-422`), which accepts a
leading minus, so the signed and unsigned spellings give the same bits. A malformed number is
therefore read as its valid leading part (`+00128.0O0000` as 128, `+0O128.000000` as 0), not
always as zero.

```t3d
      Vertex   +00128.000000,+0O128.000000,+00000.000000
```

Fix: write the number (`+00128.000000`); vectors are three numbers separated by commas.

```t3d fixed
      Vertex   +00128.000000,+00128.000000,+00000.000000
```";

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
