//! Writers that build synthetic files from the format documents, so that every version
//! branch and optional chunk is exercised without third-party files.

/// The engine's compact index.
pub fn compact(v: i32) -> Vec<u8> {
    let mut out = Vec::new();
    let mut a = v.unsigned_abs();
    let mut b0 = (a & 0x3f) as u8;
    if v < 0 {
        b0 |= 0x80;
    }
    a >>= 6;
    if a > 0 {
        b0 |= 0x40;
    }
    out.push(b0);
    while a > 0 {
        let mut b = (a & 0x7f) as u8;
        a >>= 7;
        if a > 0 {
            b |= 0x80;
        }
        out.push(b);
    }
    out
}

/// A v69 package of empty objects: `(class, path)`, where a class is an Engine class (or
/// `Class` for a class of the package itself) and `Group.Name` paths make groups.
pub fn object_package(objects: &[(&str, &str)]) -> Vec<u8> {
    let mut w = PackageWriter::new(69, 0);
    let mut groups: Vec<(String, i32)> = Vec::new();
    for (class, path) in objects {
        let class_ref = if *class == "Class" { 0 } else { w.engine_class(class) };
        let (outer, name) = match path.rsplit_once('.') {
            Some((group, name)) => {
                let known = groups.iter().find(|(g, _)| g == group).map(|(_, r)| *r);
                let outer = known.unwrap_or_else(|| {
                    let package_class = w.import("Core", "Class", 0, "Package");
                    let r = w.export(package_class, 0, group, 0, Box::new(|_, _| {}));
                    groups.push((group.to_owned(), r));
                    r
                });
                (outer, name)
            }
            None => (0, *path),
        };
        w.export(class_ref, outer, name, 0, Box::new(|_, _| {}));
    }
    w.finish()
}

/// Bytes of one object, written knowing its absolute file offset (lazy arrays store
/// absolute skip positions).
pub struct Obj {
    pub base: usize,
    pub version: u16,
    pub buf: Vec<u8>,
}

impl Obj {
    pub fn u8(&mut self, v: u8) -> &mut Self {
        self.buf.push(v);
        self
    }
    pub fn u16(&mut self, v: u16) -> &mut Self {
        self.buf.extend_from_slice(&v.to_le_bytes());
        self
    }
    pub fn u32(&mut self, v: u32) -> &mut Self {
        self.buf.extend_from_slice(&v.to_le_bytes());
        self
    }
    pub fn i32(&mut self, v: i32) -> &mut Self {
        self.buf.extend_from_slice(&v.to_le_bytes());
        self
    }
    pub fn f32(&mut self, v: f32) -> &mut Self {
        self.buf.extend_from_slice(&v.to_le_bytes());
        self
    }
    pub fn bytes(&mut self, v: &[u8]) -> &mut Self {
        self.buf.extend_from_slice(v);
        self
    }
    pub fn index(&mut self, v: i32) -> &mut Self {
        self.buf.extend(compact(v));
        self
    }
    /// A lazy array of `count` items already encoded in `items`.
    pub fn lazy(&mut self, count: usize, items: &[u8]) -> &mut Self {
        let count_bytes = compact(count as i32);
        if self.version >= 62 {
            let end = self.base + self.buf.len() + 4 + count_bytes.len() + items.len();
            self.i32(end as i32);
        }
        self.bytes(&count_bytes).bytes(items)
    }
    /// An `FString`: length with its NUL, then the bytes.
    pub fn fstring(&mut self, s: &str) -> &mut Self {
        self.index(s.len() as i32 + 1).bytes(s.as_bytes()).u8(0)
    }
}

/// A property: name index, info byte, optional struct name, size, array index, value.
pub struct Prop {
    pub name: usize,
    pub type_id: u8,
    pub struct_name: Option<usize>,
    pub array_index: u32,
    pub bool_value: bool,
    pub value: Vec<u8>,
}

impl Prop {
    /// A property that is not a struct, not an array element and not a bool: `name` (a name
    /// index), its type and its value's bytes.
    pub fn plain(name: usize, type_id: u8, value: Vec<u8>) -> Prop {
        Prop { name, type_id, struct_name: None, array_index: 0, bool_value: false, value }
    }
}

pub fn write_props(o: &mut Obj, props: &[Prop], none: usize) {
    for p in props {
        o.index(p.name as i32);
        let size = p.value.len();
        let (code, extra): (u8, Vec<u8>) = match size {
            _ if p.type_id == 3 => (0, Vec::new()),
            1 => (0, Vec::new()),
            2 => (1, Vec::new()),
            4 => (2, Vec::new()),
            12 => (3, Vec::new()),
            16 => (4, Vec::new()),
            n if n < 256 => (5, vec![n as u8]),
            n if n < 65536 => (6, (n as u16).to_le_bytes().to_vec()),
            n => (7, (n as u32).to_le_bytes().to_vec()),
        };
        let high = if p.type_id == 3 { p.bool_value } else { p.array_index != 0 };
        o.u8(p.type_id | (code << 4) | if high { 0x80 } else { 0 });
        if let Some(s) = p.struct_name {
            o.index(s as i32);
        }
        o.bytes(&extra);
        if p.type_id != 3 && p.array_index != 0 {
            let i = p.array_index;
            if i < 128 {
                o.u8(i as u8);
            } else if i < 16384 {
                o.u8(0x80 | (i >> 8) as u8).u8(i as u8);
            } else {
                o.u8(0xc0 | (i >> 24) as u8).u8((i >> 16) as u8).u8((i >> 8) as u8).u8(i as u8);
            }
        }
        if p.type_id != 3 {
            o.bytes(&p.value);
        }
    }
    o.index(none as i32);
    // Before version 57 an object's state name follows its properties, before 58 its group
    // name (Unreal v200 `UObject::Serialize`): both `None` here.
    if o.version < 57 {
        o.index(none as i32);
    }
    if o.version < 58 {
        o.index(none as i32);
    }
}

pub type Body = Box<dyn Fn(&mut Obj, &PackageWriter)>;

pub struct ExportSpec {
    pub class: i32,
    pub super_: i32,
    pub outer: i32,
    pub name: usize,
    pub flags: u32,
    pub body: Body,
}

pub struct PackageWriter {
    pub version: u16,
    pub licensee: u16,
    pub names: Vec<String>,
    pub imports: Vec<(usize, usize, i32, usize)>,
    pub exports: Vec<ExportSpec>,
}

impl PackageWriter {
    pub fn new(version: u16, licensee: u16) -> Self {
        let mut w =
            Self { version, licensee, names: Vec::new(), imports: Vec::new(), exports: Vec::new() };
        w.name("None");
        w
    }

    pub fn name(&mut self, s: &str) -> usize {
        if let Some(i) = self.names.iter().position(|n| n == s) {
            return i;
        }
        self.names.push(s.to_owned());
        self.names.len() - 1
    }

    /// Imports `Package.Class` objects: returns the (negative) reference.
    pub fn import(
        &mut self,
        class_package: &str,
        class_name: &str,
        outer: i32,
        object_name: &str,
    ) -> i32 {
        let cp = self.name(class_package);
        let cn = self.name(class_name);
        let on = self.name(object_name);
        self.imports.push((cp, cn, outer, on));
        -(self.imports.len() as i32)
    }

    /// An import of a class from Engine (`Core.Package Engine`, then `Core.Class <name>`).
    pub fn engine_class(&mut self, class: &str) -> i32 {
        let engine = match self.imports.iter().position(|i| self.names[i.3] == "Engine") {
            Some(i) => -(i as i32) - 1,
            None => self.import("Core", "Package", 0, "Engine"),
        };
        self.import("Core", "Class", engine, class)
    }

    pub fn export(&mut self, class: i32, outer: i32, name: &str, flags: u32, body: Body) -> i32 {
        let name = self.name(name);
        self.exports.push(ExportSpec { class, super_: 0, outer, name, flags, body });
        self.exports.len() as i32
    }

    pub fn none(&self) -> usize {
        0
    }

    pub fn finish(&self) -> Vec<u8> {
        let v = self.version;
        let header_len = if v < 68 { 44 } else { 36 + 16 + 4 + 8 };
        let mut out = vec![0u8; header_len];
        let name_offset = out.len();
        for n in &self.names {
            if v < 64 {
                out.extend_from_slice(n.as_bytes());
                out.push(0);
            } else {
                out.extend(compact(n.len() as i32 + 1));
                out.extend_from_slice(n.as_bytes());
                out.push(0);
            }
            out.extend_from_slice(&0x0007_0010u32.to_le_bytes());
        }
        let import_offset = out.len();
        for &(cp, cn, outer, on) in &self.imports {
            out.extend(compact(cp as i32));
            out.extend(compact(cn as i32));
            out.extend_from_slice(&outer.to_le_bytes());
            out.extend(compact(on as i32));
        }
        let heritage_offset = out.len();
        if v < 68 {
            out.extend_from_slice(&[0x11; 16]);
        }
        let mut placed = Vec::new();
        for e in &self.exports {
            let mut o = Obj { base: out.len(), version: v, buf: Vec::new() };
            (e.body)(&mut o, self);
            placed.push((out.len(), o.buf.len()));
            out.extend_from_slice(&o.buf);
        }
        let export_offset = out.len();
        for (e, &(offset, size)) in self.exports.iter().zip(&placed) {
            out.extend(compact(e.class));
            out.extend(compact(e.super_));
            out.extend_from_slice(&e.outer.to_le_bytes());
            out.extend(compact(e.name as i32));
            out.extend_from_slice(&e.flags.to_le_bytes());
            out.extend(compact(size as i32));
            if size > 0 {
                out.extend(compact(offset as i32));
            }
        }
        let mut h = Vec::new();
        h.extend_from_slice(&0x9E2A_83C1u32.to_le_bytes());
        h.extend_from_slice(&v.to_le_bytes());
        h.extend_from_slice(&self.licensee.to_le_bytes());
        h.extend_from_slice(&1u32.to_le_bytes());
        for (count, offset) in [
            (self.names.len(), name_offset),
            (self.exports.len(), export_offset),
            (self.imports.len(), import_offset),
        ] {
            h.extend_from_slice(&(count as u32).to_le_bytes());
            h.extend_from_slice(&(offset as u32).to_le_bytes());
        }
        if v < 68 {
            h.extend_from_slice(&1u32.to_le_bytes());
            h.extend_from_slice(&(heritage_offset as u32).to_le_bytes());
        } else {
            h.extend_from_slice(&[0x42; 16]);
            h.extend_from_slice(&1u32.to_le_bytes());
            h.extend_from_slice(&(self.exports.len() as u32).to_le_bytes());
            h.extend_from_slice(&(self.names.len() as u32).to_le_bytes());
        }
        assert_eq!(h.len(), header_len);
        out[..header_len].copy_from_slice(&h);
        out
    }
}

/// A minimal PCM WAV.
pub fn wav(rate: u32, bits: u16, channels: u16, samples: usize) -> Vec<u8> {
    let block = channels * bits / 8;
    let data_len = samples * usize::from(block);
    let mut w = Vec::new();
    w.extend_from_slice(b"RIFF");
    w.extend_from_slice(&(36 + data_len as u32).to_le_bytes());
    w.extend_from_slice(b"WAVEfmt ");
    w.extend_from_slice(&16u32.to_le_bytes());
    w.extend_from_slice(&1u16.to_le_bytes());
    w.extend_from_slice(&channels.to_le_bytes());
    w.extend_from_slice(&rate.to_le_bytes());
    w.extend_from_slice(&(rate * u32::from(block)).to_le_bytes());
    w.extend_from_slice(&block.to_le_bytes());
    w.extend_from_slice(&bits.to_le_bytes());
    w.extend_from_slice(b"data");
    w.extend_from_slice(&(data_len as u32).to_le_bytes());
    w.extend(std::iter::repeat_n(0u8, data_len));
    w
}

/// How [`dds`] writes its header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DdsStyle {
    /// As the format's document says: pixel format size 32, the `FourCC` flag set.
    Standard,
    /// As UT2004's DDS exporter (`UTextureExporterDDS`, UnEdFact.cpp) writes it: the pixel
    /// format's size and flags left 0, only the `FourCC` filled in.
    Ut2004Exporter,
}

