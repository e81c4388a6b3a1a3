//! `unreal-ls fix-textures MAP... [--map OLD=NEW]... [--dry-run]`: mends the `Texture=` of a
//! map's polygons against the game folder's packages (`unreal_analysis::t3d::textures`): a
//! bare name that exactly one package holds is written out as that package's
//! `Package.Group.Name`, and each `--map OLD=NEW` replaces a name everywhere (a texture lost
//! on import, which UnrealEd would draw as its default one). What it cannot decide (a name in
//! several packages, a name in none) is listed with the candidates and left as it is.
//!
//! Each map gets its settings as `lint` gives them. The file is written back as `lint --fix`
//! writes (its encoding and line endings kept, atomically, never over an edit saved
//! meanwhile). Exit codes: 0 when every texture is found, 1 when some are left undecided (or
//! a file could not be written), 2 on a usage error (no game folder, a replacement naming no
//! texture, a file that cannot be read).

use std::collections::HashMap;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use unreal_analysis::ide::t3d::formatting::apply_edits;
use unreal_analysis::index::{IndexRoots, PackageIndex};
use unreal_analysis::t3d::textures::{texture_fixes, TextureFixes};
use unreal_analysis::LineIndex;

use super::settings::{config_errors, unused_help, SettingsArgs};
use super::{printable_line, EXIT_CLEAN, EXIT_FINDINGS, EXIT_USAGE};

#[derive(clap::Args)]
#[command(
    mut_arg("engine", unused_help("fix-textures", "textures are found by name alone")),
    mut_arg("game", unused_help("fix-textures", "textures are found by name alone")),
    mut_arg("engine_build", unused_help("fix-textures", "textures are found by name alone"))
)]
pub struct FixTexturesArgs {
    /// T3D maps.
    #[arg(required = true)]
    pub maps: Vec<PathBuf>,
    /// Replace the texture OLD (as the map writes it, any case; a bare name also matches a
    /// path ending in it) with NEW (`Package.Group.Name`, a texture of the game folder).
    /// Repeatable.
    #[arg(long = "map", value_name = "OLD=NEW", value_parser = parse_replacement)]
    pub replace: Vec<(String, String)>,
    /// Say what would change, write nothing.
    #[arg(long)]
    pub dry_run: bool,
    // The game folder and package paths the textures are looked up in.
    #[command(flatten)]
    pub settings: SettingsArgs,
}

fn parse_replacement(text: &str) -> Result<(String, String), String> {
    match text.split_once('=') {
        Some((from, to)) if !from.trim().is_empty() && !to.trim().is_empty() => {
            Ok((from.trim().to_owned(), to.trim().to_owned()))
        }
        _ => Err(format!("`{text}`: expected OLD=NEW (`--map Bkgnd=Rock.Walls.Granite`)")),
    }
}

pub fn run(args: &FixTexturesArgs) -> ExitCode {
    let stderr = &mut anstream::stderr().lock();
    let settings = match args.settings.workspace() {
        Ok(workspace) => workspace,
        Err(errors) => return config_errors(stderr, &errors),
    };
    let mut indexes: HashMap<IndexRoots, Arc<PackageIndex>> = HashMap::new();
    let mut worst = EXIT_CLEAN;
    for path in &args.maps {
        let shown = printable_line(&path.display().to_string()).into_owned();
        let roots = settings.for_file(path).options.index_roots();
        if !roots.knows_packages() {
            eprintln!(
                "error: {shown}: no game folder: textures are looked up in its packages; pass --game-dir DIR (the game's folder, the one that holds System/), set game-dir in unreal-ls.toml, or keep the map inside the game's folder"
            );
            worst = worst.max(EXIT_USAGE);
            continue;
        }
        let bytes = match std::fs::read(path) {
            Ok(bytes) => bytes,
            Err(e) => {
                eprintln!("error: {shown}: cannot read: {e}");
                worst = worst.max(EXIT_USAGE);
                continue;
            }
        };
        let decoded = unreal_syntax::text::decode(&bytes);
        let text = decoded.text.into_owned();
        let index = indexes
            .entry(roots.clone())
            .or_insert_with(|| Arc::new(PackageIndex::build_real(roots)));
        let fixes = match texture_fixes(&text, index, &args.replace) {
            Ok(fixes) => fixes,
            Err(e) => {
                eprintln!("error: {shown}: {}", printable_line(&e.to_string()));
                worst = worst.max(EXIT_USAGE);
                continue;
            }
        };
        report(&shown, &text, &fixes);
        if !fixes.undecided.is_empty() {
            worst = worst.max(EXIT_FINDINGS);
        }
        if fixes.edits.is_empty() || args.dry_run {
            continue;
        }
        let new_text = apply_edits(&text, &fixes.edits);
        let Some(new_bytes) = super::fix::encode(&new_text, decoded.encoding) else {
            eprintln!("error: {shown}: a new name has no byte in the file's encoding; not written");
            worst = worst.max(EXIT_FINDINGS);
            continue;
        };
        if let Err(e) = super::fix::replace_file(path, Some(&bytes), &new_bytes) {
            eprintln!("error: {shown}: {}", printable_line(&e.message));
            worst = worst.max(EXIT_FINDINGS);
        }
    }
    if let Err(code) = settings.check(stderr) {
        return code;
    }
    ExitCode::from(worst)
}

/// What was changed and what was left, on stderr, one line each.
fn report(shown: &str, text: &str, fixes: &TextureFixes) {
    let lines = LineIndex::new(text);
    let line_of = |offset: u32| {
        lines.line_col(text, offset, unreal_analysis::line_index::ColumnUnit::Utf8).line + 1
    };
    let uses = |n: usize| if n == 1 { "1 polygon".to_owned() } else { format!("{n} polygons") };
    for change in &fixes.qualified {
        eprintln!(
            "{shown}: {} -> {} ({}: the one package that holds it)",
            printable_line(&change.from),
            printable_line(&change.to),
            uses(change.uses)
        );
    }
    for change in &fixes.replaced {
        eprintln!(
            "{shown}: {} -> {} ({}, as asked)",
            printable_line(&change.from),
            printable_line(&change.to),
            uses(change.uses)
        );
    }
    for left in &fixes.undecided {
        let why = if left.candidates.is_empty() {
            "no package of the game folder or package paths holds it; name one with --map OLD=NEW"
                .to_owned()
        } else {
            format!(
                "several packages hold it ({}): name the one with --map {}=PACKAGE.NAME",
                left.candidates.join(", "),
                left.name
            )
        };
        eprintln!(
            "{shown}:{}: left as it is: {} ({}): {}",
            line_of(left.first.start),
            printable_line(&left.name),
            uses(left.uses),
            printable_line(&why)
        );
    }
    let changed: usize = fixes.qualified.iter().chain(&fixes.replaced).map(|c| c.uses).sum();
    let left = match fixes.undecided.len() {
        1 => "1 name".to_owned(),
        n => format!("{n} names"),
    };
    eprintln!("{shown}: {changed} texture references changed, {left} left as they are");
}
