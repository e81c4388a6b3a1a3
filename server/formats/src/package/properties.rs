//! Tagged property blocks: the list of non-default UnrealScript property values at the start
//! of every non-class object, ending with the name `None`.

use crate::error::Result;
use crate::package::{ObjectRef, Package};
use crate::reader::{ansi, Reader};

#[derive(Debug, Clone, PartialEq)]
pub enum PropertyValue {
    Byte(u8),
    Int(i32),
    Bool(bool),
    Float(f32),
    Object(ObjectRef),
    Name(String),
    /// Type 7 (`StringProperty`, fixed-length ANSI) and 13 (`StrProperty`).
    Str(String),
    Vector([f32; 3]),
    Rotator([i32; 3]),
    /// A struct, array, map, class or fixed array: kept as raw bytes.
    Raw {
        type_id: u8,
        bytes: Vec<u8>,
    },
}

#[derive(Debug, Clone, PartialEq)]
pub struct Property {
    pub name: String,
    pub array_index: u32,
    /// For struct properties: the struct's name (`Vector`, `Color`, ...).
    pub struct_name: Option<String>,
    pub size: usize,
    /// The absolute file offset of the value's bytes (where a property's own data begins, for
    /// readers of array and struct values kept raw).
    pub offset: usize,
    pub value: PropertyValue,
}

/// Property types as written in the low nibble of the info byte.
pub mod types {
    pub const BYTE: u8 = 1;
    pub const INT: u8 = 2;
    pub const BOOL: u8 = 3;
    pub const FLOAT: u8 = 4;
    pub const OBJECT: u8 = 5;
    pub const NAME: u8 = 6;
    pub const STRING: u8 = 7;
    pub const CLASS: u8 = 8;
    pub const ARRAY: u8 = 9;
    pub const STRUCT: u8 = 10;
    pub const VECTOR: u8 = 11;
    pub const ROTATOR: u8 = 12;
    pub const STR: u8 = 13;
    pub const MAP: u8 = 14;
    pub const FIXED_ARRAY: u8 = 15;
}

/// An upper bound on the number of properties in one block, so that a block of junk that
/// happens to parse cannot run on for long.
const MAX_PROPERTIES: usize = 65_536;

pub(crate) fn read_properties(package: &Package<'_>, r: &mut Reader<'_>) -> Result<Vec<Property>> {
    let mut props = Vec::new();
    loop {
        let name_pos = r.pos();
        let name_index = r.compact_index("property name")?;
        let name = usize::try_from(name_index)
            .ok()
            .and_then(|i| package.names.get(i))
            .map(|n| n.name.as_str())
            .ok_or_else(|| {
                r.error_at(
                    name_pos,
                    format!(
                        "a property name indexing one of {} names, found {name_index}",
                        package.names.len()
                    ),
                )
            })?;
        if name.eq_ignore_ascii_case("None") {
            break;
        }
        if props.len() >= MAX_PROPERTIES {
            return Err(
                r.error_at(name_pos, format!("at most {MAX_PROPERTIES} properties before None"))
            );
        }
        let info_pos = r.pos();
        let info = r.u8("property info byte")?;
        let type_id = info & 0x0f;
        if type_id == 0 {
            return Err(r.error_at(
                info_pos,
                format!("a property type from 1 to 15 for `{name}`, found 0"),
            ));
        }
        let struct_name = if type_id == types::STRUCT {
            let pos = r.pos();
            let idx = r.compact_index("struct name")?;
            let s =
                usize::try_from(idx).ok().and_then(|i| package.names.get(i)).ok_or_else(|| {
                    r.error_at(
                        pos,
                        format!(
                            "a struct name indexing one of {} names, found {idx}",
                            package.names.len()
                        ),
                    )
                })?;
            Some(s.name.clone())
        } else {
            None
        };
        let size = match (info >> 4) & 0x07 {
            0 => 1,
            1 => 2,
            2 => 4,
            3 => 12,
            4 => 16,
            5 => usize::from(r.u8("property size")?),
            6 => usize::from(r.u16("property size")?),
            _ => r.u32("property size")? as usize,
        };
        let high_bit = info & 0x80 != 0;
        let mut array_index = 0u32;
        let mut bool_value = false;
        if type_id == types::BOOL {
            bool_value = high_bit;
        } else if high_bit {
            let b1 = r.u8("array index")?;
            array_index = if b1 & 0xc0 == 0xc0 {
                let rest = r.array::<3>("array index")?;
                (u32::from(b1 & 0x3f) << 24)
                    | (u32::from(rest[0]) << 16)
                    | (u32::from(rest[1]) << 8)
                    | u32::from(rest[2])
            } else if b1 & 0x80 != 0 {
                let b2 = r.u8("array index")?;
                (u32::from(b1 & 0x7f) << 8) | u32::from(b2)
            } else {
                u32::from(b1)
            };
        }
        // A bool's value lives in the info byte; it has no data whatever its size bits say.
        let offset = r.pos();
        let value = if type_id == types::BOOL {
            PropertyValue::Bool(bool_value)
        } else {
            let value_pos = r.pos();
            let bytes = r.bytes(&format!("the {size} value bytes of property `{name}`"), size)?;
            decode_value(package, type_id, bytes)
                .map_err(|expected| r.error_at(value_pos, expected))?
        };
        let size = if type_id == types::BOOL { 0 } else { size };
        props.push(Property {
            name: name.to_owned(),
            array_index,
            struct_name,
            size,
            offset,
            value,
        });
    }
    Ok(props)
}

