//! A compiled class: the data of a `Class` export, read the way the engine loads it.
//!
//! A class object is, in order: the `UObject` part (a state frame when flagged `HasStack`, and no
//! tagged properties: a class's own object has none), `UField` (`SuperField`, `Next`), `UStruct`
//! (`ScriptText`, `Children`, `FriendlyName`, UT2004's `StructFlags`, `Line`, `TextPos`,
//! `ScriptSize` and the bytecode), `UState` (`ProbeMask`, `IgnoreMask`, `LabelTableOffset`,
//! `StateFlags`), `UClass` (`ClassFlags`, `ClassGuid`, `Dependencies`, `PackageImports`, then
//! `ClassWithin` and `ClassConfigName` from version 62 and `HideCategories` from 99) and last
//! the class's default properties as a tagged property list (UT2004 `Core/Src/UnClass.cpp`,
//! `UStruct::Serialize`, `UState::Serialize`, `UClass::Serialize`).
//!
//! The bytecode has no length on disk: `ScriptSize` counts the bytes the code takes in
//! memory, where object references and names are 4-byte values but on disk compact indices
//! of 1 to 5 bytes. The only way past the code is to walk it token by token as the engine's
//! `UStruct::SerializeExpr` does, counting memory bytes, and to check that the walk ends
//! exactly at `ScriptSize`.

use crate::error::{Error, Result};
use crate::package::properties::{read_properties, Property};
use crate::package::{ObjectRef, Package};
use crate::reader::Reader;

/// `CLASS_Abstract`: the class cannot be spawned (UE1 and UE2).
pub const CLASS_ABSTRACT: u32 = 0x0000_0001;
/// `CLASS_Config`: the class loads its configuration.
pub const CLASS_CONFIG: u32 = 0x0000_0004;
/// UE2's `CLASS_Placeable` (UT2004 `Core/Inc/UnObjBas.h`); the same bit is UE1's
/// [`CLASS_NO_USER_CREATE`].
pub const CLASS_PLACEABLE: u32 = 0x0000_0200;
/// UE1's `CLASS_NoUserCreate` (Unreal 227 `Core/Inc/UnObjBas.h`): UnrealEd may not place it.
pub const CLASS_NO_USER_CREATE: u32 = 0x0000_0200;

/// The first package version whose bytecode has UE2's `EX_PrimitiveCast` (one token and a
/// conversion byte) in place of UE1's one token per conversion, and the delegate and
/// dynamic-array tokens at 0x40 to 0x45 (UE2 `Core/Inc/UnStack.h`; UE1's list in Unreal 227's).
const PRIMITIVE_CAST_VERSION: u16 = 95;
/// UT2004's `StructFlags` follow `FriendlyName` from this licensee version (`UStruct::Serialize`).
const STRUCT_FLAGS_LICENSEE: u16 = 0x1A;

/// Recursion bound of the bytecode walk: real expressions nest a few dozen levels; a crafted
/// one must not exhaust the stack.
const MAX_EXPR_DEPTH: usize = 256;

/// What a compiled class says about itself.
#[derive(Debug, Clone, PartialEq)]
pub struct ClassBody {
    /// `SuperField`: the parent class.
    pub super_class: ObjectRef,
    /// `ScriptText`: the `TextBuffer` holding the class's source, when it was kept.
    pub script_text: ObjectRef,
    /// `Children`: the first field (property, function, state) declared in the class.
    pub children: ObjectRef,
    pub friendly_name: String,
    pub line: i32,
    pub text_pos: i32,
    /// Memory bytes of the class's own bytecode (replication conditions), as stored.
    pub script_size: u32,
    pub probe_mask: u64,
    pub ignore_mask: u64,
    pub state_flags: u32,
    /// `ClassFlags` (see [`CLASS_ABSTRACT`], [`CLASS_PLACEABLE`]).
    pub flags: u32,
    pub guid: [u8; 16],
    /// `ClassWithin` (from version 62), when not `Object`.
    pub within: Option<String>,
    /// `ClassConfigName` (from version 62; `System` before).
    pub config: Option<String>,
    /// `HideCategories` (from version 99).
    pub hide_categories: Vec<String>,
    /// The default properties: the values the class sets itself (those equal to the parent's
    /// defaults are not stored).
    pub defaults: Vec<Property>,
}

impl ClassBody {
    pub fn is_abstract(&self) -> bool {
        self.flags & CLASS_ABSTRACT != 0
    }
}

