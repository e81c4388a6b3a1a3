//! `--format sarif`: a SARIF 2.1.0 log for GitHub code scanning (`github/codeql-action/
//! upload-sarif`) and other SARIF viewers.
//!
//! One run; the driver lists the rules the results name, in registry order (id, name, short
//! and full description, help as text and Markdown from the rule registry, which also prints
//! `docs/rules.md`, a link to it, and the default level): everything an alert shows, without the weight of the rules that found
//! nothing. Each result has its rule id and
//! index, its level after the configuration, the message, the primary location, the labels
//! as related locations, and a `primaryLocationLineHash` fingerprint (the baseline's, which
//! survives line shifts) so code scanning tracks alerts across commits.
//!
//! Paths are URI references: relative paths stay relative (code scanning resolves them
//! against the repository root; run the linter from there), absolute ones become `file://`
//! URIs. Columns count Unicode code points (`columnKind`), the region end is exclusive, as
//! SARIF wants.

use std::collections::HashMap;
use std::io::{self, Write};

use serde::Serialize;
use unreal_analysis::rules::{all_rules, RuleMeta};
use unreal_analysis::{Diagnostic, Severity};

use super::{FileReport, Report};

pub const SARIF_SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";

#[derive(Serialize)]
struct Log<'a> {
    #[serde(rename = "$schema")]
    schema: &'static str,
    version: &'static str,
    runs: [Run<'a>; 1],
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Run<'a> {
    tool: Tool,
    results: Vec<SarifResult<'a>>,
    column_kind: &'static str,
}

#[derive(Serialize)]
struct Tool {
    driver: Driver,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Driver {
    name: &'static str,
    version: &'static str,
    semantic_version: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    information_uri: Option<&'static str>,
    rules: Vec<Rule>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Rule {
    id: &'static str,
    name: String,
    short_description: Text,
    full_description: Text,
    help: Help,
    #[serde(skip_serializing_if = "Option::is_none")]
    help_uri: Option<String>,
    default_configuration: Configuration,
    properties: RuleProperties,
}

#[derive(Serialize)]
struct Text {
    text: String,
}

#[derive(Serialize)]
struct Help {
    text: String,
    markdown: String,
}

#[derive(Serialize)]
struct Configuration {
    level: &'static str,
}

#[derive(Serialize)]
struct RuleProperties {
    tags: Vec<&'static str>,
    #[serde(rename = "problem.severity")]
    problem_severity: &'static str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifResult<'a> {
    rule_id: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    rule_index: Option<usize>,
    level: &'static str,
    message: MessageRef<'a>,
    locations: [Location<'a>; 1],
    #[serde(skip_serializing_if = "Vec::is_empty")]
    related_locations: Vec<Location<'a>>,
    partial_fingerprints: Fingerprints,
}

#[derive(Serialize)]
struct MessageRef<'a> {
    text: &'a str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
#[allow(clippy::struct_field_names)] // SARIF's names
struct Location<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    id: Option<usize>,
    physical_location: PhysicalLocation,
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<MessageRef<'a>>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PhysicalLocation {
    artifact_location: ArtifactLocation,
    #[serde(skip_serializing_if = "Option::is_none")]
    region: Option<Region>,
}

#[derive(Serialize)]
struct ArtifactLocation {
    uri: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Region {
    start_line: u32,
    start_column: u32,
    end_line: u32,
    end_column: u32,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Fingerprints {
    primary_location_line_hash: String,
}

pub fn render(report: &Report, out: &mut dyn Write) -> io::Result<()> {
    let used: std::collections::HashSet<&str> =
        report.files.iter().flat_map(|f| &f.diagnostics).map(|d| d.code).collect();
    let rules: Vec<&'static RuleMeta> = all_rules().filter(|r| used.contains(r.code)).collect();
    let index: HashMap<&str, usize> = rules.iter().enumerate().map(|(i, r)| (r.code, i)).collect();
    let mut results = Vec::new();
    for file in &report.files {
        let uri = path_to_uri(&file.path);
        let fingerprints = super::fingerprint::fingerprints(file, &file.path);
        for (diagnostic, fingerprint) in file.diagnostics.iter().zip(fingerprints) {
            results.push(result(file, &uri, diagnostic, fingerprint, &index));
        }
    }
    let log = Log {
        schema: SARIF_SCHEMA,
        version: "2.1.0",
        runs: [Run {
            tool: Tool {
                driver: Driver {
                    name: "unreal-ls",
                    version: env!("CARGO_PKG_VERSION"),
                    semantic_version: env!("CARGO_PKG_VERSION"),
                    information_uri: unreal_ls::repository(),
                    rules: rules.iter().map(|r| rule(r)).collect(),
                },
            },
            results,
            column_kind: "unicodeCodePoints",
        }],
    };
    serde_json::to_writer_pretty(&mut *out, &log)?;
    out.write_all(b"\n")
}

fn result<'a>(
    file: &'a FileReport,
    uri: &str,
    diagnostic: &'a Diagnostic,
    fingerprint: String,
    index: &HashMap<&str, usize>,
) -> SarifResult<'a> {
    let region = |span| {
        let (start, end) = file.range(span);
        Region {
            start_line: start.line,
            start_column: start.column,
            end_line: end.line,
            end_column: end.column,
        }
    };
    let related_locations = diagnostic
        .labels
        .iter()
        .enumerate()
        .map(|(i, label)| {
            let (uri, region) = match &label.file {
                None => (uri.to_owned(), Some(region(label.span))),
                // Another file's text is not at hand: point at the file alone.
                Some(path) => (path_to_uri(&path.to_string_lossy().replace('\\', "/")), None),
            };
            Location {
                id: Some(i + 1),
                physical_location: PhysicalLocation {
                    artifact_location: ArtifactLocation { uri },
                    region,
                },
                message: Some(MessageRef { text: &label.message }),
            }
        })
        .collect();
    SarifResult {
        rule_id: diagnostic.code,
        rule_index: index.get(diagnostic.code).copied(),
        level: level(diagnostic.severity),
        message: MessageRef { text: &diagnostic.message },
        locations: [Location {
            id: None,
            physical_location: PhysicalLocation {
                artifact_location: ArtifactLocation { uri: uri.to_owned() },
                region: Some(region(diagnostic.span)),
            },
            message: None,
        }],
        related_locations,
        partial_fingerprints: Fingerprints { primary_location_line_hash: fingerprint },
    }
}

fn rule(meta: &RuleMeta) -> Rule {
    let help = meta.help();
    let full = meta.description();
    Rule {
        id: meta.code,
        name: pascal_case(meta.code),
        short_description: Text { text: capitalise(meta.summary) },
        full_description: Text { text: limit(&full, 1024) },
        help: Help { text: help.clone(), markdown: help },
        help_uri: unreal_ls::rule_documentation_url(meta.code),
        default_configuration: Configuration { level: level(meta.severity) },
        properties: RuleProperties {
            tags: vec![if meta.code.starts_with("exec-") { "exec" } else { "t3d" }],
            problem_severity: match meta.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
                Severity::Info | Severity::Hint => "recommendation",
            },
        },
    }
}

fn level(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info | Severity::Hint => "note",
    }
}

/// `t3d-normal-mismatch` -> `T3dNormalMismatch`.
fn pascal_case(code: &str) -> String {
    code.split('-')
        .map(|part| {
            let mut chars = part.chars();
            chars
                .next()
                .map_or_else(String::new, |c| c.to_ascii_uppercase().to_string() + chars.as_str())
        })
        .collect()
}

fn capitalise(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |c| c.to_uppercase().collect::<String>() + chars.as_str())
}

