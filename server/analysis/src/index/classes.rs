//! One model of the game's classes: which exist, their parents, whether UnrealEd may place
//! them, and their default properties, from the game folder's sources
//! (`<Package>/Classes/*.uc`, [`super::class_sources`]) and from the compiled classes of the
//! indexed packages ([`unreal_formats::Package::read_class_body`]).
//!
//! Sources win over a compiled class of the same package: they are what the modder is
//! writing, and the package may be stale. A bare class name is resolved conservatively: when
//! two packages define it, [`PackageIndex::class_facts`] answers `None` (the engine would take
//! whichever package it loaded first, which the index cannot know), so checks built on it
//! stay silent; [`PackageIndex::class_facts_all`] lists every candidate.
//!
//! Flags and parents of compiled classes are read when a package is indexed (602 classes of
//! ten UT2004 packages add 1.3 ms to the 1.5 ms their tables take); default values are read
//! and turned into text only when first asked for ([`PackageIndex::class_defaults`]), once
//! per package (or source file) and index, so that a check that only needs flags never
//! pays for them.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, PoisonError};

use unreal_formats::package::class_body::{CLASS_ABSTRACT, CLASS_PLACEABLE};
use unreal_formats::package::{ObjectRef, Package, Property, PropertyValue, Resolved};

use super::{IndexedPackage, PackageIndex};

/// A class of an indexed package, as its export says and its data was read at index time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompiledClass {
    pub name: Box<str>,
    /// The export's index in the package.
    pub export: u32,
    /// The parent class as `Package.Name` (the package an import names, or this one),
    /// `None` for `Object`.
    pub parent: Option<Box<str>>,
    /// `ClassFlags`, when the class's data could be read.
    pub flags: Option<u32>,
    /// Why the class's data could not be read (the reader's precise error).
    pub error: Option<String>,
}

/// The classes of a parsed package named `own_name` (every class export, readable or not).
pub(crate) fn compiled_classes(package: &Package<'_>, own_name: &str) -> Vec<CompiledClass> {
    package
        .class_exports()
        .map(|export| {
            let e = &package.exports[export];
            let parent = match e.super_.resolve() {
                Resolved::None => None,
                Resolved::Export(_) => Some(format!("{own_name}.{}", package.ref_name(e.super_))),
                Resolved::Import(_) => Some(package.ref_path(e.super_)),
            };
            let parent = parent.map(String::into_boxed_str);
            let (flags, error) = match package.read_class_body(export) {
                Ok(body) => (Some(body.flags), None),
                Err(err) => (None, Some(err.to_string())),
            };
            CompiledClass {
                name: package.export_name(export).into(),
                export: u32::try_from(export).unwrap_or(u32::MAX),
                parent,
                flags,
                error,
            }
        })
        .collect()
}

/// Where a class's facts come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClassOrigin {
    /// A `.uc` file of the game folder.
    Source(PathBuf),
    /// A compiled package file.
    Package(PathBuf),
}

/// What the index knows of one class.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClassFacts {
    pub name: String,
    pub package: String,
    /// The parent class: as written in a source (`Actor` or `Engine.Actor`), `Package.Name`
    /// for a compiled class; `None` for `Object`.
    pub parent: Option<String>,
    /// `abstract` in the source, `CLASS_Abstract` compiled. Not inherited.
    pub is_abstract: bool,
    /// UE2's `placeable` / `notplaceable` (compiled: `CLASS_Placeable`, which UE2 classes
    /// inherit); `None` for UE1 (whose `CLASS_NoUserCreate` shares the bit) and for a source
    /// declaration that says neither.
    pub placeable: Option<bool>,
    pub origin: ClassOrigin,
    /// `ClassFlags` of a compiled class whose data was read.
    pub flags: Option<u32>,
    /// Why the facts are incomplete (a compiled class whose data could not be read: its
    /// flags and defaults are unknown).
    pub unreadable: Option<String>,
    /// Where [`PackageIndex::class_defaults`] finds the defaults: the package number and
    /// class number of a compiled class.
    compiled: Option<(u32, u32)>,
}