impl Package<'_> {
    /// The exports that are classes (class reference 0), leaving out the empty slots UT2004's
    /// packages hold (class 0, name `None`, no data: 195 of the 797 exports of class 0 in ten
    /// UT2004 GUI packages), which are not classes.
    pub fn class_exports(&self) -> impl Iterator<Item = usize> + '_ {
        self.exports.iter().enumerate().filter_map(|(i, e)| {
            let empty = e.serial_size == 0 && self.name(e.object_name).eq_ignore_ascii_case("None");
            (e.class.0 == 0 && !empty).then_some(i)
        })
    }

    /// Reads a class export's data (see the module documentation). Errors name the class,
    /// the file offset and what was expected; an unknown bytecode token is named with its
    /// byte and offsets.
    pub fn read_class_body(&self, export: usize) -> Result<ClassBody> {
        self.labelled(export, || self.unlabelled_class_body(export))
    }

    fn unlabelled_class_body(&self, export: usize) -> Result<ClassBody> {
        let mut r = self.object_reader(export, &["Class"])?.reader;
        let version = self.header.version;
        // Before 57 a class keeps more (Unreal v200 `Core/Src/UnClass.cpp`, `UClass::Serialize`);
        // the bodies of 57 to 60 are not known to match 61's either.
        if version < 61 {
            return Err(r.error(format!(
                "a package from version 61 (a class body of version {version} is laid out otherwise, not read)"
            )));
        }
        // UField.
        let super_class = ObjectRef(r.compact_index("SuperField")?);
        let _next = r.compact_index("Next")?;
        // UStruct.
        let script_text = ObjectRef(r.compact_index("ScriptText")?);
        let children = ObjectRef(r.compact_index("Children")?);
        let friendly_name = self.name_at(&mut r, "FriendlyName")?;
        if self.is_ue2() && self.header.licensee >= STRUCT_FLAGS_LICENSEE {
            r.u32("StructFlags")?;
        }
        let line = r.i32("Line")?;
        let text_pos = r.i32("TextPos")?;
        let size_pos = r.pos();
        let script_size = r.i32("ScriptSize")?;
        let script_size = u32::try_from(script_size).map_err(|_| {
            r.error_at(size_pos, format!("a non-negative ScriptSize, found {script_size}"))
        })?;
        walk_script(self, &mut r, script_size)?;
        // UState.
        let probe_mask = r.u64("ProbeMask")?;
        let ignore_mask = r.u64("IgnoreMask")?;
        r.u16("LabelTableOffset")?;
        let state_flags = r.u32("StateFlags")?;
        // UClass.
        if version <= 61 {
            r.i32("OldClassRecordSize")?;
        }
        let flags = r.u32("ClassFlags")?;
        let guid = r.array::<16>("ClassGuid")?;
        // Dependencies: (class, deep as a 4-byte bool, script text CRC).
        let count = r.compact_index("Dependencies count")?;
        let count = r.check_count("Dependencies count", i64::from(count), 9)?;
        for _ in 0..count {
            r.compact_index("Dependency class")?;
            r.u32("Dependency deep")?;
            r.u32("Dependency ScriptTextCRC")?;
        }
        let count = r.compact_index("PackageImports count")?;
        let count = r.check_count("PackageImports count", i64::from(count), 1)?;
        for _ in 0..count {
            self.name_at(&mut r, "PackageImports name")?;
        }
        let (within, config) = if version >= 62 {
            let within = ObjectRef(r.compact_index("ClassWithin")?);
            let config = self.name_at(&mut r, "ClassConfigName")?;
            let within = self.ref_name(within);
            let within = (!within.is_empty() && !within.eq_ignore_ascii_case("Object"))
                .then(|| within.to_owned());
            (within, Some(config).filter(|c| !c.eq_ignore_ascii_case("None")))
        } else {
            (None, Some("System".to_owned()))
        };
        let mut hide_categories = Vec::new();
        if version >= 99 {
            let count = r.compact_index("HideCategories count")?;
            let count = r.check_count("HideCategories count", i64::from(count), 1)?;
            for _ in 0..count {
                hide_categories.push(self.name_at(&mut r, "HideCategories name")?);
            }
        }
        let defaults = read_properties(self, &mut r)?;
        if !r.is_at_end() {
            return Err(r.error(format!(
                "the class's data to end after its default properties, {} bytes remain",
                r.remaining()
            )));
        }
        Ok(ClassBody {
            super_class,
            script_text,
            children,
            friendly_name,
            line,
            text_pos,
            script_size,
            probe_mask,
            ignore_mask,
            state_flags,
            flags,
            guid,
            within,
            config,
            hide_categories,
            defaults,
        })
    }
}

