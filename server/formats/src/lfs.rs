//! Git LFS pointer files: what a checkout holds in place of a binary file whose LFS object was
//! never fetched (`git lfs pull`). A pointer is a short UTF-8 text of `key value` lines, the
//! first always `version https://git-lfs.github.com/spec/v1` (early clients wrote
//! `version https://hawser.github.com/spec/v1`), then `oid sha256:<64 hex digits>` and
//! `size <bytes>`; the Git LFS specification caps a pointer at 1024 bytes. Every reader
//! meeting one should say that, not that the bytes are a broken package or image.

/// The object a pointer stands for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LfsPointer {
    /// The object's id, as written after `oid ` (`sha256:...`); empty when absent.
    pub oid: String,
    /// The size of the real file in bytes, when the pointer gives it.
    pub size: Option<u64>,
}

/// The most a pointer file can hold (the specification's limit).
const MAX_POINTER: usize = 1024;

/// `Some` when `bytes` are a Git LFS pointer rather than the file itself.
pub fn pointer(bytes: &[u8]) -> Option<LfsPointer> {
    if bytes.len() > MAX_POINTER {
        return None;
    }
    let text = std::str::from_utf8(bytes).ok()?;
    let mut lines = text.lines();
    let version = lines.next()?.trim_end();
    if version != "version https://git-lfs.github.com/spec/v1"
        && version != "version https://hawser.github.com/spec/v1"
    {
        return None;
    }
    let mut found = LfsPointer { oid: String::new(), size: None };
    for line in lines {
        match line.trim_end().split_once(' ') {
            Some(("oid", oid)) => oid.clone_into(&mut found.oid),
            Some(("size", size)) => found.size = size.parse().ok(),
            _ => {}
        }
    }
    Some(found)
}

impl LfsPointer {
    /// What a reader says of the file: what it is and what to do.
    pub fn describe(&self) -> String {
        let size = self.size.map_or_else(String::new, |s| format!(" of {s} bytes"));
        format!(
            "the file itself, not a Git LFS pointer: this checkout holds the pointer to an LFS object{size}; fetch the LFS objects (`git lfs pull`)"
        )
    }
}

#[cfg(test)]
mod tests {
    use super::pointer;

    #[test]
    fn pointers_are_told_from_files() {
        let text = "version https://git-lfs.github.com/spec/v1\noid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\nsize 12345\n";
        let found = pointer(text.as_bytes()).unwrap();
        assert_eq!(found.size, Some(12345));
        assert!(found.oid.starts_with("sha256:4d7a"));
        assert!(pointer(b"version https://git-lfs.github.com/spec/v1\r\nsize x\r\n").is_some());
        assert_eq!(pointer(b"RIFF\0\0\0\0WAVE"), None);
        assert_eq!(pointer(b"version https://example.com/spec/v1\n"), None);
        assert_eq!(pointer(&[0xC1, 0x83, 0x2A, 0x9E]), None);
        assert_eq!(pointer(&text.repeat(20).into_bytes()), None);
    }
}