fn decode_value(
    package: &Package<'_>,
    type_id: u8,
    bytes: &[u8],
) -> std::result::Result<PropertyValue, String> {
    let mut r = Reader::new(bytes, 0, "property value");
    let whole = |r: &Reader<'_>, what: &str| -> std::result::Result<(), String> {
        if r.is_at_end() {
            Ok(())
        } else {
            Err(format!("a {what} value of {} bytes, found {}", r.pos(), bytes.len()))
        }
    };
    let value = match type_id {
        types::BYTE if bytes.len() == 1 => PropertyValue::Byte(bytes[0]),
        types::INT if bytes.len() == 4 => PropertyValue::Int(r.i32("int").map_err(|e| e.expected)?),
        types::FLOAT if bytes.len() == 4 => {
            PropertyValue::Float(r.f32("float").map_err(|e| e.expected)?)
        }
        types::OBJECT => {
            let v = r.compact_index("object").map_err(|e| e.expected)?;
            whole(&r, "object reference")?;
            PropertyValue::Object(ObjectRef(v))
        }
        types::NAME => {
            let v = r.compact_index("name").map_err(|e| e.expected)?;
            whole(&r, "name")?;
            let name =
                usize::try_from(v).ok().and_then(|i| package.names.get(i)).ok_or_else(|| {
                    format!("a name value indexing one of {} names, found {v}", package.names.len())
                })?;
            PropertyValue::Name(name.name.clone())
        }
        types::STRING => PropertyValue::Str(ansi(bytes)),
        types::STR => {
            let len = r.compact_index("string length").map_err(|e| e.expected)?;
            let text = if len >= 0 {
                ansi(r.bytes("string", len as usize).map_err(|e| e.expected)?)
            } else {
                let units = (i64::from(len).unsigned_abs() as usize).saturating_mul(2);
                let raw = r.bytes("UTF-16 string", units).map_err(|e| e.expected)?;
                utf16(raw)
            };
            PropertyValue::Str(text)
        }
        types::VECTOR if bytes.len() == 12 => PropertyValue::Vector([
            r.f32("x").map_err(|e| e.expected)?,
            r.f32("y").map_err(|e| e.expected)?,
            r.f32("z").map_err(|e| e.expected)?,
        ]),
        types::ROTATOR if bytes.len() == 12 => PropertyValue::Rotator([
            r.i32("pitch").map_err(|e| e.expected)?,
            r.i32("yaw").map_err(|e| e.expected)?,
            r.i32("roll").map_err(|e| e.expected)?,
        ]),
        types::BYTE | types::INT | types::FLOAT | types::VECTOR | types::ROTATOR => {
            let want = match type_id {
                types::BYTE => 1,
                types::VECTOR | types::ROTATOR => 12,
                _ => 4,
            };
            return Err(format!(
                "a property value of {want} bytes for type {type_id}, found size {}",
                bytes.len()
            ));
        }
        _ => PropertyValue::Raw { type_id, bytes: bytes.to_vec() },
    };
    Ok(value)
}

