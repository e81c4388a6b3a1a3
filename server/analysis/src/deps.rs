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