/// `CPF_Net`: the property is replicated and stores its replication offset.
const CPF_NET: u32 = 0x0000_0020;
/// UT2004's `CPF_CommentString`: the property stores a comment (`Core/Inc/UnObjBas.h`).
const CPF_COMMENT_STRING: u32 = 0x0200_0000;

impl Package<'_> {
    /// The enum a `ByteProperty` export is of (`UByteProperty::Serialize` after `UField` and
    /// `UProperty`: `ArrayDim`, `PropertyFlags`, `Category`, the replication offset of a
    /// replicated property, UT2004's comment string), `ObjectRef(0)` for a plain byte.
    pub fn read_byte_property_enum(&self, export: usize) -> Result<ObjectRef> {
        self.labelled(export, || {
            let mut r = self.object_reader(export, &["ByteProperty"])?.reader;
            r.compact_index("SuperField")?;
            r.compact_index("Next")?;
            r.i32("ArrayDim")?;
            let flags = r.u32("PropertyFlags")?;
            self.name_at(&mut r, "Category")?;
            if flags & CPF_NET != 0 {
                r.u16("RepOffset")?;
            }
            if flags & CPF_COMMENT_STRING != 0
                && self.is_ue2()
                && self.header.licensee >= STRUCT_FLAGS_LICENSEE
            {
                Self::fstring(&mut r, "CommentString")?;
            }
            let value = ObjectRef(r.compact_index("Enum")?);
            Self::at_object_end(&r, "the byte property")?;
            Ok(value)
        })
    }

    /// The value names of an `Enum` export, in order (`UEnum::Serialize`: `UField`, then the
    /// names).
    pub fn read_enum(&self, export: usize) -> Result<Vec<String>> {
        self.labelled(export, || {
            let mut r = self.object_reader(export, &["Enum"])?.reader;
            r.compact_index("SuperField")?;
            r.compact_index("Next")?;
            let count = r.compact_index("Names count")?;
            let count = r.check_count("Names count", i64::from(count), 1)?;
            let names = (0..count)
                .map(|_| self.name_at(&mut r, "enum value name"))
                .collect::<Result<Vec<_>>>()?;
            Self::at_object_end(&r, "the enum")?;
            Ok(names)
        })
    }

    fn at_object_end(r: &Reader<'_>, what: &str) -> Result<()> {
        if r.is_at_end() {
            Ok(())
        } else {
            Err(r.error(format!("{what}'s data to end here, {} bytes remain", r.remaining())))
        }
    }
}

/// Walks `script_size` memory bytes of bytecode from `r`'s position, leaving `r` after it.
/// Pointers take 4 bytes in memory in every build that wrote the packages read here; a walk
/// that does not end at `script_size` with 4 is tried again with 8 (a 64-bit compiler), and
/// the first error is reported when neither fits.
pub(crate) fn walk_script(
    package: &Package<'_>,
    r: &mut Reader<'_>,
    script_size: u32,
) -> Result<()> {
    let start = r.clone();
    let first = walk_with(package, r, script_size, 4);
    if first.is_ok() {
        return first;
    }
    let mut wide = start;
    if walk_with(package, &mut wide, script_size, 8).is_ok() {
        *r = wide;
        return Ok(());
    }
    first
}

fn walk_with(
    package: &Package<'_>,
    r: &mut Reader<'_>,
    script_size: u32,
    pointer: u32,
) -> Result<()> {
    let start = r.pos();
    let mut walk = Walk {
        package,
        r,
        size: script_size,
        at: 0,
        pointer,
        ue2: package.version() >= PRIMITIVE_CAST_VERSION,
        version: package.version(),
    };
    while walk.at < walk.size {
        walk.expr(0)?;
    }
    if walk.at != walk.size {
        return Err(walk.r.error(format!(
            "the bytecode (from byte {start}) to end at ScriptSize {}, the walk ended at memory offset {}",
            walk.size, walk.at
        )));
    }
    Ok(())
}

