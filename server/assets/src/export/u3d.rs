//! Ultimate 3D (`.u3d` v1.0) models as a [`Model`].
//!
//! Axes: Ultimate 3D is left-handed with x right, y up and z into the screen (forward), so a
//! u3d point `(x, y, z)` is the Unreal point `(z, x, y)` (forward, right, up) and, through
//! [`point_to_gltf`], the glTF point `(-x, y, z)`. Rotations follow the same map: a u3d
//! quaternion `(x, y, z, w)` is the Unreal quaternion `(z, x, y, w)`.
//!
//! What is exported: the first frame's meshes of the highest LOD. Without bones, every frame
//! becomes a morph target (frame meshes matched by their rank among the frame's meshes of the
//! same LOD) played by one animation at 30 frames per second. With bones, the skeleton
//! becomes a glTF skin posed by the keys at frame 0, and the keys of every bone sampled at
//! every keyed frame become one animation: skinned vertices keep their weights, meshes
//! appended to a bone without skin weights follow that bone alone. The rest pose applies
//! the scaling keys; the animation carries translations and rotations only (glTF joints
//! here have no scale). `BoneFrame` and `PassOnBoneFrame` (per-bone frame overrides) are
//! not applied.

use std::collections::HashMap;

use unreal_formats::decode::RgbaImage;
use unreal_formats::u3d::{U3d, U3dBone, U3dKey};
use unreal_formats::{Error, Result};

use super::model::{
    point_to_gltf, quat_to_gltf, Bone, BoneTrack, Material, Model, MorphAnimation, MorphTarget,
    Primitive, SkeletalAnimation, Skin,
};

/// Frames per second of the exported animations: the format stores frame numbers only.
const FRAME_RATE: f32 = 30.0;
/// Above this many sampled bone keys (or frame displacements) the animation is left out:
/// the model still exports, in its first frame.
const MAX_SAMPLES: usize = 2_000_000;

/// A u3d point (x right, y up, z forward) in Unreal axes (x forward, y right, z up).
pub fn u3d_point_to_unreal(p: [f32; 3]) -> [f32; 3] {
    [p[2], p[0], p[1]]
}

/// A u3d rotation quaternion `(x, y, z, w)` in Unreal axes.
pub fn u3d_quat_to_unreal(q: [f32; 4]) -> [f32; 4] {
    [q[2], q[0], q[1], q[3]]
}

fn to_gltf(p: [f32; 3]) -> [f32; 3] {
    point_to_gltf(u3d_point_to_unreal(p))
}

/// Column-vector affine transform, row-major `m[row][col]`.
type Mat = [[f32; 4]; 4];

const IDENTITY: Mat =
    [[1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0], [0.0, 0.0, 0.0, 1.0]];

fn mul(a: &Mat, b: &Mat) -> Mat {
    let mut out = [[0f32; 4]; 4];
    for (r, row) in out.iter_mut().enumerate() {
        for (c, cell) in row.iter_mut().enumerate() {
            *cell = (0..4).map(|k| a[r][k] * b[k][c]).sum();
        }
    }
    out
}

fn apply(m: &Mat, p: [f32; 3]) -> [f32; 3] {
    let mut out = [0f32; 3];
    for (r, o) in out.iter_mut().enumerate() {
        *o = m[r][0] * p[0] + m[r][1] * p[1] + m[r][2] * p[2] + m[r][3];
    }
    out
}

/// `T * R * S`: what Direct3D's row-vector `S * R * T` does to a point.
fn trs(t: [f32; 3], q: [f32; 4], s: [f32; 3]) -> Mat {
    let [x, y, z, w] = q;
    let r = [
        [1.0 - 2.0 * (y * y + z * z), 2.0 * (x * y - z * w), 2.0 * (x * z + y * w)],
        [2.0 * (x * y + z * w), 1.0 - 2.0 * (x * x + z * z), 2.0 * (y * z - x * w)],
        [2.0 * (x * z - y * w), 2.0 * (y * z + x * w), 1.0 - 2.0 * (x * x + y * y)],
    ];
    let mut m = IDENTITY;
    for row in 0..3 {
        for col in 0..3 {
            m[row][col] = r[row][col] * s[col];
        }
        m[row][3] = t[row];
    }
    m
}

