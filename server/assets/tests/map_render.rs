//! The map overview picture, checked as a picture: a fixture map whose render has known
//! pixels (a 512-unit square room subtracted at a known place, turned a quarter by its
//! `Rotation`; a blue light and a player start at known places), compared with a golden PNG
//! within a small tolerance. `UPDATE_EXPECT=1` rewrites the golden file.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::fmt::Write as _;
use std::path::PathBuf;

use unreal_analysis::t3d::actors::ClassKind;
use unreal_assets::preview::map::{render_map, ActorSymbols, View};

/// A cube brush of the given half size, as a polygon list.
fn cube(half: i32) -> String {
    let h = f64::from(half);
    let faces: [[[f64; 3]; 4]; 6] = [
        [[-h, -h, -h], [-h, -h, h], [-h, h, h], [-h, h, -h]],
        [[h, -h, -h], [h, h, -h], [h, h, h], [h, -h, h]],
        [[-h, -h, -h], [h, -h, -h], [h, -h, h], [-h, -h, h]],
        [[-h, h, -h], [-h, h, h], [h, h, h], [h, h, -h]],
        [[-h, -h, -h], [-h, h, -h], [h, h, -h], [h, -h, -h]],
        [[-h, -h, h], [h, -h, h], [h, h, h], [-h, h, h]],
    ];
    let mut out = String::from("   Begin Brush Name=Model\r\n      Begin PolyList\r\n");
    for face in faces {
        out.push_str("         Begin Polygon\r\n");
        for v in face {
            let _ = writeln!(
                out,
                "            Vertex   {:+013.6},{:+013.6},{:+013.6}\r",
                v[0], v[1], v[2]
            );
        }
        out.push_str("         End Polygon\r\n");
    }
    out.push_str("      End PolyList\r\n   End Brush\r\n");
    out
}

fn fixture_map() -> String {
    format!(
        "Begin Map\r\n\
Begin Actor Class=LevelInfo Name=LevelInfo0\r\n   Title=\"Golden Room\"\r\nEnd Actor\r\n\
Begin Actor Class=Brush Name=Brush\r\n{builder}End Actor\r\n\
Begin Actor Class=Brush Name=Brush1\r\n   CsgOper=CSG_Subtract\r\n   Rotation=(Yaw=16384)\r\n   Location=(X=1024.000000,Y=512.000000)\r\n{room}End Actor\r\n\
Begin Actor Class=Light Name=Light0\r\n   LightHue=170\r\n   LightSaturation=0\r\n   Location=(X=1152.000000,Y=512.000000,Z=64.000000)\r\nEnd Actor\r\n\
Begin Actor Class=PlayerStart Name=PlayerStart0\r\n   Location=(X=896.000000,Y=512.000000)\r\nEnd Actor\r\n\
End Map\r\n",
        builder = cube(64),
        room = cube(256),
    )
}

fn golden_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/map_render_room.png")
}

#[test]
fn the_picture_has_its_known_pixels() {
    let picture =
        render_map("Room", &fixture_map(), View::Top, 256, None, ActorSymbols::Drawn).unwrap();
    // The room is 512 units wide with a 10% margin (at least 64 units) on each side:
    // 640 units over 256 pixels.
    assert_eq!((picture.width, picture.height), (256, 256));
    assert!((picture.units_per_pixel - 2.5).abs() < 1e-9, "{}", picture.units_per_pixel);
    let image = unreal_formats::decode::image::decode_image(&picture.png, "png").unwrap();
    let at = |x: u32, y: u32| {
        let i = ((y * image.width + x) * 4) as usize;
        [image.pixels[i], image.pixels[i + 1], image.pixels[i + 2]]
    };
    // The room's west wall (world X = 768) at pixel x = (768 - 704) / 2.5 = 25.6, its middle
    // row (world Y = 512) at y = 128: the subtractive outline colour.
    let wall = at(25, 128);
    assert!(wall[0] > 180 && wall[2] < 120, "the wall is orange: {wall:?}");
    // The light at world (1152, 512): pixel (179.2, 128), blue.
    let light = picture.actors.iter().find(|a| a.kind == ClassKind::Light).unwrap();
    assert_eq!((light.x.round(), light.y.round()), (179.0, 128.0));
    let blue = at(179, 128);
    assert!(blue[2] > 200 && blue[0] < 60 && blue[1] < 60, "the light is blue: {blue:?}");
    // The player start at world (896, 512): pixel (76.8, 128), green.
    let start = at(77, 129);
    assert!(start[1] > 140 && start[0] < 100, "the player start is green: {start:?}");
    // The builder brush is not drawn: the room's middle (1024, 512) at (128, 128) is the
    // room's light fill, not the builder brush's lines.
    let inside = at(128, 100);
    assert!(inside.iter().all(|&c| c > 200), "inside the room: {inside:?}");

    // And the whole picture against the golden file, within a small tolerance.
    assert_matches_golden(&picture.png, &image, &golden_path());
}

