//! Shared by the robustness tests (`robust_*.rs`, `hostile_*.rs`): the shared corpus, a
//! deterministic generator, a mutator in the style of libFuzzer's, and ways to run the CLI in
//! a child process under a memory limit.
#![allow(dead_code)] // each test file uses a different part
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::pedantic)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// `../shared/corpus` beside the project, or `None` (with a printed note) when it is absent.
pub fn corpus() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus");
    if dir.is_dir() {
        Some(dir)
    } else {
        unreal_test_support::corpus::absent(&format!("{} is absent", dir.display()));
        None
    }
}

/// Every corpus file whose extension (any case) is one of `exts`, sorted by path, with its
/// path relative to the corpus.
pub fn corpus_files(exts: &[&str]) -> Vec<(PathBuf, String)> {
    let Some(root) = corpus() else { return Vec::new() };
    let mut out = Vec::new();
    let mut stack = vec![root.clone()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path
                .extension()
                .and_then(|e| e.to_str())
                .is_some_and(|e| exts.iter().any(|x| x.eq_ignore_ascii_case(e)))
            {
                let rel = path.strip_prefix(&root).unwrap().to_string_lossy().replace('\\', "/");
                out.push((path, rel));
            }
        }
    }
    out.sort();
    out
}

// The generator the protocol tests use too.
pub use unreal_test_support::Rng;

/// Tokens that text mutations splice in: the words T3D and `#exec` parsers branch on.
const TOKENS: &[&[u8]] = &[
    b"Begin Map\r\n",
    b"Begin Actor Class=Brush Name=B\r\n",
    b"Begin Polygon Flags=-1 Texture=A.B\r\n",
    b"End Polygon\r\n",
    b"End Actor\r\n",
    b"Begin ",
    b"End ",
    b"Vertex +00001.000000,-00002.000000,+00003.000000\r\n",
    b"Location=(X=1,Y=2,Z=",
    b"Brush=Model'MyLevel.M'\r\n",
    b"#exec MESH IMPORT MESH=M ANIVFILE=..\\..\\a.3d DATAFILE=\"x y\" X=1\r\n",
    b"#exec TEXTURE IMPORT NAME=T FILE=Textures\\t.pcx",
    b"#error ",
    b"//",
    b"/*",
    b"\"",
    b"=",
    b",",
    b"(",
    b")",
    b"\n",
    b"\r",
    b"\xEF\xBB\xBF",
    b"\xFF\xFE",
    "\u{1F600}".as_bytes(),
    b"\xC3",
];

/// Values that sit on the edges readers check: zero, all ones, sign bits, small counts.
const INTERESTING_U32: &[u32] =
    &[0, 1, 0x7f, 0x80, 0xff, 0x7fff, 0x8000, 0xffff, 0x10000, 0x7fff_ffff, 0x8000_0000, u32::MAX];

/// One mutated copy of `seed`: one to four operations of truncation, bit flips, interesting
/// values (8, 16 and 32 bits), insertion and deletion of ranges, duplication, and (for text)
/// splicing in tokens. Half of the positions aim at the first 512 bytes, where headers are.
pub fn mutate(seed: &[u8], rng: &mut Rng, text: bool) -> Vec<u8> {
    let mut m = seed.to_vec();
    let ops = 1 + rng.below(4);
    for _ in 0..ops {
        let len = m.len();
        let pos = if rng.below(2) == 0 { rng.below(len.min(512) + 1) } else { rng.below(len + 1) };
        match rng.below(if text { 10 } else { 8 }) {
            0 => m.truncate(pos),
            1 if pos < len => m[pos] ^= 1 << rng.below(8),
            2 if pos < len => m[pos] = *rng.pick(&[0, 0xff, 0x7f, 0x80, 0x01]),
            3 if pos + 2 <= len => {
                let v = *rng.pick(INTERESTING_U32) as u16;
                m[pos..pos + 2].copy_from_slice(&v.to_le_bytes());
            }
            4 if pos + 4 <= len => {
                let v = match rng.below(3) {
                    0 => len as u32 + rng.below(16) as u32,
                    _ => *rng.pick(INTERESTING_U32),
                };
                m[pos..pos + 4].copy_from_slice(&v.to_le_bytes());
            }
            5 => {
                let n = 1 + rng.below(16);
                let bytes: Vec<u8> = (0..n).map(|_| rng.next_u64() as u8).collect();
                m.splice(pos..pos, bytes);
            }
            6 => {
                let end = (pos + 1 + rng.below(64)).min(len);
                m.drain(pos..end.max(pos));
            }
            7 => {
                let end = (pos + 1 + rng.below(256)).min(len);
                let chunk = m[pos..end.max(pos)].to_vec();
                let at = rng.below(len + 1);
                m.splice(at..at, chunk);
            }
            _ if text => {
                let token = rng.pick(TOKENS).to_vec();
                m.splice(pos..pos, token);
            }
            _ => {}
        }
    }
    m
}

/// The debug `unreal-ls` binary this test run built.
pub fn binary() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_unreal-ls"))
}

/// Runs `unreal-ls ARGS` with its address space limited to `limit_mb` (`ulimit -v`): a
/// reader that allocates what a hostile header claims dies instead of succeeding.
pub fn run_limited(limit_mb: u64, args: &[&std::ffi::OsStr]) -> Output {
    let mut cmd = Command::new("bash");
    cmd.arg("-c")
        .arg(format!("ulimit -v {}; exec \"$0\" \"$@\"", limit_mb * 1024))
        .arg(binary())
        .args(args)
        .env("NO_COLOR", "1")
        .env("RAYON_NUM_THREADS", "2")
        .stdin(Stdio::null());
    cmd.output().expect("bash runs")
}

/// Peak resident memory of this process so far, in KiB (`VmHWM`).
pub fn vm_hwm_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

/// A fresh temporary folder under the system's, removed when dropped.
#[allow(unused_imports)] // not every test that shares this module makes folders
pub use unreal_test_support::ScratchDir as TempDir;
