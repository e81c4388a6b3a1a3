//! The fuzzing entry points, one per target: bytes in, every reader or parser that could
//! meet those bytes run over them, results dropped. The cargo-fuzz targets in
//! `fuzz_targets/` call these, and so does the bounded stable pass in the normal test suite
//! (`server/ls/tests/robust_fuzz.rs`, which includes this file by path), so a crash found by
//! a long run is replayed by `scripts/test` through exactly the same code.
//!
//! An entry point panics only when the code under test panics, or when the oracle below
//! finds two answers that must agree and do not (the incremental T3D document against a
//! fresh lint).

use unreal_analysis::document::T3dDocument;
use unreal_analysis::lint::{lint_text, FileKind, LintOptions};
use unreal_analysis::EngineSetting;
use unreal_formats::decode::texture::MipSource;
use unreal_formats::vertex_mesh::{AnivFile, DataFile, VertexMesh};
use unreal_formats::{image, psk, summary, u3d, wav, Package};
use unreal_syntax::{text, Span};

/// The targets, by the name of their cargo-fuzz binary and their seed folder.
pub const TARGETS: [&str; 11] = [
    "package",
    "containers",
    "vertex_mesh",
    "psk_psa",
    "u3d",
    "image_wav",
    "t3d",
    "t3d_incremental",
    "t3d_level",
    "exec",
    "lsp_frames",
];

/// The corpus files that seed each target, by extension (lower case). `scripts/fuzz-long`
/// builds the cargo-fuzz seed folders with the same table; `vertex_mesh` seeds are
/// `_d.3d`/`_a.3d` pairs joined as [`vertex_mesh`] reads them, and `u3d` has no corpus file
/// (the fuzzer starts from synthetic seeds).
pub const SEED_EXTENSIONS: [(&str, &[&str]); 11] = [
    ("package", &["u", "utx", "uax", "umx", "unr", "usx", "ukx"]),
    ("containers", &["uz", "uz2", "umod", "ut2mod"]),
    ("vertex_mesh", &["3d"]),
    ("psk_psa", &["psk", "psa", "pskx"]),
    ("u3d", &["u3d"]),
    ("image_wav", &["bmp", "pcx", "tga", "dds", "png", "wav"]),
    ("t3d", &["t3d"]),
    ("t3d_incremental", &["t3d"]),
    ("t3d_level", &["t3d"]),
    ("exec", &["uc", "uci"]),
    ("lsp_frames", &[]),
];

/// Runs the entry point of `target` (one of [`TARGETS`]); `false` for an unknown name.
pub fn run(target: &str, data: &[u8]) -> bool {
    match target {
        "package" => package(data),
        "containers" => containers(data),
        "vertex_mesh" => vertex_mesh(data),
        "psk_psa" => psk_psa(data),
        "u3d" => u3d(data),
        "image_wav" => image_wav(data),
        "t3d" => t3d(data),
        "t3d_incremental" => t3d_incremental(data),
        "t3d_level" => t3d_level(data),
        "exec" => exec(data),
        "lsp_frames" => lsp_frames(data),
        _ => return false,
    }
    true
}

/// Compressed packages (`.uz`, `.uz2`) and mod installers (`.umod`): decompression under a
/// small bound (16 MiB, so that a bomb costs little), the package it holds, the archive's
/// directory and every member through `summarize`, as `info` reads them.
pub fn containers(data: &[u8]) {
    let _ = unreal_formats::detect(data, "fuzz.uz");
    if let Ok(uz) = unreal_formats::uz::decompress_with_limit(data, 16 << 20) {
        if let Ok(p) = Package::parse(&uz.data) {
            let _ = summary::package_summary(&p);
        }
    }
    if let Ok(archive) = unreal_formats::umod::Umod::parse(data) {
        let _ = summary::umod_summary(&archive);
        for entry in &archive.entries {
            if let Ok((_, bytes)) = archive.member(&entry.name) {
                let _ = unreal_formats::detect(bytes, &entry.name);
                let _ = unreal_formats::uz::decompress_with_limit(bytes, 16 << 20);
            }
        }
    }
}

