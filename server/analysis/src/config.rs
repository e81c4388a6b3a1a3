//! `unreal-ls.toml`: the project settings that the CLI and the language server share. Plain
//! data: where it applies (the folder of the file), which engine generation and game the
//! content targets, which files are checked, and how severe each rule is, per path.
//!
//! ```toml
//! engine = "ue1"                   # ue1, ue2 or auto
//! game = "ut99"                     # optional: unreal, ut99, ut469, unreal227, deusex, rune,
//!                                   # ut2003, ut2004, swat4, tribes-vengeance, xiii or other
//! engine-build = 469               # optional: the engine build (436, 469, 3369, ...)
//! game-dir = "../UnrealTournament" # the installation whose packages #exec may name
//! package-paths = ["../System"]    # more folders of packages
//! include = ["Maps/**", "Classes/*.uc"]
//! exclude = ["Maps/Old/**"]
//!
//! [rules]
//! t3d-stray-line = "off"           # off, hint, info, warning or error
//! t3d-normal-mismatch = "error"
//!
//! [[overrides]]
//! files = ["Maps/Imported/**"]
//! rules = { t3d-non-planar-polygon = "off" }
//! ```
//!
//! Paths and globs are relative to the folder holding the file. Globs match case-insensitively
//! (Unreal content comes from Windows), `*` stops at `/`, `**` crosses folders, a pattern
//! without `/` matches a name in any folder, and a pattern naming a folder covers everything
//! inside it. The nearest `unreal-ls.toml` above a file applies to it, alone (files are not
//! merged). Unknown keys, unknown rule codes and wrong types are errors with the line and
//! column in the file, so a misspelt setting never silently does nothing.

use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use globset::{GlobBuilder, GlobSet, GlobSetBuilder};
use toml::de::{DeTable, DeValue};
use toml::Spanned;

use crate::{Diagnostic, EngineSetting, Severity};

/// The file name looked for in a file's folder and every folder above it.
pub const CONFIG_FILE_NAME: &str = "unreal-ls.toml";

/// A rule's configured level: switched off, or reported at a severity.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RuleLevel {
    Off,
    On(Severity),
}

impl RuleLevel {
    /// `off`, `hint`, `info`, `warning` or `error` (lowercase, as written in the file).
    pub fn parse(name: &str) -> Option<RuleLevel> {
        match name {
            "off" => Some(RuleLevel::Off),
            "hint" => Some(RuleLevel::On(Severity::Hint)),
            "info" => Some(RuleLevel::On(Severity::Info)),
            "warning" => Some(RuleLevel::On(Severity::Warning)),
            "error" => Some(RuleLevel::On(Severity::Error)),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            RuleLevel::Off => "off",
            RuleLevel::On(severity) => severity.as_str(),
        }
    }
}

/// Compiled globs with the patterns they came from. Each pattern belongs to an owner (a
/// number: 0 for a plain list such as `exclude`; the entry's index for the `files` of every
/// `[[overrides]]` entry, compiled together so that many entries cost one set, not one each).
#[derive(Clone, Debug, Default)]
pub struct GlobList {
    /// The patterns as written in the file.
    pub patterns: Vec<String>,
    /// Patterns without wildcards (`Maps/Old`, `Classes/A.uc`, `Old`), ASCII-lowercased: a
    /// path matches one of `anchored` when it is that path or lies under it, one of `names`
    /// when one of its parts is that name. Compared as text, they cost no regex at all (long
    /// generated lists are mostly such paths).
    anchored: Literals,
    names: Literals,
    /// The other patterns, compiled, in several sets: one set holds only so much (the regex
    /// engine's size limit), and a list must match with every pattern or fail to build,
    /// never match with none (one set of thousands of long patterns used to fail, and the
    /// list was then silently empty). Beside each set, the owner of each of its globs.
    sets: Vec<(GlobSet, Vec<u32>)>,
}

/// Literal patterns and their owners: the first owner of each, and the further ones of a
/// literal that several owners name (rare; kept apart so the common case costs no list).
#[derive(Clone, Debug, Default)]
struct Literals {
    first: HashMap<String, u32>,
    more: HashMap<String, Vec<u32>>,
}

impl Literals {
    fn insert(&mut self, literal: String, owner: u32) {
        match self.first.get(&literal) {
            None => _ = self.first.insert(literal, owner),
            Some(&first) if first == owner => {}
            Some(_) => self.more.entry(literal).or_default().push(owner),
        }
    }

    fn is_empty(&self) -> bool {
        self.first.is_empty()
    }

    fn contains(&self, literal: &str) -> bool {
        self.first.contains_key(literal)
    }

    fn owners_of(&self, literal: &str, out: &mut Vec<u32>) {
        if let Some(&first) = self.first.get(literal) {
            out.push(first);
            out.extend(self.more.get(literal).into_iter().flatten());
        }
    }
}

/// Bytes of patterns compiled into one set. The regex engine's 10 MB limit holds about 65 KB
/// of patterns as this module expands them (measured: 337 patterns of 200 bytes, 65 of
/// 1,000, 16 of 4,000); half that leaves room, and a set that still fails is split.
const SET_BUDGET: usize = 32 * 1024;

/// Bytes of wildcard patterns one list may hold: compiled, they take a few hundred times their
/// size (measured: 1 MB of them, 330 MB), so more is a configuration error, not gigabytes.
/// Patterns without wildcards do not count.
pub const MAX_WILDCARD_BYTES: usize = 512 * 1024;

impl GlobList {
    /// Compiles patterns with the matching rules of the module documentation.
    pub fn new(patterns: &[&str]) -> Result<GlobList, globset::Error> {
        Self::compile(patterns).map_err(|(_, err)| err)
    }

    /// Like [`GlobList::new`]; the error names the pattern (by index) that does not compile,
    /// not even in a set of its own.
    pub fn compile(patterns: &[&str]) -> Result<GlobList, (usize, globset::Error)> {
        let owned: Vec<(&str, u32)> = patterns.iter().map(|p| (*p, 0)).collect();
        Self::compile_owned(&owned)
    }

    /// Like [`GlobList::compile`], each pattern with its owner ([`GlobList::owners_matching`]
    /// says which owners' patterns match a path).
    pub fn compile_owned(patterns: &[(&str, u32)]) -> Result<GlobList, (usize, globset::Error)> {
        let (mut anchored, mut names) = (Literals::default(), Literals::default());
        let mut wild = Vec::new();
        for (i, (pattern, owner)) in patterns.iter().enumerate() {
            match literal(pattern) {
                Some(Literal::Anchored(path)) => anchored.insert(path, *owner),
                Some(Literal::Name(name)) => names.insert(name, *owner),
                None => wild.push((i, expanded_globs(pattern).map_err(|err| (i, err))?)),
            }
        }
        for literals in [&mut anchored, &mut names] {
            for owners in literals.more.values_mut() {
                owners.sort_unstable();
                owners.dedup();
            }
        }
        let owner_of = |i: usize| patterns.get(i).map_or(0, |(_, owner)| *owner);
        let mut sets = Vec::new();
        let mut start = 0;
        while start < wild.len() {
            let (mut end, mut size) = (start, 0);
            let len = |j: usize| {
                wild.get(j).and_then(|(i, _)| patterns.get(*i)).map_or(0, |(p, _)| p.len())
            };
            while end < wild.len() && (end == start || size + len(end) <= SET_BUDGET) {
                size += len(end);
                end += 1;
            }
            build_sets(&wild, start..end, &owner_of, &mut sets)?;
            start = end;
        }
        Ok(GlobList {
            patterns: patterns.iter().map(|(p, _)| (*p).to_owned()).collect(),
            anchored,
            names,
            sets,
        })
    }

