//! The asset search (`PackageIndex::find_assets`): which objects it finds and in which order,
//! for exact names, prefixes, dotted paths, fragments and scattered letters; what it leaves
//! out (groups, `TextBuffer`s, properties, shadowed packages).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::needless_pass_by_value)]

use std::fmt::Write as _;

use expect_test::{expect, Expect};
use unreal_analysis::index::PackageIndex;

fn index() -> PackageIndex {
    PackageIndex::from_listing(&[
        (
            "Engine",
            &[
                ("Class", "Actor"),
                ("Class", "Light"),
                ("Texture", "DefaultTexture"),
                ("TextBuffer", "Actor.ScriptText"),
            ],
        ),
        (
            "Rock",
            &[
                ("Package", "Walls"),
                ("Texture", "Walls.Granite"),
                ("Texture", "Walls.GraniteDark"),
                ("FireTexture", "Fx.Lava"),
                ("Shader", "Walls.GraniteShader"),
                ("Palette", "Walls.GranitePal"),
            ],
        ),
        ("AmbOutside", &[("Sound", "Wind.Gust"), ("Sound", "Wind.Granite_Rumble")]),
        (
            "Crates",
            &[
                ("StaticMesh", "Meshes.Crate"),
                ("SkeletalMesh", "Meshes.GraniteGolem"),
                ("MeshAnimation", "GolemAnims"),
            ],
        ),
        ("Themes", &[("Music", "Granite")]),
        // Shadowed by the first `Rock`: never found.
        ("rock", &[("Texture", "Shadowed.Granite")]),
        (
            "Botpack",
            &[
                ("Class", "TournamentWeapon"),
                ("IntProperty", "TournamentWeapon.AmmoCount"),
                ("Font", "LadderFonts.UTLadder12"),
            ],
        ),
    ])
}

fn check(queries: &[&str], expect: Expect) {
    let index = index();
    let mut out = String::new();
    for query in queries {
        let _ = writeln!(out, "{query:?}:");
        for hit in index.find_assets(query, 5) {
            let (package, object) = index.entry(hit.id).unwrap();
            let _ = writeln!(
                out,
                "  {} ({} {}, {}) {}",
                index.full_path(hit.id),
                hit.kind.name(),
                object.class,
                package.path.display(),
                hit.score
            );
        }
    }
    expect.assert_eq(&out);
}

#[test]
fn ranks_names_prefixes_paths_fragments_and_scattered_letters() {
    check(
        &[
            "granite",
            "GRANITE",
            "walls.granite",
            "rock.walls.granitedark",
            "lava",
            "nite",
            "rwgd",
            "crate",
            "tournament",
            "ladder",
            "  gust ",
            "",
            "zzz",
            "actor",
        ],
        expect![[r#"
            "granite":
              Themes.Granite (music Music, Themes.u) 6000
              Rock.Walls.Granite (texture Texture, Rock.u) 6000
              Rock.Walls.GraniteDark (texture Texture, Rock.u) 4996
              Crates.Meshes.GraniteGolem (mesh SkeletalMesh, Crates.u) 4995
              Rock.Walls.GraniteShader (texture Shader, Rock.u) 4994
            "GRANITE":
              Themes.Granite (music Music, Themes.u) 6000
              Rock.Walls.Granite (texture Texture, Rock.u) 6000
              Rock.Walls.GraniteDark (texture Texture, Rock.u) 4996
              Crates.Meshes.GraniteGolem (mesh SkeletalMesh, Crates.u) 4995
              Rock.Walls.GraniteShader (texture Shader, Rock.u) 4994
            "walls.granite":
              Rock.Walls.Granite (texture Texture, Rock.u) 4000
              Rock.Walls.GraniteDark (texture Texture, Rock.u) 1995
              Rock.Walls.GraniteShader (texture Shader, Rock.u) 1995
            "rock.walls.granitedark":
              Rock.Walls.GraniteDark (texture Texture, Rock.u) 4000
            "lava":
              Rock.Fx.Lava (texture FireTexture, Rock.u) 6000
            "nite":
              Themes.Granite (music Music, Themes.u) 2997
              Rock.Walls.Granite (texture Texture, Rock.u) 2997
              Rock.Walls.GraniteDark (texture Texture, Rock.u) 2997
              Rock.Walls.GraniteShader (texture Shader, Rock.u) 2997
              Crates.Meshes.GraniteGolem (mesh SkeletalMesh, Crates.u) 2997
            "rwgd":
              Rock.Walls.GraniteDark (texture Texture, Rock.u) 960
            "crate":
              Crates.Meshes.Crate (static mesh StaticMesh, Crates.u) 6000
              Crates.GolemAnims (animation MeshAnimation, Crates.u) 2000
              Crates.Meshes.GraniteGolem (mesh SkeletalMesh, Crates.u) 2000
            "tournament":
              Botpack.TournamentWeapon (class Class, Botpack.u) 4994
            "ladder":
              Botpack.LadderFonts.UTLadder12 (font Font, Botpack.u) 2998
            "  gust ":
              AmbOutside.Wind.Gust (sound Sound, AmbOutside.u) 6000
            "":
            "zzz":
            "actor":
              Engine.Actor (class Class, Engine.u) 6000
        "#]],
    );
}

#[test]
fn the_search_holds_only_assets_and_is_bounded() {
    let index = index();
    let search = index.asset_search();
    // 2 classes and a texture of Engine, 4 textures and materials of Rock (not the group or
    // the palette), 2 sounds, 3 meshes and animations, 1 music, 2 of Botpack (not the
    // property), none of the shadowed package.
    assert_eq!(search.len(), 3 + 4 + 2 + 3 + 1 + 2);
    assert!(search.memory() > 0);
    assert_eq!(index.find_assets("granite", 2).len(), 2);
    assert!(index.find_assets("granite", 0).is_empty());
}
