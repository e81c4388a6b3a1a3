//! The registry's `fix` of each rule is what the rule does: the rule snapshots (the
//! `.diagnostics` files of the T3D and `#exec` rule tests) show a fix, safe or unsafe, exactly
//! for the rules registered as offering one.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use unreal_analysis::rules::{all_rules, Fixability};

fn snapshots(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            snapshots(&path, out);
        } else if path.extension().is_some_and(|e| e == "diagnostics") {
            out.push(path);
        }
    }
}

#[test]
fn registered_fixability_matches_the_snapshots() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let mut files = Vec::new();
    snapshots(&root.join("rules"), &mut files);
    snapshots(&root.join("exec"), &mut files);
    assert!(!files.is_empty());
    // (code, safe) of every fix shown.
    let mut seen = BTreeSet::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        let mut code = "";
        for line in text.lines() {
            if let Some(rest) = line.strip_prefix("    fix") {
                seen.insert((code.to_owned(), !rest.starts_with(" (unsafe)")));
            } else if !line.starts_with(' ') {
                // `line:col-line:col severity code: message`
                code = line.split_whitespace().nth(2).map_or("", |c| c.trim_end_matches(':'));
            }
        }
    }
    for rule in all_rules() {
        let shown: BTreeSet<bool> =
            seen.iter().filter(|(code, _)| code == rule.code).map(|(_, safe)| *safe).collect();
        let expected: BTreeSet<bool> = match rule.fix {
            Fixability::None => BTreeSet::new(),
            Fixability::Unsafe => BTreeSet::from([false]),
            Fixability::Safe => BTreeSet::from([true]),
        };
        assert_eq!(
            shown, expected,
            "{}: fixes shown (true: safe) vs registered {:?}",
            rule.code, rule.fix
        );
    }
    for (code, _) in &seen {
        assert!(all_rules().any(|r| r.code == code), "a fix of unknown code {code}");
    }
}
