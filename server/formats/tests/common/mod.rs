//! Shared test helpers of the formats tests: corpus access, mutations, and running every
//! reader (the writers of synthetic files are in the `unreal-test-support` crate).
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;

/// The third-party corpus next to the project, or `None` (with a printed note) when absent.
pub fn corpus() -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus");
    if dir.is_dir() {
        Some(dir)
    } else {
        unreal_test_support::corpus::absent(&format!("corpus not found at {}", dir.display()));
        None
    }
}

/// Every corpus file (relative path, bytes) whose extension is one of `exts`, sorted by path.
pub fn corpus_files(exts: &[&str]) -> Vec<(String, Vec<u8>)> {
    let Some(root) = corpus() else { return Vec::new() };
    let mut out = Vec::new();
    let mut stack = vec![root.clone()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if let Some(ext) = path.extension().and_then(|e| e.to_str()) {
                if exts.iter().any(|e| e.eq_ignore_ascii_case(ext)) {
                    let rel =
                        path.strip_prefix(&root).unwrap().to_string_lossy().replace('\\', "/");
                    out.push((rel, std::fs::read(&path).unwrap()));
                }
            }
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// Runs every reader over `bytes` (all of them, whatever the file claims to be), so that a
/// panic anywhere shows up. Results are ignored: only the absence of panics matters here.
pub fn exercise_all_readers(bytes: &[u8], name: &str) {
    use unreal_formats::{image, psk, u3d, vertex_mesh, wav, Package};
    let _ = unreal_formats::detect(bytes, name);
    let _ = unreal_formats::summarize(bytes, name);
    if let Ok(p) = Package::parse(bytes) {
        for o in p.objects() {
            let i = o.export;
            let _ = p.read_object_header(i);
            let _ = p.read_texture(i);
            let _ = p.read_palette(i);
            let _ = p.read_sound(i);
            let _ = p.read_font(i);
            let _ = p.read_text_buffer(i);
            let _ = p.read_class(i);
            let _ = p.read_class_body(i);
            let _ = p.read_byte_property_enum(i);
            let _ = p.read_enum(i);
            let _ = p.read_mesh(i);
            let _ = p.read_model(i);
            let _ = p.read_polys(i);
            let _ = p.read_level(i);
            let _ = p.read_animation(i);
            let _ = p.find(&o.path);
            let _ = p.decode_texture(i, 0, unreal_formats::decode::texture::MipSource::Auto);
            let _ = p.read_mesh_geometry(i);
            let _ = p.read_mesh_files(i);
            let _ = p.read_skeletal_mesh_ue2(i);
            let _ = p.read_mesh_animation_ue2(i);
            let _ = p.read_terrain_ue2(i).map(|t| t.triangles());
            if let Ok(mesh) = p.read_static_mesh_ue2(i) {
                for section in &mesh.sections {
                    let _ = mesh.section_triangles(section);
                }
            }
        }
    }
    for ext in ["pcx", "bmp", "tga", "dds", "png"] {
        let _ = image::ImageInfo::parse(bytes, ext);
        let _ = unreal_formats::decode::image::decode_image(bytes, ext);
    }
    if let Ok(psa) = psk::Psa::parse(bytes) {
        let _ = unreal_formats::decode::skeletal::psa_keys(bytes, &psa);
    }
    if let Ok(mesh) = vertex_mesh::VertexMesh::parse(bytes, bytes) {
        let _ = unreal_formats::decode::mesh::AnimatedMesh::from_vertex_mesh(&mesh);
    }
    let _ = wav::Wav::parse(bytes);
    let _ = psk::Psk::parse(bytes);
    let _ = psk::Psa::parse(bytes);
    if let Ok(model) = u3d::U3d::parse(bytes) {
        // Every geometry accessor, on every vertex the model claims to have.
        for (i, mesh) in model.meshes.iter().enumerate() {
            let _ = model.first_frame_counterpart(i);
            let _ = model.triangles_of(i);
            let source = model.tex_coord_source(i);
            for v in 0..=usize::from(mesh.vertices) {
                let _ = mesh.normal(v);
                let _ = mesh.uv(v);
                let _ = mesh.skin(v);
                for set in 0..=8 {
                    let _ = mesh.tex_coord(set, v);
                    let _ = source.and_then(|s| s.tex_coord(set, v));
                }
            }
        }
    }
    let _ = vertex_mesh::DataFile::parse(bytes);
    let _ = vertex_mesh::AnivFile::parse(bytes);
    let _ = vertex_mesh::VertexMesh::parse(bytes, bytes);
}

/// A small deterministic generator (xorshift64*), so that every run mutates the same way.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

/// Truncations at `cuts` offsets (the first 256 bytes densely, then spread out) and `flips`
/// copies with a few bytes overwritten by boundary values or random bytes.
pub fn mutations(bytes: &[u8], seed: u64, cuts: usize, flips: usize) -> Vec<Vec<u8>> {
    let mut rng = Rng(seed | 1);
    let mut out = Vec::new();
    let len = bytes.len();
    for i in 0..cuts {
        let cut = if i < cuts / 2 { (i * 7).min(len) } else { rng.below(len + 1) };
        out.push(bytes[..cut].to_vec());
    }
    for _ in 0..flips {
        let mut m = bytes.to_vec();
        if m.is_empty() {
            break;
        }
        let n = 1 + rng.below(4);
        for _ in 0..n {
            // Headers and tables sit near the start: aim half the flips there.
            let pos =
                if rng.below(2) == 0 { rng.below(m.len().min(512)) } else { rng.below(m.len()) };
            m[pos] = match rng.below(5) {
                0 => 0xff,
                1 => 0x00,
                2 => 0x7f,
                3 => 0x80,
                _ => rng.next() as u8,
            };
        }
        out.push(m);
    }
    out
}
