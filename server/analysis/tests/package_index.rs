//! The package index: over the corpus packages used as a game folder (every package's tables,
//! lookups of bare and qualified names, hover facts read on demand), and over an in-memory
//! game built with the formats crate's package writer (layout, case, shadowing, refresh after
//! files change).
#![allow(clippy::unwrap_used, clippy::expect_used)] // test helpers may panic on broken fixtures

use unreal_test_support::writers;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use unreal_analysis::exec::{DirEntry, FileSystem, MemoryFs};
use unreal_analysis::ide::t3d::ObjectFacts as _;
use unreal_analysis::index::{IndexRoots, Lookup, ObjectKind, PackageIndex};

fn corpus_packages() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/packages");
    if dir.is_dir() {
        Some(dir)
    } else {
        unreal_test_support::corpus::absent(&format!("the corpus is not at {}", dir.display()));
        None
    }
}

fn lookup_text(index: &PackageIndex, kind: ObjectKind, value: &str) -> String {
    match index.lookup(kind, value) {
        Lookup::Found(id) => format!("found {}", index.full_path(id)),
        Lookup::NoPackage(p) => format!("no package {p}"),
        Lookup::Missing => format!("missing; nearest {:?}", index.suggestions(kind, value, 3)),
        Lookup::Unchecked => "unchecked".to_owned(),
        Lookup::Declared => "declared in the game folder's sources".to_owned(),
    }
}

#[test]
fn corpus_packages_as_a_game_folder() {
    let Some(dir) = corpus_packages() else { return };
    let mut reports = Vec::new();
    let roots = IndexRoots {
        game_dir: Some(dir.clone()),
        package_paths: Vec::new(),
        ..IndexRoots::default()
    };
    let index = PackageIndex::build(Arc::new(unreal_analysis::exec::RealFs), roots, &mut |p| {
        reports.push((p.done, p.total));
    });
    let mut out = String::new();
    for package in index.packages() {
        let path = package.path.strip_prefix(&dir).unwrap().to_string_lossy().replace('\\', "/");
        let _ = write!(
            out,
            "{path}: {} v{} {} objects",
            package.name,
            package.version,
            package.objects.len()
        );
        if let Some(error) = &package.error {
            let _ = write!(out, " ERROR {error}");
        }
        out.push('\n');
    }
    let _ = writeln!(out, "progress reports: {} of {}", reports.len(), index.packages().len());
    for (kind, value) in [
        (ObjectKind::Texture, "checkers_base"),
        (ObjectKind::Texture, "CHECKERS_ABCD"),
        (ObjectKind::Texture, "blender_t3d_Checkers.checkers_base"),
        (ObjectKind::Texture, "blender_t3d_Checkers.Walls.checkers_base"),
        (ObjectKind::Texture, "Bkgnd"),
        (ObjectKind::Texture, "chekers_base"),
        (ObjectKind::Texture, "Engine.DefaultTexture"),
        (ObjectKind::Class, "Light"),
        (ObjectKind::Any, "Ut99Mods_C4.C4Weapon"),
    ] {
        let _ = writeln!(out, "{kind:?} {value}: {}", lookup_text(&index, kind, value));
    }
    let texture = index.object(Some("Texture"), "checkers_base").unwrap();
    let _ = writeln!(out, "hover {} ({})", texture.path, texture.class);
    for (key, value) in &texture.details {
        let value = if value.len() > 60 { format!("{}...", &value[..40]) } else { value.clone() };
        let _ = writeln!(out, "  {key}: {value}");
    }
    let names = index.names("Texture");
    let _ = writeln!(out, "texture names: {}", names.len());
    let _ = writeln!(out, "class names: {}", index.names("Class").len());
    expect_test::expect_file!["snapshots/package_index_corpus.txt"].assert_eq(&out);
}

/// A file system whose files tests can change between two reads.
#[derive(Default)]
struct ChangingFs(Mutex<MemoryFs>);

impl FileSystem for ChangingFs {
    fn read_dir(&self, dir: &Path) -> Option<Vec<DirEntry>> {
        self.0.lock().unwrap().read_dir(dir)
    }
    fn read(&self, path: &Path) -> Option<Vec<u8>> {
        self.0.lock().unwrap().read(path)
    }
}

