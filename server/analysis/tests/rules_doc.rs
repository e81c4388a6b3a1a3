//! `docs/rules.md` documents every rule and nothing else: each `### code` heading names a
//! registered rule, every registered rule has one, and the severity it states is the default.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;

use unreal_analysis::rules::all_rules;

#[test]
fn rules_doc_matches_the_registry() {
    let doc_path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/rules.md");
    let doc = std::fs::read_to_string(&doc_path).unwrap();
    let mut documented = Vec::new();
    let mut lines = doc.lines().peekable();
    while let Some(line) = lines.next() {
        let Some(code) = line.strip_prefix("### ") else { continue };
        let severity = lines
            .by_ref()
            .find(|l| !l.trim().is_empty())
            .and_then(|l| l.strip_prefix("Severity: "))
            .and_then(|l| l.split('.').next())
            .unwrap_or_default()
            .to_owned();
        documented.push((code.trim().to_owned(), severity));
    }
    for rule in all_rules() {
        let entry = documented.iter().find(|(code, _)| code == rule.code);
        let Some((_, severity)) = entry else {
            panic!("{} is not documented in docs/rules.md", rule.code);
        };
        assert_eq!(severity, rule.severity.as_str(), "{}: severity in docs/rules.md", rule.code);
    }
    for (code, _) in &documented {
        assert!(
            all_rules().any(|r| r.code == code),
            "docs/rules.md documents {code}, which no rule reports"
        );
    }
}
