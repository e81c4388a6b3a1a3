//! The package index: every package of a game installation (and of configured package
//! folders) with its export table, read once. It answers "is there a texture `checkers_base`",
//! "which package is `Botpack`", "what class is `Engine.Light`" for the `#exec` checks, the
//! T3D reference rules, hover, completion and the previews.
//!
//! Lazy in two ways: building reads only each package's header and tables (large files are
//! mapped, so only the pages of the tables are touched), and object data (a texture's pixels,
//! a TextBuffer's source) is read when asked for, through [`PackageIndex::with_package`].
//! Names compare case-insensitively, as the engine's do.

pub mod class_sources;
pub mod classes;
pub mod game_folder;
mod lookup;
mod search;

use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

use unreal_formats::package::Package;

use crate::fs::{FileSystem, RealFs};

pub use classes::{ClassDefaults, ClassFacts, ClassOrigin, CompiledClass, DefaultValue};
pub use lookup::{edit_distance, is_texture_class, nearest, Lookup, ObjectKind};
pub use search::{AssetHit, AssetKind, AssetSearch, DEFAULT_LIMIT};

/// Folders of a game installation that hold packages (`System/*.u`, `Textures/*.utx`, ...),
/// in the order a name found twice is taken from (the first wins).
pub const GAME_PACKAGE_FOLDERS: &[&str] =
    &["System", "Textures", "Sounds", "Music", "Maps", "StaticMeshes", "Animations"];

/// Extensions of package files, UE1 and UE2.
pub const PACKAGE_EXTENSIONS: &[&str] =
    &["u", "utx", "uax", "umx", "unr", "usx", "ukx", "usm", "ut2"];

/// How deep a folder that is not laid out as a game (a package path, or a game folder without
/// `System/`...) is searched for packages.
const MAX_SCAN_DEPTH: usize = 4;

/// Bounds of one search for packages, so that a root set too wide (`game-dir = "/"`) costs
/// seconds, not a walk of the whole disk: folders listed, package files kept, time spent. A
/// real game folder has a few hundred folders and packages.
const MAX_WALK_FOLDERS: usize = 20_000;
const MAX_WALK_PACKAGES: usize = 20_000;
const MAX_WALK_TIME: std::time::Duration = std::time::Duration::from_secs(10);

/// Folders never searched, nor anything under them: the kernel's pseudo file systems, whose
/// files are not packages and whose trees are endless (`/proc/self/root/...`) or block when
/// read.
pub(crate) const PSEUDO_FILE_SYSTEMS: &[&str] = &["/proc", "/sys", "/dev"];
/// Folders not searched themselves, though what is mounted below them may be a game folder
/// (removable drives appear under `/run/media/USER/`).
const PSEUDO_FOLDERS: &[&str] = &["/run"];

/// The package files a search found, and what it left out (said to the user).
#[derive(Debug, Default)]
pub struct Discovered {
    pub files: Vec<PathBuf>,
    pub notes: Vec<String>,
}

/// One bounded search.
struct Walk {
    found: Discovered,
    folders: usize,
    /// The real paths of the folders searched: a link back to one of them (a loop, or a
    /// second route to the same packages) is not searched again.
    searched: std::collections::HashSet<PathBuf>,
    started: std::time::Instant,
    stopped: bool,
}

impl Walk {
    fn new() -> Self {
        Self {
            found: Discovered::default(),
            folders: 0,
            searched: std::collections::HashSet::new(),
            started: std::time::Instant::now(),
            stopped: false,
        }
    }

