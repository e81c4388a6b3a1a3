//! One exportable shape for every mesh source, already in glTF's axes: the glTF and OBJ
//! writers and the thumbnail renderer all read a [`Model`].
//!
//! Coordinates: Unreal is left-handed with X forward, Y right and Z up; glTF is right-handed
//! with Y up, +Z forward and -X right. A point `(x, y, z)` becomes `(-y, z, x)`: forward
//! stays forward, up stays up, right stays right, and units are kept (1 glTF unit = 1 Unreal
//! unit). The map is a reflection (determinant -1), so triangle winding flips: every
//! triangle's corners are reversed to stay front-facing, and a rotation quaternion
//! `(x, y, z, w)` becomes `(y, -z, -x, w)`.

use unreal_formats::decode::mesh::AnimatedMesh;
use unreal_formats::decode::skeletal::AnimKey;
use unreal_formats::decode::ue2_static_mesh::StaticMeshUe2;
use unreal_formats::decode::RgbaImage;
use unreal_formats::psk::{Psa, Psk};

/// An Unreal point in glTF axes.
pub fn point_to_gltf(p: [f32; 3]) -> [f32; 3] {
    // `0.0 - y` rather than `-y`: no negative zeros in the output.
    [0.0 - p[1], p[2], p[0]]
}

/// An Unreal rotation quaternion `(x, y, z, w)` in glTF axes.
pub fn quat_to_gltf(q: [f32; 4]) -> [f32; 4] {
    [q[1], -q[2], -q[0], q[3]]
}

