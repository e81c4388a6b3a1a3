//! Polygon geometry exactly as UnrealEd computes it.

use std::ops::{Add, Mul, Sub};

/// UE1 and UE2 `FPoly::MAX_VERTICES`.
pub const MAX_VERTICES: usize = 16;

#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Vec3 {
    pub x: f64,
    pub y: f64,
    pub z: f64,
}

impl Vec3 {
    pub const ZERO: Vec3 = Vec3 { x: 0.0, y: 0.0, z: 0.0 };

    pub const fn new(x: f64, y: f64, z: f64) -> Self {
        Self { x, y, z }
    }

    pub fn from_array(v: [f64; 3]) -> Self {
        Self { x: v[0], y: v[1], z: v[2] }
    }

    pub fn dot(self, o: Vec3) -> f64 {
        self.x * o.x + self.y * o.y + self.z * o.z
    }

    pub fn cross(self, o: Vec3) -> Vec3 {
        Vec3::new(
            self.y * o.z - self.z * o.y,
            self.z * o.x - self.x * o.z,
            self.x * o.y - self.y * o.x,
        )
    }

    pub fn length(self) -> f64 {
        self.dot(self).sqrt()
    }

    /// The unit vector, or `None` for a (near) zero vector.
    pub fn normalized(self) -> Option<Vec3> {
        let len = self.length();
        (len > 1e-12).then(|| self * (1.0 / len))
    }
}

impl Add for Vec3 {
    type Output = Vec3;
    fn add(self, o: Vec3) -> Vec3 {
        Vec3::new(self.x + o.x, self.y + o.y, self.z + o.z)
    }
}

impl Sub for Vec3 {
    type Output = Vec3;
    fn sub(self, o: Vec3) -> Vec3 {
        Vec3::new(self.x - o.x, self.y - o.y, self.z - o.z)
    }
}

impl Mul<f64> for Vec3 {
    type Output = Vec3;
    fn mul(self, s: f64) -> Vec3 {
        Vec3::new(self.x * s, self.y * s, self.z * s)
    }
}

/// `sum over i>=2 of (V[i-1]-V[0]) x (V[i]-V[0])`: twice the polygon's vector area. Every
/// real map's stored `Normal` is this, normalised.
pub fn area_vector(vertices: &[Vec3]) -> Vec3 {
    let Some(&first) = vertices.first() else { return Vec3::ZERO };
    vertices
        .windows(2)
        .skip(1)
        .fold(Vec3::ZERO, |sum, pair| sum + (pair[0] - first).cross(pair[1] - first))
}

/// The polygon's normal as UnrealEd computes it, or `None` when the polygon has no area.
pub fn polygon_normal(vertices: &[Vec3]) -> Option<Vec3> {
    area_vector(vertices).normalized()
}

/// Signed distance of `point` from the plane through `origin` with unit `normal`.
pub fn plane_distance(point: Vec3, origin: Vec3, normal: Vec3) -> f64 {
    (point - origin).dot(normal)
}

/// `THRESH_SPLIT_POLY_WITH_PLANE` (UT2004 `Core/Inc/UnMath.h:2109`): the distance within which
/// the BSP counts a point as on a plane when it splits polygons (`FPoly::SplitWithPlane`,
/// `SplitWithPlaneFast`), which is where a polygon's planarity and convexity matter.
pub const THRESH_SPLIT: f64 = 0.25;

/// `THRESH_POINTS_ARE_SAME` (UnMath.h:2103): two points within this, coordinate by
/// coordinate, are one (`FPoly::Fix`).
pub const THRESH_POINTS_ARE_SAME: f64 = 0.002;

/// `THRESH_ZERO_NORM_SQUARED` (UnMath.h:2111): a normal sum whose squared length is below
/// this makes `FPoly::Finalize` refuse the polygon, and import drop it.
pub const THRESH_ZERO_NORM_SQUARED: f64 = 0.0001;

/// `FLOAT_NORMAL_THRESH` (UnMath.h:2096): two side-plane normals this close, coordinate by
/// coordinate, make their shared vertex colinear (`FPoly::RemoveColinears`).
const FLOAT_NORMAL_THRESH: f64 = 0.0001;

