//! The names directives define: meshes, textures (with their groups), sounds, animations,
//! fonts, static meshes and mesh sequences, plus the texture slots `SETTEXTURE` fills and the
//! packages `LOAD` brings in. One [`FileSymbols`] per class; a package's classes together form
//! its symbol table ([`SymbolTable`]).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use unreal_syntax::Span;

use super::resolution::Resolution;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SymbolKind {
    Mesh,
    Texture,
    Sound,
    Animation,
    Font,
    StaticMesh,
    /// A `MESH SEQUENCE` of a mesh ([`Definition::owner`]).
    Sequence,
    /// An object of another class (`NEW <class>`).
    Object,
}

impl SymbolKind {
    pub fn name(self) -> &'static str {
        match self {
            SymbolKind::Mesh => "mesh",
            SymbolKind::Texture => "texture",
            SymbolKind::Sound => "sound",
            SymbolKind::Animation => "animation",
            SymbolKind::Font => "font",
            SymbolKind::StaticMesh => "static mesh",
            SymbolKind::Sequence => "sequence",
            SymbolKind::Object => "object",
        }
    }
}

/// How a mesh was imported.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct MeshSource {
    /// `MESH MODELIMPORT` (a `.psk`) rather than `MESH IMPORT` (`_d.3d` + `_a.3d`).
    pub skeletal: bool,
    /// The engine builds a LOD mesh unless `MLOD=0` is given.
    pub lod: bool,
    /// The `MLOD=` value, when written.
    pub mlod_span: Option<Span>,
    /// `ZEROTEX=1`: every triangle is put on slot 0.
    pub zerotex: bool,
    pub data: Option<PathBuf>,
    pub aniv: Option<PathBuf>,
    pub skin: Option<PathBuf>,
}

impl MeshSource {
    /// `ANIVFILE=` found a `_d.3d` and `DATAFILE=` an `_a.3d`: the files are swapped, and
    /// nothing read from them describes the mesh the engine builds.
    pub fn swapped(&self) -> bool {
        let name = |path: &Option<PathBuf>| {
            path.as_ref().and_then(|p| p.file_name()).map(|n| n.to_string_lossy().into_owned())
        };
        match (name(&self.aniv), name(&self.data)) {
            (Some(aniv), Some(data)) => mesh_names_swapped(&aniv, &data),
            _ => false,
        }
    }
}

/// True when the file named as the animation (`ANIVFILE=`) is a `_d.3d` and the one named as
/// the data (`DATAFILE=`) an `_a.3d`: the two files of a vertex mesh swapped.
pub fn mesh_names_swapped(aniv: &str, data: &str) -> bool {
    let ends = |name: &str, suffix: &str| {
        let name = name.trim();
        name.len() >= suffix.len()
            && name.get(name.len() - suffix.len()..).is_some_and(|e| e.eq_ignore_ascii_case(suffix))
    };
    ends(aniv, "_d.3d") && ends(data, "_a.3d")
}

/// One defined name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Definition {
    pub kind: SymbolKind,
    pub name: String,
    pub group: Option<String>,
    /// `PACKAGE=` when the directive names one.
    pub package: Option<String>,
    /// The mesh a sequence belongs to.
    pub owner: Option<String>,
    /// The name's value, or the file path it defaults from, or the command words.
    pub span: Span,
    /// The whole directive line.
    pub line_span: Span,
    pub mesh: Option<MeshSource>,
    /// What the directive imports, the name left out ([`super::LineFacts::import_signature`]):
    /// equal for a re-import of the same file with the same options.
    pub import: String,
}

impl Definition {
    /// The object's outer: two definitions clash when their outers and names agree.
    pub fn same_outer(&self, other: &Definition) -> bool {
        let eq = |a: &Option<String>, b: &Option<String>| match (a, b) {
            (Some(a), Some(b)) => a.eq_ignore_ascii_case(b),
            (None, None) => true,
            _ => false,
        };
        eq(&self.package, &other.package) && eq(&self.group, &other.group)
    }
}

/// `MESHMAP SETTEXTURE MESHMAP=m NUM=n`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SlotAssignment {
    pub mesh: String,
    pub num: i64,
    pub span: Span,
    /// `TEXTURE=`, when given.
    pub texture: Option<String>,
}

/// `LOAD FILE=...` / `OBJ LOAD FILE=...`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadedPackage {
    pub name: String,
    pub resolution: Resolution,
    pub span: Span,
}

