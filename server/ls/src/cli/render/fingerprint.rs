//! The fingerprint of a finding: stable while the lines around it move, so a baseline
//! (`--baseline`) and SARIF's `primaryLocationLineHash` recognise a finding after an edit
//! elsewhere in the file. Made of the rule, the file's key and the trimmed text of the
//! finding's line, with the occurrence number among equal ones.

use std::collections::HashMap;

use super::FileReport;

/// The fingerprint of every diagnostic of a file, in order. `path_key` is the file's
/// normalised path.
pub fn fingerprints(file: &FileReport, path_key: &str) -> Vec<String> {
    let mut seen: HashMap<(&str, &str), u32> = HashMap::new();
    file.diagnostics
        .iter()
        .map(|diagnostic| {
            let line = line_text(file, diagnostic.span.start);
            let index = seen.entry((diagnostic.code, line)).or_insert(0);
            let occurrence = *index;
            *index += 1;
            let mut hash = Fnv1a::new();
            for part in [diagnostic.code, path_key, line] {
                hash.write(part.as_bytes());
                hash.write(&[0]);
            }
            hash.write(&occurrence.to_le_bytes());
            format!("{:016x}", hash.finish())
        })
        .collect()
}

/// The trimmed text of the line holding `offset`.
fn line_text(file: &FileReport, offset: u32) -> &str {
    let start = file.clamp(unreal_syntax::Span::empty_at(offset)).start;
    let line = file.line_index.line_col(&file.text, start, COLUMNS).line;
    file.line_index.line_span(&file.text, line).map_or("", |span| span.text(&file.text)).trim()
}

const COLUMNS: unreal_analysis::line_index::ColumnUnit =
    unreal_analysis::line_index::ColumnUnit::Utf8;

/// 64-bit FNV-1a: tiny, stable across platforms and Rust versions (unlike `DefaultHasher`).
struct Fnv1a(u64);

impl Fnv1a {
    fn new() -> Self {
        Fnv1a(0xcbf2_9ce4_8422_2325)
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }

    fn finish(&self) -> u64 {
        self.0
    }
}
