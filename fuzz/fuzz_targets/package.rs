#![no_main]
//! Package tables and every object reader on every export.

use libfuzzer_sys::fuzz_target;
use unreal_formats::Package;

fuzz_target!(|data: &[u8]| {
    let _ = unreal_formats::summarize(data, "fuzz.u");
    if let Ok(p) = Package::parse(data) {
        for i in 0..p.exports.len() {
            let _ = p.read_object_header(i);
            let _ = p.read_texture(i);
            let _ = p.read_palette(i);
            let _ = p.read_sound(i);
            let _ = p.read_font(i);
            let _ = p.read_text_buffer(i);
            let _ = p.read_class(i);
            let _ = p.read_mesh(i);
            let _ = p.read_animation(i);
            let _ = p.find(&p.export_path(i));
        }
    }
});
