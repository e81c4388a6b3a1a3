//! Completion on `#exec` lines: directive words after `#`, commands and subcommands, the
//! command's keys (with their documentation, leaving out keys already on the line), enum and
//! boolean values, file paths relative to the package folder (backslash-separated, as real
//! sources write them) and the names the package's directives define for `MESH=`,
//! `MESHMAP=`, `TEXTURE=`, `ANIM=` and `SEQ=` values.
//!
//! The context comes from the text of the line before the cursor: a line being typed rarely
//! parses into what it will become.

use std::collections::BTreeSet;
use std::path::Path;

use unreal_engine::exec::{
    self as commands, CommandSpec, KeyKind, KeySpec, Sub, ALIASES, COMMANDS,
};
use unreal_engine::{Engines, Generation};
use unreal_syntax::exec::DirectiveKind;
use unreal_syntax::text::line_start;
use unreal_syntax::Span;

use super::ExecSource;
use crate::exec::{directive_known, Expect, SymbolKind};
use crate::ide::t3d::completion::{CompletionItem, CompletionKind};

/// How deep and how many files the path completion walks below the package folder.
const MAX_DEPTH: usize = 4;
const MAX_FILES: usize = 2000;

fn is_word(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

fn is_blank(c: char) -> bool {
    c == ' ' || c == '\t'
}

fn known(engines: Engines, generation: Option<Generation>) -> bool {
    generation.is_none_or(|g| engines.includes(g))
}

/// Completions at `offset` of a `.uc` document.
pub fn completions(src: &ExecSource<'_>, offset: u32) -> Vec<CompletionItem> {
    let text = src.text;
    let at = offset as usize;
    if at > text.len() || !text.is_char_boundary(at) {
        return Vec::new();
    }
    let start = line_start(text, at);
    let Some(prefix) = text.get(start..at) else { return Vec::new() };
    let after = text.get(at..).unwrap_or("");
    let line_rest = &after[..after.find(['\r', '\n']).unwrap_or(after.len())];
    let trimmed = prefix.trim_start_matches(is_blank);
    let Some(after_hash) = trimmed.strip_prefix('#') else { return Vec::new() };
    let word_len = after_hash.find(|c: char| !is_word(c)).unwrap_or(after_hash.len());
    let tail_word = line_rest.find(|c: char| !is_word(c)).unwrap_or(line_rest.len());
    if word_len == after_hash.len() {
        // Typing the directive word itself: replace from `#`.
        let hash_at = offset - after_hash.len() as u32 - 1;
        let replace = Span::new(hash_at, offset + tail_word as u32);
        return directive_items(src.generation, replace);
    }
    let Some(kind) = DirectiveKind::from_word(&after_hash[..word_len]) else { return Vec::new() };
    let body = &after_hash[word_len..];
    if !kind.runs_command() || body.contains("//") || body.contains("/*") {
        return Vec::new();
    }
    let mut tokens: Vec<&str> = body.split(is_blank).filter(|t| !t.is_empty()).collect();
    let partial = if body.ends_with(is_blank) { "" } else { tokens.pop().unwrap_or("") };
    let partial_start = offset - partial.len() as u32;

    if let Some((key, value)) = partial.split_once('=') {
        let command = command_of(&tokens);
        let Some(spec) = command else { return Vec::new() };
        let value_start = partial_start + key.len() as u32 + 1;
        let quoted = value.starts_with('"');
        let value_start = value_start + u32::from(quoted);
        let tail = line_rest
            .find(|c: char| is_blank(c) || c == ',' || c == '"')
            .unwrap_or(line_rest.len());
        let replace = Span::new(value_start, offset + tail as u32);
        return value_items(src, spec, key, replace, offset);
    }
    let replace = Span::new(partial_start, offset + tail_word as u32);
    match tokens.as_slice() {
        [] => command_items(src.generation, replace),
        [command] => {
            let subs = subcommand_items(command, src.generation, replace);
            let plain =
                commands::resolve_command(command, None).filter(|m| m.spec.sub == Sub::None);
            match plain {
                Some(m) => {
                    let mut items = subs;
                    items.extend(key_items(src, m.spec, &present_keys(body, partial), replace));
                    items
                }
                None => subs,
            }
        }
        _ => match command_of(&tokens) {
            Some(spec) => key_items(src, spec, &present_keys(body, partial), replace),
            None => Vec::new(),
        },
    }
}

/// The command the line's first words name.
fn command_of(tokens: &[&str]) -> Option<&'static CommandSpec> {
    let command = tokens.first()?;
    let sub = tokens.get(1).filter(|s| !s.contains('='));
    commands::resolve_command(command, sub.copied()).map(|m| m.spec)
}

/// The keys written on the line, upper case, leaving out the token being typed.
fn present_keys(body: &str, partial: &str) -> BTreeSet<String> {
    let mut tokens: Vec<&str> = body.split(is_blank).filter(|t| !t.is_empty()).collect();
    if !partial.is_empty() {
        tokens.pop();
    }
    tokens
        .iter()
        .flat_map(|t| t.split(','))
        .map(|t| t.split_once('=').map_or(t, |(k, _)| k).to_ascii_uppercase())
        .collect()
}

