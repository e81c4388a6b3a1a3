//! [`ExecEnv`]: the file system, the engine the checks target, and the caches shared by every
//! file of a lint run (folder listings, binary file facts, package symbol tables, the game
//! directory's package index). It is `Sync`: one value serves all threads, and each file on
//! disk is read once.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use unreal_engine::Generation;

use super::facts::{self, Expect, FileFacts};
use super::preprocessor::{Defines, Mode, Preprocessed};
use super::symbols::FileSymbols;
use crate::fs::{DirEntry, FileSystem, RealFs};
use crate::index::{IndexRoots, PackageIndex};
use crate::options::LintOptions;

type Cache<V> = Mutex<HashMap<PathBuf, V>>;

fn lock<V>(cache: &Cache<V>) -> std::sync::MutexGuard<'_, HashMap<PathBuf, V>> {
    // A panic elsewhere cannot leave a half-written entry: values are inserted whole.
    cache.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Where a symbolic link leads, for [`ExecEnv::follow_link`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LinkTarget {
    /// Into a folder that may be read.
    Inside,
    /// Out of every folder that may be read.
    Outside,
    /// Nowhere (a broken link, a loop, or a file system that cannot tell).
    Nowhere,
}

/// Everything the `#exec` checks need besides the file being checked.
pub struct ExecEnv {
    fs: Arc<dyn FileSystem>,
    /// The generation the settings fix; `None` when unknown (checks then accept what either
    /// generation reads).
    pub generation: Option<Generation>,
    /// The engine build (`436`, `469`); `None` when unknown (checks then accept what the most
    /// permissive build of the generation imports).
    pub engine_build: Option<u32>,
    /// The game the settings name (`None`: not declared).
    pub game: Option<unreal_engine::Game>,
    /// The game installation whose packages `OBJ LOAD` and bare names may refer to.
    pub game_dir: Option<PathBuf>,
    /// Where the package index looks: the game directory, the configured package paths and
    /// the source paths (class sources only).
    roots: IndexRoots,
    dirs: Cache<Option<Arc<[DirEntry]>>>,
    /// Where paths really lead ([`FileSystem::real_path`]), asked only of links and the
    /// folders a link's target is checked against.
    real_paths: Cache<Option<PathBuf>>,
    facts: Mutex<HashMap<(PathBuf, Expect), Arc<FileFacts>>>,
    package_files: Cache<Arc<[Arc<FileSymbols>]>>,
    /// The package index, built on first use (or handed in by the caller).
    packages: OnceLock<Arc<PackageIndex>>,
    /// Per folder: the symbols of the Core `Object.uc` found from it upward (games whose UCC
    /// preprocesses), `None` when there is none.
    core_defines: Cache<Option<Arc<Defines>>>,
}

impl std::fmt::Debug for ExecEnv {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ExecEnv")
            .field("generation", &self.generation)
            .field("engine_build", &self.engine_build)
            .field("game_dir", &self.game_dir)
            .finish_non_exhaustive()
    }
}

impl ExecEnv {
    /// An environment over the given file system.
    pub fn new(fs: Arc<dyn FileSystem>, options: &LintOptions) -> Self {
        let game = options.game.or_else(|| {
            options.game_dir.as_deref().and_then(|dir| game_of_folder(fs.as_ref(), dir))
        });
        let generation = super::generation_of(options, game);
        let packages = OnceLock::new();
        if let Some(index) = &options.packages {
            let _ = packages.set(Arc::clone(index));
        }
        Self {
            fs,
            generation,
            engine_build: super::engine_build_of(options, game),
            game,
            game_dir: options.game_dir.clone(),
            roots: options.index_roots(),
            dirs: Mutex::default(),
            real_paths: Mutex::default(),
            facts: Mutex::default(),
            package_files: Mutex::default(),
            packages,
            core_defines: Mutex::default(),
        }
    }

    /// An environment over the machine's file system.
    pub fn real(options: &LintOptions) -> Self {
        Self::new(Arc::new(RealFs), options)
    }

    /// Forgets everything read from disk (after files changed).
    pub fn clear(&self) {
        lock(&self.dirs).clear();
        lock(&self.real_paths).clear();
        self.facts.lock().unwrap_or_else(PoisonError::into_inner).clear();
        lock(&self.package_files).clear();
        lock(&self.core_defines).clear();
    }

    /// A folder's entries, listed once.
    pub fn list_dir(&self, dir: &Path) -> Option<Arc<[DirEntry]>> {
        if let Some(entries) = lock(&self.dirs).get(dir) {
            return entries.clone();
        }
        let entries: Option<Arc<[DirEntry]>> = self.fs.read_dir(dir).map(Into::into);
        lock(&self.dirs).insert(dir.to_path_buf(), entries.clone());
        entries
    }

