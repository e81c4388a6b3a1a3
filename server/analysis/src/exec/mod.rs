//! `#exec` directives in context: the package a class belongs to, the files its directives
//! import, and the names they define across the package. The syntax layer
//! (`unreal_syntax::exec`) reads one line; this module knows about folders, binary files and
//! the other classes, and the `exec-*` rules (in `rules/`, above this) judge what it found.
//!
//! Entry points: [`with_context`] (a file on a file system, with the package around it) and
//! [`with_text_context`] (an editor buffer without a path: only what the text itself shows);
//! `rules::check_uc` and `rules::check_uc_text` run the rules through them.

pub mod env;
pub mod facts;
pub mod keys;
pub mod package;
pub mod preprocessor;
pub mod references;
pub mod resolution;
pub mod symbols;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use unreal_engine::exec::{CommandMatch, CommandSpec, KeyKind, KeySpec, Sub};
use unreal_engine::{Game, Generation, Patch};
use unreal_syntax::exec::{
    self, Arg, Directive, DirectiveKind, ExecLine, KeySearch, Lookup, ScanError,
};
use unreal_syntax::Span;

pub use crate::fs::{DirEntry, FileSystem, MemoryFs, RealFs};
pub use env::ExecEnv;
pub use facts::{Expect, FileFacts};
pub use package::{Location, Resolution};
pub use symbols::{Definition, FileSymbols, MeshSource, SymbolKind, SymbolTable};

use crate::options::LintOptions;

/// A key's value as the engine reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyValue {
    /// Quotes removed, escapes applied.
    pub text: String,
    /// The key, `=` included.
    pub key: Span,
    /// The value without quotes; empty right after `=` for `KEY=` alone.
    pub span: Span,
}

impl KeyValue {
    /// The span to underline: the value, or the key when the value is empty.
    pub fn mark(&self) -> Span {
        if self.span.is_empty() {
            self.key
        } else {
            self.span
        }
    }
}

/// A path a directive names and what it found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PathRef {
    /// The key, upper case (`FILE`, `ANIVFILE`).
    pub key: &'static str,
    pub value: KeyValue,
    pub expect: Expect,
    pub resolution: Resolution,
}

impl PathRef {
    /// True when the file found is a Git LFS pointer, not the file.
    pub fn lfs_pointer(&self, env: &ExecEnv) -> bool {
        match &self.resolution {
            Resolution::Found { path, .. } | Resolution::Indexed { path } => {
                env.is_lfs_pointer(path)
            }
            _ => false,
        }
    }
}

/// One directive line with what the checks need from it.
#[derive(Clone, Debug)]
pub struct LineFacts {
    pub directive: Directive,
    pub line: ExecLine,
    /// The command-table entry (only for `#exec`, `#AlwaysExec`, `#ForceExec`).
    pub command: Option<CommandMatch>,
    pub paths: Vec<PathRef>,
    /// The engine's lookup of every key of the command, done once: the key and what the
    /// search for `NAME=` (or `VERBOSE`, a switch) found.
    lookups: Vec<(&'static KeySpec, Option<Lookup>)>,
    verdicts: OnceLock<Vec<(Arg, keys::KeyVerdict)>>,
}

impl LineFacts {
    /// `search`: the keys of `command` ([`key_search`]).
    fn new(
        text: &str,
        directive: Directive,
        line: ExecLine,
        command: Option<CommandMatch>,
        search: Option<&KeySearch<'static>>,
    ) -> Self {
        // All of them in one pass over the line (a search of the whole line per key was the
        // largest part of building a file's analysis).
        let lookups = match search {
            Some(search) => {
                search.keys().iter().copied().zip(line.lookup_each(text, search)).collect()
            }
            None => Vec::new(),
        };
        Self { directive, line, command, paths: Vec::new(), lookups, verdicts: OnceLock::new() }
    }

