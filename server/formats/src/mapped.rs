//! Read-only file access for callers that hand this crate a path: large files are mapped
//! (so that reading a package's tables touches only the pages they live on), small ones are
//! read.
//!
//! Only regular files are ever opened: a FIFO, socket or device named on a command line, in
//! an `#exec` line or sitting in a game folder would block a read forever (a FIFO with a
//! writer feeds it without end). The type is checked before opening, the open does not block
//! (`O_NONBLOCK`), and the opened handle is checked again, so a file swapped for a FIFO in
//! between is refused too. Every reader of the project opens files through here.
//!
//! # A mapped file that another program truncates
//!
//! A page of a map that lies past the end of its file faults with SIGBUS, which killed the
//! process: the language server when UCC rebuilt a package it was previewing, `lint` when a
//! map was cut short during the run. Reading every file into memory would avoid it, at the
//! cost of reading whole what only needs its tables (a game folder's packages are indexed
//! from their tables: hundreds of megabytes), so maps stay and are guarded ([`guard`]):
//!
//! - every live map is registered (its address range, in a fixed table of atomics);
//! - a SIGBUS handler, installed once, looks the faulting address up; inside a registered
//!   map, it puts a fresh page in place of the missing page (an anonymous `MAP_FIXED`
//!   mapping over exactly that page, a system call that is safe in a signal handler: zeros
//!   for a binary file, filled with line feeds for a text, whose scans for a line's ends
//!   then stop at once) and marks the map; the faulting read then resumes and reads that
//!   page. Any other SIGBUS goes to
//!   the handler that was there before (Rust's own), or kills the process as before;
//! - whoever used the bytes asks [`MappedFile::check`] (or [`MappedText::check`]) afterwards:
//!   a marked map, or a file whose length or modification time changed since it was opened,
//!   is reported as "changed while it was being read", never as the answer computed from it.
//!
//! This is sound in the sense that matters here: the new page changes the bytes under a
//! shared reference exactly as another program's write to the file already could (a risk
//! every memory-mapping reader takes and every reader of this crate tolerates: the parsers
//! check every offset against the slice's length, which never changes, and accept any byte);
//! nothing unwinds out of a signal handler and nothing is jumped over. Zeros and line feeds
//! are ASCII (a [`MappedText`] stays in bounds: a sequence cut by them still has bytes after
//! it), and the check turns whatever was computed into an error. When the table is full (more
//! than [`guard::SLOTS`] maps alive at once) a file is read instead of mapped. Platforms other
//! than Linux read, never map.
//!
//! Measured (issue 30; docs/performance.md): registering costs two atomic stores a file; the
//! check one `fstat`.

use std::fs::{File, OpenOptions};
use std::io::{self, Read as _};
use std::ops::Deref;
use std::path::Path;

/// Files below this size are read rather than mapped: mapping costs more than it saves.
const MAP_THRESHOLD: u64 = 64 * 1024;

pub enum MappedFile {
    Mapped(Guarded),
    Read(Vec<u8>),
}

/// A map that a truncation of its file cannot crash: registered with the SIGBUS guard
/// ([`guard`]) for as long as it lives, with what its file was when it was opened.
pub struct Guarded {
    map: memmap2::Mmap,
    slot: usize,
    file: File,
    opened: (u64, Option<std::time::SystemTime>),
}

impl Guarded {
    /// Maps `file` and registers the map; `None` when it cannot be mapped or the guard's table
    /// is full (the caller reads the file instead).
    fn map(file: &File, populate: bool, fill: u8) -> Option<Self> {
        if !guard::install() {
            return None;
        }
        let meta = file.metadata().ok()?;
        let mut options = memmap2::MmapOptions::new();
        if populate {
            options.populate();
        }
        // SAFETY: the map is read-only and private to this process. Another program may
        // truncate or rewrite the file while it is mapped: a page past the new end is
        // replaced by zeros by the guard instead of faulting the process to death, and the
        // change is reported by `check` (see the module's comment).
        #[allow(unsafe_code)]
        let map = unsafe { options.map(file) }.ok()?;
        let slot = guard::register(map.as_ptr() as usize, map.len(), fill)?;
        let file = file.try_clone().ok()?;
        Some(Self { map, slot, file, opened: (meta.len(), meta.modified().ok()) })
    }

