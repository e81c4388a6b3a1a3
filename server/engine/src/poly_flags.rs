//! Poly flags (`Flags=` on `Begin Polygon`, `PolyFlags=` elsewhere) for each engine
//! generation. The bits mean different things in UE1 and UE2, so every lookup takes the
//! generation. UE1's table is the one of the T3D specification (`specs/t3d.txt`); UE2's is
//! UT2004's engine header, where 0x200, 0x400, 0x2000, 0x8000 and 0x80000 are explicitly
//! unused.

use crate::Generation;

/// Where a flag matters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FlagRole {
    /// Affects the game.
    InGame,
    /// Set by the editor while working (selection, memorised polygons); dropped on import.
    Editor,
    /// Set by the engine's own processing (BSP build, CSG); dropped on import.
    Internal,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PolyFlag {
    pub bit: u32,
    pub name: &'static str,
    pub meaning: &'static str,
    pub role: FlagRole,
}

const fn flag(bit: u32, name: &'static str, meaning: &'static str, role: FlagRole) -> PolyFlag {
    PolyFlag { bit, name, meaning, role }
}

use FlagRole::{Editor, InGame, Internal};

/// Flags with the same meaning in both generations.
const COMMON: &[PolyFlag] = &[
    flag(0x0000_0001, "PF_Invisible", "Polygon is invisible.", InGame),
    flag(0x0000_0002, "PF_Masked", "Polygon should be drawn masked.", InGame),
    flag(0x0000_0004, "PF_Translucent", "Polygon is transparent.", InGame),
    flag(0x0000_0008, "PF_NotSolid", "Polygon is not solid, doesn't block.", InGame),
    flag(0x0000_0010, "PF_Environment", "Polygon should be drawn environment mapped.", InGame),
    flag(0x0000_0020, "PF_Semisolid", "Polygon is semi-solid: collision solid, CSG nonsolid.", InGame),
    flag(0x0000_0040, "PF_Modulated", "Modulation transparency.", InGame),
    flag(0x0000_0080, "PF_FakeBackdrop", "Polygon looks exactly like backdrop.", InGame),
    flag(0x0000_0100, "PF_TwoSided", "Polygon is visible from both sides.", InGame),
    flag(0x0000_0800, "PF_NoSmooth", "Don't smooth textures.", InGame),
    flag(0x0000_4000, "PF_Flat", "Flat surface.", InGame),
    flag(0x0001_0000, "PF_NoMerge", "Don't merge the polygon's nodes before lighting.", InGame),
    flag(0x0010_0000, "PF_SpecialLit", "Only special-lit lights apply to this polygon.", InGame),
    flag(0x0040_0000, "PF_Unlit", "Unlit.", InGame),
    flag(0x0100_0000, "PF_Memorized", "Editor: polygon is remembered.", Editor),
    flag(0x0200_0000, "PF_Selected", "Editor: polygon is selected.", Editor),
    flag(0x0400_0000, "PF_Portal", "Portal between zones.", InGame),
    flag(
        0x4000_0000,
        "PF_FlatShaded",
        "Editor: FPoly has been flat-shaded (also PF_EdProcessed: already processed in editorBuildFPolys).",
        Internal,
    ),
    flag(
        0x8000_0000,
        "PF_Occlude",
        "Occludes even if PF_NoOcclude (also PF_EdCut: FPoly has been split by SplitPolyWithPlane).",
        InGame,
    ),
];

const UE1_ONLY: &[PolyFlag] = &[
    flag(0x0000_0200, "PF_AutoUPan", "Automatically pans in U direction.", InGame),
    flag(0x0000_0400, "PF_AutoVPan", "Automatically pans in V direction.", InGame),
    flag(0x0000_1000, "PF_BigWavy", "Polygon has a big wavy pattern in it.", InGame),
    flag(0x0000_2000, "PF_SmallWavy", "Small wavy pattern (for water/enviro reflection).", InGame),
    flag(0x0000_8000, "PF_LowShadowDetail", "Low detail shadows.", InGame),
    flag(0x0002_0000, "PF_CloudWavy", "Polygon appears wavy like clouds.", InGame),
    flag(0x0004_0000, "PF_DirtyShadows", "Dirty shadows.", InGame),
    flag(0x0008_0000, "PF_BrightCorners", "Brighten convex corners.", InGame),
    flag(0x0020_0000, "PF_Gouraud", "Gouraud shaded.", InGame),
    flag(0x0080_0000, "PF_HighShadowDetail", "High detail shadows.", InGame),
    flag(0x0800_0000, "PF_Mirrored", "Reflective surface.", InGame),
    flag(0x1000_0000, "PF_Highlighted", "Editor: polygon is highlighted.", Editor),
];

