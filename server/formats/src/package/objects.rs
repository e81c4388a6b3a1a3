//! Readers for the objects inside a package, each started lazily from its export's data.

use crate::error::{Error, Result};
use crate::package::properties::{read_properties, utf16, Property, PropertyList};
use crate::package::{ObjectRef, Package, RF_HAS_STACK};
use crate::reader::{ansi, Reader};

/// The saved UnrealScript state of an object flagged `HasStack`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StateFrame {
    pub node: ObjectRef,
    pub state_node: ObjectRef,
    pub probe_mask: u64,
    pub latent_action: u32,
    pub offset: Option<i32>,
}

/// What every non-class object starts with.
#[derive(Debug, Clone, PartialEq)]
pub struct ObjectHeader {
    pub state_frame: Option<StateFrame>,
    pub properties: Vec<Property>,
}

/// A reader positioned after an object's header, confined to that object's bytes but
/// reporting absolute file offsets.
pub struct ObjectReader<'a> {
    pub header: ObjectHeader,
    pub reader: Reader<'a>,
}

impl<'a> Package<'a> {
    /// How errors name object `export`: `Texture Skins.Wood (export 12)`. Built only for an
    /// error: the object readers' own readers name no structure (see [`Self::labelled`]).
    pub(crate) fn object_label(&self, export: usize) -> String {
        format!("{} {} (export {export})", self.class_name(export), self.export_path(export))
    }

    /// Runs an object reader, naming the object in its errors: those raised by the object's
    /// [`Reader`] (made by [`Self::object_reader`]) have an empty structure until here, so
    /// that reading an object formats nothing unless it fails.
    pub(crate) fn labelled<T>(&self, export: usize, read: impl FnOnce() -> Result<T>) -> Result<T> {
        read().map_err(|mut e| {
            if e.structure.is_empty() {
                e.structure = self.object_label(export);
            }
            e
        })
    }

