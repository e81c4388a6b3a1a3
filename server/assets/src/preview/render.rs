//! Mesh thumbnails: a small software rasterizer (orthographic, depth-buffered, flat-shaded,
//! textured when the material has a texture, coloured by face direction when not). Written here because no maintained crate fits:
//! `tiny-skia` has no depth buffer, and `euc`'s releases pull in a large maths crate for what
//! is a hundred lines of triangle filling.

use unreal_formats::decode::RgbaImage;

use crate::export::model::Model;

/// How much bigger than the thumbnail the scene is drawn before it is scaled down (edges
/// antialiased by averaging).
const SUPERSAMPLE: u32 = 2;

/// Renders the model's base pose to a `size` x `size` image with a transparent background:
/// seen from the front, a little to its right and above, fitted to the view.
pub fn render_model(model: &Model, size: u32) -> RgbaImage {
    let size = size.clamp(8, 1024);
    let big = size * SUPERSAMPLE;
    let mut image =
        RgbaImage { width: big, height: big, pixels: vec![0; (big * big * 4) as usize] };
    let mut depth = vec![f32::NEG_INFINITY; (big * big) as usize];
    // Camera direction (towards the viewer), in glTF axes: front is +Z, the model's right -X.
    let eye = normalize([-0.55, 0.45, 1.0]);
    let right = normalize(cross([-eye[0], -eye[1], -eye[2]], [0.0, 1.0, 0.0]));
    let up = cross(right, [-eye[0], -eye[1], -eye[2]]);
    let light = normalize([-0.3, 0.8, 0.6]);
    let project = |p: [f32; 3]| [dot(p, right), -dot(p, up), dot(p, eye)];
    let projected: Vec<[f32; 3]> = model.positions.iter().map(|&p| project(p)).collect();
    let used = model.primitives.iter().flat_map(|p| p.triangles.iter().flatten());
    let (mut min, mut max) = ([f32::INFINITY; 2], [f32::NEG_INFINITY; 2]);
    for &i in used {
        if let Some(p) = projected.get(i as usize).filter(|p| p.iter().all(|c| c.is_finite())) {
            for k in 0..2 {
                min[k] = min[k].min(p[k]);
                max[k] = max[k].max(p[k]);
            }
        }
    }
    if !(min[0] <= max[0] && min[1] <= max[1]) {
        return super::png::thumbnail(&image, size);
    }
    let extent = (max[0] - min[0]).max(max[1] - min[1]).max(1e-3);
    let margin = big as f32 * 0.06;
    let scale = (big as f32 - 2.0 * margin) / extent;
    let centre = [f32::midpoint(min[0], max[0]), f32::midpoint(min[1], max[1])];
    let to_screen = |p: [f32; 3]| {
        [
            (p[0] - centre[0]) * scale + big as f32 / 2.0,
            (p[1] - centre[1]) * scale + big as f32 / 2.0,
            p[2],
        ]
    };
    let uvs = model.uvs.as_ref().filter(|u| u.len() == model.positions.len());
    for prim in &model.primitives {
        let texture = model.materials.get(prim.material).and_then(|m| m.texture.as_ref());
        for tri in &prim.triangles {
            let Some(world) = corners(&model.positions, tri) else { continue };
            let Some(screen) = corners(&projected, tri) else { continue };
            let normal = normalize(cross(sub(world[1], world[0]), sub(world[2], world[0])));
            // Either side lit alike: thumbnails should not depend on winding.
            let shade = 0.35 + 0.65 * dot(normal, light).abs();
            // Untextured faces take their colour from their direction (the side that faces
            // the viewer), so that the form reads without a texture.
            let facing = if dot(normal, eye) < 0.0 { normal.map(|c| -c) } else { normal };
            let untextured = [
                (150.0 + 90.0 * facing[0]) as u8,
                (150.0 + 90.0 * facing[1]) as u8,
                (150.0 + 90.0 * facing[2]) as u8,
                255,
            ];
            let tri_uv = uvs.and_then(|u| {
                Some([*u.get(tri[0] as usize)?, *u.get(tri[1] as usize)?, *u.get(tri[2] as usize)?])
            });
            let s = screen.map(to_screen);
            fill_triangle(&mut image, &mut depth, s, |bary| {
                let base = match (texture, tri_uv) {
                    (Some(t), Some(uv)) => {
                        let u = bary[0] * uv[0][0] + bary[1] * uv[1][0] + bary[2] * uv[2][0];
                        let v = bary[0] * uv[0][1] + bary[1] * uv[1][1] + bary[2] * uv[2][1];
                        let px = sample(t, u, v);
                        if px[3] < 128 {
                            return None;
                        }
                        px
                    }
                    _ => untextured,
                };
                Some([
                    (f32::from(base[0]) * shade) as u8,
                    (f32::from(base[1]) * shade) as u8,
                    (f32::from(base[2]) * shade) as u8,
                    255,
                ])
            });
        }
    }
    super::png::thumbnail(&image, size)
}

