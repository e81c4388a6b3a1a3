#![no_main]

use libfuzzer_sys::fuzz_target;
use unreal_formats::u3d::U3d;

fuzz_target!(|data: &[u8]| {
    let _ = U3d::parse(data);
});
