//! Synthetic UE1 maps for benchmarks and stress tests.
//!
//! [`generate_map`] writes a valid, realistic `Begin Map` of about the requested size: a
//! `LevelInfo`, the builder brush, then actors of many classes (lights, path nodes, player
//! starts, pickups, decorations, zones, sounds, triggers) between additive, subtractive and
//! sheet brushes and movers whose polygon lists hold convex, planar polygons (boxes,
//! cylinders, wedges, pyramids, some rotated) with the normals UnrealEd computes, some with
//! `Texture=`, `Flags=` and `Pan` lines. The text is laid out the way UnrealEd 2 (UT99)
//! exports it: CRLF, actor properties indented by five spaces, the brush by four and three
//! more per level below it, vectors printed with `%+013.6f`. The same seed gives the same map.

use std::f64::consts::PI;
use std::fmt::Write as _;

/// A small, fast, deterministic generator (xorshift64*); maps must not depend on `rand`'s
/// version.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        // SplitMix64 of the seed, so that 0 and small seeds give a good state.
        let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        Self((z ^ (z >> 31)) | 1)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform in `0..bound` (`bound` > 0).
    pub fn below(&mut self, bound: u32) -> u32 {
        (((self.next_u64() >> 32) * u64::from(bound.max(1))) >> 32) as u32
    }

    /// Uniform in `lo..=hi`.
    pub fn range(&mut self, lo: i32, hi: i32) -> i32 {
        lo + self.below((hi - lo + 1) as u32) as i32
    }

    /// Uniform in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// True with probability `percent` / 100.
    pub fn chance(&mut self, percent: u32) -> bool {
        self.below(100) < percent
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len() as u32) as usize]
    }
}

/// A 3D vector in Unreal units.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Vec3 {
    pub x: f64,
    pub y: f64,
    pub z: f64,
}

impl Vec3 {
    pub const fn new(x: f64, y: f64, z: f64) -> Self {
        Self { x, y, z }
    }

    #[must_use]
    pub fn minus(self, o: Vec3) -> Vec3 {
        Vec3::new(self.x - o.x, self.y - o.y, self.z - o.z)
    }

    #[must_use]
    pub fn plus(self, o: Vec3) -> Vec3 {
        Vec3::new(self.x + o.x, self.y + o.y, self.z + o.z)
    }

    #[must_use]
    pub fn scale(self, s: f64) -> Vec3 {
        Vec3::new(self.x * s, self.y * s, self.z * s)
    }

    pub fn dot(self, o: Vec3) -> f64 {
        self.x * o.x + self.y * o.y + self.z * o.z
    }

    #[must_use]
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

    #[must_use]
    pub fn normalized(self) -> Vec3 {
        let len = self.length();
        if len > 0.0 {
            self.scale(1.0 / len)
        } else {
            self
        }
    }
}

/// The normal UnrealEd stores: `normalize(sum over i>=2 of (V[i-1]-V[0]) x (V[i]-V[0]))`.
pub fn polygon_normal(vertices: &[Vec3]) -> Vec3 {
    let Some(&v0) = vertices.first() else {
        return Vec3::default();
    };
    let mut sum = Vec3::default();
    for pair in vertices.windows(2).skip(1) {
        sum = sum.plus(pair[0].minus(v0).cross(pair[1].minus(v0)));
    }
    sum.normalized()
}

/// One coordinate as UnrealEd writes it in a polygon: `%+013.6f`. Values that round to
/// zero print as `+00000.000000` (or `-00000.000000` for tiny negatives, as UnrealEd does).
pub fn write_coordinate(out: &mut String, value: f64) {
    let _ = write!(out, "{value:+013.6}");
}

/// A polygon line's vector: `+00128.000000,-00064.000000,+00000.000000`.
pub fn write_vector(out: &mut String, v: Vec3) {
    write_coordinate(out, v.x);
    out.push(',');
    write_coordinate(out, v.y);
    out.push(',');
    write_coordinate(out, v.z);
}

