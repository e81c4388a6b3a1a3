//! The generator's maps are what UnrealEd would write: checked here with a small reader of
//! our own, independent of the project's parser, so that a parser bug and a generator bug
//! cannot hide each other.

#![allow(clippy::unwrap_used, clippy::many_single_char_names, clippy::needless_raw_string_hashes)]

use std::collections::HashSet;

use expect_test::expect;
use unreal_mapgen::{generate_map, parse_size, polygon_normal, Vec3};

fn parse_vector(text: &str) -> Vec3 {
    let parts: Vec<&str> = text.split(',').collect();
    assert_eq!(parts.len(), 3, "vector `{text}`");
    for part in &parts {
        assert_eq!(part.len(), 13, "`{part}` is not %+013.6f");
        assert!(part.starts_with(['+', '-']), "`{part}` has no sign");
    }
    let f = |s: &str| s.parse::<f64>().unwrap();
    Vec3::new(f(parts[0]), f(parts[1]), f(parts[2]))
}

/// UnrealEd's layout: actor lines at 0, properties at 5, the brush at 4 and three more
/// for each level inside it.
fn expected_indent(parent: Option<&str>, text: &str) -> usize {
    let closing = text.starts_with("End ");
    match parent {
        None | Some("Map") => 0,
        Some("Actor") if closing => 0,
        Some("Actor") if text.starts_with("Begin Brush") => 4,
        Some("Actor") => 5,
        Some(block) => {
            let depth = ["Brush", "PolyList", "Polygon"].iter().position(|b| *b == block);
            let depth = depth.unwrap_or_else(|| panic!("unexpected block {block}"));
            4 + 3 * (depth + usize::from(!closing))
        }
    }
}

/// Checks one map and returns (actors, polygons).
fn check_map(map: &str) -> (usize, usize) {
    assert!(map.ends_with("End Map\r\n"));
    assert!(!map.replace("\r\n", "").contains('\n'), "every line ends in CRLF");
    let mut stack: Vec<String> = Vec::new();
    let mut names = HashSet::new();
    let mut models = HashSet::new();
    let mut references = Vec::new();
    let (mut actors, mut polygons) = (0, 0);
    let mut polygon: Option<(Vec3, Vec3, Vec3, Vec<Vec3>)> = None;
    for line in map.split("\r\n").filter(|l| !l.is_empty()) {
        let indent = line.len() - line.trim_start().len();
        let text = line.trim_start();
        let expected_indent = expected_indent(stack.last().map(String::as_str), text);
        assert_eq!(indent, expected_indent, "indentation of `{line}`");
        if let Some(rest) = text.strip_prefix("Begin ") {
            let kind = rest.split(' ').next().unwrap().to_owned();
            if kind == "Actor" {
                actors += 1;
                let name = rest.split("Name=").nth(1).unwrap().to_owned();
                assert!(names.insert(name.to_ascii_lowercase()), "duplicate name {name}");
            }
            if kind == "Brush" {
                models.insert(rest.split("Name=").nth(1).unwrap().to_owned());
            }
            if kind == "Polygon" {
                polygon = Some((Vec3::default(), Vec3::default(), Vec3::default(), Vec::new()));
            }
            stack.push(kind);
        } else if let Some(kind) = text.strip_prefix("End ") {
            assert_eq!(stack.pop().as_deref(), Some(kind), "unbalanced `{line}`");
            if kind == "Polygon" {
                let (normal, u, v, vertices) = polygon.take().unwrap();
                polygons += 1;
                check_polygon(normal, u, v, &vertices);
            }
        } else if let Some(p) = polygon.as_mut() {
            let (key, value) = text.split_once(' ').unwrap();
            match key {
                "Normal" => p.0 = parse_vector(value.trim_start()),
                "TextureU" => p.1 = parse_vector(value.trim_start()),
                "TextureV" => p.2 = parse_vector(value.trim_start()),
                "Vertex" => p.3.push(parse_vector(value.trim_start())),
                "Origin" => {
                    parse_vector(value.trim_start());
                }
                "Pan" => assert!(value.trim_start().starts_with("U=")),
                other => panic!("unknown polygon line {other}"),
            }
        } else if let Some(model) = text.strip_prefix("Brush=Model'MyLevel.") {
            references.push(model.trim_end_matches('\'').to_owned());
        }
    }
    assert!(stack.is_empty());
    for model in references {
        assert!(models.contains(&model), "Brush= names no brush: {model}");
    }
    (actors, polygons)
}

