//! Binary glTF 2.0 (`.glb`) from a [`Model`]: one mesh with a primitive per material, PNG
//! textures embedded, morph targets with one animation per frame sequence, or a skin with
//! joint nodes and skeletal animations. The JSON is built with `serde_json`; accessors carry
//! the `min`/`max` that the specification requires, bufferViews are 4-byte aligned.

use serde_json::{json, Value};

use super::model::{Model, Skin};
use super::png::{encode_png, encode_png_fast};

const ARRAY_BUFFER: u32 = 34962;
const ELEMENT_ARRAY_BUFFER: u32 = 34963;
const FLOAT: u32 = 5126;
const UNSIGNED_SHORT: u32 = 5123;
const UNSIGNED_INT: u32 = 5125;

/// A bufferView: where its bytes are in the binary chunk, and its target.
struct View {
    offset: usize,
    length: usize,
    target: Option<u32>,
}

/// An accessor over a bufferView.
struct Accessor {
    view: usize,
    component: u32,
    count: usize,
    kind: &'static str,
    min_max: Option<(Vec<f32>, Vec<f32>)>,
}

#[derive(Default)]
struct Builder {
    bin: Vec<u8>,
    views: Vec<View>,
    accessors: Vec<Accessor>,
}

impl Builder {
    fn view(&mut self, bytes: &[u8], target: Option<u32>) -> usize {
        while !self.bin.len().is_multiple_of(4) {
            self.bin.push(0);
        }
        self.views.push(View { offset: self.bin.len(), length: bytes.len(), target });
        self.bin.extend_from_slice(bytes);
        self.views.len() - 1
    }

    fn accessor(
        &mut self,
        view: usize,
        component: u32,
        count: usize,
        kind: &'static str,
        min_max: Option<(Vec<f32>, Vec<f32>)>,
    ) -> usize {
        self.accessors.push(Accessor { view, component, count, kind, min_max });
        self.accessors.len() - 1
    }

    /// The `bufferViews` array as JSON text, keys as `serde_json` orders them.
    fn write_views(&self, out: &mut String) {
        use std::fmt::Write as _;
        out.push('[');
        for (i, v) in self.views.iter().enumerate() {
            let comma = if i > 0 { "," } else { "" };
            let _ = write!(
                out,
                "{comma}{{\"buffer\":0,\"byteLength\":{},\"byteOffset\":{}",
                v.length, v.offset
            );
            if let Some(t) = v.target {
                let _ = write!(out, ",\"target\":{t}");
            }
            out.push('}');
        }
        out.push(']');
    }

    /// The `accessors` array as JSON text, keys as `serde_json` orders them.
    fn write_accessors(&self, out: &mut String) {
        use std::fmt::Write as _;
        out.push('[');
        for (i, a) in self.accessors.iter().enumerate() {
            let comma = if i > 0 { "," } else { "" };
            let _ = write!(
                out,
                "{comma}{{\"bufferView\":{},\"componentType\":{},\"count\":{}",
                a.view, a.component, a.count
            );
            if let Some((min, max)) = &a.min_max {
                let _ = write!(out, ",\"max\":{},\"min\":{}", json!(max), json!(min));
            }
            let _ = write!(out, ",\"type\":\"{}\"}}", a.kind);
        }
        out.push(']');
    }

    /// The `bufferViews` array.
    fn views_json(&self) -> Value {
        let views = self.views.iter().map(|v| {
            let mut view = json!({ "buffer": 0, "byteOffset": v.offset, "byteLength": v.length });
            if let Some(t) = v.target {
                view["target"] = json!(t);
            }
            view
        });
        Value::Array(views.collect())
    }

    /// The `accessors` array.
    fn accessors_json(&self) -> Value {
        let accessors = self.accessors.iter().map(|a| {
            let mut accessor = json!({ "bufferView": a.view, "componentType": a.component, "count": a.count, "type": a.kind });
            if let Some((min, max)) = &a.min_max {
                accessor["min"] = json!(min);
                accessor["max"] = json!(max);
            }
            accessor
        });
        Value::Array(accessors.collect())
    }

