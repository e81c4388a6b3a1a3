//! Renderers of lint results. Every output format reads the same [`Report`]: checked files
//! with their decoded text, a line index and their diagnostics, already sorted by path and
//! position. A new format (SARIF, GitHub annotations) is one more module and one more
//! [`OutputFormat`] variant; nothing upstream changes.

pub mod fingerprint;
pub mod github;
pub mod human;
pub mod json;
pub mod sarif;
pub mod statistics;

use std::io::{self, Write};

use unreal_analysis::line_index::ColumnUnit;
use unreal_analysis::{Diagnostic, LineIndex, Severity, SourceText};
use unreal_syntax::Span;

/// The output formats of `unreal-ls lint`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum OutputFormat {
    /// Code frames for people, with a summary line.
    Human,
    /// One JSON document (the stable contract in docs/cli.md).
    Json,
    /// SARIF 2.1.0, for GitHub code scanning and SARIF viewers.
    Sarif,
    /// GitHub Actions workflow commands (annotations on the pull request).
    Github,
}

/// Everything a renderer needs: the files that were checked, in output order.
pub struct Report {
    /// Number of files checked, including those without findings.
    pub files_checked: usize,
    /// Files with at least one diagnostic, sorted by path; their diagnostics sorted by
    /// position.
    pub files: Vec<FileReport>,
    /// True when no game folder or package path was set: references into packages were not
    /// looked up, which the human summary says in one line.
    pub references_unchecked: bool,
}

/// One checked file with findings.
pub struct FileReport {
    /// The path as the user gave it (relative stays relative), with forward slashes.
    pub path: String,
    /// The decoded (or mapped) text; diagnostic spans are byte offsets into it.
    pub text: SourceText,
    pub line_index: LineIndex,
    pub diagnostics: Vec<Diagnostic>,
}

/// A 1-based line and column (columns counted in characters), as printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    pub line: u32,
    pub column: u32,
}

impl FileReport {
    /// The 1-based position of a byte offset (clamped to the text).
    pub fn position(&self, offset: u32) -> Position {
        let lc = self.line_index.line_col(&self.text, offset, ColumnUnit::Chars);
        Position { line: lc.line.saturating_add(1), column: lc.col.saturating_add(1) }
    }

    /// Start and (exclusive) end positions of a span, after [`FileReport::clamp`].
    pub fn range(&self, span: Span) -> (Position, Position) {
        let span = self.clamp(span);
        (self.position(span.start), self.position(span.end))
    }

    /// The span limited to the text, its start moved back and its end moved forward to
    /// character boundaries, so that every renderer draws and counts the same characters.
    pub fn clamp(&self, span: Span) -> Span {
        let text = &self.text;
        let len = text.len();
        let mut start = (span.start as usize).min(len);
        let mut end = (span.end as usize).clamp(start, len);
        while start > 0 && !text.is_char_boundary(start) {
            start -= 1;
        }
        while end < len && !text.is_char_boundary(end) {
            end += 1;
        }
        Span::from_range(start..end)
    }
}

/// Counts by severity, for the summary line and the exit code.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    pub errors: usize,
    pub warnings: usize,
    pub infos: usize,
    pub hints: usize,
    /// Files checked, with or without findings.
    pub files: usize,
    /// Files with at least one finding.
    pub files_with_findings: usize,
}

impl Summary {
    pub fn of(report: &Report) -> Summary {
        let mut summary = Summary {
            files: report.files_checked,
            files_with_findings: report.files.iter().filter(|f| !f.diagnostics.is_empty()).count(),
            ..Summary::default()
        };
        for diagnostic in report.files.iter().flat_map(|f| &f.diagnostics) {
            match diagnostic.severity {
                Severity::Error => summary.errors += 1,
                Severity::Warning => summary.warnings += 1,
                Severity::Info => summary.infos += 1,
                Severity::Hint => summary.hints += 1,
            }
        }
        summary
    }

    /// `2 errors, 3 warnings in 1 of 4 files checked`; infos and hints are named only when
    /// present. Saying how many files hold the findings keeps `in 2 files` from reading as a
    /// miscount when one file holds them all.
    pub fn line(&self) -> String {
        let mut parts = vec![plural(self.errors, "error"), plural(self.warnings, "warning")];
        if self.infos > 0 {
            parts.push(plural(self.infos, "info"));
        }
        if self.hints > 0 {
            parts.push(plural(self.hints, "hint"));
        }
        let files = if self.files_with_findings > 0 && self.files_with_findings < self.files {
            format!("{} of {} checked", self.files_with_findings, plural(self.files, "file"))
        } else {
            format!("{} checked", plural(self.files, "file"))
        };
        format!("{} in {files}", parts.join(", "))
    }
}

