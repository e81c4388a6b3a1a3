//! `unreal-ls rules`: every rule with its default severity and what it finds, from the same
//! registry the linter runs. `--format json` prints
//! `{"version":1,"rules":[{"code","severity","summary","fix"}]}` (`fix`: `none`, `unsafe`:
//! offered in the editor, or `safe`: applied by `lint --fix`); `--format markdown` prints
//! `docs/rules.md`, which explains each rule (`cargo run -- rules --format markdown >
//! docs/rules.md` rewrites it).

use std::io::{self, BufWriter, Write};
use std::process::ExitCode;

use serde::Serialize;
use unreal_analysis::rules::{all_rules, docs, Fixability};

use super::{EXIT_CLEAN, EXIT_USAGE};

#[derive(clap::Args)]
pub struct RulesArgs {
    /// Output format.
    #[arg(long, value_enum, default_value_t = RulesFormat::Human)]
    pub format: RulesFormat,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum RulesFormat {
    /// One rule a line: code, default severity, summary.
    Human,
    /// One JSON document.
    Json,
    /// The rule documentation, `docs/rules.md`.
    Markdown,
}

#[derive(Serialize)]
struct JsonRule {
    code: &'static str,
    severity: &'static str,
    summary: &'static str,
    fix: &'static str,
}

pub fn run(args: &RulesArgs) -> ExitCode {
    let mut out = BufWriter::new(anstream::stdout().lock());
    let written = match args.format {
        RulesFormat::Human => human(&mut out),
        RulesFormat::Json => json(&mut out),
        RulesFormat::Markdown => out.write_all(docs::markdown().as_bytes()),
    }
    .and_then(|()| out.flush());
    match written {
        Err(err) if err.kind() != io::ErrorKind::BrokenPipe => {
            let _ = writeln!(anstream::stderr(), "error: writing the rule list: {err}");
            ExitCode::from(EXIT_USAGE)
        }
        _ => ExitCode::from(EXIT_CLEAN),
    }
}

fn human(out: &mut dyn Write) -> io::Result<()> {
    let width = all_rules().map(|r| r.code.len()).max().unwrap_or(0);
    for rule in all_rules() {
        writeln!(out, "{:<width$}  {:<7}  {}", rule.code, rule.severity.as_str(), rule.summary)?;
    }
    Ok(())
}

fn json(out: &mut dyn Write) -> io::Result<()> {
    out.write_all(b"{\"version\":1,\"rules\":[")?;
    for (i, rule) in all_rules().enumerate() {
        out.write_all(if i == 0 { b"\n" } else { b",\n" })?;
        let fix = match rule.fix {
            Fixability::None => "none",
            Fixability::Unsafe => "unsafe",
            Fixability::Safe => "safe",
        };
        let item = JsonRule {
            code: rule.code,
            severity: rule.severity.as_str(),
            summary: rule.summary,
            fix,
        };
        serde_json::to_writer(&mut *out, &item)?;
    }
    out.write_all(b"\n]}\n")
}