    /// Float vectors of `N` components, with their bounds when `bounds` is set.
    /// Triangles as an index accessor (`UNSIGNED_INT` scalars, three a triangle).
    fn triangles(&mut self, triangles: &[[u32; 3]]) -> usize {
        let indices: Vec<u8> = triangles.iter().flatten().flat_map(|i| i.to_le_bytes()).collect();
        let view = self.view(&indices, Some(ELEMENT_ARRAY_BUFFER));
        self.accessor(view, UNSIGNED_INT, triangles.len() * 3, "SCALAR", None)
    }

    fn floats<const N: usize>(
        &mut self,
        data: &[[f32; N]],
        target: Option<u32>,
        bounds: bool,
    ) -> usize {
        let bytes: Vec<u8> = data.iter().flatten().flat_map(|v| v.to_le_bytes()).collect();
        let view = self.view(&bytes, target);
        let min_max = bounds.then(|| {
            let mut min = vec![f32::INFINITY; N];
            let mut max = vec![f32::NEG_INFINITY; N];
            for v in data {
                for k in 0..N {
                    min[k] = min[k].min(v[k]);
                    max[k] = max[k].max(v[k]);
                }
            }
            (min, max)
        });
        let kind = match N {
            1 => "SCALAR",
            2 => "VEC2",
            3 => "VEC3",
            4 => "VEC4",
            _ => "MAT4",
        };
        self.accessor(view, FLOAT, data.len(), kind, min_max)
    }
}

/// Replaces non-finite coordinates (a broken file's NaN) with 0: glTF forbids them.
fn finite<const N: usize>(data: &[[f32; N]]) -> Vec<[f32; N]> {
    data.iter().map(|v| v.map(|c| if c.is_finite() { c } else { 0.0 })).collect()
}

