//! Mending a map's textures: every polygon's `Texture=` looked up in the package index as the
//! engine finds it (a bare name in any package, a dotted path only there), a bare name that
//! exactly one package holds written out as that package's `Package.Group.Name` (what
//! UnrealEd exports, and what a brush copied as text loses), and names the user maps to
//! others replaced everywhere. What cannot be decided (a bare name several packages hold, a
//! name none holds) is said, with every candidate, and left as it is. `unreal-ls
//! fix-textures` and the editor's code actions apply it; the edits are plain [`TextEdit`]s.

use std::collections::BTreeMap;

use unreal_syntax::text::{is_line_start, line_end_with_break};
use unreal_syntax::Span;

use crate::index::{is_texture_class, Lookup, ObjectKind, PackageIndex};
use crate::TextEdit;

/// A texture name the fixes could not decide, where it is first used and how often.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Undecided {
    /// The name as the map writes it.
    pub name: String,
    pub first: Span,
    pub uses: usize,
    /// The packages' textures of that name (several: which one the engine takes depends on
    /// the packages it loaded first); empty when no indexed package holds it.
    pub candidates: Vec<String>,
}

/// One name changed, and how often.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Changed {
    pub from: String,
    pub to: String,
    pub uses: usize,
}

/// What [`texture_fixes`] found to do.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TextureFixes {
    /// One edit per `Texture=` value changed, in the text's order.
    pub edits: Vec<TextEdit>,
    /// Bare names written out with their package.
    pub qualified: Vec<Changed>,
    /// Names replaced as the user asked.
    pub replaced: Vec<Changed>,
    /// Names left as they are: several candidates, or none.
    pub undecided: Vec<Undecided>,
}

/// Why a replacement the user asked for cannot be made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReplacementError {
    /// The new name is a texture of no indexed package.
    NotFound { to: String },
}

impl std::fmt::Display for ReplacementError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::NotFound { to } => write!(
                f,
                "`{to}` is a texture of no package of the game folder or package paths: write \
                 it as Package.Group.Name, as `unreal-ls find` lists it"
            ),
        }
    }
}

/// Every polygon's `Texture=` value in `text` and its span, read from the `Begin Polygon`
/// lines alone, as the parser reads their attributes (a key of any case, the value up to the
/// next blank); quotes around a value are left out of the span. No tree is built: an editor
/// asks on every move of the cursor, and a 10 MB map is scanned in milliseconds.
pub fn polygon_textures(text: &str) -> Vec<(Span, &str)> {
    let mut out = Vec::new();
    let mut line_start = 0usize;
    let bytes = text.as_bytes();
    while line_start < bytes.len() {
        let next = line_end_with_break(text, line_start);
        let line_end = if is_line_start(bytes, next) { next - 1 } else { next };
        let line = &text[line_start..line_end];
        let content = line.trim_start_matches([' ', '\t']);
        let is_polygon =
            content.get(..13).is_some_and(|head| head.eq_ignore_ascii_case("Begin Polygon"))
                && content[13..].starts_with([' ', '\t', '\r']);
        if is_polygon {
            let offset = line_start + (line.len() - content.len());
            for (at, word) in words(content) {
                let Some((key, value)) = word.split_once('=') else { continue };
                if !key.eq_ignore_ascii_case("Texture") {
                    continue;
                }
                let value_at = offset + at + key.len() + 1;
                let (value_at, value) = match value.strip_prefix('"') {
                    Some(quoted) => (value_at + 1, quoted.split('"').next().unwrap_or_default()),
                    None => (value_at, value),
                };
                out.push((Span::new(value_at as u32, (value_at + value.len()) as u32), value));
                break;
            }
        }
        line_start = next;
    }
    out
}

/// The blank-separated words of a line and where each starts.
fn words(line: &str) -> impl Iterator<Item = (usize, &str)> {
    let line = line.trim_end_matches(['\r', ' ', '\t']);
    line.split([' ', '\t'])
        .scan(0usize, |at, word| {
            let start = *at;
            *at += word.len() + 1;
            Some((start, word))
        })
        .filter(|(_, word)| !word.is_empty())
}