/// A polygon ready to print.
#[derive(Clone, Debug)]
pub struct Polygon {
    pub vertices: Vec<Vec3>,
    pub texture: Option<String>,
    pub flags: u32,
    pub pan: (i32, i32),
    pub link: Option<u32>,
    /// Texture scale: 1.0 writes unit TextureU/TextureV vectors.
    pub texture_scale: f64,
}

impl Polygon {
    pub fn new(vertices: Vec<Vec3>) -> Self {
        Self { vertices, texture: None, flags: 0, pan: (0, 0), link: None, texture_scale: 1.0 }
    }

    /// `TextureU` and `TextureV` as UnrealEd's default alignment makes them: on walls U is
    /// horizontal and V points down; on floors and ceilings U follows X.
    pub fn texture_axes(&self) -> (Vec3, Vec3) {
        let normal = polygon_normal(&self.vertices);
        let (u, v) = if normal.z.abs() > 0.7 {
            let x = Vec3::new(1.0, 0.0, 0.0);
            let u = x.minus(normal.scale(x.dot(normal))).normalized();
            (u, normal.cross(u).normalized())
        } else {
            let down = Vec3::new(0.0, 0.0, -1.0);
            let v = down.minus(normal.scale(down.dot(normal))).normalized();
            (v.cross(normal).normalized(), v)
        };
        let scale = 1.0 / self.texture_scale;
        (u.scale(scale), v.scale(scale))
    }

    /// Writes `Begin Polygon` .. `End Polygon` at `indent` spaces.
    pub fn write(&self, out: &mut String, indent: usize) {
        let pad = " ".repeat(indent);
        let inner = " ".repeat(indent + 3);
        out.push_str(&pad);
        out.push_str("Begin Polygon");
        if let Some(texture) = &self.texture {
            let _ = write!(out, " Texture={texture}");
        }
        if self.flags != 0 {
            // UnrealEd prints the flags with %i: negative when bit 31 is set.
            let _ = write!(out, " Flags={}", self.flags as i32);
        }
        if let Some(link) = self.link {
            let _ = write!(out, " Link={link}");
        }
        out.push_str("\r\n");
        let normal = polygon_normal(&self.vertices);
        let (u, v) = self.texture_axes();
        let origin = self.vertices.first().copied().unwrap_or_default();
        for (key, value) in
            [("Origin   ", origin), ("Normal   ", normal), ("TextureU ", u), ("TextureV ", v)]
        {
            out.push_str(&inner);
            out.push_str(key);
            write_vector(out, value);
            out.push_str("\r\n");
        }
        if self.pan != (0, 0) {
            let _ = write!(out, "{inner}Pan      U={} V={}\r\n", self.pan.0, self.pan.1);
        }
        for &vertex in &self.vertices {
            out.push_str(&inner);
            out.push_str("Vertex   ");
            write_vector(out, vertex);
            out.push_str("\r\n");
        }
        out.push_str(&pad);
        out.push_str("End Polygon\r\n");
    }
}

/// Convex solids, each face listed so that its computed normal points outward.
pub mod shapes {
    use super::{Polygon, Vec3, PI};

    /// Orders each face so that its normal points away from `center`.
    fn outward(mut faces: Vec<Vec<Vec3>>, center: Vec3) -> Vec<Polygon> {
        for face in &mut faces {
            let centroid =
                face.iter().fold(Vec3::default(), |a, &v| a.plus(v)).scale(1.0 / face.len() as f64);
            if super::polygon_normal(face).dot(centroid.minus(center)) < 0.0 {
                face.reverse();
            }
        }
        faces.into_iter().map(Polygon::new).collect()
    }