    /// True when `dir` has a `Classes` folder (any case).
    pub fn has_classes_dir(&self, dir: &Path) -> bool {
        self.list_dir(dir).is_some_and(|entries| {
            entries.iter().any(|e| e.is_dir && e.name.eq_ignore_ascii_case("classes"))
        })
    }

    /// Where `path` really leads (links followed), asked once.
    pub fn real_path(&self, path: &Path) -> Option<PathBuf> {
        if let Some(real) = lock(&self.real_paths).get(path) {
            return real.clone();
        }
        let real = self.fs.real_path(path);
        lock(&self.real_paths).insert(path.to_path_buf(), real.clone());
        real
    }

    /// Where the symbolic link `link` leads, judged against the folders that may be read:
    /// `read_root` (the package folder), the game directory and the package paths. Only the
    /// link is resolved; nothing it leads to is listed or read.
    pub fn follow_link(&self, link: &Path, read_root: &Path) -> LinkTarget {
        let Some(target) = self.real_path(link) else { return LinkTarget::Nowhere };
        let allowed = std::iter::once(read_root)
            .chain(self.roots.game_dir.as_deref())
            .chain(self.roots.package_paths.iter().map(PathBuf::as_path));
        for root in allowed {
            if self.real_path(root).is_some_and(|root| target.starts_with(root)) {
                return LinkTarget::Inside;
            }
        }
        LinkTarget::Outside
    }

    pub fn absolute(&self, path: &Path) -> Option<PathBuf> {
        self.fs.absolute(path)
    }

    pub fn read(&self, path: &Path) -> Option<Vec<u8>> {
        self.fs.read(path)
    }

    /// The file's bytes mapped rather than read (what a size check needs before anything is
    /// copied).
    pub fn open(&self, path: &Path) -> Option<crate::fs::FileBytes> {
        self.fs.open(path)
    }

    /// True when the file is a Git LFS pointer. Asked of every path a class imports when its
    /// package is read, so the file is only mapped: a pointer is at most 1 KiB, and a larger
    /// file is told apart by its length alone.
    pub fn is_lfs_pointer(&self, path: &Path) -> bool {
        self.open(path).is_some_and(|bytes| unreal_formats::lfs::pointer(&bytes).is_some())
    }

    /// The facts of a file, read once per path and expected kind.
    pub fn facts(&self, path: &Path, expect: Expect) -> Arc<FileFacts> {
        let key = (path.to_path_buf(), expect);
        if let Some(found) = self.facts.lock().unwrap_or_else(PoisonError::into_inner).get(&key) {
            return found.clone();
        }
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let read = match self.fs.read(path) {
            Some(bytes) => facts::read(&bytes, &name, expect),
            None => FileFacts::Unopenable,
        };
        let read = Arc::new(read);
        self.facts.lock().unwrap_or_else(PoisonError::into_inner).entry(key).or_insert(read).clone()
    }

    /// The symbols of every class of the package at `root`, read from disk once.
    pub(crate) fn package_files(&self, root: &Path) -> Arc<[Arc<FileSymbols>]> {
        if let Some(found) = lock(&self.package_files).get(root) {
            return found.clone();
        }
        let mut files: Vec<Arc<FileSymbols>> = Vec::new();
        let classes = self.list_dir(root).and_then(|entries| {
            entries
                .iter()
                .find(|e| e.is_dir && e.name.eq_ignore_ascii_case("classes"))
                .map(|e| root.join(&e.name))
        });
        // Epic's UCC compiles `Classes/*.uc`; SWAT 4's also the subfolders' classes.
        let depth = if self.game.is_some_and(unreal_engine::Game::compiles_class_subfolders) {
            super::package::SUBFOLDER_DEPTH
        } else {
            0
        };
        let mut folders: Vec<(PathBuf, usize)> = classes.into_iter().map(|c| (c, 0)).collect();
        while let Some((folder, level)) = folders.pop() {
            for entry in self.list_dir(&folder).iter().flat_map(|e| e.iter()) {
                if entry.is_dir {
                    if level < depth && !entry.is_link {
                        folders.push((folder.join(&entry.name), level + 1));
                    }
                    continue;
                }
                let is_uc = Path::new(&entry.name)
                    .extension()
                    .is_some_and(|e| e.eq_ignore_ascii_case("uc"));
                if !is_uc {
                    continue;
                }
                let path = folder.join(&entry.name);
                let Some(bytes) = self.fs.read(&path) else { continue };
                let text = unreal_syntax::text::decode(&bytes).text.into_owned();
                let analysis = super::FileAnalysis::new(&text, Some(&path), Some(self));
                files.push(Arc::new(analysis.symbols));
            }
        }
        // In path order, as the table expects (subfolders were visited last).
        files.sort_by(|a, b| a.file.cmp(&b.file));
        let files: Arc<[Arc<FileSymbols>]> = files.into();
        lock(&self.package_files).entry(root.to_path_buf()).or_insert(files).clone()
    }

