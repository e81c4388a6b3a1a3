//! The engine's coordinate-system algebra (`FCoords`, Core/Inc/UnMath.h), for the few places
//! that must place things exactly as the engine does: brushes in a map
//! ([`crate::t3d::placement`]), a mesh's `MESH ORIGIN` / `MESHMAP SCALE` pose
//! (`export::pose`) and a terrain layer's texture coordinates (`export::terrain`, with
//! [`Coords`], the whole `FCoords` with its origin).
//!
//! An [`Axes`] value is the three axes of an `FCoords` (its origin is handled by the callers).
//! `Coords *= X` transforms each axis by `X` (dot products with `X`'s axes), and a vector is
//! transformed by its dot products with the three axes (`FVector::TransformVectorBy`). Sines
//! come from the engine's 16384-entry table, indexed by the rotator angle shifted right by two.

/// The X, Y and Z axes of a coordinate system.
pub type Axes = [[f64; 3]; 3];

/// `GMath.UnitCoords`.
pub const UNIT: Axes = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];

/// `ESheerAxis`; `SHEER_ZX` is what the engine writes by default.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SheerAxis {
    None,
    Xy,
    Xz,
    Yx,
    Yz,
    Zx,
    Zy,
}

impl SheerAxis {
    /// `SHEER_XY` ... as written in T3D; anything else is no sheer.
    pub fn parse(word: &str) -> SheerAxis {
        match word.to_ascii_uppercase().as_str() {
            "SHEER_XY" => SheerAxis::Xy,
            "SHEER_XZ" => SheerAxis::Xz,
            "SHEER_YX" => SheerAxis::Yx,
            "SHEER_YZ" => SheerAxis::Yz,
            "SHEER_ZX" => SheerAxis::Zx,
            "SHEER_ZY" => SheerAxis::Zy,
            _ => SheerAxis::None,
        }
    }
}

/// `FScale`: a scale with a sheer along one axis pair.
#[derive(Clone, Copy, Debug, PartialEq)]
#[allow(clippy::struct_field_names)] // the engine's own names: `FScale.Scale`
pub struct Scale {
    pub scale: [f64; 3],
    pub sheer_rate: f64,
    pub sheer_axis: SheerAxis,
}

impl Default for Scale {
    fn default() -> Self {
        Self { scale: [1.0; 3], sheer_rate: 0.0, sheer_axis: SheerAxis::Zx }
    }
}

impl Scale {
    /// A plain scale, no sheer (`FScale(Scale, 0, SHEER_None)`).
    pub fn plain(scale: [f64; 3]) -> Self {
        Self { scale, sheer_rate: 0.0, sheer_axis: SheerAxis::None }
    }

    /// `FScale::Orientation`: the sign of the product of the three scales.
    pub fn orientation(&self) -> f64 {
        let product = self.scale[0] * self.scale[1] * self.scale[2];
        if product < 0.0 {
            -1.0
        } else if product > 0.0 {
            1.0
        } else {
            0.0
        }
    }
}