/// A DDS file of one mip in a block format: `fourcc` (`DXT1`, `ATI2`...), or `DX10` followed
/// by the 20-byte DX10 header with DXGI format `dxgi` (a 2D texture, one array element),
/// then `blocks` as they are.
pub fn dds(
    width: u32,
    height: u32,
    fourcc: &[u8; 4],
    dxgi: u32,
    style: DdsStyle,
    blocks: &[u8],
) -> Vec<u8> {
    let mut out = b"DDS ".to_vec();
    let u32le = |out: &mut Vec<u8>, v: u32| out.extend_from_slice(&v.to_le_bytes());
    u32le(&mut out, 124);
    // Caps, height, width, pixel format, linear size.
    u32le(&mut out, 0x1 | 0x2 | 0x4 | 0x1000 | 0x8_0000);
    u32le(&mut out, height);
    u32le(&mut out, width);
    u32le(&mut out, blocks.len() as u32);
    u32le(&mut out, 0); // depth
    u32le(&mut out, 1); // mips
    out.resize(76, 0); // reserved
    let (size, flags) = match style {
        DdsStyle::Standard => (32, 0x4),
        DdsStyle::Ut2004Exporter => (0, 0),
    };
    u32le(&mut out, size);
    u32le(&mut out, flags);
    out.extend_from_slice(fourcc);
    out.resize(108, 0); // bit count, masks
    u32le(&mut out, 0x1000); // caps: texture
    out.resize(128, 0);
    if fourcc == b"DX10" {
        u32le(&mut out, dxgi);
        u32le(&mut out, 3); // D3D10_RESOURCE_DIMENSION_TEXTURE2D
        u32le(&mut out, 0); // misc flags
        u32le(&mut out, 1); // array size
        u32le(&mut out, 0); // misc flags 2
    }
    out.extend_from_slice(blocks);
    out
}

/// A `_d.3d` file and an `_a.3d` file; `deus_ex` writes 8 bytes per vertex.
pub fn vertex_mesh(
    tris: &[([u16; 3], u8)],
    verts: u16,
    frames: u16,
    deus_ex: bool,
) -> (Vec<u8>, Vec<u8>) {
    let mut d = vec![0u8; 48];
    d[0..2].copy_from_slice(&(tris.len() as u16).to_le_bytes());
    d[2..4].copy_from_slice(&verts.to_le_bytes());
    for (v, tex) in tris {
        for i in v {
            d.extend_from_slice(&i.to_le_bytes());
        }
        d.extend_from_slice(&[1, 0, 0, 0, 255, 0, 0, 255, *tex, 0]);
    }
    let per = if deus_ex { 8 } else { 4 };
    let mut a = Vec::new();
    a.extend_from_slice(&frames.to_le_bytes());
    a.extend_from_slice(&(verts * per).to_le_bytes());
    for f in 0..frames {
        for v in 0..verts {
            let p = [f32::from(v), f32::from(f), -1.0];
            if deus_ex {
                for c in p {
                    a.extend_from_slice(&(c as i16).to_le_bytes());
                }
                a.extend_from_slice(&[0, 0]);
            } else {
                a.extend_from_slice(&pack_vertex(p).to_le_bytes());
            }
        }
    }
    (d, a)
}

/// An ActorX chunk.
pub fn chunk(out: &mut Vec<u8>, id: &str, type_flag: i32, record: usize, records: &[Vec<u8>]) {
    let mut name = [0u8; 20];
    name[..id.len()].copy_from_slice(id.as_bytes());
    out.extend_from_slice(&name);
    out.extend_from_slice(&type_flag.to_le_bytes());
    out.extend_from_slice(&(record as i32).to_le_bytes());
    out.extend_from_slice(&(records.len() as i32).to_le_bytes());
    for r in records {
        assert_eq!(r.len(), record, "{id}");
        out.extend_from_slice(r);
    }
}

fn fixed(s: &str, n: usize) -> Vec<u8> {
    let mut v = s.as_bytes().to_vec();
    v.resize(n, 0);
    v
}

fn floats(fs: &[f32]) -> Vec<u8> {
    fs.iter().flat_map(|f| f.to_le_bytes()).collect()
}

fn bone(name: &str, children: i32, parent: i32) -> Vec<u8> {
    let mut b = fixed(name, 64);
    b.extend_from_slice(&0u32.to_le_bytes());
    b.extend_from_slice(&children.to_le_bytes());
    b.extend_from_slice(&parent.to_le_bytes());
    b.extend(floats(&[0.0, 0.0, 0.0, 1.0, 1.0, 2.0, 3.0, 1.0, 1.0, 1.0, 1.0]));
    b
}

/// The chunks every test PSK starts with: the header, a quad (4 points, 4 wedges whose
/// padding holds junk, as real exporters leave it, 2 faces; `wide_faces` writes FACE3200)
/// and one material.
fn psk_quad(out: &mut Vec<u8>, wide_faces: bool) {
    chunk(out, "ACTRHEAD", 20_210_308, 0, &[]);
    let pts: Vec<Vec<u8>> = (0..4).map(|i| floats(&[i as f32, 0.0, 1.0])).collect();
    chunk(out, "PNTS0000", 0, 12, &pts);
    let wedges: Vec<Vec<u8>> = (0..4u16)
        .map(|i| {
            let mut w = i.to_le_bytes().to_vec();
            w.extend_from_slice(&[0xCD, 0xAB]);
            w.extend(floats(&[0.5, 0.25]));
            w.extend_from_slice(&[0, 0, 0, 0]);
            w
        })
        .collect();
    chunk(out, "VTXW0000", 0, 16, &wedges);
    let faces: Vec<Vec<u8>> = [[0u32, 1, 2], [0, 2, 3]]
        .iter()
        .map(|f| {
            let mut v = Vec::new();
            for &i in f {
                if wide_faces {
                    v.extend_from_slice(&i.to_le_bytes());
                } else {
                    v.extend_from_slice(&(i as u16).to_le_bytes());
                }
            }
            v.extend_from_slice(&[0, 0, 1, 0, 0, 0]);
            v
        })
        .collect();
    chunk(
        out,
        if wide_faces { "FACE3200" } else { "FACE0000" },
        0,
        if wide_faces { 18 } else { 12 },
        &faces,
    );
    let mut mat = fixed("Skin0", 64);
    mat.extend_from_slice(&[0u8; 24]);
    chunk(out, "MATT0000", 0, 88, &[mat]);
}

/// A PSK with a quad (4 points, 4 wedges, 2 faces), 2 bones, and every optional chunk:
/// VTXNORMS, VERTEXCOLOR, EXTRAUVS0/1, MRPHINFO, MRPHDATA, an unknown chunk; `wide_faces`
/// writes FACE3200. Wedge padding bytes hold junk, as real exporters leave them.
pub fn psk(wide_faces: bool) -> Vec<u8> {
    let mut out = Vec::new();
    psk_quad(&mut out, wide_faces);
    chunk(&mut out, "REFSKELT", 0, 120, &[bone("root", 1, 0), bone("child", 0, 0)]);
    let weights: Vec<Vec<u8>> = (0..4u32)
        .map(|i| {
            let mut w = floats(&[1.0]);
            w.extend_from_slice(&i.to_le_bytes());
            w.extend_from_slice(&(i % 2).to_le_bytes());
            w
        })
        .collect();
    chunk(&mut out, "RAWWEIGHTS", 0, 12, &weights);
    chunk(
        &mut out,
        "VTXNORMS",
        0,
        12,
        &(0..4).map(|_| floats(&[0.0, 0.0, 1.0])).collect::<Vec<_>>(),
    );
    chunk(&mut out, "VERTEXCOLOR", 0, 4, &(0..4).map(|_| vec![255, 0, 0, 255]).collect::<Vec<_>>());
    for set in ["EXTRAUVS0", "EXTRAUVS1"] {
        chunk(&mut out, set, 0, 8, &(0..4).map(|_| floats(&[0.0, 1.0])).collect::<Vec<_>>());
    }
    let mut info = fixed("Smile", 64);
    info.extend_from_slice(&2i32.to_le_bytes());
    chunk(&mut out, "MRPHINFO", 0, 68, &[info]);
    let morph = |p: i32| {
        let mut m = floats(&[0.0, 0.0, 1.0, 0.0, 0.0, 0.0]);
        m.extend_from_slice(&p.to_le_bytes());
        m
    };
    chunk(&mut out, "MRPHDATA", 0, 28, &[morph(0), morph(1)]);
    chunk(&mut out, "SOMETHING", 0, 3, &[vec![1, 2, 3]]);
    out
}

/// A PSK with one quad and `bones` bones in one chain (each the child of the one before):
/// the hostile-input probe of issue 30 (80,000 of them took 19 to 33 s to export).
pub fn psk_chain(bones: usize) -> Vec<u8> {
    let mut out = Vec::new();
    psk_quad(&mut out, false);
    let skeleton: Vec<Vec<u8>> = (0..bones)
        .map(|i| bone(&format!("b{i}"), i32::from(i + 1 < bones), i.saturating_sub(1) as i32))
        .collect();
    chunk(&mut out, "REFSKELT", 0, 120, &skeleton);
    let weights: Vec<Vec<u8>> = (0..4u32)
        .map(|i| {
            let mut w = floats(&[1.0]);
            w.extend_from_slice(&i.to_le_bytes());
            w.extend_from_slice(&0u32.to_le_bytes());
            w
        })
        .collect();
    chunk(&mut out, "RAWWEIGHTS", 0, 12, &weights);
    out
}

/// A PSA with 2 bones, two sequences (3 and 2 frames) and optional scale keys.
pub fn psa(scale_keys: bool) -> Vec<u8> {
    let mut out = Vec::new();
    chunk(&mut out, "ANIMHEAD", 2, 0, &[]);
    chunk(&mut out, "BONENAMES", 0, 120, &[bone("root", 1, 0), bone("child", 0, 0)]);
    let seq = |name: &str, first: i32, frames: i32| {
        let mut s = fixed(name, 64);
        s.extend(fixed("None", 64));
        for v in [2i32, 0, 0, 0] {
            s.extend_from_slice(&v.to_le_bytes());
        }
        s.extend(floats(&[1.0, frames as f32, 30.0]));
        for v in [0i32, first, frames] {
            s.extend_from_slice(&v.to_le_bytes());
        }
        s
    };
    chunk(&mut out, "ANIMINFO", 0, 168, &[seq("Walk", 0, 3), seq("Idle", 3, 2)]);
    let keys: Vec<Vec<u8>> =
        (0..10).map(|_| floats(&[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 1.0])).collect();
    chunk(&mut out, "ANIMKEYS", 0, 32, &keys);
    if scale_keys {
        chunk(
            &mut out,
            "SCALEKEYS",
            0,
            16,
            &(0..10).map(|_| floats(&[1.0, 1.0, 1.0, 1.0])).collect::<Vec<_>>(),
        );
    }
    out
}

fn cstr(out: &mut Vec<u8>, s: &str) {
    out.extend_from_slice(s.as_bytes());
    out.push(0);
}

/// What [`u3d_with`] writes. Every chunk of the v1.0 documentation and every branch in it
/// can be switched on.
#[derive(Clone, Copy, Debug)]
pub struct U3dOptions {
    /// Frames of the animation (frame meshes when there are no bones, else key frames).
    pub frames: u16,
    pub bones: u16,
    /// nSkinWeight of the meshes when there are bones: 1 or 3 skins the one mesh, 0 appends
    /// mesh copies rigidly to the bones (the last bone takes the first mesh, the one before
    /// it the second).
    pub skin_weights: u16,
    /// Frames after the first reuse its texture coordinates and triangles (the
    /// `TextureCoordinateOwned` / `TrianglesOwned` = false branches).
    pub reuse_first_frame: bool,
    /// Two more materials: one with `ExportResources` and one whose texture has an
    /// undocumented type, both skipped up to the next chunk.
    pub undocumented_materials: bool,
}

