//! The `#exec` block that imports a package's vertex mesh again, and the files it names
//! (`unreal-ls exec-lines`, `export --to 3d`): UT v469's Mesh Browser copies a mesh's import
//! properties; this writes the whole block, and the files UCC then reads.
//!
//! Each line follows what the editor's handler stores (`UEditorEngine::Exec_Mesh`/`MESHMAP`
//! in UT v400's `Editor/Src/UnEdSrv.cpp`, `meshImport` in `UnMeshEd.cpp`), read back from the
//! object:
//! - `MESH IMPORT` names the `_d.3d`/`_a.3d` pair written from the mesh
//!   ([`Package::mesh_files`]); `MLOD=0` for a plain `Mesh` (the default builds a
//!   LodMesh). Its `X=`/`Y=`/`Z=` are read by no build and not written.
//! - `MESH LODPARAMS` (LodMesh): `STRENGTH`, `MINVERTS`, `MORPH`, `HYSTERESIS`, `ZDISP`
//!   as stored. `LODSTYLE`, `LODFRAME` and `LODNOTEX` steer the LOD build and are not stored:
//!   the block says so in a comment.
//! - `MESH ORIGIN`: `Origin`, and `RotOrigin` divided by 256 (`GetFROTATOR(Str, RotOrigin,
//!   256)`).
//! - `MESH SEQUENCE` and `MESH NOTIFY`: every stored sequence with its rate and group, and its
//!   notifications.
//! - `MESHMAP SCALE`: `Scale`. Its texture LOD factors are computed again by the build.
//! - `MESHMAP SETTEXTURE` for each texture slot the mesh fills, preceded by a
//!   `TEXTURE IMPORT` (group, `FLAGS=` from the texture's `PolyFlags`, `MIPS=OFF` for one mip)
//!   for each texture of the same package; a texture of another package is named by its path.
//!   `TLOD=` multiplies a factor the build computes, so it cannot be told apart and is not
//!   written.
//!
//! Numbers are written as the shortest text that reads back to the same 32-bit float
//! (`appAtof`).

use std::fmt::Write as _;

use unreal_formats::package::properties::PropertyList;
use unreal_formats::package::{Package, Resolved, TextureFormat};
use unreal_formats::{Error, Result};

/// The block and the files its lines name.
#[derive(Debug, Clone, PartialEq)]
pub struct ExecBlock {
    /// Lines to put in a class, each starting with `#exec` (or `//` for a note).
    pub lines: Vec<String>,
    pub files: Vec<BlockFile>,
}

/// A file the block's lines name, at `path` under the package's folder (`Models\X_d.3d`),
/// written with the backslashes UCC's lines use.
#[derive(Debug, Clone, PartialEq)]
pub struct BlockFile {
    pub path: String,
    pub bytes: Vec<u8>,
}

/// Whether `class` (without its package) is a UE1 vertex mesh, whose block [`mesh_block`]
/// writes: `Mesh` or `LodMesh`.
pub fn is_vertex_mesh_class(class: &str) -> bool {
    class.eq_ignore_ascii_case("Mesh") || class.eq_ignore_ascii_case("LodMesh")
}

/// Why the export at `export` has no block: it is not a vertex mesh (said with its class, and
/// for a skeletal mesh why it is not written back); `None` for a vertex mesh.
pub fn not_a_vertex_mesh(package: &Package<'_>, export: usize) -> Option<String> {
    let class = package.class_name(export);
    if is_vertex_mesh_class(class) {
        return None;
    }
    Some(format!(
        "{} is a {class}: the #exec block is written for a vertex mesh (Mesh or LodMesh){}",
        package.object_reference(export),
        if class.eq_ignore_ascii_case("SkeletalMesh") {
            "; a skeletal mesh is imported from PSK and PSA files, which are not written back"
        } else {
            ""
        }
    ))
}

/// The block's first line, `MESH IMPORT`, which the mesh's name and class alone decide: the
/// language server offers it before reading the mesh. `lod`: a `LodMesh` (else `MLOD=0`).
pub fn import_line(name: &str, lod: bool) -> String {
    let (aniv, data) = mesh_file_paths(name);
    format!(
        "#exec MESH IMPORT MESH={name} ANIVFILE={aniv} DATAFILE={data}{}",
        if lod { "" } else { " MLOD=0" }
    )
}

