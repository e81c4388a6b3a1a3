//! Polygon geometry exactly as UnrealEd computes it.

use std::ops::{Add, Mul, Sub};

/// UnrealEd's `THRESH_POINT_ON_PLANE`: a point within 0.1 unit of a plane is on it.
pub const THRESH_POINT_ON_PLANE: f64 = 0.1;

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

    pub fn to_array(self) -> [f64; 3] {
        [self.x, self.y, self.z]
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

/// The engine's convexity tolerance: `THRESH_SPLIT_POLY_WITH_PLANE` (Core/Inc/UnMath.h), the
/// distance within which a point counts as on a splitting plane.
pub const THRESH_CONVEX: f64 = 0.25;

/// Finds where a planar polygon is not convex: the vertex at which the outline turns outward
/// by more than [`THRESH_CONVEX`], with how far it turns. An outline that turns inward at
/// every vertex is convex when it goes around once (its turns add up to one full turn); one
/// that winds around twice or more is found by the edge-plane test (a vertex outside an
/// edge's plane), within [`WINDING_TEST_BUDGET`] vertex-plane distances: a convex polygon of
/// 100,000 vertices took the quadratic test 15 to 29 s. Edge planes face inward for the
/// winding that produced `normal`.
pub fn first_reflex_vertex(vertices: &[Vec3], normal: Vec3) -> Option<(usize, f64)> {
    let n = vertices.len();
    if n < 4 {
        return None;
    }
    let inward = |a: Vec3, b: Vec3| normal.cross(b - a).normalized();
    let mut turning = 0.0;
    for i in 0..n {
        let prev = vertices[(i + n - 1) % n];
        let here = vertices[i];
        let next = vertices[(i + 1) % n];
        let Some(side) = inward(prev, here) else { continue };
        let outside = -(next - prev).dot(side);
        if outside > THRESH_CONVEX {
            return Some((i, outside));
        }
        let (a, b) = (here - prev, next - here);
        turning += normal.dot(a.cross(b)).atan2(a.dot(b));
    }
    if (turning - std::f64::consts::TAU).abs() < 0.5 {
        return None;
    }
    // Wound around more than once: every loop crosses the other's edges, so the first edges
    // tried find a vertex outside; the budget bounds a hostile outline's cost.
    let edges = (WINDING_TEST_BUDGET / n).clamp(1, n);
    for i in 0..edges {
        let a = vertices[i];
        let Some(side) = inward(a, vertices[(i + 1) % n]) else { continue };
        for (j, &p) in vertices.iter().enumerate() {
            let outside = -(p - a).dot(side);
            if outside > THRESH_CONVEX {
                return Some((j, outside));
            }
        }
    }
    None
}

/// How many vertex-to-edge-plane distances [`first_reflex_vertex`] computes at most for an
/// outline that winds around more than once.
pub const WINDING_TEST_BUDGET: usize = 4_000_000;

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
        // The quadratic test took tens of seconds on this one.
        assert_eq!(first_reflex_vertex(&circle(100_000, 1.0), up), None);
        // A pentagram-like outline that goes around twice turns inward at every vertex.
        let twice = circle(7, 2.0);
        assert!(first_reflex_vertex(&twice, up).is_some());
    }

    #[test]
    fn square_normal_and_convexity() {
        let square = [
            Vec3::new(0.0, 0.0, 0.0),
            Vec3::new(0.0, 10.0, 0.0),
            Vec3::new(10.0, 10.0, 0.0),
            Vec3::new(10.0, 0.0, 0.0),
        ];
        let normal = polygon_normal(&square).unwrap();
        assert_eq!(normal, Vec3::new(0.0, 0.0, -1.0));
        assert_eq!(first_reflex_vertex(&square, normal), None);
        let arrow = [
            Vec3::new(0.0, 0.0, 0.0),
            Vec3::new(0.0, 10.0, 0.0),
            Vec3::new(3.0, 5.0, 0.0),
            Vec3::new(10.0, 10.0, 0.0),
            Vec3::new(10.0, 0.0, 0.0),
        ];
        let normal = polygon_normal(&arrow).unwrap();
        assert_eq!(first_reflex_vertex(&arrow, normal).map(|(i, _)| i), Some(2));
    }
}