fn check_polygon(normal: Vec3, u: Vec3, v: Vec3, vertices: &[Vec3]) {
    assert!((3..=16).contains(&vertices.len()));
    let computed = polygon_normal(vertices);
    assert!(computed.minus(normal).length() < 1e-4, "normal {normal:?} vs {computed:?}");
    for vertex in vertices {
        let distance = vertex.minus(vertices[0]).dot(computed);
        assert!(distance.abs() < 0.1, "vertex {distance} units off the plane");
    }
    let n = vertices.len();
    for i in 0..n {
        let (a, b, c) = (vertices[i], vertices[(i + 1) % n], vertices[(i + 2) % n]);
        let turn = b.minus(a).cross(c.minus(b)).dot(computed);
        assert!(turn > 1e-6, "not convex (or collinear) at vertex {}", (i + 1) % n);
    }
    assert!(
        u.dot(v).abs() < 1e-4 * u.length() * v.length(),
        "TextureU and TextureV not perpendicular"
    );
    assert!(
        u.dot(computed).abs() < 1e-4 && v.dot(computed).abs() < 1e-4,
        "texture axes off the plane"
    );
}

#[test]
fn maps_are_valid_and_deterministic() {
    for seed in [0, 1, 42, u64::MAX] {
        let map = generate_map(300_000, seed);
        assert!(map.len() >= 300_000 && map.len() < 320_000, "size {}", map.len());
        let (actors, polygons) = check_map(&map);
        assert!(actors > 100 && polygons > 300, "{actors} actors, {polygons} polygons");
        assert_eq!(map, generate_map(300_000, seed));
    }
    assert_ne!(generate_map(10_000, 1), generate_map(10_000, 2));
}

#[test]
fn tiny_target_still_gives_a_whole_map() {
    let map = generate_map(0, 3);
    check_map(&map);
    assert!(map.starts_with("Begin Map\r\nBegin Actor Class=LevelInfo Name=LevelInfo0\r\n"));
}