/// The defaults one class sets ([`PackageIndex::class_defaults`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ClassDefaults {
    /// `(name as written, value as T3D text)`: `("bStatic", "True")`, `("Skins(1)",
    /// "Texture'Pkg.Skin'")`; a compiled class's values printed as UnrealEd exports them
    /// ([`value_text`]).
    pub values: Vec<(String, String)>,
    /// Properties set by a compiled class in a form not printed as text (structs other than
    /// vectors, rotators and colors; dynamic arrays; maps): their value is unknown here.
    pub unprinted: Vec<String>,
    /// Why the defaults could not be read at all.
    pub error: Option<String>,
}

/// What [`PackageIndex::default_of`] finds for a property of a class.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DefaultValue {
    /// The value as T3D text, and the class that set it (the class asked about or a parent).
    Set(String, String),
    /// Every class up the chain to `Object` is known and none sets it: the engine's zero
    /// (`0`, `False`, `None`, empty). Native constructors and `.ini` configuration, which
    /// may change a value at run time, are not looked at.
    EngineZero,
    /// Why the value cannot be told: which class is not indexed, ambiguous or unreadable.
    Unknown(String),
}

/// How deep a parent chain is followed (real chains are under 20 long).
const MAX_CHAIN: usize = 256;
/// How many packages up a byte property's declaration is looked for (a class's parents span
/// a few packages: `Engine`, `Botpack`, a mod).
const MAX_PACKAGE_HOPS: usize = 16;

/// The defaults of every class of one package, text made once.
pub(crate) type PackageDefaults = HashMap<String, Arc<ClassDefaults>>;

impl PackageIndex {
    /// The facts of the class `name` (`Name` or `Package.Name`, any case): `None` when no
    /// package defines it, and for a bare name that two packages define (see the module
    /// documentation; [`Self::class_facts_all`] lists them).
    pub fn class_facts(&self, name: &str) -> Option<ClassFacts> {
        let mut all = self.class_facts_all(name);
        if all.len() == 1 {
            all.pop()
        } else {
            None
        }
    }

    /// Every class `name` may mean: one per package that defines it (a source and a compiled
    /// class of the same package are one, the source's facts winning), sources' packages
    /// first.
    pub fn class_facts_all(&self, name: &str) -> Vec<ClassFacts> {
        let (package, bare) = match name.split_once('.') {
            Some((package, bare)) => (Some(package), bare),
            None => (None, name),
        };
        let wanted = |p: &str| package.is_none_or(|want| want.eq_ignore_ascii_case(p));
        let mut out: Vec<ClassFacts> = Vec::new();
        for source in self.source_classes_named(bare).filter(|c| wanted(&c.package)) {
            if out.iter().any(|f| f.package.eq_ignore_ascii_case(&source.package)) {
                continue;
            }
            out.push(ClassFacts {
                name: source.name.clone(),
                package: source.package.clone(),
                parent: source.parent.clone(),
                is_abstract: source.is_abstract,
                placeable: source.placeable,
                origin: ClassOrigin::Source(source.file.clone()),
                flags: None,
                unreadable: None,
                compiled: None,
            });
        }
        let compiled = self.by_compiled_class.get(&bare.to_ascii_lowercase());
        for &(number, class_number) in compiled.into_iter().flatten() {
            let Some(package) = self.packages.get(number as usize) else { continue };
            let Some(class) = package.classes.get(class_number as usize) else { continue };
            if !wanted(&package.name)
                || out.iter().any(|f| f.package.eq_ignore_ascii_case(&package.name))
            {
                continue;
            }
            let flags = class.flags.unwrap_or(0);
            out.push(ClassFacts {
                name: class.name.to_string(),
                package: package.name.clone(),
                parent: class.parent.as_deref().map(str::to_owned),
                is_abstract: flags & CLASS_ABSTRACT != 0,
                placeable: (package.version >= 100 && class.flags.is_some())
                    .then_some(flags & CLASS_PLACEABLE != 0),
                origin: ClassOrigin::Package(package.path.clone()),
                flags: class.flags,
                unreadable: class.error.clone(),
                compiled: Some((number, class_number)),
            });
        }
        out
    }