    /// A reader of object `export`'s data, past its header; errors it raises name no
    /// structure (the public readers add the object's name, [`Self::labelled`]).
    pub(crate) fn object_reader(
        &self,
        export: usize,
        expect_class: &[&str],
    ) -> Result<ObjectReader<'a>> {
        let e = self
            .exports
            .get(export)
            .ok_or_else(|| Error::new("export table", 0, format!("an export numbered {export}")))?;
        let class = self.class_name(export);
        if !expect_class.is_empty() && !expect_class.iter().any(|c| c.eq_ignore_ascii_case(class)) {
            return Err(Error::new(
                self.object_label(export),
                e.serial_offset,
                format!("an object of class {}", expect_class.join(" or ")),
            ));
        }
        if e.serial_size == 0 {
            return Err(Error::new(
                self.object_label(export),
                e.serial_offset,
                "object data (the export has SerialSize 0)",
            ));
        }
        // A reader over the whole file prefix up to the object's end: positions stay absolute
        // and nothing past the object can be read.
        let end = e.serial_offset + e.serial_size;
        let data = self.data.get(..end).ok_or_else(|| {
            Error::new(self.object_label(export), e.serial_offset, "object data inside the file")
        })?;
        let mut r = Reader::new(data, e.serial_offset, "");
        let version = self.header.version;
        // Before version 51 the frame names the class and a node number instead of the
        // nodes, before 52 a class follows, before 55 there is no latent action (Unreal v200
        // `Core/Src/UnObj.cpp`, `UObject::Serialize`).
        let state_frame = if e.object_flags & RF_HAS_STACK != 0 {
            let node = if version >= 51 {
                ObjectRef(r.compact_index("state frame Node")?)
            } else {
                let class = r.compact_index("state frame class")?;
                if class != 0 {
                    r.i32("state frame node number")?;
                }
                ObjectRef(0)
            };
            let state_node = if version >= 51 {
                ObjectRef(r.compact_index("state frame StateNode")?)
            } else {
                ObjectRef(0)
            };
            if version < 52 {
                r.compact_index("state frame class")?;
            }
            let probe_mask = r.u64("state frame ProbeMask")?;
            let latent_action = if version >= 55 { r.u32("state frame LatentAction")? } else { 0 };
            let offset =
                if node.0 == 0 { None } else { Some(r.compact_index("state frame Offset")?) };
            Some(StateFrame { node, state_node, probe_mask, latent_action, offset })
        } else {
            None
        };
        let properties = if e.class.0 == 0 { Vec::new() } else { read_properties(self, &mut r)? };
        // Before version 57 the object's state follows its properties, before 58 its group
        // (names the loader kept to fix old objects up; Unreal v200 `UObject::Serialize`).
        if version < 57 {
            self.name_at(&mut r, "the object's state (before version 57)")?;
        }
        if version < 58 {
            self.name_at(&mut r, "the object's group (before version 58)")?;
        }
        Ok(ObjectReader { header: ObjectHeader { state_frame, properties }, reader: r })
    }

    /// The state frame and properties of any non-class object.
    pub fn read_object_header(&self, export: usize) -> Result<ObjectHeader> {
        self.labelled(export, || self.object_reader(export, &[]).map(|o| o.header))
    }

    /// Reads a lazy array's skip position (version 62 and later): the absolute offset just
    /// past the array. Older packages have none.
    pub(crate) fn lazy_skip(&self, r: &mut Reader<'_>, field: &str) -> Result<Option<usize>> {
        if self.header.version < 62 {
            return Ok(None);
        }
        let pos = r.pos();
        let skip = r.i32(field)?;
        if skip < pos as i32 || skip as usize > r.end() {
            return Err(r.error_at(
                pos,
                format!("{field} to be an absolute position from {pos} to the object's end {}, found {skip}", r.end()),
            ));
        }
        Ok(Some(skip as usize))
    }

    pub(crate) fn check_skip(r: &Reader<'_>, skip: Option<usize>, field: &str) -> Result<()> {
        match skip {
            Some(skip) if skip != r.pos() => Err(r.error(format!(
                "the lazy array to end where its skip offset says ({skip}), it ends at {}",
                r.pos()
            ))),
            _ => Ok(()),
        }
        .map_err(|e: Error| Error { expected: format!("{field}: {}", e.expected), ..e })
    }

    /// A lazy byte array: skip offset (from 62), compact count, bytes.
    fn lazy_bytes(&self, r: &mut Reader<'a>, field: &str) -> Result<(usize, &'a [u8])> {
        let skip = self.lazy_skip(r, &format!("{field} skip offset"))?;
        let count_pos = r.pos();
        let count = r.compact_index(&format!("{field} size"))?;
        let n = r.check_count(&format!("{field} size"), i64::from(count), 1)?;
        let start = r.pos();
        let bytes = r.bytes(field, n)?;
        Self::check_skip(r, skip, field)?;
        let _ = count_pos;
        Ok((start, bytes))
    }

    pub(crate) fn name_at(&self, r: &mut Reader<'_>, field: &str) -> Result<String> {
        let pos = r.pos();
        let idx = r.compact_index(field)?;
        usize::try_from(idx)
            .ok()
            .and_then(|i| self.names.get(i))
            .map(|n| n.name.clone())
            .ok_or_else(|| {
                r.error_at(
                    pos,
                    format!("{field} indexing one of {} names, found {idx}", self.names.len()),
                )
            })
    }

    pub(crate) fn fstring(r: &mut Reader<'_>, field: &str) -> Result<String> {
        let pos = r.pos();
        let len = r.compact_index(field)?;
        if len >= 0 {
            let n = r.check_count(field, i64::from(len), 1)?;
            Ok(ansi(r.bytes(field, n)?))
        } else {
            let n = r.check_count(field, i64::from(len).abs(), 2).map_err(|_| {
                r.error_at(
                    pos,
                    format!(
                        "{field} of {} UTF-16 units to fit in the object",
                        i64::from(len).abs()
                    ),
                )
            })?;
            Ok(utf16(r.bytes(field, n * 2)?))
        }
    }

    /// A Texture (or any subclass: its own data after the mips is not read).
    pub fn read_texture(&self, export: usize) -> Result<Texture<'a>> {
        self.labelled(export, || self.unlabelled_texture(export))
    }

    fn unlabelled_texture(&self, export: usize) -> Result<Texture<'a>> {
        let ObjectReader { header, reader: mut r } = self.object_reader(export, &[])?;
        let props = &header.properties;
        let format =
            TextureFormat::from_byte(props.byte("Format").unwrap_or(0), self.texture_numbering());
        let has_comp = props.bool("bHasComp").unwrap_or(false);
        let comp_format =
            props.byte("CompFormat").map(|b| TextureFormat::from_byte(b, self.texture_numbering()));
        let palette = props.object("Palette");
        let mips = self.read_mips(&mut r, "Mips", format)?;
        let comp_mips = if has_comp {
            self.read_mips(&mut r, "CompMips", comp_format.unwrap_or(TextureFormat::Dxt1))?
        } else {
            Vec::new()
        };
        Ok(Texture {
            width: props
                .int("USize")
                .map_or_else(|| mips.first().map_or(0, |m| m.width), |v| v.max(0) as u32),
            height: props
                .int("VSize")
                .map_or_else(|| mips.first().map_or(0, |m| m.height), |v| v.max(0) as u32),
            header,
            format,
            comp_format: if has_comp { comp_format.or(Some(TextureFormat::Dxt1)) } else { None },
            palette,
            mips,
            comp_mips,
        })
    }

    fn read_mips(
        &self,
        r: &mut Reader<'a>,
        field: &str,
        format: TextureFormat,
    ) -> Result<Vec<Mip<'a>>> {
        let count_pos = r.pos();
        let count = r.compact_index(&format!("{field} count"))?;
        // Each mip takes at least 11 bytes (size index, width, height, bits).
        let n = r.check_count(&format!("{field} count"), i64::from(count), 11)?;
        if n > 32 {
            return Err(r.error_at(count_pos, format!("{field} count of at most 32, found {n}")));
        }
        let mut mips = Vec::with_capacity(n);
        for i in 0..n {
            let label = format!("{field}[{i}]");
            let (data_offset, data) = self.lazy_bytes(r, &format!("{label} data"))?;
            let width = r.i32(&format!("{label} USize"))?;
            let height = r.i32(&format!("{label} VSize"))?;
            let u_bits = r.u8(&format!("{label} UBits"))?;
            let v_bits = r.u8(&format!("{label} VBits"))?;
            if width <= 0 || height <= 0 || width > 1 << 16 || height > 1 << 16 {
                return Err(r.error(format!(
                    "{label} size from 1x1 to 65536x65536, found {width}x{height}"
                )));
            }
            let (width, height) = (width as u32, height as u32);
            // No pixels at all is how the engine saves a texture it makes when it loads
            // (UE1's FireTexture, WetTexture, WaveTexture, IceTexture: `UTexture::Serialize`
            // reads whatever the lazy array holds and checks no size; UE2 leaves some last
            // mips empty the same way): kept, and said when its pixels are asked for.
            if let Some(expected) = format.data_size(width, height).filter(|_| !data.is_empty()) {
                if expected != data.len() as u64 {
                    return Err(Error::new(
                        r.structure(),
                        data_offset,
                        format!(
                            "{label}: {expected} bytes of {} data for {width}x{height}, found {}",
                            format.name(),
                            data.len()
                        ),
                    ));
                }
            }
            mips.push(Mip { width, height, u_bits, v_bits, data_offset, data });
        }
        Ok(mips)
    }

    pub fn read_palette(&self, export: usize) -> Result<Palette> {
        self.labelled(export, || self.unlabelled_palette(export))
    }

    fn unlabelled_palette(&self, export: usize) -> Result<Palette> {
        let ObjectReader { header, reader: mut r } = self.object_reader(export, &["Palette"])?;
        let count = r.compact_index("Colors count")?;
        let n = r.check_count("Colors count", i64::from(count), 4)?;
        let mut colors = Vec::with_capacity(n);
        for _ in 0..n {
            let [red, green, blue, alpha] = r.array::<4>("color")?;
            // Before version 66 the alpha byte was not meaningful; the engine forces it opaque.
            let alpha = if self.header.version < 66 { 255 } else { alpha };
            colors.push([red, green, blue, alpha]);
        }
        Ok(Palette { header, colors })
    }

    /// A Sound or Music object: its format name (file extension) and embedded file.
    pub fn read_sound(&self, export: usize) -> Result<SoundData<'a>> {
        self.labelled(export, || self.unlabelled_sound(export))
    }

    fn unlabelled_sound(&self, export: usize) -> Result<SoundData<'a>> {
        let ObjectReader { header, reader: mut r } =
            self.object_reader(export, &["Sound", "Music"])?;
        let format = self.name_at(&mut r, "Format")?;
        // UT2004's USound::Serialize (Engine/Src/UnAudio.cpp) reads a float `Likelihood`
        // before the data when the package's licensee version is 2 or more.
        if self.is_ue2() && self.header.licensee >= 2 && self.class_name(export) == "Sound" {
            let _likelihood = r.f32("Likelihood")?;
        }
        let (data_offset, data) = self.lazy_bytes(&mut r, "Data")?;
        let wav = if format.eq_ignore_ascii_case("wav") {
            Some(crate::wav::Wav::parse(data).map_err(|e| {
                Error { offset: e.offset + data_offset, ..e }.within(self.object_label(export))
            }))
        } else {
            None
        };
        Ok(SoundData { header, format, data_offset, data, wav })
    }

    pub fn read_font(&self, export: usize) -> Result<Font> {
        self.labelled(export, || self.unlabelled_font(export))
    }

    fn unlabelled_font(&self, export: usize) -> Result<Font> {
        let ObjectReader { header, reader: mut r } = self.object_reader(export, &["Font"])?;
        if self.is_ue2() {
            return Err(r.error("a UE1 font (UE2 fonts are not read)"));
        }
        let page_count = r.compact_index("page count")?;
        let n = r.check_count("page count", i64::from(page_count), 2)?;
        let mut pages = Vec::with_capacity(n);
        for i in 0..n {
            let texture = ObjectRef(r.compact_index(&format!("page {i} texture"))?);
            let count = r.compact_index(&format!("page {i} character count"))?;
            let c = r.check_count(&format!("page {i} character count"), i64::from(count), 16)?;
            let mut characters = Vec::with_capacity(c);
            for _ in 0..c {
                characters.push(FontCharacter {
                    start_u: r.i32("StartU")?,
                    start_v: r.i32("StartV")?,
                    u_size: r.i32("USize")?,
                    v_size: r.i32("VSize")?,
                });
            }
            pages.push(FontPage { texture, characters });
        }
        let characters_per_page = r.i32("CharactersPerPage")?;
        Ok(Font { header, pages, characters_per_page })
    }

    /// The UnrealScript source (or other text) stored in a TextBuffer.
    pub fn read_text_buffer(&self, export: usize) -> Result<TextBuffer> {
        self.labelled(export, || self.unlabelled_text_buffer(export))
    }

    fn unlabelled_text_buffer(&self, export: usize) -> Result<TextBuffer> {
        let ObjectReader { header, reader: mut r } = self.object_reader(export, &["TextBuffer"])?;
        let pos = r.u32("Pos")?;
        let top = r.u32("Top")?;
        let text = Self::fstring(&mut r, "Text")?;
        Ok(TextBuffer { header, pos, top, text })
    }

    /// A class from the export table: its name, super class and package.
    pub fn read_class(&self, export: usize) -> Result<ClassInfo> {
        let e = self
            .exports
            .get(export)
            .ok_or_else(|| Error::new("export table", 0, format!("an export numbered {export}")))?;
        if e.class.0 != 0 {
            return Err(Error::new(
                format!("export {export}"),
                e.serial_offset,
                format!("a class object, found a {}", self.class_name(export)),
            ));
        }
        Ok(ClassInfo {
            name: self.name(e.object_name).to_owned(),
            super_class: (e.super_.0 != 0).then(|| self.ref_name(e.super_).to_owned()),
            package: self.name.clone().unwrap_or_default(),
            outer: (e.outer.0 != 0).then(|| self.ref_path(e.outer)),
        })
    }

    /// A vertex Mesh or LodMesh: counts and sequences.
    pub fn read_mesh(&self, export: usize) -> Result<MeshInfo> {
        self.labelled(export, || self.unlabelled_mesh(export))
    }

    fn unlabelled_mesh(&self, export: usize) -> Result<MeshInfo> {
        let class = self.class_name(export).to_owned();
        let ObjectReader { header, reader: mut r } =
            self.object_reader(export, &["Mesh", "LodMesh", "SkeletalMesh"])?;
        let v = self.header.version;
        if self.is_ue2() {
            return Err(r.error("a UE1 vertex mesh (UE2 meshes are not read)"));
        }
        let bounds = |r: &mut Reader<'_>| -> Result<()> {
            r.skip("BoundingBox", 25)?;
            r.skip("BoundingSphere", if v > 61 { 16 } else { 12 })
        };
        bounds(&mut r)?; // UPrimitive
                         // Verts: a lazy array whose element size tells the standard (4) from Deus Ex (8).
        let skip = self.lazy_skip(&mut r, "Verts skip offset")?;
        let verts_count = r.compact_index("Verts count")?;
        let verts = r.check_count("Verts count", i64::from(verts_count), 4)?;
        let start = r.pos();
        let bytes_per_vertex = match skip {
            Some(skip) if verts > 0 => {
                let span = skip.checked_sub(start).ok_or_else(|| {
                    r.error(format!(
                        "a Verts skip offset after the array start {start}, found {skip}"
                    ))
                })?;
                if span % verts != 0 || !(span / verts == 4 || span / verts == 8) {
                    return Err(r.error(format!(
                        "Verts of 4 or 8 bytes each ({verts} vertices), the skip offset leaves {span} bytes"
                    )));
                }
                span / verts
            }
            _ => 4,
        };
        let verts_offset = r.pos();
        r.skip("Verts", verts * bytes_per_vertex)?;
        Self::check_skip(&r, skip, "Verts")?;
        let skip = self.lazy_skip(&mut r, "Tris skip offset")?;
        let tris_count = r.compact_index("Tris count")?;
        let tris = r.check_count("Tris count", i64::from(tris_count), 20)?;
        let tris_offset = r.pos();
        r.skip("Tris", tris * 20)?;
        Self::check_skip(&r, skip, "Tris")?;
        let sequences = self.read_sequences(&mut r)?;
        let skip = self.lazy_skip(&mut r, "Connects skip offset")?;
        let c = r.compact_index("Connects count")?;
        let c = r.check_count("Connects count", i64::from(c), 8)?;
        r.skip("Connects", c * 8)?;
        Self::check_skip(&r, skip, "Connects")?;
        bounds(&mut r)?;
        let skip = self.lazy_skip(&mut r, "VertLinks skip offset")?;
        let c = r.compact_index("VertLinks count")?;
        let c = r.check_count("VertLinks count", i64::from(c), 4)?;
        r.skip("VertLinks", c * 4)?;
        Self::check_skip(&r, skip, "VertLinks")?;
        let c = r.compact_index("Textures count")?;
        let c = r.check_count("Textures count", i64::from(c), 1)?;
        let mut textures = Vec::with_capacity(c);
        for _ in 0..c {
            textures.push(ObjectRef(r.compact_index("Textures entry")?));
        }
        let c = r.compact_index("BoundingBoxes count")?;
        let c = r.check_count("BoundingBoxes count", i64::from(c), 25)?;
        // The first frame's box (`MeshBuildBounds`: around its raw vertices), then the rest.
        let first_frame_box = if c > 0 {
            let mut corner = || -> Result<[f32; 3]> {
                Ok([r.f32("BoundingBoxes")?, r.f32("BoundingBoxes")?, r.f32("BoundingBoxes")?])
            };
            let found = [corner()?, corner()?];
            r.skip("BoundingBoxes", c * 25 - 24)?;
            Some(found)
        } else {
            None
        };
        let sphere = if v > 61 { 16 } else { 12 };
        let c = r.compact_index("BoundingSpheres count")?;
        let c = r.check_count("BoundingSpheres count", i64::from(c), sphere)?;
        r.skip("BoundingSpheres", c * sphere)?;
        let frame_verts = r.i32("FrameVerts")?;
        let anim_frames = r.i32("AnimFrames")?;
        if frame_verts < 0
            || anim_frames < 0
            || i64::from(frame_verts) * i64::from(anim_frames) != verts as i64
        {
            return Err(r.error(format!(
                "FrameVerts x AnimFrames to equal the {verts} stored vertices, found {frame_verts} x {anim_frames}"
            )));
        }
        let mut info = MeshInfo {
            class,
            header,
            triangles: tris,
            vertices: frame_verts as usize,
            frames: anim_frames as usize,
            bytes_per_vertex,
            first_frame_box,
            sequences,
            textures,
            lod: None,
            skeletal: None,
            placement: None,
            lod_params: None,
            layout: MeshLayout { verts_offset, tris_offset, ..MeshLayout::default() },
        };
        // `UMesh::Serialize` goes on for every class; a plain Mesh's callers need only what
        // is above, so what follows is optional for it.
        let placement = |r: &mut Reader<'_>| -> Result<MeshPlacement> {
            r.skip("AND/OR flags", 8)?;
            let vector = |r: &mut Reader<'_>, field: &str| -> Result<[f32; 3]> {
                Ok([r.f32(field)?, r.f32(field)?, r.f32(field)?])
            };
            let scale = vector(r, "Scale")?;
            let origin = vector(r, "Origin")?;
            let rot_origin = [r.i32("RotOrigin")?, r.i32("RotOrigin")?, r.i32("RotOrigin")?];
            r.skip("CurPoly, CurVertex", 8)?;
            let mut texture_lod = Vec::new();
            if v == 65 {
                texture_lod.push(r.f32("TextureLOD")?);
            } else if v >= 66 {
                let c = r.compact_index("TextureLOD count")?;
                let c = r.check_count("TextureLOD count", i64::from(c), 4)?;
                for _ in 0..c {
                    texture_lod.push(r.f32("TextureLOD")?);
                }
            }
            Ok(MeshPlacement { scale, origin, rot_origin, texture_lod })
        };
        if info.class.eq_ignore_ascii_case("Mesh") {
            info.placement = placement(&mut r).ok();
        } else {
            info.placement = Some(placement(&mut r)?);
            let word_array = |r: &mut Reader<'_>, field: &str| -> Result<usize> {
                let c = r.compact_index(&format!("{field} count"))?;
                let c = r.check_count(&format!("{field} count"), i64::from(c), 2)?;
                r.skip(field, c * 2)?;
                Ok(c)
            };
            word_array(&mut r, "CollapsePointThus")?;
            word_array(&mut r, "FaceLevel")?;
            let c = r.compact_index("Faces count")?;
            let faces = r.check_count("Faces count", i64::from(c), 8)?;
            info.layout.faces_offset = r.pos();
            r.skip("Faces", faces * 8)?;
            word_array(&mut r, "CollapseWedgeThus")?;
            let c = r.compact_index("Wedges count")?;
            let wedges = r.check_count("Wedges count", i64::from(c), 4)?;
            info.layout.wedges_offset = r.pos();
            r.skip("Wedges", wedges * 4)?;
            let c = r.compact_index("Materials count")?;
            let materials = r.check_count("Materials count", i64::from(c), 8)?;
            info.layout.materials_offset = r.pos();
            r.skip("Materials", materials * 8)?;
            let c = r.compact_index("SpecialFaces count")?;
            let special_faces = r.check_count("SpecialFaces count", i64::from(c), 8)?;
            r.skip("SpecialFaces", special_faces * 8)?;
            info.lod = Some(LodInfo { faces, wedges, materials, special_faces });
            // ModelVerts, SpecialVerts, then MeshScaleMax, LODHysteresis, LODStrength,
            // LODMinVerts, LODMorph, LODZDisplace (469 writes no LODHighlight).
            let lod_tail = |r: &mut Reader<'_>, layout: &mut MeshLayout| -> Result<LodParams> {
                r.skip("ModelVerts", 4)?;
                layout.special_verts = r.i32("SpecialVerts")?.max(0) as usize;
                let params = LodParams {
                    scale_max: r.f32("MeshScaleMax")?,
                    hysteresis: r.f32("LODHysteresis")?,
                    strength: r.f32("LODStrength")?,
                    min_verts: r.i32("LODMinVerts")?,
                    morph: r.f32("LODMorph")?,
                    z_displace: r.f32("LODZDisplace")?,
                };
                let c = r.compact_index("RemapAnimVerts count")?;
                layout.remap_anim_verts = r.check_count("RemapAnimVerts count", i64::from(c), 2)?;
                layout.remap_offset = r.pos();
                r.skip("RemapAnimVerts", layout.remap_anim_verts * 2)?;
                layout.old_frame_verts = r.i32("OldFrameVerts")?.max(0) as usize;
                Ok(params)
            };
            if info.class.eq_ignore_ascii_case("SkeletalMesh") {
                info.lod_params = Some(lod_tail(&mut r, &mut info.layout)?);
                let counted = |r: &mut Reader<'_>, field: &str, item: usize| -> Result<usize> {
                    let c = r.compact_index(&format!("{field} count"))?;
                    let c = r.check_count(&format!("{field} count"), i64::from(c), item)?;
                    r.skip(field, c * item)?;
                    Ok(c)
                };
                let ext_wedges = counted(&mut r, "ExtWedges", 12)?;
                let c = r.compact_index("Points count")?;
                let points = r.check_count("Points count", i64::from(c), 12)?;
                info.layout.points_offset = r.pos();
                r.skip("Points", points * 12)?;
                let c = r.compact_index("RefSkeleton count")?;
                let bones_n = r.check_count("RefSkeleton count", i64::from(c), 57)?;
                let mut bones = Vec::with_capacity(bones_n);
                for _ in 0..bones_n {
                    bones.push(self.name_at(&mut r, "bone Name")?);
                    // Flags, BonePos (quat, vector, length, size), NumChildren, ParentIndex.
                    r.skip("bone", 4 + 44 + 8)?;
                }
                let _ = counted(&mut r, "BoneWeightIdx", 8)?;
                let weights = counted(&mut r, "BoneWeights", 4)?;
                info.skeletal = Some(SkeletalInfo { points, wedges: ext_wedges, bones, weights });
            } else {
                // A LodMesh whose tail does not read keeps the counts above; geometry
                // decoding then sees no special vertices and no remapping.
                let mut layout = info.layout.clone();
                if let Ok(params) = lod_tail(&mut r, &mut layout) {
                    info.layout = layout;
                    info.lod_params = Some(params);
                }
            }
        }
        Ok(info)
    }

    /// A UE1 (OldUnreal) skeletal Animation: its bones and sequences.
    pub fn read_animation(&self, export: usize) -> Result<AnimationInfo> {
        self.labelled(export, || self.unlabelled_animation(export))
    }

    fn unlabelled_animation(&self, export: usize) -> Result<AnimationInfo> {
        let ObjectReader { header, reader: mut r } = self.object_reader(export, &["Animation"])?;
        if self.is_ue2() {
            return Err(r.error("a UE1 animation (UE2 animations are not read)"));
        }
        let c = r.compact_index("RefBones count")?;
        let n = r.check_count("RefBones count", i64::from(c), 9)?;
        let mut bones = Vec::with_capacity(n);
        for _ in 0..n {
            bones.push(self.name_at(&mut r, "RefBone Name")?);
            r.skip("RefBone Flags, ParentIndex", 8)?;
        }
        let arr = |r: &mut Reader<'_>, field: &str, item: usize| -> Result<usize> {
            let c = r.compact_index(&format!("{field} count"))?;
            let c = r.check_count(&format!("{field} count"), i64::from(c), item)?;
            r.skip(field, c * item)?;
            Ok(c)
        };
        let track = |r: &mut Reader<'_>| -> Result<()> {
            r.skip("track Flags", 4)?;
            arr(r, "KeyQuat", 16)?;
            arr(r, "KeyPos", 12)?;
            arr(r, "KeyTime", 4)?;
            Ok(())
        };
        let c = r.compact_index("Moves count")?;
        let moves = r.check_count("Moves count", i64::from(c), 32)?;
        for _ in 0..moves {
            r.skip("RootSpeed3D, TrackTime, StartBone, Flags", 24)?;
            arr(&mut r, "BoneIndices", 4)?;
            let t = r.compact_index("AnimTracks count")?;
            let t = r.check_count("AnimTracks count", i64::from(t), 7)?;
            for _ in 0..t {
                track(&mut r)?;
            }
            track(&mut r)?;
        }
        let sequences = self.read_sequences(&mut r)?;
        Ok(AnimationInfo { header, bones, sequences })
    }

    fn read_sequences(&self, r: &mut Reader<'_>) -> Result<Vec<MeshSequence>> {
        let seq_count = r.compact_index("AnimSeqs count")?;
        let n = r.check_count("AnimSeqs count", i64::from(seq_count), 14)?;
        let mut sequences = Vec::with_capacity(n);
        for _ in 0..n {
            let name = self.name_at(r, "AnimSeq Name")?;
            let group = self.name_at(r, "AnimSeq Group")?;
            let start_frame = r.i32("AnimSeq StartFrame")?;
            let frames = r.i32("AnimSeq NumFrames")?;
            let notify_count = r.compact_index("AnimSeq Notifys count")?;
            let notifies = r.check_count("AnimSeq Notifys count", i64::from(notify_count), 5)?;
            let mut events = Vec::with_capacity(notifies);
            for _ in 0..notifies {
                let time = r.f32("AnimNotify Time")?;
                let function = self.name_at(r, "AnimNotify Function")?;
                events.push(MeshNotify { time, function });
            }
            let rate = r.f32("AnimSeq Rate")?;
            sequences.push(MeshSequence {
                name,
                group,
                start_frame,
                frames,
                rate,
                notifies: events,
            });
        }
        Ok(sequences)
    }
}