/// The model as a `.glb` file.
pub fn write_glb(model: &Model) -> Vec<u8> {
    let mut b = Builder::default();
    let vertex_count = model.positions.len();
    let position = b.floats(&finite(&model.positions), Some(ARRAY_BUFFER), true);
    let texcoord = model
        .uvs
        .as_ref()
        .filter(|uvs| uvs.len() == vertex_count)
        .map(|uvs| b.floats(&finite(uvs), Some(ARRAY_BUFFER), false));
    let targets: Vec<usize> = model
        .morph_targets
        .iter()
        .filter(|t| t.displacements.len() == vertex_count)
        .map(|t| b.floats(&finite(&t.displacements), Some(ARRAY_BUFFER), true))
        .collect();
    let skin_attributes =
        model.skin.as_ref().filter(|s| s.joints.len() == vertex_count).map(|skin| {
            let joints: Vec<u8> =
                skin.joints.iter().flatten().flat_map(|j| j.to_le_bytes()).collect();
            let view = b.view(&joints, Some(ARRAY_BUFFER));
            let j = b.accessor(view, UNSIGNED_SHORT, vertex_count, "VEC4", None);
            let w = b.floats(&skin.weights, Some(ARRAY_BUFFER), false);
            (j, w)
        });

    // Textures: one PNG image per textured material.
    let mut textures = Textures::default();
    let materials: Vec<Value> = model
        .materials
        .iter()
        .map(|m| {
            let mut pbr = json!({ "metallicFactor": 0.0, "roughnessFactor": 1.0 });
            let mut material = json!({ "name": m.name, "doubleSided": m.double_sided });
            if let Some(texture) = &m.texture {
                pbr["baseColorTexture"] = json!({ "index": textures.embed(&mut b, texture) });
                if texture.pixels.chunks_exact(4).any(|p| p[3] < 255) {
                    material["alphaMode"] = json!("MASK");
                }
            }
            material["pbrMetallicRoughness"] = pbr;
            material
        })
        .collect();

    let primitives: Vec<Value> = model
        .primitives
        .iter()
        .filter(|p| !p.triangles.is_empty())
        .map(|p| {
            let idx = b.triangles(&p.triangles);
            let mut attributes = json!({ "POSITION": position });
            if let Some(t) = texcoord {
                attributes["TEXCOORD_0"] = json!(t);
            }
            if let Some((j, w)) = skin_attributes {
                attributes["JOINTS_0"] = json!(j);
                attributes["WEIGHTS_0"] = json!(w);
            }
            let mut prim = json!({ "attributes": attributes, "indices": idx, "mode": 4 });
            if p.material < materials.len() {
                prim["material"] = json!(p.material);
            }
            if !targets.is_empty() {
                prim["targets"] =
                    Value::Array(targets.iter().map(|&t| json!({ "POSITION": t })).collect());
            }
            prim
        })
        .collect();

    let mut mesh = json!({ "name": model.name, "primitives": primitives });
    if !targets.is_empty() {
        mesh["weights"] = json!(vec![0.0; targets.len()]);
        let names: Vec<&str> = model.morph_targets.iter().map(|t| t.name.as_str()).collect();
        mesh["extras"] = json!({ "targetNames": names });
    }

    let mut nodes = vec![json!({ "name": model.name, "mesh": 0 })];
    let mut scene_roots = vec![0];
    let mut skins = Vec::new();
    let mut animations = Vec::new();
    if let (Some(skin), Some(_)) = (&model.skin, skin_attributes) {
        let first_joint = nodes.len();
        write_skeleton(&mut b, skin, first_joint, &mut nodes, &mut scene_roots, &mut skins);
        nodes[0]["skin"] = json!(0);
        for anim in &model.skeletal_animations {
            let input = b.floats(&anim.times.iter().map(|&t| [t]).collect::<Vec<_>>(), None, true);
            let mut samplers = Vec::new();
            let mut channels = Vec::new();
            for track in anim.tracks.iter().filter(|t| t.translations.len() == anim.times.len()) {
                let node = first_joint + track.bone;
                let t = b.floats(&finite(&track.translations), None, false);
                samplers.push(json!({ "input": input, "output": t, "interpolation": "LINEAR" }));
                channels.push(json!({ "sampler": samplers.len() - 1, "target": { "node": node, "path": "translation" } }));
                let r = b.floats(&finite(&track.rotations), None, false);
                samplers.push(json!({ "input": input, "output": r, "interpolation": "LINEAR" }));
                channels.push(json!({ "sampler": samplers.len() - 1, "target": { "node": node, "path": "rotation" } }));
            }
            if !channels.is_empty() {
                animations
                    .push(json!({ "name": anim.name, "samplers": samplers, "channels": channels }));
            }
        }
    }
    if !targets.is_empty() {
        for anim in model
            .morph_animations
            .iter()
            .filter(|a| !a.times.is_empty() && a.times.len() == a.targets.len())
        {
            let input = b.floats(&anim.times.iter().map(|&t| [t]).collect::<Vec<_>>(), None, true);
            let weights: Vec<[f32; 1]> = anim
                .targets
                .iter()
                .flat_map(|&k| (0..targets.len()).map(move |i| [if i == k { 1.0 } else { 0.0 }]))
                .collect();
            let output = b.floats(&weights, None, false);
            // The engine tweens linearly between frames.
            animations.push(json!({
                "name": anim.name,
                "samplers": [{ "input": input, "output": output, "interpolation": "LINEAR" }],
                "channels": [{ "sampler": 0, "target": { "node": 0, "path": "weights" } }],
            }));
        }
    }

    let mut root =
        document(&b, json!({ "nodes": scene_roots }), nodes, vec![mesh], materials, textures);
    if !skins.is_empty() {
        root["skins"] = Value::Array(skins);
    }
    if !animations.is_empty() {
        root["animations"] = Value::Array(animations);
    }
    glb(&root, &b.bin)
}

