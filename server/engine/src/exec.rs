//! The `#exec` command table: every command, subcommand and key that real sources use, with the
//! key's type, whether the engine requires it, which engine generation reads it, and keys that
//! real code writes but the engine ignores (so they get a precise warning, not "unknown").
//!
//! Where the facts come from (each entry's `source` names one of these):
//! - **UE1**: `Editor/Src/UnEdSrv.cpp`, `UEditorEngine::SafeExec`, Unreal/UT v4xx era (the
//!   `MESHMAP`, `MESH`, `TEXTURE`, `AUDIO`, `LOAD`, `NEW`, `OBJ`, `FONT` branches), and
//!   `GetFVECTOR` / `GetFROTATOR` in `Core/Src/UnMisc.cpp` (`X= Y= Z=`, `PITCH= YAW= ROLL=`
//!   scaled by 256).
//! - **UE1 skeletal** (UT v436+): the `ANIM` branch, `MESH MODELIMPORT` and `MESH DEFAULTANIM`
//!   as in the UT-engine-based Unreal 2 editor source; real UT99 mods use exactly these keys.
//! - **UE2**: `Editor/Src/UnEdSrv.cpp`, `UEditorEngine::SafeExec` of a UT2003-era build (the
//!   same branches plus `STATICMESH IMPORT`, `MESH SCALE/SETTEXTURE/ATTACHNAME/LODMODEL/
//!   BOUNDINGBOX/FLIPFACES`, the `DECAMESH`/`DECAANIM` aliases) and `DDSConversion` (`DXT=`).
//! - the editor sources' `SafeExec` handlers (UT v400 and UT2004 `Editor/Src/UnEdSrv.cpp`,
//!   `UnMeshEd.cpp`), cited per command below and in `docs/rules.md`.
//!
//! Entries marked `keys_complete: false` list the keys we know but the engine may read more
//! (factory properties set by name) or the list is not confirmed from engine source; the
//! analysis layer must not call other keys "unknown" there.

use crate::{Engines, Generation, Patch};

/// How the engine reads a key's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyKind {
    /// A name: of the object being created, a group, a package, a sequence, a function.
    /// The engine truncates names to 63 characters (`NAME_SIZE`).
    Name,
    /// A file path, relative to the package folder (the parent of `Classes/`).
    Path,
    /// `appAtoi`: leading digits, anything else reads as 0.
    Int,
    /// `appAtof`.
    Float,
    /// `ParseUBOOL`: `1`/`0`, `True`/`False`, `On`/`Off`, `Yes`/`No`, case-insensitive.
    Bool,
    /// One of the given words, case-insensitive.
    Enum(&'static [&'static str]),
    /// `ParseObject`: the name of an existing object of this class (`None` clears it).
    Object(&'static str),
    /// Free text.
    Text,
    /// A bare word without `=` (`VERBOSE`); its presence anywhere on the line switches it on.
    Switch,
}

impl KeyKind {
    pub fn describe(self) -> String {
        match self {
            KeyKind::Name => "name".to_owned(),
            KeyKind::Path => "file path".to_owned(),
            KeyKind::Int => "integer".to_owned(),
            KeyKind::Float => "number".to_owned(),
            KeyKind::Bool => "boolean".to_owned(),
            KeyKind::Enum(words) => format!("one of {}", words.join(", ")),
            KeyKind::Object(class) => format!("{class} reference"),
            KeyKind::Text => "text".to_owned(),
            KeyKind::Switch => "switch".to_owned(),
        }
    }
}

/// One key of one command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KeySpec {
    /// Upper case, without `=`.
    pub name: &'static str,
    pub kind: KeyKind,
    /// Without it the engine does nothing and logs the command's `missing_warning`.
    pub required: bool,
    pub engines: Engines,
    /// `Some(reason)`: real code writes this key but the engine does not read it.
    pub ignored: Option<&'static str>,
    /// `Some(patch)`: only that OldUnreal build reads the key (Epic's builds ignore it).
    pub only_in: Option<Patch>,
    /// One line for hover and completion.
    pub doc: &'static str,
}

impl KeySpec {
    /// The string the engine searches for: `NAME=` or, for a switch, `VERBOSE`.
    pub fn search_text(&self) -> String {
        if self.kind == KeyKind::Switch {
            self.name.to_owned()
        } else {
            format!("{}=", self.name)
        }
    }

    pub fn is_read_by(&self, generation: Generation) -> bool {
        self.engines.includes(generation) && self.ignored.is_none()
    }

    const fn req(self) -> Self {
        KeySpec { required: true, ..self }
    }

    const fn ue1(self) -> Self {
        KeySpec { engines: Engines::Ue1, ..self }
    }

    const fn ue2(self) -> Self {
        KeySpec { engines: Engines::Ue2, ..self }
    }

    const fn ignored(self, reason: &'static str) -> Self {
        KeySpec { ignored: Some(reason), ..self }
    }

    const fn only(self, patch: Patch) -> Self {
        KeySpec { only_in: Some(patch), ..self }
    }

    /// True when a build of `patch` (`None`: one of Epic's) has this key.
    pub fn in_build(&self, patch: Option<Patch>) -> bool {
        self.only_in.is_none() || self.only_in == patch
    }
}

const fn k(name: &'static str, kind: KeyKind, doc: &'static str) -> KeySpec {
    KeySpec {
        name,
        kind,
        required: false,
        engines: Engines::Both,
        ignored: None,
        only_in: None,
        doc,
    }
}

/// The second word of a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sub {
    /// The command takes no subcommand (`LOAD FILE=...`).
    None,
    /// A fixed word (`MESH IMPORT`).
    Word(&'static str),
    /// Any class name (`NEW <Class>`); more specific `Word` entries win.
    AnyClass,
}

/// Commands of Epic's UE2 table that OldUnreal's UT v469 added to its UE1 editor for skeletal
/// meshes (its release notes and the issue tracker: `MESH BOUNDINGBOX`), with the same keys.
pub const UT469_UE2_COMMANDS: &[(&str, &str)] = &[("MESH", "BOUNDINGBOX")];

