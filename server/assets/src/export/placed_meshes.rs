//! The meshes a level places (issue 45): which actors draw one, where the engine puts it,
//! and what each one wears.
//!
//! - **Which actors.** The engine draws an actor's `StaticMesh` when its `DrawType` is
//!   `DT_StaticMesh` (8), its `Mesh` when it is `DT_Mesh` (2) (UT2004
//!   `Engine/Classes/Actor.uc`). Maps store only what differs from the class's defaults, so the
//!   draw type and the mesh come from the actor, else from its class's defaults (the package
//!   index's, or what is known of `StaticMeshActor`: [`known_default`]). An actor that names a
//!   mesh but whose draw type cannot be told is not guessed at: a note counts them
//!   ([`MeshFacts::decide`]).
//! - **Where.** A static mesh as `AActor::LocalToWorld` (`Engine/Inc/AActor.h`) places it
//!   ([`ActorTransform::point`]); a vertex or skeletal mesh as `MeshToWorld`
//!   (`Engine/Src/UnVertMesh.cpp`, `UnSkeletalMesh.cpp`) places it, in the mesh's own space
//!   ([`ActorTransform::vertex_mesh_point`], [`VertexMeshSpace`]); the rotation with the
//!   engine's sine table.
//! - **Wears.** A static mesh's section `i` the actor's `Skins(i)`, else the mesh's
//!   `Materials(i)` (`UStaticMesh::GetSkin`); a UE1 mesh's texture slot as `UMesh::GetTexture`
//!   chooses ([`vertex_mesh_texture`]).
//! - **Hidden** actors (`bHidden=True`) are not drawn by the engine; they stay points, counted.
//!
//! One glTF mesh per mesh and what it wears, one node per actor: a map of 800 actors over 100
//! meshes holds 100 meshes' vertices.

use unreal_syntax::t3d::{Block, Value};

use unreal_analysis::coords::{cos_tab, sin_tab};

/// `EDrawType::DT_StaticMesh` (UT2004 `Engine/Classes/Actor.uc`).
pub const DT_STATIC_MESH: u8 = 8;

/// The collision size of an actor whose class's defaults are not known (`Actor`'s: 22 by 22).
const ACTOR_COLLISION: [f64; 2] = [22.0, 22.0];

/// How the engine places an actor's mesh (`AActor::LocalToWorld`); the class defaults
/// (scale 1, no rotation, no pivot) where the actor stores nothing.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ActorTransform {
    pub location: [f64; 3],
    /// Pitch, yaw, roll in rotator units (65536 to a turn).
    pub rotation: [i32; 3],
    pub draw_scale: f64,
    pub draw_scale_3d: [f64; 3],
    pub pre_pivot: [f64; 3],
}

impl Default for ActorTransform {
    fn default() -> Self {
        Self {
            location: [0.0; 3],
            rotation: [0; 3],
            draw_scale: 1.0,
            draw_scale_3d: [1.0; 3],
            pre_pivot: [0.0; 3],
        }
    }
}

/// The rows of `FRotationMatrix(rotation)` (as `AActor::LocalToWorld` expands it): where a
/// mesh's X, Y and Z axes point once turned by roll, then pitch, then yaw.
fn rotation_rows([pitch, yaw, roll]: [i32; 3]) -> [[f64; 3]; 3] {
    let (sp, cp) = (sin_tab(pitch), cos_tab(pitch));
    let (sy, cy) = (sin_tab(yaw), cos_tab(yaw));
    let (sr, cr) = (sin_tab(roll), cos_tab(roll));
    [
        [cp * cy, cp * sy, sp],
        [cy * sp * sr - cr * sy, cr * cy + sp * sr * sy, -cp * sr],
        [-(cr * cy * sp + sr * sy), cy * sr - cr * sp * sy, cp * cr],
    ]
}

/// `v` as a row vector times the rows `m`.
fn times(v: [f64; 3], m: &[[f64; 3]; 3]) -> [f64; 3] {
    [0, 1, 2].map(|j| v[0] * m[0][j] + v[1] * m[1][j] + v[2] * m[2][j])
}

/// How a vertex or skeletal mesh sits in its own space (`#exec MESH ORIGIN`, `MESHMAP
/// SCALE`): its `Scale`, `Origin` and `RotOrigin`, which apply to the engine's mesh units, and
/// how many of those make one unit of the model's positions.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct VertexMeshSpace {
    pub scale: [f64; 3],
    pub origin: [f64; 3],
    pub rot_origin: [i32; 3],
    /// The engine's mesh units per unit of the model: `[8, 8, 4]` for packed vertices
    /// (`FMeshVert`'s raw integers, decoded in eighths and quarters:
    /// `unreal_formats::package::MeshInfo::raw_per_unit`), `[1, 1, 1]` where the model holds
    /// the engine's own numbers (Deus Ex's vertices, skeletal meshes).
    pub raw_per_unit: [f64; 3],
}