impl U3dOptions {
    pub fn new(frames: u16, bones: u16) -> Self {
        Self {
            frames,
            bones,
            skin_weights: 1,
            reuse_first_frame: false,
            undocumented_materials: false,
        }
    }
}

/// An Ultimate 3D v1.0 file as its documentation lays it out: `frames` frame meshes of a
/// textured quad with 2 LODs (so nMesh = frames * 2), two materials (the second one with an
/// undocumented effect that readers skip), and `bones` bones with keys.
pub fn u3d(frames: u16, bones: u16) -> Vec<u8> {
    u3d_with(&U3dOptions::new(frames, bones))
}

/// The `.u3d` files committed under `server/formats/tests/fixtures/u3d/` for the glTF
/// validator run: a skinned model (three stored weights, every material kind) and frame
/// meshes that reuse the first frame's data.
pub fn u3d_fixtures() -> Vec<(&'static str, Vec<u8>)> {
    vec![
        (
            "skinned.u3d",
            u3d_with(&U3dOptions {
                skin_weights: 3,
                undocumented_materials: true,
                ..U3dOptions::new(4, 3)
            }),
        ),
        ("frames.u3d", u3d_with(&U3dOptions { reuse_first_frame: true, ..U3dOptions::new(3, 0) })),
        ("rigid.u3d", u3d_with(&U3dOptions { skin_weights: 0, ..U3dOptions::new(2, 2) })),
    ]
}

/// The quad's corners in Ultimate 3D axes (x right, y up, z into the screen), 64 units
/// tall, facing the viewer (-z); frame `f` pushes the top right corner `8 * f` away.
pub fn u3d_quad(frame: u16) -> [[f32; 3]; 4] {
    [[-32.0, 0.0, 0.0], [32.0, 0.0, 0.0], [32.0, 64.0, 8.0 * f32::from(frame)], [-32.0, 64.0, 0.0]]
}

/// See [`U3dOptions`]. Meshes are stored frame by frame, LOD by LOD (LOD 1.0 then 0.5);
/// the quad's triangles are clockwise seen from the front (Direct3D's front faces), the
/// first in material 0 and the second in material 1. Bone `b > 0` hangs 32 units above
/// its parent; its keys bend it about z from frame 0 to the last frame.
pub fn u3d_with(o: &U3dOptions) -> Vec<u8> {
    let (frames, bones) = (o.frames, o.bones);
    let lods = 2u16;
    let skinned = bones > 0 && o.skin_weights > 0;
    let rigid = bones > 0 && o.skin_weights == 0;
    let meshes = if bones == 0 { frames * lods } else { lods };
    let materials: &[&str] = if o.undocumented_materials {
        &["Stone", "Glow", "Packed", "Cube"]
    } else {
        &["Stone", "Glow"]
    };
    let mut out = Vec::new();
    out.extend_from_slice(b"U3DModelFile\0");
    out.extend(floats(&[1.0]));
    out.extend_from_slice(&meshes.to_le_bytes());
    out.extend_from_slice(&1u16.to_le_bytes());
    out.extend_from_slice(&u32::from(frames).to_le_bytes());
    out.extend_from_slice(&lods.to_le_bytes());
    out.extend_from_slice(&(materials.len() as u16).to_le_bytes());
    out.extend_from_slice(&bones.to_le_bytes());
    out.extend(floats(&[0.5, 0.0, 0.0, 0.0, 1.0]));
    out.extend_from_slice(&[1, u8::from(bones == 0)]);
    out.extend(floats(&[0.5])); // LOD level
    out.extend(floats(&[10_000.0])); // LOD distance squared
    for m in 0..meshes {
        let frame = if bones == 0 { m / lods } else { 0 };
        let owned = !(o.reuse_first_frame && frame > 0);
        out.extend_from_slice(b"$U3D_MESH\0");
        cstr(&mut out, &format!("Quad{m}"));
        out.extend_from_slice(&frame.to_le_bytes());
        out.extend(floats(&[if m % 2 == 0 { 1.0 } else { 0.5 }, 1.0]));
        out.push(0);
        let verts = 4u16;
        out.extend_from_slice(&verts.to_le_bytes());
        let mut dims = [0u16; 8];
        dims[0] = 2;
        dims[1] = 3;
        for d in dims {
            out.extend_from_slice(&d.to_le_bytes());
        }
        let sw: u16 = if skinned { o.skin_weights } else { 0 };
        out.extend_from_slice(&sw.to_le_bytes());
        out.push(if bones > 0 { bones as u8 - 1 } else { 0 });
        // One shadow-volume vertex and triangle, to exercise the skip.
        out.extend_from_slice(&1u16.to_le_bytes());
        out.extend_from_slice(&1u16.to_le_bytes());
        let sv_floats = 6 + usize::from(sw) + usize::from(skinned);
        out.extend(std::iter::repeat_n(0u8, sv_floats * 4));
        out.extend_from_slice(&[0, 0, 0, 0, 0, 0]);
        for p in u3d_quad(frame) {
            out.extend(floats(&p));
        }
        // Normals towards the viewer: latitude 0, longitude -127 (half a turn from +z).
        for _ in 0..verts {
            out.extend_from_slice(&[0, (-127i8).to_le_bytes()[0]]);
        }
        out.extend_from_slice(&[0, u8::from(owned)]);
        if owned {
            for uv in [[0.0, 1.0], [1.0, 1.0], [1.0, 0.0], [0.0, 0.0]] {
                out.extend(floats(&uv));
            }
            for i in 0..verts {
                out.extend(floats(&[f32::from(i), 1.0, 2.0]));
            }
        }
        if skinned {
            // Bottom corners on bone 0, top corners mostly on the last bone.
            let top = bones as u8 - 1;
            for i in 0..verts {
                let mut w = vec![if i < 2 { 1.0 } else { 0.75 }];
                w.resize(usize::from(sw), 0.0);
                if sw >= 2 {
                    w[1] = if i < 2 { 0.0 } else { 0.25 };
                }
                out.extend(floats(&w));
            }
            for i in 0..verts {
                out.extend_from_slice(&if i < 2 { [0, 0, 0, 0] } else { [top, 0, 0, 0] });
            }
        }
        out.extend_from_slice(&2u16.to_le_bytes());
        out.push(u8::from(owned));
        if owned {
            for t in [[0u16, 3, 2], [0, 2, 1]] {
                for i in t {
                    out.extend_from_slice(&i.to_le_bytes());
                }
            }
            out.extend_from_slice(&0u16.to_le_bytes());
            out.extend_from_slice(&1u16.to_le_bytes());
        }
    }
    for (i, name) in materials.iter().enumerate() {
        out.extend_from_slice(b"$U3D_MAT\0");
        cstr(&mut out, name);
        out.extend(floats(&[0.2, 0.2, 0.2, 1.0])); // ambient
        out.extend(floats(&[0.8, 0.5 + 0.1 * i as f32, 0.25, 1.0])); // diffuse
        out.extend(floats(&[1.0, 1.0, 1.0, 1.0])); // specular
        out.extend(floats(&[0.0, 0.0, 0.0, 1.0])); // emissive
        out.extend(floats(&[16.0]));
        out.extend_from_slice(&1u16.to_le_bytes());
        for op in [4u32, 1, 1, 1, 1, 1, 1, 1] {
            out.extend_from_slice(&op.to_le_bytes());
        }
        out.extend(std::iter::repeat_n(0u8, 32));
        if i == 2 {
            out.push(1); // ExportResources: the embedded files are undocumented.
            out.extend_from_slice(b"embedded texture bytes");
            continue;
        }
        out.push(0);
        for stage in 0..8 {
            if stage == 0 {
                out.push(1);
                out.extend_from_slice(&u32::from(i == 3).to_le_bytes());
                cstr(&mut out, &format!("tex{i}"));
                out.extend_from_slice(&256u16.to_le_bytes());
                out.extend_from_slice(&128u16.to_le_bytes());
                cstr(&mut out, &format!("textures\\{name}.bmp"));
                if i == 3 {
                    out.extend_from_slice(b"cube map faces");
                    break;
                }
            } else {
                out.push(0);
            }
        }
        match i {
            1 => {
                out.push(1); // EffectUsed: undocumented data follows up to the next chunk.
                out.extend_from_slice(b"effect source that v1.0 does not describe");
            }
            3 => {}
            _ => out.push(0),
        }
    }
    for b in 0..bones {
        out.extend_from_slice(b"$U3D_BONE\0");
        cstr(&mut out, &format!("Bone{b}"));
        out.extend_from_slice(&(if b == 0 { u16::MAX } else { b - 1 }).to_le_bytes());
        out.extend(floats(&[-1.0]));
        out.push(1);
        let attached: Vec<u16> = if skinned {
            vec![0, 1]
        } else if rigid && bones - 1 - b < lods {
            vec![bones - 1 - b]
        } else {
            Vec::new()
        };
        out.extend_from_slice(&(attached.len() as u16).to_le_bytes());
        for m in &attached {
            out.extend_from_slice(&m.to_le_bytes());
        }
        // Skinned: mesh to bone space is the inverse of the bone's rest pose (32 * b up).
        // Rigid: the mesh sits at the bone.
        let down = if skinned { 0.0 - 32.0 * f32::from(b) } else { 0.0 };
        for _ in &attached {
            out.extend(floats(&[
                1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, down, 0.0, 1.0,
            ]));
        }
        let last = frames.saturating_sub(1);
        let up = if b == 0 { 0.0 } else { 32.0 };
        // Scaling: one key. Translation: rest and last frame. Rotation: rest, then a
        // quarter turn about z at the last frame (sin/cos of 45 degrees).
        let s = std::f32::consts::FRAC_1_SQRT_2;
        let (z, w) = if b == 0 { (0.0, 1.0) } else { (s, s) };
        let groups: [Vec<(u16, Vec<f32>)>; 3] = [
            vec![(0, vec![1.0, 1.0, 1.0])],
            vec![(0, vec![0.0, up, 0.0]), (last, vec![0.0, up, 0.0])],
            vec![(0, vec![0.0, 0.0, 0.0, 1.0]), (last, vec![0.0, 0.0, z, w])],
        ];
        for keys in groups {
            out.extend_from_slice(&(keys.len() as u16).to_le_bytes());
            out.extend_from_slice(&0u16.to_le_bytes());
            for (frame, value) in keys {
                out.extend_from_slice(&frame.to_le_bytes());
                out.extend_from_slice(&0u16.to_le_bytes());
                out.extend(floats(&value));
            }
        }
    }
    out
}