/// Which `ETextureFormat` numbering a package's texture bytes follow. The numbering is not
/// stored in the file; it follows from the package's version and licensee.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TextureNumbering {
    /// UE1 packages of Epic's builds (0 to 5) and OldUnreal's UT v469, which extended the same
    /// enum (`Engine/Classes/Bitmap.uc` of v469: 6 BC2, 7 BC3, 8 to 14 BC4 to BC6H, 19 NODATA).
    Ue1,
    /// UE1 packages saved by OldUnreal's Unreal 227 (licensee 227, `PACKAGE_FILE_VERSION_LICENSEE`
    /// in its `Core/Inc/UnObjVer.h`): the v469 numbering except 19, which is MONO, and 122,
    /// NODATA (`Engine/Inc/EngineClasses.h` of 227k).
    Unreal227,
    /// UE2 (UT2003/UT2004's `ETextureFormat`: 6 NODATA, 7 DXT3, 8 DXT5, 9 L8, 10 G16, 11
    /// RRRGGGBBB).
    Ue2,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TextureFormat {
    P8,
    /// UE1 `RGBA7` (BGRA with 7-bit channels, lightmaps).
    Rgba7,
    Rgb16,
    Dxt1,
    Rgb8,
    Rgba8,
    NoData,
    Dxt3,
    Dxt5,
    L8,
    G16,
    Rrrgggbbb,
    /// BC4 (RGTC1): one channel, unsigned (`Bc4 { signed: false }`) or signed (`BC4_S`).
    Bc4 {
        signed: bool,
    },
    /// BC5 (RGTC2): two channels, unsigned or signed (`BC5_S`).
    Bc5 {
        signed: bool,
    },
    /// BC6H (BPTC float): RGB half floats, unsigned (`BC6H`) or signed (`BC6H_S`).
    Bc6h {
        signed: bool,
    },
    /// BC7 (BPTC): RGBA.
    Bc7,
    /// Unreal 227's `TEXF_MONO` ("Monochrome texture (fonts mainly)"), whose layout its public
    /// headers do not give (`FTextureBlockBytes` has no case for it).
    Mono,
    /// A format of OldUnreal's numbering (UT v469, Unreal 227) that is named but not decoded.
    Other(u8),
    Unknown(u8),
}

