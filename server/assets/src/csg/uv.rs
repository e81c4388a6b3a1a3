//! Texture coordinates of the built level, as the engine maps a surface's texture.
//!
//! A surface carries its brush polygon's mapping: a base point `Base` (the T3D `Origin`), the
//! axes `TextureU` and `TextureV` (their length is texels per unit: a `TextureU` of length 2
//! draws the texture at half size) and, in UE1, the pans `PanU`/`PanV` in texels. A point `P`
//! of the surface lies at the texel
//!
//! ```text
//! u = (P - Base) · TextureU + PanU        v = (P - Base) · TextureV + PanV
//! ```
//!
//! and at `u / USize`, `v / VSize` in the texture (0..1 across it, `v` down, as glTF wants).
//! Where this comes from: the UE1 render devices compute `(P · XAxis - Origin · XAxis) - UPan`
//! with the surface's `FCoords(Base, TextureU, TextureV)` as `MapCoords` (OldUnreal's
//! `D3D8drv`, `BufferStaticComplexSurfaceGeometry`, `SetTexture`); the renderer that fills
//! `UPan` (`Render.dll`) is not public, but dpjudas/SurrealEngine, which draws the UE1 games'
//! maps through the same render-device interface, hands it `Pan = -PanU`
//! (`RenderSubsystem::UpdateTextureInfo`), and `blender_t3d`'s importer (`convert_uv`) adds the
//! pans too. UE2 polygons have no pans: UT2004's T3D import folds a `Pan U= V=` line into the
//! base (`Poly.Base += Poly.TextureU * PanU`, `Editor/Src/UnEdFact.cpp`), which with unit axes
//! shifts by the pan the other way ([`folded_as_ue2`]); its pan tool also moves the base
//! (`polyTexPan`, `UnEdCsg.cpp`).
//!
//! The texture's size (`USize`, `VSize`) comes from its package; without it
//! [`DEFAULT_TEXTURE_SIZE`] is used.

use super::bsp::{dot, sub};
use super::{TextureMapping, V3};

/// The size assumed for a texture whose package is not at hand: 256 texels, the size of most
/// UE1 wall textures (and what `blender_t3d` assumes for every texture). The engine itself would
/// draw its default texture instead.
pub const DEFAULT_TEXTURE_SIZE: [f64; 2] = [256.0, 256.0];

/// The texel (`u`, `v`) at `point` under `mapping`, before dividing by the texture's size.
pub fn texel(point: V3, mapping: &TextureMapping) -> [f64; 2] {
    let d = sub(point, mapping.base);
    [
        dot(d, mapping.texture_u) + f64::from(mapping.pan[0]),
        dot(d, mapping.texture_v) + f64::from(mapping.pan[1]),
    ]
}

/// The texture coordinate at `point` for a texture of `size` (`USize`, `VSize`; a zero size
/// counts as [`DEFAULT_TEXTURE_SIZE`]).
pub fn uv(point: V3, mapping: &TextureMapping, size: [f64; 2]) -> [f64; 2] {
    let [u, v] = texel(point, mapping);
    let size_or_default = |s: f64, d: f64| if s.is_finite() && s > 0.0 { s } else { d };
    [
        u / size_or_default(size[0], DEFAULT_TEXTURE_SIZE[0]),
        v / size_or_default(size[1], DEFAULT_TEXTURE_SIZE[1]),
    ]
}

/// The mapping UT2004's T3D import makes of a UE1 polygon with pans: the pans folded into the
/// base (`Base += TextureU * PanU + TextureV * PanV`), none left.
pub fn folded_as_ue2(mapping: &TextureMapping) -> TextureMapping {
    let [pu, pv] = mapping.pan.map(f64::from);
    let b = mapping.base;
    let (tu, tv) = (mapping.texture_u, mapping.texture_v);
    TextureMapping {
        base: [0, 1, 2].map(|k| b[k] + tu[k] * pu + tv[k] * pv),
        pan: [0, 0],
        ..*mapping
    }
}

/// The texture axes `FPoly::Finalize` makes for a polygon that has none: for the first vertex
/// `i` that gives them, `TextureU = ((V0 - Vi) x Normal)` normalized, `TextureV = Normal x
/// TextureU` (UT2004's `Engine/Src/UnFPoly.cpp`; UE1's is the same).
pub fn generated_axes(vertices: &[V3]) -> Option<(V3, V3)> {
    use super::bsp::{calc_normal, cross, scale};
    let normal = calc_normal(vertices)?;
    let first = *vertices.first()?;
    let unit = |v: V3| {
        let len = dot(v, v).sqrt();
        (len > 0.0).then(|| scale(v, 1.0 / len))
    };
    vertices.iter().skip(1).find_map(|&vi| {
        let u = unit(cross(sub(first, vi), normal))?;
        let v = unit(cross(normal, u))?;
        Some((u, v))
    })
}