    /// Who preprocesses the class at `file`, with which symbols: the game's UCC (SWAT 4,
    /// Tribes: Vengeance) starting from Core's `Object.uc` when the tree holds it, otherwise
    /// a tool of the project's own whose symbols are not known.
    pub fn preprocessor_mode(&self, file: &Path) -> Mode {
        if !self.game.is_some_and(unreal_engine::Game::preprocesses) {
            return Mode::Tool;
        }
        let defines = file.parent().and_then(|dir| self.core_defines(dir));
        Mode::Compiler(defines.unwrap_or_default())
    }

    /// The symbols of the Core `Object.uc` nearest to `dir`: looked for from `dir` upward
    /// (eight folders at most), at `<folder>/Core/Classes/Object.uc` and one level further
    /// down (`<folder>/*/Core/Classes/Object.uc`: SWAT 4's `Source/Unreal/Core` beside
    /// `Source/Game/SwatGame`). The game folder's compiled `Core.u` keeps no `#define`.
    fn core_defines(&self, dir: &Path) -> Option<Arc<Defines>> {
        if let Some(found) = lock(&self.core_defines).get(dir) {
            return found.clone();
        }
        let child = |dir: &Path, name: &str| {
            self.list_dir(dir)?
                .iter()
                .find(|e| e.is_dir && !e.is_link && e.name.eq_ignore_ascii_case(name))
                .map(|e| dir.join(&e.name))
        };
        let object_uc = |dir: &Path| -> Option<PathBuf> {
            let classes = child(&child(dir, "Core")?, "Classes")?;
            self.list_dir(&classes)?
                .iter()
                .find(|e| !e.is_dir && e.name.eq_ignore_ascii_case("Object.uc"))
                .map(|e| classes.join(&e.name))
        };
        let mut found = None;
        for folder in dir.ancestors().take(8) {
            if folder.as_os_str().is_empty() {
                break;
            }
            found = object_uc(folder).or_else(|| {
                self.list_dir(folder)?
                    .iter()
                    .filter(|e| e.is_dir && !e.is_link)
                    .find_map(|e| object_uc(&folder.join(&e.name)))
            });
            if found.is_some() {
                break;
            }
        }
        let defines = found.and_then(|path| self.fs.read(&path)).map(|bytes| {
            let text = unreal_syntax::text::decode(&bytes).text.into_owned();
            Arc::new(Preprocessed::defines_of(&text))
        });
        lock(&self.core_defines).insert(dir.to_path_buf(), defines.clone());
        defines
    }

    /// The package index of the game directory and the package paths (tables only), with
    /// the class sources of those and of the source paths, built on first use. Empty when
    /// none is set.
    pub fn packages(&self) -> &Arc<PackageIndex> {
        self.packages.get_or_init(|| {
            Arc::new(PackageIndex::build(Arc::clone(&self.fs), self.roots.clone(), &mut |_| {}))
        })
    }

    /// The index when a game directory, package path or source path is set (or an index was
    /// handed in); `None` otherwise, without building anything. An index of source paths
    /// alone knows classes, not packages ([`PackageIndex::knows_packages`]).
    pub fn packages_if_configured(&self) -> Option<&Arc<PackageIndex>> {
        if self.packages.get().is_none() && !self.roots.reads_anything() {
            return None;
        }
        Some(self.packages())
    }

    /// The index if something already built it (never builds one).
    pub fn built_packages(&self) -> Option<&Arc<PackageIndex>> {
        self.packages.get()
    }

    /// The game's packages by name (`botpack` -> `System/Botpack.u`), case-insensitive.
    pub fn game_index(&self) -> &PackageIndex {
        self.packages()
    }
}

/// The game a game folder shows, when its packages say it: Unreal 227 writes licensee 227 into
/// every package (`PACKAGE_FILE_VERSION_LICENSEE`, OldUnreal/Unreal-PubSrc
/// `Core/Inc/UnObjVer.h`), so `System/Core.u` tells. `None` for anything else (Epic's builds
/// and UT v469 write licensee 0).
pub fn game_of_folder(fs: &dyn FileSystem, dir: &Path) -> Option<unreal_engine::Game> {
    let find = |dir: &Path, name: &str| {
        fs.read_dir(dir)?
            .into_iter()
            .find(|e| e.name.eq_ignore_ascii_case(name))
            .map(|e| dir.join(e.name))
    };
    let core = find(&find(dir, "System")?, "Core.u")?;
    let bytes = fs.read(&core)?;
    let header = bytes.get(..8)?;
    let licensee = u16::from_le_bytes([header[6], header[7]]);
    (header[..4] == [0xC1, 0x83, 0x2A, 0x9E] && licensee == 227)
        .then_some(unreal_engine::Game::Unreal227)
}
