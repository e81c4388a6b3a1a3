//! Acceptance over real mods: hover on every directive's command word returns the command's
//! documentation, and every feature runs on every class without panicking.

use std::path::{Path, PathBuf};

use unreal_analysis::exec::ExecEnv;
use unreal_analysis::ide::exec::{self, ExecSource};
use unreal_analysis::lint::LintOptions;

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/uc")
}

fn uc_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e.eq_ignore_ascii_case("uc")) {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

#[test]
fn hover_documents_every_command_of_the_corpus() {
    let dir = corpus_dir();
    if !dir.is_dir() {
        unreal_test_support::corpus::absent(&format!("no corpus at {}", dir.display()));
        return;
    }
    let env = ExecEnv::real(&LintOptions::default());
    let (mut files, mut commands, mut names, mut paths) = (0, 0, 0, 0);
    let mut failures = Vec::new();
    for path in uc_files(&dir) {
        let bytes = std::fs::read(&path).unwrap();
        let text = unreal_syntax::text::decode(&bytes).text.into_owned();
        let src = ExecSource::new(&text, Some(&path), Some(&env));
        files += 1;
        for line in &src.file.lines {
            let (Some(word), Some(m)) = (line.line.command, line.command) else { continue };
            commands += 1;
            match exec::hover::hover(&src, word.start) {
                Some(h) if h.markdown.contains(&m.spec.display_name()) => {}
                other => failures.push(format!(
                    "{}:{}: {:?}",
                    path.display(),
                    word.text(&text),
                    other.map(|h| h.markdown)
                )),
            }
            for arg in &line.line.args {
                let Some(value) = arg.value() else { continue };
                if let Some(h) = exec::hover::hover(&src, value.content.start) {
                    if h.markdown.contains("```text") || h.markdown.contains("Package version") {
                        paths += 1;
                    }
                    if h.markdown.contains("Defined") {
                        names += 1;
                    }
                }
            }
            // Completion anywhere on the line must not panic.
            let _ = exec::completion::completions(&src, line.directive.span.end);
        }
        let _ = exec::symbols::document_symbols(&src);
        let _ = exec::folding::folding_ranges(&src);
        let _ = exec::semantic_tokens::semantic_tokens(&src, None);
        let _ =
            exec::code_actions::code_actions(&src, unreal_syntax::Span::new(0, text.len() as u32));
    }
    println!("{files} classes, {commands} commands hovered, {paths} file summaries, {names} names defined");
    assert!(failures.is_empty(), "hover without documentation:\n{}", failures.join("\n"));
    assert!(commands > 0, "the corpus has directives");
}
