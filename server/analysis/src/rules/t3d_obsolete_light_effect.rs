//! `t3d-obsolete-light-effect`: a UE2 light asks for one of UE1's animated light effects
//! (`LE_TorchWaver`, `LE_FireWaver`, `LE_WateryShimmer`, `LE_CloudCast`), which UE2's
//! renderer no longer draws: the light is a plain point light. UT2004's map check: "Obsolete
//! `LightEffect`".

use super::map_facts::property_word;
use super::{RuleMeta, T3dContext};
use crate::index::PackageIndex;
use crate::{Diagnostic, Game, Generation, Severity};

pub static RULE: RuleMeta = RuleMeta {
    code: "t3d-obsolete-light-effect",
    severity: Severity::Warning,
    summary:
        "a UE1 light effect on a UE2 light (torch, fire, water, clouds): drawn as a plain light",
    docs: DOCS,
    ..RuleMeta::T3D_LOCAL
};

/// The rule's documentation: its `docs/rules.md` section after the `Severity:` lead.
const DOCS: &str = r#"A light of a UE2 map sets `LightEffect` to one of the effects UE1's
software lighting animated: `LE_TorchWaver`, `LE_FireWaver`, `LE_WateryShimmer` or
`LE_CloudCast` (numbers 1, 2, 3 and 7). UE2 kept the names in `Actor.uc`, but its renderer has
no case for them: `FDynamicLight` (`Engine/Src/UnRenderLight.cpp`) treats every effect but
sunlight, spotlights, cylinder and the non-incidence ones as a plain point light, so the
flicker or shimmer the line asks for never shows. UT2004's map check reports it as
"Obsolete LightEffect". Maps converted from UE1 carry these lines.

A warning where the renderer is Epic's UE2 one: the game declared as `ut2003` or `ut2004`, or
a game folder whose `Engine` package Epic's UE2 builds wrote (licensee 29: UT2003, UT2004,
Killing Floor). Elsewhere an info: another licensee's renderer (XIII, SWAT 4, Tribes:
Vengeance, Postal 2) is not public and may still draw them. Only the actor's own line is
judged. UE1 maps are not: UE1 draws these effects.

Engine basis: UT2004 `Engine/Src/UnErrorChecking.cpp:105-108` (the map check) and
`Engine/Src/UnRenderLight.cpp:99-115` and `:150-225` (the effects the renderer draws).

<!-- example engine=ue2 -->
```t3d
Begin Actor Class=Light Name=Light12
    LightEffect=LE_FireWaver
End Actor
```

Fix: remove the line, or animate the light with UE2's own means (`LightType=LT_Flicker`,
`LT_Pulse`, an emitter or a material).

```t3d fixed
Begin Actor Class=Light Name=Light12
    LightType=LT_Flicker
End Actor
```"#;

/// UE1's light effects that UE2's renderer draws as a plain light (`EngineClasses.h`'s
/// `ELightEffect`: `LE_TorchWaver = 1`, `LE_FireWaver = 2`, `LE_WateryShimmer = 3`,
/// `LE_CloudCast = 7`).
const OBSOLETE: [(&str, &str); 4] = [
    ("LE_TorchWaver", "1"),
    ("LE_FireWaver", "2"),
    ("LE_WateryShimmer", "3"),
    ("LE_CloudCast", "7"),
];

/// The licensee number Epic's own UE2 builds write into their packages (UT2003, UT2004 and
/// the games built on UT2004's engine, such as Killing Floor).
const EPIC_UE2_LICENSEE: u16 = 29;

pub fn check(ctx: &T3dContext<'_>, out: &mut Vec<Diagnostic>) {
    if ctx.generation != Some(Generation::Ue2) {
        return;
    }
    let certain = epic_renderer(ctx.game, ctx.packages);
    for block in ctx.actors() {
        let Some((span, value)) = property_word(block, ctx.text, "LightEffect") else { continue };
        let Some((name, _)) = OBSOLETE
            .iter()
            .find(|(name, number)| value.eq_ignore_ascii_case(name) || value == *number)
        else {
            continue;
        };
        // A number is named, so that the message says which effect it is.
        let name = if value.eq_ignore_ascii_case(name) {
            format!("`{name}`")
        } else {
            format!("`{value}` ({name})")
        };
        let diagnostic = if certain {
            RULE.diagnostic(
                span,
                format!(
                    "{name} is a UE1 light effect: UE2's renderer draws this light as a plain point light (UT2004's map check: \"Obsolete LightEffect\")"
                ),
            )
        } else {
            RULE.diagnostic(
                span,
                format!(
                    "{name} is a UE1 light effect that Epic's UE2 renderer draws as a plain point light (UT2004's map check: \"Obsolete LightEffect\"); whether this game's renderer draws it is not known"
                ),
            )
            .with_severity(Severity::Info)
        };
        out.push(diagnostic);
    }
}

/// True when the map's renderer is Epic's UE2 one: the declared game is UT2003 or UT2004, or
/// the game folder's `Engine` package was written by one of Epic's UE2 builds.
fn epic_renderer(game: Option<Game>, packages: Option<&PackageIndex>) -> bool {
    match game {
        Some(Game::Ut2003 | Game::Ut2004) => true,
        Some(_) => false,
        None => packages.and_then(|index| index.package("Engine")).is_some_and(|engine| {
            engine.licensee == EPIC_UE2_LICENSEE && (100..=128).contains(&engine.version)
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::epic_renderer;
    use crate::index::PackageIndex;
    use crate::Game;

    /// The renderer is known from the declared game, else from the game folder's `Engine`
    /// package: UT2004's (128, licensee 29) is Epic's, SWAT 4's (129, licensee 27) is not.
    #[test]
    fn the_renderer_is_known_from_the_game_or_its_engine_package() {
        assert!(epic_renderer(Some(Game::Ut2004), None));
        assert!(!epic_renderer(Some(Game::Xiii), None));
        assert!(!epic_renderer(None, None));
        let listed = |version, licensee| {
            PackageIndex::from_listing(&[("Engine", &[("Class", "Actor")])])
                .with_package_header("Engine", version, licensee)
        };
        assert!(epic_renderer(None, Some(&listed(128, 29))));
        assert!(epic_renderer(None, Some(&listed(126, 29))));
        assert!(!epic_renderer(None, Some(&listed(129, 27))));
        assert!(!epic_renderer(None, Some(&listed(69, 0))));
        // A declared licensee game wins over its folder.
        assert!(!epic_renderer(Some(Game::Swat4), Some(&listed(128, 29))));
    }
}
