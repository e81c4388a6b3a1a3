//! UE1/UE2 packages (`.u .utx .uax .umx .unr .usx .ukx`): the header and the name, import
//! and export tables are read eagerly and validated; objects are read lazily, each from its
//! export's serial offset, by the readers in [`objects`].

pub mod class_body;
pub mod objects;
pub mod properties;

use crate::error::{Error, Result};
use crate::reader::{ansi, Reader};

pub use class_body::ClassBody;
pub use objects::*;
pub use properties::{Property, PropertyValue};

/// `C1 83 2A 9E` on disk.
pub const PACKAGE_SIGNATURE: u32 = 0x9E2A_83C1;
/// The oldest version this crate reads. Unreal v200 (Unreal's first release: its package
/// version is 61) loads anything from 34 without asking, and its tables have had today's form
/// since 50 (`Core/Src/UnLinker.h`: an export's and an import's `PackageIndex` from 50, the
/// summary's `PackageFlags` from 34); pre-release packages of 57 to 60 ship in trees built
/// with it. Later engines load 60 and newer without asking (UT v432, Unreal 227 and UT2004
/// `Core/Inc/UnObjVer.h`: `PACKAGE_MIN_VERSION 60`) and ask before an older one (UT2004
/// `Core/Src/UnLinker.cpp:318-321`).
pub const MIN_VERSION: u16 = 50;
/// The newest version this crate reads (UT2004 writes 128).
pub const MAX_VERSION: u16 = 128;