    /// An error when the file changed since it was mapped: a page went missing (the guard
    /// put zeros there), or its length or modification time differ.
    pub fn check(&self) -> io::Result<()> {
        let now = self.file.metadata()?;
        if guard::faulted(self.slot) || (now.len(), now.modified().ok()) != self.opened {
            return Err(changed());
        }
        Ok(())
    }

    /// Whether a read already met a page the file no longer holds: one atomic load, cheap
    /// enough to ask between pieces of work. A text found so is not the file's any more,
    /// and work on it is wasted (and, on the zeros read there, may be far slower: lines
    /// megabytes long).
    pub fn faulted(&self) -> bool {
        guard::faulted(self.slot)
    }
}

impl Drop for Guarded {
    fn drop(&mut self) {
        // Before the map goes (its fields drop after this): no fault can come from it now.
        guard::unregister(self.slot);
    }
}

impl Deref for Guarded {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        &self.map
    }
}

/// The error of a file that changed while it was being read.
pub fn changed() -> io::Error {
    io::Error::other(
        "the file changed while it was being read (truncated or rewritten by another program); read it again",
    )
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
        if len >= MAP_THRESHOLD {
            if let Some(map) = Guarded::map(&file, false, 0) {
                return Ok(Self::Mapped(map));
            }
        }
        // Small, or not mappable (a file system that cannot, the guard's table full): read.
        let mut bytes = Vec::with_capacity(usize::try_from(len).unwrap_or(0));
        file.read_to_end(&mut bytes)?;
        Ok(Self::Read(bytes))
    }

    /// An error when the file changed while it was mapped (see the module's comment): what was
    /// computed from its bytes is not an answer. A file read into memory is what it was read.
    pub fn check(&self) -> io::Result<()> {
        match self {
            Self::Mapped(map) => map.check(),
            Self::Read(_) => Ok(()),
        }
    }
}