impl VertexMeshSpace {
    /// The space a mesh stores (`Scale`, `Origin`, `RotOrigin`, as the packages keep them),
    /// over a model whose positions are the engine's mesh units divided by `raw_per_unit`.
    pub fn new(
        scale: [f32; 3],
        origin: [f32; 3],
        rot_origin: [i32; 3],
        raw_per_unit: [f32; 3],
    ) -> Self {
        Self {
            scale: scale.map(f64::from),
            origin: origin.map(f64::from),
            rot_origin,
            raw_per_unit: raw_per_unit.map(f64::from),
        }
    }
}

/// The column-major glTF `matrix` of an affine map of Unreal points: it takes a point in glTF
/// axes ([`point_to_gltf`](super::model::point_to_gltf)) to the mapped point in glTF axes. A mirroring map gives a negative
/// determinant, which glTF readers honour by turning the triangles' winding.
fn gltf_matrix_of(point: impl Fn([f64; 3]) -> [f64; 3]) -> [f32; 16] {
    // glTF (a, b, c) is Unreal (c, -a, b).
    let to_unreal = |g: [f64; 3]| [g[2], -g[0], g[1]];
    let to_gltf = |u: [f64; 3]| [-u[1], u[2], u[0]];
    let origin = to_gltf(point([0.0; 3]));
    let mut m = [0f32; 16];
    for (column, unit) in [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]].iter().enumerate() {
        let image = to_gltf(point(to_unreal(*unit)));
        for row in 0..3 {
            m[column * 4 + row] = (image[row] - origin[row]) as f32;
        }
    }
    for row in 0..3 {
        m[12 + row] = origin[row] as f32;
    }
    m[15] = 1.0;
    m
}

impl ActorTransform {
    /// The scale along each of the mesh's axes: `DrawScale * DrawScale3D`.
    fn scale(&self) -> [f64; 3] {
        self.draw_scale_3d.map(|s| s * self.draw_scale)
    }

    /// Where the static mesh point `v` (the mesh's own axes) stands in the world
    /// (`AActor::LocalToWorld`).
    pub fn point(&self, v: [f64; 3]) -> [f64; 3] {
        let scale = self.scale();
        let scaled = [0, 1, 2].map(|k| (v[k] - self.pre_pivot[k]) * scale[k]);
        let turned = times(scaled, &rotation_rows(self.rotation));
        [0, 1, 2].map(|k| turned[k] + self.location[k])
    }

    /// [`Self::point`] as a glTF node's `matrix`.
    pub fn gltf_matrix(&self) -> [f32; 16] {
        gltf_matrix_of(|v| self.point(v))
    }

    /// Where the point `v` of a vertex mesh's model (a frame's position, in `mesh`'s space)
    /// stands in the world: UE2's `UVertMeshInstance::MeshToWorld`
    /// (`Engine/Src/UnVertMesh.cpp`), which UE1's `UMesh::GetFrame` composes alike
    /// (`Location + PrePivot`, `Rotation`, `RotOrigin`, `Scale * DrawScale`): the engine's
    /// vertex `V` (`v` times `raw_per_unit`), `(V - Origin) · Scale · DrawScale ·
    /// DrawScale3D`, turned by `RotOrigin`, then by `Rotation`, plus `Location + PrePivot`.
    pub fn vertex_mesh_point(&self, mesh: &VertexMeshSpace, v: [f64; 3]) -> [f64; 3] {
        let scale = self.scale();
        let scaled = [0, 1, 2]
            .map(|k| (v[k] * mesh.raw_per_unit[k] - mesh.origin[k]) * mesh.scale[k] * scale[k]);
        let turned =
            times(times(scaled, &rotation_rows(mesh.rot_origin)), &rotation_rows(self.rotation));
        [0, 1, 2].map(|k| turned[k] + self.location[k] + self.pre_pivot[k])
    }

    /// [`Self::vertex_mesh_point`] as a glTF node's `matrix`.
    pub fn vertex_mesh_gltf_matrix(&self, mesh: &VertexMeshSpace) -> [f32; 16] {
        gltf_matrix_of(|v| self.vertex_mesh_point(mesh, v))
    }

    /// Whether every number is finite (a hostile map's `1e999` is not placed).
    pub fn is_finite(&self) -> bool {
        self.location
            .iter()
            .chain(&self.draw_scale_3d)
            .chain(&self.pre_pivot)
            .all(|c| c.is_finite())
            && self.draw_scale.is_finite()
    }
}

/// What an actor is drawn with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MeshKind {
    /// `DT_StaticMesh`: its `StaticMesh`.
    Static,
    /// `DT_Mesh`: its `Mesh` (a UE1 `Mesh` or `LodMesh`), posed in its first frame.
    Vertex,
}