fn directive_items(generation: Option<Generation>, replace: Span) -> Vec<CompletionItem> {
    DirectiveKind::ALL
        .into_iter()
        .filter(|k| directive_known(*k, generation))
        .map(|k| {
            let label = format!("#{}", k.name());
            let mut it =
                CompletionItem::new(label.clone(), CompletionKind::Directive, replace, label);
            it.detail = Some(k.engines().name().to_owned());
            it.preselect = k == DirectiveKind::Exec;
            it
        })
        .collect()
}

fn command_items(generation: Option<Generation>, replace: Span) -> Vec<CompletionItem> {
    let mut words: Vec<&'static str> = Vec::new();
    for spec in COMMANDS.iter().filter(|s| known(s.engines, generation)) {
        if !words.contains(&spec.command) {
            words.push(spec.command);
        }
    }
    for alias in ALIASES.iter().filter(|a| known(a.engines, generation)) {
        if !words.contains(&alias.command) {
            words.push(alias.command);
        }
    }
    words
        .into_iter()
        .map(|word| {
            let specs: Vec<&CommandSpec> =
                commands::commands_named(word).filter(|s| known(s.engines, generation)).collect();
            let mut it = CompletionItem::new(word, CompletionKind::Command, replace, word);
            match specs.as_slice() {
                [] => {
                    if let Some(alias) = ALIASES.iter().find(|a| a.command == word) {
                        it.documentation = Some(alias.doc.to_owned());
                    }
                }
                [one] => {
                    it.detail = Some(one.display_name());
                    it.documentation = Some(one.doc.to_owned());
                }
                many => {
                    let subs: Vec<String> = many
                        .iter()
                        .filter_map(|s| match s.sub {
                            Sub::Word(w) => Some(w.to_owned()),
                            Sub::AnyClass => Some("<class>".to_owned()),
                            Sub::None => None,
                        })
                        .collect();
                    it.detail = Some(subs.join(", "));
                }
            }
            it
        })
        .collect()
}

fn subcommand_items(
    command: &str,
    generation: Option<Generation>,
    replace: Span,
) -> Vec<CompletionItem> {
    let mut items = Vec::new();
    // A two-word alias offers its second word; a one-word alias the target's subcommands.
    let mut target = command.to_owned();
    for alias in ALIASES.iter().filter(|a| a.command.eq_ignore_ascii_case(command)) {
        match alias.sub {
            Some(word) if known(alias.engines, generation) => {
                let mut it = CompletionItem::new(word, CompletionKind::Command, replace, word);
                it.documentation = Some(alias.doc.to_owned());
                items.push(it);
            }
            Some(_) => {}
            None => alias.target_command.clone_into(&mut target),
        }
    }
    for spec in commands::commands_named(&target).filter(|s| known(s.engines, generation)) {
        let Sub::Word(word) = spec.sub else { continue };
        let mut it = CompletionItem::new(word, CompletionKind::Command, replace, word);
        it.detail = Some(match spec.only_in {
            Some(patch) => format!("{} ({})", spec.display_name(), patch.name()),
            None => spec.display_name(),
        });
        it.documentation = Some(spec.doc.to_owned());
        items.push(it);
    }
    items
}

/// Whether the generation reads the key (an unknown generation: either does).
fn key_offered(key: &KeySpec, generation: Option<Generation>) -> bool {
    match generation {
        Some(g) => key.is_read_by(g),
        None => key.ignored.is_none(),
    }
}

fn key_items(
    src: &ExecSource<'_>,
    spec: &'static CommandSpec,
    present: &BTreeSet<String>,
    replace: Span,
) -> Vec<CompletionItem> {
    let mut seen: Vec<&str> = Vec::new();
    let mut required = Vec::new();
    let mut optional = Vec::new();
    for key in spec.keys.iter().filter(|k| key_offered(k, src.generation)) {
        if seen.contains(&key.name) || present.contains(key.name) {
            continue;
        }
        seen.push(key.name);
        let label = key.search_text();
        let mut it = CompletionItem::new(label.clone(), CompletionKind::Key, replace, label);
        let mut detail = key.kind.describe();
        if key.required {
            detail.push_str(", required");
        }
        if let Some(patch) = key.only_in {
            detail.push_str(", ");
            detail.push_str(patch.name());
        } else if key.engines != Engines::Both {
            detail.push_str(", ");
            detail.push_str(key.engines.name());
        }
        it.detail = Some(detail);
        it.documentation = Some(key.doc.to_owned());
        it.filter_text = Some(key.name.to_owned());
        if key.required {
            required.push(it);
        } else {
            optional.push(it);
        }
    }
    if let Some(first) = required.first_mut() {
        first.preselect = true;
    }
    required.extend(optional);
    required
}

