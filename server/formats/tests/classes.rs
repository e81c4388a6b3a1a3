//! Compiled classes (`Package::read_class_body`): synthetic packages of every layout the
//! reader knows, and every class of the corpus's `.u` files.

mod common;

use std::fmt::Write as _;

use unreal_formats::package::class_body::{CLASS_ABSTRACT, CLASS_PLACEABLE};
use unreal_formats::package::{Package, PropertyValue};
use unreal_test_support::writers::{class_package, compact, TestClass, TestDefault};

fn classes(version: u16, licensee: u16) -> Vec<TestClass> {
    // A replication condition's worth of bytecode: `Role == ROLE_Authority` as a native
    // byte comparison of a property and a constant (pointer: 4 memory bytes).
    let mut script = vec![0x9A, 0x39, 0x3A, 0x01];
    script.extend(compact(-2));
    script.extend([0x24, 4, 0x16]);
    let size = if version >= 95 { 11 } else { 10 };
    if version < 95 {
        // UE1: the conversion is its own token.
        script.remove(1);
    }
    let _ = licensee;
    vec![
        TestClass::new("Base", Some("Actor"), CLASS_ABSTRACT)
            .with("bHidden", TestDefault::Bool(true))
            .with("DrawScale", TestDefault::Float(2.5)),
        TestClass {
            script,
            script_size: size,
            ..TestClass::new("Thing", Some("Base"), CLASS_PLACEABLE)
                .with("Health", TestDefault::Int(40))
                .with("Tag", TestDefault::Name("Boom".into()))
                .with("Message", TestDefault::Str("Hello }".into()))
                .with("Slots", TestDefault::IntAt(2, 7))
                .with("Other", TestDefault::Object(1))
        },
    ]
}

#[test]
fn synthetic_classes_of_every_layout_read_back() {
    for (version, licensee) in [(61, 0), (62, 0), (69, 0), (99, 0), (123, 29), (128, 29)] {
        let bytes = class_package(version, licensee, &classes(version, licensee));
        let p = Package::parse_named(&bytes, "Mod").unwrap();
        let found: Vec<usize> = p.class_exports().collect();
        assert_eq!(found, [0, 1], "version {version}");
        let base = p.read_class_body(0).unwrap();
        assert!(base.is_abstract());
        assert_eq!(p.ref_name(base.super_class), "Actor");
        let thing = p.read_class_body(1).unwrap_or_else(|e| panic!("version {version}: {e}"));
        assert_eq!(thing.flags, CLASS_PLACEABLE);
        assert_eq!(p.ref_name(thing.super_class), "Base");
        assert_eq!(thing.config.as_deref(), Some("System"));
        let values: Vec<(String, u32, PropertyValue)> = thing
            .defaults
            .iter()
            .map(|d| (d.name.clone(), d.array_index, d.value.clone()))
            .collect();
        assert_eq!(
            values,
            [
                ("Health".to_owned(), 0, PropertyValue::Int(40)),
                ("Tag".to_owned(), 0, PropertyValue::Name("Boom".into())),
                ("Message".to_owned(), 0, PropertyValue::Str("Hello }".into())),
                ("Slots".to_owned(), 2, PropertyValue::Int(7)),
                (
                    "Other".to_owned(),
                    0,
                    PropertyValue::Object(unreal_formats::package::ObjectRef(1))
                ),
            ],
            "version {version}"
        );
    }
}

#[test]
fn a_broken_class_names_itself_and_the_offset() {
    let mut classes = classes(69, 0);
    classes[1].script_size = 9; // one memory byte short
    let bytes = class_package(69, 0, &classes);
    let p = Package::parse_named(&bytes, "Mod").unwrap();
    let err = p.read_class_body(1).unwrap_err().to_string();
    assert!(err.starts_with("Class Thing (export 1) at byte "), "{err}");
    assert!(err.contains("to fit in ScriptSize 9"), "{err}");
    // Every truncation of the package is refused or read, never a panic.
    for cut in 0..bytes.len() {
        if let Ok(p) = Package::parse(&bytes[..cut]) {
            for i in 0..p.exports.len() {
                let _ = p.read_class_body(i);
            }
        }
    }
}

/// Every class of every corpus package reads, walk and defaults included.
#[test]
fn every_corpus_class_reads() {
    let files = common::corpus_files(&["u"]);
    let mut read = 0;
    let mut failures = Vec::new();
    for (path, bytes) in &files {
        let Ok(p) = Package::parse(bytes) else { continue };
        for i in p.class_exports() {
            match p.read_class_body(i) {
                Ok(_) => read += 1,
                Err(e) => failures.push(format!("{path}: {e}")),
            }
        }
    }
    assert_eq!(failures, Vec::<String>::new());
    if !files.is_empty() {
        assert!(read >= 30, "only {read} classes in the corpus");
    }
}

/// Some classes of a UT99 mod: flags, parent, and defaults as stored.
#[test]
fn corpus_c4_classes() {
    let Some(root) = common::corpus() else { return };
    let bytes = std::fs::read(root.join("packages/u/Ut99Mods_C4.u")).unwrap();
    let p = Package::parse_named(&bytes, "C4").unwrap();
    let mut out = String::new();
    for i in p.class_exports().take(12) {
        let body = p.read_class_body(i).unwrap();
        writeln!(
            out,
            "{} extends {} flags={:#x} within={:?} config={:?} script={}",
            p.export_name(i),
            p.ref_name(body.super_class),
            body.flags,
            body.within,
            body.config,
            body.script_size
        )
        .unwrap();
        for d in &body.defaults {
            let value = match &d.value {
                PropertyValue::Object(r) => format!("Object({})", p.ref_path(*r)),
                PropertyValue::Raw { type_id, bytes } => {
                    format!("Raw(type {type_id}, {} bytes)", bytes.len())
                }
                other => format!("{other:?}"),
            };
            writeln!(out, "    {}[{}] = {value}", d.name, d.array_index).unwrap();
        }
    }
    expect_test::expect_file!["snapshots/classes_c4.txt"].assert_eq(&out);
}

/// A byte property's enum and the enum's value names.
#[test]
fn byte_properties_name_their_enum() {
    for (version, licensee) in [(69, 0), (128, 29)] {
        let class = TestClass::new("Actor", None, 1).with_enum("DrawType", &["DT_None", "DT_Mesh"]);
        let bytes = class_package(version, licensee, &[class]);
        let p = Package::parse_named(&bytes, "Engine").unwrap();
        let property = p.find("Actor.DrawType").unwrap();
        let enum_ref = p.read_byte_property_enum(property).unwrap();
        assert_eq!(p.ref_path(enum_ref), "Actor.EDrawType");
        let unreal_formats::package::Resolved::Export(e) = enum_ref.resolve() else { panic!() };
        assert_eq!(p.read_enum(e).unwrap(), ["DT_None", "DT_Mesh"]);
        // Other classes are refused, naming the object.
        let err = p.read_enum(property).unwrap_err().to_string();
        assert!(err.starts_with("ByteProperty Actor.DrawType (export 2)"), "{err}");
    }
}