/// A command only an OldUnreal build has: UE1, its key list not confirmed from a handler's
/// source (none is public), `(source, build)` naming where it was seen.
const fn patch_command(
    (command, sub): (&'static str, &'static str),
    keys: &'static [KeySpec],
    doc: &'static str,
    (source, patch): (&'static str, Patch),
) -> CommandSpec {
    CommandSpec {
        command,
        sub: Sub::Word(sub),
        engines: Engines::Ue1,
        keys,
        one_of: &[],
        keys_complete: false,
        ignored: None,
        missing_warning: None,
        doc,
        source,
        only_in: Some(patch),
    }
}

/// One command (or command + subcommand).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CommandSpec {
    pub command: &'static str,
    pub sub: Sub,
    pub engines: Engines,
    pub keys: &'static [KeySpec],
    /// Groups of which at least one key must be present (`TIME` or `FRAME`).
    pub one_of: &'static [&'static [&'static str]],
    /// False when the engine may read keys that are not listed (see the module docs).
    pub keys_complete: bool,
    /// `Some(reason)`: the engine accepts the line but does nothing with it.
    pub ignored: Option<&'static str>,
    /// What the engine logs when a required key is missing.
    pub missing_warning: Option<&'static str>,
    pub doc: &'static str,
    /// Where the key set was taken from.
    pub source: &'static str,
    /// `Some(patch)`: only that OldUnreal build has the command (Epic's builds log
    /// "Unrecognized command").
    pub only_in: Option<Patch>,
}

impl CommandSpec {
    /// `MESH IMPORT`, `LOAD`, `NEW <class>`.
    pub fn display_name(&self) -> String {
        match self.sub {
            Sub::None => self.command.to_owned(),
            Sub::Word(word) => format!("{} {word}", self.command),
            Sub::AnyClass => format!("{} <class>", self.command),
        }
    }

    /// The key entry the given generation reads (or is known to ignore). When the key differs
    /// per generation there are two entries; `None` for `generation` takes the first.
    pub fn key(&self, name: &str, generation: Option<Generation>) -> Option<&'static KeySpec> {
        self.keys.iter().find(|key| {
            key.name.eq_ignore_ascii_case(name)
                && generation.is_none_or(|g| key.engines.includes(g))
        })
    }

    /// All entries named `name`, for every generation (to say "read only by UE2").
    pub fn key_variants<'a>(&self, name: &'a str) -> impl Iterator<Item = &'static KeySpec> + 'a {
        self.keys.iter().filter(move |key| key.name.eq_ignore_ascii_case(name))
    }

    /// The keys that `generation` knows about, or every key when it is unknown.
    pub fn keys_for_any(
        &self,
        generation: Option<Generation>,
    ) -> impl Iterator<Item = &'static KeySpec> {
        self.keys.iter().filter(move |key| generation.is_none_or(|g| key.engines.includes(g)))
    }

    /// The keys that `generation` knows about (read or known-ignored).
    pub fn keys_for(&self, generation: Generation) -> impl Iterator<Item = &'static KeySpec> {
        self.keys.iter().filter(move |key| key.engines.includes(generation))
    }
}

/// An old or alternative spelling that the engine rewrites into another command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CommandAlias {
    pub command: &'static str,
    /// `Some(word)`: the alias is the two words (`OBJ LOAD`); `None`: only the first word is
    /// rewritten and the subcommand is kept (`DECAMESH IMPORT` = `MESH IMPORT`).
    pub sub: Option<&'static str>,
    pub target_command: &'static str,
    pub target_sub: Option<&'static str>,
    pub engines: Engines,
    pub doc: &'static str,
}

/// The result of [`resolve_command`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CommandMatch {
    pub spec: &'static CommandSpec,
    pub alias: Option<&'static CommandAlias>,
    /// The line's second word was part of the command (false: it is an extra word, or absent).
    pub uses_subcommand: bool,
}

/// Looks a command up, case-insensitively, through aliases.
pub fn find_command(command: &str, subcommand: Option<&str>) -> Option<&'static CommandSpec> {
    resolve_command(command, subcommand).map(|m| m.spec)
}

/// Like [`find_command`], and says how the words matched.
pub fn resolve_command(command: &str, subcommand: Option<&str>) -> Option<CommandMatch> {
    let eq = |a: &str, b: &str| a.eq_ignore_ascii_case(b);
    for alias in ALIASES {
        if !eq(alias.command, command) {
            continue;
        }
        match alias.sub {
            Some(word) if subcommand.is_some_and(|s| eq(s, word)) => {
                let found = lookup_spec(alias.target_command, alias.target_sub)?;
                return Some(CommandMatch {
                    spec: found.spec,
                    alias: Some(alias),
                    uses_subcommand: true,
                });
            }
            Some(_) => {}
            None => {
                let found = lookup_spec(alias.target_command, subcommand)?;
                return Some(CommandMatch { alias: Some(alias), ..found });
            }
        }
    }
    lookup_spec(command, subcommand)
}

fn lookup_spec(command: &str, subcommand: Option<&str>) -> Option<CommandMatch> {
    // In order of preference: the entry for the two words, then one taking any class as the
    // second word, then one without a second word; the first of each in table order. One pass
    // over the table finds all three (every line of every file is looked up).
    let mut any_class = None;
    let mut no_sub = None;
    for spec in COMMANDS.iter().filter(|spec| spec.command.eq_ignore_ascii_case(command)) {
        match (spec.sub, subcommand) {
            (Sub::Word(w), Some(sub)) if w.eq_ignore_ascii_case(sub) => {
                return Some(CommandMatch { spec, alias: None, uses_subcommand: true });
            }
            (Sub::AnyClass, Some(_)) => {
                any_class.get_or_insert(spec);
            }
            (Sub::None, _) => {
                no_sub.get_or_insert(spec);
            }
            _ => {}
        }
    }
    if let Some(spec) = any_class {
        return Some(CommandMatch { spec, alias: None, uses_subcommand: true });
    }
    no_sub.map(|spec| CommandMatch { spec, alias: None, uses_subcommand: false })
}

/// Every spec for a command word (for completion of the second word).
pub fn commands_named(command: &str) -> impl Iterator<Item = &'static CommandSpec> + '_ {
    COMMANDS.iter().filter(move |spec| spec.command.eq_ignore_ascii_case(command))
}

// ---------------------------------------------------------------------------------------------
// Sources.

const SRC_UE1_SKEL: &str = "UE1 skeletal (UT v436+): UT-engine editor source, UT99 mods";
const SRC_UE2: &str = "UE2 UnEdSrv.cpp UEditorEngine::SafeExec (UT2003-era build)";
const SRC_BOTH: &str = "UE1 and UE2 UnEdSrv.cpp UEditorEngine::SafeExec";
const SRC_FACTORY: &str =
    "factory properties, set by name from the line (UObject::ParseParms); common ones listed";
const SRC_469: &str =
    "UT v469: OldUnreal/UnrealTournamentPatches ReleaseNotes.md (editor source not public)";
const SRC_227: &str =
    "Unreal 227: the stock classes of OldUnreal/Unreal-PubSrc (editor source not public)";
const SRC_UNVERIFIED: &str = "seen in real sources; key set not confirmed from engine source";

// ---------------------------------------------------------------------------------------------
// Shared keys.

use KeyKind::{Bool, Float, Int, Name, Object, Path, Switch, Text};

const X: KeySpec = k("X", Float, "X component.");
const Y: KeySpec = k("Y", Float, "Y component.");
const Z: KeySpec = k("Z", Float, "Z component.");
const PITCH: KeySpec = k(
    "PITCH",
    Float,
    "Pitch in 1/256 turns (64 = 90 degrees); multiplied by 256 into rotation units.",
);
const YAW: KeySpec =
    k("YAW", Float, "Yaw in 1/256 turns (64 = 90 degrees); multiplied by 256 into rotation units.");
const ROLL: KeySpec = k(
    "ROLL",
    Float,
    "Roll in 1/256 turns (64 = 90 degrees); multiplied by 256 into rotation units.",
);
const PACKAGE: KeySpec =
    k("PACKAGE", Name, "Package to create the object in; defaults to the package being compiled.");
const GROUP: KeySpec = k("GROUP", Name, "Group (sub-package) to create the object in.");
const MESH_REF: KeySpec =
    k("MESH", Object("Mesh"), "The mesh, created earlier by MESH IMPORT or MESH MODELIMPORT.")
        .req();
