//! The examples in every T3D rule's documentation, linted: the example shows the rule, the
//! fixed one (```` ```t3d fixed ````) does not. A setup comment before them,
//! `<!-- example game=ut2004 index=classes -->`, lints them as a fixture of that name would
//! be ([`super::options_for`]): `game=` (`ut99`, `ut469`, `ut2004`, `unreal227`) or
//! `engine=` (`ue1`, `ue2`), and `index=` (`indexed`, `classes`, `compiled`, `sources`).
//! A line `... (the line above 64 more times)` stands for that many copies of the line
//! before it, so that an example of 65 nested blocks stays readable.

use std::path::Path;

use unreal_analysis::lint::{lint_file, FileKind, LintOptions};
use unreal_analysis::rules::docs::{examples, DocExample};
use unreal_analysis::rules::T3D_RULES;

/// The options a setup names, as the fixture name that stands for them.
fn options(setup: &str) -> Result<LintOptions, String> {
    let mut index = None;
    let mut generation = None;
    for word in setup.split_whitespace() {
        match word.split_once('=') {
            Some(("index", value @ ("indexed" | "classes" | "compiled" | "sources"))) => {
                index = Some(value);
            }
            Some(
                ("game", value @ ("ut99" | "ut469" | "ut2004" | "unreal227"))
                | ("engine", value @ ("ue1" | "ue2")),
            ) => generation = Some(value),
            _ => return Err(format!("unknown setup `{word}`")),
        }
    }
    let name: Vec<&str> = ["example"].into_iter().chain(index).chain(generation).collect();
    Ok(super::options_for(Path::new(&format!("{}.t3d", name.join(".")))))
}

/// The example's text with every `... (the line above N more times)` written out.
fn expanded(code: &str) -> Result<String, String> {
    let mut out = String::new();
    let mut previous = "";
    for line in code.split_inclusive('\n') {
        let repeat = line
            .trim()
            .strip_prefix("... (the line above ")
            .and_then(|rest| rest.strip_suffix(" more times)"));
        if let Some(count) = repeat {
            let count: usize =
                count.parse().map_err(|_| format!("`{}` names no count", line.trim()))?;
            out.push_str(&previous.repeat(count));
        } else {
            out.push_str(line);
            previous = line;
        }
    }
    Ok(out)
}

/// What is wrong with one example, if anything.
fn judge(code: &str, example: &DocExample<'_>) -> Option<String> {
    let options = match options(example.setup) {
        Ok(options) => options,
        Err(why) => return Some(why),
    };
    let text = match expanded(example.code) {
        Ok(text) => text,
        Err(why) => return Some(why),
    };
    let linted = lint_file(FileKind::T3d, text.as_bytes(), &options);
    let shown = linted.diagnostics.iter().any(|d| d.code == code);
    match (example.fixed, shown) {
        (false, false) => Some(format!(
            "the example does not show it; it gives {:?}",
            linted.diagnostics.iter().map(|d| d.code).collect::<Vec<_>>()
        )),
        (true, true) => Some("the fixed example still shows it".to_owned()),
        _ => None,
    }
}

#[test]
fn each_t3d_rules_examples_show_it_and_its_fixed_ones_do_not() {
    let mut failures = Vec::new();
    for rule in T3D_RULES {
        let code = rule.meta.code;
        let found = examples(rule.meta.docs);
        if !found.iter().any(|e| !e.fixed) {
            failures.push(format!("{code}: no example"));
        }
        if !found.iter().any(|e| e.fixed) {
            failures.push(format!("{code}: no fixed example (```t3d fixed)"));
        }
        for (n, example) in found.iter().enumerate() {
            if let Some(why) = judge(code, example) {
                failures.push(format!("{code}, example {}: {why}", n + 1));
            }
        }
    }
    assert!(failures.is_empty(), "{} problems:\n{}", failures.len(), failures.join("\n"));
}
