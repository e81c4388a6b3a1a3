//! Every binary file of the third-party corpus, read and summarised. The snapshot holds the
//! facts the readers found (counts, classes, formats), never the files' bytes.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::pedantic)]

mod common;

use std::collections::BTreeMap;
use std::fmt::Write as _;

use unreal_formats::{summarize, summarize_vertex_mesh, Package, Summary};

const BINARY_EXTS: &[&str] = &[
    "u", "utx", "uax", "umx", "unr", "usx", "ukx", "psk", "psa", "u3d", "bmp", "pcx", "tga", "dds",
    "png", "wav",
];

/// Classes whose objects are compiled UnrealScript members: counted, not listed.
fn is_script_member(class: &str) -> bool {
    class.ends_with("Property")
        || matches!(class, "Function" | "State" | "Const" | "Enum" | "Struct")
}

fn describe(path: &str, bytes: &[u8]) -> String {
    let name = path.rsplit('/').next().unwrap_or(path);
    match summarize(bytes, name) {
        Err(e) => format!("error: {e}\n"),
        Ok(Summary::Package(p)) => {
            let mut s = format!(
                "package v{} licensee {}: {} names, {} imports, {} exports\n",
                p.version, p.licensee, p.names, p.imports, p.exports
            );
            let mut classes: BTreeMap<&str, usize> = BTreeMap::new();
            for o in &p.objects {
                *classes.entry(o.class.as_str()).or_default() += 1;
            }
            let hist: Vec<String> = classes.iter().map(|(c, n)| format!("{c} {n}")).collect();
            writeln!(s, "  classes: {}", hist.join(", ")).unwrap();
            for o in &p.objects {
                if let (Some(d), false) =
                    (&o.detail, is_script_member(&o.class) || o.class == "Palette")
                {
                    writeln!(s, "  {} [{}] {}", o.path, o.class, d).unwrap();
                }
            }
            for problem in &p.problems {
                writeln!(s, "  problem: {problem}").unwrap();
            }
            s
        }
        Ok(other) => other.to_string(),
    }
}

#[test]
fn corpus_snapshot() {
    let files = common::corpus_files(BINARY_EXTS);
    let meshes = common::corpus_files(&["3d"]);
    if files.is_empty() {
        return;
    }
    let mut out = String::new();
    for (path, bytes) in &files {
        writeln!(out, "== {path}").unwrap();
        out.push_str(&describe(path, bytes));
    }
    let by_path: BTreeMap<&str, &Vec<u8>> = meshes.iter().map(|(p, b)| (p.as_str(), b)).collect();
    for (path, data) in &meshes {
        let Some(stem) = path.strip_suffix("_d.3d") else { continue };
        writeln!(out, "== {path} + _a.3d").unwrap();
        let aniv = by_path.get(format!("{stem}_a.3d").as_str());
        match aniv {
            Some(aniv) => match summarize_vertex_mesh(data, aniv) {
                Ok(s) => out.push_str(&s.to_string()),
                Err(e) => writeln!(out, "error: {e}").unwrap(),
            },
            None => writeln!(out, "error: no _a.3d partner").unwrap(),
        }
    }
    expect_test::expect_file!["snapshots/corpus.txt"].assert_eq(&out);
}

