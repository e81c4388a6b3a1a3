//! Link settings of the `unreal-ls` executable.

fn main() {
    // On Linux the executable is linked at a fixed address rather than as a position-
    // independent executable (as Go links its tools): the loader then has none of the 13,000
    // relocations of a PIE to apply at every start, which cost a quarter of a millisecond of
    // every command (about 2% of a lint of a 4 MB map). Shared libraries, heap and stacks are
    // still placed at random.
    if std::env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("linux") {
        println!("cargo:rustc-link-arg-bins=-no-pie");
    }
    println!("cargo:rerun-if-changed=build.rs");
}
