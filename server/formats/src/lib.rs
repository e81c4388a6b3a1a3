//! Bytes in, typed and validated views out, for every binary format that T3D files and
//! `#exec` directives point at. No file IO beyond what the caller hands in (plus
//! [`mapped::MappedFile`] for callers that want a file mapped), no LSP, and no panic on any
//! input.
//!
//! Entry points: [`detect`] tells which format a file is; [`summarize`] reads any single-file
//! format into a [`Summary`]; [`Package::parse`] gives tables and lazy object readers;
//! [`vertex_mesh::VertexMesh::parse`], [`psk::Psk::parse`], [`psk::Psa::parse`],
//! [`u3d::U3d::parse`], [`image::ImageInfo::parse`] and [`wav::Wav::parse`] read the rest;
//! [`uz::decompress`] and [`package_bytes`] decompress `.uz`/`.uz2` packages, and
//! [`umod::Umod::parse`] reads a `.umod` installer's directory.

pub mod decode;
pub mod error;
pub mod image;
pub mod lfs;
pub mod mapped;
pub mod package;
pub mod printable;
pub mod psk;
pub mod reader;
pub mod summary;
pub mod u3d;
pub mod umod;
pub mod uz;
pub mod vertex_mesh;
pub mod wav;

pub use error::{Error, Result};
pub use package::Package;
pub use summary::Summary;

/// The kinds of file this crate reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FormatKind {
    Package,
    /// `_d.3d`: triangles; its `_a.3d` partner holds the frames.
    VertexMeshData,
    /// `_a.3d`: frames.
    VertexMeshAnimation,
    Psk,
    Psa,
    U3d,
    Image(image::ImageFormat),
    Wav,
    /// A compressed package (`.uz`, `.uz2`): [`uz::decompress`] gives the file it holds.
    Compressed(uz::UzFormat),
    /// A mod installer (`.umod`, `.ut2mod`): [`umod::Umod::parse`] lists its files.
    Umod,
}

/// Which format `bytes` are, from their signature first and the file name second (TGA and
/// vertex meshes have no signature). `None` when neither tells.
pub fn detect(bytes: &[u8], file_name: &str) -> Option<FormatKind> {
    let lower = file_name.to_ascii_lowercase();
    let ext = lower.rsplit_once('.').map_or("", |(_, e)| e);
    // An installer first: its first file (often a package) starts it. One whose trailer is
    // damaged or displaced (cut short, grown), or named as one, is still an installer, which
    // its reader refuses as the engine does; never the file it begins with.
    if umod::is_umod(bytes) || matches!(ext, "umod" | "ut2mod") {
        return Some(FormatKind::Umod);
    }
    if bytes.len() >= 4
        && u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]])
            == package::PACKAGE_SIGNATURE
    {
        return Some(FormatKind::Package);
    }
    if let Some(format) = uz::detect(bytes) {
        // UE2's chunks have no signature of their own: trusted by content only where the
        // name does not say another format without a signature (TGA, vertex meshes).
        let unsigned = matches!(ext, "3d" | "tga" | "pcx");
        if format != uz::UzFormat::Ue2 || !unsigned {
            return Some(FormatKind::Compressed(format));
        }
    }
    if u3d::U3d::is_u3d(bytes) {
        return Some(FormatKind::U3d);
    }
    if bytes.starts_with(b"ACTRHEAD") {
        return Some(FormatKind::Psk);
    }
    if bytes.starts_with(b"ANIMHEAD") {
        return Some(FormatKind::Psa);
    }
    if wav::Wav::is_wav(bytes) {
        return Some(FormatKind::Wav);
    }
    if ext == "3d" {
        if lower.ends_with("_a.3d") {
            return Some(FormatKind::VertexMeshAnimation);
        }
        return Some(FormatKind::VertexMeshData);
    }
    match ext {
        "u" | "utx" | "uax" | "umx" | "unr" | "usx" | "ukx" | "ut2" => {
            return Some(FormatKind::Package)
        }
        "psk" | "pskx" => return Some(FormatKind::Psk),
        "psa" => return Some(FormatKind::Psa),
        "u3d" => return Some(FormatKind::U3d),
        "wav" => return Some(FormatKind::Wav),
        "uz" => return Some(FormatKind::Compressed(uz::UzFormat::Ue1)),
        "uz2" => return Some(FormatKind::Compressed(uz::UzFormat::Ue2)),
        "umod" | "ut2mod" => return Some(FormatKind::Umod),
        _ => {}
    }
    image::detect(bytes, ext).map(FormatKind::Image)
}

/// Reads a file of any single-file format into its summary. Vertex meshes need both files:
/// use [`summarize_vertex_mesh`].
pub fn summarize(bytes: &[u8], file_name: &str) -> Result<Summary> {
    summarize_at(bytes, file_name, 0)
}

