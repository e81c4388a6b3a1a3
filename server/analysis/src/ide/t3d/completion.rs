//! Completion: block kinds after `Begin `/`End `, poly flags after `Flags=`, textures after
//! `Texture=`, classes after `Class=`, polygon line keywords inside a polygon, and inside an
//! actor the property names other actors of its class use in the document.
//!
//! The context comes from the text of the line before the cursor, because the line being
//! typed rarely parses into the node it will become.

use std::collections::BTreeMap;

use unreal_syntax::t3d::{Block, BlockKind, Item};
use unreal_syntax::text::line_start;
use unreal_syntax::Span;

use super::{ObjectFacts, Source, TextEdit};
use crate::t3d::walk;
use crate::Generation;
use unreal_engine::poly_flags as flags;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CompletionKind {
    /// `Begin`, `End`.
    Keyword,
    /// A block kind after `Begin`/`End`.
    BlockKind,
    /// `Vertex`, `Origin` and the other polygon lines.
    LineKeyword,
    /// One poly flag.
    Flag,
    /// Several poly flags together.
    FlagCombination,
    Property,
    Texture,
    Class,
    /// `#exec` and the other directive words (`.uc`).
    Directive,
    /// An `#exec` command or subcommand word.
    Command,
    /// A key of an `#exec` command (`MESH=`).
    Key,
    /// A fixed value of an `#exec` key (an enum word, a boolean).
    Value,
    /// A file path relative to the package folder.
    File,
    /// A name defined by another `#exec` directive (a mesh, a texture, a sequence).
    Name,
}

#[derive(Clone, Debug, PartialEq)]
pub struct CompletionItem {
    pub label: String,
    pub kind: CompletionKind,
    pub detail: Option<String>,
    pub documentation: Option<String>,
    /// What to replace (the partial word before and under the cursor) and with what.
    pub edit: TextEdit,
    /// What the client filters on when it is not the label (flags insert numbers).
    pub filter_text: Option<String>,
    /// Sorts before the others (the block `End` closes, the most used texture).
    pub preselect: bool,
}

impl CompletionItem {
    /// An item that replaces `replace` with `insert`; the rest is set by the caller.
    pub(crate) fn new(
        label: impl Into<String>,
        kind: CompletionKind,
        replace: Span,
        insert: impl Into<String>,
    ) -> Self {
        Self {
            label: label.into(),
            kind,
            detail: None,
            documentation: None,
            edit: TextEdit { span: replace, new_text: insert.into() },
            filter_text: None,
            preselect: false,
        }
    }

    fn detail(mut self, detail: impl Into<String>) -> Self {
        self.detail = Some(detail.into());
        self
    }
}

/// Completions at `offset`.
pub fn completions(
    src: &Source<'_>,
    offset: u32,
    packages: &dyn ObjectFacts,
) -> Vec<CompletionItem> {
    let offset_usize = (offset as usize).min(src.text.len());
    let start = line_start(src.text, offset_usize);
    let Some(prefix) = src.text.get(start..offset_usize) else { return Vec::new() };
    let after = src.text.get(offset_usize..).unwrap_or("");
    let tail_len = after.find(|c: char| c.is_whitespace()).unwrap_or(after.len());
    let trimmed = prefix.trim_start_matches([' ', '\t']);
    let word_len = trimmed.len() - trimmed.trim_end_matches(is_word_char).len();
    let word_start = offset - word_len as u32;

    // `Begin <kind>` / `End <kind>`.
    let first_len = trimmed.find([' ', '\t']).unwrap_or(trimmed.len());
    let (first, rest) = trimmed.split_at(first_len);
    let rest_trimmed = rest.trim_start_matches([' ', '\t']);
    let typing_kind = !rest.is_empty() && rest_trimmed.chars().all(is_word_char);
    let word_end = offset + after.find(|c: char| !is_word_char(c)).unwrap_or(after.len()) as u32;
    let replace_word = Span::new(word_start, word_end);
    if typing_kind && first.eq_ignore_ascii_case("begin") {
        return begin_kinds(src, offset, replace_word);
    }
    if typing_kind && first.eq_ignore_ascii_case("end") {
        return end_kinds(src, offset, replace_word);
    }

    // `Key=partial` as the last token.
    let token_start = trimmed.rfind([' ', '\t']).map_or(0, |i| i + 1);
    let token = &trimmed[token_start..];
    if let Some((key, partial)) = token.split_once('=') {
        let value_start = offset - partial.len() as u32;
        let value_span = Span::new(value_start, offset + tail_len as u32);
        if key.eq_ignore_ascii_case("Flags") || key.eq_ignore_ascii_case("PolyFlags") {
            return flag_items(src.generation, partial, value_span);
        }
        if key.eq_ignore_ascii_case("Texture") {
            return named_values(
                src,
                "Texture",
                used_attribute_values(src, BlockKind::Polygon, "Texture", offset),
                packages,
                value_span,
                CompletionKind::Texture,
            );
        }
        if key.eq_ignore_ascii_case("Class") {
            return named_values(
                src,
                "Class",
                used_attribute_values(src, BlockKind::Actor, "Class", offset),
                packages,
                value_span,
                CompletionKind::Class,
            );
        }
        return Vec::new();
    }

    // The first word of a line.
    if trimmed.chars().all(is_word_char) {
        return line_starts(src, offset, replace_word);
    }
    Vec::new()
}

