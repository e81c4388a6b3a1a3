//! Which files of a folder unreal-ls checks, and how each is read: what `unreal-ls lint DIR`
//! walks and what the language server checks in the background for the workspace's problems
//! (`lsp/workspace_problems.rs`), so that the editor's Problems panel lists the files CI
//! lists.
//!
//! A walk goes below the root in file-name order, skips hidden folders (`.git`, `.vscode`)
//! and files with the extensions of binary content (packages, meshes, images, sounds,
//! archives), follows links only while they stay under the root, and never opens a FIFO,
//! socket or device. Which of the files found are T3D or UnrealScript is decided when each is
//! read ([`read_checkable`]): by extension, else by its first bytes.

use std::io::Read;
use std::path::{Path, PathBuf};

use unreal_analysis::lint::{detect_kind, FileKind};
use unreal_formats::mapped::io_message;

/// Extensions of binary files that live next to maps and scripts; never opened.
const BINARY_EXTENSIONS: &[&str] = &[
    "u", "utx", "uax", "umx", "unr", "usx", "ukx", "uvx", "ut2", "rom", "dx", "run", "psk", "psa",
    "3d", "u3d", "pcx", "bmp", "tga", "dds", "png", "jpg", "wav", "ogg", "mp3", "exe", "dll", "so",
    "zip", "7z", "rar", "gz", "uz", "uz2",
];

/// What a walk meets.
pub enum Walked {
    /// A regular file that is not binary by its extension: to be read with
    /// [`read_checkable`].
    File(PathBuf),
    /// A link below the root that leads outside it (`target`, canonical): not followed.
    LinkOutside { path: PathBuf, target: PathBuf, is_dir: bool },
    /// A FIFO, socket or device: never opened (reading one blocks).
    NotRegular(PathBuf),
    /// A folder or file that could not be read.
    Failed { path: PathBuf, message: String },
}

/// The kernel's pseudo file systems: their files are no maps or classes, their trees are
/// endless (`/proc/self/root/...`) or block when read. A walk of `/` leaves them out.
const PSEUDO_FILE_SYSTEMS: &[&str] = &["/proc", "/sys", "/dev"];

/// Walks `root` (a folder) as described at the top of this file, calling `visit` for each
/// file and each problem in file-name order, until `visit` returns false.
pub fn walk(root: &Path, visit: &mut dyn FnMut(Walked) -> bool) {
    let inside = std::fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
    let mut walker = walkdir::WalkDir::new(root)
        .follow_links(true)
        .sort_by_file_name()
        .into_iter()
        // Below the root, hidden folders (.git, .vscode) hold no maps of the user's.
        .filter_entry(|e| {
            e.depth() == 0
                || !(is_hidden(e.file_name())
                    || (e.file_type().is_dir()
                        && PSEUDO_FILE_SYSTEMS.iter().any(|p| e.path() == Path::new(p))))
        });
    let mut going = true;
    while let Some(entry) = walker.next().filter(|_| going) {
        if let Ok(entry) = &entry {
            if entry.depth() > 0 && entry.path_is_symlink() {
                if let Some(target) = leaves_tree(entry.path(), &inside) {
                    let is_dir = entry.file_type().is_dir();
                    if is_dir {
                        walker.skip_current_dir();
                    }
                    going = visit(Walked::LinkOutside {
                        path: entry.path().to_path_buf(),
                        target,
                        is_dir,
                    });
                    continue;
                }
            }
        }
        match entry {
            Ok(entry) if entry.file_type().is_file() => {
                if !has_binary_extension(entry.path()) {
                    going = visit(Walked::File(entry.into_path()));
                }
            }
            Ok(entry) if !entry.file_type().is_dir() => {
                going = visit(Walked::NotRegular(entry.into_path()));
            }
            Ok(_) => {}
            Err(err) => {
                let path = err.path().unwrap_or(root).to_path_buf();
                let message = err.io_error().map_or_else(|| err.to_string(), io_message);
                going = visit(Walked::Failed { path, message });
            }
        }
    }
}

/// Where a link found in a folder walk leads, when that is not under `root` (canonical).
fn leaves_tree(link: &Path, root: &Path) -> Option<PathBuf> {
    match std::fs::canonicalize(link) {
        Ok(target) if target.starts_with(root) => None,
        Ok(target) => Some(target),
        // A dangling link: walkdir reports it; nothing to follow.
        Err(_) => None,
    }
}

fn is_hidden(name: &std::ffi::OsStr) -> bool {
    name.to_str().is_some_and(|n| n.starts_with('.') && n != "." && n != "..")
}

fn has_binary_extension(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| BINARY_EXTENSIONS.iter().any(|b| b.eq_ignore_ascii_case(e)))
}

/// How much of a file without a telling extension is read to decide what it is.
const SNIFF_BYTES: usize = 8192;

/// A file to check: its text mapped (UTF-8 of at least 64 KB, when only findings are
/// wanted), or its bytes.
pub enum Content {
    Mapped(unreal_formats::mapped::MappedText),
    Read(Vec<u8>),
}

/// Reads a file if it is one unreal-ls checks: by extension without looking inside, else by
/// its first bytes. `may_map`: a UTF-8 file may be mapped instead of read (only findings are
/// wanted, no rewrite). `Ok(None)`: neither T3D nor UnrealScript. The error names what went
/// wrong, for the caller to put after the path.
pub fn read_checkable(path: &Path, may_map: bool) -> Result<Option<(FileKind, Content)>, String> {
    let mut file = unreal_formats::mapped::open_regular(path).map_err(|e| io_message(&e))?;
    let len = file.metadata().map_err(|e| io_message(&e))?.len();
    if len > u64::from(u32::MAX) {
        return Err(format!("{len} bytes is more than the 4 GiB unreal-ls reads"));
    }
    let mut bytes = Vec::new();
    (&mut file).take(SNIFF_BYTES as u64).read_to_end(&mut bytes).map_err(|e| io_message(&e))?;
    let Some(kind) = detect_kind(path, &bytes) else { return Ok(None) };
    // A binary file named `.t3d` is reported from its first bytes: a gigabyte of zeros is
    // never read whole, decoded and parsed.
    if kind == FileKind::T3d && !unreal_syntax::text::looks_like_text(&bytes) {
        return Ok(Some((kind, Content::Read(bytes))));
    }
    if may_map {
        if let Some(text) = unreal_formats::mapped::MappedText::map(&file) {
            return Ok(Some((kind, Content::Mapped(text))));
        }
    }
    // The length is the file's own (checked above), so reserving it up front is safe.
    bytes.reserve((len as usize).saturating_sub(bytes.len()));
    file.read_to_end(&mut bytes).map_err(|e| io_message(&e))?;
    Ok(Some((kind, Content::Read(bytes))))
}