    pub fn is_empty(&self) -> bool {
        self.patterns.is_empty()
    }

    /// Whether a `/`-separated path relative to the configuration's folder matches.
    pub fn is_match(&self, relative: &str) -> bool {
        if !self.anchored.is_empty() || !self.names.is_empty() {
            let lower = relative.to_ascii_lowercase();
            let mut parts = lower.split('/');
            let under = lower.match_indices('/').map(|(at, _)| &lower[..at]);
            if self.anchored.contains(&lower)
                || under.into_iter().any(|prefix| self.anchored.contains(prefix))
                || parts.any(|part| self.names.contains(part))
            {
                return true;
            }
        }
        self.sets.iter().any(|(set, _)| set.is_match(relative))
    }

    /// The owners of the patterns that match a `/`-separated relative path, in increasing
    /// order, each once.
    pub fn owners_matching(&self, relative: &str) -> Vec<u32> {
        let mut owners = Vec::new();
        if !self.anchored.is_empty() || !self.names.is_empty() {
            let lower = relative.to_ascii_lowercase();
            self.anchored.owners_of(&lower, &mut owners);
            for (at, _) in lower.match_indices('/') {
                self.anchored.owners_of(&lower[..at], &mut owners);
            }
            for part in lower.split('/') {
                self.names.owners_of(part, &mut owners);
            }
        }
        for (set, of_glob) in &self.sets {
            if !set.is_empty() {
                let matched = set.matches(relative);
                owners.extend(matched.iter().filter_map(|&glob| of_glob.get(glob)));
            }
        }
        owners.sort_unstable();
        owners.dedup();
        owners
    }
}

enum Literal {
    Anchored(String),
    Name(String),
}

/// A pattern without wildcards, as [`expand_pattern`] would anchor it, lowercased; `None` for
/// the others (and for non-ASCII ones, which the regex engine folds by Unicode's rules). The
/// one difference from the compiled glob: a path's Kelvin sign or long s, which Unicode folds
/// to `k` and `s`, does not match those letters here.
fn literal(pattern: &str) -> Option<Literal> {
    if !pattern.is_ascii() || pattern.contains(['*', '?', '[', ']', '{', '}']) {
        return None;
    }
    let trimmed = pattern.trim_start_matches("./");
    let anchored = trimmed.trim_start_matches('/').trim_end_matches('/');
    if anchored.is_empty() {
        return None;
    }
    let lower = anchored.to_ascii_lowercase();
    if anchored.contains('/') || trimmed.starts_with('/') {
        Some(Literal::Anchored(lower))
    } else {
        Some(Literal::Name(lower))
    }
}

/// Bytes of the patterns that need the regex engine.
fn wildcard_bytes<'p>(patterns: impl Iterator<Item = &'p str>) -> usize {
    patterns.filter(|p| literal(p).is_none()).map(str::len).sum()
}

/// A pattern's globs (see [`expand_pattern`]), checked but not yet compiled.
fn expanded_globs(pattern: &str) -> Result<Vec<globset::Glob>, globset::Error> {
    expand_pattern(pattern)
        .iter()
        .map(|expanded| {
            GlobBuilder::new(expanded)
                .literal_separator(true)
                .case_insensitive(true)
                .backslash_escape(false)
                .build()
        })
        .collect()
}

/// Compiles the patterns in `range` into one set, or, when that is too big for the regex
/// engine, into halves of it, and so on; a single pattern that does not compile is the error.
/// `owner_of` gives the owner of a pattern (by its index in the list).
fn build_sets(
    globs: &[(usize, Vec<globset::Glob>)],
    range: std::ops::Range<usize>,
    owner_of: &dyn Fn(usize) -> u32,
    sets: &mut Vec<(GlobSet, Vec<u32>)>,
) -> Result<(), (usize, globset::Error)> {
    let mut builder = GlobSetBuilder::new();
    let mut owners = Vec::new();
    for (pattern_index, pattern) in globs.get(range.clone()).unwrap_or_default() {
        for glob in pattern {
            builder.add(glob.clone());
            owners.push(owner_of(*pattern_index));
        }
    }
    match builder.build() {
        Ok(set) => {
            sets.push((set, owners));
            Ok(())
        }
        Err(err) if range.len() <= 1 => {
            Err((globs.get(range.start).map_or(range.start, |(i, _)| *i), err))
        }
        Err(_) => {
            let middle = range.start + range.len() / 2;
            build_sets(globs, range.start..middle, owner_of, sets)?;
            build_sets(globs, middle..range.end, owner_of, sets)
        }
    }
}

/// `Old` -> `**/Old`, `**/Old/**`; `Maps/Old/` -> `Maps/Old/**`; `Maps/*.t3d` -> itself and
/// `Maps/*.t3d/**` (a folder named like a file is rare, and harmless to cover).
fn expand_pattern(pattern: &str) -> Vec<String> {
    let trimmed = pattern.trim_start_matches("./");
    let anchored = trimmed.trim_start_matches('/');
    let base = if anchored.trim_end_matches('/').contains('/') || trimmed.starts_with('/') {
        anchored.trim_end_matches('/').to_owned()
    } else {
        format!("**/{}", anchored.trim_end_matches('/'))
    };
    if base.ends_with("/**") || base == "**" {
        vec![base]
    } else {
        vec![format!("{base}/**"), base]
    }
}