#[test]
fn sizes() {
    let parsed: Vec<Option<usize>> =
        ["10MB", "512KB", "1.5MiB", "4096", "2 GB", "1kib", "ten", "5TB", "-1MB"]
            .iter()
            .map(|s| parse_size(s))
            .collect();
    expect![[r#"
        [
            Some(
                10000000,
            ),
            Some(
                512000,
            ),
            Some(
                1572864,
            ),
            Some(
                4096,
            ),
            Some(
                2000000000,
            ),
            Some(
                1024,
            ),
            None,
            None,
            None,
        ]
    "#]]
    .assert_debug_eq(&parsed);
}

#[test]
fn layout_snapshot() {
    let map = generate_map(7000, 7).replace("\r\n", "\n");
    expect![[r#"
        Begin Map
        Begin Actor Class=LevelInfo Name=LevelInfo0
             TimeSeconds=135.605881
             Summary=LevelSummary'MyLevel.LevelSummary'
             Title="Synthetic"
             Author="unreal-mapgen"
             IdealPlayerCount="4-8"
             Level=LevelInfo'MyLevel.LevelInfo0'
             Tag="LevelInfo"
             Region=(Zone=LevelInfo'MyLevel.LevelInfo0',iLeaf=-1)
             Name="LevelInfo0"
        End Actor
        Begin Actor Class=Brush Name=Brush
             MainScale=(SheerAxis=SHEER_ZX)
             PostScale=(SheerAxis=SHEER_ZX)
             Level=LevelInfo'MyLevel.LevelInfo0'
             Tag="Brush"
             Region=(Zone=LevelInfo'MyLevel.LevelInfo0',iLeaf=-1)
             bSelected=True
            Begin Brush Name=Brush
               Begin PolyList
                  Begin Polygon
                     Origin   -00128.000000,-00128.000000,-00128.000000
                     Normal   -00001.000000,+00000.000000,+00000.000000
                     TextureU +00000.000000,+00001.000000,+00000.000000
                     TextureV +00000.000000,+00000.000000,-00001.000000
                     Vertex   -00128.000000,-00128.000000,-00128.000000
                     Vertex   -00128.000000,-00128.000000,+00128.000000
                     Vertex   -00128.000000,+00128.000000,+00128.000000
                     Vertex   -00128.000000,+00128.000000,-00128.000000
                  End Polygon
                  Begin Polygon
                     Origin   +00128.000000,-00128.000000,-00128.000000
                     Normal   +00001.000000,+00000.000000,+00000.000000
                     TextureU +00000.000000,-00001.000000,+00000.000000
                     TextureV +00000.000000,+00000.000000,-00001.000000
                     Vertex   +00128.000000,-00128.000000,-00128.000000
                     Vertex   +00128.000000,+00128.000000,-00128.000000
                     Vertex   +00128.000000,+00128.000000,+00128.000000
                     Vertex   +00128.000000,-00128.000000,+00128.000000
                  End Polygon
                  Begin Polygon
                     Origin   -00128.000000,-00128.000000,-00128.000000
                     Normal   +00000.000000,-00001.000000,+00000.000000
                     TextureU -00001.000000,-00000.000000,-00000.000000
                     TextureV +00000.000000,+00000.000000,-00001.000000
                     Vertex   -00128.000000,-00128.000000,-00128.000000
                     Vertex   +00128.000000,-00128.000000,-00128.000000
                     Vertex   +00128.000000,-00128.000000,+00128.000000
                     Vertex   -00128.000000,-00128.000000,+00128.000000
                  End Polygon
                  Begin Polygon
                     Origin   -00128.000000,+00128.000000,-00128.000000
                     Normal   +00000.000000,+00001.000000,+00000.000000
                     TextureU +00001.000000,-00000.000000,+00000.000000
                     TextureV +00000.000000,+00000.000000,-00001.000000
                     Vertex   -00128.000000,+00128.000000,-00128.000000
                     Vertex   -00128.000000,+00128.000000,+00128.000000
                     Vertex   +00128.000000,+00128.000000,+00128.000000
                     Vertex   +00128.000000,+00128.000000,-00128.000000
                  End Polygon
                  Begin Polygon
                     Origin   -00128.000000,-00128.000000,-00128.000000
                     Normal   +00000.000000,+00000.000000,-00001.000000
                     TextureU +00001.000000,+00000.000000,+00000.000000
                     TextureV +00000.000000,-00001.000000,+00000.000000
                     Vertex   -00128.000000,-00128.000000,-00128.000000
                     Vertex   -00128.000000,+00128.000000,-00128.000000
                     Vertex   +00128.000000,+00128.000000,-00128.000000
                     Vertex   +00128.000000,-00128.000000,-00128.000000
                  End Polygon
                  Begin Polygon
                     Origin   -00128.000000,-00128.000000,+00128.000000
                     Normal   +00000.000000,+00000.000000,+00001.000000
                     TextureU +00001.000000,+00000.000000,+00000.000000
                     TextureV +00000.000000,+00001.000000,+00000.000000
                     Vertex   -00128.000000,-00128.000000,+00128.000000
                     Vertex   +00128.000000,-00128.000000,+00128.000000
                     Vertex   +00128.000000,+00128.000000,+00128.000000
                     Vertex   -00128.000000,+00128.000000,+00128.000000
                  End Polygon
               End PolyList
            End Brush
             Brush=Model'MyLevel.Brush'
             Name="Brush"
        End Actor
        Begin Actor Class=Brush Name=Brush0
             CsgOper=CSG_Add
             MainScale=(SheerAxis=SHEER_ZX)
             PostScale=(SheerAxis=SHEER_ZX)
             Group="Cube"
             Level=LevelInfo'MyLevel.LevelInfo0'
             Tag="Brush"
             Region=(Zone=LevelInfo'MyLevel.LevelInfo0',iLeaf=1,ZoneNumber=1)
             Location=(X=-2784.000000,Y=5776.000000,Z=1760.000000)
            Begin Brush Name=Model0
               Begin PolyList
                  Begin Polygon Texture=Metalmys.Base.bsmt7
                     Origin   -00288.000000,-00344.000000,-00160.000000
                     Normal   -00001.000000,+00000.000000,+00000.000000
                     TextureU +00000.000000,+00001.000000,+00000.000000
                     TextureV +00000.000000,+00000.000000,-00001.000000
                     Vertex   -00288.000000,-00344.000000,-00160.000000
                     Vertex   -00288.000000,-00344.000000,+00160.000000
                     Vertex   -00288.000000,+00344.000000,+00160.000000
                     Vertex   -00288.000000,+00344.000000,-00160.000000
                  End Polygon
                  Begin Polygon Texture=Metalmys.Base.bsmt7
                     Origin   +00288.000000,-00344.000000,-00160.000000
                     Normal   +00001.000000,+00000.000000,+00000.000000
                     TextureU +00000.000000,-00001.000000,+00000.000000
                     TextureV +00000.000000,+00000.000000,-00001.000000
                     Vertex   +00288.000000,-00344.000000,-00160.000000
                     Vertex   +00288.000000,+00344.000000,-00160.000000
                     Vertex   +00288.000000,+00344.000000,+00160.000000
                     Vertex   +00288.000000,-00344.000000,+00160.000000
                  End Polygon
                  Begin Polygon Texture=Metalmys.Base.bsmt7
                     Origin   -00288.000000,-00344.000000,-00160.000000
                     Normal   +00000.000000,-00001.000000,+00000.000000
                     TextureU -00001.000000,-00000.000000,-00000.000000
                     TextureV +00000.000000,+00000.000000,-00001.000000
                     Vertex   -00288.000000,-00344.000000,-00160.000000
                     Vertex   +00288.000000,-00344.000000,-00160.000000
                     Vertex   +00288.000000,-00344.000000,+00160.000000
                     Vertex   -00288.000000,-00344.000000,+00160.000000
                  End Polygon
                  Begin Polygon Texture=Metalmys.Base.bsmt7
                     Origin   -00288.000000,+00344.000000,-00160.000000
                     Normal   +00000.000000,+00001.000000,+00000.000000
                     TextureU +00001.000000,-00000.000000,+00000.000000
                     TextureV +00000.000000,+00000.000000,-00001.000000
                     Vertex   -00288.000000,+00344.000000,-00160.000000
                     Vertex   -00288.000000,+00344.000000,+00160.000000
                     Vertex   +00288.000000,+00344.000000,+00160.000000
                     Vertex   +00288.000000,+00344.000000,-00160.000000
                  End Polygon
                  Begin Polygon Texture=Metalmys.Base.bsmt7 Link=4
                     Origin   -00288.000000,-00344.000000,-00160.000000
                     Normal   +00000.000000,+00000.000000,-00001.000000
                     TextureU +00001.000000,+00000.000000,+00000.000000
                     TextureV +00000.000000,-00001.000000,+00000.000000
                     Vertex   -00288.000000,-00344.000000,-00160.000000
                     Vertex   -00288.000000,+00344.000000,-00160.000000
                     Vertex   +00288.000000,+00344.000000,-00160.000000
                     Vertex   +00288.000000,-00344.000000,-00160.000000
                  End Polygon
                  Begin Polygon Texture=Metalmys.Base.bsmt7
                     Origin   -00288.000000,-00344.000000,+00160.000000
                     Normal   +00000.000000,+00000.000000,+00001.000000
                     TextureU +00001.000000,+00000.000000,+00000.000000
                     TextureV +00000.000000,+00001.000000,+00000.000000
                     Vertex   -00288.000000,-00344.000000,+00160.000000
                     Vertex   +00288.000000,-00344.000000,+00160.000000
                     Vertex   +00288.000000,+00344.000000,+00160.000000
                     Vertex   -00288.000000,+00344.000000,+00160.000000
                  End Polygon
               End PolyList
            End Brush
             Brush=Model'MyLevel.Model0'
             PrePivot=(X=112.000000,Y=-80.000000,Z=80.000000)
             Name="Brush0"
        End Actor
        End Map
    "#]]
    .assert_eq(&map);
}