/// `SMALL_NUMBER` (UnMath.h:33): `FVector::Normalize` fails below this squared length.
const SMALL_NUMBER: f64 = 1e-8;

/// A polygon as the engine holds it once imported: `FPoly::Fix` has dropped every vertex the
/// same as the one kept before it (UT2004 `Engine/Src/UnFPoly.cpp:71-92`) and
/// `FPoly::CalcNormal` has given it its normal (UnFPoly.cpp:421-437), as `FPoly::Finalize`
/// does on import (UnFPoly.cpp:690-716). Each kept vertex remembers its place among the
/// written ones, so that findings name the line the user wrote.
#[derive(Clone, Debug)]
pub struct EnginePolygon {
    pub points: Vec<Vec3>,
    /// For each kept vertex, its index among the written vertices.
    pub written: Vec<usize>,
    pub normal: Vec3,
}

/// Where a polygon is not convex as the engine judges it: `vertex` lies `distance` units in
/// front of the side plane of the edge from `edge.0` to `edge.1` (written indices).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OutsideEdge {
    pub vertex: usize,
    pub edge: (usize, usize),
    pub distance: f64,
}

impl EnginePolygon {
    /// The polygon import keeps, or `None` when `FPoly::Finalize` refuses it (fewer than
    /// three distinct points, or no area).
    pub fn import(vertices: &[Vec3]) -> Option<EnginePolygon> {
        let same = |p: Vec3, q: Vec3| {
            (p.x - q.x).abs() < THRESH_POINTS_ARE_SAME
                && (p.y - q.y).abs() < THRESH_POINTS_ARE_SAME
                && (p.z - q.z).abs() < THRESH_POINTS_ARE_SAME
        };
        let mut points = Vec::with_capacity(vertices.len());
        let mut written = Vec::with_capacity(vertices.len());
        let mut prev = *vertices.last()?;
        for (i, &v) in vertices.iter().enumerate() {
            if !same(v, prev) {
                points.push(v);
                written.push(i);
                prev = v;
            }
        }
        if points.len() < 3 {
            return None;
        }
        let sum = area_vector(&points);
        if sum.dot(sum) < THRESH_ZERO_NORM_SQUARED {
            return None;
        }
        let normal = sum.normalized()?;
        Some(EnginePolygon { points, written, normal })
    }

    /// The vertex farthest from the plane the BSP gives the polygon, with its distance,
    /// when that is [`THRESH_SPLIT`] or more: the plane through the first kept vertex with
    /// the polygon's normal (UT2004 `Editor/Src/UnBsp.cpp:231`, `:292`; UT v400 moves the
    /// polygon's base onto that plane before the CSG, `Editor/Src/UnBsp.cpp:1822-1824`, and
    /// builds the node's plane from it, `:289`). Nearer than that, the BSP's splits count the
    /// polygon as lying in its plane (`FPoly::SplitWithPlane` returns coplanar).
    pub fn off_plane(&self) -> Option<(usize, f64)> {
        let base = *self.points.first()?;
        let (index, distance) = self
            .points
            .iter()
            .enumerate()
            .map(|(i, &v)| (i, plane_distance(v, base, self.normal).abs()))
            .max_by(|a, b| a.1.total_cmp(&b.1))?;
        (distance >= THRESH_SPLIT).then(|| (self.written[index], distance))
    }