    /// False once a bound is reached (the first time, says which and where), for a pseudo
    /// file system (said), and for a folder already searched by another route (`real`: its
    /// path with links resolved, when the file system knows it).
    fn may_enter(&mut self, dir: &Path, real: Option<&Path>) -> bool {
        if self.stopped {
            return false;
        }
        let why = if self.folders >= MAX_WALK_FOLDERS {
            Some(format!("{MAX_WALK_FOLDERS} folders"))
        } else if self.found.files.len() >= MAX_WALK_PACKAGES {
            Some(format!("{MAX_WALK_PACKAGES} package files"))
        } else if self.started.elapsed() >= MAX_WALK_TIME {
            Some(format!("{} s", MAX_WALK_TIME.as_secs()))
        } else {
            None
        };
        if let Some(why) = why {
            self.stopped = true;
            self.found.notes.push(format!(
                "the search for packages stopped after {why} (at {}); the packages found so far are indexed: point the game folder at the game's own folder",
                dir.display()
            ));
            return false;
        }
        let pseudo = |path: &Path| {
            PSEUDO_FILE_SYSTEMS.iter().any(|p| path.starts_with(p))
                || PSEUDO_FOLDERS.iter().any(|p| path == Path::new(p))
        };
        if pseudo(dir) || real.is_some_and(pseudo) {
            self.found.notes.push(format!(
                "{} is not searched for packages: it is a pseudo file system",
                dir.display()
            ));
            return false;
        }
        if !self.searched.insert(real.unwrap_or(dir).to_path_buf()) {
            return false;
        }
        self.folders += 1;
        true
    }
}

/// True when `name` ends in a package extension, or is a compressed package
/// (`CTF-Face.unr.uz`, `Rock.utx.uz2`): indexed as the package it holds.
pub fn is_package_file(name: &str) -> bool {
    let name = unreal_formats::uz::inner_file_name(name).unwrap_or(name);
    name.rsplit_once('.')
        .is_some_and(|(_, ext)| PACKAGE_EXTENSIONS.iter().any(|e| e.eq_ignore_ascii_case(ext)))
}

/// Where packages and class sources are looked for.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct IndexRoots {
    /// The game installation (the folder holding `System/`, `Textures/`...). A folder without
    /// any of those is searched as a plain folder of packages.
    pub game_dir: Option<PathBuf>,
    /// More folders of packages (`package-paths` in `unreal-ls.toml`), searched after the
    /// game's own folders. Their packages' `Classes/*.uc` are class sources too.
    pub package_paths: Vec<PathBuf>,
    /// Folders whose packages' `Classes/*.uc` are class sources, and nothing more (no
    /// package file is looked for there): the folders `lint` checks, the editor's workspace
    /// folders. A mod's classes are so known without an installation
    /// ([`class_sources::read_sources`]).
    pub source_paths: Vec<PathBuf>,
}

impl IndexRoots {
    /// True when packages are looked for (a game folder or package paths): references to
    /// textures, classes and objects can be checked against them. Without, an index knows
    /// at most the classes of the sources, never a stock class (`Light`), and the checks of
    /// references stay quiet.
    pub fn knows_packages(&self) -> bool {
        self.game_dir.is_some() || !self.package_paths.is_empty()
    }

    /// True when an index of these roots would read anything: packages, or class sources
    /// alone.
    pub fn reads_anything(&self) -> bool {
        self.knows_packages() || !self.source_paths.is_empty()
    }

    /// True when a changed file at `path` may be one of the packages the index reads.
    pub fn covers(&self, path: &Path) -> bool {
        self.game_dir.iter().chain(&self.package_paths).any(|root| path.starts_with(root))
    }

    /// True when `path` may be a class source the index reads: a `.uc` file in a `Classes`
    /// folder, as deep under the game folder, a source path or a package path as
    /// [`class_sources::read_sources`] looks (`<game>/<Package>/Classes/A.uc`;
    /// `<path>/Classes/A.uc`, `<path>/<Package>/Classes/A.uc` or
    /// `<path>/<Folder>/<Package>/Classes/A.uc`).
    pub fn covers_class_source(&self, path: &Path) -> bool {
        let is_uc = path.extension().is_some_and(|e| e.eq_ignore_ascii_case("uc"));
        let in_classes = path
            .parent()
            .and_then(Path::file_name)
            .is_some_and(|n| n.eq_ignore_ascii_case("Classes"));
        if !is_uc || !in_classes {
            return false;
        }
        // Components between the root and the file, `Classes` and the file included.
        let depth =
            |root: &Path| path.strip_prefix(root).ok().map(|rest| rest.components().count());
        let in_game = self.game_dir.as_deref().and_then(depth) == Some(3);
        in_game
            || self
                .source_paths
                .iter()
                .chain(&self.package_paths)
                .filter_map(|root| depth(root))
                .any(|d| (2..=4).contains(&d))
    }
}

