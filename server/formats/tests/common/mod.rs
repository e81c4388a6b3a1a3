//! Shared test helpers: corpus access and writers that build synthetic files.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

pub mod writers;

use std::path::PathBuf;

/// The third-party corpus next to the project, or `None` (with a printed note) when absent.
pub fn corpus() -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus");
    if dir.is_dir() {
        Some(dir)
    } else {
        println!(
            "skipping: corpus not found at {} (it is never part of the project)",
            dir.display()
        );
        None
    }
}

/// Every corpus file (relative path, bytes) whose extension is one of `exts`, sorted by path.
pub fn corpus_files(exts: &[&str]) -> Vec<(String, Vec<u8>)> {
    let Some(root) = corpus() else { return Vec::new() };
    let mut out = Vec::new();
    let mut stack = vec![root.clone()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if let Some(ext) = path.extension().and_then(|e| e.to_str()) {
                if exts.iter().any(|e| e.eq_ignore_ascii_case(ext)) {
                    let rel =
                        path.strip_prefix(&root).unwrap().to_string_lossy().replace('\\', "/");
                    out.push((rel, std::fs::read(&path).unwrap()));
                }
            }
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}
