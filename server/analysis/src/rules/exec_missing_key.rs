//! `exec-missing-key`: a key the command needs is absent (searched the way the engine does).
//! The engine logs its warning ("Bad MESH SEQUENCE", "Missing file or name") and does
//! nothing with the line.

use unreal_engine::exec::KeySpec;
use unreal_engine::{Engines, Generation};

use super::RuleMeta;
use crate::exec::ExecContext;
use crate::{Diagnostic, Severity};

pub static RULE: RuleMeta = RuleMeta {
    code: "exec-missing-key",
    severity: Severity::Error,
    summary: "a key the command needs is missing, so the engine does nothing",
    docs: DOCS,
    ..RuleMeta::UNREALSCRIPT
};

/// The rule's documentation: its `docs/rules.md` section after the `Severity:` lead.
const DOCS: &str = r#"A key the command needs is missing (searched as the engine searches). The
engine logs its warning ("Bad MESH SEQUENCE", "Missing file or name") and does nothing.

<!-- example
//- /Game/MyMod/Models/Skull_d.3d = mesh-data verts=4 tris=2 slots=1
//- /Game/MyMod/Models/Skull_a.3d = mesh-anim verts=4 frames=30
//- /Game/MyMod/Textures/SkullSkin.pcx = pcx 64x64
//- /Game/MyMod/Classes/Skull.uc
class Skull extends Actor;
#exec MESH IMPORT MESH=Skull ANIVFILE=Models\Skull_a.3d DATAFILE=Models\Skull_d.3d
#exec TEXTURE IMPORT NAME=SkullSkin FILE=Textures\SkullSkin.pcx
#exec MESHMAP SETTEXTURE MESHMAP=Skull NUM=1 TEXTURE=SkullSkin
-->
```unrealscript
#exec MESH SEQUENCE MESH=Skull SEQ=All STARTFRAME=0
```

Fix: add the key (`NUMFRAMES=`).

```unrealscript fixed
#exec MESH SEQUENCE MESH=Skull SEQ=All STARTFRAME=0 NUMFRAMES=30
```"#;

/// Whether `key` is required for `generation` (unknown: required in every generation).
fn required(spec_keys: &[KeySpec], key: &KeySpec, generation: Option<Generation>) -> bool {
    match generation {
        Some(g) => key.required && key.engines.includes(g) && key.ignored.is_none(),
        None => {
            key.required
                && key.ignored.is_none()
                && (key.engines == Engines::Both
                    || [Generation::Ue1, Generation::Ue2].iter().all(|g| {
                        spec_keys
                            .iter()
                            .any(|k| k.name == key.name && k.engines.includes(*g) && k.required)
                    }))
        }
    }
}

pub fn check(ctx: &ExecContext<'_>, out: &mut Vec<Diagnostic>) {
    for (line, m) in ctx.commands() {
        if m.spec.ignored.is_some() {
            continue;
        }
        // Written only for a finding (most lines have none).
        let engine_says = || {
            m.spec
                .missing_warning
                .map_or_else(String::new, |w| format!("; the engine logs \"{w}\" and does nothing"))
        };
        let mut missing: Vec<&str> = Vec::new();
        for key in m.spec.keys {
            if missing.contains(&key.name) || !required(m.spec.keys, key, ctx.generation) {
                continue;
            }
            if line.lookup_key(ctx.text, key).is_none() {
                missing.push(key.name);
            }
        }
        for group in m.spec.one_of {
            let present = group.iter().any(|k| line.value(ctx.text, k).is_some());
            if !present && !group.iter().any(|k| missing.contains(k)) {
                out.push(RULE.diagnostic(
                    line.words_span(),
                    format!(
                        "{} needs one of {}{}",
                        m.spec.display_name(),
                        group.iter().map(|k| format!("`{k}=`")).collect::<Vec<_>>().join(" or "),
                        engine_says()
                    ),
                ));
            }
        }
        if !missing.is_empty() {
            let keys: Vec<String> = missing.iter().map(|k| format!("`{k}=`")).collect();
            out.push(RULE.diagnostic(
                line.words_span(),
                format!("{} needs {}{}", m.spec.display_name(), keys.join(", "), engine_says()),
            ));
        }
    }
}
