//! A T3D map's level as UnrealEd builds it ([`crate::csg`]), ready for glTF: one primitive per
//! material (a texture with the way its surfaces draw it), texture coordinates as the engine
//! maps them ([`crate::csg::uv`]), the textures read from the game folder's packages, and the
//! map's other actors as named points (lights with their colour and radius).
//!
//! What a material is: a surface's texture with its alpha (masked `PF_Masked` 0x2: cut out;
//! translucent 0x4 or modulated 0x40: blended) and sides (two-sided 0x100). Surfaces flagged
//! invisible (0x1) or portal (0x04000000) are left out: the engine draws neither.

use std::collections::HashMap;

use unreal_formats::decode::RgbaImage;
use unreal_formats::package::ObjectRef;
use unreal_syntax::t3d::{Block, BlockKind, T3dFile};

use super::model::point_to_gltf;
use super::placed_meshes::{
    self, ActorTransform, Decision, MeshActor, MeshActors, MeshFacts, MeshKind, VertexMeshSpace,
};
use crate::csg::{self, uv};
use unreal_analysis::index::{Lookup, ObjectKind, PackageIndex};
use unreal_analysis::t3d::placement::Placement;
use unreal_analysis::t3d::walk;
use unreal_analysis::Generation;

pub const PF_INVISIBLE: u32 = 0x1;
pub const PF_MASKED: u32 = 0x2;
pub const PF_TRANSLUCENT: u32 = 0x4;
pub const PF_MODULATED: u32 = 0x40;
pub const PF_TWO_SIDED: u32 = 0x100;
pub const PF_PORTAL: u32 = 0x0400_0000;

/// How a material's colour covers what lies behind it (glTF's `alphaMode`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Alpha {
    Opaque,
    /// Cut out where the texture is transparent (`MASK`).
    Mask,
    /// Blended (`BLEND`).
    Blend,
}

impl Alpha {
    pub fn of_flags(flags: u32) -> Alpha {
        if flags & (PF_TRANSLUCENT | PF_MODULATED) != 0 {
            Alpha::Blend
        } else if flags & PF_MASKED != 0 {
            Alpha::Mask
        } else {
            Alpha::Opaque
        }
    }
}

/// One material of the level.
#[derive(Clone, Debug, PartialEq)]
pub struct LevelMaterial {
    /// The texture as the map names it (`Texture=`), with a suffix when the same texture is
    /// drawn more than one way (`Glass (blend)`, `Glass (two-sided)`).
    pub name: String,
    pub texture: String,
    /// The texture's image, when a package of the game folder holds it.
    pub image: Option<RgbaImage>,
    /// The colour drawn when there is no image.
    pub color: [f32; 3],
    pub alpha: Alpha,
    pub double_sided: bool,
}

/// The level's triangles under one material, glTF axes.
#[derive(Clone, Debug, PartialEq)]
pub struct LevelPrimitive {
    pub material: usize,
    pub positions: Vec<[f32; 3]>,
    pub uvs: Vec<[f32; 2]>,
    /// Counter-clockwise seen from the front (glTF).
    pub triangles: Vec<[u32; 3]>,
    /// Which surface each triangle belongs to, in runs (in triangle order): what a view of the
    /// level needs to tell which polygon of the map a click hit.
    pub origins: Vec<SurfaceTriangles>,
    /// A colour per position (linear RGB, 0..1), multiplied with the material's; empty when
    /// the primitive has none (a terrain's layers blended by their alpha maps).
    pub colors: Vec<[f32; 3]>,
}

/// One built surface's triangles in a [`LevelPrimitive`]: from `first_triangle` up to the
/// next run's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SurfaceTriangles {
    pub first_triangle: u32,
    /// The `Begin Polygon` of the brush polygon it was cut from, as a byte offset into the T3D
    /// text (`None` for a built map's surfaces, which have no text).
    pub source: Option<u32>,
}

/// A light's colour and reach, from the actor's `LightHue`, `LightSaturation`,
/// `LightBrightness` and `LightRadius` (the engine's defaults when absent).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LevelLight {
    /// Linear RGB, 0..1.
    pub color: [f32; 3],
    /// `LightBrightness / 255`.
    pub intensity: f32,
    /// In world units (see [`light_of`]).
    pub range: f32,
}

/// A non-brush actor: a named point.
#[derive(Clone, Debug, PartialEq)]
pub struct LevelActor {
    pub name: String,
    pub class: String,
    /// glTF axes.
    pub position: [f32; 3],
    pub light: Option<LevelLight>,
    /// Its `Begin Actor`, as a byte offset into the T3D text.
    pub begin: Option<u32>,
}

/// A static mesh as the level draws it: its model in its own space (glTF axes), with the
/// materials its actors' skins give it.
#[derive(Clone, Debug, PartialEq)]
pub struct LevelMesh {
    /// The mesh's path, with its skins when they differ from its own materials.
    pub name: String,
    pub model: super::Model,
    /// The box drawn in place of meshes that cannot be read.
    pub is_box: bool,
    /// A vertex mesh's own space (its model holds the first frame as stored); `None` for a
    /// static mesh.
    pub space: Option<VertexMeshSpace>,
}

/// An actor drawing a static mesh (or the box in its place).
#[derive(Clone, Debug, PartialEq)]
pub struct PlacedMesh {
    pub name: String,
    pub class: String,
    /// Into [`LevelScene::meshes`].
    pub mesh: usize,
    /// Its transform, glTF axes, column-major ([`ActorTransform::gltf_matrix`]).
    pub matrix: [f32; 16],
    /// Its `Location`, glTF axes.
    pub position: [f32; 3],
    /// Its `Begin Actor`, as a byte offset into the T3D text.
    pub begin: Option<u32>,
}

/// The built level of a map, for glTF.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LevelScene {
    pub name: String,
    pub materials: Vec<LevelMaterial>,
    pub primitives: Vec<LevelPrimitive>,
    pub actors: Vec<LevelActor>,
    /// Surfaces written, and left out (invisible or portal).
    pub surfaces: usize,
    pub left_out: usize,
    /// Brushes built.
    pub brushes: usize,
    /// Movers drawn with their brush, where the map stores them (their surfaces are among
    /// the level's, after the built ones).
    pub movers: usize,
    /// The static meshes the level places, each once per set of skins ([`placed_meshes`]),
    /// and the box drawn where one cannot be read.
    pub meshes: Vec<LevelMesh>,
    /// The actors that place them, in the map's order.
    pub placed: Vec<PlacedMesh>,
    /// For the user: textures not found, drawn in a flat colour; static meshes drawn as boxes.
    pub notes: Vec<String>,
    /// Set when the CSG build stopped before its end ([`csg::CsgStopped`]): the scene holds
    /// the level only as far as it got.
    pub stopped: Option<csg::CsgStopped>,
}