/// Package tables, the summary `info` prints, and every object reader on every export it
/// reads. (Each reader's input is parsed once: `summarize` is `detect`, the parse and the
/// summary, so the parts are called here.)
pub fn package(data: &[u8]) {
    let _ = unreal_formats::detect(data, "fuzz.u");
    let Ok(p) = Package::parse(data) else { return };
    // Every object of a class the summary knows, through its reader.
    let _ = summary::package_summary(&p);
    for i in 0..p.exports.len() {
        // The first 16 exports go through every reader, so that each one's refusal of a
        // class it does not read runs too; after them a reader runs where it reads the
        // class. (Refusing cost more than reading: a refusal names the object, and with
        // nine readers on each of thousands of exports that was most of the time.)
        let every = i < 16;
        if every {
            // `find` walks every export's path.
            let _ = p.find(&p.export_path(i));
            // The object header alone (`read_texture` reads it first on every export).
            let _ = p.read_object_header(i);
        }
        // Any object, read as a texture; a small one's first mip, plain and compressed, to
        // pixels (every block decoder, DXT1 to BC7, runs on what the mutations make of it;
        // a large texture would only repeat the same blocks).
        if let Ok(t) = p.read_texture(i) {
            let small = |mips: &[unreal_formats::package::Mip<'_>]| {
                mips.first().is_some_and(|m| u64::from(m.width) * u64::from(m.height) <= 256 * 256)
            };
            if small(&t.mips) {
                let _ = p.decode_texture(i, 0, MipSource::Plain);
            }
            if small(&t.comp_mips) {
                let _ = p.decode_texture(i, 0, MipSource::Compressed);
            }
        }
        let class = p.class_name(i);
        for (classes, read) in CLASS_READERS {
            if every || classes.iter().any(|c| c.eq_ignore_ascii_case(class)) {
                read(&p, i);
            }
        }
    }
}

