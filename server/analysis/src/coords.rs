//! The engine's coordinate-system algebra (`FCoords`, Core/Inc/UnMath.h), for the few places
//! that must place things exactly as the engine does: brushes in a map
//! ([`crate::t3d::placement`]) and a mesh's `MESH ORIGIN` / `MESHMAP SCALE` pose
//! ([`crate::export::pose`]).
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