/// The fixes of the map `text` against `index`, with `replace`: pairs of a name as the map
/// writes it (any case; a bare name also matches its qualified spelling's last part) and
/// what to write instead, which must be a texture the index holds.
pub fn texture_fixes(
    text: &str,
    index: &PackageIndex,
    replace: &[(String, String)],
) -> Result<TextureFixes, ReplacementError> {
    for (_, to) in replace {
        if !matches!(index.lookup(ObjectKind::Texture, to), Lookup::Found(_)) {
            return Err(ReplacementError::NotFound { to: to.clone() });
        }
    }
    // Every polygon's texture value, grouped by name (case-insensitive), in order.
    let mut uses: BTreeMap<String, (String, Vec<Span>)> = BTreeMap::new();
    for (span, value) in polygon_textures(text) {
        if value.is_empty() || value.eq_ignore_ascii_case("None") {
            continue;
        }
        uses.entry(value.to_ascii_lowercase())
            .or_insert_with(|| (value.to_owned(), Vec::new()))
            .1
            .push(span);
    }
    let mut fixes = TextureFixes::default();
    for (name, spans) in uses.values() {
        let wanted = replace.iter().find(|(from, _)| {
            from.eq_ignore_ascii_case(name)
                || (!from.contains('.')
                    && name.rsplit('.').next().is_some_and(|last| last.eq_ignore_ascii_case(from)))
        });
        let changed = if let Some((_, to)) = wanted {
            let change = Changed { from: name.clone(), to: to.clone(), uses: spans.len() };
            fixes.replaced.push(change.clone());
            Some(change.to)
        } else {
            match decide(index, name) {
                Decision::Keep => None,
                Decision::Qualify(full) => {
                    fixes.qualified.push(Changed {
                        from: name.clone(),
                        to: full.clone(),
                        uses: spans.len(),
                    });
                    Some(full)
                }
                Decision::Undecided(candidates) => {
                    let first = spans.first().copied().unwrap_or_default();
                    fixes.undecided.push(Undecided {
                        name: name.clone(),
                        first,
                        uses: spans.len(),
                        candidates,
                    });
                    None
                }
            }
        };
        if let Some(to) = changed {
            fixes.edits.extend(spans.iter().map(|&span| TextEdit { span, new_text: to.clone() }));
        }
    }
    fixes.edits.sort_by_key(|e| e.span.start);
    fixes.undecided.sort_by_key(|u| u.first.start);
    Ok(fixes)
}

enum Decision {
    /// Found where it is written.
    Keep,
    /// A bare name one package holds: its full path.
    Qualify(String),
    /// Several packages hold it, or none does: the candidates.
    Undecided(Vec<String>),
}

fn decide(index: &PackageIndex, name: &str) -> Decision {
    if name.contains('.') {
        return match index.lookup(ObjectKind::Texture, name) {
            Lookup::Found(_) | Lookup::Unchecked => Decision::Keep,
            _ => Decision::Undecided(candidates(index, name.rsplit('.').next().unwrap_or(name))),
        };
    }
    let found = candidates(index, name);
    match found.as_slice() {
        [one] => Decision::Qualify(one.clone()),
        [] if matches!(index.lookup(ObjectKind::Texture, name), Lookup::Unchecked) => {
            Decision::Keep
        }
        _ => Decision::Undecided(found),
    }
}