/// A UE2 `SkeletalMesh` body (after its properties), laid out as UT2004's serializers write it
/// and as measured in its `.ukx` files (`InternalVersion` 4, one static LOD model whose render
/// arrays are empty here, the raw import arrays holding the geometry): a quad of 4 points in
/// the XY plane, 4 wedges, 2 faces on material 0, `bones` bones in a chain (bone `i` 10 units
/// along X from its parent), each point weighted fully to bone `i % bones`.
pub fn ue2_skeletal_mesh(o: &mut Obj, materials: &[i32], bones: &[usize]) {
    let v = o.version;
    o.bytes(&[0; 25]).bytes(&[0; 16]); // BoundingBox, BoundingSphere
    o.i32(4).i32(4); // InternalVersion, ModelVerts
    o.index(0); // Verts
    o.index(materials.len() as i32);
    for &m in materials {
        o.index(m);
    }
    for f in [1.0f32, 1.0, 1.0, 0.0, 0.0, 0.0] {
        o.f32(f); // Scale, Origin
    }
    o.i32(0).i32(0).i32(0); // RotOrigin
    o.index(0).index(0).index(0).index(0).index(0); // FaceLevel .. MeshMaterials
    o.bytes(&[0; 24]); // MeshScaleMax, LOD parameters
    o.i32(0).index(0).bytes(&[0; 52]); // bImpostorPresent, ImpostorProps
    o.f32(0.0); // SkinTesselationFactor
    o.index(0); // Points
    o.index(bones.len() as i32);
    for (i, &name) in bones.iter().enumerate() {
        o.index(name as i32).u32(0);
        o.f32(0.0).f32(0.0).f32(0.0).f32(1.0); // Orientation
        o.f32(if i == 0 { 0.0 } else { 10.0 }).f32(0.0).f32(0.0); // Position
        o.bytes(&[0; 16]); // Length, sizes
        o.i32(i32::from(i + 1 < bones.len())).i32(i.saturating_sub(1) as i32);
    }
    o.index(0).i32(bones.len() as i32); // DefaultAnim, SkeletalDepth
    o.index(0).index(0).index(0).index(0).index(0); // MultiBlends, Weights, TagAliases, TagNames, TagCoords
    o.index(1); // LODModels
    o.index(0).index(0).i32(0).index(0).index(0); // SkinningStream .. RigidSections
    o.index(0).i32(0).index(0).i32(0); // index buffers
    o.i32(0).i32(0).i32(0).index(0); // RigidVertexStream
    for _ in 0..4 {
        o.lazy(0, &[]); // Influences, Wedges, Faces, Points
    }
    o.f32(1.0).bytes(&[0; 20]);
    o.index(0); // DefaultRefMesh
    let points = [[0.0f32, 0.0, 0.0], [64.0, 0.0, 0.0], [64.0, 64.0, 0.0], [0.0, 64.0, 0.0]];
    let mut raw = Vec::new();
    for p in points {
        for c in p {
            raw.extend_from_slice(&c.to_le_bytes());
        }
    }
    o.lazy(4, &raw);
    raw.clear();
    for (i, uv) in [[0.0f32, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]].iter().enumerate() {
        raw.extend_from_slice(&(i as u16).to_le_bytes());
        for c in uv {
            raw.extend_from_slice(&c.to_le_bytes());
        }
    }
    o.lazy(4, &raw);
    raw.clear();
    for face in [[0u16, 1, 2], [0, 2, 3]] {
        for c in face {
            raw.extend_from_slice(&c.to_le_bytes());
        }
        raw.extend_from_slice(&[0, 0, 1, 0, 0, 0]); // MatIndex, AuxMatIndex, SmoothingGroups
    }
    o.lazy(2, &raw);
    raw.clear();
    for p in 0..4u16 {
        raw.extend_from_slice(&1.0f32.to_le_bytes());
        raw.extend_from_slice(&p.to_le_bytes());
        raw.extend_from_slice(&((usize::from(p) % bones.len().max(1)) as u16).to_le_bytes());
    }
    o.lazy(if bones.is_empty() { 0 } else { 4 }, if bones.is_empty() { &[] } else { &raw });
    o.lazy(0, &[]).lazy(0, &[]); // RawCollapseWedges, RawFaceLevel
    if v >= 120 {
        o.u32(0); // AuthenticationKey
    }
    if v >= 122 {
        o.index(0).index(0).index(0).index(0); // KPhysicsProps, spheres, boxes, box models
    }
    if v >= 127 {
        o.index(0); // CollisionStaticMesh
    }
}

/// The raw vertex integers (`FMeshVert`: X and Y in 11 bits, Z in 10) of
/// [`ue2_vert_mesh`]'s two frames: a quad 512 by 256 on the ground, then lifted 100.
pub const VERT_MESH_FRAMES: [[[i32; 3]; 4]; 2] = [
    [[0, 0, 0], [512, 0, 0], [512, 256, 0], [0, 256, 0]],
    [[0, 0, 100], [512, 0, 100], [512, 256, 100], [0, 256, 100]],
];

/// [`ue2_vert_mesh`]'s `Scale`, `Origin` and `RotOrigin` (a quarter turn of yaw).
pub const VERT_MESH_SPACE: ([f32; 3], [f32; 3], [i32; 3]) =
    ([0.25, 0.25, 0.5], [256.0, 128.0, 0.0], [0, 16384, 0]);

/// A UE2 `VertMesh` body (after its properties), laid out as `UVertMesh::Serialize` writes it
/// (UT2004 `Engine/Src/UnVertMesh.cpp` over `ULodMesh::Serialize`): [`VERT_MESH_FRAMES`] in
/// `Verts`, `materials` (object references) as its `Materials`, [`VERT_MESH_SPACE`], two
/// faces of the quad on material 0 and a third on an invisible material (a weapon
/// placeholder), the wedges' coordinates as floats, one sequence `sequence` over both frames
/// at 10 a second, and a box and a sphere per frame.
pub fn ue2_vert_mesh(o: &mut Obj, materials: &[i32], sequence: usize) {
    let v = o.version;
    o.bytes(&[0; 25]).bytes(&[0; 16]); // BoundingBox, BoundingSphere
    o.i32(4).i32(4); // InternalVersion, ModelVerts
    o.index(8);
    for frame in VERT_MESH_FRAMES {
        for [x, y, z] in frame {
            o.u32((x as u32 & 0x7ff) | ((y as u32 & 0x7ff) << 11) | ((z as u32 & 0x3ff) << 22));
        }
    }
    o.index(materials.len() as i32);
    for &m in materials {
        o.index(m);
    }
    let (scale, origin, rot_origin) = VERT_MESH_SPACE;
    for f in scale.into_iter().chain(origin) {
        o.f32(f);
    }
    for r in rot_origin {
        o.i32(r);
    }
    o.index(0); // FaceLevel
    o.index(3);
    for (wedges, material) in [([0u16, 1, 2], 0u16), ([0, 2, 3], 0), ([0, 1, 3], 1)] {
        for w in wedges {
            o.u16(w);
        }
        o.u16(material);
    }
    o.index(0); // CollapseWedgeThus
    o.index(4);
    for (vertex, [u, v]) in
        [(0u16, [0.0f32, 0.0]), (1, [1.0, 0.0]), (2, [1.0, 0.5]), (3, [0.0, 0.5])]
    {
        o.u16(vertex).f32(u).f32(v);
    }
    o.index(2).u32(0).i32(0).u32(0x1).i32(0); // MeshMaterials: visible, then PF_Invisible
    o.bytes(&[0; 24]); // MeshScaleMax, LOD parameters
    o.i32(0).index(0).bytes(&[0; 52]); // bImpostorPresent, ImpostorProps
    o.f32(0.0); // SkinTesselationFactor
    o.index(0).i32(0); // VertexStream: Vertices, Revision
    o.index(0).index(0); // AnimVerts, FrameKeys
    o.index(1);
    if v >= 115 {
        o.f32(0.0); // Bookmark
    }
    o.index(sequence as i32).index(0).i32(0).i32(2).index(0).f32(10.0);
    o.index(0); // AnimNormals
    o.i32(4).i32(2); // FrameVerts, AnimFrames
    o.index(2);
    for frame in VERT_MESH_FRAMES {
        let low = [0, 1, 2].map(|k| frame.iter().map(|p| p[k]).min().unwrap_or(0));
        let high = [0, 1, 2].map(|k| frame.iter().map(|p| p[k]).max().unwrap_or(0));
        for c in low.into_iter().chain(high) {
            o.f32(c as f32);
        }
        o.u8(1);
    }
    o.index(2).bytes(&[0; 32]); // BoundingSpheres
}

/// A UT2004-style `.ukx` (version 128, licensee 29) holding a `VertMesh` named `name`
/// ([`ue2_vert_mesh`]) whose material 0 is the package's texture `Skin` (red).
pub fn ue2_vert_mesh_package(version: u16, licensee: u16, name: &str) -> Vec<u8> {
    let mut w = PackageWriter::new(version, licensee);
    let mesh = w.engine_class("VertMesh");
    let texture = w.engine_class("Texture");
    let [format, usize_name, vsize_name, sequence] =
        ["Format", "USize", "VSize", "Wave"].map(|n| w.name(n));
    // The texture is export 2: the mesh names it as its material 0.
    w.export(
        mesh,
        0,
        name,
        0,
        Box::new(move |o, w| {
            write_props(o, &[], w.none());
            ue2_vert_mesh(o, &[2], sequence);
        }),
    );
    w.export(
        texture,
        0,
        "Skin",
        0,
        ue2_rgba8_texture(format, usize_name, vsize_name, [255, 0, 0, 255]),
    );
    w.finish()
}

/// A UT2004-style `.ukx` (version 126, licensee 29): a `SkeletalMesh` and a `MeshAnimation`
/// both named `name` (as `Weapons.ukx` pairs them), the mesh skinned by a texture `Skin` of
/// the package.
pub fn ue2_skeletal_package(version: u16, licensee: u16, name: &str) -> Vec<u8> {
    let mut w = PackageWriter::new(version, licensee);
    let animation = w.engine_class("MeshAnimation");
    let mesh = w.engine_class("SkeletalMesh");
    let texture = w.engine_class("Texture");
    let bones = vec![w.name("Bone_Root"), w.name("Bone_Tip")];
    let format = w.name("Format");
    let usize_name = w.name("USize");
    let vsize_name = w.name("VSize");
    let sequences = vec![(w.name("Idle"), 10, 15.0f32), (w.name("Fire"), 4, 30.0)];
    let group = w.name("Weapon");
    let anim_bones = bones.clone();
    w.export(
        animation,
        0,
        name,
        0,
        Box::new(move |o, w| {
            write_props(o, &[], w.none());
            ue2_mesh_animation(o, &anim_bones, &sequences, group, 2);
        }),
    );
    // The texture is export 3: the mesh names it as its material 0.
    w.export(
        mesh,
        0,
        name,
        0,
        Box::new(move |o, w| {
            write_props(o, &[], w.none());
            ue2_skeletal_mesh(o, &[3], &bones);
        }),
    );
    w.export(
        texture,
        0,
        "Skin",
        0,
        ue2_rgba8_texture(format, usize_name, vsize_name, [255, 0, 0, 255]),
    );
    w.finish()
}

/// A UE2 `MeshAnimation` body (after its properties), laid out as `UMeshAnimation::Serialize`
/// writes it: `InternalVersion`, `bones` as the reference skeleton (a chain), one motion chunk
/// per sequence (one track per bone of `keys` rotation and position keys), and the sequences
/// `(name, frames, rate)`, the first in group `group` with one notify.
pub fn ue2_mesh_animation(
    o: &mut Obj,
    bones: &[usize],
    sequences: &[(usize, i32, f32)],
    group: usize,
    keys: usize,
) {
    let v = o.version;
    o.i32(6); // InternalVersion
    o.index(bones.len() as i32);
    for (i, &name) in bones.iter().enumerate() {
        o.index(name as i32).u32(0).i32(i.saturating_sub(1) as i32);
    }
    let track = |o: &mut Obj, keys: usize| {
        o.u32(0);
        o.index(keys as i32);
        for _ in 0..keys {
            o.f32(0.0).f32(0.0).f32(0.0).f32(1.0);
        }
        o.index(keys as i32);
        for _ in 0..keys {
            o.f32(1.0).f32(2.0).f32(3.0);
        }
        o.index(keys as i32);
        for k in 0..keys {
            o.f32(k as f32);
        }
    };
    o.index(sequences.len() as i32);
    for _ in sequences {
        o.f32(0.0).f32(0.0).f32(0.0).f32(1.0).i32(0).u32(0); // RootSpeed3D, TrackTime, StartBone, Flags
        o.index(bones.len() as i32);
        for i in 0..bones.len() {
            o.i32(i as i32);
        }
        o.index(bones.len() as i32);
        for _ in bones {
            track(o, keys);
        }
        track(o, 0); // RootTrack
    }
    o.index(sequences.len() as i32);
    for (i, &(name, frames, rate)) in sequences.iter().enumerate() {
        if v >= 115 {
            o.f32(0.0); // Bookmark
        }
        o.index(name as i32);
        if i == 0 {
            o.index(1).index(group as i32);
        } else {
            o.index(0);
        }
        o.i32(0).i32(frames);
        if i == 0 {
            o.index(1).f32(0.5).index(group as i32);
            if v >= 112 {
                o.index(0); // NotifyObject
            }
        } else {
            o.index(0);
        }
        o.f32(rate);
    }
}

