#![no_main]

use libfuzzer_sys::fuzz_target;
use unreal_formats::psk::{chunks, Psa, Psk};

fuzz_target!(|data: &[u8]| {
    let _ = chunks(data);
    let _ = Psk::parse(data);
    let _ = Psa::parse(data);
});
