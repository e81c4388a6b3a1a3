//! Previews for the package browser and for hovers: PNG thumbnails of textures, palettes and
//! meshes, `data:` URIs, and the package's object tree with per-object facts. Plain data;
//! the server and the CLI render it.

// Geometry and pixel code names its coordinates and channels x, y, z, r, g, b, a.
#![allow(clippy::many_single_char_names)]

pub mod browser;
pub mod map;
pub mod png;
pub mod render;

use unreal_formats::decode::RgbaImage;
use unreal_formats::Result;

use crate::export::Model;

pub use crate::export::png::encode_png;
pub use browser::{
    object_preview, object_preview_sized, object_preview_with, package_tree, ObjectPreview,
    PackageTree, TreeNode,
};
pub use png::{png_data_uri, thumbnail, thumbnail_data_uri, THUMBNAIL_SIZE};
pub use render::render_model;
pub use unreal_analysis::thumbnail::{texture_thumbnail, texture_thumbnail_data_uri};

/// A model (frame 0 or reference pose) rendered to a `size` x `size` PNG `data:` URI.
pub fn model_thumbnail_data_uri(model: &Model, size: u32) -> String {
    png_data_uri(&encode_png(&render_model(model, size)))
}

/// A `_d.3d` + `_a.3d` pair rendered as a `data:` URI (textures by slot, when known), posed
/// as its class's `setup` says when the class is known.
pub fn vertex_mesh_thumbnail_data_uri(
    data_file: &[u8],
    aniv_file: &[u8],
    textures_by_slot: &[(usize, RgbaImage)],
    setup: &crate::export::MeshSetup,
    size: u32,
) -> Result<String> {
    let model = crate::export::vertex_mesh_model(
        "mesh",
        data_file,
        aniv_file,
        &[],
        textures_by_slot,
        setup,
    )?;
    Ok(model_thumbnail_data_uri(&model, size))
}

/// A PSK's reference pose in the engine's axes as `axes` says, rendered as a `data:` URI
/// (textures by material index).
pub fn psk_thumbnail_data_uri(
    psk_file: &[u8],
    textures: &[Option<RgbaImage>],
    size: u32,
    axes: crate::export::PskAxes,
) -> Result<String> {
    let model = crate::export::psk_model("psk", psk_file, None, textures, axes)?;
    Ok(model_thumbnail_data_uri(&model, size))
}

/// An Ultimate 3D model's first frame rendered as a `data:` URI (textures by material
/// index).
pub fn u3d_thumbnail_data_uri(
    u3d_file: &[u8],
    textures: &[Option<RgbaImage>],
    size: u32,
) -> Result<String> {
    let model = crate::export::u3d_model("u3d", u3d_file, textures)?;
    Ok(model_thumbnail_data_uri(&model, size))
}
