//! The installers mods ship in: `.umod` (Unreal, UT99) and `.ut2mod` (UT2003/UT2004), one
//! archive format (`Core/Inc/FFileManagerArc.h` in both engines' sources).
//!
//! The files' bytes come first, stored whole one after the other; then the directory (a
//! compact index count, then per file its name as the engine's string, `u32` offset, `u32`
//! size and `u32` flags); then a 20-byte trailer at the very end: magic `0x9FE3C5A3`, the
//! directory's offset, the archive's total size, the version (1) and a CRC-32 of every byte
//! before the trailer (the engine's `appMemCrc`: polynomial 0x04C11DB7, most significant
//! bit first, inverted before and after). The engine refuses an archive whose magic,
//! version or size differ ("incomplete download") and, when it verifies, whose CRC differs
//! ("corrupt"). Names are relative to the game folder (`System\MyMod.u`,
//! `Maps\DM-Mine.unr`); the installer's own files (`System\Manifest.ini`) are among them.
//!
//! A file inside an archive is named `Mod.umod:System/MyMod.u` on the command line: the
//! archive's path, a colon, the name in the directory (either slash, any case).

use serde::Serialize;

use crate::error::{Error, Result};
use crate::reader::{ansi, Reader};

pub const MAGIC: u32 = 0x9FE3_C5A3;
pub const TRAILER_SIZE: usize = 20;
pub const VERSION: u32 = 1;
/// Directory flag: the installer runs this file itself (setup code).
pub const FLAG_BOOTSTRAP: u32 = 0x1;
/// Directory flag: the file is stored compressed (no shipped tool writes it).
pub const FLAG_COMPRESSED: u32 = 0x4;
/// The longest file name read from a directory, in characters.
const MAX_NAME: usize = 1024;

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct UmodEntry {
    pub name: String,
    pub offset: u32,
    pub size: u32,
    pub flags: u32,
}

#[derive(Debug, Clone)]
pub struct Umod<'a> {
    data: &'a [u8],
    pub directory_offset: usize,
    pub version: u32,
    pub stored_crc: u32,
    pub entries: Vec<UmodEntry>,
}

/// How far from its place a trailer is looked for: bytes cut from the end of an archive (an
/// incomplete download) or added to it move it by that much.
pub const DISPLACED: usize = 64;