    /// Where the polygon is not convex as `FPoly::RemoveColinears` judges it (UnFPoly.cpp:
    /// 487-542), or `None` when it is convex. Each edge has a side plane through its end
    /// with the normal `edge x Normal`, facing out; an edge too short for that normal drops
    /// its end vertex, and a vertex whose two side normals agree within
    /// `FLOAT_NORMAL_THRESH` is dropped as colinear. The polygon is not convex at the first
    /// edge whose side plane has any vertex [`THRESH_SPLIT`] or more in front of it
    /// (`FPoly::SplitWithPlane` returns front or split, UnFPoly.cpp:148-169): every vertex
    /// against every edge, on both sides of each vertex, not only a vertex's neighbours.
    /// The engine's polygons have at most 16 vertices; an outline too long for the pairwise
    /// test within [`CONVEXITY_TEST_BUDGET`] is judged by [`long_outline_outside_edge`].
    pub fn outside_edge(&self) -> Option<OutsideEdge> {
        let n = self.points.len();
        if n.saturating_mul(n) > CONVEXITY_TEST_BUDGET {
            return long_outline_outside_edge(&self.points, self.normal)
                .map(|o| OutsideEdge { vertex: self.written[o.vertex], ..self.rewrite_edge(o) });
        }
        let mut points: Vec<(Vec3, usize)> =
            self.points.iter().copied().zip(self.written.iter().copied()).collect();
        let mut side: Vec<Vec3> = vec![Vec3::ZERO; n];
        let mut i = 0;
        while i < points.len() {
            let j = if i == 0 { points.len() - 1 } else { i - 1 };
            let normal = (points[i].0 - points[j].0).cross(self.normal);
            if normal.dot(normal) >= SMALL_NUMBER {
                side[i] = normal * (1.0 / normal.length());
                i += 1;
            } else {
                points.remove(i);
                side.remove(i);
                if points.len() < 3 {
                    return None;
                }
            }
        }
        let mut i = 0;
        while i < points.len() {
            let next = if i + 1 >= points.len() { 0 } else { i + 1 };
            let (a, b) = (side[i], side[next]);
            if (a.x - b.x).abs() < FLOAT_NORMAL_THRESH
                && (a.y - b.y).abs() < FLOAT_NORMAL_THRESH
                && (a.z - b.z).abs() < FLOAT_NORMAL_THRESH
            {
                points.remove(i);
                side.remove(i);
                if points.len() < 3 {
                    return None;
                }
                continue;
            }
            let base = points[i].0;
            let worst = points
                .iter()
                .map(|&(v, w)| (w, plane_distance(v, base, side[i])))
                .max_by(|a, b| a.1.total_cmp(&b.1));
            if let Some((vertex, distance)) = worst.filter(|w| w.1 >= THRESH_SPLIT) {
                let previous = if i == 0 { points.len() - 1 } else { i - 1 };
                return Some(OutsideEdge {
                    vertex,
                    edge: (points[previous].1, points[i].1),
                    distance,
                });
            }
            i += 1;
        }
        None
    }

