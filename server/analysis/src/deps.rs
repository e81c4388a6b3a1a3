//! What a map needs to load: every class, texture and object it names, resolved against the
//! package index the way the rules and hover resolve them ([`PackageIndex::lookup`]: a bare
//! texture name in any package, as the engine's `ANY_PACKAGE` finds it; a dotted path only at
//! that place), and grouped by the package that holds it. A package is found in the game
//! folder, found elsewhere (a package path: what a server must send along with the map, as
//! the game's own install does not have it), declared in the game folder's sources and not
//! compiled yet, or missing.

use std::collections::BTreeMap;
use std::path::PathBuf;

use unreal_syntax::t3d::{BlockKind, Parse};
use unreal_syntax::Span;

use crate::index::{Lookup, ObjectKind, PackageIndex};

/// What a reference asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum UseKind {
    /// An actor's `Class=`.
    Class,
    /// A polygon's `Texture=`.
    Texture,
    /// An object reference `Class'Package.Name'` in a property (`Sound'...'`, `Music'...'`).
    Object,
}

impl UseKind {
    pub fn name(self) -> &'static str {
        match self {
            UseKind::Class => "class",
            UseKind::Texture => "texture",
            UseKind::Object => "object",
        }
    }
}

/// One name the map uses, with where it is first used and how often.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MapUse {
    pub kind: UseKind,
    /// For an object reference, its class as written (`Sound`); else empty.
    pub class: String,
    /// The name as written (`Rock.Walls.Granite`, `rClfBsB2`, `Botpack.PlayerStart`).
    pub name: String,
    /// The first use.
    pub first: Span,
    pub count: usize,
    /// The object's full path in its package, when found (`Rock.Walls.Granite`).
    pub found_as: Option<String>,
}

/// Where a package the map uses was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Place {
    /// In the game folder.
    GameFolder,
    /// Outside the game folder (a package path, the workspace): the game's install does not
    /// have it, so a server must send it with the map.
    Elsewhere,
    /// Declared in the game folder's sources (`<Package>/Classes/*.uc`), not compiled yet.
    Sources,
    /// No indexed package has that name.
    Missing,
}

impl Place {
    pub fn name(self) -> &'static str {
        match self {
            Place::GameFolder => "game folder",
            Place::Elsewhere => "outside the game folder",
            Place::Sources => "sources, not compiled",
            Place::Missing => "missing",
        }
    }
}

/// A package the map uses and what it uses of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PackageNeed {
    pub name: String,
    pub place: Place,
    /// Its file (for a compiled package) or its sources' folder.
    pub file: Option<PathBuf>,
    /// What the map names in it, found there.
    pub found: Vec<MapUse>,
    /// What the map names in it that it does not hold.
    pub missing: Vec<MapUse>,
}

/// Everything a map needs.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MapNeeds {
    /// By package name (any case), in name order.
    pub packages: Vec<PackageNeed>,
    /// Bare names that no indexed package holds (the package cannot be told).
    pub not_found: Vec<MapUse>,
    /// Names that could not be judged: classes when the engine's packages are not indexed;
    /// bare names and unknown packages when the engine's (and for textures UnrealEd's)
    /// packages are not, as these may live there.
    pub unchecked: Vec<MapUse>,
    /// Why `unchecked` could not be judged.
    pub unchecked_reason: Unchecked,
}

/// Why names of a map could not be judged.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Unchecked {
    /// The index lacks the engine's own packages (and, for bare textures, UnrealEd's).
    #[default]
    EngineNotIndexed,
    /// No game folder and no package paths: nothing is indexed, every name is listed.
    NoGameFolder,
}

impl Unchecked {
    /// A machine-readable name (JSON).
    pub fn code(self) -> &'static str {
        match self {
            Unchecked::EngineNotIndexed => "engine-not-indexed",
            Unchecked::NoGameFolder => "no-game-folder",
        }
    }

    /// Why, for people.
    pub fn describe(self) -> &'static str {
        match self {
            Unchecked::EngineNotIndexed => "the engine's packages are not indexed",
            Unchecked::NoGameFolder => "no game folder to look them up in",
        }
    }
}

impl MapNeeds {
    /// True when a name or package the map needs is missing.
    pub fn has_missing(&self) -> bool {
        !self.not_found.is_empty()
            || self.packages.iter().any(|p| p.place == Place::Missing || !p.missing.is_empty())
    }

    /// The packages a server must send with the map: those found outside the game folder.
    pub fn to_send(&self) -> impl Iterator<Item = &PackageNeed> {
        self.packages.iter().filter(|p| p.place == Place::Elsewhere)
    }
}