/// A map's brushes as a `.glb`: one mesh and one node per brush, in world coordinates,
/// grouped under a node per role ("Additive brushes", "Subtractive brushes", "Other
/// brushes") so a whole role can be hidden at once. Each brush node's `extras` say what it
/// is: `class`, `csgOper`, `polyFlags`.
pub fn write_map_glb(scene: &super::map::MapScene) -> Vec<u8> {
    use std::fmt::Write as _;
    use unreal_analysis::t3d::brushes::BrushRole;
    let mut b = Builder::default();
    // Per brush: its position and index accessors and its material.
    let mut meshes: Vec<(usize, usize, u32)> = Vec::with_capacity(scene.brushes.len());
    let mut groups: Vec<(BrushRole, Vec<usize>)> = Vec::new();
    for (node, brush) in scene.brushes.iter().enumerate() {
        let position = b.floats(&finite(&brush.positions), Some(ARRAY_BUFFER), true);
        let idx = b.triangles(&brush.triangles);
        let material = match brush.role {
            BrushRole::Additive => 0,
            BrushRole::Subtractive => 1,
            BrushRole::Other | BrushRole::Builder => 2,
        };
        meshes.push((position, idx, material));
        match groups.iter_mut().find(|(role, _)| *role == brush.role) {
            Some((_, children)) => children.push(node),
            None => groups.push((brush.role, vec![node])),
        }
    }
    groups.sort_by_key(|(role, _)| *role as u8);
    // UnrealEd's colours: blue for additive, orange for subtractive, grey for the rest.
    let material = |name: &str, rgb: [f32; 3], double_sided: bool| {
        json!({
            "name": name,
            "doubleSided": double_sided,
            "pbrMetallicRoughness": { "baseColorFactor": [rgb[0], rgb[1], rgb[2], 1.0], "metallicFactor": 0.0, "roughnessFactor": 1.0 },
        })
    };
    let materials = json!([
        material("Additive", [0.2, 0.4, 1.0], false),
        material("Subtractive", [1.0, 0.6, 0.2], true),
        material("Other", [0.6, 0.6, 0.6], true),
    ]);
    let asset =
        json!({ "version": "2.0", "generator": concat!("unreal-ls ", env!("CARGO_PKG_VERSION")) });
    // The document is written as text, keys in the order `serde_json` gives them: a map of
    // 100,000 brushes held as `Value`s took 600 MB, several times the map.
    let text = |value: &str| Value::from(value).to_string();
    let mut j = String::with_capacity(256 * scene.brushes.len() + 1024);
    j.push_str("{\"accessors\":");
    b.write_accessors(&mut j);
    let _ = write!(j, ",\"asset\":{asset},\"bufferViews\":");
    b.write_views(&mut j);
    let _ = write!(
        j,
        ",\"buffers\":[{{\"byteLength\":{}}}],\"materials\":{materials},\"meshes\":[",
        b.bin.len().next_multiple_of(4)
    );
    for (i, (brush, (position, idx, material))) in scene.brushes.iter().zip(&meshes).enumerate() {
        let comma = if i > 0 { "," } else { "" };
        let _ = write!(
            j,
            "{comma}{{\"name\":{},\"primitives\":[{{\"attributes\":{{\"POSITION\":{position}}},\"indices\":{idx},\"material\":{material},\"mode\":4}}]}}",
            text(&brush.name)
        );
    }
    j.push_str("],\"nodes\":[");
    for (i, brush) in scene.brushes.iter().enumerate() {
        let comma = if i > 0 { "," } else { "" };
        let _ = write!(
            j,
            "{comma}{{\"extras\":{{\"class\":{},\"csgOper\":{},\"polyFlags\":{}}},\"mesh\":{i},\"name\":{}}}",
            text(&brush.class),
            text(&brush.csg_oper),
            brush.poly_flags,
            text(&brush.name)
        );
    }
    let mut roots = Vec::new();
    for (role, children) in &groups {
        let comma = if roots.is_empty() && scene.brushes.is_empty() { "" } else { "," };
        let _ = write!(
            j,
            "{comma}{{\"children\":{},\"name\":{}}}",
            Value::from(children.clone()),
            text(role.group_name())
        );
        roots.push(scene.brushes.len() + roots.len());
    }
    let _ = write!(
        j,
        "],\"scene\":0,\"scenes\":[{{\"name\":{},\"nodes\":{}}}]}}",
        text(&scene.name),
        Value::from(roots)
    );
    glb_of_text(j.into_bytes(), &b.bin)
}