    /// How far the polygon departs from a convex one: `Some(depth)` when it runs around its
    /// convex hull in the hull's own order, `depth` being the farthest any vertex lies inside
    /// the hull edge that bridges it (0 for a convex polygon); `None` when it does not (it
    /// crosses itself, or winds around more than once). The engine's own test
    /// ([`Self::outside_edge`]) extends each edge's line across the whole polygon, so a
    /// reflex turn of a few hundredths of a unit on a short edge reads as tenths of a unit at
    /// the far corner; what the engine then does with the polygon (split it by planes within
    /// [`THRESH_SPLIT`], fan it from its first vertex when drawn) differs from what it does
    /// with the convex hull only where the polygon lies farther than that from its hull.
    pub fn departure_from_convex(&self) -> Option<f64> {
        // A plane basis (u, v, normal) right-handed: the outline, whose normal is its own
        // area vector, runs counter-clockwise in it.
        let helper = if self.normal.x.abs() < 0.6 {
            Vec3::new(1.0, 0.0, 0.0)
        } else {
            Vec3::new(0.0, 1.0, 0.0)
        };
        let across = helper.cross(self.normal).normalized()?;
        let up = self.normal.cross(across);
        // A vertex less than the split tolerance from the one kept before it, in the plane,
        // is one point to the splits (a spur of a fraction of a unit, drawn as a sliver of
        // no width): merged before the hull is taken.
        let near = |a: (f64, f64), b: (f64, f64)| (a.0 - b.0).hypot(a.1 - b.1) < THRESH_SPLIT;
        let mut flat: Vec<(f64, f64)> = Vec::with_capacity(self.points.len());
        for p in &self.points {
            let point = (p.dot(across), p.dot(up));
            if !flat.last().is_some_and(|&last| near(last, point)) {
                flat.push(point);
            }
        }
        while flat.len() > 1 && near(flat[flat.len() - 1], flat[0]) {
            flat.pop();
        }
        let n = flat.len();
        if n < 3 {
            return Some(0.0);
        }
        let cross = |o: (f64, f64), a: (f64, f64), b: (f64, f64)| {
            (a.0 - o.0) * (b.1 - o.1) - (a.1 - o.1) * (b.0 - o.0)
        };
        // The hull (monotone chain, counter-clockwise, points on its edges left out), as
        // indices into the outline.
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by(|&a, &b| {
            flat[a].0.total_cmp(&flat[b].0).then(flat[a].1.total_cmp(&flat[b].1))
        });
        let mut hull: Vec<usize> = Vec::with_capacity(2 * n);
        for pass in 0..2 {
            let floor = hull.len();
            let run: Box<dyn Iterator<Item = &usize>> =
                if pass == 0 { Box::new(order.iter()) } else { Box::new(order.iter().rev()) };
            for &i in run {
                while hull.len() >= floor + 2
                    && cross(flat[hull[hull.len() - 2]], flat[hull[hull.len() - 1]], flat[i]) <= 0.0
                {
                    hull.pop();
                }
                hull.push(i);
            }
            hull.pop();
        }
        if hull.len() < 3 {
            return None;
        }
        // The outline meets the hull's corners in the hull's order once around: its indices,
        // read along the hull, rise except at one wrap.
        let wraps = (0..hull.len()).filter(|&k| hull[(k + 1) % hull.len()] < hull[k]).count();
        if wraps != 1 {
            return None;
        }
        let mut depth: f64 = 0.0;
        for k in 0..hull.len() {
            let (from, to) = (hull[k], hull[(k + 1) % hull.len()]);
            let (pa, pb) = (flat[from], flat[to]);
            let length = (pb.0 - pa.0).hypot(pb.1 - pa.1);
            if length <= 0.0 {
                continue;
            }
            let mut inside = (from + 1) % n;
            while inside != to {
                depth = depth.max(cross(pa, pb, flat[inside]) / length);
                inside = (inside + 1) % n;
            }
        }
        Some(depth)
    }

    /// An [`OutsideEdge`] of kept indices with its edge in written indices.
    fn rewrite_edge(&self, o: OutsideEdge) -> OutsideEdge {
        OutsideEdge { edge: (self.written[o.edge.0], self.written[o.edge.1]), ..o }
    }
}

/// How many vertex-to-side-plane distances the convexity test computes at most: an outline
/// of more than 2,000 vertices (the engine's have 16 at most) is judged in linear time.
pub const CONVEXITY_TEST_BUDGET: usize = 4_000_000;

/// The convexity test for outlines too long to test every vertex against every edge (a
/// convex polygon of 100,000 vertices took the pairwise test tens of seconds): each vertex
/// against the side planes of both its edges (the turn seen from either side, so a reflex
/// vertex behind a short edge is found whichever way the outline runs); then an outline that
/// turns inward everywhere is convex when it goes around once (its turns add up to one full
/// turn), and one that winds around twice or more is found by the edge-plane test within
/// [`CONVEXITY_TEST_BUDGET`] distances. Indices are the outline's own.
pub fn long_outline_outside_edge(vertices: &[Vec3], normal: Vec3) -> Option<OutsideEdge> {
    let n = vertices.len();
    if n < 4 {
        return None;
    }
    let outward = |a: Vec3, b: Vec3| (b - a).cross(normal).normalized();
    let mut turning = 0.0;
    for i in 0..n {
        let prev = (i + n - 1) % n;
        let next = (i + 1) % n;
        let (before, here, after) = (vertices[prev], vertices[i], vertices[next]);
        if let Some(side) = outward(before, here) {
            let distance = plane_distance(after, here, side);
            if distance >= THRESH_SPLIT {
                return Some(OutsideEdge { vertex: next, edge: (prev, i), distance });
            }
        }
        if let Some(side) = outward(here, after) {
            let distance = plane_distance(before, after, side);
            if distance >= THRESH_SPLIT {
                return Some(OutsideEdge { vertex: prev, edge: (i, next), distance });
            }
        }
        let (into, out_of) = (here - before, after - here);
        turning += normal.dot(into.cross(out_of)).atan2(into.dot(out_of));
    }
    if (turning.abs() - std::f64::consts::TAU).abs() < 0.5 {
        return None;
    }
    // Wound around more than once: every loop crosses the other's edges, so the first edges
    // tried find a vertex outside; the budget bounds a hostile outline's cost.
    let edges = (CONVEXITY_TEST_BUDGET / n).clamp(1, n);
    for i in 0..edges {
        let (a, b) = (vertices[i], vertices[(i + 1) % n]);
        let Some(side) = outward(a, b) else { continue };
        for (j, &p) in vertices.iter().enumerate() {
            let distance = plane_distance(p, b, side);
            if distance >= THRESH_SPLIT {
                return Some(OutsideEdge { vertex: j, edge: (i, (i + 1) % n), distance });
            }
        }
    }
    None
}

