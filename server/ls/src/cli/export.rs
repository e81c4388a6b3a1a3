//! `unreal-ls export FILE [--object NAME] [--to png|glb|obj|txt] -o OUT`: textures and
//! import images to PNG, `TextBuffers` to `.uc` text, vertex meshes, package meshes, PSK
//! (with a PSA) and Ultimate 3D models to binary glTF, T3D polygons to glTF or OBJ. A package
//! without `--object` exports every texture, TextBuffer and mesh it holds into the folder `OUT`.
//!
//! Exit codes: 0 when everything asked for was written, 1 when something could not be read
//! or exported (named on stderr; the rest is still written), 2 on a usage error.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use unreal_analysis::fs::RealFs;
use unreal_analysis::lint::LintOptions;
use unreal_assets::export::{
    self, mesh_files, write_glb, write_obj, ExportKind, FrameSequence, Model,
};
use unreal_assets::object_select::{self, ObjectSpec, SelectError};
use unreal_assets::package::PackageFile;
use unreal_assets::preview::{browser::palette_swatch, encode_png};
use unreal_formats::decode::RgbaImage;
use unreal_formats::mapped::read_regular;
use unreal_formats::package::Package;
use unreal_formats::{detect, FormatKind};

use super::settings::{unused_help, SettingsArgs};
use super::{EXIT_CLEAN, EXIT_FINDINGS, EXIT_USAGE};

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Target {
    /// PNG image (textures, palettes, import images).
    Png,
    /// Binary glTF 2.0 (meshes, PSK, T3D polygons).
    Glb,
    /// Wavefront OBJ (meshes and T3D polygons, base pose only).
    Obj,
    /// Text (a TextBuffer's UnrealScript source).
    Txt,
    /// The files `#exec MESH IMPORT` reads (a UE1 vertex mesh): `Models\NAME_d.3d`,
    /// `Models\NAME_a.3d` and its textures under the `-o` folder, as `exec-lines` names them.
    #[value(name = "3d")]
    ThreeD,
}

impl Target {
    /// The name `--to` takes.
    fn name(self) -> &'static str {
        match self {
            Target::Png => "png",
            Target::Glb => "glb",
            Target::Obj => "obj",
            Target::Txt => "txt",
            Target::ThreeD => "3d",
        }
    }
}

#[derive(clap::Args)]
#[command(mut_arg("engine_build", unused_help("export", "it reads no #exec line")))]
pub struct ExportArgs {
    /// The file to export from: a package, a `_d.3d` or `_a.3d` mesh, a PSK, a u3d, an image
    /// or a T3D.
    pub file: PathBuf,
    /// The object inside a package: `Name`, `Group.Name`, or with its class,
    /// `Class'Group.Name'` (any case). A name several objects share must be given its class.
    #[arg(long)]
    pub object: Option<String>,
    /// The class of `--object` (`--object AssaultRifle_1st --class SkeletalMesh`).
    #[arg(long, requires = "object")]
    pub class: Option<String>,
    /// What to write; by default, from the extension of `-o`.
    #[arg(long = "to", value_enum)]
    pub to: Option<Target>,
    /// The output file (or folder, for a whole package).
    #[arg(short = 'o', long = "output")]
    pub output: PathBuf,
    /// The UnrealScript class whose `#exec` lines import the vertex mesh: its `MESH SEQUENCE`s
    /// become animations and its `MESHMAP SETTEXTURE` textures are embedded.
    #[arg(long)]
    pub uc: Option<PathBuf>,
    /// A PSA whose sequences animate the PSK (default: `NAME.psa` next to `NAME.psk`).
    #[arg(long)]
    pub psa: Option<PathBuf>,
    /// Texture images for the mesh's material slots, in slot order (PSK and u3d materials, or
    /// vertex mesh texture numbers from 0).
    #[arg(long = "texture")]
    pub textures: Vec<PathBuf>,
    /// The mip level of a texture (0 is full size).
    #[arg(long, default_value_t = 0)]
    pub mip: usize,
    /// A T3D map: write its brushes as they are (one mesh per brush), not the level that
    /// UnrealEd's CSG builds from them.
    #[arg(long)]
    pub brushes: bool,
    /// A T3D map: write every texture it uses as PNG into the folder `-o`, one folder per
    /// package (`OUT/Package/Group.Name.png`), found in the game folder and package paths;
    /// those that cannot be found or read are listed (and make the exit status 1).
    #[arg(long = "textures", conflicts_with_all = ["object", "brushes", "to"])]
    pub map_textures: bool,
    /// A map's level: parts to leave out of it, by name (`--leave-out static-meshes,actors`).
    #[arg(long = "leave-out", value_enum, value_delimiter = ',')]
    pub leave_out: Vec<super::map_render::LevelPartArg>,
    /// Replace files that exist (without it, an existing file is an error and is left alone).
    /// A symbolic link at a destination is removed, never written through.
    #[arg(long)]
    pub force: bool,
    // The game folder and package paths texture a map's level and a mesh's materials held in
    // other packages; the engine places a T3D map's brushes.
    #[command(flatten)]
    pub settings: SettingsArgs,
}