    /// The engine's lookup of `search` (`NAME=`, or a switch), from the cache when the
    /// command has that key.
    pub fn lookup(&self, text: &str, search: &str) -> Option<Lookup> {
        let (name, switch) = match search.strip_suffix('=') {
            Some(name) => (name, false),
            None => (search, true),
        };
        match self.cached(name, switch) {
            Some(found) => found.clone(),
            None => self.line.lookup(text, search),
        }
    }

    /// The engine's lookup of `key` (a key of this line's command, or of another), from the
    /// cache when it holds the key: as [`LineFacts::lookup`] with the key's search text,
    /// without building that text.
    pub fn lookup_key(&self, text: &str, key: &KeySpec) -> Option<Lookup> {
        // The cache holds the command's own entries, so the entry itself is usually there:
        // found by address, without comparing names. (Any entry of the same name and kind of
        // search has the same lookup, so this is the answer a search by name gives.)
        if let Some((_, found)) = self.lookups.iter().find(|(k, _)| std::ptr::eq(*k, key)) {
            return found.clone();
        }
        match self.cached(key.name, key.kind == KeyKind::Switch) {
            Some(found) => found.clone(),
            None => self.line.lookup(text, &key.search_text()),
        }
    }

    /// The cached lookup of the key `name` (a switch or a `NAME=` key), when the command has
    /// that key.
    fn cached(&self, name: &str, switch: bool) -> Option<&Option<Lookup>> {
        self.lookups
            .iter()
            .find(|(k, _)| {
                k.name.len() == name.len()
                    && (k.kind == KeyKind::Switch) == switch
                    && k.name.eq_ignore_ascii_case(name)
            })
            .map(|(_, found)| found)
    }

    /// The verdict on every argument token (see [`keys::verdicts`]), computed once.
    pub fn verdicts(
        &self,
        text: &str,
        generation: Option<Generation>,
        patch: Option<Patch>,
    ) -> &[(Arg, keys::KeyVerdict)] {
        self.verdicts.get_or_init(|| match self.command {
            Some(m) => keys::verdicts(text, self, m, generation, patch),
            None => Vec::new(),
        })
    }

    /// The engine's reading of `KEY=` (give the name without `=`).
    pub fn value(&self, text: &str, key: &str) -> Option<KeyValue> {
        let found = match self.cached(key, false) {
            Some(found) => found.clone()?,
            None => self.line.lookup(text, &format!("{key}="))?,
        };
        Some(KeyValue {
            text: found.text(text).into_owned(),
            key: Span::from_range(found.key.clone()),
            span: Span::from_range(found.content.clone()),
        })
    }

    /// True when the line is `command sub` (through aliases; `sub` `None` for `LOAD`).
    pub fn is(&self, command: &str, sub: Option<&str>) -> bool {
        self.command.is_some_and(|m| {
            m.spec.command == command
                && match (m.spec.sub, sub) {
                    (Sub::Word(w), Some(s)) => w == s,
                    (Sub::None, None) => true,
                    _ => false,
                }
        })
    }

    /// The command words (`MESH IMPORT`), or the directive word when there are none.
    pub fn words_span(&self) -> Span {
        match (self.line.command, self.line.subcommand) {
            (Some(c), Some(s)) if self.command.is_some_and(|m| m.uses_subcommand) => c.cover(s),
            (Some(c), _) => c,
            _ => self.directive.hash_span,
        }
    }

    pub fn path(&self, key: &str) -> Option<&PathRef> {
        self.paths.iter().find(|p| p.key == key)
    }