/// Whether a glTF `matrix` places anything: every entry finite and its 3 by 3 part neither
/// flat nor too small or large to invert in `f32`.
pub fn is_placeable(matrix: &[f32; 16]) -> bool {
    if !matrix.iter().all(|c| c.is_finite()) {
        return false;
    }
    let m = matrix.map(f64::from);
    let column = |c: usize| [m[c * 4], m[c * 4 + 1], m[c * 4 + 2]];
    let [a, b, c] = [column(0), column(1), column(2)];
    let cross = [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
    let determinant = (cross[0] * c[0] + cross[1] * c[1] + cross[2] * c[2]).abs();
    determinant.is_finite() && (1e-18..=1e36).contains(&determinant)
}

/// An actor that draws a mesh, as its map stores it and its class's defaults complete.
#[derive(Clone, Debug, PartialEq)]
pub struct MeshActor {
    pub name: String,
    pub class: String,
    pub transform: ActorTransform,
    pub kind: MeshKind,
    /// The mesh's path as the map names it (`Package.Group.Name`, or `myLevel.Name`).
    pub mesh: String,
    /// UE2's `Skins(i)`: the material for section (or skeletal material) `i`.
    pub skins: Vec<Option<String>>,
    /// UE1's `MultiSkins(i)` (the texture for texture slot `i`) and `Skin` (see
    /// [`vertex_mesh_texture`]); empty for a static mesh. `None` where unset or `None`.
    pub multi_skins: Vec<Option<String>>,
    pub skin: Option<String>,
    /// `CollisionRadius` and `CollisionHeight` (the class's defaults where unset): the size
    /// of the box drawn in place of a mesh that cannot be read.
    pub collision: [f64; 2],
    /// Its `Begin Actor`, as a byte offset into the T3D text (`None` for a built map's).
    pub begin: Option<u32>,
}

/// Which texture slot `slot` of a vertex mesh is drawn with, as UE1's `UMesh::GetTexture`
/// (UT v432 `Engine/Inc/UnMesh.h`) chooses it: the actor's `MultiSkins(slot)` when set; else
/// the mesh's own texture for any slot but 0 that has one; else the actor's `Skin` when set;
/// else the mesh's own. `Some(path)` names the actor's texture; `None` is the mesh's own.
pub fn vertex_mesh_texture<'a>(
    slot: usize,
    multi_skins: &'a [Option<String>],
    skin: Option<&'a str>,
    mesh_has_texture: bool,
) -> Option<&'a str> {
    if let Some(multi) = multi_skins.get(slot).and_then(Option::as_deref) {
        return Some(multi);
    }
    if slot != 0 && mesh_has_texture {
        return None;
    }
    skin
}

/// What an actor stores about how it is drawn, before its class's defaults fill the rest
/// in: values as T3D text (`DT_StaticMesh`, `True`), `None` where the actor stores nothing.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MeshFacts {
    pub name: String,
    pub class: String,
    pub transform: ActorTransform,
    pub draw_type: Option<String>,
    pub static_mesh: Option<String>,
    /// `Mesh`, drawn when the draw type is `DT_Mesh`.
    pub vertex_mesh: Option<String>,
    /// `Skins(i)` (UE2 static meshes).
    pub skins: Vec<Option<String>>,
    /// `MultiSkins(i)` and `Skin` (UE1 vertex meshes).
    pub multi_skins: Vec<Option<String>>,
    pub skin: Option<String>,
    pub collision: [Option<f64>; 2],
    pub hidden: Option<bool>,
    pub begin: Option<u32>,
}

/// Whether an actor draws a static mesh ([`MeshFacts::decide`]).
#[derive(Clone, Debug, PartialEq)]
pub enum Decision {
    Drawn(Box<MeshActor>),
    /// It would, but it is hidden in the game (`bHidden`).
    Hidden,
    /// It names a mesh, but its draw type is not known (neither it nor its class's known
    /// defaults say).
    Undecided,
    NotDrawn,
}

/// What the actors of a level say about static meshes.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MeshActors {
    pub drawn: Vec<MeshActor>,
    /// Static mesh actors hidden in the game (`bHidden=True`), left out.
    pub hidden: usize,
    /// Actors naming a `StaticMesh` whose draw type is not known here (neither the actor nor
    /// its class's known defaults say `DT_StaticMesh`): left as points.
    pub undecided: usize,
}

/// What is known here of a class's defaults without its package or source: the stock
/// `StaticMeshActor`'s (UT2004 `Engine/Classes/StaticMeshActor.uc`: `DrawType=DT_StaticMesh`,
/// a 1 by 1 collision cylinder). `None` for anything else.
pub fn known_default(class: &str, property: &str) -> Option<String> {
    let short = class.rsplit('.').next().unwrap_or(class);
    if !short.eq_ignore_ascii_case("StaticMeshActor") {
        return None;
    }
    let value = match property.to_ascii_lowercase().as_str() {
        "drawtype" => "DT_StaticMesh",
        "collisionradius" | "collisionheight" => "1.000000",
        _ => return None,
    };
    Some(value.to_owned())
}

