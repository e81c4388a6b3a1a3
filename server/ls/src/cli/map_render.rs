//! `unreal-ls render MAP.t3d -o MAP.png [--view top|side|front|iso] [--size N] [--brushes]`:
//! the map overview picture (see `unreal_assets::preview::map`): brushes where the engine's
//! CSG places them (the iso view: the level built from them, textured from the game folder,
//! unless `--brushes`), actors as symbols by kind, a scale bar and the map's title. A built
//! map (`.unr`, `.ut2`, also compressed) is drawn from the level it stores: its BSP surfaces,
//! textured from the map and the game folder, from any view.
//!
//! Exit codes: 0 when the picture was written, 1 when the map could not be read or holds
//! nothing to draw, 2 on a usage error.

use std::path::PathBuf;
use std::process::ExitCode;

use unreal_assets::export;
use unreal_assets::package::PackageFile;
use unreal_assets::preview::map::{
    render_level_scene, render_map_geometry, ActorSymbols, Geometry, MapPicture, View,
};
use unreal_formats::printable::printable_line;

use super::settings::{unused_help, SettingsArgs};

use super::{EXIT_CLEAN, EXIT_FINDINGS};

/// A part of a map's level besides its BSP that `export` and `render` can leave out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum LevelPartArg {
    /// The static meshes placed, with their actors (UE2).
    StaticMeshes,
    /// The other actors: decorations and pickups drawn with their mesh, and the rest (lights,
    /// player starts...) drawn as points.
    Actors,
    /// A built map's terrains (UE2).
    Terrain,
    /// The movers' brushes.
    Movers,
}

/// The parts of the level the listed ones leave.
pub fn level_parts(leave_out: &[LevelPartArg]) -> export::LevelParts {
    let kept = |part| !leave_out.contains(&part);
    export::LevelParts {
        static_meshes: kept(LevelPartArg::StaticMeshes),
        actors: kept(LevelPartArg::Actors),
        terrain: kept(LevelPartArg::Terrain),
        movers: kept(LevelPartArg::Movers),
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ViewArg {
    /// From above (UnrealEd's top view).
    Top,
    /// From the side: X across, Z up.
    Side,
    /// From the front: Y across, Z up.
    Front,
    /// Isometric.
    Iso,
}

#[derive(clap::Args)]
#[command(
    mut_arg("engine", |a| a.help(ENGINE_HELP)),
    mut_arg("engine_build", unused_help("render", "it reads no #exec line"))
)]
pub struct MapRenderArgs {
    /// The map to draw: T3D (or part of one), or a built map (`.unr`, `.ut2`, or compressed),
    /// drawn from the level it stores.
    pub file: PathBuf,
    /// Where to write the PNG.
    #[arg(short = 'o', long = "output")]
    pub output: PathBuf,
    /// Replace a file that exists (without it, an existing file is an error and is left
    /// alone). A symbolic link there is replaced, never written through; the map itself is
    /// never replaced.
    #[arg(long)]
    pub force: bool,
    /// Which way to look at the map.
    #[arg(long, value_enum, default_value_t = ViewArg::Top)]
    pub view: ViewArg,
    /// The picture's longer side, in pixels (64 to 8192).
    #[arg(long, default_value_t = 1024)]
    pub size: u32,
    /// Draw the brushes' outlines in the iso view too, not the level built from them (the
    /// other views always draw the brushes). T3D only: a built map is drawn from the level it
    /// stores.
    #[arg(long)]
    pub brushes: bool,
    /// Parts of the level to leave out of the iso view and a built map's picture, by name
    /// (`--leave-out static-meshes,actors`).
    #[arg(long = "leave-out", value_enum, value_delimiter = ',')]
    pub leave_out: Vec<LevelPartArg>,
    // The engine places a T3D map's brushes; the game folder and package paths texture the
    // iso view and a built map.
    #[command(flatten)]
    pub settings: SettingsArgs,
}

/// What `--engine` does here (the shared text speaks of every command).
const ENGINE_HELP: &str = "The engine generation that places a T3D map's brushes: UE1 rotates and scales brushes by their properties, UE2 bakes rotation and scale into the vertices; `auto` detects it from the map (UE1's placement when it cannot tell) [default: unreal-ls.toml's `engine`, else the game's, else auto]";