/// The facts the issue names, asserted one by one so that a regression says which.
#[test]
fn corpus_facts() {
    let Some(root) = common::corpus() else { return };
    let read = |p: &str| std::fs::read(root.join(p)).unwrap();

    let c4 = read("packages/u/Ut99Mods_C4.u");
    let p = Package::parse(&c4).unwrap();
    assert_eq!((p.exports.len(), p.names.len(), p.imports.len()), (317, 437, 165));
    // Its UE1 skeletal mesh in its reference pose: the points' box, doubled about its centre
    // as the editor bounds a skeletal mesh ("Extend by 2 to compensate for the fact that the
    // skeletal bounds reflect the reference pose only", `MeshBuildBounds`), is the box the
    // package stores; the faces and their five texture slots.
    let mesh = p.find("C4").filter(|&i| p.class_name(i) == "SkeletalMesh").unwrap();
    let geometry = p.read_mesh_geometry(mesh).unwrap();
    assert_eq!((geometry.frames, geometry.vertices_per_frame), (1, 444));
    assert_eq!((geometry.faces.len(), geometry.materials.len()), (404, 5));
    assert!(geometry.sequences.is_empty());
    // UT v436's import kept the PSK's axes (UT2004's negates Y): the mod's own source PSK
    // holds these very points.
    let psk = unreal_formats::psk::Psk::parse(&read("uc/Ut99Mods/C4/Models/C4.psk")).unwrap();
    assert_eq!(psk.points.len(), geometry.positions.len());
    let near = |a: &[f32; 3], b: &[f32; 3]| a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-3);
    assert!(psk.points.iter().all(|q| geometry.positions.iter().any(|p| near(p, q))));
    let stored = p.read_mesh(mesh).unwrap().first_frame_box.unwrap();
    for k in 0..3 {
        let low = geometry.positions.iter().map(|v| v[k]).fold(f32::MAX, f32::min);
        let high = geometry.positions.iter().map(|v| v[k]).fold(f32::MIN, f32::max);
        let mid = (low + high) / 2.0;
        let doubled = [2.0 * low - mid, 2.0 * high - mid];
        assert!((doubled[0] - stored[0][k]).abs() < 1e-3, "axis {k}: {doubled:?} {stored:?}");
        assert!((doubled[1] - stored[1][k]).abs() < 1e-3, "axis {k}: {doubled:?} {stored:?}");
    }

    let uc2 = read("packages/u/UELib_TestUC2/TestUC2.u");
    let p = Package::parse(&uc2).unwrap();
    assert_eq!((p.header.version, p.header.licensee), (128, 29));

    let checkers = read("packages/utx/blender_t3d_Checkers.utx");
    let p = Package::parse_named(&checkers, "Checkers").unwrap();
    let mut textures = 0;
    for o in p.objects().filter(|o| o.class == "Texture") {
        let t = p.read_texture(o.export).unwrap();
        assert!(!t.mips.is_empty());
        assert_eq!((t.mips[0].width, t.mips[0].height), (t.width, t.height));
        textures += 1;
    }
    assert_eq!(textures, 5);
    let base = p.find("Checkers.checkers_base").unwrap();
    let t = p.read_texture(base).unwrap();
    assert_eq!((t.mips.len(), t.comp_mips.len()), (9, 7));
    assert_eq!(p.find("CHECKERS_BASE"), Some(base));

    let uc1 = read("packages/u/UELib_TestUC1/TestUC1.u");
    let p = Package::parse(&uc1).unwrap();
    let buffers: Vec<_> =
        p.objects().filter(|o| o.class == "TextBuffer").map(|o| o.export).collect();
    assert_eq!(buffers.len(), 6);
    for b in buffers {
        let text = p.read_text_buffer(b).unwrap().text;
        assert!(text.to_ascii_lowercase().contains("class "), "{}", p.export_path(b));
    }
    let labels = p.find("Labels.ScriptText").unwrap();
    let source =
        std::fs::read_to_string(root.join("packages/u/UELib_TestUC1/Classes/Labels.uc")).unwrap();
    let stored = p.read_text_buffer(labels).unwrap().text;
    assert_eq!(stored.replace("\r\n", "\n").trim(), source.replace("\r\n", "\n").trim());

    let skull = summarize_vertex_mesh(
        &read("uc/Ut99Mods/HeadHunter/Models/Skull/Skull_d.3d"),
        &read("uc/Ut99Mods/HeadHunter/Models/Skull/Skull_a.3d"),
    )
    .unwrap();
    let Summary::VertexMesh(m) = skull else { panic!("not a vertex mesh") };
    assert_eq!((m.triangles, m.vertices, m.frames), (236, 708, 30));

    for bad in ["libxmp_load_umx_invalid_names.umx", "libxmp_load_umx_invalid_objname.umx"] {
        let bytes = read(&format!("packages/umx/malformed/{bad}"));
        assert!(Package::parse(&bytes).is_err(), "{bad} must be rejected");
    }
}