/// The `Materials` property value of a UE2 `StaticMesh`: a count, then each entry's
/// `StaticMeshMaterial` as tagged properties (licensee 28 and later: `Material`, then
/// `EnableCollision` true) or as the engine's binary fields (`EnableCollision` byte, then the
/// `Material` reference).
pub fn ue2_static_mesh_materials(
    licensee: u16,
    materials: &[i32],
    material_name: usize,
    enable_collision_name: usize,
    none: usize,
) -> Vec<u8> {
    let mut o = Obj { base: 0, version: 128, buf: compact(materials.len() as i32) };
    for &m in materials {
        if licensee >= 0x1c {
            let object = Prop::plain(material_name, 5, compact(m));
            let collide = Prop {
                name: enable_collision_name,
                type_id: 3,
                struct_name: None,
                array_index: 0,
                bool_value: true,
                value: Vec::new(),
            };
            write_props(&mut o, &[object, collide], none);
        } else {
            o.u8(1).index(m);
        }
    }
    o.buf
}

/// The geometry of [`ue2_static_mesh`]: a 64-unit quad at Z 0 (section 0, two triangles) and
/// a triangle at Z 32 (section 1).
pub const STATIC_MESH_POSITIONS: [[f32; 3]; 7] = [
    [0.0, 0.0, 0.0],
    [64.0, 0.0, 0.0],
    [64.0, 64.0, 0.0],
    [0.0, 64.0, 0.0],
    [0.0, 0.0, 32.0],
    [64.0, 0.0, 32.0],
    [0.0, 64.0, 32.0],
];

/// A UE2 `StaticMesh` body (after its properties), laid out as `UStaticMesh::Serialize`
/// writes it in the package's version and `licensee` ([`STATIC_MESH_POSITIONS`], normals up,
/// UVs `x / 64, y / 64`, one raw triangle). From version 112 the vertices are shared and
/// section `i` uses material `i` of the `Materials` property; before, each section carries its
/// vertices and names its material (`legacy_materials`).
pub fn ue2_static_mesh(o: &mut Obj, licensee: u16, legacy_materials: &[i32]) {
    let v = o.version;
    let points = STATIC_MESH_POSITIONS;
    let uv = |p: [f32; 3]| [p[0] / 64.0, p[1] / 64.0];
    o.bytes(&[0; 25]).bytes(&[0; 16]); // BoundingBox, BoundingSphere
    let sections: [&[usize]; 2] = [&[0, 1, 2, 3], &[4, 5, 6]];
    let section_indices: [&[u16]; 2] = [&[0, 1, 2, 0, 2, 3], &[4, 5, 6]];
    let vertex = |o: &mut Obj, k: usize| {
        for c in points[k] {
            o.f32(c);
        }
        o.f32(0.0).f32(0.0).f32(1.0);
        if v < 112 {
            let [a, b] = uv(points[k]);
            o.f32(a).f32(b);
            if licensee >= 5 {
                o.f32(a * 2.0).f32(b * 2.0);
            }
        }
        if v == 111 {
            o.u32(0xffff_ffff);
        }
    };
    let indices = |o: &mut Obj, list: &[u16]| {
        o.index(list.len() as i32);
        for &i in list {
            o.u16(i);
        }
        o.i32(1); // Revision
    };
    o.index(2);
    if v >= 112 {
        // IsStrip, FirstIndex, MinVertexIndex, MaxVertexIndex, NumTriangles, NumPrimitives.
        o.u32(0).u16(0).u16(0).u16(3).u16(2).u16(2);
        o.u32(0).u16(6).u16(4).u16(6).u16(1).u16(1);
    } else {
        for (s, verts) in sections.iter().enumerate() {
            let tris = section_indices[s].len() as u16 / 3;
            o.u32(0).u16(tris).u16(tris);
            o.index(legacy_materials.get(s).copied().unwrap_or(0));
            o.u32(0); // PolyFlags
            o.index(verts.len() as i32);
            for &k in *verts {
                vertex(o, k);
            }
            o.i32(1);
            let base = verts[0] as u16;
            let local: Vec<u16> = section_indices[s].iter().map(|i| i - base).collect();
            indices(o, &local);
            indices(o, &[]); // WireframeIndexBuffer
            if v >= 111 {
                o.index(0); // UVStreams
            }
            if licensee >= 5 && v < 111 {
                o.u8(0);
            }
        }
    }
    for c in [0.0f32, 0.0, 0.0, 64.0, 64.0, 32.0] {
        o.f32(c);
    }
    o.u8(1);
    if v < 112 {
        o.index(0); // CollisionPrimitives
    } else {
        o.index(7);
        for k in 0..7 {
            vertex(o, k);
        }
        o.i32(1);
        for _ in 0..2 {
            // ColorStream, AlphaStream
            o.index(7).bytes(&[0xff; 28]).i32(1);
        }
        o.index(1).index(7);
        for point in points {
            let [a, b] = uv(point);
            o.f32(a).f32(b);
        }
        o.i32(0).i32(1);
        indices(o, &[0, 1, 2, 0, 2, 3, 4, 5, 6]);
        indices(o, &[0, 1, 1, 2]);
        o.index(0); // CollisionModel
        if v < 126 {
            o.index(0).index(0); // CollisionTriangles, CollisionNodes
        } else {
            o.index(1).bytes(&[0; 24]).u32(0).u16(3).u16(0); // kDOP Nodes: one leaf
            o.index(3);
            for t in [[0u16, 1, 2, 0], [0, 2, 3, 0], [4, 5, 6, 1]] {
                for c in t {
                    o.u16(c);
                }
            }
        }
        if v < 114 {
            o.u32(0).u32(1).u32(0);
        }
    }
    // One raw triangle, the quad's first.
    let mut raw = Obj { base: 0, version: v, buf: Vec::new() };
    if v < 111 {
        for point in &points[..3] {
            for c in point {
                raw.f32(*c);
            }
            raw.f32(0.0).f32(0.0).f32(1.0);
            let [a, b] = uv(*point);
            raw.f32(a).f32(b);
            if licensee >= 5 {
                raw.f32(a).f32(b);
            }
        }
    } else {
        for point in &points[..3] {
            for c in point {
                raw.f32(*c);
            }
        }
        raw.i32(1);
        for point in &points[..3] {
            let [a, b] = uv(*point);
            raw.f32(a).f32(b);
        }
        raw.bytes(&[0xff; 12]);
    }
    if v < 112 {
        raw.f32(0.0).f32(0.0).f32(1.0).index(legacy_materials.first().copied().unwrap_or(0));
        raw.u32(0);
    } else {
        raw.i32(0);
    }
    raw.u32(1); // SmoothingMask
    if licensee > 1 && v < 112 {
        raw.u8(0);
    }
    if licensee >= 0x19 && v < 112 {
        raw.bytes(&[0; 12]);
    }
    o.lazy(1, &raw.buf);
    o.i32(11); // InternalVersion
    if licensee == 0x16 {
        o.f32(0.5);
    } else if licensee > 0x16 {
        o.index(1).f32(0.5); // MaxSmoothingAngles
    }
    if licensee >= 0x18 && v < 111 {
        o.i32(0);
    }
    if licensee >= 0x19 && v < 111 {
        o.u32(0);
    }
    o.index(0); // KPhysicsProps
    if v >= 120 {
        o.u32(0x1234_5678); // AuthenticationKey
    }
}

/// A UT2004-style `.usx` holding a `StaticMesh` `Crate` in group `Meshes`, skinned by the
/// package's texture `Wood` (material 0) and by a `FinalBlend` `WoodBlend` over a `Shader`
/// `WoodShader` whose `Diffuse` is `Wood` (material 1).
pub fn ue2_static_package(version: u16, licensee: u16) -> Vec<u8> {
    let mut w = PackageWriter::new(version, licensee);
    let mesh = w.engine_class("StaticMesh");
    let texture = w.engine_class("Texture");
    let shader = w.engine_class("Shader");
    let final_blend = w.engine_class("FinalBlend");
    let materials = w.name("Materials");
    let material = w.name("Material");
    let enable = w.name("EnableCollision");
    let diffuse = w.name("Diffuse");
    let format = w.name("Format");
    let usize_name = w.name("USize");
    let vsize_name = w.name("VSize");
    // Export 1: the group; 2: the mesh; 3: Wood; 4: WoodShader; 5: WoodBlend.
    let group_class = w.import("Core", "Class", 0, "Package");
    let group = w.export(group_class, 0, "Meshes", 0, Box::new(|_, _| {}));
    let object = |name: usize, v: i32| Prop::plain(name, 5, compact(v));
    w.export(
        mesh,
        group,
        "Crate",
        0,
        Box::new(move |o, w| {
            let list = if version >= 112 {
                vec![Prop::plain(
                    materials,
                    9,
                    ue2_static_mesh_materials(licensee, &[3, 5], material, enable, w.none()),
                )]
            } else {
                Vec::new()
            };
            write_props(o, &list, w.none());
            ue2_static_mesh(o, licensee, &[3, 5]);
        }),
    );
    w.export(
        texture,
        0,
        "Wood",
        0,
        ue2_rgba8_texture(format, usize_name, vsize_name, [160, 96, 32, 255]),
    );
    w.export(
        shader,
        0,
        "WoodShader",
        0,
        Box::new(move |o, w| write_props(o, &[object(diffuse, 3)], w.none())),
    );
    w.export(
        final_blend,
        0,
        "WoodBlend",
        0,
        Box::new(move |o, w| write_props(o, &[object(material, 4)], w.none())),
    );
    w.finish()
}

/// A generated game folder of `packages` packages of empty objects, as `(path, bytes)` under
/// `/game`: `System/Core.u` and `System/Engine.u`, then texture packages (`Textures/*.utx`,
/// 20 textures in groups each), sound packages (`Sounds/*.uax`, 15 sounds), static mesh
/// packages (`StaticMeshes/*.usx`, 10 meshes) and code packages (`System/*.u`, 10 classes),
/// six of every ten being texture packages. Names are made of common words and numbers, so
/// that a fragment (`granite`) matches many objects. Deterministic for a `seed`.
pub fn game_folder(packages: usize, seed: u64) -> Vec<(String, Vec<u8>)> {
    const WORDS: &[&str] = &[
        "Brick", "Granite", "Marble", "Metal", "Rust", "Wood", "Plank", "Tile", "Floor", "Wall",
        "Ceiling", "Door", "Panel", "Pipe", "Grate", "Light", "Lamp", "Sky", "Cloud", "Water",
        "Lava", "Slime", "Glass", "Crate", "Barrel", "Rock", "Sand", "Grass", "Dirt", "Moss",
        "Steel", "Copper", "Alien", "Temple", "Castle", "Skaarj", "Nali", "Tech", "Base", "Cave",
    ];
    const GROUPS: &[&str] = &["Base", "Trim", "Walls", "Floors", "Detail", "Fx", "Skins", "Signs"];
    let mut rng = crate::Rng::new(seed);
    let mut out = vec![
        ("/game/System/Core.u".to_owned(), object_package(&[("Class", "Object")])),
        ("/game/System/Engine.u".to_owned(), object_package(&[("Class", "Actor")])),
    ];
    for i in 0..packages.saturating_sub(2) {
        let word = |rng: &mut crate::Rng| *rng.pick(WORDS);
        let stem = format!("{}{}{i}", word(&mut rng), word(&mut rng));
        let (folder, ext, class, count) = match i % 10 {
            0..=5 => ("Textures", "utx", "Texture", 20),
            6 | 7 => ("Sounds", "uax", "Sound", 15),
            8 => ("StaticMeshes", "usx", "StaticMesh", 10),
            _ => ("System", "u", "Class", 10),
        };
        let names: Vec<String> = (0..count)
            .map(|n| {
                let name = format!("{}{}{n}", word(&mut rng), word(&mut rng));
                if class == "Class" {
                    name
                } else {
                    format!("{}.{name}", rng.pick(GROUPS))
                }
            })
            .collect();
        let objects: Vec<(&str, &str)> = names.iter().map(|n| (class, n.as_str())).collect();
        out.push((format!("/game/{folder}/{stem}.{ext}"), object_package(&objects)));
    }
    out
}