/// Hover facts of one object, `(key, value)`.
type Details = Arc<Vec<(String, String)>>;

/// One export of an indexed package.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IndexedObject {
    pub name: Box<str>,
    /// The class name without its package (`Texture`, `Class`, `Sound`).
    pub class: Box<str>,
    /// `Group.Name` inside the package (without the package's own name).
    pub path: Box<str>,
    /// The export's index in the package's export table.
    pub export: u32,
}

/// One package file and its export table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IndexedPackage {
    /// The name objects are qualified with: the file name without its extension.
    pub name: String,
    pub path: PathBuf,
    pub version: u16,
    pub licensee: u16,
    pub objects: Vec<IndexedObject>,
    /// The package's classes, with their parents and flags ([`classes`]).
    pub classes: Vec<CompiledClass>,
    /// Why the tables could not be read (the reader's precise error); the package is then
    /// known by name only.
    pub error: Option<String>,
}

impl IndexedPackage {
    fn read(fs: &dyn FileSystem, path: &Path) -> Self {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy())
            .filter(|n| n.contains('.'))
            .map(|n| unreal_formats::package_name(&n).to_owned())
            .unwrap_or_default();
        let mut package = IndexedPackage {
            name,
            path: path.to_path_buf(),
            version: 0,
            licensee: 0,
            objects: Vec::new(),
            classes: Vec::new(),
            error: None,
        };
        let Some(bytes) = fs.open(path) else {
            package.error = Some(fs.why_unreadable(path));
            return package;
        };
        // A compressed package is decompressed (bounded) and indexed as the package it holds.
        let unpacked = match unreal_formats::package_bytes(&bytes) {
            Ok(unpacked) => unpacked,
            Err(err) => {
                package.error = Some(err.to_string());
                return package;
            }
        };
        match Package::parse(&unpacked) {
            Ok(parsed) => {
                package.version = parsed.header.version;
                package.licensee = parsed.header.licensee;
                package.objects = parsed
                    .objects()
                    .map(|o| IndexedObject {
                        name: o.name.into(),
                        class: o.class.into(),
                        path: o.path.into(),
                        export: u32::try_from(o.export).unwrap_or(u32::MAX),
                    })
                    .collect();
                package.classes = classes::compiled_classes(&parsed, &package.name);
            }
            Err(err) => package.error = Some(err.to_string()),
        }
        if let Err(err) = bytes.check() {
            package.objects.clear();
            package.classes.clear();
            package.error = Some(err.to_string());
        }
        package
    }

    /// The object at `Group.Name` (case-insensitive).
    pub fn find(&self, path: &str) -> Option<&IndexedObject> {
        self.objects.iter().find(|o| o.path.eq_ignore_ascii_case(path))
    }

    /// True when any object of the package is named `name` (in any group).
    pub fn has_object_named(&self, name: &str) -> bool {
        self.objects.iter().any(|o| o.name.eq_ignore_ascii_case(name))
    }
}

/// What [`PackageIndex::build`] reports as it goes, for progress displays.
#[derive(Clone, Copy, Debug)]
pub struct IndexProgress<'a> {
    pub done: usize,
    pub total: usize,
    /// The package about to be read.
    pub path: &'a Path,
}

/// An object of the index: package number and object number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ObjectId {
    pub package: u32,
    pub object: u32,
}