/// Formats a vector the way UnrealEd writes it: `%+013.6f` per component, comma-separated.
pub fn format_vector(v: Vec3) -> String {
    format!("{:+013.6},{:+013.6},{:+013.6}", v.x, v.y, v.z)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unreal_formatting() {
        assert_eq!(
            format_vector(Vec3::new(128.0, -64.0, -0.0)),
            "+00128.000000,-00064.000000,-00000.000000"
        );
        assert_eq!(
            format_vector(Vec3::new(0.752_577, 1e-7, 0.0)),
            "+00000.752577,+00000.000000,+00000.000000"
        );
    }

    #[test]
    fn a_convex_outline_of_100000_vertices_is_judged_at_once_and_a_double_winding_is_found() {
        let circle = |n: usize, turns: f64| -> Vec<Vec3> {
            (0..n)
                .map(|i| {
                    let a = turns * std::f64::consts::TAU * i as f64 / n as f64;
                    Vec3::new(100_000.0 * a.cos(), 100_000.0 * a.sin(), 0.0)
                })
                .collect()
        };
        let up = Vec3::new(0.0, 0.0, 1.0);
        // The pairwise test took tens of seconds on this one.
        let round = EnginePolygon::import(&circle(100_000, 1.0)).unwrap();
        assert_eq!(round.outside_edge(), None);
        // A pentagram-like outline that goes around twice turns inward at every vertex.
        let twice = circle(7, 2.0);
        assert!(EnginePolygon::import(&twice).unwrap().outside_edge().is_some());
        assert!(long_outline_outside_edge(&twice, up).is_some());
    }

    fn polygon(points: &[(f64, f64)]) -> EnginePolygon {
        let v: Vec<Vec3> = points.iter().map(|&(x, y)| Vec3::new(x, y, 0.0)).collect();
        EnginePolygon::import(&v).unwrap()
    }

    #[test]
    fn square_normal_and_convexity() {
        let square = polygon(&[(0.0, 0.0), (0.0, 10.0), (10.0, 10.0), (10.0, 0.0)]);
        assert_eq!(square.normal, Vec3::new(0.0, 0.0, -1.0));
        assert_eq!(square.outside_edge(), None);
        let arrow = polygon(&[(0.0, 0.0), (0.0, 10.0), (3.0, 5.0), (10.0, 10.0), (10.0, 0.0)]);
        let found = arrow.outside_edge().unwrap();
        // The edge into the reflex vertex, extended, leaves the far corner outside.
        assert_eq!((found.edge, found.vertex), ((1, 2), 3));
    }

    #[test]
    fn every_vertex_is_judged_against_every_edge() {
        // A dent of 0.2 in the middle of a 128-unit side: each neighbour is within 0.25 of
        // the other edge's line, the far corner 0.4 outside the line of the edge into the dent.
        let dent = |d: f64| {
            polygon(&[(0.0, 0.0), (0.0, 128.0), (64.0, 128.0 - d), (128.0, 128.0), (128.0, 0.0)])
        };
        assert_eq!(dent(0.1).outside_edge(), None);
        let found = dent(0.2).outside_edge().unwrap();
        assert!((found.distance - 0.4).abs() < 1e-3, "{found:?}");
        // A reflex vertex behind a short edge: its near neighbour is within 0.2 of the line
        // of the edge into it, whichever way the outline runs, the rest far outside.
        let short = [
            (0.0, 0.0),
            (0.0, 128.0),
            (64.0, 100.0),
            (64.14, 100.14),
            (128.0, 128.0),
            (128.0, 0.0),
        ];
        assert!(polygon(&short).outside_edge().is_some());
        let reversed: Vec<_> = short.iter().rev().copied().collect();
        assert!(polygon(&reversed).outside_edge().is_some());
    }

    #[test]
    fn the_departure_from_convex_is_the_deepest_notch_and_a_crossing_outline_has_none() {
        let square = polygon(&[(0.0, 0.0), (0.0, 10.0), (10.0, 10.0), (10.0, 0.0)]);
        assert_eq!(square.departure_from_convex(), Some(0.0));
        // The dent of 0.2 the engine's test finds 0.4 outside an edge's line is 0.2 deep.
        let dent =
            polygon(&[(0.0, 0.0), (0.0, 128.0), (64.0, 127.8), (128.0, 128.0), (128.0, 0.0)]);
        assert!((dent.departure_from_convex().unwrap() - 0.2).abs() < 1e-9);
        // An L: the reflex corner lies 45 units inside the hull's diagonal.
        let l = polygon(&[(0.0, 0.0), (128.0, 0.0), (32.0, 32.0), (0.0, 128.0)]);
        let depth = l.departure_from_convex().unwrap();
        assert!((depth - 64.0 / 2f64.sqrt()).abs() < 1e-9, "{depth}");
        // Either way round, and from any first vertex.
        let mut reversed = vec![(0.0, 128.0), (32.0, 32.0), (128.0, 0.0), (0.0, 0.0)];
        assert!((polygon(&reversed).departure_from_convex().unwrap() - depth).abs() < 1e-9);
        reversed.rotate_left(2);
        assert!((polygon(&reversed).departure_from_convex().unwrap() - depth).abs() < 1e-9);
        // A notch made of many small turns (a concave arc) is as deep as the arc below the
        // chord between its ends.
        let mut arc = vec![(0.0, 0.0), (100.0, 0.0)];
        arc.extend((1..10).map(|i| {
            let t = std::f64::consts::PI * f64::from(i) / 10.0;
            (50.0 + 50.0 * t.cos(), 100.0 - 5.0 * t.sin())
        }));
        let arced = polygon(&arc);
        let sag = 5.0 * (1.0 - (std::f64::consts::PI / 10.0).sin());
        assert!((arced.departure_from_convex().unwrap() - sag).abs() < 1e-9);
        // A spur of a fraction of a unit off a corner, as real Deus Ex exports hold: one point
        // to the splits, within tolerance.
        let spur =
            polygon(&[(0.0, 0.0), (0.0, 100.0), (100.0, 100.0), (100.1, 100.15), (100.0, 0.0)]);
        assert_eq!(spur.departure_from_convex(), Some(0.0));
        // A bow tie crosses itself: it meets its hull's corners out of order.
        let bow = polygon(&[(0.0, 0.0), (100.0, 60.0), (100.0, 0.0), (0.0, 50.0)]);
        assert_eq!(bow.departure_from_convex(), None);
    }

    #[test]
    fn import_drops_repeated_points_and_planes_go_through_the_first_kept_vertex() {
        // The first vertex repeats the last: `Fix` drops it, and vertex 1 is the plane's base.
        let v = [
            Vec3::new(0.0, 0.0, 0.0005),
            Vec3::new(0.0, 128.0, 0.0),
            Vec3::new(128.0, 128.0, 0.0),
            Vec3::new(128.0, 0.0, 0.0),
            Vec3::new(0.0, 0.0, 0.0),
        ];
        let p = EnginePolygon::import(&v).unwrap();
        assert_eq!(p.written, vec![1, 2, 3, 4]);
        assert_eq!(p.off_plane(), None);
        let flat = [(0.0, 0.0), (1.0, 0.0), (2.0, 0.0)];
        let line: Vec<Vec3> = flat.iter().map(|&(x, y)| Vec3::new(x, y, 0.0)).collect();
        assert!(EnginePolygon::import(&line).is_none());
    }
}