const MESHMAP_REF: KeySpec =
    k("MESHMAP", Object("Mesh"), "The mesh (meshmaps were merged into meshes).").req();
const ANIM_REF_UE1: KeySpec =
    k("ANIM", Object("Animation"), "The animation set, created earlier by ANIM IMPORT.")
        .req()
        .ue1();
const ANIM_REF_UE2: KeySpec =
    k("ANIM", Object("MeshAnimation"), "The animation set, created earlier by ANIM IMPORT.")
        .req()
        .ue2();
const UNMIRROR: KeySpec = k("UNMIRROR", Bool, "Mirror the model along X on import.");
const ZEROTEX: KeySpec = k("ZEROTEX", Bool, "Put every triangle on texture slot 0.");
const UNMIRRORTEX: KeySpec =
    k("UNMIRRORTEX", Int, "With UNMIRROR: the texture slot whose U coordinates are mirrored too.");
const MLOD: KeySpec =
    k("MLOD", Bool, "Build a level-of-detail mesh (default 1); MLOD=0 makes a plain mesh.");
const LODSTYLE: KeySpec = k(
    "LODSTYLE",
    Int,
    "LOD reduction style flags (e.g. 8 = preserve texture seams; 12 is common).",
);
const LODFRAME: KeySpec =
    k("LODFRAME", Int, "Animation frame used to compute the LOD collapse order.");
const LODNOTEX: KeySpec = k("LODNOTEX", Bool, "Ignore texture coordinates when computing LOD.");
const LODSPECIFY: KeySpec = k(
    "LODSPECIFY",
    Int,
    "Create no LOD models automatically; they are given by MESH LODMODEL lines.",
)
.ue2();
const MIRROR_XYZ_IGNORED: &str =
    "MESH IMPORT reads no X/Y/Z; use MESH ORIGIN (offset) and MESHMAP SCALE (scale)";

// ---------------------------------------------------------------------------------------------
// The table.