/// A UT2004 texture package (version 128) of 2x2 RGBA8 textures, each `(Group.Name, pixel)`
/// (a path without a dot has no group): images a level's surfaces can be textured with.
pub fn texture_package(textures: &[(&str, [u8; 4])]) -> Vec<u8> {
    let mut w = PackageWriter::new(128, 0);
    let texture = w.engine_class("Texture");
    let format = w.name("Format");
    let usize_name = w.name("USize");
    let vsize_name = w.name("VSize");
    let mut groups: Vec<(String, i32)> = Vec::new();
    for (path, pixel) in textures {
        let (outer, name) = match path.rsplit_once('.') {
            Some((group, name)) => {
                let known = groups.iter().find(|(g, _)| g == group).map(|(_, r)| *r);
                let outer = known.unwrap_or_else(|| {
                    let package_class = w.import("Core", "Class", 0, "Package");
                    let r = w.export(package_class, 0, group, 0, Box::new(|_, _| {}));
                    groups.push((group.to_owned(), r));
                    r
                });
                (outer, name)
            }
            None => (0, *path),
        };
        let body = ue2_rgba8_texture(format, usize_name, vsize_name, *pixel);
        w.export(texture, outer, name, 0, body);
    }
    w.finish()
}

/// The body of a UE2 `Texture` export: RGBA8 (format 5), 2x2, one mip of `pixel`; `format`,
/// `usize_name` and `vsize_name` are the package's names `Format`, `USize` and `VSize`.
pub fn ue2_rgba8_texture(
    format: usize,
    usize_name: usize,
    vsize_name: usize,
    pixel: [u8; 4],
) -> Body {
    ue2_rgba8_texture_of(format, usize_name, vsize_name, [pixel; 4])
}

/// [`ue2_rgba8_texture`] with a pixel of its own for each of the four texels (rows top to
/// bottom, each pixel as stored: B, G, R, A).
pub fn ue2_rgba8_texture_of(
    format: usize,
    usize_name: usize,
    vsize_name: usize,
    pixels: [[u8; 4]; 4],
) -> Body {
    Box::new(move |o, w| {
        let int = |name: usize, v: i32| Prop::plain(name, 2, v.to_le_bytes().to_vec());
        let format = Prop::plain(format, 1, vec![5]);
        write_props(o, &[format, int(usize_name, 2), int(vsize_name, 2)], w.none());
        o.index(1);
        let pixels = pixels.concat();
        o.lazy(16, &pixels).i32(2).i32(2).u8(1).u8(1);
    })
}

/// One layer of [`ue2_map_with_terrain`]'s terrain: its texture (a solid 2x2 texture of the
/// map's own, as stored: B, G, R, A), its alpha map (2x2, the alpha of each texel, rows top to
/// bottom) and its `UScale`/`VScale` and `TextureMapAxis`.
#[derive(Clone, Copy, Debug)]
pub struct TerrainLayerSpec {
    pub texture: [u8; 4],
    pub alpha: [u8; 4],
    pub scale: f32,
    pub map_axis: u8,
}

/// A built UT2004 map (version 128, licensee 29) of [`map_package`]'s brushes and level and a
/// `TerrainInfo` of `size` by `size` vertices, flat at height 0, laid out as
/// `ATerrainInfo::CalcCoords` lays a terrain at the world's origin with a `TerrainScale` of 64
/// (its stored `ToWorld` and `ToHeightmap` included), every quad drawn; its `Layers` are
/// `layers`, each with a texture and an alpha map of the map's own (then
/// no `Layers` entry after them, then `after_gap` when given, which the game never draws).
pub fn ue2_map_with_terrain(
    brushes: &[MapBrush],
    level: &[LevelPoly],
    size: u32,
    layers: &[TerrainLayerSpec],
    after_gap: Option<TerrainLayerSpec>,
) -> Vec<u8> {
    let mut w = PackageWriter::new(128, 29);
    let texture_class = w.engine_class("Texture");
    let terrain_class = w.engine_class("TerrainInfo");
    let [format, usize_name, vsize_name] = ["Format", "USize", "VSize"].map(|n| w.name(n));
    let [layers_name, terrain_layer, texture, alpha_map, u_scale, v_scale, map_axis] =
        ["Layers", "TerrainLayer", "Texture", "AlphaMap", "UScale", "VScale", "TextureMapAxis"]
            .map(|n| w.name(n));
    let mut written = Vec::new();
    let all: Vec<(u32, TerrainLayerSpec)> = layers
        .iter()
        .copied()
        .enumerate()
        .map(|(i, l)| (i as u32, l))
        .chain(after_gap.map(|l| (layers.len() as u32 + 1, l)))
        .collect();
    for (i, layer) in &all {
        let t = w.export(
            texture_class,
            0,
            &format!("LayerTexture{i}"),
            0,
            ue2_rgba8_texture(format, usize_name, vsize_name, layer.texture),
        );
        let alphas = layer.alpha.map(|a| [0, 0, 0, a]);
        let a = w.export(
            texture_class,
            0,
            &format!("LayerAlpha{i}"),
            0,
            ue2_rgba8_texture_of(format, usize_name, vsize_name, alphas),
        );
        written.push((*i, *layer, t, a));
    }
    let size_i = size as i32;
    let terrain = w.export(
        terrain_class,
        0,
        "TerrainInfo0",
        0,
        Box::new(move |o, w| {
            let none = w.none();
            let props: Vec<Prop> = written
                .iter()
                .map(|&(i, layer, t, a)| {
                    let mut fields = Obj { base: 0, version: 128, buf: Vec::new() };
                    let object = |name, r: i32| Prop::plain(name, 5, compact(r));
                    let float = |name, v: f32| Prop::plain(name, 4, v.to_le_bytes().to_vec());
                    let mut inner = vec![
                        object(texture, t),
                        object(alpha_map, a),
                        float(u_scale, layer.scale),
                        float(v_scale, layer.scale),
                    ];
                    if layer.map_axis != 0 {
                        inner.push(Prop::plain(map_axis, 1, vec![layer.map_axis]));
                    }
                    write_props(&mut fields, &inner, none);
                    Prop {
                        name: layers_name,
                        type_id: 10,
                        struct_name: Some(terrain_layer),
                        array_index: i,
                        bool_value: false,
                        value: fields.buf,
                    }
                })
                .collect();
            write_props(o, &props, none);
            // `ATerrainInfo::Serialize`'s native part, version 128.
            o.index(0);
            o.index(size_i * size_i);
            let half = (size_i / 2) as f32;
            for y in 0..size_i {
                for x in 0..size_i {
                    o.f32((x as f32 - half) * 64.0).f32((y as f32 - half) * 64.0).f32(0.0);
                }
            }
            o.i32(1).i32(1);
            o.index(0);
            // ToWorld, then ToHeightmap (its inverse), each an origin and three axes.
            for v in [[half, half, 32767.0], [64.0, 0.0, 0.0], [0.0, 64.0, 0.0], [0.0, 0.0, 0.25]] {
                o.f32(v[0]).f32(v[1]).f32(v[2]);
            }
            let back = [
                [-half * 64.0, -half * 64.0, -32767.0 * 0.25],
                [1.0 / 64.0, 0.0, 0.0],
                [0.0, 1.0 / 64.0, 0.0],
                [0.0, 0.0, 4.0],
            ];
            for v in back {
                o.f32(v[0]).f32(v[1]).f32(v[2]);
            }
            o.i32(size_i).i32(size_i);
            o.index(0);
        }),
    );
    map_into(&mut w, brushes, level, vec![terrain]);
    w.finish()
}

/// A vertex of a UE1 `_a.3d` frame packed as the engine stores it: X and Y in 11 signed bits
/// of eighths of a unit, Z in 10 of quarters (written here, not taken from the reader, so a
/// test of the reader checks it against an independent writer).
pub fn pack_vertex(p: [f32; 3]) -> u32 {
    let bits =
        |value: f32, scale: f32, width: u32| ((value * scale) as i32 as u32) & ((1 << width) - 1);
    bits(p[0], 8.0, 11) | (bits(p[1], 8.0, 11) << 11) | (bits(p[2], 4.0, 10) << 22)
}

/// One brush of [`ue1_map_package`]: an axis-aligned box of half-size `half` at `location`,
/// added (`CsgOper` 1) or subtracted (2), its six faces facing out with texture `texture`
/// (an import of package `Tex`).
#[derive(Debug, Clone)]
pub struct MapBrush {
    pub class: &'static str,
    pub csg_oper: u8,
    pub poly_flags: u32,
    pub location: [f32; 3],
    pub half: [f32; 3],
    pub texture: &'static str,
}

impl MapBrush {
    /// The room of [`carved_room`]: a `Brush` subtracting a box of half-size `half` at the
    /// world's origin, every face in `texture`.
    pub fn carved(half: [f32; 3], texture: &'static str) -> MapBrush {
        MapBrush { class: "Brush", csg_oper: 2, poly_flags: 0, location: [0.0; 3], half, texture }
    }
}

/// One polygon of the level's own model in [`ue1_map_package`]: its vertices (convex, in the
/// engine's order) and texture.
#[derive(Debug, Clone)]
pub struct LevelPoly {
    pub vertices: Vec<[f32; 3]>,
    pub texture: &'static str,
}

/// The level polygons of a room of half-size `h` carved out of the solid world (the box's
/// faces turned inward), moved `shift` along X, all in `texture`: the stored BSP of a map
/// whose one brush subtracts that room.
pub fn carved_room(h: [f32; 3], shift: f32, texture: &'static str) -> Vec<LevelPoly> {
    box_faces(h)
        .into_iter()
        .map(|mut f| {
            f.reverse();
            for v in &mut f {
                v[0] += shift;
            }
            LevelPoly { vertices: f, texture }
        })
        .collect()
}

/// A built UE1 map of one brush subtracting a 256 x 256 x 128 room at the origin, in
/// `texture`, whose stored level is that room moved `shift` along X (0: the level its
/// brush builds).
pub fn carved_room_map(shift: f32, texture: &'static str) -> Vec<u8> {
    let half = [128.0, 128.0, 64.0];
    let brush =
        MapBrush { class: "Brush", csg_oper: 2, poly_flags: 0, location: [0.0; 3], half, texture };
    ue1_map_package(&[brush], &carved_room(half, shift, texture))
}

/// The six faces of a box of half-size `h` around the origin, facing out: in the engine's
/// vertex order, whose `FPoly::CalcNormal` normal points out.
pub fn box_faces(h: [f32; 3]) -> Vec<Vec<[f32; 3]>> {
    let [x, y, z] = h;
    let mut faces = vec![
        vec![[x, -y, -z], [x, -y, z], [x, y, z], [x, y, -z]],
        vec![[-x, y, -z], [-x, y, z], [-x, -y, z], [-x, -y, -z]],
        vec![[x, y, -z], [x, y, z], [-x, y, z], [-x, y, -z]],
        vec![[-x, -y, -z], [-x, -y, z], [x, -y, z], [x, -y, -z]],
        vec![[-x, -y, z], [-x, y, z], [x, y, z], [x, -y, z]],
        vec![[-x, y, -z], [-x, -y, -z], [x, -y, -z], [x, y, -z]],
    ];
    // Written counter-clockwise seen from the front; the engine's order is the other way.
    for f in &mut faces {
        f.reverse();
    }
    faces
}