/// Severities for the files some globs match. Later overrides win over earlier ones and over
/// the top-level `[rules]`.
#[derive(Clone, Debug, Default)]
pub struct Override {
    /// The `files` patterns as written (compiled with every entry's, in
    /// `Config::override_files`).
    pub files: Vec<String>,
    pub rules: Vec<(&'static str, RuleLevel)>,
}

/// One `unreal-ls.toml`, parsed and checked.
#[derive(Clone, Debug, Default)]
pub struct Config {
    /// The file it was read from; `None` for settings made in code.
    pub path: Option<PathBuf>,
    /// The folder relative paths and globs are resolved against.
    pub root: PathBuf,
    /// `None`: not set (the caller's default applies, usually `auto`).
    pub engine: Option<EngineSetting>,
    /// `game = "ut99"`: the game the files target (see [`unreal_engine::Game`]).
    pub game: Option<unreal_engine::Game>,
    pub engine_build: Option<u32>,
    /// Absolute (joined to `root`).
    pub game_dir: Option<PathBuf>,
    /// Absolute (joined to `root`).
    pub package_paths: Vec<PathBuf>,
    /// Files found in folders are checked only if they match (when not empty).
    pub include: GlobList,
    /// Files never checked, found in folders or named.
    pub exclude: GlobList,
    pub rules: Vec<(&'static str, RuleLevel)>,
    pub overrides: Vec<Override>,
    /// The `files` of every override, compiled together; each pattern's owner is its
    /// override's index.
    override_files: GlobList,
}

/// A problem in a configuration file, with where it is (1-based line and column, counted in
/// characters; 0 when the problem is the whole file, such as an unreadable one).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfigError {
    pub path: PathBuf,
    pub line: u32,
    pub column: u32,
    pub message: String,
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = self.path.to_string_lossy().replace('\\', "/");
        if self.line == 0 {
            write!(f, "{path}: {}", self.message)
        } else {
            write!(f, "{path}:{}:{}: {}", self.line, self.column, self.message)
        }
    }
}

const TOP_KEYS: &[&str] = &[
    "engine",
    "game",
    "engine-build",
    "game-dir",
    "package-paths",
    "include",
    "exclude",
    "rules",
    "overrides",
];
const OVERRIDE_KEYS: &[&str] = &["files", "rules"];
const LEVELS: &str = "`off`, `hint`, `info`, `warning` or `error`";

impl Config {
    /// Reads and checks a configuration file. Relative paths in it are resolved against its
    /// folder.
    pub fn load(path: &Path) -> Result<Config, Vec<ConfigError>> {
        let bytes = unreal_formats::mapped::read_regular(path).map_err(|err| {
            vec![ConfigError {
                path: path.to_owned(),
                line: 0,
                column: 0,
                message: format!(
                    "cannot read the configuration: {}",
                    unreal_formats::mapped::io_message(&err)
                ),
            }]
        })?;
        let Ok(text) = String::from_utf8(bytes) else {
            return Err(vec![ConfigError {
                path: path.to_owned(),
                line: 0,
                column: 0,
                message: "the configuration is not UTF-8 text (TOML files must be)".to_owned(),
            }]);
        };
        let root = path.parent().map_or_else(|| PathBuf::from("."), Path::to_path_buf);
        let root = std::fs::canonicalize(&root).unwrap_or(root);
        Config::parse(&text, path, &root)
    }

    /// Checks configuration text. `path` names the file in errors; `root` is the folder that
    /// relative paths and globs start from. Every error is reported, not only the first.
    pub fn parse(text: &str, path: &Path, root: &Path) -> Result<Config, Vec<ConfigError>> {
        let mut reader = Reader { text, path, errors: Vec::new() };
        // The TOML reader holds each table in a few kilobytes (9 MB of `[[overrides]]`: 440
        // MB before a setting was read), so the tables are counted first.
        if let Some(offset) = table_beyond(text, MAX_TABLES) {
            reader.error(
                offset,
                format!(
                    "the configuration holds more than {MAX_TABLES} tables (`[[overrides]]` entries, `[sections]`, `{{ }}` tables and the parts of dotted keys), the most unreal-ls reads; merge overrides that set the same rules (one entry's `files` takes any number of patterns)"
                ),
            );
            return Err(reader.errors);
        }
        let table = match DeTable::parse(text) {
            Ok(table) => table,
            Err(err) => {
                let offset = err.span().map_or(0, |s| s.start);
                reader.error(offset, format!("invalid TOML: {}", err.message().trim_end()));
                return Err(reader.errors);
            }
        };
        let mut config =
            Config { path: Some(path.to_owned()), root: root.to_owned(), ..Config::default() };
        for (key, value) in table.get_ref() {
            let offset = key.span().start;
            match key.get_ref().as_ref() {
                "engine" => {
                    if let Some(name) = reader.string(value, "engine") {
                        config.engine = EngineSetting::parse(name);
                        if config.engine.is_none() {
                            reader.error(
                                value.span().start,
                                format!("unknown engine `{name}`; expected `ue1`, `ue2` or `auto`"),
                            );
                        }
                    }
                }
                "game" => {
                    if let Some(name) = reader.string(value, "game") {
                        config.game = unreal_engine::Game::parse(name);
                        if config.game.is_none() {
                            let names: Vec<String> = unreal_engine::Game::NAMES
                                .iter()
                                .map(|n| format!("`{n}`"))
                                .collect();
                            reader.error(
                                value.span().start,
                                format!(
                                    "unknown game `{name}`; expected one of {}",
                                    names.join(", ")
                                ),
                            );
                        }
                    }
                }
                "engine-build" => match value.get_ref() {
                    DeValue::Integer(int) if int.radix() == 10 => {
                        match int.as_str().parse::<u32>() {
                            Ok(build) => config.engine_build = Some(build),
                            Err(_) => reader.error(
                                value.span().start,
                                "`engine-build` must be a build number such as 436 or 3369",
                            ),
                        }
                    }
                    _ => reader.error(
                        value.span().start,
                        "`engine-build` must be a build number such as 436 or 3369",
                    ),
                },
                "game-dir" => {
                    if let Some(dir) = reader.string(value, "game-dir") {
                        config.game_dir = Some(root.join(dir));
                    }
                }
                "package-paths" => {
                    config.package_paths = reader
                        .strings(value, "package-paths")
                        .into_iter()
                        .map(|(_, dir)| root.join(dir))
                        .collect();
                }
                "include" => config.include = reader.globs(value, "include"),
                "exclude" => config.exclude = reader.globs(value, "exclude"),
                "rules" => config.rules = reader.rules(value, "rules"),
                "overrides" => (config.overrides, config.override_files) = reader.overrides(value),
                other => reader.unknown_key(offset, other, TOP_KEYS),
            }
        }
        if reader.errors.is_empty() {
            Ok(config)
        } else {
            reader.errors.sort_by_key(|e| (e.line, e.column));
            Err(reader.errors)
        }
    }

    /// The path relative to the configuration's folder, with `/`; the whole path (with `/`)
    /// when it lies outside.
    pub fn relative_path(&self, path: &Path) -> String {
        let relative = path.strip_prefix(&self.root).unwrap_or(path);
        let text = relative.to_string_lossy();
        if std::path::MAIN_SEPARATOR == '/' {
            text.into_owned()
        } else {
            text.replace(std::path::MAIN_SEPARATOR, "/")
        }
    }

    /// Whether a file found in a folder is checked: it matches `include` (or there is none)
    /// and does not match `exclude`. `path` is absolute.
    pub fn includes(&self, path: &Path) -> bool {
        let relative = self.relative_path(path);
        (self.include.is_empty() || self.include.is_match(&relative))
            && !self.exclude.is_match(&relative)
    }

    /// Whether a file is excluded, even when named on the command line. `path` is absolute.
    pub fn excludes(&self, path: &Path) -> bool {
        self.exclude.is_match(&self.relative_path(path))
    }

