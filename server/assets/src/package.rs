//! A package file opened for the asset pipeline: the one way `info`, `export`, `render` and
//! the server's previews open a package (a compressed `.uz`/`.uz2` one decompressed once per
//! version of the file, shared with the package index: [`unreal_analysis::unpacked`]), and
//! the one error they report, which keeps the reader's own (the structure, the byte and what
//! was expected there) up to whoever shows it.

use std::path::{Path, PathBuf};

use unreal_analysis::unpacked::{self, PackageBytes};
use unreal_formats::package::Package;

/// Why a package file could not be read, with the file and the reader's error, whose place
/// and expectation it shows as they are.
#[derive(Debug, thiserror::Error)]
pub enum AssetError {
    /// Its compression (`.uz`, `.uz2`) cannot be undone.
    #[error("{source}")]
    Unpack {
        path: PathBuf,
        #[source]
        source: unreal_formats::Error,
    },
    /// Its package cannot be read.
    #[error("{source}")]
    Read {
        path: PathBuf,
        #[source]
        source: unreal_formats::Error,
    },
}

impl AssetError {
    /// The file it is about.
    pub fn path(&self) -> &Path {
        match self {
            Self::Unpack { path, .. } | Self::Read { path, .. } => path,
        }
    }
}

/// A package file's bytes as its reader takes them, and its package name.
pub struct PackageFile<'a> {
    path: &'a Path,
    bytes: PackageBytes<'a>,
    name: String,
}

impl<'a> PackageFile<'a> {
    /// The package in the file `path` whose bytes are `bytes` (decompressed when compressed).
    pub fn open(path: &'a Path, bytes: &'a [u8]) -> Result<Self, AssetError> {
        let file_name = path.file_name().map(|n| n.to_string_lossy()).unwrap_or_default();
        Self::open_named(path, &file_name, bytes)
    }

    /// [`Self::open`] of a file whose name is not its path's (a member of a `.umod`
    /// installer, `Mod.umod:System/MyMod.u`, is the package `MyMod`).
    pub fn open_named(
        path: &'a Path,
        file_name: &str,
        bytes: &'a [u8],
    ) -> Result<Self, AssetError> {
        let bytes = unpacked::package_bytes(path, bytes)
            .map_err(|source| AssetError::Unpack { path: path.to_path_buf(), source })?;
        let name = unreal_formats::package_name(file_name).to_owned();
        Ok(Self { path, bytes, name })
    }

    /// The bytes the package reader reads.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The package's name (`CTF-Face` for `Maps/CTF-Face.unr.uz`).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The package read from the bytes.
    pub fn parse(&self) -> Result<Package<'_>, AssetError> {
        Package::parse_named(&self.bytes, &self.name)
            .map_err(|source| AssetError::Read { path: self.path.to_path_buf(), source })
    }
}