fn sub(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn cross(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
}

/// `FPoly::CalcNormal`: the normalized sum of the fan's cross products.
fn poly_normal(v: &[[f32; 3]]) -> [f32; 3] {
    let mut n = [0.0f32; 3];
    for i in 2..v.len() {
        let c = cross(sub(v[i - 1], v[0]), sub(v[i], v[0]));
        n = [n[0] + c[0], n[1] + c[1], n[2] + c[2]];
    }
    let len = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt().max(1e-6);
    n.map(|c| c / len)
}

fn vec3(o: &mut Obj, v: [f32; 3]) {
    o.f32(v[0]).f32(v[1]).f32(v[2]);
}

/// A UE1 (version 69) built map: see [`map_package`].
pub fn ue1_map_package(brushes: &[MapBrush], level: &[LevelPoly]) -> Vec<u8> {
    map_package(69, brushes, level)
}

/// A built map of package `version` (62 to 91, or from 105: the layouts `decode::model`
/// reads): a `Level` whose actors are the brushes in order (after a none entry where the
/// `LevelInfo` stands), each `Brush` actor with its `Model` and `Polys` (`CsgOper`,
/// `PolyFlags`, `Location`, `Brush` properties), and the level's own `Model` with one node and
/// one surface per entry of `level` (a linear BSP: each node's front is the next),
/// `RootOutside` false. From version 92 a model's render data after `Linked` is left out.
pub fn map_package(version: u16, brushes: &[MapBrush], level: &[LevelPoly]) -> Vec<u8> {
    let mut w = PackageWriter::new(version, 0);
    map_into(&mut w, brushes, level, Vec::new());
    w.finish()
}

/// [`map_package`] whose stored surfaces name the brush that made them (`level`'s second
/// field: an index into `brushes`), and whose level leaves out the brushes `deleted` names:
/// what UnrealEd saves after brushes were deleted since the last build (the actors stay in
/// the file, the level's surfaces referring to them).
pub fn map_package_naming(
    version: u16,
    brushes: &[MapBrush],
    level: &[(LevelPoly, usize)],
    deleted: &[usize],
) -> Vec<u8> {
    let mut w = PackageWriter::new(version, 0);
    let polys: Vec<LevelPoly> = level.iter().map(|(p, _)| p.clone()).collect();
    let named: Vec<Option<usize>> = level.iter().map(|&(_, b)| Some(b)).collect();
    map_into_naming(&mut w, brushes, &polys, Vec::new(), &named, deleted);
    w.finish()
}

/// The `StaticMesh` a [`MeshActorSpec`] stores.
#[derive(Debug, Clone, Copy)]
pub enum SpecMesh {
    /// The map's own mesh `Trim` (a [`ue2_static_mesh`] in the map, untextured).
    Own,
    /// An import of the `StaticMesh` at this path (`Package.Group.Name`).
    Import(&'static str),
    /// None written: the actor's class's default is its mesh.
    ClassDefault,
}

/// A static mesh actor of [`ue2_map_with_static_meshes`].
#[derive(Debug, Clone)]
pub struct MeshActorSpec {
    pub class: &'static str,
    pub mesh: SpecMesh,
    pub location: [f32; 3],
    pub rotation: [i32; 3],
    pub draw_scale: Option<f32>,
    pub draw_scale_3d: Option<[f32; 3]>,
    /// `DrawType`, when the actor stores one.
    pub draw_type: Option<u8>,
}

/// A built UT2004 map (version 128, licensee 29) of [`map_package`]'s brushes and level, with
/// the map's own static mesh `Trim` and `actors` placing it or imported meshes: each actor's
/// `StaticMesh` (unless its class's default is meant), `Location`, `Rotation`, `DrawScale`, `DrawScale3D` and `DrawType` written as
/// properties where given.
pub fn ue2_map_with_static_meshes(
    brushes: &[MapBrush],
    level: &[LevelPoly],
    actors: &[MeshActorSpec],
) -> Vec<u8> {
    let mut w = PackageWriter::new(128, 29);
    let mesh_class = w.engine_class("StaticMesh");
    let [materials, material, enable] =
        ["Materials", "Material", "EnableCollision"].map(|n| w.name(n));
    let own = w.export(
        mesh_class,
        0,
        "Trim",
        0,
        Box::new(move |o, w| {
            let list = Prop::plain(
                materials,
                9,
                ue2_static_mesh_materials(29, &[0, 0], material, enable, w.none()),
            );
            write_props(o, &[list], w.none());
            ue2_static_mesh(o, 29, &[]);
        }),
    );
    let [static_mesh, location, rotation, draw_scale, draw_scale_3d, draw_type, vector, rotator] =
        [
            "StaticMesh",
            "Location",
            "Rotation",
            "DrawScale",
            "DrawScale3D",
            "DrawType",
            "Vector",
            "Rotator",
        ]
        .map(|n| w.name(n));
    let mut placed = Vec::new();
    for (k, a) in actors.iter().enumerate() {
        let mesh = match a.mesh {
            SpecMesh::Own | SpecMesh::ClassDefault => own,
            SpecMesh::Import(path) => {
                let parts: Vec<&str> = path.split('.').collect();
                let mut outer = 0;
                for (i, part) in parts.iter().enumerate() {
                    outer = if i + 1 == parts.len() {
                        w.import("Engine", "StaticMesh", outer, part)
                    } else {
                        w.import("Core", "Package", outer, part)
                    };
                }
                outer
            }
        };
        let class = w.engine_class(a.class);
        let a = a.clone();
        placed.push(w.export(
            class,
            0,
            &format!("{}{k}", a.class),
            0,
            Box::new(move |o, w| {
                let floats =
                    |v: &[f32]| v.iter().flat_map(|c| c.to_le_bytes()).collect::<Vec<u8>>();
                let prop =
                    |name: usize, type_id: u8, struct_name: Option<usize>, value: Vec<u8>| Prop {
                        name,
                        type_id,
                        struct_name,
                        array_index: 0,
                        bool_value: false,
                        value,
                    };
                let mut props = vec![prop(location, 10, Some(vector), floats(&a.location))];
                if !matches!(a.mesh, SpecMesh::ClassDefault) {
                    props.push(prop(static_mesh, 5, None, compact(mesh)));
                }
                if a.rotation != [0; 3] {
                    let bytes = a.rotation.iter().flat_map(|c| c.to_le_bytes()).collect();
                    props.push(prop(rotation, 10, Some(rotator), bytes));
                }
                if let Some(scale) = a.draw_scale {
                    props.push(prop(draw_scale, 4, None, scale.to_le_bytes().to_vec()));
                }
                if let Some(scale) = a.draw_scale_3d {
                    props.push(prop(draw_scale_3d, 10, Some(vector), floats(&scale)));
                }
                if let Some(kind) = a.draw_type {
                    props.push(prop(draw_type, 1, None, vec![kind]));
                }
                write_props(o, &props, w.none());
            }),
        ));
    }
    map_into(&mut w, brushes, level, placed);
    w.finish()
}

/// A built UE1 map (version 69) of [`map_package`]'s brushes and level with one `Decoration`
/// at `location` drawn with a mesh (`DrawType` 2): its `Mesh` an import of the `LodMesh` at
/// `mesh` (`Package.Name`), and, where given, its `MultiSkins(1)` and `Skin` imports of the
/// textures at those paths.
pub fn ue1_map_with_meshed_actor(
    brushes: &[MapBrush],
    level: &[LevelPoly],
    mesh: &str,
    location: [f32; 3],
    multi_skin_1: Option<&str>,
    skin: Option<&str>,
) -> Vec<u8> {
    let mut w = PackageWriter::new(69, 0);
    let import = |w: &mut PackageWriter, class_package: &str, class: &str, path: &str| {
        let parts: Vec<&str> = path.split('.').collect();
        let mut outer = 0;
        for (i, part) in parts.iter().enumerate() {
            outer = if i + 1 == parts.len() {
                w.import(class_package, class, outer, part)
            } else {
                w.import("Core", "Package", outer, part)
            };
        }
        outer
    };
    let mesh_ref = import(&mut w, "Engine", "LodMesh", mesh);
    let multi = multi_skin_1.map(|t| import(&mut w, "Engine", "Texture", t));
    let skin_ref = skin.map(|t| import(&mut w, "Engine", "Texture", t));
    let class = w.engine_class("Decoration");
    let [draw_type, mesh_name, location_name, vector, multi_skins, skin_name] =
        ["DrawType", "Mesh", "Location", "Vector", "MultiSkins", "Skin"].map(|n| w.name(n));
    let actor = w.export(
        class,
        0,
        "Decoration0",
        0,
        Box::new(move |o, w| {
            let prop = |name: usize, type_id: u8, struct_name: Option<usize>, value: Vec<u8>| {
                Prop { name, type_id, struct_name, array_index: 0, bool_value: false, value }
            };
            let mut props = vec![
                prop(draw_type, 1, None, vec![2]),
                prop(mesh_name, 5, None, compact(mesh_ref)),
                prop(
                    location_name,
                    10,
                    Some(vector),
                    location.iter().flat_map(|c| c.to_le_bytes()).collect(),
                ),
            ];
            if let Some(r) = multi {
                props.push(Prop { array_index: 1, ..prop(multi_skins, 5, None, compact(r)) });
            }
            if let Some(r) = skin_ref {
                props.push(prop(skin_name, 5, None, compact(r)));
            }
            write_props(o, &props, w.none());
        }),
    );
    map_into(&mut w, brushes, level, vec![actor]);
    w.finish()
}

/// The map of [`map_package`] written into `w`: its brushes, their models, the level's model
/// and the `Level`, whose actors are the brushes and then `more_actors`.
fn map_into(
    w: &mut PackageWriter,
    brushes: &[MapBrush],
    level: &[LevelPoly],
    more_actors: Vec<i32>,
) {
    map_into_naming(w, brushes, level, more_actors, &[], &[]);
}

/// [`map_into`], each level polygon's surface naming the brush `surface_brush` gives it (none
/// where it gives none), the brushes `deleted` names left out of the level's actors.
fn map_into_naming(
    w: &mut PackageWriter,
    brushes: &[MapBrush],
    level: &[LevelPoly],
    more_actors: Vec<i32>,
    surface_brush: &[Option<usize>],
    deleted: &[usize],
) {
    let version = w.version;
    let level_class = w.engine_class("Level");
    let model_class = w.engine_class("Model");
    let polys_class = w.engine_class("Polys");
    let tex_package = w.import("Core", "Package", 0, "Tex");
    let mut textures: Vec<(&str, i32)> = Vec::new();
    for name in brushes.iter().map(|b| b.texture).chain(level.iter().map(|p| p.texture)) {
        if !textures.iter().any(|(t, _)| *t == name) {
            let r = w.import("Engine", "Texture", tex_package, name);
            textures.push((name, r));
        }
    }
    let texture_ref =
        move |name: &str| textures.iter().find(|(t, _)| *t == name).map_or(0, |(_, r)| *r);
    let [csg_oper, brush_name, location, poly_flags, vector] =
        ["CsgOper", "Brush", "Location", "PolyFlags", "Vector"].map(|n| w.name(n));
    let mut actors = Vec::new();
    for (k, b) in brushes.iter().enumerate() {
        let class = w.engine_class(b.class);
        let faces = box_faces(b.half);
        let texture = texture_ref(b.texture);
        // Export numbers: Polys, Model, actor, so the actor can name its model.
        let first = w.exports.len() as i32 + 1;
        w.export(
            polys_class,
            0,
            &format!("Polys{k}"),
            0,
            Box::new(move |o, w| {
                write_props(o, &[], w.none());
                o.i32(faces.len() as i32).i32(faces.len() as i32);
                for (i, f) in faces.iter().enumerate() {
                    o.index(f.len() as i32);
                    vec3(o, f[0]);
                    vec3(o, poly_normal(f));
                    vec3(o, [1.0, 0.0, 0.0]);
                    vec3(o, [0.0, 1.0, 0.0]);
                    for &v in f {
                        vec3(o, v);
                    }
                    o.u32(0).index(0).index(texture).index(w.none() as i32);
                    o.index(i as i32).index(i as i32);
                    poly_tail(o, version);
                }
            }),
        );
        let polys_ref = first;
        w.export(
            model_class,
            0,
            &format!("Model{}", k + 2),
            0,
            model_body(version, Vec::new(), polys_ref),
        );
        let (op, flags, loc) = (b.csg_oper, b.poly_flags, b.location);
        let actor = w.export(
            class,
            0,
            &format!("{}{k}", b.class),
            0,
            Box::new(move |o, w| {
                let mut loc_bytes = Vec::new();
                for c in loc {
                    loc_bytes.extend_from_slice(&c.to_le_bytes());
                }
                let mut props = vec![Prop::plain(csg_oper, 1, vec![op])];
                if flags != 0 {
                    props.push(Prop::plain(poly_flags, 2, flags.to_le_bytes().to_vec()));
                }
                props.push(Prop {
                    name: location,
                    type_id: 10,
                    struct_name: Some(vector),
                    array_index: 0,
                    bool_value: false,
                    value: loc_bytes,
                });
                props.push(Prop::plain(brush_name, 5, compact(first + 1)));
                write_props(o, &props, w.none());
            }),
        );
        actors.push(actor);
    }
    let brush_actors = actors.clone();
    let mut actors: Vec<i32> = actors
        .into_iter()
        .enumerate()
        .filter(|(k, _)| !deleted.contains(k))
        .map(|(_, a)| a)
        .collect();
    actors.extend(more_actors);
    let level_polys: Vec<(Vec<[f32; 3]>, i32)> =
        level.iter().map(|p| (p.vertices.clone(), texture_ref(p.texture))).collect();
    let surface_actors: Vec<i32> = (0..level.len())
        .map(|i| {
            surface_brush
                .get(i)
                .copied()
                .flatten()
                .and_then(|b| brush_actors.get(b).copied())
                .unwrap_or(0)
        })
        .collect();
    let level_model = w.export(
        model_class,
        0,
        "Model1",
        0,
        model_body_naming(version, level_polys, 0, surface_actors),
    );
    w.export(
        level_class,
        0,
        "MyLevel",
        0,
        Box::new(move |o, w| {
            write_props(o, &[], w.none());
            let n = actors.len() as i32 + 1;
            o.i32(n).i32(n).index(0);
            for &a in &actors {
                o.index(a);
            }
            o.fstring("unreal").fstring("").fstring("Test.unr").fstring("");
            o.index(0).i32(7777).i32(1);
            o.index(level_model);
        }),
    );
}

/// What ends an `FPoly` or an `FBspSurf` by version: 16-bit pans before 78, a light map scale
/// from 106.
fn poly_tail(o: &mut Obj, version: u16) {
    if version < 78 {
        o.u16(0).u16(0);
    }
    if version >= 106 {
        o.f32(32.0);
    }
}

/// A `Model` of package `version`: one node and surface per polygon (each node's front the
/// next node), the points, normals and the `Polys` reference.
fn model_body(version: u16, polys: Vec<(Vec<[f32; 3]>, i32)>, polys_ref: i32) -> Body {
    model_body_naming(version, polys, polys_ref, Vec::new())
}

/// [`model_body`] whose surface `i` names actor `actors[i]` (an object reference; none past
/// the list's end).
fn model_body_naming(
    version: u16,
    polys: Vec<(Vec<[f32; 3]>, i32)>,
    polys_ref: i32,
    actors: Vec<i32>,
) -> Body {
    Box::new(move |o, w| {
        write_props(o, &[], w.none());
        o.bytes(&[0; 25]).bytes(&[0; 16]);
        let normals: Vec<[f32; 3]> = polys.iter().map(|(v, _)| poly_normal(v)).collect();
        // Vectors: each surface's normal, then the shared texture axes.
        o.index(normals.len() as i32 + 2);
        for &n in &normals {
            vec3(o, n);
        }
        vec3(o, [1.0, 0.0, 0.0]);
        vec3(o, [0.0, 1.0, 0.0]);
        let points: Vec<[f32; 3]> = polys.iter().flat_map(|(v, _)| v.iter().copied()).collect();
        o.index(points.len() as i32);
        for &p in &points {
            vec3(o, p);
        }
        o.index(polys.len() as i32);
        let mut first = 0;
        for (i, ((v, _), n)) in polys.iter().zip(&normals).enumerate() {
            let d = n[0] * v[0][0] + n[1] * v[0][1] + n[2] * v[0][2];
            vec3(o, *n);
            o.f32(d).bytes(&[0xff; 8]).u8(0);
            let next = if i + 1 < polys.len() { i as i32 + 1 } else { -1 };
            o.index(first).index(i as i32).index(-1).index(next).index(-1).index(-1).index(-1);
            if version >= 70 {
                o.bytes(&[0; 16]);
                if version < 123 {
                    o.bytes(&[0; 16]);
                }
            }
            o.u8(0).u8(0).u8(v.len() as u8).i32(-1).i32(-1);
            match version {
                0..=91 => {}
                92 => {
                    o.bytes(&[0xff; 4]);
                }
                93..=100 => {
                    o.bytes(&[0xff; 8]);
                }
                _ => {
                    o.bytes(&[0xff; 12]);
                }
            }
            first += v.len() as i32;
        }
        o.index(polys.len() as i32);
        let mut first = 0;
        for (i, (v, texture)) in polys.iter().enumerate() {
            let count = normals.len() as i32;
            o.index(*texture).u32(0).index(first).index(i as i32).index(count).index(count + 1);
            if version < 101 {
                o.index(-1);
            }
            o.index(i as i32);
            if version < 78 {
                o.u16(0).u16(0);
            }
            o.index(actors.get(i).copied().unwrap_or(0));
            if version > 86 {
                vec3(o, normals[i]);
                o.f32(0.0);
            }
            if version >= 106 {
                o.f32(32.0);
            }
            first += v.len() as i32;
        }
        o.index(points.len() as i32);
        for i in 0..points.len() {
            o.index(i as i32).index(-1);
        }
        o.i32(0).i32(0).index(polys_ref);
        // Light map indices and bits (before 92), bounds, leaf hulls, leaves, lights.
        let empty_arrays = if version < 92 { 6 } else { 4 };
        for _ in 0..empty_arrays {
            o.index(0);
        }
        o.i32(0).i32(0);
    })
}

/// A default property of a [`TestClass`].
#[derive(Clone, Debug)]
pub enum TestDefault {
    Bool(bool),
    Byte(u8),
    Int(i32),
    Float(f32),
    Name(String),
    Str(String),
    /// An element of a static array: index and int value.
    IntAt(u32, i32),
    /// A reference to an object of the package (export number from 1) or an import
    /// (negative), as [`PackageWriter::export`] and [`PackageWriter::import`] return them.
    Object(i32),
}

/// A class to write with [`class_package`].
#[derive(Clone, Debug)]
pub struct TestClass {
    pub name: String,
    /// A class of the same package (written before this one) or else an Engine class.
    pub parent: Option<String>,
    pub flags: u32,
    /// The bytecode as it is on disk, and its size in memory (`ScriptSize`).
    pub script: Vec<u8>,
    pub script_size: u32,
    pub defaults: Vec<(String, TestDefault)>,
    /// Byte properties the class declares of an enum it declares: (property, value names).
    pub enums: Vec<(String, Vec<String>)>,
}

impl TestClass {
    pub fn new(name: &str, parent: Option<&str>, flags: u32) -> Self {
        Self {
            name: name.to_owned(),
            parent: parent.map(str::to_owned),
            flags,
            script: Vec::new(),
            script_size: 0,
            defaults: Vec::new(),
            enums: Vec::new(),
        }
    }

    /// Declares byte property `property` of an enum `E<property>` of these value names.
    #[must_use]
    pub fn with_enum(mut self, property: &str, names: &[&str]) -> Self {
        self.enums.push((property.to_owned(), names.iter().map(|n| (*n).to_owned()).collect()));
        self
    }

    #[must_use]
    pub fn with(mut self, property: &str, value: TestDefault) -> Self {
        self.defaults.push((property.to_owned(), value));
        self
    }
}

/// A package of compiled classes as UCC writes them (`UClass::Serialize` of UT2004's
/// `Core/Src/UnClass.cpp`; UE1's order from version 62): `UField`, `UStruct` (with UT2004's
/// `StructFlags` from licensee 0x1A), `UState`, `UClass` (within `Object`, config `System`),
/// then the defaults. Imports `-1` and `-2` are `Core` and `Core.Object`; the classes are
/// exports `1..` in list order (what [`TestDefault::Object`] may name).
pub fn class_package(version: u16, licensee: u16, classes: &[TestClass]) -> Vec<u8> {
    let mut w = PackageWriter::new(version, licensee);
    let none = w.none();
    let object_class = w.import("Core", "Package", 0, "Core");
    let object_class = w.import("Core", "Class", object_class, "Object");
    let system = w.name("System");
    let mut refs: Vec<(String, i32)> = Vec::new();
    for class in classes {
        let parent = match &class.parent {
            Some(p) => match refs.iter().find(|(n, _)| n.eq_ignore_ascii_case(p)) {
                Some((_, r)) => *r,
                None => w.engine_class(p),
            },
            None => 0,
        };
        let props: Vec<Prop> = class
            .defaults
            .iter()
            .map(|(name, value)| {
                let name = w.name(name);
                let (type_id, array_index, bool_value, value) = match value {
                    TestDefault::Bool(b) => (3, 0, *b, Vec::new()),
                    TestDefault::Byte(b) => (1, 0, false, vec![*b]),
                    TestDefault::Int(v) => (2, 0, false, v.to_le_bytes().to_vec()),
                    TestDefault::IntAt(i, v) => (2, *i, false, v.to_le_bytes().to_vec()),
                    TestDefault::Float(v) => (4, 0, false, v.to_le_bytes().to_vec()),
                    TestDefault::Name(n) => (6, 0, false, compact(w.name(n) as i32)),
                    TestDefault::Str(s) => {
                        let mut v = compact(s.len() as i32 + 1);
                        v.extend_from_slice(s.as_bytes());
                        v.push(0);
                        (13, 0, false, v)
                    }
                    TestDefault::Object(r) => (5, 0, false, compact(*r)),
                };
                Prop { name, type_id, struct_name: None, array_index, bool_value, value }
            })
            .collect();
        let friendly = w.name(&class.name);
        let (flags, script, script_size) = (class.flags, class.script.clone(), class.script_size);
        let ue2_flags = version >= 100 && licensee >= 0x1A;
        let body: Body = Box::new(move |o, _| {
            o.index(parent).index(0); // UField: SuperField, Next
            o.index(0).index(0).index(friendly as i32); // ScriptText, Children, FriendlyName
            if ue2_flags {
                o.u32(0); // StructFlags
            }
            o.i32(1).i32(0).u32(script_size).bytes(&script); // Line, TextPos, script
            o.bytes(&[0; 16]).u16(0).u32(0); // ProbeMask, IgnoreMask, LabelTableOffset, StateFlags
            if version <= 61 {
                o.i32(0);
            }
            o.u32(flags).bytes(&[0x5a; 16]).index(0).index(0); // flags, guid, deps, imports
            if version >= 62 {
                o.index(object_class).index(system as i32);
            }
            if version >= 99 {
                o.index(0);
            }
            write_props(o, &props, none);
        });
        let name = class.name.clone();
        let r = w.export(0, 0, &name, 0x0007_0004, body);
        if let Some(e) = w.exports.last_mut() {
            e.super_ = parent;
        }
        refs.push((name, r));
    }
    // The classes' enums and byte properties, after every class (whose export numbers the
    // defaults may name).
    let core = w.import("Core", "Package", 0, "Core");
    let enum_class = w.import("Core", "Class", core, "Enum");
    let byte_class = w.import("Core", "Class", core, "ByteProperty");
    for (class, (_, class_ref)) in classes.iter().zip(refs.clone()) {
        for (property, names) in &class.enums {
            let names: Vec<i32> = names.iter().map(|n| w.name(n) as i32).collect();
            let enum_ref = w.export(
                enum_class,
                class_ref,
                &format!("E{property}"),
                0x0007_0004,
                Box::new(move |o, _| {
                    o.index(0).index(0).index(0).index(names.len() as i32);
                    for n in &names {
                        o.index(*n);
                    }
                }),
            );
            w.export(
                byte_class,
                class_ref,
                property,
                0x0007_0004,
                Box::new(move |o, _| {
                    // No tagged properties, SuperField, Next, ArrayDim, PropertyFlags
                    // (editable), Category None, Enum.
                    o.index(0).index(0).index(0).i32(1).u32(1).index(0).index(enum_ref);
                }),
            );
        }
    }
    w.finish()
}