impl LevelScene {
    /// Its movers and the static meshes it places (how many of them were read), for a summary
    /// line: `, 2 movers, 800 meshes placed (150 with 40 meshes read, 650 as boxes)`; nothing
    /// for a level of neither.
    pub fn placed_summary(&self) -> String {
        use std::fmt::Write as _;
        let mut out = String::new();
        if self.movers > 0 {
            let plural = if self.movers == 1 { "" } else { "s" };
            let _ = write!(out, ", {} mover{plural}", self.movers);
        }
        if self.placed.is_empty() {
            return out;
        }
        let boxes = self
            .placed
            .iter()
            .filter(|p| self.meshes.get(p.mesh).is_some_and(|m| m.is_box))
            .count();
        let distinct = self.meshes.iter().filter(|m| !m.is_box).count();
        let plural = if distinct == 1 { "" } else { "es" };
        // Actors both ways, so that the two add up: those drawn with a mesh read (of so many
        // distinct meshes), those drawn as boxes.
        let _ = write!(
            out,
            ", {} meshes placed ({} with {distinct} mesh{plural} read, {boxes} as boxes)",
            self.placed.len(),
            self.placed.len() - boxes
        );
        out
    }

    /// The area of the triangles written, in square units.
    pub fn area(&self) -> f64 {
        let mut area = 0.0;
        for p in &self.primitives {
            for t in &p.triangles {
                let [a, b, c] = t.map(|i| {
                    p.positions.get(i as usize).copied().unwrap_or_default().map(f64::from)
                });
                let n = csg::bsp::cross(csg::bsp::sub(b, a), csg::bsp::sub(c, a));
                area += csg::bsp::dot(n, n).sqrt() / 2.0;
            }
        }
        area
    }
}

/// Where a level's textures and static meshes come from: the image of the texture a polygon's
/// `Texture=` names, or why there is none (a sentence naming the package or name not found).
pub trait LevelTextures {
    fn image(&self, texture: &str) -> Result<RgbaImage, String>;

    /// The static mesh at `path` as a model, its sections drawn with `skins` where set
    /// ([`placed_meshes`]); or why it cannot be read, in a sentence that names its package
    /// when the package is what is missing (every mesh of it then gives the same sentence).
    fn static_mesh(&self, path: &str, skins: &[Option<String>]) -> Result<super::Model, String> {
        let _ = skins;
        Err(no_packages_for(path))
    }

    /// The vertex mesh (`Mesh`, `LodMesh`) at `path` in its first frame, with its own space,
    /// its texture slots drawn with the actor's `MultiSkins` and `Skin` where the engine would
    /// ([`placed_meshes::vertex_mesh_texture`]); or why it cannot be read, as
    /// [`Self::static_mesh`] says it.
    fn vertex_mesh(
        &self,
        path: &str,
        actor: &MeshActor,
    ) -> Result<(super::Model, VertexMeshSpace), String> {
        let _ = actor;
        Err(no_packages_for(path))
    }

    /// The default value of `property` for actors of `class`, as T3D text (`Some("")` for the
    /// engine's zero); `None` when not known. Without packages, what is known of stock
    /// classes ([`placed_meshes::known_default`]).
    fn class_default(&self, class: &str, property: &str) -> Option<String> {
        placed_meshes::known_default(class, property)
    }

    /// The image as a surface draws it: on a masked surface (`PF_Masked`), a P8 texture's
    /// palette index 0 is transparent even when the texture is not masked itself.
    fn image_drawn(&self, texture: &str, on_masked_surface: bool) -> Result<RgbaImage, String> {
        let _ = on_masked_surface;
        self.image(texture)
    }
}

/// Why a static mesh cannot be read without packages: the same sentence for every mesh.
fn no_packages_for(path: &str) -> String {
    let _ = path;
    "no game folder or package path is set to read meshes from".to_owned()
}

/// The vertex mesh at `export` of `p` (named `path` in messages) in its first frame, with its
/// own space (`Scale`, `Origin`, `RotOrigin`); each texture slot drawn as
/// [`placed_meshes::vertex_mesh_texture`] chooses: the actor's `multi_skins` or `skin` through
/// `skin_image`, else the mesh's own texture from `p` and `others`.
fn vertex_mesh_of(
    p: &unreal_formats::package::Package<'_>,
    export: usize,
    path: &str,
    others: &dyn super::OtherPackages,
    worn: &ActorSkins<'_>,
    skin_image: &dyn Fn(&str) -> Option<RgbaImage>,
) -> Result<(super::Model, VertexMeshSpace), String> {
    // UE2's meshes have readers of their own; UE1's `read_mesh` refuses them.
    if p.is_ue2() && p.class_name(export).eq_ignore_ascii_case("SkeletalMesh") {
        return skeletal_mesh_of(p, export, path, others, worn, skin_image);
    }
    if p.is_ue2() && p.class_name(export).eq_ignore_ascii_case("VertMesh") {
        return ue2_vertex_mesh_of(p, export, path, others, worn, skin_image);
    }
    // A UE1 skeletal mesh goes the same way, in its reference pose (its `Points`).
    let info = p.read_mesh(export).map_err(|e| format!("{path}: {e}"))?;
    let raw_per_unit = info.raw_per_unit();
    let placement =
        info.placement.ok_or_else(|| format!("{path}: its scale and origin could not be read"))?;
    let mesh = p.read_mesh_geometry(export).map_err(|e| format!("{path}: {e}"))?;
    let textures: Vec<Option<RgbaImage>> = mesh
        .materials
        .iter()
        .map(|m| {
            let own = m.texture.filter(|t| t.0 != 0);
            let chosen = placed_meshes::vertex_mesh_texture(
                m.slot,
                worn.multi_skins,
                worn.skin,
                own.is_some(),
            );
            match chosen {
                Some(texture) => skin_image(texture),
                None => own.and_then(|t| super::materials::material_image(p, t, others)),
            }
        })
        .collect();
    let space =
        VertexMeshSpace::new(placement.scale, placement.origin, placement.rot_origin, raw_per_unit);
    Ok((first_frame_model(path, &mesh, &textures), space))
}

/// A UE2 `VertMesh` in its first frame, placed as `UVertMeshInstance::MeshToWorld` places it
/// (on the raw vertex integers, eight and four times the decoded positions), material `i`
/// drawn with the actor's `Skins(i)` where set (`AActor::GetSkin`), else the mesh's own.
fn ue2_vertex_mesh_of(
    p: &unreal_formats::package::Package<'_>,
    export: usize,
    path: &str,
    others: &dyn super::OtherPackages,
    worn: &ActorSkins<'_>,
    skin_image: &dyn Fn(&str) -> Option<RgbaImage>,
) -> Result<(super::Model, VertexMeshSpace), String> {
    let read = p.read_vert_mesh_ue2(export).map_err(|e| format!("{path}: {e}"))?;
    let textures: Vec<Option<RgbaImage>> = read
        .mesh
        .materials
        .iter()
        .map(|m| {
            worn.ue2_material(m.slot, skin_image, || {
                m.texture.and_then(|t| super::materials::material_image(p, t, others))
            })
        })
        .collect();
    let raw_per_unit = unreal_formats::vertex_mesh::PACKED_RAW_PER_UNIT;
    let space = VertexMeshSpace::new(read.scale, read.origin, read.rot_origin, raw_per_unit);
    Ok((first_frame_model(path, &read.mesh, &textures), space))
}

