//! The one writer of every file unreal-ls writes: `--fix` (a file rewritten in place),
//! `--write-baseline`, `render -o` and `export -o`.
//!
//! Every write goes the same way: a temporary file created new in the destination's folder
//! (anonymous, `O_TMPFILE`, where Linux can; else under an unguessable name, `O_EXCL`), the
//! bytes written and synced, then the file renamed over the destination, or, for a
//! destination that did not exist, linked to its name (which, like a create-new open, never
//! replaces a file or link that appeared there meanwhile). A failure at any point (a full
//! disk, a kill) leaves the old file as it was, and no temporary file: SIGINT and SIGTERM
//! remove it ([`clean_temp_files_on_signals`]), what a SIGKILL leaves the next run removes
//! ([`sweep_stale_temp_files`]).
//!
//! [`write_output`] adds what an output may never be: a folder, a device, FIFO or socket (a
//! rename would swap `/dev/null` for a plain file; an open of a FIFO blocks forever), the
//! command's own input (`render map.t3d -o map.t3d`), a symbolic link written through, or an
//! existing file replaced without the caller's leave ([`Overwrite`]). `--fix` keeps its own
//! rules (`fix::replace_file`: the file is its input, a link is written at its target) on the
//! same core ([`write_and_commit`]).

use std::fs;
use std::io::{self, Write as _};
use std::path::{Path, PathBuf};

/// Temporary files being written, removed by the SIGINT/SIGTERM handler.
static TEMP_FILES: std::sync::Mutex<Vec<PathBuf>> = std::sync::Mutex::new(Vec::new());

/// Removes the temporary files of writes in progress when the process is interrupted or
/// terminated, then exits with 130. Installed once, by `lint --fix` and `--write-baseline`.
pub fn clean_temp_files_on_signals() {
    static INSTALLED: std::sync::Once = std::sync::Once::new();
    INSTALLED.call_once(|| {
        let _ = ctrlc::set_handler(|| {
            // The lock is held until the exit: a write that registers its temporary file
            // creates it under the same lock, so no file can appear after this sweep.
            let temps = TEMP_FILES.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            for temp in temps.iter() {
                let _ = fs::remove_file(temp);
            }
            std::process::exit(130);
        });
    });
}

/// What every temporary file's name holds after the file's own name: `.NAME.unreal-ls-PID-RANDOM.tmp`.
const TEMP_MARK: &str = ".unreal-ls-";

/// A temporary name next to the file that nobody can guess ahead of time: the process's
/// randomly keyed hasher over the time, the process and a counter. The name also carries the
/// process id, so that a later run can tell a file left by a killed process
/// ([`sweep_stale_temp_files`]).
pub(super) fn temp_name(dir: &Path, name: &str) -> PathBuf {
    use std::hash::{BuildHasher, Hasher};
    static COUNTER: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos()),
    );
    hasher.write_u32(std::process::id());
    hasher.write_u64(COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed));
    dir.join(format!(".{name}{TEMP_MARK}{}-{:016x}.tmp", std::process::id(), hasher.finish()))
}

/// The process that made a temporary file, from a name [`temp_name`] made; `None` for any
/// other name.
#[cfg_attr(not(target_os = "linux"), allow(dead_code))] // the sweep is Linux-only
fn temp_owner(file_name: &str) -> Option<u32> {
    let rest = file_name.strip_prefix('.')?.strip_suffix(".tmp")?;
    let (_, tail) = rest.rsplit_once(TEMP_MARK)?;
    let (pid, random) = tail.split_once('-')?;
    let digits = |s: &str, hex: bool| {
        !s.is_empty()
            && s.bytes().all(|b| if hex { b.is_ascii_hexdigit() } else { b.is_ascii_digit() })
    };
    if !digits(pid, false) || random.len() != 16 || !digits(random, true) {
        return None;
    }
    pid.parse().ok()
}

