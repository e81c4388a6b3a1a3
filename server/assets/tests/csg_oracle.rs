//! The oracle of CSG: each built map of the corpus holds the engine's own BSP; the level built
//! here from the brushes stored in the same file must cover the same area (same plane within
//! 0.1 unit, same texture). The figures reached are asserted as floors.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::needless_raw_string_hashes)]

use std::fmt::Write;
use std::path::PathBuf;

use unreal_assets::csg::{build, compare, package};
use unreal_formats::Package;

fn maps() -> Vec<(String, Vec<u8>)> {
    let root =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/packages/unr");
    let Ok(entries) = std::fs::read_dir(&root) else {
        unreal_test_support::corpus::absent(&format!("no built maps at {}", root.display()));
        return Vec::new();
    };
    let mut out: Vec<(String, Vec<u8>)> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e.eq_ignore_ascii_case("unr")))
        .map(|p| {
            (p.file_name().unwrap().to_string_lossy().into_owned(), std::fs::read(&p).unwrap())
        })
        .collect();
    out.sort();
    out
}

/// Matched and extra area, in percent, by map.
fn figures(report: &mut String, name: &str, c: &compare::Comparison) {
    writeln!(
        report,
        "{name}: engine {:.0} units², built {:.0}; matched {:.3}%, extra {:.3}%",
        c.engine_area,
        c.built_area,
        c.matched_percent(),
        c.extra_percent()
    )
    .unwrap();
    // Where the rest is: the largest differences (pieces of a unit or two, where the engine's
    // point merging and T-joint vertices moved an edge).
    for d in c.missing.iter().take(3).filter(|d| d.area >= 1.0) {
        writeln!(report, "  missing {:.0} of {} {}", d.area, d.source, d.texture).unwrap();
    }
    for d in c.extra.iter().take(3).filter(|d| d.area >= 1.0) {
        writeln!(report, "  extra {:.0} of {} {}", d.area, d.source, d.texture).unwrap();
    }
}

#[test]
fn built_maps_match_the_engines_bsp() {
    let mut report = String::new();
    let maps = maps();
    for (name, bytes) in &maps {
        let p = Package::parse(bytes).unwrap();
        let map = package::read_built_map(&p).unwrap_or_else(|e| panic!("{name}: {e}"));
        let level = build(&map.brushes, map.root_outside);
        let built = compare::built_polygons(&level, &map.brushes);
        let c = compare::compare(&map.engine, &built);
        writeln!(
            report,
            "{name}: {} brushes built, left out: {}",
            map.brushes.len(),
            map.left_out.join(", ")
        )
        .unwrap();
        figures(&mut report, name, &c);
        // The floors reached (the issue's goal is 99% and 1%).
        assert!(c.matched_percent() >= 99.99, "{name}: {report}");
        assert!(c.extra_percent() <= 0.01, "{name}: {report}");
    }
    // The same map's T3D export, built from its text, against the engine's BSP of the .unr.
    let t3d = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/corpus/t3d/ue1/blender_t3d_test_map.t3d");
    let unr = maps.iter().find(|(n, _)| n == "blender_t3d_test_map.unr");
    if let (Ok(text), Some((_, bytes))) = (std::fs::read(&t3d), unr) {
        let text = String::from_utf8_lossy(&text);
        let p = Package::parse(bytes).unwrap();
        let map = package::read_built_map(&p).unwrap();
        // The export was made after one more brush was added and before the map was built
        // again: the brushes the .unr does not hold are left out (and named).
        let (brushes, newer): (Vec<_>, Vec<_>) = unreal_assets::csg::brushes_of_t3d(&text, None)
            .into_iter()
            .partition(|b| map.brushes.iter().any(|m| m.name == b.name));
        let newer: Vec<&str> = newer.iter().map(|b| b.name.as_str()).collect();
        writeln!(report, "blender_t3d_test_map.t3d: not in the .unr: {}", newer.join(", "))
            .unwrap();
        // The two readings place every texture mapping alike (the T3D's Origin, TextureU and
        // TextureV against the package's Base and axes, through each one's placement).
        let mut mappings = 0;
        for b in &brushes {
            let m = map.brushes.iter().find(|m| m.name == b.name).unwrap();
            for (p, q) in b.polys.iter().zip(&m.polys) {
                let (Some(x), Some(y)) = (p.mapping, q.mapping) else { continue };
                let near =
                    |a: [f64; 3], b: [f64; 3], d: f64| (0..3).all(|i| (a[i] - b[i]).abs() < d);
                assert!(
                    near(x.texture_u, y.texture_u, 1e-3) && near(x.texture_v, y.texture_v, 1e-3),
                    "{}: {x:?} {y:?}",
                    b.name
                );
                // Bases may differ along the plane's normal: the engine moves the base onto
                // the polygon's plane, and exports write it as they find it.
                assert!(near(x.base, y.base, 0.01), "{}: {x:?} {y:?}", b.name);
                assert_eq!(x.pan, y.pan, "{}", b.name);
                mappings += 1;
            }
        }
        writeln!(report, "blender_t3d_test_map.t3d: {mappings} texture mappings as in the .unr")
            .unwrap();
        let level = build(&brushes, false);
        assert!(level.surfaces.iter().all(|s| s.mapping.is_some()));
        let c = compare::compare(&map.engine, &compare::built_polygons(&level, &brushes));
        figures(&mut report, "blender_t3d_test_map.t3d", &c);
        assert!(c.matched_percent() >= 99.99, "{report}");
        assert!(c.extra_percent() <= 0.01, "{report}");
    }
    if maps.is_empty() {
        return;
    }
    expect_test::expect![[r#"
        Ut99Mods_1HH-TestBox-Large.unr: 9 brushes built, left out: Brush0: CsgOper 0, Mover1: class Mover, Mover2: class Mover
        Ut99Mods_1HH-TestBox-Large.unr: engine 10720837 units², built 10720837; matched 100.000%, extra 0.000%
        blender_t3d_test_map.unr: 40 brushes built, left out: Brush0: CsgOper 0
        blender_t3d_test_map.unr: engine 38700240 units², built 38700240; matched 100.000%, extra 0.000%
        shrimpza_SCR-CityStreet.unr: 99 brushes built, left out: Brush0: CsgOper 0
        shrimpza_SCR-CityStreet.unr: engine 98992887 units², built 98992780; matched 100.000%, extra 0.000%
          missing 32 of Brush21 Stucco4
          missing 29 of Brush24 Stucco4
          missing 25 of Brush45 Conc22
          extra 2 of Brush341 Win-blue2
          extra 2 of Brush342 Win-blue2
        blender_t3d_test_map.t3d: not in the .unr: Brush24
        blender_t3d_test_map.t3d: 248 texture mappings as in the .unr
        blender_t3d_test_map.t3d: engine 38700240 units², built 38700240; matched 100.000%, extra 0.000%
    "#]].assert_eq(&report);
}
