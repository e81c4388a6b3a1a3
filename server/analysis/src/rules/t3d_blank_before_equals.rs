//! `t3d-blank-before-equals`: an actor's property line written `Key = Value`. UE1's import
//! takes the property's name up to the `=` with the blank in it, finds no such property and
//! drops the value; UE2's strips the blanks and reads it.

use unreal_syntax::t3d::Item;
use unreal_syntax::Span;

use super::{Fixability, RuleMeta, T3dContext};
use crate::{Diagnostic, Fix, Generation, Severity, TextEdit};

pub static RULE: RuleMeta = RuleMeta {
    code: "t3d-blank-before-equals",
    severity: Severity::Warning,
    summary: "a property written `Key = Value` (UE1): the import drops the value",
    fix: Fixability::Safe,
    docs: DOCS,
    ..RuleMeta::T3D_LOCAL
};

/// The rule's documentation: its `docs/rules.md` section after the `Severity:` lead.
const DOCS: &str = r#"An actor's property line has blanks before its `=` (`TimeSeconds = 164.77`,
`Brush = Model'MyLevel.Brush'`, `Tag(0) = Door`). UnrealEd writes `Key=Value`; converters and
hand-written files do not always. UE1's import takes the property's name as everything up to
the `=`, blanks included, so it looks for a property named `TimeSeconds ` (with the blank),
finds none, logs "Unknown property in defaults" and drops the value; after an array index it
logs "Missing '='" and drops it too. UE2's import strips the blanks around `=` and reads the line
as meant, so UE2 maps are not judged; where the generation is not known it is an info.

Engine basis: `ImportProperties`, UT v400 `Editor/Src/UnEditor.cpp:735-760` (the name runs to
`=` or `(`; `FindField` with it) and UT2004 `Editor/Src/UnEditor.cpp` (the same, with "strip
trailing whitespace on token" and "strip whitespace before =").

<!-- example engine=ue1 -->
```t3d
Begin Actor Class=Light Name=Light0
    LightHue = 12
End Actor
```

Fix: write the `=` right after the name (a safe fix).

```t3d fixed
Begin Actor Class=Light Name=Light0
    LightHue= 12
End Actor
```"#;

pub fn check(ctx: &T3dContext<'_>, out: &mut Vec<Diagnostic>) {
    let severity = match ctx.generation {
        Some(Generation::Ue2) => return,
        Some(Generation::Ue1) => RULE.severity,
        None => Severity::Info,
    };
    for block in ctx.actors() {
        // An actor without `Class=` is never made: its lines are not its properties.
        if !super::t3d_actor_without_class::has_class(block, ctx.text) {
            continue;
        }
        for item in &block.children {
            if matches!(item, Item::Block(_) | Item::Property(_) | Item::Vector(_)) {
                continue;
            }
            let span = item.span();
            let Some((name, blanks)) = spaced_name(span.text(ctx.text)) else { continue };
            // `Brush = Model'...'` on an actor that reads a brush: `t3d-missing-brush-reference`
            // says what that costs (the import crashes).
            if name.eq_ignore_ascii_case("Brush")
                && crate::t3d::actors::imported_brush(block, ctx.text).is_some()
            {
                continue;
            }
            let blanks = Span::new(span.start + blanks.start, span.start + blanks.end);
            let name_span = Span::new(span.start, span.start + name.len() as u32);
            let read_as = if name.ends_with([')', ']']) {
                "logs \"Missing '='\"".to_owned()
            } else {
                format!("looks for a property named `{name} ` (with the blank), finds none")
            };
            let message = match severity {
                Severity::Info => format!(
                    "`{name}` has a blank before `=`: UE1's import {read_as} and drops the value; UE2's reads it (the map's generation is not known)"
                ),
                _ => format!(
                    "`{name}` has a blank before `=`: UE1's import {read_as} and drops the value"
                ),
            };
            out.push(
                RULE.diagnostic(name_span.cover(blanks), message).with_severity(severity).with_fix(
                    Fix {
                        title: "Remove the blanks before `=`".to_owned(),
                        edits: vec![TextEdit { span: blanks, new_text: String::new() }],
                        safe: true,
                    },
                ),
            );
        }
    }
}

/// A property line's name (with its array index) and the offsets of the blanks between it and
/// its `=`, when there are any: `Key = Value`, `Key(0) = Value`, `Key[0] =Value`.
pub(crate) fn spaced_name(line: &str) -> Option<(&str, std::ops::Range<u32>)> {
    let bytes = line.as_bytes();
    let mut at = bytes.iter().take_while(|b| b.is_ascii_alphanumeric() || **b == b'_').count();
    if at == 0 {
        return None;
    }
    if let Some(&open @ (b'(' | b'[')) = bytes.get(at) {
        let close = if open == b'(' { b')' } else { b']' };
        let digits = bytes[at + 1..].iter().take_while(|b| b.is_ascii_digit()).count();
        if digits == 0 || bytes.get(at + 1 + digits) != Some(&close) {
            return None;
        }
        at += digits + 2;
    }
    let blanks = bytes[at..].iter().take_while(|b| matches!(b, b' ' | b'\t')).count();
    if blanks == 0 || bytes.get(at + blanks) != Some(&b'=') {
        return None;
    }
    Some((&line[..at], at as u32..(at + blanks) as u32))
}

#[cfg(test)]
mod tests {
    use super::spaced_name;

    #[test]
    fn names_with_blanks_before_their_equals() {
        assert_eq!(spaced_name("TimeSeconds = 164.77"), Some(("TimeSeconds", 11..12)));
        assert_eq!(spaced_name("Tag(0)  =Door"), Some(("Tag(0)", 6..8)));
        assert_eq!(spaced_name("Skins[2]\t= X"), Some(("Skins[2]", 8..9)));
        assert_eq!(spaced_name("Tag=Door"), None);
        assert_eq!(spaced_name("Begin Brush Name=X"), None);
        assert_eq!(spaced_name("Vertex 1,2,3"), None);
        assert_eq!(spaced_name("Tag(x) = 1"), None);
        assert_eq!(spaced_name("= 1"), None);
    }
}
