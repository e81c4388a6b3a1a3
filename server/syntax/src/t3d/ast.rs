//! The T3D tree. Every node holds byte spans into the decoded text; the text itself is not
//! copied, so a tree for a 10 MB map stays small. Every non-blank line of the input is
//! represented by exactly one node (a block's `Begin` and `End` lines belong to the block),
//! which makes the tree lossless together with the text.

use crate::Span;

/// A whole parsed document: the top-level items (usually one `Begin Map` block, but brush
/// exports start with `Begin PolyList` and clipboard copies with `Begin Actor`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct T3dFile {
    pub items: Vec<Item>,
}

/// One line-level node.
#[derive(Clone, Debug, PartialEq)]
pub enum Item {
    Block(Box<Block>),
    /// `Key=Value`, `Key(3)=Value` or `Key[3]=Value`.
    Property(Box<Property>),
    /// A keyword followed by one vector: `Vertex`, `Origin`, `Normal`, `TextureU`, `TextureV`,
    /// and the vector forms of `Location`, `PrePivot`, `Base` and the like.
    Vector(VectorLine),
    /// A keyword followed by `Key=Value` words or other arguments: `Pan U=57 V=0`,
    /// `Settings CSG=CSG_Add Flags=0 PolyFlags=0`, `Rotation Pitch=0 Yaw=0 Roll=0`, and
    /// `Vertex 0 X,Y,Z U,V` in static mesh triangles.
    Keyword(Box<KeywordLine>),
    /// A line that fits none of the shapes above (kept so nothing is lost; rules decide
    /// whether it matters where it stands).
    Unknown(Span),
}

impl Item {
    pub fn span(&self) -> Span {
        match self {
            Item::Block(b) => b.span,
            Item::Property(p) => p.span,
            Item::Vector(v) => v.span,
            Item::Keyword(k) => k.span,
            Item::Unknown(span) => *span,
        }
    }

    pub fn as_block(&self) -> Option<&Block> {
        match self {
            Item::Block(b) => Some(b),
            _ => None,
        }
    }
}

/// The kinds of block real files use. Anything else is kept as [`BlockKind::Other`] with its
/// name in [`Block::kind_span`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BlockKind {
    Map,
    Level,
    Actor,
    Brush,
    PolyList,
    Polygon,
    Object,
    Surface,
    /// `Terrain`, `TerrainInfo`, `TerrainLayer`, ...: every `Terrain*` block.
    Terrain,
    StaticMesh,
    Triangle,
    Other,
}

impl BlockKind {
    /// Recognises a block name case-insensitively.
    pub fn from_name(name: &str) -> BlockKind {
        // Every `Begin` and `End` line asks: the name is folded once into a small buffer and
        // matched, rather than compared with each name in turn.
        let mut folded = [0u8; 10];
        let Some(buffer) = folded.get_mut(..name.len()) else {
            return Self::terrain_or_other(name);
        };
        for (to, from) in buffer.iter_mut().zip(name.bytes()) {
            *to = from.to_ascii_lowercase();
        }
        match &*buffer {
            b"map" => BlockKind::Map,
            b"level" => BlockKind::Level,
            b"actor" => BlockKind::Actor,
            b"brush" => BlockKind::Brush,
            b"polylist" => BlockKind::PolyList,
            b"polygon" => BlockKind::Polygon,
            b"object" => BlockKind::Object,
            b"surface" => BlockKind::Surface,
            b"staticmesh" => BlockKind::StaticMesh,
            b"triangle" => BlockKind::Triangle,
            _ => Self::terrain_or_other(name),
        }
    }

    /// `Terrain*` (`Terrain`, `TerrainInfo`, `TerrainLayer`, ...) or [`BlockKind::Other`].
    fn terrain_or_other(name: &str) -> BlockKind {
        let is_terrain = name.len() >= 7
            && name.get(..7).is_some_and(|prefix| prefix.eq_ignore_ascii_case("terrain"));
        if is_terrain {
            BlockKind::Terrain
        } else {
            BlockKind::Other
        }
    }

    /// The canonical spelling UnrealEd writes.
    pub fn canonical_name(self) -> &'static str {
        match self {
            BlockKind::Map => "Map",
            BlockKind::Level => "Level",
            BlockKind::Actor => "Actor",
            BlockKind::Brush => "Brush",
            BlockKind::PolyList => "PolyList",
            BlockKind::Polygon => "Polygon",
            BlockKind::Object => "Object",
            BlockKind::Surface => "Surface",
            BlockKind::Terrain => "Terrain",
            BlockKind::StaticMesh => "StaticMesh",
            BlockKind::Triangle => "Triangle",
            BlockKind::Other => "block",
        }
    }
}

/// `Begin Kind Attr=Value ...` ... `End Kind`.
#[derive(Clone, Debug, PartialEq)]
pub struct Block {
    pub kind: BlockKind,
    /// The kind word after `Begin` as written (`Polygon`, `POLYGON`, `TerrainLayer`).
    pub kind_span: Span,
    /// The whole `Begin` line, without its line break.
    pub begin_span: Span,
    pub attributes: Vec<Attribute>,
    pub children: Vec<Item>,
    /// `None` when the block is never closed.
    pub end: Option<EndLine>,
    /// From the start of `Begin` to the end of the `End` line (or of the last child when the
    /// block is not closed).
    pub span: Span,
}

