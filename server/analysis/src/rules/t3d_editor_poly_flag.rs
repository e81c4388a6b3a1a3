//! `t3d-editor-poly-flag`: editor-only or internal bits (`PF_Memorized`, `PF_Selected`,
//! UE1 `PF_Highlighted`, `PF_FlatShaded`/`PF_EdProcessed`) saved into a map. Import drops
//! them (`PF_NoImport`), so they only add noise, and a selected polygon in a shipped map is
//! usually an accident of the export.

use unreal_syntax::t3d::{parse_flags, BlockKind};

use super::{RuleMeta, T3dContext};
use crate::t3d::flags;
use crate::{Diagnostic, Fix, Severity, TextEdit};

pub static RULE: RuleMeta = RuleMeta {
    code: "t3d-editor-poly-flag",
    severity: Severity::Warning,
    summary: "`Flags=` holds editor-only or internal bits",
};

pub fn check(ctx: &T3dContext<'_>, out: &mut Vec<Diagnostic>) {
    let generation = ctx.generation.unwrap_or(crate::EngineGeneration::Ue1);
    for &(block, _) in &ctx.blocks {
        if block.kind != BlockKind::Polygon {
            continue;
        }
        let Some((attribute, text)) = block.attribute(ctx.text, "Flags") else { continue };
        let Some(value) = parse_flags(text) else { continue };
        let editor = flags::editor_bits(value, ctx.generation);
        if editor == 0 {
            continue;
        }
        let names: Vec<String> = flags::bits(editor).map(|b| flags::name(b, generation)).collect();
        let cleared = value & !editor;
        // UnrealEd writes `%i`: signed, and the attribute only when non-zero.
        let fix = if cleared == 0 {
            // Remove ` Flags=...` together with the space before it.
            let start = attribute.key.start.saturating_sub(1);
            TextEdit {
                span: unreal_syntax::Span::new(start, attribute.value.end),
                new_text: String::new(),
            }
        } else {
            TextEdit { span: attribute.value, new_text: (cleared as i32).to_string() }
        };
        out.push(
            RULE.diagnostic(
                attribute.value,
                format!(
                    "`Flags={text}` holds editor-only bits ({}) that import drops",
                    names.join(", ")
                ),
            )
            .with_fix(Fix {
                title: format!("Clear {}", names.join(", ")),
                edits: vec![fix],
                safe: true,
            }),
        );
    }
}