/// The `_a.3d` and `_d.3d` files of a mesh, as its lines name them (the name made safe as a
/// file name: [`file_part`]).
fn mesh_file_paths(name: &str) -> (String, String) {
    let file_name = file_part(name);
    (format!("Models\\{file_name}_a.3d"), format!("Models\\{file_name}_d.3d"))
}

/// The `#exec` block of the UE1 `Mesh` or `LodMesh` at `export` and the files it names.
pub fn mesh_block(package: &Package<'_>, export: usize) -> Result<ExecBlock> {
    let info = package.read_mesh(export)?;
    let mesh_files = package.mesh_files(export, &info)?;
    let name =
        package.export(export).map(|e| package.name(e.object_name).to_owned()).unwrap_or_default();
    let mut lines = Vec::new();
    let mut files = Vec::new();
    let (aniv, data) = mesh_file_paths(&name);
    let lod = info.class.eq_ignore_ascii_case("LodMesh");
    lines.push(import_line(&name, lod));
    files.push(BlockFile { path: data, bytes: mesh_files.data.to_bytes() });
    files.push(BlockFile { path: aniv, bytes: mesh_files.aniv_bytes() });
    if let (true, Some(p)) = (lod, &info.lod_params) {
        lines.push(
            "// LODSTYLE, LODFRAME and LODNOTEX steer the LOD build and are not stored in the package: add the ones first used"
                .to_owned(),
        );
        lines.push(format!(
            "#exec MESH LODPARAMS MESH={name} STRENGTH={} MINVERTS={} MORPH={} HYSTERESIS={} ZDISP={}",
            number(p.strength),
            p.min_verts,
            number(p.morph),
            number(p.hysteresis),
            number(p.z_displace)
        ));
    }
    if let Some(placement) = &info.placement {
        let [x, y, z] = placement.origin.map(number);
        let [pitch, yaw, roll] = placement.rot_origin.map(|r| number(r as f32 / 256.0));
        lines.push(format!(
            "#exec MESH ORIGIN MESH={name} X={x} Y={y} Z={z} YAW={yaw} PITCH={pitch} ROLL={roll}"
        ));
    }
    for sequence in &info.sequences {
        let group = if sequence.group.eq_ignore_ascii_case("None") || sequence.group.is_empty() {
            String::new()
        } else {
            format!(" GROUP={}", sequence.group)
        };
        lines.push(format!(
            "#exec MESH SEQUENCE MESH={name} SEQ={} STARTFRAME={} NUMFRAMES={} RATE={}{group}",
            sequence.name,
            sequence.start_frame,
            sequence.frames,
            number(sequence.rate)
        ));
        for notify in &sequence.notifies {
            lines.push(format!(
                "#exec MESH NOTIFY MESH={name} SEQ={} TIME={} FUNCTION={}",
                sequence.name,
                number(notify.time),
                notify.function
            ));
        }
    }
    if let Some(placement) = &info.placement {
        let [x, y, z] = placement.scale.map(number);
        lines.push(format!("#exec MESHMAP SCALE MESHMAP={name} X={x} Y={y} Z={z}"));
    }
    // A texture in several slots is imported once.
    let mut imported: Vec<usize> = Vec::new();
    for (slot, texture) in info.textures.iter().enumerate() {
        let texture_name = match texture.resolve() {
            Resolved::None => continue,
            Resolved::Import(_) => package.ref_path(*texture),
            Resolved::Export(t) => {
                let own_name = package
                    .export(t)
                    .map(|e| package.name(e.object_name).to_owned())
                    .unwrap_or_default();
                if !imported.contains(&t) {
                    imported.push(t);
                    match texture_import(package, t) {
                        Ok((line, file)) => {
                            lines.push(line);
                            files.push(file);
                        }
                        // A texture made in the package rather than imported (a
                        // ScriptedTexture, a fractal texture), or one that does not read:
                        // said, and the rest of the block written.
                        Err(why) => lines.push(format!("// {own_name}: not written ({why})")),
                    }
                }
                own_name
            }
        };
        lines.push(format!(
            "#exec MESHMAP SETTEXTURE MESHMAP={name} NUM={slot} TEXTURE={texture_name}"
        ));
    }
    Ok(ExecBlock { lines, files })
}