impl Block {
    /// The first attribute with this key (case-insensitive), as UnrealEd reads them.
    pub fn attribute<'a>(&self, text: &'a str, key: &str) -> Option<(&Attribute, &'a str)> {
        self.attributes
            .iter()
            .find(|a| a.key.text(text).eq_ignore_ascii_case(key))
            .map(|a| (a, a.value.text(text)))
    }

    pub fn attribute_value<'a>(&self, text: &'a str, key: &str) -> Option<&'a str> {
        self.attribute(text, key).map(|(_, v)| v)
    }

    /// Child blocks, in order.
    pub fn blocks(&self) -> impl Iterator<Item = &Block> {
        self.children.iter().filter_map(Item::as_block)
    }

    /// Child properties, in order.
    pub fn properties(&self) -> impl Iterator<Item = &Property> {
        self.children.iter().filter_map(|i| match i {
            Item::Property(p) => Some(&**p),
            _ => None,
        })
    }

    /// The value UnrealEd's import leaves in property `key` (case-insensitive, no array
    /// index): the last `key=` line, since each one it reads overwrites the one before.
    pub fn last_property(&self, text: &str, key: &str) -> Option<&Property> {
        self.properties()
            .filter(|p| p.index.is_none() && p.key.text(text).eq_ignore_ascii_case(key))
            .last()
    }

    /// Child vector lines of one kind (for a polygon: its `Vertex` lines).
    pub fn vectors(&self, kind: LineKeyword) -> impl Iterator<Item = &VectorLine> {
        self.children.iter().filter_map(move |i| match i {
            Item::Vector(v) if v.keyword == kind => Some(v),
            _ => None,
        })
    }

    pub fn vector(&self, kind: LineKeyword) -> Option<&VectorLine> {
        self.vectors(kind).next()
    }
}

/// `End Kind` (the kind word may be missing: `End` alone is accepted by UnrealEd).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EndLine {
    pub span: Span,
    pub kind_span: Span,
}

/// `Key=Value` on a `Begin` line: the value runs to the next space or tab (or is quoted).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Attribute {
    pub key: Span,
    pub value: Span,
}

/// `Key=Value` or `Key(3)=Value` on a line of its own.
#[derive(Clone, Debug, PartialEq)]
pub struct Property {
    pub span: Span,
    pub key: Span,
    /// `(3)` or `[3]`: the index span (digits only) and its value.
    pub index: Option<(Span, u32)>,
    pub value: Value,
}

/// A property value. Structs nest; anything that does not fit a known shape is kept as
/// [`Value::Raw`] rather than rejected, because game-specific properties vary endlessly.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// A number, as written (`0.250000`, `-1`, `1e5`).
    Number { span: Span, value: f64 },
    /// `"text"`, the span including the quotes.
    String { span: Span },
    /// `Class'Package.Group.Name'`: the class word and the path inside the quotes.
    ObjectRef { span: Span, class: Span, path: Span },
    /// `(X=1,Y=2)` or an unnamed list `((X=1),(X=2))`.
    Struct { span: Span, fields: Vec<Field> },
    /// A bare word: `True`, `None`, `CSG_Subtract`, `MyLevel.Brush`.
    Word { span: Span },
    /// Nothing after `=`.
    Empty { span: Span },
    /// Anything else, up to the end of the line or the enclosing struct's delimiter.
    Raw { span: Span },
}

impl Value {
    pub fn span(&self) -> Span {
        match self {
            Value::Number { span, .. }
            | Value::String { span }
            | Value::ObjectRef { span, .. }
            | Value::Struct { span, .. }
            | Value::Word { span }
            | Value::Empty { span }
            | Value::Raw { span } => *span,
        }
    }

    /// The field of a struct value with this name (case-insensitive).
    pub fn field<'v>(&'v self, text: &str, name: &str) -> Option<&'v Field> {
        match self {
            Value::Struct { fields, .. } => fields
                .iter()
                .find(|f| f.key.is_some_and(|k| k.text(text).eq_ignore_ascii_case(name))),
            _ => None,
        }
    }

    pub fn as_number(&self) -> Option<f64> {
        match self {
            Value::Number { value, .. } => Some(*value),
            _ => None,
        }
    }
}

/// One `Key=Value` (or unnamed value) inside a struct.
#[derive(Clone, Debug, PartialEq)]
pub struct Field {
    pub key: Option<Span>,
    pub index: Option<(Span, u32)>,
    pub value: Value,
}

/// The line keywords T3D uses (case-insensitive).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LineKeyword {
    Origin,
    Normal,
    TextureU,
    TextureV,
    Vertex,
    Pan,
    PrePivot,
    Location,
    Rotation,
    Scale,
    PostScale,
    Settings,
    /// `BASE` in UE2 `Begin Surface` blocks.
    Base,
    /// `Texture`, `SmoothingMask` and other words at the start of a line, kept by name.
    Other,
}

