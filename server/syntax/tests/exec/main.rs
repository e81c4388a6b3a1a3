//! Snapshot tests of the `#exec` scanner, line parser, engine lookup and command table, over
//! hand-written fixtures in `fixtures/` and, when present, the shared corpus.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use expect_test::{expect, expect_file};
use unreal_engine::exec::{commands_named, KeyKind, Sub, ALIASES, COMMANDS};
use unreal_engine::Generation;
use unreal_syntax::exec::debug::{line_col, render_line, render_scan};
use unreal_syntax::exec::{lookup, parse_line, scan, Arg, DirectiveKind, ExecLine, LineIssue};

fn fixture(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/exec/fixtures").join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Every directive of `src`, each with its parsed line.
fn lines(src: &str) -> Vec<ExecLine> {
    scan(src).directives.iter().map(|d| parse_line(src, d)).collect()
}

#[test]
fn scanner_fixture() {
    let src = fixture("scanner.uc");
    expect_file!["snapshots/scanner.txt"].assert_eq(&render_scan(&src, &scan(&src)));
}

#[test]
fn scanner_crlf_gives_the_same_directives() {
    let lf = fixture("scanner.uc");
    let crlf = lf.replace('\n', "\r\n");
    let texts = |src: &str| {
        scan(src)
            .directives
            .iter()
            .map(|d| {
                format!(
                    "{:?} {:?} {}",
                    d.kind,
                    d.body_span.text(src),
                    d.span.text(src).contains('\r')
                )
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(texts(&lf), texts(&crlf));
}

#[test]
fn scanner_unterminated_blocks() {
    let mut out = String::new();
    for name in ["unterminated.uc", "unterminated_comment.uc"] {
        let src = fixture(name);
        let _ = writeln!(out, "== {name}\n{}", render_scan(&src, &scan(&src)));
    }
    expect_file!["snapshots/unterminated.txt"].assert_eq(&out);
}

#[test]
fn scanner_without_hash_is_empty() {
    let src = "class A extends Actor;\n/* no directives */\nvar string S;\n";
    assert_eq!(scan(src), unreal_syntax::exec::ScanResult::default());
}

/// Renders each line and the engine's lookup of every key written on it, plus a few probes.
fn render_lexical(src: &str) -> String {
    let mut out = String::new();
    for line in lines(src) {
        let _ = writeln!(
            out,
            "{}: {:?}",
            line_col(src, line.effective.start),
            line.effective.text(src)
        );
        out.push_str(&render_line(src, &line));
        let mut probes: Vec<String> = line
            .args
            .iter()
            .map(|arg| match arg {
                Arg::Key { key, .. } => format!("{}=", key.text(src).to_ascii_uppercase()),
                Arg::Bare { span } => span.text(src).to_ascii_uppercase(),
            })
            .filter(|p| p != "=")
            .collect();
        probes.extend(["NAME=", "QUENCE=", "Y="].map(str::to_owned));
        let mut seen = std::collections::HashSet::new();
        probes.retain(|p| seen.insert(p.clone()));
        for probe in probes {
            let rendered = match line.lookup(src, &probe) {
                None => "not found".to_owned(),
                Some(found) => {
                    let token = match line.arg_of(&found) {
                        Some(i) => format!("token #{i}"),
                        None => "inside another token".to_owned(),
                    };
                    format!(
                        "{:?} at {} ({token})",
                        found.text(src),
                        line_col(src, u32::try_from(found.key.start).unwrap_or(0))
                    )
                }
            };
            let _ = writeln!(out, "    lookup {probe} -> {rendered}");
        }
    }
    out
}

#[test]
fn lexical_quirks() {
    let src = fixture("lexical.uc");
    expect_file!["snapshots/lexical.txt"].assert_eq(&render_lexical(&src));
}

#[test]
fn lexical_quirks_crlf_and_lf_agree() {
    let lf = fixture("lexical.uc");
    let crlf = lf.replace('\n', "\r\n");
    // Offsets shift by one per line; compare the rendered text with positions stripped.
    let strip = |s: String| {
        s.lines()
            .map(|l| l.split('@').next().unwrap_or("").to_owned())
            .collect::<Vec<_>>()
            .join("\n")
    };
    let render = |src: &str| lines(src).iter().map(|l| render_line(src, l)).collect::<String>();
    assert_eq!(strip(render(&lf)), strip(render(&crlf)));
}

#[test]
fn a_long_command_is_read_whole_as_the_compiler_copies_it() {
    // UCC copies the command from its first non-blank character to the first `//` or `/*`,
    // trailing blanks included, and never cuts it: a longer one fails the compile instead.
    let name = "N".repeat(600) + "Z";
    let src = format!("#exec   TEXTURE IMPORT FILE=x.pcx NAME={name}  // note\r\nvar int B;\n");
    let line = &lines(&src)[0];
    let raw = line.raw_command.text(&src);
    assert!(raw.starts_with("TEXTURE IMPORT"), "{raw:?}");
    assert!(raw.ends_with("Z  "), "{raw:?}");
    assert_eq!(line.lookup(&src, "NAME=").map(|l| l.text(&src).len()), Some(601));
    assert!(line.issues.is_empty(), "{:?}", line.issues);
}

#[test]
fn multibyte_characters_are_read_whole() {
    let head = "#exec TEXTURE IMPORT FILE=x.pcx NAME=";
    let name = "\u{dc}".repeat(700);
    let src = format!("{head}{name}");
    let line = &lines(&src)[0];
    assert!(line.issues.is_empty(), "{:?}", line.issues);
    assert_eq!(
        line.lookup(&src, "NAME=").map(|l| l.text(&src).chars().count()),
        Some(name.chars().count())
    );
}

#[test]
fn the_scanner_reads_directives_as_the_compiler_does() {
    let src = "\
/* outer /* inner */ still a comment
#exec AUDIO IMPORT FILE=Hidden.wav
*/
# exec AUDIO IMPORT FILE=Spaced.wav
var int Ammo; #exec AUDIO IMPORT FILE=AfterCode.wav
#exec AUDIO IMPORT FILE=Open.wav /* opens a comment
#exec AUDIO IMPORT FILE=InComment.wav
*/
#ForceExec AUDIO IMPORT FILE=Forced.wav
cpptext
{
    void F() {
}
#exec AUDIO IMPORT FILE=AfterCpp.wav
";
    let scanned = scan(src);
    let files: Vec<String> = scanned
        .directives
        .iter()
        .map(|d| {
            let line = parse_line(src, d);
            let file = line.lookup(src, "FILE=").map(|l| l.text(src).into_owned());
            format!("{:?} {} {:?}", d.kind, d.hash_span.text(src), file)
        })
        .collect();
    expect![[r#"
        [
            "Exec # exec Some(\"Spaced.wav\")",
            "Exec #exec Some(\"AfterCode.wav\")",
            "Exec #exec Some(\"Open.wav\")",
            "ForceExec #ForceExec Some(\"Forced.wav\")",
            "Exec #exec Some(\"AfterCpp.wav\")",
        ]
    "#]]
    .assert_debug_eq(&files);
    assert!(scanned.errors.is_empty(), "{:?}", scanned.errors);
    assert_eq!(DirectiveKind::ForceExec.engines(), unreal_engine::Engines::Both);
}

#[test]
fn engine_lookup_on_plain_strings() {
    let cases = [
        ("MESH=M SEQ=All STARTFRAME=0", "SEQ="),
        ("MESH=M SUBSEQ=All", "SEQ="),
        ("MESH=M ANIMNAME=X MLOD=0 NAME=Y", "NAME="),
        ("mesh=m name=lower", "NAME="),
        ("GROUP=\"A NAME=B\" NAME=C", "NAME="),
        ("X=1,Y=2", "Y="),
        ("NAME=\"a\\\"b\" FILE=x", "NAME="),
        ("NAME=\"unclosed FILE=x", "NAME="),
        ("ANIM=A VERBOSE", "VERBOSE"),
        ("ANIM=A NOTVERBOSE", "VERBOSE"),
        ("ANIM=A ROOTONLYX", "ROOTONLY"),
        ("NAME=", "NAME="),
        ("", "NAME="),
        ("NAME=x", ""),
    ];
    let mut out = String::new();
    for (args, key) in cases {
        let found =
            lookup(args, key).map(|l| (l.key.clone(), l.value.clone(), l.text(args).into_owned()));
        let _ = writeln!(out, "{args:?} {key:?} -> {found:?}");
    }
    expect![[r#"
        "MESH=M SEQ=All STARTFRAME=0" "SEQ=" -> Some((7..11, 11..14, "All"))
        "MESH=M SUBSEQ=All" "SEQ=" -> None
        "MESH=M ANIMNAME=X MLOD=0 NAME=Y" "NAME=" -> Some((25..30, 30..31, "Y"))
        "mesh=m name=lower" "NAME=" -> Some((7..12, 12..17, "lower"))
        "GROUP=\"A NAME=B\" NAME=C" "NAME=" -> Some((9..14, 14..16, "B\""))
        "X=1,Y=2" "Y=" -> Some((4..6, 6..7, "2"))
        "NAME=\"a\\\"b\" FILE=x" "NAME=" -> Some((0..5, 5..11, "a\"b"))
        "NAME=\"unclosed FILE=x" "NAME=" -> Some((0..5, 5..21, "unclosed FILE=x"))
        "ANIM=A VERBOSE" "VERBOSE" -> Some((7..14, 14..14, ""))
        "ANIM=A NOTVERBOSE" "VERBOSE" -> None
        "ANIM=A ROOTONLYX" "ROOTONLY" -> Some((7..15, 15..15, ""))
        "NAME=" "NAME=" -> Some((0..5, 5..5, ""))
        "" "NAME=" -> None
        "NAME=x" "" -> None
    "#]]
    .assert_eq(&out);
}

/// For each generation: how the table classifies every token, and what is missing.
fn annotate(src: &str, line: &ExecLine) -> String {
    let mut out = String::new();
    let Some(m) = line.spec(src) else {
        out.push_str("  spec: none\n");
        return out;
    };
    let spec = m.spec;
    let _ = writeln!(
        out,
        "  spec: {} [{}]{}{}{}{}",
        spec.display_name(),
        spec.engines.name(),
        m.alias
            .map(|a| format!(
                " via alias {}{}",
                a.command,
                a.sub.map(|s| format!(" {s}")).unwrap_or_default()
            ))
            .unwrap_or_default(),
        if line.subcommand.is_some() && !m.uses_subcommand {
            " (extra word after command)"
        } else {
            ""
        },
        spec.ignored.map(|r| format!(" IGNORED: {r}")).unwrap_or_default(),
        if spec.keys_complete { "" } else { " (open key set)" },
    );
    for generation in [Generation::Ue1, Generation::Ue2] {
        if !spec.engines.includes(generation) {
            let _ = writeln!(out, "  {generation:?}: command not available");
            continue;
        }
        let mut parts = Vec::new();
        for (index, arg) in line.args.iter().enumerate() {
            let name = arg.name_span().text(src);
            let status = match spec.key(name, Some(generation)) {
                Some(key) if key.ignored.is_some() => "ignored".to_owned(),
                Some(key) if (key.kind == KeyKind::Switch) != matches!(arg, Arg::Bare { .. }) => {
                    "wrong form".to_owned()
                }
                Some(key) => format!(
                    "{}{}",
                    key.kind.describe(),
                    if key.required { " required" } else { "" }
                ),
                None if spec.key_variants(name).next().is_some() => {
                    "not read by this engine".to_owned()
                }
                None if !spec.keys_complete => "unlisted".to_owned(),
                None => "unknown".to_owned(),
            };
            let search = match arg {
                Arg::Key { .. } => format!("{name}="),
                Arg::Bare { .. } => name.to_owned(),
            };
            let shadow = match line.lookup(src, &search) {
                Some(found) if line.arg_of(&found) != Some(index) => {
                    " (engine reads another occurrence)"
                }
                _ => "",
            };
            parts.push(format!("{name}: {status}{shadow}"));
        }
        let missing: Vec<&str> = spec
            .keys_for(generation)
            .filter(|key| key.required && key.ignored.is_none())
            .filter(|key| line.lookup(src, &key.search_text()).is_none())
            .map(|key| key.name)
            .collect();
        let unmet: Vec<String> = spec
            .one_of
            .iter()
            .filter(|group| {
                group.iter().all(|name| {
                    spec.key(name, Some(generation)).is_some_and(|k| k.engines.includes(generation))
                        && line.lookup(src, &format!("{name}=")).is_none()
                })
            })
            .filter(|group| {
                group
                    .iter()
                    .all(|name| spec.key(name, Some(generation)).is_some_and(|k| !k.required))
            })
            .map(|group| group.join("|"))
            .collect();
        let _ = writeln!(
            out,
            "  {generation:?}: {}{}{}",
            parts.join(", "),
            if missing.is_empty() {
                String::new()
            } else {
                format!("; missing {}", missing.join(" "))
            },
            if unmet.is_empty() {
                String::new()
            } else {
                format!("; needs one of {}", unmet.join(", "))
            },
        );
    }
    out
}

#[test]
fn every_command_of_the_table() {
    let src = fixture("commands.uc");
    let mut out = String::new();
    let mut used_specs = vec![false; COMMANDS.len()];
    let mut used_aliases = vec![false; ALIASES.len()];
    for line in lines(&src) {
        let _ = writeln!(out, "{}", line.effective.text(&src).trim());
        if let Some(m) = line.spec(&src) {
            if let Some(i) = COMMANDS.iter().position(|s| std::ptr::eq(s, m.spec)) {
                used_specs[i] = true;
            }
            if let Some(i) = m.alias.and_then(|a| ALIASES.iter().position(|x| std::ptr::eq(x, a))) {
                used_aliases[i] = true;
            }
        }
        out.push_str(&annotate(&src, &line));
    }
    expect_file!["snapshots/commands.txt"].assert_eq(&out);
    let unused: Vec<String> = COMMANDS
        .iter()
        .zip(&used_specs)
        .filter(|(_, used)| !**used)
        .map(|(s, _)| s.display_name())
        .collect();
    assert!(unused.is_empty(), "commands.uc lacks a line for {unused:?}");
    assert!(used_aliases.iter().all(|u| *u), "commands.uc lacks a line for an alias");
}

#[test]
fn table_is_consistent() {
    let mut problems = Vec::new();
    for spec in COMMANDS {
        let name = spec.display_name();
        if spec.command != spec.command.to_ascii_uppercase() {
            problems.push(format!("{name}: command not upper case"));
        }
        if let Sub::Word(word) = spec.sub {
            if word != word.to_ascii_uppercase() {
                problems.push(format!("{name}: subcommand not upper case"));
            }
        }
        for key in spec.keys {
            if key.name != key.name.to_ascii_uppercase()
                || key.name.contains('=')
                || key.name.is_empty()
            {
                problems.push(format!("{name}: bad key name {:?}", key.name));
            }
            if key.doc.is_empty() {
                problems.push(format!("{name} {}: no doc", key.name));
            }
            for generation in [Generation::Ue1, Generation::Ue2] {
                let count =
                    spec.key_variants(key.name).filter(|k| k.engines.includes(generation)).count();
                if count > 1 {
                    problems
                        .push(format!("{name} {}: {count} entries for {generation:?}", key.name));
                }
            }
            if key.ignored.is_some() && key.required {
                problems.push(format!("{name} {}: ignored and required", key.name));
            }
        }
        for group in spec.one_of {
            for member in *group {
                if spec.key_variants(member).next().is_none() {
                    problems.push(format!("{name}: one_of names unknown key {member}"));
                }
            }
        }
        let duplicates = commands_named(spec.command).filter(|other| other.sub == spec.sub).count();
        if duplicates != 1 {
            problems.push(format!("{name}: {duplicates} entries"));
        }
    }
    for alias in ALIASES {
        if unreal_engine::exec::find_command(
            alias.target_command,
            alias.target_sub.or(Some("IMPORT")),
        )
        .is_none()
        {
            problems.push(format!("alias {} points nowhere", alias.command));
        }
    }
    assert!(problems.is_empty(), "{problems:#?}");
}

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus")
}

fn uc_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            uc_files(&path, out);
        } else if path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("uc") || e.eq_ignore_ascii_case("uci"))
        {
            out.push(path);
        }
    }
}

/// Every directive of every `.uc` in the corpus: command, subcommand, keys (no values).
#[test]
fn corpus_directives() {
    let root = corpus_dir();
    if !root.is_dir() {
        unreal_test_support::corpus::absent(&format!(
            "corpus_directives: shared corpus not found at {}",
            root.display()
        ));
        return;
    }
    let mut files = Vec::new();
    uc_files(&root, &mut files);
    files.sort();
    let mut out = String::new();
    for path in &files {
        let Ok(bytes) = std::fs::read(path) else { continue };
        let decoded = unreal_syntax::text::decode(&bytes);
        let src = decoded.text.as_ref();
        let result = scan(src);
        let rel = path.strip_prefix(&root).unwrap_or(path).to_string_lossy().replace('\\', "/");
        let _ = writeln!(
            out,
            "{rel}: {} directives, {} scan errors",
            result.directives.len(),
            result.errors.len()
        );
        for directive in &result.directives {
            let line = parse_line(src, directive);
            let keys: Vec<String> = line
                .args
                .iter()
                .map(|arg| match arg {
                    Arg::Key { key, .. } => format!("{}=", key.text(src)),
                    Arg::Bare { span } => span.text(src).to_owned(),
                })
                .collect();
            let spec =
                line.spec(src).map_or_else(|| "no spec".to_owned(), |m| m.spec.display_name());
            let issues = if line.issues.is_empty() {
                String::new()
            } else {
                format!(" issues {:?}", issue_names(&line.issues))
            };
            let _ = writeln!(
                out,
                "  {} #{} {} {} | {} [{spec}]{issues}",
                line_col(src, directive.hash_span.start),
                directive.kind.name(),
                line.command_text(src).unwrap_or("-"),
                line.subcommand_text(src).unwrap_or("-"),
                keys.join(" "),
            );
        }
    }
    expect_file!["snapshots/corpus.txt"].assert_eq(&out);
}

fn issue_names(issues: &[LineIssue]) -> Vec<&'static str> {
    issues
        .iter()
        .map(|issue| match issue {
            LineIssue::ValueCutByComment { .. } => "value cut by comment",
            LineIssue::UnterminatedQuote { .. } => "unterminated quote",
            LineIssue::EscapeInQuotes { .. } => "escape in quotes",
            LineIssue::EmptyKey { .. } => "empty key",
        })
        .collect()
}

#[test]
fn never_panics_on_odd_input() {
    let inputs = [
        "#",
        "#exec",
        "#exec ",
        "#exec \"",
        "#exec =",
        "#exec ,,,",
        "#exec A=\"\\",
        "cpptext",
        "cpptext {",
        "/*",
        "\"#exec",
        "'#exec",
        "#exec\r",
        "\r\n#exec\r\n",
        "#exec A=\"//",
        "#exec /*",
        "#exec A=B,",
        "#\u{e9}xec",
    ];
    for input in inputs {
        for line in lines(input) {
            let _ = render_line(input, &line);
            let _ = line.spec(input);
        }
        let _ = render_scan(input, &scan(input));
    }
}