    /// What the line imports, as the engine reads it, with the defined name left out: the
    /// command, then every key the engine finds, in table order, its value normalised the way
    /// the engine reads it (numbers and switches by value, names ignoring case, paths by the
    /// file they resolve to). Two directives with equal signatures build the same object, so
    /// re-importing one under the same name replaces the object with an identical one.
    pub fn import_signature(&self, text: &str, name: Option<Span>) -> String {
        let mut out = self.command.map(|m| m.spec.display_name()).unwrap_or_default();
        for (key, found) in &self.lookups {
            let Some(found) = found else { continue };
            if key.ignored.is_some() || Some(Span::from_range(found.content.clone())) == name {
                continue;
            }
            let raw = found.text(text);
            let value = match key.kind {
                KeyKind::Switch => "on".to_owned(),
                KeyKind::Bool => parse_bool(&raw).to_string(),
                KeyKind::Int => atoi(&raw).to_string(),
                KeyKind::Float => format!("{}", atof(&raw)),
                KeyKind::Path => match self.path(key.name).map(|p| &p.resolution) {
                    // By its components: `Pkg/./Textures/A.pcx` (a tree given as `DIR/.`) is
                    // the same file as `Pkg/Textures/A.pcx`.
                    Some(Resolution::Found { path, .. } | Resolution::Indexed { path }) => path
                        .components()
                        .collect::<PathBuf>()
                        .to_string_lossy()
                        .to_ascii_lowercase(),
                    _ => raw.replace('\\', "/").to_ascii_lowercase(),
                },
                _ => raw.to_ascii_lowercase(),
            };
            out.push(' ');
            out.push_str(key.name);
            out.push('=');
            out.push_str(&value);
        }
        out
    }
}

/// The keys of a command whose lookups a line caches: each name and kind once, in table order
/// (a key listed once per generation is looked up once).
fn key_search(spec: &'static CommandSpec) -> KeySearch<'static> {
    let mut keys: Vec<&'static KeySpec> = Vec::new();
    for key in spec.keys {
        if !keys.iter().any(|k| k.name == key.name && k.kind == key.kind) {
            keys.push(key);
        }
    }
    KeySearch::new(keys)
}

/// One file's directives, read and resolved.
#[derive(Clone, Debug)]
pub struct FileAnalysis {
    pub path: Option<PathBuf>,
    pub location: Option<Location>,
    pub scan_errors: Vec<ScanError>,
    /// What a preprocessor in front of UCC does to the file: its conditional lines and the
    /// branches it removes (whose directives are not in `lines`).
    pub preprocessed: preprocessor::Preprocessed,
    pub lines: Vec<LineFacts>,
    pub symbols: FileSymbols,
}

/// What a path key of a command is expected to hold.
pub(crate) fn expect_of(command: &str, sub: Option<&str>, key: &str) -> Expect {
    match (command, sub, key) {
        (_, _, "ANIVFILE") => Expect::MeshAnimation,
        (_, _, "DATAFILE") => Expect::MeshData,
        (_, _, "MODELFILE") => Expect::Skin,
        (_, _, "ANIMFILE") => Expect::Animation,
        ("TEXTURE", _, "FILE") | ("NEW", Some("FONTFACTORY"), "FILE") => Expect::Image,
        ("AUDIO", _, "FILE") | ("NEW", Some("SOUND"), "FILE") => Expect::Sound,
        ("LOAD", _, "FILE") => Expect::Package,
        _ => Expect::Any,
    }
}

/// `appAtoi`: optional sign and leading digits; anything else reads as 0.
pub fn atoi(text: &str) -> i64 {
    unreal_syntax::t3d::values::leading_int(text).0
}

/// `appAtof`: the longest leading decimal number (sign, digits, point, exponent); anything
/// else reads as 0.
pub fn atof(text: &str) -> f64 {
    let t = text.trim_start();
    let bytes = t.as_bytes();
    let mut end = 0;
    if matches!(bytes.first(), Some(b'-' | b'+')) {
        end = 1;
    }
    let mut seen_point = false;
    while let Some(&b) = bytes.get(end) {
        if b.is_ascii_digit() || (b == b'.' && !seen_point) {
            seen_point |= b == b'.';
            end += 1;
        } else {
            break;
        }
    }
    t.get(..end).and_then(|n| n.parse::<f64>().ok()).unwrap_or(0.0)
}

/// `ParseUBOOL` (Core/Src/UnMisc.cpp:1102): `On`, `True` or `1` (any case) are true, anything
/// else false (`Yes` too).
pub fn parse_bool(text: &str) -> bool {
    ["1", "true", "on"].iter().any(|t| t.eq_ignore_ascii_case(text.trim()))
}

impl FileAnalysis {
    /// Scans `text`, parses every directive, resolves its paths (with `env`) and collects the
    /// names it defines.
    pub fn new(text: &str, path: Option<&Path>, env: Option<&ExecEnv>) -> Self {
        let mut scan = exec::scan(text);
        let location = match (path, env) {
            (Some(path), Some(env)) => Some(Location::of(path, env)),
            _ => None,
        };
        let mode = match (path, env) {
            (Some(path), Some(env)) => env.preprocessor_mode(path),
            _ => preprocessor::Mode::Tool,
        };
        let preprocessed = preprocessor::Preprocessed::run(text, &mut scan.errors, &mode);
        // A directive in a branch the preprocessor removes never reaches the compiler.
        scan.directives.retain(|d| !preprocessed.removes(d.span.start as usize));
        let package_name = location.as_ref().and_then(|l| l.package_name()).map(str::to_owned);
        let mut lines = Vec::with_capacity(scan.directives.len());
        // The key search of each command the file uses, prepared once for all its lines.
        let mut searches: Vec<(&'static CommandSpec, KeySearch<'static>)> = Vec::new();
        for directive in &scan.directives {
            let line = exec::parse_line(text, directive);
            let command = if directive.kind.runs_command() { line.spec(text) } else { None };
            let search = command.map(|m| {
                let at = searches.iter().position(|(spec, _)| std::ptr::eq(*spec, m.spec));
                let at = at.unwrap_or_else(|| {
                    searches.push((m.spec, key_search(m.spec)));
                    searches.len() - 1
                });
                &searches[at].1
            });
            let mut facts = LineFacts::new(text, *directive, line, command, search);
            if let Some(m) = command {
                let sub = match m.spec.sub {
                    Sub::Word(w) => Some(w),
                    _ => None,
                };
                for key in m.spec.keys.iter().filter(|k| k.kind == KeyKind::Path) {
                    if facts.paths.iter().any(|p| p.key == key.name) {
                        continue;
                    }
                    let Some(value) = facts.value(text, key.name) else { continue };
                    if value.text.trim().is_empty() {
                        continue;
                    }
                    let expect = expect_of(m.spec.command, sub, key.name);
                    let resolution = match (env, &location) {
                        (Some(env), Some(location)) => {
                            resolve_path(env, location, &facts, text, &value, expect)
                        }
                        _ => Resolution::Unchecked,
                    };
                    facts.paths.push(PathRef { key: key.name, value, expect, resolution });
                }
            }
            lines.push(facts);
        }
        let mut symbols = collect_symbols(text, path, package_name.as_deref(), &lines);
        symbols.macro_calls = lines
            .iter()
            .filter(|l| matches!(l.directive.kind, DirectiveKind::Call | DirectiveKind::AlwaysCall))
            .map(|l| (l.directive.hash_span, l.directive.body_span.text(text).trim().to_owned()))
            .filter(|(_, called)| !called.is_empty())
            .collect();
        symbols.preprocessor = preprocessor::Evidence::of(text, &preprocessed, &scan.errors);
        if let Some(env) = env.filter(|e| e.game.is_some_and(|g| !g.is_stock())) {
            symbols.licensee_keys = licensee_keys(text, &lines, env);
        }
        if let Some(env) = env {
            symbols.lfs_pointers =
                lines.iter().flat_map(|l| &l.paths).filter(|p| p.lfs_pointer(env)).count();
        }
        Self {
            path: path.map(Path::to_path_buf),
            location,
            scan_errors: scan.errors,
            preprocessed,
            lines,
            symbols,
        }
    }

    pub fn is_package_class(&self) -> bool {
        self.location.as_ref().is_some_and(Location::is_package)
    }
}

/// The keys a licensee's game writes that Epic's handlers do not read, misspellings of keys
/// they do read aside (upper case, once per use).
fn licensee_keys(text: &str, lines: &[LineFacts], env: &ExecEnv) -> Vec<String> {
    let patch = env.game.and_then(Game::patch);
    let mut out = Vec::new();
    for line in lines {
        let Some(m) = line.command else { continue };
        if m.spec.ignored.is_some() {
            continue;
        }
        for &(arg, ref verdict) in line.verdicts(text, env.generation, patch) {
            let unknown = matches!(verdict, keys::KeyVerdict::Unknown { read_as: None })
                && matches!(arg, Arg::Key { .. });
            if unknown && keys::misspelling(m.spec, arg, verdict, text, env.generation).is_none() {
                out.push(arg.name_span().text(text).to_ascii_uppercase());
            }
        }
    }
    out
}

fn resolve_path(
    env: &ExecEnv,
    location: &Location,
    line: &LineFacts,
    text: &str,
    value: &KeyValue,
    expect: Expect,
) -> Resolution {
    let found = package::resolve(env, location, &value.text);
    if expect != Expect::Package || matches!(found, Resolution::Found { .. }) {
        return found;
    }
    // Written to climb out of the package folder (`..\Textures\X.utx`).
    let leaves = package::leaves_start(&value.text);
    // `LOAD` falls back to the engine's package search paths: a game package is found by
    // name wherever the path points.
    let name = line
        .value(text, "PACKAGE")
        .map_or_else(|| package::default_name(&value.text).to_owned(), |v| v.text);
    if let Some(path) = env.game_index().get(&name.to_ascii_lowercase()) {
        return Resolution::Indexed { path: path.clone() };
    }
    // The folders the path names exist under the package folder, only the file is absent:
    // the engine's LoadPackage tries the path as written (from the package folder, where UCC
    // runs the directive) and then each package path with the whole relative path appended,
    // which a path with folders in it never matches (`appFindPackageFile`, UT2004
    // `Core/Src/UnMisc.cpp:1810-1880`): the package is not loaded.
    let folders_present = location.is_package()
        && package::split_relative(&value.text).is_some_and(|parts| {
            parts.len() > 1
                && package::folders_exist(env, location.read_root(), &parts[..parts.len() - 1])
        });
    if (env.game_dir.is_some() || folders_present) && !leaves {
        Resolution::Missing { beside: None }
    } else if leaves {
        // Not under the package folder and not in the game's packages; the engine may still
        // find it on its package paths, which only a game directory shows: cannot check.
        Resolution::OutsidePackage { link: None }
    } else {
        Resolution::Unchecked
    }
}

/// True when a `MESH IMPORT` names a `_d.3d` as its `ANIVFILE=` and an `_a.3d` as its
/// `DATAFILE=`: the two files swapped.
pub fn mesh_files_swapped(line: &LineFacts, text: &str) -> bool {
    match (line.value(text, "ANIVFILE"), line.value(text, "DATAFILE")) {
        (Some(aniv), Some(data)) => symbols::mesh_names_swapped(&aniv.text, &data.text),
        _ => false,
    }
}

fn group_of(line: &LineFacts, text: &str) -> Option<String> {
    line.value(text, "GROUP").map(|v| v.text).filter(|g| !g.is_empty())
}

fn collect_symbols(
    text: &str,
    path: Option<&Path>,
    own_package: Option<&str>,
    lines: &[LineFacts],
) -> FileSymbols {
    let mut out = FileSymbols {
        file: path.map(Path::to_path_buf),
        references: references::collect(text),
        ..FileSymbols::default()
    };
    for line in lines {
        let Some(m) = line.command else { continue };
        if m.spec.ignored.is_some() {
            continue;
        }
        // The objects the line names by its object keys (`TEXTURE=`, `DETAIL=`, ...).
        let mut seen: Vec<&str> = Vec::new();
        for key in m.spec.keys.iter().filter(|k| matches!(k.kind, KeyKind::Object(_))) {
            if seen.contains(&key.name) {
                continue;
            }
            seen.push(key.name);
            let Some(value) = line.value(text, key.name) else { continue };
            if value.text.is_empty() || value.text.eq_ignore_ascii_case("none") {
                continue;
            }
            out.references.push(references::Reference {
                path: value.text.clone(),
                span: value.mark(),
                how: references::ReferenceKind::Directive { key: key.name },
                property: None,
            });
        }
        let package = line.value(text, "PACKAGE").map(|v| v.text).filter(|p| {
            !p.is_empty() && own_package.is_none_or(|own| !own.eq_ignore_ascii_case(p))
        });
        let define = |kind: SymbolKind, name: Option<KeyValue>, fallback: Option<&PathRef>| {
            // The name's key is left out of the import's signature; a name taken from the
            // file's base name keeps the file in it.
            let (name, span, name_key) = match (name, fallback) {
                (Some(v), _) if !v.text.is_empty() => (v.text.clone(), v.mark(), Some(v.span)),
                (_, Some(p)) => {
                    (package::default_name(&p.value.text).to_owned(), p.value.mark(), None)
                }
                _ => return None,
            };
            Some(Definition {
                kind,
                name,
                group: group_of(line, text),
                package: package.clone(),
                owner: None,
                span,
                line_span: line.directive.span,
                mesh: None,
                import: line.import_signature(text, name_key),
            })
        };
        let found_path = |key: &str| match line.path(key).map(|p| &p.resolution) {
            Some(Resolution::Found { path, .. } | Resolution::Indexed { path }) => {
                Some(path.clone())
            }
            _ => None,
        };
        let spec = m.spec;
        let definition = match (spec.command, spec.sub) {
            ("MESH", Sub::Word(sub @ ("IMPORT" | "MODELIMPORT"))) => {
                define(SymbolKind::Mesh, line.value(text, "MESH"), None).map(|mut d| {
                    let mlod = line.value(text, "MLOD");
                    d.group = None;
                    d.mesh = Some(MeshSource {
                        skeletal: sub == "MODELIMPORT",
                        lod: mlod.as_ref().is_none_or(|v| parse_bool(&v.text)),
                        mlod_span: mlod.map(|v| v.key.cover(v.span)),
                        zerotex: line.value(text, "ZEROTEX").is_some_and(|v| parse_bool(&v.text)),
                        data: found_path("DATAFILE"),
                        aniv: found_path("ANIVFILE"),
                        skin: found_path("MODELFILE"),
                    });
                    d
                })
            }
            ("MESH", Sub::Word("SEQUENCE")) => {
                let owner = line.value(text, "MESH").map(|v| v.text);
                define(SymbolKind::Sequence, line.value(text, "SEQ"), None).map(|mut d| {
                    d.owner = owner;
                    d.group = None;
                    d
                })
            }
            ("TEXTURE", Sub::Word("IMPORT")) => {
                define(SymbolKind::Texture, line.value(text, "NAME"), line.path("FILE"))
            }
            ("AUDIO", Sub::Word("IMPORT")) | ("NEW", Sub::Word("SOUND")) => {
                define(SymbolKind::Sound, line.value(text, "NAME"), line.path("FILE"))
            }
            ("ANIM", Sub::Word("IMPORT")) => {
                define(SymbolKind::Animation, line.value(text, "ANIM"), None).map(|mut d| {
                    d.group = None;
                    d
                })
            }
            ("NEW", Sub::Word("FONTFACTORY" | "TRUETYPEFONTFACTORY")) => {
                define(SymbolKind::Font, line.value(text, "NAME"), line.path("FILE"))
            }
            ("NEW", Sub::Word("STATICMESH")) | ("STATICMESH", Sub::Word("IMPORT")) => {
                define(SymbolKind::StaticMesh, line.value(text, "NAME"), line.path("FILE"))
            }
            ("NEW", Sub::AnyClass) => {
                define(SymbolKind::Object, line.value(text, "NAME"), line.path("FILE"))
            }
            ("MESHMAP" | "MESH", Sub::Word("SETTEXTURE")) => {
                let mesh = line.value(text, "MESHMAP").or_else(|| line.value(text, "MESH"));
                if let (Some(mesh), Some(num)) = (mesh, line.value(text, "NUM")) {
                    out.slots.push(symbols::SlotAssignment {
                        mesh: mesh.text,
                        num: atoi(&num.text),
                        span: num.mark(),
                        texture: line.value(text, "TEXTURE").map(|v| v.text),
                    });
                }
                None
            }
            ("LOAD", Sub::None) => {
                if let Some(file) = line.path("FILE") {
                    let name = line.value(text, "PACKAGE").map_or_else(
                        || package::default_name(&file.value.text).to_owned(),
                        |v| v.text,
                    );
                    out.loads.push(symbols::LoadedPackage {
                        name,
                        resolution: file.resolution.clone(),
                        span: file.value.mark(),
                    });
                }
                None
            }
            _ => None,
        };
        out.definitions.extend(definition);
    }
    out
}

/// What every `exec-*` rule reads.
pub struct ExecContext<'a> {
    pub text: &'a str,
    pub file: &'a FileAnalysis,
    /// `None` for a buffer without a path: rules that need files or the package stay quiet.
    pub env: Option<&'a ExecEnv>,
    pub generation: Option<Generation>,
    pub engine_build: Option<u32>,
    /// The game the settings name, or the game folder shows (`None`: not known).
    pub game: Option<Game>,
    pub table: SymbolTable,
}

impl ExecContext<'_> {
    /// The OldUnreal build the game names (`game = "ut469"` / `"unreal227"`); `None` for
    /// Epic's builds or when no game is known.
    pub fn patch(&self) -> Option<Patch> {
        self.game.and_then(Game::patch)
    }