/// Everything one file defines.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FileSymbols {
    pub file: Option<PathBuf>,
    pub definitions: Vec<Definition>,
    pub slots: Vec<SlotAssignment>,
    pub loads: Vec<LoadedPackage>,
    /// Where the class names objects outside the directives that define them
    /// ([`super::references`]).
    pub references: Vec<super::references::Reference>,
    /// The class's conditional lines, when a preprocessor of the project's own (not UCC)
    /// runs over it.
    pub preprocessor: Option<super::preprocessor::Evidence>,
    /// How many of the files the class imports are Git LFS pointers, not the files.
    pub lfs_pointers: usize,
    /// Under a licensee's game: the keys its lines write that Epic's handlers do not read
    /// (upper case, once per use), which that editor may read.
    pub licensee_keys: Vec<String>,
    /// The macro files the class's `#call` and `#AlwaysCall` lines name, as written, each with
    /// the span of its `#call`. UCC runs each line of such a file as a directive of the package
    /// (UT v400 `Editor/Src/UnScrCom.cpp:2995-3018`, Unreal v200 the same): what they define
    /// is not read here.
    pub macro_calls: Vec<(Span, String)>,
}

impl FileSymbols {
    /// True when the class has the conditional lines of a preprocessor of the project's own.
    pub fn preprocessed(&self) -> bool {
        self.preprocessor.as_ref().is_some_and(super::preprocessor::Evidence::conditional)
    }
}

/// FNV-1a of the ASCII-lowercased name: names compare case-insensitively.
fn name_hash(name: &str) -> u64 {
    name.bytes().fold(0xcbf2_9ce4_8422_2325, |hash, b| {
        (hash ^ u64::from(b.to_ascii_lowercase())).wrapping_mul(0x0100_0000_01b3)
    })
}

/// A package's symbol table: the file being checked and the other classes of its package, in
/// path order.
#[derive(Clone, Debug, Default)]
pub struct SymbolTable {
    pub files: Vec<Arc<FileSymbols>>,
    /// The index in `files` of the file being checked.
    pub current: usize,
    /// Hash of the lowercased name (for sequences: of the owner mesh) -> (file, definition)
    /// indices, in file order. Hash collisions are filtered out when reading.
    by_name: HashMap<u64, Vec<(usize, usize)>>,
    by_owner: HashMap<u64, Vec<(usize, usize)>>,
}

/// One definition found in the table, with the file it is in (`None`: the checked file).
#[derive(Clone, Copy, Debug)]
pub struct Found<'a> {
    pub definition: &'a Definition,
    pub file: Option<&'a Path>,
    /// Index of the file in [`SymbolTable::files`].
    pub file_index: usize,
    /// Index of the definition in its file's [`FileSymbols::definitions`].
    pub index: usize,
}

impl SymbolTable {
    /// The table of one file alone.
    pub fn single(symbols: FileSymbols) -> Self {
        Self::indexed(vec![Arc::new(symbols)], 0)
    }

    fn indexed(files: Vec<Arc<FileSymbols>>, current: usize) -> Self {
        let mut by_name: HashMap<u64, Vec<(usize, usize)>> = HashMap::new();
        let mut by_owner: HashMap<u64, Vec<(usize, usize)>> = HashMap::new();
        for (f, file) in files.iter().enumerate() {
            for (d, definition) in file.definitions.iter().enumerate() {
                if definition.kind == SymbolKind::Sequence {
                    if let Some(owner) = &definition.owner {
                        by_owner.entry(name_hash(owner)).or_default().push((f, d));
                    }
                } else {
                    by_name.entry(name_hash(&definition.name)).or_default().push((f, d));
                }
            }
        }
        Self { files, current, by_name, by_owner }
    }