    /// The default properties `facts`' class sets itself: a source's `defaultproperties`
    /// block, or a compiled class's stored defaults, read when first asked for (once per
    /// file or package and index).
    pub fn class_defaults(&self, facts: &ClassFacts) -> Arc<ClassDefaults> {
        match (&facts.origin, facts.compiled) {
            (ClassOrigin::Source(file), _) => self.source_defaults(file),
            (ClassOrigin::Package(_), Some((number, class))) => {
                let Some(package) = self.packages.get(number as usize) else {
                    return Arc::default();
                };
                let Some(compiled) = package.classes.get(class as usize) else {
                    return Arc::default();
                };
                if let Some(error) = &compiled.error {
                    return Arc::new(ClassDefaults {
                        error: Some(error.clone()),
                        ..ClassDefaults::default()
                    });
                }
                self.compiled_defaults(number as usize, package, &compiled.name)
            }
            (ClassOrigin::Package(_), None) => Arc::default(),
        }
    }

    /// The default value of `property` (`Name`, `Name(1)` or `Name[1]`, any case) for class
    /// `class`, walking up its parents until a class sets it.
    pub fn default_of(&self, class: &str, property: &str) -> DefaultValue {
        let wanted = property_key(property);
        let mut current = class.to_owned();
        let mut seen: Vec<String> = Vec::new();
        for _ in 0..MAX_CHAIN {
            let all = self.class_facts_all(&current);
            let facts = match all.as_slice() {
                [one] => one,
                [] => return DefaultValue::Unknown(format!("class `{current}` is not indexed")),
                many => {
                    let packages: Vec<&str> = many.iter().map(|f| f.package.as_str()).collect();
                    return DefaultValue::Unknown(format!(
                        "class `{current}` is defined in several packages ({})",
                        packages.join(", ")
                    ));
                }
            };
            let defaults = self.class_defaults(facts);
            if let Some(why) = facts.unreadable.as_ref().or(defaults.error.as_ref()) {
                return DefaultValue::Unknown(format!(
                    "class `{}.{}` cannot be read: {why}",
                    facts.package, facts.name
                ));
            }
            // The last assignment wins, as the engine's import applies them in order.
            if let Some((_, value)) =
                defaults.values.iter().rev().find(|(name, _)| property_key(name) == wanted)
            {
                return DefaultValue::Set(value.clone(), facts.name.clone());
            }
            if defaults.unprinted.iter().any(|name| property_key(name) == wanted) {
                return DefaultValue::Unknown(format!(
                    "class `{}.{}` sets `{property}` in a form not read here",
                    facts.package, facts.name
                ));
            }
            let Some(parent) = &facts.parent else { return DefaultValue::EngineZero };
            let key = format!("{}.{}", facts.package, facts.name).to_ascii_lowercase();
            if seen.contains(&key) {
                return DefaultValue::Unknown(format!("class `{current}` is its own ancestor"));
            }
            seen.push(key);
            current.clone_from(parent);
        }
        DefaultValue::Unknown(format!("the parents of `{class}` run deeper than {MAX_CHAIN}"))
    }

    /// The first class up `class`'s chain (itself included) that is compiled in an indexed
    /// package but whose data could not be read, as `Package.Name`, with the reader's error:
    /// its flags and defaults are unknown, so checks that need them pass over every class
    /// derived from it. `None` when every class up the chain was read, and when the chain
    /// cannot be followed (a class not indexed, or defined in several packages: what
    /// `t3d-unknown-class` is about, not an unreadable package).
    pub fn unreadable_in_chain(&self, class: &str) -> Option<(String, String)> {
        let mut current = class.to_owned();
        let mut seen: Vec<String> = Vec::new();
        for _ in 0..MAX_CHAIN {
            let [facts]: [ClassFacts; 1] = self.class_facts_all(&current).try_into().ok()?;
            if let Some(why) = facts.unreadable {
                return Some((format!("{}.{}", facts.package, facts.name), why));
            }
            let key = format!("{}.{}", facts.package, facts.name).to_ascii_lowercase();
            if seen.contains(&key) {
                return None;
            }
            seen.push(key);
            current = facts.parent?;
        }
        None
    }

    /// The `defaultproperties` of a source file, read once per index.
    fn source_defaults(&self, file: &std::path::Path) -> Arc<ClassDefaults> {
        let lock = || self.source_defaults.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(found) = lock().get(file) {
            return Arc::clone(found);
        }
        let read = Arc::new(read_source_defaults(&*self.fs, file));
        Arc::clone(lock().entry(file.to_path_buf()).or_insert(read))
    }