    /// The configured level of a rule for a file (`path` absolute), `None` when the rule keeps
    /// its default.
    pub fn rule_level(&self, code: &str, path: &Path) -> Option<RuleLevel> {
        let relative = self.relative_path(path);
        self.level_in(code, &self.matching_overrides(&relative))
    }

    /// The overrides whose `files` match, in the file's order.
    fn matching_overrides(&self, relative: &str) -> Vec<&Override> {
        let owners = self.override_files.owners_matching(relative);
        owners.iter().filter_map(|&i| self.overrides.get(i as usize)).collect()
    }

    fn level_in(&self, code: &str, overrides: &[&Override]) -> Option<RuleLevel> {
        let find = |rules: &[(&'static str, RuleLevel)]| {
            rules.iter().rev().find(|(c, _)| *c == code).map(|(_, level)| *level)
        };
        overrides.iter().rev().find_map(|o| find(&o.rules)).or_else(|| find(&self.rules))
    }
}

/// Applies a configuration's severities to one file's diagnostics: drops those of rules that
/// are `off` for the file and sets the severity of the others. `path` is absolute.
pub fn apply_severity(config: &Config, path: &Path, diagnostics: &mut Vec<Diagnostic>) {
    if config.rules.is_empty() && config.overrides.is_empty() {
        return;
    }
    let relative = config.relative_path(path);
    let overrides = config.matching_overrides(&relative);
    diagnostics.retain_mut(|diagnostic| match config.level_in(diagnostic.code, &overrides) {
        None => true,
        Some(RuleLevel::Off) => false,
        Some(RuleLevel::On(severity)) => {
            diagnostic.severity = severity;
            true
        }
    });
}

/// The nearest `unreal-ls.toml` in `dir` or a folder above it.
pub fn find_config(dir: &Path) -> Option<PathBuf> {
    dir.ancestors().map(|d| d.join(CONFIG_FILE_NAME)).find(|p| p.is_file())
}

/// Finds and loads the configuration of many files, reading each configuration file once.
/// Errors are collected (each once) and the files under a broken configuration get none.
#[derive(Debug, Default)]
pub struct ConfigResolver {
    fixed: Option<Arc<Config>>,
    by_dir: HashMap<PathBuf, Option<Arc<Config>>>,
    by_file: HashMap<PathBuf, Option<Arc<Config>>>,
    errors: Vec<ConfigError>,
}

impl ConfigResolver {
    /// Looks for `unreal-ls.toml` above each file.
    pub fn discover() -> Self {
        Self::default()
    }

    /// One configuration for every file (`--config`).
    pub fn fixed(config: Config) -> Self {
        Self { fixed: Some(Arc::new(config)), ..Self::default() }
    }

    /// The configuration that applies to a file (`file` absolute).
    pub fn for_file(&mut self, file: &Path) -> Option<Arc<Config>> {
        if let Some(config) = &self.fixed {
            return Some(Arc::clone(config));
        }
        let dir = file.parent()?.to_path_buf();
        if let Some(found) = self.by_dir.get(&dir) {
            return found.clone();
        }
        let found = find_config(&dir).and_then(|path| {
            if let Some(loaded) = self.by_file.get(&path) {
                return loaded.clone();
            }
            let loaded = match Config::load(&path) {
                Ok(config) => Some(Arc::new(config)),
                Err(errors) => {
                    self.errors.extend(errors);
                    None
                }
            };
            self.by_file.insert(path, loaded.clone());
            loaded
        });
        self.by_dir.insert(dir, found.clone());
        found
    }

    /// The same resolver with nothing read yet (a configuration file changed): `--config`'s
    /// configuration is kept, every found one is looked for and read again.
    #[must_use]
    pub fn emptied(&self) -> Self {
        Self { fixed: self.fixed.clone(), ..Self::default() }
    }

    /// Every error met so far, in the order the files were read.
    pub fn errors(&self) -> &[ConfigError] {
        &self.errors
    }
}

/// Reads values out of the parsed TOML, collecting errors with their positions.
struct Reader<'a> {
    text: &'a str,
    path: &'a Path,
    errors: Vec<ConfigError>,
}