/// A UE2 `SkeletalMesh` in its reference pose, placed as `USkeletalMeshInstance::MeshToWorld`
/// places it (UT2004 `Engine/Src/UnSkeletalMesh.cpp`: the same composition as a vertex mesh's),
/// material `i` drawn with the actor's `Skins(i)` where set (`AActor::GetSkin`).
fn skeletal_mesh_of(
    p: &unreal_formats::package::Package<'_>,
    export: usize,
    path: &str,
    others: &dyn super::OtherPackages,
    worn: &ActorSkins<'_>,
    skin_image: &dyn Fn(&str) -> Option<RgbaImage>,
) -> Result<(super::Model, VertexMeshSpace), String> {
    let mesh = p.read_skeletal_mesh_ue2(export).map_err(|e| format!("{path}: {e}"))?;
    let textures: Vec<Option<RgbaImage>> = mesh
        .materials
        .iter()
        .enumerate()
        .map(|(i, &m)| {
            worn.ue2_material(i, skin_image, || super::materials::material_image(p, m, others))
        })
        .collect();
    // In the engine's axes: the PSK the mesh came from is its mirror image.
    let mut model = super::Model::from_psk(path, &mesh.engine_psk(), None, &textures);
    // The reference pose is the model's positions; its bones are not the level's.
    model.skin = None;
    model.skeletal_animations.clear();
    Ok((model, VertexMeshSpace::new(mesh.scale, mesh.origin, mesh.rot_origin, [1.0; 3])))
}

/// The export at `path` in `p` whose class is one of `classes` (a `.ukx` holds a
/// `MeshAnimation` and a `SkeletalMesh` of one name): the first such, else `None`.
fn export_of_class(
    p: &unreal_formats::package::Package<'_>,
    path: &str,
    classes: &[&str],
) -> Option<usize> {
    p.find_all(path)
        .into_iter()
        .find(|&i| classes.iter().any(|c| p.class_name(i).eq_ignore_ascii_case(c)))
}

/// The classes a `Mesh=` may name.
const VERTEX_MESH_CLASSES: &[&str] = &["LodMesh", "Mesh", "VertMesh", "SkeletalMesh"];

/// What an actor wears over its mesh's own materials: UE2's `Skins`, UE1's `MultiSkins` and
/// `Skin`.
struct ActorSkins<'a> {
    skins: &'a [Option<String>],
    multi_skins: &'a [Option<String>],
    skin: Option<&'a str>,
}

impl<'a> ActorSkins<'a> {
    fn of(actor: &'a MeshActor) -> Self {
        Self { skins: &actor.skins, multi_skins: &actor.multi_skins, skin: actor.skin.as_deref() }
    }

    /// UE2's material `slot` of a mesh as the actor draws it (`AActor::GetSkin`): its
    /// `Skins(slot)` through `skin_image` where set, else the mesh's own (`own`).
    fn ue2_material(
        &self,
        slot: usize,
        skin_image: &dyn Fn(&str) -> Option<RgbaImage>,
        own: impl FnOnce() -> Option<RgbaImage>,
    ) -> Option<RgbaImage> {
        match self.skins.get(slot).and_then(Option::as_deref) {
            Some(texture) => skin_image(texture),
            None => own(),
        }
    }
}

/// A vertex mesh's first frame as a model: the frame is its positions, without the
/// animation, which is not the level's.
fn first_frame_model(
    path: &str,
    mesh: &unreal_formats::decode::mesh::AnimatedMesh,
    textures: &[Option<RgbaImage>],
) -> super::Model {
    super::Model::from_animated_mesh(path, mesh, &[], textures).still()
}

/// No game folder: every texture is a flat colour.
pub struct NoTextures;

impl LevelTextures for NoTextures {
    fn image(&self, texture: &str) -> Result<RgbaImage, String> {
        Err(format!("{texture}: no game folder or package path is set to read textures from"))
    }
}

impl LevelTextures for PackageIndex {
    fn image(&self, texture: &str) -> Result<RgbaImage, String> {
        self.image_drawn(texture, false)
    }

    /// As the engine finds it: a bare name (UE1) in any package, a dotted path only there.
    fn image_drawn(&self, texture: &str, on_masked_surface: bool) -> Result<RgbaImage, String> {
        let id = match self.lookup(ObjectKind::Texture, texture) {
            Lookup::Found(id) => id,
            Lookup::NoPackage(package) => {
                return Err(format!(
                    "{texture}: its package {package} is not in the game folder or package paths"
                ))
            }
            _ if !texture.contains('.') => {
                return Err(format!(
                    "{texture}: no package of the game folder or package paths holds a texture of that name"
                ))
            }
            _ => return Err(format!("{texture}: its package holds no such texture")),
        };
        let Some((package, _)) = self.entry(id) else {
            return Err(format!("{texture}: not found"));
        };
        let path = self.full_path(id);
        self.with_package(package, |p| {
            let export = p.find(&path)?;
            let material = ObjectRef(i32::try_from(export).ok()? + 1);
            if on_masked_surface {
                super::materials::material_image_on_masked_surface(p, material, self)
            } else {
                super::materials::material_image(p, material, self)
            }
        })
        .map_err(|e| format!("{texture}: {e}"))?
        .ok_or_else(|| {
            format!("{texture}: {} holds it, but no image could be read from it", package.name)
        })
    }

    /// From the class's source or compiled defaults, up its parents; what is known of stock
    /// classes when the index cannot tell.
    fn class_default(&self, class: &str, property: &str) -> Option<String> {
        super::OtherPackages::class_default(self, class, property)
    }

    /// As [`Self::static_mesh`] finds a static mesh.
    fn vertex_mesh(
        &self,
        path: &str,
        actor: &MeshActor,
    ) -> Result<(super::Model, VertexMeshSpace), String> {
        in_index(self, path, VERTEX_MESH_CLASSES, "mesh", |p, export| {
            vertex_mesh_of(p, export, path, self, &ActorSkins::of(actor), &|texture| {
                self.image(texture).ok()
            })
        })
    }

    /// As the engine loads it: `Package.Group.Name` in that package of the game folder or
    /// package paths; a map's own (`myLevel`) meshes live in its built package only.
    fn static_mesh(&self, path: &str, skins: &[Option<String>]) -> Result<super::Model, String> {
        in_index(self, path, &["StaticMesh"], "static mesh", |p, export| {
            let mesh = p.read_static_mesh_ue2(export).map_err(|e| format!("{path}: {e}"))?;
            let textures = mesh
                .materials
                .iter()
                .enumerate()
                .map(|(i, m)| match skins.get(i).and_then(Option::as_deref) {
                    Some(skin) => self.image(skin).ok(),
                    None => super::materials::material_image(p, m.material, self),
                })
                .collect::<Vec<_>>();
            Ok(super::Model::from_static_mesh(path, &mesh, &textures))
        })
    }
}

