//! What the checks need from the binary files directives import, read once per file and
//! cached by [`super::ExecEnv`]: mesh vertex and frame counts and texture slots, image sizes
//! and pixel formats, the WAV format tag, a package's object names.

use std::collections::BTreeSet;

use unreal_formats::image::ImageInfo;
use unreal_formats::psk::{Psa, Psk};
use unreal_formats::vertex_mesh::{AnivFile, DataFile};
use unreal_formats::wav::Wav;
use unreal_formats::Package;

/// The facts of one file, or why it could not be read.
#[derive(Clone, Debug, PartialEq)]
pub enum FileFacts {
    /// A `_d.3d` file.
    MeshData {
        vertices: u16,
        triangles: u16,
        slots: BTreeSet<u8>,
        /// One more than the highest vertex index a triangle uses (0 without triangles).
        vertices_used: u32,
    },
    /// An `_a.3d` file.
    MeshAnimation {
        frames: u16,
        frame_size: u16,
    },
    /// A `.psk` file: the material slots its faces use, and how many materials it lists.
    Skin {
        slots: BTreeSet<u8>,
        materials: usize,
    },
    /// A `.psa` file.
    Animation {
        sequences: Vec<String>,
    },
    Image(ImageInfo),
    Sound {
        format_tag: u16,
        format_name: &'static str,
    },
    /// A package: its object names, lowercased.
    Package {
        objects: BTreeSet<String>,
    },
    /// A file of a kind no check reads.
    Other,
    /// A Git LFS pointer in place of the file: the checkout lacks the LFS object.
    LfsPointer {
        size: Option<u64>,
    },
    /// A package (its signature read) of a version the package reader does not read
    /// ([`unreal_formats::package::MIN_VERSION`] to `MAX_VERSION`): an engine may still load
    /// it (Unreal v200 loads versions from 34, later engines ask before one older than 60),
    /// so what it holds is not checked.
    PackageVersion(u16),
    /// The file exists but is not what its name says (the reader's precise error).
    Unreadable(String),
    /// The file could not be opened.
    Unopenable,
}

/// What a path is expected to hold, from the key that names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Expect {
    MeshData,
    MeshAnimation,
    Skin,
    Animation,
    Image,
    Sound,
    Package,
    Any,
}

/// Reads `bytes` as the expected kind.
pub fn read(bytes: &[u8], file_name: &str, expect: Expect) -> FileFacts {
    let ext = file_name.rsplit_once('.').map_or("", |(_, e)| e);
    let fail = |e: unreal_formats::Error| FileFacts::Unreadable(e.to_string());
    if let Some(pointer) = unreal_formats::lfs::pointer(bytes) {
        return FileFacts::LfsPointer { size: pointer.size };
    }
    match expect {
        Expect::MeshData => match DataFile::parse(bytes) {
            Ok(data) => FileFacts::MeshData {
                vertices: data.vertices,
                triangles: data.polygons,
                slots: data.triangles.iter().map(|t| t.texture).collect(),
                vertices_used: data
                    .triangles
                    .iter()
                    .flat_map(|t| t.vertices)
                    .max()
                    .map_or(0, |v| u32::from(v) + 1),
            },
            Err(e) => fail(e),
        },
        Expect::MeshAnimation => match AnivFile::parse(bytes) {
            Ok(aniv) => {
                FileFacts::MeshAnimation { frames: aniv.frames, frame_size: aniv.frame_size }
            }
            Err(e) => fail(e),
        },
        Expect::Skin => match Psk::parse(bytes) {
            Ok(psk) => FileFacts::Skin {
                slots: psk.faces.iter().map(|f| f.material).collect(),
                materials: psk.materials.len(),
            },
            Err(e) => fail(e),
        },
        Expect::Animation => match Psa::parse(bytes) {
            Ok(psa) => FileFacts::Animation {
                sequences: psa.sequences.into_iter().map(|s| s.name).collect(),
            },
            Err(e) => fail(e),
        },
        // Unreal 227 imports a texture object written as text (`Begin Object
        // Class=IceTexture ...`) from a `.fx` file.
        Expect::Image if ext.eq_ignore_ascii_case("fx") => {
            let text = unreal_syntax::text::decode(bytes).text;
            let first = text.trim_start().get(..12).unwrap_or_default();
            if first.eq_ignore_ascii_case("begin object") {
                FileFacts::Other
            } else {
                FileFacts::Unreadable(
                    "a .fx texture is text that begins with `Begin Object` (Unreal 227)".to_owned(),
                )
            }
        }
        Expect::Image => match ImageInfo::parse(bytes, ext) {
            Ok(info) => FileFacts::Image(info),
            Err(e) => fail(e),
        },
        // The sound factory stores an `.mp3` as it is, as it stores a `.wav` (UT v400
        // `Editor/Src/UnEdFact.cpp:894-903`, UT2004 `:1771-1780`: `FileType` WAV or MP3); the
        // driver decides whether it plays.
        Expect::Sound if ext.eq_ignore_ascii_case("mp3") => FileFacts::Other,
        Expect::Sound if !ext.eq_ignore_ascii_case("wav") => FileFacts::Unreadable(format!(
            "the sound factory takes `.wav` and `.mp3` files; for `.{ext}` it logs \"Unrecognized sound format\" and imports nothing"
        )),
        Expect::Sound => match Wav::parse(bytes) {
            Ok(wav) => {
                FileFacts::Sound { format_tag: wav.format_tag, format_name: wav.format_name() }
            }
            Err(e) => fail(e),
        },
        Expect::Package => match unreal_formats::package_bytes(bytes) {
            Ok(unpacked) => match unreal_formats::package::unread_version(&unpacked) {
                Some(version) => FileFacts::PackageVersion(version),
                None => match Package::parse(&unpacked) {
                    Ok(package) => FileFacts::Package {
                        objects: package.objects().map(|o| o.name.to_ascii_lowercase()).collect(),
                    },
                    Err(e) => fail(e),
                },
            },
            Err(e) => fail(e),
        },
        Expect::Any => FileFacts::Other,
    }
}