    /// An axis-aligned box centred on the origin: six quads.
    pub fn cube(size: Vec3) -> Vec<Polygon> {
        let h = size.scale(0.5);
        let p = |sx: f64, sy: f64, sz: f64| Vec3::new(sx * h.x, sy * h.y, sz * h.z);
        let faces = vec![
            vec![p(-1., -1., -1.), p(-1., -1., 1.), p(-1., 1., 1.), p(-1., 1., -1.)],
            vec![p(1., -1., -1.), p(1., 1., -1.), p(1., 1., 1.), p(1., -1., 1.)],
            vec![p(-1., -1., -1.), p(1., -1., -1.), p(1., -1., 1.), p(-1., -1., 1.)],
            vec![p(-1., 1., -1.), p(-1., 1., 1.), p(1., 1., 1.), p(1., 1., -1.)],
            vec![p(-1., -1., -1.), p(-1., 1., -1.), p(1., 1., -1.), p(1., -1., -1.)],
            vec![p(-1., -1., 1.), p(1., -1., 1.), p(1., 1., 1.), p(-1., 1., 1.)],
        ];
        outward(faces, Vec3::default())
    }

    fn ring(sides: usize, radius: f64, z: f64) -> Vec<Vec3> {
        (0..sides)
            .map(|i| {
                let a = 2.0 * PI * i as f64 / sides as f64;
                Vec3::new(radius * a.cos(), radius * a.sin(), z)
            })
            .collect()
    }

    /// A prism over a regular polygon (`sides` <= 16): two caps and `sides` quads.
    pub fn cylinder(sides: usize, radius: f64, height: f64) -> Vec<Polygon> {
        let bottom = ring(sides, radius, -height / 2.0);
        let top = ring(sides, radius, height / 2.0);
        let mut faces = vec![bottom.clone(), top.clone()];
        for i in 0..sides {
            let j = (i + 1) % sides;
            faces.push(vec![bottom[i], bottom[j], top[j], top[i]]);
        }
        outward(faces, Vec3::default())
    }

    /// A pyramid over a regular polygon: the base and `sides` triangles.
    pub fn cone(sides: usize, radius: f64, height: f64) -> Vec<Polygon> {
        let base = ring(sides, radius, -height / 2.0);
        let apex = Vec3::new(0.0, 0.0, height / 2.0);
        let mut faces = vec![base.clone()];
        for i in 0..sides {
            faces.push(vec![base[i], base[(i + 1) % sides], apex]);
        }
        // The centroid of a pyramid is a quarter of the way up from the base.
        outward(faces, Vec3::new(0.0, 0.0, -height / 4.0))
    }

    /// A ramp: a triangular prism, two triangles and three quads.
    pub fn wedge(size: Vec3) -> Vec<Polygon> {
        let h = size.scale(0.5);
        let a = Vec3::new(-h.x, -h.y, -h.z);
        let b = Vec3::new(h.x, -h.y, -h.z);
        let c = Vec3::new(-h.x, -h.y, h.z);
        let a2 = Vec3::new(-h.x, h.y, -h.z);
        let b2 = Vec3::new(h.x, h.y, -h.z);
        let c2 = Vec3::new(-h.x, h.y, h.z);
        let faces = vec![
            vec![a, b, c],
            vec![a2, c2, b2],
            vec![a, a2, b2, b],
            vec![a, c, c2, a2],
            vec![b, b2, c2, c],
        ];
        let center = a.plus(b).plus(c).scale(1.0 / 3.0);
        outward(faces, Vec3::new(center.x, 0.0, center.z))
    }

    /// A sheet: one quad in the XY plane.
    pub fn sheet(width: f64, depth: f64) -> Vec<Polygon> {
        let (w, d) = (width / 2.0, depth / 2.0);
        vec![Polygon::new(vec![
            Vec3::new(-w, -d, 0.0),
            Vec3::new(w, -d, 0.0),
            Vec3::new(w, d, 0.0),
            Vec3::new(-w, d, 0.0),
        ])]
    }

    /// Rotates every vertex about Z by `yaw` radians; planarity and convexity survive.
    pub fn rotate_z(polygons: &mut [Polygon], yaw: f64) {
        let (s, c) = yaw.sin_cos();
        for vertex in polygons.iter_mut().flat_map(|p| p.vertices.iter_mut()) {
            *vertex = Vec3::new(vertex.x * c - vertex.y * s, vertex.x * s + vertex.y * c, vertex.z);
        }
    }
}