impl Reader<'_> {
    fn error(&mut self, offset: usize, message: impl Into<String>) {
        let offset = offset.min(self.text.len());
        let before = self.text.get(..offset).unwrap_or(self.text);
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        let line = before.matches('\n').count() + 1;
        let column = before.get(line_start..).map_or(0, |l| l.chars().count()) + 1;
        self.errors.push(ConfigError {
            path: self.path.to_owned(),
            line: u32::try_from(line).unwrap_or(u32::MAX),
            column: u32::try_from(column).unwrap_or(u32::MAX),
            // A message quotes the value: a 100 MB value must not become a 100 MB message.
            message: crate::diagnostic::bounded(message.into()),
        });
    }

    fn unknown_key(&mut self, offset: usize, key: &str, expected: &[&str]) {
        let list = expected.iter().map(|k| format!("`{k}`")).collect::<Vec<_>>().join(", ");
        let hint = closest(key, expected.iter().copied())
            .map_or(String::new(), |k| format!(" (did you mean `{k}`?)"));
        self.error(offset, format!("unknown key `{key}`{hint}; expected one of {list}"));
    }

    fn string<'v>(&mut self, value: &'v Spanned<DeValue<'_>>, key: &str) -> Option<&'v str> {
        if let DeValue::String(s) = value.get_ref() {
            Some(s.as_ref())
        } else {
            self.error(
                value.span().start,
                format!("`{key}` must be a string, not {}", value.get_ref().type_str()),
            );
            None
        }
    }

    /// An array of strings, each with its offset.
    fn strings<'v>(&mut self, value: &'v Spanned<DeValue<'_>>, key: &str) -> Vec<(usize, &'v str)> {
        let DeValue::Array(items) = value.get_ref() else {
            self.error(
                value.span().start,
                format!("`{key}` must be an array of strings, not {}", value.get_ref().type_str()),
            );
            return Vec::new();
        };
        let mut strings = Vec::new();
        for item in items {
            if let DeValue::String(s) = item.get_ref() {
                strings.push((item.span().start, s.as_ref()));
            } else {
                self.error(
                    item.span().start,
                    format!("`{key}` must hold only strings, not {}", item.get_ref().type_str()),
                );
            }
        }
        strings
    }

    fn globs(&mut self, value: &Spanned<DeValue<'_>>, key: &str) -> GlobList {
        let patterns = self.glob_patterns(value, key, 0);
        self.compile_globs(patterns, &format!("`{key}` holds"), key, value.span().start)
    }

    /// The patterns of an array of globs, each with its offset and `owner`; a pattern that
    /// does not parse is an error at its place and left out.
    fn glob_patterns<'v>(
        &mut self,
        value: &'v Spanned<DeValue<'_>>,
        key: &str,
        owner: u32,
    ) -> Vec<(usize, &'v str, u32)> {
        let mut patterns = Vec::new();
        for (offset, pattern) in self.strings(value, key) {
            match expanded_globs(pattern) {
                Ok(_) => patterns.push((offset, pattern, owner)),
                Err(err) => self.glob_error(offset, pattern, key, &err),
            }
        }
        patterns
    }

    /// Compiles parsed patterns into one list; `holds` starts the error for too many
    /// wildcards (`` `exclude` holds``), `at` is where that error is reported.
    fn compile_globs(
        &mut self,
        mut patterns: Vec<(usize, &str, u32)>,
        holds: &str,
        key: &str,
        at: usize,
    ) -> GlobList {
        let wildcard = wildcard_bytes(patterns.iter().map(|(_, p, _)| *p));
        if wildcard > MAX_WILDCARD_BYTES {
            self.error(
                at,
                format!(
                    "{holds} {} KB of patterns with wildcards, more than the {} KB unreal-ls compiles; name folders and files without wildcards (`Maps/Old`, any number of them), or cover many with one `**` pattern",
                    wildcard / 1024,
                    MAX_WILDCARD_BYTES / 1024
                ),
            );
            return GlobList::default();
        }
        // Every pattern parses; one too big for the regex engine even alone is an error at
        // its place, and the others still compile (never an empty list standing for all).
        loop {
            let owned: Vec<(&str, u32)> = patterns.iter().map(|(_, p, o)| (*p, *o)).collect();
            match GlobList::compile_owned(&owned) {
                Ok(list) => return list,
                Err((i, err)) if i < patterns.len() => {
                    let (offset, pattern, _) = patterns.remove(i);
                    self.glob_error(offset, pattern, key, &err);
                }
                Err((_, err)) => {
                    self.error(at, format!("the globs of `{key}`: {err}"));
                    return GlobList::default();
                }
            }
        }
    }

    fn glob_error(&mut self, offset: usize, pattern: &str, key: &str, err: &globset::Error) {
        // A pattern of megabytes is not echoed whole.
        const SHOWN: usize = 120;
        let shown = match pattern.char_indices().nth(SHOWN) {
            Some((end, _)) => format!("{}... ({} bytes)", &pattern[..end], pattern.len()),
            None => pattern.to_owned(),
        };
        let reason = err.kind().to_string();
        let reason = match reason.char_indices().nth(2 * SHOWN) {
            Some((end, _)) => format!("{}...", &reason[..end]),
            None => reason,
        };
        self.error(offset, format!("invalid glob `{shown}` in `{key}`: {reason}"));
    }

    fn rules(&mut self, value: &Spanned<DeValue<'_>>, key: &str) -> Vec<(&'static str, RuleLevel)> {
        let DeValue::Table(table) = value.get_ref() else {
            self.error(
                value.span().start,
                format!(
                    "`{key}` must be a table of rule codes, such as `{key} = {{ t3d-stray-line = \"off\" }}`"
                ),
            );
            return Vec::new();
        };
        let mut rules = Vec::new();
        for (code, level) in table {
            let name = code.get_ref().as_ref();
            // A retired rule reports nothing any more: naming it changes nothing.
            if crate::rules::is_retired(name) {
                continue;
            }
            let Some(rule) = crate::rules::find_rule(name) else {
                let hint = closest(name, crate::rules::all_rules().map(|r| r.code))
                    .map_or(String::new(), |c| format!(" (did you mean `{c}`?)"));
                self.error(
                    code.span().start,
                    format!("unknown rule `{name}`{hint}; `unreal-ls rules` lists every rule"),
                );
                continue;
            };
            match level.get_ref() {
                DeValue::String(s) => match RuleLevel::parse(s) {
                    Some(parsed) => rules.push((rule.code, parsed)),
                    None => self.error(
                        level.span().start,
                        format!("unknown level `{s}` for `{name}`; expected {LEVELS}"),
                    ),
                },
                other => self.error(
                    level.span().start,
                    format!(
                        "the level of `{name}` must be a string ({LEVELS}), not {}",
                        other.type_str()
                    ),
                ),
            }
        }
        rules
    }

    /// The `[[overrides]]` entries, and the `files` globs of them all compiled as one list
    /// whose owners are the entries' indices.
    fn overrides(&mut self, value: &Spanned<DeValue<'_>>) -> (Vec<Override>, GlobList) {
        let DeValue::Array(items) = value.get_ref() else {
            self.error(
                value.span().start,
                "`overrides` must be an array of tables (`[[overrides]]` sections)",
            );
            return (Vec::new(), GlobList::default());
        };
        let mut overrides = Vec::new();
        let mut patterns = Vec::new();
        for item in items {
            let DeValue::Table(table) = item.get_ref() else {
                self.error(item.span().start, "each entry of `overrides` must be a table");
                continue;
            };
            let owner = u32::try_from(overrides.len()).unwrap_or(u32::MAX);
            let mut entry = Override::default();
            let mut has_files = false;
            for (key, value) in table {
                match key.get_ref().as_ref() {
                    "files" => {
                        has_files = true;
                        let files = self.glob_patterns(value, "files", owner);
                        entry.files = files.iter().map(|(_, p, _)| (*p).to_owned()).collect();
                        patterns.extend(files);
                    }
                    "rules" => entry.rules = self.rules(value, "rules"),
                    other => self.unknown_key(key.span().start, other, OVERRIDE_KEYS),
                }
            }
            if !has_files {
                self.error(
                    item.span().start,
                    "an `[[overrides]]` entry needs `files`, the globs it applies to",
                );
            }
            overrides.push(entry);
        }
        let files = self.compile_globs(
            patterns,
            "the `files` of `[[overrides]]` hold",
            "files",
            value.span().start,
        );
        (overrides, files)
    }
}

/// Tables one configuration may hold: a real one has a handful; 10,000 cost the TOML reader
/// about 40 MB.
const MAX_TABLES: usize = 10_000;

/// Where the table after the first `max` starts (a `[` opening a line, or a `{`, outside
/// strings and comments), if the text has more. A `[` opening a line inside a multi-line
/// array counts too: the count is never below the real one. So does every `.` outside
/// strings and comments: a dotted key (`a.b.c = 1`, or `[a.b.c]`) makes a table per dot
/// (4.7 MB of such lines held the reader 168 s and 1.7 GB), and a dot in a number (which no
/// setting takes) only counts one too many.
fn table_beyond(text: &str, max: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    let (mut tables, mut at, mut line_start) = (0usize, 0usize, true);
    while let Some(&byte) = bytes.get(at) {
        match byte {
            b'\n' => line_start = true,
            b' ' | b'\t' | b'\r' => {}
            b'#' => {
                at = bytes
                    .get(at..)
                    .and_then(|rest| memchr::memchr(b'\n', rest))
                    .map_or(bytes.len(), |offset| at + offset);
                continue;
            }
            b'"' | b'\'' => {
                at = string_end(bytes, at);
                line_start = false;
                continue;
            }
            b'.' => {
                tables += 1;
                if tables > max {
                    return Some(at);
                }
                line_start = false;
            }
            b'[' | b'{' if byte == b'{' || line_start => {
                tables += 1;
                if tables > max {
                    return Some(at);
                }
                line_start = false;
                // `[[overrides]]`: one table, not two.
                if bytes.get(at + 1) == Some(&b'[') {
                    at += 1;
                }
            }
            _ => line_start = false,
        }
        at += 1;
    }
    None
}