pub fn dot(a: [f64; 3], b: [f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

/// `FVector::TransformVectorBy`.
pub fn transform_vector(v: [f64; 3], axes: &Axes) -> [f64; 3] {
    axes.map(|axis| dot(v, axis))
}

/// `Coords *= TransformCoords` for the axes.
pub fn transformed(coords: Axes, by: Axes) -> Axes {
    coords.map(|axis| by.map(|b| dot(axis, b)))
}

/// `GMath.SinTab`.
pub fn sin_tab(angle: i32) -> f64 {
    let index = (angle >> 2) & 16383;
    (f64::from(index) * std::f64::consts::TAU / 16384.0).sin()
}

/// `GMath.CosTab`.
pub fn cos_tab(angle: i32) -> f64 {
    sin_tab(angle.wrapping_add(16384))
}

/// `Coords *= FRotator`: yaw, then pitch, then roll; angles `[pitch, yaw, roll]` in rotator
/// units (65536 to a turn).
pub fn rotated(coords: Axes, [pitch, yaw, roll]: [i32; 3]) -> Axes {
    let (sy, cy) = (sin_tab(yaw), cos_tab(yaw));
    let (sp, cp) = (sin_tab(pitch), cos_tab(pitch));
    let (sr, cr) = (sin_tab(roll), cos_tab(roll));
    let coords = transformed(coords, [[cy, sy, 0.0], [-sy, cy, 0.0], [0.0, 0.0, 1.0]]);
    let coords = transformed(coords, [[cp, 0.0, sp], [0.0, 1.0, 0.0], [-sp, 0.0, cp]]);
    transformed(coords, [[1.0, 0.0, 0.0], [0.0, cr, -sr], [0.0, sr, cr]])
}

/// `FSheerSnap`: the sheer rate the editor snaps to.
pub fn sheer_snap(sheer: f64) -> f64 {
    if sheer < -0.65 {
        sheer + 0.15
    } else if sheer > 0.65 {
        sheer - 0.15
    } else if sheer < -0.55 {
        -0.50
    } else if sheer > 0.55 {
        0.50
    } else if sheer < -0.05 {
        sheer + 0.05
    } else if sheer > 0.05 {
        sheer - 0.05
    } else {
        0.0
    }
}

/// `Coords *= FScale`: the sheer, then each axis scaled component by component.
pub fn scaled(coords: Axes, scale: &Scale) -> Axes {
    let sheer = sheer_snap(scale.sheer_rate);
    let mut by = UNIT;
    match scale.sheer_axis {
        SheerAxis::Xy => by[0][1] = sheer,
        SheerAxis::Xz => by[0][2] = sheer,
        SheerAxis::Yx => by[1][0] = sheer,
        SheerAxis::Yz => by[1][2] = sheer,
        SheerAxis::Zx => by[2][0] = sheer,
        SheerAxis::Zy => by[2][1] = sheer,
        SheerAxis::None => {}
    }
    transformed(coords, by)
        .map(|axis| [axis[0] * scale.scale[0], axis[1] * scale.scale[1], axis[2] * scale.scale[2]])
}

/// A whole `FCoords`: its origin and axes. `TransformPointBy` takes the origin off a point
/// and then transforms it by the axes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Coords {
    pub origin: [f64; 3],
    pub axes: Axes,
}

impl Coords {
    /// `GMath.UnitCoords`.
    pub const UNIT: Coords = Coords { origin: [0.0; 3], axes: UNIT };

    /// `FVector::TransformPointBy`.
    pub fn transform_point(&self, p: [f64; 3]) -> [f64; 3] {
        let [x, y, z] = self.origin;
        transform_vector([p[0] - x, p[1] - y, p[2] - z], &self.axes)
    }

    /// `Coords *= TransformCoords`, in the engine's fast form: the origin is transformed as a
    /// point, the axes as vectors (what it computes for any system, orthogonal or not).
    pub fn times(self, by: &Coords) -> Coords {
        Coords { origin: by.transform_point(self.origin), axes: transformed(self.axes, by.axes) }
    }

    /// `FCoords::Transpose`: the axes transposed, the origin `-Origin.TransformVectorBy(this)`.
    pub fn transpose(&self) -> Coords {
        let [x, y, z] = self.axes;
        let origin = transform_vector(self.origin, &self.axes).map(|c| -c);
        Coords { origin, axes: [[x[0], y[0], z[0]], [x[1], y[1], z[1]], [x[2], y[2], z[2]]] }
    }

    /// `Coords /= FRotator`: the inverse roll, then the inverse pitch, then the inverse yaw;
    /// angles `[pitch, yaw, roll]` in rotator units.
    pub fn unrotated(self, [pitch, yaw, roll]: [i32; 3]) -> Coords {
        let (sy, cy) = (sin_tab(yaw), cos_tab(yaw));
        let (sp, cp) = (sin_tab(pitch), cos_tab(pitch));
        let (sr, cr) = (sin_tab(roll), cos_tab(roll));
        let steps: [Axes; 3] = [
            [[1.0, 0.0, 0.0], [0.0, cr, sr], [0.0, -sr, cr]],
            [[cp, 0.0, -sp], [0.0, 1.0, 0.0], [sp, 0.0, cp]],
            [[cy, -sy, 0.0], [sy, cy, 0.0], [0.0, 0.0, 1.0]],
        ];
        steps.iter().fold(self, |coords, &axes| coords.times(&Coords { origin: [0.0; 3], axes }))
    }
}

#[cfg(test)]
mod coords_tests {
    use super::*;

    fn close(a: [f64; 3], b: [f64; 3]) -> bool {
        a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-9)
    }

    /// `UnitCoords / R` undoes `UnitCoords * R`: a point turned by one comes back by the other.
    #[test]
    fn unrotating_undoes_rotating() {
        let rotation = [4096, 16384 + 1000, -2048];
        let turned = Coords { origin: [0.0; 3], axes: rotated(UNIT, rotation) };
        let back = Coords::UNIT.unrotated(rotation);
        let p = [3.0, -7.0, 11.0];
        assert!(close(back.transform_point(turned.transform_point(p)), p));
    }

    /// A yaw of a quarter turn undone from the unit system: its X axis is `(cos, sin, 0)`
    /// (each step's rows taken as dot products with the unit axes), so a point on Y lands on X.
    #[test]
    fn a_quarter_yaw_undone_takes_y_to_x() {
        let coords = Coords::UNIT.unrotated([0, 16384, 0]);
        assert!(close(coords.axes[0], [0.0, 1.0, 0.0]));
        assert!(close(coords.transform_point([0.0, 1.0, 0.0]), [1.0, 0.0, 0.0]));
        assert!(close(coords.transform_point([1.0, 0.0, 0.0]), [0.0, -1.0, 0.0]));
    }

    /// `Transpose` of a translation and scale, then `*=`: the engine's own arithmetic, checked
    /// by hand.
    #[test]
    fn transpose_and_times_follow_the_engine() {
        let scale = Coords {
            origin: [1.0, 2.0, 3.0],
            axes: [[2.0, 0.0, 0.0], [0.0, 4.0, 0.0], [0.0, 0.0, 1.0]],
        };
        let t = scale.transpose();
        assert!(close(t.origin, [-2.0, -8.0, -3.0]));
        let c = Coords::UNIT.times(&t);
        // The unit origin transformed as a point: (0 - (-2, -8, -3)) by the axes.
        assert!(close(c.origin, [4.0, 32.0, 3.0]));
        assert!(close(c.axes[0], [2.0, 0.0, 0.0]));
    }
}