/// At most `max` characters, cut at a word with `...` when longer (code scanning's limit).
fn limit(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_owned();
    }
    let cut: String = text.chars().take(max.saturating_sub(3)).collect();
    let cut = cut.rsplit_once(' ').map_or(cut.as_str(), |(head, _)| head);
    format!("{cut}...")
}

/// A path as a URI reference: relative paths stay relative, absolute ones become `file://`
/// URIs; every byte outside the unreserved set and `/` is percent-encoded (so `:` in a first
/// segment cannot read as a scheme, and spaces and `é` are valid).
pub fn path_to_uri(path: &str) -> String {
    let path = path.strip_prefix("./").unwrap_or(path);
    let bytes = path.as_bytes();
    let drive = bytes.first().is_some_and(u8::is_ascii_alphabetic)
        && bytes.get(1) == Some(&b':')
        && bytes.get(2) == Some(&b'/');
    let (prefix, rest) = if path.starts_with('/') {
        ("file://", path)
    } else if drive {
        let (letter, rest) = path.split_at(2);
        return format!("file:///{letter}{}", encode(rest));
    } else {
        ("", path)
    };
    format!("{prefix}{}", encode(rest))
}

fn encode(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for &b in path.as_bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~' | b'/') {
            out.push(char::from(b));
        } else {
            const HEX: &[u8; 16] = b"0123456789ABCDEF";
            out.push('%');
            out.push(char::from(HEX[usize::from(b >> 4)]));
            out.push(char::from(HEX[usize::from(b & 0xF)]));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{pascal_case, path_to_uri};

    #[test]
    fn uris() {
        assert_eq!(path_to_uri("Maps/DM-Deck 16.t3d"), "Maps/DM-Deck%2016.t3d");
        assert_eq!(path_to_uri("./ab:c/Caf\u{e9}.t3d"), "ab%3Ac/Caf%C3%A9.t3d");
        assert_eq!(path_to_uri("/home/u/x#1.t3d"), "file:///home/u/x%231.t3d");
        assert_eq!(path_to_uri("C:/Maps/a.t3d"), "file:///C:/Maps/a.t3d");
        assert_eq!(path_to_uri("../up.t3d"), "../up.t3d");
    }

    #[test]
    fn names() {
        assert_eq!(pascal_case("t3d-normal-mismatch"), "T3dNormalMismatch");
    }

    /// Every rule of the registry has help with its fix and a description of what it finds.
    #[test]
    fn every_rule_has_help() {
        for rule in unreal_analysis::rules::all_rules() {
            assert!(rule.help().contains("\nFix"), "{}", rule.code);
            let description = rule.description();
            assert!(!description.is_empty() && !description.starts_with("Severity"));
        }
    }
}