fn plural(count: usize, noun: &str) -> String {
    match (count, noun) {
        (1, _) | (_, "info") => format!("{count} {noun}"),
        _ => format!("{count} {noun}s"),
    }
}

/// Writes the report in the chosen format. `color` applies to formats meant for terminals.
pub fn render(
    format: OutputFormat,
    report: &Report,
    color: bool,
    out: &mut dyn Write,
) -> io::Result<()> {
    match format {
        OutputFormat::Human => human::render(report, color, out),
        OutputFormat::Json => json::render(report, out),
        OutputFormat::Sarif => sarif::render(report, out),
        OutputFormat::Github => github::render(report, out),
    }
}

/// Writes the counts per rule (`--statistics`) in the chosen format (human or JSON; the
/// caller rejects the others).
pub fn render_statistics(
    format: OutputFormat,
    report: &Report,
    out: &mut dyn Write,
) -> io::Result<()> {
    match format {
        OutputFormat::Json => statistics::render_json(report, out),
        _ => statistics::render_human(report, out),
    }
}

#[cfg(test)]
mod tests {
    use std::fmt::Write as _;

    use expect_test::{expect, Expect};
    use unreal_analysis::{Diagnostic, Fix, Label, LineIndex, TextEdit};
    use unreal_syntax::Span;

    use super::{render, FileReport, OutputFormat, Report};

    /// A map with CRLF line breaks, a non-ASCII name and findings of every shape: labels
    /// near and far, a fix, a label in another file, a span past the end, an empty span, a
    /// span over many lines and one inside a multi-byte character.
    fn sample() -> Report {
        let mut text = String::from(
            "Begin Map\r\nBegin Actor Class=Light Name=Caf\u{e9}\r\n     Tag=\"x\"\r\nEnd Actor\r\n",
        );
        for i in 0..30 {
            write!(text, "Begin Actor Class=Light Name=Light{i}\r\nEnd Actor\r\n").unwrap();
        }
        text.push_str("Begin Actor Class=Light Name=Caf\u{e9}\r\nEnd Actor\r\nEnd Mop");
        let at = |needle: &str, nth: usize| -> u32 {
            text.match_indices(needle).nth(nth).map(|(i, _)| i as u32).unwrap()
        };
        let name = at("Name=Caf", 1);
        let first_name = at("Name=Caf", 0);
        let end_mop = at("End Mop", 0);
        let tag = at("Tag=", 0);
        let len = text.len() as u32;
        let diagnostics = vec![
            Diagnostic::warning("t3d-empty", Span::empty_at(at("End Actor", 0)), "empty span"),
            Diagnostic::info("t3d-block", Span::new(0, len), "a span over the whole file")
                .with_label(Span::new(tag, tag + 3), "a label inside it"),
            Diagnostic::hint("t3d-char", Span::new(first_name + 8, first_name + 9), "inside é"),
            Diagnostic::error(
                "t3d-duplicate-name",
                Span::new(name, name + 9),
                "duplicate actor name `Café`",
            )
            .with_label(Span::new(first_name, first_name + 9), "first defined here")
            .with_fix(Fix {
                title: "rename to `Café1`".into(),
                edits: vec![TextEdit {
                    span: Span::new(name + 5, name + 9),
                    new_text: "Café1".into(),
                }],
                safe: false,
            }),
            Diagnostic::error(
                "t3d-unbalanced-block",
                Span::new(end_mop, end_mop + 7),
                "`End Mop` closes nothing",
            )
            .with_label(Span::new(0, 9), "this `Begin Map` is never closed")
            .with_label(Span::new(len + 5, len + 10), "past the end"),
            Diagnostic {
                labels: vec![Label {
                    file: Some("other/dir/Brushes.t3d".into()),
                    span: Span::new(0, 3),
                    message: "the brush is defined there".into(),
                }],
                ..Diagnostic::warning(
                    "t3d-unknown-model",
                    Span::new(tag, tag + 7),
                    "names no brush",
                )
            },
        ];
        let line_index = LineIndex::new(&text);
        Report {
            references_unchecked: false,
            files_checked: 3,
            files: vec![FileReport {
                path: "maps/Café.t3d".into(),
                text: text.into(),
                line_index,
                diagnostics,
            }],
        }
    }

