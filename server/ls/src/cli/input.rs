//! The file a command reads, by the name the user gave: a file on disk, or a file inside a
//! mod installer named `Mod.umod:System/MyMod.u` (the archive's path, a colon, the name in
//! its directory; see `unreal_formats::umod`). A file on disk is always taken first, so a
//! real file whose name holds `.umod:` is still read.

use std::ops::Deref;
use std::path::{Path, PathBuf};

use unreal_formats::mapped::MappedFile;
use unreal_formats::umod::{self, Umod};

pub struct Input {
    file: MappedFile,
    /// The bytes of a member inside `file`.
    member: Option<std::ops::Range<usize>>,
    /// The name the file's format is told by (a member's own name, without its folder).
    pub name: String,
}

impl Deref for Input {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match &self.member {
            Some(range) => self.file.get(range.clone()).unwrap_or_default(),
            None => &self.file,
        }
    }
}

impl Input {
    /// An error when the file on disk changed while it was read.
    pub fn check(&self) -> std::io::Result<()> {
        self.file.check()
    }
}

fn base_name(name: &str) -> &str {
    name.rsplit(['/', '\\']).next().unwrap_or(name)
}

/// The file on disk that `path` reads: itself, or the archive holding the member it names.
pub fn disk_path(path: &Path) -> PathBuf {
    if path.exists() {
        return path.to_path_buf();
    }
    match path.to_str().and_then(umod::split_member) {
        Some((archive, _)) => PathBuf::from(archive),
        None => path.to_path_buf(),
    }
}

/// Opens `path` (see the module's comment); the error says why in words.
pub fn open(path: &Path) -> Result<Input, String> {
    let whole = MappedFile::open(path);
    let split = path.to_str().and_then(umod::split_member);
    match (whole, split) {
        (Ok(file), _) => {
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default().to_owned();
            Ok(Input { file, member: None, name })
        }
        (Err(e), Some((archive, member))) if e.kind() == std::io::ErrorKind::NotFound => {
            let archive_path = PathBuf::from(archive);
            let file = MappedFile::open(&archive_path)
                .map_err(|e| format!("cannot read the archive {archive}: {e}"))?;
            let range = {
                let parsed = Umod::parse(&file).map_err(|e| format!("{archive}: {e}"))?;
                let (entry, _) = parsed.member(member).map_err(|e| format!("{archive}: {e}"))?;
                let start = entry.offset as usize;
                start..start + entry.size as usize
            };
            Ok(Input { file, member: Some(range), name: base_name(member).to_owned() })
        }
        (Err(e), _) => Err(format!("cannot read: {e}")),
    }
}