/// The OldUnreal `ETextureFormat` names, 0 to 121, identical in UT v469's `Bitmap.uc` and
/// Unreal 227's `EngineClasses.h` except for 19 (NODATA in v469, MONO in 227). 40 and 44 use
/// 227's spelling (`RGB16_`, `RGBA8_`): the plain names are the legacy ones of 2 and 5.
const OLDUNREAL_FORMATS: [&str; 122] = [
    "P8",
    "BGRA8_LM",
    "R5G6B5",
    "BC1",
    "RGB8",
    "BGRA8",
    "BC2",
    "BC3",
    "BC4",
    "BC4_S",
    "BC5",
    "BC5_S",
    "BC7",
    "BC6H_S",
    "BC6H",
    "RGBA16",
    "RGBA16_S",
    "RGBA32",
    "RGBA32_S",
    "NODATA",
    "UNCOMPRESSED",
    "UNCOMPRESSED_LOW",
    "UNCOMPRESSED_HIGH",
    "COMPRESSED",
    "COMPRESSED_LOW",
    "COMPRESSED_HIGH",
    "BC1_PA",
    "R8",
    "R8_S",
    "R16",
    "R16_S",
    "R32",
    "R32_S",
    "RG8",
    "RG8_S",
    "RG16",
    "RG16_S",
    "RG32",
    "RG32_S",
    "RGB8_S",
    "RGB16_",
    "RGB16_S",
    "RGB32",
    "RGB32_S",
    "RGBA8_",
    "RGBA8_S",
    "R16_F",
    "R32_F",
    "RG16_F",
    "RG32_F",
    "RGB16_F",
    "RGB32_F",
    "RGBA16_F",
    "RGBA32_F",
    "ETC1",
    "ETC2",
    "ETC2_PA",
    "ETC2_RGB_EAC_A",
    "EAC_R",
    "EAC_R_S",
    "EAC_RG",
    "EAC_RG_S",
    "ASTC_4x4",
    "ASTC_5x4",
    "ASTC_5x5",
    "ASTC_6x5",
    "ASTC_6x6",
    "ASTC_8x5",
    "ASTC_8x6",
    "ASTC_8x8",
    "ASTC_10x5",
    "ASTC_10x6",
    "ASTC_10x8",
    "ASTC_10x10",
    "ASTC_12x10",
    "ASTC_12x12",
    "ASTC_3x3x3",
    "ASTC_4x3x3",
    "ASTC_4x4x3",
    "ASTC_4x4x4",
    "ASTC_5x4x4",
    "ASTC_5x5x4",
    "ASTC_5x5x5",
    "ASTC_6x5x5",
    "ASTC_6x6x5",
    "ASTC_6x6x6",
    "PVRTC1_2BPP",
    "PVRTC1_4BPP",
    "PVRTC2_2BPP",
    "PVRTC2_4BPP",
    "R8_UI",
    "R8_I",
    "R16_UI",
    "R16_I",
    "R32_UI",
    "R32_I",
    "RG8_UI",
    "RG8_I",
    "RG16_UI",
    "RG16_I",
    "RG32_UI",
    "RG32_I",
    "RGB8_UI",
    "RGB8_I",
    "RGB16_UI",
    "RGB16_I",
    "RGB32_UI",
    "RGB32_I",
    "RGBA8_UI",
    "RGBA8_I",
    "RGBA16_UI",
    "RGBA16_I",
    "RGBA32_UI",
    "RGBA32_I",
    "ARGB8",
    "ABGR8",
    "RGB10A2",
    "RGB10A2_UI",
    "RGB10A2_LM",
    "RGB9E5",
    "P8_RGB9E5",
    "R1",
];