/// `EDrawType::DT_Mesh`.
pub const DT_MESH: u8 = 2;

/// What an `EDrawType` (as T3D text or as its number) draws a mesh with, if anything.
fn mesh_kind_of_draw_type(value: &str) -> Option<MeshKind> {
    let value = value.trim();
    let number = value.parse::<u8>().ok();
    if value.eq_ignore_ascii_case("DT_StaticMesh") || number == Some(DT_STATIC_MESH) {
        Some(MeshKind::Static)
    } else if value.eq_ignore_ascii_case("DT_Mesh") || number == Some(DT_MESH) {
        Some(MeshKind::Vertex)
    } else {
        None
    }
}

/// An object path as T3D writes it (`StaticMesh'A.B'`) or bare; `None` for `None` and empty.
fn path_of(value: &str) -> Option<String> {
    let value = value.trim();
    let path = match (value.find('\''), value.rfind('\'')) {
        (Some(a), Some(b)) if b > a => &value[a + 1..b],
        _ => value,
    };
    (!path.is_empty() && !path.eq_ignore_ascii_case("None")).then(|| path.to_owned())
}

impl MeshFacts {
    /// Whether the actor draws its static mesh, `defaults` giving a class's default value of a
    /// property as T3D text (`Some("")` for the engine's zero, `None` when not known).
    pub fn decide(self, defaults: &dyn Fn(&str, &str) -> Option<String>) -> Decision {
        let default = |property: &str| defaults(&self.class, property);
        let written_or_default = |written: &Option<String>, property: &str| match written {
            Some(written) => path_of(written),
            None => default(property).as_deref().and_then(path_of),
        };
        let kind = match self.draw_type.clone().or_else(|| default("DrawType")) {
            Some(draw_type) => mesh_kind_of_draw_type(&draw_type),
            // A mesh the actor names, drawn or not by a class not known here.
            None if self.static_mesh.as_deref().and_then(path_of).is_some()
                || self.vertex_mesh.as_deref().and_then(path_of).is_some() =>
            {
                return Decision::Undecided
            }
            None => None,
        };
        let mesh = match kind {
            Some(MeshKind::Static) => written_or_default(&self.static_mesh, "StaticMesh"),
            Some(MeshKind::Vertex) => written_or_default(&self.vertex_mesh, "Mesh"),
            None => None,
        };
        let (Some(kind), Some(mesh)) = (kind, mesh) else { return Decision::NotDrawn };
        let hidden = self.hidden.unwrap_or_else(|| {
            default("bHidden").is_some_and(|v| v.trim().eq_ignore_ascii_case("True"))
        });
        if hidden {
            return Decision::Hidden;
        }
        let number = |property: &str| {
            default(property).and_then(|v| v.trim().parse::<f64>().ok()).filter(|n| n.is_finite())
        };
        // `MultiSkins` has 8 slots (UT v432 `Actor.uc`); the actor's own, else its class's.
        let multi_skins: Vec<Option<String>> = if kind == MeshKind::Vertex {
            (0..8)
                .map(|slot| match self.multi_skins.get(slot) {
                    Some(Some(own)) => path_of(own),
                    _ => default(&format!("MultiSkins({slot})")).as_deref().and_then(path_of),
                })
                .collect()
        } else {
            Vec::new()
        };
        let collision = [
            self.collision[0].or_else(|| number("CollisionRadius")).unwrap_or(ACTOR_COLLISION[0]),
            self.collision[1].or_else(|| number("CollisionHeight")).unwrap_or(ACTOR_COLLISION[1]),
        ];
        let skin = match kind {
            MeshKind::Static => None,
            MeshKind::Vertex => written_or_default(&self.skin, "Skin"),
        };
        Decision::Drawn(Box::new(MeshActor {
            name: self.name,
            class: self.class,
            transform: self.transform,
            kind,
            mesh,
            skins: self.skins,
            multi_skins,
            skin,
            collision,
            begin: self.begin,
        }))
    }
}

