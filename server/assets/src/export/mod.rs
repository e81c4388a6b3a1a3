//! Exports: textures and import images to PNG, `TextBuffers` to `.uc` text, vertex meshes
//! (`_d.3d` + `_a.3d`, or a package `Mesh`/`LodMesh`) and ActorX PSK (with a PSA) to binary
//! glTF, T3D brushes to glTF or OBJ. Bytes in, bytes out; no file IO, no LSP.
//!
//! Coordinates are converted to glTF's right-handed Y-up axes as [`model`] documents.

// Geometry and pixel code names its coordinates and channels x, y, z, r, g, b, a.
#![allow(clippy::many_single_char_names)]

pub mod gltf;
pub mod level;
pub mod map;
pub mod materials;
pub mod mesh_files;
pub mod model;
pub mod obj;
pub mod placed_meshes;
pub mod png;
pub mod pose;
pub mod terrain;
pub mod u3d;
pub mod uc;

use unreal_formats::decode::image::decode_image;
use unreal_formats::decode::mesh::AnimatedMesh;
use unreal_formats::decode::skeletal::{psa_keys, AnimKey};
use unreal_formats::decode::texture::MipSource;
use unreal_formats::decode::RgbaImage;
use unreal_formats::package::Package;
use unreal_formats::psk::{Psa, Psk};
use unreal_formats::vertex_mesh::VertexMesh;
use unreal_formats::{Error, Result};
use unreal_syntax::t3d::ast::LineKeyword;

pub use gltf::{write_glb, write_level_glb, write_map_glb};
pub use level::{
    level_scene, level_scene_of_parts, level_scene_until, stored_level_scene,
    stored_level_scene_of_parts, LevelParts, LevelScene, LevelTextures, NoTextures,
};
pub use map::{map_scene, MapScene};
pub use materials::{
    material_image, material_texture, IndexedOnNeed, NoOtherPackages, OtherPackages,
};
pub use model::{FrameSequence, Model};
pub use obj::write_obj;
pub use pose::MeshSetup;
pub use u3d::u3d_model;

use png::encode_png;

/// What a package object exports to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExportKind {
    /// A PNG: textures (in every format with a fixed layout) and palettes.
    Image,
    /// UnrealScript text: a TextBuffer.
    Text,
    /// A model (glTF or OBJ): vertex meshes, and UE2 skeletal and static meshes.
    Model,
}

/// What the object at `export` exports to, from its class; `None` for objects with nothing
/// to export (animations, sounds, classes, UE2 `ScriptedTexture`s, which hold no image).
pub fn export_kind(package: &Package<'_>, export: usize) -> Option<ExportKind> {
    let class = package.class_name(export);
    let is = |c: &str| class.eq_ignore_ascii_case(c);
    if is("TextBuffer") {
        Some(ExportKind::Text)
    } else if is("Palette") {
        Some(ExportKind::Image)
    } else if is("Mesh")
        || is("LodMesh")
        || is("SkeletalMesh")
        || (package.is_ue2() && (is("StaticMesh") || is("VertMesh")))
    {
        Some(ExportKind::Model)
    } else if package.texture_class_is_imageless(class) {
        None
    } else if unreal_formats::package::is_texture_class_name(class) {
        Some(ExportKind::Image)
    } else {
        None
    }
}

/// Mip `level` of a package texture as a PNG file.
pub fn texture_png(package: &Package<'_>, export: usize, level: usize) -> Result<Vec<u8>> {
    Ok(encode_png(&package.decode_texture(export, level, MipSource::Auto)?))
}

/// An import-source image (PCX, BMP, TGA, DDS, PNG) as a PNG file.
pub fn image_png(bytes: &[u8], extension: &str) -> Result<Vec<u8>> {
    Ok(encode_png(&decode_image(bytes, extension)?))
}