    /// True when a game is known: a command or key only an OldUnreal build has is then judged
    /// against it; without one, it cannot be.
    pub fn game_known(&self) -> bool {
        self.game.is_some()
    }

    /// The game, when it is a licensee's (not Epic's or OldUnreal's build).
    pub fn licensee(&self) -> Option<Game> {
        self.game.filter(|g| !g.is_stock())
    }

    /// The lines that run an editor command.
    pub fn commands(&self) -> impl Iterator<Item = (&LineFacts, CommandMatch)> {
        self.file.lines.iter().filter_map(|l| l.command.map(|m| (l, m)))
    }

    /// True when the file is compiled into a package and the package's other classes were
    /// read: names may be judged across the package.
    pub fn knows_package(&self) -> bool {
        self.env.is_some() && self.file.is_package_class()
    }

    /// The package folder (or, outside `Classes/`, the folder reads are limited to).
    pub fn root(&self) -> Option<&Path> {
        self.file.location.as_ref().map(Location::read_root)
    }

    pub fn package_name(&self) -> Option<&str> {
        self.file.location.as_ref().and_then(Location::package_name)
    }

    /// A folder for messages: its name and a slash (`HeadHunter/`).
    pub fn show_dir(&self, dir: &Path) -> String {
        // `.` (a package folder checked from inside) by the name it has.
        let absolute = dir.file_name().is_none().then(|| self.env?.absolute(dir)).flatten();
        let named = absolute.as_deref().unwrap_or(dir);
        named.file_name().map_or_else(
            || dir.to_string_lossy().into_owned(),
            |n| format!("{}/", n.to_string_lossy()),
        )
    }