fn is_word_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// The kinds that belong inside a block of this kind, most likely first.
fn kinds_inside(kind: Option<BlockKind>) -> &'static [BlockKind] {
    match kind {
        None => &[BlockKind::Map, BlockKind::Actor, BlockKind::PolyList, BlockKind::Brush],
        Some(BlockKind::Map | BlockKind::Level) => &[BlockKind::Actor],
        Some(BlockKind::Actor) => &[BlockKind::Brush, BlockKind::Object],
        Some(BlockKind::Brush) => &[BlockKind::PolyList],
        Some(BlockKind::PolyList) => &[BlockKind::Polygon],
        Some(BlockKind::Object) => &[BlockKind::Object, BlockKind::PolyList, BlockKind::Surface],
        Some(BlockKind::StaticMesh) => &[BlockKind::Triangle],
        Some(_) => &[],
    }
}

const ALL_KINDS: [BlockKind; 11] = [
    BlockKind::Map,
    BlockKind::Level,
    BlockKind::Actor,
    BlockKind::Brush,
    BlockKind::PolyList,
    BlockKind::Polygon,
    BlockKind::Object,
    BlockKind::Surface,
    BlockKind::Terrain,
    BlockKind::StaticMesh,
    BlockKind::Triangle,
];

fn begin_kinds(src: &Source<'_>, offset: u32, replace: Span) -> Vec<CompletionItem> {
    let path = src.path_at(offset);
    // The line being typed may already parse as the block it begins: look at its parent.
    let container = match path.item {
        Some(Item::Block(b)) if b.begin_span.touches(offset) => path.container(),
        _ => path.innermost(),
    };
    let expected = kinds_inside(container.map(|b| b.kind));
    let mut items: Vec<CompletionItem> = expected
        .iter()
        .map(|k| {
            let mut item = CompletionItem::new(
                k.canonical_name(),
                CompletionKind::BlockKind,
                replace,
                k.canonical_name(),
            )
            .detail(format!("Begin {}", k.canonical_name()));
            item.preselect = true;
            item
        })
        .collect();
    for k in ALL_KINDS.iter().filter(|k| !expected.contains(k)) {
        items.push(
            CompletionItem::new(
                k.canonical_name(),
                CompletionKind::BlockKind,
                replace,
                k.canonical_name(),
            )
            .detail(format!("Begin {}", k.canonical_name())),
        );
    }
    items
}

fn end_kinds(src: &Source<'_>, offset: u32, replace: Span) -> Vec<CompletionItem> {
    let path = src.path_at(offset);
    // An `End` line being typed already closes the innermost open block in the parse.
    let open = match path.item {
        Some(Item::Block(b)) if b.end.is_some_and(|e| e.span.touches(offset)) => Some(&**b),
        _ => path.innermost().filter(|b| b.end.is_none()).or_else(|| path.innermost()),
    };
    let Some(open) = open else { return Vec::new() };
    let kind = src.slice(open.kind_span);
    if kind.is_empty() {
        return Vec::new();
    }
    let mut item = CompletionItem::new(kind, CompletionKind::BlockKind, replace, kind)
        .detail(format!("closes `{}`", src.slice(open.begin_span)));
    item.preselect = true;
    vec![item]
}

