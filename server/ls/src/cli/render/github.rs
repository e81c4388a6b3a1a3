//! `--format github`: one GitHub Actions workflow command per finding, which the runner turns
//! into an annotation on the file and line in the pull request:
//!
//! `::error file=Maps/A.t3d,line=9,col=11,endLine=9,endColumn=24,title=t3d-too-few-vertices::polygon has 2 vertices; ...`
//!
//! Errors are `error`, warnings `warning`, infos and hints `notice`. Lines and columns are
//! 1-based, columns count characters and `endColumn` is exclusive, as in the JSON output.
//! Values are escaped as the runner expects (`%`, CR and LF everywhere; `:` and `,` also in
//! properties: the file's path and the rule), so neither a message nor a file name can end
//! the command or a property early; other control characters are written as `\u{1b}`, as in
//! the human output. No summary line: every line is a command.

use std::io::{self, Write};

use unreal_analysis::Severity;

use super::Report;

pub fn render(report: &Report, out: &mut dyn Write) -> io::Result<()> {
    for file in &report.files {
        for diagnostic in &file.diagnostics {
            let (start, end) = file.range(diagnostic.span);
            let command = match diagnostic.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
                Severity::Info | Severity::Hint => "notice",
            };
            writeln!(
                out,
                "::{command} file={},line={},col={},endLine={},endColumn={},title={}::{}",
                // A file's name can hold CR, LF, `,` and `:` (escaped for the runner, so the
                // annotation still names the file) and other control characters (then shown
                // as `\u{..}`, as in every human output).
                crate::cli::printable_line(&escape_property(&file.path)),
                start.line,
                start.column,
                end.line,
                end.column,
                escape_property(diagnostic.code),
                // The runner's log viewer draws escape sequences: none from the files.
                escape_data(&crate::cli::printable(&diagnostic.message)),
            )?;
        }
    }
    Ok(())
}

fn escape_data(text: &str) -> String {
    text.replace('%', "%25").replace('\r', "%0D").replace('\n', "%0A")
}

fn escape_property(text: &str) -> String {
    escape_data(text).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    #[test]
    fn escapes() {
        assert_eq!(super::escape_data("50% a\r\nb: c,d"), "50%25 a%0D%0Ab: c,d");
        assert_eq!(super::escape_property("C:/a,b%"), "C%3A/a%2Cb%25");
    }
}