/// The `TEXTURE IMPORT` line of a texture of the package and its file: an 8-bit BMP with the
/// texture's palette for P8 (every build imports it, and the indices stay as they are), else
/// a PNG of its first mip (UT v469's editor imports PNG; older builds take BMP and PCX only).
fn texture_import(
    package: &Package<'_>,
    export: usize,
) -> std::result::Result<(String, BlockFile), String> {
    let class = package.class_name(export);
    if !class.eq_ignore_ascii_case("Texture") {
        return Err(format!(
            "a {class}, made in the package rather than imported from an image: create it as the package's source does"
        ));
    }
    texture_import_of(package, export).map_err(|e| e.to_string())
}

/// [`texture_import`] of a `Texture`.
fn texture_import_of(package: &Package<'_>, export: usize) -> Result<(String, BlockFile)> {
    let texture = package.read_texture(export)?;
    let name = package.export(export).map(|e| package.name(e.object_name)).unwrap_or_default();
    let path = package.export_path(export);
    let group = path.rsplit_once('.').map(|(group, _)| group.to_owned());
    let bytes_and_extension = if texture.format == TextureFormat::P8 {
        let mip = texture
            .mips
            .first()
            .ok_or_else(|| Error::new(format!("Texture {path}"), 0, "a first mip to write"))?;
        let palette = match texture.palette.map(unreal_formats::package::ObjectRef::resolve) {
            Some(Resolved::Export(p)) => package.read_palette(p)?.colors,
            _ => {
                return Err(Error::new(
                    format!("Texture {path}"),
                    0,
                    "a palette inside this package to write the texture with",
                ))
            }
        };
        (bmp_8bit(mip.width as usize, mip.height as usize, mip.data, &palette), "bmp")
    } else {
        (crate::export::texture_png(package, export, 0)?, "png")
    };
    let (bytes, extension) = bytes_and_extension;
    // A folder per group, as authors lay their textures out (`Textures\\Skins\\X.bmp`):
    // textures of one name in two groups do not meet.
    let folders: String = group
        .as_deref()
        .map(|g| {
            g.split('.').fold(String::new(), |mut folders, part| {
                folders.push_str(&file_part(part));
                folders.push('\\');
                folders
            })
        })
        .unwrap_or_default();
    let file = format!("Textures\\{folders}{}.{extension}", file_part(name));
    let mut line = format!("#exec TEXTURE IMPORT NAME={name} FILE={file}");
    if let Some(group) = group {
        let _ = write!(line, " GROUP={group}");
    }
    let flags = texture_poly_flags(&texture.header.properties);
    if flags != 0 {
        let _ = write!(line, " FLAGS={flags}");
    }
    if texture.mips.len() == 1 {
        line.push_str(" MIPS=OFF");
    }
    Ok((line, BlockFile { path: file, bytes }))
}

/// `UTexture::PolyFlags`, what `TEXTURE IMPORT FLAGS=` sets: a native field that is stored
/// as the 32 bools declared over it (`bInvisible` is bit 0, `bMasked` bit 1, ... `bX7` bit 31:
/// `Engine/Classes/Texture.uc`), each saved when true.
fn texture_poly_flags(properties: &[unreal_formats::package::Property]) -> u32 {
    const BITS: [&str; 32] = [
        "bInvisible",
        "bMasked",
        "bTransparent",
        "bNotSolid",
        "bEnvironment",
        "bSemisolid",
        "bModulate",
        "bFakeBackdrop",
        "bTwoSided",
        "bAutoUPan",
        "bAutoVPan",
        "bNoSmooth",
        "bBigWavy",
        "bSmallWavy",
        "bWaterWavy",
        "bLowShadowDetail",
        "bNoMerge",
        "bCloudWavy",
        "bDirtyShadows",
        "bHighLedge",
        "bSpecialLit",
        "bGouraud",
        "bUnlit",
        "bHighShadowDetail",
        "bPortal",
        "bMirrored",
        "bX2",
        "bX3",
        "bX4",
        "bX5",
        "bX6",
        "bX7",
    ];
    BITS.iter()
        .enumerate()
        .filter(|(_, name)| properties.bool(name) == Some(true))
        .fold(0, |flags, (bit, _)| flags | 1 << bit)
}