#[test]
fn views_and_nothing_to_draw() {
    let map = fixture_map();
    for view in [View::Side, View::Front, View::Iso] {
        let picture = render_map("Room", &map, view, 128, None, ActorSymbols::Drawn).unwrap();
        assert_eq!(picture.actors.len(), 2, "{view:?}");
        assert!(picture.png.starts_with(b"\x89PNG"));
    }
    assert!(render_map(
        "Empty",
        "Begin Map\r\nEnd Map\r\n",
        View::Top,
        128,
        None,
        ActorSymbols::Drawn
    )
    .is_none());
}

/// One actor or brush parked at 1e30 (or beyond the world's edge, or at a coordinate that is
/// no number: read as 0, as the engine's `atof` reads it) does not shrink the map to a dot: the picture is framed as without them, and names what it left out
/// (issue 30: "1171874999999999968326713344.0 units a pixel").
#[test]
fn a_parked_actor_or_brush_is_left_out_of_the_frame_and_named() {
    let map = fixture_map();
    let plain = render_map("Room", &map, View::Top, 256, None, ActorSymbols::Drawn).unwrap();
    assert!(plain.outside.is_empty(), "{:?}", plain.outside);
    let parked = format!(
        "Begin Actor Class=Light Name=Parked\r\n   Location=(X=1e30,Y=1e30)\r\nEnd Actor\r\n\
Begin Actor Class=Light Name=NotANumber\r\n   Location=(X=1024,Y=512,Z=NaN)\r\nEnd Actor\r\n\
Begin Actor Class=Brush Name=FarBrush\r\n   CsgOper=CSG_Add\r\n   Location=(X=1e30,Y=-1e30,Z=3e38)\r\n{cube}End Actor\r\n\
Begin Actor Class=Brush Name=EdgeBrush\r\n   CsgOper=CSG_Add\r\n   Location=(X=250000)\r\n{cube}End Actor\r\n",
        cube = cube(32)
    );
    let at = map.find("End Map").unwrap();
    let with_parked = format!("{}{parked}{}", &map[..at], &map[at..]);
    for view in [View::Top, View::Side, View::Front, View::Iso] {
        let plain = render_map("Room", &map, view, 256, None, ActorSymbols::Drawn).unwrap();
        let picture =
            render_map("Room", &with_parked, view, 256, None, ActorSymbols::Drawn).unwrap();
        assert_eq!(
            (picture.width, picture.height, picture.units_per_pixel),
            (plain.width, plain.height, plain.units_per_pixel),
            "{view:?}"
        );
        assert_eq!(picture.outside, ["FarBrush", "EdgeBrush", "Parked"], "{view:?}");
    }
}

fn level_golden_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/map_render_room_level.png")
}