/// What the T3D actor `actor` stores about how it is drawn.
pub fn t3d_mesh_facts(text: &str, actor: &Block) -> MeshFacts {
    let value_text = |key: &str| actor.last_property(text, key).map(|p| p.value.span().text(text));
    let number = |key: &str| {
        value_text(key).and_then(|v| v.trim().parse::<f64>().ok()).filter(|n| n.is_finite())
    };
    let vector = |key: &str, default: [f64; 3]| {
        actor.last_property(text, key).map_or(default, |p| {
            let mut out = default;
            for (i, name) in ["X", "Y", "Z"].into_iter().enumerate() {
                if let Some(n) = p.value.field(text, name).and_then(|f| f.value.as_number()) {
                    out[i] = n;
                }
            }
            out
        })
    };
    let rotation = actor.last_property(text, "Rotation").map_or([0; 3], |p| {
        ["Pitch", "Yaw", "Roll"].map(|name| {
            p.value
                .field(text, name)
                .and_then(|f| f.value.as_number())
                .filter(|n| n.is_finite())
                .map_or(0, |n| n as i32)
        })
    });
    let mut skins: Vec<Option<String>> = Vec::new();
    let mut multi_skins: Vec<Option<String>> = Vec::new();
    for property in actor.properties() {
        let Some((_, index)) = property.index else { continue };
        let key = property.key.text(text);
        let list = if key.eq_ignore_ascii_case("Skins") {
            &mut skins
        } else if key.eq_ignore_ascii_case("MultiSkins") {
            &mut multi_skins
        } else {
            continue;
        };
        if index > 255 {
            continue;
        }
        let slot = index as usize;
        if list.len() <= slot {
            list.resize(slot + 1, None);
        }
        list[slot] = object_path(text, &property.value).filter(|p| !p.eq_ignore_ascii_case("None"));
    }
    MeshFacts {
        name: actor.attribute_value(text, "Name").unwrap_or_default().to_owned(),
        class: actor.attribute_value(text, "Class").unwrap_or_default().to_owned(),
        transform: ActorTransform {
            location: vector("Location", [0.0; 3]),
            rotation,
            draw_scale: number("DrawScale").unwrap_or(1.0),
            draw_scale_3d: vector("DrawScale3D", [1.0; 3]),
            pre_pivot: vector("PrePivot", [0.0; 3]),
        },
        draw_type: value_text("DrawType").map(str::to_owned),
        vertex_mesh: actor.last_property(text, "Mesh").map(|p| {
            object_path(text, &p.value).unwrap_or_else(|| p.value.span().text(text).to_owned())
        }),
        static_mesh: actor.last_property(text, "StaticMesh").map(|p| {
            object_path(text, &p.value).unwrap_or_else(|| p.value.span().text(text).to_owned())
        }),
        skins,
        multi_skins,
        skin: actor.last_property(text, "Skin").map(|p| {
            object_path(text, &p.value).unwrap_or_else(|| p.value.span().text(text).to_owned())
        }),
        collision: [number("CollisionRadius"), number("CollisionHeight")],
        hidden: value_text("bHidden").map(|v| v.trim().eq_ignore_ascii_case("True")),
        begin: Some(actor.begin_span.start),
    }
}

/// The path of an object reference value (`StaticMesh'Pkg.Group.Name'`), or of a bare word.
fn object_path(text: &str, value: &Value) -> Option<String> {
    match value {
        Value::ObjectRef { path, .. } => Some(path.text(text).to_owned()),
        Value::Word { span } => Some(span.text(text).to_owned()),
        _ => None,
    }
}

/// The box drawn where a mesh cannot be read: the actor's collision cylinder as a box, at
/// least 16 units each way from its location (a `StaticMeshActor`'s 1-unit cylinder would not
/// show), as a transform of the unit cube from -1 to 1.
pub fn box_transform(actor: &MeshActor) -> ActorTransform {
    let [radius, height] =
        actor.collision.map(|c| if c.is_finite() { c.abs().max(16.0) } else { 16.0 });
    ActorTransform {
        location: actor.transform.location,
        draw_scale_3d: [radius, radius, height],
        ..ActorTransform::default()
    }
}

/// The box drawn where a mesh cannot be read: the unit cube from -1 to 1 (Unreal axes), its six
/// faces facing out, as a model of one material (a flat grey where it is drawn).
pub fn unread_box_model() -> super::Model {
    let mut faces = Vec::new();
    for axis in 0..3 {
        for sign in [-1.0f32, 1.0] {
            let (u, v) = ((axis + 1) % 3, (axis + 2) % 3);
            let mut face: Vec<[f32; 3]> = [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)]
                .into_iter()
                .map(|(a, b)| {
                    let mut p = [0.0f32; 3];
                    p[axis] = sign;
                    p[u] = a;
                    p[v] = b;
                    p
                })
                .collect();
            // Unreal's (u, v, axis) are right-handed in index order: the + side's loop faces
            // out as the engine orders a polygon, the - side's the other way round.
            if sign < 0.0 {
                face.reverse();
            }
            faces.push(face);
        }
    }
    let mut model = super::Model::from_polygons("Mesh not read", &faces);
    for material in &mut model.materials {
        "Mesh not read".clone_into(&mut material.name);
    }
    model
}

#[cfg(test)]
mod tests {
    use super::super::model::point_to_gltf;
    use super::*;

