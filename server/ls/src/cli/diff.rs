//! `unreal-ls diff OLD.t3d NEW.t3d`: what changed between two versions of a map, in map
//! terms (see `unreal_assets::diff`). `--format json` is a versioned contract
//! (`docs/diff.md`); `--git` takes the arguments git gives an external diff driver (seven,
//! or nine for a renamed file).
//!
//! With a game folder or package paths (`--game-dir`, `--package-path`, the map's
//! `unreal-ls.toml` or `--config`, else the installation it stands in) the packages one
//! version uses that the other does not are listed too, placed as `deps` places them.
//!
//! Exit codes, like `diff`: 0 when the maps are the same, 1 when they differ, 2 on an error
//! (a file that cannot be read or is not T3D, a usage error). Under `--git` a difference is
//! exit 0: git takes any other status as the driver failing.

use std::collections::HashSet;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use unreal_analysis::deps::{map_needs, MapNeeds, PackageNeed};
use unreal_analysis::index::{IndexRoots, PackageIndex};
use unreal_assets::diff::read::{read_map_text, show_number, MapActors};
use unreal_assets::diff::{diff, ActorDiff, ActorRef, MapDiff};
use unreal_ls::diff_json::to_json;

use super::settings::{unused_help, SettingsArgs};
use super::{printable_line, EXIT_CLEAN, EXIT_FINDINGS, EXIT_USAGE};

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum DiffFormat {
    /// Grouped by kind of change, for people.
    Human,
    /// One JSON document (version 1, see docs/diff.md).
    Json,
}

#[derive(clap::Args)]
#[command(
    mut_arg("engine", unused_help("diff", "maps are compared as written")),
    mut_arg("game", unused_help("diff", "maps are compared as written")),
    mut_arg("engine_build", unused_help("diff", "maps are compared as written"))
)]
pub struct DiffArgs {
    /// The old map and the new map (with --git: the seven arguments git passes, `path
    /// old-file old-hex old-mode new-file new-hex new-mode`, or nine for a renamed file, the
    /// new path and git's rename note after them).
    #[arg(required = true, num_args = 2..=9)]
    pub files: Vec<PathBuf>,
    /// Run as git's external diff driver (`git config diff.t3d.command "unreal-ls diff --git"`).
    #[arg(long)]
    pub git: bool,
    #[arg(long, value_enum, default_value_t = DiffFormat::Human)]
    pub format: DiffFormat,
    /// Set renamed actors aside (matched by class and place: UnrealEd renumbered them); an
    /// actor renamed and changed otherwise still shows its other changes.
    #[arg(long)]
    pub ignore_renames: bool,
    // The game folder and package paths the maps' packages are placed in.
    #[command(flatten)]
    pub settings: SettingsArgs,
}

/// The packages one version of the map uses that the other does not, placed in the game
/// folder and package paths of the map's settings.
struct PackageChanges {
    /// The game folder and package paths, as the user gave or the settings found them.
    roots: IndexRoots,
    added: Vec<PackageNeed>,
    removed: Vec<PackageNeed>,
}

/// What `old` and `new` need from the packages of `roots` ([`map_needs`], as `deps` finds
/// it), compared by package name; `None` without a game folder or package path.
fn package_changes(roots: IndexRoots, old: &str, new: &str) -> Option<PackageChanges> {
    if !roots.knows_packages() {
        return None;
    }
    let index = PackageIndex::build_real(roots.clone());
    let (old, new) = rayon::join(
        || map_needs(old, &unreal_syntax::t3d::parse(old), &index),
        || map_needs(new, &unreal_syntax::t3d::parse(new), &index),
    );
    let names = |needs: &MapNeeds| -> HashSet<String> {
        needs.packages.iter().map(|p| p.name.to_ascii_lowercase()).collect()
    };
    let (old_names, new_names) = (names(&old), names(&new));
    let only = |needs: MapNeeds, other: &HashSet<String>| -> Vec<PackageNeed> {
        needs
            .packages
            .into_iter()
            .filter(|p| !other.contains(&p.name.to_ascii_lowercase()))
            .collect()
    };
    Some(PackageChanges { roots, added: only(new, &old_names), removed: only(old, &new_names) })
}

