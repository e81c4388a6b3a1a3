//! A built UE2 map's terrains (each `TerrainInfo` export) as the game draws them: the mesh
//! the engine last built ([`unreal_formats::decode::ue2_terrain`]) and its layers
//! (`TerrainInfo.Layers`, `Engine/Classes/TerrainInfo.uc`) blended as UT2004 blends them.
//!
//! What the engine does (UT2004 `Engine/Src/UnTerrain.cpp`, `D3D9Drv/Src/D3D9MaterialState.cpp`):
//!
//! - **Which layers.** `ATerrainInfo::PrecomputeLayerWeights` takes the layers in order up to
//!   the first without a texture or an alpha map. The first is the base: its weight starts at
//!   one everywhere (its own alpha map is not read). Each later layer `i` is drawn over the
//!   ones before by its alpha: every earlier weight is multiplied by `1 - alpha(i)`. So the
//!   colour is the base's, each later layer blended over it by its alpha, in order.
//! - **Where a layer's alpha is read.** The terrain's vertex stream gives vertex `(x, y)` the
//!   coordinates `((x + 0.5) / HeightmapX, (y + 0.5) / HeightmapY)`, and the alpha map is
//!   sampled there (`TCS_Stream0`), filtered between texels.
//! - **Where a layer's texture is read.** `ATerrainInfo::CalcLayerTexCoords` builds each
//!   layer's `TextureMatrix` from `ToHeightmap`, `UScale`, `VScale`, `UPan`, `VPan`,
//!   `TextureMapAxis`, `TextureRotation` and `LayerRotation`; the renderer applies it to the
//!   world position (`TCS_WorldCoords`). UnrealEd's own OBJ export of a terrain
//!   (`Editor/Src/xObjExporters.cpp`) computes the same coordinates for `Layers[0]` with
//!   `Vertices(i).TransformPointBy(TexCoords)`, which is what [`layer_tex_coords`] gives.
//!
//! glTF draws one material a primitive, so where a layer's texture can be read the layers are
//! baked into one image over the terrain (the primitive's coordinates run from 0 to 1 across
//! the heightmap), each layer's texels placed by its own coordinates and blended by its alpha
//! as above. Where no layer's texture can be read (their packages are not in the game folder
//! or package paths), the blend is done per vertex in each layer's colour instead.

use rayon::prelude::*;
use unreal_analysis::coords::{transform_vector, Coords};
use unreal_formats::decode::ue2_terrain::{StoredCoords, TerrainUe2};
use unreal_formats::decode::RgbaImage;
use unreal_formats::package::properties::{Property, PropertyValue};
use unreal_formats::package::{ObjectRef, Package, Resolved, TextureFormat};

use super::level::{
    flat_color, linear_to_srgb, srgb_to_linear, Alpha, LevelMaterial, LevelPrimitive, LevelScene,
    SurfaceTriangles,
};
use super::model::point_to_gltf;

/// The most pixels a side of a terrain's baked image: 16 MB of RGBA, a few tenths of a second
/// to fill and compress.
const BAKED_MAX: u32 = 2048;

/// The largest layer texture kept, a side (UT2004's are 256 to 1024).
const LAYER_IMAGE_MAX: u32 = 2048;

/// The most pixels a quad of the heightmap gets in the baked image.
const BAKED_PER_QUAD_MAX: u32 = 16;

/// The terrains a built UE2 map stores, one primitive each, or a note naming a terrain that
/// could not be read.
pub(super) fn add_terrains(
    scene: &mut LevelScene,
    package: &Package<'_>,
    others: &dyn super::OtherPackages,
) {
    for export in 0..package.exports.len() {
        if !package.class_name(export).eq_ignore_ascii_case("TerrainInfo") {
            continue;
        }
        let name = package.export_path(export);
        let terrain = match package.read_terrain_ue2(export) {
            Ok(terrain) => terrain,
            Err(e) => {
                scene.notes.push(format!("{e}; the terrain {name} is left out"));
                continue;
            }
        };
        let triangles = terrain.triangles();
        if triangles.is_empty() {
            continue;
        }
        let (mut material, mut primitive) = terrain_primitive(&name, &terrain, triangles);
        let layers = terrain_layers(package, export, &terrain, others);
        let size = format!(
            "{} by {} vertices, {} triangles",
            terrain.heightmap_x,
            terrain.heightmap_y,
            primitive.triangles.len()
        );
        let with_images = layers.iter().filter(|l| l.image.is_some()).count();
        let unread_alpha = layers.iter().skip(1).filter(|l| l.alpha.is_none()).count();
        let unread = if unread_alpha > 0 {
            format!("; {unread_alpha} layers are left out: their alpha maps are not the map's own or cannot be read")
        } else {
            String::new()
        };
        if layers.is_empty() {
            scene.notes.push(format!(
                "the terrain {name} ({size}) is drawn in a flat colour: its first layer has no texture or no alpha map"
            ));
        } else if let Some(image) = (with_images > 0).then(|| bake(&terrain, &layers)).flatten() {
            let others = if with_images < layers.len() {
                ", the others in a colour of their own: their packages are not in the game folder or package paths"
            } else {
                ""
            };
            scene.notes.push(format!(
                "the terrain {name} ({size}) is drawn with its {} layers blended as the game blends them, baked into one {}x{} image ({with_images} from their textures{others}){unread}",
                layers.len(),
                image.width,
                image.height,
            ));
            material.image = Some(image);
            material.color = [1.0; 3];
        } else {
            primitive.colors = terrain_colors(&terrain, &layers);
            // The vertex colours are the terrain's colour.
            material.color = [1.0; 3];
            let why = if with_images > 0 {
                "the heightmap is too big to bake into one image"
            } else {
                "their textures' packages are not in the game folder or package paths"
            };
            scene.notes.push(format!(
                "the terrain {name} ({size}) is drawn in its {} layers' colours blended as the game blends them: {why}{unread}",
                layers.len()
            ));
        }
        scene.materials.push(material);
        primitive.material = scene.materials.len() - 1;
        scene.primitives.push(primitive);
    }
}

