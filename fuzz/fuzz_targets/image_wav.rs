#![no_main]

use libfuzzer_sys::fuzz_target;
use unreal_formats::image::ImageInfo;
use unreal_formats::wav::Wav;

fuzz_target!(|data: &[u8]| {
    for ext in ["pcx", "bmp", "tga", "dds", "png"] {
        let _ = ImageInfo::parse(data, ext);
    }
    let _ = Wav::parse(data);
    let _ = unreal_formats::detect(data, "fuzz.bin");
});