/// `read` run on the object at `path` (`Package.Group.Name`, of one of `classes`) in its
/// package of the index, as the engine loads it by its path; the errors name a `what` (`static
/// mesh`) whose package is missing, or a map's own (`myLevel`) object, which only its built
/// package holds.
fn in_index<T>(
    index: &PackageIndex,
    path: &str,
    classes: &[&str],
    what: &str,
    read: impl FnOnce(&unreal_formats::package::Package<'_>, usize) -> Result<T, String>,
) -> Result<T, String> {
    let owner = path.split('.').next().unwrap_or(path);
    if owner.eq_ignore_ascii_case("myLevel") {
        return Err(format!(
            "the map's own {what}es (myLevel) are stored in its built package, not in its T3D text"
        ));
    }
    let id = classes.iter().find_map(|class| index.find_of_class(path, Some(class))).ok_or_else(
        || {
            if index.package(owner).is_none() {
                format!("the {what} package {owner} is not in the game folder or package paths")
            } else {
                format!("{path}: {owner} holds no {what} of that name")
            }
        },
    )?;
    let Some((package, _)) = index.entry(id) else { return Err(format!("{path}: not found")) };
    let full = index.full_path(id);
    index
        .with_package(package, |p| {
            let export =
                export_of_class(p, &full, classes).ok_or_else(|| format!("{path}: not found"))?;
            read(p, export)
        })
        .map_err(|e| format!("{path}: {e}"))?
}

/// A texture's image and its size in texels.
type SizedImage = (RgbaImage, [f64; 2]);

/// Twice the area (in square units) below which a built surface's fan triangle is left out:
/// far below any texel (a 0.01-unit sliver of a 1-unit edge), far above rounding.
const MIN_TWICE_AREA: f64 = 1e-3;

/// A colour of its own for each texture name, for textures without an image.
pub(crate) fn flat_color(name: &str) -> [f32; 3] {
    let hash = name
        .to_ascii_lowercase()
        .bytes()
        .fold(0x811c_9dc5u32, |h, b| (h ^ u32::from(b)).wrapping_mul(0x0100_0193));
    let channel = |shift: u32| 0.35 + 0.5 * f32::from(((hash >> shift) & 0xff) as u8) / 255.0;
    [channel(0), channel(8), channel(16)]
}

/// The sRGB value `c` (0..1) as linear light, as glTF's colours are.
pub(crate) fn srgb_to_linear(c: f32) -> f32 {
    if c <= 0.04045 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }
}

/// A linear colour channel (0..1, clamped) as sRGB (0..1), as pictures' pixels are.
pub(crate) fn linear_to_srgb(c: f32) -> f32 {
    let c = c.clamp(0.0, 1.0);
    if c <= 0.003_130_8 {
        c * 12.92
    } else {
        1.055 * c.powf(1.0 / 2.4) - 0.055
    }
}

/// The level of a map text (`generation`: `None` to detect it), textured from `textures`.
pub fn level_scene(
    name: &str,
    text: &str,
    generation: Option<Generation>,
    textures: &dyn LevelTextures,
) -> LevelScene {
    level_scene_until(name, text, generation, textures, &|| false)
}

/// The parts of a level besides its BSP that a scene holds: all of them unless a user leaves
/// some out (`unreal-ls export --leave-out`, `render --leave-out`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(clippy::struct_excessive_bools)] // one switch for each part a user may leave out
pub struct LevelParts {
    /// The static meshes placed ([`placed_meshes`]); without them, their actors are left out
    /// too.
    pub static_meshes: bool,
    /// The other actors: those drawn with a mesh (`DT_Mesh`) and the rest, as points.
    pub actors: bool,
    /// A built map's terrains.
    pub terrain: bool,
    /// The movers' brushes.
    pub movers: bool,
}

impl Default for LevelParts {
    fn default() -> Self {
        Self { static_meshes: true, actors: true, terrain: true, movers: true }
    }
}

impl LevelParts {
    /// What of the actors these parts keep: the static meshes with `static_meshes`; the other
    /// actors, points and those drawn with a mesh (`DT_Mesh`), with `actors`. The notes' counts
    /// go with the static meshes.
    fn keep(
        self,
        actors: Vec<LevelActor>,
        mut meshes: MeshActors,
    ) -> (Vec<LevelActor>, MeshActors) {
        meshes.drawn.retain(|m| match m.kind {
            MeshKind::Static => self.static_meshes,
            MeshKind::Vertex => self.actors,
        });
        if !self.static_meshes {
            meshes.hidden = 0;
            meshes.undecided = 0;
        }
        (if self.actors { actors } else { Vec::new() }, meshes)
    }
}

/// [`level_scene`], whose build stops between two brushes when `stop` says so (the
/// scene's `stopped` then says it was cancelled).
pub fn level_scene_until(
    name: &str,
    text: &str,
    generation: Option<Generation>,
    textures: &dyn LevelTextures,
    stop: &dyn Fn() -> bool,
) -> LevelScene {
    level_scene_of_parts(name, text, generation, textures, LevelParts::default(), stop)
}

/// [`level_scene_until`] with only `parts` besides the BSP.
pub fn level_scene_of_parts(
    name: &str,
    text: &str,
    generation: Option<Generation>,
    textures: &dyn LevelTextures,
    parts: LevelParts,
    stop: &dyn Fn() -> bool,
) -> LevelScene {
    let (brushes, movers) = csg::level_brushes_of_t3d(text, generation);
    let mut level = csg::build_until(&brushes, false, stop);
    let movers = if parts.movers { add_movers(&mut level, movers) } else { 0 };
    let (actors, meshes) = if parts.static_meshes || parts.actors {
        split_actors(actors_of(text), &|class, property| textures.class_default(class, property))
    } else {
        (Vec::new(), MeshActors::default())
    };
    let (actors, meshes) = parts.keep(actors, meshes);
    let mut scene = level_of(name, &level, actors, textures);
    scene.movers = movers;
    add_placed_meshes(
        &mut scene,
        meshes,
        |actor| {
            let skins: Vec<Option<String>> =
                actor.skins.iter().map(|s| s.as_ref().map(|s| s.to_ascii_lowercase())).collect();
            let lower = |list: &[Option<String>]| -> Vec<Option<String>> {
                list.iter().map(|s| s.as_ref().map(|s| s.to_ascii_lowercase())).collect()
            };
            let skin = actor.skin.as_ref().map(|s| s.to_ascii_lowercase());
            (actor.kind, actor.mesh.to_ascii_lowercase(), skins, lower(&actor.multi_skins), skin)
        },
        |actor| match actor.kind {
            MeshKind::Static => textures.static_mesh(&actor.mesh, &actor.skins).map(|m| (m, None)),
            MeshKind::Vertex => textures.vertex_mesh(&actor.mesh, actor).map(|(m, s)| (m, Some(s))),
        },
    );
    if parts.terrain {
        scene.notes.extend(super::terrain::t3d_terrain_notes(text));
    }
    scene
}