const TEXTURES: &[&str] = &[
    "rClfBsB2",
    "GenFloor.Floor.Flr06",
    "GenFloor.Floor.Flr12",
    "GenWarp.Sun128a",
    "Ancient.Wall.Awall3",
    "Ancient.Floor.Afloor1",
    "DecayedS.Wall.dWallA3",
    "DecayedS.Floor.dFloor4",
    "Metalmys.Base.bsmt7",
    "Skybox.Sky.sky2",
    "XFX.Glow.xfx_glow01",
    "Crypt.Misc.CRpipe2",
];

/// Poly flags that UE1 defines and that a saved map legitimately carries.
const POLY_FLAGS: &[u32] = &[
    0x0000_0002,               // Masked
    0x0000_0004,               // Translucent
    0x0000_0008,               // NotSolid
    0x0000_0020,               // Semisolid
    0x0000_0040,               // Modulated
    0x0000_0100,               // TwoSided
    0x0000_0800,               // NoSmooth
    0x0000_8000,               // LowShadowDetail
    0x0040_0000,               // Unlit
    0x0080_0000,               // HighShadowDetail
    0x0000_0004 | 0x0000_0100, // Translucent TwoSided
    0x0001_0000,               // NoMerge
    0x0000_0080,               // FakeBackdrop
];

/// Writes map text, keeping the per-class name counters UnrealEd would.
struct MapWriter {
    out: String,
    rng: Rng,
    counters: std::collections::HashMap<&'static str, u32>,
    models: u32,
    leaf: u32,
}

impl MapWriter {
    fn next_name(&mut self, class: &'static str) -> String {
        let n = self.counters.entry(class).or_insert(0);
        let name = format!("{class}{n}");
        *n += 1;
        name
    }

    fn prop(&mut self, line: &str) {
        self.out.push_str("     ");
        self.out.push_str(line);
        self.out.push_str("\r\n");
    }

    /// `(X=..,Y=..,Z=..)` with zero components left out, as UnrealEd exports structs.
    fn struct_vector(v: Vec3) -> String {
        let parts: Vec<String> = [("X", v.x), ("Y", v.y), ("Z", v.z)]
            .iter()
            .filter(|(_, value)| *value != 0.0)
            .map(|(key, value)| format!("{key}={value:.6}"))
            .collect();
        format!("({})", parts.join(","))
    }

    fn random_location(&mut self) -> Vec3 {
        Vec3::new(
            f64::from(self.rng.range(-512, 512) * 16),
            f64::from(self.rng.range(-512, 512) * 16),
            f64::from(self.rng.range(-128, 128) * 16),
        )
    }

    fn common_tail(&mut self, tag: &str, location: Vec3) {
        self.prop("Level=LevelInfo'MyLevel.LevelInfo0'");
        self.prop(&format!("Tag=\"{tag}\""));
        self.leaf += 1;
        let zone = 1 + self.rng.below(6);
        let leaf = self.leaf;
        self.prop(&format!(
            "Region=(Zone=LevelInfo'MyLevel.LevelInfo0',iLeaf={leaf},ZoneNumber={zone})"
        ));
        if location != Vec3::default() {
            self.prop(&format!("Location={}", Self::struct_vector(location)));
        }
    }

    fn level_info(&mut self) {
        self.out.push_str("Begin Actor Class=LevelInfo Name=LevelInfo0\r\n");
        self.prop("TimeSeconds=135.605881");
        self.prop("Summary=LevelSummary'MyLevel.LevelSummary'");
        self.prop("Title=\"Synthetic\"");
        self.prop("Author=\"unreal-mapgen\"");
        self.prop("IdealPlayerCount=\"4-8\"");
        self.prop("Level=LevelInfo'MyLevel.LevelInfo0'");
        self.prop("Tag=\"LevelInfo\"");
        self.prop("Region=(Zone=LevelInfo'MyLevel.LevelInfo0',iLeaf=-1)");
        self.prop("Name=\"LevelInfo0\"");
        self.out.push_str("End Actor\r\n");
        self.counters.insert("LevelInfo", 1);
    }