/// Whether `file_name` is a temporary file's name of the builds of 24 November 2026 (04:26 to
/// 19:35 UTC on main, ebec4fe to b79ab09), which carried no process id:
/// `.NAME.unreal-ls-RANDOM.tmp`, RANDOM 16 lower-case hex digits.
#[cfg_attr(not(target_os = "linux"), allow(dead_code))] // the sweep is Linux-only
fn pidless_temp_name(file_name: &str) -> bool {
    let Some(rest) = file_name.strip_prefix('.').and_then(|r| r.strip_suffix(".tmp")) else {
        return false;
    };
    let Some((name, random)) = rest.rsplit_once(TEMP_MARK) else { return false };
    !name.is_empty()
        && random.len() == 16
        && random.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// A temporary file without a process id ([`pidless_temp_name`]) is removed only once it has
/// not been written for this long: no fix takes that long to write one file.
#[cfg_attr(not(target_os = "linux"), allow(dead_code))] // the sweep is Linux-only
const PIDLESS_STALE_AFTER: std::time::Duration = std::time::Duration::from_mins(15);

/// Removes the temporary files that a killed `--fix` (SIGKILL cannot be caught) left in `dir`:
/// regular files (never a link) named as [`temp_name`] names them, whose process no longer
/// runs, owned by this user (or by anyone, for root, whose fix gives the file its owner); and
/// files of the same kind named as the builds without a process id in the name named them
/// ([`pidless_temp_name`]) and not written for [`PIDLESS_STALE_AFTER`].
/// Each folder is swept once a run, before the first file in it is fixed. Linux only (the
/// process table is read from `/proc`); returns how many files were removed.
///
/// With anonymous temporary files ([`anonymous`]) a kill leaves a named one only in the
/// instant between its link and its rename; on a file system without them (and before
/// them), a kill during any write did.
pub fn sweep_stale_temp_files(dir: &Path) -> usize {
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::fs::MetadataExt as _;
        static SWEPT: std::sync::Mutex<Vec<PathBuf>> = std::sync::Mutex::new(Vec::new());
        {
            let mut swept = SWEPT.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            if swept.iter().any(|d| d == dir) {
                return 0;
            }
            swept.push(dir.to_path_buf());
        }
        // Without a process table no process can be told gone.
        let Ok(me) = fs::metadata("/proc/self") else { return 0 };
        let Ok(entries) = fs::read_dir(dir) else { return 0 };
        let mut removed = 0;
        for entry in entries.flatten() {
            let Some(file_name) = entry.file_name().to_str().map(str::to_owned) else { continue };
            let pidless = pidless_temp_name(&file_name);
            if !pidless {
                let Some(pid) = temp_owner(&file_name) else { continue };
                if pid == std::process::id() || Path::new("/proc").join(pid.to_string()).exists() {
                    continue;
                }
            }
            let Ok(metadata) = fs::symlink_metadata(entry.path()) else { continue };
            if !metadata.file_type().is_file() || (me.uid() != 0 && metadata.uid() != me.uid()) {
                continue;
            }
            let written = metadata.modified().ok().and_then(|at| at.elapsed().ok());
            if pidless && written.is_none_or(|age| age < PIDLESS_STALE_AFTER) {
                continue;
            }
            if fs::remove_file(entry.path()).is_ok() {
                removed += 1;
            }
        }
        removed
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = dir;
        0
    }
}

/// Anonymous temporary files (Linux's `O_TMPFILE`): the new text is written to a file that
/// has no name until it is complete, checked and about to be renamed over the original, so
/// a process killed while writing leaves nothing behind.
#[cfg(target_os = "linux")]
mod anonymous {
    use std::fs::{self, File};
    use std::io;
    use std::path::Path;

    /// An unnamed file in `dir` with `mode` (less the umask); `None` when the file system (or
    /// the kernel, or a missing `/proc`) cannot make or later name one.
    pub fn create(dir: &Path, mode: u32) -> io::Result<Option<File>> {
        use std::os::unix::fs::OpenOptionsExt as _;
        if !Path::new("/proc/self/fd").is_dir() {
            return Ok(None);
        }
        let opened = fs::OpenOptions::new()
            .write(true)
            .mode(mode)
            .custom_flags(libc::O_TMPFILE)
            .open(if dir.as_os_str().is_empty() { Path::new(".") } else { dir });
        match opened {
            Ok(file) => Ok(Some(file)),
            Err(e)
                if matches!(
                    e.raw_os_error(),
                    Some(libc::EOPNOTSUPP | libc::EISDIR | libc::EINVAL)
                ) =>
            {
                Ok(None)
            }
            Err(e) => Err(e),
        }
    }

