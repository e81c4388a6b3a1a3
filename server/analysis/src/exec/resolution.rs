//! What became of a directive's path: the one type the file checks, the symbol tables and the
//! features share (kept apart from the resolver in `package.rs`, which needs the
//! environment, so that the symbol tables need not).

use std::path::PathBuf;

/// How a directive's path found (or did not find) a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Resolution {
    /// The file exists. `on_disk` is the path as spelt on disk, relative to the folder it was
    /// resolved from, with backslashes; `case_differs` when the directive spells it otherwise.
    Found { path: PathBuf, on_disk: String, case_differs: bool },
    /// No such file. For a file outside `Classes/`, `beside` is a file of the same name in the
    /// directive's own folder (what the author probably meant).
    Missing { beside: Option<PathBuf> },
    /// The path leaves the folder that may be read: as written (`..\..\`, a drive letter, a
    /// leading `\`), and then it was not looked at; or through `link`, a symbolic link inside
    /// the folder that leads out of it, and then nothing behind the link was looked at.
    OutsidePackage { link: Option<PathBuf> },
    /// Found through the game directory's package index (a `LOAD` of a game package).
    Indexed { path: PathBuf },
    /// Nothing was checked (no file system: an unsaved editor buffer).
    Unchecked,
}