struct Walk<'p, 'r, 'a> {
    package: &'p Package<'p>,
    r: &'r mut Reader<'a>,
    /// `ScriptSize`, in memory bytes.
    size: u32,
    /// The memory offset reached (the engine's `iCode`).
    at: u32,
    /// Bytes of a pointer in memory.
    pointer: u32,
    /// UE2's token set (from [`PRIMITIVE_CAST_VERSION`]).
    ue2: bool,
    version: u16,
}

/// Token values (UT2004 `Core/Inc/UnStack.h`, `EExprToken`).
mod token {
    pub const LOCAL_VARIABLE: u8 = 0x00;
    pub const INSTANCE_VARIABLE: u8 = 0x01;
    pub const DEFAULT_VARIABLE: u8 = 0x02;
    pub const RETURN: u8 = 0x04;
    pub const SWITCH: u8 = 0x05;
    pub const JUMP: u8 = 0x06;
    pub const JUMP_IF_NOT: u8 = 0x07;
    pub const STOP: u8 = 0x08;
    pub const ASSERT: u8 = 0x09;
    pub const CASE: u8 = 0x0A;
    pub const NOTHING: u8 = 0x0B;
    pub const LABEL_TABLE: u8 = 0x0C;
    pub const GOTO_LABEL: u8 = 0x0D;
    pub const EAT_STRING: u8 = 0x0E;
    pub const LET: u8 = 0x0F;
    pub const DYN_ARRAY_ELEMENT: u8 = 0x10;
    pub const NEW: u8 = 0x11;
    pub const CLASS_CONTEXT: u8 = 0x12;
    pub const META_CAST: u8 = 0x13;
    pub const LET_BOOL: u8 = 0x14;
    pub const END_FUNCTION_PARMS: u8 = 0x16;
    pub const SELF: u8 = 0x17;
    pub const SKIP: u8 = 0x18;
    pub const CONTEXT: u8 = 0x19;
    pub const ARRAY_ELEMENT: u8 = 0x1A;
    pub const VIRTUAL_FUNCTION: u8 = 0x1B;
    pub const FINAL_FUNCTION: u8 = 0x1C;
    pub const INT_CONST: u8 = 0x1D;
    pub const FLOAT_CONST: u8 = 0x1E;
    pub const STRING_CONST: u8 = 0x1F;
    pub const OBJECT_CONST: u8 = 0x20;
    pub const NAME_CONST: u8 = 0x21;
    pub const ROTATION_CONST: u8 = 0x22;
    pub const VECTOR_CONST: u8 = 0x23;
    pub const BYTE_CONST: u8 = 0x24;
    pub const INT_ZERO: u8 = 0x25;
    pub const INT_ONE: u8 = 0x26;
    pub const TRUE: u8 = 0x27;
    pub const FALSE: u8 = 0x28;
    pub const NATIVE_PARM: u8 = 0x29;
    pub const NO_OBJECT: u8 = 0x2A;
    /// UE1 before version 70 only: a string resize (a length byte and the string).
    pub const RESIZE_STRING: u8 = 0x2B;
    pub const INT_CONST_BYTE: u8 = 0x2C;
    pub const BOOL_VARIABLE: u8 = 0x2D;
    pub const DYNAMIC_CAST: u8 = 0x2E;
    pub const ITERATOR: u8 = 0x2F;
    pub const ITERATOR_POP: u8 = 0x30;
    pub const ITERATOR_NEXT: u8 = 0x31;
    pub const STRUCT_CMP_EQ: u8 = 0x32;
    pub const STRUCT_CMP_NE: u8 = 0x33;
    pub const UNICODE_STRING_CONST: u8 = 0x34;
    pub const STRUCT_MEMBER: u8 = 0x36;
    pub const DYN_ARRAY_LENGTH: u8 = 0x37;
    pub const GLOBAL_FUNCTION: u8 = 0x38;
    /// UE2: a conversion byte and the converted expression. UE1: the first conversion token.
    pub const PRIMITIVE_CAST: u8 = 0x39;
    /// UE1's last conversion token (`EX_RotatorToString`).
    pub const UE1_LAST_CONVERSION: u8 = 0x59;
    /// UE1: a gap in the conversion tokens.
    pub const UE1_NO_CONVERSION: u8 = 0x46;
    pub const DYN_ARRAY_INSERT: u8 = 0x40;
    pub const DYN_ARRAY_REMOVE: u8 = 0x41;
    pub const DEBUG_INFO: u8 = 0x42;
    pub const DELEGATE_FUNCTION: u8 = 0x43;
    pub const DELEGATE_PROPERTY: u8 = 0x44;
    pub const LET_DELEGATE: u8 = 0x45;
    pub const END_OF_SCRIPT: u8 = 0x47;
    pub const EXTENDED_NATIVE: u8 = 0x60;
    pub const FIRST_NATIVE: u8 = 0x70;
}

