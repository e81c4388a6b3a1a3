//! Hover on `#exec` lines: the directive, the command and each key documented from the
//! command table (with the engines that read it and whether the engine ignores it), a file
//! value with a summary of the file (mesh counts, image size and type, WAV format, package
//! contents), and a name with where the package defines it.

use std::fmt::Write as _;
use std::path::Path;

use unreal_engine::exec::{CommandSpec, KeySpec};
use unreal_engine::Engines;
use unreal_syntax::exec::{Arg, DirectiveKind};
use unreal_syntax::Span;

use super::{key_specs, line_number, name_use_at, part_at, ExecSource, LinePart, NameUse};
use crate::exec::{Expect, FileFacts, LineFacts, PathRef, Resolution, SymbolKind};
use crate::ide::t3d::hover::{Hover, HoverImage};

/// How many objects of a package a hover lists.
const MAX_PACKAGE_OBJECTS: usize = 20;

/// The hover at `offset` of a `.uc` document, or `None` off directive lines.
pub fn hover(src: &ExecSource<'_>, offset: u32) -> Option<Hover> {
    let line = src.line_at(offset)?;
    match part_at(line, offset)? {
        LinePart::Directive(span) => {
            Some(Hover::text(span, directive_markdown(line.directive.kind)))
        }
        LinePart::Command(span) | LinePart::Subcommand(span) => {
            let m = line.command?;
            let span = if m.uses_subcommand { line.words_span() } else { span };
            let mut markdown = command_markdown(m.spec, src.generation);
            if let Some(alias) = m.alias {
                let _ = write!(markdown, "\n\n*{}* ({})", alias.doc, alias.engines.name());
            }
            Some(Hover::text(span, markdown))
        }
        LinePart::Key { index, arg } => Some(key_hover(src, line, index, arg)),
        LinePart::Value { index, arg } => value_hover(src, line, index, arg, offset),
    }
}

fn directive_markdown(kind: DirectiveKind) -> String {
    let doc = match kind {
        DirectiveKind::Exec => {
            "Runs an editor command while UCC compiles the class. Runs only in a full compile of the package (not when only the script changed)."
        }
        DirectiveKind::AlwaysExec => "Runs an editor command on every compile of the class.",
        DirectiveKind::ForceExec => {
            "Runs an editor command on every compile, also when the package is only partly rebuilt."
        }
        DirectiveKind::Call => "Calls an editor command during the compile.",
        DirectiveKind::AlwaysCall => "Calls an editor command on every compile.",
        DirectiveKind::Error => "Stops the compile with the rest of the line as the error message.",
        DirectiveKind::Include => "Inserts the named `.uci` file here, as text.",
    };
    format!("**#{}** ({})\n\n{doc}", kind.name(), kind.engines().name())
}

fn required_text(key: &KeySpec) -> &'static str {
    if key.required {
        ", required"
    } else {
        ""
    }
}

/// The documentation of a command: what it does, its engines and its keys.
pub fn command_markdown(
    spec: &CommandSpec,
    generation: Option<unreal_engine::Generation>,
) -> String {
    let mut out = format!("**{}** ({})\n\n{}", spec.display_name(), spec.engines.name(), spec.doc);
    if let Some(reason) = spec.ignored {
        let _ = write!(out, "\n\nThe engine accepts this line and does nothing: {reason}.");
    }
    if let Some(g) = generation {
        if !spec.engines.includes(g) {
            let _ = write!(
                out,
                "\n\nOnly {} knows this command; the workspace targets {}.",
                spec.engines.name(),
                g.name()
            );
        }
    }
    let mut shown: Vec<&str> = Vec::new();
    let mut keys = String::new();
    for key in spec.keys {
        if shown.contains(&key.name) {
            continue;
        }
        shown.push(key.name);
        let variants: Vec<&KeySpec> = spec.key_variants(key.name).collect();
        let engines = if variants.len() > 1 || key.engines == Engines::Both {
            String::new()
        } else {
            format!(", {} only", key.engines.name())
        };
        let ignored = if variants.iter().all(|k| k.ignored.is_some()) { ", ignored" } else { "" };
        let _ = write!(
            keys,
            "\n- `{}` {}{}{engines}{ignored}",
            key.search_text(),
            key.kind.describe(),
            required_text(key)
        );
    }
    if !keys.is_empty() {
        let _ = write!(out, "\n\nKeys:{keys}");
    }
    for group in spec.one_of {
        let names: Vec<String> = group.iter().map(|k| format!("`{k}=`")).collect();
        let _ = write!(out, "\n\nNeeds one of {}.", names.join(" or "));
    }
    if !spec.keys_complete {
        out.push_str("\n\nThe engine may read more keys than these.");
    }
    if let Some(warning) = spec.missing_warning {
        let _ = write!(out, "\n\nWithout a required key the engine logs \"{warning}\".");
    }
    out
}

