//! `t3d-unknown-poly-flag`: `Flags=` bits that no `PF_` flag of the file's engine generation
//! defines. With the generation unknown, only bits that neither generation defines count.
//!
//! Licensee engines (SWAT 4, Tribes: Vengeance, XIII) use bits that stock UE2's header
//! (Engine/Inc/UnObj.h) calls unused, and their maps are full of them: a bit is a defect only
//! against a stock engine, and there a harmless one: the importer keeps it and nothing reads it.
//! So the finding is a hint when the settings declare a stock game (`game = "ut99"`,
//! `"ut2004"`...), and otherwise an info that says it cannot be checked.

use unreal_syntax::t3d::{parse_flags, BlockKind};

use super::{RuleMeta, T3dContext};
use crate::{Diagnostic, Severity};
use unreal_engine::poly_flags as flags;

pub static RULE: RuleMeta = RuleMeta {
    code: "t3d-unknown-poly-flag",
    severity: Severity::Hint,
    summary: "`Flags=` sets bits the engine generation does not define",
    docs: DOCS,
    ..RuleMeta::T3D_LOCAL
};

/// The rule's documentation: its `docs/rules.md` section after the `Severity:` lead.
const DOCS: &str = r#"`Flags=` sets bits that no `PF_` flag of the file's engine generation
defines: `0x20000000` in UE1; `0x200`, `0x400`, `0x2000`, `0x8000`, `0x80000` and
`0x10000000` in UE2 (Engine/Inc/UnObj.h calls them unused). With the generation unknown, only
bits that neither defines are reported.

A bit no flag defines changes nothing in a stock engine: the polygon importer keeps every bit
but the editor-only ones (UT2004 `Editor/Src/UnEdFact.cpp:1597-1598` clears only
`PF_NoImport`) and no engine code tests it, so the surface builds as without it (Epic's own
DM-Deck17 carries `0x80000`, UT2004's `PF_Unused5`, `Engine/Inc/UnObj.h:274`). So against a
stock game (`game = "unreal"`, `"ut99"`, `"ut2003"` or `"ut2004"`, or `--game`) it is a hint,
tagged unnecessary. Licensee engines (SWAT 4, Tribes: Vengeance, XIII) use bits stock UE2 calls
unused, and their maps are full of them: for any other game it is an info that says it is
checked only against a stock game.

<!-- example game=ut99 -->
```t3d
Begin PolyList
   Begin Polygon Flags=536870912
      Vertex   +00000.000000,+00000.000000,+00000.000000
      Vertex   +00000.000000,+00128.000000,+00000.000000
      Vertex   +00128.000000,+00128.000000,+00000.000000
      Vertex   +00128.000000,+00000.000000,+00000.000000
   End Polygon
End PolyList
```

Fix: clear the bit; it usually means flags were copied between games.

```t3d fixed
Begin PolyList
   Begin Polygon Flags=0
      Vertex   +00000.000000,+00000.000000,+00000.000000
      Vertex   +00000.000000,+00128.000000,+00000.000000
      Vertex   +00128.000000,+00128.000000,+00000.000000
      Vertex   +00128.000000,+00000.000000,+00000.000000
   End Polygon
End PolyList
```"#;

pub fn check(ctx: &T3dContext<'_>, out: &mut Vec<Diagnostic>) {
    for &(block, _) in &ctx.blocks {
        if block.kind != BlockKind::Polygon {
            continue;
        }
        let Some((attribute, value)) = block.attribute(ctx.text, "Flags") else { continue };
        let Some(value) = parse_flags(value) else { continue };
        let unknown = flags::undefined_bits(value, ctx.generation);
        if unknown == 0 {
            continue;
        }
        let bits: Vec<String> = flags::bits(unknown).map(|b| format!("0x{b:08X}")).collect();
        let generation = ctx.generation.map_or("either engine generation", |g| g.name());
        let undefined = format!("{} that {generation} does not define", plural_bits(&bits));
        out.push(match ctx.game {
            Some(game) if game.is_stock() => RULE
                .diagnostic(
                    attribute.value,
                    format!("`Flags={value}` sets {undefined}; the engine keeps the bit and never reads it, so nothing changes"),
                )
                .unnecessary(),
            // Said without the value: a licensee's bit on many polygons is one info.
            _ => RULE
                .diagnostic(
                    attribute.value,
                    format!(
                        "`Flags` sets {undefined}; licensee engines use such bits, so this is \
                         checked only against a stock game (set `game`, such as \"ut99\" or \"ut2004\")"
                    ),
                )
                .with_severity(Severity::Info),
        });
    }
}

fn plural_bits(bits: &[String]) -> String {
    match bits {
        [one] => format!("bit {one}"),
        many => format!("bits {}", many.join(", ")),
    }
}