/// The glTF-ready level of a level already built (from a T3D map or a built map's brushes),
/// with `actors` as its points.
pub fn level_of(
    name: &str,
    level: &csg::BuiltLevel,
    actors: Vec<LevelActor>,
    textures: &dyn LevelTextures,
) -> LevelScene {
    let mut scene = LevelScene {
        name: name.to_owned(),
        brushes: level.brushes,
        actors,
        stopped: level.stopped.clone(),
        ..LevelScene::default()
    };
    // Each texture's image (and size), read once for opaque or blended surfaces and once for
    // masked ones (where a P8 texture's index 0 is transparent).
    let mut images: HashMap<(String, bool), Option<SizedImage>> = HashMap::new();
    let mut noted: std::collections::HashSet<String> = std::collections::HashSet::new();
    let mut by_key: HashMap<(String, Alpha, bool), usize> = HashMap::new();
    for surface in &level.surfaces {
        if surface.poly_flags & (PF_INVISIBLE | PF_PORTAL) != 0 {
            scene.left_out += 1;
            continue;
        }
        let alpha = Alpha::of_flags(surface.poly_flags);
        let double_sided = surface.poly_flags & PF_TWO_SIDED != 0;
        let key_name = surface.texture.to_ascii_lowercase();
        let masked = alpha == Alpha::Mask;
        let image = images.entry((key_name.clone(), masked)).or_insert_with(|| {
            if surface.texture.is_empty() || surface.texture.eq_ignore_ascii_case("None") {
                return None;
            }
            match textures.image_drawn(&surface.texture, masked) {
                Ok(image) => {
                    let size = [f64::from(image.width), f64::from(image.height)];
                    Some((image, size))
                }
                Err(_) if !noted.insert(key_name.clone()) => None,
                Err(why) => {
                    scene.notes.push(format!(
                        "{why}; its surfaces are drawn in a flat colour, mapped as a {}x{} texture",
                        uv::DEFAULT_TEXTURE_SIZE[0],
                        uv::DEFAULT_TEXTURE_SIZE[1]
                    ));
                    None
                }
            }
        });
        let size = image.as_ref().map_or(uv::DEFAULT_TEXTURE_SIZE, |(_, s)| *s);
        let material = *by_key.entry((key_name, alpha, double_sided)).or_insert_with(|| {
            scene.materials.push(LevelMaterial {
                name: String::new(),
                texture: surface.texture.clone(),
                image: image.as_ref().map(|(i, _)| i.clone()),
                color: flat_color(&surface.texture),
                alpha,
                double_sided,
            });
            scene.primitives.push(LevelPrimitive {
                material: scene.materials.len() - 1,
                positions: Vec::new(),
                uvs: Vec::new(),
                triangles: Vec::new(),
                origins: Vec::new(),
                colors: Vec::new(),
            });
            scene.primitives.len() - 1
        });
        let Some(primitive) = scene.primitives.get_mut(material) else { continue };
        let mapping = surface.mapping.unwrap_or_default();
        let base = primitive.positions.len() as u32;
        primitive.origins.push(SurfaceTriangles {
            first_triangle: primitive.triangles.len() as u32,
            source: surface.source,
        });
        for &p in &surface.vertices {
            primitive.positions.push(point_to_gltf(p.map(|c| c as f32)));
            primitive.uvs.push(uv::uv(p, &mapping, size).map(|c| c as f32));
        }
        // UnrealEd's order faces the surface's normal when its fan turns the engine's way;
        // glTF's front faces turn the other way in its mirrored axes (see model.rs).
        let engine_order = csg::bsp::calc_normal(&surface.vertices)
            .is_none_or(|n| csg::bsp::dot(n, surface.normal) >= 0.0);
        for i in 1..surface.vertices.len().saturating_sub(1) as u32 {
            // A fan over the points the CSG left on a surface's edges (where a neighbour's
            // cut ended) has triangles without area: nothing to draw, and 2-7% of a real
            // map's triangles.
            let corner = |at: u32| surface.vertices.get(at as usize).copied().unwrap_or_default();
            let (a, b, c) = (corner(0), corner(i), corner(i + 1));
            let twice_area = csg::bsp::cross(csg::bsp::sub(b, a), csg::bsp::sub(c, a));
            if csg::bsp::dot(twice_area, twice_area) < MIN_TWICE_AREA * MIN_TWICE_AREA {
                continue;
            }
            primitive.triangles.push(if engine_order {
                [base, base + i + 1, base + i]
            } else {
                [base, base + i, base + i + 1]
            });
        }
        scene.surfaces += 1;
    }
    // Names: the texture's, with how it is drawn when it is drawn more than one way.
    let mut uses: HashMap<String, usize> = HashMap::new();
    for m in &scene.materials {
        *uses.entry(m.texture.to_ascii_lowercase()).or_default() += 1;
    }
    for m in &mut scene.materials {
        let base = if m.texture.is_empty() { "None".to_owned() } else { m.texture.clone() };
        m.name = if uses.get(&m.texture.to_ascii_lowercase()).copied().unwrap_or(0) > 1 {
            let mut how = Vec::new();
            match m.alpha {
                Alpha::Opaque => {}
                Alpha::Mask => how.push("masked"),
                Alpha::Blend => how.push("blended"),
            }
            if m.double_sided {
                how.push("two-sided");
            }
            if how.is_empty() {
                base
            } else {
                format!("{base} ({})", how.join(", "))
            }
        } else {
            base
        };
    }
    scene
}

/// Where a built map's textures come from: the package's own (`MyLevel`), or the package of
/// the game folder an import names, by the object the map's surfaces refer to.
struct StoredTextures<'p, 'b> {
    package: &'p unreal_formats::package::Package<'b>,
    by_path: HashMap<String, ObjectRef>,
    others: &'p dyn super::OtherPackages,
}

impl LevelTextures for StoredTextures<'_, '_> {
    fn image(&self, texture: &str) -> Result<RgbaImage, String> {
        self.image_drawn(texture, false)
    }

    fn image_drawn(&self, texture: &str, on_masked_surface: bool) -> Result<RgbaImage, String> {
        let Some(&r) = self.by_path.get(&texture.to_ascii_lowercase()) else {
            return Err(format!("{texture}: not a texture of the map"));
        };
        let image = if on_masked_surface {
            super::materials::material_image_on_masked_surface(self.package, r, self.others)
        } else {
            super::materials::material_image(self.package, r, self.others)
        };
        image.ok_or_else(|| {
            match r.resolve() {
                unreal_formats::package::Resolved::Import(_) => format!(
                    "{texture}: its package {} is not in the game folder or package paths, or holds no image of it",
                    texture.split('.').next().unwrap_or(texture)
                ),
                _ => format!("{texture}: the map holds it, but no image could be read from it"),
            }
        })
    }
}

