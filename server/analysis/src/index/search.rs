//! Finding any asset by a fragment of its name: the textures (and UE2 materials), meshes,
//! static meshes, animations, sounds, music, fonts and classes of every indexed package, as
//! `Package.Group.Name` with its class and file. The language server's `workspace/symbol`,
//! the editor's "Find Unreal Asset" and `unreal-ls find` all ask this one search, so they
//! rank alike.
//!
//! Built once per index (a refreshed index builds its own on first use): every searchable
//! object's full path, lowercased, in one buffer, with a mask of the characters it holds. A
//! query walks the entries once; the mask skips every entry that lacks one of the query's
//! characters before any byte is compared, and the rest are ranked:
//!
//! 1. the name is the query (`granite` finds `Rock.Walls.Granite` first);
//! 2. the name starts with it;
//! 3. the full path ends with it (`walls.granite`);
//! 4. the name holds it (earlier is better);
//! 5. the full path holds it;
//! 6. its characters appear in order in the full path, each run of them starting a word
//!    (`rwgran`: Rock, Walls, `GRANite`; `gd`: `GraniteDark`), fewer runs better.
//!
//! Ties go to the shorter path, then to index order (the game's folders first, as names are
//! resolved). Names compare without case, as the engine's do. Measured in
//! docs/performance.md (10,000 packages).

use std::cmp::Reverse;

use super::{ObjectId, PackageIndex};

/// The most hits one query returns unless the caller asks for fewer.
pub const DEFAULT_LIMIT: usize = 200;

/// What kind of asset an object is, for listings and editor icons.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AssetKind {
    Texture,
    Mesh,
    StaticMesh,
    Animation,
    Sound,
    Music,
    Font,
    Class,
}

impl AssetKind {
    /// The kind of an object of `class`, or `None` when it is not an asset one looks for
    /// (groups, `TextBuffer`s, functions and properties, a map's actors).
    pub fn of_class(class: &str) -> Option<Self> {
        let lower = class.to_ascii_lowercase();
        Some(match lower.as_str() {
            "class" => Self::Class,
            "staticmesh" => Self::StaticMesh,
            "mesh" | "lodmesh" | "skeletalmesh" | "vertmesh" => Self::Mesh,
            "meshanimation" | "animation" => Self::Animation,
            "sound" | "proceduralsound" | "soundgroup" => Self::Sound,
            "music" => Self::Music,
            "font" => Self::Font,
            _ if super::lookup::is_texture_class(class) => Self::Texture,
            _ => return None,
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            Self::Texture => "texture",
            Self::Mesh => "mesh",
            Self::StaticMesh => "static mesh",
            Self::Animation => "animation",
            Self::Sound => "sound",
            Self::Music => "music",
            Self::Font => "font",
            Self::Class => "class",
        }
    }
}

/// One searchable object.
#[derive(Clone, Copy, Debug)]
struct Entry {
    /// Where its lowercased full path starts in [`AssetSearch::text`], and its length.
    start: u32,
    len: u32,
    /// Where its own name starts inside the full path.
    name_at: u32,
    /// The characters it holds ([`mask`]).
    mask: u64,
    /// Where its words start, among its first 64 bytes ([`boundaries`]).
    words: u64,
    id: ObjectId,
    kind: AssetKind,
}

/// The name search of one index (see the module's comment).
#[derive(Debug, Default)]
pub struct AssetSearch {
    text: Vec<u8>,
    entries: Vec<Entry>,
}

/// One hit, best first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AssetHit {
    pub id: ObjectId,
    pub kind: AssetKind,
    /// Higher is better; the rank of the module's comment times 1,000 less the penalties.
    pub score: i64,
}

/// A bit per position of `text` (the first 64) where a word starts: the first character,
/// one after `.`, `_`, `-` or a space, an upper-case letter after a lower-case one
/// (`GraniteDark`), a digit after a non-digit.
fn boundaries(text: &[u8]) -> u64 {
    let mut words = 0u64;
    for (i, &b) in text.iter().enumerate().take(64) {
        let start = match i.checked_sub(1).map(|p| text[p]) {
            None => true,
            Some(prev) => {
                matches!(prev, b'.' | b'_' | b'-' | b' ')
                    || (b.is_ascii_uppercase() && prev.is_ascii_lowercase())
                    || (b.is_ascii_digit() && !prev.is_ascii_digit())
            }
        };
        if start {
            words |= 1 << i;
        }
    }
    words
}

/// A bit per letter, digit and a few punctuation marks; one bit for anything else.
fn bit(b: u8) -> u64 {
    match b {
        b'a'..=b'z' => 1 << (b - b'a'),
        b'0'..=b'9' => 1 << (26 + b - b'0'),
        b'_' => 1 << 36,
        b'-' => 1 << 37,
        b'.' => 1 << 38,
        b' ' => 1 << 39,
        _ => 1 << 40,
    }
}

fn mask(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0, |m, &b| m | bit(b))
}