pub fn run(args: &MapRenderArgs) -> ExitCode {
    let options = match args.settings.options_for(&args.file) {
        Ok(options) => options,
        Err(code) => return code,
    };
    let bytes = match unreal_formats::mapped::read_regular(&args.file) {
        Ok(bytes) => bytes,
        Err(e) => {
            eprintln!("error: {}: cannot read: {e}", args.file.display());
            return ExitCode::from(EXIT_FINDINGS);
        }
    };
    let name = args
        .file
        .file_stem()
        .map_or_else(|| "map".to_owned(), |s| s.to_string_lossy().into_owned());
    let view = match args.view {
        ViewArg::Top => View::Top,
        ViewArg::Side => View::Side,
        ViewArg::Front => View::Front,
        ViewArg::Iso => View::Iso,
    };
    if is_package(&args.file, &bytes) {
        return match stored_level_picture(args, &options, &bytes, view) {
            Ok(picture) => write_picture(args, &picture),
            Err(e) => {
                eprintln!("error: {}: {}", args.file.display(), printable_line(&e));
                ExitCode::from(EXIT_FINDINGS)
            }
        };
    }
    let text = unreal_syntax::text::decode(&bytes).text;
    // A file made of mismatched blocks would be read whole (about 1 KB a mismatch) for a
    // picture of nothing: refused, as `diff` refuses it.
    if let Some(stop) = unreal_analysis::t3d::in_pieces::too_broken(&text) {
        eprintln!("error: {}: {}", args.file.display(), stop.message(&text));
        return ExitCode::from(EXIT_FINDINGS);
    }
    let generation = options.engine.fixed();
    let level = view == View::Iso
        && !args.brushes
        && unreal_analysis::t3d::brushes::has_brush_actors(&text);
    let packages = level.then(|| super::export::game_packages(&options));
    let textures: &dyn export::LevelTextures =
        match packages.as_ref().and_then(export::IndexedOnNeed::index) {
            Some(index) => index,
            None => &export::NoTextures,
        };
    let geometry = if level {
        Geometry::Level(textures, level_parts(&args.leave_out))
    } else {
        Geometry::Brushes
    };
    let Some(picture) = render_map_geometry(
        &name,
        &text,
        view,
        args.size,
        generation,
        ActorSymbols::Drawn,
        geometry,
    ) else {
        // Say what the text holds: actors of kinds the picture has no symbol for, or nothing
        // a map holds at all.
        let actors = unreal_analysis::t3d::brushes::actor_count(&text);
        if actors > 0 {
            eprintln!(
                "error: {}: no brush to draw, and none of its {actors} actors is of a kind the picture draws (player starts, lights, pickups, movers, path nodes, triggers)",
                args.file.display()
            );
        } else {
            eprintln!(
                "error: {}: no brush or actor to draw (is it a T3D map?)",
                args.file.display()
            );
        }
        return ExitCode::from(EXIT_FINDINGS);
    };
    if let Some(stopped) = &picture.stopped {
        eprintln!("error: {}: {stopped}", args.file.display());
        return ExitCode::from(EXIT_FINDINGS);
    }
    write_picture(args, &picture)
}

/// Writes the picture and says what it shows.
fn write_picture(args: &MapRenderArgs, picture: &MapPicture) -> ExitCode {
    let overwrite = super::output::Overwrite::Force(args.force);
    if let Err(reason) =
        super::output::write_output(&args.output, &picture.png, overwrite, &[&args.file])
    {
        eprintln!("error: {}: {reason}", args.output.display());
        return ExitCode::from(EXIT_FINDINGS);
    }
    let geometry = match picture.surfaces {
        // A built map's stored level has surfaces and no brushes of its own to count.
        Some(n) if picture.brushes == 0 => format!("{n} surfaces"),
        Some(n) => format!("{} brushes ({n} surfaces built)", picture.brushes),
        None => format!("{} brushes", picture.brushes),
    };
    println!(
        "{}: {}x{} pixels, {geometry}, {} actors, {:.1} units a pixel",
        args.output.display(),
        picture.width,
        picture.height,
        picture.actors.len(),
        picture.units_per_pixel
    );
    if !picture.outside.is_empty() {
        let named: Vec<String> =
            picture.outside.iter().take(10).map(|n| printable_line(n).into_owned()).collect();
        let more = picture.outside.len().saturating_sub(named.len());
        let more = if more > 0 { format!(" and {more} more") } else { String::new() };
        println!(
            "note: outside the picture, far from the rest of the map: {}{more}",
            named.join(", ")
        );
    }
    ExitCode::from(EXIT_CLEAN)
}

/// Whether `file` is a package (or a compressed one, `.uz`/`.uz2`) rather than T3D text.
fn is_package(file: &std::path::Path, bytes: &[u8]) -> bool {
    let is_package = bytes.starts_with(&unreal_formats::package::PACKAGE_SIGNATURE.to_le_bytes())
        || unreal_formats::uz::detect(bytes).is_some();
    let is_t3d = file.extension().is_some_and(|e| e.eq_ignore_ascii_case("t3d"));
    is_package && !is_t3d
}

/// The picture of the level a built map (`.unr`, `.ut2`, compressed or not) stores, textured
/// from the map's own package and the game folder and package paths of its settings.
fn stored_level_picture(
    args: &MapRenderArgs,
    options: &unreal_analysis::lint::LintOptions,
    bytes: &[u8],
    view: View,
) -> Result<MapPicture, String> {
    // A compressed map is decompressed first, bounded, by the asset pipeline's one opener.
    let file = PackageFile::open(&args.file, bytes).map_err(|e| e.to_string())?;
    let package = file.parse().map_err(|e| e.to_string())?;
    let package_name = file.name();
    if unreal_assets::csg::package::level_export(&package).is_err() {
        return Err(
            "a package without a level: render draws maps (T3D, or a built .unr/.ut2)".to_owned()
        );
    }
    let others = super::export::game_packages(options);
    let scene = export::stored_level_scene_of_parts(
        package_name,
        &package,
        &others,
        level_parts(&args.leave_out),
    )
    .map_err(|e| e.to_string())?;
    for note in &scene.notes {
        eprintln!("note: {}", printable_line(note));
    }
    render_level_scene(&scene, package_name, view, args.size).ok_or_else(|| {
        format!(
            "its stored level holds no BSP surface, no static mesh, and none of its {} actors is of a kind the picture marks",
            scene.actors.len()
        )
    })
}