    /// The texture slots a mesh's triangles (or skin faces) use, when its files were read.
    pub fn mesh_slots(&self, mesh: &MeshSource) -> Option<BTreeSet<u8>> {
        let env = self.env?;
        if mesh.swapped() {
            return None;
        }
        let slots = if mesh.skeletal {
            match &*env.facts(mesh.skin.as_deref()?, Expect::Skin) {
                FileFacts::Skin { slots, .. } => slots.clone(),
                _ => return None,
            }
        } else {
            match &*env.facts(mesh.data.as_deref()?, Expect::MeshData) {
                FileFacts::MeshData { slots, .. } => slots.clone(),
                _ => return None,
            }
        };
        if mesh.zerotex && !slots.is_empty() {
            return Some(BTreeSet::from([0]));
        }
        Some(slots)
    }

    /// The frame count of a vertex mesh, when its `_a.3d` was read.
    pub fn mesh_frames(&self, mesh: &MeshSource) -> Option<u16> {
        let env = self.env?;
        if mesh.swapped() {
            return None;
        }
        match &*env.facts(mesh.aniv.as_deref()?, Expect::MeshAnimation) {
            FileFacts::MeshAnimation { frames, .. } => Some(*frames),
            _ => None,
        }
    }

    /// The other script packages of the tree: folders beside the package folder that have a
    /// `Classes` folder (UCC compiles them into packages that are loaded when this one
    /// compiles, or that this one's names may be found in). Empty outside a package.
    pub fn sibling_packages(&self) -> Vec<PathBuf> {
        let (Some(env), Some(Location::Package { root, .. })) = (self.env, &self.file.location)
        else {
            return Vec::new();
        };
        let Some(parent) = root.parent() else { return Vec::new() };
        let Some(entries) = env.list_dir(parent) else { return Vec::new() };
        entries
            .iter()
            .filter(|e| e.is_dir && !e.is_link)
            .map(|e| parent.join(&e.name))
            .filter(|dir| dir != root && env.has_classes_dir(dir))
            .collect()
    }