type Outcome = Result<(), String>;

pub fn run(args: &ExportArgs) -> ExitCode {
    FORCE.store(args.force, std::sync::atomic::Ordering::Relaxed);
    *INPUTS.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = std::iter::once(&args.file)
        .chain(&args.uc)
        .chain(&args.psa)
        .chain(&args.textures)
        .cloned()
        .collect();
    let disk = super::input::disk_path(&args.file);
    INPUTS.lock().unwrap_or_else(std::sync::PoisonError::into_inner).push(disk.clone());
    // A member of an installer gets the settings of the archive, where it stands.
    let options = match args.settings.options_for(&disk) {
        Ok(options) => options,
        Err(code) => return code,
    };
    let opened_as = file_state(&disk);
    let bytes = match super::input::open(&args.file) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("error: {}: {}", args.file.display(), super::printable_line(&e));
            return ExitCode::from(EXIT_FINDINGS);
        }
    };
    *READ_AS.lock().unwrap_or_else(std::sync::PoisonError::into_inner) =
        opened_as.map(|state| (disk.clone(), state));
    let name = bytes.name.clone();
    let target = args.to.or_else(|| target_of(&args.output));
    let result = match detect(&bytes, &name) {
        Some(FormatKind::Package | FormatKind::Compressed(_)) => {
            export_package(args, &options, &bytes, &name, target)
        }
        Some(kind @ (FormatKind::VertexMeshData | FormatKind::VertexMeshAnimation)) => {
            export_vertex_mesh(args, &bytes, kind, target)
        }
        Some(FormatKind::Psk) => export_psk(args, &options, &bytes, target),
        Some(FormatKind::U3d) => export_u3d(args, &bytes, target),
        Some(FormatKind::Image(_)) => match target {
            None | Some(Target::Png) => {
                let ext = name.rsplit_once('.').map_or("", |(_, e)| e);
                export::image_png(&bytes, ext)
                    .map_err(|e| e.to_string())
                    .and_then(|png| write(&args.output, &png))
            }
            Some(t) => Err(format!("an image exports to png, not {}", t.name())),
        },
        _ if is_t3d(&name, &bytes) => {
            let text = unreal_syntax::text::decode(&bytes).text;
            let stem = stem(&args.file);
            let glb = matches!(target, None | Some(Target::Glb));
            // Refused, as `diff` and `render` refuse it: a file made of mismatched blocks
            // would be read whole (about 1 KB a mismatch) to export nothing.
            let too_broken = unreal_analysis::t3d::in_pieces::too_broken(&text);
            let map = too_broken.is_none()
                && unreal_analysis::t3d::brushes::has_brush_actors(&text);
            // A map of actors and no brush (static meshes, a terrain, a clipboard copy of
            // actors): a level of its actors.
            let actors = map
                || (too_broken.is_none() && unreal_analysis::t3d::brushes::actor_count(&text) > 0);
            if let Some(stop) = too_broken {
                Err(stop.message(&text))
            } else if args.map_textures {
                export_map_textures(args, &options, &text)
            } else if actors && glb && !args.brushes {
                // A map: the level built from its brushes, textured from the game folder.
                export_level(args, &options, &stem, &text)
            } else if actors && !map {
                Err("the map holds actors but no brush: its level, with the actors, exports to glb (without --brushes)".to_owned())
            } else if map {
                // A map's brushes, each placed as the engine's CSG places it.
                let scene = export::map_scene(&stem, &text, options.engine.fixed());
                match target {
                    None | Some(Target::Glb) => write(&args.output, &export::write_map_glb(&scene)),
                    _ => write_model(&scene.to_model(), target, &args.output),
                }
            } else {
                export::t3d_brush_model(&stem, &text)
                    .map_err(|e| e.to_string())
                    .and_then(|m| write_model(&m, target, &args.output))
            }
        }
        Some(FormatKind::Umod) => Err(format!(
            "a .umod installer holds files, not objects: export one of them, named {}:FOLDER/FILE (unreal-ls info {} lists them)",
            args.file.display(),
            args.file.display()
        )),
        _ => Err("not a package, vertex mesh, PSK, u3d, image or T3D file".to_owned()),
    };
    if let Err(e) = bytes.check() {
        // What was written came from bytes another program changed meanwhile.
        eprintln!("error: {}: {e}; what was exported from it may be wrong", args.file.display());
        return ExitCode::from(EXIT_FINDINGS);
    }
    match result {
        Ok(()) => ExitCode::from(EXIT_CLEAN),
        Err(message) if message.starts_with("usage: ") => {
            eprintln!("error: {}", &message[7..]);
            ExitCode::from(EXIT_USAGE)
        }
        Err(message) => {
            eprintln!("error: {}: {}", args.file.display(), super::printable_line(&message));
            ExitCode::from(EXIT_FINDINGS)
        }
    }
}