    fn point_actor(&mut self) {
        const CLASSES: &[(&str, u32)] = &[
            ("Light", 30),
            ("PathNode", 20),
            ("PlayerStart", 4),
            ("InventorySpot", 6),
            ("HealthVial", 4),
            ("MedBox", 3),
            ("BulletBox", 3),
            ("Barrel", 3),
            ("Plant1", 2),
            ("AmbientSound", 6),
            ("Trigger", 4),
            ("ZoneInfo", 2),
            ("SpecialEvent", 3),
            ("Spotlight", 4),
            ("Teleporter", 2),
        ];
        let total: u32 = CLASSES.iter().map(|c| c.1).sum();
        let mut roll = self.rng.below(total);
        let class = CLASSES
            .iter()
            .find(|(_, w)| {
                if roll < *w {
                    true
                } else {
                    roll -= w;
                    false
                }
            })
            .map_or("Light", |c| c.0);
        let name = self.next_name(class);
        let location = self.random_location();
        let _ = write!(self.out, "Begin Actor Class={class} Name={name}\r\n");
        match class {
            "Light" | "Spotlight" => {
                let brightness = self.rng.range(32, 255);
                let hue = self.rng.range(0, 255);
                let saturation = self.rng.range(0, 255);
                let radius = self.rng.range(8, 64);
                self.prop(&format!("LightBrightness={brightness}"));
                self.prop(&format!("LightHue={hue}"));
                self.prop(&format!("LightSaturation={saturation}"));
                self.prop(&format!("LightRadius={radius}"));
                if class == "Spotlight" {
                    self.prop("LightEffect=LE_Spotlight");
                    let cone = self.rng.range(32, 200);
                    self.prop(&format!("LightCone={cone}"));
                }
            }
            "PlayerStart" | "Teleporter" => {
                let yaw = self.rng.range(0, 3) * 16384;
                if yaw != 0 {
                    self.prop(&format!("Rotation=(Yaw={yaw})"));
                }
                if class == "Teleporter" {
                    let target = self.rng.range(0, 9);
                    self.prop(&format!("URL=\"Teleporter{target}\""));
                }
            }
            "AmbientSound" => {
                let sound = self.rng.pick(&[
                    "AmbOutside.Wind1",
                    "AmbAncient.Looping.Stower51",
                    "AmbModern.Looping.comp1",
                    "AmbCity.Looping.cwater4",
                ]);
                self.prop(&format!("AmbientSound=Sound'{sound}'"));
                let radius = self.rng.range(16, 128);
                self.prop(&format!("SoundRadius={radius}"));
            }
            "Trigger" | "SpecialEvent" => {
                let event = self.rng.range(0, 40);
                self.prop(&format!("Event=\"Door{event}\""));
                if class == "Trigger" {
                    self.prop("TriggerType=TT_PlayerProximity");
                } else {
                    self.prop("Message=\"You hear a door open.\"");
                }
            }
            "ZoneInfo" => {
                let zone = self.rng.range(0, 99);
                self.prop(&format!("ZoneName=\"Zone {zone}\""));
                if self.rng.chance(30) {
                    self.prop("bWaterZone=True");
                    self.prop("ViewFog=(X=0.019531,Y=0.058594,Z=0.093750)");
                }
            }
            "Barrel" | "Plant1" => {
                let yaw = self.rng.range(0, 65535);
                self.prop(&format!("Rotation=(Yaw={yaw})"));
                self.prop("bStatic=False");
            }
            _ => {}
        }
        self.common_tail(class, location);
        if self.rng.chance(20) {
            let old = location.plus(Vec3::new(0.0, 0.0, f64::from(self.rng.range(-160, -8))));
            self.prop(&format!("OldLocation={}", Self::struct_vector(old)));
        }
        self.prop(&format!("Name=\"{name}\""));
        self.out.push_str("End Actor\r\n");
    }

