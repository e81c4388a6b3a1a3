//! Which engine generation a T3D file was written by, from the markers each leaves.

use unreal_syntax::t3d::{BlockKind, Item, LineKeyword, T3dFile};

use crate::Generation;

/// What the markers in a file say.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Markers {
    /// `Begin Object`, `Begin Surface`, `Begin StaticMesh`, `Begin Terrain*`, `StaticMeshActor`.
    pub ue2_strong: u32,
    /// `Pan U= V=` lines (gone from package version 78).
    pub ue1_strong: u32,
    /// Polygon textures written `Package.Group.Name`.
    pub ue2_textures: u32,
    /// Polygon textures written as a bare name.
    pub ue1_textures: u32,
}

impl Markers {
    /// The markers of two parts together.
    #[must_use]
    pub fn plus(self, other: Markers) -> Markers {
        Markers {
            ue2_strong: self.ue2_strong.saturating_add(other.ue2_strong),
            ue1_strong: self.ue1_strong.saturating_add(other.ue1_strong),
            ue2_textures: self.ue2_textures.saturating_add(other.ue2_textures),
            ue1_textures: self.ue1_textures.saturating_add(other.ue1_textures),
        }
    }

    /// Counts what a block of `kind` with these attributes (`Class`, `Texture`) marks: the
    /// one rule the parsed markers and the raw scan share.
    fn count_block<'a>(&mut self, kind: BlockKind, attribute: impl Fn(&str) -> Option<&'a str>) {
        match kind {
            BlockKind::Object | BlockKind::Surface | BlockKind::StaticMesh | BlockKind::Terrain => {
                self.ue2_strong = self.ue2_strong.saturating_add(1);
            }
            BlockKind::Actor
                if attribute("Class")
                    .is_some_and(|c| c.eq_ignore_ascii_case("StaticMeshActor")) =>
            {
                self.ue2_strong = self.ue2_strong.saturating_add(1);
            }
            BlockKind::Polygon => {
                match attribute("Texture").map(|t| t.bytes().filter(|&b| b == b'.').count()) {
                    Some(0) => self.ue1_textures = self.ue1_textures.saturating_add(1),
                    Some(2..) => self.ue2_textures = self.ue2_textures.saturating_add(1),
                    _ => {}
                }
            }
            _ => {}
        }
    }

    /// The generation the markers point to, or `None` when they disagree or are absent.
    /// Strong markers decide; texture-name shapes only break a tie, because UE1 exports may
    /// write `Package.Group.Name` too.
    pub fn generation(self) -> Option<Generation> {
        match (self.ue1_strong > 0, self.ue2_strong > 0) {
            (true, false) => Some(Generation::Ue1),
            (false, true) => Some(Generation::Ue2),
            (true, true) => None,
            (false, false) => match (self.ue1_textures > 0, self.ue2_textures > 0) {
                (true, false) => Some(Generation::Ue1),
                (false, true) => Some(Generation::Ue2),
                _ => None,
            },
        }
    }
}

/// Counts the generation markers in a parsed file.
pub fn markers(text: &str, items: &[Item]) -> Markers {
    let mut markers = Markers::default();
    let mut stack: Vec<&[Item]> = vec![items];
    while let Some(items) = stack.pop() {
        for item in items {
            match item {
                Item::Block(block) => {
                    markers.count_block(block.kind, |key| block.attribute_value(text, key));
                    stack.push(&block.children);
                }
                Item::Keyword(line) if line.keyword == LineKeyword::Pan => {
                    markers.ue1_strong = markers.ue1_strong.saturating_add(1);
                }
                _ => {}
            }
        }
    }
    markers
}

/// The markers of a text as far as a scan of its raw lines sees them, before anything is
/// parsed: every `Begin` line (block kinds, `Class=StaticMeshActor`, polygon textures) and
/// every line whose first word is `Pan`. Equal to [`markers`] of its parse for what UnrealEd
/// writes; only an estimate otherwise (it does not know which lines a parse skips): a
/// document checks its segments with the generation this gives while it parses them for
/// their real markers, and checks again where those disagree.
pub fn scan(text: &str) -> Markers {
    use rayon::prelude::*;
    // Pieces of whole lines, scanned on every core: the scan runs before the parallel parse
    // of a map, alone.
    const PIECE: usize = 1 << 20;
    let mut pieces = Vec::new();
    let mut start = 0;
    while start < text.len() {
        let end = unreal_syntax::text::line_end_with_break(text, (start + PIECE).min(text.len()));
        pieces.push(text.get(start..end).unwrap_or_default());
        start = end;
    }
    pieces.par_iter().map(|piece| scan_lines(piece)).reduce(Markers::default, Markers::plus)
}

/// [`scan`] of whole lines.
fn scan_lines(text: &str) -> Markers {
    use memchr::memmem;
    let bytes = text.as_bytes();
    let mut markers = Markers::default();
    // Only what stands at the start of a line (after spaces or tabs) counts.
    let first_on_line = |at: usize| {
        bytes.get(..at).is_some_and(|before| {
            before
                .iter()
                .rev()
                .take_while(|&&b| b != b'\n' && b != b'\r')
                .all(|&b| b == b' ' || b == b'\t')
        })
    };
    for at in memmem::find_iter(bytes, b"Begin ") {
        if !first_on_line(at) {
            continue;
        }
        let line = text
            .get(at + 6..)
            .and_then(|rest| unreal_syntax::text::lines(rest).next())
            .unwrap_or("");
        let mut words = line.split_ascii_whitespace();
        let kind = BlockKind::from_name(words.next().unwrap_or(""));
        markers.count_block(kind, |key| {
            words.clone().find_map(|word| {
                let (k, v) = word.split_once('=')?;
                k.eq_ignore_ascii_case(key).then_some(v)
            })
        });
    }
    for at in memmem::find_iter(bytes, b"Pan") {
        let word_ends = matches!(bytes.get(at + 3), Some(b' ' | b'\t'));
        if word_ends && first_on_line(at) {
            markers.ue1_strong = markers.ue1_strong.saturating_add(1);
        }
    }
    markers
}

/// Detects the generation of a parsed file.
pub fn detect(text: &str, file: &T3dFile) -> Option<Generation> {
    markers(text, &file.items).generation()
}