    /// Gives the unnamed `file` the name `to`. Like a create-new open, this never replaces
    /// what is at `to`, file or link (`EEXIST`), and never follows a link there.
    #[allow(unsafe_code)]
    pub fn link(file: &File, to: &Path) -> io::Result<()> {
        use std::ffi::CString;
        use std::os::fd::AsRawFd as _;
        use std::os::unix::ffi::OsStrExt as _;
        let from = CString::new(format!("/proc/self/fd/{}", file.as_raw_fd()))?;
        let to = CString::new(to.as_os_str().as_bytes())?;
        // SAFETY: both arguments are NUL-terminated strings that outlive the call; linkat
        // reads them and keeps no pointer.
        let done = unsafe {
            libc::linkat(
                libc::AT_FDCWD,
                from.as_ptr(),
                libc::AT_FDCWD,
                to.as_ptr(),
                libc::AT_SYMLINK_FOLLOW,
            )
        };
        if done == 0 {
            Ok(())
        } else {
            Err(io::Error::last_os_error())
        }
    }
}

/// Why a file was not rewritten.
#[derive(Debug)]
pub struct NotWritten {
    pub message: String,
    /// The file was left alone on purpose (read-only, hard-linked): a note, not a failure.
    pub skipped: bool,
}

impl NotWritten {
    pub(super) fn failed(message: String) -> Self {
        Self { message, skipped: false }
    }
    pub(super) fn skipped(message: String) -> Self {
        Self { message, skipped: true }
    }
}

/// How the complete temporary file becomes the destination.
pub enum Commit<'a> {
    /// Renamed over `path` (a file or a link there is replaced, never written through).
    Replace(&'a Path),
    /// Given the name `path`, which must not exist: a file or link that appeared there since
    /// the caller looked is left alone and the write fails.
    New(&'a Path),
}

/// What a test can put in place of the real thing: the temporary file's name (to plant a
/// file there) and the write of the bytes (to fail half-way, as on a full disk).
pub struct Seams<'a> {
    pub temp_name: &'a dyn Fn(&Path, &str) -> PathBuf,
    pub write: &'a dyn Fn(&mut fs::File, &[u8]) -> io::Result<()>,
}

fn write_all(file: &mut fs::File, bytes: &[u8]) -> io::Result<()> {
    file.write_all(bytes)
}

/// The real names and writes.
pub const REAL: Seams<'static> = Seams { temp_name: &temp_name, write: &write_all };

/// Writes `bytes` to a new temporary file in `dir` (named after `name`, created with `mode`
/// less the umask), syncs it, lets `check` look at it (and refuse), then commits it. On any
/// failure nothing but the temporary file was touched, and it is gone.
pub fn write_and_commit(
    dir: &Path,
    name: &str,
    mode: u32,
    bytes: &[u8],
    seams: &Seams<'_>,
    check: &mut dyn FnMut(&fs::File) -> Result<(), NotWritten>,
    commit: &Commit<'_>,
) -> Result<(), NotWritten> {
    let io = |what: &str, e: io::Error| NotWritten::failed(format!("{what}: {e}"));
    let temp = (seams.temp_name)(dir, name);
    sweep_stale_temp_files(dir);
    // Anonymous where the file system can (a kill while writing leaves nothing), else named.
    #[cfg(target_os = "linux")]
    let anonymous =
        anonymous::create(dir, mode).map_err(|e| io("cannot create a temporary file", e))?;
    #[cfg(not(target_os = "linux"))]
    let anonymous: Option<fs::File> = None;
    let named = anonymous.is_none();
    let mut file = if let Some(file) = anonymous {
        file
    } else {
        // Created and registered under one lock, so the signal handler removes every
        // temporary file that exists (and none that belongs to someone else: a name taken
        // is an error).
        let mut temps = TEMP_FILES.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let mut options = fs::OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, mode);
        #[cfg(not(unix))]
        let _ = mode;
        let file = options.open(&temp).map_err(|e| io("cannot create a temporary file", e))?;
        temps.push(temp.clone());
        file
    };
    let result = (|| {
        (seams.write)(&mut file, bytes).map_err(|e| io("cannot write", e))?;
        file.sync_all().map_err(|e| io("cannot write", e))?;
        check(&file)?;
        match (named, commit) {
            (true, Commit::Replace(path)) => fs::rename(&temp, path).map_err(|e| {
                // Windows replaces no file that a program holds open without delete sharing
                // (an editor, UnrealEd), nor a read-only one: access denied (5) or a sharing
                // violation (32), which alone say nothing of that.
                if cfg!(windows) && matches!(e.raw_os_error(), Some(5 | 32)) {
                    NotWritten::failed(format!(
                        "cannot replace the file: {e}; another program may have it open (Windows replaces no open file), or it is read-only: close it there and run again"
                    ))
                } else {
                    io("cannot replace the file", e)
                }
            }),
            (true, Commit::New(path)) => {
                fs::hard_link(&temp, path).map_err(|e| io("cannot create the file", e))
            }
            #[cfg(target_os = "linux")]
            (false, Commit::New(path)) => {
                anonymous::link(&file, path).map_err(|e| io("cannot create the file", e))
            }
            #[cfg(target_os = "linux")]
            (false, Commit::Replace(path)) => {
                // Named and renamed under the signal handler's lock: an interrupt removes
                // nothing half-way, and the name exists only between these two calls.
                let _temps = TEMP_FILES.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
                anonymous::link(&file, &temp)
                    .map_err(|e| io("cannot create a temporary file", e))?;
                if let Err(e) = fs::rename(&temp, path) {
                    let _ = fs::remove_file(&temp);
                    return Err(io("cannot replace the file", e));
                }
                Ok(())
            }
            #[cfg(not(target_os = "linux"))]
            (false, _) => Ok(()),
        }
    })();
    if named {
        // Renamed away, linked (then the name goes), or failed: the temporary name goes.
        if result.is_err() || matches!(commit, Commit::New(_)) {
            let _ = fs::remove_file(&temp);
        }
        TEMP_FILES.lock().unwrap_or_else(std::sync::PoisonError::into_inner).retain(|t| t != &temp);
    }
    result
}

