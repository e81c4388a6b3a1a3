//! The games, the second dimension of engine facts: which generation a game's engine is, and
//! whether it is Epic's own build or a licensee's.

use crate::Generation;

/// The game a project targets (`game = "..."` in `unreal-ls.toml`, `--game`). The generation
/// says which table of poly flags applies; the game also says whether the engine is Epic's
/// own (stock) or a licensee's, which uses flag bits and polygon lines stock builds call
/// unused (SWAT 4, Tribes: Vengeance, XIII write `SurfaceColor` lines and such bits).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Game {
    Unreal,
    Ut99,
    DeusEx,
    Rune,
    /// UT with OldUnreal's v469 patch (469a to 469f): Epic's UT v436 engine extended.
    Ut469,
    /// Unreal with OldUnreal's 227 patch (227a to 227k).
    Unreal227,
    Ut2003,
    Ut2004,
    Swat4,
    TribesVengeance,
    Xiii,
    /// Another UE1 or UE2 game, a licensee's.
    Other,
}

impl Game {
    /// Every accepted name, as `unreal-ls.toml` and `--game` spell them.
    pub const NAMES: [&'static str; 12] = [
        "unreal",
        "ut99",
        "ut469",
        "unreal227",
        "deusex",
        "rune",
        "ut2003",
        "ut2004",
        "swat4",
        "tribes-vengeance",
        "xiii",
        "other",
    ];

    pub fn parse(name: &str) -> Option<Game> {
        Some(match name.to_ascii_lowercase().as_str() {
            "unreal" => Game::Unreal,
            "ut99" | "ut" => Game::Ut99,
            "ut469" => Game::Ut469,
            "unreal227" => Game::Unreal227,
            "deusex" => Game::DeusEx,
            "rune" => Game::Rune,
            "ut2003" => Game::Ut2003,
            "ut2004" => Game::Ut2004,
            "swat4" => Game::Swat4,
            "tribes-vengeance" => Game::TribesVengeance,
            "xiii" => Game::Xiii,
            "other" => Game::Other,
            _ => return None,
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            Game::Unreal => "unreal",
            Game::Ut99 => "ut99",
            Game::Ut469 => "ut469",
            Game::Unreal227 => "unreal227",
            Game::DeusEx => "deusex",
            Game::Rune => "rune",
            Game::Ut2003 => "ut2003",
            Game::Ut2004 => "ut2004",
            Game::Swat4 => "swat4",
            Game::TribesVengeance => "tribes-vengeance",
            Game::Xiii => "xiii",
            Game::Other => "other",
        }
    }

    /// The generation of its engine, when the game fixes it.
    pub fn generation(self) -> Option<Generation> {
        match self {
            Game::Unreal
            | Game::Ut99
            | Game::Ut469
            | Game::Unreal227
            | Game::DeusEx
            | Game::Rune => Some(Generation::Ue1),
            Game::Ut2003 | Game::Ut2004 | Game::Swat4 | Game::TribesVengeance | Game::Xiii => {
                Some(Generation::Ue2)
            }
            Game::Other => None,
        }
    }

    /// Epic's own engine builds, whose headers the flag and polygon-line checks follow (the
    /// OldUnreal builds keep Epic's flags and polygon lines; 227 names 0x20000 `AlphaBlend`
    /// where UE1 has `CloudWavy`, the same bit).
    pub fn is_stock(self) -> bool {
        matches!(
            self,
            Game::Unreal | Game::Ut99 | Game::Ut469 | Game::Unreal227 | Game::Ut2003 | Game::Ut2004
        )
    }

    /// True when the game's own UCC preprocesses UnrealScript before compiling it: Irrational's
    /// UE2 branch (SWAT 4, Tribes: Vengeance), whose Core `Object.uc` `#define`s the build's
    /// symbols (`IG_SHARED`, `IG_SWAT`, `IG_TRIBES3`) and whose engine classes select code with
    /// `#if` / `#else` / `#endif` (the shipped packages hold only the selected branches).
    /// Epic's UCC knows no such directive (UT2004 `Editor/Src/UnScrCom.cpp:3659-3786`).
    pub fn preprocesses(self) -> bool {
        matches!(self, Game::Swat4 | Game::TribesVengeance)
    }

    /// True when the game's UCC compiles the `.uc` files of `Classes/`'s subfolders too, not
    /// only `Classes/*.uc` as Epic's `UMakeCommandlet` does: SWAT 4 (its shipped `SwatGame.u`
    /// holds classes whose sources sit in `Classes/Weapons/`, `Classes/Viewports/`).
    pub fn compiles_class_subfolders(self) -> bool {
        matches!(self, Game::Swat4 | Game::TribesVengeance)
    }

    /// The OldUnreal patch build the game names, whose commands, keys and image types are
    /// added to Epic's.
    pub fn patch(self) -> Option<Patch> {
        match self {
            Game::Ut469 => Some(Patch::Ut469),
            Game::Unreal227 => Some(Patch::Unreal227),
            _ => None,
        }
    }

    /// The engine build number the game implies, when it fixes one (`engine-build` gives it
    /// otherwise).
    pub fn engine_build(self) -> Option<u32> {
        match self {
            Game::Ut469 => Some(469),
            Game::Unreal227 => Some(227),
            _ => None,
        }
    }
}

/// The OldUnreal patch builds the community runs today. Their editor sources are not public:
/// what they add is taken from OldUnreal's release notes (UT v469) and the public 227 tree
/// (OldUnreal/Unreal-PubSrc: headers and the stock classes' `#exec` lines), so where a patch
/// build's handler could read more than is listed, its keys are not judged.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Patch {
    /// OldUnreal's UT v469.
    Ut469,
    /// OldUnreal's Unreal 227.
    Unreal227,
}

impl Patch {
    /// The game setting that names the build (`game = "ut469"`).
    pub fn game(self) -> Game {
        match self {
            Patch::Ut469 => Game::Ut469,
            Patch::Unreal227 => Game::Unreal227,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Patch::Ut469 => "OldUnreal's UT v469",
            Patch::Unreal227 => "OldUnreal's Unreal 227",
        }
    }

    /// True when every key the build's handlers read is known (its handlers are Epic's plus
    /// what its release notes list); false when its handlers may read keys no public source
    /// shows (Unreal 227's stock classes use `HD=`, `CURVY=`, `MINFRAMERATE=` and more).
    pub fn keys_known(self) -> bool {
        matches!(self, Patch::Ut469)
    }
}