/// The offset just past the TOML string that starts at `start` (basic `"`, literal `'`, or
/// their multi-line forms), or the end of the text when it never closes.
fn string_end(bytes: &[u8], start: usize) -> usize {
    let quote = bytes.get(start).copied().unwrap_or(b'"');
    let multi = bytes.get(start..start + 3).is_some_and(|q| q.iter().all(|&b| b == quote));
    let mut at = start + if multi { 3 } else { 1 };
    while let Some(&byte) = bytes.get(at) {
        if byte == b'\\' && quote == b'"' {
            at += 2;
            continue;
        }
        if byte == b'\n' && !multi {
            return at;
        }
        if byte == quote
            && (!multi || bytes.get(at..at + 3).is_some_and(|q| q.iter().all(|&b| b == quote)))
        {
            return at + if multi { 3 } else { 1 };
        }
        at += 1;
    }
    bytes.len()
}

/// The candidate nearest to a misspelt name, when it is close enough to be a likely typo.
fn closest<'c>(name: &str, candidates: impl Iterator<Item = &'c str>) -> Option<&'c str> {
    let limit = (name.chars().count() / 3).max(1);
    candidates
        .map(|c| (unreal_syntax::text::edit_distance(name, c), c))
        .filter(|(d, _)| *d <= limit)
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

/// The options for files under `config` (or none): an override wins over the configuration;
/// the engine falls back to the generation of the game (overridden or configured), then to
/// `auto`. The package index is the caller's to add.
pub fn resolve(
    overrides: &crate::options::Overrides,
    config: Option<&Config>,
) -> crate::options::LintOptions {
    crate::options::LintOptions {
        engine: resolve_engine(overrides, config),
        game: overrides.game.or(config.and_then(|c| c.game)),
        engine_build: overrides.engine_build.or(config.and_then(|c| c.engine_build)),
        game_dir: overrides.game_dir.clone().or(config.and_then(|c| c.game_dir.clone())),
        package_paths: overrides
            .package_paths
            .iter()
            .chain(config.map(|c| &c.package_paths).into_iter().flatten())
            .cloned()
            .collect(),
        source_paths: overrides.source_paths.clone(),
        packages: None,
    }
}

/// The engine of [`resolve`]'s options alone, for a caller that needs nothing else (every T3D
/// request of the language server): the override, else `engine` in `unreal-ls.toml`, else the
/// generation of the game (overridden or configured), else `auto`.
pub fn resolve_engine(
    overrides: &crate::options::Overrides,
    config: Option<&Config>,
) -> EngineSetting {
    let game = overrides.game.or(config.and_then(|c| c.game));
    overrides
        .engine
        .or(config.and_then(|c| c.engine))
        .or_else(|| game.and_then(unreal_engine::Game::generation).map(EngineSetting::from))
        .unwrap_or_default()
}

#[cfg(test)]
// expect-test writes every snapshot as `r#"..."#`.
#[allow(clippy::needless_raw_string_hashes)]
mod tests {
    use std::fmt::Write as _;
    use std::path::Path;

    use expect_test::{expect, Expect};
    use unreal_syntax::Span;

    use super::{apply_severity, table_beyond, Config, GlobList, RuleLevel, MAX_TABLES};
    use crate::{Diagnostic, Severity};

    fn parse(text: &str) -> Result<Config, Vec<super::ConfigError>> {
        Config::parse(text, Path::new("proj/unreal-ls.toml"), Path::new("/proj"))
    }

    fn check_errors(text: &str, expect: &Expect) {
        let errors = parse(text).err().unwrap_or_default();
        let mut shown = String::new();
        for error in errors {
            writeln!(shown, "{error}").unwrap();
        }
        expect.assert_eq(&shown);
    }