/// What an output may replace.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Overwrite {
    /// `--force` given (`true`) or not: without it an existing file or link is an error; with
    /// it, it is replaced (a link itself, never the file it points to).
    Force(bool),
    /// A file unreal-ls owns (a baseline): an existing regular file is replaced; a link is
    /// refused, naming it (a baseline linked to `~/.bashrc` must not overwrite it).
    OwnFile,
}

/// Writes an output file at `path` (see the module): refused, with the reason, when `path` is
/// a folder, a device, FIFO or socket, one of `inputs` (the same file, by device and inode),
/// or an existing file or link that `overwrite` does not let go. The folder is created when
/// missing. The error is the reason only; the caller names the path.
pub fn write_output(
    path: &Path,
    bytes: &[u8],
    overwrite: Overwrite,
    inputs: &[&Path],
) -> Result<(), String> {
    write_output_via(path, bytes, overwrite, inputs, &REAL)
}

/// [`write_output`] through `seams` (tests).
pub fn write_output_via(
    path: &Path,
    bytes: &[u8],
    overwrite: Overwrite,
    inputs: &[&Path],
    seams: &Seams<'_>,
) -> Result<(), String> {
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .ok_or_else(|| "it names a folder (`.`, `..` or a trailing `/`), not a file".to_owned())?;
    if cfg!(windows) {
        if let Some(device) = device_name_in(path) {
            return Err(format!(
                "`{device}` is a device name on Windows (CON, PRN, AUX, NUL, COM1 to COM9, LPT1 to LPT9, with any extension): Windows would open the device, not a file; nothing is written, choose another name"
            ));
        }
    }
    let existing = match fs::symlink_metadata(path) {
        Ok(meta) => Some(meta),
        Err(e) if e.kind() == io::ErrorKind::NotFound => None,
        Err(e) => return Err(unreal_formats::mapped::io_message(&e)),
    };
    if let Some(meta) = &existing {
        if same_file_as_an_input(path, meta, inputs).is_some() {
            // Checked before anything else: even `--force` never replaces what is being read.
            let input = same_file_as_an_input(path, meta, inputs).unwrap_or(path);
            return Err(format!(
                "it is the command's own input ({}); nothing is written",
                input.display()
            ));
        }
        let kind = meta.file_type();
        if kind.is_dir() {
            return Err("it is a folder, not a file".to_owned());
        }
        if kind.is_symlink() {
            let target = fs::read_link(path)
                .map_or_else(|_| "somewhere unreadable".to_owned(), |t| t.display().to_string());
            match overwrite {
                Overwrite::Force(true) => {}
                Overwrite::Force(false) => {
                    return Err(format!(
                        "it exists; pass --force to replace it (a symbolic link to {target}: the link is replaced, never written through)"
                    ));
                }
                Overwrite::OwnFile => {
                    return Err(format!(
                        "it is a symbolic link (to {target}); nothing is written through a link: name the file itself"
                    ));
                }
            }
        } else if !kind.is_file() {
            return Err(
                "it is not a regular file (a device, FIFO or socket); nothing is written to it"
                    .to_owned(),
            );
        } else if overwrite == Overwrite::Force(false) {
            return Err("it exists; pass --force to replace it".to_owned());
        }
    }
    fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let commit = if existing.is_some() { Commit::Replace(path) } else { Commit::New(path) };
    write_and_commit(&dir, &name, 0o666, bytes, seams, &mut |_| Ok(()), &commit).map_err(|e| {
        match &commit {
            Commit::New(_) if e.message.contains("File exists") => format!(
                "{}; something was put at that name while it was written, and is left alone",
                e.message
            ),
            _ => e.message,
        }
    })
}