fn word(bytes: &[u8], at: usize) -> Option<u32> {
    bytes.get(at..at.checked_add(4)?).map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

/// Where the trailer of an archive starts in `bytes`, whole or damaged: its magic at its
/// place (the last 20 bytes), else the magic nearest to it within [`DISPLACED`] bytes (the
/// file cut short or grown). A magic counts only where the trailer's archive size is near
/// the file's length, or is cut off, or its version is the engine's: so that a package that
/// happens to hold the four bytes near its end is not taken for an archive. `None` when no
/// trailer is near the end.
pub fn trailer_at(bytes: &[u8]) -> Option<usize> {
    let len = bytes.len();
    let place = len.checked_sub(TRAILER_SIZE);
    let plausible = |at: usize| {
        word(bytes, at) == Some(MAGIC)
            && (word(bytes, at + 8).is_none_or(|size| (size as usize).abs_diff(len) <= DISPLACED)
                || word(bytes, at + 12) == Some(VERSION))
    };
    let first = len.saturating_sub(TRAILER_SIZE + DISPLACED);
    let mut found: Vec<usize> =
        (first..len.saturating_sub(3)).filter(|&at| plausible(at)).collect();
    let distance = |at: usize| place.map_or(usize::MAX, |p| at.abs_diff(p));
    found.sort_by_key(|&at| distance(at));
    found.first().copied()
}

/// Whether `bytes` are an archive, whole or damaged ([`trailer_at`]): a damaged archive is
/// refused by [`Umod::parse`] as the engine refuses it, never read as the file it begins
/// with.
pub fn is_umod(bytes: &[u8]) -> bool {
    trailer_at(bytes).is_some()
}

/// The archive and member of a name such as `Mods/Mod.umod:System/MyMod.u`: split at the
/// last `.umod:` or `.ut2mod:` (any case). `None` when there is no such part or nothing
/// follows the colon.
pub fn split_member(path: &str) -> Option<(&str, &str)> {
    let lower = path.to_ascii_lowercase();
    let at = [".umod:", ".ut2mod:"]
        .iter()
        .filter_map(|ext| lower.rfind(ext).map(|i| i + ext.len() - 1))
        .max()?;
    let (archive, member) = (path.get(..at)?, path.get(at + 1..)?);
    (!member.is_empty()).then_some((archive, member))
}

/// The engine's CRC-32 (`appMemCrc`) of `data`.
pub fn crc(data: &[u8]) -> u32 {
    static TABLE: std::sync::OnceLock<[u32; 256]> = std::sync::OnceLock::new();
    let table = TABLE.get_or_init(|| {
        std::array::from_fn(|i| {
            let mut c = (i as u32) << 24;
            for _ in 0..8 {
                c = if c & 0x8000_0000 != 0 { (c << 1) ^ 0x04C1_1DB7 } else { c << 1 };
            }
            c
        })
    });
    let mut crc = !0u32;
    for &b in data {
        crc = (crc << 8) ^ table[((crc >> 24) ^ u32::from(b)) as usize];
    }
    !crc
}

/// [`trailer_at`] when the trailer is not at its place.
fn trailer_at_displaced(bytes: &[u8]) -> Option<usize> {
    trailer_at(bytes).filter(|&at| Some(at) != bytes.len().checked_sub(TRAILER_SIZE))
}

impl<'a> Umod<'a> {
    pub fn parse(data: &'a [u8]) -> Result<Self> {
        let len = data.len();
        if len < TRAILER_SIZE {
            return Err(Error::new(
                "umod trailer",
                0,
                format!("a {TRAILER_SIZE}-byte trailer at the end of the file, found a file of {len} bytes"),
            ));
        }
        let trailer_at = len - TRAILER_SIZE;
        let mut r = Reader::new(data, trailer_at, "umod trailer");
        let magic = r.u32("magic")?;
        if magic != MAGIC {
            let found = match trailer_at_displaced(data) {
                Some(at) if at > trailer_at => {
                    let short = at - trailer_at;
                    let claimed = word(data, at + 8)
                        .map(|size| format!(" (its trailer says the archive is {size} bytes)"))
                        .unwrap_or_default();
                    format!(
                        "; the magic is at byte {at}: the file is {short} byte{} shorter than the archive{claimed}, and the engine refuses it as an incomplete download",
                        if short == 1 { "" } else { "s" }
                    )
                }
                Some(at) => {
                    let extra = trailer_at - at;
                    format!(
                        "; the magic is at byte {at}: {extra} byte{} follow the archive's trailer, and the engine refuses it as an incomplete download",
                        if extra == 1 { "" } else { "s" }
                    )
                }
                None => String::new(),
            };
            return Err(r.error_at(
                trailer_at,
                format!("the archive magic {MAGIC:#010x} (the last 20 bytes of a .umod), found {magic:#010x}{found}"),
            ));
        }
        let directory = r.u32("directory offset")? as usize;
        let size_at = r.pos();
        let size = r.u32("archive size")? as usize;
        let version_at = r.pos();
        let version = r.u32("version")?;
        let stored_crc = r.u32("CRC")?;
        if size != len {
            return Err(r.error_at(
                size_at,
                format!(
                    "the archive's size {size} to be the file's ({len} bytes): the engine refuses it as an incomplete download"
                ),
            ));
        }
        if version != VERSION {
            return Err(
                r.error_at(version_at, format!("archive version {VERSION}, found {version}"))
            );
        }
        if directory >= trailer_at {
            return Err(r.error_at(
                trailer_at + 4,
                format!(
                    "a directory offset before the trailer (byte {trailer_at}), found {directory}"
                ),
            ));
        }
        let listing = &data[..trailer_at];
        let mut r = Reader::new(listing, directory, "umod directory");
        let count = r.compact_index("file count")?;
        // A name's length byte and three u32 at least.
        let count = r.check_count("file count", i64::from(count), 13)?;
        let mut entries = Vec::with_capacity(count);
        for i in 0..count {
            r.set_entry("umod directory entry", i);
            let at = r.pos();
            let n = r.compact_index("file name length")?;
            let chars = n.unsigned_abs() as usize;
            if chars > MAX_NAME {
                return Err(r.error_at(
                    at,
                    format!("a file name of at most {MAX_NAME} characters, found {n}"),
                ));
            }
            let name = if n >= 0 {
                ansi(r.bytes("file name", chars)?)
            } else {
                let units: Vec<u16> = r
                    .bytes("file name (UTF-16)", chars * 2)?
                    .chunks_exact(2)
                    .map(|c| u16::from_le_bytes([c[0], c[1]]))
                    .take_while(|&u| u != 0)
                    .collect();
                String::from_utf16_lossy(&units)
            };
            let offset_at = r.pos();
            let offset = r.u32("file offset")?;
            let size = r.u32("file size")?;
            let flags = r.u32("file flags")?;
            let end = u64::from(offset) + u64::from(size);
            if end > directory as u64 {
                return Err(r.error_at(
                    offset_at,
                    format!(
                        "the bytes of {name:?} (offset {offset}, size {size}) to lie before the directory at byte {directory}"
                    ),
                ));
            }
            entries.push(UmodEntry { name, offset, size, flags });
        }
        Ok(Self { data, directory_offset: directory, version, stored_crc, entries })
    }

    /// The CRC the engine would compute over the bytes before the trailer.
    pub fn computed_crc(&self) -> u32 {
        crc(&self.data[..self.data.len() - TRAILER_SIZE])
    }

    /// The stored bytes of an entry (checked against the file by `parse`).
    pub fn bytes(&self, entry: &UmodEntry) -> &'a [u8] {
        let start = entry.offset as usize;
        self.data.get(start..start + entry.size as usize).unwrap_or_default()
    }

    /// The entry named `name`, as the engine's lookup compares names: any case, `/` and `\`
    /// alike.
    pub fn find(&self, name: &str) -> Option<&UmodEntry> {
        let norm = |s: &str| s.replace('\\', "/").to_ascii_lowercase();
        let wanted = norm(name);
        self.entries.iter().find(|e| norm(&e.name) == wanted)
    }

    /// The bytes of the member `name`, or an error naming the archive's files.
    pub fn member(&self, name: &str) -> Result<(&UmodEntry, &'a [u8])> {
        let entry = self.find(name).ok_or_else(|| {
            let names: Vec<&str> = self.entries.iter().map(|e| e.name.as_str()).take(20).collect();
            Error::new(
                "umod directory",
                self.directory_offset,
                format!(
                    "a file named {name:?}; the archive holds {} file{}: {}{}",
                    self.entries.len(),
                    if self.entries.len() == 1 { "" } else { "s" },
                    names.join(", "),
                    if self.entries.len() > 20 { ", ..." } else { "" }
                ),
            )
        })?;
        if entry.flags & FLAG_COMPRESSED != 0 {
            return Err(Error::new(
                format!("umod file {:?}", entry.name),
                entry.offset as usize,
                "an uncompressed file (its directory flags say compressed, which no shipped installer writes and this reader does not read)",
            ));
        }
        Ok((entry, self.bytes(entry)))
    }
}