/// The level a built map (`.unr`, `.ut2`) stores, as UnrealEd last built it: each BSP node's
/// polygon with its surface's texture, flags and mapping, textured from the map's own
/// package and, for imports, from `others` (the game folder); the level's other actors as
/// named points, lights with their light. Errors name where the package stopped reading.
pub fn stored_level_scene(
    name: &str,
    package: &unreal_formats::package::Package<'_>,
    others: &dyn super::OtherPackages,
) -> Result<LevelScene, unreal_formats::Error> {
    stored_level_scene_of_parts(name, package, others, LevelParts::default())
}

/// [`stored_level_scene`] with only `parts` besides the BSP.
pub fn stored_level_scene_of_parts(
    name: &str,
    package: &unreal_formats::package::Package<'_>,
    others: &dyn super::OtherPackages,
    parts: LevelParts,
) -> Result<LevelScene, unreal_formats::Error> {
    let mut stored = csg::package::read_stored_level(package)?;
    let by_path = stored
        .level
        .surfaces
        .iter()
        .zip(&stored.textures)
        .map(|(s, &r)| (s.texture.to_ascii_lowercase(), r))
        .chain(stored.mover_textures.iter().map(|&r| (package.ref_path(r).to_ascii_lowercase(), r)))
        .collect();
    let textures = StoredTextures { package, by_path, others };
    let actors = stored
        .actors
        .iter()
        .map(|a| {
            let short = a.class.rsplit('.').next().unwrap_or(&a.class).to_ascii_lowercase();
            let is_light = short == "light" || short.ends_with("light");
            let [hue, saturation, brightness, radius] = a.light_properties;
            let point = LevelActor {
                name: a.name.clone(),
                class: a.class.clone(),
                position: point_to_gltf(a.location.map(|c| c as f32)),
                light: is_light.then(|| {
                    light_with(
                        hue.unwrap_or(0.0),
                        saturation.unwrap_or(255.0),
                        brightness.unwrap_or(64.0),
                        radius.unwrap_or(64.0),
                    )
                }),
                begin: None,
            };
            (point, stored_mesh_facts(package, a))
        })
        .collect();
    let (actors, meshes) =
        split_actors(actors, &|class, property| others.class_default(class, property));
    let (actors, meshes) = parts.keep(actors, meshes);
    // The level is the scene's from here: taken, not copied, with the movers added to it.
    let mut level = std::mem::take(&mut stored.level);
    let movers = std::mem::take(&mut stored.movers);
    let movers = if parts.movers { add_movers(&mut level, movers) } else { 0 };
    let mut scene = level_of(name, &level, actors, &textures);
    scene.movers = movers;
    if parts.movers {
        for why in &stored.unread_movers {
            scene.notes.push(format!("the mover {why}; it is left out"));
        }
    }
    // The mesh an actor draws, as the map refers to it (its class's default only by path),
    // and its skins, by actor name.
    let by_name: HashMap<&str, &csg::package::StoredActor> =
        stored.actors.iter().map(|a| (a.name.as_str(), a)).collect();
    let reference = |actor: &MeshActor| -> (Option<ObjectRef>, Vec<ObjectRef>) {
        let Some(stored) = by_name.get(actor.name.as_str()) else { return (None, Vec::new()) };
        let written = match actor.kind {
            MeshKind::Static => stored.drawing.static_mesh,
            MeshKind::Vertex => stored.drawing.mesh,
        };
        (written.filter(|r| r.0 != 0), stored.drawing.skins.clone())
    };
    add_placed_meshes(
        &mut scene,
        meshes,
        |actor| {
            let (mesh, skins) = reference(actor);
            // By path: a class's default and the same mesh the map refers to are one mesh.
            let mesh = mesh.map_or_else(|| actor.mesh.clone(), |r| package.ref_path(r));
            let mesh = mesh.to_ascii_lowercase();
            // A vertex mesh's `MultiSkins` and `Skin` (by path) make another model too.
            let worn = (actor.multi_skins.clone(), actor.skin.clone());
            (actor.kind, mesh, skins.iter().map(|s| s.0).collect::<Vec<_>>(), worn)
        },
        |actor| {
            // A mesh the map does not refer to is its class's default, found by its path.
            let (mesh, skins) = reference(actor);
            let mesh = mesh.map_or(StoredMesh::Path(&actor.mesh), StoredMesh::Object);
            match actor.kind {
                MeshKind::Static => {
                    stored_static_mesh(package, mesh, &skins, others).map(|m| (m, None))
                }
                MeshKind::Vertex => {
                    // The actor's skins (UE1's `MultiSkins` and `Skin`, UE2's `Skins`), by the
                    // paths `MeshActor` names them with.
                    let worn: Vec<ObjectRef> =
                        by_name.get(actor.name.as_str()).map_or_else(Vec::new, |a| {
                            let d = &a.drawing;
                            d.multi_skins.iter().chain(&d.skins).copied().chain(d.skin).collect()
                        });
                    let skin_image = |texture: &str| {
                        let r = worn.iter().find(|r| package.ref_path(**r) == texture)?;
                        super::materials::material_image(package, *r, others)
                    };
                    stored_vertex_mesh(package, mesh, others, &ActorSkins::of(actor), &skin_image)
                        .map(|(m, s)| (m, Some(s)))
                }
            }
        },
    );
    if parts.terrain {
        super::terrain::add_terrains(&mut scene, package, others);
    }
    Ok(scene)
}

/// What a built map's actor stores about drawing a static mesh (see [`placed_meshes`]).
fn stored_mesh_facts(
    package: &unreal_formats::package::Package<'_>,
    actor: &csg::package::StoredActor,
) -> MeshFacts {
    let drawing = &actor.drawing;
    let path = |r: ObjectRef| if r.0 == 0 { "None".to_owned() } else { package.ref_path(r) };
    MeshFacts {
        name: actor.name.clone(),
        class: actor.class.clone(),
        transform: ActorTransform {
            location: actor.location,
            rotation: drawing.rotation.unwrap_or_default(),
            draw_scale: drawing.draw_scale.unwrap_or(1.0),
            draw_scale_3d: drawing.draw_scale_3d.unwrap_or([1.0; 3]),
            pre_pivot: drawing.pre_pivot.unwrap_or_default(),
        },
        draw_type: drawing.draw_type.map(|t| t.to_string()),
        static_mesh: drawing.static_mesh.map(path),
        vertex_mesh: drawing.mesh.map(path),
        skins: drawing.skins.iter().map(|&s| (s.0 != 0).then(|| path(s))).collect(),
        multi_skins: drawing.multi_skins.iter().map(|&s| (s.0 != 0).then(|| path(s))).collect(),
        skin: drawing.skin.map(path),
        collision: drawing.collision,
        hidden: drawing.hidden,
        begin: None,
    }
}

/// The vertex mesh `mesh` of a built map in its first frame, with its own space: the map's
/// own or, for an import, read from the package of `others` that holds it.
fn stored_vertex_mesh(
    package: &unreal_formats::package::Package<'_>,
    mesh: StoredMesh<'_>,
    others: &dyn super::OtherPackages,
    worn: &ActorSkins<'_>,
    skin_image: &dyn Fn(&str) -> Option<RgbaImage>,
) -> Result<(super::Model, VertexMeshSpace), String> {
    let path = mesh.path(package);
    in_map_or_others(package, mesh, others, VERTEX_MESH_CLASSES, "mesh", |p, export| {
        vertex_mesh_of(p, export, &path, others, worn, skin_image)
    })
}