/// The full paths of the indexed textures named `name` (the last part of a path).
fn candidates(index: &PackageIndex, name: &str) -> Vec<String> {
    let mut found: Vec<String> = index
        .objects_named(name)
        .iter()
        .filter(|&&id| index.entry(id).is_some_and(|(_, o)| is_texture_class(&o.class)))
        .map(|&id| index.full_path(id))
        .collect();
    found.sort_by_key(|path| path.to_ascii_lowercase());
    found.dedup_by(|a, b| a.eq_ignore_ascii_case(b));
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn index() -> PackageIndex {
        PackageIndex::from_listing(&[
            ("Rock", &[("Texture", "Walls.Granite"), ("Texture", "Walls.Slate")]),
            ("Metal", &[("Texture", "Plate"), ("Texture", "Slate")]),
            ("Sounds", &[("Sound", "Granite")]),
        ])
    }

    fn map(textures: &[&str]) -> String {
        let mut text = String::from("Begin PolyList\n");
        for t in textures {
            text.push_str("   Begin Polygon Texture=");
            text.push_str(t);
            text.push_str(" Flags=0\n   End Polygon\n");
        }
        text.push_str("End PolyList\n");
        text
    }

    fn fixed(text: &str, fixes: &TextureFixes) -> String {
        crate::ide::t3d::formatting::apply_edits(text, &fixes.edits)
    }

    #[test]
    fn polygon_textures_are_read_as_the_parser_reads_attributes() {
        let text = "Begin PolyList\r\n\tbegin polygon Item=Side TEXTURE=Wall Flags=0\r\n   Begin Polygon Texture=\"Rock.Granite\"\n   Begin PolygonX Texture=No\n   Begin Polygon\nTexture=NotAnAttribute\n";
        let parse = unreal_syntax::t3d::parse(text);
        let parsed: Vec<&str> = crate::t3d::walk::blocks(&parse.file)
            .into_iter()
            .filter(|(b, _)| b.kind == unreal_syntax::t3d::BlockKind::Polygon)
            .filter_map(|(b, _)| b.attribute_value(text, "Texture"))
            .map(|v| v.trim_matches('"'))
            .collect();
        let scanned: Vec<&str> = polygon_textures(text).into_iter().map(|(_, v)| v).collect();
        assert_eq!(scanned, ["Wall", "Rock.Granite"]);
        assert_eq!(scanned, parsed);
        for (span, value) in polygon_textures(text) {
            assert_eq!(span.text(text), value);
        }
    }

    #[test]
    fn a_bare_name_one_package_holds_is_qualified() {
        let text = map(&["Granite", "granite", "Plate", "Rock.Walls.Granite"]);
        let fixes = texture_fixes(&text, &index(), &[]).unwrap();
        assert_eq!(
            fixed(&text, &fixes),
            map(&["Rock.Walls.Granite", "Rock.Walls.Granite", "Metal.Plate", "Rock.Walls.Granite"])
        );
        assert_eq!(fixes.qualified.len(), 2);
        assert!(fixes.undecided.is_empty());
    }

    #[test]
    fn several_candidates_or_none_are_left_and_said() {
        let text = map(&["Slate", "Marble", "Rock.Walls.Marble"]);
        let fixes = texture_fixes(&text, &index(), &[]).unwrap();
        assert!(fixes.edits.is_empty());
        let said: Vec<(&str, Vec<String>)> =
            fixes.undecided.iter().map(|u| (u.name.as_str(), u.candidates.clone())).collect();
        assert_eq!(
            said,
            [
                ("Slate", vec!["Metal.Slate".to_owned(), "Rock.Walls.Slate".to_owned()]),
                ("Marble", vec![]),
                ("Rock.Walls.Marble", vec![]),
            ]
        );
    }

    #[test]
    fn a_replacement_applies_everywhere_and_must_exist() {
        let text = map(&["Marble", "OldPack.Marble", "Plate"]);
        let replace = [("marble".to_owned(), "Rock.Walls.Slate".to_owned())];
        let fixes = texture_fixes(&text, &index(), &replace).unwrap();
        assert_eq!(
            fixed(&text, &fixes),
            map(&["Rock.Walls.Slate", "Rock.Walls.Slate", "Metal.Plate"])
        );
        let missing = [("Marble".to_owned(), "Rock.Marble".to_owned())];
        assert_eq!(
            texture_fixes(&text, &index(), &missing),
            Err(ReplacementError::NotFound { to: "Rock.Marble".to_owned() })
        );
    }
}
