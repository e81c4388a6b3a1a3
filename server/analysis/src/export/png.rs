//! PNG files (the `png` crate): what a texture, a palette or a rendered picture is written as,
//! by `export` and `render`, and what the previews show.

use unreal_formats::decode::RgbaImage;

/// Encodes RGBA pixels as a PNG file.
pub fn encode_png(image: &RgbaImage) -> Vec<u8> {
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, image.width, image.height);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_compression(png::Compression::Best);
    // Writing to a Vec fails only on a size mismatch, which RgbaImage rules out.
    let written =
        encoder.write_header().and_then(|mut w| w.write_image_data(&image.pixels).map(|()| w));
    if written.is_err() {
        return Vec::new();
    }
    drop(written);
    out
}