    fn random_polygons(&mut self) -> (Vec<Polygon>, &'static str) {
        let grid = |rng: &mut Rng, lo: i32, hi: i32| f64::from(rng.range(lo, hi) * 16);
        let shape = self.rng.below(100);
        let mut polygons = if shape < 45 {
            let size = Vec3::new(
                grid(&mut self.rng, 2, 64),
                grid(&mut self.rng, 2, 64),
                grid(&mut self.rng, 2, 32),
            );
            (shapes::cube(size), "Cube")
        } else if shape < 65 {
            let sides = *self.rng.pick(&[6usize, 8, 12, 16]);
            let radius = grid(&mut self.rng, 2, 32);
            let height = grid(&mut self.rng, 2, 32);
            (shapes::cylinder(sides, radius, height), "Cylinder")
        } else if shape < 80 {
            let size = Vec3::new(
                grid(&mut self.rng, 4, 32),
                grid(&mut self.rng, 4, 32),
                grid(&mut self.rng, 2, 16),
            );
            (shapes::wedge(size), "Ramp")
        } else if shape < 90 {
            let sides = *self.rng.pick(&[3usize, 4, 6, 8]);
            let radius = grid(&mut self.rng, 2, 24);
            let height = grid(&mut self.rng, 2, 24);
            (shapes::cone(sides, radius, height), "Cone")
        } else {
            let (w, d) = (grid(&mut self.rng, 2, 32), grid(&mut self.rng, 2, 32));
            (shapes::sheet(w, d), "Sheet")
        };
        if self.rng.chance(25) {
            let yaw = self.rng.unit() * 2.0 * PI;
            shapes::rotate_z(&mut polygons.0, yaw);
        }
        let textured = self.rng.chance(70);
        let texture = (*self.rng.pick(TEXTURES)).to_owned();
        for (i, polygon) in polygons.0.iter_mut().enumerate() {
            if textured {
                polygon.texture = Some(if self.rng.chance(15) {
                    (*self.rng.pick(TEXTURES)).to_owned()
                } else {
                    texture.clone()
                });
            }
            if polygons.1 == "Sheet" {
                polygon.flags = 0x0000_0108; // TwoSided | NotSolid
            } else if self.rng.chance(12) {
                polygon.flags = *self.rng.pick(POLY_FLAGS);
            }
            if self.rng.chance(15) {
                polygon.pan = (self.rng.range(-8, 8) * 8, self.rng.range(-8, 8) * 8);
            }
            if self.rng.chance(5) {
                polygon.texture_scale = *self.rng.pick(&[0.5, 2.0, 4.0]);
            }
            if self.rng.chance(10) {
                polygon.link = Some(i as u32);
            }
        }
        polygons
    }

    fn write_brush_body(&mut self, model: &str, polygons: &[Polygon]) {
        let _ = write!(self.out, "    Begin Brush Name={model}\r\n       Begin PolyList\r\n");
        for polygon in polygons {
            polygon.write(&mut self.out, 10);
        }
        self.out.push_str("       End PolyList\r\n    End Brush\r\n");
    }

    fn builder_brush(&mut self) {
        let polygons = shapes::cube(Vec3::new(256.0, 256.0, 256.0));
        self.out.push_str("Begin Actor Class=Brush Name=Brush\r\n");
        self.prop("MainScale=(SheerAxis=SHEER_ZX)");
        self.prop("PostScale=(SheerAxis=SHEER_ZX)");
        self.prop("Level=LevelInfo'MyLevel.LevelInfo0'");
        self.prop("Tag=\"Brush\"");
        self.prop("Region=(Zone=LevelInfo'MyLevel.LevelInfo0',iLeaf=-1)");
        self.prop("bSelected=True");
        self.write_brush_body("Brush", &polygons);
        self.prop("Brush=Model'MyLevel.Brush'");
        self.prop("Name=\"Brush\"");
        self.out.push_str("End Actor\r\n");
    }