/// The documentation of one key (all of its per-generation entries).
pub fn key_markdown(spec: &CommandSpec, variants: &[&KeySpec]) -> String {
    let Some(first) = variants.first() else { return String::new() };
    let mut out =
        format!("**{}** {} of {}", first.search_text(), first.kind.describe(), spec.display_name());
    for key in variants {
        let _ = write!(out, "\n\n{}", key.doc);
        let mut facts = vec![key.engines.name().to_owned()];
        if key.required {
            facts.push("required".to_owned());
        }
        if let Some(reason) = key.ignored {
            facts.push(format!("ignored by the engine: {reason}"));
        }
        let _ = write!(out, "\n\n*{}*", facts.join("; "));
    }
    out
}

fn key_hover(src: &ExecSource<'_>, line: &LineFacts, _index: usize, arg: Arg) -> Hover {
    let span = arg.span();
    let Some(m) = line.command else {
        return Hover::text(span, "The line has no command the engine knows.".to_owned());
    };
    let name = arg.name_span().text(src.text);
    let variants = key_specs(line, src.text, arg, src.generation);
    if variants.is_empty() {
        let complete = if m.spec.keys_complete {
            "the engine never reads it"
        } else {
            "the engine may still read it as a property of the object it creates"
        };
        let markdown = format!(
            "`{name}` is not a key of {} that unreal-ls knows: {complete}.",
            m.spec.display_name()
        );
        return Hover::text(span, markdown);
    }
    let mut markdown = key_markdown(m.spec, &variants);
    if let Some(g) = src.generation {
        if variants.iter().all(|k| !k.engines.includes(g)) {
            let _ = write!(
                markdown,
                "\n\nThe workspace targets {}, which does not read this key.",
                g.name()
            );
        }
    }
    Hover::text(span, markdown)
}

fn value_hover(
    src: &ExecSource<'_>,
    line: &LineFacts,
    index: usize,
    arg: Arg,
    offset: u32,
) -> Option<Hover> {
    let Arg::Key { key, value } = arg else { return None };
    let key_name = key.text(src.text);
    if let Some(path) = line.paths.iter().find(|p| p.key.eq_ignore_ascii_case(key_name)) {
        // Only the token the engine reads has the resolution.
        if path.value.span.start >= value.span.start && path.value.span.end <= value.span.end {
            let mut hover = Hover::text(value.content, file_markdown(src, line, path));
            hover.image = image_thumbnail(src, path);
            return Some(hover);
        }
    }
    if let Some(name) = name_use_at(src, offset) {
        return Some(Hover::text(name.span, name_markdown(src, &name)));
    }
    Some(key_hover(src, line, index, arg))
}

// ------------------------------------------------------------------------------------------
// Files.

fn file_markdown(src: &ExecSource<'_>, line: &LineFacts, path: &PathRef) -> String {
    let mut out = format!("**{}=** `{}`", path.key, path.value.text);
    match &path.resolution {
        Resolution::Found { path: file, on_disk, case_differs } => {
            let _ = write!(out, "\n\n`{}`", src.show(file));
            if *case_differs {
                let _ = write!(
                    out,
                    "\n\nOn disk the path is spelt `{on_disk}`: found on Windows, missing on case-sensitive file systems."
                );
            }
            let _ = write!(out, "\n\n{}", summary_markdown(src, line, path, file));
        }
        Resolution::Indexed { path: file } => {
            let _ = write!(
                out,
                "\n\nFound in the game directory: `{}`\n\n{}",
                file.display(),
                summary_markdown(src, line, path, file)
            );
        }
        Resolution::Missing { beside } => {
            let folder = src
                .root()
                .map_or_else(|| "the package folder".to_owned(), |r| format!("`{}`", r.display()));
            let _ = write!(out, "\n\nNo such file under {folder}.");
            if let Some(beside) = beside {
                let _ = write!(
                    out,
                    " A file of that name lies beside this class: `{}`.",
                    beside.display()
                );
            }
        }
        Resolution::OutsidePackage { link: None } => {
            out.push_str("\n\nThe path leaves the package folder; it was not looked up.");
        }
        Resolution::OutsidePackage { link: Some(link) } => {
            let _ = write!(
                out,
                "\n\nThe path leaves the package folder through the symbolic link `{}`; nothing behind it was looked up.",
                src.show(link)
            );
        }
        Resolution::Unchecked if path.expect == Expect::Package && src.env.is_some() => {
            out.push_str(
                "\n\nNot in the package folder, and no game directory is set to look for the package in.",
            );
        }
        Resolution::Unchecked => {
            out.push_str("\n\nNot looked up: the document is not in a folder on disk.");
        }
    }
    out
}