/// What a T3D map's terrains get: a note each, since none is drawn. A `TerrainInfo` is built
/// from its heightmap (`TerrainMap`), which on real maps is the map's own texture (UT2004's
/// built maps keep it in a group of their own package); a T3D export holds no texture, so the
/// terrain is in the built map only. A terrain without a `TerrainMap` draws nothing in the
/// engine either (`ATerrainInfo::UpdateVertices` needs one) and gets no note, nor does one of
/// `TerrainMap=None`.
pub(super) fn t3d_terrain_notes(text: &str) -> Vec<String> {
    let mut notes = Vec::new();
    let mut current: Option<(String, Option<String>)> = None;
    for line in unreal_syntax::text::lines(text).map(str::trim) {
        let starts =
            |word: &str| line.get(..word.len()).is_some_and(|w| w.eq_ignore_ascii_case(word));
        if starts("Begin Actor") {
            let attribute = |key: &str| {
                line.split_whitespace().find_map(|w| {
                    let (k, v) = w.split_once('=')?;
                    k.eq_ignore_ascii_case(key).then(|| v.to_owned())
                })
            };
            let class = attribute("Class").unwrap_or_default();
            let short = class.rsplit('.').next().unwrap_or_default();
            current = short
                .eq_ignore_ascii_case("TerrainInfo")
                .then(|| (attribute("Name").unwrap_or_else(|| "TerrainInfo".to_owned()), None));
        } else if starts("End Actor") {
            if let Some((name, Some(map))) = current.take() {
                notes.extend(t3d_terrain_note(&name, &map));
            }
        } else if starts("TerrainMap=") {
            if let Some((_, map)) = &mut current {
                *map = Some(line["TerrainMap=".len()..].to_owned());
            }
        }
    }
    notes
}

/// `None` for `TerrainMap=None`, which draws nothing in the engine either.
fn t3d_terrain_note(name: &str, value: &str) -> Option<String> {
    // `Texture'Package.Group.Name'`, or the path alone.
    let path = value.split_once('\'').map_or(value, |(_, rest)| rest.trim_end_matches('\'')).trim();
    let own = !path.contains('.')
        || path.split('.').next().is_some_and(|p| p.eq_ignore_ascii_case("myLevel"));
    if path.eq_ignore_ascii_case("None") || path.is_empty() {
        return None;
    }
    Some(if own {
        format!(
            "the terrain {name} is not drawn: its heightmap {path} is the map's own texture, which a T3D export does not hold; export the built map (.ut2) to see the terrain"
        )
    } else {
        format!(
            "the terrain {name} is not drawn: a T3D map's terrain is not built from its heightmap ({path}) yet; export the built map (.ut2) to see it"
        )
    })
}

/// An alpha map as the engine reads it (an `L8` texel, a `P8` texel's palette red, an `RGBA8`
/// texel's alpha): width, height and one byte a texel.
#[derive(Clone, Debug, PartialEq)]
struct AlphaMap {
    width: usize,
    height: usize,
    texels: Vec<u8>,
}

impl AlphaMap {
    /// The alpha (0..1) at heightmap coordinates `(x, y)` (vertex units): filtered between
    /// texels, at the vertex stream's coordinates `(x + 0.5) / HeightmapX`.
    fn at(&self, x: f64, y: f64, heightmap: (u32, u32)) -> f64 {
        let u = (x + 0.5) / f64::from(heightmap.0.max(1));
        let v = (y + 0.5) / f64::from(heightmap.1.max(1));
        bilinear(u, v, self.width, self.height, |tx, ty| {
            [f64::from(self.texels.get(tx + ty * self.width).copied().unwrap_or(0)) / 255.0]
        })[0]
    }
}

/// One layer of a terrain the game draws.
struct TerrainLayer {
    /// Its texture's image, when a package at hand holds it.
    image: Option<RgbaImage>,
    /// Its texture's average colour (sRGB, 0..1), or a colour of its own when the texture
    /// cannot be read.
    color: [f32; 3],
    /// `None` when its alpha map is not the map's own (then the layer is left out: what it
    /// covers cannot be known). The first layer's is never read.
    alpha: Option<AlphaMap>,
    /// Where its texture is read for a world position ([`layer_tex_coords`]); `None` for a
    /// zero `UScale` or `VScale` (the engine divides by it).
    tex_coords: Option<Coords>,
}