/// Object flag: the object starts with a saved UnrealScript state frame.
pub const RF_HAS_STACK: u32 = 0x0200_0000;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Generation {
    pub export_count: u32,
    pub name_count: u32,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PackageHeader {
    pub version: u16,
    /// The licensee word (high 16 bits of the version field): 0 for Epic's own builds.
    pub licensee: u16,
    pub flags: u32,
    pub name_count: u32,
    pub name_offset: u32,
    pub export_count: u32,
    pub export_offset: u32,
    pub import_count: u32,
    pub import_offset: u32,
    /// Before version 68: the heritage table (count, offset).
    pub heritage: Option<(u32, u32)>,
    /// From version 68.
    pub guid: Option<[u8; 16]>,
    pub generations: Vec<Generation>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NameEntry {
    pub name: String,
    pub flags: u32,
}

/// A reference to an object: positive is export `n - 1`, negative is import `-n - 1`, zero
/// is none.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct ObjectRef(pub i32);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Resolved {
    None,
    Export(usize),
    Import(usize),
}

impl ObjectRef {
    pub fn resolve(self) -> Resolved {
        match self.0 {
            0 => Resolved::None,
            n if n > 0 => Resolved::Export((n - 1) as usize),
            n => Resolved::Import((-(i64::from(n)) - 1) as usize),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Import {
    pub class_package: usize,
    pub class_name: usize,
    pub outer: ObjectRef,
    pub object_name: usize,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Export {
    pub class: ObjectRef,
    pub super_: ObjectRef,
    pub outer: ObjectRef,
    pub object_name: usize,
    pub object_flags: u32,
    pub serial_size: usize,
    pub serial_offset: usize,
}

/// An export as listed by [`Package::objects`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ObjectInfo<'p> {
    pub export: usize,
    pub name: &'p str,
    pub class: &'p str,
    /// `Group.Name` inside the package (without the package's own name).
    pub path: String,
    pub size: usize,
    pub offset: usize,
}

/// A package with its tables read. Object data stays in the borrowed bytes until asked for.
#[derive(Debug, Clone)]
pub struct Package<'a> {
    data: &'a [u8],
    /// The package's own name (the file name without extension), when the caller knows it;
    /// used by [`Package::find`] to accept fully qualified paths.
    pub name: Option<String>,
    pub header: PackageHeader,
    pub names: Vec<NameEntry>,
    pub imports: Vec<Import>,
    pub exports: Vec<Export>,
}

// Smallest possible table entries, used to bound counts before allocating.
const MIN_NAME_ENTRY: usize = 5; // one byte of name (or length) + u32 flags
const MIN_IMPORT_ENTRY: usize = 7; // index, index, u32, index
const MIN_EXPORT_ENTRY: usize = 12; // index, index, u32, index, u32, index

/// A path names at most this many objects, innermost first: real packages nest a few groups
/// deep, and a crafted chain of outers must not make every path as long as the chain.
pub const MAX_PATH_NAMES: usize = 64;

/// What stands for the outers a path leaves out ([`MAX_PATH_NAMES`]).
pub const DEEPER_OUTERS: &str = "(more outer groups)";

/// The states of an object in the outer-cycle check (`validate_refs`).
const UNSEEN: u8 = 0;
const ON_PATH: u8 = 1;
const ENDS: u8 = 2;

impl<'a> Package<'a> {
    /// Reads and validates the header and the three tables.
    pub fn parse(data: &'a [u8]) -> Result<Self> {
        let header = read_header(data)?;
        let names = read_names(data, &header)?;
        let imports = read_imports(data, &header, names.len())?;
        let exports = read_exports(data, &header, names.len())?;
        let package = Self { data, name: None, header, names, imports, exports };
        package.validate_refs()?;
        Ok(package)
    }

    /// Like [`Package::parse`], remembering the package's own name.
    pub fn parse_named(data: &'a [u8], name: &str) -> Result<Self> {
        let mut package = Self::parse(data)?;
        package.name = Some(name.to_owned());
        Ok(package)
    }

    pub fn data(&self) -> &'a [u8] {
        self.data
    }

    pub fn version(&self) -> u16 {
        self.header.version
    }

    /// True for UE2 packages (version 100 and later).
    pub fn is_ue2(&self) -> bool {
        self.header.version >= 100
    }

    /// How this package numbers texture formats: UE2 from version 100; a UE1 package with
    /// licensee 227 was saved by Unreal 227; any other UE1 package follows Epic's and UT
    /// v469's numbering (which agree where both define a format).
    pub fn texture_numbering(&self) -> TextureNumbering {
        if self.is_ue2() {
            TextureNumbering::Ue2
        } else if self.header.licensee == 227 {
            TextureNumbering::Unreal227
        } else {
            TextureNumbering::Ue1
        }
    }

    /// True when objects of texture class `class` hold no image in this package: UE2's
    /// `ScriptedTexture` is a `UBitmapMaterial` drawn by script at run time (a size and a
    /// client, no mips), while UE1's is a `UTexture` with mips like any other.
    pub fn texture_class_is_imageless(&self, class: &str) -> bool {
        self.is_ue2() && class.eq_ignore_ascii_case("ScriptedTexture")
    }

    /// True when texture `export` stores no pixels in any mip: the engine makes them when it
    /// loads it (UE1's animated textures: `FireTexture`, `WetTexture`, `WaveTexture`, `IceTexture`),
    /// or the package was stripped of them (a game server's copy: no mip level at all).
    pub fn texture_stores_no_pixels(&self, export: usize) -> bool {
        // Only a texture's class (which every texture class name ends with) says anything:
        // other objects read as a texture have no mips either.
        // No mip level at all is no pixels too: a package stripped for a game server.
        is_texture_class_name(self.class_name(export))
            && self
                .read_texture(export)
                .is_ok_and(|t| t.mips.iter().chain(&t.comp_mips).all(|m| m.data.is_empty()))
    }

    /// The name at `index`, or `""` when out of range (indices are validated at parse time
    /// for the tables; object data is checked by its readers).
    pub fn name(&self, index: usize) -> &str {
        self.names.get(index).map_or("", |n| n.name.as_str())
    }

    pub fn export(&self, index: usize) -> Option<&Export> {
        self.exports.get(index)
    }

    pub fn export_name(&self, index: usize) -> &str {
        self.exports.get(index).map_or("", |e| self.name(e.object_name))
    }

    /// The name of whatever `r` points at (`""` for none).
    pub fn ref_name(&self, r: ObjectRef) -> &str {
        match r.resolve() {
            Resolved::None => "",
            Resolved::Export(i) => self.export_name(i),
            Resolved::Import(i) => self.imports.get(i).map_or("", |imp| self.name(imp.object_name)),
        }
    }

    /// The class of an export: `"Class"` for class objects (class reference 0).
    pub fn class_name(&self, export: usize) -> &str {
        match self.exports.get(export) {
            Some(e) if e.class.0 == 0 => "Class",
            Some(e) => self.ref_name(e.class),
            None => "",
        }
    }

    /// `Outer.Name` of an export or import reference (without the package's own name for
    /// exports). Outer chains were checked for cycles at parse time.
    pub fn ref_path(&self, r: ObjectRef) -> String {
        let mut parts: Vec<&str> = Vec::new();
        let mut cur = r;
        let mut cut = false;
        // The bound is a second guard against cycles; validate_refs already rejected them.
        for _ in 0..=self.exports.len() + self.imports.len() {
            if parts.len() == MAX_PATH_NAMES {
                // A legal chain of 20,000 outers made every path thousands of names long:
                // `info` printed 800 MB and the server held 1.5 GB for one 240 KB package.
                cut = !matches!(cur.resolve(), Resolved::None);
                break;
            }
            match cur.resolve() {
                Resolved::None => break,
                Resolved::Export(i) => {
                    let Some(e) = self.exports.get(i) else { break };
                    parts.push(self.name(e.object_name));
                    cur = e.outer;
                }
                Resolved::Import(i) => {
                    let Some(imp) = self.imports.get(i) else { break };
                    parts.push(self.name(imp.object_name));
                    cur = imp.outer;
                }
            }
        }
        if cut {
            parts.push(DEEPER_OUTERS);
        }
        parts.reverse();
        parts.join(".")
    }

    pub fn export_path(&self, export: usize) -> String {
        self.ref_path(ObjectRef(export as i32 + 1))
    }

    /// Every export, in table order.
    pub fn objects(&self) -> impl Iterator<Item = ObjectInfo<'_>> + '_ {
        self.exports.iter().enumerate().map(|(i, e)| ObjectInfo {
            export: i,
            name: self.name(e.object_name),
            class: self.class_name(i),
            path: self.export_path(i),
            size: e.serial_size,
            offset: e.serial_offset,
        })
    }

    /// The export at `Group.Name` (or `Package.Group.Name` when the package's name is known),
    /// compared case-insensitively as the engine does.
    pub fn find(&self, path: &str) -> Option<usize> {
        let wanted: Vec<&str> = path.split('.').collect();
        let relative: &[&str] = match (&self.name, wanted.split_first()) {
            (Some(own), Some((first, rest)))
                if first.eq_ignore_ascii_case(own) && !rest.is_empty() =>
            {
                rest
            }
            _ => &wanted,
        };
        let try_match =
            |parts: &[&str]| (0..self.exports.len()).find(|&i| self.export_path_matches(i, parts));
        try_match(relative).or_else(|| {
            if relative.len() == wanted.len() {
                None
            } else {
                try_match(&wanted)
            }
        })
    }

    /// Every export at `Group.Name` (or `Package.Group.Name`), in table order: a path is not
    /// unique in a package when objects of different classes share it (UT2004's `.ukx` files
    /// hold a `SkeletalMesh` and a `MeshAnimation` of the same name). When nothing is at the path,
    /// every export whose own name is `path` in any group.
    pub fn find_all(&self, path: &str) -> Vec<usize> {
        let wanted: Vec<&str> = path.split('.').collect();
        let matching = |parts: &[&str]| -> Vec<usize> {
            (0..self.exports.len()).filter(|&i| self.export_path_matches(i, parts)).collect()
        };
        let mut found = matching(&wanted);
        if let (Some(own), Some((first, rest))) = (&self.name, wanted.split_first()) {
            if first.eq_ignore_ascii_case(own) && !rest.is_empty() {
                found.extend(matching(rest));
                found.sort_unstable();
                found.dedup();
            }
        }
        if found.is_empty() && wanted.len() == 1 {
            found = self.find_by_name(path).collect();
        }
        found
    }

    /// How objects are named everywhere an object must be told apart from another of the
    /// same path: `Class'Group.Name'`, as UnrealEd and T3D write references.
    pub fn object_reference(&self, export: usize) -> String {
        format!("{}'{}'", self.class_name(export), self.export_path(export))
    }

    /// Every export named `name` in any group, case-insensitively (UE1 maps often name
    /// textures without their group).
    pub fn find_by_name<'s>(&'s self, name: &'s str) -> impl Iterator<Item = usize> + 's {
        self.exports
            .iter()
            .enumerate()
            .filter(move |(_, e)| self.name(e.object_name).eq_ignore_ascii_case(name))
            .map(|(i, _)| i)
    }

    fn export_path_matches(&self, export: usize, parts: &[&str]) -> bool {
        let mut cur = ObjectRef(export as i32 + 1);
        for part in parts.iter().rev() {
            let Resolved::Export(i) = cur.resolve() else { return false };
            let Some(e) = self.exports.get(i) else { return false };
            if !self.name(e.object_name).eq_ignore_ascii_case(part) {
                return false;
            }
            cur = e.outer;
        }
        cur.0 == 0
    }

    fn validate_refs(&self) -> Result<()> {
        // The entry's name is formatted only for an error (a package has thousands).
        let check = |r: ObjectRef, what: &str, structure: &dyn Fn() -> String| -> Result<()> {
            let ok = match r.resolve() {
                Resolved::None => true,
                Resolved::Export(i) => i < self.exports.len(),
                Resolved::Import(i) => i < self.imports.len(),
            };
            if ok {
                Ok(())
            } else {
                Err(Error::new(
                    structure(),
                    0,
                    format!(
                        "{what} to reference one of {} exports or {} imports, found {}",
                        self.exports.len(),
                        self.imports.len(),
                        r.0
                    ),
                ))
            }
        };
        for (i, imp) in self.imports.iter().enumerate() {
            check(imp.outer, "Package", &|| format!("import table entry {i}"))?;
        }
        for (i, e) in self.exports.iter().enumerate() {
            let s = || format!("export table entry {i} ({})", self.name(e.object_name));
            check(e.class, "Class", &s)?;
            check(e.super_, "Super", &s)?;
            check(e.outer, "Package", &s)?;
        }
        // Outer chains must end. Each object is walked through once: a walk stops at an
        // object already known to end (its chain was checked) and fails on one of its own
        // path (a cycle). Walking every chain to its end made a legal chain of 20,000 outers
        // cost 200 million steps.
        let slot = |r: ObjectRef| match r.resolve() {
            Resolved::None => None,
            Resolved::Export(i) => Some(i),
            Resolved::Import(i) => Some(self.exports.len() + i),
        };
        let outer_of = |slot: usize| match self.exports.get(slot) {
            Some(e) => e.outer,
            None => self.imports[slot - self.exports.len()].outer,
        };
        let mut state = vec![UNSEEN; self.exports.len() + self.imports.len()];
        let mut path = Vec::new();
        for start in 0..state.len() {
            let mut cur = Some(start);
            while let Some(at) = cur {
                match state[at] {
                    ENDS => break,
                    ON_PATH => {
                        let reference = if start < self.exports.len() {
                            start as i32 + 1
                        } else {
                            -((start - self.exports.len()) as i32) - 1
                        };
                        return Err(Error::new(
                            "object outer chain",
                            0,
                            format!(
                                "the outers of object reference {reference} to end, found a cycle"
                            ),
                        ));
                    }
                    _ => {
                        state[at] = ON_PATH;
                        path.push(at);
                        cur = slot(outer_of(at));
                    }
                }
            }
            for at in path.drain(..) {
                state[at] = ENDS;
            }
        }
        Ok(())
    }
}

/// The version of a package whose signature is right but whose version this crate does not
/// read ([`MIN_VERSION`] to [`MAX_VERSION`]): an engine may still load it, so a caller can say
/// it is not checked rather than broken. `None` for any other bytes.
pub fn unread_version(data: &[u8]) -> Option<u16> {
    let signature = u32::from_le_bytes(data.get(..4)?.try_into().ok()?);
    let version = u16::from_le_bytes(data.get(4..6)?.try_into().ok()?);
    (signature == PACKAGE_SIGNATURE && !(MIN_VERSION..=MAX_VERSION).contains(&version))
        .then_some(version)
}

fn read_header(data: &[u8]) -> Result<PackageHeader> {
    let mut r = Reader::new(data, 0, "package header");
    let signature = r.u32("signature")?;
    if signature != PACKAGE_SIGNATURE {
        return Err(r.error_at(
            0,
            format!("signature C1 83 2A 9E, found {:02X?}", signature.to_le_bytes()),
        ));
    }
    let version = r.u16("version")?;
    let licensee = r.u16("licensee")?;
    if !(MIN_VERSION..=MAX_VERSION).contains(&version) {
        return Err(r.error_at(
            4,
            format!("a package version from {MIN_VERSION} to {MAX_VERSION}, found {version}"),
        ));
    }
    let flags = r.u32("PackageFlags")?;
    let name_count = r.u32("NameCount")?;
    let name_offset = r.u32("NameOffset")?;
    let export_count = r.u32("ExportCount")?;
    let export_offset = r.u32("ExportOffset")?;
    let import_count = r.u32("ImportCount")?;
    let import_offset = r.u32("ImportOffset")?;
    let (heritage, guid, generations) = if version < 68 {
        let count = r.u32("HeritageCount")?;
        let offset = r.u32("HeritageOffset")?;
        (Some((count, offset)), None, Vec::new())
    } else {
        let guid = r.array::<16>("Guid")?;
        let count = r.u32("GenerationCount")?;
        let n = r.check_count("GenerationCount", i64::from(count), 8)?;
        let mut generations = Vec::with_capacity(n);
        for _ in 0..n {
            let export_count = r.u32("Generation.ExportCount")?;
            let name_count = r.u32("Generation.NameCount")?;
            generations.push(Generation { export_count, name_count });
        }
        (None, Some(guid), generations)
    };
    let header = PackageHeader {
        version,
        licensee,
        flags,
        name_count,
        name_offset,
        export_count,
        export_offset,
        import_count,
        import_offset,
        heritage,
        guid,
        generations,
    };
    let len = data.len();
    let table = |field: &str,
                 field_pos: usize,
                 count: u32,
                 offset: u32,
                 min: usize|
     -> Result<()> {
        let end = (offset as usize).checked_add((count as usize).saturating_mul(min));
        if count > 0 && end.is_none_or(|end| end > len) {
            return Err(Error::new(
                "package header",
                field_pos,
                format!(
                    "{field}: {count} entries at offset {offset} to fit in the file of {len} bytes (each takes at least {min})"
                ),
            ));
        }
        Ok(())
    };
    table("name table", 12, name_count, name_offset, MIN_NAME_ENTRY)?;
    table("export table", 20, export_count, export_offset, MIN_EXPORT_ENTRY)?;
    table("import table", 28, import_count, import_offset, MIN_IMPORT_ENTRY)?;
    if let Some((count, offset)) = heritage {
        table("heritage table", 36, count, offset, 16)?;
    }
    Ok(header)
}

fn read_names(data: &[u8], header: &PackageHeader) -> Result<Vec<NameEntry>> {
    let mut r = Reader::new(data, header.name_offset as usize, "name table");
    let n = header.name_count as usize;
    let mut names = Vec::with_capacity(n);
    for i in 0..n {
        r.set_entry("name table entry", i);
        let bytes = if header.version < 64 {
            r.cstring("name", 1024)?
        } else {
            let start = r.pos();
            let len = r.compact_index("name length")?;
            if !(0..=1024).contains(&len) {
                return Err(r.error_at(start, format!("a name length from 0 to 1024, found {len}")));
            }
            r.bytes("name", len as usize)?
        };
        let flags = r.u32("name flags")?;
        names.push(NameEntry { name: ansi(bytes), flags });
    }
    Ok(names)
}

fn name_index(r: &mut Reader<'_>, field: &str, name_count: usize) -> Result<usize> {
    let start = r.pos();
    let v = r.compact_index(field)?;
    if v < 0 || v as usize >= name_count {
        return Err(
            r.error_at(start, format!("{field} to index one of {name_count} names, found {v}"))
        );
    }
    Ok(v as usize)
}

fn read_imports(data: &[u8], header: &PackageHeader, name_count: usize) -> Result<Vec<Import>> {
    let mut r = Reader::new(data, header.import_offset as usize, "import table");
    let n = header.import_count as usize;
    let mut imports = Vec::with_capacity(n);
    for i in 0..n {
        r.set_entry("import table entry", i);
        let class_package = name_index(&mut r, "ClassPackage", name_count)?;
        let class_name = name_index(&mut r, "ClassName", name_count)?;
        let outer = ObjectRef(r.i32("Package")?);
        let object_name = name_index(&mut r, "ObjectName", name_count)?;
        imports.push(Import { class_package, class_name, outer, object_name });
    }
    Ok(imports)
}

fn read_exports(data: &[u8], header: &PackageHeader, name_count: usize) -> Result<Vec<Export>> {
    let mut r = Reader::new(data, header.export_offset as usize, "export table");
    let n = header.export_count as usize;
    let mut exports = Vec::with_capacity(n);
    for i in 0..n {
        r.set_entry("export table entry", i);
        let class = ObjectRef(r.compact_index("Class")?);
        let super_ = ObjectRef(r.compact_index("Super")?);
        let outer = ObjectRef(r.i32("Package")?);
        let object_name = name_index(&mut r, "ObjectName", name_count)?;
        let object_flags = r.u32("ObjectFlags")?;
        let size_pos = r.pos();
        let size = r.compact_index("SerialSize")?;
        if size < 0 {
            return Err(
                r.error_at(size_pos, format!("SerialSize to be non-negative, found {size}"))
            );
        }
        let (serial_size, serial_offset) = if size > 0 {
            let off_pos = r.pos();
            let offset = r.compact_index("SerialOffset")?;
            let fits = offset >= 0
                && (offset as usize)
                    .checked_add(size as usize)
                    .is_some_and(|end| end <= data.len());
            if !fits {
                return Err(r.error_at(
                    off_pos,
                    format!(
                        "SerialOffset {offset} + SerialSize {size} to lie inside the file of {} bytes",
                        data.len()
                    ),
                ));
            }
            (size as usize, offset as usize)
        } else {
            (0, 0)
        };
        exports.push(Export {
            class,
            super_,
            outer,
            object_name,
            object_flags,
            serial_size,
            serial_offset,
        });
    }
    Ok(exports)
}

/// Whether objects of class `class` are textures with mips to read (`Texture`, `FireTexture`;
/// not `ShadowBitmapMaterial`): every such class name ends with `Texture`.
pub fn is_texture_class_name(class: &str) -> bool {
    class.len() >= 7
        && class.get(class.len() - 7..).is_some_and(|end| end.eq_ignore_ascii_case("texture"))
}