/// What the file holds, from `unreal_formats::summarize` (or, for a vertex mesh, the pair).
fn summary_markdown(src: &ExecSource<'_>, line: &LineFacts, path: &PathRef, file: &Path) -> String {
    let Some(env) = src.env else { return String::new() };
    let Some(bytes) = env.read(file) else { return "The file cannot be read.".to_owned() };
    let name = file.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let summary = match path.expect {
        Expect::MeshData | Expect::MeshAnimation => {
            let other_key = if path.expect == Expect::MeshData { "ANIVFILE" } else { "DATAFILE" };
            let other = line.path(other_key).and_then(|p| match &p.resolution {
                Resolution::Found { path, .. } => env.read(path),
                _ => None,
            });
            match other {
                Some(other) if path.expect == Expect::MeshData => {
                    unreal_formats::summarize_vertex_mesh(&bytes, &other)
                }
                Some(other) => unreal_formats::summarize_vertex_mesh(&other, &bytes),
                None => return facts_markdown(&env.facts(file, path.expect)),
            }
        }
        _ => unreal_formats::summarize(&bytes, &name),
    };
    match summary {
        Ok(unreal_formats::Summary::Package(p)) => {
            let mut out = format!(
                "Package version {} (licensee {}), {} exports, {} imports",
                p.version, p.licensee, p.exports, p.imports
            );
            for o in p.objects.iter().take(MAX_PACKAGE_OBJECTS) {
                let detail = o.detail.as_deref().map(|d| format!(": {d}")).unwrap_or_default();
                let _ = write!(out, "\n- `{}` {}{detail}", o.path, o.class);
            }
            if p.objects.len() > MAX_PACKAGE_OBJECTS {
                let _ = write!(out, "\n- and {} more", p.objects.len() - MAX_PACKAGE_OBJECTS);
            }
            out
        }
        Ok(summary) => format!("```text\n{summary}```"),
        Err(e) => format!("The file cannot be read as expected: {e}"),
    }
}

/// The longest side of an image hover's picture, in pixels.
pub const HOVER_IMAGE_SIZE: u32 = 256;
/// Image files bigger than this are not decoded for a hover (a source image is rarely above a
/// few MB; a 4096x4096 32-bit TGA is 64 MB).
pub const HOVER_IMAGE_MAX_FILE: usize = 32 << 20;
/// A thumbnail whose PNG is bigger than this (noise compresses badly) is left out: a hover
/// carries it base64-encoded in every answer.
pub const HOVER_IMAGE_MAX_PNG: usize = 192 << 10;

/// The picture of an image file a `FILE=` names (`TEXTURE IMPORT`, `FONTFACTORY`): decoded,
/// scaled to at most [`HOVER_IMAGE_SIZE`] a side, as PNG; `None` when it is not an image
/// path, cannot be read or decoded, or is over the caps.
fn image_thumbnail(src: &ExecSource<'_>, path: &PathRef) -> Option<HoverImage> {
    if path.expect != Expect::Image {
        return None;
    }
    let (Resolution::Found { path: file, .. } | Resolution::Indexed { path: file }) =
        &path.resolution
    else {
        return None;
    };
    let bytes = src.env?.open(file)?;
    if bytes.len() > HOVER_IMAGE_MAX_FILE {
        return None;
    }
    let extension = file.extension()?.to_string_lossy().into_owned();
    let image = unreal_formats::decode::image::decode_image(&bytes, &extension).ok()?;
    let small = crate::thumbnail::thumbnail(&image, HOVER_IMAGE_SIZE);
    let png = crate::thumbnail::encode_png(&small);
    if png.is_empty() || png.len() > HOVER_IMAGE_MAX_PNG {
        return None;
    }
    let alt = file.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    Some(HoverImage { alt, png, width: small.width, height: small.height })
}