/// A stored mesh-to-bone matrix (row-vector layout, translation in the fourth row) as a
/// column-vector transform: its transpose.
fn mesh_transform(stored: &[f32; 16]) -> Mat {
    let mut m = IDENTITY;
    for (r, row) in m.iter_mut().enumerate() {
        for (c, cell) in row.iter_mut().enumerate() {
            *cell = stored[c * 4 + r];
        }
    }
    m
}

fn normalized(q: [f32; 4]) -> [f32; 4] {
    let len = q.iter().map(|c| c * c).sum::<f32>().sqrt();
    if len.is_finite() && len > 1e-6 {
        q.map(|c| c / len)
    } else {
        [0.0, 0.0, 0.0, 1.0]
    }
}

/// The value at `frame`: the nearest key outside the keyed range, linear in between
/// (`mix` blends two values). `keys` are sorted by frame.
fn sample<T: Copy, const N: usize>(
    keys: &[U3dKey<[T; N]>],
    frame: f32,
    default: [T; N],
    mix: impl Fn([T; N], [T; N], f32) -> [T; N],
) -> [T; N] {
    let after = keys.partition_point(|k| f32::from(k.frame) <= frame);
    match (after.checked_sub(1).and_then(|i| keys.get(i)), keys.get(after)) {
        (None, None) => default,
        (Some(k), None) | (None, Some(k)) => k.value,
        (Some(a), Some(b)) => {
            let span = f32::from(b.frame) - f32::from(a.frame);
            mix(a.value, b.value, (frame - f32::from(a.frame)) / span)
        }
    }
}

fn lerp3(a: [f32; 3], b: [f32; 3], t: f32) -> [f32; 3] {
    [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t]
}

/// Normalised linear blend along the shorter arc.
fn nlerp(a: [f32; 4], b: [f32; 4], t: f32) -> [f32; 4] {
    let dot: f32 = a.iter().zip(&b).map(|(x, y)| x * y).sum();
    let sign = if dot < 0.0 { -1.0 } else { 1.0 };
    normalized([0, 1, 2, 3].map(|i| a[i] + (sign * b[i] - a[i]) * t))
}

fn sorted<T: Copy>(keys: &[U3dKey<T>]) -> Vec<U3dKey<T>> {
    let mut out = keys.to_vec();
    out.sort_by_key(|k| k.frame);
    out
}

/// One bone's keys, sorted, sampled in u3d axes.
struct BoneKeys {
    scaling: Vec<U3dKey<[f32; 3]>>,
    translation: Vec<U3dKey<[f32; 3]>>,
    rotation: Vec<U3dKey<[f32; 4]>>,
}

impl BoneKeys {
    fn new(bone: &U3dBone) -> Self {
        Self {
            scaling: sorted(&bone.scaling_keys),
            translation: sorted(&bone.translation_keys),
            rotation: sorted(&bone.rotation_keys),
        }
    }

    fn at(&self, frame: f32) -> ([f32; 3], [f32; 4], [f32; 3]) {
        (
            sample(&self.translation, frame, [0.0; 3], lerp3),
            normalized(sample(&self.rotation, frame, [0.0, 0.0, 0.0, 1.0], nlerp)),
            sample(&self.scaling, frame, [1.0; 3], lerp3),
        )
    }
}

/// Bones ordered parents first (a glTF skeleton is a forest). A bone whose parent chain
/// loops becomes a root.
fn parents_first(bones: &[U3dBone]) -> (Vec<usize>, Vec<Option<usize>>) {
    let n = bones.len();
    let parent = |i: usize| bones.get(i)?.parent.map(usize::from).filter(|&p| p < n && p != i);
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); n];
    for i in 0..n {
        if let Some(p) = parent(i) {
            children[p].push(i);
        }
    }
    let mut order = Vec::with_capacity(n);
    let mut seen = vec![false; n];
    let mut new_parent: Vec<Option<usize>> = vec![None; n];
    let starts: Vec<usize> = (0..n).filter(|&i| parent(i).is_none()).chain(0..n).collect();
    for start in starts {
        if seen[start] {
            continue;
        }
        seen[start] = true;
        let mut stack = vec![start];
        while let Some(b) = stack.pop() {
            order.push(b);
            for &c in children[b].iter().rev() {
                if !seen[c] {
                    seen[c] = true;
                    new_parent[c] = Some(b);
                    stack.push(c);
                }
            }
        }
    }
    (order, new_parent)
}

