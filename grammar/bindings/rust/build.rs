//! Compiles the generated parser (`src/parser.c`) and the hand-written external scanner
//! (`src/scanner.c`) into the static library that `LANGUAGE` points into.

use std::path::Path;

fn main() {
    let src_dir = Path::new("src");

    let mut build = cc::Build::new();
    build.std("c11").include(src_dir).warnings(false);
    #[cfg(target_env = "msvc")]
    build.flag("-utf-8");

    for file in ["parser.c", "scanner.c"] {
        let path = src_dir.join(file);
        println!("cargo:rerun-if-changed={}", path.display());
        build.file(path);
    }
    build.compile("tree-sitter-t3d");
}
