//! One decompressed copy of each compressed package (`.uz`, `.uz2`) shared by whoever reads
//! it: the language server's previews of a package (its tree, its objects) and the index's
//! reads of a package's objects (a mesh's textures, a hover's facts).
//!
//! Decompressing a package costs its whole size in memory and, for a UE1 `.uz`, a quarter
//! of a second for 10 MB; a preview used to pay that on every request, and four requests
//! for one file at once held four copies. Here a file version (its path, length and a
//! keyed hash of its bytes: a file rewritten in place with the same length is another
//! version) is decompressed once; requests for the same version while it decompresses wait
//! for that one decompression; one decompression runs at a time; and at most
//! [`KEPT_FILES`] decompressed files, of at most [`unreal_formats::uz::MAX_DECOMPRESSED`]
//! bytes together, are kept after their readers are done. A file that is not compressed is
//! read where it is, never copied.

use std::collections::hash_map::RandomState;
use std::hash::BuildHasher as _;
use std::ops::Deref;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use unreal_formats::uz::MAX_DECOMPRESSED;

/// How many decompressed files are kept once no reader holds them.
pub const KEPT_FILES: usize = 2;

/// A package's bytes: the file's own, or its decompressed copy shared with other readers.
pub enum PackageBytes<'a> {
    File(&'a [u8]),
    Shared(Arc<Vec<u8>>),
}

impl Deref for PackageBytes<'_> {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match self {
            Self::File(bytes) => bytes,
            Self::Shared(bytes) => bytes,
        }
    }
}

#[derive(Clone, PartialEq, Eq)]
struct Key {
    path: PathBuf,
    len: usize,
    hash: u64,
}

type Decompressed = Arc<OnceLock<Result<Arc<Vec<u8>>, unreal_formats::Error>>>;

struct Entry {
    key: Key,
    value: Decompressed,
}

/// The kept files, the most recent first.
static CACHE: Mutex<Vec<Entry>> = Mutex::new(Vec::new());
/// Held while a file decompresses: one at a time, whatever the number of requests.
static DECOMPRESSING: Mutex<()> = Mutex::new(());

fn key(path: &Path, bytes: &[u8]) -> Key {
    // Keys drawn at random once per process: no file can be crafted to collide with another.
    static STATE: OnceLock<RandomState> = OnceLock::new();
    let hash = STATE.get_or_init(RandomState::new).hash_one(bytes);
    Key { path: path.to_path_buf(), len: bytes.len(), hash }
}

/// The bytes a package reader reads from the file `path` whose bytes are `bytes`: a
/// compressed package decompressed (once per version of the file, see the module's
/// comment), any other file as it is.
pub fn package_bytes<'a>(
    path: &Path,
    bytes: &'a [u8],
) -> Result<PackageBytes<'a>, unreal_formats::Error> {
    let signature = bytes.get(..4).map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]));
    if signature == Some(unreal_formats::package::PACKAGE_SIGNATURE)
        || unreal_formats::uz::detect(bytes).is_none()
    {
        return Ok(PackageBytes::File(bytes));
    }
    let key = key(path, bytes);
    let value = {
        let mut cache = CACHE.lock().unwrap_or_else(PoisonError::into_inner);
        let value = match cache.iter().position(|e| e.key == key) {
            Some(at) => cache.remove(at).value,
            None => Arc::new(OnceLock::new()),
        };
        cache.insert(0, Entry { key, value: Arc::clone(&value) });
        trim(&mut cache);
        value
    };
    let result = value.get_or_init(|| {
        let _one_at_a_time = DECOMPRESSING.lock().unwrap_or_else(PoisonError::into_inner);
        unreal_formats::uz::decompress(bytes).map(|uz| Arc::new(uz.data))
    });
    let shared = result.clone().map(PackageBytes::Shared);
    // Within the bound now that its size is known.
    trim(&mut CACHE.lock().unwrap_or_else(PoisonError::into_inner));
    shared
}

/// Forgets the decompressed copy of `path` made from `bytes`: the file changed while it was
/// read (the caller's check said so), so the copy may hold what it never was.
pub fn forget(path: &Path, bytes: &[u8]) {
    let key = key(path, bytes);
    CACHE.lock().unwrap_or_else(PoisonError::into_inner).retain(|e| e.key != key);
}

/// Keeps the [`KEPT_FILES`] most recent files, and of those only as many as fit
/// [`MAX_DECOMPRESSED`] together (one being decompressed counts nothing yet).
fn trim(cache: &mut Vec<Entry>) {
    cache.truncate(KEPT_FILES);
    let mut total = 0usize;
    let mut keep = cache.len();
    for (i, entry) in cache.iter().enumerate() {
        if let Some(Ok(data)) = entry.value.get() {
            total = total.saturating_add(data.len());
        }
        if total > MAX_DECOMPRESSED && i > 0 {
            keep = i;
            break;
        }
    }
    cache.truncate(keep);
}

/// How many decompressed files are kept now, for tests.
pub fn kept() -> usize {
    CACHE.lock().unwrap_or_else(PoisonError::into_inner).len()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use std::path::Path;

    use super::{kept, package_bytes, PackageBytes, KEPT_FILES};
    use unreal_test_support::containers;

    /// One decompression for many readers of a version; a new version is another; at most
    /// [`KEPT_FILES`] are kept.
    #[test]
    fn a_file_version_is_decompressed_once_and_shared() {
        let data: Vec<u8> = (0..50_000u32).map(|i| (i % 251) as u8).collect();
        let file = containers::uz2(&data);
        let path = Path::new("/nowhere/Shared.utx.uz2");
        let first = package_bytes(path, &file).unwrap();
        let threads: Vec<_> = (0..4)
            .map(|_| {
                let file = file.clone();
                std::thread::spawn(move || match package_bytes(path, &file).unwrap() {
                    PackageBytes::Shared(shared) => shared,
                    PackageBytes::File(_) => unreachable!("a compressed file is decompressed"),
                })
            })
            .collect();
        let PackageBytes::Shared(first) = first else { unreachable!() };
        assert!(*first == data);
        for thread in threads {
            let shared = thread.join().unwrap();
            assert!(std::sync::Arc::ptr_eq(&shared, &first), "one copy for every reader");
        }
        // The same path rewritten: another version, another copy.
        let mut changed = data.clone();
        changed[0] ^= 1;
        let PackageBytes::Shared(second) = package_bytes(path, &containers::uz2(&changed)).unwrap()
        else {
            unreachable!()
        };
        assert!(*second == changed && !std::sync::Arc::ptr_eq(&second, &first));
        for i in 0..5 {
            let other = Path::new("/nowhere").join(format!("Other{i}.u.uz2"));
            package_bytes(&other, &file).unwrap();
        }
        assert!(kept() <= KEPT_FILES);
        // A package is read where it is.
        let package = unreal_test_support::writers::object_package(&[("Texture", "A.B")]);
        assert!(matches!(package_bytes(path, &package).unwrap(), PackageBytes::File(_)));
    }
}
