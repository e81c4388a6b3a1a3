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
    commit();
}

/// The commit being built, for `--version` (`UNREAL_LS_COMMIT` in the program): the
/// environment's `UNREAL_LS_COMMIT` when set (a build from a source archive, without git),
/// else git's `HEAD` (12 hex digits), else `unknown`. The build runs again when `HEAD` or the
/// branch it names moves, so a build never names a commit it was not built from.
fn commit() {
    println!("cargo:rerun-if-env-changed=UNREAL_LS_COMMIT");
    let git = |args: &[&str]| {
        std::process::Command::new("git")
            .args(args)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .and_then(|o| String::from_utf8(o.stdout).ok())
            .map(|s| s.trim().to_owned())
            .filter(|s| !s.is_empty())
    };
    let from_env = std::env::var("UNREAL_LS_COMMIT").ok().filter(|c| !c.trim().is_empty());
    let commit = from_env.clone().or_else(|| git(&["rev-parse", "--short=12", "HEAD"]));
    if from_env.is_none() && commit.is_some() {
        // HEAD itself, the branch file it points to, and packed-refs (where a branch may live).
        let mut watched = vec!["HEAD".to_owned(), "packed-refs".to_owned()];
        if let Some(branch) = git(&["symbolic-ref", "-q", "HEAD"]) {
            watched.push(branch);
        }
        for name in watched {
            if let Some(path) = git(&["rev-parse", "--path-format=absolute", "--git-path", &name]) {
                if std::path::Path::new(&path).exists() {
                    println!("cargo:rerun-if-changed={path}");
                }
            }
        }
    }
    println!("cargo:rustc-env=UNREAL_LS_COMMIT={}", commit.as_deref().unwrap_or("unknown"));
}