/// Every name `parse` (of `text`) uses, none judged: what a map names when there is no game
/// folder to look them up in (the map's own `MyLevel` objects and `None` left out, as
/// [`map_needs`] leaves them).
pub fn map_names(text: &str, parse: &Parse) -> MapNeeds {
    let unchecked = collect_uses(text, parse)
        .into_iter()
        .filter(|used| {
            let own =
                used.name.split_once('.').is_some_and(|(p, _)| p.eq_ignore_ascii_case("MyLevel"));
            let none = used.name.eq_ignore_ascii_case("none") || used.name.is_empty();
            !own && !none
        })
        .collect();
    MapNeeds { unchecked, unchecked_reason: Unchecked::NoGameFolder, ..MapNeeds::default() }
}

/// What `parse` (of `text`) needs from the packages of `index`.
pub fn map_needs(text: &str, parse: &Parse, index: &PackageIndex) -> MapNeeds {
    let uses = collect_uses(text, parse);
    let game_dir = index.roots().game_dir.clone();
    let place_of = |path: &std::path::Path| {
        if game_dir.as_ref().is_some_and(|dir| path.starts_with(dir)) {
            Place::GameFolder
        } else {
            Place::Elsewhere
        }
    };
    let mut packages: BTreeMap<String, PackageNeed> = BTreeMap::new();
    let mut needs = MapNeeds::default();
    for mut used in uses {
        let kind = match used.kind {
            UseKind::Class => ObjectKind::Class,
            UseKind::Texture => ObjectKind::Texture,
            UseKind::Object => ObjectKind::Any,
        };
        // As the reference rules judge: without the engine's own packages (and UnrealEd's,
        // for bare texture names: `Bkgnd` is `Editor.Bkgnd`) the index is partial, and only
        // a miss inside an indexed package is certain.
        let needed: &[&str] =
            if kind == ObjectKind::Texture { &["Engine", "Editor"] } else { &["Engine"] };
        let partial = needed.iter().any(|p| index.package(p).is_none());
        let package_part = used.name.split_once('.').map(|(p, _)| p.to_owned());
        match index.lookup(kind, &used.name) {
            Lookup::Found(id) => {
                let Some((package, _)) = index.entry(id) else { continue };
                let place = place_of(&package.path);
                used.found_as = Some(index.full_path(id));
                entry(&mut packages, &package.name, place, Some(package.path.clone()))
                    .found
                    .push(used);
            }
            Lookup::Declared => {
                let source = match used.name.split_once('.') {
                    Some((package, name)) => index
                        .source_classes_named(name)
                        .find(|c| c.package.eq_ignore_ascii_case(package)),
                    None => index.source_classes_named(&used.name).next(),
                };
                let Some(source) = source else { continue };
                let folder = source.file.parent().and_then(|p| p.parent()).map(PathBuf::from);
                used.found_as = Some(format!("{}.{}", source.package, source.name));
                entry(&mut packages, &source.package, Place::Sources, folder).found.push(used);
            }
            Lookup::NoPackage(_) if partial => needs.unchecked.push(used),
            Lookup::NoPackage(package) => {
                entry(&mut packages, &package, Place::Missing, None).missing.push(used);
            }
            Lookup::Missing => match package_part {
                Some(package) => {
                    let known = index.package(&package);
                    let (name, place, file) = match known {
                        Some(p) => (p.name.clone(), place_of(&p.path), Some(p.path.clone())),
                        // A package of the game folder's sources.
                        None => (package.clone(), Place::Sources, None),
                    };
                    entry(&mut packages, &name, place, file).missing.push(used);
                }
                None if partial => needs.unchecked.push(used),
                None => needs.not_found.push(used),
            },
            Lookup::Unchecked => {
                let own = package_part.is_some_and(|p| p.eq_ignore_ascii_case("MyLevel"));
                let none = used.name.eq_ignore_ascii_case("none") || used.name.is_empty();
                if !own && !none {
                    needs.unchecked.push(used);
                }
            }
        }
    }
    needs.packages = packages.into_values().collect();
    needs
}

/// A package that a package imports objects from, and where the index has it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImportedPackage {
    /// As the importing package spells it.
    pub name: String,
    /// In the game folder, elsewhere, the game folder's sources, or missing.
    pub place: Place,
    /// Its file (for a compiled package) or its sources' folder.
    pub file: Option<PathBuf>,
    /// How many objects the package imports from it (its groups not counted).
    pub objects: usize,
}