/// A map's built level to glTF: textures from the game folder and package paths of its
/// settings (as `lint` finds them), a note for each texture drawn in a flat colour.
fn export_level(args: &ExportArgs, options: &LintOptions, stem: &str, text: &str) -> Outcome {
    let packages = game_packages(options);
    let textures: &dyn export::LevelTextures = match packages.index() {
        Some(index) => index,
        None => &export::NoTextures,
    };
    let parts = super::map_render::level_parts(&args.leave_out);
    let scene =
        export::level_scene_of_parts(stem, text, options.engine.fixed(), textures, parts, &|| {
            false
        });
    if let Some(stopped) = &scene.stopped {
        return Err(stopped.to_string());
    }
    for note in &scene.notes {
        eprintln!("note: {}", super::printable_line(note));
    }
    let textured = scene.materials.iter().filter(|m| m.image.is_some()).count();
    write(&args.output, &export::write_level_glb(&scene))?;
    eprintln!(
        "note: the level built from {} brushes: {} surfaces ({} invisible or portal left out), {} materials ({textured} textured){}, {} actors",
        scene.brushes,
        scene.surfaces,
        scene.left_out,
        scene.materials.len(),
        scene.placed_summary(),
        scene.actors.len()
    );
    Ok(())
}

/// `--textures`: every texture a T3D map uses (a polygon's `Texture=`, an actor's texture
/// reference) that the game folder and package paths hold, as PNG in `OUT/Package/`, as the
/// map's dependencies find them ([`unreal_analysis::deps::map_needs`]); the rest listed on
/// stderr with why, and in `OUT/not-found.txt`.
fn export_map_textures(args: &ExportArgs, options: &LintOptions, text: &str) -> Outcome {
    let packages = game_packages(options);
    let Some(index) = packages.index() else {
        return Err("usage: --textures reads the map's textures from the game folder's packages: \
             set --game-dir (or package paths in unreal-ls.toml)"
            .to_owned());
    };
    let parse = unreal_syntax::t3d::parse(text);
    let needs = unreal_analysis::deps::map_needs(text, &parse, index);
    let is_texture = |u: &unreal_analysis::deps::MapUse| match u.kind {
        unreal_analysis::deps::UseKind::Texture => true,
        unreal_analysis::deps::UseKind::Object => {
            unreal_analysis::index::is_texture_class(&u.class)
        }
        unreal_analysis::deps::UseKind::Class => false,
    };
    let mut not_found: Vec<String> = Vec::new();
    let mut written = 0usize;
    for package in &needs.packages {
        for texture in package.found.iter().filter(|u| is_texture(u)) {
            let full = texture.found_as.clone().unwrap_or_else(|| texture.name.clone());
            let inside = full.split_once('.').map_or(full.as_str(), |(_, rest)| rest);
            let image = match export::LevelTextures::image(index, &full) {
                Ok(image) => image,
                Err(why) => {
                    not_found.push(why);
                    continue;
                }
            };
            let folder = args.output.join(safe_file_name(&package.name));
            let file = folder.join(format!("{}.png", safe_file_name(inside)));
            std::fs::create_dir_all(&folder)
                .map_err(|e| format!("{}: cannot create: {e}", folder.display()))?;
            write(&file, &encode_png(&image))?;
            written += 1;
        }
        for texture in package.missing.iter().filter(|u| is_texture(u)) {
            not_found.push(format!("{}: package {} does not hold it", texture.name, package.name));
        }
    }
    for texture in needs.not_found.iter().filter(|u| is_texture(u)) {
        not_found.push(format!("{}: no indexed package holds it", texture.name));
    }
    for texture in needs.unchecked.iter().filter(|u| is_texture(u)) {
        not_found.push(format!(
            "{}: not found ({})",
            texture.name,
            needs.unchecked_reason.describe()
        ));
    }
    eprintln!(
        "note: {written} textures written into {} ({} not found)",
        args.output.display(),
        not_found.len()
    );
    if not_found.is_empty() {
        return Ok(());
    }
    for why in &not_found {
        eprintln!("not found: {}", super::printable_line(why));
    }
    std::fs::create_dir_all(&args.output)
        .map_err(|e| format!("{}: cannot create: {e}", args.output.display()))?;
    let mut list = not_found.join("\n");
    list.push('\n');
    write(&args.output.join("not-found.txt"), list.as_bytes())?;
    Err(format!("{} of the map's textures could not be written", not_found.len()))
}

