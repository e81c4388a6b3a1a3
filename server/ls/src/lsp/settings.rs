//! The `unrealLs.*` settings. They arrive as JSON from `initializationOptions`, from
//! `workspace/didChangeConfiguration` and from `workspace/configuration`; clients differ in
//! whether they wrap them in an `unrealLs` object, so both shapes are read.
//!
//! ```json
//! { "unrealLs": {
//!     "gameDirectory": "C:/UnrealTournament",
//!     "engine": "auto",
//!     "rules": { "t3d-degenerate-polygon": "off", "exec-unknown-key": "error" },
//!     "workspaceDiagnostics": true } }
//! ```

use std::collections::HashMap;
use std::path::PathBuf;

use serde_json::Value;
use unreal_analysis::{EngineSetting, Severity};

/// What the user set for one rule: the same levels as `unreal-ls.toml`'s `[rules]`.
pub use unreal_analysis::config::RuleLevel;

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Settings {
    /// The game's root folder (the one holding `System/`, `Textures/`...), where packages
    /// referenced from maps and `#exec` lines are looked up.
    pub game_directory: Option<PathBuf>,
    pub engine: EngineSetting,
    /// Rule code -> level, overriding each rule's default severity.
    pub rules: HashMap<String, RuleLevel>,
    /// `unrealLs.workspaceDiagnostics`: whether the files of the workspace that are not open
    /// are checked in the background and their problems shown; `None`: not set (on).
    pub workspace_diagnostics: Option<bool>,
}

impl Settings {
    /// Reads settings, skipping what it cannot use. The second value lists one message per
    /// problem (unknown engine, bad severity...) for the client's log.
    pub fn from_json(value: &Value) -> (Settings, Vec<String>) {
        let mut settings = Settings::default();
        let mut problems = Vec::new();
        let section = match value.get("unrealLs") {
            Some(inner) => inner,
            None => value,
        };
        let Some(object) = section.as_object() else {
            if !section.is_null() {
                problems.push(format!("settings: expected an object, found {section}"));
            }
            return (settings, problems);
        };
        for (key, value) in object {
            match key.as_str() {
                "gameDirectory" => match value {
                    Value::String(dir) if dir.trim().is_empty() => {}
                    Value::String(dir) => settings.game_directory = Some(PathBuf::from(dir)),
                    Value::Null => {}
                    other => problems
                        .push(format!("unrealLs.gameDirectory: expected a path, found {other}")),
                },
                "engine" => match value.as_str().and_then(EngineSetting::parse) {
                    Some(engine) => settings.engine = engine,
                    None if value.is_null() => {}
                    None => problems.push(format!(
                        "unrealLs.engine: expected \"auto\", \"ue1\" or \"ue2\", found {value}"
                    )),
                },
                "rules" => read_rules(value, &mut settings.rules, &mut problems),
                "workspaceDiagnostics" => match value {
                    Value::Bool(on) => settings.workspace_diagnostics = Some(*on),
                    Value::Null => {}
                    other => problems.push(format!(
                        "unrealLs.workspaceDiagnostics: expected true or false, found {other}"
                    )),
                },
                other => problems.push(format!("unrealLs.{other}: unknown setting, ignored")),
            }
        }
        (settings, problems)
    }

    /// Whether the workspace's files that are not open are checked and their problems shown
    /// (on unless the user turned it off).
    pub fn workspace_problems(&self) -> bool {
        self.workspace_diagnostics.unwrap_or(true)
    }

    /// The severity a diagnostic of rule `code` is published with, or `None` when the user
    /// turned the rule off.
    pub fn severity_for(&self, code: &str, default: Severity) -> Option<Severity> {
        match self.rules.get(code) {
            None => Some(default),
            Some(RuleLevel::Off) => None,
            Some(RuleLevel::On(severity)) => Some(*severity),
        }
    }
}

fn read_rules(value: &Value, rules: &mut HashMap<String, RuleLevel>, problems: &mut Vec<String>) {
    let Some(object) = value.as_object() else {
        if !value.is_null() {
            problems
                .push(format!("unrealLs.rules: expected an object of rule levels, found {value}"));
        }
        return;
    };
    for (code, level) in object {
        // Editors' settings are forgiving: any case, `none` for off, `warn` and `information`.
        let parsed = level.as_str().and_then(|name| {
            if name.eq_ignore_ascii_case("off") || name.eq_ignore_ascii_case("none") {
                Some(RuleLevel::Off)
            } else {
                Severity::parse(name).map(RuleLevel::On)
            }
        });
        match parsed {
            Some(level) => {
                rules.insert(code.clone(), level);
            }
            None => problems.push(format!(
                "unrealLs.rules.{code}: expected off, hint, info, warning or error, found {level}"
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn check(value: &Value, expect: &expect_test::Expect) {
        let (settings, problems) = Settings::from_json(value);
        let mut rules: Vec<_> = settings.rules.iter().collect();
        rules.sort_by(|a, b| a.0.cmp(b.0));
        let actual = format!(
            "game_directory: {:?}\nengine: {:?}\nrules: {rules:?}\nproblems: {problems:#?}\n",
            settings.game_directory, settings.engine
        );
        expect.assert_eq(&actual);
    }

    #[test]
    fn nested_and_flat_shapes() {
        let inner = json!({
            "gameDirectory": "/games/ut99",
            "engine": "UE1",
            "rules": { "t3d-degenerate-polygon": "off", "exec-unknown-key": "Error" }
        });
        let expected = expect_test::expect![[r#"
            game_directory: Some("/games/ut99")
            engine: Ue1
            rules: [("exec-unknown-key", On(Error)), ("t3d-degenerate-polygon", Off)]
            problems: []
        "#]];
        check(&json!({ "unrealLs": inner.clone() }), &expected);
        check(&inner, &expected);
    }

    #[test]
    fn bad_values_are_reported_and_skipped() {
        check(
            &json!({ "unrealLs": {
                "gameDirectory": 3,
                "engine": "ue3",
                "rules": { "a": "loud", "b": "hint" },
                "colour": true
            }}),
            &expect_test::expect![[r#"
                game_directory: None
                engine: Auto
                rules: [("b", On(Hint))]
                problems: [
                    "unrealLs.colour: unknown setting, ignored",
                    "unrealLs.engine: expected \"auto\", \"ue1\" or \"ue2\", found \"ue3\"",
                    "unrealLs.gameDirectory: expected a path, found 3",
                    "unrealLs.rules.a: expected off, hint, info, warning or error, found \"loud\"",
                ]
            "#]],
        );
        check(
            &Value::Null,
            &expect_test::expect![[r"
                game_directory: None
                engine: Auto
                rules: []
                problems: []
            "]],
        );
    }

    #[test]
    fn rule_levels_override_severity() {
        let (settings, _) = Settings::from_json(&json!({ "rules": { "x": "off", "y": "info" } }));
        assert_eq!(settings.severity_for("x", Severity::Error), None);
        assert_eq!(settings.severity_for("y", Severity::Error), Some(Severity::Info));
        assert_eq!(settings.severity_for("z", Severity::Warning), Some(Severity::Warning));
    }
}
