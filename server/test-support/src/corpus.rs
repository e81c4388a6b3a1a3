//! The shared corpus (`../shared/corpus`: real files made by other people, never part of the
//! project) as the tests meet it: present, they read it; absent, a developer's run skips
//! the part that needs it with a message, and a run with `REQUIRE_CORPUS=1` (what
//! `scripts/test`, and so CI, sets) fails naming what is missing, so that a test cannot
//! pass by finding nothing to read.

/// Says that `what` (a sentence naming the absent files) is absent: a skip message, or a
/// panic under `REQUIRE_CORPUS=1`. Every test that skips for want of corpus files calls it.
pub fn absent(what: &str) {
    assert!(!required(), "REQUIRE_CORPUS=1, but the corpus is not all there: {what}");
    println!("skipping: {what} (the corpus is never part of the project; REQUIRE_CORPUS=1 makes this a failure)");
}

/// Whether the run requires the corpus (`REQUIRE_CORPUS=1`).
pub fn required() -> bool {
    std::env::var_os("REQUIRE_CORPUS").is_some_and(|v| v == "1")
}