    /// A report of one checked file with one finding.
    fn one_file(path: &str, text: &str, diagnostic: Diagnostic) -> Report {
        Report {
            references_unchecked: false,
            files_checked: 1,
            files: vec![FileReport {
                path: path.into(),
                text: text.to_owned().into(),
                line_index: LineIndex::new(text),
                diagnostics: vec![diagnostic],
            }],
        }
    }

    fn check(format: OutputFormat, expect: &Expect) {
        let mut out = Vec::new();
        render(format, &sample(), false, &mut out).unwrap();
        expect.assert_eq(&String::from_utf8(out).unwrap());
    }

    #[test]
    fn human() {
        check(
            OutputFormat::Human,
            &expect![[r#"
                warning[t3d-empty]: empty span
                 --> maps/Café.t3d:4:1
                  |
                4 | End Actor
                  | ^
                  |

                info[t3d-block]: a span over the whole file
                 --> maps/Café.t3d:1:1
                  |
                1 | Begin Map
                  | ^^^^^^^^^
                2 | Begin Actor Class=Light Name=Café
                3 |      Tag="x"
                  |      --- a label inside it
                  |

                note[t3d-char]: inside é
                 --> maps/Café.t3d:2:33
                  |
                2 | Begin Actor Class=Light Name=Café
                  |                                 ^
                  |

                error[t3d-duplicate-name]: duplicate actor name `Café`
                  --> maps/Café.t3d:65:25
                   |
                65 | Begin Actor Class=Light Name=Café
                   |                         ^^^^^^^^^
                   |
                  ::: maps/Café.t3d:2:25
                   |
                 2 | Begin Actor Class=Light Name=Café
                   |                         --------- first defined here
                   |
                   = help: rename to `Café1`

                error[t3d-unbalanced-block]: `End Mop` closes nothing
                  --> maps/Café.t3d:67:1
                   |
                67 | End Mop
                   | ^^^^^^^- past the end
                   |
                  ::: maps/Café.t3d:1:1
                   |
                 1 | Begin Map
                   | --------- this `Begin Map` is never closed
                   |

                warning[t3d-unknown-model]: names no brush
                 --> maps/Café.t3d:3:6
                  |
                3 |      Tag="x"
                  |      ^^^^^^^
                  |
                  = note: other/dir/Brushes.t3d: the brush is defined there

                2 errors, 2 warnings, 1 info, 1 hint in 1 of 3 files checked
            "#]],
        );
    }

    #[test]
    fn json() {
        check(
            OutputFormat::Json,
            &expect![[r#"
                {"version":1,"files":3,"diagnostics":[
                {"file":"maps/Café.t3d","line":4,"column":1,"end_line":4,"end_column":1,"severity":"warning","code":"t3d-empty","message":"empty span"},
                {"file":"maps/Café.t3d","line":1,"column":1,"end_line":67,"end_column":8,"severity":"info","code":"t3d-block","message":"a span over the whole file","related":[{"line":3,"column":6,"end_line":3,"end_column":9,"message":"a label inside it"}]},
                {"file":"maps/Café.t3d","line":2,"column":33,"end_line":2,"end_column":34,"severity":"hint","code":"t3d-char","message":"inside é"},
                {"file":"maps/Café.t3d","line":65,"column":25,"end_line":65,"end_column":34,"severity":"error","code":"t3d-duplicate-name","message":"duplicate actor name `Café`","related":[{"line":2,"column":25,"end_line":2,"end_column":34,"message":"first defined here"}]},
                {"file":"maps/Café.t3d","line":67,"column":1,"end_line":67,"end_column":8,"severity":"error","code":"t3d-unbalanced-block","message":"`End Mop` closes nothing","related":[{"line":1,"column":1,"end_line":1,"end_column":10,"message":"this `Begin Map` is never closed"},{"line":67,"column":8,"end_line":67,"end_column":8,"message":"past the end"}]},
                {"file":"maps/Café.t3d","line":3,"column":6,"end_line":3,"end_column":13,"severity":"warning","code":"t3d-unknown-model","message":"names no brush","related":[{"file":"other/dir/Brushes.t3d","message":"the brush is defined there"}]}
                ]}
            "#]],
        );
    }

    /// Spans from rules are trusted to be in range, but a renderer must survive any span
    /// on any text: out of range, reversed, inside characters, on line breaks.
    #[test]
    fn any_span_on_any_text_renders() {
        let texts =
            ["", "\n", "\r\n\r\n", "a\rb\r\nc", "\u{e9}\u{1F600}\t\u{e9}\r\n\tx\n", "no newline"];
        let mut seed = 0x9E37_79B9_7F4A_7C15_u64;
        let mut next = |bound: u32| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % u64::from(bound)) as u32
        };
        for text in texts {
            for _ in 0..200 {
                let bound = text.len() as u32 + 3;
                let span = Span::new(next(bound), next(bound));
                let label = Span::new(next(bound), next(bound));
                let diagnostic = Diagnostic::error("t3d-x", span, "m").with_label(label, "l");
                let report = one_file("a.t3d", text, diagnostic);
                for format in [OutputFormat::Human, OutputFormat::Json] {
                    render(format, &report, true, &mut Vec::new()).unwrap();
                }
            }
        }
    }

    /// A lone CR ends a line (as editors, the protocol and the engine count lines): the
    /// position and the frame's line numbers agree, and no CR reaches the terminal.
    #[test]
    fn a_lone_cr_is_a_line_break() {
        let text = "Begin Map\rBegin Actor\r\nEnd Mop\r";
        let end_mop = text.find("End Mop").unwrap() as u32;
        let diagnostic =
            Diagnostic::error("t3d-unbalanced-block", Span::new(end_mop, end_mop + 7), "m")
                .with_label(Span::new(0, 9), "never closed");
        let report = one_file("a.t3d", text, diagnostic);
        let mut out = Vec::new();
        render(OutputFormat::Human, &report, false, &mut out).unwrap();
        render(OutputFormat::Json, &report, false, &mut out).unwrap();
        expect![[r#"
            error[t3d-unbalanced-block]: m
             --> a.t3d:3:1
              |
            1 | Begin Map
              | --------- never closed
            2 | Begin Actor
            3 | End Mop
              | ^^^^^^^
              |

            1 error, 0 warnings in 1 file checked
            {"version":1,"files":1,"diagnostics":[
            {"file":"a.t3d","line":3,"column":1,"end_line":3,"end_column":8,"severity":"error","code":"t3d-unbalanced-block","message":"m","related":[{"line":1,"column":1,"end_line":1,"end_column":10,"message":"never closed"}]}
            ]}
        "#]].assert_eq(&String::from_utf8(out).unwrap());
    }

    #[test]
    fn no_files() {
        let report = Report { files_checked: 0, files: Vec::new(), references_unchecked: false };
        let mut out = Vec::new();
        render(OutputFormat::Human, &report, false, &mut out).unwrap();
        render(OutputFormat::Json, &report, false, &mut out).unwrap();
        expect![[r#"
            0 errors, 0 warnings in 0 files checked
            {"version":1,"files":0,"diagnostics":[]}
        "#]]
        .assert_eq(&String::from_utf8(out).unwrap());
    }

    /// Many findings in several files (empty ones among them) are rendered in chunks; the
    /// JSON is one finding per line, in order, each the one it stands for.
    #[test]
    fn json_of_many_findings_keeps_their_order() {
        let text = "Begin Map\nEnd Map\n".repeat(1000);
        let file = |path: &str, count: u32| FileReport {
            path: path.into(),
            text: text.clone().into(),
            line_index: LineIndex::new(&text),
            diagnostics: (0..count)
                .map(|i| {
                    Diagnostic::warning("t3d-x", Span::new(i * 18, i * 18 + 9), format!("n{i}"))
                })
                .collect(),
        };
        let report = Report {
            files_checked: 4,
            files: vec![
                file("empty.t3d", 0),
                file("a.t3d", 700),
                file("b.t3d", 3),
                file("c.t3d", 257),
            ],
            references_unchecked: false,
        };
        let mut out = Vec::new();
        render(OutputFormat::Json, &report, false, &mut out).unwrap();
        let out = String::from_utf8(out).unwrap();
        assert!(out.starts_with("{\"version\":1,\"files\":4,\"diagnostics\":[\n{"), "{out}");
        assert!(out.ends_with("}\n]}\n"));
        let parsed: serde_json::Value = serde_json::from_str(&out).unwrap();
        let all = parsed["diagnostics"].as_array().unwrap();
        assert_eq!(all.len(), 960);
        let expected = [("a.t3d", 700), ("b.t3d", 3), ("c.t3d", 257)]
            .into_iter()
            .flat_map(|(path, count)| (0..count).map(move |i| (path, i)));
        for (diagnostic, (path, i)) in all.iter().zip(expected) {
            assert_eq!(diagnostic["file"], path);
            assert_eq!(diagnostic["message"], format!("n{i}"));
            assert_eq!(diagnostic["line"], 2 * i + 1);
        }
        // One finding a line.
        assert_eq!(out.lines().count(), 962);
    }
}
