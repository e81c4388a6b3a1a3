#![no_main]
//! See `fuzz/entries.rs`: the same entry point runs in the bounded stable pass.

#[path = "../entries.rs"]
#[allow(dead_code)]
mod entries;

libfuzzer_sys::fuzz_target!(|data: &[u8]| entries::t3d_level(data));
