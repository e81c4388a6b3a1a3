//! The package index as the editor features' [`ObjectFacts`]: hover facts (class, file, a
//! texture's size, format and thumbnail, a class's parent) and completion names.

use unreal_formats::decode::texture::{select_mips, MipSource};

use super::{ObjectFacts, PackageObject};
use crate::index::{is_texture_class, ObjectId, ObjectKind, PackageIndex};

/// The longest side of hover thumbnails, in pixels.
pub const HOVER_THUMBNAIL_SIZE: u32 = 64;

/// What hover lists for an object: its class, and for textures the size, format, mip count
/// and a thumbnail (a Markdown image with a PNG `data:` URI), for classes the parent class.
/// Object data is read on first use and kept in the index.
pub fn details(index: &PackageIndex, id: ObjectId) -> Vec<(String, String)> {
    let Some((package, object)) = index.entry(id) else { return Vec::new() };
    let export = object.export as usize;
    let class = object.class.to_string();
    let name = object.name.to_string();
    let computed = index.cached_details(id, || {
        let mut details = vec![("class".to_owned(), class.clone())];
        let read = index.with_package(package, |p| {
            let mut out = Vec::new();
            if p.texture_class_is_imageless(&class) {
                out.push(("image".to_owned(), "none: drawn by script at run time".to_owned()));
            } else if is_texture_class(&class) && class != "Palette" {
                match p.read_texture(export) {
                    Ok(texture) => {
                        let (mips, _) = select_mips(&texture, MipSource::Auto);
                        out.push((
                            "size".to_owned(),
                            format!("{}x{}", texture.width, texture.height),
                        ));
                        out.push(("format".to_owned(), texture.format.name().to_owned()));
                        out.push(("mips".to_owned(), mips.len().to_string()));
                        if let Ok(uri) = crate::thumbnail::texture_thumbnail_data_uri(
                            p,
                            export,
                            HOVER_THUMBNAIL_SIZE,
                        ) {
                            out.push(("preview".to_owned(), format!("![{name}]({uri})")));
                        }
                    }
                    Err(err) => out.push(("unreadable".to_owned(), err.to_string())),
                }
            } else if class == "Class" {
                if let Ok(Some(parent)) = p.read_class(export).map(|c| c.super_class) {
                    out.push(("parent".to_owned(), format!("`{parent}`")));
                }
            }
            out
        });
        match read {
            Ok(more) => details.extend(more),
            Err(err) => details.push(("unreadable".to_owned(), err)),
        }
        details
    });
    computed.as_ref().clone()
}

impl ObjectFacts for PackageIndex {
    fn object(&self, class: Option<&str>, path: &str) -> Option<PackageObject> {
        let kind = match class {
            Some(c) if c.eq_ignore_ascii_case("Texture") => ObjectKind::Texture,
            Some(c) if c.eq_ignore_ascii_case("Class") => ObjectKind::Class,
            _ => ObjectKind::Any,
        };
        let id = match class {
            Some(c) if kind == ObjectKind::Any && path.contains('.') => {
                self.find_of_class(path, Some(c))?
            }
            _ => self.resolve(kind, path)?,
        };
        let (package, object) = self.entry(id)?;
        Some(PackageObject {
            class: object.class.to_string(),
            path: format!("{}.{}", package.name, object.path),
            file: Some(package.path.display().to_string()),
            details: details(self, id),
        })
    }

    fn names(&self, class: &str) -> Vec<String> {
        let kind = if class.eq_ignore_ascii_case("Texture") {
            ObjectKind::Texture
        } else if class.eq_ignore_ascii_case("Class") {
            ObjectKind::Class
        } else {
            return Vec::new();
        };
        let mut names = self.names_of(kind);
        names.sort_by_key(|n| n.to_ascii_lowercase());
        names.dedup_by(|a, b| a.eq_ignore_ascii_case(b));
        names
    }
}