    /// The defaults of compiled class `class` of package number `number`, every class of
    /// the package read and printed once per index.
    fn compiled_defaults(
        &self,
        number: usize,
        package: &IndexedPackage,
        class: &str,
    ) -> Arc<ClassDefaults> {
        let cached = {
            let lock = self.compiled_defaults.lock().unwrap_or_else(PoisonError::into_inner);
            lock.get(&number).cloned()
        };
        let all = cached.unwrap_or_else(|| {
            let (mut all, pending) = self
                .with_package(package, |parsed| package_defaults(parsed, package))
                .unwrap_or_else(|why| {
                    let failed = |c: &CompiledClass| {
                        let failed =
                            ClassDefaults { error: Some(why.clone()), ..ClassDefaults::default() };
                        (c.name.to_ascii_lowercase(), failed)
                    };
                    (package.classes.iter().map(failed).collect(), Vec::new())
                });
            // A byte of an enum is written as UnrealEd writes it: the value's name.
            for (class, at, byte, lookup) in pending {
                let Some(defaults) = all.get_mut(&class) else { continue };
                let Some((name, value)) = defaults.values.get_mut(at) else { continue };
                let property = name.split('(').next().unwrap_or(name).to_owned();
                if let Some(names) = self.enum_names(lookup, &property) {
                    if let Some(text) = names.get(usize::from(byte)) {
                        value.clone_from(text);
                    }
                }
            }
            let read: Arc<PackageDefaults> =
                Arc::new(all.into_iter().map(|(k, v)| (k, Arc::new(v))).collect());
            let mut lock = self.compiled_defaults.lock().unwrap_or_else(PoisonError::into_inner);
            Arc::clone(lock.entry(number).or_insert(read))
        });
        all.get(&class.to_ascii_lowercase()).cloned().unwrap_or_default()
    }

    /// True when `file`'s `defaultproperties` were read for this index and differ from what
    /// the file says now (a refresh must then make a new index).
    pub(crate) fn source_defaults_changed(&self, file: &std::path::Path) -> bool {
        let cached = {
            let lock = self.source_defaults.lock().unwrap_or_else(PoisonError::into_inner);
            lock.get(file).cloned()
        };
        cached.is_some_and(|old| *old != read_source_defaults(&*self.fs, file))
    }
}

/// At most this much of a source file is read for its `defaultproperties` (the block is at
/// the end of the class; a real class file is under 300 KB).
const MAX_SOURCE_BYTES: usize = 4 * 1024 * 1024;

fn read_source_defaults(fs: &dyn crate::fs::FileSystem, file: &std::path::Path) -> ClassDefaults {
    let Some(bytes) = fs.read(file) else {
        return ClassDefaults {
            error: Some(format!("{}: cannot be read", file.display())),
            ..ClassDefaults::default()
        };
    };
    let bytes = bytes.get(..MAX_SOURCE_BYTES.min(bytes.len())).unwrap_or_default();
    let text = unreal_syntax::text::decode(bytes).text;
    ClassDefaults {
        values: super::class_sources::default_properties(&text),
        ..ClassDefaults::default()
    }
}

/// Where the names of a byte default's enum are, as far as one package tells.
#[derive(Clone, Debug)]
enum EnumLookup {
    Names(Arc<Vec<String>>),
    /// A plain byte, or a declaration that cannot be read: the number stays.
    NoNames,
    /// The property is declared further up, in class `Package.Class` of another package.
    Above(String),
    /// The property's enum is `Package.Group.Enum` of another package.
    EnumAt(String),
}

/// A byte default waiting for its enum's names: class key, value index, the byte, where.
type PendingByte = (String, usize, u8, EnumLookup);

/// Property exports of a package by (outer reference, lowercased name).
type Fields = HashMap<(i32, String), usize>;

fn fields_of(parsed: &Package<'_>) -> Fields {
    parsed
        .exports
        .iter()
        .enumerate()
        .filter(|(_, e)| e.outer.0 > 0)
        .map(|(i, e)| ((e.outer.0, parsed.name(e.object_name).to_ascii_lowercase()), i))
        .collect()
}