    fn found(&self, (f, d): (usize, usize)) -> Option<Found<'_>> {
        let definition = self.files.get(f)?.definitions.get(d)?;
        Some(Found { definition, file: self.file_of(f), file_index: f, index: d })
    }

    /// Every definition (sequences excluded) named `name`, in file order.
    pub fn named<'a>(&'a self, name: &'a str) -> impl Iterator<Item = Found<'a>> {
        self.by_name
            .get(&name_hash(name))
            .into_iter()
            .flatten()
            .filter_map(|&at| self.found(at))
            .filter(move |f| f.definition.name.eq_ignore_ascii_case(name))
    }

    /// `current` together with `others` (the package's files as read from disk; an entry for
    /// the same path is replaced by `current`).
    pub fn with_package(current: FileSymbols, others: &[Arc<FileSymbols>]) -> Self {
        // `Classes/X.uc` checked from inside its package folder is `./Classes/X.uc` as the
        // package's files are listed from `.`: one file.
        let without_dot = |p: &Path| -> PathBuf {
            p.components().skip_while(|c| matches!(c, std::path::Component::CurDir)).collect()
        };
        let current_file = current.file.as_deref().map(without_dot);
        let mut files: Vec<Arc<FileSymbols>> = others
            .iter()
            .filter(|f| f.file.is_none() || f.file.as_deref().map(without_dot) != current_file)
            .cloned()
            .collect();
        files.sort_by(|a, b| a.file.cmp(&b.file));
        let at = files.partition_point(|f| f.file < current.file);
        files.insert(at, Arc::new(current));
        Self::indexed(files, at)
    }

    /// The first macro file a class of the package calls (`#call`), the current class's
    /// first: the package may define names no directive shows.
    pub fn macro_call(&self) -> Option<&str> {
        let current = self.files.get(self.current).into_iter();
        current.chain(&self.files).find_map(|f| f.macro_calls.first()).map(|(_, m)| m.as_str())
    }

    pub fn current_file(&self) -> Option<&FileSymbols> {
        self.files.get(self.current).map(AsRef::as_ref)
    }

    fn file_of(&self, index: usize) -> Option<&Path> {
        if index == self.current {
            None
        } else {
            self.files.get(index).and_then(|f| f.file.as_deref())
        }
    }

    /// Every definition, current file first, then the others in path order.
    pub fn all(&self) -> impl Iterator<Item = Found<'_>> {
        let order = std::iter::once(self.current)
            .chain((0..self.files.len()).filter(move |&i| i != self.current));
        order.flat_map(move |i| {
            self.files.get(i).into_iter().flat_map(move |f| {
                f.definitions.iter().enumerate().map(move |(index, definition)| Found {
                    definition,
                    file: self.file_of(i),
                    file_index: i,
                    index,
                })
            })
        })
    }

    /// Definitions of `kind` named `name` (case-insensitive), current file first.
    pub fn find<'a>(&'a self, kind: SymbolKind, name: &'a str) -> impl Iterator<Item = Found<'a>> {
        let mut found: Vec<Found<'a>> =
            self.named(name).filter(|f| f.definition.kind == kind).collect();
        found.sort_by_key(|f| f.file_index != self.current);
        found.into_iter()
    }

    /// The mesh named `name` and how it was imported.
    pub fn mesh<'a>(&'a self, name: &'a str) -> Option<Found<'a>> {
        self.find(SymbolKind::Mesh, name).next()
    }

    /// Sequences defined for a mesh, in file order.
    pub fn sequences<'a>(&'a self, mesh: &'a str) -> impl Iterator<Item = Found<'a>> {
        self.by_owner
            .get(&name_hash(mesh))
            .into_iter()
            .flatten()
            .filter_map(|&at| self.found(at))
            .filter(move |f| {
                f.definition.owner.as_deref().is_some_and(|o| o.eq_ignore_ascii_case(mesh))
            })
    }

    /// Every `SETTEXTURE` of a mesh, in any file.
    pub fn assignments_of<'a>(
        &'a self,
        mesh: &'a str,
    ) -> impl Iterator<Item = &'a SlotAssignment> + 'a {
        self.files
            .iter()
            .flat_map(move |f| f.slots.iter().filter(move |s| s.mesh.eq_ignore_ascii_case(mesh)))
    }

    /// Every `SETTEXTURE` slot given to a mesh, in any file.
    pub fn slots_of<'a>(&'a self, mesh: &'a str) -> impl Iterator<Item = i64> + 'a {
        self.files.iter().flat_map(move |f| {
            f.slots.iter().filter(move |s| s.mesh.eq_ignore_ascii_case(mesh)).map(|s| s.num)
        })
    }

    /// Every reference to an object named `name` (case-insensitive) in the package, with the
    /// index of its file, current file first.
    pub fn references_to<'a>(
        &'a self,
        name: &'a str,
    ) -> impl Iterator<Item = (usize, &'a super::references::Reference)> + 'a {
        let order = std::iter::once(self.current)
            .chain((0..self.files.len()).filter(move |&i| i != self.current));
        order.flat_map(move |i| {
            self.files.get(i).into_iter().flat_map(move |f| {
                f.references.iter().filter(move |r| r.names(name)).map(move |r| (i, r))
            })
        })
    }

    /// Every reference in the package, with the index of its file, current file first.
    pub fn references(&self) -> impl Iterator<Item = (usize, &super::references::Reference)> {
        let order = std::iter::once(self.current)
            .chain((0..self.files.len()).filter(move |&i| i != self.current));
        order.flat_map(move |i| {
            self.files
                .get(i)
                .into_iter()
                .flat_map(move |f| f.references.iter().map(move |r| (i, r)))
        })
    }

    /// Every `LOAD` in the package.
    pub fn loads(&self) -> impl Iterator<Item = &LoadedPackage> {
        self.files.iter().flat_map(|f| f.loads.iter())
    }

    pub fn file_path(&self, index: usize) -> Option<&Path> {
        self.file_of(index)
    }
}