impl Walk<'_, '_, '_> {
    /// Moves the memory offset on by `n` bytes, failing past `ScriptSize` (the engine would
    /// write past its buffer).
    fn advance(&mut self, n: u32, what: &str) -> Result<()> {
        self.at = self.at.saturating_add(n);
        if self.at > self.size {
            return Err(self.r.error(format!(
                "{what} to fit in ScriptSize {}, it ends at memory offset {}",
                self.size, self.at
            )));
        }
        Ok(())
    }

    fn byte(&mut self, what: &str) -> Result<u8> {
        let b = self.r.u8(what)?;
        self.advance(1, what)?;
        Ok(b)
    }

    fn word(&mut self, what: &str) -> Result<u16> {
        let w = self.r.u16(what)?;
        self.advance(2, what)?;
        Ok(w)
    }

    fn int(&mut self, what: &str) -> Result<i32> {
        let v = self.r.i32(what)?;
        self.advance(4, what)?;
        Ok(v)
    }

    /// An object reference: a compact index on disk, a pointer in memory.
    fn object(&mut self, what: &str) -> Result<()> {
        let pos = self.r.pos();
        let value = self.r.compact_index(what)?;
        let ok = match ObjectRef(value).resolve() {
            super::Resolved::None => true,
            super::Resolved::Export(i) => i < self.package.exports.len(),
            super::Resolved::Import(i) => i < self.package.imports.len(),
        };
        if !ok {
            return Err(self.r.error_at(
                pos,
                format!(
                    "{what} referencing one of {} exports or {} imports, found {value}",
                    self.package.exports.len(),
                    self.package.imports.len()
                ),
            ));
        }
        self.advance(self.pointer, what)
    }

    /// A name: a compact index on disk, 4 bytes (`FName`) in memory.
    fn name(&mut self, what: &str) -> Result<String> {
        let name = self.package.name_at(self.r, what)?;
        self.advance(4, what)?;
        Ok(name)
    }

    /// True when UE2 debug information of version 100 comes next (the engine peeks at the
    /// token and its version without reading them).
    fn debug_info_follows(&self) -> bool {
        if !self.ue2 || self.at >= self.size {
            return false;
        }
        let data = self.r.data();
        let at = self.r.pos();
        data.get(at) == Some(&token::DEBUG_INFO)
            && data
                .get(at + 1..at + 5)
                .is_some_and(|v| i32::from_le_bytes([v[0], v[1], v[2], v[3]]) == 100)
    }

    #[cold]
    #[inline(never)]
    fn unknown_token(&self, t: u8, token_pos: usize, token_at: u32) -> Error {
        let set = if self.ue2 { "UE2" } else { "UE1" };
        Error::new(
            self.r.structure(),
            token_pos,
            format!(
                "a bytecode token of the {set} set (package version {}), found {t:#04x} at script memory offset {token_at} of {}",
                self.version, self.size
            ),
        )
    }

    /// One expression; returns its token. The operands' reading is in [`Self::operand`]
    /// and the token's layout in [`shape`], so that this recursive frame stays small
    /// (a debug build's frame of one big match was kilobytes: 256 levels overflowed a stack).
    fn expr(&mut self, depth: usize) -> Result<u8> {
        if depth >= MAX_EXPR_DEPTH {
            return Err(self.too_deep());
        }
        let token_pos = self.r.pos();
        let token_at = self.at;
        let t = self.byte("a bytecode token")?;
        let Some(ops) = shape(t, self.ue2, self.version) else {
            return Err(self.unknown_token(t, token_pos, token_at));
        };
        let mut last_word = 0u16;
        for op in ops {
            match op {
                Op::Expr => {
                    self.expr(depth + 1)?;
                }
                Op::Parms => while self.expr(depth + 1)? != token::END_FUNCTION_PARMS {},
                Op::DebugAfterCall => {
                    if self.debug_info_follows() {
                        self.expr(depth + 1)?;
                    }
                }
                Op::CaseValue => {
                    if last_word != 0xFFFF {
                        self.expr(depth + 1)?;
                    }
                }
                op => last_word = self.operand(*op)?,
            }
        }
        Ok(t)
    }

    #[cold]
    #[inline(never)]
    fn too_deep(&self) -> Error {
        self.r.error(format!("bytecode nested at most {MAX_EXPR_DEPTH} expressions deep"))
    }

    /// Reads one operand that holds no expression; a word's value is returned (a case's next
    /// offset decides whether a value follows).
    #[inline(never)]
    fn operand(&mut self, op: Op) -> Result<u16> {
        match op {
            Op::Byte(what) => {
                self.byte(what)?;
            }
            Op::Word(what) => return self.word(what),
            Op::Int(what) => {
                self.int(what)?;
            }
            Op::Object(what) => self.object(what)?,
            Op::Name(what) => {
                self.name(what)?;
            }
            Op::LabelTable => loop {
                let name = self.name("a label name")?;
                self.int("a label offset")?;
                if name.eq_ignore_ascii_case("None") {
                    break;
                }
            },
            Op::AnsiText => while self.byte("a string constant's character")? != 0 {},
            Op::WideText => while self.word("a unicode string constant's character")? != 0 {},
            Op::Expr | Op::Parms | Op::DebugAfterCall | Op::CaseValue => {}
        }
        Ok(0)
    }
}