/// The packages `package` imports from (the outermost objects of its import table, which the
/// engine loads by name when it loads the package), in name order, each placed as
/// [`map_needs`] places a map's packages: a game folder missing one of them cannot load it.
pub fn package_imports(
    package: &unreal_formats::package::Package<'_>,
    index: &PackageIndex,
) -> Vec<ImportedPackage> {
    use unreal_formats::package::{ObjectRef, Resolved};
    let outermost = |start: usize| {
        let mut at = start;
        // Bounded: the reader rejected cycles, and no real chain is this deep.
        for _ in 0..unreal_formats::package::MAX_PATH_NAMES {
            let import = package.imports.get(at)?;
            match import.outer.resolve() {
                Resolved::None => return Some(at),
                Resolved::Import(outer) => at = outer,
                // An import inside one of the package's own exports has no package to load.
                Resolved::Export(_) => return None,
            }
        }
        None
    };
    let mut packages: BTreeMap<String, ImportedPackage> = BTreeMap::new();
    for number in 0..package.imports.len() {
        let Some(top) = outermost(number) else { continue };
        // Only a `Package` is loaded by name; anything else at the top is no package.
        let is_package = |at: usize| {
            package
                .imports
                .get(at)
                .is_some_and(|i| package.name(i.class_name).eq_ignore_ascii_case("Package"))
        };
        if !is_package(top) {
            continue;
        }
        let name = package.ref_name(ObjectRef(-(top as i32) - 1));
        if name.is_empty()
            || package.name.as_deref().is_some_and(|own| own.eq_ignore_ascii_case(name))
        {
            continue;
        }
        let entry = packages.entry(name.to_ascii_lowercase()).or_insert_with(|| {
            let (place, file) = place_package(name, index);
            ImportedPackage { name: name.to_owned(), place, file, objects: 0 }
        });
        if number != top && !is_package(number) {
            entry.objects += 1;
        }
    }
    packages.into_values().collect()
}

/// Where the index has the package `name`: its file in the game folder or elsewhere, its
/// sources in the game folder, or nowhere.
fn place_package(name: &str, index: &PackageIndex) -> (Place, Option<PathBuf>) {
    if let Some(found) = index.package(name) {
        let inside = index.roots().game_dir.as_ref().is_some_and(|dir| found.path.starts_with(dir));
        let place = if inside { Place::GameFolder } else { Place::Elsewhere };
        return (place, Some(found.path.clone()));
    }
    let source = index.source_classes().iter().find(|c| c.package.eq_ignore_ascii_case(name));
    match source {
        Some(class) => {
            (Place::Sources, class.file.parent().and_then(|p| p.parent()).map(PathBuf::from))
        }
        None => (Place::Missing, None),
    }
}

/// The package named `name` (any case) in `packages`, added with `place` and `file` when new.
fn entry<'p>(
    packages: &'p mut BTreeMap<String, PackageNeed>,
    name: &str,
    place: Place,
    file: Option<PathBuf>,
) -> &'p mut PackageNeed {
    packages.entry(name.to_ascii_lowercase()).or_insert_with(|| PackageNeed {
        name: name.to_owned(),
        place,
        file,
        found: Vec::new(),
        missing: Vec::new(),
    })
}

/// Every class, texture and object reference of the map, each distinct name once (names
/// compare ignoring case, as the engine's do), in order of first use.
fn collect_uses(text: &str, parse: &Parse) -> Vec<MapUse> {
    let mut uses: Vec<MapUse> = Vec::new();
    let mut seen: std::collections::HashMap<(UseKind, String), usize> =
        std::collections::HashMap::new();
    let mut add = |kind: UseKind, class: &str, name: &str, span: Span| {
        let name = name.trim_matches('"');
        if name.is_empty() {
            return;
        }
        let key = (kind, format!("{}'{}", class.to_ascii_lowercase(), name.to_ascii_lowercase()));
        if let Some(&at) = seen.get(&key) {
            if let Some(used) = uses.get_mut(at) {
                used.count += 1;
            }
            return;
        }
        seen.insert(key, uses.len());
        uses.push(MapUse {
            kind,
            class: class.to_owned(),
            name: name.to_owned(),
            first: span,
            count: 1,
            found_as: None,
        });
    };
    for (block, _) in crate::t3d::walk::blocks(&parse.file) {
        match block.kind {
            BlockKind::Actor => {
                if let Some((attribute, value)) = block.attribute(text, "Class") {
                    add(UseKind::Class, "", value, attribute.value);
                }
            }
            BlockKind::Polygon => {
                if let Some((attribute, value)) = block.attribute(text, "Texture") {
                    add(UseKind::Texture, "", value, attribute.value);
                }
            }
            _ => {}
        }
        for property in block.properties() {
            crate::t3d::walk::for_each_object_ref(&property.value, &mut |_, class, path| {
                add(UseKind::Object, class.text(text), path.text(text), path);
            });
        }
    }
    uses
}