/// Finds the declaration of byte property `property` from class export `class_export` up
/// its parents inside `parsed`, and what it says of the enum.
fn enum_in_package(
    parsed: &Package<'_>,
    fields: &Fields,
    class_export: usize,
    property: &str,
) -> EnumLookup {
    let key = property.to_ascii_lowercase();
    let mut class = ObjectRef(i32::try_from(class_export).unwrap_or(i32::MAX).saturating_add(1));
    for _ in 0..MAX_CHAIN {
        match class.resolve() {
            Resolved::Export(c) => {
                if let Some(&field) = fields.get(&(class.0, key.clone())) {
                    if !parsed.class_name(field).eq_ignore_ascii_case("ByteProperty") {
                        return EnumLookup::NoNames;
                    }
                    let Ok(enum_ref) = parsed.read_byte_property_enum(field) else {
                        return EnumLookup::NoNames;
                    };
                    return match enum_ref.resolve() {
                        Resolved::None => EnumLookup::NoNames,
                        Resolved::Export(e) => parsed
                            .read_enum(e)
                            .map_or(EnumLookup::NoNames, |n| EnumLookup::Names(Arc::new(n))),
                        Resolved::Import(_) => EnumLookup::EnumAt(parsed.ref_path(enum_ref)),
                    };
                }
                let Some(e) = parsed.exports.get(c) else { return EnumLookup::NoNames };
                class = e.super_;
            }
            Resolved::Import(_) => return EnumLookup::Above(parsed.ref_path(class)),
            Resolved::None => return EnumLookup::NoNames,
        }
    }
    EnumLookup::NoNames
}

fn package_defaults(
    parsed: &Package<'_>,
    package: &IndexedPackage,
) -> (HashMap<String, ClassDefaults>, Vec<PendingByte>) {
    let mut fields: Option<Fields> = None;
    let mut pending = Vec::new();
    let all = package
        .classes
        .iter()
        .map(|class| {
            let key = class.name.to_ascii_lowercase();
            let defaults = match parsed.read_class_body(class.export as usize) {
                Ok(body) => {
                    let mut out = ClassDefaults::default();
                    for property in &body.defaults {
                        let name = if property.array_index == 0 {
                            property.name.clone()
                        } else {
                            format!("{}({})", property.name, property.array_index)
                        };
                        if let PropertyValue::Byte(b) = property.value {
                            let fields = fields.get_or_insert_with(|| fields_of(parsed));
                            let lookup = enum_in_package(
                                parsed,
                                fields,
                                class.export as usize,
                                &property.name,
                            );
                            pending.push((key.clone(), out.values.len(), b, lookup));
                        }
                        match value_text(parsed, &package.name, property) {
                            Some(text) => out.values.push((name, text)),
                            None => out.unprinted.push(name),
                        }
                    }
                    out
                }
                Err(err) => {
                    ClassDefaults { error: Some(err.to_string()), ..ClassDefaults::default() }
                }
            };
            (key, defaults)
        })
        .collect();
    (all, pending)
}

impl PackageIndex {
    /// The names of the enum `lookup` leads to, following declarations into other packages
    /// (each `Package.Class.Property` once per index).
    fn enum_names(&self, lookup: EnumLookup, property: &str) -> Option<Arc<Vec<String>>> {
        self.enum_names_within(lookup, property, 0)
    }

