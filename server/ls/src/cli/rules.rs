//! `unreal-ls rules`: every rule with its default severity and what it finds, from the same
//! registry the linter runs (`docs/rules.md` explains each one). `--format json` prints
//! `{"version":1,"rules":[{"code","severity","summary"}]}`.

use std::io::{self, BufWriter, Write};
use std::process::ExitCode;

use serde::Serialize;
use unreal_analysis::rules::all_rules;

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
}

#[derive(Serialize)]
struct JsonRule {
    code: &'static str,
    severity: &'static str,
    summary: &'static str,
}

pub fn run(args: &RulesArgs) -> ExitCode {
    let mut out = BufWriter::new(anstream::stdout().lock());
    let written = match args.format {
        RulesFormat::Human => human(&mut out),
        RulesFormat::Json => json(&mut out),
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
        let item =
            JsonRule { code: rule.code, severity: rule.severity.as_str(), summary: rule.summary };
        serde_json::to_writer(&mut *out, &item)?;
    }
    out.write_all(b"\n]}\n")
}