/// A built map's level as it stores it (its BSP), to glTF: textures from the map itself and
/// the game folder and package paths around it.
fn export_stored_level(
    args: &ExportArgs,
    stem: &str,
    package: &Package<'_>,
    others: &export::IndexedOnNeed,
) -> Outcome {
    let parts = super::map_render::level_parts(&args.leave_out);
    let scene = export::stored_level_scene_of_parts(stem, package, others, parts)
        .map_err(|e| e.to_string())?;
    for note in &scene.notes {
        eprintln!("note: {}", super::printable_line(note));
    }
    let textured = scene.materials.iter().filter(|m| m.image.is_some()).count();
    let triangles: usize = scene.primitives.iter().map(|p| p.triangles.len()).sum();
    write(&args.output, &export::write_level_glb(&scene))?;
    eprintln!(
        "note: the level the map stores: {} surfaces ({} invisible or portal left out), {triangles} triangles, {} materials ({textured} textured){}, {} actors",
        scene.surfaces,
        scene.left_out,
        scene.materials.len(),
        scene.placed_summary(),
        scene.actors.len()
    );
    Ok(())
}

fn file_name(path: &Path) -> String {
    path.file_name().and_then(|n| n.to_str()).unwrap_or_default().to_owned()
}

fn stem(path: &Path) -> String {
    path.file_stem().and_then(|n| n.to_str()).unwrap_or("export").to_owned()
}

fn target_of(output: &Path) -> Option<Target> {
    let ext = output.extension()?.to_str()?.to_ascii_lowercase();
    match ext.as_str() {
        "png" => Some(Target::Png),
        "glb" => Some(Target::Glb),
        "obj" => Some(Target::Obj),
        "txt" | "uc" => Some(Target::Txt),
        _ => None,
    }
}

fn is_t3d(name: &str, bytes: &[u8]) -> bool {
    let is_t3d_name = Path::new(name).extension().is_some_and(|e| e.eq_ignore_ascii_case("t3d"));
    is_t3d_name || {
        let head = String::from_utf8_lossy(&bytes[..bytes.len().min(64)]).to_ascii_lowercase();
        head.trim_start_matches('\u{feff}').trim_start().starts_with("begin ")
    }
}

/// `--force`: replace files that exist (set once by [`run`]).
static FORCE: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// The files the command reads (set once by [`run`]): never written over, even with `--force`.
static INPUTS: std::sync::Mutex<Vec<PathBuf>> = std::sync::Mutex::new(Vec::new());

/// The file exported and its size and modification time when it was opened (set once by
/// [`run`]): each write first checks that they have not changed.
static READ_AS: std::sync::Mutex<Option<(PathBuf, FileState)>> = std::sync::Mutex::new(None);

type FileState = (u64, Option<std::time::SystemTime>);

fn file_state(path: &Path) -> Option<FileState> {
    std::fs::metadata(path).ok().map(|m| (m.len(), m.modified().ok()))
}

/// Writes an output file through the one writer ([`super::output::write_output`]): created new
/// and renamed into place, never through a link, onto a folder, device or FIFO, or over an
/// input; an existing file (or a link, which is replaced, not followed) only with `--force`.
fn write(path: &Path, bytes: &[u8]) -> Outcome {
    // What was read from an input another program changed meanwhile (a rebuild cutting a
    // package short) may be wrong: nothing is written from it.
    let read = READ_AS.lock().unwrap_or_else(std::sync::PoisonError::into_inner).clone();
    if let Some((input, was)) = read {
        if file_state(&input) != Some(was) {
            return Err(format!(
                "{} changed while it was being read; {} was not written",
                input.display(),
                path.display()
            ));
        }
    }
    let force = FORCE.load(std::sync::atomic::Ordering::Relaxed);
    let inputs = INPUTS.lock().unwrap_or_else(std::sync::PoisonError::into_inner).clone();
    let inputs: Vec<&Path> = inputs.iter().map(PathBuf::as_path).collect();
    super::output::write_output(path, bytes, super::output::Overwrite::Force(force), &inputs)
        .map_err(|reason| format!("{}: {reason}", path.display()))
}