/// A map's built level as a `.glb` ([`super::level::LevelScene`]): one mesh per material
/// (named by its texture) under a node "Level", the textures embedded as PNG; the static meshes
/// the level places as one mesh each, referenced by one node per actor under `StaticMeshes`
/// (in [`super::level::LevelScene::placed`]'s order, `extras.class`); and the map's other
/// actors as named empty nodes under "Actors" (`extras.class`), lights among them with a
/// `KHR_lights_punctual` point light.
pub fn write_level_glb(scene: &super::level::LevelScene) -> Vec<u8> {
    use super::level::Alpha;
    let mut b = Builder::default();
    let mut textures = Textures { fast: true, ..Textures::default() };
    let mut materials: Vec<Value> = scene
        .materials
        .iter()
        .map(|m| {
            let mut pbr = json!({ "metallicFactor": 0.0, "roughnessFactor": 1.0 });
            let blend_alpha = if m.alpha == Alpha::Blend { 0.5 } else { 1.0 };
            if let Some(image) = &m.image {
                pbr["baseColorTexture"] = json!({ "index": textures.embed(&mut b, image) });
                if m.alpha == Alpha::Blend {
                    pbr["baseColorFactor"] = json!([1.0, 1.0, 1.0, blend_alpha]);
                }
            } else {
                let [r, g, bl] = m.color;
                pbr["baseColorFactor"] = json!([r, g, bl, blend_alpha]);
            }
            let mut material = json!({ "name": m.name, "doubleSided": m.double_sided, "pbrMetallicRoughness": pbr });
            match m.alpha {
                Alpha::Opaque => {}
                Alpha::Mask => material["alphaMode"] = json!("MASK"),
                Alpha::Blend => material["alphaMode"] = json!("BLEND"),
            }
            material
        })
        .collect();
    let mut meshes = Vec::new();
    let mut nodes = vec![json!({ "name": "Level" })];
    let mut level_children = Vec::new();
    for p in scene.primitives.iter().filter(|p| !p.triangles.is_empty()) {
        let position = b.floats(&finite(&p.positions), Some(ARRAY_BUFFER), true);
        let texcoord = b.floats(&finite(&p.uvs), Some(ARRAY_BUFFER), false);
        let idx = b.triangles(&p.triangles);
        let name = scene.materials.get(p.material).map_or("", |m| m.name.as_str());
        let mut attributes = json!({ "POSITION": position, "TEXCOORD_0": texcoord });
        if !p.colors.is_empty() && p.colors.len() == p.positions.len() {
            let clamped: Vec<[f32; 3]> =
                finite(&p.colors).iter().map(|c| c.map(|v| v.clamp(0.0, 1.0))).collect();
            attributes["COLOR_0"] = json!(b.floats(&clamped, Some(ARRAY_BUFFER), false));
        }
        meshes.push(json!({
            "name": name,
            "primitives": [{ "attributes": attributes, "indices": idx, "material": p.material, "mode": 4 }],
        }));
        level_children.push(nodes.len());
        nodes.push(json!({ "name": name, "mesh": meshes.len() - 1 }));
    }
    if !level_children.is_empty() {
        nodes[0]["children"] = json!(level_children);
    }
    let mut roots = vec![0];
    if !scene.placed.is_empty() {
        let first_mesh = meshes.len();
        write_level_meshes(&mut b, &mut textures, &scene.meshes, &mut materials, &mut meshes);
        let group = nodes.len();
        nodes.push(json!({ "name": "StaticMeshes" }));
        let mut children = Vec::with_capacity(scene.placed.len());
        for placed in &scene.placed {
            let matrix = placed.matrix.map(|c| if c.is_finite() { c } else { 0.0 });
            children.push(nodes.len());
            nodes.push(json!({
                "name": placed.name,
                "mesh": first_mesh + placed.mesh,
                "matrix": matrix,
                "extras": { "class": placed.class },
            }));
        }
        nodes[group]["children"] = json!(children);
        roots.push(group);
    }
    let mut lights = Vec::new();
    if !scene.actors.is_empty() {
        let actors_node = nodes.len();
        nodes.push(json!({ "name": "Actors" }));
        let mut children = Vec::new();
        for actor in &scene.actors {
            let [x, y, z] = actor.position.map(|c| if c.is_finite() { c } else { 0.0 });
            let mut node = json!({ "name": actor.name, "translation": [x, y, z], "extras": { "class": actor.class } });
            if let Some(light) = &actor.light {
                lights.push(json!({
                    "name": actor.name,
                    "type": "point",
                    "color": light.color,
                    "intensity": light.intensity,
                    "range": light.range.max(1.0),
                }));
                node["extensions"] =
                    json!({ "KHR_lights_punctual": { "light": lights.len() - 1 } });
            }
            children.push(nodes.len());
            nodes.push(node);
        }
        nodes[actors_node]["children"] = json!(children);
        roots.push(actors_node);
    }
    let scene_json = json!({ "name": scene.name, "nodes": roots });
    let mut root = document(&b, scene_json, nodes, meshes, materials, textures);
    if !lights.is_empty() {
        root["extensionsUsed"] = json!(["KHR_lights_punctual"]);
        root["extensions"] = json!({ "KHR_lights_punctual": { "lights": lights } });
    }
    glb(&root, &b.bin)
}

