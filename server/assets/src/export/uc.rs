//! What an UnrealScript class's `#exec` lines say about one vertex mesh: its name, its
//! `MESH SEQUENCE`s, and which imported texture file each `MESHMAP SETTEXTURE` slot shows.
//! Plain text in, plain data out; the caller resolves the paths (relative to the package
//! folder, the parent of `Classes/`).

use super::model::FrameSequence;
use super::pose::MeshSetup;
use unreal_analysis::exec::{atof, atoi, parse_bool, FileAnalysis, LineFacts};

#[derive(Debug, Clone, PartialEq, Default)]
pub struct MeshDirectives {
    /// The `MESH=` name of the `MESH IMPORT` whose `DATAFILE` or `ANIVFILE` is the mesh.
    pub mesh: String,
    pub sequences: Vec<FrameSequence>,
    /// `(slot NUM, texture file as written)` through `MESHMAP SETTEXTURE` and
    /// `TEXTURE IMPORT`.
    pub textures: Vec<(usize, String)>,
    /// `MESH ORIGIN`, `MESHMAP SCALE` and `ZEROTEX=` (each line in order, as the engine runs
    /// them: a later line sets again what it names).
    pub setup: MeshSetup,
    /// The import's `DATAFILE=` and `ANIVFILE=` as written (relative to the package folder):
    /// the pair UCC reads, whatever the files are named (Unreal's `titand.3d`).
    pub data_file: Option<String>,
    pub aniv_file: Option<String>,
}

/// The directives of the mesh imported from a file named `mesh_file` (the `_d.3d` or `_a.3d`
/// name, compared case-insensitively without folders), or of the mesh named `mesh_file` when
/// no import names such a file. `None` when the text imports neither.
pub fn mesh_directives(text: &str, mesh_file: &str) -> Option<MeshDirectives> {
    let analysis = FileAnalysis::new(text, None, None);
    let value = |line: &LineFacts, key: &str| line.value(text, key).map(|v| v.text);
    let base = |p: &str| p.rsplit(['\\', '/']).next().unwrap_or(p).to_ascii_lowercase();
    let wanted = base(mesh_file);
    let imports: Vec<&LineFacts> =
        analysis.lines.iter().filter(|l| l.is("MESH", Some("IMPORT"))).collect();
    let import = imports
        .iter()
        .find(|l| {
            ["DATAFILE", "ANIVFILE"].iter().any(|k| value(l, k).is_some_and(|f| base(&f) == wanted))
        })
        .or_else(|| {
            imports
                .iter()
                .find(|l| value(l, "MESH").is_some_and(|m| m.eq_ignore_ascii_case(mesh_file)))
        })?;
    let mesh = value(import, "MESH")?;
    let (data_file, aniv_file) = (value(import, "DATAFILE"), value(import, "ANIVFILE"));
    let is_mesh =
        |l: &LineFacts, key: &str| value(l, key).is_some_and(|m| m.eq_ignore_ascii_case(&mesh));
    let sequences = analysis
        .lines
        .iter()
        .filter(|l| l.is("MESH", Some("SEQUENCE")) && is_mesh(l, "MESH"))
        .filter_map(|l| {
            let rate = value(l, "RATE").and_then(|r| r.trim().parse::<f32>().ok()).unwrap_or(30.0);
            Some(FrameSequence {
                name: value(l, "SEQ")?,
                start_frame: usize::try_from(atoi(&value(l, "STARTFRAME").unwrap_or_default()))
                    .ok()?,
                frames: usize::try_from(atoi(&value(l, "NUMFRAMES").unwrap_or_default())).ok()?,
                rate,
            })
        })
        .collect();
    let textures = analysis
        .lines
        .iter()
        .filter(|l| l.is("MESHMAP", Some("SETTEXTURE")) && is_mesh(l, "MESHMAP"))
        .filter_map(|l| {
            let slot = usize::try_from(atoi(&value(l, "NUM")?)).ok()?;
            let name = value(l, "TEXTURE")?;
            // The first import of that name wins, as the first `#exec` creates the object.
            let file = analysis
                .lines
                .iter()
                .filter(|t| t.is("TEXTURE", Some("IMPORT")))
                .find(|t| value(t, "NAME").is_some_and(|n| n.eq_ignore_ascii_case(&name)))
                .and_then(|t| value(t, "FILE"))?;
            Some((slot, file))
        })
        .collect();
    let mut setup = MeshSetup::default();
    let number = |l: &LineFacts, key: &str| value(l, key).map(|v| atof(&v));
    for line in &analysis.lines {
        if line.is("MESH", Some("IMPORT")) && is_mesh(line, "MESH") {
            setup.zero_tex = value(line, "ZEROTEX").is_some_and(|v| parse_bool(&v));
        } else if line.is("MESH", Some("ORIGIN")) && is_mesh(line, "MESH") {
            for (i, key) in ["X", "Y", "Z"].into_iter().enumerate() {
                if let Some(n) = number(line, key) {
                    setup.origin[i] = n;
                }
            }
            // GetFROTATOR(Str, RotOrigin, 256): 1/256 turns.
            for (i, key) in ["PITCH", "YAW", "ROLL"].into_iter().enumerate() {
                if let Some(n) = number(line, key) {
                    setup.rotation[i] = (n * 256.0) as i32;
                }
            }
        } else if (line.is("MESHMAP", Some("SCALE")) && is_mesh(line, "MESHMAP"))
            || (line.is("MESH", Some("SCALE")) && is_mesh(line, "MESH"))
        {
            for (i, key) in ["X", "Y", "Z"].into_iter().enumerate() {
                if let Some(n) = number(line, key) {
                    setup.scale[i] = n;
                }
            }
        }
    }
    Some(MeshDirectives { mesh, sequences, textures, setup, data_file, aniv_file })
}