fn facts_markdown(facts: &FileFacts) -> String {
    match facts {
        FileFacts::MeshData { vertices, triangles, slots, .. } => format!(
            "Vertex mesh data: {triangles} triangles, {vertices} vertices, texture slots {}",
            slots.iter().map(u8::to_string).collect::<Vec<_>>().join(", ")
        ),
        FileFacts::MeshAnimation { frames, frame_size } => {
            format!("Vertex mesh animation: {frames} frames of {frame_size} bytes")
        }
        FileFacts::Unreadable(e) => format!("The file cannot be read as expected: {e}"),
        FileFacts::PackageVersion(version) => format!(
            "A package of version {version}, which unreal-ls does not read: its contents are not checked"
        ),
        FileFacts::Unopenable => "The file cannot be read.".to_owned(),
        FileFacts::LfsPointer { size } => format!(
            "A Git LFS pointer, not the file{}: fetch the LFS objects (`git lfs pull`).",
            size.map_or_else(String::new, |s| format!(" (the object has {s} bytes)"))
        ),
        _ => String::new(),
    }
}

// ------------------------------------------------------------------------------------------
// Names.

fn name_markdown(src: &ExecSource<'_>, name: &NameUse) -> String {
    let what = match (&name.owner, name.kind) {
        (Some(owner), SymbolKind::Sequence) => {
            format!("sequence `{}` of mesh `{owner}`", name.name)
        }
        _ => format!("{} `{}`", name.kind.name(), name.name),
    };
    let mut out = format!("**{what}**");
    let found = name.definitions(&src.table);
    if name.defines {
        let others: Vec<_> = found
            .iter()
            .filter(|f| !(f.file.is_none() && f.definition.line_span == name.line_span))
            .collect();
        out.push_str("\n\nDefined here.");
        if name.from_path {
            out.push_str(" Without `NAME=` the object is named after its file.");
        }
        for other in others {
            let _ = write!(
                out,
                "\n\nAlso defined {}.",
                where_defined(src, other.file, other.definition.line_span)
            );
        }
        if name.kind == SymbolKind::Mesh {
            let sequences: Vec<String> =
                src.table.sequences(&name.name).map(|f| f.definition.name.clone()).collect();
            if !sequences.is_empty() {
                let _ = write!(out, "\n\nSequences: {}", sequences.join(", "));
            }
        }
        return out;
    }
    if found.is_empty() {
        let scope =
            src.package_name().map_or_else(|| "this file".to_owned(), |p| format!("package `{p}`"));
        let _ = write!(out, "\n\nNo directive of {scope} defines it.");
        if let Some(package) = loaded_package_holding(src, &name.name) {
            let _ = write!(
                out,
                " Package `{package}`, loaded by `LOAD`, holds an object of that name."
            );
        }
        return out;
    }
    for f in &found {
        let mut line =
            format!("\n\nDefined {}", where_defined(src, f.file, f.definition.line_span));
        if let Some(group) = &f.definition.group {
            let _ = write!(line, " in group `{group}`");
        }
        if let Some(mesh) = &f.definition.mesh {
            let kind = if mesh.skeletal { "skeletal mesh" } else { "vertex mesh" };
            let lod = if mesh.lod { ", with LOD" } else { ", without LOD (MLOD=0)" };
            let _ = write!(line, " ({kind}{lod})");
        }
        line.push('.');
        out.push_str(&line);
    }
    out
}

/// `in this file, line 3` or `in Classes/Other.uc, line 3`.
fn where_defined(src: &ExecSource<'_>, file: Option<&Path>, line_span: Span) -> String {
    match file {
        None => format!("in this file, line {}", line_number(src.text, line_span.start)),
        Some(path) => {
            let shown = src.show(path);
            match src.read_text(path) {
                Some(text) => format!("in `{shown}`, line {}", line_number(&text, line_span.start)),
                None => format!("in `{shown}`"),
            }
        }
    }
}

fn loaded_package_holding(src: &ExecSource<'_>, name: &str) -> Option<String> {
    let env = src.env?;
    let lower = name.to_ascii_lowercase();
    src.table.loads().find_map(|load| match &load.resolution {
        Resolution::Found { path, .. } | Resolution::Indexed { path } => {
            match &*env.facts(path, Expect::Package) {
                FileFacts::Package { objects } if objects.contains(&lower) => {
                    Some(load.name.clone())
                }
                _ => None,
            }
        }
        _ => None,
    })
}