/// The static meshes of a level ([`super::level::LevelMesh`]) as glTF meshes, in their order:
/// one primitive per material with triangles, their materials added to `materials` (a texture
/// met before, in this mesh or another, is embedded once).
fn write_level_meshes(
    b: &mut Builder,
    textures: &mut Textures,
    level_meshes: &[super::level::LevelMesh],
    materials: &mut Vec<Value>,
    meshes: &mut Vec<Value>,
) {
    use std::hash::{Hash as _, Hasher as _};
    let mut embedded: std::collections::HashMap<(u32, u32, u64), usize> =
        std::collections::HashMap::new();
    for mesh in level_meshes {
        let model = &mesh.model;
        let position = b.floats(&finite(&model.positions), Some(ARRAY_BUFFER), true);
        let texcoord = model
            .uvs
            .as_ref()
            .filter(|uvs| uvs.len() == model.positions.len())
            .map(|uvs| b.floats(&finite(uvs), Some(ARRAY_BUFFER), false));
        let first_material = materials.len();
        for m in &model.materials {
            let mut pbr = json!({ "metallicFactor": 0.0, "roughnessFactor": 1.0 });
            match &m.texture {
                Some(image) if texcoord.is_some() => {
                    let mut hasher = std::collections::hash_map::DefaultHasher::new();
                    image.pixels.hash(&mut hasher);
                    let key = (image.width, image.height, hasher.finish());
                    let index = *embedded.entry(key).or_insert_with(|| textures.embed(b, image));
                    pbr["baseColorTexture"] = json!({ "index": index });
                }
                _ => {
                    let [r, g, bl] = if mesh.is_box {
                        [0.55, 0.55, 0.6]
                    } else {
                        super::level::flat_color(&m.name)
                    };
                    pbr["baseColorFactor"] = json!([r, g, bl, 1.0]);
                }
            }
            materials.push(json!({ "name": m.name, "doubleSided": m.double_sided, "pbrMetallicRoughness": pbr }));
        }
        let primitives: Vec<Value> = model
            .primitives
            .iter()
            .filter(|p| !p.triangles.is_empty())
            .map(|p| {
                let idx = b.triangles(&p.triangles);
                let mut attributes = json!({ "POSITION": position });
                if let Some(texcoord) = texcoord {
                    attributes["TEXCOORD_0"] = json!(texcoord);
                }
                json!({ "attributes": attributes, "indices": idx, "material": first_material + p.material.min(model.materials.len().saturating_sub(1)), "mode": 4 })
            })
            .collect();
        meshes.push(json!({ "name": mesh.name, "primitives": primitives }));
    }
}