impl TextureFormat {
    /// The engine's `ETextureFormat` byte in `numbering`. All agree up to 5; UE1 and UE2
    /// differ above it, and UT v469 and Unreal 227 differ at 19 (and 122).
    pub fn from_byte(b: u8, numbering: TextureNumbering) -> Self {
        use TextureNumbering::{Ue1, Ue2, Unreal227};
        match (b, numbering) {
            (0, _) => Self::P8,
            (1, _) => Self::Rgba7,
            (2, _) => Self::Rgb16,
            (3, _) => Self::Dxt1,
            (4, _) => Self::Rgb8,
            (5, _) => Self::Rgba8,
            (6, Ue2) | (19, Ue1) | (122, Unreal227) => Self::NoData,
            (7, Ue2) | (6, Ue1 | Unreal227) => Self::Dxt3,
            (8, Ue2) | (7, Ue1 | Unreal227) => Self::Dxt5,
            (9, Ue2) => Self::L8,
            (10, Ue2) => Self::G16,
            (11, Ue2) => Self::Rrrgggbbb,
            (b, Ue2) => Self::Unknown(b),
            (8, _) => Self::Bc4 { signed: false },
            (9, _) => Self::Bc4 { signed: true },
            (10, _) => Self::Bc5 { signed: false },
            (11, _) => Self::Bc5 { signed: true },
            (12, _) => Self::Bc7,
            (13, _) => Self::Bc6h { signed: true },
            (14, _) => Self::Bc6h { signed: false },
            (19, Unreal227) => Self::Mono,
            (b, _) if usize::from(b) < OLDUNREAL_FORMATS.len() => Self::Other(b),
            (b, _) => Self::Unknown(b),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Self::P8 => "P8",
            Self::Rgba7 => "RGBA7",
            Self::Rgb16 => "RGB16",
            Self::Dxt1 => "DXT1",
            Self::Rgb8 => "RGB8",
            Self::Rgba8 => "RGBA8",
            Self::NoData => "NODATA",
            Self::Dxt3 => "DXT3",
            Self::Dxt5 => "DXT5",
            Self::L8 => "L8",
            Self::G16 => "G16",
            Self::Rrrgggbbb => "RRRGGGBBB",
            Self::Bc4 { signed: false } => "BC4",
            Self::Bc4 { signed: true } => "BC4_S",
            Self::Bc5 { signed: false } => "BC5",
            Self::Bc5 { signed: true } => "BC5_S",
            Self::Bc6h { signed: false } => "BC6H",
            Self::Bc6h { signed: true } => "BC6H_S",
            Self::Bc7 => "BC7",
            Self::Mono => "MONO",
            Self::Other(b) => OLDUNREAL_FORMATS.get(usize::from(b)).copied().unwrap_or("unknown"),
            Self::Unknown(_) => "unknown",
        }
    }