#[cfg(test)]
mod tests {
    use super::{folded_as_ue2, texel, uv, DEFAULT_TEXTURE_SIZE};
    use crate::csg::TextureMapping;

    fn close(a: [f64; 2], b: [f64; 2]) -> bool {
        (a[0] - b[0]).abs() < 1e-9 && (a[1] - b[1]).abs() < 1e-9
    }

    /// Hand-computed cases: a floor with UnrealEd's default axes, a wall, a scaled and a
    /// panned texture.
    #[test]
    fn texture_coordinates_by_hand() {
        // A floor at z = 0: TextureU = +X, TextureV = -Y (UnrealEd's floor alignment),
        // base at the origin, a 128 x 64 texture.
        let floor = TextureMapping {
            base: [0.0, 0.0, 0.0],
            texture_u: [1.0, 0.0, 0.0],
            texture_v: [0.0, -1.0, 0.0],
            pan: [0, 0],
        };
        assert!(close(uv([0.0, 0.0, 0.0], &floor, [128.0, 64.0]), [0.0, 0.0]));
        // x = 128: one texture across; y = -32: half a texture down.
        assert!(close(uv([128.0, -32.0, 0.0], &floor, [128.0, 64.0]), [1.0, 0.5]));
        // A wall at x = 256 facing -X: U along +Y, V down (-Z), base at (256, 0, 128).
        let wall = TextureMapping {
            base: [256.0, 0.0, 128.0],
            texture_u: [0.0, 1.0, 0.0],
            texture_v: [0.0, 0.0, -1.0],
            pan: [0, 0],
        };
        // (256, 64, 0) - base = (0, 64, -128): u = 64, v = 128.
        assert!(close(texel([256.0, 64.0, 0.0], &wall), [64.0, 128.0]));
        assert!(close(uv([256.0, 64.0, 0.0], &wall, [256.0, 256.0]), [0.25, 0.5]));
        // Scaled 0.5 (TextureU of length 2): twice the texels per unit.
        let scaled = TextureMapping { texture_u: [2.0, 0.0, 0.0], ..floor };
        assert!(close(uv([32.0, 0.0, 0.0], &scaled, [64.0, 64.0]), [1.0, 0.0]));
        // Panned by U=16 V=8: added in texels.
        let panned = TextureMapping { pan: [16, 8], ..floor };
        assert!(close(texel([10.0, -2.0, 0.0], &panned), [26.0, 10.0]));
        assert!(close(uv([10.0, -2.0, 0.0], &panned, [64.0, 32.0]), [26.0 / 64.0, 10.0 / 32.0]));
        // No size known: 256.
        assert!(close(uv([64.0, 0.0, 0.0], &floor, [0.0, 0.0]), [0.25, 0.0]));
        assert!(close(DEFAULT_TEXTURE_SIZE, [256.0, 256.0]));
        // A base off the origin: (300, 10, 0) - (100, 20, 0) = (200, -10, 0): u 200, v 10.
        let moved = TextureMapping { base: [100.0, 20.0, 0.0], ..floor };
        assert!(close(texel([300.0, 10.0, 0.0], &moved), [200.0, 10.0]));
    }

    /// UT2004's import of a panned polygon moves the base by the pans along the axes: with
    /// unit axes, each texel of pan becomes one texel the other way.
    #[test]
    fn ue2_folds_pans_into_the_base() {
        let m = TextureMapping {
            base: [0.0, 0.0, 0.0],
            texture_u: [1.0, 0.0, 0.0],
            texture_v: [0.0, 0.0, -1.0],
            pan: [16, 8],
        };
        let f = folded_as_ue2(&m);
        assert_eq!(f.pan, [0, 0]);
        assert!(f.base.iter().zip([16.0, 0.0, -8.0]).all(|(a, b)| (a - b).abs() < 1e-9));
        assert!(close(texel([16.0, 0.0, -8.0], &f), [0.0, 0.0]));
        assert!(close(texel([0.0, 0.0, 0.0], &f), [-16.0, -8.0]));
    }
}