/// Every command we know, in the order the engines test them.
pub static COMMANDS: &[CommandSpec] = &[
    // ----------------------------------------------------------------- MESH (vertex meshes)
    CommandSpec {
        command: "MESH",
        sub: Sub::Word("IMPORT"),
        engines: Engines::Both,
        keys: &[
            k("MESH", Name, "Name of the mesh to create.").req(),
            k("ANIVFILE", Path, "Vertex animation file (`*_a.3d`).").req(),
            k("DATAFILE", Path, "Triangle data file (`*_d.3d`).").req(),
            UNMIRROR,
            ZEROTEX,
            UNMIRRORTEX,
            MLOD,
            LODSTYLE,
            LODFRAME,
            LODNOTEX,
            k("LODOLD", Bool, "Read the old animation frame layout.").ue1(),
            k("REORDER", Int, "Old animation frame layout (engine version 230+ reads it as LODOLD).").ue1(),
            LODSPECIFY,
            X.ignored(MIRROR_XYZ_IGNORED),
            Y.ignored(MIRROR_XYZ_IGNORED),
            Z.ignored(MIRROR_XYZ_IGNORED),
        ],
        one_of: &[],
        keys_complete: true,
        ignored: None,
        missing_warning: Some("Bad MESH IMPORT"),
        doc: "Imports a vertex-animated mesh from a `_d.3d` / `_a.3d` pair.",
        source: SRC_BOTH,
        only_in: None,
    },
    CommandSpec {
        command: "MESH",
        sub: Sub::Word("MODELIMPORT"),
        engines: Engines::Both,
        keys: &[
            k("MESH", Name, "Name of the skeletal mesh to create.").req(),
            k("MODELFILE", Path, "ActorX skin file (`.psk`).").req(),
            UNMIRROR,
            ZEROTEX,
            MLOD,
            LODSTYLE,
            LODFRAME,
            LODNOTEX,
            k("DOSMOOTH", Bool, "Apply the smoothing groups of the PSK.").ue2(),
            LODSPECIFY,
        ],
        one_of: &[],
        keys_complete: true,
        ignored: None,
        missing_warning: Some("Bad MODEL IMPORT"),
        doc: "Imports a skeletal mesh from an ActorX `.psk` file.",
        source: SRC_UE1_SKEL,
        only_in: None,
    },
    CommandSpec {
        command: "MESH",
        sub: Sub::Word("ORIGIN"),
        engines: Engines::Both,
        keys: &[MESH_REF, X, Y, Z, PITCH, YAW, ROLL],
        one_of: &[],
        keys_complete: true,
        ignored: None,
        missing_warning: Some("Bad MESH ORIGIN"),
        doc: "Sets the mesh origin (X/Y/Z, before scaling) and its rotation (PITCH/YAW/ROLL).",
        source: SRC_BOTH,
        only_in: None,
    },
    CommandSpec {
        command: "MESH",
        sub: Sub::Word("SEQUENCE"),
        engines: Engines::Both,
        keys: &[
            MESH_REF,
            k("SEQ", Name, "Sequence name, used by PlayAnim and LoopAnim.").req(),
            k("STARTFRAME", Int, "First frame of the sequence.").req(),
            k("NUMFRAMES", Int, "Number of frames.").req(),
            k("RATE", Float, "Playback rate in frames per second."),
            k("GROUP", Name, "Animation group (e.g. `Waiting`, `TakeHit`)."),
        ],
        one_of: &[],
        keys_complete: true,
        ignored: None,
        missing_warning: Some("Bad MESH SEQUENCE"),
        doc: "Defines (or redefines) a named animation sequence of a vertex mesh.",
        source: SRC_BOTH,
        only_in: None,
    },
    CommandSpec {
        command: "MESH",
        sub: Sub::Word("NOTIFY"),
        engines: Engines::Both,
        keys: &[
            MESH_REF,
            k("SEQ", Name, "The sequence, defined earlier by MESH SEQUENCE.").req(),
            k("TIME", Float, "When to call, as a fraction of the sequence (0 to 1).").req(),
            k("FUNCTION", Name, "Function called on the actor.").req(),
        ],
        one_of: &[],
        keys_complete: true,
        ignored: None,
        missing_warning: Some("Bad MESH NOTIFY"),
        doc: "Calls a function on the actor at a point of an animation sequence. Logs \"Unknown sequence in MESH NOTIFY\" when SEQ is not defined.",
        source: SRC_BOTH,
        only_in: None,
    },
    CommandSpec {
        command: "MESH",
        sub: Sub::Word("LODPARAMS"),
        engines: Engines::Both,
        keys: &[
            MESH_REF,
            k("MINVERTS", Int, "Fewest vertices the LOD mesh is reduced to."),
            k("STRENGTH", Float, "How fast detail falls off with distance (0 = no reduction)."),
            k("MORPH", Float, "Morphing range between LOD levels, 0 to 1."),
            k("HYSTERESIS", Float, "LOD change delay (unused by the renderer)."),
            k("ZDISP", Float, "Z displacement in world units for the falloff function."),
        ],
        one_of: &[],
        keys_complete: true,
        ignored: None,
        missing_warning: Some("Bad MESH LODPARAMS"),
        doc: "Tunes the level of detail of a mesh. Needs an LOD mesh: warns for a mesh imported with MLOD=0.",
        source: SRC_BOTH,
        only_in: None,
    },
    CommandSpec {
        command: "MESH",
        sub: Sub::Word("DROPFRAMES"),
        engines: Engines::Both,
        keys: &[
            MESH_REF,
            k("STARTFRAME", Int, "First frame to remove.").req(),
            k("NUMFRAMES", Int, "Number of frames to remove.").req(),
        ],
        one_of: &[],
        keys_complete: true,
        ignored: None,
        missing_warning: None,
        doc: "Removes animation frames from a vertex mesh.",
        source: SRC_BOTH,
        only_in: None,
    },
    CommandSpec {
        command: "MESH",
        sub: Sub::Word("DEFAULTANIM"),
        engines: Engines::Both,
        keys: &[MESH_REF, ANIM_REF_UE1, ANIM_REF_UE2],
        one_of: &[],
        keys_complete: true,
        ignored: None,
        missing_warning: Some("Bad MESH DEFAULTANIM"),
        doc: "Makes an animation set the default animation of a skeletal mesh.",
        source: SRC_UE1_SKEL,
        only_in: None,
    },
    CommandSpec {
        command: "MESH",
        sub: Sub::Word("SCALE"),
        engines: Engines::Ue2,
        keys: &[MESH_REF, X, Y, Z],
        one_of: &[],
        keys_complete: true,
        ignored: None,
        missing_warning: Some("Missing Mesh"),
        doc: "Sets the draw scale of a mesh (UE2 spelling of MESHMAP SCALE).",
        source: SRC_UE2,
        only_in: None,
    },
    CommandSpec {
        command: "MESH",
        sub: Sub::Word("SETTEXTURE"),
        engines: Engines::Ue2,
        keys: &[
            MESH_REF,
            k("TEXTURE", Object("Material"), "The material for the slot.").req(),
            k("NUM", Int, "Material slot, from 0; must exist in the mesh.").req(),
            k("TLOD", Float, "Texture LOD factor.").ignored("UE2 does not read TLOD (the code is commented out)"),
        ],
        one_of: &[],
        keys_complete: true,
        ignored: None,
        missing_warning: Some("Missing meshmap, texture, or num"),
        doc: "Assigns a material to a mesh slot (UE2 spelling of MESHMAP SETTEXTURE).",
        source: SRC_UE2,
        only_in: None,
    },
    CommandSpec {
        command: "MESH",
        sub: Sub::Word("ATTACHNAME"),
        engines: Engines::Ue2,
        keys: &[
            k("MESH", Object("SkeletalMesh"), "The skeletal mesh.").req(),
            k("BONE", Name, "The bone to attach to.").req(),
            k("TAG", Name, "The attachment alias used by AttachToBone.").req(),
            X,
            Y,
            Z,
            PITCH,
            YAW,
            ROLL,
        ],
        one_of: &[],
        keys_complete: true,
        ignored: None,
        missing_warning: Some("Bad MESH ATTACHNAME parameters."),
        doc: "Names an attachment point on a bone, with an optional offset and rotation.",
        source: SRC_UE2,
        only_in: None,
    },
    CommandSpec {
        command: "MESH",
        sub: Sub::Word("LODMODEL"),
        engines: Engines::Ue2,
        keys: &[
            k("MESH", Object("SkeletalMesh"), "The skeletal mesh.").req(),
            k("LEVEL", Int, "LOD level to generate or import.").req(),
            k("HYSTERESIS", Float, "Switching hysteresis."),
            k("DISTANCEFACTOR", Float, "Display distance factor."),
            k("REDUCTION", Float, "Vertex reduction factor."),
            k("MAXINFLUENCES", Int, "Most bone influences per vertex."),
            k("COHERENCE", Bool, "Keep vertex coherence."),
            k("FROMMESH", Object("SkeletalMesh"), "Take the LOD level from this mesh instead of generating it."),
        ],
        one_of: &[],
        keys_complete: true,
        ignored: None,
        missing_warning: Some("Bad LODMODEL generation command."),
        doc: "Generates or imports one discrete LOD level of a skeletal mesh.",
        source: SRC_UE2,
        only_in: None,
    },
    CommandSpec {
        command: "MESH",
        sub: Sub::Word("BOUNDINGBOX"),
        engines: Engines::Ue2,
        keys: &[
            MESH_REF,
            k("XMIN", Float, "Box minimum X."),
            k("YMIN", Float, "Box minimum Y."),
            k("ZMIN", Float, "Box minimum Z."),
            k("XMAX", Float, "Box maximum X."),
            k("YMAX", Float, "Box maximum Y."),
            k("ZMAX", Float, "Box maximum Z."),
        ],
        one_of: &[],
        keys_complete: true,
        ignored: None,
        missing_warning: Some("Bad MESH Bounding Box"),
        doc: "Overrides the computed bounding box of a mesh.",
        source: SRC_UE2,
        only_in: None,
    },
    CommandSpec {
        command: "MESH",
        sub: Sub::Word("FLIPFACES"),
        engines: Engines::Ue2,
        keys: &[k("MESH", Object("SkeletalMesh"), "The skeletal mesh.").req()],
        one_of: &[],
        keys_complete: true,
        ignored: None,
        missing_warning: Some("Bad MODEL IMPORT"),
        doc: "Reverses the winding of every triangle of a skeletal mesh.",
        source: SRC_UE2,
        only_in: None,
    },
    // ----------------------------------------------------------------- MESHMAP
    CommandSpec {
        command: "MESHMAP",
        sub: Sub::Word("NEW"),
        engines: Engines::Both,
        keys: &[
            k("MESHMAP", Name, "Name of the meshmap (the same as the mesh)."),
            k("MESH", Name, "The mesh it maps."),
        ],
        one_of: &[],
        keys_complete: true,
        ignored: Some("meshmaps were merged into meshes before UE1 v400; SafeExec has no MESHMAP NEW and the line does nothing"),
        missing_warning: None,
        doc: "Obsolete: created a meshmap in pre-release Unreal. Written by old exporters; does nothing.",
        source: SRC_BOTH,
        only_in: None,
    },
    CommandSpec {
        command: "MESHMAP",
        sub: Sub::Word("SCALE"),
        engines: Engines::Both,
        keys: &[
            MESHMAP_REF,
            X,
            Y,
            Z,
            PITCH.ignored("MESHMAP SCALE reads no rotation; use MESH ORIGIN"),
            YAW.ignored("MESHMAP SCALE reads no rotation; use MESH ORIGIN"),
            ROLL.ignored("MESHMAP SCALE reads no rotation; use MESH ORIGIN"),
        ],
        one_of: &[],
        keys_complete: true,
        ignored: None,
        missing_warning: Some("Missing meshmap"),
        doc: "Sets the draw scale of a mesh; a missing axis is 0.",
        source: SRC_BOTH,
        only_in: None,
    },
    CommandSpec {
        command: "MESHMAP",
        sub: Sub::Word("SETTEXTURE"),
        engines: Engines::Both,
        keys: &[
            MESHMAP_REF,
            k("TEXTURE", Object("Texture"), "The texture (UE2: material) for the slot.").req(),
            k("NUM", Int, "Texture slot, from 0; must exist in the mesh.").req(),
            k("TLOD", Float, "Texture LOD factor for the slot.").ue1(),
            k("TLOD", Float, "Texture LOD factor.").ue2().ignored("UE2 does not read TLOD (the code is commented out)"),
        ],
        one_of: &[],
        keys_complete: true,
        ignored: None,
        missing_warning: Some("Missing meshmap, texture, or num"),
        doc: "Assigns a texture to a mesh skin slot.",
        source: SRC_BOTH,
        only_in: None,
    },
    // ----------------------------------------------------------------- TEXTURE
    CommandSpec {
        command: "TEXTURE",
        sub: Sub::Word("IMPORT"),
        engines: Engines::Both,
        keys: &[
            k("NAME", Name, "Texture name; defaults to the file's base name."),
            k("FILE", Path, "Image file (`.pcx`, `.bmp`; UE2 also `.tga`, `.dds`).").req(),
            PACKAGE,
            GROUP,
            k("MIPS", Bool, "Build mipmaps (default on)."),
            k("FLAGS", Int, "Surface poly flags of the texture (e.g. 2 = masked).").ue1(),
            k("FLAGS", Int, "Poly flags.").ue2().ignored("UE2's TEXTURE IMPORT reads no FLAGS= (a masked texture is MASKED=1)"),
            k("TEXFLAGS", Int, "Texture flags.").ue1().ignored("UE1 parses TEXFLAGS= into a local and drops it; use FLAGS="),
            k("TEXFLAGS", Int, "Texture flags.").ue2().ignored("UE2 parses TEXFLAGS= into a local and drops it (UnEdSrv.cpp:611)"),
            k("LODSET", Int, "Texture detail set (UE1: 0 none, 1 world, 2 skin)."),
            k("DETAIL", Object("Texture"), "Detail texture.").ue1(),
            k("MTEX", Object("Texture"), "Macro texture.").ue1(),
            k("NEXT", Object("Texture"), "Next frame of an animated texture."),
            k("ALPHATRICK", Bool, "Copy the blue channel of the palette into alpha."),
            k("ALPHA", Bool, "The texture has an alpha channel.").ue2(),
            k("NORMALLOD", Int, "Normal LOD bias.").ue2(),
            k("MASKED", Bool, "Masked texture.").ue2(),
            k("ALPHATEXTURE", Bool, "Alpha-blended texture.").ue2(),
            k("UCLAMPMODE", KeyKind::Enum(&["CLAMP", "WRAP"]), "U addressing.").ue2(),
            k("VCLAMPMODE", KeyKind::Enum(&["CLAMP", "WRAP"]), "V addressing.").ue2(),
            k("DXT", Int, "DXT format for `.tga`/`.bmp` conversion: 1, 3 or 5; -1 keeps it uncompressed.").ue2(),
            k("MODULATED", Bool, "Modulated texture: mipmaps fade to grey (128,128,128).").ue2(),
            k("ADDITIVE", Bool, "Additive texture: mipmaps fade to black.").ue2(),
            k("PALETTE", Name, "Palette.").ignored("TEXTURE IMPORT reads no PALETTE=; the palette comes from the image"),
            k("MASK", Bool, "Mask.").ignored("TEXTURE IMPORT reads no MASK= (UE1: FLAGS=2 makes it masked; UE2: MASKED=1)"),
            k("FAMILY", Name, "Texture family.").ignored("texture families were removed before UE1 v200; FAMILY= is not read"),
            k("HD", Object("Texture"), "Unreal 227: the high-resolution texture drawn in place of this one.").ue1().only(Patch::Unreal227),
            k("BTC", Int, "UT v469: block texture compression of the imported texture (written by its editor).").ue1().only(Patch::Ut469),
        ],
        one_of: &[],
        keys_complete: true,
        ignored: None,
        missing_warning: Some("Missing file or name"),
        doc: "Imports an image as a texture.",
        source: "UE1: UT v400 Editor/Src/UnEdSrv.cpp:159-215 (SafeExec, Texture Import); UE2: UT2004 Editor/Src/UnEdSrv.cpp:528-719 (MODULATED= and ADDITIVE= at 625-626, read with ParseUBOOL)",
        only_in: None,
    },
    patch_command(
        ("TEXTURE", "MERGECOMPRESSED"),
        &[
            k("NAME", Name, "The existing texture whose compressed mipmaps receive the image."),
            k("FILE", Path, "The high-resolution image to compress and merge (PNG, DDS, BMP)."),
            PACKAGE,
            GROUP,
        ],
        "UT v469: imports and compresses a high-resolution image into an existing texture's compressed mipmaps.",
        (SRC_469, Patch::Ut469),
    ),
    CommandSpec {
        command: "TEXTURE",
        sub: Sub::Word("SETHITSOUND"),
        engines: Engines::Both,
        keys: &[],
        one_of: &[],
        keys_complete: false,
        ignored: None,
        missing_warning: None,
        doc: "Texture command seen in real sources (key set not confirmed).",
        source: SRC_UNVERIFIED,
        only_in: None,
    },
    // ----------------------------------------------------------------- AUDIO
    CommandSpec {
        command: "AUDIO",
        sub: Sub::Word("IMPORT"),
        engines: Engines::Both,
        keys: &[
            k("FILE", Path, "Sound file (`.wav`).").req(),
            k("NAME", Name, "Sound name; defaults to the file's base name."),
            PACKAGE,
            GROUP,
        ],
        one_of: &[],
        keys_complete: true,
        ignored: None,
        missing_warning: None,
        doc: "Imports a `.wav` file as a sound (rewritten to NEW SOUND).",
        source: SRC_BOTH,
        only_in: None,
    },
    // ----------------------------------------------------------------- MACRO / EXEC, FONT, PREFAB
    CommandSpec {
        command: "MACRO",
        sub: Sub::None,
        engines: Engines::Both,
        keys: &[],
        one_of: &[],
        // The file name is a bare token after the command.
        keys_complete: false,
        ignored: None,
        missing_warning: None,
        doc: "Runs the editor commands of a macro file (`MACRO file`; `EXEC file` is the old spelling).",
        source: "UE1: UT v400 Editor/Src/UnEdSrv.cpp:57-62; UE2: UT2004 Editor/Src/UnEdSrv.cpp:392-398 (SafeExec, MACRO or EXEC, then ExecMacro)",
        only_in: None,
    },
    CommandSpec {
        command: "FONT",
        sub: Sub::Word("INFO"),
        engines: Engines::Ue2,
        keys: &[k("FONT", Object("Font"), "The font whose page textures are logged.")],
        one_of: &[],
        keys_complete: true,
        ignored: None,
        missing_warning: Some("Couldn't locate font"),
        doc: "Logs the page textures of a font.",
        source: "UE2: UT2004 Editor/Src/UnEdSrv.cpp:724-737 (SafeExec, FONT INFO)",
        only_in: None,
    },
    CommandSpec {
        command: "FONT",
        sub: Sub::Word("UPDATE"),
        engines: Engines::Ue2,
        keys: &[
            k("FONT", Object("Font"), "The font to change."),
            k("TEXTURE", Object("Texture"), "The texture that replaces the page."),
            k("PAGE", Int, "The page to replace, from 0."),
        ],
        one_of: &[],
        keys_complete: true,
        ignored: None,
        missing_warning: Some("Couldn't locate font"),
        doc: "Replaces one page texture of a font.",
        source: "UE2: UT2004 Editor/Src/UnEdSrv.cpp:739-774 (SafeExec, FONT UPDATE)",
        only_in: None,
    },
    CommandSpec {
        command: "PREFAB",
        sub: Sub::Word("IMPORT"),
        engines: Engines::Ue2,
        keys: &[
            k("FILE", Path, "The prefab (`.t3d`) file."),
            PACKAGE,
            GROUP,
            k("NAME", Name, "The prefab's name."),
        ],
        one_of: &[],
        keys_complete: true,
        ignored: None,
        missing_warning: None,
        doc: "Imports a prefab (rewritten to NEW PREFAB).",
        source: "UE2: UT2004 Editor/Src/UnEdSrv.cpp:1461-1479 (SafeExec, PREFAB IMPORT)",
        only_in: None,
    },
    // ----------------------------------------------------------------- LOAD / OBJ
    CommandSpec {
        command: "LOAD",
        sub: Sub::None,
        engines: Engines::Both,
        keys: &[
            k("FILE", Path, "Package file to load, relative to the package folder (often `..\\Textures\\X.utx`).").req(),
            k("PACKAGE", Name, "Load the file under this package name (`PACKAGE=Pkg.Group` loads it into a group of `Pkg`)."),
            // Real code writes it; no LOAD handler of any build reads it (UT v400
            // Editor/Src/UnEdSrv.cpp:128-157, UT2004 :497-526).
            k("GROUP", Name, "Not read: to load the objects into a group, write `PACKAGE=Pkg.Group`.")
                .ignored("no LOAD handler reads GROUP=; the objects land in the package itself, and `PACKAGE=Pkg.Group` is how a load puts them into a group"),
        ],
        one_of: &[],
        keys_complete: true,
        ignored: None,
        missing_warning: Some("Missing filename"),
        doc: "Loads a package so that its objects can be referenced (`OBJ LOAD` is the usual spelling).",
        source: SRC_BOTH,
        only_in: None,
    },
    CommandSpec {
        command: "OBJ",
        sub: Sub::Word("IMPORT"),
        engines: Engines::Both,
        keys: &[
            k("TYPE", Object("Class"), "Class of the object to import; the line becomes NEW STANDALONE <TYPE>.").req(),
            k("FILE", Path, "File to import."),
            k("NAME", Name, "Object name; defaults to the file's base name."),
            PACKAGE,
        ],
        one_of: &[],
        keys_complete: false,
        ignored: None,
        missing_warning: None,
        doc: "Old spelling of NEW STANDALONE <TYPE> ...",
        source: SRC_BOTH,
        only_in: None,
    },
    // ----------------------------------------------------------------- NEW (factories)
    CommandSpec {
        command: "NEW",
        sub: Sub::Word("TRUETYPEFONTFACTORY"),
        engines: Engines::Both,
        keys: &[
            k("NAME", Name, "Font name.").req(),
            PACKAGE,
            k("FONTNAME", Text, "Windows font face, e.g. \"Arial\".").req(),
            k("HEIGHT", Int, "Character height in pixels."),
            k("USIZE", Int, "Page texture width."),
            k("VSIZE", Int, "Page texture height."),
            k("XPAD", Int, "Horizontal padding between characters."),
            k("YPAD", Int, "Vertical padding between characters."),
            k("CHARACTERSPERPAGE", Int, "Characters per texture page."),
            k("GAMMA", Float, "Gamma of the rendered glyphs."),
            k("CHARS", Text, "Characters to include."),
            k("ANTIALIAS", Bool, "Antialias the glyphs."),
            k("LIST", Text, "Character list."),
            k("STYLE", Int, "Font weight (400 normal, 700 bold).").ue2(),
            k("ITALIC", Bool, "Italic.").ue2(),
            k("UNDERLINE", Bool, "Underlined.").ue2(),
            k("KERNING", Int, "Extra spacing between characters.").ue2(),
            k("DROPSHADOWX", Int, "Drop shadow X offset.").ue2(),
            k("DROPSHADOWY", Int, "Drop shadow Y offset.").ue2(),
            k("UNICODERANGE", Text, "Unicode ranges to include.").ue2(),
            k("PATH", Path, "Folder of character list files.").ue2(),
            k("WILDCARD", Text, "File pattern of character list files.").ue2(),
        ],
        one_of: &[],
        keys_complete: false,
        ignored: None,
        missing_warning: None,
        doc: "Renders a Windows TrueType font into a font object.",
        source: SRC_FACTORY,
        only_in: None,
    },
    CommandSpec {
        command: "NEW",
        sub: Sub::Word("FONTFACTORY"),
        engines: Engines::Both,
        keys: &[
            k("FILE", Path, "Image holding the glyphs.").req(),
            k("NAME", Name, "Font name; defaults to the file's base name."),
            PACKAGE,
            k("HD", Object("Font"), "Unreal 227: the high-resolution font drawn in place of this one.").ue1().only(Patch::Unreal227),
        ],
        one_of: &[],
        keys_complete: false,
        ignored: None,
        missing_warning: None,
        doc: "Imports a bitmap font (FONT IMPORT is the old spelling).",
        source: SRC_FACTORY,
        only_in: None,
    },
    CommandSpec {
        command: "NEW",
        sub: Sub::Word("STATICMESH"),
        engines: Engines::Ue2,
        keys: &[
            k("FILE", Path, "Model file (`.ase`, `.lwo`).").req(),
            k("NAME", Name, "Static mesh name; defaults to the file's base name."),
            PACKAGE,
        ],
        one_of: &[],
        keys_complete: false,
        ignored: None,
        missing_warning: None,
        doc: "Imports a static mesh through the factory for its file type.",
        source: SRC_FACTORY,
        only_in: None,
    },
    CommandSpec {
        command: "NEW",
        sub: Sub::Word("SOUND"),
        engines: Engines::Both,
        keys: &[
            k("FILE", Path, "Sound file (`.wav`).").req(),
            k("NAME", Name, "Sound name; defaults to the file's base name."),
            k("PACKAGE", Name, "Package, optionally `Package.Group`."),
        ],
        one_of: &[],
        keys_complete: false,
        ignored: None,
        missing_warning: None,
        doc: "Imports a sound (what AUDIO IMPORT becomes).",
        source: SRC_FACTORY,
        only_in: None,
    },
    CommandSpec {
        command: "NEW",
        sub: Sub::AnyClass,
        engines: Engines::Both,
        keys: &[
            k("FILE", Path, "File to import."),
            k("NAME", Name, "Object name; defaults to the file's base name."),
            PACKAGE,
            k("CONTEXTCLASS", Object("Class"), "Class of the context object."),
            k("CONTEXT", Name, "Context object."),
        ],
        one_of: &[],
        keys_complete: false,
        ignored: None,
        missing_warning: Some("Unrecognized or missing factor class"),
        doc: "Creates an object with a factory class (or of a class, through the factory for the file type).",
        source: SRC_BOTH,
        only_in: None,
    },
    // ----------------------------------------------------------------- STATICMESH
    CommandSpec {
        command: "STATICMESH",
        sub: Sub::Word("IMPORT"),
        engines: Engines::Ue2,
        keys: &[
            k("FILE", Path, "Model file (`.lwo`).").req(),
            k("NAME", Name, "Static mesh name; defaults to the file's base name."),
            PACKAGE,
            GROUP,
            k("COLLISION", Bool, "Build collision (default on)."),
        ],
        one_of: &[],
        keys_complete: true,
        ignored: None,
        missing_warning: None,
        doc: "Imports a static mesh.",
        source: SRC_UE2,
        only_in: None,
    },
    CommandSpec {
        command: "STATICMESH",
        sub: Sub::Word("SETPROJECTION"),
        engines: Engines::Ue2,
        keys: &[k("STATICMESH", Object("StaticMesh"), "The static mesh.")],
        one_of: &[],
        keys_complete: false,
        ignored: Some("#exec lines run through SafeExec, whose STATICMESH branch handles only IMPORT (UT2004 Editor/Src/UnEdSrv.cpp:422-429); the editor console's STATICMESH commands are not reachable from #exec"),
        missing_warning: None,
        doc: "Does nothing in an `#exec` line: SafeExec's STATICMESH branch handles only IMPORT.",
        source: "UE2: UT2004 Editor/Src/UnEdSrv.cpp:422-429 (SafeExec, STATICMESH)",
        only_in: None,
    },
    // ----------------------------------------------------------------- ANIM (skeletal)
    CommandSpec {
        command: "ANIM",
        sub: Sub::Word("IMPORT"),
        engines: Engines::Both,
        keys: &[
            k("ANIM", Name, "Name of the animation set to create.").req(),
            k("ANIMFILE", Path, "ActorX animation file (`.psa`).").req(),
            k("IMPORTSEQS", Bool, "Also import the sequences stored in the PSA.").ue1(),
            k("IMPORTSEQS", Bool, "Import the PSA sequences.")
                .ue2()
                .ignored("UE2 always reads the PSA sequences; ANIM DIGEST USERAWINFO keeps them"),
            UNMIRROR,
            ZEROTEX,
            UNMIRRORTEX,
            k("COMPRESS", Float, "Default key reduction factor (1 = none)."),
        ],
        one_of: &[],
        keys_complete: true,
        ignored: None,
        missing_warning: Some("Bad ANIM IMPORT"),
        doc: "Imports skeletal animation from an ActorX `.psa` file.",
        source: SRC_UE1_SKEL,
        only_in: None,
    },
    CommandSpec {
        command: "ANIM",
        sub: Sub::Word("SEQUENCE"),
        engines: Engines::Both,
        keys: &[
            ANIM_REF_UE1,
            ANIM_REF_UE2,
            k("SEQ", Name, "Sequence name.").req(),
            k("STARTFRAME", Int, "First raw frame.").req().ue1(),
            k("NUMFRAMES", Int, "Number of raw frames.").req().ue1(),
            k("STARTFRAME", Int, "First raw frame (without it, the line overrides a PSA sequence's RATE/GROUP/COMPRESS).").ue2(),
            k("NUMFRAMES", Int, "Number of raw frames.").ue2(),
            k("RATE", Float, "Playback rate in frames per second."),
            k("GROUP", Name, "Animation group."),
            k("TRACKTIME", Float, "Total track time."),
            k("COMPRESS", Float, "Key reduction factor for this sequence."),
            k("STARTBONE", Name, "First bone the sequence animates."),
            k("MAXKEYS", Int, "Most keys kept after compression."),
            k("ROOTTRACK", Switch, "Include the root bone motion."),
            k("ROOTONLY", Switch, "Animate only the root bone."),
        ],
        one_of: &[],
        keys_complete: true,
        ignored: None,
        missing_warning: Some("Bad ANIM SEQUENCE"),
        doc: "Defines a skeletal animation sequence from raw PSA frames (UE2: or overrides a PSA sequence).",
        source: SRC_UE1_SKEL,
        only_in: None,
    },
    CommandSpec {
        command: "ANIM",
        sub: Sub::Word("NOTIFY"),
        engines: Engines::Both,
        keys: &[
            ANIM_REF_UE1,
            ANIM_REF_UE2,
            k("SEQ", Name, "The sequence.").req(),
            k("TIME", Float, "When to call, as a fraction of the sequence (0 to 1).").req().ue1(),
            k("FUNCTION", Name, "Function called on the actor.").req().ue1(),
            k("TIME", Float, "When to call, as a fraction of the sequence (0 to 1).").ue2(),
            k("FRAME", Float, "When to call, as a frame number.").ue2(),
            k("FUNCTION", Name, "Function called on the actor.").ue2(),
            k("OBJECT", Object("AnimNotify"), "Notify object to trigger.").ue2(),
        ],
        one_of: &[&["TIME", "FRAME"], &["FUNCTION", "OBJECT"]],
        keys_complete: true,
        ignored: None,
        missing_warning: Some("Bad ANIM NOTIFY"),
        doc: "Calls a function (UE2: or an AnimNotify object) at a point of a skeletal sequence. UE1 needs TIME and FUNCTION; UE2 TIME or FRAME, and FUNCTION or OBJECT.",
        source: SRC_UE1_SKEL,
        only_in: None,
    },
    CommandSpec {
        command: "ANIM",
        sub: Sub::Word("DIGEST"),
        engines: Engines::Both,
        keys: &[
            ANIM_REF_UE1,
            ANIM_REF_UE2,
            k("VERBOSE", Switch, "Log key memory before and after compression."),
            k("USERAWINFO", Switch, "Use the sequences stored in the PSA.").ue2(),
        ],
        one_of: &[],
        keys_complete: true,
        ignored: None,
        missing_warning: Some("Bad ANIM AnimCompress"),
        doc: "Compresses the imported animation into its final form; comes after the ANIM SEQUENCE lines.",
        source: SRC_UE1_SKEL,
        only_in: None,
    },
    patch_command(
        ("BRUSH", "TOMESH"),
        &[
            k("BRUSH", Object("Brush"), "The brush to convert."),
            k("MESH", Name, "The skeletal mesh to create."),
        ],
        "UT v469: converts a brush into a skeletal mesh.",
        (SRC_469, Patch::Ut469),
    ),
    patch_command(
        ("MESH", "WEAPONATTACH"),
        &[
            k("MESH", Object("Mesh"), "The mesh."),
        ],
        "UT v469: the bone a skeletal mesh's weapon attaches to.",
        (SRC_469, Patch::Ut469),
    ),
    patch_command(
        ("MESH", "WEAPONPOSITION"),
        &[
            k("MESH", Object("Mesh"), "The mesh."),
        ],
        "UT v469: the offset and rotation of a skeletal mesh's attached weapon.",
        (SRC_469, Patch::Ut469),
    ),
    patch_command(
        ("MESH", "BOUNDINGSPHERE"),
        &[
            k("MESH", Object("Mesh"), "The mesh."),
        ],
        "UT v469: sets a skeletal mesh's bounding sphere.",
        (SRC_469, Patch::Ut469),
    ),
    patch_command(
        ("MESH", "SOCKET"),
        &[
            k("MESH", Object("Mesh"), "The mesh."),
            k("SOCKETNAME", Name, "The socket's name."),
            k("VERT0", Int, "First vertex of the triangle the socket follows."),
            k("VERT1", Int, "Second vertex."),
            k("VERT2", Int, "Third vertex."),
            X,
            Y,
            Z,
            PITCH,
            YAW,
            ROLL,
        ],
        "Unreal 227: a named attachment point that follows a triangle of a vertex mesh.",
        (SRC_227, Patch::Unreal227),
    ),
    patch_command(
        ("MESH", "COLLISION"),
        &[
            k("MESH", Object("Mesh"), "The mesh."),
            k("MODEL", Object("Model"), "The collision model (from OBJ COLLISIONBRUSH)."),
        ],
        "Unreal 227: gives a mesh a collision model.",
        (SRC_227, Patch::Unreal227),
    ),
    patch_command(
        ("OBJ", "COLLISIONBRUSH"),
        &[
            k("FILE", Path, "A T3D file holding the collision brush."),
            k("NAME", Name, "The collision model's name."),
        ],
        "Unreal 227: imports a brush from a T3D file as a collision model.",
        (SRC_227, Patch::Unreal227),
    ),
    patch_command(
        ("OBJ", "SET"),
        &[
            k("CLASS", Object("Class"), "The object's class."),
            k("NAME", Name, "The object."),
            k("PROPERTY", Name, "The property to set."),
            k("VALUE", Text, "The value, as default properties write it."),
        ],
        "Unreal 227: sets a property of an existing object.",
        (SRC_227, Patch::Unreal227),
    ),
];