/// `Rocks (game folder) FILE`.
fn package_line(package: &PackageNeed) -> String {
    let file = package.file.as_ref().map(|f| format!(" {}", f.display())).unwrap_or_default();
    printable_line(&format!("{} ({}){file}", package.name, package.place.name())).into_owned()
}

fn package_json(package: &PackageNeed) -> serde_json::Value {
    serde_json::json!({
        "name": package.name,
        "place": package.place.name(),
        "file": package.file.as_ref().map(|f| f.display().to_string()),
    })
}

pub fn run(args: &DiffArgs) -> ExitCode {
    let (label, old_path, new_path) = match (args.git, args.files.as_slice()) {
        (false, [old, new]) => (None, old, new),
        (true, [path, old, _, _, new, _, _]) => (Some((path.clone(), path.clone())), old, new),
        // A renamed file: git adds the new path and its "similarity index" note.
        (true, [path, old, _, _, new, _, _, new_path, _]) => {
            (Some((path.clone(), new_path.clone())), old, new)
        }
        (true, _) => {
            eprintln!(
                "error: --git takes the 7 (or, for a renamed file, 9) arguments git passes to an external diff driver"
            );
            return ExitCode::from(EXIT_USAGE);
        }
        (false, _) => {
            eprintln!("error: diff takes two maps: OLD NEW");
            return ExitCode::from(EXIT_USAGE);
        }
    };
    // The map's settings: under git, those of the file in the work tree (the label), as the
    // old and new files git passes are often temporary files elsewhere.
    let settings_of = label.as_ref().map_or(new_path.as_path(), |(_, new)| new.as_path());
    let roots = match args.settings.options_for(settings_of) {
        Ok(options) => options.index_roots(),
        Err(code) => return code,
    };
    let (old, new) = rayon::join(|| read_map(old_path), || read_map(new_path));
    let ((old, old_text), (new, new_text)) = match (old, new) {
        (Ok(old), Ok(new)) => (old, new),
        (Err(e), _) | (_, Err(e)) => {
            eprintln!("error: {}", printable_line(&e));
            return ExitCode::from(EXIT_USAGE);
        }
    };
    let packages = package_changes(roots, &old_text, &new_text);
    let result = diff(&old, &new);
    let result = if args.ignore_renames { result.without_renames() } else { result };
    let shown = |p: &Path| p.to_string_lossy().replace('\\', "/");
    let (old_name, new_name) = match &label {
        Some((old, new)) => (format!("a/{}", shown(old)), format!("b/{}", shown(new))),
        None => (shown(old_path), shown(new_path)),
    };
    let mut out = io::BufWriter::new(io::stdout().lock());
    let written = match args.format {
        DiffFormat::Human => write_human(&mut out, &old_name, &new_name, &result, label.is_some())
            .and_then(|()| write_packages(&mut out, packages.as_ref())),
        DiffFormat::Json => {
            let mut document = to_json(&old_name, &new_name, &result);
            // Only with a game folder or package path: without one nothing was placed, and
            // the document stays what it was.
            if let (Some(changes), Some(map)) = (&packages, document.as_object_mut()) {
                map.insert(
                    "packages".to_owned(),
                    serde_json::json!({
                        "added": changes.added.iter().map(package_json).collect::<Vec<_>>(),
                        "removed": changes.removed.iter().map(package_json).collect::<Vec<_>>(),
                    }),
                );
            }
            serde_json::to_writer(&mut out, &document)
                .map_err(io::Error::other)
                .and_then(|()| writeln!(out))
        }
    }
    .and_then(|()| out.flush());
    if let Err(err) = written {
        if err.kind() != io::ErrorKind::BrokenPipe {
            eprintln!("error: writing the comparison: {err}");
            return ExitCode::from(EXIT_USAGE);
        }
    }
    if result.is_empty() || args.git {
        ExitCode::from(EXIT_CLEAN)
    } else {
        ExitCode::from(EXIT_FINDINGS)
    }
}