impl AssetSearch {
    /// Collects every searchable object of `index` (packages that another of the same name
    /// shadows are left out: the engine never loads them).
    pub fn build(index: &PackageIndex) -> Self {
        let mut search = Self::default();
        for (number, package) in index.packages().iter().enumerate() {
            let Ok(number) = u32::try_from(number) else { break };
            let first =
                index.by_name.get(&package.name.to_ascii_lowercase()).is_some_and(|n| *n == number);
            if !first {
                continue;
            }
            for (object_number, object) in package.objects.iter().enumerate() {
                let Some(kind) = AssetKind::of_class(&object.class) else { continue };
                let Ok(object_number) = u32::try_from(object_number) else { break };
                let start = search.text.len();
                search.text.extend(package.name.bytes());
                search.text.push(b'.');
                search.text.extend(object.path.bytes());
                let words = boundaries(&search.text[start..]);
                search.text[start..].make_ascii_lowercase();
                let full = &search.text[start..];
                let name_at = full.len() - object.name.len().min(full.len());
                let (Ok(start32), Ok(len), Ok(name_at)) =
                    (u32::try_from(start), u32::try_from(full.len()), u32::try_from(name_at))
                else {
                    search.text.truncate(start);
                    break;
                };
                search.entries.push(Entry {
                    start: start32,
                    len,
                    name_at,
                    mask: mask(full),
                    words,
                    id: ObjectId { package: number, object: object_number },
                    kind,
                });
            }
        }
        search.text.shrink_to_fit();
        search.entries.shrink_to_fit();
        search
    }

    /// How many objects can be found.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The memory the search holds, in bytes.
    pub fn memory(&self) -> usize {
        self.text.capacity() + self.entries.capacity() * std::mem::size_of::<Entry>()
    }

    /// The best `limit` hits for `query` (surrounding spaces ignored; an empty query finds
    /// nothing).
    pub fn search(&self, query: &str, limit: usize) -> Vec<AssetHit> {
        let query: Vec<u8> = query.trim().bytes().map(|b| b.to_ascii_lowercase()).collect();
        if query.is_empty() || limit == 0 {
            return Vec::new();
        }
        let wanted = mask(&query);
        let finder = memchr::memmem::Finder::new(&query);
        let mut hits: Vec<(i64, u32, usize)> = Vec::new();
        for (i, e) in self.entries.iter().enumerate() {
            if e.mask & wanted != wanted {
                continue;
            }
            let full = &self.text[e.start as usize..(e.start + e.len) as usize];
            let Some(score) = score(full, e.name_at as usize, e.words, &query, &finder) else {
                continue;
            };
            hits.push((score, e.len, i));
        }
        let order = |a: &(i64, u32, usize)| (Reverse(a.0), a.1, a.2);
        if hits.len() > limit {
            hits.select_nth_unstable_by_key(limit - 1, order);
            hits.truncate(limit);
        }
        hits.sort_unstable_by_key(order);
        hits.into_iter()
            .map(|(score, _, i)| {
                let e = &self.entries[i];
                AssetHit { id: e.id, kind: e.kind, score }
            })
            .collect()
    }
}

/// The rank of `full` (lowercased `package.group.name`, its name from `name_at`, its word
/// starts `words`) for `query`, or `None` when it does not match.
fn score(
    full: &[u8],
    name_at: usize,
    words: u64,
    query: &[u8],
    finder: &memchr::memmem::Finder<'_>,
) -> Option<i64> {
    let name = &full[name_at..];
    if name == query {
        return Some(6000);
    }
    if name.starts_with(query) {
        return Some(5000 - (name.len() - query.len()).min(999) as i64);
    }
    if full.ends_with(query)
        && (full.len() == query.len() || full[full.len() - query.len() - 1] == b'.')
    {
        return Some(4000);
    }
    if let Some(at) = finder.find(name) {
        return Some(3000 - at.min(999) as i64);
    }
    if let Some(at) = finder.find(full) {
        return Some(2000 - at.min(999) as i64);
    }
    // In order, each run of letters starting a word (`rwgran`: Rock, Walls, GRANite); fewer
    // runs rank higher.
    let word_start = |i: usize| i < 64 && words & (1 << i) != 0;
    let mut runs = 0i64;
    let mut next = 0usize;
    let mut last: Option<usize> = None;
    for &q in query {
        let found = (next..full.len())
            .find(|&i| full[i] == q && (last == Some(i.wrapping_sub(1)) || word_start(i)))?;
        if last != Some(found.wrapping_sub(1)) {
            runs += 1;
        }
        last = Some(found);
        next = found + 1;
    }
    Some(1000 - (runs * 10).min(999))
}

impl PackageIndex {
    /// The name search of this index, built on first use.
    pub fn asset_search(&self) -> &AssetSearch {
        self.search.get_or_init(|| AssetSearch::build(self))
    }

    /// The best `limit` assets for `query` (see [`AssetSearch`]).
    pub fn find_assets(&self, query: &str, limit: usize) -> Vec<AssetHit> {
        self.asset_search().search(query, limit)
    }
}
