//! The file system the `#exec` checks read: the real one, or an in-memory tree for tests and
//! benchmarks. Only two operations are needed: list a folder (to resolve names
//! case-insensitively, as Windows does) and read a file.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// One entry of a folder listing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DirEntry {
    pub name: String,
    pub is_dir: bool,
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
    /// The bytes of a file for reading a part of it (a package's tables): the real file
    /// system maps large files, so only the pages read are loaded.
    fn open(&self, path: &Path) -> Option<FileBytes> {
        self.read(path).map(FileBytes::Owned)
    }
}

/// A file's bytes, read or mapped.
pub enum FileBytes {
    Owned(Vec<u8>),
    Mapped(unreal_formats::mapped::MappedFile),
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
            // `metadata` follows symbolic links, like the engine's file open does.
            let is_dir = std::fs::metadata(entry.path()).is_ok_and(|m| m.is_dir());
            out.push(DirEntry { name, is_dir });
        }
        out.sort_by(|a, b| a.name.cmp(&b.name));
        Some(out)
    }

    fn read(&self, path: &Path) -> Option<Vec<u8>> {
        std::fs::read(path).ok()
    }

    fn absolute(&self, path: &Path) -> Option<PathBuf> {
        std::path::absolute(path).ok()
    }

    fn open(&self, path: &Path) -> Option<FileBytes> {
        unreal_formats::mapped::MappedFile::open(path).ok().map(FileBytes::Mapped)
    }
}

/// A case-sensitive tree of files held in memory; folders exist where files are below them.
#[derive(Clone, Debug, Default)]
pub struct MemoryFs {
    files: BTreeMap<PathBuf, Vec<u8>>,
}

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

    /// Every file, in path order.
    pub fn files(&self) -> impl Iterator<Item = (&Path, &[u8])> {
        self.files.iter().map(|(p, b)| (p.as_path(), b.as_slice()))
    }
}

impl FileSystem for MemoryFs {
    fn read_dir(&self, dir: &Path) -> Option<Vec<DirEntry>> {
        let mut out: Vec<DirEntry> = Vec::new();
        for path in self.files.keys() {
            let Ok(rest) = path.strip_prefix(dir) else { continue };
            let mut components = rest.components();
            let Some(first) = components.next() else { continue };
            let name = first.as_os_str().to_string_lossy().into_owned();
            let is_dir = components.next().is_some();
            if !out.iter().any(|e| e.name == name) {
                out.push(DirEntry { name, is_dir });
            }
        }
        if out.is_empty() {
            return None;
        }
        out.sort_by(|a, b| a.name.cmp(&b.name));
        Some(out)
    }

    fn read(&self, path: &Path) -> Option<Vec<u8>> {
        self.files.get(path).cloned()
    }
}
