//! Every command of the table, and every alias, written with its required keys and checked
//! as an editor buffer (no files): none is unknown or misses a key, and the snapshot shows
//! what each line reports on its own.

use std::fmt::Write;

use unreal_analysis::lint::LintOptions;
use unreal_analysis::rules::check_uc_text;
use unreal_analysis::EngineSetting;
use unreal_engine::exec::{KeyKind, KeySpec, Sub, ALIASES, COMMANDS};
use unreal_engine::Engines;

use crate::render::render;

fn sample(key: &KeySpec) -> String {
    let value = match key.kind {
        KeyKind::Path => "Files\\Some.file".to_owned(),
        KeyKind::Int | KeyKind::Bool => "1".to_owned(),
        KeyKind::Float => "0.5".to_owned(),
        KeyKind::Enum(words) => words.first().copied().unwrap_or("x").to_owned(),
        KeyKind::Text => "\"Some text\"".to_owned(),
        KeyKind::Switch => return key.name.to_owned(),
        KeyKind::Name | KeyKind::Object(_) => "Thing".to_owned(),
    };
    format!("{}={value}", key.name)
}

fn setting(engines: Engines) -> EngineSetting {
    match engines {
        Engines::Ue1 => EngineSetting::Ue1,
        Engines::Ue2 => EngineSetting::Ue2,
        Engines::Both => EngineSetting::Auto,
    }
}

#[test]
fn every_command_with_its_required_keys() {
    let mut out = String::new();
    // The line, its engine, and the game of an OldUnreal-only command.
    let mut lines: Vec<(String, EngineSetting, Option<unreal_analysis::Game>)> = Vec::new();
    for spec in COMMANDS {
        let words = match spec.sub {
            Sub::None => spec.command.to_owned(),
            Sub::Word(word) => format!("{} {word}", spec.command),
            Sub::AnyClass => format!("{} TEXTURE", spec.command),
        };
        let engine = setting(spec.engines);
        let generation_keys: Vec<&KeySpec> = spec
            .keys
            .iter()
            .filter(|k| {
                k.ignored.is_none()
                    && (engine == EngineSetting::Auto
                        || k.engines == Engines::Both
                        || k.engines == spec.engines)
            })
            .collect();
        let mut keys: Vec<String> = Vec::new();
        for key in generation_keys.iter().filter(|k| k.required) {
            let text = sample(key);
            if !keys.contains(&text) {
                keys.push(text);
            }
        }
        for group in spec.one_of {
            if let Some(key) = generation_keys.iter().find(|k| k.name == group[0]) {
                let text = sample(key);
                if !keys.contains(&text) {
                    keys.push(text);
                }
            }
        }
        let game = spec.only_in.map(unreal_engine::Patch::game);
        lines.push((format!("#exec {words} {}", keys.join(" ")), engine, game));
    }
    for alias in ALIASES {
        let words = match alias.sub {
            Some(sub) => format!("{} {sub}", alias.command),
            None => format!("{} IMPORT", alias.command),
        };
        lines.push((format!("#exec {words} FILE=Files\\Some.file MESH=Thing ANIM=Thing ANIMFILE=Files\\Some.file ANIVFILE=Files\\Some.file DATAFILE=Files\\Some.file"), setting(alias.engines), None));
    }
    for (line, engine, game) in lines {
        let text = format!("{line}\n");
        let options = LintOptions { engine, game, ..LintOptions::default() };
        let diagnostics = check_uc_text(&text, &options);
        let _ = writeln!(out, "{line}    [{engine:?}]");
        for d in &diagnostics {
            assert!(
                d.code != "exec-unknown-command" && d.code != "exec-missing-key",
                "{line}: {d:?}"
            );
        }
        out.push_str(&render(&text, &diagnostics, std::path::Path::new("/")));
    }
    expect_test::expect_file!["commands.diagnostics"].assert_eq(&out);
}
