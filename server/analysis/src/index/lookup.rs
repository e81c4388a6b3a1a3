//! Resolving what a T3D names (`Texture=`, `Class=`, `Class'Package.Group.Name'`) the way the
//! engine's import does, and the nearest names when nothing matches.
//!
//! The engine finds `Texture=Name` in any loaded package (UE1 maps write bare names), and a
//! dotted path only at exactly that place: `Package.Group.Name` with every group written.

use super::{IndexedObject, ObjectId, PackageIndex};

/// What kind of object a reference asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ObjectKind {
    /// A texture or (UE2) any material: `Texture=` on a polygon.
    Texture,
    /// A class: `Class=` on an actor.
    Class,
    /// Anything at that path: an object reference `Sound'Pkg.Name'`.
    Any,
}

/// The answer for one reference.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Lookup {
    Found(ObjectId),
    /// A class declared in the game folder's sources (`<Package>/Classes/*.uc`), which may
    /// not be compiled yet: it exists for the map once UCC builds its package.
    Declared,
    /// The package part names no indexed package.
    NoPackage(String),
    /// The package is indexed (or the name is bare) and holds nothing of that name.
    Missing,
    /// Not judged: `None`, the map's own `MyLevel` objects, or class names when the index has
    /// no engine classes to compare with.
    Unchecked,
}

/// UE2 material classes a polygon's `Texture=` may name besides textures.
const MATERIAL_CLASSES: &[&str] = &[
    "Shader",
    "Combiner",
    "FinalBlend",
    "Cubemap",
    "ConstantColor",
    "FadeColor",
    "MaterialSwitch",
    "MaterialSequence",
    "VertexColor",
    "ParticleMaterial",
    "ProjectorMaterial",
    "TexPanner",
    "TexRotator",
    "TexScaler",
    "TexOscillator",
    "TexEnvMap",
    "TexMatrix",
    "TexCoordSource",
];

/// True for texture classes (`Texture`, `FireTexture`, `WetTexture`, ...) and UE2 materials.
pub fn is_texture_class(class: &str) -> bool {
    let lower = class.to_ascii_lowercase();
    lower.ends_with("texture")
        || lower.ends_with("material")
        || lower.ends_with("modifier")
        || MATERIAL_CLASSES.iter().any(|c| c.eq_ignore_ascii_case(class))
}

fn is_class(object: &IndexedObject) -> bool {
    &*object.class == "Class"
}

fn skipped(value: &str) -> bool {
    let package = value.split('.').next().unwrap_or(value);
    value.is_empty()
        || value.eq_ignore_ascii_case("none")
        || package.eq_ignore_ascii_case("MyLevel")
}

impl PackageIndex {
    /// True when some package exports a class named `name`.
    pub fn has_class(&self, name: &str) -> bool {
        self.objects_named(name).iter().any(|&id| self.entry(id).is_some_and(|(_, o)| is_class(o)))
    }

    /// True when the engine's own classes are indexed (a class named `Actor` in a package:
    /// sources alone are no proof that the engine's packages are there), so that class
    /// names can be judged at all.
    pub fn knows_engine_classes(&self) -> bool {
        self.has_class("Actor")
    }

    /// A class declared in the sources as `value` names it: `Name`, or `Package.Name` with
    /// its source package.
    fn declared_class(&self, value: &str) -> bool {
        match value.split_once('.') {
            None => self.source_classes_named(value).next().is_some(),
            Some((package, name)) => {
                self.source_classes_named(name).any(|c| c.package.eq_ignore_ascii_case(package))
            }
        }
    }

    /// Resolves a reference of the given kind.
    pub fn lookup(&self, kind: ObjectKind, value: &str) -> Lookup {
        if skipped(value) {
            return Lookup::Unchecked;
        }
        if kind == ObjectKind::Class && !self.knows_engine_classes() {
            return Lookup::Unchecked;
        }
        let wanted = |o: &IndexedObject| match kind {
            ObjectKind::Texture => is_texture_class(&o.class),
            ObjectKind::Class => is_class(o),
            ObjectKind::Any => true,
        };
        let found = match value.split_once('.') {
            None => self
                .objects_named(value)
                .iter()
                .copied()
                .find(|&id| self.entry(id).is_some_and(|(_, o)| wanted(o)))
                .map_or(Lookup::Missing, Lookup::Found),
            Some((package, _)) => match self.find(value) {
                // A dotted path names one object: whatever its class, it exists.
                Some(id) => Lookup::Found(id),
                None if self.package(package).is_none() => Lookup::NoPackage(package.to_owned()),
                None => Lookup::Missing,
            },
        };
        match found {
            // A class of a package being written is there once UCC compiles it.
            Lookup::Missing | Lookup::NoPackage(_)
                if kind == ObjectKind::Class && self.declared_class(value) =>
            {
                Lookup::Declared
            }
            // The package is being written: it exists, without that class.
            Lookup::NoPackage(package)
                if kind == ObjectKind::Class
                    && self
                        .source_classes()
                        .iter()
                        .any(|c| c.package.eq_ignore_ascii_case(&package)) =>
            {
                Lookup::Missing
            }
            found => found,
        }
    }

