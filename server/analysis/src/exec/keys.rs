//! How the engine treats each token of a directive line: a key it reads, one it ignores, one
//! it does not know, or one it never reaches because its lookup stops earlier.

use unreal_engine::exec::{CommandMatch, KeyKind, KeySpec};
use unreal_engine::{Engines, Generation, Patch};
use unreal_syntax::exec::Arg;
use unreal_syntax::Span;

use super::LineFacts;

/// The verdict on one argument token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KeyVerdict {
    /// Read by the engine (or not judged: the command's key list is incomplete).
    Read,
    /// No command key has this name. `read_as`: a key the engine finds inside the token
    /// anyway (`_SEQ=` is read as `SEQ=`).
    Unknown { read_as: Option<&'static str> },
    /// A word without `=` that is no switch of the command.
    StrayWord,
    /// `=value` without a key.
    EmptyKey,
    /// Only another generation reads it.
    OtherGeneration { engines: Engines },
    /// Only an OldUnreal build other than the one targeted (or, when none is, an OldUnreal
    /// build) reads it.
    OtherBuild { patch: Patch },
    /// The engine does not read it, for this reason.
    Ignored { reason: &'static str },
    /// The engine's lookup finds the key earlier on the line (`at`): a repeated key, or the
    /// key text inside another value.
    Shadowed { at: Span, inside_other: bool },
}

/// The verdict on every argument of `line`, in order, with the token's span.
pub fn verdicts(
    text: &str,
    line: &LineFacts,
    m: CommandMatch,
    generation: Option<Generation>,
    patch: Option<Patch>,
) -> Vec<(Arg, KeyVerdict)> {
    let mut out = Vec::with_capacity(line.line.args.len());
    for (index, arg) in line.line.args.iter().copied().enumerate() {
        let name = arg.name_span().text(text);
        let verdict = match arg {
            Arg::Key { key, .. } if key.is_empty() => KeyVerdict::EmptyKey,
            // A statement's `;` after the last value (`FILE="GameSounds.uax";`): `Parse` reads
            // keys only, so it is never read and nothing is lost (UT2004
            // `Core/Src/UnMisc.cpp:833-870`). An unquoted value takes it into the value
            // (`NAME=Hit;`), which the value's own checks see.
            Arg::Bare { .. } if !name.is_empty() && name.bytes().all(|b| b == b';') => {
                KeyVerdict::Read
            }
            _ => verdict(text, line, m, (generation, patch), index, arg, name),
        };
        out.push((arg, verdict));
    }
    out
}

fn verdict(
    text: &str,
    line: &LineFacts,
    m: CommandMatch,
    (generation, patch): (Option<Generation>, Option<Patch>),
    index: usize,
    arg: Arg,
    name: &str,
) -> KeyVerdict {
    // A build whose handlers are not public may read keys no source shows: its unknown keys
    // and the keys only the other generation reads are not judged.
    let judged = patch.is_none_or(Patch::keys_known);
    // The command's entries named `name` (for every generation), read in one pass: the first,
    // whether one is a switch, and the first and the ignoring of those `generation` knows.
    let mut first_any: Option<&KeySpec> = None;
    let mut any_switch = false;
    let mut first_known: Option<&KeySpec> = None;
    let mut all_known_ignored = true;
    let mut other_build: Option<Patch> = None;
    for key in m.spec.key_variants(name) {
        first_any.get_or_insert(key);
        any_switch |= key.kind == KeyKind::Switch;
        if !key.in_build(patch) {
            other_build = other_build.or(key.only_in);
            continue;
        }
        if generation.is_none_or(|g| key.engines.includes(g)) {
            first_known.get_or_insert(key);
            all_known_ignored &= key.ignored.is_some();
        }
    }
    if let (None, Some(patch)) = (first_known, other_build) {
        return KeyVerdict::OtherBuild { patch };
    }
    let is_bare = matches!(arg, Arg::Bare { .. });
    if first_any.is_none() || (is_bare && !any_switch) {
        if !m.spec.keys_complete || !judged {
            return KeyVerdict::Read;
        }
        if is_bare {
            return KeyVerdict::StrayWord;
        }
        // The engine matches a key after any character that is not a letter or digit.
        let read_as = m.spec.keys.iter().map(|k| k.name).find(|k| {
            name.len() > k.len()
                && name.get(name.len() - k.len()..).is_some_and(|t| t.eq_ignore_ascii_case(k))
                && name
                    .as_bytes()
                    .get(name.len() - k.len() - 1)
                    .is_some_and(|b| !b.is_ascii_alphanumeric())
        });
        return KeyVerdict::Unknown { read_as };
    }
    let Some(first) = first_known else {
        if !judged {
            return KeyVerdict::Read;
        }
        let engines = first_any.map_or(Engines::Both, |k| k.engines);
        return KeyVerdict::OtherGeneration { engines };
    };
    if all_known_ignored {
        return KeyVerdict::Ignored { reason: first.ignored.unwrap_or("") };
    }
    if let Some(found) = line.lookup_key(text, first) {
        match line.line.arg_of(&found) {
            Some(i) if i == index => {}
            Some(_) => {
                return KeyVerdict::Shadowed {
                    at: Span::from_range(found.key.clone()),
                    inside_other: false,
                }
            }
            None => {
                return KeyVerdict::Shadowed {
                    at: Span::from_range(found.key.clone()),
                    inside_other: true,
                }
            }
        }
    }
    KeyVerdict::Read
}

/// The key an argument misspells: a `KEY=value` the command does not have (its verdict
/// [`KeyVerdict::Unknown`], not read as another key) near a key it reads ([`misspelt_key`]).
pub fn misspelling(
    spec: &unreal_engine::exec::CommandSpec,
    arg: Arg,
    verdict: &KeyVerdict,
    text: &str,
    generation: Option<Generation>,
) -> Option<&'static str> {
    if !matches!((verdict, arg), (KeyVerdict::Unknown { read_as: None }, Arg::Key { .. })) {
        return None;
    }
    misspelt_key(spec, arg.name_span().text(text), generation)
}

/// The key of `spec` that `written` (a key the command does not have) is a misspelling of:
/// a key the targeted generation reads, within one edit (two for keys of five letters or
/// more), ignoring case, and nearer than any other. `None` when none is near or two are
/// equally near.
pub fn misspelt_key(
    spec: &unreal_engine::exec::CommandSpec,
    written: &str,
    generation: Option<Generation>,
) -> Option<&'static str> {
    if written.len() < 3 {
        return None;
    }
    let written = written.to_ascii_uppercase();
    let mut best: Option<(usize, &'static str)> = None;
    let mut tie = false;
    for key in spec.keys {
        let read = key.ignored.is_none()
            && key.only_in.is_none()
            && key.kind != unreal_engine::exec::KeyKind::Switch
            && generation.is_none_or(|g| key.engines.includes(g));
        if !read || best.is_some_and(|(_, name)| name == key.name) {
            continue;
        }
        let distance = unreal_syntax::text::edit_distance(&written, key.name);
        let allowed = if key.name.len() >= 5 { 2 } else { 1 };
        if distance == 0 || distance > allowed {
            continue;
        }
        match best {
            Some((d, name)) if d == distance && name != key.name => tie = true,
            Some((d, _)) if d <= distance => {}
            _ => {
                best = Some((distance, key.name));
                tie = false;
            }
        }
    }
    best.filter(|_| !tie).map(|(_, name)| name)
}