/// A map's actors and text; git's `/dev/null` (a file added or deleted) is an empty map.
fn read_map(path: &Path) -> Result<(MapActors, String), String> {
    if path == Path::new("/dev/null") {
        return Ok((MapActors::default(), String::new()));
    }
    let bytes = unreal_formats::mapped::read_regular(path)
        .map_err(|e| format!("{}: {}", path.display(), unreal_formats::mapped::io_message(&e)))?;
    if !unreal_syntax::text::looks_like_text(&bytes) {
        return Err(format!("{}: the file is binary, not a T3D map", path.display()));
    }
    let text = unreal_syntax::text::decode(&bytes).text.into_owned();
    let actors = read_map_text(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok((actors, text))
}

/// The packages the new version uses that the old one did not, and the reverse, when a game
/// folder or package path placed them and any differ (as the other sections, nothing when
/// nothing changed).
fn write_packages(out: &mut dyn Write, changes: Option<&PackageChanges>) -> io::Result<()> {
    let Some(changes) = changes else { return Ok(()) };
    if changes.added.is_empty() && changes.removed.is_empty() {
        return Ok(());
    }
    let roots: Vec<String> = changes
        .roots
        .game_dir
        .iter()
        .chain(&changes.roots.package_paths)
        .map(|d| d.display().to_string())
        .collect();
    writeln!(out, "\npackages (in {}):", printable_line(&roots.join(", ")))?;
    for package in &changes.added {
        writeln!(out, "  + {}", package_line(package))?;
    }
    for package in &changes.removed {
        writeln!(out, "  - {}", package_line(package))?;
    }
    Ok(())
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// `12 actors added, 3 removed, 40 moved, ...`, or `no changes`.
pub fn summary_line(result: &MapDiff) -> String {
    let s = result.summary();
    let mut parts = Vec::new();
    if s.added > 0 {
        parts.push(format!("{} added", plural(s.added, "actor", "actors")));
    }
    if s.removed > 0 {
        parts.push(format!("{} removed", plural(s.removed, "actor", "actors")));
    }
    if s.renamed > 0 {
        parts.push(format!("{} renamed", s.renamed));
    }
    if s.moved > 0 {
        parts.push(format!("{} moved", s.moved));
    }
    if s.properties > 0 {
        parts.push(format!("{} with changed properties", s.properties));
    }
    if s.reshaped > 0 {
        parts.push(format!("{} reshaped", plural(s.reshaped, "brush", "brushes")));
    }
    if s.brush_order_changed {
        parts.push("the CSG order of brushes changed".to_owned());
    }
    let other = result
        .changed
        .iter()
        .filter(|c| {
            !c.renamed
                && c.moved.is_none()
                && c.turned.is_none()
                && c.properties.is_empty()
                && !c.brush.as_ref().is_some_and(unreal_assets::diff::BrushChange::reshaped)
        })
        .count();
    if other > 0 {
        parts.push(format!("{} retextured or realigned", plural(other, "brush", "brushes")));
    }
    if parts.is_empty() {
        "no changes".to_owned()
    } else {
        parts.join(", ")
    }
}

fn vector(v: [f64; 3]) -> String {
    format!("({}, {}, {})", show_number(v[0]), show_number(v[1]), show_number(v[2]))
}

fn actor(a: &ActorRef) -> String {
    printable_line(&format!("{} ({})", a.name, a.class)).into_owned()
}

fn write_human(
    out: &mut dyn Write,
    old_name: &str,
    new_name: &str,
    result: &MapDiff,
    git: bool,
) -> io::Result<()> {
    if git {
        writeln!(
            out,
            "diff --unreal-ls {} {}",
            printable_line(old_name),
            printable_line(new_name)
        )?;
    }
    writeln!(
        out,
        "{} -> {}: {}",
        printable_line(old_name),
        printable_line(new_name),
        summary_line(result)
    )?;
    let section = |out: &mut dyn Write, title: &str, lines: &[String]| -> io::Result<()> {
        if lines.is_empty() {
            return Ok(());
        }
        writeln!(out, "\n{title}:")?;
        for line in lines {
            writeln!(out, "  {line}")?;
        }
        Ok(())
    };
    let added: Vec<String> = result
        .added
        .iter()
        .map(|a| format!("+ {} at {}, new line {}", actor(a), vector(a.location), a.line))
        .collect();
    section(out, "added", &added)?;
    let removed: Vec<String> = result
        .removed
        .iter()
        .map(|a| format!("- {} at {}, old line {}", actor(a), vector(a.location), a.line))
        .collect();
    section(out, "removed", &removed)?;
    let changed = |f: &dyn Fn(&ActorDiff) -> Option<String>| -> Vec<String> {
        result.changed.iter().filter_map(f).collect()
    };
    section(
        out,
        "renamed",
        &changed(&|c| {
            c.renamed.then(|| {
                format!(
                    "{} -> {} ({}), line {} -> {}",
                    printable_line(&c.old.name),
                    printable_line(&c.new.name),
                    printable_line(&c.new.class),
                    c.old.line,
                    c.new.line
                )
            })
        }),
    )?;
    section(
        out,
        "moved",
        &changed(&|c| {
            let mut parts = Vec::new();
            if let Some(d) = c.moved {
                parts.push(format!("by {}", vector(d)));
            }
            if let Some(t) = c.turned {
                let names = ["Pitch", "Yaw", "Roll"];
                let turned: Vec<String> = t
                    .iter()
                    .zip(names)
                    .filter(|(d, _)| d.abs() > 1e-3)
                    .map(|(d, n)| format!("{n} {d:+.1} deg"))
                    .collect();
                parts.push(format!("turned {}", turned.join(", ")));
            }
            (!parts.is_empty()).then(|| format!("{}: {}", actor(&c.new), parts.join("; ")))
        }),
    )?;
    section(
        out,
        "properties",
        &changed(&|c| {
            (!c.properties.is_empty()).then(|| {
                let list: Vec<String> = c
                    .properties
                    .iter()
                    .map(|p| {
                        format!(
                            "{} {} -> {}",
                            p.key,
                            p.old.as_deref().unwrap_or("(none)"),
                            p.new.as_deref().unwrap_or("(none)")
                        )
                    })
                    .collect();
                printable_line(&format!("{}: {}", actor(&c.new), list.join("; "))).into_owned()
            })
        }),
    )?;
    section(
        out,
        "brushes",
        &changed(&|c| {
            let b = c.brush.as_ref()?;
            let mut parts = Vec::new();
            for (n, what) in [
                (b.added, "added"),
                (b.removed, "removed"),
                (b.retextured, "retextured"),
                (b.flags_changed, "with other flags"),
                (b.realigned, "realigned"),
            ] {
                if n > 0 {
                    parts.push(format!("{n} {what}"));
                }
            }
            Some(format!(
                "{}: {} -> {} polygons: {}",
                actor(&c.new),
                b.old_polygons,
                b.new_polygons,
                parts.join(", ")
            ))
        }),
    )?;
    if let Some(order) = &result.brush_order {
        // Only the brushes that changed places, with their places before and after.
        let lines: Vec<String> = order
            .moved
            .iter()
            .map(|m| {
                printable_line(&format!(
                    "{}: {} -> {} of {}",
                    m.name,
                    m.old_place,
                    m.new_place,
                    order.new.len()
                ))
                .into_owned()
            })
            .collect();
        section(out, "CSG order of brushes (place before -> after)", &lines)?;
    }
    let unparsed: Vec<String> = result
        .unparsed_old
        .iter()
        .map(|(l, m)| format!("old line {l}: {m}"))
        .chain(result.unparsed_new.iter().map(|(l, m)| format!("new line {l}: {m}")))
        .map(|l| printable_line(&l).into_owned())
        .collect();
    section(out, "not compared (could not be read)", &unparsed)?;
    Ok(())
}
