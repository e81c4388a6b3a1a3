//! Thumbnail scaling and PNG `data:` URIs: the core's ([`unreal_analysis::thumbnail`]), which
//! hovers use too.

pub use unreal_analysis::thumbnail::{
    base64, png_data_uri, thumbnail, thumbnail_data_uri, THUMBNAIL_SIZE,
};
