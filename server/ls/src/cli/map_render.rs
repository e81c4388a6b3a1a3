//! `unreal-ls render MAP.t3d -o MAP.png [--view top|side|front|iso] [--size N] [--brushes]`:
//! the map overview picture (see `unreal_analysis::preview::map`): brushes where the engine's
//! CSG places them (the iso view: the level built from them, textured from the game folder,
//! unless `--brushes`), actors as symbols by kind, a scale bar and the map's title.
//!
//! Exit codes: 0 when the picture was written, 1 when the map could not be read or holds
//! nothing to draw, 2 on a usage error.

use std::path::PathBuf;
use std::process::ExitCode;

use unreal_analysis::export;
use unreal_analysis::preview::map::{render_map_geometry, ActorSymbols, Geometry, View};
use unreal_analysis::EngineSetting;
use unreal_formats::printable::printable;

use super::lint::EngineArg;

use super::{EXIT_CLEAN, EXIT_FINDINGS};

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
pub struct MapRenderArgs {
    /// The T3D map (or part of one) to draw.
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
    /// The engine generation that places the brushes: UE1 rotates and scales brushes by their
    /// properties, UE2 bakes rotation and scale into the vertices; `auto` detects it from the
    /// map (UE1's placement when it cannot tell).
    #[arg(long, value_enum, default_value_t = EngineArg::Auto)]
    pub engine: EngineArg,
    /// Draw the brushes' outlines in the iso view too, not the level built from them (the
    /// other views always draw the brushes).
    #[arg(long)]
    pub brushes: bool,
}

pub fn run(args: &MapRenderArgs) -> ExitCode {
    let bytes = match unreal_formats::mapped::read_regular(&args.file) {
        Ok(bytes) => bytes,
        Err(e) => {
            eprintln!("error: {}: cannot read: {e}", args.file.display());
            return ExitCode::from(EXIT_FINDINGS);
        }
    };
    let text = unreal_syntax::text::decode(&bytes).text;
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
    let generation = EngineSetting::from(args.engine).fixed();
    let level = view == View::Iso
        && !args.brushes
        && unreal_analysis::t3d::brushes::has_brush_actors(&text);
    let packages = level.then(|| super::export::game_packages(&args.file));
    let textures: &dyn export::LevelTextures =
        match packages.as_ref().and_then(export::IndexedOnNeed::index) {
            Some(index) => index,
            None => &export::NoTextures,
        };
    let geometry = if level { Geometry::Level(textures) } else { Geometry::Brushes };
    let Some(picture) = render_map_geometry(
        &name,
        &text,
        view,
        args.size,
        generation,
        ActorSymbols::Drawn,
        geometry,
    ) else {
        eprintln!("error: {}: no brush or actor to draw (is it a T3D map?)", args.file.display());
        return ExitCode::from(EXIT_FINDINGS);
    };
    let overwrite = super::output::Overwrite::Force(args.force);
    if let Err(reason) =
        super::output::write_output(&args.output, &picture.png, overwrite, &[&args.file])
    {
        eprintln!("error: {}: {reason}", args.output.display());
        return ExitCode::from(EXIT_FINDINGS);
    }
    let surfaces = picture.surfaces.map(|n| format!(" ({n} surfaces built)")).unwrap_or_default();
    println!(
        "{}: {}x{} pixels, {} brushes{surfaces}, {} actors, {:.1} units a pixel",
        args.output.display(),
        picture.width,
        picture.height,
        picture.brushes,
        picture.actors.len(),
        picture.units_per_pixel
    );
    if !picture.outside.is_empty() {
        let named: Vec<String> =
            picture.outside.iter().take(10).map(|n| printable(n).into_owned()).collect();
        let more = picture.outside.len().saturating_sub(named.len());
        let more = if more > 0 { format!(" and {more} more") } else { String::new() };
        println!(
            "note: outside the picture, far from the rest of the map: {}{more}",
            named.join(", ")
        );
    }
    ExitCode::from(EXIT_CLEAN)
}