/// A layer's placement properties (`TerrainLayer` in `TerrainInfo.uc`); a struct stores
/// only what differs from zero.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct LayerPlacement {
    u_scale: f64,
    v_scale: f64,
    u_pan: f64,
    v_pan: f64,
    /// `ETexMapAxis`: 0 `TEXMAPAXIS_XY`, 1 `TEXMAPAXIS_XZ`, 2 `TEXMAPAXIS_YZ`.
    texture_map_axis: u8,
    texture_rotation: f64,
    layer_rotation: [i32; 3],
}

impl LayerPlacement {
    fn read(fields: &[Property]) -> Self {
        let field = |name: &str| fields.iter().find(|f| f.name.eq_ignore_ascii_case(name));
        let float = |name: &str| match field(name).map(|f| &f.value) {
            Some(PropertyValue::Float(v)) => f64::from(*v),
            _ => 0.0,
        };
        Self {
            u_scale: float("UScale"),
            v_scale: float("VScale"),
            u_pan: float("UPan"),
            v_pan: float("VPan"),
            texture_map_axis: match field("TextureMapAxis").map(|f| &f.value) {
                Some(PropertyValue::Byte(b)) => *b,
                _ => 0,
            },
            texture_rotation: float("TextureRotation"),
            layer_rotation: match field("LayerRotation").map(|f| &f.value) {
                Some(PropertyValue::Rotator(r)) => *r,
                _ => [0; 3],
            },
        }
    }
}

fn coords_of(stored: &StoredCoords) -> Coords {
    Coords { origin: stored.origin.map(f64::from), axes: stored.axes.map(|a| a.map(f64::from)) }
}

/// `ATerrainInfo::CalcLayerTexCoords` for one layer: the coordinate system whose
/// `TransformPointBy` of a world position gives the layer's texture coordinates (X and Y, in
/// texture widths). `None` for a zero `UScale` or `VScale`.
fn layer_tex_coords(
    layer: &LayerPlacement,
    to_world: &Coords,
    to_heightmap: &Coords,
) -> Option<Coords> {
    if layer.u_scale == 0.0 || layer.v_scale == 0.0 {
        return None;
    }
    // `FRotator(0.f, TextureRotation, 0.f)`: the float goes to an `INT`, cut toward zero.
    let mut c = Coords::UNIT.unrotated([0, layer.texture_rotation as i32, 0]);
    c = c.times(&to_heightmap.transpose());
    c.axes[0] = c.axes[0].map(|v| v / layer.u_scale);
    c.axes[1] = c.axes[1].map(|v| v / layer.v_scale);
    let pan = transform_vector(
        [layer.u_pan * layer.u_scale, layer.v_pan * layer.v_scale, 0.0],
        &to_world.axes,
    );
    for (o, p) in c.origin.iter_mut().zip(pan) {
        *o += p;
    }
    let [x, y, z] = &mut c.axes;
    match layer.texture_map_axis {
        1 => {
            c.origin.swap(1, 2);
            c.origin.swap(0, 2);
            x.swap(0, 2);
            y.swap(0, 1);
            z.swap(1, 2);
        }
        2 => {
            c.origin.swap(0, 2);
            x.swap(0, 2);
            z.swap(0, 2);
        }
        _ => {}
    }
    Some(c.times(&Coords::UNIT.unrotated(layer.layer_rotation)))
}

/// The layers of the `TerrainInfo` at `export` the game draws: in order, up to the first that
/// is not stored or has no texture or no alpha map (`PrecomputeLayerWeights`).
fn terrain_layers(
    package: &Package<'_>,
    export: usize,
    terrain: &TerrainUe2,
    others: &dyn super::OtherPackages,
) -> Vec<TerrainLayer> {
    let Ok(header) = package.read_object_header(export) else { return Vec::new() };
    let mut stored: Vec<(u32, ObjectRef, ObjectRef, LayerPlacement)> = Vec::new();
    for property in header.properties.iter().filter(|p| p.name.eq_ignore_ascii_case("Layers")) {
        let Ok(fields) = package.read_struct_fields(property) else { continue };
        let object = |name: &str| {
            fields.iter().find(|f| f.name.eq_ignore_ascii_case(name)).and_then(|f| match f.value {
                PropertyValue::Object(r) => Some(r),
                _ => None,
            })
        };
        let (Some(texture), Some(alpha)) = (object("Texture"), object("AlphaMap")) else {
            continue;
        };
        stored.push((property.array_index, texture, alpha, LayerPlacement::read(&fields)));
    }
    stored.sort_by_key(|(index, ..)| *index);
    let to_world = coords_of(&terrain.to_world);
    let to_heightmap = coords_of(&terrain.to_heightmap);
    stored
        .into_iter()
        .enumerate()
        .take_while(|(i, (index, texture, alpha, _))| {
            *index as usize == *i && texture.0 != 0 && alpha.0 != 0
        })
        .map(|(i, (_, texture, alpha, placement))| {
            // Kept halved down to `LAYER_IMAGE_MAX` a side: the bake reads a mip about a
            // pixel's size anyway, and 32 layers of the largest textures would not fit.
            let image = super::materials::material_image(package, texture, others).map(|i| {
                let side = i.width.max(i.height);
                let times = (0..32).find(|&k| side >> k <= LAYER_IMAGE_MAX).unwrap_or(32);
                halved(&i, times)
            });
            let color = image.as_ref().map_or_else(
                || flat_color(&package.ref_path(texture)).map(linear_to_srgb),
                average_color,
            );
            let alpha = if i == 0 { Some(AlphaMap::default()) } else { alpha_map(package, alpha) };
            TerrainLayer {
                image,
                color,
                alpha,
                tex_coords: layer_tex_coords(&placement, &to_world, &to_heightmap),
            }
        })
        .collect()
}

