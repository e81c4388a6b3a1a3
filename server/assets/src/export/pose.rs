//! What a class's `#exec` lines set up for a vertex mesh besides its files: where it stands
//! and how big it is (`MESH ORIGIN`, `MESHMAP SCALE`), and `ZEROTEX=1` on `MESH IMPORT`.
//! Without them UT2004's krall and cow lie on their side, as the raw `_a.3d` has them.
//!
//! The engine draws a vertex mesh's vertex `V` (the file's raw integers, `FMeshVert` in
//! Engine/Inc/UnLodMesh.h) at `(V - Origin)` transformed by
//! `UnitCoords * RotOrigin * FScale(Scale)` (`UVertMeshInstance::GetMeshVerts`,
//! Engine/Src/UnVertMesh.cpp, with the actor's own location, rotation and draw scale left
//! out): the origin is taken off in the file's units, then the mesh is scaled, then turned.
//! `MESH ORIGIN` reads `X= Y= Z=` into `Origin` and `PITCH= YAW= ROLL=` times 256 into
//! `RotOrigin` (`GetFVECTOR`, `GetFROTATOR(Str, RotOrigin, 256)` in UnEdSrv.cpp); `MESHMAP
//! SCALE` (UE2 also `MESH SCALE`) reads `X= Y= Z=` into `Scale`, each component kept when not
//! given. `ZEROTEX=1` puts every triangle on texture slot 0 at import (`meshVertImport`).

use unreal_formats::decode::mesh::{AnimatedMesh, MeshMaterial};

use unreal_analysis::coords::{rotated, scaled, transform_vector, Scale, UNIT};

/// A vertex mesh's setup from its class's directives; [`MeshSetup::default`] changes nothing.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MeshSetup {
    /// `MESH ORIGIN X= Y= Z=`, in the file's units.
    pub origin: [f64; 3],
    /// `MESH ORIGIN PITCH= YAW= ROLL=`, already times 256 (rotator units).
    pub rotation: [i32; 3],
    /// `MESHMAP SCALE X= Y= Z=`.
    pub scale: [f64; 3],
    /// `MESH IMPORT ... ZEROTEX=1`.
    pub zero_tex: bool,
}

impl Default for MeshSetup {
    fn default() -> Self {
        Self { origin: [0.0; 3], rotation: [0; 3], scale: [1.0; 3], zero_tex: false }
    }
}

impl MeshSetup {
    /// True when the setup moves, turns or scales the mesh.
    pub fn poses(&self) -> bool {
        // Exact comparison on purpose: only values the directives set differ from these.
        #[allow(clippy::float_cmp)]
        let posed = self.origin != [0.0; 3] || self.scale != [1.0; 3];
        posed || self.rotation != [0; 3]
    }

    /// The mesh as the engine has it after import and draws it: every frame's vertices posed
    /// (in world units, from the file's raw integers: a decoded position times `raw_per_unit`,
    /// `[8, 8, 4]` for packed 11:11:10 vertices, `[1, 1, 1]` for Deus Ex's), and with
    /// `ZEROTEX=1` every face on slot 0.
    pub fn apply(&self, mesh: &mut AnimatedMesh, raw_per_unit: [f64; 3]) {
        if self.poses() {
            let axes = scaled(rotated(UNIT, self.rotation), &Scale::plain(self.scale));
            for p in &mut mesh.positions {
                let v = [
                    f64::from(p[0]) * raw_per_unit[0] - self.origin[0],
                    f64::from(p[1]) * raw_per_unit[1] - self.origin[1],
                    f64::from(p[2]) * raw_per_unit[2] - self.origin[2],
                ];
                *p = transform_vector(v, &axes).map(|c| c as f32);
            }
        }
        if self.zero_tex && !mesh.materials.is_empty() {
            mesh.materials = vec![MeshMaterial { slot: 0, texture: None }];
            for face in &mut mesh.faces {
                face.material = 0;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::MeshSetup;

    #[test]
    fn origin_then_scale_then_rotation() {
        use unreal_formats::decode::mesh::AnimatedMesh;
        let mut mesh = AnimatedMesh {
            vertices_per_frame: 1,
            frames: 1,
            positions: vec![[12.0, 0.0, 0.0]],
            faces: Vec::new(),
            materials: Vec::new(),
            sequences: Vec::new(),
        };
        // Origin 2 along X, scale 3, then a quarter turn of pitch: +X goes up to +Z.
        let setup = MeshSetup {
            origin: [2.0, 0.0, 0.0],
            rotation: [16384, 0, 0],
            scale: [3.0; 3],
            zero_tex: false,
        };
        setup.apply(&mut mesh, [1.0; 3]);
        let p = mesh.positions[0];
        assert!((p[0]).abs() < 1e-3 && (p[1]).abs() < 1e-3 && (p[2] - 30.0).abs() < 1e-3, "{p:?}");
    }
}
