//! PNG files: what a texture, a palette or a rendered picture is written as, by `export` and
//! `render`, and what the previews show (the encoder is the core's, which hovers use too).

pub use unreal_analysis::thumbnail::{encode_png, encode_png_fast};