    fn brush_actor(&mut self) {
        let mover = self.rng.chance(6);
        let class = if mover { "Mover" } else { "Brush" };
        let name = self.next_name(class);
        let model = format!("Model{}", self.models);
        self.models += 1;
        let (polygons, group) = self.random_polygons();
        let location = self.random_location();
        let _ = write!(self.out, "Begin Actor Class={class} Name={name}\r\n");
        if !mover && group != "Sheet" && self.rng.chance(45) {
            self.prop("CsgOper=CSG_Subtract");
        } else if !mover {
            self.prop("CsgOper=CSG_Add");
        }
        if group == "Sheet" {
            self.prop("PolyFlags=264");
        }
        self.prop("MainScale=(SheerAxis=SHEER_ZX)");
        self.prop("PostScale=(SheerAxis=SHEER_ZX)");
        if mover {
            let lift = self.rng.range(4, 16) * 16;
            self.prop(&format!("KeyPos(1)=(Z={lift}.000000)"));
            self.prop("MoverEncroachType=ME_IgnoreWhenEncroach");
            self.prop("BrushRaytraceKey=1");
            let tag = self.rng.range(0, 40);
            self.prop(&format!("Tag=\"Door{tag}\""));
        }
        self.prop(&format!("Group=\"{group}\""));
        self.common_tail(class, location);
        self.write_brush_body(&model, &polygons);
        self.prop(&format!("Brush=Model'MyLevel.{model}'"));
        if self.rng.chance(30) {
            let pivot = Vec3::new(
                f64::from(self.rng.range(-8, 8) * 16),
                f64::from(self.rng.range(-8, 8) * 16),
                f64::from(self.rng.range(-8, 8) * 16),
            );
            if pivot != Vec3::default() {
                self.prop(&format!("PrePivot={}", Self::struct_vector(pivot)));
            }
        }
        self.prop(&format!("Name=\"{name}\""));
        self.out.push_str("End Actor\r\n");
    }
}

/// A valid, realistic UE1 map of about `target_bytes` bytes (a little more: the last actor
/// and `End Map` are always complete; at least the `LevelInfo` and the builder brush). The
/// same `seed` gives byte-identical text.
pub fn generate_map(target_bytes: usize, seed: u64) -> String {
    let closing = "End Map\r\n";
    let mut writer = MapWriter {
        out: String::with_capacity(target_bytes + 64 * 1024),
        rng: Rng::new(seed),
        counters: std::collections::HashMap::new(),
        models: 0,
        leaf: 0,
    };
    writer.out.push_str("Begin Map\r\n");
    writer.level_info();
    writer.builder_brush();
    while writer.out.len() + closing.len() < target_bytes {
        // About 60% of real maps' bytes are brushes; by count, point actors outnumber them.
        if writer.rng.chance(35) {
            writer.brush_actor();
        } else {
            writer.point_actor();
        }
    }
    writer.out.push_str(closing);
    writer.out
}

/// Parses a size such as `10MB`, `512KB`, `1.5MiB` or `4096` (bytes). KB/MB/GB are
/// powers of 1000, KiB/MiB/GiB powers of 1024.
pub fn parse_size(text: &str) -> Option<usize> {
    let text = text.trim();
    let split = text.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(text.len());
    let (number, unit) = text.split_at(split);
    let number: f64 = number.parse().ok()?;
    let factor = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1.0,
        "k" | "kb" => 1e3,
        "m" | "mb" => 1e6,
        "g" | "gb" => 1e9,
        "kib" => 1024.0,
        "mib" => 1024.0 * 1024.0,
        "gib" => 1024.0 * 1024.0 * 1024.0,
        _ => return None,
    };
    let bytes = number * factor;
    (0.0..1e12).contains(&bytes).then_some(bytes as usize)
}

/// Brush lists that stress the level's CSG (issue 43, item 3): what each costs the build is
/// measured by `cargo bench -p unreal-assets --bench csg` and recorded in
/// `docs/performance.md`. Every map is a plain UE1 `Begin Map` of brush actors, vertices only
/// (no texture axes), so that the size of the text follows the brushes.
pub mod csg {
    use super::{shapes, write_vector, Polygon, Rng, Vec3};
    use std::fmt::Write as _;

