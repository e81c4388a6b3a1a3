//! UE2 terrain (`TerrainInfo`) read from synthetic packages laid out as
//! `ATerrainInfo::Serialize` writes them (UT2004's `Engine/Src/UnTerrain.cpp`): the vertices,
//! the quads the bitmaps draw and how each is split, and refusals of what is cut or does not
//! add up.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::float_cmp)]

use unreal_formats::package::Package;
use unreal_test_support::writers::{compact, write_props, Obj, PackageWriter, Prop};

/// A heightmap of 8 by 4 vertices (32: one bitmap word), each at `(x * 100, y * 100, x + y)`.
const WIDTH: i32 = 8;
const HEIGHT: i32 = 4;

/// The native part after the properties, for package version 128: no sectors, the
/// vertices, the sector counts, no face normals, the two coordinate systems, the heightmap
/// size and `vertex_colors` colours.
fn native(o: &mut Obj, vertices: i32, vertex_colors: i32) {
    o.index(0);
    o.index(vertices);
    for i in 0..vertices {
        let (x, y) = (i % WIDTH, i / WIDTH);
        o.f32(x as f32 * 100.0).f32(y as f32 * 100.0).f32((x + y) as f32);
    }
    o.i32(1).i32(1);
    o.index(0);
    // ToWorld and ToHeightmap: 24 floats, 1 to 24.
    for i in 1..=24 {
        o.f32(i as f32);
    }
    o.i32(WIDTH).i32(HEIGHT);
    o.index(vertex_colors);
    o.bytes(&vec![0xff; vertex_colors as usize * 4]);
}

/// What a case writes after the properties.
type Body = Box<dyn Fn(&mut Obj)>;

/// An `array<int>` property holding `words`.
fn int_array(name: usize, words: &[u32]) -> Prop {
    let mut value = compact(words.len() as i32);
    for w in words {
        value.extend_from_slice(&w.to_le_bytes());
    }
    Prop { name, type_id: 9, struct_name: None, array_index: 0, bool_value: false, value }
}

/// A map package holding one `TerrainInfo`: its bitmaps as properties (when given), then
/// `body` for the native part.
fn terrain_package(
    visible: Option<Vec<u32>>,
    turned: Option<Vec<u32>>,
    body: impl Fn(&mut Obj) + 'static,
) -> Vec<u8> {
    let mut w = PackageWriter::new(128, 29);
    let class = w.engine_class("TerrainInfo");
    let visible_name = w.name("QuadVisibilityBitmap");
    let turned_name = w.name("EdgeTurnBitmap");
    w.export(
        class,
        0,
        "TerrainInfo0",
        0,
        Box::new(move |o, w| {
            let mut props = Vec::new();
            if let Some(words) = &visible {
                props.push(int_array(visible_name, words));
            }
            if let Some(words) = &turned {
                props.push(int_array(turned_name, words));
            }
            write_props(o, &props, w.none());
            body(o);
        }),
    );
    w.finish()
}

#[test]
fn the_vertices_and_the_quads_the_bitmaps_draw() {
    // Quad (0,0) turned, quad (1,0) hidden, the rest drawn the plain way.
    let bytes = terrain_package(Some(vec![!0b10]), Some(vec![0b1]), |o| native(o, 32, 32));
    let package = Package::parse(&bytes).unwrap();
    let terrain = package.read_terrain_ue2(0).unwrap();
    assert_eq!((terrain.heightmap_x, terrain.heightmap_y), (8, 4));
    assert_eq!(terrain.vertices.len(), 32);
    assert_eq!(terrain.vertices[9], [100.0, 100.0, 2.0]);
    // Each an origin, then the X, Y and Z axes.
    assert_eq!(terrain.to_world.origin, [1.0, 2.0, 3.0]);
    assert_eq!(terrain.to_world.axes[2], [10.0, 11.0, 12.0]);
    assert_eq!(terrain.to_heightmap.origin, [13.0, 14.0, 15.0]);
    assert_eq!(terrain.to_heightmap.axes[0], [16.0, 17.0, 18.0]);
    let triangles = terrain.triangles();
    // 7 by 3 quads, one hidden, two triangles each.
    assert_eq!(triangles.len(), 2 * (7 * 3 - 1));
    // Quad (0,0) turned: v1 v4 v2 and v4 v3 v2 (v1 = 0, v2 = 1, v3 = 9, v4 = 8).
    assert_eq!(&triangles[..2], &[[0, 8, 1], [8, 9, 1]]);
    // Quad (2,0) after the hidden one, plain: v1 v4 v3 and v1 v3 v2.
    assert_eq!(&triangles[2..4], &[[2, 10, 11], [2, 11, 3]]);
}

/// Bitmaps of another size than the heightmap's are what `PostLoad` replaces: every quad
/// drawn, none turned.
#[test]
fn bitmaps_of_another_size_draw_every_quad_the_plain_way() {
    for (visible, turned) in [(None, None), (Some(vec![0, 0]), Some(vec![!0, !0]))] {
        let bytes = terrain_package(visible, turned, |o| native(o, 32, 0));
        let terrain = Package::parse(&bytes).unwrap().read_terrain_ue2(0).unwrap();
        let triangles = terrain.triangles();
        assert_eq!(triangles.len(), 2 * 7 * 3);
        assert_eq!(&triangles[..2], &[[0, 8, 9], [0, 9, 1]]);
    }
}

#[test]
fn a_cut_or_inconsistent_terrain_is_refused_where_it_stops() {
    let cases: [(&str, Body); 3] = [
        ("cut in the vertices", Box::new(|o| native(o, 32, 0))),
        ("fewer vertices than the heightmap", Box::new(|o| native(o, 31, 0))),
        (
            "bytes after the vertex colours",
            Box::new(|o| {
                native(o, 32, 0);
                o.u32(7);
            }),
        ),
    ];
    for (label, body) in cases {
        let bytes = terrain_package(None, None, move |o| {
            body(o);
            if label.starts_with("cut") {
                o.buf.truncate(o.buf.len() / 2);
            }
        });
        let package = Package::parse(&bytes).unwrap();
        let err = package.read_terrain_ue2(0).unwrap_err().to_string();
        assert!(err.contains("TerrainInfo TerrainInfo0 (export 0)"), "{label}: {err}");
        let expected = match label {
            "cut in the vertices" => "expected Vertices count of 32 items of at least 12 bytes",
            "fewer vertices than the heightmap" => {
                "8 by 4 vertices (the heightmap's size), found 31"
            }
            _ => "the end of the TerrainInfo after its vertex colours",
        };
        assert!(err.contains(expected), "{label}: {err}");
    }
}