/// The index. Immutable once built: a refresh makes a new one (sharing the packages that did
/// not change), so readers never see a half-updated index.
pub struct PackageIndex {
    roots: IndexRoots,
    fs: Arc<dyn FileSystem>,
    packages: Vec<Arc<IndexedPackage>>,
    /// Lowercased package name -> package number (the first file of a name wins).
    by_name: HashMap<String, u32>,
    /// Lowercased object name -> every object of that name.
    by_object: HashMap<String, Vec<ObjectId>>,
    /// Package files whose name an earlier one already took.
    shadowed: Vec<PathBuf>,
    /// What the search for package files and class sources left out (bounds reached,
    /// pseudo file systems).
    walk_notes: Vec<String>,
    /// Hover facts per object (texture size and thumbnail), computed once.
    details: Mutex<HashMap<ObjectId, Details>>,
    /// The name search over every asset ([`PackageIndex::asset_search`]), built once.
    search: std::sync::OnceLock<AssetSearch>,
    /// Classes declared in sources (`<Package>/Classes/*.uc` of the game folder, the source
    /// paths and the package paths), compiled or not ([`class_sources`]).
    source_classes: Arc<Vec<class_sources::SourceClass>>,
    /// Lowercased class name -> its declarations among `source_classes`.
    by_source_class: HashMap<String, Vec<u32>>,
    /// Lowercased class name -> (package number, class number) of each compiled class of
    /// that name, in package order (shadowed packages left out).
    by_compiled_class: HashMap<String, Vec<(u32, u32)>>,
    /// The `defaultproperties` of source files, read when first asked for ([`classes`]).
    source_defaults: Mutex<HashMap<PathBuf, Arc<ClassDefaults>>>,
    /// Package number -> the defaults of its compiled classes, printed when first asked for.
    compiled_defaults: Mutex<HashMap<usize, Arc<classes::PackageDefaults>>>,
    /// `package.class.property` (lowercased) -> the names of its enum, found once.
    enum_names: Mutex<HashMap<String, Option<Arc<Vec<String>>>>>,
}

impl fmt::Debug for PackageIndex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PackageIndex")
            .field("roots", &self.roots)
            .field("packages", &self.packages.len())
            .field("objects", &self.object_count())
            .finish_non_exhaustive()
    }
}

impl Default for PackageIndex {
    fn default() -> Self {
        Self::from_packages(Arc::new(RealFs), IndexRoots::default(), Vec::new())
    }
}

impl PackageIndex {
    /// Lists the package files under the roots, in the order names are taken: the game's
    /// folders in [`GAME_PACKAGE_FOLDERS`] order, then each package path. The search is
    /// bounded (folders, packages, time) and skips pseudo file systems; the notes say what
    /// it left out.
    pub fn discover(fs: &dyn FileSystem, roots: &IndexRoots) -> Discovered {
        let mut walk = Walk::new();
        if let Some(game) = &roots.game_dir {
            let top = fs.read_dir(game).unwrap_or_default();
            let mut laid_out = false;
            for wanted in GAME_PACKAGE_FOLDERS {
                for folder in top.iter().filter(|e| e.is_dir && e.name.eq_ignore_ascii_case(wanted))
                {
                    laid_out = true;
                    scan(fs, &game.join(&folder.name), 0, &mut walk);
                }
            }
            if !laid_out {
                scan(fs, game, MAX_SCAN_DEPTH, &mut walk);
            }
            // The folders and extensions the game's ini files add (`Paths=../Art/*.pkg`).
            let system = top.iter().find(|e| e.is_dir && e.name.eq_ignore_ascii_case("System"));
            if let Some(system) = system {
                for (folder, ext) in game_folder::ini_package_paths(fs, &game.join(&system.name)) {
                    for entry in fs.read_dir(&folder).unwrap_or_default() {
                        let matches = !entry.is_dir
                            && Path::new(&entry.name)
                                .extension()
                                .is_some_and(|e| e.eq_ignore_ascii_case(&ext));
                        let path = folder.join(&entry.name);
                        if matches
                            && walk.found.files.len() < MAX_WALK_PACKAGES
                            && !walk.found.files.contains(&path)
                        {
                            walk.found.files.push(path);
                        }
                    }
                }
            }
        }
        for dir in &roots.package_paths {
            scan(fs, dir, MAX_SCAN_DEPTH, &mut walk);
        }
        walk.found
    }