    #[test]
    fn full_file() {
        let config = parse(
            r#"
engine = "ue2"
engine-build = 3369
game-dir = "../UT2004"
package-paths = ["../UT2004/System", "Textures"]
include = ["Maps/**", "*.uc"]
exclude = ["Maps/Old"]

[rules]
t3d-stray-line = "off"
t3d-normal-mismatch = "error"

[[overrides]]
files = ["Maps/Imported/**"]
rules = { t3d-normal-mismatch = "hint", t3d-stray-line = "warning" }
"#,
        )
        .unwrap();
        let summary = format!(
            "{:?} {:?} {:?} {:?} {:?} {:?} {:?} {}",
            config.engine,
            config.engine_build,
            config.game_dir,
            config.package_paths,
            config.include.patterns,
            config.exclude.patterns,
            config.rules,
            config.overrides.len(),
        );
        expect![[r#"Some(Ue2) Some(3369) Some("/proj/../UT2004") ["/proj/../UT2004/System", "/proj/Textures"] ["Maps/**", "*.uc"] ["Maps/Old"] [("t3d-normal-mismatch", On(Error)), ("t3d-stray-line", Off)] 1"#]]
            .assert_eq(&summary);

        let file = |p: &str| Path::new("/proj").join(p);
        assert!(config.includes(&file("Maps/DM-Deck.t3d")));
        assert!(config.includes(&file("Classes/Pawn.uc")));
        assert!(!config.includes(&file("Maps/Old/DM-Deck.t3d")));
        assert!(!config.includes(&file("Brushes/Cube.t3d")));
        assert!(config.excludes(&file("maps/old/a.t3d")), "globs ignore case");
        assert_eq!(config.rule_level("t3d-stray-line", &file("Maps/a.t3d")), Some(RuleLevel::Off));
        assert_eq!(
            config.rule_level("t3d-stray-line", &file("Maps/Imported/a.t3d")),
            Some(RuleLevel::On(Severity::Warning))
        );
        assert_eq!(config.rule_level("t3d-degenerate-polygon", &file("Maps/a.t3d")), None);

        let mut diagnostics = vec![
            Diagnostic::warning("t3d-stray-line", Span::new(0, 1), "a"),
            Diagnostic::warning("t3d-normal-mismatch", Span::new(0, 1), "b"),
            Diagnostic::warning("t3d-degenerate-polygon", Span::new(0, 1), "c"),
        ];
        let mut imported = diagnostics.clone();
        apply_severity(&config, &file("Maps/a.t3d"), &mut diagnostics);
        apply_severity(&config, &file("Maps/Imported/a.t3d"), &mut imported);
        let show = |ds: &[Diagnostic]| {
            ds.iter().map(|d| format!("{}={}", d.code, d.severity.as_str())).collect::<Vec<_>>()
        };
        expect![[r#"["t3d-normal-mismatch=error", "t3d-degenerate-polygon=warning"]"#]]
            .assert_eq(&format!("{:?}", show(&diagnostics)));
        expect![[r#"["t3d-stray-line=warning", "t3d-normal-mismatch=hint", "t3d-degenerate-polygon=warning"]"#]]
            .assert_eq(&format!("{:?}", show(&imported)));
    }

    #[test]
    fn empty_file_is_the_default() {
        let config = parse("").unwrap();
        assert!(config.engine.is_none() && config.rules.is_empty() && config.include.is_empty());
        assert!(config.includes(Path::new("/proj/x.t3d")));
    }

    /// Nesting beyond the TOML reader's recursion limit is an error at its place (issue 30
    /// saw it at 1:1).
    #[test]
    fn too_deep_nesting_is_an_error_where_it_happens() {
        let arrays = format!("a = {}{}\n", "[".repeat(200), "]".repeat(200));
        check_errors(
            &arrays,
            &expect![[r#"
                proj/unreal-ls.toml:1:85: invalid TOML: cannot recurse further; max recursion depth met
            "#]],
        );
        let tables = format!("[rules]\nx = 1\na = {}1{}\n", "{b=".repeat(200), "}".repeat(200));
        check_errors(
            &tables,
            &expect![[r#"
                proj/unreal-ls.toml:3:245: invalid TOML: cannot recurse further; max recursion depth met
            "#]],
        );
    }

    #[test]
    fn errors_name_the_line_and_column() {
        check_errors(
            r#"engin = "ue1"
engine = "UE3"
engine-build = "469"
include = "Maps/**"
exclude = ["Maps/[", 3]

[rules]
t3d-stray-lines = "off"
t3d-normal-mismatch = "fatal"
t3d-not-t3d = 2

[[overrides]]
rules = { nope = "off" }
colour = true
"#,
            &expect![[r#"
                proj/unreal-ls.toml:1:1: unknown key `engin` (did you mean `engine`?); expected one of `engine`, `game`, `engine-build`, `game-dir`, `package-paths`, `include`, `exclude`, `rules`, `overrides`
                proj/unreal-ls.toml:2:10: unknown engine `UE3`; expected `ue1`, `ue2` or `auto`
                proj/unreal-ls.toml:3:16: `engine-build` must be a build number such as 436 or 3369
                proj/unreal-ls.toml:4:11: `include` must be an array of strings, not string
                proj/unreal-ls.toml:5:12: invalid glob `Maps/[` in `exclude`: unclosed character class; missing ']'
                proj/unreal-ls.toml:5:22: `exclude` must hold only strings, not integer
                proj/unreal-ls.toml:8:1: unknown rule `t3d-stray-lines` (did you mean `t3d-stray-line`?); `unreal-ls rules` lists every rule
                proj/unreal-ls.toml:9:23: unknown level `fatal` for `t3d-normal-mismatch`; expected `off`, `hint`, `info`, `warning` or `error`
                proj/unreal-ls.toml:10:15: the level of `t3d-not-t3d` must be a string (`off`, `hint`, `info`, `warning` or `error`), not integer
                proj/unreal-ls.toml:12:1: an `[[overrides]]` entry needs `files`, the globs it applies to
                proj/unreal-ls.toml:13:11: unknown rule `nope`; `unreal-ls rules` lists every rule
                proj/unreal-ls.toml:14:1: unknown key `colour`; expected one of `files`, `rules`
            "#]],
        );
    }

    #[test]
    fn game_and_retired_rules() {
        let config = parse("game = \"UT2004\"\n[rules]\nt3d-editor-poly-flag = \"off\"\n").unwrap();
        assert_eq!(config.game, Some(unreal_engine::Game::Ut2004));
        assert!(config.rules.is_empty(), "a retired rule changes nothing");
        check_errors(
            "game = \"ut3\"\n",
            &expect![[r#"
                proj/unreal-ls.toml:1:8: unknown game `ut3`; expected one of `unreal`, `ut99`, `ut469`, `unreal227`, `deusex`, `rune`, `ut2003`, `ut2004`, `swat4`, `tribes-vengeance`, `xiii`, `other`
            "#]],
        );
    }

    #[test]
    fn invalid_toml() {
        check_errors(
            "engine = \"ue1\"\n[rules\n",
            &expect![[r#"
                proj/unreal-ls.toml:2:7: invalid TOML: unclosed table, expected `]`
            "#]],
        );
    }

    /// Thousands of long patterns (about 1 MB) are many times what one compiled set holds
    /// (337 patterns of 200 bytes): every one of them still matches. Before, the list failed
    /// to build beyond about 640 such patterns and was silently empty.
    #[test]
    fn thousands_of_long_patterns_all_work() {
        let folder = |len: usize| "Long_Folder_Name_".repeat(len / 17);
        // 2,000 with a wildcard (compiled, about 400 KB), 3,000 plain paths and 300 plain
        // paths of 1,000 bytes (compared as text), 20 wildcard folders of 4,000 bytes.
        let mut patterns: Vec<String> =
            (0..2000).map(|i| format!("Maps/{}/Map{i:05}?.t3d", folder(180))).collect();
        patterns.extend((0..3000).map(|i| format!("Plain/{}/P{i:05}.t3d", folder(180))));
        patterns.extend((0..300).map(|i| format!("Big/{}/B{i:04}.t3d", folder(1000))));
        patterns.extend((0..20).map(|i| format!("Huge/{}{i:02}*/", folder(4000))));
        let list = |patterns: &[String]| {
            patterns.iter().map(|p| format!("\"{p}\"")).collect::<Vec<_>>().join(", ")
        };
        // `include` gets the 700 patterns the samples below use, `exclude` all of them.
        let sampled: Vec<String> = (0..700).map(|i| patterns[i * 5320 / 700].clone()).collect();
        let text = format!("exclude = [{}]\ninclude = [{}]\n", list(&patterns), list(&sampled));
        let config = parse(&text).unwrap();
        assert_eq!(config.exclude.patterns.len(), 5320);
        assert!(config.exclude.sets.len() >= 10, "{} sets", config.exclude.sets.len());
        for i in (0..700).map(|i| i * 5320 / 700).chain([336, 638, 639, 1999, 4999, 5299, 5319]) {
            // `?` stands for one character; a folder pattern (`Huge/...07*/`) covers what is
            // inside.
            let path = patterns[i].replace('?', "x").replace("*/", "x/in/a.t3d");
            let file = Path::new("/proj").join(&path);
            assert!(config.excludes(&file), "exclude pattern {i}");
            assert!(!config.includes(&file), "excluded wins over included {i}");
            assert_eq!(config.include.is_match(&path), sampled.contains(&patterns[i]), "{i}");
            assert!(config.exclude.is_match(&path.to_uppercase()), "any case {i}");
        }
        assert!(!config.excludes(Path::new("/proj/Maps/Other.t3d")));
        assert!(!config.include.is_match("Maps/Other.t3d"));
        // Past the limit on compiled patterns: an error naming the key, not gigabytes.
        let many: Vec<String> =
            (0..3000).map(|i| format!("Maps/{}/M{i:05}*.t3d", folder(180))).collect();
        let errors = parse(&format!("include = [{}]\n", list(&many))).unwrap_err();
        expect![[r#"
            proj/unreal-ls.toml:1:11: `include` holds 547 KB of patterns with wildcards, more than the 512 KB unreal-ls compiles; name folders and files without wildcards (`Maps/Old`, any number of them), or cover many with one `**` pattern
        "#]]
        .assert_eq(&format!("{}\n", errors[0]));
    }

    /// Patterns without wildcards are compared as text; they match exactly what the compiled
    /// glob would.
    #[test]
    fn plain_patterns_match_as_their_globs() {
        let patterns = [
            "Maps/Old",
            "/Top.t3d",
            "Old",
            "Maps/Deep/",
            "./Classes/A.uc",
            "Brushes/",
            "a.b",
            "Maps//Two",
        ];
        let paths = [
            "Maps/Old",
            "maps/old/x.t3d",
            "Maps/Older/x.t3d",
            "Top.t3d",
            "Sub/Top.t3d",
            "Old",
            "x/OLD/y",
            "x/Old",
            "x/Olde",
            "Maps/Deep/a/b.t3d",
            "Maps/Deep",
            "Classes/a.UC",
            "Other/Classes/A.uc",
            "Brushes",
            "x/brushes/c.t3d",
            "a.b",
            "x/a.b/c",
            "axb",
            "Maps//Two/z",
            "Maps/Two/z",
            "",
        ];
        for pattern in patterns {
            let list = GlobList::new(&[pattern]).unwrap();
            assert!(list.sets.is_empty(), "{pattern} is plain");
            let mut builder = globset::GlobSetBuilder::new();
            for glob in super::expanded_globs(pattern).unwrap() {
                builder.add(glob);
            }
            let compiled = builder.build().unwrap();
            for path in paths {
                assert_eq!(list.is_match(path), compiled.is_match(path), "{pattern} on {path}");
            }
        }
    }

    /// A pattern too big for the regex engine even alone is an error at its line and column
    /// (quoted in part); the other patterns of the list still work.
    #[test]
    fn a_pattern_too_big_to_compile_is_an_error_at_its_place() {
        let huge = format!("Maps/{}*.t3d", "x".repeat(200_000));
        let errors = parse(&format!("exclude = [\n  \"Old\",\n  \"{huge}\",\n]\n")).unwrap_err();
        assert_eq!(errors.len(), 1, "{errors:?}");
        let shown = errors[0].to_string();
        assert!(
            shown.starts_with("proj/unreal-ls.toml:3:3: invalid glob `Maps/xxx")
                && shown.contains("... (200010 bytes)` in `exclude`: "),
            "{}",
            &shown[..shown.len().min(400)]
        );
        assert!(shown.len() < 1000, "the pattern is not echoed whole: {} bytes", shown.len());
    }

    #[test]
    fn glob_rules() {
        let globs = GlobList::new(&["Old", "Maps/*.t3d", "Brushes/", "/Top.t3d"]).unwrap();
        let cases = [
            ("Old/a.t3d", true),
            ("Maps/Old/a.t3d", true),
            ("Maps/a.t3d", true),
            ("Maps/Sub/a.t3d", false),
            ("Brushes/x/y.t3d", true),
            ("Top.t3d", true),
            ("Sub/Top.t3d", false),
            ("Gold/a.t3d", false),
        ];
        for (path, expected) in cases {
            assert_eq!(globs.is_match(path), expected, "{path}");
        }
        assert!(!GlobList::default().is_match("a"));
    }

    /// More tables than a configuration needs are refused before the TOML reader holds them;
    /// braces and brackets inside strings and comments are not tables.
    #[test]
    fn too_many_tables_are_refused_before_they_are_read() {
        let entry = "[[overrides]]\nfiles = [\"M{a,b}/[x]\", 'Old{1,2}', \"\"\"\n[ab]x\"\"\"] # [ {\nrules = { t3d-stray-line = \"off\" }\n";
        assert_eq!(table_beyond(entry, 2), None, "two tables: the entry and its rules");
        // A dotted key makes a table per dot; a dot in a string or comment makes none.
        let dotted = "rules.t3d-stray-line = \"off\" # a.b\nk.a.b = \"x.y\"\n";
        assert_eq!(table_beyond(dotted, 3), None);
        assert_eq!(table_beyond(dotted, 2), Some(dotted.find(".b =").unwrap()));
        assert_eq!(table_beyond(entry, 1), Some(entry.find("{ t3d").unwrap()));
        assert_eq!(table_beyond(entry, 0), Some(0));
        let text = entry.repeat(MAX_TABLES / 2);
        assert_eq!(table_beyond(&text, MAX_TABLES), None);
        assert!(Config::parse(&text, Path::new("/p/unreal-ls.toml"), Path::new("/p")).is_ok());
        let text = entry.repeat(MAX_TABLES / 2 + 1);
        let errors =
            Config::parse(&text, Path::new("/p/unreal-ls.toml"), Path::new("/p")).unwrap_err();
        assert_eq!(errors.len(), 1);
        assert_eq!((errors[0].line, errors[0].column), (4 * MAX_TABLES as u32 / 2 + 1, 1));
        assert!(errors[0].message.contains("more than 10000 tables"), "{}", errors[0]);
    }

    /// The `files` of every override are one list; each pattern answers for its entry, a
    /// literal named by several entries for each of them, and the later entry wins.
    #[test]
    fn overrides_share_one_list_and_the_later_entry_wins() {
        let mut text = String::new();
        let entries = [
            ("[\"Maps/**\"]", "hint"),
            ("[\"Old\", \"Maps/*.t3d\"]", "info"),
            ("[\"maps/old\"]", "warning"),
            ("[\"Old\"]", "error"),
        ];
        for (files, level) in entries {
            for line in [
                "[[overrides]]\nfiles = ",
                files,
                "\nrules = { t3d-stray-line = \"",
                level,
                "\" }\n",
            ] {
                text.push_str(line);
            }
        }
        let config = Config::parse(&text, Path::new("/p/unreal-ls.toml"), Path::new("/p")).unwrap();
        let owners = |path: &str| config.override_files.owners_matching(path);
        assert_eq!(owners("Maps/Old/a.t3d"), [0, 1, 2, 3]);
        assert_eq!(owners("Maps/a.t3d"), [0, 1]);
        assert_eq!(owners("Old/x/y.t3d"), [1, 3]);
        assert_eq!(owners("Other/a.t3d"), [] as [u32; 0]);
        let level = |path: &str| config.rule_level("t3d-stray-line", &Path::new("/p").join(path));
        assert_eq!(level("Maps/Old/a.t3d"), Some(RuleLevel::On(Severity::Error)));
        assert_eq!(level("Maps/a.t3d"), Some(RuleLevel::On(Severity::Info)));
        assert_eq!(level("Maps/Sub/a.t3d"), Some(RuleLevel::On(Severity::Hint)));
        assert_eq!(level("a.t3d"), None);
        assert_eq!(config.overrides[1].files, ["Old", "Maps/*.t3d"]);
    }
}