/// Whether Windows opens `name` (one file name, no folder) as a device rather than a file:
/// `CON`, `PRN`, `AUX`, `NUL`, `CONIN$`, `CONOUT$`, `COM0` to `COM9` and `LPT0` to `LPT9`
/// (and with the superscript digits ¹ ² ³), in any case, with any extension (`nul.png`,
/// `Com1.Skin.glb`), spaces before the first dot ignored. Platform-independent: an export
/// folder is often copied to Windows.
pub fn is_windows_device_name(name: &str) -> bool {
    let stem = name.split('.').next().unwrap_or_default().trim_end_matches(' ');
    let upper = stem.to_ascii_uppercase();
    if matches!(upper.as_str(), "CON" | "PRN" | "AUX" | "NUL" | "CONIN$" | "CONOUT$") {
        return true;
    }
    let mut chars = upper.chars();
    let prefix: String = chars.by_ref().take(3).collect();
    (prefix == "COM" || prefix == "LPT")
        && matches!(chars.next(), Some('0'..='9' | '¹' | '²' | '³'))
        && chars.next().is_none()
}

/// The first part of `path` that is a Windows device name ([`is_windows_device_name`]).
fn device_name_in(path: &Path) -> Option<String> {
    path.components().find_map(|c| match c {
        std::path::Component::Normal(part) => {
            let part = part.to_string_lossy();
            is_windows_device_name(&part).then(|| part.into_owned())
        }
        _ => None,
    })
}

/// The input that the output at `path` (whose own entry, links not followed, is `meta`) is
/// the same file as. On Unix by device and inode; elsewhere by the canonical path, which on
/// Windows also makes `-o room.T3D` the input `Room.t3d` (the file system ignores case): there
/// `render Room.t3d -o room.T3D --force` replaced the map with the picture.
fn same_file_as_an_input<'a>(
    path: &Path,
    meta: &fs::Metadata,
    inputs: &[&'a Path],
) -> Option<&'a Path> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt as _;
        let _ = path;
        inputs.iter().copied().find(|input| {
            fs::metadata(input).is_ok_and(|m| m.dev() == meta.dev() && m.ino() == meta.ino())
        })
    }
    #[cfg(not(unix))]
    {
        let _ = meta;
        let output = fs::canonicalize(path).ok()?;
        inputs.iter().copied().find(|input| fs::canonicalize(input).is_ok_and(|i| i == output))
    }
}

#[cfg(test)]
mod tests {
    use std::fs;
    use std::io::{self, Write as _};
    use std::path::Path;

    use super::{write_output, write_output_via, Overwrite, Seams, REAL};