/// The first frame's meshes of the highest LOD, in file order.
fn base_meshes(u3d: &U3d) -> Vec<usize> {
    let Some(first) = u3d.meshes.iter().map(|m| m.frame).min() else { return Vec::new() };
    let top = u3d.meshes.iter().map(|m| m.lod).filter(|l| l.is_finite()).fold(f32::MIN, f32::max);
    let pick = |strict: bool| -> Vec<usize> {
        (0..u3d.meshes.len())
            .filter(|&i| {
                let m = &u3d.meshes[i];
                m.frame == first && (!strict || m.lod.to_bits() == top.to_bits())
            })
            .collect()
    };
    let strict = pick(true);
    if strict.is_empty() {
        pick(false)
    } else {
        strict
    }
}

/// Meshes by (frame, LOD bits), in file order: the mesh of a frame that stands where a
/// first-frame mesh stands has the same rank in its list.
fn meshes_by_frame(u3d: &U3d) -> HashMap<(u16, u32), Vec<usize>> {
    let mut out: HashMap<(u16, u32), Vec<usize>> = HashMap::new();
    for (i, m) in u3d.meshes.iter().enumerate() {
        out.entry((m.frame, m.lod.to_bits())).or_default().push(i);
    }
    out
}

/// An Ultimate 3D model; `textures` by material index (the files its materials name are
/// the caller's to find and decode).
pub fn u3d_model(name: &str, bytes: &[u8], textures: &[Option<RgbaImage>]) -> Result<Model> {
    let u3d = U3d::parse(bytes)?;
    let base = base_meshes(&u3d);
    let mut positions: Vec<[f32; 3]> = Vec::new();
    let mut uvs: Vec<[f32; 2]> = Vec::new();
    let mut primitives: Vec<Primitive> = (0..u3d.materials.len())
        .map(|material| Primitive { material, triangles: Vec::new() })
        .collect();
    // Per base mesh: its first glTF vertex.
    let mut firsts = Vec::with_capacity(base.len());
    for &i in &base {
        let mesh = &u3d.meshes[i];
        let first = positions.len();
        firsts.push(first);
        positions.extend(mesh.positions.iter().copied());
        let source = u3d.tex_coord_source(i);
        uvs.extend(
            (0..mesh.positions.len())
                .map(|v| source.and_then(|s| s.uv(v)).unwrap_or_default().map(finite)),
        );
        let (triangles, materials) = u3d.triangles_of(i);
        for (t, &m) in triangles.iter().zip(materials) {
            let corner = |k: usize| (first + usize::from(t[k])) as u32;
            if let Some(p) = primitives.get_mut(usize::from(m)) {
                // Direct3D's clockwise front faces, through a reflection: reversed.
                p.triangles.push([corner(0), corner(2), corner(1)]);
            }
        }
    }
    primitives.retain(|p| !p.triangles.is_empty());
    if primitives.is_empty() {
        return Err(Error::new(
            "u3d model",
            0,
            "at least one triangle in the first frame's meshes of the highest LOD",
        ));
    }
    let materials = u3d
        .materials
        .iter()
        .enumerate()
        .map(|(i, m)| Material {
            name: m.name.clone(),
            texture: textures.get(i).cloned().flatten(),
            double_sided: false,
        })
        .collect();
    let mut model = Model {
        name: name.to_owned(),
        positions: Vec::new(),
        uvs: Some(uvs),
        primitives,
        materials,
        morph_targets: Vec::new(),
        morph_animations: Vec::new(),
        skin: None,
        skeletal_animations: Vec::new(),
        notes: Vec::new(),
    };
    if u3d.bones.is_empty() {
        model.positions = positions.iter().map(|&p| to_gltf(p)).collect();
        frame_animation(&u3d, &base, &firsts, &mut model);
        model.limit_morph_animations();
    } else {
        skeleton(&u3d, &base, &mut positions, &mut model);
        model.positions = positions.iter().map(|&p| to_gltf(p)).collect();
    }
    Ok(model)
}