/// One operand of a token, in the order the engine reads them.
#[derive(Clone, Copy, Debug)]
enum Op {
    Byte(&'static str),
    Word(&'static str),
    Int(&'static str),
    /// An object reference: compact on disk, a pointer in memory.
    Object(&'static str),
    /// A name: compact on disk, 4 bytes in memory.
    Name(&'static str),
    Expr,
    /// Expressions up to and including `EX_EndFunctionParms`.
    Parms,
    /// UE2: debug information of version 100 right after a call belongs to the call
    /// (`HANDLE_OPTIONAL_DEBUG_INFO`).
    DebugAfterCall,
    /// An expression unless the word read just before is 0xFFFF (a `default:` case).
    CaseValue,
    /// Entries of a name and a 4-byte offset, up to the name `None`.
    LabelTable,
    /// Bytes up to a NUL.
    AnsiText,
    /// 16-bit units up to a NUL.
    WideText,
}

/// The operands of token `t`, or `None` for a token the engine's walk does not know
/// (UT2004 `UStruct::SerializeExpr`; UE1's differences from `UELib`'s notes: a return has no
/// value before version 62, a string resize token before 70, one token per conversion).
// The token names read as the engine's table does; listing 66 of them in a `use` would not.
#[allow(clippy::wildcard_imports)]
fn shape(t: u8, ue2: bool, version: u16) -> Option<&'static [Op]> {
    use token::*;
    use Op::{
        AnsiText, Byte, CaseValue, DebugAfterCall, Expr, Int, LabelTable, Name, Object, Parms,
        WideText, Word,
    };
    const PROPERTY: &[Op] = &[Object("a property")];
    const NONE: &[Op] = &[];
    const ONE: &[Op] = &[Expr];
    const TWO: &[Op] = &[Expr, Expr];
    const THREE: &[Op] = &[Expr, Expr, Expr];
    Some(match t {
        FIRST_NATIVE..=0xFF => &[Parms, DebugAfterCall],
        EXTENDED_NATIVE..FIRST_NATIVE => {
            &[Byte("an extended native function number"), Parms, DebugAfterCall]
        }
        LOCAL_VARIABLE | INSTANCE_VARIABLE | DEFAULT_VARIABLE | NATIVE_PARM => PROPERTY,
        RETURN if version >= 62 => ONE,
        SWITCH => &[Byte("a switch value size"), Expr],
        JUMP => &[Word("a jump offset")],
        JUMP_IF_NOT => &[Word("a jump offset"), Expr],
        ASSERT => &[Word("an assertion's line"), Expr],
        CASE => &[Word("a case's next offset"), CaseValue],
        // Before version 62 a return carried no value.
        RETURN | STOP | NOTHING | END_FUNCTION_PARMS | SELF | INT_ZERO | INT_ONE | TRUE | FALSE
        | NO_OBJECT | BOOL_VARIABLE | ITERATOR_POP | ITERATOR_NEXT => NONE,
        LABEL_TABLE => &[LabelTable],
        GOTO_LABEL | EAT_STRING | DYN_ARRAY_LENGTH => ONE,
        LET | LET_BOOL | DYN_ARRAY_ELEMENT | ARRAY_ELEMENT => TWO,
        NEW => &[Expr, Expr, Expr, Expr],
        CLASS_CONTEXT | CONTEXT => {
            &[Expr, Word("a context's skip offset"), Byte("a context's zero-fill size"), Expr]
        }
        META_CAST | DYNAMIC_CAST => &[Object("a class"), Expr],
        STRUCT_MEMBER => &[Object("a struct member"), Expr],
        SKIP => &[Word("a skip size"), Expr],
        ITERATOR => &[Expr, Word("an iterator's end offset")],
        VIRTUAL_FUNCTION | GLOBAL_FUNCTION => &[Name("a function name"), Parms, DebugAfterCall],
        FINAL_FUNCTION => &[Object("a function"), Parms, DebugAfterCall],
        INT_CONST | FLOAT_CONST => &[Int("a constant")],
        STRING_CONST => &[AnsiText],
        UNICODE_STRING_CONST if version >= 62 => &[WideText],
        OBJECT_CONST => &[Object("an object constant")],
        NAME_CONST => &[Name("a name constant")],
        ROTATION_CONST | VECTOR_CONST => &[
            Int("a vector or rotator component"),
            Int("a vector or rotator component"),
            Int("a vector or rotator component"),
        ],
        BYTE_CONST | INT_CONST_BYTE => &[Byte("a byte constant")],
        RESIZE_STRING if version < 70 => &[Byte("a string size"), Expr],
        STRUCT_CMP_EQ | STRUCT_CMP_NE => &[Object("a struct"), Expr, Expr],
        PRIMITIVE_CAST if ue2 => &[Byte("a conversion type"), Expr],
        DYN_ARRAY_INSERT | DYN_ARRAY_REMOVE if ue2 => THREE,
        DEBUG_INFO if ue2 => &[
            Int("debug information"),
            Int("debug information"),
            Int("debug information"),
            Byte("debug information's opcode"),
        ],
        DELEGATE_FUNCTION if ue2 => {
            &[Object("a delegate property"), Name("a delegate function name")]
        }
        DELEGATE_PROPERTY if ue2 => &[Name("a delegate function name")],
        LET_DELEGATE if ue2 => TWO,
        END_OF_SCRIPT if ue2 => NONE,
        PRIMITIVE_CAST..=UE1_LAST_CONVERSION if !ue2 && t != UE1_NO_CONVERSION => ONE,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use unreal_test_support::writers::{compact, PackageWriter};

    /// A package of `version` whose names are `None`, `Lbl`, `Go`, and whose imports are
    /// `Core` (-1) and `Core.Object` (-2).
    fn package_bytes(version: u16) -> Vec<u8> {
        let mut w = PackageWriter::new(version, if version >= 100 { 29 } else { 0 });
        w.name("Lbl");
        w.name("Go");
        let core = w.import("Core", "Package", 0, "Core");
        w.import("Core", "Class", core, "Object");
        w.finish()
    }

    /// Walks `script` (disk bytes) as `size` memory bytes; the error's text, or where the
    /// walk ended.
    fn walk(version: u16, script: &[u8], size: u32) -> Result<usize, String> {
        let bytes = package_bytes(version);
        let package = Package::parse(&bytes).unwrap();
        let mut r = Reader::new(script, 0, "script");
        walk_script(&package, &mut r, size).map(|()| r.pos()).map_err(|e| e.to_string())
    }

    fn cat(parts: &[&[u8]]) -> Vec<u8> {
        parts.concat()
    }

    #[test]
    fn constants_and_variables_count_memory_bytes() {
        // IntZero, ByteConst, IntConst, FloatConst, vector: 1 + 2 + 5 + 5 + 13.
        let script = cat(&[&[0x25, 0x24, 7, 0x1D], &[0; 4], &[0x1E], &[0; 4], &[0x23], &[0; 12]]);
        assert_eq!(walk(69, &script, 26), Ok(script.len()));
        // A property (compact index of 1 byte on disk, a 4-byte pointer in memory).
        assert_eq!(walk(69, &cat(&[&[0x01], &compact(-2)]), 5), Ok(2));
        // A name constant: 1 byte on disk, 4 in memory.
        assert_eq!(walk(69, &[0x21, 2], 5), Ok(2));
        // Strings to their NUL, ANSI and UTF-16.
        assert_eq!(walk(69, b"\x1Fab\0", 4), Ok(4));
        assert_eq!(walk(128, &[0x34, b'a', 0, 0, 0], 5), Ok(5));
    }

    #[test]
    fn calls_run_to_their_end_of_parameters() {
        // A native (0x70 and up) with one parameter; an extended native (0x60 + byte).
        assert_eq!(walk(69, &[0x70, 0x25, 0x16], 3), Ok(3));
        assert_eq!(walk(69, &[0x61, 0x05, 0x26, 0x16], 4), Ok(4));
        // A virtual function by name (4 in memory), a final one by pointer.
        assert_eq!(walk(69, &[0x1B, 2, 0x27, 0x16], 7), Ok(4));
        assert_eq!(walk(69, &cat(&[&[0x1C], &compact(-2), &[0x16]]), 6), Ok(3));
        // UE2: debug information of version 100 right after a call belongs to it.
        let debug = cat(&[&[0x42], &100i32.to_le_bytes(), &[0; 8], &[0x0B]]);
        assert_eq!(walk(128, &cat(&[&[0x1B, 2, 0x16], &debug]), 20), Ok(17));
    }

    #[test]
    fn control_flow_tokens() {
        // A case with its next offset and value, and the default case (0xFFFF: no value).
        assert_eq!(walk(69, &[0x0A, 5, 0, 0x24, 1, 0x0A, 0xFF, 0xFF], 8), Ok(8));
        // Jump, JumpIfNot with its condition, Iterator with its end offset.
        assert_eq!(walk(69, &[0x06, 0, 0, 0x07, 0, 0, 0x27, 0x2F, 0x17, 0, 0], 11), Ok(11));
        // A context: object, skip offset, zero-fill size, member.
        let context = cat(&[&[0x19, 0x17, 9, 0, 4, 0x01], &compact(-2)]);
        assert_eq!(walk(69, &context, 10), Ok(7));
        // A label table, 8 memory bytes an entry (name and offset), up to `None`.
        let labels = cat(&[&[0x0C, 1], &0i32.to_le_bytes(), &[0], &(-1i32).to_le_bytes()]);
        assert_eq!(walk(69, &labels, 17), Ok(11));
        // A return carries its value from version 62; before, nothing.
        assert_eq!(walk(69, &[0x04, 0x0B], 2), Ok(2));
        assert_eq!(walk(61, &[0x04, 0x0B], 2), Ok(2));
        assert_eq!(walk(61, &[0x04], 1), Ok(1));
    }

    #[test]
    fn conversions_differ_between_generations() {
        // UE1: each conversion is its own token with one operand.
        assert_eq!(walk(69, &[0x3A, 0x24, 3], 3), Ok(3));
        // UE2: one token and a conversion byte.
        assert_eq!(walk(128, &[0x39, 0x3A, 0x24, 3], 4), Ok(4));
        let err = walk(128, &[0x3A, 0x24, 3], 3).unwrap_err();
        assert_eq!(
            err,
            "script at byte 0: expected a bytecode token of the UE2 set (package version 128), found 0x3a at script memory offset 0 of 3"
        );
        // UE2's dynamic array insertion: three operands.
        assert_eq!(walk(128, &[0x40, 0x25, 0x26, 0x26], 4), Ok(4));
    }

    #[test]
    fn a_walk_that_misses_script_size_is_an_error() {
        let err = walk(69, &[0x25, 0x25], 3).unwrap_err();
        assert!(err.contains("a bytecode token (1 bytes)"), "{err}");
        let err = walk(69, &[0x1D, 0, 0, 0, 0], 3).unwrap_err();
        assert_eq!(
            err,
            "script at byte 5: expected a constant to fit in ScriptSize 3, it ends at memory offset 5"
        );
        let err = walk(69, &[0x15], 1).unwrap_err();
        assert!(err.contains("found 0x15 at script memory offset 0"), "{err}");
        // An object reference outside the tables.
        let err = walk(69, &[0x01, 0x3F], 5).unwrap_err();
        assert!(err.contains("found 63"), "{err}");
    }

    #[test]
    fn deep_nesting_is_refused_without_overflowing_the_stack() {
        let script = vec![0x0D; 100_000];
        let err = walk(69, &script, 100_000).unwrap_err();
        assert!(err.contains("at most 256 expressions deep"), "{err}");
    }
}
