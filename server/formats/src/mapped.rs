//! Read-only file access for callers that hand this crate a path: large files are mapped
//! (so that reading a package's tables touches only the pages they live on), small ones are
//! read.

use std::fs::File;
use std::io;
use std::ops::Deref;
use std::path::Path;

/// Files below this size are read rather than mapped: mapping costs more than it saves.
const MAP_THRESHOLD: u64 = 64 * 1024;

pub enum MappedFile {
    Mapped(memmap2::Mmap),
    Read(Vec<u8>),
}

impl MappedFile {
    pub fn open(path: &Path) -> io::Result<Self> {
        let file = File::open(path)?;
        let len = file.metadata()?.len();
        if len < MAP_THRESHOLD {
            return std::fs::read(path).map(Self::Read);
        }
        // SAFETY: the map is read-only and private to this process. If another process
        // truncates the file while it is mapped, reads may fault; the CLI and the language
        // server accept that risk for game content that is not being rewritten while read,
        // as every memory-mapping tool does.
        #[allow(unsafe_code)]
        let map = unsafe { memmap2::Mmap::map(&file) };
        match map {
            Ok(map) => Ok(Self::Mapped(map)),
            // Some file systems cannot map; fall back to reading.
            Err(_) => std::fs::read(path).map(Self::Read),
        }
    }
}

impl Deref for MappedFile {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match self {
            Self::Mapped(m) => m,
            Self::Read(v) => v,
        }
    }
}