fn corners(points: &[[f32; 3]], tri: &[u32; 3]) -> Option<[[f32; 3]; 3]> {
    let p = [
        *points.get(tri[0] as usize)?,
        *points.get(tri[1] as usize)?,
        *points.get(tri[2] as usize)?,
    ];
    p.iter().flatten().all(|c| c.is_finite()).then_some(p)
}

/// Nearest-texel sample with wrapping, as Unreal's software renderer draws.
pub(super) fn sample(t: &RgbaImage, u: f32, v: f32) -> [u8; 4] {
    if t.width == 0 || t.height == 0 {
        return [0; 4];
    }
    let x = (u.rem_euclid(1.0) * t.width as f32) as u32;
    let y = (v.rem_euclid(1.0) * t.height as f32) as u32;
    t.get(x.min(t.width - 1), y.min(t.height - 1))
}

/// Fills a screen-space triangle (x, y, depth; larger depth is nearer) where it is nearer
/// than what is drawn, with the colour `shade` gives for the barycentric coordinates.
pub(super) fn fill_triangle(
    image: &mut RgbaImage,
    depth: &mut [f32],
    s: [[f32; 3]; 3],
    shade: impl Fn([f32; 3]) -> Option<[u8; 4]>,
) {
    let area = edge(s[0], s[1], s[2]);
    if area.abs() < 1e-6 {
        return;
    }
    let (w, h) = (image.width as f32, image.height as f32);
    let x0 = s.iter().map(|p| p[0]).fold(f32::INFINITY, f32::min).floor().max(0.0) as u32;
    let x1 = s.iter().map(|p| p[0]).fold(f32::NEG_INFINITY, f32::max).ceil().min(w - 1.0) as u32;
    let y0 = s.iter().map(|p| p[1]).fold(f32::INFINITY, f32::min).floor().max(0.0) as u32;
    let y1 = s.iter().map(|p| p[1]).fold(f32::NEG_INFINITY, f32::max).ceil().min(h - 1.0) as u32;
    for y in y0..=y1 {
        for x in x0..=x1 {
            let p = [x as f32 + 0.5, y as f32 + 0.5, 0.0];
            let b = [
                edge(s[1], s[2], p) / area,
                edge(s[2], s[0], p) / area,
                edge(s[0], s[1], p) / area,
            ];
            if b.iter().any(|&c| c < 0.0) {
                continue;
            }
            let z = b[0] * s[0][2] + b[1] * s[1][2] + b[2] * s[2][2];
            let i = (y * image.width + x) as usize;
            let Some(d) = depth.get_mut(i) else { continue };
            if z <= *d {
                continue;
            }
            if let Some(colour) = shade(b) {
                *d = z;
                image.put(x, y, colour);
            }
        }
    }
}

fn edge(a: [f32; 3], b: [f32; 3], p: [f32; 3]) -> f32 {
    (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0])
}

fn dot(a: [f32; 3], b: [f32; 3]) -> f32 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn sub(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn cross(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
}

fn normalize(v: [f32; 3]) -> [f32; 3] {
    let len = dot(v, v).sqrt();
    if len > 1e-12 {
        [v[0] / len, v[1] / len, v[2] / len]
    } else {
        [0.0, 0.0, 1.0]
    }
}
