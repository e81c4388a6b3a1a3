//! What a map needs (`unreal_analysis::deps`) against what the engine made of the same map:
//! the corpus map whose T3D export and built `.unr` are both in the corpus. Every package the
//! T3D's names resolve to must be one the built map imports, and every game package the built
//! map imports that the index holds must be found from the T3D. Skips, saying so, when the
//! corpus is absent.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeSet;
use std::path::Path;
use std::sync::Arc;

use unreal_analysis::deps::{map_needs, Place};
use unreal_analysis::index::{IndexRoots, PackageIndex};

#[test]
fn a_real_maps_dependencies_match_the_imports_of_its_built_map() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus");
    let t3d = corpus.join("t3d/ue1/blender_t3d_test_map.t3d");
    let unr = corpus.join("packages/unr/blender_t3d_test_map.unr");
    let utx = corpus.join("packages/utx/blender_t3d_Checkers.utx");
    if !(t3d.is_file() && unr.is_file() && utx.is_file()) {
        unreal_test_support::corpus::absent(&format!(
            "the corpus map, its .unr or the Checkers package is not under {}",
            corpus.display()
        ));
        return;
    }
    // A game folder holding the texture package the map was made with, under its own name.
    let game = unreal_test_support::ScratchDir::new("map-deps");
    std::fs::create_dir_all(game.join("Textures")).unwrap();
    std::fs::copy(&utx, game.join("Textures/Checkers.utx")).unwrap();
    let roots = IndexRoots {
        game_dir: Some(game.path().to_path_buf()),
        package_paths: Vec::new(),
        ..IndexRoots::default()
    };
    let index = PackageIndex::build(Arc::new(unreal_analysis::fs::RealFs), roots, &mut |_| {});

    let text = unreal_syntax::text::decode_owned(std::fs::read(&t3d).unwrap()).0;
    let parse = unreal_syntax::t3d::parse(&text);
    let needs = map_needs(&text, &parse, &index);
    let found: BTreeSet<String> = needs
        .packages
        .iter()
        .filter(|p| p.place == Place::GameFolder)
        .map(|p| p.name.to_ascii_lowercase())
        .collect();

    // The packages the built map imports (top-level imports of class Package).
    let bytes = std::fs::read(&unr).unwrap();
    let package = unreal_formats::package::Package::parse(&bytes).unwrap();
    let imported: BTreeSet<String> = package
        .imports
        .iter()
        .filter(|i| i.outer.0 == 0 && package.name(i.class_name).eq_ignore_ascii_case("Package"))
        .map(|i| package.name(i.object_name).to_ascii_lowercase())
        .collect();

    assert!(
        found.contains("checkers"),
        "the map's textures come from Checkers: {found:?} ({needs:#?})"
    );
    assert!(found.is_subset(&imported), "found {found:?}, the built map imports {imported:?}");
    let indexed: BTreeSet<String> =
        index.packages().iter().map(|p| p.name.to_ascii_lowercase()).collect();
    let expected: BTreeSet<String> = imported.intersection(&indexed).cloned().collect();
    assert_eq!(found, expected, "the built map imports {imported:?}");
    // Every texture the T3D names is in the package (the map was built with it), except
    // UnrealEd's own default texture, which a game folder without `Editor.u` cannot judge.
    assert!(needs.not_found.is_empty(), "{:#?}", needs.not_found);
    let unchecked: Vec<&str> = needs.unchecked.iter().map(|u| u.name.as_str()).collect();
    assert!(unchecked.contains(&"Bkgnd"), "{unchecked:?}");
}