/// The iso view of the built level: the room's floor (facing up, into the room) is filled in
/// its flat colour, lit from above; its ceiling faces away from the viewer and is left out,
/// so the floor shows through it; outside the room is the background. Golden file as above.
#[test]
fn the_level_picture_fills_the_rooms_surfaces() {
    use unreal_assets::export::NoTextures;
    use unreal_assets::preview::map::{render_map_geometry, Geometry};
    let picture = render_map_geometry(
        "Room",
        &fixture_map(),
        View::Iso,
        256,
        None,
        ActorSymbols::Left,
        Geometry::Level(&NoTextures, unreal_assets::export::LevelParts::default()),
    )
    .unwrap();
    // The room: six faces, the builder brush not built.
    assert_eq!(picture.surfaces, Some(6));
    let image = unreal_formats::decode::image::decode_image(&picture.png, "png").unwrap();
    let at = |x: u32, y: u32| {
        let i = ((y * image.width + x) * 4) as usize;
        [image.pixels[i], image.pixels[i + 1], image.pixels[i + 2]]
    };
    let pixel_of = |p: [f64; 3]| {
        let (c, s) = (30f64.to_radians().cos(), 30f64.to_radians().sin());
        let (x, y) = ((p[0] - p[1]) * c, (p[0] + p[1]) * s - p[2]);
        (x, y)
    };
    // The frame is the room's extent (the builder brush does not count, the actors are
    // inside) and a margin. The floor's middle, seen through the culled ceiling, is filled;
    // the picture's top right corner, beside the room, is the background.
    let corners: Vec<(f64, f64)> = [-256.0, 256.0]
        .iter()
        .flat_map(|&dx| {
            [-256.0, 256.0].into_iter().flat_map(move |dy| {
                [-256.0, 256.0].into_iter().map(move |dz| [1024.0 + dx, 512.0 + dy, dz])
            })
        })
        .map(pixel_of)
        .collect();
    let x0 = corners.iter().map(|c| c.0).fold(f64::INFINITY, f64::min);
    let x1 = corners.iter().map(|c| c.0).fold(f64::NEG_INFINITY, f64::max);
    let y0 = corners.iter().map(|c| c.1).fold(f64::INFINITY, f64::min);
    let y1 = corners.iter().map(|c| c.1).fold(f64::NEG_INFINITY, f64::max);
    let margin = ((x1 - x0).max(y1 - y0) * 0.1).max(64.0);
    let to_image = |p: [f64; 3]| {
        let (x, y) = pixel_of(p);
        (
            ((x - x0 + margin) / picture.units_per_pixel) as u32,
            ((y - y0 + margin) / picture.units_per_pixel) as u32,
        )
    };
    let (fx, fy) = to_image([1024.0, 512.0, -256.0]);
    let floor = at(fx, fy);
    assert!(floor != [255, 255, 255], "the floor is filled: {floor:?} at ({fx}, {fy})");
    assert_eq!(at(image.width - 3, 3), [255, 255, 255], "beside the room");

    assert_matches_golden(&picture.png, &image, &level_golden_path());
}

/// `png` (decoded: `image`) against the golden file at `golden`, within a small tolerance:
/// no channel off by more than 8 in more than half a percent of the pixels. `UPDATE_EXPECT=1`
/// writes the golden file first.
fn assert_matches_golden(
    png: &[u8],
    image: &unreal_formats::decode::RgbaImage,
    golden: &std::path::Path,
) {
    if std::env::var_os("UPDATE_EXPECT").is_some() {
        std::fs::write(golden, png).unwrap();
    }
    let expected =
        unreal_formats::decode::image::decode_image(&std::fs::read(golden).unwrap(), "png")
            .unwrap();
    assert_eq!((expected.width, expected.height), (image.width, image.height));
    let differing = expected
        .pixels
        .chunks_exact(4)
        .zip(image.pixels.chunks_exact(4))
        .filter(|(a, b)| a.iter().zip(b.iter()).any(|(x, y)| x.abs_diff(*y) > 8))
        .count();
    assert!(
        differing * 200 <= (image.width * image.height) as usize,
        "{differing} pixels differ from {}",
        golden.display()
    );
}