/// A file's text mapped read-only instead of read: the pages the kernel already holds for the
/// file are the text, so nothing is copied or zeroed (a 4 MB map read into fresh memory cost
/// 2 to 3 ms of a 20 ms lint here, mapped 0.4 ms). Only for text that needs no decoding: UTF-8,
/// after an optional UTF-8 byte order mark (which is not part of the text).
pub struct MappedText {
    map: Guarded,
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
        // Populated: every page of the file is mapped in one call (the whole text is read
        // at once below), not one page fault per 64 KB while the UTF-8 check walks it. A
        // truncation meanwhile reads line feeds (still UTF-8) and is reported by `check`;
        // the work on the text stops early where it asks [`Self::faulted`].
        // A page lost to a truncation reads as line feeds, not zeros: lines of zeros
        // megabytes long made every search for a line's start or end in them cost the
        // rest of the text (a run that never ended), and empty lines cost nothing.
        let map = Guarded::map(file, true, b'\n')?;
        let start = if map.starts_with(b"\xEF\xBB\xBF") { 3 } else { 0 };
        std::str::from_utf8(map.get(start..)?).ok()?;
        Some(Self { map, start })
    }

    /// An error when the file changed while it was mapped: the findings on the text are not
    /// the file's.
    pub fn check(&self) -> io::Result<()> {
        self.map.check()
    }

    /// Whether a read already met a page the truncated file no longer holds ([`Self::check`]
    /// reports it); cheap, for long work to stop early.
    pub fn faulted(&self) -> bool {
        self.map.faulted()
    }

    /// Whether the file starts with a UTF-8 byte order mark (not part of [`Self::as_str`]).
    pub fn has_bom(&self) -> bool {
        self.start == 3
    }

    pub fn as_str(&self) -> &str {
        let bytes = self.map.get(self.start..).unwrap_or_default();
        // SAFETY: `map` checked these bytes as UTF-8 and the mapping is read-only; a page the
        // guard replaced holds zeros, which keep the text UTF-8 (see the module's comment).
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

/// The SIGBUS guard of mapped files (see the module's comment): a fixed table of the live
/// maps' address ranges, read by the signal handler without locks or allocation.
pub mod guard {
    use std::sync::atomic::{AtomicBool, AtomicU8, AtomicUsize, Ordering};

    /// How many maps may be alive at once; one more is read instead (a parallel lint holds one
    /// a thread, the server one a request and one a package being indexed).
    pub const SLOTS: usize = 512;

    struct Slot {
        start: AtomicUsize,
        len: AtomicUsize,
        faulted: AtomicBool,
        /// The byte a lost page reads as: zeros for binary files (counts of zero), line
        /// feeds for text (empty lines).
        fill: AtomicU8,
    }

    #[allow(clippy::declare_interior_mutable_const)]
    const EMPTY: Slot = Slot {
        start: AtomicUsize::new(0),
        len: AtomicUsize::new(0),
        faulted: AtomicBool::new(false),
        fill: AtomicU8::new(0),
    };
    static TABLE: [Slot; SLOTS] = [EMPTY; SLOTS];

    /// Registers a map of `len` bytes at `start`, whose lost pages read as `fill`; its slot,
    /// or `None` when the table is full.
    pub(super) fn register(start: usize, len: usize, fill: u8) -> Option<usize> {
        if start == 0 {
            return None;
        }
        for (i, slot) in TABLE.iter().enumerate() {
            if slot.start.compare_exchange(0, start, Ordering::AcqRel, Ordering::Relaxed).is_ok() {
                slot.faulted.store(false, Ordering::Release);
                slot.fill.store(fill, Ordering::Release);
                slot.len.store(len, Ordering::Release);
                return Some(i);
            }
        }
        None
    }

    pub(super) fn unregister(slot: usize) {
        if let Some(slot) = TABLE.get(slot) {
            slot.len.store(0, Ordering::Release);
            slot.start.store(0, Ordering::Release);
        }
    }

    /// Whether a page of the map in `slot` went missing while it was read.
    pub(super) fn faulted(slot: usize) -> bool {
        TABLE.get(slot).is_some_and(|s| s.faulted.load(Ordering::Acquire))
    }

    /// How many maps the handler has patched since the process started (tests).
    pub fn patched() -> usize {
        PATCHED.load(Ordering::Relaxed)
    }

    static PATCHED: AtomicUsize = AtomicUsize::new(0);

    #[cfg(target_os = "linux")]
    pub(super) use linux::install;

    /// Elsewhere nothing is mapped (files are read).
    #[cfg(not(target_os = "linux"))]
    pub(super) fn install() -> bool {
        false
    }

    #[cfg(target_os = "linux")]
    #[allow(unsafe_code)]
    mod linux {
        use std::sync::atomic::{AtomicUsize, Ordering};
        use std::sync::OnceLock;

        use super::{PATCHED, TABLE};

        static PAGE: AtomicUsize = AtomicUsize::new(0);
        /// The SIGBUS action before ours (Rust's stack-overflow handler, usually).
        static PREVIOUS: OnceLock<Previous> = OnceLock::new();

        struct Previous(libc::sigaction);
        // SAFETY: plain data (a handler address, flags and a signal mask), written once before
        // the handler is installed and only read afterwards.
        unsafe impl Sync for Previous {}
        unsafe impl Send for Previous {}

        /// Installs the handler once; whether it is in place (maps may be made).
        pub fn install() -> bool {
            static INSTALLED: OnceLock<bool> = OnceLock::new();
            *INSTALLED.get_or_init(|| {
                // SAFETY: sysconf and sigaction are called with valid arguments; the structures
                // are zeroed C structs that sigaction fills or reads.
                unsafe {
                    let page = libc::sysconf(libc::_SC_PAGESIZE);
                    let Ok(page) = usize::try_from(page) else { return false };
                    if page == 0 || !page.is_power_of_two() {
                        return false;
                    }
                    PAGE.store(page, Ordering::Release);
                    let mut previous: libc::sigaction = std::mem::zeroed();
                    if libc::sigaction(libc::SIGBUS, std::ptr::null(), &raw mut previous) != 0 {
                        return false;
                    }
                    let _ = PREVIOUS.set(Previous(previous));
                    let mut action: libc::sigaction = std::mem::zeroed();
                    action.sa_sigaction = on_sigbus
                        as extern "C" fn(libc::c_int, *mut libc::siginfo_t, *mut libc::c_void)
                        as usize;
                    action.sa_flags = libc::SA_SIGINFO | libc::SA_ONSTACK;
                    libc::sigemptyset(&raw mut action.sa_mask);
                    libc::sigaction(libc::SIGBUS, &raw const action, std::ptr::null_mut()) == 0
                }
            })
        }

        /// The handler: only atomics, `mmap` and (for a fault that is not ours) the previous
        /// handler or `sigaction`, all safe in a signal handler.
        extern "C" fn on_sigbus(
            signal: libc::c_int,
            info: *mut libc::siginfo_t,
            context: *mut libc::c_void,
        ) {
            // SAFETY: the kernel passes a valid siginfo for a SA_SIGINFO handler.
            let address = unsafe { (*info).si_addr() } as usize;
            let page = PAGE.load(Ordering::Acquire);
            for slot in &TABLE {
                let start = slot.start.load(Ordering::Acquire);
                let len = slot.len.load(Ordering::Acquire);
                if start == 0 || address < start || address - start >= len {
                    continue;
                }
                let at = address & !(page - 1);
                // SAFETY: `at` is the page of a live, registered read-only map of this process
                // (the faulting read is inside it, so it is not unmapped meanwhile); the new
                // anonymous page replaces exactly that page of it, zeroed (and, for a text, then
                // filled with line feeds).
                let fill = slot.fill.load(Ordering::Acquire);
                let protection =
                    if fill == 0 { libc::PROT_READ } else { libc::PROT_READ | libc::PROT_WRITE };
                let patch = unsafe {
                    libc::mmap(
                        at as *mut libc::c_void,
                        page,
                        protection,
                        libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_FIXED,
                        -1,
                        0,
                    )
                };
                if patch != libc::MAP_FAILED {
                    if fill != 0 {
                        // SAFETY: `patch` is the page just mapped, writable and `page` bytes
                        // long; plain stores, nothing a signal handler may not do.
                        unsafe { std::ptr::write_bytes(patch.cast::<u8>(), fill, page) };
                    }
                    slot.faulted.store(true, Ordering::Release);
                    PATCHED.fetch_add(1, Ordering::Relaxed);
                    return;
                }
                break;
            }
            // Not a page of ours (or it could not be patched): what happened before.
            // SAFETY: the previous action was read from the kernel; calling its handler with
            // the arguments the kernel gave is what the kernel would have done.
            unsafe {
                match PREVIOUS.get() {
                    Some(Previous(previous))
                        if previous.sa_sigaction != libc::SIG_DFL
                            && previous.sa_sigaction != libc::SIG_IGN =>
                    {
                        if previous.sa_flags & libc::SA_SIGINFO != 0 {
                            let handler: extern "C" fn(
                                libc::c_int,
                                *mut libc::siginfo_t,
                                *mut libc::c_void,
                            ) = std::mem::transmute(previous.sa_sigaction);
                            handler(signal, info, context);
                        } else {
                            let handler: extern "C" fn(libc::c_int) =
                                std::mem::transmute(previous.sa_sigaction);
                            handler(signal);
                        }
                    }
                    _ => {
                        // The default action: the fault repeats on return and ends the process.
                        let mut action: libc::sigaction = std::mem::zeroed();
                        action.sa_sigaction = libc::SIG_DFL;
                        libc::sigaction(libc::SIGBUS, &raw const action, std::ptr::null_mut());
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::io::Write as _;

    use super::{MappedFile, MappedText};

    fn big_file(name: &str, len: usize) -> std::path::PathBuf {
        let path =
            std::env::temp_dir().join(format!("unreal-ls-mapped-{name}-{}", std::process::id()));
        let mut file = std::fs::File::create(&path).unwrap();
        file.write_all(&vec![b'a'; len]).unwrap();
        path
    }

    /// A package mapped, then truncated to 2,000 bytes by another program (what a UCC rebuild
    /// does): reading every byte killed the process with SIGBUS. Now the missing pages read as
    /// zeros and `check` says the file changed.
    #[test]
    fn a_file_truncated_while_mapped_reads_filler_and_is_reported() {
        let path = big_file("truncated", 4 << 20);
        let mapped = MappedFile::open(&path).unwrap();
        assert!(matches!(mapped, MappedFile::Mapped(_)));
        mapped.check().unwrap();
        std::fs::OpenOptions::new().write(true).open(&path).unwrap().set_len(2000).unwrap();
        let sum: u64 = mapped.iter().map(|&b| u64::from(b)).sum();
        assert_eq!(sum, 2000 * u64::from(b'a'));
        let err = mapped.check().unwrap_err();
        assert!(err.to_string().contains("changed while it was being read"), "{err}");
        assert!(super::guard::patched() > 0);
        // Text mapped the same way: the lost pages read as line feeds (short lines for
        // whatever scans them), marked at the first fault, reported.
        std::fs::write(&path, "é".repeat(1 << 20)).unwrap();
        let file = std::fs::File::open(&path).unwrap();
        let text = MappedText::map(&file).unwrap();
        std::fs::OpenOptions::new().write(true).open(&path).unwrap().set_len(70_000).unwrap();
        assert!(!text.faulted());
        let kept = 70_000usize.next_multiple_of(4096);
        assert_eq!(text.as_str().bytes().filter(|&b| b == b'\n').count(), (2 << 20) - kept);
        assert_eq!(text.as_str().bytes().filter(|&b| b == 0).count(), kept - 70_000);
        assert!(text.faulted());
        assert!(text.check().is_err());
        drop((mapped, text));
        let _ = std::fs::remove_file(&path);
    }

    /// A truncation racing a reader (another thread cuts the file 1 ms into the read, many
    /// times): no crash, and a read whose file changed is always reported. Bounded: 8 MB, 20
    /// rounds.
    #[test]
    fn a_truncation_racing_a_reader_is_reported_never_a_crash() {
        for round in 0..20 {
            let path = big_file(&format!("race-{round}"), 8 << 20);
            let mapped = MappedFile::open(&path).unwrap();
            let cutter = {
                let path = path.clone();
                std::thread::spawn(move || {
                    std::thread::sleep(std::time::Duration::from_millis(1));
                    std::fs::OpenOptions::new()
                        .write(true)
                        .open(path)
                        .unwrap()
                        .set_len(2000)
                        .unwrap();
                })
            };
            // Read from the end: the pages past the cut fault and read as zeros.
            let zeros = mapped
                .iter()
                .rposition(|&b| b != 0)
                .map_or(mapped.len(), |last| mapped.len() - 1 - last);
            cutter.join().unwrap();
            if zeros > 0 {
                assert!(mapped.check().is_err());
            }
            assert!(mapped.check().is_err(), "the length changed");
            drop(mapped);
            let _ = std::fs::remove_file(&path);
        }
    }

    /// Maps come and go: the table's slots are given back.
    #[test]
    fn slots_are_given_back() {
        let path = big_file("slots", 128 << 10);
        for _ in 0..(super::guard::SLOTS * 2) {
            let mapped = MappedFile::open(&path).unwrap();
            assert!(matches!(mapped, MappedFile::Mapped(_)));
        }
        let _ = std::fs::remove_file(&path);
    }
}