/// One entry per bone (glTF rejects a joint listed twice), the four heaviest.
fn merged(influences: Vec<(usize, f32)>) -> Vec<(usize, f32)> {
    let mut out: Vec<(usize, f32)> = Vec::with_capacity(influences.len());
    for (b, w) in influences {
        match out.iter_mut().find(|e| e.0 == b) {
            Some(e) => e.1 += w,
            None => out.push((b, w)),
        }
    }
    out.sort_by(|a, b| b.1.total_cmp(&a.1));
    out.truncate(4);
    out
}

fn finite(c: f32) -> f32 {
    if c.is_finite() {
        c
    } else {
        0.0
    }
}

/// Every frame as a morph target (target `i` is the `i`-th frame present), played in order.
fn frame_animation(u3d: &U3d, base: &[usize], firsts: &[usize], model: &mut Model) {
    let mut frames: Vec<u16> = u3d.meshes.iter().map(|m| m.frame).collect();
    frames.sort_unstable();
    frames.dedup();
    if frames.len() < 2 || frames.len().saturating_mul(model.positions.len()) > MAX_SAMPLES {
        return;
    }
    let groups = meshes_by_frame(u3d);
    // Each base mesh's rank among the first frame's meshes of its LOD.
    let ranks: Vec<(u32, usize)> = base
        .iter()
        .map(|&b| {
            let m = &u3d.meshes[b];
            let list = groups.get(&(m.frame, m.lod.to_bits()));
            (m.lod.to_bits(), list.and_then(|l| l.iter().position(|&i| i == b)).unwrap_or(0))
        })
        .collect();
    for &frame in &frames {
        let mut displacements = vec![[0f32; 3]; model.positions.len()];
        for ((&b, &first), &(lod, rank)) in base.iter().zip(firsts).zip(&ranks) {
            let Some(&m) = groups.get(&(frame, lod)).and_then(|l| l.get(rank)) else { continue };
            if u3d.meshes[m].vertices != u3d.meshes[b].vertices {
                continue;
            }
            for (v, p) in u3d.meshes[m].positions.iter().enumerate() {
                if let (Some(d), Some(base_p)) =
                    (displacements.get_mut(first + v), model.positions.get(first + v))
                {
                    let g = to_gltf(*p);
                    *d = [g[0] - base_p[0], g[1] - base_p[1], g[2] - base_p[2]].map(finite);
                }
            }
        }
        model.morph_targets.push(MorphTarget { name: format!("frame{frame}"), displacements });
    }
    model.morph_animations.push(MorphAnimation {
        name: "All".to_owned(),
        times: frames.iter().map(|&f| f32::from(f) / FRAME_RATE).collect(),
        targets: (0..frames.len()).collect(),
    });
}

