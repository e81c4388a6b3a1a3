//! The oracle: the engine's own BSP of a built map against the level built from the same
//! map's brushes. Area is matched where both have a polygon on the same plane (normals
//! within 0.001, planes within `THRESH_POINT_ON_PLANE`, 0.1 unit), facing the same way, with
//! the same texture: the overlap of the two convex polygons, measured in that plane. The
//! engine's plane is its surface's normal through either its base point (`pBase`) or its
//! node's vertices (their mean): `bspOptGeom` merges points closer than a few tenths of a
//! unit, which moves node vertices and, as the point table is shared, base points too.

// Geometry names its points, planes and counts with single letters, as the engine does.
#![allow(clippy::many_single_char_names)]

use std::collections::HashMap;

use super::bsp::{dot, sub};
use super::{polygon_area, BuiltLevel, CsgBrush, V3};

/// `THRESH_POINT_ON_PLANE`.
pub const THRESH_POINT_ON_PLANE: f64 = 0.1;

/// A convex polygon with what the comparison keys on.
#[derive(Clone, Debug, PartialEq)]
pub struct AreaPolygon {
    pub vertices: Vec<V3>,
    /// The surface's plane: its normal and base point (`pBase`).
    pub normal: V3,
    pub base: V3,
    pub texture: String,
    pub poly_flags: u32,
    /// The brush it came from (the surface's `Actor`, or the built brush's name).
    pub source: String,
    /// Its texture mapping (the engine's surface's `pBase`, `vTextureU`, `vTextureV` and
    /// pans; the built surface's, carried over from its brush polygon).
    pub mapping: Option<super::TextureMapping>,
}

/// Area that only one side has, by brush and texture.
#[derive(Clone, Debug, PartialEq)]
pub struct Difference {
    pub source: String,
    pub texture: String,
    pub area: f64,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Comparison {
    pub engine_area: f64,
    pub built_area: f64,
    pub matched_area: f64,
    /// The engine's area not built, largest first.
    pub missing: Vec<Difference>,
    /// Built area the engine does not have, largest first.
    pub extra: Vec<Difference>,
    /// The same by built polygon: its index in the built list and its area not matched.
    pub unmatched_built: Vec<(usize, f64)>,
}

impl Comparison {
    /// Matched area, in percent of the engine's.
    pub fn matched_percent(&self) -> f64 {
        matched_percent_of(self.matched_area, self.engine_area)
    }