/// UT2004 saves a struct value as a tagged property list from this licensee version (all
/// but `Vector`, `Rotator` and `Color`, which stay binary: `UStructProperty::SerializeItem`).
const TAGGED_STRUCTS_LICENSEE: u16 = 0x1C;

impl Package<'_> {
    /// True when a struct value of `struct_name` is stored as a tagged property list here
    /// (UE2 from licensee 0x1C), false when it is the struct's binary layout.
    pub fn struct_is_tagged(&self, struct_name: &str) -> bool {
        self.is_ue2()
            && self.header.licensee >= TAGGED_STRUCTS_LICENSEE
            && !["Vector", "Rotator", "Color"].iter().any(|s| s.eq_ignore_ascii_case(struct_name))
    }

    /// The fields of a struct property's value stored as a tagged list
    /// ([`Self::struct_is_tagged`]), read where the value lies in the file.
    pub fn read_struct_fields(&self, property: &Property) -> Result<Vec<Property>> {
        let PropertyValue::Raw { bytes, .. } = &property.value else {
            return Err(crate::Error::new(
                format!("property `{}`", property.name),
                property.offset,
                "a struct value",
            ));
        };
        let end = property.offset.saturating_add(bytes.len());
        let data = self.data().get(..end).unwrap_or_default();
        let mut r =
            Reader::new(data, property.offset, format!("struct value of `{}`", property.name));
        let fields = read_properties(self, &mut r)?;
        if !r.is_at_end() {
            return Err(r.error(format!(
                "the struct's fields to end at its size ({} bytes), {} bytes remain",
                bytes.len(),
                r.remaining()
            )));
        }
        Ok(fields)
    }
}

/// UTF-16LE text without its trailing NUL.
pub(crate) fn utf16(raw: &[u8]) -> String {
    let units: Vec<u16> = raw.chunks_exact(2).map(|c| u16::from_le_bytes([c[0], c[1]])).collect();
    let end = units.iter().position(|&u| u == 0).unwrap_or(units.len());
    String::from_utf16_lossy(&units[..end])
}

/// Lookup helpers over a property list.
pub trait PropertyList {
    fn prop(&self, name: &str) -> Option<&PropertyValue>;
    fn byte(&self, name: &str) -> Option<u8>;
    fn int(&self, name: &str) -> Option<i32>;
    fn bool(&self, name: &str) -> Option<bool>;
    fn object(&self, name: &str) -> Option<ObjectRef>;
}

impl PropertyList for [Property] {
    fn prop(&self, name: &str) -> Option<&PropertyValue> {
        self.iter()
            .find(|p| p.array_index == 0 && p.name.eq_ignore_ascii_case(name))
            .map(|p| &p.value)
    }
    fn byte(&self, name: &str) -> Option<u8> {
        match self.prop(name)? {
            PropertyValue::Byte(b) => Some(*b),
            _ => None,
        }
    }
    fn int(&self, name: &str) -> Option<i32> {
        match self.prop(name)? {
            PropertyValue::Int(v) => Some(*v),
            _ => None,
        }
    }
    fn bool(&self, name: &str) -> Option<bool> {
        match self.prop(name)? {
            PropertyValue::Bool(v) => Some(*v),
            _ => None,
        }
    }
    fn object(&self, name: &str) -> Option<ObjectRef> {
        match self.prop(name)? {
            PropertyValue::Object(v) => Some(*v),
            _ => None,
        }
    }
}