    /// Bytes of one mip of `w` x `h`, when the format fixes it.
    pub fn data_size(self, w: u32, h: u32) -> Option<u64> {
        let (w, h) = (u64::from(w), u64::from(h));
        let blocks = w.div_ceil(4).max(1) * h.div_ceil(4).max(1);
        match self {
            Self::P8 | Self::L8 => Some(w * h),
            Self::Rgb16 | Self::G16 => Some(w * h * 2),
            Self::Rgb8 => Some(w * h * 3),
            Self::Rgba7 | Self::Rgba8 => Some(w * h * 4),
            Self::Dxt1 | Self::Bc4 { .. } => Some(blocks * 8),
            Self::Dxt3 | Self::Dxt5 | Self::Bc5 { .. } | Self::Bc6h { .. } | Self::Bc7 => {
                Some(blocks * 16)
            }
            Self::NoData | Self::Rrrgggbbb | Self::Mono | Self::Other(_) | Self::Unknown(_) => None,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mip<'a> {
    pub width: u32,
    pub height: u32,
    pub u_bits: u8,
    pub v_bits: u8,
    /// Absolute file offset of the pixel data.
    pub data_offset: usize,
    pub data: &'a [u8],
}

#[derive(Debug, Clone, PartialEq)]
pub struct Texture<'a> {
    pub header: ObjectHeader,
    pub width: u32,
    pub height: u32,
    /// `Format`, P8 when the property is absent (its default).
    pub format: TextureFormat,
    /// `CompFormat` when the texture has compressed mips (`bHasComp`).
    pub comp_format: Option<TextureFormat>,
    pub palette: Option<ObjectRef>,
    pub mips: Vec<Mip<'a>>,
    pub comp_mips: Vec<Mip<'a>>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Palette {
    pub header: ObjectHeader,
    /// RGBA.
    pub colors: Vec<[u8; 4]>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct SoundData<'a> {
    pub header: ObjectHeader,
    /// The file extension the data was imported from (`WAV`, `IT`, `S3M`, `UMX`...).
    pub format: String,
    pub data_offset: usize,
    pub data: &'a [u8],
    /// The embedded WAV header, when the format is WAV.
    pub wav: Option<Result<crate::wav::Wav>>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FontCharacter {
    pub start_u: i32,
    pub start_v: i32,
    pub u_size: i32,
    pub v_size: i32,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FontPage {
    pub texture: ObjectRef,
    pub characters: Vec<FontCharacter>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Font {
    pub header: ObjectHeader,
    pub pages: Vec<FontPage>,
    pub characters_per_page: i32,
}

#[derive(Debug, Clone, PartialEq)]
pub struct TextBuffer {
    pub header: ObjectHeader,
    pub pos: u32,
    pub top: u32,
    pub text: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClassInfo {
    pub name: String,
    pub super_class: Option<String>,
    /// The package's own name when the caller gave it.
    pub package: String,
    /// The outer path inside the package, when the class is not at the top level.
    pub outer: Option<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct MeshSequence {
    pub name: String,
    pub group: String,
    pub start_frame: i32,
    pub frames: i32,
    pub rate: f32,
    /// `#exec MESH NOTIFY` events: the function called at each time (0 to 1 along the
    /// sequence).
    pub notifies: Vec<MeshNotify>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct MeshNotify {
    pub time: f32,
    pub function: String,
}

/// What `#exec MESH ORIGIN` and `#exec MESHMAP SCALE` set on a UE1 mesh (`UMesh::Origin`,
/// `RotOrigin`, `Scale`), and the texture LOD factors `MESHMAP SCALE` and `SETTEXTURE TLOD=`
/// compute.
#[derive(Debug, Clone, PartialEq)]
pub struct MeshPlacement {
    pub scale: [f32; 3],
    pub origin: [f32; 3],
    /// Pitch, yaw and roll in the engine's units (65,536 a turn); `#exec MESH ORIGIN` takes
    /// them divided by 256.
    pub rot_origin: [i32; 3],
    pub texture_lod: Vec<f32>,
}

/// A UE1 LodMesh's level-of-detail parameters (`#exec MESH LODPARAMS`).
#[derive(Debug, Clone, PartialEq)]
pub struct LodParams {
    pub scale_max: f32,
    pub hysteresis: f32,
    pub strength: f32,
    pub min_verts: i32,
    pub morph: f32,
    pub z_displace: f32,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LodInfo {
    pub faces: usize,
    pub wedges: usize,
    pub materials: usize,
    pub special_faces: usize,
}

#[derive(Debug, Clone, PartialEq)]
pub struct MeshInfo {
    pub class: String,
    pub header: ObjectHeader,
    /// `UMesh` triangles (empty in a `LodMesh`, whose faces are in `lod`).
    pub triangles: usize,
    /// Vertices per frame.
    pub vertices: usize,
    pub frames: usize,
    /// 4, or 8 for Deus Ex.
    pub bytes_per_vertex: usize,
    /// `BoundingBoxes(0)` (min, max): the box the editor drew around the first frame's
    /// vertices as the engine holds them (`MeshBuildBounds`; `FMeshVert`'s raw integers, the
    /// decoded positions times [`MeshInfo::raw_per_unit`]). `None` without frames.
    pub first_frame_box: Option<[[f32; 3]; 2]>,
    pub sequences: Vec<MeshSequence>,
    pub textures: Vec<ObjectRef>,
    pub lod: Option<LodInfo>,
    pub skeletal: Option<SkeletalInfo>,
    /// Origin, rotation and scale (`None` where the fields after the frames did not read).
    pub placement: Option<MeshPlacement>,
    /// LodMesh and SkeletalMesh: the LOD parameters (`None` for a plain Mesh, or where they
    /// did not read).
    pub lod_params: Option<LodParams>,
    /// Where the geometry arrays are, for [`crate::decode::mesh`].
    pub layout: MeshLayout,
}

impl MeshInfo {
    /// How many of the engine's mesh units make one unit of a decoded position: the packed
    /// vertices (`FMeshVert`, X:11 Y:11 Z:10) decode in eighths and quarters of their raw
    /// integers, as the `.3d` exporters wrote them ([`crate::vertex_mesh::unpack_vertex`]),
    /// while the engine scales and places the raw integers; Deus Ex's 16-bit vertices and a
    /// skeletal mesh's float points decode as they are.
    pub fn raw_per_unit(&self) -> [f32; 3] {
        if self.bytes_per_vertex == 8 || self.skeletal.is_some() {
            [1.0; 3]
        } else {
            crate::vertex_mesh::PACKED_RAW_PER_UNIT
        }
    }
}

/// Absolute file offsets of a mesh's arrays (counts are in [`MeshInfo`] and [`LodInfo`]),
/// and the LodMesh fields that geometry decoding needs.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct MeshLayout {
    pub verts_offset: usize,
    pub tris_offset: usize,
    pub faces_offset: usize,
    pub wedges_offset: usize,
    pub materials_offset: usize,
    /// LodMesh: weapon-attachment vertices stored first in each frame; wedges index past them.
    pub special_verts: usize,
    /// LodMesh: when non-zero, frame vertex `k` is stored vertex `RemapAnimVerts[k]` of a
    /// frame of `old_frame_verts`.
    pub remap_anim_verts: usize,
    pub remap_offset: usize,
    pub old_frame_verts: usize,
    /// SkeletalMesh (UE1): its reference pose's `Points` (floats, the engine's units).
    pub points_offset: usize,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkeletalInfo {
    pub points: usize,
    pub wedges: usize,
    pub bones: Vec<String>,
    pub weights: usize,
}

#[derive(Debug, Clone, PartialEq)]
pub struct AnimationInfo {
    pub header: ObjectHeader,
    pub bones: Vec<String>,
    pub sequences: Vec<MeshSequence>,
}
