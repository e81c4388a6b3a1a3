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
    pub const NAMES: [&'static str; 10] = [
        "unreal",
        "ut99",
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
            Game::Unreal | Game::Ut99 | Game::DeusEx | Game::Rune => Some(Generation::Ue1),
            Game::Ut2003 | Game::Ut2004 | Game::Swat4 | Game::TribesVengeance | Game::Xiii => {
                Some(Generation::Ue2)
            }
            Game::Other => None,
        }
    }

    /// Epic's own engine builds, whose headers the flag and polygon-line checks follow.
    pub fn is_stock(self) -> bool {
        matches!(self, Game::Unreal | Game::Ut99 | Game::Ut2003 | Game::Ut2004)
    }
}
