//! `docs/rules.md` is printed from the rule registry (`rules::docs::markdown`): the committed
//! file must be what the registry prints now. After changing a rule's `DOCS`, summary,
//! severity or fix, rewrite it with
//! `UPDATE_DOCS=1 cargo test -p unreal-analysis --test rules_doc`
//! (or `cargo run -- rules --format markdown > docs/rules.md`).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;

use unreal_analysis::rules::docs::markdown;

#[test]
fn rules_doc_is_generated_from_the_registry() {
    let doc_path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/rules.md");
    let generated = markdown();
    if std::env::var_os("UPDATE_DOCS").is_some() {
        std::fs::write(&doc_path, &generated).unwrap();
        return;
    }
    let committed = std::fs::read_to_string(&doc_path).unwrap().replace("\r\n", "\n");
    if committed != generated {
        let line = committed
            .lines()
            .zip(generated.lines())
            .position(|(a, b)| a != b)
            .unwrap_or_else(|| committed.lines().count().min(generated.lines().count()));
        panic!(
            "docs/rules.md is not what the rule registry prints (first difference at line {}); \
             run `UPDATE_DOCS=1 cargo test -p unreal-analysis --test rules_doc`",
            line + 1
        );
    }
}