#[test]
fn game_layout_case_shadowing_and_refresh() {
    let fs = Arc::new(ChangingFs::default());
    {
        let mut files = fs.0.lock().unwrap();
        files.insert(
            "/game/system/Engine.u",
            writers::object_package(&[("Class", "Actor"), ("Class", "Light")]),
        );
        files.insert(
            "/game/Textures/Rock.utx",
            writers::object_package(&[("Texture", "Walls.Granite")]),
        );
        // Same name in a later folder: shadowed by the first.
        files.insert("/game/Maps/rock.utx", writers::object_package(&[("Texture", "Other")]));
        // Not a game folder: not indexed.
        files.insert("/game/Help/Junk.utx", writers::object_package(&[("Texture", "Junk")]));
        files.insert("/game/Textures/readme.txt", b"not a package".to_vec());
        files.insert("/game/Textures/Broken.utx", b"\xC1\x83\x2A\x9E short".to_vec());
        files.insert("/mods/deep/er/Mod.u", writers::object_package(&[("Class", "ModActor")]));
        // A package being written (UCC's layout), not compiled yet.
        files.insert("/game/MyMod/Classes/MyActor.uc", b"class MyActor extends Actor;".to_vec());
    }
    let roots = IndexRoots {
        game_dir: Some(PathBuf::from("/game")),
        package_paths: vec![PathBuf::from("/mods")],
        ..IndexRoots::default()
    };
    let dyn_fs: Arc<dyn FileSystem> = fs.clone();
    let index = PackageIndex::build(dyn_fs, roots, &mut |_| {});
    let render = |index: &PackageIndex| {
        let mut out = String::new();
        for p in index.packages() {
            let objects: Vec<String> =
                p.objects.iter().map(|o| format!("{} {}", o.class, o.path)).collect();
            let _ = writeln!(out, "{} {}: {objects:?} {:?}", p.path.display(), p.name, p.error);
        }
        let _ = writeln!(out, "shadowed {:?}", index.shadowed());
        for class in index.source_classes() {
            let _ = writeln!(
                out,
                "source {}.{} extends {:?} abstract {} ({})",
                class.package,
                class.name,
                class.parent,
                class.is_abstract,
                class.file.display()
            );
        }
        for (kind, value) in [
            (ObjectKind::Texture, "granite"),
            (ObjectKind::Texture, "ROCK.walls.granite"),
            (ObjectKind::Texture, "Rock.Granite"),
            (ObjectKind::Texture, "Other"),
            (ObjectKind::Texture, "Marble"),
            (ObjectKind::Class, "modactor"),
            (ObjectKind::Class, "Engine.Light"),
            (ObjectKind::Class, "Engine.Lihgt"),
            (ObjectKind::Class, "MyActor"),
            (ObjectKind::Class, "MyMod.MyActor"),
            (ObjectKind::Class, "MyMod.Second"),
            (ObjectKind::Class, "Second"),
        ] {
            let _ = writeln!(out, "{kind:?} {value}: {}", lookup_text(index, kind, value));
        }
        out
    };
    let before = render(&index);
    assert!(index.refreshed(&[PathBuf::from("/elsewhere/x.utx")]).is_none());
    assert!(index.refreshed(&[PathBuf::from("/game/Textures/notes.txt")]).is_none());
    {
        let mut files = fs.0.lock().unwrap();
        files.insert(
            "/game/Textures/Rock.utx",
            writers::object_package(&[("Texture", "Walls.Granite"), ("Texture", "Walls.Marble")]),
        );
        files.insert("/game/Sounds/Amb.uax", writers::object_package(&[("Sound", "Wind")]));
    }
    // A class source alone is enough to refresh.
    {
        let mut files = fs.0.lock().unwrap();
        files.insert(
            "/game/MyMod/Classes/Second.uc",
            b"// Second.\r\nclass Second extends MyActor\r\n    abstract;\r\n".to_vec(),
        );
    }
    let sources_only = index.refreshed(&[PathBuf::from("/game/MyMod/Classes/Second.uc")]).unwrap();
    assert_eq!(sources_only.source_classes().len(), 2);
    // A save that leaves every declaration as it was changes nothing.
    assert!(sources_only.refreshed(&[PathBuf::from("/game/MyMod/Classes/MyActor.uc")]).is_none());
    let changed = [
        PathBuf::from("/game/Textures/Rock.utx"),
        PathBuf::from("/game/Sounds/Amb.uax"),
        PathBuf::from("/game/MyMod/Classes/Second.uc"),
    ];
    let after = index.refreshed(&changed).unwrap();
    let unchanged_shared = Arc::ptr_eq(&index.packages()[0], &after.packages()[0]);
    expect_test::expect_file!["snapshots/package_index_memory.txt"].assert_eq(&format!(
        "{before}--- after refresh (Engine.u shared: {unchanged_shared})\n{}",
        render(&after)
    ));
}

