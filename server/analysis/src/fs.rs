//! The file system the `#exec` checks read: the real one, or an in-memory tree for tests and
//! benchmarks. Two operations do most of the work: list a folder (to resolve names
//! case-insensitively, as Windows does) and read a file. A third tells where a symbolic link
//! really leads, so that a link inside a package cannot lead the checks out of it.

use std::collections::BTreeMap;
use std::path::{Component, Path, PathBuf};

/// One entry of a folder listing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DirEntry {
    pub name: String,
    /// A folder, or a symbolic link to one.
    pub is_dir: bool,
    /// A symbolic link: where it leads must be checked (with [`FileSystem::real_path`])
    /// before anything below it is listed or read.
    pub is_link: bool,
}

/// What the checks read. Implementations must be `Sync`: one is shared by every thread of a
/// parallel lint run.
pub trait FileSystem: Send + Sync {
    /// The entries of a folder, or `None` when it cannot be listed.
    fn read_dir(&self, dir: &Path) -> Option<Vec<DirEntry>>;
    /// The bytes of a file, or `None` when it cannot be read.
    fn read(&self, path: &Path) -> Option<Vec<u8>>;
    /// `path` made absolute, for folders named only `.` or `..`; `None` when unsupported.
    fn absolute(&self, _path: &Path) -> Option<PathBuf> {
        None
    }
    /// `path` with every symbolic link resolved and `.`/`..` applied (what
    /// `std::fs::canonicalize` gives); `None` when it leads nowhere or that cannot be told.
    /// The default knows no links: a file system without them never lists an entry as one,
    /// and a link it cannot follow is treated as leading nowhere.
    fn real_path(&self, _path: &Path) -> Option<PathBuf> {
        None
    }
    /// The bytes of a file for reading a part of it (a package's tables): the real file
    /// system maps large files, so only the pages read are loaded.
    fn open(&self, path: &Path) -> Option<FileBytes> {
        self.read(path).map(FileBytes::Owned)
    }
    /// Why `path` could not be read or opened, in words for a note (a missing file, a FIFO).
    fn why_unreadable(&self, _path: &Path) -> String {
        "cannot be read".to_owned()
    }
}

/// A file's bytes, read or mapped.
pub enum FileBytes {
    Owned(Vec<u8>),
    Mapped(unreal_formats::mapped::MappedFile),
}

impl FileBytes {
    /// An error when a mapped file changed while it was read (another program truncated or
    /// rewrote it): what was computed from the bytes is not the file's.
    pub fn check(&self) -> std::io::Result<()> {
        match self {
            Self::Owned(_) => Ok(()),
            Self::Mapped(map) => map.check(),
        }
    }
}

impl std::ops::Deref for FileBytes {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match self {
            Self::Owned(bytes) => bytes,
            Self::Mapped(map) => map,
        }
    }
}

/// The machine's file system.
#[derive(Clone, Copy, Debug, Default)]
pub struct RealFs;

impl FileSystem for RealFs {
    fn read_dir(&self, dir: &Path) -> Option<Vec<DirEntry>> {
        let entries = std::fs::read_dir(dir).ok()?;
        let mut out = Vec::new();
        for entry in entries.flatten() {
            // Names that are not UTF-8 cannot be named by a directive either.
            let Ok(name) = entry.file_name().into_string() else { continue };
            // The entry's own type comes with the listing on most file systems; only a link
            // costs a `stat` of what it leads to (folder or file, as the engine's open sees it).
            let Ok(kind) = entry.file_type() else { continue };
            let is_link = kind.is_symlink();
            let is_dir = if is_link {
                std::fs::metadata(entry.path()).is_ok_and(|m| m.is_dir())
            } else {
                kind.is_dir()
            };
            out.push(DirEntry { name, is_dir, is_link });
        }
        out.sort_by(|a, b| a.name.cmp(&b.name));
        Some(out)
    }

    fn read(&self, path: &Path) -> Option<Vec<u8>> {
        unreal_formats::mapped::read_regular(path).ok()
    }

    fn absolute(&self, path: &Path) -> Option<PathBuf> {
        std::path::absolute(path).ok()
    }

    fn real_path(&self, path: &Path) -> Option<PathBuf> {
        std::fs::canonicalize(path).ok()
    }

    fn open(&self, path: &Path) -> Option<FileBytes> {
        unreal_formats::mapped::MappedFile::open(path).ok().map(FileBytes::Mapped)
    }