    /// One brush actor: `oper` is `CSG_Add` or `CSG_Subtract`; the polygons in the world.
    fn brush(out: &mut String, index: usize, oper: &str, location: Vec3, polygons: &[Polygon]) {
        let _ = write!(out, "Begin Actor Class=Brush Name=Brush{index}\r\n     CsgOper={oper}\r\n");
        if location != Vec3::default() {
            let _ = write!(
                out,
                "     Location=(X={:.6},Y={:.6},Z={:.6})\r\n",
                location.x, location.y, location.z
            );
        }
        let _ = write!(out, "    Begin Brush Name=Model{index}\r\n       Begin PolyList\r\n");
        for polygon in polygons {
            out.push_str("          Begin Polygon Texture=Wall\r\n");
            for &vertex in &polygon.vertices {
                out.push_str("             Vertex   ");
                write_vector(out, vertex);
                out.push_str("\r\n");
            }
            out.push_str("          End Polygon\r\n");
        }
        let _ = write!(
            out,
            "       End PolyList\r\n    End Brush\r\n     Brush=Model'MyLevel.Model{index}'\r\nEnd Actor\r\n"
        );
    }

    fn map(brushes: impl FnOnce(&mut String)) -> String {
        let mut out = String::from("Begin Map\r\n");
        brushes(&mut out);
        out.push_str("End Map\r\n");
        out
    }

    /// `n` rooms of 256 x 256 x 128 units subtracted from the solid world, on a square grid
    /// (rows of `ceil(sqrt(n))`, filled row by row) with `wall` units of solid between
    /// neighbours. With walls each room keeps its six faces; with none (`wall` 0) the rooms
    /// open into one another, their sides on the same planes, and the level is one hall of
    /// floors and ceilings.
    pub fn room_grid(n: usize, wall: f64) -> String {
        let columns = (1..=n.max(1)).find(|c| c * c >= n).unwrap_or(1);
        let room = shapes::cube(Vec3::new(256.0, 256.0, 128.0));
        let step = 256.0 + wall;
        map(|out| {
            for i in 0..n {
                let (row, column) = (i / columns, i % columns);
                let at = Vec3::new(column as f64 * step, row as f64 * step, 0.0);
                brush(out, i, "CSG_Subtract", at, &room);
            }
        })
    }

    /// `k` cubes around one centre, each 32 units smaller than the one before, subtracted and
    /// added in turn (a room, a block in it, a room in the block, ...): every cube lies inside
    /// all the ones before it, and each leaves its six faces in the level.
    pub fn nested_cubes(k: usize) -> String {
        map(|out| {
            for i in 0..k {
                let size = 32.0 * (k - i) as f64;
                let oper = if i % 2 == 0 { "CSG_Subtract" } else { "CSG_Add" };
                brush(out, i, oper, Vec3::default(), &shapes::cube(Vec3::new(size, size, size)));
            }
        })
    }

    /// `k` cubes around one centre, each 32 units larger than the one before, subtracted and
    /// added in turn, every face wound one way or the other at random (`seed`): no real
    /// brush, but what a broken exporter or a hand edit can make. Each cube encloses the ones
    /// before it, and its faces that point into it cut what they enclose over and over: the
    /// world's nodes grow far faster than the brushes.
    pub fn nested_cubes_mixed_windings(k: usize, seed: u64) -> String {
        let mut rng = Rng::new(seed);
        map(|out| {
            for i in 0..k {
                let size = 32.0 * (i + 1) as f64;
                let oper = if i % 2 == 0 { "CSG_Subtract" } else { "CSG_Add" };
                let mut cube = shapes::cube(Vec3::new(size, size, size));
                for face in &mut cube {
                    if rng.chance(50) {
                        face.vertices.reverse();
                    }
                }
                brush(out, i, oper, Vec3::default(), &cube);
            }
        })
    }
}