fn value_items(
    src: &ExecSource<'_>,
    spec: &'static CommandSpec,
    key: &str,
    replace: Span,
    offset: u32,
) -> Vec<CompletionItem> {
    let Some(key_spec) = spec.key(key, src.generation).or_else(|| spec.key(key, None)) else {
        return Vec::new();
    };
    match key_spec.kind {
        KeyKind::Enum(words) => words
            .iter()
            .map(|w| {
                let mut it = CompletionItem::new(*w, CompletionKind::Value, replace, *w);
                it.detail = Some(key_spec.search_text());
                it
            })
            .collect(),
        KeyKind::Bool => [("1", "true"), ("0", "false")]
            .into_iter()
            .map(|(v, meaning)| {
                let mut it = CompletionItem::new(v, CompletionKind::Value, replace, v);
                it.detail = Some(meaning.to_owned());
                it.documentation = Some(key_spec.doc.to_owned());
                it
            })
            .collect(),
        KeyKind::Path => {
            let sub = match spec.sub {
                Sub::Word(w) => Some(w),
                _ => None,
            };
            let expect = crate::exec::expect_of(spec.command, sub, key_spec.name);
            file_items(src, expect, replace)
        }
        _ => match super::referred_kind(spec, key_spec) {
            Some(SymbolKind::Sequence) => sequence_items(src, offset, replace),
            Some(kind) => name_items(src, kind, replace),
            None => Vec::new(),
        },
    }
}

fn name_items(src: &ExecSource<'_>, kind: SymbolKind, replace: Span) -> Vec<CompletionItem> {
    let mut seen: BTreeSet<String> = BTreeSet::new();
    let mut items = Vec::new();
    for found in src.table.all().filter(|f| f.definition.kind == kind) {
        let name = &found.definition.name;
        if !seen.insert(name.to_ascii_lowercase()) {
            continue;
        }
        let mut it = CompletionItem::new(name.clone(), CompletionKind::Name, replace, name.clone());
        it.detail = Some(match found.file {
            None => format!("{}, this file", kind.name()),
            Some(path) => format!("{}, {}", kind.name(), src.show(path)),
        });
        items.push(it);
    }
    items
}

fn sequence_items(src: &ExecSource<'_>, offset: u32, replace: Span) -> Vec<CompletionItem> {
    let Some(line) = src.line_at(offset) else { return Vec::new() };
    let Some(mesh) = line.value(src.text, "MESH") else { return Vec::new() };
    let mut seen: BTreeSet<String> = BTreeSet::new();
    src.table
        .sequences(&mesh.text)
        .filter(|f| seen.insert(f.definition.name.to_ascii_lowercase()))
        .map(|f| {
            let name = f.definition.name.clone();
            let mut it = CompletionItem::new(name.clone(), CompletionKind::Name, replace, name);
            it.detail = Some(format!("sequence of {}", mesh.text));
            it
        })
        .collect()
}

/// Whether a file name fits what the key expects.
fn fits(expect: Expect, name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    let ext = lower.rsplit_once('.').map_or("", |(_, e)| e);
    match expect {
        Expect::MeshData => lower.ends_with("_d.3d"),
        Expect::MeshAnimation => lower.ends_with("_a.3d"),
        Expect::Skin => matches!(ext, "psk" | "pskx"),
        Expect::Animation => ext == "psa",
        Expect::Image => matches!(ext, "pcx" | "bmp" | "tga" | "dds" | "png"),
        Expect::Sound => ext == "wav",
        Expect::Package => matches!(ext, "u" | "utx" | "uax" | "umx" | "usx" | "ukx" | "unr"),
        Expect::Any => !matches!(ext, "uc" | "uci"),
    }
}

/// Files below the package folder that fit the key, as `Folder\File.ext`.
fn file_items(src: &ExecSource<'_>, expect: Expect, replace: Span) -> Vec<CompletionItem> {
    let (Some(env), Some(root)) = (src.env, src.root()) else { return Vec::new() };
    let mut found: Vec<String> = Vec::new();
    let mut stack: Vec<(std::path::PathBuf, String, usize)> =
        vec![(root.to_path_buf(), String::new(), 0)];
    while let Some((dir, rel, depth)) = stack.pop() {
        let Some(entries) = env.list_dir(&dir) else { continue };
        for entry in entries.iter() {
            let shown =
                if rel.is_empty() { entry.name.clone() } else { format!("{rel}\\{}", entry.name) };
            if entry.is_dir {
                if depth + 1 < MAX_DEPTH
                    && !(depth == 0 && entry.name.eq_ignore_ascii_case("classes"))
                {
                    stack.push((dir.join(&entry.name), shown, depth + 1));
                }
            } else if fits(expect, &entry.name) && found.len() < MAX_FILES {
                found.push(shown);
            }
        }
    }
    found.sort_by_key(|p| p.to_ascii_lowercase());
    found
        .into_iter()
        .map(|path| {
            let mut it =
                CompletionItem::new(path.clone(), CompletionKind::File, replace, path.clone());
            it.detail = Path::new(&path.replace('\\', "/"))
                .extension()
                .map(|e| format!("{} file", e.to_string_lossy()));
            it
        })
        .collect()
}