/// The static mesh `mesh` of a built map as a model: the map's own (`myLevel`) or, for an
/// import, read from the package of `others` that holds it; its sections drawn with the
/// actor's `skins` (references of the map) where set.
fn stored_static_mesh(
    package: &unreal_formats::package::Package<'_>,
    mesh: StoredMesh<'_>,
    skins: &[ObjectRef],
    others: &dyn super::OtherPackages,
) -> Result<super::Model, String> {
    let path = mesh.path(package);
    let skin_images: Vec<Option<RgbaImage>> = skins
        .iter()
        .map(|&s| {
            (s.0 != 0).then(|| super::materials::material_image(package, s, others)).flatten()
        })
        .collect();
    let skinned = |i: usize| skins.get(i).is_some_and(|s| s.0 != 0);
    in_map_or_others(package, mesh, others, &["StaticMesh"], "static mesh", |p, export| {
        let read = p.read_static_mesh_ue2(export).map_err(|e| format!("{path}: {e}"))?;
        let textures: Vec<Option<RgbaImage>> = read
            .materials
            .iter()
            .enumerate()
            .map(|(i, m)| {
                if skinned(i) {
                    skin_images.get(i).cloned().flatten()
                } else {
                    super::materials::material_image(p, m.material, others)
                }
            })
            .collect();
        Ok(super::Model::from_static_mesh(&path, &read, &textures))
    })
}

/// The mesh a built map's actor draws: an object the map refers to (its own or an import),
/// or only a path, where the mesh is the actor's class's default and the map does not list
/// it (a `HealthCharger`'s, a pickup's).
#[derive(Clone, Copy, Debug)]
enum StoredMesh<'a> {
    Object(ObjectRef),
    Path(&'a str),
}

impl StoredMesh<'_> {
    fn path(self, package: &unreal_formats::package::Package<'_>) -> String {
        match self {
            StoredMesh::Object(r) => package.ref_path(r),
            StoredMesh::Path(path) => path.to_owned(),
        }
    }
}