/// A mod's repository without a game folder: its classes are known from its sources (no
/// package file is looked for there, even one beside them), the index says it knows no
/// packages, and a class saved in the workspace is read again.
#[test]
fn workspace_sources_without_a_game_folder() {
    let fs = Arc::new(ChangingFs::default());
    {
        let mut files = fs.0.lock().unwrap();
        files.insert(
            "/repo/MyMod/Classes/MyBase.uc",
            b"class MyBase extends Actor abstract;".to_vec(),
        );
        files.insert(
            "/repo/MyMod/Classes/MyStart.uc",
            b"class MyStart extends PlayerStart;".to_vec(),
        );
        // Compiled beside the sources: a source path is no package folder.
        files.insert("/repo/System/MyMod.u", writers::object_package(&[("Class", "MyBase")]));
    }
    let roots = IndexRoots { source_paths: vec![PathBuf::from("/repo")], ..IndexRoots::default() };
    assert!(!roots.knows_packages() && roots.reads_anything());
    let dyn_fs: Arc<dyn FileSystem> = fs.clone();
    let index = PackageIndex::build(dyn_fs, roots, &mut |_| {});
    assert!(!index.knows_packages());
    assert!(index.packages().is_empty());
    assert!(index.class_facts("MyBase").is_some_and(|f| f.is_abstract));
    assert_eq!(index.class_facts("MyStart").and_then(|f| f.parent).as_deref(), Some("PlayerStart"));
    // Neither a package file nor a file outside the sources concerns it.
    assert!(index.refreshed(&[PathBuf::from("/repo/System/MyMod.u")]).is_none());
    assert!(index.refreshed(&[PathBuf::from("/repo/Maps/Test.t3d")]).is_none());
    fs.0.lock()
        .unwrap()
        .insert("/repo/MyMod/Classes/MyBase.uc", b"class MyBase extends Actor;".to_vec());
    let after = index.refreshed(&[PathBuf::from("/repo/MyMod/Classes/MyBase.uc")]).unwrap();
    assert!(after.class_facts("MyBase").is_some_and(|f| !f.is_abstract));
    assert!(!after.knows_packages());
}

/// A folder tree without end: every folder holds 50 folders and one package file.
struct EndlessTree;

impl FileSystem for EndlessTree {
    fn read_dir(&self, _dir: &Path) -> Option<Vec<DirEntry>> {
        let mut entries: Vec<_> = (0..50)
            .map(|i| DirEntry { name: format!("d{i}"), is_dir: true, is_link: false })
            .collect();
        entries.push(DirEntry { name: "P.u".to_owned(), is_dir: false, is_link: false });
        Some(entries)
    }

    fn read(&self, _path: &Path) -> Option<Vec<u8>> {
        None
    }
}

/// `game-dir = "/"` must not walk the whole disk: the search stops at its bounds, says so,
/// and never enters the kernel's pseudo file systems.
#[test]
fn a_search_too_wide_stops_at_its_bounds_and_says_so() {
    let roots = IndexRoots {
        game_dir: Some(PathBuf::from("/")),
        package_paths: Vec::new(),
        ..IndexRoots::default()
    };
    let found = PackageIndex::discover(&EndlessTree, &roots);
    assert_eq!(found.files.len(), 20_000, "one package a folder, up to the folder bound");
    let stopped: Vec<_> = found.notes.iter().filter(|n| n.contains("stopped after")).collect();
    assert_eq!(stopped.len(), 1, "{:?}", found.notes);
    assert!(stopped[0].contains("20000 folders"), "{}", stopped[0]);

    let roots = IndexRoots {
        game_dir: Some(PathBuf::from("/proc")),
        package_paths: Vec::new(),
        ..IndexRoots::default()
    };
    let found = PackageIndex::discover(&EndlessTree, &roots);
    assert!(found.files.is_empty());
    assert_eq!(found.notes, ["/proc is not searched for packages: it is a pseudo file system"]);

    // Below a pseudo file system too: `/proc/self/root` is the whole disk again, and again
    // below it (issue 30: it got past a guard that compared the folder with `/proc` only).
    let roots = IndexRoots {
        game_dir: Some(PathBuf::from("/proc/self/root")),
        package_paths: vec![PathBuf::from("/sys/kernel")],
        ..IndexRoots::default()
    };
    let found = PackageIndex::discover(&EndlessTree, &roots);
    assert!(found.files.is_empty());
    assert_eq!(
        found.notes,
        [
            "/proc/self/root is not searched for packages: it is a pseudo file system",
            "/sys/kernel is not searched for packages: it is a pseudo file system",
        ]
    );
}