#[derive(Debug, Clone, PartialEq)]
pub struct Model {
    pub name: String,
    /// Base pose (frame 0 or the reference pose), glTF axes.
    pub positions: Vec<[f32; 3]>,
    /// Per vertex, 0..1 with v down (glTF's convention, and Unreal's).
    pub uvs: Option<Vec<[f32; 2]>>,
    /// Triangles per material, counter-clockwise seen from the front (glTF).
    pub primitives: Vec<Primitive>,
    pub materials: Vec<Material>,
    /// Vertex animation: one displacement per vertex per target.
    pub morph_targets: Vec<MorphTarget>,
    pub morph_animations: Vec<MorphAnimation>,
    pub skin: Option<Skin>,
    pub skeletal_animations: Vec<SkeletalAnimation>,
    /// What the export could not carry over, for the user (a PSA whose bones the PSK does
    /// not have).
    pub notes: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Primitive {
    pub material: usize,
    pub triangles: Vec<[u32; 3]>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Material {
    pub name: String,
    pub texture: Option<RgbaImage>,
    pub double_sided: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub struct MorphTarget {
    pub name: String,
    pub displacements: Vec<[f32; 3]>,
}

/// A sequence of frames played as morph-target weights: key `i` at `times[i]` shows target
/// `targets[i]` alone.
#[derive(Debug, Clone, PartialEq)]
pub struct MorphAnimation {
    pub name: String,
    pub times: Vec<f32>,
    pub targets: Vec<usize>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Bone {
    pub name: String,
    pub parent: Option<usize>,
    /// Local transform relative to the parent, glTF axes.
    pub translation: [f32; 3],
    pub rotation: [f32; 4],
}

#[derive(Debug, Clone, PartialEq)]
pub struct Skin {
    pub bones: Vec<Bone>,
    /// Per vertex: up to four bones and their weights (summing to 1).
    pub joints: Vec<[u16; 4]>,
    pub weights: Vec<[f32; 4]>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct SkeletalAnimation {
    pub name: String,
    pub times: Vec<f32>,
    /// Per animated bone: its index and one translation and rotation per time.
    pub tracks: Vec<BoneTrack>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct BoneTrack {
    pub bone: usize,
    pub translations: Vec<[f32; 3]>,
    pub rotations: Vec<[f32; 4]>,
}

/// A named run of frames, from a package mesh or a `#exec MESH SEQUENCE` line.
#[derive(Debug, Clone, PartialEq)]
pub struct FrameSequence {
    pub name: String,
    pub start_frame: usize,
    pub frames: usize,
    /// Frames per second.
    pub rate: f32,
}

/// UV bytes (0..=255 across the texture) to glTF's 0..1.
fn reversed(t: [u32; 3]) -> [u32; 3] {
    [t[0], t[2], t[1]]
}

/// The most morph weights an animation may carry. glTF animates morph targets through one
/// weight per target at every key, so an animation that plays each of N frames as its own
/// target holds N x N weights: a u3d of 32,767 frames made a billion of them (4 GB, minutes).
pub const MAX_MORPH_WEIGHTS: usize = 16_000_000;

impl Model {
    /// Leaves out the morph animations that would hold more than [`MAX_MORPH_WEIGHTS`]
    /// weights, each with a note saying so; the frames stay as morph targets.
    pub fn limit_morph_animations(&mut self) {
        let targets = self.morph_targets.len();
        let (kept, dropped): (Vec<MorphAnimation>, Vec<MorphAnimation>) =
            std::mem::take(&mut self.morph_animations)
                .into_iter()
                .partition(|a| a.times.len().saturating_mul(targets) <= MAX_MORPH_WEIGHTS);
        self.morph_animations = kept;
        for animation in dropped {
            self.notes.push(format!(
                "animation `{}` left out: {} keys of {targets} morph targets would take {} \
                 weights, more than {MAX_MORPH_WEIGHTS}; the frames are kept as morph targets",
                animation.name,
                animation.times.len(),
                animation.times.len().saturating_mul(targets)
            ));
        }
    }

    /// The model without its morph targets and their animations: its positions (a vertex
    /// mesh's first frame) standing still.
    pub fn still(mut self) -> Self {
        self.morph_targets.clear();
        self.morph_animations.clear();
        self
    }

    pub fn triangle_count(&self) -> usize {
        self.primitives.iter().map(|p| p.triangles.len()).sum()
    }

    /// A vertex-animated mesh: one glTF vertex per distinct (vertex, UV) corner, frame 0 as
    /// the base, every frame as a morph target (frame 0's is all zeros, so that target `i`
    /// is frame `i`), and one animation per sequence (the whole range as one when none is
    /// given). `textures` are by material index of `mesh`.
    pub fn from_animated_mesh(
        name: &str,
        mesh: &AnimatedMesh,
        sequences: &[FrameSequence],
        textures: &[Option<RgbaImage>],
    ) -> Self {
        // A corner is a vertex with its coordinates (by their bits: equal floats, one corner).
        let mut corners: Vec<(u32, [f32; 2])> = Vec::new();
        let mut lookup = std::collections::HashMap::new();
        let mut primitives: Vec<Primitive> = (0..mesh.materials.len())
            .map(|material| Primitive { material, triangles: Vec::new() })
            .collect();
        for face in &mesh.faces {
            let mut tri = [0u32; 3];
            for (k, slot) in tri.iter_mut().enumerate() {
                let corner = (face.vertices[k], face.uvs[k]);
                let key = (corner.0, corner.1.map(f32::to_bits));
                *slot = *lookup.entry(key).or_insert_with(|| {
                    corners.push(corner);
                    (corners.len() - 1) as u32
                });
            }
            if let Some(p) = primitives.get_mut(face.material) {
                p.triangles.push(reversed(tri));
            }
        }
        primitives.retain(|p| !p.triangles.is_empty());
        let frame_positions = |f: usize| -> Vec<[f32; 3]> {
            let frame = mesh.frame(f).unwrap_or_default();
            corners
                .iter()
                .map(|&(v, _)| point_to_gltf(frame.get(v as usize).copied().unwrap_or_default()))
                .collect()
        };
        let positions = frame_positions(0);
        let morph_targets = (0..mesh.frames)
            .map(|f| MorphTarget {
                name: format!("frame{f}"),
                displacements: frame_positions(f)
                    .iter()
                    .zip(&positions)
                    .map(|(p, b)| [p[0] - b[0], p[1] - b[1], p[2] - b[2]])
                    .collect(),
            })
            .collect();
        let whole = [FrameSequence {
            name: "All".to_owned(),
            start_frame: 0,
            frames: mesh.frames,
            rate: 30.0,
        }];
        let sequences = if sequences.is_empty() { &whole[..] } else { sequences };
        let morph_animations = sequences
            .iter()
            .filter_map(|s| {
                let last = mesh.frames.checked_sub(1)?;
                let start = s.start_frame.min(last);
                let frames = s.frames.clamp(1, mesh.frames - start);
                let rate = if s.rate.is_finite() && s.rate > 0.0 { s.rate } else { 30.0 };
                Some(MorphAnimation {
                    name: s.name.clone(),
                    times: (0..frames).map(|i| i as f32 / rate).collect(),
                    targets: (start..start + frames).collect(),
                })
            })
            .collect();
        let materials = mesh
            .materials
            .iter()
            .enumerate()
            .map(|(i, m)| Material {
                name: format!("Skin{}", m.slot),
                texture: textures.get(i).cloned().flatten(),
                double_sided: mesh.faces.iter().any(|f| f.material == i && f.two_sided),
            })
            .collect();
        let mut model = Self {
            name: name.to_owned(),
            positions,
            uvs: Some(corners.iter().map(|&(_, t)| t).collect()),
            primitives,
            materials,
            morph_targets,
            morph_animations,
            skin: None,
            skeletal_animations: Vec::new(),
            notes: Vec::new(),
        };
        model.limit_morph_animations();
        model
    }

    /// An ActorX skeletal mesh in its reference pose: one glTF vertex per wedge, a skin
    /// whose joints are the PSK bones, and the PSA's sequences (bones matched by name) as
    /// animations. `textures` are by PSK material index.
    ///
    /// ActorX stores every bone's rotation but the root's conjugated (inverted); both PSK
    /// bones and PSA keys are read that way.
    pub fn from_psk(
        name: &str,
        psk: &Psk,
        animation: Option<(&Psa, &[AnimKey])>,
        textures: &[Option<RgbaImage>],
    ) -> Self {
        let positions: Vec<[f32; 3]> = psk
            .wedges
            .iter()
            .map(|w| point_to_gltf(psk.points.get(w.point as usize).copied().unwrap_or_default()))
            .collect();
        let uvs = psk.wedges.iter().map(|w| [w.u, w.v]).collect();
        let material_count = psk.materials.len().max(1);
        let mut primitives: Vec<Primitive> = (0..material_count)
            .map(|material| Primitive { material, triangles: Vec::new() })
            .collect();
        for face in &psk.faces {
            let m = usize::from(face.material).min(material_count - 1);
            if face.wedges.iter().all(|&w| (w as usize) < positions.len()) {
                if let Some(p) = primitives.get_mut(m) {
                    p.triangles.push(reversed(face.wedges));
                }
            }
        }
        primitives.retain(|p| !p.triangles.is_empty());
        let materials = (0..material_count)
            .map(|i| Material {
                name: psk.materials.get(i).map_or_else(|| "Default".to_owned(), |m| m.name.clone()),
                texture: textures.get(i).cloned().flatten(),
                double_sided: false,
            })
            .collect();
        let bones: Vec<Bone> = psk
            .bones
            .iter()
            .enumerate()
            .map(|(i, b)| bone(i, b.parent, psk.bones.len(), b.rotation, b.position, &b.name))
            .collect();
        let skin = (!bones.is_empty()).then(|| {
            let mut per_point: Vec<Vec<(u16, f32)>> = vec![Vec::new(); psk.points.len()];
            for w in &psk.weights {
                if let Some(list) = per_point.get_mut(w.point as usize) {
                    if (w.bone as usize) < bones.len() && w.weight > 0.0 {
                        match list.iter_mut().find(|(b, _)| u32::from(*b) == w.bone) {
                            Some(entry) => entry.1 += w.weight,
                            None => list.push((w.bone as u16, w.weight)),
                        }
                    }
                }
            }
            let influence = |point: u32| -> ([u16; 4], [f32; 4]) {
                let mut list = per_point.get(point as usize).cloned().unwrap_or_default();
                list.sort_by(|a, b| b.1.total_cmp(&a.1));
                list.truncate(4);
                let total: f32 = list.iter().map(|e| e.1).sum();
                if list.is_empty() || total <= 0.0 {
                    // Unweighted points follow the root, as the engine binds them.
                    return ([0; 4], [1.0, 0.0, 0.0, 0.0]);
                }
                let mut joints = [0u16; 4];
                let mut weights = [0f32; 4];
                for (k, (b, w)) in list.iter().enumerate() {
                    joints[k] = *b;
                    weights[k] = w / total;
                }
                (joints, weights)
            };
            let (joints, weights) = psk.wedges.iter().map(|w| influence(w.point)).unzip();
            Skin { bones: bones.clone(), joints, weights }
        });
        let mut notes = Vec::new();
        let skeletal_animations = match (animation, &skin) {
            (Some((psa, keys)), Some(_)) => {
                if let Some(note) = unmatched_bones(psa, &bones) {
                    notes.push(note);
                }
                psa_animations(psa, keys, &bones)
            }
            _ => Vec::new(),
        };
        Self {
            name: name.to_owned(),
            positions,
            uvs: Some(uvs),
            primitives,
            materials,
            morph_targets: Vec::new(),
            morph_animations: Vec::new(),
            skin,
            skeletal_animations,
            notes,
        }
    }

    /// A UE2 static mesh: one glTF vertex per mesh vertex, the first UV set, one primitive per
    /// section (its material's name, the section's index when the mesh names none).
    /// `textures` are by material index.
    pub fn from_static_mesh(
        name: &str,
        mesh: &StaticMeshUe2,
        textures: &[Option<RgbaImage>],
    ) -> Self {
        let material_count = mesh.materials.len().max(mesh.sections.len()).max(1);
        let mut primitives: Vec<Primitive> = (0..material_count)
            .map(|material| Primitive { material, triangles: Vec::new() })
            .collect();
        for section in &mesh.sections {
            let m = section.material.min(material_count - 1);
            if let Some(p) = primitives.get_mut(m) {
                p.triangles.extend(mesh.section_triangles(section).into_iter().map(reversed));
            }
        }
        primitives.retain(|p| !p.triangles.is_empty());
        let materials = (0..material_count)
            .map(|i| Material {
                name: mesh
                    .material_names
                    .get(i)
                    .filter(|n| !n.is_empty())
                    .cloned()
                    .unwrap_or_else(|| format!("Section{i}")),
                texture: textures.get(i).cloned().flatten(),
                double_sided: false,
            })
            .collect();
        Self {
            name: name.to_owned(),
            positions: mesh.positions.iter().map(|&p| point_to_gltf(p)).collect(),
            uvs: mesh.uv_sets.first().cloned(),
            primitives,
            materials,
            morph_targets: Vec::new(),
            morph_animations: Vec::new(),
            skin: None,
            skeletal_animations: Vec::new(),
            notes: Vec::new(),
        }
    }

    /// Polygons (each a loop of Unreal points, UnrealEd's order) as a fan of triangles each,
    /// one material.
    pub fn from_polygons(name: &str, polygons: &[Vec<[f32; 3]>]) -> Self {
        let mut positions = Vec::new();
        let mut triangles = Vec::new();
        for poly in polygons.iter().filter(|p| p.len() >= 3) {
            let base = positions.len() as u32;
            positions.extend(poly.iter().map(|&p| point_to_gltf(p)));
            for i in 1..poly.len() as u32 - 1 {
                triangles.push(reversed([base, base + i, base + i + 1]));
            }
        }
        Self {
            name: name.to_owned(),
            positions,
            uvs: None,
            primitives: vec![Primitive { material: 0, triangles }],
            materials: vec![Material {
                name: "Brush".to_owned(),
                texture: None,
                double_sided: false,
            }],
            morph_targets: Vec::new(),
            morph_animations: Vec::new(),
            skin: None,
            skeletal_animations: Vec::new(),
            notes: Vec::new(),
        }
    }
}

/// A PSK/PSA bone: a root (its own parent, or out of range) keeps its rotation, the others
/// are conjugated (ActorX's convention).
fn bone(
    index: usize,
    parent: i32,
    count: usize,
    rotation: [f32; 4],
    position: [f32; 3],
    name: &str,
) -> Bone {
    let parent = usize::try_from(parent).ok().filter(|&p| p < count && p != index && p < index);
    let q = if parent.is_some() {
        [-rotation[0], -rotation[1], -rotation[2], rotation[3]]
    } else {
        rotation
    };
    Bone {
        name: name.to_owned(),
        parent,
        translation: point_to_gltf(position),
        rotation: normalized(quat_to_gltf(q)),
    }
}

fn normalized(q: [f32; 4]) -> [f32; 4] {
    let len = (q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]).sqrt();
    if len.is_finite() && len > 1e-6 {
        [q[0] / len, q[1] / len, q[2] / len, q[3] / len]
    } else {
        [0.0, 0.0, 0.0, 1.0]
    }
}

/// Says which PSA bones the PSK has no bone for (their keys are left out, as a skin cannot
/// move a bone it does not have); `None` when every bone matches.
fn unmatched_bones(psa: &Psa, bones: &[Bone]) -> Option<String> {
    let missing: Vec<&str> = psa
        .bones
        .iter()
        .map(|b| b.name.trim_end_matches('\0').trim())
        .filter(|name| {
            !bones.iter().any(|b| b.name.trim_end_matches('\0').trim().eq_ignore_ascii_case(name))
        })
        .collect();
    if missing.is_empty() {
        return None;
    }
    let shown: Vec<String> = missing.iter().take(8).map(|n| format!("`{n}`")).collect();
    let more =
        if missing.len() > 8 { format!(" and {} more", missing.len() - 8) } else { String::new() };
    Some(if missing.len() == psa.bones.len() {
        format!(
            "the PSA's {} bones match none of the PSK's ({}{more}): no animation was exported",
            psa.bones.len(),
            shown.join(", ")
        )
    } else {
        format!(
            "{} of the PSA's {} bones are not in the PSK ({}{more}): their keys were left out",
            missing.len(),
            psa.bones.len(),
            shown.join(", ")
        )
    })
}

/// PSA keys are stored sequence by sequence, frame by frame, bone by bone.
fn psa_animations(psa: &Psa, keys: &[AnimKey], bones: &[Bone]) -> Vec<SkeletalAnimation> {
    let psa_bones = psa.bones.len();
    let mut out = Vec::new();
    let mut first_key = 0usize;
    for seq in &psa.sequences {
        let frames = seq.frames.max(0) as usize;
        let rate = if seq.rate.is_finite() && seq.rate > 0.0 { seq.rate } else { 30.0 };
        let start = first_key;
        first_key += frames * psa_bones;
        if frames == 0 {
            continue;
        }
        let mut tracks = Vec::new();
        for (pb, psa_bone) in psa.bones.iter().enumerate() {
            let Some(target) =
                bones.iter().position(|b| b.name.eq_ignore_ascii_case(&psa_bone.name))
            else {
                continue;
            };
            let mut translations = Vec::with_capacity(frames);
            let mut rotations = Vec::with_capacity(frames);
            for f in 0..frames {
                let Some(key) = keys.get(start + f * psa_bones + pb) else { break };
                let b = bone(pb, psa_bone.parent, psa_bones, key.rotation, key.position, "");
                translations.push(b.translation);
                rotations.push(b.rotation);
            }
            if translations.len() == frames {
                tracks.push(BoneTrack { bone: target, translations, rotations });
            }
        }
        if !tracks.is_empty() {
            out.push(SkeletalAnimation {
                name: seq.name.trim_end_matches('\0').to_owned(),
                times: (0..frames).map(|i| i as f32 / rate).collect(),
                tracks,
            });
        }
    }
    out
}