    /// [`Self::enum_names`], `depth` packages away (a crafted cycle of parents across
    /// packages ends at [`MAX_PACKAGE_HOPS`]).
    fn enum_names_within(
        &self,
        lookup: EnumLookup,
        property: &str,
        depth: usize,
    ) -> Option<Arc<Vec<String>>> {
        if depth > MAX_PACKAGE_HOPS {
            return None;
        }
        match lookup {
            EnumLookup::Names(names) => Some(names),
            EnumLookup::NoNames => None,
            EnumLookup::EnumAt(path) => {
                let id = self.find_of_class(&path, Some("Enum"))?;
                let (package, object) = self.entry(id)?;
                let names = self
                    .with_package(package, |p| p.read_enum(object.export as usize).ok())
                    .ok()
                    .flatten()?;
                Some(Arc::new(names))
            }
            EnumLookup::Above(class_path) => {
                let key = format!("{class_path}.{property}").to_ascii_lowercase();
                let cached = {
                    let lock = self.enum_names.lock().unwrap_or_else(PoisonError::into_inner);
                    lock.get(&key).cloned()
                };
                if let Some(found) = cached {
                    return found;
                }
                let id = self.find_of_class(&class_path, Some("Class"))?;
                let (package, object) = self.entry(id)?;
                let next = self
                    .with_package(package, |p| {
                        enum_in_package(p, &fields_of(p), object.export as usize, property)
                    })
                    .ok()?;
                let found = self.enum_names_within(next, property, depth + 1);
                let mut lock = self.enum_names.lock().unwrap_or_else(PoisonError::into_inner);
                lock.insert(key, found.clone());
                found
            }
        }
    }
}

/// A property name compared as the engine compares it: case-insensitive, `[i]` as `(i)`,
/// element 0 as the bare name.
fn property_key(name: &str) -> String {
    let mut key: String = name
        .chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| match c {
            '[' => '(',
            ']' => ')',
            c => c.to_ascii_lowercase(),
        })
        .collect();
    if let Some(stripped) = key.strip_suffix("(0)") {
        key = stripped.to_owned();
    }
    key
}

/// A compiled default value as UnrealEd's text export writes it: integers and bytes in
/// decimal (a byte of an enum is named by [`PackageIndex::class_defaults`], which finds the
/// property's declaration up the class's parents, in this package or another indexed one;
/// where it cannot, the number stays), floats with six decimals (`%f`), `True`/`False`,
/// names bare, strings quoted (unescaped, as UT2004's `UStrProperty::ExportTextItem` writes
/// them), object references `Class'Package.Group.Name'` (or `None`), vectors
/// `(X=..,Y=..,Z=..)`, rotators `(Pitch=..,Yaw=..,Roll=..)`, colors `(R=..,G=..,B=..,A=..)`,
/// planes, and UT2004's tagged structs as `(Field=..,Field[1]=..)`; a struct's fields at zero
/// are left out as UnrealEd leaves them out (`(X=2.000000,Z=-1.000000)`), and a byte inside
/// a struct stays a number. `None` for other
/// binary structs, dynamic arrays and maps, whose layout is the property's definition's.
pub fn value_text(package: &Package<'_>, own_name: &str, property: &Property) -> Option<String> {
    value_text_within(package, own_name, property, 0)
}

/// Structs nest a few levels in real classes; a crafted value must not recurse deeper.
const MAX_STRUCT_DEPTH: usize = 16;