/// The skin: rest-pose positions (in place, u3d axes), joints, weights and the animation.
fn skeleton(u3d: &U3d, base: &[usize], positions: &mut [[f32; 3]], model: &mut Model) {
    let (order, parent_of) = parents_first(&u3d.bones);
    let mut new_index = vec![0usize; u3d.bones.len()];
    for (k, &b) in order.iter().enumerate() {
        new_index[b] = k;
    }
    let keys: Vec<BoneKeys> = u3d.bones.iter().map(BoneKeys::new).collect();
    // Rest pose (frame 0), parents first so that every parent's world is known.
    let mut world = vec![IDENTITY; u3d.bones.len()];
    for &b in &order {
        let (t, q, s) = keys[b].at(0.0);
        let local = trs(t, q, s);
        world[b] = match parent_of[b] {
            Some(p) => mul(&world[p], &local),
            None => local,
        };
    }
    let to_bone_space = |bone: usize, mesh: usize| -> Mat {
        let b = &u3d.bones[bone];
        let stored = b.meshes.iter().position(|&m| usize::from(m) == mesh);
        stored.and_then(|j| b.mesh_transforms.get(j)).map_or(IDENTITY, mesh_transform)
    };
    let mut joints = Vec::with_capacity(positions.len());
    let mut weights = Vec::with_capacity(positions.len());
    let mut next = 0usize;
    for &i in base {
        let mesh = &u3d.meshes[i];
        let owner = (0..u3d.bones.len())
            .find(|&b| u3d.bones[b].meshes.iter().any(|&m| usize::from(m) == i));
        for v in 0..mesh.positions.len() {
            let p = mesh.positions[v];
            let mut influences: Vec<(usize, f32)> = match mesh.skin(v) {
                Some((indices, w)) => indices
                    .iter()
                    .zip(w)
                    .filter(|(b, w)| {
                        usize::from(**b) < u3d.bones.len() && w.is_finite() && *w > 0.0
                    })
                    .map(|(b, w)| (usize::from(*b), w))
                    .collect(),
                None => owner.map(|b| vec![(b, 1.0)]).unwrap_or_default(),
            };
            influences = merged(influences);
            let total: f32 = influences.iter().map(|e| e.1).sum();
            if influences.is_empty() || total <= 0.0 {
                // Unattached: stays where it is, on the first root.
                influences = vec![(order.first().copied().unwrap_or(0), 1.0)];
                if let Some(slot) = positions.get_mut(next) {
                    *slot = p;
                }
            } else {
                let mut posed = [0f32; 3];
                for &(b, w) in &influences {
                    let q = apply(&mul(&world[b], &to_bone_space(b, i)), p);
                    for k in 0..3 {
                        posed[k] += q[k] * w / total;
                    }
                }
                if let Some(slot) = positions.get_mut(next) {
                    *slot = posed;
                }
            }
            let mut j = [0u16; 4];
            let mut w = [0f32; 4];
            for (k, &(b, weight)) in influences.iter().enumerate() {
                j[k] = u16::try_from(new_index[b]).unwrap_or(0);
                w[k] = weight / total.max(f32::MIN_POSITIVE);
            }
            if influences.len() == 1 {
                w = [1.0, 0.0, 0.0, 0.0];
            }
            joints.push(j);
            weights.push(w);
            next += 1;
        }
    }
    let bones: Vec<Bone> = order
        .iter()
        .map(|&b| {
            let (t, q, _) = keys[b].at(0.0);
            Bone {
                name: u3d.bones[b].name.clone(),
                parent: parent_of[b].map(|p| new_index[p]),
                translation: to_gltf(t).map(finite),
                rotation: normalized(quat_to_gltf(u3d_quat_to_unreal(q))),
            }
        })
        .collect();
    let mut frames: Vec<u16> = keys
        .iter()
        .flat_map(|k| {
            k.translation.iter().map(|x| x.frame).chain(k.rotation.iter().map(|x| x.frame))
        })
        .collect();
    frames.sort_unstable();
    frames.dedup();
    if frames.len() >= 2 && frames.len().saturating_mul(order.len()) <= MAX_SAMPLES {
        let tracks = order
            .iter()
            .enumerate()
            .map(|(k, &b)| {
                let (translations, rotations) = frames
                    .iter()
                    .map(|&f| {
                        let (t, q, _) = keys[b].at(f32::from(f));
                        (to_gltf(t).map(finite), normalized(quat_to_gltf(u3d_quat_to_unreal(q))))
                    })
                    .unzip();
                BoneTrack { bone: k, translations, rotations }
            })
            .collect();
        model.skeletal_animations.push(SkeletalAnimation {
            name: "All".to_owned(),
            times: frames.iter().map(|&f| f32::from(f) / FRAME_RATE).collect(),
            tracks,
        });
    }
    model.skin = Some(Skin { bones, joints, weights });
}