const UE2_ONLY: &[PolyFlag] = &[
    flag(
        0x0000_1000,
        "PF_AlphaTexture",
        "Honor texture alpha (also part of PF_NoOcclude).",
        InGame,
    ),
    flag(0x0002_0000, "PF_NoZTest", "Don't test Z buffer.", InGame),
    flag(0x0004_0000, "PF_Additive", "Additive blending.", InGame),
    flag(0x0020_0000, "PF_Wireframe", "Render as wireframe.", InGame),
    flag(0x0800_0000, "PF_AntiPortal", "Antiportal: occludes what is behind it.", InGame),
    flag(
        0x2000_0000,
        "PF_Mirrored",
        "Reflective surface (also PF_Subtractive for brushes).",
        InGame,
    ),
];

/// Bits that a generation explicitly leaves unused or never defines.
const UE1_UNDEFINED: u32 = 0x2000_0000;
const UE2_UNDEFINED: u32 =
    0x0000_0200 | 0x0000_0400 | 0x0000_2000 | 0x0000_8000 | 0x0008_0000 | 0x1000_0000;

/// Named combinations worth showing when all their bits are set.
pub struct FlagCombination {
    pub name: &'static str,
    pub bits: u32,
    pub meaning: &'static str,
}

const UE1_COMBINATIONS: &[FlagCombination] = &[
    FlagCombination {
        name: "PF_NoOcclude",
        bits: 0x2 | 0x4 | 0x1 | 0x40,
        meaning: "Masked, translucent, invisible or modulated: never occludes.",
    },
    FlagCombination {
        name: "PF_AddLast",
        bits: 0x20 | 0x8,
        meaning: "Semisolid or not solid: added last in CSG.",
    },
    FlagCombination {
        name: "PF_NoShadows",
        bits: 0x40_0000 | 0x1 | 0x10 | 0x80,
        meaning: "Unlit, invisible, environment or fake backdrop: casts no shadows.",
    },
];

const UE2_COMBINATIONS: &[FlagCombination] = &[
    FlagCombination {
        name: "PF_NoOcclude",
        bits: 0x2 | 0x4 | 0x1 | 0x40 | 0x1000,
        meaning: "Masked, translucent, invisible, modulated or alpha-textured: never occludes.",
    },
    FlagCombination {
        name: "PF_AddLast",
        bits: 0x20 | 0x8,
        meaning: "Semisolid or not solid: added last in CSG.",
    },
    FlagCombination {
        name: "PF_NoShadows",
        bits: 0x40_0000 | 0x1 | 0x10 | 0x80,
        meaning: "Unlit, invisible, environment or fake backdrop: casts no shadows.",
    },
];

/// The flag a bit stands for in a generation.
pub fn lookup(bit: u32, generation: Generation) -> Option<&'static PolyFlag> {
    let specific = match generation {
        Generation::Ue1 => UE1_ONLY,
        Generation::Ue2 => UE2_ONLY,
    };
    COMMON.iter().chain(specific).find(|f| f.bit == bit)
}

/// Every flag set in `value`, lowest bit first.
pub fn decode(value: u32, generation: Generation) -> Vec<&'static PolyFlag> {
    bits(value).filter_map(|bit| lookup(bit, generation)).collect()
}

/// Combinations whose bits intersect `value` (a combination is a mask tested with `&`).
pub fn combinations(value: u32, generation: Generation) -> Vec<&'static FlagCombination> {
    let table = match generation {
        Generation::Ue1 => UE1_COMBINATIONS,
        Generation::Ue2 => UE2_COMBINATIONS,
    };
    table.iter().filter(|c| value & c.bits != 0).collect()
}

/// Bits of `value` that the generation does not define. With no generation known, only bits
/// that neither generation defines.
pub fn undefined_bits(value: u32, generation: Option<Generation>) -> u32 {
    match generation {
        Some(Generation::Ue1) => value & UE1_UNDEFINED,
        Some(Generation::Ue2) => value & UE2_UNDEFINED,
        None => value & UE1_UNDEFINED & UE2_UNDEFINED,
    }
}

/// Poly flags UnrealEd sets while editing and writes into every export, and import clears
/// (`PF_Memorized`, `PF_Selected`, UE1's `PF_Highlighted`, `PF_EdProcessed`, `PF_EdCut`):
/// a change in them is no change of the map.
pub const EDITOR_ONLY: u32 = 0x0100_0000 | 0x0200_0000 | 0x1000_0000 | 0x4000_0000 | 0x8000_0000;

/// The set bits of `value`, lowest first.
pub fn bits(value: u32) -> impl Iterator<Item = u32> {
    (0..32).map(|i| 1u32 << i).filter(move |bit| value & bit != 0)
}

/// A flag's name in a generation, or a hex literal for bits without one.
pub fn name(bit: u32, generation: Generation) -> String {
    lookup(bit, generation).map_or_else(|| format!("0x{bit:08X}"), |f| f.name.to_owned())
}