    fn close(a: [f64; 3], b: [f64; 3]) -> bool {
        a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-6)
    }

    /// `LocalToWorld` as the engine composes it in the branch it keeps for reference
    /// (`#if 0`): `FTranslationMatrix(-PrePivot) * FScaleMatrix(DrawScale3D * DrawScale) *
    /// FRotationMatrix(Rotation) * FTranslationMatrix(Location)`, with `FRotationMatrix` built
    /// as yaw, then pitch, then roll (`Core/Inc/UnMath.h`), in row-vector order.
    fn composed(t: &ActorTransform, v: [f64; 3]) -> [f64; 3] {
        let [pitch, yaw, roll] = t.rotation;
        let (sp, cp) = (sin_tab(pitch), cos_tab(pitch));
        let (sy, cy) = (sin_tab(yaw), cos_tab(yaw));
        let (sr, cr) = (sin_tab(roll), cos_tab(roll));
        let p = [0, 1, 2].map(|k| (v[k] - t.pre_pivot[k]) * t.draw_scale * t.draw_scale_3d[k]);
        // `v * Roll * Pitch * Yaw`, each matrix as the `#if 0` branch of `FRotationMatrix`
        // writes its rows: `out[j] = sum of v[i] * M[i][j]`.
        let rolled = [p[0], p[1] * cr + p[2] * sr, -p[1] * sr + p[2] * cr];
        let pitched = [rolled[0] * cp - rolled[2] * sp, rolled[1], rolled[0] * sp + rolled[2] * cp];
        let yawed =
            [pitched[0] * cy - pitched[1] * sy, pitched[0] * sy + pitched[1] * cy, pitched[2]];
        [0, 1, 2].map(|k| yawed[k] + t.location[k])
    }

    #[test]
    fn the_expanded_local_to_world_is_the_composed_one() {
        let transforms = [
            ActorTransform::default(),
            ActorTransform { rotation: [0, 16384, 0], ..ActorTransform::default() },
            ActorTransform { rotation: [16384, 0, 0], ..ActorTransform::default() },
            ActorTransform { rotation: [0, 0, 16384], ..ActorTransform::default() },
            ActorTransform {
                location: [100.0, -250.0, 32.0],
                rotation: [1820, -9000, 40000],
                draw_scale: 1.5,
                draw_scale_3d: [2.0, 0.5, -1.0],
                pre_pivot: [8.0, 16.0, -4.0],
            },
        ];
        for t in &transforms {
            for v in [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0], [12.0, -7.0, 3.5]] {
                assert!(close(t.point(v), composed(t, v)), "{t:?} {v:?}");
            }
        }
    }

    /// A yaw of a quarter turn takes the mesh's forward (X) to the world's right (Y), as the
    /// engine's yaw turns actors; pitch lifts X to Z.
    #[test]
    fn yaw_and_pitch_turn_the_engine_way() {
        let yaw = ActorTransform { rotation: [0, 16384, 0], ..ActorTransform::default() };
        assert!(close(yaw.point([1.0, 0.0, 0.0]), [0.0, 1.0, 0.0]));
        let pitch = ActorTransform { rotation: [16384, 0, 0], ..ActorTransform::default() };
        assert!(close(pitch.point([1.0, 0.0, 0.0]), [0.0, 0.0, 1.0]));
    }

    /// The glTF matrix moves a glTF-axes mesh point to the glTF-axes world point.
    #[test]
    fn the_gltf_matrix_places_as_the_engine_does() {
        let t = ActorTransform {
            location: [100.0, -250.0, 32.0],
            rotation: [1820, -9000, 40000],
            draw_scale: 1.5,
            draw_scale_3d: [2.0, 0.5, 1.0],
            pre_pivot: [8.0, 16.0, -4.0],
        };
        let m = t.gltf_matrix();
        for v in [[12.0f32, -7.0, 3.5], [0.0, 0.0, 0.0], [-64.0, 32.0, 128.0]] {
            let g = point_to_gltf(v).map(f64::from);
            let placed: [f64; 3] = [0, 1, 2].map(|row| {
                (0..3).map(|c| f64::from(m[c * 4 + row]) * g[c]).sum::<f64>()
                    + f64::from(m[12 + row])
            });
            let engine = t.point(v.map(f64::from));
            let expected = point_to_gltf(engine.map(|c| c as f32)).map(f64::from);
            assert!(placed.iter().zip(expected).all(|(a, b)| (a - b).abs() < 1e-3), "{v:?}");
        }
    }

    /// A vertex mesh's point by a hand count: `Origin` (10, 0, 0) and `Scale` (2, 1, 1), turned
    /// a quarter by `RotOrigin`'s yaw, at `Location` (100, 0, 0) with `PrePivot` (0, 0, 5).
    #[test]
    fn a_vertex_mesh_point_by_hand() {
        let mesh = VertexMeshSpace {
            scale: [2.0, 1.0, 1.0],
            origin: [10.0, 0.0, 0.0],
            rot_origin: [0, 16384, 0],
            raw_per_unit: [1.0; 3],
        };
        let actor = ActorTransform {
            location: [100.0, 0.0, 0.0],
            pre_pivot: [0.0, 0.0, 5.0],
            ..ActorTransform::default()
        };
        assert!(close(actor.vertex_mesh_point(&mesh, [10.0, 0.0, 0.0]), [100.0, 0.0, 5.0]));
        // One unit along X past the origin: 2 units, turned to Y.
        assert!(close(actor.vertex_mesh_point(&mesh, [11.0, 0.0, 0.0]), [100.0, 2.0, 5.0]));
    }

    /// `UVertMeshInstance::MeshToWorld` composed as the engine writes it: the scale matrix of
    /// `DrawScale3D * DrawScale * Scale`, times the rotation matrices of `RotOrigin` and then
    /// `Rotation`, times the translation to `Location + PrePivot`; then each column's
    /// translation less `Origin` dotted with that column.
    #[test]
    fn the_vertex_mesh_point_is_the_engines_mesh_to_world() {
        type M = [[f64; 4]; 4];
        let mul = |a: &M, b: &M| -> M {
            let mut out = [[0.0; 4]; 4];
            for r in 0..4 {
                for c in 0..4 {
                    out[r][c] = (0..4).map(|k| a[r][k] * b[k][c]).sum();
                }
            }
            out
        };
        let rotation = |r: [i32; 3]| -> M {
            let rows = rotation_rows(r);
            let mut m = [[0.0; 4]; 4];
            for i in 0..3 {
                m[i][..3].copy_from_slice(&rows[i]);
            }
            m[3][3] = 1.0;
            m
        };
        let mesh = VertexMeshSpace {
            scale: [0.5, 1.5, 2.0],
            origin: [3.0, -7.0, 12.0],
            rot_origin: [0, -16384, 3000],
            raw_per_unit: [8.0, 8.0, 4.0],
        };
        let actor = ActorTransform {
            location: [40.0, 50.0, 60.0],
            rotation: [1000, 20000, -500],
            draw_scale: 1.25,
            draw_scale_3d: [1.0, 2.0, 0.5],
            pre_pivot: [1.0, 2.0, 3.0],
        };
        let s = actor.scale();
        let mut scale: M = [[0.0; 4]; 4];
        for k in 0..3 {
            scale[k][k] = s[k] * mesh.scale[k];
        }
        scale[3][3] = 1.0;
        let [x, y, z] = [0, 1, 2].map(|k| actor.location[k] + actor.pre_pivot[k]);
        let translation: M =
            [[1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0], [x, y, z, 1.0]];
        let mut m = mul(
            &mul(&mul(&scale, &rotation(mesh.rot_origin)), &rotation(actor.rotation)),
            &translation,
        );
        let columns = [0, 1, 2].map(|k| [m[0][k], m[1][k], m[2][k]]);
        for (k, axis) in columns.into_iter().enumerate() {
            m[3][k] -= mesh.origin.iter().zip(axis).map(|(o, a)| o * a).sum::<f64>();
        }
        // `v` is the engine's vertex (`FMeshVert`'s raw integers); the model holds it decoded.
        for v in [[0.0, 0.0, 0.0], [8.0, 16.0, 12.0], [-160.0, 40.0, 36.0]] {
            let engine = [0, 1, 2].map(|c| (0..3).map(|r| v[r] * m[r][c]).sum::<f64>() + m[3][c]);
            let decoded = [0, 1, 2].map(|k| v[k] / mesh.raw_per_unit[k]);
            assert!(close(actor.vertex_mesh_point(&mesh, decoded), engine), "{v:?}");
        }
    }

    /// `UMesh::GetTexture`: `MultiSkins` first, then the mesh's own texture for slots past 0,
    /// then `Skin`, then the mesh's own.
    #[test]
    fn a_vertex_mesh_slot_is_skinned_as_the_engine_skins_it() {
        let multi = vec![None, Some("A.Multi1".to_owned())];
        assert_eq!(vertex_mesh_texture(1, &multi, Some("A.Skin"), true), Some("A.Multi1"));
        assert_eq!(vertex_mesh_texture(0, &multi, Some("A.Skin"), true), Some("A.Skin"));
        assert_eq!(vertex_mesh_texture(2, &multi, Some("A.Skin"), true), None);
        assert_eq!(vertex_mesh_texture(2, &multi, Some("A.Skin"), false), Some("A.Skin"));
        assert_eq!(vertex_mesh_texture(0, &[], None, true), None);
    }

    /// An overflowing or zero scale places nothing; a mirroring one does.
    #[test]
    fn only_matrices_a_reader_can_take_apart_are_placed() {
        let with = |draw_scale: f64, draw_scale_3d: [f64; 3]| {
            is_placeable(
                &ActorTransform { draw_scale, draw_scale_3d, ..ActorTransform::default() }
                    .gltf_matrix(),
            )
        };
        assert!(with(1.0, [1.0; 3]));
        assert!(with(0.5, [2.0, -7.0, 3.0]));
        assert!(!with(1e10, [1e30, 1.0, 1.0]));
        assert!(!with(0.0, [1.0; 3]));
        assert!(!with(1.0, [1.0, 0.0, 1.0]));
    }

    #[test]
    fn the_unit_cube_faces_out_in_gltf() {
        let model = unread_box_model();
        let (positions, triangles) = (&model.positions, &model.primitives[0].triangles);
        assert_eq!((positions.len(), triangles.len(), model.materials.len()), (24, 12, 1));
        assert_eq!(model.materials[0].name, "Mesh not read");
        for t in triangles {
            let [a, b, c] = t.map(|i| positions[i as usize].map(f64::from));
            let n = unreal_analysis::coords::dot(
                cross(
                    [b[0] - a[0], b[1] - a[1], b[2] - a[2]],
                    [c[0] - a[0], c[1] - a[1], c[2] - a[2]],
                ),
                [a[0] + b[0] + c[0], a[1] + b[1] + c[1], a[2] + b[2] + c[2]],
            );
            assert!(n > 0.0, "{t:?}");
        }
    }

    fn cross(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
        [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
    }

    fn decided(text: &str) -> Decision {
        let parse = unreal_syntax::t3d::parse(text);
        let actor = parse.file.items[0].as_block().unwrap();
        t3d_mesh_facts(text, actor).decide(&known_default)
    }

    #[test]
    #[allow(clippy::float_cmp)] // exact: the numbers are read, not computed
    fn which_t3d_actors_draw_a_static_mesh() {
        let Decision::Drawn(drawn) = decided(
            "Begin Actor Class=StaticMeshActor Name=StaticMeshActor12\n\
             StaticMesh=StaticMesh'Deck17.Pipes.Elbow'\n\
             Location=(X=10,Y=20,Z=30)\n\
             Rotation=(Yaw=16384)\n\
             DrawScale=2\n\
             DrawScale3D=(Z=0.5)\n\
             Skins(1)=Texture'Deck17.Rust'\n\
             End Actor\n",
        ) else {
            panic!("not drawn")
        };
        assert_eq!(drawn.mesh, "Deck17.Pipes.Elbow");
        assert_eq!(drawn.transform.location, [10.0, 20.0, 30.0]);
        assert_eq!(drawn.transform.rotation, [0, 16384, 0]);
        assert_eq!(drawn.transform.draw_scale_3d, [1.0, 1.0, 0.5]);
        assert_eq!(drawn.skins, vec![None, Some("Deck17.Rust".to_owned())]);
        assert_eq!(drawn.collision, [1.0, 1.0]);
        // Another class that says so itself.
        assert!(matches!(
            decided("Begin Actor Class=Mover Name=Mover0\nDrawType=DT_StaticMesh\nStaticMesh=StaticMesh'A.B'\nEnd Actor\n"),
            Decision::Drawn(_)
        ));
        // A mesh named, the draw type unknown: undecided.
        assert_eq!(
            decided(
                "Begin Actor Class=xPickUpBase Name=P0\nStaticMesh=StaticMesh'A.B'\nEnd Actor\n"
            ),
            Decision::Undecided
        );
        assert_eq!(
            decided("Begin Actor Class=StaticMeshActor Name=S0\nStaticMesh=StaticMesh'A.B'\nbHidden=True\nEnd Actor\n"),
            Decision::Hidden
        );
        // No mesh, or drawn another way, or none.
        for text in [
            "Begin Actor Class=StaticMeshActor Name=S0\nEnd Actor\n",
            "Begin Actor Class=StaticMeshActor Name=S0\nDrawType=DT_Sprite\nStaticMesh=StaticMesh'A.B'\nEnd Actor\n",
            "Begin Actor Class=StaticMeshActor Name=S0\nStaticMesh=None\nEnd Actor\n",
            "Begin Actor Class=Light Name=L0\nEnd Actor\n",
        ] {
            assert_eq!(decided(text), Decision::NotDrawn, "{text}");
        }
    }

    /// A class's defaults decide what the actor leaves out: its mesh, its draw type, and
    /// that it is hidden.
    #[test]
    fn class_defaults_fill_in_what_the_actor_leaves_out() {
        let parse = |text: &str| {
            let parse = unreal_syntax::t3d::parse(text);
            t3d_mesh_facts(text, parse.file.items[0].as_block().unwrap())
        };
        let base = parse("Begin Actor Class=xWeaponBase Name=xWeaponBase0\nEnd Actor\n");
        let weapon_base = |class: &str, property: &str| -> Option<String> {
            (class == "xWeaponBase").then(|| match property {
                "DrawType" => "DT_StaticMesh".to_owned(),
                "StaticMesh" => "StaticMesh'XGame_rc.WeaponChargerMesh'".to_owned(),
                _ => String::new(),
            })
        };
        let Decision::Drawn(drawn) = base.clone().decide(&weapon_base) else { panic!() };
        assert_eq!(drawn.mesh, "XGame_rc.WeaponChargerMesh");
        // The engine's zero for a draw type no class sets is DT_None.
        assert_eq!(base.decide(&|_: &str, _: &str| Some(String::new())), Decision::NotDrawn);
    }
}