/// Spellings the engine rewrites.
pub static ALIASES: &[CommandAlias] = &[
    CommandAlias {
        command: "OBJ",
        sub: Some("LOAD"),
        target_command: "LOAD",
        target_sub: None,
        engines: Engines::Both,
        doc: "OBJ LOAD is rewritten to LOAD.",
    },
    CommandAlias {
        command: "FONT",
        sub: Some("IMPORT"),
        target_command: "NEW",
        target_sub: Some("FONTFACTORY"),
        engines: Engines::Both,
        doc: "FONT IMPORT is rewritten to NEW FONTFACTORY.",
    },
    CommandAlias {
        command: "EXEC",
        sub: None,
        target_command: "MACRO",
        target_sub: None,
        engines: Engines::Both,
        doc: "EXEC file is the old spelling of MACRO file.",
    },
    CommandAlias {
        command: "DECAMESH",
        sub: None,
        target_command: "MESH",
        target_sub: None,
        engines: Engines::Ue2,
        doc: "UE2 rewrites DECAMESH to MESH (builds without the DECA mesh code).",
    },
    CommandAlias {
        command: "DECAANIM",
        sub: None,
        target_command: "ANIM",
        target_sub: None,
        engines: Engines::Ue2,
        doc: "UE2 rewrites DECAANIM to ANIM (builds without the DECA mesh code).",
    },
];

