//! The examples in every `#exec` rule's documentation, linted: the example shows the rule,
//! the fixed one (```` ```unrealscript fixed ````) does not. Each is the class
//! `/Game/MyMod/Classes/Example.uc` of a tree that the setup comment before it describes in
//! the fixture trees' notation ([`crate::trees`]): `<!-- example` then lines such as
//! `//- options game=ut99` and `//- /Game/MyMod/Models/Gun_d.3d = mesh-data verts=4`, then
//! `-->`. A line `//- /Other/Path.uc = example` puts the class elsewhere.

use unreal_analysis::rules::docs::{examples, DocExample};
use unreal_analysis::rules::EXEC_RULES;

use crate::trees::{lint_tree, parse};

const DEFAULT_PATH: &str = "/Game/MyMod/Classes/Example.uc";

/// The tree an example stands in, written in the fixture notation.
fn tree_source(example: &DocExample<'_>) -> String {
    let mut path = DEFAULT_PATH;
    let mut setup = String::new();
    for line in example.setup.lines() {
        let at = line.trim().strip_prefix("//- ").and_then(|h| h.strip_suffix(" = example"));
        if let Some(at) = at {
            path = at.trim();
        } else {
            setup.push_str(line.trim());
            setup.push('\n');
        }
    }
    format!("{setup}//- {path}\n{}", example.code)
}

#[test]
fn each_exec_rules_examples_show_it_and_its_fixed_ones_do_not() {
    let mut failures = Vec::new();
    for rule in EXEC_RULES {
        let code = rule.meta.code;
        let found = examples(rule.meta.docs);
        if !found.iter().any(|e| !e.fixed) {
            failures.push(format!("{code}: no example"));
        }
        if !found.iter().any(|e| e.fixed) {
            failures.push(format!("{code}: no fixed example (```unrealscript fixed)"));
        }
        for (n, example) in found.iter().enumerate() {
            let (_, codes) = lint_tree(parse(&tree_source(example)));
            match (example.fixed, codes.contains(code)) {
                (false, false) => failures.push(format!(
                    "{code}, example {}: the example does not show it; it gives {codes:?}",
                    n + 1
                )),
                (true, true) => failures
                    .push(format!("{code}, example {}: the fixed example still shows it", n + 1)),
                _ => {}
            }
        }
    }
    assert!(failures.is_empty(), "{} problems:\n{}", failures.len(), failures.join("\n"));
}