fn value_text_within(
    package: &Package<'_>,
    own_name: &str,
    property: &Property,
    depth: usize,
) -> Option<String> {
    use unreal_formats::package::properties::types;
    const XYZ: &[&str] = &["X", "Y", "Z"];
    const PYR: &[&str] = &["Pitch", "Yaw", "Roll"];
    let floats = |names: &[&str], v: &[f32]| {
        fields(names.iter().zip(v).map(|(n, v)| (*n, (*v != 0.0).then(|| format!("{v:.6}")))))
    };
    let ints = |names: &[&str], v: &[i32]| {
        fields(names.iter().zip(v).map(|(n, v)| (*n, (*v != 0).then(|| v.to_string()))))
    };
    Some(match &property.value {
        PropertyValue::Byte(b) => b.to_string(),
        PropertyValue::Int(v) => v.to_string(),
        PropertyValue::Bool(b) => if *b { "True" } else { "False" }.to_owned(),
        PropertyValue::Float(v) => format!("{v:.6}"),
        PropertyValue::Object(r) => object_text(package, own_name, *r),
        PropertyValue::Name(n) => n.clone(),
        PropertyValue::Str(s) => format!("\"{s}\""),
        PropertyValue::Vector(v) => floats(XYZ, v),
        PropertyValue::Rotator(r) => ints(PYR, r),
        PropertyValue::Raw { type_id, bytes } => {
            let struct_name = property.struct_name.as_deref().unwrap_or_default();
            let float_at = |i: usize| {
                bytes.get(i..i + 4).map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            };
            let int_at = |i: usize| {
                bytes.get(i..i + 4).map(|b| i32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            };
            match (*type_id, struct_name.to_ascii_lowercase().as_str(), bytes.len()) {
                (types::CLASS, _, _) => {
                    let mut r = unreal_formats::reader::Reader::new(bytes, 0, "class");
                    let value = r.compact_index("class").ok()?;
                    object_text(package, own_name, ObjectRef(value))
                }
                (types::STRUCT, "vector", 12) => {
                    floats(XYZ, &[float_at(0)?, float_at(4)?, float_at(8)?])
                }
                (types::STRUCT, "rotator", 12) => ints(PYR, &[int_at(0)?, int_at(4)?, int_at(8)?]),
                (types::STRUCT, _, _)
                    if package.struct_is_tagged(struct_name) && depth < MAX_STRUCT_DEPTH =>
                {
                    let stored = package.read_struct_fields(property).ok()?;
                    let mut parts = Vec::with_capacity(stored.len());
                    for field in &stored {
                        if is_zero(&field.value) {
                            continue;
                        }
                        let text = value_text_within(package, own_name, field, depth + 1)?;
                        parts.push(if field.array_index == 0 {
                            format!("{}={text}", field.name)
                        } else {
                            format!("{}[{}]={text}", field.name, field.array_index)
                        });
                    }
                    format!("({})", parts.join(","))
                }
                (types::STRUCT, "plane", 16) => floats(
                    &["X", "Y", "Z", "W"],
                    &[float_at(0)?, float_at(4)?, float_at(8)?, float_at(12)?],
                ),
                (types::STRUCT, "color", 4) => {
                    // UE1 stores R, G, B, A; UE2 B, G, R, A (its `FColor` on little-endian
                    // machines). Checked against the sources the packages were compiled
                    // from: UT2004 BonusPack's `HudMutant` (`CurrentMutantColor=(R=255,G=0,
                    // B=128,A=255)`) and UT99 KillConfirmed's `KCScoreBoard`.
                    let rgba = if package.is_ue2() {
                        [bytes[2], bytes[1], bytes[0], bytes[3]]
                    } else {
                        [bytes[0], bytes[1], bytes[2], bytes[3]]
                    };
                    let names = ["R", "G", "B", "A"];
                    fields(
                        names.iter().zip(rgba).map(|(n, v)| (*n, (v != 0).then(|| v.to_string()))),
                    )
                }
                _ => return None,
            }
        }
    })
}

/// `(A=1,C=3)`: a struct as UnrealEd exports it, fields at zero left out (`()` when all are).
fn fields<'n>(parts: impl Iterator<Item = (&'n str, Option<String>)>) -> String {
    let kept: Vec<String> =
        parts.filter_map(|(name, value)| value.map(|v| format!("{name}={v}"))).collect();
    format!("({})", kept.join(","))
}

/// True for a stored value equal to its type's zero (left out of a struct's text, as
/// UnrealEd leaves out fields equal to their default).
fn is_zero(value: &PropertyValue) -> bool {
    match value {
        PropertyValue::Byte(b) => *b == 0,
        PropertyValue::Int(v) => *v == 0,
        PropertyValue::Bool(b) => !*b,
        PropertyValue::Float(v) => *v == 0.0,
        PropertyValue::Object(r) => r.0 == 0,
        PropertyValue::Name(n) => n.eq_ignore_ascii_case("None"),
        PropertyValue::Str(s) => s.is_empty(),
        PropertyValue::Vector(v) => v.iter().all(|c| *c == 0.0),
        PropertyValue::Rotator(r) => r.iter().all(|c| *c == 0),
        PropertyValue::Raw { .. } => false,
    }
}

/// `Class'Package.Group.Name'` of a reference, `None` for none.
fn object_text(package: &Package<'_>, own_name: &str, r: ObjectRef) -> String {
    match r.resolve() {
        Resolved::None => "None".to_owned(),
        Resolved::Export(i) => {
            format!("{}'{}.{}'", package.class_name(i), own_name, package.export_path(i))
        }
        Resolved::Import(i) => {
            let class = package.imports.get(i).map_or("", |imp| package.name(imp.class_name));
            format!("{class}'{}'", package.ref_path(r))
        }
    }
}
