//! Read-only file access for callers that hand this crate a path: large files are mapped
//! (so that reading a package's tables touches only the pages they live on), small ones are
//! read.
//!
//! Only regular files are ever opened: a FIFO, socket or device named on a command line, in
//! an `#exec` line or sitting in a game folder would block a read forever (a FIFO with a
//! writer feeds it without end). The type is checked before opening, the open does not block
//! (`O_NONBLOCK`), and the opened handle is checked again, so a file swapped for a FIFO in
//! between is refused too. Every reader of the project opens files through here.

use std::fs::{File, OpenOptions};
use std::io::{self, Read as _};
use std::ops::Deref;
use std::path::Path;

/// Files below this size are read rather than mapped: mapping costs more than it saves.
const MAP_THRESHOLD: u64 = 64 * 1024;

pub enum MappedFile {
    Mapped(memmap2::Mmap),
    Read(Vec<u8>),
}

fn not_regular(path: &Path, meta: &std::fs::Metadata) -> io::Error {
    let kind =
        if meta.is_dir() { "a folder" } else { "not a regular file (a FIFO, socket or device)" };
    io::Error::new(io::ErrorKind::InvalidInput, format!("{} is {kind}", path.display()))
}

/// Opens `path` for reading when it is a regular file (following links), without blocking.
pub fn open_regular(path: &Path) -> io::Result<File> {
    let meta = std::fs::metadata(path)?;
    if !meta.is_file() {
        return Err(not_regular(path, &meta));
    }
    let mut options = OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt as _;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(not_regular(path, &meta));
    }
    Ok(file)
}

/// Reads a whole regular file (see [`open_regular`]).
pub fn read_regular(path: &Path) -> io::Result<Vec<u8>> {
    let mut file = open_regular(path)?;
    let mut bytes = Vec::with_capacity(usize::try_from(file.metadata()?.len()).unwrap_or(0));
    file.read_to_end(&mut bytes)?;
    Ok(bytes)
}

impl MappedFile {
    pub fn open(path: &Path) -> io::Result<Self> {
        let mut file = open_regular(path)?;
        let len = file.metadata()?.len();
        if len < MAP_THRESHOLD {
            let mut bytes = Vec::with_capacity(usize::try_from(len).unwrap_or(0));
            file.read_to_end(&mut bytes)?;
            return Ok(Self::Read(bytes));
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
            Err(_) => read_regular(path).map(Self::Read),
        }
    }
}

/// A file's text mapped read-only instead of read: the pages the kernel already holds for the
/// file are the text, so nothing is copied or zeroed (a 4 MB map read into fresh memory cost
/// 2 to 3 ms of a 20 ms lint here, mapped 0.4 ms). Only for text that needs no decoding: UTF-8,
/// after an optional UTF-8 byte order mark (which is not part of the text).
pub struct MappedText {
    map: memmap2::Mmap,
    /// 3 after a byte order mark, else 0.
    start: usize,
}

impl MappedText {
    /// Maps `file` when it is long enough to gain from it ([`MAP_THRESHOLD`]) and its bytes
    /// are UTF-8 (checked here, once); `None` otherwise (too short, another encoding, a file
    /// system that cannot map), and the caller reads and decodes the file instead.
    pub fn map(file: &File) -> Option<Self> {
        if file.metadata().ok()?.len() < MAP_THRESHOLD {
            return None;
        }
        // SAFETY: read-only and private to this process, as in `MappedFile::open`. The text is
        // checked as UTF-8 below and handed out as `&str` afterwards: a file rewritten by
        // another process while it is checked could break that; game content is not rewritten
        // while a tool reads it, and every memory-mapping tool takes the same risk.
        // Populated: every page of the file is mapped in one call (the whole text is read
        // at once below), not one page fault per 64 KB while the UTF-8 check walks it.
        #[allow(unsafe_code)]
        let map = unsafe { memmap2::MmapOptions::new().populate().map(file) }.ok()?;
        let start = if map.starts_with(b"\xEF\xBB\xBF") { 3 } else { 0 };
        std::str::from_utf8(map.get(start..)?).ok()?;
        Some(Self { map, start })
    }

    /// Whether the file starts with a UTF-8 byte order mark (not part of [`Self::as_str`]).
    pub fn has_bom(&self) -> bool {
        self.start == 3
    }

    pub fn as_str(&self) -> &str {
        let bytes = self.map.get(self.start..).unwrap_or_default();
        // SAFETY: `map` checked these bytes as UTF-8 and the mapping is read-only (see there).
        #[allow(unsafe_code)]
        unsafe {
            std::str::from_utf8_unchecked(bytes)
        }
    }
}

impl std::fmt::Debug for MappedText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MappedText").field("len", &self.as_str().len()).finish()
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

/// How a failed read of a file is told to the user: the common cases in plain words, the
/// system's own text otherwise. The CLI and the configuration reader say it the same way.
pub fn io_message(err: &std::io::Error) -> String {
    match err.kind() {
        std::io::ErrorKind::NotFound => "no such file or directory".to_owned(),
        std::io::ErrorKind::PermissionDenied => "permission denied".to_owned(),
        _ => err.to_string(),
    }
}