impl LineKeyword {
    pub fn from_name(name: &str) -> LineKeyword {
        // Every keyword line asks (polygons are most of a map): folded once, then matched.
        let mut folded = [0u8; 9];
        let Some(buffer) = folded.get_mut(..name.len()) else { return LineKeyword::Other };
        for (to, from) in buffer.iter_mut().zip(name.bytes()) {
            *to = from.to_ascii_lowercase();
        }
        match &*buffer {
            b"vertex" => LineKeyword::Vertex,
            b"origin" => LineKeyword::Origin,
            b"normal" => LineKeyword::Normal,
            b"textureu" => LineKeyword::TextureU,
            b"texturev" => LineKeyword::TextureV,
            b"pan" => LineKeyword::Pan,
            b"prepivot" => LineKeyword::PrePivot,
            b"location" => LineKeyword::Location,
            b"rotation" => LineKeyword::Rotation,
            b"scale" => LineKeyword::Scale,
            b"postscale" => LineKeyword::PostScale,
            b"settings" => LineKeyword::Settings,
            b"base" => LineKeyword::Base,
            _ => LineKeyword::Other,
        }
    }

    /// The spelling UnrealEd writes.
    pub fn canonical_name(self) -> &'static str {
        match self {
            LineKeyword::Origin => "Origin",
            LineKeyword::Normal => "Normal",
            LineKeyword::TextureU => "TextureU",
            LineKeyword::TextureV => "TextureV",
            LineKeyword::Vertex => "Vertex",
            LineKeyword::Pan => "Pan",
            LineKeyword::PrePivot => "PrePivot",
            LineKeyword::Location => "Location",
            LineKeyword::Rotation => "Rotation",
            LineKeyword::Scale => "Scale",
            LineKeyword::PostScale => "PostScale",
            LineKeyword::Settings => "Settings",
            LineKeyword::Base => "Base",
            LineKeyword::Other => "",
        }
    }

    /// Keywords whose argument is a single `X,Y,Z` vector.
    pub fn takes_vector(self) -> bool {
        matches!(
            self,
            LineKeyword::Origin
                | LineKeyword::Normal
                | LineKeyword::TextureU
                | LineKeyword::TextureV
                | LineKeyword::Vertex
                | LineKeyword::PrePivot
                | LineKeyword::Location
                | LineKeyword::Base
        )
    }
}

/// `Vertex   -00128.000000,-00128.000000,+00128.000000`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct VectorLine {
    /// The whole line without indentation and line break.
    pub span: Span,
    pub keyword: LineKeyword,
    /// The `X,Y,Z` part of the line.
    pub value_span: Span,
    pub value: [f64; 3],
}

/// A keyword line with arguments other than one vector.
#[derive(Clone, Debug, PartialEq)]
pub struct KeywordLine {
    pub span: Span,
    pub keyword: LineKeyword,
    pub keyword_span: Span,
    pub args: Vec<Arg>,
}

impl KeywordLine {
    /// The value of `Key=` among the arguments (case-insensitive).
    pub fn arg<'a>(&self, text: &'a str, key: &str) -> Option<(&Arg, &'a str)> {
        self.args
            .iter()
            .find(|a| a.key.is_some_and(|k| k.text(text).eq_ignore_ascii_case(key)))
            .map(|a| (a, a.value.text(text)))
    }
}

/// One whitespace-separated argument: `U=57`, or a bare token such as `0` or `1.0,2.0,3.0`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Arg {
    pub key: Option<Span>,
    pub value: Span,
}

#[cfg(test)]
mod tests {
    use super::LineKeyword;

    /// Every keyword in any case, and nothing else: its look-alikes of the same length and
    /// first letter, longer and shorter words, words of other lengths.
    #[test]
    fn line_keywords_are_recognised_in_any_case_and_only_they() {
        use LineKeyword::*;
        let all = [
            Origin, Normal, TextureU, TextureV, Vertex, Pan, PrePivot, Location, Rotation, Scale,
            PostScale, Settings, Base,
        ];
        for keyword in all {
            let name = keyword.canonical_name();
            for spelling in [name.to_owned(), name.to_ascii_lowercase(), name.to_ascii_uppercase()]
            {
                assert_eq!(LineKeyword::from_name(&spelling), keyword, "{spelling}");
            }
            let mut changed = name.to_owned().into_bytes();
            let last = changed.len() - 1;
            changed[last] = b'#';
            for other in [
                String::from_utf8(changed).unwrap(),
                format!("{name}s"),
                name[..last].to_owned(),
                format!("x{}", &name[1..]),
            ] {
                assert_eq!(LineKeyword::from_name(&other), Other, "{other}");
            }
        }
        for other in ["", "Texture", "SmoothingMask", "Begin", "vértex"] {
            assert_eq!(LineKeyword::from_name(other), Other, "{other}");
        }
    }
}