/// A command a licensee's editor has and Epic's do not, known from the game's own trees (their
/// classes' use, their SDK documents and headers). Its keys are not known, so it is named,
/// never checked.
#[derive(Clone, Copy, Debug)]
pub struct LicenseeCommand {
    /// The game whose editor has it, when the settings can name that game (`None`: a
    /// licensee game without a setting of its own, named by `game_name`).
    pub game: Option<crate::Game>,
    /// The game's name, for messages ("Deus Ex").
    pub game_name: &'static str,
    pub command: &'static str,
    /// The second word, when the command has one.
    pub sub: Option<&'static str>,
    /// Where its use or handler is seen.
    pub source: &'static str,
}

const fn licensee(
    game: Option<crate::Game>,
    game_name: &'static str,
    command: &'static str,
    sub: Option<&'static str>,
    source: &'static str,
) -> LicenseeCommand {
    LicenseeCommand { game, game_name, command, sub, source }
}

const SRC_DEUSEX_TEXT: &str = "Deus Ex: ION Storm's DeusExText package (`TextImport.h`: \
     `ImportDeusExTextFile`, `ImportAllDeusExTextFiles`); Deus Ex's EditPackages list ConSys, \
     DeusExConversations and DeusExText (TheLonerD/shifterdx `DeusEx/Compile Instructions.txt`)";