/// A TextBuffer's text (the class source stored in a `.u`), as saved: `.uc` content.
pub fn text_buffer_source(package: &Package<'_>, export: usize) -> Result<String> {
    Ok(package.read_text_buffer(export)?.text)
}

/// A `_d.3d` + `_a.3d` mesh as a model: `sequences` from the class's `#exec MESH SEQUENCE`
/// lines (one sequence over every frame when empty), `textures` by texture slot number, posed
/// and slotted as the class's `setup` says.
pub fn vertex_mesh_model(
    name: &str,
    data_file: &[u8],
    aniv_file: &[u8],
    sequences: &[FrameSequence],
    textures_by_slot: &[(usize, RgbaImage)],
    setup: &MeshSetup,
) -> Result<Model> {
    let vertex_mesh = VertexMesh::parse(data_file, aniv_file)?;
    let mut mesh = AnimatedMesh::from_vertex_mesh(&vertex_mesh);
    // Decoded positions are the packed integers over 8, 8 and 4 (Deus Ex's are as stored).
    let raw_per_unit = if vertex_mesh.bytes_per_vertex == 8 {
        [1.0; 3]
    } else {
        unreal_formats::vertex_mesh::PACKED_RAW_PER_UNIT.map(f64::from)
    };
    setup.apply(&mut mesh, raw_per_unit);
    Ok(animated_model(name, &mesh, sequences, textures_by_slot))
}

fn animated_model(
    name: &str,
    mesh: &AnimatedMesh,
    sequences: &[FrameSequence],
    textures_by_slot: &[(usize, RgbaImage)],
) -> Model {
    let textures: Vec<Option<RgbaImage>> = mesh
        .materials
        .iter()
        .map(|m| textures_by_slot.iter().find(|(s, _)| *s == m.slot).map(|(_, t)| t.clone()))
        .collect();
    Model::from_animated_mesh(name, mesh, sequences, &textures)
}

/// A package mesh (`Mesh`, `LodMesh`, `SkeletalMesh`, UE2 `VertMesh` and `StaticMesh`) as a model with
/// its own sequences and the textures under its materials that are inside the same package.
pub fn package_mesh_model(package: &Package<'_>, export: usize) -> Result<Model> {
    package_mesh_model_with(package, export, &NoOtherPackages)
}

/// [`package_mesh_model`] with the textures under materials that other packages hold, read
/// from `others` (the game's packages).
pub fn package_mesh_model_with(
    package: &Package<'_>,
    export: usize,
    others: &dyn OtherPackages,
) -> Result<Model> {
    if package.is_ue2() && package.class_name(export).eq_ignore_ascii_case("SkeletalMesh") {
        return ue2_skeletal_model(package, export, others);
    }
    if package.is_ue2() && package.class_name(export).eq_ignore_ascii_case("StaticMesh") {
        return ue2_static_model(package, export, others);
    }
    let mesh = package.read_mesh_geometry(export)?;
    let sequences: Vec<FrameSequence> = mesh
        .sequences
        .iter()
        .map(|s| FrameSequence {
            name: s.name.clone(),
            start_frame: s.start_frame,
            frames: s.frames,
            rate: s.rate,
        })
        .collect();
    let textures: Vec<Option<RgbaImage>> = mesh
        .materials
        .iter()
        .map(|m| m.texture.and_then(|t| material_image(package, t, others)))
        .collect();
    let model =
        Model::from_animated_mesh(package.export_name(export), &mesh, &sequences, &textures);
    // One frame (a UE1 skeletal mesh's reference pose): nothing moves.
    Ok(if mesh.frames == 1 { model.still() } else { model })
}