    /// Reads the tables of every package under the roots.
    pub fn build(
        fs: Arc<dyn FileSystem>,
        roots: IndexRoots,
        progress: &mut dyn FnMut(IndexProgress<'_>),
    ) -> Self {
        let Discovered { files, notes } = Self::discover(&*fs, &roots);
        let total = files.len();
        let mut packages = Vec::with_capacity(total);
        for (done, path) in files.iter().enumerate() {
            progress(IndexProgress { done, total, path });
            packages.push(Arc::new(IndexedPackage::read(&*fs, path)));
        }
        let sources = class_sources::read_sources(&*fs, &roots);
        let mut index = Self::from_packages(fs, roots, packages);
        index.walk_notes = notes;
        index.walk_notes.extend(sources.notes);
        index.with_source_classes(Arc::new(sources.classes))
    }

    /// The index with these classes declared in sources ([`class_sources`]).
    pub fn with_source_classes(mut self, classes: Arc<Vec<class_sources::SourceClass>>) -> Self {
        self.by_source_class.clear();
        for (number, class) in classes.iter().enumerate() {
            let number = u32::try_from(number).unwrap_or(u32::MAX);
            self.by_source_class.entry(class.name.to_ascii_lowercase()).or_default().push(number);
        }
        self.source_classes = classes;
        self
    }

    /// The classes declared in sources: the game folder's, the source paths' and the
    /// package paths' (`<Package>/Classes/*.uc`).
    pub fn source_classes(&self) -> &[class_sources::SourceClass] {
        &self.source_classes
    }

    /// The source declarations of classes named `name` (any case).
    pub fn source_classes_named(
        &self,
        name: &str,
    ) -> impl Iterator<Item = &class_sources::SourceClass> {
        self.by_source_class
            .get(&name.to_ascii_lowercase())
            .into_iter()
            .flatten()
            .filter_map(|&i| self.source_classes.get(i as usize))
    }

    /// Builds over the machine's file system without progress reports.
    pub fn build_real(roots: IndexRoots) -> Self {
        Self::build(Arc::new(RealFs), roots, &mut |_| {})
    }

    /// An index of packages read elsewhere (tests build one from plain data).
    pub fn from_packages(
        fs: Arc<dyn FileSystem>,
        roots: IndexRoots,
        packages: Vec<Arc<IndexedPackage>>,
    ) -> Self {
        let mut index = Self {
            roots,
            fs,
            packages,
            by_name: HashMap::new(),
            by_object: HashMap::new(),
            shadowed: Vec::new(),
            walk_notes: Vec::new(),
            details: Mutex::default(),
            search: std::sync::OnceLock::new(),
            source_classes: Arc::default(),
            by_source_class: HashMap::new(),
            by_compiled_class: HashMap::new(),
            source_defaults: Mutex::default(),
            compiled_defaults: Mutex::default(),
            enum_names: Mutex::default(),
        };
        for (number, package) in index.packages.iter().enumerate() {
            let number = u32::try_from(number).unwrap_or(u32::MAX);
            let key = package.name.to_ascii_lowercase();
            if index.by_name.contains_key(&key) {
                index.shadowed.push(package.path.clone());
                continue;
            }
            index.by_name.insert(key, number);
            for (object, entry) in package.objects.iter().enumerate() {
                let id = ObjectId { package: number, object: u32::try_from(object).unwrap_or(0) };
                index.by_object.entry(entry.name.to_ascii_lowercase()).or_default().push(id);
            }
            for (class, entry) in package.classes.iter().enumerate() {
                let class = u32::try_from(class).unwrap_or(u32::MAX);
                let key = entry.name.to_ascii_lowercase();
                index.by_compiled_class.entry(key).or_default().push((number, class));
            }
        }
        index
    }

    /// An index from plain data, for tests and examples: `(package, [(class, Group.Name)])`.
    /// The packages have no file behind them (object data cannot be read).
    pub fn from_listing(listing: &[(&str, &[(&str, &str)])]) -> Self {
        let packages = listing
            .iter()
            .map(|(name, objects)| {
                Arc::new(IndexedPackage {
                    name: (*name).to_owned(),
                    path: PathBuf::from(format!("{name}.u")),
                    version: 69,
                    licensee: 0,
                    objects: objects
                        .iter()
                        .enumerate()
                        .map(|(export, (class, path))| IndexedObject {
                            name: path.rsplit('.').next().unwrap_or(path).into(),
                            class: (*class).into(),
                            path: (*path).into(),
                            export: u32::try_from(export).unwrap_or(u32::MAX),
                        })
                        .collect(),
                    // Listed without data: their flags are unknown.
                    classes: objects
                        .iter()
                        .enumerate()
                        .filter(|(_, (class, _))| *class == "Class")
                        .map(|(export, (_, path))| CompiledClass {
                            name: path.rsplit('.').next().unwrap_or(path).into(),
                            export: u32::try_from(export).unwrap_or(u32::MAX),
                            parent: None,
                            flags: None,
                            error: Some("listed without its data".to_owned()),
                        })
                        .collect(),
                    error: None,
                })
            })
            .collect();
        let fs = Arc::new(crate::fs::MemoryFs::new());
        Self::from_packages(fs, IndexRoots::default(), packages)
    }

    /// The index with the compiled classes `(name, ClassFlags)` of package `package` read as
    /// if from their data, for tests and examples over [`Self::from_listing`] (whose
    /// classes have no data).
    pub fn with_compiled_class_flags(self, package: &str, flags: &[(&str, u32)]) -> Self {
        let mut packages = self.packages.clone();
        for indexed in &mut packages {
            if !indexed.name.eq_ignore_ascii_case(package) {
                continue;
            }
            let indexed = Arc::make_mut(indexed);
            for class in &mut indexed.classes {
                if let Some((_, value)) =
                    flags.iter().find(|(name, _)| class.name.eq_ignore_ascii_case(name))
                {
                    class.flags = Some(*value);
                    class.error = None;
                }
            }
        }
        let mut index = Self::from_packages(Arc::clone(&self.fs), self.roots.clone(), packages);
        index.walk_notes.clone_from(&self.walk_notes);
        index.with_source_classes(Arc::clone(&self.source_classes))
    }

    /// The index with package `package`'s header numbers (`version`, `licensee`) set, for
    /// tests and examples over [`Self::from_listing`] (whose packages say version 69,
    /// licensee 0).
    pub fn with_package_header(mut self, package: &str, version: u16, licensee: u16) -> Self {
        for indexed in &mut self.packages {
            if indexed.name.eq_ignore_ascii_case(package) {
                let indexed = Arc::make_mut(indexed);
                indexed.version = version;
                indexed.licensee = licensee;
            }
        }
        self
    }

    /// A new index after files changed on disk: packages among `changed` (or new under the
    /// roots) are read again, vanished ones dropped, the others shared. `None` when no
    /// changed path concerns the index.
    pub fn refreshed(&self, changed: &[PathBuf]) -> Option<Self> {
        let relevant = changed.iter().any(|path| {
            self.packages.iter().any(|p| &p.path == path)
                || (self.roots.covers(path)
                    && path.file_name().is_some_and(|n| is_package_file(&n.to_string_lossy())))
        });
        let sources_changed = changed.iter().any(|path| self.is_class_source(path));
        if !relevant && !sources_changed {
            return None;
        }
        let sources = if sources_changed {
            Arc::new(class_sources::read_sources(&*self.fs, &self.roots).classes)
        } else {
            Arc::clone(&self.source_classes)
        };
        if !relevant {
            // Most saves of a class leave its declaration as it was: nothing to rebuild,
            // unless the `defaultproperties` block read for this index changed.
            if sources == self.source_classes
                && !changed.iter().any(|path| self.source_defaults_changed(path))
            {
                return None;
            }
            let packages = self.packages.clone();
            let mut index = Self::from_packages(Arc::clone(&self.fs), self.roots.clone(), packages);
            index.walk_notes.clone_from(&self.walk_notes);
            return Some(index.with_source_classes(sources));
        }
        let Discovered { files, notes } = Self::discover(&*self.fs, &self.roots);
        let packages = files
            .iter()
            .map(|path| {
                let old = self.packages.iter().find(|p| &p.path == path);
                match old {
                    Some(old) if !changed.contains(path) => Arc::clone(old),
                    _ => Arc::new(IndexedPackage::read(&*self.fs, path)),
                }
            })
            .collect();
        let mut index = Self::from_packages(Arc::clone(&self.fs), self.roots.clone(), packages);
        index.walk_notes = notes;
        Some(index.with_source_classes(sources))
    }

    /// True for a class source the index reads (or would, were it new): see
    /// [`IndexRoots::covers_class_source`].
    fn is_class_source(&self, path: &Path) -> bool {
        self.roots.covers_class_source(path)
    }

    pub fn roots(&self) -> &IndexRoots {
        &self.roots
    }

    pub fn is_empty(&self) -> bool {
        self.packages.is_empty()
    }

    /// True when references may be checked against this index: it was built to read
    /// packages ([`IndexRoots::knows_packages`]), or holds some (an index made from plain
    /// data). False for an index of class sources alone, which knows no stock class or
    /// texture: the reference rules treat it as no index, the class rules read it.
    pub fn knows_packages(&self) -> bool {
        self.roots.knows_packages() || !self.packages.is_empty()
    }

    /// Every package file, in the order they were found (shadowed ones included).
    pub fn packages(&self) -> &[Arc<IndexedPackage>] {
        &self.packages
    }

    pub fn object_count(&self) -> usize {
        self.packages.iter().map(|p| p.objects.len()).sum()
    }

    /// Package files that another of the same name hides.
    pub fn shadowed(&self) -> &[PathBuf] {
        &self.shadowed
    }

    /// What the search for package files left out, to be said to the user.
    pub fn walk_notes(&self) -> &[String] {
        &self.walk_notes
    }

    /// The package named `name` (case-insensitive).
    pub fn package(&self, name: &str) -> Option<&IndexedPackage> {
        let number = *self.by_name.get(&name.to_ascii_lowercase())?;
        self.packages.get(number as usize).map(|p| &**p)
    }

    /// The file of the package named `name` (`botpack` -> `System/Botpack.u`).
    pub fn get(&self, name: &str) -> Option<&PathBuf> {
        self.package(name).map(|p| &p.path)
    }

    /// Package names, in index order (each once).
    pub fn package_names(&self) -> impl Iterator<Item = &str> {
        self.packages
            .iter()
            .enumerate()
            .filter(|(i, p)| {
                self.by_name.get(&p.name.to_ascii_lowercase()).is_some_and(|n| *n as usize == *i)
            })
            .map(|(_, p)| p.name.as_str())
    }

    /// The package and object behind an id.
    pub fn entry(&self, id: ObjectId) -> Option<(&IndexedPackage, &IndexedObject)> {
        let package = self.packages.get(id.package as usize)?;
        Some((package, package.objects.get(id.object as usize)?))
    }

    /// `Package.Group.Name` of an object.
    pub fn full_path(&self, id: ObjectId) -> String {
        self.entry(id).map_or_else(String::new, |(p, o)| format!("{}.{}", p.name, o.path))
    }

    /// Every object named `name` (case-insensitive), in any package and group.
    pub fn objects_named(&self, name: &str) -> &[ObjectId] {
        self.by_object.get(&name.to_ascii_lowercase()).map_or(&[], Vec::as_slice)
    }

    /// The object at `Package.Group.Name` (case-insensitive; the groups must match).
    pub fn find(&self, full: &str) -> Option<ObjectId> {
        self.find_of_class(full, None)
    }

    /// [`Self::find`], preferring an object of `class` where several share the path (a
    /// `.ukx` holds a `SkeletalMesh` and a `MeshAnimation` of one name): a reference written
    /// `SkeletalMesh'Weapons.AssaultRifle_1st'` is the mesh.
    pub fn find_of_class(&self, full: &str, class: Option<&str>) -> Option<ObjectId> {
        let (package, rest) = full.split_once('.')?;
        let number = *self.by_name.get(&package.to_ascii_lowercase())?;
        let found = self.packages.get(number as usize)?;
        let at = |o: &IndexedObject| o.path.eq_ignore_ascii_case(rest);
        let object = class
            .and_then(|c| {
                found.objects.iter().position(|o| at(o) && o.class.eq_ignore_ascii_case(c))
            })
            .or_else(|| found.objects.iter().position(at))?;
        Some(ObjectId { package: number, object: u32::try_from(object).ok()? })
    }

    /// Opens a package's file and runs `f` over the parsed package (object data is read from
    /// the file as `f` asks for it). The error names the file and what went wrong.
    pub fn with_package<R>(
        &self,
        package: &IndexedPackage,
        f: impl FnOnce(&Package<'_>) -> R,
    ) -> Result<R, String> {
        let path = package.path.display();
        let bytes = self.fs.open(&package.path).ok_or_else(|| format!("{path}: cannot be read"))?;
        // A compressed package is read from its one decompressed copy (bounded, shared with
        // the previews: `crate::unpacked`): object data is read from it.
        let result = crate::unpacked::package_bytes(&package.path, &bytes)
            .map_err(|e| format!("{path}: {e}"))
            .and_then(|unpacked| {
                Package::parse_named(&unpacked, &package.name)
                    .map(|parsed| f(&parsed))
                    .map_err(|e| format!("{path}: {e}"))
            });
        // A file cut short meanwhile (a rebuild) read as zeros: that is the error, whatever
        // the parse made of them.
        if let Err(e) = bytes.check() {
            crate::unpacked::forget(&package.path, &bytes);
            return Err(format!("{path}: {e}"));
        }
        result
    }

    /// The hover facts of `id`, computed once ([`crate::ide::t3d::package_facts`]) and kept.
    pub(crate) fn cached_details(
        &self,
        id: ObjectId,
        compute: impl FnOnce() -> Vec<(String, String)>,
    ) -> Details {
        let lock = || self.details.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(found) = lock().get(&id) {
            return Arc::clone(found);
        }
        let computed = Arc::new(compute());
        Arc::clone(lock().entry(id).or_insert(computed))
    }
}

/// Package files in `dir`, and in its subfolders down to `depth` more levels, within the
/// walk's bounds.
fn scan(fs: &dyn FileSystem, dir: &Path, depth: usize, walk: &mut Walk) {
    if !walk.may_enter(dir, fs.real_path(dir).as_deref()) {
        return;
    }
    let Some(entries) = fs.read_dir(dir) else { return };
    for entry in &entries {
        if !entry.is_dir && is_package_file(&entry.name) {
            walk.found.files.push(dir.join(&entry.name));
        }
    }
    if depth == 0 {
        return;
    }
    for entry in entries.iter().filter(|e| e.is_dir && !e.name.starts_with('.')) {
        scan(fs, &dir.join(&entry.name), depth - 1, walk);
    }
}