/// The images and textures a document embeds: one PNG each, sampled as Unreal samples them.
#[derive(Default)]
struct Textures {
    images: Vec<Value>,
    /// glTF's `textures`: an image with its sampler.
    samplers_of_images: Vec<Value>,
    /// Compressed fast ([`encode_png_fast`]): a level embeds every texture of a map, which
    /// the best compression took seconds over.
    fast: bool,
}

impl Textures {
    /// Embeds `image` as a PNG in the binary chunk; its texture's index.
    fn embed(&mut self, b: &mut Builder, image: &unreal_formats::decode::RgbaImage) -> usize {
        let png = if self.fast { encode_png_fast(image) } else { encode_png(image) };
        let view = b.view(&png, None);
        self.images.push(json!({ "bufferView": view, "mimeType": "image/png" }));
        self.samplers_of_images.push(json!({ "source": self.images.len() - 1, "sampler": 0 }));
        self.samplers_of_images.len() - 1
    }
}

/// The document every binary writer makes: the asset, its one scene, the nodes, the binary
/// chunk's buffer, views and accessors; the meshes, materials and embedded textures when there
/// are any.
fn document(
    b: &Builder,
    scene: Value,
    nodes: Vec<Value>,
    meshes: Vec<Value>,
    materials: Vec<Value>,
    textures: Textures,
) -> Value {
    let mut root = json!({
        "asset": { "version": "2.0", "generator": concat!("unreal-ls ", env!("CARGO_PKG_VERSION")) },
        "scene": 0,
    });
    // A level of point actors alone holds no geometry: glTF allows no empty array and no
    // empty buffer, so they are left out (and the BIN chunk with them, [`glb_of_text`]).
    if !b.bin.is_empty() {
        root["buffers"] = json!([{ "byteLength": b.bin.len().next_multiple_of(4) }]);
        root["bufferViews"] = b.views_json();
        root["accessors"] = b.accessors_json();
    }
    root["scenes"] = Value::Array(vec![scene]);
    root["nodes"] = Value::Array(nodes);
    if !meshes.is_empty() {
        root["meshes"] = Value::Array(meshes);
    }
    if !materials.is_empty() {
        root["materials"] = Value::Array(materials);
    }
    if !textures.images.is_empty() {
        root["images"] = Value::Array(textures.images);
        root["textures"] = Value::Array(textures.samplers_of_images);
        // Unreal textures are sampled nearest-neighbour in software renderers and wrap.
        root["samplers"] =
            json!([{ "magFilter": 9728, "minFilter": 9986, "wrapS": 10497, "wrapT": 10497 }]);
    }
    root
}

/// Joint nodes (children listed under their parents), and the skin with inverse bind
/// matrices computed from the bones' rest transforms.
fn write_skeleton(
    b: &mut Builder,
    skin: &Skin,
    first_joint: usize,
    nodes: &mut Vec<Value>,
    roots: &mut Vec<usize>,
    skins: &mut Vec<Value>,
) {
    let mut world: Vec<[[f32; 4]; 4]> = Vec::with_capacity(skin.bones.len());
    // Each bone's children, gathered in one pass (scanning every bone for each bone's
    // children made a PSK of 80,000 chained bones take 19 to 33 s to export).
    let mut children_of: Vec<Vec<usize>> = vec![Vec::new(); skin.bones.len()];
    for (k, bone) in skin.bones.iter().enumerate() {
        if let Some(list) = bone.parent.and_then(|p| children_of.get_mut(p)) {
            list.push(first_joint + k);
        }
    }
    for (i, bone) in skin.bones.iter().enumerate() {
        let local = trs_matrix(bone.translation, bone.rotation);
        let m = match bone.parent.and_then(|p| world.get(p)) {
            Some(parent) => mul(parent, &local),
            None => local,
        };
        world.push(m);
        let children = std::mem::take(&mut children_of[i]);
        let mut node = json!({ "name": bone.name, "translation": bone.translation, "rotation": bone.rotation });
        if !children.is_empty() {
            node["children"] = json!(children);
        }
        nodes.push(node);
        if bone.parent.is_none() {
            roots.push(first_joint + i);
        }
    }
    let inverse: Vec<[f32; 16]> = world
        .iter()
        .map(|m| {
            let inv = invert_rigid(m);
            // Column-major, as glTF stores matrices.
            let mut out = [0f32; 16];
            for c in 0..4 {
                for r in 0..4 {
                    out[c * 4 + r] = inv[r][c];
                }
            }
            out
        })
        .collect();
    let ibm = b.floats(&inverse, None, false);
    let joints: Vec<usize> = (0..skin.bones.len()).map(|i| first_joint + i).collect();
    skins.push(json!({ "joints": joints, "inverseBindMatrices": ibm }));
}