    fn why_unreadable(&self, path: &Path) -> String {
        match unreal_formats::mapped::open_regular(path) {
            Err(err) => {
                // The reader's message names the path; the note around it does already.
                let message = unreal_formats::mapped::io_message(&err);
                let named = format!("{} is ", path.display());
                message.strip_prefix(&named).map_or_else(|| message.clone(), str::to_owned)
            }
            Ok(_) => "cannot be read".to_owned(),
        }
    }
}

/// A case-sensitive tree of files held in memory; folders exist where files are below them.
/// Symbolic links ([`MemoryFs::link`]) lead to another path of the tree, absolute or relative
/// to the link's folder, as on disk.
#[derive(Clone, Debug, Default)]
pub struct MemoryFs {
    files: BTreeMap<PathBuf, Vec<u8>>,
    links: BTreeMap<PathBuf, PathBuf>,
}

/// How many links one path may pass through before it counts as a loop (Linux's limit).
const MAX_LINKS: usize = 40;

impl MemoryFs {
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds (or replaces) a file.
    pub fn insert(&mut self, path: impl Into<PathBuf>, bytes: impl Into<Vec<u8>>) {
        self.files.insert(path.into(), bytes.into());
    }

    #[must_use]
    pub fn with(mut self, path: impl Into<PathBuf>, bytes: impl Into<Vec<u8>>) -> Self {
        self.insert(path, bytes);
        self
    }

    /// Adds (or replaces) a symbolic link at `path` leading to `target`.
    pub fn link(&mut self, path: impl Into<PathBuf>, target: impl Into<PathBuf>) {
        self.links.insert(path.into(), target.into());
    }

    /// Every file, in path order.
    pub fn files(&self) -> impl Iterator<Item = (&Path, &[u8])> {
        self.files.iter().map(|(p, b)| (p.as_path(), b.as_slice()))
    }

    fn is_folder(&self, path: &Path) -> bool {
        self.files.keys().chain(self.links.keys()).any(|p| p != path && p.starts_with(path))
    }

    /// `path` with its links followed and `.`/`..` applied, whether or not it exists;
    /// `None` on a link loop.
    fn follow(&self, path: &Path) -> Option<PathBuf> {
        // The components still to walk, last first; a link's target is queued in its place.
        let mut pending: Vec<PathBuf> =
            path.components().rev().map(|c| PathBuf::from(c.as_os_str())).collect();
        let mut out = PathBuf::new();
        let mut followed = 0;
        while let Some(part) = pending.pop() {
            match part.components().next() {
                None | Some(Component::CurDir) => {}
                Some(Component::ParentDir) => {
                    out.pop();
                }
                Some(Component::Prefix(_) | Component::RootDir) => out.push(&part),
                Some(Component::Normal(name)) => {
                    out.push(name);
                    let Some(target) = self.links.get(&out) else { continue };
                    followed += 1;
                    if followed > MAX_LINKS {
                        return None;
                    }
                    out.pop();
                    if target.is_absolute() {
                        out = PathBuf::new();
                    }
                    pending.extend(target.components().rev().map(|c| PathBuf::from(c.as_os_str())));
                }
            }
        }
        Some(out)
    }
}

impl FileSystem for MemoryFs {
    fn read_dir(&self, dir: &Path) -> Option<Vec<DirEntry>> {
        let dir = self.follow(dir)?;
        let mut out: Vec<DirEntry> = Vec::new();
        for path in self.files.keys().chain(self.links.keys()) {
            let Ok(rest) = path.strip_prefix(&dir) else { continue };
            let mut components = rest.components();
            let Some(first) = components.next() else { continue };
            let name = first.as_os_str().to_string_lossy().into_owned();
            let below = components.next().is_some();
            if out.iter().any(|e| e.name == name) {
                continue;
            }
            let entry = dir.join(&name);
            let is_link = self.links.contains_key(&entry);
            let is_dir = if is_link {
                self.follow(&entry).is_some_and(|target| self.is_folder(&target))
            } else {
                below
            };
            out.push(DirEntry { name, is_dir, is_link });
        }
        if out.is_empty() {
            return None;
        }
        out.sort_by(|a, b| a.name.cmp(&b.name));
        Some(out)
    }

    fn read(&self, path: &Path) -> Option<Vec<u8>> {
        self.files.get(&self.follow(path)?).cloned()
    }

    fn real_path(&self, path: &Path) -> Option<PathBuf> {
        let real = self.follow(path)?;
        (self.files.contains_key(&real) || self.is_folder(&real)).then_some(real)
    }
}