/// How deep containers may nest (a package in a `.uz` in a `.umod`).
const MAX_NESTING: usize = 2;

fn summarize_at(bytes: &[u8], file_name: &str, depth: usize) -> Result<Summary> {
    let ext = file_name.rsplit_once('.').map_or("", |(_, e)| e);
    if let Some(pointer) = lfs::pointer(bytes) {
        return Err(Error::new(file_name, 0, pointer.describe()));
    }
    match detect(bytes, file_name) {
        Some(FormatKind::Compressed(_)) if depth >= MAX_NESTING => {
            Err(Error::new("compressed file", 0, "a package, not a container nested this deep"))
        }
        Some(FormatKind::Compressed(format)) => {
            // Named `.uz`/`.uz2` but not recognised by its bytes: read as the name says, so
            // that the error speaks of that format.
            let uz = match uz::detect(bytes) {
                Some(_) => uz::decompress(bytes)?,
                None => uz::decompress_as(bytes, format, uz::MAX_DECOMPRESSED)?,
            };
            let inner = uz
                .original_name
                .clone()
                .or_else(|| uz::inner_file_name(file_name).map(str::to_owned))
                .unwrap_or_else(|| "compressed.u".to_owned());
            let contents = summarize_at(&uz.data, &inner, depth + 1)
                .map_err(|e| e.within(format!("{inner} (decompressed)")))?;
            Ok(Summary::Compressed(summary::CompressedSummary {
                format: uz.format,
                original_name: uz.original_name,
                compressed_size: bytes.len(),
                size: uz.data.len(),
                contents: Box::new(contents),
            }))
        }
        Some(FormatKind::Umod) => Ok(Summary::Umod(summary::umod_summary(&umod::Umod::parse(bytes)?))),
        Some(FormatKind::Package) => {
            let package = Package::parse(bytes)?;
            Ok(Summary::Package(summary::package_summary(&package)))
        }
        Some(FormatKind::Psk) => Ok(Summary::Psk(summary::psk_summary(&psk::Psk::parse(bytes)?))),
        Some(FormatKind::Psa) => Ok(Summary::Psa(summary::psa_summary(&psk::Psa::parse(bytes)?))),
        Some(FormatKind::U3d) => Ok(Summary::U3d(summary::u3d_summary(&u3d::U3d::parse(bytes)?))),
        Some(FormatKind::Wav) => Ok(Summary::Wav(summary::wav_summary(&wav::Wav::parse(bytes)?))),
        Some(FormatKind::Image(_)) => {
            Ok(Summary::Image(summary::image_summary(&image::ImageInfo::parse(bytes, ext)?)))
        }
        Some(FormatKind::VertexMeshData | FormatKind::VertexMeshAnimation) => Err(Error::new(
            "vertex mesh",
            0,
            "both the _d.3d and the _a.3d file (use summarize_vertex_mesh)",
        )),
        None => Err(Error::new(
            "file",
            0,
            "a package (or a compressed .uz/.uz2 one), .umod installer, vertex mesh, PSK/PSA, u3d, PCX/BMP/TGA/DDS/PNG image or WAV sound",
        )),
    }
}

/// The bytes a package reader reads from a file's bytes: a compressed file (`.uz`, `.uz2`)
/// decompressed (bounded by [`uz::MAX_DECOMPRESSED`]), any other file as it is.
pub fn package_bytes(bytes: &[u8]) -> Result<std::borrow::Cow<'_, [u8]>> {
    if bytes.len() >= 4
        && u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]])
            == package::PACKAGE_SIGNATURE
    {
        return Ok(std::borrow::Cow::Borrowed(bytes));
    }
    match uz::detect(bytes) {
        Some(_) => Ok(std::borrow::Cow::Owned(uz::decompress(bytes)?.data)),
        None => Ok(std::borrow::Cow::Borrowed(bytes)),
    }
}

/// A package's name from its file's name: the name without folder and extension, and
/// without `.uz`/`.uz2` first (`Maps/CTF-Face.unr.uz` is the package `CTF-Face`).
pub fn package_name(file_name: &str) -> &str {
    let base = file_name.rsplit(['/', '\\']).next().unwrap_or(file_name);
    let base = uz::inner_file_name(base).unwrap_or(base);
    match base.rsplit_once('.') {
        Some((stem, _)) if !stem.is_empty() => stem,
        _ => base,
    }
}

/// Reads a `_d.3d` data file and its `_a.3d` animation file together.
pub fn summarize_vertex_mesh(data_file: &[u8], aniv_file: &[u8]) -> Result<Summary> {
    let mesh = vertex_mesh::VertexMesh::parse(data_file, aniv_file)?;
    Ok(Summary::VertexMesh(summary::vertex_mesh_summary(&mesh)))
}