/// A package object's path (`Group.Name`, names as the package spells them) as one file name
/// inside the output folder: anything but letters, digits, `.`, `-` and `_` becomes `_`, so a
/// crafted name (`../../evil`, `/abs`, `C:\x`, a NUL) can never leave the folder, and a name
/// that would start with a dot gets a `_` first. Windows device names (`CON`, `NUL.Tex`,
/// `com1`), which Windows opens as devices whatever the extension, get a `_` first too, on
/// every system (an export folder is often copied to Windows); and a name is cut at
/// [`MAX_FILE_NAME`] characters (file systems refuse longer ones).
fn safe_file_name(object_path: &str) -> String {
    let mut name: String = object_path
        .chars()
        .take(MAX_FILE_NAME)
        .map(|c| if c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_') { c } else { '_' })
        .collect();
    let device = super::output::is_windows_device_name(&name);
    if name.is_empty() || name.starts_with('.') || device {
        name.insert(0, '_');
    }
    name
}

/// The longest file name [`safe_file_name`] makes, before `-2` and the extension (255 bytes
/// is the usual limit).
const MAX_FILE_NAME: usize = 200;

fn write_model(model: &Model, target: Option<Target>, output: &Path) -> Outcome {
    for note in &model.notes {
        eprintln!("note: {}", super::printable_line(note));
    }
    // A glTF mesh needs a primitive with vertices: a mesh without triangles (a UE2 skeletal
    // mesh whose geometry only its LOD models hold, a PSK cut before its faces) has nothing
    // to write.
    if model.positions.is_empty() || model.primitives.iter().all(|p| p.triangles.is_empty()) {
        return Err(format!(
            "{} has no triangles to export ({} points, {} triangles read)",
            model.name,
            model.positions.len(),
            model.primitives.iter().map(|p| p.triangles.len()).sum::<usize>()
        ));
    }
    match target {
        None | Some(Target::Glb) => write(output, &write_glb(model)),
        Some(Target::Obj) => write(output, write_obj(model).as_bytes()),
        Some(t) => Err(format!("usage: a mesh exports to glb or obj, not {}", t.name())),
    }
}

/// A file named case-insensitively like `relative` (backslashes allowed) under `root`.
fn find_ci(root: &Path, relative: &str) -> Option<PathBuf> {
    mesh_files::find_ignoring_case(&RealFs, root, relative)
}

fn read_image(path: &Path) -> Result<RgbaImage, String> {
    mesh_files::read_image(&RealFs, path)
}

fn export_vertex_mesh(
    args: &ExportArgs,
    bytes: &[u8],
    kind: FormatKind,
    target: Option<Target>,
) -> Outcome {
    let name = file_name(&args.file);
    // The class that imports the mesh poses, names and textures it: the one named with
    // `--uc`, else the one the server's preview finds (in the package folder above). The
    // class named reads the pair its `MESH IMPORT` names; else the other file lies beside.
    let class = match &args.uc {
        Some(uc) => Some(mesh_files::class_importing(&RealFs, uc, &name)?),
        None => mesh_files::importing_class(&RealFs, &args.file),
    };
    let pair = mesh_files::pair_read_by(&RealFs, &args.file, class.as_ref())?;
    let partner = if pair.given_is_data { &pair.animation } else { &pair.data };
    let other =
        read_regular(partner).map_err(|e| format!("cannot read {}: {e}", partner.display()))?;
    let (data, aniv) =
        if kind == FormatKind::VertexMeshData { (bytes, &other[..]) } else { (&other[..], bytes) };
    let mut sequences: Vec<FrameSequence> = Vec::new();
    let mut textures: Vec<(usize, RgbaImage)> = Vec::new();
    let mut mesh_name = pair.base.clone();
    let mut setup = export::MeshSetup::default();
    if let Some(class) = class {
        if args.uc.is_none() {
            // Shown from the current folder when it is below it, as the user named the mesh.
            let cwd = std::env::current_dir().unwrap_or_default();
            let shown = class.class.strip_prefix(&cwd).unwrap_or(&class.class);
            eprintln!(
                "note: posed and textured as {} imports it (pass --uc to use another class)",
                super::printable_line(&shown.display().to_string().replace('\\', "/"))
            );
        }
        let (images, notes) = class.textures(&RealFs);
        for note in notes {
            eprintln!("warning: {}", super::printable_line(&note));
        }
        textures = images;
        mesh_name = class.directives.mesh;
        sequences = class.directives.sequences;
        setup = class.directives.setup;
    }
    for (slot, path) in args.textures.iter().enumerate() {
        textures.push((slot, read_image(path)?));
    }
    let model = export::vertex_mesh_model(&mesh_name, data, aniv, &sequences, &textures, &setup)
        .map_err(|e| e.to_string())?;
    write_model(&model, target, &args.output)
}

/// A PSK (with its PSA) in the engine's axes of the file's settings: as written for UE1 or
/// an engine not known (with a note saying so), Y negated for UE2, as UT2004's import does.
fn export_psk(
    args: &ExportArgs,
    options: &LintOptions,
    bytes: &[u8],
    target: Option<Target>,
) -> Outcome {
    let stem = stem(&args.file);
    let psa_path = args.psa.clone().or_else(|| {
        let dir =
            args.file.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
        find_ci(dir, &format!("{stem}.psa"))
    });
    let psa = match &psa_path {
        Some(p) => Some(read_regular(p).map_err(|e| format!("cannot read {}: {e}", p.display()))?),
        None => None,
    };
    let textures =
        args.textures.iter().map(|p| read_image(p).map(Some)).collect::<Result<Vec<_>, _>>()?;
    let generation = options.engine.fixed();
    if generation.is_none() {
        let name = args.file.file_name().map(|n| n.to_string_lossy()).unwrap_or_default();
        eprintln!(
            "note: {} read in its own axes, as UE1's import reads a PSK; UT2004's negates Y (--engine ue2, or a UE2 game in the settings, reads it so)",
            super::printable_line(&name)
        );
    }
    let axes = export::PskAxes::of(generation);
    let model = export::psk_model(&stem, bytes, psa.as_deref(), &textures, axes)
        .map_err(|e| e.to_string())?;
    write_model(&model, target, &args.output)
}

/// An Ultimate 3D model; `--texture` images by material index, else the texture files its
/// materials name (relative to the model's folder) when they are there.
fn export_u3d(args: &ExportArgs, bytes: &[u8], target: Option<Target>) -> Outcome {
    let stem = stem(&args.file);
    let textures = if args.textures.is_empty() {
        let dir =
            args.file.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
        unreal_formats::u3d::U3d::parse(bytes)
            .map(|u| {
                u.materials
                    .iter()
                    .map(|m| {
                        let file = m.textures.iter().find(|t| t.kind == 0)?;
                        read_image(&find_ci(dir, &file.file)?).ok()
                    })
                    .collect()
            })
            .unwrap_or_default()
    } else {
        args.textures.iter().map(|p| read_image(p).map(Some)).collect::<Result<Vec<_>, _>>()?
    };
    let model = export::u3d_model(&stem, bytes, &textures).map_err(|e| e.to_string())?;
    write_model(&model, target, &args.output)
}

/// Whether `kind` can be written as `target` (any kind when no target was asked for).
fn target_fits(kind: ExportKind, target: Option<Target>) -> bool {
    match (kind, target) {
        (_, None) => true,
        (ExportKind::Image, Some(t)) => t == Target::Png,
        (ExportKind::Text, Some(t)) => t == Target::Txt,
        (ExportKind::Model, Some(t)) => matches!(t, Target::Glb | Target::Obj | Target::ThreeD),
    }
}

/// The game's packages of a file's settings, where a mesh's materials and a map's textures
/// in other packages are read: the game folder and package paths (the flags, its
/// `unreal-ls.toml`, else the game installation it stands in, as `lint` and the editor find
/// them), indexed only if something needs them.
pub(super) fn game_packages(options: &LintOptions) -> export::IndexedOnNeed {
    export::IndexedOnNeed::new(std::sync::Arc::new(RealFs), options.index_roots())
}

/// What one package object exports to, by class.
fn export_object(
    package: &Package<'_>,
    export: usize,
    target: Option<Target>,
    output: &Path,
    mip: usize,
    others: &dyn export::OtherPackages,
) -> Outcome {
    let class = package.class_name(export).to_owned();
    let wrong = |what: &str| format!("usage: a {class} exports to {what}");
    match export::export_kind(package, export) {
        Some(ExportKind::Text) => match target {
            None | Some(Target::Txt) => {
                let text =
                    export::text_buffer_source(package, export).map_err(|e| e.to_string())?;
                write(output, text.as_bytes())
            }
            _ => Err(wrong("txt")),
        },
        Some(ExportKind::Image) if class.eq_ignore_ascii_case("Palette") => match target {
            None | Some(Target::Png) => {
                let palette = package.read_palette(export).map_err(|e| e.to_string())?;
                write(output, &encode_png(&palette_swatch(&palette.colors)))
            }
            _ => Err(wrong("png")),
        },
        Some(ExportKind::Image) => match target {
            None | Some(Target::Png) => {
                let png = export::texture_png(package, export, mip).map_err(|e| e.to_string())?;
                write(output, &png)
            }
            _ => Err(wrong("png")),
        },
        Some(ExportKind::Model) if target == Some(Target::ThreeD) => {
            if !unreal_assets::exec_lines::is_vertex_mesh_class(&class) {
                return Err(wrong("glb or obj (`--to 3d` writes UE1 vertex meshes)"));
            }
            let block = unreal_assets::exec_lines::mesh_block(package, export)
                .map_err(|e| e.to_string())?;
            let inputs = INPUTS.lock().unwrap_or_else(std::sync::PoisonError::into_inner).clone();
            let inputs: Vec<&Path> = inputs.iter().map(PathBuf::as_path).collect();
            let force = FORCE.load(std::sync::atomic::Ordering::Relaxed);
            super::exec_lines::write_files(&block, output, force, &inputs)?;
            for file in &block.files {
                eprintln!("wrote {}", super::exec_lines::path_under(output, &file.path).display());
            }
            Ok(())
        }
        Some(ExportKind::Model) => {
            let model = export::package_mesh_model_with(package, export, others)
                .map_err(|e| e.to_string())?;
            write_model(&model, target, output)
        }
        None if package.texture_class_is_imageless(&class) => {
            Err(no_image(&package.export_path(export), &class))
        }
        None if package.is_ue2() && class.eq_ignore_ascii_case("MeshAnimation") => {
            let what = match package.read_mesh_animation_ue2(export) {
                Ok(a) => format!(" ({} bones, {} sequences)", a.bones.len(), a.sequences.len()),
                Err(_) => String::new(),
            };
            Err(format!(
                "{} is a MeshAnimation{what}, which has nothing to export on its own: its \
                 sequences move the bones of a SkeletalMesh (export that mesh for its geometry)",
                package.object_reference(export)
            ))
        }
        None => Err(format!(
            "{} is a {class}, which has nothing to export",
            package.object_reference(export)
        )),
    }
}

fn no_image(path: &str, class: &str) -> String {
    format!("{path} is a {class}, drawn by script at run time: it holds no image to export")
}

fn no_stored_pixels(path: &str, class: &str, mips: usize) -> String {
    if mips == 0 {
        format!(
            "{path} is a {class} with no mip level stored (its package was stripped of its pixels, as a game server's copy is): no image to export"
        )
    } else {
        format!(
            "{path} is a {class} whose pixels the package does not store (the engine makes them when it loads it): no image to export"
        )
    }
}

fn export_package(
    args: &ExportArgs,
    options: &LintOptions,
    bytes: &[u8],
    name: &str,
    target: Option<Target>,
) -> Outcome {
    // A compressed package (`.uz`, `.uz2`) is decompressed first, bounded.
    let file = PackageFile::open_named(&args.file, name, bytes).map_err(|e| e.to_string())?;
    let package = file.parse().map_err(|e| e.to_string())?;
    let others = game_packages(options);
    let is_map = unreal_assets::csg::package::level_export(&package).is_ok();
    // A folder as the output (one that exists, or a path ending in a separator) still takes
    // the map's own objects, each as its own file (`--to glb`: its static meshes).
    let to_folder = args.output.is_dir()
        || args.output.as_os_str().to_string_lossy().ends_with(['/', std::path::MAIN_SEPARATOR]);
    if is_map && args.object.is_none() && target == Some(Target::Glb) && !to_folder {
        return export_stored_level(args, &stem(&args.file), &package, &others);
    }
    if let Some(object) = &args.object {
        let spec = ObjectSpec::with_class(object, args.class.as_deref())
            .map_err(|e| format!("usage: {e}"))?;
        let fits =
            |i: usize| export::export_kind(&package, i).is_some_and(|k| target_fits(k, target));
        let export = object_select::select(&package, &spec, fits).map_err(|e| match e {
            SelectError::Ambiguous { .. } => {
                format!("usage: {}: {e} (or pass --class)", args.file.display())
            }
            SelectError::NotFound { .. } => e.to_string(),
        })?;
        return export_object(&package, export, target, &args.output, args.mip, &others);
    }
    // The whole package: every texture, TextBuffer and mesh into the folder, each under a
    // name of its own (`Name`, `Name-2` when two objects would share one).
    let mut failures = Vec::new();
    let mut written = 0;
    // Textures without an image (each with its note), by class.
    let mut skipped: Vec<(String, usize)> = Vec::new();
    let mut taken: std::collections::HashSet<String> = std::collections::HashSet::new();
    // What the package holds that nothing was written for, by class, for the message when
    // nothing at all was written.
    let mut passed_over: Vec<(String, usize)> = Vec::new();
    let pictures = target.is_none_or(|t| t == Target::Png);
    for o in package.objects() {
        // A texture with no image to write: drawn by script (UE2's `ScriptedTexture`), or
        // made by the engine when it loads (UE1's animated textures store no pixels).
        let imageless = package.texture_class_is_imageless(o.class);
        let without_image = if imageless {
            Some(no_image(&o.path, o.class))
        } else if pictures && package.texture_stores_no_pixels(o.export) {
            let mips = package.read_texture(o.export).map_or(0, |t| t.mips.len());
            Some(no_stored_pixels(&o.path, o.class, mips))
        } else {
            None
        };
        if let Some(why) = without_image.filter(|_| pictures) {
            eprintln!("note: {}: {}", args.file.display(), super::printable_line(&why));
            match skipped.iter_mut().find(|(c, _)| c == o.class) {
                Some((_, n)) => *n += 1,
                None => skipped.push((o.class.to_owned(), 1)),
            }
            continue;
        }
        if imageless || o.class.eq_ignore_ascii_case("Palette") {
            // A palette is written with the textures that use it, not on its own.
            continue;
        }
        let kind = export::export_kind(&package, o.export);
        let ext = match (kind, target) {
            (Some(ExportKind::Text), None | Some(Target::Txt)) => "uc",
            (Some(ExportKind::Model), None | Some(Target::Glb)) => "glb",
            (Some(ExportKind::Model), Some(Target::Obj)) => "obj",
            (Some(ExportKind::Image), None | Some(Target::Png)) => "png",
            _ => {
                match passed_over.iter_mut().find(|(c, _)| c == o.class) {
                    Some((_, n)) => *n += 1,
                    None => passed_over.push((o.class.to_owned(), 1)),
                }
                continue;
            }
        };
        let base = safe_file_name(&o.path);
        let mut file_name = format!("{base}.{ext}");
        let mut n = 2;
        while !taken.insert(file_name.to_ascii_lowercase()) {
            file_name = format!("{base}-{n}.{ext}");
            n += 1;
        }
        let path = args.output.join(file_name);
        let as_target = if ext == "obj" { Some(Target::Obj) } else { None };
        match export_object(&package, o.export, as_target, &path, args.mip, &others) {
            Ok(()) => written += 1,
            Err(e) => failures.push(format!("{}: {e}", super::printable_line(&o.path))),
        }
    }
    for f in &failures {
        eprintln!("error: {}: {}", args.file.display(), super::printable_line(f));
    }
    if failures.is_empty() && written == 0 {
        return Err(nothing_written(&passed_over, &skipped, target));
    }
    if failures.is_empty() {
        let skipped = match skipped.iter().map(|(_, n)| n).sum::<usize>() {
            0 => String::new(),
            n => format!(" ({n} without an image skipped)"),
        };
        println!("{written} objects written to {}{skipped}", args.output.display());
        Ok(())
    } else {
        Err(format!(
            "{} of {} objects could not be exported",
            failures.len(),
            failures.len() + written
        ))
    }
}

/// Why a whole-package export wrote nothing: what the package holds, by class, and what
/// those classes export to (nothing, or not to the `--to` asked for).
fn nothing_written(
    passed_over: &[(String, usize)],
    skipped: &[(String, usize)],
    target: Option<Target>,
) -> String {
    let mut counts: Vec<(String, usize)> = passed_over.to_vec();
    counts.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    let and = |items: Vec<String>| match items.as_slice() {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    };
    let total: usize = counts.iter().chain(skipped).map(|c| c.1).sum::<usize>();
    if total == 0 {
        return "nothing to write: the package holds no objects".to_owned();
    }
    let mut holds: Vec<String> = counts.iter().map(|(class, n)| format!("{n} {class}")).collect();
    holds.extend(skipped.iter().map(|(class, n)| format!("{n} {class}")));
    let mut message = format!(
        "nothing to write: the package holds {} object{}",
        and(holds),
        if total == 1 { "" } else { "s" }
    );
    let classes: Vec<String> = counts.iter().map(|(c, _)| c.clone()).collect();
    let why = match target {
        Some(t) => format!("none of them exports to {}", t.name()),
        None if classes.len() == 1 => format!("{} has nothing to export", and(classes)),
        None if classes.is_empty() => String::new(),
        None => format!("{} have nothing to export", and(classes)),
    };
    if !why.is_empty() {
        message.push_str("; ");
        message.push_str(&why);
    }
    if !skipped.is_empty() {
        message.push_str("; the textures hold no image (each is said above)");
    }
    message.push_str(" (textures export to PNG, TextBuffers to .uc, meshes to glTF)");
    message
}

#[cfg(test)]
mod tests {
    use super::safe_file_name;

    /// An input changed after it was opened (cut short by a rebuild, or rewritten) is not
    /// exported from: the write is refused and nothing is created.
    #[test]
    fn nothing_is_written_from_an_input_changed_meanwhile() {
        let dir =
            std::env::temp_dir().join(format!("unreal-ls-export-changed-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let input = dir.join("in.utx");
        std::fs::write(&input, vec![7u8; 4096]).unwrap();
        *super::READ_AS.lock().unwrap() = super::file_state(&input).map(|s| (input.clone(), s));
        let output = dir.join("out.png");
        assert_eq!(super::write(&output, b"ok"), Ok(()));
        std::fs::remove_file(&output).unwrap();
        std::fs::OpenOptions::new().write(true).open(&input).unwrap().set_len(100).unwrap();
        let refused = super::write(&output, b"stale").unwrap_err();
        assert!(refused.contains("changed while it was being read"), "{refused}");
        assert!(!output.exists());
        *super::READ_AS.lock().unwrap() = None;
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn crafted_object_paths_become_plain_file_names() {
        let cases = [
            ("Skins.Wood", "Skins.Wood"),
            ("../../../evil", "_.._.._.._evil"),
            ("/abs/path", "_abs_path"),
            ("C:\\x", "C__x"),
            ("a/b", "a_b"),
            ("nul\0byte", "nul_byte"),
            ("", "_"),
            (".hidden", "_.hidden"),
            ("CON", "_CON"),
            ("nul.Tex", "_nul.Tex"),
            ("Com1.Skin", "_Com1.Skin"),
            ("LPT9", "_LPT9"),
            ("Console.Tex", "Console.Tex"),
            ("COM10", "COM10"),
        ];
        for (path, expected) in cases {
            assert_eq!(safe_file_name(path), expected, "{path:?}");
        }
        assert_eq!(safe_file_name(&"x".repeat(5000)).len(), super::MAX_FILE_NAME);
    }
}