/// `read` run on the object `object` of a built map (`package`): an object of the map itself,
/// or for an import or a path, the object at its path (of one of `classes`) in the package of
/// `others` that holds it, as the engine loads it; the errors name a `what` (`static mesh`)
/// whose package is missing.
fn in_map_or_others<T>(
    package: &unreal_formats::package::Package<'_>,
    object: StoredMesh<'_>,
    others: &dyn super::OtherPackages,
    classes: &[&str],
    what: &str,
    read: impl Fn(&unreal_formats::package::Package<'_>, usize) -> Result<T, String>,
) -> Result<T, String> {
    let path = object.path(package);
    if let StoredMesh::Object(r) = object {
        match r.resolve() {
            unreal_formats::package::Resolved::Export(i) => return read(package, i),
            unreal_formats::package::Resolved::Import(_) => {}
            unreal_formats::package::Resolved::None => return Err(format!("no {what}")),
        }
    }
    let owner = path.split('.').next().unwrap_or(&path).to_owned();
    let mut found = None;
    let known = others.visit_package(&owner, &mut |other| {
        found = Some(match export_of_class(other, &path, classes) {
            Some(export) => read(other, export),
            None => Err(format!("{path}: {owner} holds no {what} of that name")),
        });
    });
    if !known {
        return Err(format!(
            "the {what} package {owner} is not in the game folder or package paths"
        ));
    }
    found.unwrap_or_else(|| Err(format!("{path}: cannot be read")))
}

/// The engine's light colour: `LightHue` and `LightSaturation` (0..255; a saturation of 255
/// is white) as HSV with full value.
fn light_color(hue: f64, saturation: f64) -> [f32; 3] {
    let h = (hue / 255.0).clamp(0.0, 1.0) * 6.0;
    let s = 1.0 - (saturation / 255.0).clamp(0.0, 1.0);
    let f = h - h.floor();
    let (p, q, t) = (1.0 - s, 1.0 - s * f, 1.0 - s * (1.0 - f));
    let rgb = match h.floor() as i32 {
        0 | 6 => [1.0, t, p],
        1 => [q, 1.0, p],
        2 => [p, 1.0, t],
        3 => [p, q, 1.0],
        4 => [t, p, 1.0],
        _ => [1.0, p, q],
    };
    rgb.map(|c: f64| c as f32)
}

/// A light actor's colour, brightness and radius. `LightRadius` counts 25-unit steps
/// (`WorldLightRadius() = 25 * (LightRadius + 1)`, OldUnreal's `Engine/Inc/AActor.h`); the
/// class `Light`'s defaults are `LightBrightness=64`, `LightRadius=64`, `LightSaturation=255`
/// (`Engine/Classes/Light.uc`), and the hue 0.
fn light_of(text: &str, actor: &Block) -> LevelLight {
    let number = |key: &str, default: f64| {
        actor
            .last_property(text, key)
            .and_then(|p| p.value.span().text(text).trim().parse::<f64>().ok())
            .filter(|v| v.is_finite())
            .unwrap_or(default)
    };
    light_with(
        number("LightHue", 0.0),
        number("LightSaturation", 255.0),
        number("LightBrightness", 64.0),
        number("LightRadius", 64.0),
    )
}

/// A light from its four properties (see [`light_of`]).
fn light_with(hue: f64, saturation: f64, brightness: f64, radius: f64) -> LevelLight {
    LevelLight {
        color: light_color(hue, saturation),
        intensity: (brightness / 255.0).clamp(0.0, 1.0) as f32,
        range: (25.0 * (radius.clamp(0.0, 255.0) + 1.0)) as f32,
    }
}

/// Every actor of the map but brushes, in file order: its name, class and location; lights
/// (class `Light` or a class ending in `Light`, with light properties) with their light; and
/// what it stores about drawing a static mesh ([`split_actors`] decides).
fn actors_of(text: &str) -> Vec<(LevelActor, MeshFacts)> {
    let read = |file: &T3dFile| -> Vec<(LevelActor, MeshFacts)> {
        walk::blocks(file)
            .into_iter()
            .filter(|(b, _)| b.kind == BlockKind::Actor)
            .filter(|(b, _)| !b.blocks().any(|c| c.kind == BlockKind::Brush))
            .map(|(actor, _)| {
                let class = actor.attribute_value(text, "Class").unwrap_or_default().to_owned();
                let short = class.rsplit('.').next().unwrap_or(&class).to_ascii_lowercase();
                let is_light = short == "light" || short.ends_with("light");
                let location = Placement::of_actor(text, actor).location;
                let point = LevelActor {
                    name: actor.attribute_value(text, "Name").unwrap_or_default().to_owned(),
                    position: point_to_gltf(location.map(|c| c as f32)),
                    light: is_light.then(|| light_of(text, actor)),
                    begin: Some(actor.begin_span.start),
                    class,
                };
                (point, placed_meshes::t3d_mesh_facts(text, actor))
            })
            .collect()
    };
    if let Some(piece_bytes) = unreal_analysis::t3d::in_pieces::piece_bytes_for(text) {
        let pieces = unreal_analysis::t3d::in_pieces::read_map_items(text, piece_bytes, |item| {
            read(&T3dFile { items: vec![item] })
        });
        // A map too broken to read in pieces is read whole, as before the limit.
        if let Some((items, rest)) = pieces.joined() {
            let mut out: Vec<(LevelActor, MeshFacts)> = items.into_iter().flatten().collect();
            out.extend(read(&rest.file));
            return out;
        }
    }
    read(&unreal_syntax::t3d::parse(text).file)
}

/// The actors that stay points and those that draw a static mesh, each actor's class's
/// defaults asked once per class and property ([`LevelTextures::class_default`]).
fn split_actors(
    actors: Vec<(LevelActor, MeshFacts)>,
    defaults: &dyn Fn(&str, &str) -> Option<String>,
) -> (Vec<LevelActor>, MeshActors) {
    let asked: std::cell::RefCell<HashMap<(String, String), Option<String>>> =
        std::cell::RefCell::default();
    let cached = |class: &str, property: &str| {
        let key = (class.to_ascii_lowercase(), property.to_owned());
        if let Some(known) = asked.borrow().get(&key) {
            return known.clone();
        }
        let value = defaults(class, property);
        asked.borrow_mut().insert(key, value.clone());
        value
    };
    let mut points = Vec::new();
    let mut meshes = MeshActors::default();
    for (point, facts) in actors {
        match facts.decide(&cached) {
            Decision::Drawn(drawn) => {
                meshes.drawn.push(*drawn);
                continue;
            }
            Decision::Hidden => meshes.hidden += 1,
            Decision::Undecided => meshes.undecided += 1,
            Decision::NotDrawn => {}
        }
        points.push(point);
    }
    (points, meshes)
}

/// Adds the meshes `found` draws to `scene`: each distinct mesh (by `key`: its path and
/// skins) read once by `read`, one [`PlacedMesh`] per actor; where a mesh cannot be read, a box
/// of the actor's collision size ([`placed_meshes::box_transform`]) and one note per reason,
/// with how many actors it holds. Hidden and undecided actors are counted in a note each.
fn add_placed_meshes<K: std::hash::Hash + Eq>(
    scene: &mut LevelScene,
    found: MeshActors,
    key: impl Fn(&MeshActor) -> K,
    read: impl Fn(&MeshActor) -> Result<(super::Model, Option<VertexMeshSpace>), String>,
) {
    let mut read_before: HashMap<K, Result<usize, String>> = HashMap::new();
    let mut box_mesh: Option<usize> = None;
    // Each reason a mesh cannot be read, with its actors and meshes, in the order met.
    let mut unread: Vec<(String, usize, usize)> = Vec::new();
    let mut not_placed = 0;
    for actor in found.drawn {
        if !actor.transform.is_finite() {
            not_placed += 1;
            continue;
        }
        let mut first_time = false;
        let outcome = read_before
            .entry(key(&actor))
            .or_insert_with(|| {
                first_time = true;
                read(&actor).map(|(model, space)| {
                    let name = model.name.clone();
                    scene.meshes.push(LevelMesh { name, model, is_box: false, space });
                    scene.meshes.len() - 1
                })
            })
            .clone();
        let (mesh, matrix) = match outcome {
            Ok(mesh) => {
                let space = scene.meshes.get(mesh).and_then(|m| m.space);
                let matrix = match space {
                    Some(space) => actor.transform.vertex_mesh_gltf_matrix(&space),
                    None => actor.transform.gltf_matrix(),
                };
                (mesh, matrix)
            }
            Err(why) => {
                match unread.iter_mut().find(|(w, _, _)| *w == why) {
                    Some(entry) => {
                        entry.1 += 1;
                        entry.2 += usize::from(first_time);
                    }
                    None => unread.push((why, 1, 1)),
                }
                let mesh = *box_mesh.get_or_insert_with(|| {
                    scene.meshes.push(LevelMesh {
                        name: "Mesh not read".to_owned(),
                        model: placed_meshes::unread_box_model(),
                        is_box: true,
                        space: None,
                    });
                    scene.meshes.len() - 1
                });
                (mesh, placed_meshes::box_transform(&actor).gltf_matrix())
            }
        };
        // A scale that overflows (1e30 times 1e10) or is zero places nothing the engine would
        // draw, and no glTF reader could take the matrix apart.
        if !placed_meshes::is_placeable(&matrix) {
            not_placed += 1;
            continue;
        }
        scene.placed.push(PlacedMesh {
            name: actor.name,
            class: actor.class,
            mesh,
            matrix,
            position: point_to_gltf(actor.transform.location.map(|c| c as f32)),
            begin: actor.begin,
        });
    }
    let counted = |n: usize, one: &str, many: &str| {
        if n == 1 {
            format!("1 {one}")
        } else {
            format!("{n} {many}")
        }
    };
    for (why, actors, meshes) in unread {
        scene.notes.push(format!(
            "{why}: {} not read, drawn as boxes of their actors' collision size ({})",
            counted(meshes, "mesh", "meshes"),
            counted(actors, "actor", "actors")
        ));
    }
    if not_placed > 0 {
        scene.notes.push(format!(
            "{} a location or scale out of range (not a finite number, or a zero scale): not drawn",
            counted(not_placed, "mesh actor has", "mesh actors have")
        ));
    }
    if found.hidden > 0 {
        scene.notes.push(format!(
            "{} hidden in the game (bHidden=True): shown as points, as the engine does not draw them",
            counted(found.hidden, "mesh actor is", "mesh actors are")
        ));
    }
    if found.undecided > 0 {
        scene.notes.push(format!(
            "{} a StaticMesh or Mesh, but neither they nor a class known here say how they are drawn (DrawType, which may come from their class's defaults): shown as points",
            counted(found.undecided, "actor names", "actors name")
        ));
    }
}

/// Adds the polygons of `movers` to the level's surfaces, as they stand (movers take no part
/// in CSG: the engine draws each one's brush where it is); how many movers had any.
fn add_movers(level: &mut csg::BuiltLevel, movers: Vec<csg::CsgBrush>) -> usize {
    let mut drawn = 0;
    for (k, mover) in movers.into_iter().enumerate() {
        let before = level.surfaces.len();
        for (j, poly) in mover.polys.into_iter().enumerate() {
            let Some(normal) = csg::bsp::calc_normal(&poly.vertices) else { continue };
            let Some(&base) = poly.vertices.first() else { continue };
            level.surfaces.push(csg::Surface {
                normal,
                base,
                texture: poly.texture,
                poly_flags: poly.poly_flags,
                mapping: poly.mapping,
                brush: level.brushes + k,
                brush_poly: j,
                source: poly.source,
                vertices: poly.vertices,
            });
        }
        drawn += usize::from(level.surfaces.len() > before);
    }
    drawn
}