/// A folder reached twice (a link back up the tree, a package path inside the game folder, a
/// game folder named through `/proc/self/root`) is searched once: each package is listed once.
#[cfg(unix)]
#[test]
fn a_folder_reached_again_through_a_link_is_searched_once() {
    let root = std::env::temp_dir().join(format!("unreal-ls-index-loop-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let textures = root.join("Packages");
    std::fs::create_dir_all(textures.join("Sub")).unwrap();
    std::fs::write(textures.join("A.utx"), b"").unwrap();
    std::fs::write(textures.join("Sub").join("B.utx"), b"").unwrap();
    std::os::unix::fs::symlink(&textures, textures.join("Sub").join("Loop")).unwrap();
    let roots = IndexRoots {
        game_dir: Some(textures.clone()),
        package_paths: vec![textures.join("Sub"), PathBuf::from("/proc/self/cwd")],
        ..IndexRoots::default()
    };
    let found = PackageIndex::discover(&unreal_analysis::fs::RealFs, &roots);
    let _ = std::fs::remove_dir_all(&root);
    let mut names: Vec<_> =
        found.files.iter().map(|f| f.strip_prefix(&textures).unwrap().to_owned()).collect();
    names.sort();
    assert_eq!(names, [PathBuf::from("A.utx"), PathBuf::from("Sub/B.utx")], "{:?}", found.files);
    assert_eq!(
        found.notes,
        ["/proc/self/cwd is not searched for packages: it is a pseudo file system"]
    );
}

/// A compressed package in a game folder (`Rock.utx.uz`, `Amb.uax.uz2`, as redirect servers
/// serve them) is indexed as the package it holds, under the package's own name; objects
/// are found through it and their data read from it; a corrupt one is known by name with
/// the reader's error.
#[test]
fn compressed_packages_are_indexed_as_the_packages_they_hold() {
    use unreal_test_support::containers;
    let rock = writers::object_package(&[("Texture", "Walls.Granite")]);
    let fs = MemoryFs::new()
        .with("/game/System/Engine.u", writers::object_package(&[("Class", "Actor")]))
        .with("/game/Textures/Rock.utx.uz", containers::uz1("Rock.utx", &rock, false, 0x40000))
        .with(
            "/game/Sounds/Amb.uax.uz2",
            containers::uz2(&writers::object_package(&[("Sound", "Wind")])),
        )
        .with("/game/Maps/Bad.unr.uz", b"\xD2\x04\x00\x00\x05Bad.u\x00\x10\x00\x00\x00".to_vec());
    let roots = IndexRoots {
        game_dir: Some(PathBuf::from("/game")),
        package_paths: vec![],
        ..IndexRoots::default()
    };
    let index = PackageIndex::build(Arc::new(fs), roots, &mut |_| {});
    let mut out = String::new();
    for p in index.packages() {
        let objects: Vec<String> =
            p.objects.iter().map(|o| format!("{} {}", o.class, o.path)).collect();
        let _ = writeln!(out, "{} {}: {objects:?} {:?}", p.path.display(), p.name, p.error);
    }
    for (kind, value) in
        [(ObjectKind::Texture, "Rock.Walls.Granite"), (ObjectKind::Any, "Amb.Wind")]
    {
        let _ = writeln!(out, "{kind:?} {value}: {}", lookup_text(&index, kind, value));
    }
    let rock_package = index.packages().iter().find(|p| p.name == "Rock").unwrap().clone();
    let exports = index.with_package(&rock_package, |p| p.exports.len()).unwrap();
    let _ = writeln!(out, "Rock read again through the index: {exports} exports");
    expect_test::expect![[r#"
        /game/System/Engine.u Engine: ["Class Actor"] None
        /game/Textures/Rock.utx.uz Rock: ["Package Walls", "Texture Walls.Granite"] None
        /game/Sounds/Amb.uax.uz2 Amb: ["Sound Wind"] None
        /game/Maps/Bad.unr.uz Bad: [] Some("uz Huffman stream at byte 15: expected more bits: the stream ends before the byte count it declares is decoded")
        Texture Rock.Walls.Granite: found Rock.Walls.Granite
        Any Amb.Wind: found Amb.Wind
        Rock read again through the index: 2 exports
    "#]].assert_eq(&out);
}

/// Class facts and default values walk up parents across sources and compiled packages:
/// sources win over the compiled class of their package, a bare name defined in two
/// packages is not resolved, and a changed `defaultproperties` block refreshes the index.
#[test]
fn class_facts_and_defaults_across_sources_and_packages() {
    use unreal_analysis::index::DefaultValue;
    use writers::{TestClass, TestDefault};
    let fs = Arc::new(ChangingFs::default());
    {
        let mut files = fs.0.lock().unwrap();
        let engine = writers::class_package(
            69,
            0,
            &[
                TestClass::new("Object", None, 1),
                TestClass::new("Actor", Some("Object"), 1)
                    .with_enum("DrawType", &["DT_None", "DT_Sprite", "DT_Mesh"])
                    .with_enum("Style", &["STY_None", "STY_Normal"])
                    .with("DrawScale", TestDefault::Float(1.0))
                    .with("DrawType", TestDefault::Byte(1))
                    .with("bHidden", TestDefault::Bool(false)),
                TestClass::new("Pickup", Some("Actor"), 1)
                    .with("PickupMessage", TestDefault::Str("Snagged an item.".into())),
                TestClass::new("Light", Some("Actor"), 0)
                    .with("bStatic", TestDefault::Bool(true))
                    .with("Skins", TestDefault::IntAt(3, 9))
                    .with("Texture", TestDefault::Object(-2)),
            ],
        );
        files.insert("/game/System/Engine.u", engine);
        // A stale build of the mod: its source below wins.
        files.insert(
            "/game/System/MyMod.u",
            writers::class_package(
                69,
                0,
                &[
                    TestClass::new("MyPickup", Some("Pickup"), 0)
                        .with("DrawScale", TestDefault::Float(5.0)),
                    // A byte of an enum declared in another package, and a value past its
                    // names (kept as a number).
                    TestClass::new("MyDeco", Some("Pickup"), 0)
                        .with("DrawType", TestDefault::Byte(2))
                        .with("Style", TestDefault::Byte(7))
                        .with("Health", TestDefault::Byte(3)),
                ],
            ),
        );
        for package in ["A", "B"] {
            files.insert(
                format!("/game/System/{package}.u"),
                writers::class_package(69, 0, &[TestClass::new("Thing", Some("Actor"), 0)]),
            );
        }
        files.insert(
            "/game/MyMod/Classes/MyPickup.uc",
            b"class MyPickup extends Engine.Pickup;\r\ndefaultproperties\r\n{\r\n    PickupMessage=\"Got it\"\r\n    DrawScale=2.0\r\n}\r\n".to_vec(),
        );
        files
            .insert("/game/MyMod/Classes/MyLight.uc", b"class MyLight extends Light;\r\n".to_vec());
        files.insert("/game/MyMod/Classes/Orphan.uc", b"class Orphan extends Missing;".to_vec());
    }
    let roots = IndexRoots {
        game_dir: Some(PathBuf::from("/game")),
        package_paths: Vec::new(),
        ..IndexRoots::default()
    };
    let dyn_fs: Arc<dyn FileSystem> = fs.clone();
    let index = PackageIndex::build(dyn_fs, roots, &mut |_| {});
    let render = |index: &PackageIndex| {
        let mut out = String::new();
        for class in ["Actor", "Pickup", "MyPickup", "Engine.Light", "Thing", "A.Thing", "Nothing"]
        {
            match index.class_facts(class) {
                Some(f) => {
                    let _ = writeln!(
                        out,
                        "{class}: {}.{} extends {:?} abstract={} placeable={:?} from {:?} defaults {:?}",
                        f.package,
                        f.name,
                        f.parent,
                        f.is_abstract,
                        f.placeable,
                        f.origin,
                        index.class_defaults(&f).values
                    );
                }
                None => {
                    let _ =
                        writeln!(out, "{class}: none of {}", index.class_facts_all(class).len());
                }
            }
        }
        for (class, property) in [
            ("MyPickup", "DrawScale"),
            ("MyPickup", "pickupmessage"),
            ("MyPickup", "bHidden"),
            ("MyPickup", "DrawType"),
            ("MyDeco", "DrawType"),
            ("MyDeco", "Style"),
            ("MyDeco", "Health"),
            ("MyLight", "bStatic"),
            ("MyLight", "Skins[3]"),
            ("MyLight", "Skins(0)"),
            ("MyLight", "Texture"),
            ("MyLight", "LightRadius"),
            ("Thing", "DrawScale"),
            ("Orphan", "DrawScale"),
        ] {
            let value = match index.default_of(class, property) {
                DefaultValue::Set(value, by) => format!("{value} (set by {by})"),
                DefaultValue::EngineZero => "the engine's zero".to_owned(),
                DefaultValue::Unknown(why) => format!("unknown: {why}"),
            };
            let _ = writeln!(out, "{class}.{property} = {value}");
        }
        out
    };
    expect_test::expect![[r#"
        Actor: Engine.Actor extends Some("Engine.Object") abstract=true placeable=None from Package("/game/System/Engine.u") defaults [("DrawScale", "1.000000"), ("DrawType", "DT_Sprite"), ("bHidden", "False")]
        Pickup: Engine.Pickup extends Some("Engine.Actor") abstract=true placeable=None from Package("/game/System/Engine.u") defaults [("PickupMessage", "\"Snagged an item.\"")]
        MyPickup: MyMod.MyPickup extends Some("Engine.Pickup") abstract=false placeable=None from Source("/game/MyMod/Classes/MyPickup.uc") defaults [("PickupMessage", "\"Got it\""), ("DrawScale", "2.0")]
        Engine.Light: Engine.Light extends Some("Engine.Actor") abstract=false placeable=None from Package("/game/System/Engine.u") defaults [("bStatic", "True"), ("Skins(3)", "9"), ("Texture", "Class'Core.Object'")]
        Thing: none of 2
        A.Thing: A.Thing extends Some("Engine.Actor") abstract=false placeable=None from Package("/game/System/A.u") defaults []
        Nothing: none of 0
        MyPickup.DrawScale = 2.0 (set by MyPickup)
        MyPickup.pickupmessage = "Got it" (set by MyPickup)
        MyPickup.bHidden = False (set by Actor)
        MyPickup.DrawType = DT_Sprite (set by Actor)
        MyDeco.DrawType = DT_Mesh (set by MyDeco)
        MyDeco.Style = 7 (set by MyDeco)
        MyDeco.Health = 3 (set by MyDeco)
        MyLight.bStatic = True (set by Light)
        MyLight.Skins[3] = 9 (set by Light)
        MyLight.Skins(0) = the engine's zero
        MyLight.Texture = Class'Core.Object' (set by Light)
        MyLight.LightRadius = the engine's zero
        Thing.DrawScale = unknown: class `Thing` is defined in several packages (A, B)
        Orphan.DrawScale = unknown: class `Missing` is not indexed
    "#]]
    .assert_eq(&render(&index));
    // A save that changes nothing keeps the index; a changed block makes a new one.
    let source = PathBuf::from("/game/MyMod/Classes/MyPickup.uc");
    assert!(index.refreshed(std::slice::from_ref(&source)).is_none());
    fs.0.lock().unwrap().insert(
        "/game/MyMod/Classes/MyPickup.uc",
        b"class MyPickup extends Engine.Pickup;\r\ndefaultproperties\r\n{\r\n    DrawScale=3.0\r\n}\r\n".to_vec(),
    );
    let after = index.refreshed(std::slice::from_ref(&source)).expect("a refreshed index");
    assert_eq!(
        after.default_of("MyPickup", "DrawScale"),
        DefaultValue::Set("3.0".into(), "MyPickup".into())
    );
    assert_eq!(
        after.default_of("MyPickup", "PickupMessage"),
        DefaultValue::Set("\"Snagged an item.\"".into(), "Pickup".into())
    );
}

/// `t3d-abstract-class` over compiled classes: a bare name is judged when every package
/// defining it compiled it abstract, `Package.Name` by that package's class alone, and a UE2
/// package's `placeable` flag is read.
#[test]
fn abstract_compiled_classes_are_judged_conservatively() {
    use unreal_analysis::lint::{lint_file, FileKind, LintOptions};
    use writers::TestClass;
    let mut fs = MemoryFs::new();
    let class = |name: &str, flags: u32| TestClass::new(name, Some("Actor"), flags);
    fs.insert(
        "/game/System/A.u",
        writers::class_package(69, 0, &[class("Thing", 1), class("Both", 1)]),
    );
    fs.insert(
        "/game/System/B.u",
        writers::class_package(69, 0, &[class("Thing", 0), class("Both", 1)]),
    );
    fs.insert("/game/System/C.u", writers::class_package(128, 29, &[class("Placed", 0x200)]));
    let roots = IndexRoots {
        game_dir: Some(PathBuf::from("/game")),
        package_paths: Vec::new(),
        ..IndexRoots::default()
    };
    let index = PackageIndex::build(Arc::new(fs), roots, &mut |_| {});
    assert_eq!(index.class_facts("Placed").and_then(|f| f.placeable), Some(true));
    assert_eq!(index.class_facts("A.Thing").and_then(|f| f.placeable), None);
    let t3d = "Begin Map\r\nBegin Actor Class=Thing Name=A0\r\nEnd Actor\r\nBegin Actor Class=A.Thing Name=A1\r\nEnd Actor\r\nBegin Actor Class=B.Thing Name=A2\r\nEnd Actor\r\nBegin Actor Class=Both Name=A3\r\nEnd Actor\r\nBegin Actor Class=Placed Name=A4\r\nEnd Actor\r\nEnd Map\r\n";
    let options = LintOptions { packages: Some(Arc::new(index)), ..LintOptions::default() };
    let linted = lint_file(FileKind::T3d, t3d.as_bytes(), &options);
    let found: Vec<String> = linted
        .diagnostics
        .iter()
        .filter(|d| d.code == "t3d-abstract-class")
        .map(|d| d.message.clone())
        .collect();
    expect_test::expect![[r#"
        [
            "class `A.Thing` is abstract (compiled with CLASS_Abstract in /game/System/A.u): UnrealEd cannot spawn it, and its import of this actor stops with a failed assertion (UT v469e and later leave the actor out)",
            "class `Both` is abstract (compiled with CLASS_Abstract in /game/System/A.u): UnrealEd cannot spawn it, and its import of this actor stops with a failed assertion (UT v469e and later leave the actor out)",
        ]
    "#]]
    .assert_debug_eq(&found);
}

/// A corpus mod's compiled classes as the index tells them: parents, flags and defaults as
/// T3D text (enums named where the declaring package is indexed; C4's parents are UT99's,
/// which the corpus lacks: their defaults are unknown).
#[test]
fn corpus_class_facts_as_t3d_text() {
    let Some(dir) = corpus_packages() else { return };
    let roots =
        IndexRoots { game_dir: None, package_paths: vec![dir.join("u")], ..IndexRoots::default() };
    let index = PackageIndex::build(Arc::new(unreal_analysis::exec::RealFs), roots, &mut |_| {});
    let mut out = String::new();
    let c4 = index.package("Ut99Mods_C4").expect("the C4 package");
    for class in c4.classes.iter().take(4) {
        let facts = index.class_facts(&format!("Ut99Mods_C4.{}", class.name)).unwrap();
        let _ = writeln!(
            out,
            "{}.{} extends {:?} abstract={} flags={:?} unreadable={:?}",
            facts.package,
            facts.name,
            facts.parent,
            facts.is_abstract,
            facts.flags.map(|f| format!("{f:#x}")),
            facts.unreadable
        );
        for (name, value) in &index.class_defaults(&facts).values {
            let _ = writeln!(out, "    {name}={value}");
        }
    }
    let _ = writeln!(
        out,
        "C4Weapon.PickupAmmoCount: {:?}",
        index.default_of("C4Weapon", "PickupAmmoCount")
    );
    let _ = writeln!(out, "C4Weapon.Mass: {:?}", index.default_of("C4Weapon", "Mass"));
    let _ = writeln!(out, "C4Weapon.bHidden: {:?}", index.default_of("C4Weapon", "bHidden"));
    // UT2004's tagged structs (version 128, licensee 29), nested.
    let facts = index.class_facts("TestUC2.DefaultProperties").unwrap();
    let defaults = index.class_defaults(&facts);
    for (name, value) in &defaults.values {
        let _ = writeln!(out, "TestUC2.DefaultProperties {name}={value}");
    }
    let _ = writeln!(out, "unprinted {:?}", defaults.unprinted);
    expect_test::expect_file!["snapshots/class_facts_c4.txt"].assert_eq(&out);
}