const SRC_SPLINTER_CELL: &str =
    "Splinter Cell: the Echelon packages' classes (ShizCalev/EnhancedSC, e.g. `EchelonCharacter/Classes/EAINonHostile.uc`)";
const SRC_RUNE: &str = "Rune: its `Imports` classes (`SKELETAL IMPORT NAME= FILE=*.scm`)";

/// Every licensee command known, by game.
pub static LICENSEE_COMMANDS: &[LicenseeCommand] = &[
    licensee(Some(crate::Game::DeusEx), "Deus Ex", "CONVERSATION", Some("IMPORT"), SRC_DEUSEX_TEXT),
    licensee(Some(crate::Game::DeusEx), "Deus Ex", "DEUSEXTEXT", Some("IMPORT"), SRC_DEUSEX_TEXT),
    licensee(
        Some(crate::Game::DeusEx),
        "Deus Ex",
        "ALLDEUSEXTEXT",
        Some("IMPORT"),
        SRC_DEUSEX_TEXT,
    ),
    licensee(Some(crate::Game::Rune), "Rune", "SKELETAL", Some("IMPORT"), SRC_RUNE),
    licensee(Some(crate::Game::Rune), "Rune", "SKELETAL", Some("ORIGIN"), SRC_RUNE),
    licensee(Some(crate::Game::Rune), "Rune", "SKELETAL", Some("SAVEPACKAGE"), SRC_RUNE),
    licensee(None, "Splinter Cell", "MESH", Some("ADDPILLVERTEX"), SRC_SPLINTER_CELL),
    licensee(None, "Splinter Cell", "MESH", Some("ADDCYLINDERPILL"), SRC_SPLINTER_CELL),
    licensee(None, "Splinter Cell", "MESH", Some("ADDSPHEREPILL"), SRC_SPLINTER_CELL),
    licensee(None, "Splinter Cell", "MESH", Some("CLEARPILLINFO"), SRC_SPLINTER_CELL),
    licensee(None, "Splinter Cell", "MESH", Some("PILLCOPY"), SRC_SPLINTER_CELL),
    licensee(None, "Splinter Cell", "MESH", Some("CLEARATTACHTAGS"), SRC_SPLINTER_CELL),
    licensee(None, "Splinter Cell", "MESH", Some("LIPSYNCHBONES"), SRC_SPLINTER_CELL),
    licensee(None, "Splinter Cell", "ANIM", Some("FLAG"), SRC_SPLINTER_CELL),
    licensee(None, "Splinter Cell", "ANIM", Some("CLEARFLAGS"), SRC_SPLINTER_CELL),
    licensee(None, "Splinter Cell", "SAVEPACKAGE", None, SRC_SPLINTER_CELL),
];

/// The licensee command written `command sub` (any case), if one is known.
pub fn licensee_command(command: &str, sub: Option<&str>) -> Option<&'static LicenseeCommand> {
    LICENSEE_COMMANDS.iter().find(|c| {
        c.command.eq_ignore_ascii_case(command)
            && match c.sub {
                Some(want) => sub.is_some_and(|s| s.eq_ignore_ascii_case(want)),
                None => true,
            }
    })
}
