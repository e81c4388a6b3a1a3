//! CSG on small maps of box brushes, one case per engine rule: what the level's surfaces are
//! (texture, facing, area), as UnrealEd's `csgRebuild` builds them.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeMap;
use std::fmt::Write;

use unreal_assets::csg::{brushes_of_t3d, build, compare, package, polygon_area};
use unreal_test_support::writers::{
    box_faces, carved_room, map_package, map_package_naming, LevelPoly, MapBrush,
};

/// A box brush: class, `CsgOper`, actor `PolyFlags`, centre, half size, texture.
struct Box3(&'static str, &'static str, u32, [f32; 3], [f32; 3], &'static str);

fn t3d(boxes: &[Box3]) -> String {
    let mut t = String::from("Begin Map\r\n");
    for (i, Box3(class, oper, flags, at, half, texture)) in boxes.iter().enumerate() {
        let _ = write!(t, "Begin Actor Class={class} Name={class}{i}\r\n   CsgOper={oper}\r\n");
        if *flags != 0 {
            let _ = write!(t, "   PolyFlags={flags}\r\n");
        }
        let _ = write!(
            t,
            "   Location=(X={},Y={},Z={})\r\n   Begin Brush Name=Model{i}\r\n      Begin PolyList\r\n",
            at[0], at[1], at[2]
        );
        for face in box_faces(*half) {
            let _ = write!(t, "         Begin Polygon Texture={texture}\r\n");
            for v in face {
                let _ = write!(
                    t,
                    "            Vertex   {:+013.6},{:+013.6},{:+013.6}\r\n",
                    v[0], v[1], v[2]
                );
            }
            t.push_str("         End Polygon\r\n");
        }
        t.push_str("      End PolyList\r\n   End Brush\r\nEnd Actor\r\n");
    }
    t.push_str("End Map\r\n");
    t
}

/// The built surfaces' area by texture and facing axis.
fn summary(text: &str) -> String {
    let brushes = brushes_of_t3d(text, None);
    let level = build(&brushes, false);
    let mut by: BTreeMap<(String, String), f64> = BTreeMap::new();
    for s in &level.surfaces {
        let axis = ["X", "Y", "Z"]
            .iter()
            .enumerate()
            .find(|(i, _)| s.normal[*i].abs() > 0.99)
            .map_or("?".to_owned(), |(i, a)| {
                format!("{}{a}", if s.normal[i] > 0.0 { "+" } else { "-" })
            });
        *by.entry((s.texture.clone(), axis)).or_default() += polygon_area(&s.vertices);
    }
    let mut out = format!("{} brushes, {} surfaces:", level.brushes, level.surfaces.len());
    for ((texture, axis), area) in by {
        let _ = write!(out, " {texture} {axis} {area:.0};");
    }
    out
}

#[test]
fn rules() {
    let cases: Vec<(&str, Vec<Box3>)> = vec![
        (
            "a subtracted room: six faces looking in",
            vec![Box3("Brush", "CSG_Subtract", 0, [0.0; 3], [128.0; 3], "Wall")],
        ),
        (
            "two overlapping rooms: one room of their union",
            vec![
                Box3("Brush", "CSG_Subtract", 0, [0.0; 3], [128.0; 3], "Wall"),
                Box3("Brush", "CSG_Subtract", 0, [128.0, 0.0, 0.0], [128.0; 3], "Wall"),
            ],
        ),
        (
            "a pillar added in a room, standing on its floor: the floor under it goes",
            vec![
                Box3("Brush", "CSG_Subtract", 0, [0.0; 3], [128.0; 3], "Wall"),
                Box3("Brush", "CSG_Add", 0, [0.0, 0.0, -96.0], [32.0; 3], "Pillar"),
            ],
        ),
        (
            "a room subtracted again on the same faces: the first room's textures stay",
            vec![
                Box3("Brush", "CSG_Subtract", 0, [0.0; 3], [128.0; 3], "Old"),
                Box3("Brush", "CSG_Subtract", 0, [0.0; 3], [128.0; 3], "New"),
            ],
        ),
        (
            "a block added on the same faces as a block: the later one's textures win",
            vec![
                Box3("Brush", "CSG_Subtract", 0, [0.0; 3], [256.0; 3], "Wall"),
                Box3("Brush", "CSG_Add", 0, [0.0; 3], [64.0; 3], "Old"),
                Box3("Brush", "CSG_Add", 0, [0.0; 3], [64.0; 3], "New"),
            ],
        ),
        (
            "a semisolid block cuts nothing: the room's floor stays whole under it",
            vec![
                Box3("Brush", "CSG_Subtract", 0, [0.0; 3], [128.0; 3], "Wall"),
                Box3("Brush", "CSG_Add", 0x20, [0.0, 0.0, -96.0], [32.0; 3], "Semi"),
            ],
        ),
        (
            "a non-solid sheet-like block: its faces stay, nothing is cut",
            vec![
                Box3("Brush", "CSG_Subtract", 0, [0.0; 3], [128.0; 3], "Wall"),
                Box3("Brush", "CSG_Add", 0x8, [0.0; 3], [32.0; 3], "Water"),
            ],
        ),
        (
            "a semisolid block is applied after the structural brushes, whatever its place",
            vec![
                Box3("Brush", "CSG_Add", 0x20, [0.0; 3], [32.0; 3], "Semi"),
                Box3("Brush", "CSG_Subtract", 0, [0.0; 3], [128.0; 3], "Wall"),
            ],
        ),
        (
            "movers and brushes without CsgOper take no part",
            vec![
                Box3("Brush", "CSG_Subtract", 0, [0.0; 3], [128.0; 3], "Wall"),
                Box3("Mover", "CSG_Add", 0, [0.0; 3], [32.0; 3], "Door"),
                Box3("Brush", "CSG_Active", 0, [0.0; 3], [32.0; 3], "Builder"),
            ],
        ),
        (
            "an addition into solid world builds nothing",
            vec![Box3("Brush", "CSG_Add", 0, [0.0; 3], [64.0; 3], "Lost")],
        ),
    ];
    let mut out = String::new();
    for (name, boxes) in &cases {
        let _ = writeln!(out, "{name}\n  {}", summary(&t3d(boxes)));
    }
    expect_test::expect_file!["snapshots/csg_rules.txt"].assert_eq(&out);
}

/// A built map written by the project's writer, in UE1's layout and UE2's: the brushes read
/// from the package and built match the level model written as the engine would have built
/// it.
#[test]
fn package_map_against_its_level_model() {
    for version in [69, 128] {
        package_map_against_its_level_model_at(version);
    }
}

/// The faces of a room of half-size `half` carved out of the world, looking in, raised by `dz`
/// to where its brush stands.
fn carved_faces(half: [f32; 3], dz: f32) -> Vec<Vec<[f32; 3]>> {
    box_faces(half)
        .into_iter()
        .map(|mut f| {
            f.reverse();
            f.into_iter().map(|v| [v[0], v[1], v[2] + dz]).collect()
        })
        .collect()
}

fn package_map_against_its_level_model_at(version: u16) {
    let room: Vec<LevelPoly> = carved_faces([128.0, 128.0, 64.0], 64.0)
        .into_iter()
        .map(|vertices| LevelPoly { vertices, texture: "Wall" })
        .collect();
    let brushes = [
        MapBrush {
            class: "Brush",
            csg_oper: 2,
            poly_flags: 0,
            location: [0.0, 0.0, 64.0],
            half: [128.0, 128.0, 64.0],
            texture: "Wall",
        },
        MapBrush {
            class: "Mover",
            csg_oper: 1,
            poly_flags: 0,
            location: [0.0; 3],
            half: [16.0; 3],
            texture: "Door",
        },
    ];
    let bytes = map_package(version, &brushes, &room);
    let p = unreal_formats::Package::parse(&bytes).unwrap();
    let map = package::read_built_map(&p).unwrap();
    assert_eq!(map.left_out, vec!["Mover1: class Mover".to_owned()]);
    let level = build(&map.brushes, map.root_outside);
    let c = compare::compare(&map.engine, &compare::built_polygons(&level, &map.brushes));
    assert_eq!(
        format!("{:.3} {:.3} {:.0}", c.matched_percent(), c.extra_percent(), c.engine_area),
        "100.000 0.000 262144"
    );
    // A level model that differs (one face textured otherwise) is found out.
    let mut other = room.clone();
    other[4].texture = "Ceiling";
    let bytes = map_package(version, &brushes, &other);
    let p = unreal_formats::Package::parse(&bytes).unwrap();
    let map = package::read_built_map(&p).unwrap();
    let c = compare::compare(
        &map.engine,
        &compare::built_polygons(&build(&map.brushes, false), &map.brushes),
    );
    assert_eq!(format!("{:.1} {:.1}", c.matched_percent(), c.extra_percent()), "75.0 25.0");
    assert_eq!(c.missing[0].texture, "Ceiling");
}

/// Input a map should never hold: nothing panics, nothing is built from it, and a long
/// stack of rooms (a deep, thin tree) is walked without recursion.
#[test]
fn hostile_brushes_build_without_panicking() {
    use unreal_assets::csg::bsp::Oper;
    use unreal_assets::csg::{BrushPoly, CsgBrush};
    let poly = |vertices: Vec<[f64; 3]>| BrushPoly {
        vertices,
        texture: "T".into(),
        poly_flags: 0,
        mapping: None,
        source: None,
        link: None,
    };
    let strange = CsgBrush {
        name: "Strange".into(),
        oper: Oper::Subtract,
        poly_flags: 0,
        polys: vec![
            poly(vec![]),
            poly(vec![[0.0; 3], [1.0, 0.0, 0.0]]),
            poly(vec![[0.0; 3], [1.0, 0.0, 0.0], [2.0, 0.0, 0.0]]),
            poly(vec![[f64::NAN; 3], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]),
            poly(vec![[f64::INFINITY, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]),
            poly(vec![[0.0; 3]; 40]),
        ],
    };
    let level = build(&[strange], false);
    assert!(level.surfaces.iter().all(|s| s.vertices.iter().flatten().all(|c| c.is_finite())));
    // 400 rooms stacked along Z, each 2 units high: every new room cuts the one below.
    let rooms: Vec<CsgBrush> = (0..400)
        .map(|i| {
            let z = f64::from(i) * 2.0;
            let faces = box_faces([64.0, 64.0, 1.5]);
            CsgBrush {
                name: format!("Room{i}"),
                oper: Oper::Subtract,
                poly_flags: 0,
                polys: faces
                    .into_iter()
                    .map(|f| {
                        poly(
                            f.iter()
                                .map(|v| [f64::from(v[0]), f64::from(v[1]), f64::from(v[2]) + z])
                                .collect(),
                        )
                    })
                    .collect(),
            }
        })
        .collect();
    let level = build(&rooms, false);
    // One room 128 x 128 x 801 high: its four walls and its floor and ceiling.
    let area = level.area();
    assert!((area - (4.0 * 128.0 * 801.0 + 2.0 * 128.0 * 128.0)).abs() < 1.0, "{area}");
}

/// The build's work (BSP nodes visited, `BuiltLevel::work`: what its time grows with, the
/// same on every machine) on grids of rooms, with walls between them and opening into one
/// another (their sides on shared planes, the grid of issue 43 item 3, whose time grew 5.8x
/// each time its rooms doubled): four times the rooms, at most 2.5 times the work per brush
/// polygon. The world's tree, built as the engine builds it, grows as deep as the grid is
/// wide, so each room's polygons go down about twice as far (2x); a build that walked the
/// whole world for each room would do 4x.
#[test]
fn the_work_on_a_grid_grows_near_linearly_with_its_rooms() {
    for wall in [64.0, 0.0] {
        let per_polygon = |rooms: usize| {
            let brushes = brushes_of_t3d(&unreal_mapgen::csg::room_grid(rooms, wall), None);
            let level = build(&brushes, false);
            assert_eq!(level.stopped, None);
            level.work as f64 / (rooms * 6) as f64
        };
        let (small, large) = (per_polygon(250), per_polygon(1000));
        assert!(
            large / small < 2.5,
            "walls {wall}: {small:.1} visits a polygon for 250 rooms, {large:.1} for 1,000"
        );
    }
}

/// Brush lists no level holds stop at the build's bounds, naming the brush they reached, with
/// the work done bounded: cubes nested in one another (each goes down through all the ones
/// before it: the work grows as their square), here against a bound of a million visits, and
/// nested cubes with faces wound both ways (their cuts multiply the nodes) against the
/// bounds every build has.
#[test]
fn crafted_brush_lists_stop_at_the_bounds_naming_the_brush() {
    use unreal_assets::csg::{build_limited, Limits};
    let nested = brushes_of_t3d(&unreal_mapgen::csg::nested_cubes(300), None);
    let limits = Limits { work: 1_000_000, ..Limits::for_brushes(&nested) };
    let level = build_limited(&nested, false, limits, &|| false);
    let stopped = level.stopped.expect("300 nested cubes pass a million visits");
    assert!(!stopped.cancelled);
    assert!(stopped.work > 1_000_000 && stopped.work_limit == 1_000_000, "{stopped:?}");
    assert!(level.work < 2_000_000, "{} visits", level.work);
    let at: usize = stopped.brush.trim_start_matches("Brush").parse().unwrap();
    assert!(at > 0 && at < 300, "{stopped:?}");
    let message = stopped.to_string();
    assert!(message.contains(&format!("brush `Brush{at}`")), "{message}");
    assert!(message.contains("past the bound of 1000000"), "{message}");
    assert!(message.contains("nested in one another"), "{message}");
    // Without the bound the same cubes build: the bound, not the build, stopped it.
    // (Every face is kept whole; the tree built anew after the structural brushes splits
    // them into more pieces, as the engine's does.)
    let level = build(&nested, false);
    assert_eq!(level.stopped, None);
    let faces: f64 = nested.iter().flat_map(|b| &b.polys).map(|p| polygon_area(&p.vertices)).sum();
    let built: f64 = level.surfaces.iter().map(|s| polygon_area(&s.vertices)).sum();
    assert!((built - faces).abs() < 1e-6 * faces, "{built} of {faces}");
    assert!(level.surfaces.len() >= 300 * 6);

    let mixed = brushes_of_t3d(&unreal_mapgen::csg::nested_cubes_mixed_windings(150, 1), None);
    let limits = Limits::for_brushes(&mixed);
    let level = build(&mixed, false);
    let stopped = level.stopped.expect("150 nested cubes wound both ways pass the node bound");
    assert!(stopped.nodes > limits.nodes && stopped.limit == limits.nodes, "{stopped:?}");
    assert!(level.work <= limits.work, "{} visits", level.work);
    assert!(stopped.to_string().contains(&format!("brush `{}`", stopped.brush)), "{stopped}");
}

/// A brush of triangles that cross one another: its own tree (which `bspBrushCSG` builds to
/// filter the world through) would make millions of nodes (2,000 such triangles: 15 million
/// in 21 s). Built solid after a room, it stops the build at the work bound, naming it, with
/// the work bounded; as a semisolid brush whose tree the stale-level search would build, the
/// tree is refused past its budget and given within it.
#[test]
fn a_brush_whose_faces_cross_each_other_stops_at_the_bound() {
    use unreal_assets::csg::bsp::Oper;
    use unreal_assets::csg::{build_limited, solid_bsp_of, BrushPoly, CsgBrush, Limits};
    let mut rng = unreal_mapgen::Rng::new(1);
    let mut coordinate = move || rng.unit() * 512.0 - 256.0;
    let soup: Vec<BrushPoly> = (0..1_000)
        .map(|_| BrushPoly {
            vertices: (0..3).map(|_| [coordinate(), coordinate(), coordinate()]).collect(),
            texture: "Soup".into(),
            poly_flags: 0,
            mapping: None,
            source: None,
            link: None,
        })
        .collect();
    let room = brushes_of_t3d(
        &t3d(&[Box3("Brush", "CSG_Subtract", 0, [0.0; 3], [512.0; 3], "Wall")]),
        None,
    );
    let mut brushes = room.clone();
    brushes.push(CsgBrush { name: "Soup".into(), oper: Oper::Add, poly_flags: 0, polys: soup });
    let limits = Limits { work: 2_000_000, ..Limits::for_brushes(&brushes) };
    let level = build_limited(&brushes, false, limits, &|| false);
    let stopped = level.stopped.expect("the crossing triangles pass two million steps");
    assert_eq!(stopped.brush, "Soup");
    assert!(level.work < 4_000_000, "{} steps", level.work);

    let semisolid = CsgBrush { poly_flags: 0x20, ..brushes.pop().unwrap() };
    assert!(solid_bsp_of(&semisolid, 2_000_000).is_none());
    let cube = &room[0];
    let tree = solid_bsp_of(cube, 2_000_000).expect("a cube's tree is small");
    assert_eq!(tree.nodes.len(), 6);
}

/// A built map whose stored level lacks the floor under a semisolid block: the block was solid
/// when the level was last built (a semisolid addition never cuts the world), and `check`
/// names it, with the build that gives the stored level. Lacking only part of that floor, it
/// is named without such a build; a gap that runs on beyond the block names nothing, and
/// neither does the floor under the block stored, as a build of the semisolid block leaves
/// it.
#[test]
fn a_level_built_while_a_semisolid_brush_was_solid_names_the_brush() {
    let room_half = [256.0, 256.0, 64.0];
    let shift = |f: Vec<[f32; 3]>, dz: f32| -> Vec<[f32; 3]> {
        f.into_iter().map(|v| [v[0], v[1], v[2] + dz]).collect()
    };
    let room_faces = carved_faces(room_half, 64.0);
    // The room's floor (z = 0, facing up) and its part around the block's footprint, as four
    // rectangles wound as the floor is.
    let floor = room_faces[5].clone();
    let rect = |x0: f32, x1: f32, y0: f32, y1: f32| -> Vec<[f32; 3]> {
        floor
            .iter()
            .map(|v| [if v[0] < 0.0 { x0 } else { x1 }, if v[1] < 0.0 { y0 } else { y1 }, v[2]])
            .collect()
    };
    let block_faces: Vec<LevelPoly> = box_faces([32.0, 32.0, 16.0])
        .into_iter()
        .take(5) // every face but the bottom, which lies on the floor facing it
        .map(|f| LevelPoly { vertices: shift(f, 16.0), texture: "Crate" })
        .collect();
    let walls = || -> Vec<LevelPoly> {
        room_faces[..5].iter().map(|f| LevelPoly { vertices: f.clone(), texture: "Wall" }).collect()
    };
    let brushes = [
        MapBrush {
            class: "Brush",
            csg_oper: 2,
            poly_flags: 0,
            location: [0.0, 0.0, 64.0],
            half: room_half,
            texture: "Wall",
        },
        MapBrush {
            class: "Brush",
            csg_oper: 1,
            poly_flags: 0x20,
            location: [0.0, 0.0, 16.0],
            half: [32.0, 32.0, 16.0],
            texture: "Crate",
        },
    ];
    let check_with = |level: Vec<LevelPoly>| {
        let bytes = map_package(69, &brushes, &level);
        let p = unreal_formats::Package::parse(&bytes).unwrap();
        package::check(&p).unwrap()
    };

    let mut as_solid = walls();
    as_solid.extend(
        [
            rect(-256.0, -32.0, -256.0, 256.0),
            rect(32.0, 256.0, -256.0, 256.0),
            rect(-32.0, 32.0, -256.0, -32.0),
            rect(-32.0, 32.0, 32.0, 256.0),
        ]
        .into_iter()
        .map(|vertices| LevelPoly { vertices, texture: "Wall" }),
    );
    as_solid.extend(block_faces.clone());
    let stale = check_with(as_solid);
    let c = &stale.comparison;
    assert_eq!(format!("{:.3} {:.3}", c.matched_percent(), c.extra_percent()), "100.000 0.515");
    let found = stale.stale_semisolid.as_ref().expect("the block is found");
    // The floor under the block's 64 by 64 footprint.
    assert_eq!(found.lacking.len(), 1);
    assert_eq!(found.lacking[0].brush, "Brush1");
    assert!((found.lacking[0].area - 4096.0).abs() < 0.01, "{:?}", found.lacking);
    assert_eq!(format!("{:.3}", found.extra_percent(c)), "0.000");
    let solid = found.as_solid.as_ref().expect("built solid, the block gives the stored level");
    assert_eq!(solid.brushes, vec!["Brush1".to_owned()]);
    let c = &solid.comparison;
    assert_eq!(format!("{:.3} {:.3}", c.matched_percent(), c.extra_percent()), "100.000 0.000");
    let said = stale.to_string();
    assert!(
        said.contains("inside 1 semisolid brush") && said.contains("Brush1 (4096 units²)"),
        "{said}"
    );
    assert!(said.contains("built solid, Brush1 gives the stored level"), "{said}");

    // Stored without the floor under the block's west half only (the block cut a world whose
    // tree split the floor there): the gap lies inside the block, so it is named, but no build
    // with the block solid gives that level.
    let mut half_cut = walls();
    half_cut.extend(
        [
            rect(-256.0, -32.0, -256.0, 256.0),
            rect(0.0, 256.0, -256.0, 256.0),
            rect(-32.0, 0.0, -256.0, -32.0),
            rect(-32.0, 0.0, 32.0, 256.0),
        ]
        .into_iter()
        .map(|vertices| LevelPoly { vertices, texture: "Wall" }),
    );
    half_cut.extend(block_faces.clone());
    let partly = check_with(half_cut);
    let found = partly.stale_semisolid.as_ref().expect("the block is found");
    assert!((found.lacking_area - 2048.0).abs() < 0.01, "{:?}", found.lacking);
    assert!(found.as_solid.is_none());
    assert!(!partly.to_string().contains("built solid"), "{partly}");

    // Stored without a strip of floor that runs through the block and on beyond it: the gap
    // does not follow the block, and nothing is named.
    let mut crossing = walls();
    crossing.extend(
        [rect(-256.0, -16.0, -256.0, 256.0), rect(16.0, 256.0, -256.0, 256.0)]
            .into_iter()
            .map(|vertices| LevelPoly { vertices, texture: "Wall" }),
    );
    crossing.extend(block_faces.clone());
    let strip = check_with(crossing);
    assert!(strip.comparison.extra_percent() > 0.01);
    assert!(strip.stale_semisolid.is_none());

    let mut as_semisolid = walls();
    as_semisolid.push(LevelPoly { vertices: floor.clone(), texture: "Wall" });
    as_semisolid.extend(block_faces);
    let kept = check_with(as_semisolid);
    let c = &kept.comparison;
    assert_eq!(format!("{:.3} {:.3}", c.matched_percent(), c.extra_percent()), "100.000 0.000");
    assert!(kept.stale_semisolid.is_none());
}

/// Polygons of a brush linked to an earlier one (`iLink`, as `bspValidateBrush` links the
/// coplanar faces of one texture) share its world surface, as `bspBrushCSG` gives them: a
/// floor written as two halves comes back as one polygon once the tree is built anew (the
/// pieces of one surface are merged there), and as two when each half has its own surface.
#[test]
fn linked_polygons_share_a_surface_and_merge_back() {
    use unreal_assets::csg::bsp::Oper;
    use unreal_assets::csg::{BrushPoly, CsgBrush};
    let faces = box_faces([128.0, 128.0, 64.0]);
    let poly = |vertices: Vec<[f64; 3]>, link: Option<usize>| BrushPoly {
        vertices,
        texture: "Floor".into(),
        poly_flags: 0,
        mapping: None,
        source: None,
        link,
    };
    let wide = |f: &[[f32; 3]]| f.iter().map(|v| v.map(f64::from)).collect::<Vec<_>>();
    // The bottom face's half from `lo` to `hi` along X, wound as the face is.
    let half = |lo: f64, hi: f64| {
        faces[5]
            .iter()
            .map(|v| [if v[0] > 0.0 { hi } else { lo }, f64::from(v[1]), f64::from(v[2])])
            .collect::<Vec<_>>()
    };
    let room = |link: Option<usize>| CsgBrush {
        name: "Room".into(),
        oper: Oper::Subtract,
        poly_flags: 0,
        polys: faces[..5]
            .iter()
            .map(|f| poly(wide(f), None))
            .chain([poly(half(0.0, 128.0), None), poly(half(-128.0, 0.0), link)])
            .collect(),
    };
    let floors = |link: Option<usize>| {
        let level = build(&[room(link)], false);
        let floor: Vec<_> = level.surfaces.iter().filter(|s| s.normal[2] > 0.9).collect();
        let area: f64 = floor.iter().map(|s| polygon_area(&s.vertices)).sum();
        (floor.len(), area.round(), floor.iter().map(|s| s.brush_poly).collect::<Vec<_>>())
    };
    assert_eq!(floors(None), (2, 65536.0, vec![5, 6]));
    assert_eq!(floors(Some(5)), (1, 65536.0, vec![5]));
}

/// Which surface a linked polygon's nodes get is decided as the brush is added
/// (`bspBrushCSG`, UT v400, UT2004 and Unreal v1.200 `Editor/Src/UnBsp.cpp`): a polygon that
/// links to itself takes the index the world's next surface will have, made only when a piece
/// of it is kept; one linked to it takes that index. So a face linked to a face that lies
/// wholly in solid (a pillar's bottom under the floor) gets the surface of the next face that
/// keeps a piece: its texture (and plane), as stock UT99 DM-Pyramid stores a rock's face.
#[test]
fn a_face_linked_to_a_face_kept_nowhere_takes_the_next_kept_faces_surface() {
    use unreal_assets::csg::bsp::Oper;
    use unreal_assets::csg::{BrushPoly, CsgBrush};
    let wide = |f: &[[f32; 3]], dz: f64| -> Vec<[f64; 3]> {
        f.iter().map(|v| [f64::from(v[0]), f64::from(v[1]), f64::from(v[2]) + dz]).collect()
    };
    let poly = |vertices: Vec<[f64; 3]>, texture: &str, link: Option<usize>| BrushPoly {
        vertices,
        texture: texture.into(),
        poly_flags: 0,
        mapping: None,
        source: None,
        link,
    };
    let room = CsgBrush {
        name: "Room".into(),
        oper: Oper::Subtract,
        poly_flags: 0,
        polys: box_faces([256.0; 3]).iter().map(|f| poly(wide(f, 0.0), "Wall", None)).collect(),
    };
    // A pillar through the floor (z = -256): from -320 to -192. Its bottom first, its west
    // side, top, north and south sides, then its east side, linked to the bottom. (The west
    // side shares no edge with the east one: the pieces of one surface merge where they do.)
    let pillar = |east_link: Option<usize>| {
        let faces = box_faces([32.0, 32.0, 64.0]);
        let at = |i: usize| wide(&faces[i], -256.0);
        CsgBrush {
            name: "Pillar".into(),
            oper: Oper::Add,
            poly_flags: 0,
            polys: vec![
                poly(at(5), "Bottom", None),
                poly(at(1), "West", None),
                poly(at(4), "Top", None),
                poly(at(2), "Side", None),
                poly(at(3), "Side", None),
                poly(at(0), "Side", east_link),
            ],
        }
    };
    let textures = |east_link: Option<usize>| {
        let level = build(&[room.clone(), pillar(east_link)], false);
        let mut by: BTreeMap<String, f64> = BTreeMap::new();
        for s in level.surfaces.iter().filter(|s| s.brush == 1) {
            *by.entry(s.texture.clone()).or_default() += polygon_area(&s.vertices);
        }
        by.into_iter().map(|(t, a)| format!("{t} {a:.0}")).collect::<Vec<_>>()
    };
    // Each face its own: the top and the four sides' parts above the floor.
    assert_eq!(textures(None), ["Side 12288", "Top 4096", "West 4096"]);
    // Linked to the bottom, which keeps nothing: the east side is built in the surface the
    // west side made at the index the bottom took.
    assert_eq!(textures(Some(0)), ["Side 8192", "Top 4096", "West 8192"]);
}

/// Two carved rooms, `Wall` at the origin and `Rock` 1024 units along X, as brushes.
fn two_rooms() -> [MapBrush; 2] {
    let half = [128.0, 128.0, 64.0];
    [
        MapBrush::carved(half, "Wall"),
        MapBrush { location: [1024.0, 0.0, 0.0], ..MapBrush::carved(half, "Rock") },
    ]
}

/// `info --csg`'s check of [`two_rooms`] whose stored level is `level` (each polygon naming
/// the brush that made it) and whose level's actors leave out the brushes `deleted` names.
fn two_rooms_check(level: &[(LevelPoly, usize)], deleted: &[usize]) -> package::CsgCheck {
    let bytes = map_package_naming(69, &two_rooms(), level, deleted);
    let p = unreal_formats::Package::parse(&bytes).unwrap();
    package::check(&p).unwrap()
}

/// A room of half-size `half` moved `shift` along X, as [`two_rooms`]' brush `brush` stores it.
fn stored_room(half: [f32; 3], shift: f32, brush: usize) -> Vec<(LevelPoly, usize)> {
    let texture = if brush == 0 { "Wall" } else { "Rock" };
    carved_room(half, shift, texture).into_iter().map(|p| (p, brush)).collect()
}

/// A brush deleted after the last build: its actor stays in the file (the level's surfaces
/// refer to it) but not among the level's actors. Its surfaces are named as a deleted
/// brush's, the figures given without them, and the level built with it read back gives the
/// stored one; a map whose brushes are all held says nothing of the kind.
#[test]
fn a_brush_deleted_since_the_last_build_is_named_and_read_back() {
    let half = [128.0, 128.0, 64.0];
    let level = [stored_room(half, 0.0, 0), stored_room(half, 1024.0, 1)].concat();
    let check = two_rooms_check(&level, &[1]);
    let text = check.to_string();
    assert!(text.contains("against the stored BSP: 50.000% matched, 0.000% extra"), "{text}");
    assert!(
        text.contains("the stored level holds 262144 units² of 1 brush the map's level no longer has: Brush1 (262144 units²)"),
        "{text}"
    );
    assert!(text.contains("without that area: 100.000% matched, 0.000% extra"), "{text}");
    assert!(text.contains("it gives the stored level: 100.000% matched, 0.000% extra"), "{text}");
    let whole = two_rooms_check(&level, &[]);
    assert!(whole.deleted.is_none(), "{whole}");
    assert!(whole.to_string().contains("100.000% matched, 0.000% extra"), "{whole}");
}

/// A brush moved since the last build: its stored surfaces lie 40 units from where it builds
/// them. Named with how far it moved, when the level built with it moved back is the stored
/// one; a stored level that is not the brush's shape moved (a room of another size) names
/// nothing.
#[test]
fn a_brush_moved_since_the_last_build_is_named_when_moving_it_back_gives_the_stored_level() {
    let half = [128.0, 128.0, 64.0];
    let moved =
        two_rooms_check(&[stored_room(half, 0.0, 0), stored_room(half, 1064.0, 1)].concat(), &[]);
    let text = moved.to_string();
    assert!(
        text.contains("a brush moved since the level was last built: Brush1 by (-40, 0, 0)"),
        "{text}"
    );
    assert!(text.contains("it gives the stored level: 100.000% matched, 0.000% extra"), "{text}");
    let narrower = [120.0, 128.0, 64.0];
    let other = two_rooms_check(
        &[stored_room(half, 0.0, 0), stored_room(narrower, 1024.0, 1)].concat(),
        &[],
    );
    assert!(other.moved.is_none(), "{other}");
}

/// A built map with no brush and an empty stored BSP: nothing on either side to compare, said
/// so rather than as a perfect match.
#[test]
fn an_empty_level_is_said_to_have_nothing_to_compare() {
    let bytes = map_package(69, &[], &[]);
    let p = unreal_formats::Package::parse(&bytes).unwrap();
    let check = package::check(&p).unwrap();
    let text = check.to_string();
    assert!(text.contains("against the stored BSP: both are empty, nothing to compare"), "{text}");
    assert!(!text.contains("matched"), "{text}");
}