impl Default for AlphaMap {
    fn default() -> Self {
        Self { width: 1, height: 1, texels: vec![255] }
    }
}

/// The most texels an alpha map is read with: 4096 by 4096 (16 MB kept a layer, 32 layers at
/// most). The engine's are the heightmap's size or a few times it (512 by 512 at most here).
const ALPHA_MAX_TEXELS: u64 = 4096 * 4096;

/// The alpha map `alpha` when it is the map's own texture and can be decoded.
fn alpha_map(package: &Package<'_>, alpha: ObjectRef) -> Option<AlphaMap> {
    let Resolved::Export(i) = alpha.resolve() else { return None };
    let texture = package.read_texture(i).ok();
    if texture.as_ref().is_some_and(|t| u64::from(t.width) * u64::from(t.height) > ALPHA_MAX_TEXELS)
    {
        return None;
    }
    let format = texture.map(|t| t.format);
    let image =
        package.decode_texture(i, 0, unreal_formats::decode::texture::MipSource::Auto).ok()?;
    let channel = if format == Some(TextureFormat::Rgba8) { 3 } else { 0 };
    Some(AlphaMap {
        width: image.width as usize,
        height: image.height as usize,
        texels: image.pixels.chunks_exact(4).map(|t| t[channel]).collect(),
    })
}

/// An image's average colour (sRGB, 0..1).
fn average_color(image: &RgbaImage) -> [f32; 3] {
    let mut sum = [0u64; 3];
    for texel in image.pixels.chunks_exact(4) {
        for (s, &c) in sum.iter_mut().zip(texel) {
            *s += u64::from(c);
        }
    }
    let count = (image.pixels.len() / 4).max(1) as f32;
    sum.map(|s| s as f32 / count / 255.0)
}

/// Filtered between the four texels around `(u, v)` (texture widths; texel centres at
/// `(i + 0.5) / size`), wrapping at the edges as the engine's textures do; `texel` gives a
/// texel's channels.
fn bilinear<const N: usize>(
    u: f64,
    v: f64,
    width: usize,
    height: usize,
    texel: impl Fn(usize, usize) -> [f64; N],
) -> [f64; N] {
    let (w, h) = (width.max(1), height.max(1));
    let (x, y) = (u * w as f64 - 0.5, v * h as f64 - 0.5);
    let (fx, fy) = (x.floor(), y.floor());
    let (tx, ty) = (x - fx, y - fy);
    let wrap = |i: f64, n: usize| (i.rem_euclid(n as f64) as usize).min(n - 1);
    let (x0, y0) = (wrap(fx, w), wrap(fy, h));
    let (x1, y1) = (wrap(fx + 1.0, w), wrap(fy + 1.0, h));
    between([texel(x0, y0), texel(x1, y0), texel(x0, y1), texel(x1, y1)], tx, ty)
}

/// Between four corners (top left, top right, bottom left, bottom right), `tx` of the way
/// across and `ty` down.
fn between<const N: usize>(corners: [[f64; N]; 4], tx: f64, ty: f64) -> [f64; N] {
    let [a, b, c, d] = corners;
    std::array::from_fn(|k| {
        let top = a[k] + (b[k] - a[k]) * tx;
        let bottom = c[k] + (d[k] - c[k]) * tx;
        top + (bottom - top) * ty
    })
}

/// `image` halved `times` times (a box filter, as the project's thumbnails are made), as the
/// mip that many levels below it; at least one pixel a side.
fn halved(image: &RgbaImage, times: u32) -> RgbaImage {
    let side = image.width.max(image.height);
    unreal_analysis::thumbnail::thumbnail(image, side.checked_shr(times).unwrap_or(0).max(1))
}

/// The world position at heightmap coordinates `(x, y)` (vertex units), between the four
/// vertices around it.
fn world_at(terrain: &TerrainUe2, x: f64, y: f64) -> [f64; 3] {
    let (w, h) = (terrain.heightmap_x as usize, terrain.heightmap_y as usize);
    let (x0, y0) =
        ((x.floor().max(0.0) as usize).min(w - 1), (y.floor().max(0.0) as usize).min(h - 1));
    let (x1, y1) = ((x0 + 1).min(w - 1), (y0 + 1).min(h - 1));
    let (tx, ty) = ((x - x0 as f64).clamp(0.0, 1.0), (y - y0 as f64).clamp(0.0, 1.0));
    let vertex = |x: usize, y: usize| {
        terrain.vertices.get(x + y * w).copied().unwrap_or_default().map(f64::from)
    };
    between([vertex(x0, y0), vertex(x1, y0), vertex(x0, y1), vertex(x1, y1)], tx, ty)
}