    /// Up to `limit` known names nearest to `value` by edit distance (written the way `value`
    /// is: bare names for a bare name, `Package.Group.Name` for a path).
    pub fn suggestions(&self, kind: ObjectKind, value: &str, limit: usize) -> Vec<String> {
        let wanted = |o: &IndexedObject| match kind {
            ObjectKind::Texture => is_texture_class(&o.class),
            ObjectKind::Class => is_class(o),
            // Groups are where objects live, never what a reference means.
            ObjectKind::Any => &*o.class != "Package",
        };
        let sources: Vec<&super::IndexedPackage> = match value.split_once('.') {
            None => self.packages().iter().map(|p| &**p).collect(),
            Some((package_name, _)) => {
                if let Some(package) = self.package(package_name) {
                    vec![package]
                } else {
                    // The package is the unknown part: offer the nearest packages' objects.
                    let packages: Vec<String> = self.package_names().map(str::to_owned).collect();
                    nearest(package_name, packages.iter().map(String::as_str), 3)
                        .iter()
                        .filter_map(|name| self.package(name))
                        .collect()
                }
            }
        };
        let qualified = value.contains('.');
        let mut candidates: Vec<String> = Vec::new();
        for package in sources {
            candidates.extend(package.objects.iter().filter(|o| wanted(o)).map(|o| {
                if qualified {
                    format!("{}.{}", package.name, o.path)
                } else {
                    o.name.to_string()
                }
            }));
        }
        let mut out: Vec<String> = Vec::new();
        if let Some((_, last)) = value.rsplit_once('.') {
            // The right name in another group or package is the likeliest fix of a path.
            for &id in self.objects_named(last) {
                if self.entry(id).is_some_and(|(_, o)| wanted(o)) && out.len() < limit {
                    out.push(self.full_path(id));
                }
            }
        }
        for candidate in nearest(value, candidates.iter().map(String::as_str), limit) {
            if out.len() < limit && !out.iter().any(|o| o.eq_ignore_ascii_case(&candidate)) {
                out.push(candidate);
            }
        }
        out
    }

    /// Fully qualified names of every object of a kind (for completion).
    pub fn names_of(&self, kind: ObjectKind) -> Vec<String> {
        let mut out = Vec::new();
        for package in self.packages() {
            for object in &package.objects {
                let keep = match kind {
                    ObjectKind::Texture => is_texture_class(&object.class),
                    ObjectKind::Class => is_class(object),
                    ObjectKind::Any => true,
                };
                if keep {
                    out.push(format!("{}.{}", package.name, object.path));
                }
            }
        }
        out
    }
}

/// Up to `limit` candidates nearest to `name` (case-insensitive edit distance, at most about
/// a third of the name's length), nearest first; names equal but for case appear once.
pub fn nearest<'c>(
    name: &str,
    candidates: impl Iterator<Item = &'c str>,
    limit: usize,
) -> Vec<String> {
    let lower = name.to_ascii_lowercase();
    let budget = (lower.len() / 3).max(2);
    let mut scored: Vec<(usize, String)> = Vec::new();
    for candidate in candidates {
        if candidate.len().abs_diff(lower.len()) > budget {
            continue;
        }
        let distance = edit_distance(&lower, &candidate.to_ascii_lowercase());
        if distance <= budget && distance > 0 {
            scored.push((distance, candidate.to_owned()));
        }
    }
    scored.sort_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.cmp(&b.1)));
    let mut out: Vec<String> = Vec::new();
    for (_, candidate) in scored {
        if out.len() == limit {
            break;
        }
        if !out.iter().any(|o| o.eq_ignore_ascii_case(&candidate)) {
            out.push(candidate);
        }
    }
    out
}

pub use unreal_syntax::text::edit_distance;

impl PackageIndex {
    /// The object a reference names, without the rules' restrictions (a class is found even
    /// when the engine's classes are not indexed).
    pub fn resolve(&self, kind: ObjectKind, value: &str) -> Option<ObjectId> {
        let package = value.split('.').next().unwrap_or(value);
        if value.is_empty()
            || value.eq_ignore_ascii_case("none")
            || package.eq_ignore_ascii_case("MyLevel")
        {
            return None;
        }
        if value.contains('.') {
            return self.find(value);
        }
        self.objects_named(value).iter().copied().find(|&id| {
            self.entry(id).is_some_and(|(_, o)| match kind {
                ObjectKind::Texture => is_texture_class(&o.class),
                ObjectKind::Class => &*o.class == "Class",
                ObjectKind::Any => true,
            })
        })
    }
}