/// Each flag with its value as detail; inserting it adds the flag to the value typed so far.
fn flag_items(generation: Option<Generation>, partial: &str, replace: Span) -> Vec<CompletionItem> {
    let current = unreal_syntax::t3d::parse_flags(partial).unwrap_or(0);
    let generations: &[Generation] = match generation {
        Some(Generation::Ue1) => &[Generation::Ue1],
        Some(Generation::Ue2) => &[Generation::Ue2],
        None => &[Generation::Ue1, Generation::Ue2],
    };
    let mut items = Vec::new();
    for bit in (0..32).map(|i| 1u32 << i) {
        let mut seen: Vec<&str> = Vec::new();
        for &g in generations {
            let Some(flag) = flags::lookup(bit, g) else { continue };
            if seen.contains(&flag.name) {
                continue;
            }
            seen.push(flag.name);
            let value = current | bit;
            let only = if generations.len() > 1
                && flags::lookup(bit, other(g)).is_none_or(|f| f.name != flag.name)
            {
                format!(" ({} only)", g.name())
            } else {
                String::new()
            };
            let mut item = CompletionItem::new(
                flag.name,
                CompletionKind::Flag,
                replace,
                (value as i32).to_string(),
            )
            .detail(format!("{} (0x{bit:08X}){only}", bit as i32));
            item.documentation = Some(if current & bit != 0 {
                format!("{} Already set.", flag.meaning)
            } else if current == 0 {
                flag.meaning.to_owned()
            } else {
                format!(
                    "{} Inserts {} (the value typed so far with this flag added).",
                    flag.meaning, value as i32
                )
            });
            item.filter_text = Some(format!("{partial}{}", flag.name));
            items.push(item);
        }
    }
    let g = generation.unwrap_or(Generation::Ue1);
    let mut combos: Vec<(String, u32, String)> = vec![
        (
            "PF_Masked | PF_TwoSided".to_owned(),
            0x102,
            "a masked sheet seen from both sides (foliage, fences)".to_owned(),
        ),
        (
            "PF_Translucent | PF_TwoSided".to_owned(),
            0x104,
            "a translucent sheet seen from both sides (glass, water)".to_owned(),
        ),
        (
            "PF_Invisible | PF_NotSolid".to_owned(),
            0x9,
            "an invisible, non-blocking surface".to_owned(),
        ),
    ];
    for c in flags::combinations(u32::MAX, g) {
        combos.push((c.name.to_owned(), c.bits, c.meaning.to_owned()));
    }
    for (label, bits, meaning) in combos {
        let mut item = CompletionItem::new(
            label.clone(),
            CompletionKind::FlagCombination,
            replace,
            (bits as i32).to_string(),
        )
        .detail(format!("{} (0x{bits:08X})", bits as i32));
        item.documentation = Some(meaning);
        item.filter_text = Some(format!("{partial}{label}"));
        items.push(item);
    }
    items
}

fn other(g: Generation) -> Generation {
    match g {
        Generation::Ue1 => Generation::Ue2,
        Generation::Ue2 => Generation::Ue1,
    }
}

/// Values of an attribute on blocks of a kind, with how often each is used.
/// The line being typed is left out: its partial value is not a suggestion.
fn used_attribute_values(
    src: &Source<'_>,
    kind: BlockKind,
    key: &str,
    offset: u32,
) -> BTreeMap<String, (String, usize)> {
    let mut out: BTreeMap<String, (String, usize)> = BTreeMap::new();
    for (block, _) in walk::blocks(src.file) {
        if block.kind != kind || block.begin_span.touches(offset) {
            continue;
        }
        if let Some(value) = block.attribute_value(src.text, key).filter(|v| !v.is_empty()) {
            out.entry(value.to_ascii_lowercase()).or_insert_with(|| (value.to_owned(), 0)).1 += 1;
        }
    }
    out
}