    /// Built area the engine does not have, in percent of the engine's.
    pub fn extra_percent(&self) -> f64 {
        percent_of(self.built_area - self.matched_area, self.engine_area)
    }
}

/// Matched `area` in percent of `of` (at most 100; 100 of nothing: nothing is missing).
pub fn matched_percent_of(area: f64, of: f64) -> f64 {
    if of > 0.0 {
        (100.0 * area / of).min(100.0)
    } else {
        100.0
    }
}

/// `area` (at least 0) in percent of `of`.
pub fn percent_of(area: f64, of: f64) -> f64 {
    let area = area.max(0.0);
    if of > 0.0 {
        100.0 * area / of
    } else if area > 0.0 {
        100.0
    } else {
        0.0
    }
}

/// The built level's surfaces as polygons to compare, named by their brushes.
pub fn built_polygons(level: &BuiltLevel, brushes: &[CsgBrush]) -> Vec<AreaPolygon> {
    level
        .surfaces
        .iter()
        .map(|s| AreaPolygon {
            vertices: s.vertices.clone(),
            normal: s.normal,
            base: s.base,
            texture: s.texture.clone(),
            poly_flags: s.poly_flags,
            source: brushes.get(s.brush).map(|b| b.name.clone()).unwrap_or_default(),
            mapping: s.mapping,
        })
        .collect()
}

fn centroid(v: &[V3]) -> V3 {
    let n = v.len().max(1) as f64;
    let s = v.iter().fold([0.0; 3], |a, p| [a[0] + p[0], a[1] + p[1], a[2] + p[2]]);
    [s[0] / n, s[1] / n, s[2] / n]
}

/// How far a polygon's vertices stray from the plane of `normal` through `centre`.
fn thickness(v: &[V3], centre: V3, normal: V3) -> f64 {
    v.iter().map(|&p| dot(sub(p, centre), normal).abs()).fold(0.0, f64::max)
}

/// The area where two convex polygons on the plane of `normal` overlap.
fn overlap(clip: &[V3], subject: &[V3], normal: V3) -> f64 {
    // Drop the normal's largest axis; areas measured there are scaled back.
    let k = (0..3).max_by(|&a, &b| normal[a].abs().total_cmp(&normal[b].abs())).unwrap_or(2);
    let (a, b) = match k {
        0 => (1, 2),
        1 => (2, 0),
        _ => (0, 1),
    };
    // Convex hulls: the engine's node polygons are convex but for vertices that T-joint
    // removal and point merging moved by a few tenths, whose tiny reversed edges would cut.
    let flat = |v: &[V3]| hull(v.iter().map(|p| [p[a], p[b]]).collect());
    let clip = flat(clip);
    let mut poly = flat(subject);
    let signed = |p: &[[f64; 2]]| {
        let n = p.len();
        (0..n)
            .map(|i| {
                let (x, y) = (p[i], p[(i + 1) % n]);
                x[0] * y[1] - y[0] * x[1]
            })
            .sum::<f64>()
            / 2.0
    };
    let orientation = signed(&clip).signum();
    let n = clip.len();
    for i in 0..n {
        if poly.is_empty() {
            return 0.0;
        }
        let (p0, p1) = (clip[i], clip[(i + 1) % n]);
        let side = |q: [f64; 2]| {
            orientation * ((p1[0] - p0[0]) * (q[1] - p0[1]) - (p1[1] - p0[1]) * (q[0] - p0[0]))
        };
        let mut out = Vec::with_capacity(poly.len() + 2);
        for j in 0..poly.len() {
            let (c, d) = (poly[j], poly[(j + 1) % poly.len()]);
            let (sc, sd) = (side(c), side(d));
            if sc >= 0.0 {
                out.push(c);
            }
            if (sc >= 0.0) != (sd >= 0.0) {
                let t = sc / (sc - sd);
                out.push([c[0] + (d[0] - c[0]) * t, c[1] + (d[1] - c[1]) * t]);
            }
        }
        poly = out;
    }
    if poly.len() < 3 {
        return 0.0;
    }
    signed(&poly).abs() / normal[k].abs().max(1e-9)
}

/// The convex hull of points in a plane, counter-clockwise (Andrew's monotone chain).
fn hull(mut p: Vec<[f64; 2]>) -> Vec<[f64; 2]> {
    p.sort_by(|x, y| x[0].total_cmp(&y[0]).then(x[1].total_cmp(&y[1])));
    p.dedup();
    if p.len() < 3 {
        return p;
    }
    let turn = |o: [f64; 2], x: [f64; 2], y: [f64; 2]| {
        (x[0] - o[0]) * (y[1] - o[1]) - (x[1] - o[1]) * (y[0] - o[0])
    };
    let mut out: Vec<[f64; 2]> = Vec::with_capacity(p.len() + 1);
    for pass in 0..2 {
        let start = out.len();
        let points: Box<dyn Iterator<Item = &[f64; 2]>> =
            if pass == 0 { Box::new(p.iter()) } else { Box::new(p.iter().rev()) };
        for &q in points {
            while out.len() >= start + 2 && turn(out[out.len() - 2], out[out.len() - 1], q) <= 0.0 {
                out.pop();
            }
            out.push(q);
        }
        out.pop();
    }
    out
}

/// Compares the engine's polygons with the built ones.
pub fn compare(engine: &[AreaPolygon], built: &[AreaPolygon]) -> Comparison {
    let mut by_texture: HashMap<String, Vec<usize>> = HashMap::new();
    for (i, b) in built.iter().enumerate() {
        by_texture.entry(b.texture.to_ascii_lowercase()).or_default().push(i);
    }
    let built_centroids: Vec<V3> = built.iter().map(|b| centroid(&b.vertices)).collect();
    let built_thickness: Vec<f64> = built
        .iter()
        .zip(&built_centroids)
        .map(|(b, &c)| thickness(&b.vertices, c, b.normal))
        .collect();
    // Whether built polygon `i` lies on engine polygon `e`'s plane, facing its way.
    let on_plane = |e: &AreaPolygon, e_centroid: V3, i: usize| {
        let b = &built[i];
        if dot(b.normal, e.normal) < 0.999 {
            return false;
        }
        let c = built_centroids[i];
        let off_base = dot(sub(c, e.base), e.normal).abs();
        // A polygon that is not quite planar (UE2 snaps baked vertices to the grid) is as
        // thick as its vertices stray from their mean plane: the tolerance is on top.
        let off_vertices = dot(sub(c, e_centroid), e.normal).abs()
            - thickness(&e.vertices, e_centroid, e.normal)
            - built_thickness[i];
        off_base.min(off_vertices) < THRESH_POINT_ON_PLANE
    };
    let mut built_matched = vec![0.0; built.len()];
    let mut result = Comparison::default();
    let mut missing: HashMap<(String, String), f64> = HashMap::new();
    for e in engine {
        let area = polygon_area(&e.vertices);
        result.engine_area += area;
        let e_centroid = centroid(&e.vertices);
        let mut matched = 0.0;
        for &i in by_texture.get(&e.texture.to_ascii_lowercase()).into_iter().flatten() {
            if on_plane(e, e_centroid, i) {
                let o = overlap(&e.vertices, &built[i].vertices, e.normal);
                matched += o;
                built_matched[i] += o;
            }
        }
        let matched = matched.min(area);
        result.matched_area += matched;
        if area - matched <= 1e-3 {
            continue;
        }
        let left = area - matched;
        if left > 1e-3 {
            *missing.entry((e.source.clone(), e.texture.clone())).or_default() += left;
        }
    }
    let mut extra: HashMap<(String, String), f64> = HashMap::new();
    for (i, (b, m)) in built.iter().zip(&built_matched).enumerate() {
        let area = polygon_area(&b.vertices);
        result.built_area += area;
        if area - m > 1e-3 {
            *extra.entry((b.source.clone(), b.texture.clone())).or_default() += area - m;
            result.unmatched_built.push((i, area - m));
        }
    }
    let sorted = |m: HashMap<(String, String), f64>| {
        let mut v: Vec<Difference> = m
            .into_iter()
            .map(|((source, texture), area)| Difference { source, texture, area })
            .collect();
        v.sort_by(|a, b| b.area.total_cmp(&a.area).then_with(|| a.source.cmp(&b.source)));
        v
    };
    result.missing = sorted(missing);
    result.extra = sorted(extra);
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 100 by 100 square on the floor, facing up, from `source` in `texture`.
    fn floor(source: &str, texture: &str, x: f64) -> AreaPolygon {
        AreaPolygon {
            vertices: vec![
                [x, 0.0, 0.0],
                [x + 100.0, 0.0, 0.0],
                [x + 100.0, 100.0, 0.0],
                [x, 100.0, 0.0],
            ],
            normal: [0.0, 0.0, 1.0],
            base: [x, 0.0, 0.0],
            texture: texture.to_owned(),
            poly_flags: 0,
            source: source.to_owned(),
            mapping: None,
        }
    }
    /// Area counts as matched only in the same texture: a face built in place in another
    /// texture (what a linked face whose surface went to another face gives, when a build
    /// does not follow `bspBrushCSG`'s surfaces) is missing on one side and extra on the other.
    #[test]
    fn a_face_in_place_in_another_texture_is_missing_and_extra() {
        let engine = [floor("Brush1", "Old", 0.0), floor("Brush1", "Same", 200.0)];
        let built = [floor("Brush1", "New", 0.0), floor("Brush1", "Same", 200.0)];
        let c = compare(&engine, &built);
        assert!((c.matched_percent() - 50.0).abs() < 1e-9);
        assert!((c.extra_percent() - 50.0).abs() < 1e-9);
        let named = |d: &[Difference]| -> Vec<String> {
            d.iter().map(|d| format!("{} {} {:.0}", d.source, d.texture, d.area)).collect()
        };
        assert_eq!(named(&c.missing), ["Brush1 Old 10000"]);
        assert_eq!(named(&c.extra), ["Brush1 New 10000"]);
    }
}
