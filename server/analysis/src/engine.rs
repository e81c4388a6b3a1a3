//! The engine a user asks for. Poly flags, `#exec` keys and package formats differ between
//! UE1 (Unreal, UT99, Deus Ex, Rune) and UE2 (UT2004 and kin), so most checks need to know
//! which one a file targets: a fixed generation, or detection from the file. The engine facts
//! themselves (generations, games) are the `unreal-engine` crate's.

/// The engine crate's generation, the one every layer uses.
pub use unreal_engine::Generation;

/// What the user asked for: a fixed generation, or detection from the file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum EngineSetting {
    #[default]
    Auto,
    Ue1,
    Ue2,
}

impl EngineSetting {
    pub fn parse(name: &str) -> Option<EngineSetting> {
        match name.to_ascii_lowercase().as_str() {
            "auto" => Some(EngineSetting::Auto),
            "ue1" => Some(EngineSetting::Ue1),
            "ue2" => Some(EngineSetting::Ue2),
            _ => None,
        }
    }

    pub fn fixed(self) -> Option<Generation> {
        match self {
            EngineSetting::Auto => None,
            EngineSetting::Ue1 => Some(Generation::Ue1),
            EngineSetting::Ue2 => Some(Generation::Ue2),
        }
    }
}

impl From<Generation> for EngineSetting {
    fn from(generation: Generation) -> Self {
        match generation {
            Generation::Ue1 => EngineSetting::Ue1,
            Generation::Ue2 => EngineSetting::Ue2,
        }
    }
}