/// Row-major 4x4 of a translation and a unit quaternion `(x, y, z, w)`.
fn trs_matrix(t: [f32; 3], q: [f32; 4]) -> [[f32; 4]; 4] {
    let [x, y, z, w] = q;
    [
        [1.0 - 2.0 * (y * y + z * z), 2.0 * (x * y - z * w), 2.0 * (x * z + y * w), t[0]],
        [2.0 * (x * y + z * w), 1.0 - 2.0 * (x * x + z * z), 2.0 * (y * z - x * w), t[1]],
        [2.0 * (x * z - y * w), 2.0 * (y * z + x * w), 1.0 - 2.0 * (x * x + y * y), t[2]],
        [0.0, 0.0, 0.0, 1.0],
    ]
}

fn mul(a: &[[f32; 4]; 4], b: &[[f32; 4]; 4]) -> [[f32; 4]; 4] {
    let mut out = [[0f32; 4]; 4];
    for (r, row) in out.iter_mut().enumerate() {
        for (c, cell) in row.iter_mut().enumerate() {
            *cell = (0..4).map(|k| a[r][k] * b[k][c]).sum();
        }
    }
    out
}

/// The inverse of a rotation-and-translation matrix: transpose the rotation, rotate the
/// negated translation.
fn invert_rigid(m: &[[f32; 4]; 4]) -> [[f32; 4]; 4] {
    let mut out = [[0f32; 4]; 4];
    for r in 0..3 {
        for c in 0..3 {
            out[r][c] = m[c][r];
        }
        out[r][3] = -(0..3).map(|k| m[k][r] * m[k][3]).sum::<f32>();
    }
    out[3][3] = 1.0;
    out
}

/// The GLB container: header, JSON chunk (space-padded), BIN chunk (zero-padded).
fn glb(json: &Value, bin: &[u8]) -> Vec<u8> {
    glb_of_text(json.to_string().into_bytes(), bin)
}

/// [`glb`] of JSON already written as text.
fn glb_of_text(mut text: Vec<u8>, bin: &[u8]) -> Vec<u8> {
    while !text.len().is_multiple_of(4) {
        text.push(b' ');
    }
    let bin_len = bin.len().next_multiple_of(4);
    // The BIN chunk is optional, and must not be empty when present.
    let bin_chunk = if bin.is_empty() { 0 } else { 8 + bin_len };
    let total = 12 + 8 + text.len() + bin_chunk;
    let mut out = Vec::with_capacity(total);
    out.extend_from_slice(b"glTF");
    out.extend_from_slice(&2u32.to_le_bytes());
    out.extend_from_slice(&(total as u32).to_le_bytes());
    out.extend_from_slice(&(text.len() as u32).to_le_bytes());
    out.extend_from_slice(b"JSON");
    out.extend_from_slice(&text);
    drop(text);
    if !bin.is_empty() {
        out.extend_from_slice(&(bin_len as u32).to_le_bytes());
        out.extend_from_slice(b"BIN\0");
        out.extend_from_slice(bin);
    }
    out.resize(total, 0);
    out
}
