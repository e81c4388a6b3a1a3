//! The engine generations, the first dimension of every engine fact.

/// An engine generation: UE1 (Unreal, UT99, Deus Ex, Rune) or UE2 (UT2004 and kin). Poly
/// flags, `#exec` keys and package formats differ between them; the one type every layer
/// uses (the analysis crate names it `Generation`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Generation {
    Ue1,
    Ue2,
}

impl Generation {
    /// `UE1` or `UE2`.
    pub fn name(self) -> &'static str {
        match self {
            Generation::Ue1 => "UE1",
            Generation::Ue2 => "UE2",
        }
    }
}

/// Which generations read a command or key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Engines {
    Ue1,
    Ue2,
    Both,
}

impl Engines {
    pub const fn includes(self, generation: Generation) -> bool {
        matches!(
            (self, generation),
            (Engines::Both, _) | (Engines::Ue1, Generation::Ue1) | (Engines::Ue2, Generation::Ue2)
        )
    }

    pub fn name(self) -> &'static str {
        match self {
            Engines::Ue1 => "UE1",
            Engines::Ue2 => "UE2",
            Engines::Both => "UE1 and UE2",
        }
    }
}
