//! The picture under a mesh's material: the texture that gives it its colour, followed
//! through UE2's material classes and, where the chain leaves the package (a skin in the
//! game's `PlayerSkins.utx`, a shader in `XGame_rc`), into the package that holds it, found
//! by name among the game's packages ([`OtherPackages`], the package index).

use unreal_formats::decode::texture::MipSource;
use unreal_formats::decode::RgbaImage;
use unreal_formats::package::properties::PropertyList;
use unreal_formats::package::{ObjectRef, Package, Resolved};

use std::sync::{Arc, OnceLock};

use super::{export_kind, ExportKind};
use unreal_analysis::fs::FileSystem;
use unreal_analysis::index::{IndexRoots, PackageIndex};

/// The most materials followed from one to the texture under it: real chains are two or three
/// long (a `FinalBlend` over a `TexPanner` over a `Texture`); a cycle ends here.
const MAX_MATERIAL_CHAIN: usize = 16;

/// How many times one material's chain may pass into another package (a shader in one
/// package over a texture in a second is two).
const MAX_PACKAGE_HOPS: usize = 4;

/// The packages beside the one being read, by name: where a material or a static mesh that
/// another package holds is read.
pub trait OtherPackages {
    /// Runs `visit` on the package named `name` (any case); `false` when no such package is
    /// known or it cannot be read.
    fn visit_package(&self, name: &str, visit: &mut dyn FnMut(&Package<'_>)) -> bool;

    /// The default value of `property` for actors of `class`, as T3D text (`Some("")` for
    /// the engine's zero), from the class's source or compiled defaults up its parents; what
    /// is known of stock classes ([`super::placed_meshes::known_default`]) where no class
    /// is read. A built map stores of each actor only what differs from its class's
    /// defaults, so its draw type and mesh are often there.
    fn class_default(&self, class: &str, property: &str) -> Option<String> {
        super::placed_meshes::known_default(class, property)
    }
}

/// What `read` makes of the package named `name` among `others`; `None` when there is no such
/// package or `read` finds nothing in it.
pub fn read_other<T>(
    others: &dyn OtherPackages,
    name: &str,
    read: impl FnOnce(&Package<'_>) -> Option<T>,
) -> Option<T> {
    let mut read = Some(read);
    let mut out = None;
    others.visit_package(name, &mut |package| {
        if let Some(read) = read.take() {
            out = read(package);
        }
    });
    out
}

/// No other package: materials outside the package stay untextured.
pub struct NoOtherPackages;

impl OtherPackages for NoOtherPackages {
    fn visit_package(&self, _name: &str, _visit: &mut dyn FnMut(&Package<'_>)) -> bool {
        false
    }
}

impl OtherPackages for PackageIndex {
    fn visit_package(&self, name: &str, visit: &mut dyn FnMut(&Package<'_>)) -> bool {
        let Some(package) = self.package(name) else { return false };
        self.with_package(package, |p| visit(p)).is_ok()
    }

    fn class_default(&self, class: &str, property: &str) -> Option<String> {
        use unreal_analysis::index::DefaultValue;
        match self.default_of(class, property) {
            DefaultValue::Set(value, _) => Some(value),
            DefaultValue::EngineZero => Some(String::new()),
            DefaultValue::Unknown(_) => super::placed_meshes::known_default(class, property),
        }
    }
}

/// The packages of a game folder and package paths, indexed (tables only) when a material
/// first leads into another package: what `unreal-ls export` reads such materials from, at
/// no cost for a mesh whose materials are all its own.
pub struct IndexedOnNeed {
    fs: Arc<dyn FileSystem>,
    roots: IndexRoots,
    index: OnceLock<PackageIndex>,
}

impl IndexedOnNeed {
    pub fn new(fs: Arc<dyn FileSystem>, roots: IndexRoots) -> Self {
        Self { fs, roots, index: OnceLock::new() }
    }
}

impl IndexedOnNeed {
    /// The index, built now if it was not yet; `None` when no packages are looked for (a
    /// material is read from a package, never from a class source).
    pub fn index(&self) -> Option<&PackageIndex> {
        if !self.roots.knows_packages() {
            return None;
        }
        Some(self.built())
    }

    fn built(&self) -> &PackageIndex {
        self.index.get_or_init(|| {
            PackageIndex::build(Arc::clone(&self.fs), self.roots.clone(), &mut |_| {})
        })
    }
}

impl OtherPackages for IndexedOnNeed {
    fn visit_package(&self, name: &str, visit: &mut dyn FnMut(&Package<'_>)) -> bool {
        self.index().is_some_and(|index| index.visit_package(name, visit))
    }

    /// Class sources count here without packages (a mod's `Classes/*.uc`).
    fn class_default(&self, class: &str, property: &str) -> Option<String> {
        if self.roots.reads_anything() {
            self.built().class_default(class, property)
        } else {
            super::placed_meshes::known_default(class, property)
        }
    }
}

/// The texture in this package that gives material `material` its colour, following UE2's
/// material classes as `Engine/Classes` defines them: a `Shader`'s `Diffuse` (its
/// `SelfIllumination` when it has none), a `Combiner`'s `Material1` (else `Material2`), and the
/// `Material` of every `Modifier` (`FinalBlend`, `TexModifier` and its panners, rotators,
/// scalers and oscillators, `ColorModifier`, `OpacityModifier`...; a modifier's class may be
/// any subclass, so any other material class is followed through its `Material`). `None` when
/// the chain leaves the package, is empty, or ends at something that holds no image.
pub fn material_texture(package: &Package<'_>, material: ObjectRef) -> Option<usize> {
    match follow(package, material) {
        Some(Step::Texture(i)) => Some(i),
        _ => None,
    }
}

/// Where a chain of materials ends in one package.
enum Step {
    /// At this export, a texture.
    Texture(usize),
    /// At this import: the chain goes on in another package.
    Import(ObjectRef),
}

fn follow(package: &Package<'_>, material: ObjectRef) -> Option<Step> {
    let mut current = material;
    for _ in 0..MAX_MATERIAL_CHAIN {
        let i = match current.resolve() {
            Resolved::Export(i) => i,
            Resolved::Import(_) => return Some(Step::Import(current)),
            Resolved::None => return None,
        };
        let class = package.class_name(i);
        if export_kind(package, i) == Some(ExportKind::Image)
            && !class.eq_ignore_ascii_case("Palette")
        {
            return Some(Step::Texture(i));
        }
        let fields: &[&str] = if class.eq_ignore_ascii_case("Shader") {
            &["Diffuse", "SelfIllumination"]
        } else if class.eq_ignore_ascii_case("Combiner") {
            &["Material1", "Material2"]
        } else {
            &["Material"]
        };
        let header = package.read_object_header(i).ok()?;
        current = fields.iter().find_map(|f| header.properties.object(f).filter(|r| r.0 != 0))?;
    }
    None
}

/// The image under `material`, decoded at full size: in this package, or (through `others`)
/// in the package an import names, as the engine loads it by its path there.
pub fn material_image(
    package: &Package<'_>,
    material: ObjectRef,
    others: &dyn OtherPackages,
) -> Option<RgbaImage> {
    image_within(package, material, others, MAX_PACKAGE_HOPS, false)
}

/// [`material_image`] as a masked surface (`PF_Masked`) draws it: a P8 texture's palette
/// index 0 transparent (see `Package::decode_texture_drawn`).
pub fn material_image_on_masked_surface(
    package: &Package<'_>,
    material: ObjectRef,
    others: &dyn OtherPackages,
) -> Option<RgbaImage> {
    image_within(package, material, others, MAX_PACKAGE_HOPS, true)
}

fn image_within(
    package: &Package<'_>,
    material: ObjectRef,
    others: &dyn OtherPackages,
    hops: usize,
    masked: bool,
) -> Option<RgbaImage> {
    match follow(package, material)? {
        Step::Texture(i) => package.decode_texture_drawn(i, 0, MipSource::Auto, masked).ok(),
        Step::Import(import) if hops > 0 => {
            // `Package.Group.Name`: the outermost name is the package that holds it.
            let path = package.ref_path(import);
            let owner = path.split('.').next()?.to_owned();
            read_other(others, &owner, |other| {
                let export = other.find(&path)?;
                let material = ObjectRef(i32::try_from(export).ok()? + 1);
                image_within(other, material, others, hops - 1, masked)
            })
        }
        Step::Import(_) => None,
    }
}