/// A UE2 `SkeletalMesh` in its reference pose, skinned, with the skins of the package's own
/// textures, followed through shaders and modifiers (materials in other packages are left
/// untextured). In the engine's axes, as the game draws it: UT2004's import negated the Y of
/// the PSK it came from, which the PSK export ([`SkeletalMeshUe2::to_psk`]) undoes.
///
/// [`SkeletalMeshUe2::to_psk`]: unreal_formats::decode::ue2_mesh::SkeletalMeshUe2::to_psk
fn ue2_skeletal_model(
    package: &Package<'_>,
    export: usize,
    others: &dyn OtherPackages,
) -> Result<Model> {
    let mesh = package.read_skeletal_mesh_ue2(export)?;
    let textures: Vec<Option<RgbaImage>> =
        mesh.materials.iter().map(|&m| material_image(package, m, others)).collect();
    Ok(Model::from_psk(package.export_name(export), &mesh.engine_psk(), None, &textures))
}

/// A UE2 `StaticMesh`: its sections as primitives, its first UV set, and the package's own
/// textures under its materials (materials in other packages are left untextured).
fn ue2_static_model(
    package: &Package<'_>,
    export: usize,
    others: &dyn OtherPackages,
) -> Result<Model> {
    let mesh = package.read_static_mesh_ue2(export)?;
    let textures: Vec<Option<RgbaImage>> =
        mesh.materials.iter().map(|m| material_image(package, m.material, others)).collect();
    Ok(Model::from_static_mesh(package.export_name(export), &mesh, &textures))
}

/// How an ActorX file's axes become the engine's, which differs by generation: UT v436's
/// import kept them (the corpus's `C4.psk` holds the very points of the mesh built from it),
/// UT2004's negates Y ([`Psk::mirrored_y`]). The file itself does not say which engine it was
/// made for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PskAxes {
    /// The file's axes are the engine's (UE1, and where the engine is not known).
    AsWritten,
    /// UE2's import: Y negated.
    Ue2Import,
}

impl PskAxes {
    /// The axes of the engine generation a file is for (`None`: not known).
    pub fn of(generation: Option<unreal_analysis::Generation>) -> PskAxes {
        if generation == Some(unreal_analysis::Generation::Ue2) {
            PskAxes::Ue2Import
        } else {
            PskAxes::AsWritten
        }
    }
}

/// A PSK (and optionally its PSA) as a skinned model in the engine's axes as `axes` says;
/// `textures` by PSK material index.
pub fn psk_model(
    name: &str,
    psk_file: &[u8],
    psa_file: Option<&[u8]>,
    textures: &[Option<RgbaImage>],
    axes: PskAxes,
) -> Result<Model> {
    let mut psk = Psk::parse(psk_file)?;
    let animation = match psa_file {
        Some(bytes) => {
            let psa = Psa::parse(bytes)?;
            let keys = psa_keys(bytes, &psa)?;
            Some((psa, keys))
        }
        None => None,
    };
    let animation = match axes {
        PskAxes::AsWritten => animation,
        PskAxes::Ue2Import => {
            psk = psk.mirrored_y();
            animation.map(|(psa, keys)| (psa, keys.iter().map(AnimKey::mirrored_y).collect()))
        }
    };
    Ok(Model::from_psk(name, &psk, animation.as_ref().map(|(p, k)| (p, k.as_slice())), textures))
}

/// Every polygon of a T3D text as one model, each in the coordinates it is written in: for a
/// lone brush (a `Begin PolyList`, UnrealEd's brush export, a clipboard dump), which has no
/// placement. A map's brushes go through [`map_scene`], which places them.
pub fn t3d_brush_model(name: &str, text: &str) -> Result<Model> {
    let parse = unreal_syntax::t3d::parse(text);
    let mut polygons = Vec::new();
    for (polygon, _) in unreal_analysis::t3d::walk::polygons(&parse.file) {
        let points: Vec<[f32; 3]> =
            polygon.vectors(LineKeyword::Vertex).map(|v| v.value.map(|c| c as f32)).collect();
        if points.len() >= 3 {
            polygons.push(points);
        }
    }
    if polygons.is_empty() {
        return Err(Error::new("T3D text", 0, "at least one polygon with three vertices"));
    }
    Ok(Model::from_polygons(name, &polygons))
}