/// The package readers that refuse other classes, with the classes each reads (as in
/// `package::objects`: given an export of another class, a reader returns at once).
type ObjectRead = fn(&Package<'_>, usize);
const CLASS_READERS: [(&[&str], ObjectRead); 17] = [
    (&["Palette"], |p, i| drop(p.read_palette(i))),
    // Built maps' BSP: a model's node polygons drawn from its checked indices.
    (&["Model"], |p, i| {
        if let Ok(m) = p.read_model(i) {
            for n in 0..m.nodes.len() {
                drop(m.node_polygon(n));
            }
        }
    }),
    (&["Polys"], |p, i| drop(p.read_polys(i))),
    // A map's level: its actors and model, then the level built from its brushes by CSG and
    // compared with the stored BSP (every brush's model and polygons read and placed), and
    // the level as export writes it: its movers, static meshes and meshed actors read and
    // placed, its terrains.
    (&["Level"], |p, i| {
        if p.read_level(i).is_ok() {
            drop(unreal_assets::csg::package::check(p));
            let others = unreal_assets::export::NoOtherPackages;
            drop(unreal_assets::export::stored_level_scene("fuzz", p, &others));
        }
    }),
    // UE2 skeletal meshes: skeleton and raw geometry, and the PSK they convert back to.
    (&["SkeletalMesh"], |p, i| drop(p.read_skeletal_mesh_ue2(i).map(|m| m.to_psk()))),
    // UE2 static meshes, and every section's triangles drawn from their index range.
    (&["StaticMesh"], |p, i| {
        if let Ok(m) = p.read_static_mesh_ue2(i) {
            for s in &m.sections {
                drop(m.section_triangles(s));
            }
        }
    }),
    (&["MeshAnimation"], |p, i| drop(p.read_mesh_animation_ue2(i))),
    // UE2 vertex meshes, as the package export turns them into a model.
    (&["VertMesh"], |p, i| drop(unreal_assets::export::package_mesh_model(p, i))),
    // UE2 terrain: its vertices and the triangles its bitmaps draw.
    (&["TerrainInfo"], |p, i| drop(p.read_terrain_ue2(i).map(|t| t.triangles()))),
    (&["Sound", "Music"], |p, i| drop(p.read_sound(i))),
    (&["Font"], |p, i| drop(p.read_font(i))),
    (&["TextBuffer"], |p, i| drop(p.read_text_buffer(i))),
    // UE1 meshes, and the `#exec` block with the `_d.3d`/`_a.3d` pair and textures they are
    // written back as (`exec-lines`).
    (&["Mesh", "LodMesh", "SkeletalMesh"], |p, i| {
        drop(p.read_mesh(i));
        drop(unreal_assets::exec_lines::mesh_block(p, i));
    }),
    (&["Animation"], |p, i| drop(p.read_animation(i))),
    // A class is an export whose class reference is 0, which `class_name` calls `Class`.
    (&["Class"], |p, i| {
        drop(p.read_class(i));
        drop(p.read_class_body(i));
    }),
    (&["ByteProperty"], |p, i| drop(p.read_byte_property_enum(i))),
    (&["Enum"], |p, i| drop(p.read_enum(i))),
];

/// `_d.3d` + `_a.3d`: a little-endian `u32` length (taken modulo what follows) says where
/// the `_d.3d` part ends; a seed is that length, the data file and the animation file.
pub fn vertex_mesh(data: &[u8]) {
    let Some((head, rest)) = data.split_first_chunk::<4>() else { return };
    let at = (u32::from_le_bytes(*head) as usize) % (rest.len() + 1);
    let (d, a) = rest.split_at(at);
    // `summarize_vertex_mesh` is `VertexMesh::parse` and the summary: parsed once here.
    match VertexMesh::parse(d, a) {
        Ok(m) => {
            let _ = unreal_formats::summary::vertex_mesh_summary(&m);
            let _ = m.frame(0);
            let _ = m.frame(usize::from(m.aniv.frames));
        }
        // Each file on its own, so that a bad `_d.3d` still lets the `_a.3d` reader run.
        Err(_) => {
            let _ = DataFile::parse(d);
            let _ = AnivFile::parse(a);
        }
    }
}

pub fn psk_psa(data: &[u8]) {
    let _ = psk::chunks(data);
    let _ = unreal_formats::detect(data, "fuzz.psk");
    if let Ok(psk) = psk::Psk::parse(data) {
        let _ = summary::psk_summary(&psk);
    }
    if let Ok(psa) = psk::Psa::parse(data) {
        let _ = summary::psa_summary(&psa);
        let _ = unreal_formats::decode::skeletal::psa_keys(data, &psa);
    }
}

pub fn u3d(data: &[u8]) {
    if let Ok(u3d) = u3d::U3d::parse(data) {
        let _ = summary::u3d_summary(&u3d);
    }
}

/// Image headers (every format, whatever the signature says), pixel decoding, WAV headers,
/// and the format detection.
pub fn image_wav(data: &[u8]) {
    // The format comes from the signature, or else from the extension: a PNG, BMP or DDS
    // signature gives one format whatever the extension, and the readers of the same format
    // read the same bytes alike, so each format is read once (a PNG was decoded five times).
    let mut read = Vec::new();
    for ext in ["pcx", "bmp", "tga", "dds", "png"] {
        let format = image::detect(data, ext);
        if format.is_some() && read.contains(&format) {
            continue;
        }
        read.push(format);
        if let Ok(info) = image::ImageInfo::parse(data, ext) {
            let _ = summary::image_summary(&info);
            // Pixels are decoded for images of up to 256x256 (every path of our decoders and
            // of the glue around the png and image crates runs on them) and for those over
            // the limit (refused before any pixel); between the two, three quarters of the
            // time went to the png crate inflating large images, not to our code.
            let pixels = u64::from(info.width) * u64::from(info.height);
            if pixels <= 256 * 256 || pixels > unreal_formats::decode::MAX_PIXELS {
                let _ = unreal_formats::decode::image::decode_image(data, ext);
            }
        }
    }
    if let Ok(wav) = wav::Wav::parse(data) {
        let _ = summary::wav_summary(&wav);
    }
    let _ = unreal_formats::detect(data, "fuzz.bin");
}

/// Options for the analysis: the generation comes from the input, so both tables get used.
fn options(selector: u8) -> LintOptions {
    let engine = match selector % 3 {
        0 => EngineSetting::Auto,
        1 => EngineSetting::Ue1,
        _ => EngineSetting::Ue2,
    };
    LintOptions { engine, ..LintOptions::default() }
}

/// T3D, the light target: decoding, the parser and every rule (`lint_text` parses), once.
pub fn t3d(data: &[u8]) {
    let decoded = text::decode(data);
    let _ = lint_text(FileKind::T3d, &decoded.text, &options(data.first().copied().unwrap_or(0)));
}

/// T3D as a level, the way `export`, `render`, `diff` and the editor's 3D view read a map:
/// its brushes built by CSG (within the build's bounds), its movers, actors and static mesh
/// actors placed, the glTF written and the iso picture drawn; the brushes alone as `export`
/// writes a brush file; the map's actors as `diff` reads them, diffed with themselves.
pub fn t3d_level(data: &[u8]) {
    use unreal_assets::export::{self, LevelParts, NoTextures};
    use unreal_assets::preview::map::{render_map_geometry, ActorSymbols, Geometry, View};
    let decoded = text::decode(data);
    let text = &decoded.text;
    let generation = match data.first().copied().unwrap_or(0) % 3 {
        0 => None,
        1 => Some(unreal_analysis::Generation::Ue1),
        _ => Some(unreal_analysis::Generation::Ue2),
    };
    let scene = export::level_scene("fuzz", text, generation, &NoTextures);
    let _ = export::write_level_glb(&scene);
    let _ = export::write_map_glb(&export::map_scene("fuzz", text, generation));
    let _ = export::t3d_brush_model("fuzz", text).map(|m| export::write_glb(&m));
    let geometry = Geometry::Level(&NoTextures, LevelParts::default());
    let _ =
        render_map_geometry("fuzz", text, View::Iso, 64, generation, ActorSymbols::Drawn, geometry);
    let _ = render_map_geometry(
        "fuzz",
        text,
        View::Top,
        64,
        generation,
        ActorSymbols::Drawn,
        Geometry::Brushes,
    );
    if let Ok(actors) = unreal_assets::diff::read::read_map_text(text) {
        let _ = unreal_assets::diff::diff(&actors, &actors);
    }
}

/// T3D, the incremental document with one edit, whose diagnostics must equal a fresh lint
/// (see [`t3d_incremental_mismatch`]). Slower than [`t3d`] (three analyses an input), so a
/// target of its own.
pub fn t3d_incremental(data: &[u8]) {
    if let Some(mismatch) = t3d_incremental_mismatch(data) {
        panic!("incremental T3D document disagrees with a fresh lint {mismatch}");
    }
}

/// The oracle of [`t3d_incremental`]: the last eight bytes (when there are more than
/// eight) describe one edit (`start`, `end` and a snippet) applied to an incremental document
/// built from the rest; its diagnostics must then equal a fresh lint of the edited text.
/// Returns how they differ, if they do.
pub fn t3d_incremental_mismatch(data: &[u8]) -> Option<String> {
    const SNIPPETS: [&str; 8] = [
        "",
        "\r\n",
        "Begin Actor\r\n",
        "End Actor\r\n",
        "End Map",
        "\u{1F600}",
        "Flags=-1\r\n",
        "Begin ",
    ];
    let (body, edit) = match data.len().checked_sub(8) {
        Some(at) if at > 0 => (&data[..at], Some(&data[at..])),
        _ => (data, None),
    };
    let edit = edit?;
    let decoded = text::decode(body);
    let source: &str = &decoded.text;
    let options = options(data.first().copied().unwrap_or(0));
    let mut doc = T3dDocument::new(source);
    let _ = doc.diagnostics(&options);
    let len = source.len() as u32;
    let word = |i: usize| u32::from(u16::from_le_bytes([edit[i], edit[i + 1]]));
    let start = word(0) % (len + 1);
    let end = (start + word(2) % 64).min(len);
    let snippet = SNIPPETS[usize::from(edit[4]) % SNIPPETS.len()];
    doc.apply_edit(Span::new(start, end), snippet);
    let incremental = doc.diagnostics(&options);
    let fresh = lint_text(FileKind::T3d, doc.text(), &options);
    (incremental != fresh).then(|| {
        format!(
            "after replacing {start}..{end} of a {len}-byte document with {snippet:?}:\n  incremental {}\n  fresh       {}",
            brief(&incremental),
            brief(&fresh)
        )
    })
}

/// Diagnostics in one line: `code@start..end(label spans)`.
pub fn brief(diagnostics: &[unreal_analysis::Diagnostic]) -> String {
    let items: Vec<String> = diagnostics
        .iter()
        .map(|d| {
            let labels: Vec<String> =
                d.labels.iter().map(|l| format!("{}..{}", l.span.start, l.span.end)).collect();
            format!("{}@{}..{}({})", d.code, d.span.start, d.span.end, labels.join(","))
        })
        .collect();
    items.join(" ")
}

/// `#exec`: decoding and the `.uc` analysis without a file system (`lint_text` runs the
/// scanner and each directive's line parser).
pub fn exec(data: &[u8]) {
    let decoded = text::decode(data);
    let options = options(data.first().copied().unwrap_or(0));
    let _ = lint_text(FileKind::UnrealScript, &decoded.text, &options);
}

/// The language server's input layer (`unreal_ls::lsp::framing`): the bytes as a client
/// stream, fed in chunks whose sizes the first bytes choose. Whatever the input, every frame
/// passed on is one JSON object the protocol library reads, every answer is a JSON-RPC error
/// response, and the frames do not depend on how the input was cut.
pub fn lsp_frames(data: &[u8]) {
    use unreal_ls::lsp::framing::{Deframer, Frame};
    let (cuts, stream) = data.split_at(data.len().min(4));
    let run = |chunk_sizes: &[u8]| {
        let mut deframer = Deframer::new();
        let mut frames = Vec::new();
        let mut rest = stream;
        let mut i = 0;
        while !rest.is_empty() {
            let size =
                usize::from(chunk_sizes.get(i % chunk_sizes.len().max(1)).copied().unwrap_or(0))
                    .max(1);
            let (chunk, tail) = rest.split_at(size.min(rest.len()));
            frames.extend(deframer.push(chunk));
            rest = tail;
            i += 1;
        }
        frames.extend(deframer.finish());
        frames
    };
    let frames = run(cuts);
    for frame in &frames {
        match frame {
            Frame::Message(body) | Frame::Logged { body, .. } => {
                let value: serde_json::Value =
                    serde_json::from_slice(body).expect("a passed frame is JSON");
                assert!(value.is_object(), "a passed frame is one object");
            }
            Frame::Rejected { response: Some(body), .. } => {
                let value: serde_json::Value =
                    serde_json::from_slice(body).expect("an answer is JSON");
                assert!(value["error"]["code"].is_i64(), "an answer is an error response");
            }
            Frame::Rejected { response: None, .. } => {}
        }
    }
    assert_eq!(frames, run(&[255]), "frames do not depend on the cuts");
}