    /// A fresh folder for the test, removed when it ends.
    fn scratch(name: &str) -> unreal_test_support::ScratchDir {
        unreal_test_support::ScratchDir::new(&format!("output-{name}"))
    }

    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .filter_map(|e| e.ok()?.file_name().into_string().ok())
            .collect();
        names.sort();
        names
    }

    /// `ENOSPC`; on Windows `ERROR_DISK_FULL` (28 is "out of paper" there).
    const DISK_FULL: i32 = if cfg!(windows) { 112 } else { 28 };

    /// A write that fails half-way (what a full disk does: `render` and `export --force` left
    /// a truncated 4 KB file where the old one was): the old file is intact, no temporary file
    /// is left, and a new output leaves nothing at all.
    #[test]
    fn a_write_that_fails_midway_leaves_the_old_file() {
        let dir = scratch("midway");
        let old = dir.join("old.png");
        fs::write(&old, "the old picture").unwrap();
        let half = |file: &mut fs::File, bytes: &[u8]| -> io::Result<()> {
            file.write_all(&bytes[..bytes.len() / 2])?;
            Err(io::Error::from_raw_os_error(DISK_FULL))
        };
        let seams = Seams { temp_name: REAL.temp_name, write: &half };
        let new = vec![b'x'; 64 * 1024];
        for overwrite in [Overwrite::Force(true), Overwrite::OwnFile] {
            let err = write_output_via(&old, &new, overwrite, &[], &seams).unwrap_err();
            assert!(err.contains("cannot write"), "{err}");
            assert_eq!(fs::read_to_string(&old).unwrap(), "the old picture");
        }
        let err =
            write_output_via(&dir.join("new.png"), &new, Overwrite::Force(false), &[], &seams)
                .unwrap_err();
        assert!(err.contains(&io::Error::from_raw_os_error(DISK_FULL).to_string()), "{err}");
        assert_eq!(names(&dir), ["old.png"]);
        // And when it succeeds, the new bytes are there whole.
        write_output(&old, &new, Overwrite::Force(true), &[]).unwrap();
        assert_eq!(fs::read(&old).unwrap(), new);
        assert_eq!(names(&dir), ["old.png"]);
        let _ = fs::remove_dir_all(&dir);
    }

    /// A file or link that appears at a new output's name while it is written is left alone.
    #[cfg(unix)]
    #[test]
    fn a_file_planted_while_writing_is_not_replaced() {
        let dir = scratch("planted");
        let out = dir.join("out.png");
        let plant = |file: &mut fs::File, bytes: &[u8]| -> io::Result<()> {
            std::os::unix::fs::symlink("/nonexistent-victim", dir.join("out.png"))?;
            file.write_all(bytes)
        };
        let seams = Seams { temp_name: REAL.temp_name, write: &plant };
        let err = write_output_via(&out, b"new", Overwrite::Force(false), &[], &seams).unwrap_err();
        assert!(err.contains("left alone"), "{err}");
        assert!(out.is_symlink());
        assert_eq!(names(&dir), ["out.png"]);
        let _ = fs::remove_dir_all(&dir);
    }

    /// What an output may never be, whatever `--force` says.
    /// The command's own input is never its output, even with `--force`; on Windows, which
    /// ignores case, not under another spelling either (`render Map.t3d -o map.T3D --force`
    /// replaced the map with the picture there).
    #[test]
    fn the_input_is_never_the_output() {
        let dir = scratch("own-input");
        let input = dir.join("Map.t3d");
        fs::write(&input, "the map").unwrap();
        let err = write_output(&input, b"png", Overwrite::Force(true), &[&input]).unwrap_err();
        assert!(err.contains("own input"), "{err}");
        if cfg!(windows) {
            let other_case = dir.join("map.T3D");
            let err =
                write_output(&other_case, b"png", Overwrite::Force(true), &[&input]).unwrap_err();
            assert!(err.contains("own input"), "{err}");
        }
        assert_eq!(fs::read_to_string(&input).unwrap(), "the map");
    }

    #[test]
    fn windows_device_names_are_known_whatever_the_extension() {
        use super::{device_name_in, is_windows_device_name};
        for name in [
            "CON",
            "con.glb",
            "Nul.Tex.png",
            "aux",
            "PRN.txt",
            "COM1",
            "com9.obj",
            "LPT0",
            "COM¹.png",
            "CONIN$",
            "conout$.x",
            "CON .txt",
            "NUL.",
        ] {
            assert!(is_windows_device_name(name), "{name}");
        }
        for name in ["Console.png", "COM10", "LPT", "CONX", "_CON.png", "xCON", "", ".con", "COMA"]
        {
            assert!(!is_windows_device_name(name), "{name}");
        }
        assert_eq!(device_name_in(Path::new("out/nul/a.png")).as_deref(), Some("nul"));
        assert_eq!(
            device_name_in(Path::new("out/Com1.Skin.glb")).as_deref(),
            Some("Com1.Skin.glb")
        );
        assert_eq!(device_name_in(Path::new("out/Console.glb")), None);
    }

    #[cfg(unix)]
    #[test]
    fn special_destinations_are_refused() {
        let dir = scratch("special");
        let input = dir.join("map.t3d");
        fs::write(&input, "Begin Map").unwrap();
        fs::hard_link(&input, dir.join("twin.t3d")).unwrap();
        for overwrite in [Overwrite::Force(true), Overwrite::OwnFile] {
            for (path, why) in [
                (dir.to_path_buf(), "folder"),
                (std::path::PathBuf::from("/dev/null"), "not a regular file"),
                (input.clone(), "own input"),
                (dir.join("twin.t3d"), "own input"),
            ] {
                let err = write_output(&path, b"x", overwrite, &[&input]).unwrap_err();
                assert!(err.contains(why), "{path:?}: {err}");
            }
        }
        assert_eq!(fs::read_to_string(&input).unwrap(), "Begin Map");
        let _ = fs::remove_dir_all(&dir);
    }
}