/// A name from the package as a part of a file's path: letters, digits, `_` and `-` kept,
/// anything else `_` (a name is any text in a package: `..` or a separator must not lead a
/// file out of the folder it is written to).
fn file_part(name: &str) -> String {
    let part: String = name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || c == '_' || c == '-' { c } else { '_' })
        .collect();
    if part.is_empty() {
        "_".to_owned()
    } else {
        part
    }
}

/// A float as the shortest text that reads back to the same 32-bit value (Rust's `Display`,
/// which never writes an exponent).
fn number(value: f32) -> String {
    if value == 0.0 {
        "0".to_owned()
    } else {
        value.to_string()
    }
}

/// An uncompressed 8-bit BMP (`BITMAPINFOHEADER`, 256 palette entries, rows bottom-up and
/// padded to four bytes) of palette indices.
fn bmp_8bit(width: usize, height: usize, indices: &[u8], palette: &[[u8; 4]]) -> Vec<u8> {
    let row = width.div_ceil(4) * 4;
    let offset = 14 + 40 + 256 * 4;
    let size = offset + row * height;
    let mut out = Vec::with_capacity(size);
    let u32le = |out: &mut Vec<u8>, v: usize| out.extend_from_slice(&(v as u32).to_le_bytes());
    out.extend_from_slice(b"BM");
    u32le(&mut out, size);
    u32le(&mut out, 0);
    u32le(&mut out, offset);
    u32le(&mut out, 40);
    u32le(&mut out, width);
    u32le(&mut out, height);
    out.extend_from_slice(&1u16.to_le_bytes());
    out.extend_from_slice(&8u16.to_le_bytes());
    for v in [0, row * height, 2835, 2835, 256, 0] {
        u32le(&mut out, v);
    }
    for i in 0..256 {
        let [r, g, b, _] = palette.get(i).copied().unwrap_or([0, 0, 0, 255]);
        out.extend_from_slice(&[b, g, r, 0]);
    }
    for y in (0..height).rev() {
        let start = y * width;
        let line = indices.get(start..start + width).unwrap_or_default();
        out.extend_from_slice(line);
        out.resize(out.len() + (row - line.len()), 0);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_read_back_to_the_same_float() {
        for v in [0.2f32, 0.4, 1.0, -0.5, 30.0, 1e-7, 123_456.79, 0.0] {
            let text = number(v);
            assert!(!text.contains('e'), "{text}");
            assert_eq!(text.parse::<f32>().unwrap().to_bits(), v.to_bits(), "{text}");
        }
        assert_eq!(number(0.2), "0.2");
        assert_eq!(number(-0.0), "0");
    }

    #[test]
    fn names_from_a_package_stay_inside_the_folder() {
        assert_eq!(file_part(".."), "__");
        assert_eq!(file_part("a/b\\c"), "a_b_c");
        assert_eq!(file_part(""), "_");
        assert_eq!(file_part("Skin_01-b"), "Skin_01-b");
        assert_eq!(file_part("caf\u{e9}"), "caf_");
    }

    #[test]
    fn bmp_rows_are_padded_and_bottom_up() {
        let bmp = bmp_8bit(3, 2, &[1, 2, 3, 4, 5, 6], &[[10, 20, 30, 255]; 2]);
        assert_eq!(bmp.len(), 14 + 40 + 1024 + 8);
        assert_eq!(&bmp[..2], b"BM");
        // The palette is BGR0; the first row written is the image's last.
        assert_eq!(&bmp[54..58], &[30, 20, 10, 0]);
        assert_eq!(&bmp[1078..], &[4, 5, 6, 0, 1, 2, 3, 0]);
    }
}