fn named_values(
    _src: &Source<'_>,
    class: &str,
    used: BTreeMap<String, (String, usize)>,
    packages: &dyn ObjectFacts,
    replace: Span,
    kind: CompletionKind,
) -> Vec<CompletionItem> {
    let mut ranked: Vec<(String, usize)> = used.into_values().collect();
    ranked.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    let mut items: Vec<CompletionItem> = ranked
        .iter()
        .enumerate()
        .map(|(i, (value, count))| {
            let mut item = CompletionItem::new(value.clone(), kind, replace, value.clone()).detail(
                format!("used {} in this document", super::plural(*count, "time", "times")),
            );
            item.preselect = i == 0;
            item
        })
        .collect();
    for name in packages.names(class) {
        if ranked.iter().any(|(v, _)| v.eq_ignore_ascii_case(&name)) {
            continue;
        }
        items.push(
            CompletionItem::new(name.clone(), kind, replace, name)
                .detail(format!("{class} in a package")),
        );
    }
    items
}

/// Polygon line keywords, as UnrealEd pads them.
const POLYGON_LINES: [(&str, &str, &str); 6] = [
    ("Origin", "Origin   ", "the polygon's base point (defaults to the first vertex)"),
    ("Normal", "Normal   ", "the polygon's unit normal (recomputed on import)"),
    ("TextureU", "TextureU ", "the texture's U axis (scale and direction)"),
    ("TextureV", "TextureV ", "the texture's V axis (scale and direction)"),
    ("Vertex", "Vertex   ", "one corner; list them counterclockwise seen from the front"),
    ("Pan", "Pan      U=0 V=0", "texture offset in texels (UE1)"),
];

fn line_starts(src: &Source<'_>, offset: u32, replace: Span) -> Vec<CompletionItem> {
    let path = src.path_at(offset);
    let container = path.container();
    let mut items = Vec::new();
    match container.map(|b| b.kind) {
        Some(BlockKind::Polygon) => {
            for (label, insert, doc) in POLYGON_LINES {
                let mut item =
                    CompletionItem::new(label, CompletionKind::LineKeyword, replace, insert);
                item.documentation = Some(doc.to_owned());
                items.push(item);
            }
        }
        Some(BlockKind::Actor) => {
            if let Some(actor) = container {
                items.extend(actor_properties(src, actor, replace));
            }
        }
        _ => {}
    }
    for keyword in ["Begin", "End"] {
        items.push(CompletionItem::new(
            keyword,
            CompletionKind::Keyword,
            replace,
            format!("{keyword} "),
        ));
    }
    items
}

/// Property names that other actors of the same class use in this document and this actor
/// does not set yet, most used first.
fn actor_properties(src: &Source<'_>, actor: &Block, replace: Span) -> Vec<CompletionItem> {
    let Some(class) = actor.attribute_value(src.text, "Class").filter(|c| !c.is_empty()) else {
        return Vec::new();
    };
    let own: Vec<String> =
        actor.properties().map(|p| src.slice(p.key).to_ascii_lowercase()).collect();
    let mut counts: BTreeMap<String, (String, usize)> = BTreeMap::new();
    let mut stack: Vec<&[Item]> = vec![&src.file.items];
    let mut actors = 0usize;
    while let Some(items) = stack.pop() {
        for block in items.iter().filter_map(Item::as_block) {
            match block.kind {
                BlockKind::Map | BlockKind::Level => stack.push(&block.children),
                BlockKind::Actor if !std::ptr::eq(block, actor) => {
                    if !block
                        .attribute_value(src.text, "Class")
                        .is_some_and(|c| c.eq_ignore_ascii_case(class))
                    {
                        continue;
                    }
                    actors += 1;
                    for p in block.properties() {
                        let key = src.slice(p.key);
                        counts
                            .entry(key.to_ascii_lowercase())
                            .or_insert_with(|| (key.to_owned(), 0))
                            .1 += 1;
                    }
                }
                _ => {}
            }
        }
    }
    let mut ranked: Vec<(String, String, usize)> = counts
        .into_iter()
        .filter(|(k, _)| !own.contains(k))
        .map(|(k, (key, n))| (k, key, n))
        .collect();
    ranked.sort_by(|a, b| b.2.cmp(&a.2).then_with(|| a.0.cmp(&b.0)));
    ranked
        .into_iter()
        .map(|(_, key, n)| {
            CompletionItem::new(key.clone(), CompletionKind::Property, replace, format!("{key}="))
                .detail(format!("set on {n} of {actors} other {class} actors"))
        })
        .collect()
}