/// A layer's texture ready to be sampled: the mip whose texels are about the size of a baked
/// pixel where the terrain's middle is, so that a texture repeated many times over a pixel
/// is averaged rather than picked at one texel.
fn sampled_image(
    terrain: &TerrainUe2,
    coords: &Coords,
    image: &RgbaImage,
    per_quad: u32,
) -> RgbaImage {
    let (cx, cy) = (f64::from(terrain.heightmap_x) / 2.0, f64::from(terrain.heightmap_y) / 2.0);
    let step = 1.0 / f64::from(per_quad);
    let at = |x: f64, y: f64| coords.transform_point(world_at(terrain, x, y));
    let (o, dx, dy) = (at(cx, cy), at(cx + step, cy), at(cx, cy + step));
    let span = |d: [f64; 3]| {
        let (du, dv) =
            ((d[0] - o[0]) * f64::from(image.width), (d[1] - o[1]) * f64::from(image.height));
        (du * du + dv * dv).sqrt()
    };
    // Halved while a pixel still spans two texels or more (a footprint that is not a number
    // halves nothing).
    let footprint = span(dx).max(span(dy));
    let times = if footprint >= 2.0 { footprint.log2().floor().min(32.0) as u32 } else { 0 };
    halved(image, times)
}

/// The terrain's layers baked into one image over the heightmap (row `y` of quads at the top
/// for `y = 0`, as the primitive's coordinates run); `None` for a terrain too small to cover.
fn bake(terrain: &TerrainUe2, layers: &[TerrainLayer]) -> Option<RgbaImage> {
    let quads = terrain.heightmap_x.max(terrain.heightmap_y).checked_sub(1).filter(|&q| q > 0)?;
    let per_quad = (BAKED_MAX / quads).clamp(1, BAKED_PER_QUAD_MAX);
    let width = terrain.heightmap_x.checked_sub(1)?.max(1) * per_quad;
    let height = terrain.heightmap_y.checked_sub(1)?.max(1) * per_quad;
    // A heightmap of more than `BAKED_MAX` quads a side (none the engine makes: 512 at most)
    // is blended per vertex instead.
    if width > BAKED_MAX || height > BAKED_MAX {
        return None;
    }
    let images: Vec<Option<RgbaImage>> = layers
        .iter()
        .map(|layer| match (&layer.image, &layer.tex_coords) {
            (Some(image), Some(coords)) => Some(sampled_image(terrain, coords, image, per_quad)),
            _ => None,
        })
        .collect();
    let heightmap = (terrain.heightmap_x, terrain.heightmap_y);
    let mut pixels = vec![0u8; width as usize * height as usize * 4];
    pixels.par_chunks_mut(width as usize * 4).enumerate().for_each(|(row, out)| {
        let y = (row as f64 + 0.5) / f64::from(per_quad);
        for (column, pixel) in out.chunks_exact_mut(4).enumerate() {
            let x = (column as f64 + 0.5) / f64::from(per_quad);
            let world = world_at(terrain, x, y);
            let mut color = [0.5f64; 3];
            for (i, (layer, image)) in layers.iter().zip(&images).enumerate() {
                let Some(alpha) = &layer.alpha else { continue };
                let a = if i == 0 { 1.0 } else { alpha.at(x, y, heightmap) };
                if a <= 0.0 {
                    continue;
                }
                let texel = match (image, &layer.tex_coords) {
                    (Some(image), Some(coords)) => {
                        let uv = coords.transform_point(world);
                        let (w, h) = (image.width as usize, image.height as usize);
                        bilinear(uv[0], uv[1], w, h, |tx, ty| {
                            let p = (tx + ty * w) * 4;
                            std::array::from_fn(|k| {
                                f64::from(image.pixels.get(p + k).copied().unwrap_or(0)) / 255.0
                            })
                        })
                    }
                    _ => layer.color.map(f64::from),
                };
                for (c, t) in color.iter_mut().zip(texel) {
                    *c += (t - *c) * a;
                }
            }
            for (p, c) in pixel.iter_mut().zip(color.iter().chain(&[1.0])) {
                *p = (c.clamp(0.0, 1.0) * 255.0).round() as u8;
            }
        }
    });
    Some(RgbaImage { width, height, pixels })
}

/// Each terrain vertex's colour (linear, as glTF's vertex colours are): the first layer's,
/// each later layer blended over it by its alpha at the vertex, in sRGB as the game blends.
fn terrain_colors(terrain: &TerrainUe2, layers: &[TerrainLayer]) -> Vec<[f32; 3]> {
    let heightmap = (terrain.heightmap_x, terrain.heightmap_y);
    let mut colors = Vec::with_capacity(terrain.vertices.len());
    for y in 0..terrain.heightmap_y {
        for x in 0..terrain.heightmap_x {
            let mut color = [0.5f64; 3];
            for (i, layer) in layers.iter().enumerate() {
                let Some(alpha) = &layer.alpha else { continue };
                let a = if i == 0 { 1.0 } else { alpha.at(f64::from(x), f64::from(y), heightmap) };
                for (c, l) in color.iter_mut().zip(layer.color) {
                    *c += (f64::from(l) - *c) * a;
                }
            }
            colors.push(color.map(|c| srgb_to_linear(c as f32)));
        }
    }
    colors
}