    /// Whose lines a package-wide finding speaks of: "package `Name`", or "this class"
    /// outside a package.
    pub fn package_phrase(&self) -> String {
        match self.file.location.as_ref().and_then(Location::package_name) {
            Some(package) => format!("package `{package}`"),
            None => "this class".to_owned(),
        }
    }

    /// A path for messages: relative to the package folder, with forward slashes.
    pub fn show(&self, path: &Path) -> String {
        match self.root() {
            Some(root) => package::display_relative(path, root),
            None => path.to_string_lossy().into_owned(),
        }
    }
}

/// Runs `check` on the context of a `.uc` file at `path` (on `env`'s file system), with its
/// package around it. Spans are byte offsets into `text`. The rules run through it
/// (`rules::check_uc`); this module builds what they read and knows no rule.
pub fn with_context<T>(
    path: &Path,
    text: &str,
    env: &ExecEnv,
    check: impl FnOnce(&ExecContext<'_>) -> T,
) -> T {
    let path = package::normalize_file(path, env);
    let file = FileAnalysis::new(text, Some(&path), Some(env));
    let table = match &file.location {
        Some(Location::Package { root, .. }) => {
            SymbolTable::with_package(file.symbols.clone(), &env.package_files(root))
        }
        _ => SymbolTable::single(file.symbols.clone()),
    };
    check(&ExecContext {
        text,
        file: &file,
        env: Some(env),
        generation: env.generation,
        engine_build: env.engine_build,
        game: env.game,
        table,
    })
}

/// Runs `check` on the context of a buffer without a path: the lines themselves and the
/// names of this file only.
pub fn with_text_context<T>(
    text: &str,
    options: &LintOptions,
    check: impl FnOnce(&ExecContext<'_>) -> T,
) -> T {
    let file = FileAnalysis::new(text, None, None);
    check(&ExecContext {
        text,
        file: &file,
        env: None,
        generation: generation_of(options, options.game),
        engine_build: engine_build_of(options, options.game),
        game: options.game,
        table: SymbolTable::single(file.symbols.clone()),
    })
}

/// The generation the settings fix, else the game's (a game fixes it when the settings leave
/// it to detection, as `config::resolve_engine` does for the CLI).
pub(crate) fn generation_of(options: &LintOptions, game: Option<Game>) -> Option<Generation> {
    options.engine.fixed().or_else(|| game.and_then(Game::generation))
}

/// The engine build the settings give, else the one the game implies for the image-type
/// checks: UT v469's (469). Unreal 227's number (227) would read as an Unreal v1.200-era
/// build, so its image types are decided by the patch instead.
pub(crate) fn engine_build_of(options: &LintOptions, game: Option<Game>) -> Option<u32> {
    options.engine_build.or_else(|| game.and_then(Game::engine_build).filter(|&build| build >= 400))
}

/// Whether a directive kind exists in `generation` (`None`: in either).
pub fn directive_known(kind: DirectiveKind, generation: Option<Generation>) -> bool {
    generation.is_none_or(|g| kind.engines().includes(g))
}
