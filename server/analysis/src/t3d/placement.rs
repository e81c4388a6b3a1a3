//! Where a brush's polygons stand in the world, as the engine places them when it builds the
//! level (`bspBrushCSG` in Editor/Src/UnBsp.cpp): every vertex `V` of the brush becomes
//! `(V - PrePivot)` transformed by the brush's coordinate system, plus `Location`, and when the
//! system's orientation is negative (a mirroring scale) the vertex order is reversed
//! (`FPoly::Transform`, Engine/Src/UnFPoly.cpp).
//!
//! The coordinate system differs between generations:
//! - UE1 (Unreal, UT99): `UnitCoords * PostScale * Rotation * MainScale`
//!   (`ABrush::OldBuildCoords` in UT2004's Engine/Inc/ABrush.h, kept there to convert UE1
//!   maps): the brush is scaled by `MainScale` (with its sheer), rotated by `Rotation`, then
//!   scaled by `PostScale` along the world axes.
//! - UE2 (UT2004): `ABrush::BuildCoords` returns the unit system: the editor bakes rotation
//!   and scale into the vertices, and CSG applies only `PrePivot` and `Location` (UE2 exports
//!   write no `MainScale` scale or brush `Rotation`).
//!
//! The algebra is the engine's `FCoords` ([`crate::coords`]). `TempScale` is an editor value
//! that building the level does not read.

// Geometry names its coordinates x, y, z.
#![allow(clippy::many_single_char_names)]

use unreal_syntax::t3d::{Block, Value};

use crate::coords::{dot, rotated, scaled, Axes, Scale, SheerAxis, UNIT};

use crate::Generation;

/// A brush actor's placement, as its properties say (defaults where a property is absent,
/// as the engine leaves default values out of an export).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Placement {
    pub location: [f64; 3],
    /// Pitch, yaw, roll in rotator units (65536 to a turn).
    pub rotation: [i32; 3],
    pub pre_pivot: [f64; 3],
    pub main_scale: Scale,
    pub post_scale: Scale,
}

/// The placement turned into the transform CSG applies to each vertex.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Transform {
    /// The coordinate system's axes (`FCoords::XAxis`, `YAxis`, `ZAxis`).
    axes: Axes,
    pre_pivot: [f64; 3],
    location: [f64; 3],
    /// A negative orientation: polygons' vertex order is reversed.
    pub mirrors: bool,
}

impl Placement {
    /// Reads `Location`, `Rotation`, `PrePivot`, `MainScale` and `PostScale` from an actor
    /// block's properties.
    pub fn of_actor(text: &str, actor: &Block) -> Placement {
        let mut placement = Placement::default();
        for property in actor.properties() {
            let key = property.key.text(text);
            let value = &property.value;
            if key.eq_ignore_ascii_case("Location") {
                placement.location = vector(text, value);
            } else if key.eq_ignore_ascii_case("PrePivot") {
                placement.pre_pivot = vector(text, value);
            } else if key.eq_ignore_ascii_case("Rotation") {
                let angle = |name: &str| {
                    value
                        .field(text, name)
                        .and_then(|f| f.value.as_number())
                        .filter(|n| n.is_finite())
                        .map_or(0, |n| n as i32)
                };
                placement.rotation = [angle("Pitch"), angle("Yaw"), angle("Roll")];
            } else if key.eq_ignore_ascii_case("MainScale") {
                placement.main_scale = scale(text, value);
            } else if key.eq_ignore_ascii_case("PostScale") {
                placement.post_scale = scale(text, value);
            }
        }
        placement
    }

    /// The transform the given generation's CSG applies (UE1's unless the file is known to be
    /// UE2: UE2 exports carry no brush rotation or scale, so the two agree on them).
    pub fn transform(&self, generation: Option<Generation>) -> Transform {
        let (axes, mirrors) = if generation == Some(Generation::Ue2) {
            (UNIT, false)
        } else {
            let coords =
                scaled(rotated(scaled(UNIT, &self.post_scale), self.rotation), &self.main_scale);
            let orientation = self.main_scale.orientation() * self.post_scale.orientation();
            (coords, orientation < 0.0)
        };
        Transform { axes, pre_pivot: self.pre_pivot, location: self.location, mirrors }
    }
}

impl Transform {
    /// A direction (a point without `PrePivot` and `Location`) through the coordinate system:
    /// how a polygon's texture base moves relative to its vertices.
    pub fn direction(&self, v: [f64; 3]) -> [f64; 3] {
        self.axes.map(|axis| dot(v, axis))
    }