/// A terrain's material (a flat colour of its own) and its triangles in glTF axes, with
/// `triangles` in the engine's order (`TerrainUe2::triangles`) and coordinates from 0 to 1
/// across the heightmap; the primitive's material is left for the caller to set.
fn terrain_primitive(
    name: &str,
    terrain: &TerrainUe2,
    triangles: Vec<[u32; 3]>,
) -> (LevelMaterial, LevelPrimitive) {
    let material = LevelMaterial {
        name: format!("{name} (terrain)"),
        texture: name.to_owned(),
        image: None,
        color: flat_color(name),
        alpha: Alpha::Opaque,
        double_sided: false,
    };
    let (w, h) = (terrain.heightmap_x.max(2) - 1, terrain.heightmap_y.max(2) - 1);
    let uvs = (0..terrain.heightmap_y)
        .flat_map(|y| (0..terrain.heightmap_x).map(move |x| (x, y)))
        .map(|(x, y)| [x as f32 / w as f32, y as f32 / h as f32])
        .collect();
    let primitive = LevelPrimitive {
        material: 0,
        positions: terrain.vertices.iter().map(|&v| point_to_gltf(v)).collect(),
        uvs,
        // The engine's order (`UnTerrain.cpp`) turns clockwise seen from above in Unreal's
        // axes, which is counter-clockwise in glTF's mirrored ones: kept.
        triangles,
        origins: vec![SurfaceTriangles { first_triangle: 0, source: None }],
        colors: Vec::new(),
    };
    (material, primitive)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::csg;

    /// `ATerrainInfo::CalcCoords` for a terrain at the world's origin with the default
    /// `TerrainScale` of 64: `ToWorld` takes heightmap `(x, y)` to `((x - X/2) * 64, ...)`,
    /// `ToHeightmap` is its inverse (`FCoords::Inverse` of a diagonal system).
    fn coords_at_origin(heightmap_x: u32, heightmap_y: u32) -> (StoredCoords, StoredCoords) {
        let half = [(heightmap_x / 2) as f32, (heightmap_y / 2) as f32, 32767.0];
        let to_world = StoredCoords {
            origin: half,
            axes: [[64.0, 0.0, 0.0], [0.0, 64.0, 0.0], [0.0, 0.0, 0.25]],
        };
        let to_heightmap = StoredCoords {
            origin: [-half[0] * 64.0, -half[1] * 64.0, -half[2] * 0.25],
            axes: [[1.0 / 64.0, 0.0, 0.0], [0.0, 1.0 / 64.0, 0.0], [0.0, 0.0, 4.0]],
        };
        (to_world, to_heightmap)
    }

    /// A flat terrain of `w` by `h` vertices laid out as `coords_at_origin` says.
    fn flat_terrain(w: u32, h: u32) -> TerrainUe2 {
        let (to_world, to_heightmap) = coords_at_origin(w, h);
        let world = coords_of(&to_world);
        let vertices = (0..h)
            .flat_map(|y| (0..w).map(move |x| (x, y)))
            .map(|(x, y)| {
                world.transform_point([f64::from(x), f64::from(y), 32767.0]).map(|c| c as f32)
            })
            .collect();
        TerrainUe2 {
            heightmap_x: w,
            heightmap_y: h,
            vertices,
            quad_visible: vec![u32::MAX; (w * h).div_ceil(32) as usize],
            edge_turned: vec![0; (w * h).div_ceil(32) as usize],
            to_world,
            to_heightmap,
        }
    }

    fn layer_coords(placement: LayerPlacement, terrain: &TerrainUe2) -> Coords {
        layer_tex_coords(
            &placement,
            &coords_of(&terrain.to_world),
            &coords_of(&terrain.to_heightmap),
        )
        .unwrap()
    }

    /// `CalcLayerTexCoords` for the axis-aligned case, worked by hand through the engine's
    /// own arithmetic: a texture repeats every `UScale` quads, anchored at the world's
    /// origin (`FCoords *=` moves the origin as if the system were orthogonal, which leaves
    /// 2/64 of a unit of it), and `UPan` moves it by that many texture widths.
    #[test]
    fn a_layers_texture_repeats_every_uscale_quads() {
        let terrain = flat_terrain(4, 4);
        let placement = LayerPlacement { u_scale: 4.0, v_scale: 2.0, ..LayerPlacement::default() };
        let coords = layer_coords(placement, &terrain);
        let uv = coords.transform_point([256.0, 128.0, 0.0]);
        assert!((uv[0] - (256.0 + 2.0 / 64.0) / 256.0).abs() < 1e-9, "{uv:?}");
        assert!((uv[1] - (128.0 + 2.0 / 64.0) / 128.0).abs() < 1e-9, "{uv:?}");
        let panned = layer_coords(LayerPlacement { u_pan: 0.5, ..placement }, &terrain);
        let moved = panned.transform_point([256.0, 128.0, 0.0]);
        assert!((uv[0] - moved[0] - 0.5).abs() < 1e-9, "{moved:?}");
        // No scale: the engine divides by zero; such a layer is drawn in its colour.
        let zero = LayerPlacement { u_scale: 0.0, v_scale: 1.0, ..LayerPlacement::default() };
        assert!(layer_tex_coords(&zero, &Coords::UNIT, &Coords::UNIT).is_none());
    }

    /// A quarter turn of `TextureRotation`, and `TEXMAPAXIS_XZ`, which reads the texture's U
    /// from the height and its V along the world's X (the exchanges `CalcLayerTexCoords`
    /// makes: the X axis's X and Z, the Y axis's X and Y).
    #[test]
    fn a_layers_rotation_and_map_axis() {
        let terrain = flat_terrain(4, 4);
        let base = LayerPlacement { u_scale: 1.0, v_scale: 1.0, ..LayerPlacement::default() };
        let turned = layer_coords(LayerPlacement { texture_rotation: 16384.0, ..base }, &terrain);
        let plain = layer_coords(base, &terrain);
        // Along world Y, a turned texture's U moves as the plain one's V does.
        let (a, b) =
            (turned.transform_point([0.0, 0.0, 0.0]), turned.transform_point([0.0, 64.0, 0.0]));
        let (c, d) =
            (plain.transform_point([0.0, 0.0, 0.0]), plain.transform_point([0.0, 64.0, 0.0]));
        assert!(
            ((b[0] - a[0]).abs() - (d[1] - c[1]).abs()).abs() < 1e-9,
            "{a:?} {b:?} {c:?} {d:?}"
        );
        assert!((b[1] - a[1]).abs() < 1e-9);
        // XZ: moving up the world's Z moves U, moving along Y moves neither.
        let xz = layer_coords(LayerPlacement { texture_map_axis: 1, ..base }, &terrain);
        let (low, high, side) = (
            xz.transform_point([0.0, 0.0, 0.0]),
            xz.transform_point([0.0, 0.0, 64.0]),
            xz.transform_point([0.0, 64.0, 0.0]),
        );
        assert!((high[0] - low[0] - 1.0).abs() < 1e-9, "{low:?} {high:?}");
        assert!((high[1] - low[1]).abs() < 1e-9, "{low:?} {high:?}");
        assert!((side[0] - low[0]).abs() + (side[1] - low[1]).abs() < 1e-9, "{low:?} {side:?}");
        let along_x = xz.transform_point([64.0, 0.0, 0.0]);
        assert!((along_x[1] - low[1] - 1.0).abs() < 1e-9, "{low:?} {along_x:?}");
    }

    fn solid(color: [u8; 4]) -> RgbaImage {
        RgbaImage { width: 1, height: 1, pixels: color.to_vec() }
    }

    fn layer(
        image: Option<RgbaImage>,
        color: [f32; 3],
        alpha: Option<AlphaMap>,
        coords: Option<Coords>,
    ) -> TerrainLayer {
        TerrainLayer { image, color, alpha, tex_coords: coords }
    }

    /// The game's blend per vertex: the first layer everywhere (its own alpha map is not
    /// read), each later one over it by its alpha at the vertex (an alpha map of the
    /// heightmap's size: each vertex reads its own texel); a layer whose alpha map is not the
    /// map's own changes nothing.
    #[test]
    #[allow(clippy::float_cmp)] // exact: blends of 0 and 1
    fn a_terrains_layers_blend_as_the_game_blends_them() {
        let terrain = flat_terrain(4, 4);
        let columns = |row: [u8; 4]| AlphaMap { width: 4, height: 4, texels: row.repeat(4) };
        let layers = [
            layer(None, [1.0, 0.0, 0.0], Some(columns([0; 4])), None),
            layer(None, [0.0, 0.0, 1.0], Some(columns([0, 0, 255, 255])), None),
            layer(None, [0.0, 1.0, 0.0], None, None),
        ];
        let colors = terrain_colors(&terrain, &layers);
        assert_eq!(colors.len(), 16);
        assert_eq!(colors[0], [1.0, 0.0, 0.0]); // x 0: the base
        assert_eq!(colors[1], [1.0, 0.0, 0.0]);
        assert_eq!(colors[2], [0.0, 0.0, 1.0]); // x 2: the second layer
        assert_eq!(colors[15], [0.0, 0.0, 1.0]);

        // In glTF: a COLOR_0 per vertex, under a white material.
        let (mut material, mut primitive) =
            terrain_primitive("TerrainInfo0", &terrain, vec![[0, 4, 1], [1, 4, 5]]);
        primitive.colors = colors;
        material.color = [1.0; 3];
        let scene = LevelScene {
            materials: vec![material],
            primitives: vec![primitive],
            ..LevelScene::default()
        };
        let glb = super::super::gltf::write_level_glb(&scene);
        let length = u32::from_le_bytes(glb[12..16].try_into().unwrap()) as usize;
        let json: serde_json::Value = serde_json::from_slice(&glb[20..20 + length]).unwrap();
        let attributes = &json["meshes"][0]["primitives"][0]["attributes"];
        let colors = json["accessors"][attributes["COLOR_0"].as_u64().unwrap() as usize].clone();
        assert_eq!((colors["count"].as_u64(), colors["type"].as_str()), (Some(16), Some("VEC3")));
    }

    /// Baked: each layer's texels where its coordinates put them, blended by its alpha. The
    /// base is a texture of a black and a white texel repeated every quad (`UScale` 1), the
    /// second layer a solid blue over the right-hand side of the terrain.
    #[test]
    fn a_terrains_layers_are_baked_into_one_image() {
        let terrain = flat_terrain(3, 3);
        let placement = LayerPlacement { u_scale: 1.0, v_scale: 1.0, ..LayerPlacement::default() };
        let coords = Some(layer_coords(placement, &terrain));
        let stripes =
            RgbaImage { width: 2, height: 1, pixels: vec![0, 0, 0, 255, 255, 255, 255, 255] };
        let layers = [
            layer(Some(stripes), [0.5; 3], Some(AlphaMap::default()), coords),
            layer(
                Some(solid([0, 0, 255, 255])),
                [0.0, 0.0, 1.0],
                Some(AlphaMap { width: 3, height: 1, texels: vec![0, 0, 255] }),
                coords,
            ),
        ];
        let image = bake(&terrain, &layers).unwrap();
        // 2 by 2 quads, 16 pixels a quad.
        assert_eq!((image.width, image.height), (32, 32));
        let pixel = |x: usize, y: usize| &image.pixels[(x + y * 32) * 4..][..4];
        // Column 3: heightmap x 0.22, world -50, U 0.22 past a whole width: the black texel.
        assert!(pixel(3, 5)[0] < 40, "{:?}", pixel(3, 5));
        // Column 11: x 0.72, U 0.72: the white one.
        assert!(pixel(11, 5)[0] > 215, "{:?}", pixel(11, 5));
        // The last column: x 1.97, where the alpha map's last texel (x 2) is nearly all.
        let right = pixel(31, 5);
        assert!(right[2] > 240 && right[0] < 20, "{right:?}");
        assert_eq!(pixel(0, 0)[3], 255);
    }

    /// A T3D map's terrains each get a note naming their heightmap and why they are not
    /// drawn; an actor of another class, and a terrain without a heightmap of its own, none.
    #[test]
    fn a_t3d_maps_terrain_is_named_in_a_note() {
        let text = "Begin Map\nBegin Actor Class=Engine.TerrainInfo Name=TerrainInfo0\n    TerrainMap=Texture'08i__canyoncrusadedeluxe256'\nEnd Actor\nBegin Actor Class=TerrainInfo Name=TerrainInfo1\n    TerrainMap=Texture'Heights.Valley'\nEnd Actor\nBegin Actor Class=Light Name=Light0\n    TerrainMap=Texture'Heights.Valley'\nEnd Actor\nBegin Actor Class=TerrainInfo Name=TerrainInfo2\nEnd Actor\nBegin Actor Class=TerrainInfo Name=TerrainInfo3\n    TerrainMap=None\nEnd Actor\nEnd Map\n";
        let notes = t3d_terrain_notes(text);
        assert_eq!(notes.len(), 2, "{notes:?}");
        assert_eq!(notes[0], "the terrain TerrainInfo0 is not drawn: its heightmap 08i__canyoncrusadedeluxe256 is the map's own texture, which a T3D export does not hold; export the built map (.ut2) to see the terrain");
        assert!(notes[1].contains("(Heights.Valley)"), "{}", notes[1]);
    }

    /// A terrain that rises along Unreal's X (2 by 2 quads, every quad drawn, the first one
    /// turned): in glTF every triangle faces up (its normal has a positive Y, the glTF up),
    /// whichever way its quad is split, and the points are Unreal's in glTF axes.
    #[test]
    #[allow(clippy::float_cmp)] // exact: the points are copied, not computed
    fn a_terrain_faces_up_in_gltf() {
        let vertices = (0..9u8)
            .map(|i| {
                let (x, y) = (f32::from(i % 3), f32::from(i / 3));
                [x * 64.0, y * 64.0, x * 8.0]
            })
            .collect();
        // 3 by 3 vertices hold no whole bitmap word: no quad would be drawn, so this terrain
        // says every quad is drawn through a word of its own.
        let terrain = TerrainUe2 {
            heightmap_x: 3,
            heightmap_y: 3,
            vertices,
            quad_visible: vec![u32::MAX],
            edge_turned: vec![0b1],
            to_world: StoredCoords::default(),
            to_heightmap: StoredCoords::default(),
        };
        let triangles = terrain.triangles();
        assert_eq!(triangles.len(), 8);
        let (material, primitive) = terrain_primitive("TerrainInfo0", &terrain, triangles);
        assert_eq!(material.name, "TerrainInfo0 (terrain)");
        assert_eq!(primitive.positions[4], point_to_gltf([64.0, 64.0, 8.0]));
        assert_eq!(primitive.uvs[4], [0.5, 0.5]);
        for t in &primitive.triangles {
            let [a, b, c] = t.map(|i| primitive.positions[i as usize].map(f64::from));
            let normal = csg::bsp::cross(csg::bsp::sub(b, a), csg::bsp::sub(c, a));
            assert!(normal[1] > 0.0, "{t:?} faces {normal:?}");
        }
    }
}
