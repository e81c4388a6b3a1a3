//! What every T3D rule reads: the text, the tree, the engine generation, and the facts about
//! each polygon computed once.

use unreal_syntax::t3d::{Block, BlockKind, Item, LineKeyword, Parse};

use crate::options::LintOptions;
use crate::t3d::geometry::{self, Vec3};
use crate::t3d::{generation, walk};
use crate::Generation;

pub struct T3dContext<'a> {
    pub text: &'a str,
    pub parse: &'a Parse,
    /// The generation the settings fix, or the one the file's markers show; `None` when
    /// neither tells.
    pub generation: Option<Generation>,
    /// The game the settings declare (`None`: not declared).
    pub game: Option<unreal_engine::Game>,
    /// Every block with its parent, in source order.
    pub blocks: Vec<(&'a Block, Option<&'a Block>)>,
    pub polygons: Vec<PolygonFacts<'a>>,
    /// The packages references are resolved against; `None` when no game directory or
    /// package path is known (the reference rules then stay quiet), even when class
    /// sources are ([`Self::classes`]): those know no stock class or texture.
    pub packages: Option<&'a crate::index::PackageIndex>,
    /// What is known of classes (abstract, placeable, parents, defaults): the packages'
    /// compiled classes and the class sources (the game folder's, the workspace's, the
    /// package paths'). `None` without any; may know classes without packages. The rules
    /// that read class knowledge ask this, never [`Self::packages`].
    pub classes: Option<&'a crate::index::PackageIndex>,
    /// The map-wide facts of this part, read once for the rules that share them
    /// ([`super::map_facts`]).
    pub(super) map_facts: std::sync::OnceLock<super::summary::Summary>,
}

/// A polygon's vertices and the geometry the rules share.
pub struct PolygonFacts<'a> {
    pub block: &'a Block,
    pub parent: Option<&'a Block>,
    pub vertices: Vec<Vec3>,
    /// True when a vector line of the polygon did not parse; geometry rules then stay quiet
    /// rather than judge a polygon they cannot see whole.
    pub malformed: bool,
    /// `sum (V[i-1]-V[0]) x (V[i]-V[0])`.
    pub area_vector: Vec3,
    /// The normalised area vector, `None` without area.
    pub normal: Option<Vec3>,
}

impl PolygonFacts<'_> {
    /// True when the polygon is whole and has at least three vertices: the geometry rules
    /// beyond the vertex count apply.
    pub fn has_geometry(&self) -> bool {
        !self.malformed && self.vertices.len() >= 3
    }
}

impl<'a> T3dContext<'a> {
    /// The `Begin Actor` blocks, at any depth, in source order.
    pub fn actors(&self) -> impl Iterator<Item = &'a Block> + '_ {
        self.blocks.iter().map(|&(block, _)| block).filter(|b| b.kind == BlockKind::Actor)
    }

    pub fn new(text: &'a str, parse: &'a Parse, options: &'a LintOptions) -> Self {
        let generation = options.engine.fixed().or_else(|| generation::detect(text, &parse.file));
        Self::with_generation(text, parse, options, generation)
    }

    /// A context whose generation the caller already knows (a part of a document, whose
    /// own markers do not decide it).
    pub fn with_generation(
        text: &'a str,
        parse: &'a Parse,
        options: &'a LintOptions,
        generation: Option<Generation>,
    ) -> Self {
        let blocks = walk::blocks(&parse.file);
        let polygons = blocks
            .iter()
            .filter(|(b, _)| b.kind == unreal_syntax::t3d::BlockKind::Polygon)
            .map(|&(block, parent)| polygon_facts(block, parent))
            .collect();
        // An index that read nothing (a file linted outside any game folder or class source)
        // knows no class: the class rules then take the path they take without one, rather
        // than ask it for each actor.
        let classes = options
            .packages
            .as_deref()
            .filter(|index| index.knows_packages() || !index.source_classes().is_empty());
        let packages = classes.filter(|index| index.knows_packages());
        Self {
            text,
            parse,
            generation,
            game: options.game,
            blocks,
            polygons,
            packages,
            classes,
            map_facts: std::sync::OnceLock::new(),
        }
    }
}

fn polygon_facts<'a>(block: &'a Block, parent: Option<&'a Block>) -> PolygonFacts<'a> {
    let mut vertices = Vec::new();
    let mut malformed = false;
    for child in &block.children {
        match child {
            Item::Vector(v) if v.keyword == LineKeyword::Vertex => {
                vertices.push(Vec3::from_array(v.value));
            }
            Item::Keyword(k) if k.keyword.takes_vector() => malformed = true,
            _ => {}
        }
    }
    let area_vector = geometry::area_vector(&vertices);
    let normal = area_vector.normalized();
    PolygonFacts { block, parent, vertices, malformed, area_vector, normal }
}