    /// A texture axis (`TextureU`, `TextureV`) as `FPoly::Transform` turns it: by the system's
    /// `VectorXform`, the inverse transpose of the point transform: the same as
    /// [`Self::direction`] for a rotation, shorter along an axis the brush is stretched along.
    /// A degenerate system leaves the axis as it is.
    pub fn texture_axis(&self, v: [f64; 3]) -> [f64; 3] {
        let [r0, r1, r2] = self.axes;
        let cross = |a: [f64; 3], b: [f64; 3]| {
            [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
        };
        let rows = [cross(r1, r2), cross(r2, r0), cross(r0, r1)];
        let det = dot(r0, rows[0]);
        if det.abs() < 1e-12 || !det.is_finite() {
            return v;
        }
        rows.map(|row| dot(row, v) / det)
    }

    /// Where the brush vertex `v` stands in the world.
    pub fn point(&self, v: [f64; 3]) -> [f64; 3] {
        let d = [v[0] - self.pre_pivot[0], v[1] - self.pre_pivot[1], v[2] - self.pre_pivot[2]];
        let [x, y, z] = self.axes.map(|axis| dot(d, axis));
        [x + self.location[0], y + self.location[1], z + self.location[2]]
    }
}

fn vector(text: &str, value: &Value) -> [f64; 3] {
    let component = |name: &str| {
        value
            .field(text, name)
            .and_then(|f| f.value.as_number())
            .filter(|n| n.is_finite())
            .unwrap_or(0.0)
    };
    [component("X"), component("Y"), component("Z")]
}

/// `MainScale=(Scale=(X=..,Y=..,Z=..),SheerRate=..,SheerAxis=SHEER_ZX)`; missing parts keep
/// their defaults.
fn scale(text: &str, value: &Value) -> Scale {
    let mut out = Scale::default();
    if let Some(scale) = value.field(text, "Scale") {
        for (i, name) in ["X", "Y", "Z"].into_iter().enumerate() {
            if let Some(n) = scale.value.field(text, name).and_then(|f| f.value.as_number()) {
                if n.is_finite() {
                    out.scale[i] = n;
                }
            }
        }
    }
    if let Some(rate) = value.field(text, "SheerRate").and_then(|f| f.value.as_number()) {
        if rate.is_finite() {
            out.sheer_rate = rate;
        }
    }
    if let Some(axis) = value.field(text, "SheerAxis") {
        out.sheer_axis = SheerAxis::parse(axis.value.span().text(text));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{Placement, Scale};
    use crate::coords::SheerAxis;
    use crate::Generation;

    fn close(a: [f64; 3], b: [f64; 3]) -> bool {
        a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-3)
    }

    #[test]
    fn yaw_turns_x_toward_y_and_location_moves() {
        // A quarter turn of yaw: the brush's +X points along the world's +Y.
        let p = Placement {
            rotation: [0, 16384, 0],
            location: [100.0, 0.0, 0.0],
            ..Placement::default()
        };
        let t = p.transform(Some(Generation::Ue1));
        assert!(
            close(t.point([64.0, 0.0, 0.0]), [100.0, 64.0, 0.0]),
            "{:?}",
            t.point([64.0, 0.0, 0.0])
        );
        // UE2's CSG applies no rotation.
        let t2 = p.transform(Some(Generation::Ue2));
        assert!(close(t2.point([64.0, 0.0, 0.0]), [164.0, 0.0, 0.0]));
    }

    #[test]
    fn pre_pivot_then_main_scale_then_rotation_then_post_scale() {
        let p = Placement {
            pre_pivot: [16.0, 0.0, 0.0],
            main_scale: Scale { scale: [2.0, 1.0, 1.0], ..Scale::default() },
            rotation: [0, 16384, 0],
            post_scale: Scale { scale: [1.0, 3.0, 1.0], ..Scale::default() },
            ..Placement::default()
        };
        let t = p.transform(None);
        // (32 - 16) * 2 = 32 along the brush's X, turned onto world Y, then tripled there.
        assert!(
            close(t.point([32.0, 0.0, 0.0]), [0.0, 96.0, 0.0]),
            "{:?}",
            t.point([32.0, 0.0, 0.0])
        );
        assert!(!t.mirrors);
        let mirrored =
            Placement { main_scale: Scale { scale: [-1.0, 1.0, 1.0], ..Scale::default() }, ..p };
        assert!(mirrored.transform(None).mirrors);
    }

    #[test]
    fn texture_axes_turn_with_the_brush_and_shrink_where_it_stretches() {
        let p = Placement {
            main_scale: Scale {
                scale: [2.0, 1.0, 1.0],
                sheer_axis: SheerAxis::None,
                ..Scale::default()
            },
            rotation: [0, 16384, 0],
            ..Placement::default()
        };
        let t = p.transform(Some(Generation::Ue1));
        // X doubled, then turned onto Y: a texture axis along X comes out half as long on Y.
        assert!(
            close(t.texture_axis([1.0, 0.0, 0.0]), [0.0, 0.5, 0.0]),
            "{:?}",
            t.texture_axis([1.0, 0.0, 0.0])
        );
        assert!(close(t.direction([1.0, 0.0, 0.0]), [0.0, 2.0, 0.0]));
        assert!(close(t.texture_axis([0.0, 0.0, 1.0]), [0.0, 0.0, 1.0]));
    }

    #[test]
    fn pitch_raises_x_toward_z() {
        let p = Placement { rotation: [16384, 0, 0], ..Placement::default() };
        let t = p.transform(None);
        assert!(
            close(t.point([10.0, 0.0, 0.0]), [0.0, 0.0, 10.0]),
            "{:?}",
            t.point([10.0, 0.0, 0.0])
        );
    }
}
