//! Hostile inputs: headers whose counts claim gigabytes, offsets past the end of the file,
//! compact indices that never end, a T3D nested 10,000 blocks deep, a map of 20,000 actors
//! never closed, a 1 MB line, and a
//! generated map of 200 MB. Each must give a precise error (or its findings) with bounded
//! memory and no stack overflow.
//!
//! Memory is checked by running the real binary with its address space limited
//! (`ulimit -v`): a reader that allocates what a header claims fails there instead of
//! passing. Big inputs are generated at test time into a temporary folder. Nothing here
//! measures time.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::pedantic)]

mod robust_common;

use std::ffi::OsStr;
use std::fmt::Write as _;

use expect_test::expect;
use robust_common::{run_limited, TempDir};
use unreal_analysis::lint::{lint_file, lint_text, FileKind, LintOptions};
use unreal_formats::vertex_mesh::{AnivFile, DataFile, VertexMesh};
use unreal_formats::Package;

/// Address space for the CLI on small hostile files: far below what any header here claims.
const SMALL_LIMIT_MB: u64 = 256;

fn stderr(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// `info` on each file under the limit: exit 1, and one placed error per file.
fn info_refuses(files: &[std::path::PathBuf]) -> String {
    let mut args: Vec<&OsStr> = vec![OsStr::new("info")];
    args.extend(files.iter().map(|f| f.as_os_str()));
    let output = run_limited(SMALL_LIMIT_MB, &args);
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "info: {err}");
    for f in files {
        let name = f.display().to_string();
        let line = err
            .lines()
            .find(|l| l.contains(&name))
            .unwrap_or_else(|| panic!("no error for {name}: {err}"));
        assert!(line.contains(" at byte "), "{line}");
    }
    err
}

fn aniv(frames: u16, frame_size: u16, body: usize) -> Vec<u8> {
    let mut a = frames.to_le_bytes().to_vec();
    a.extend_from_slice(&frame_size.to_le_bytes());
    a.resize(4 + body, 0x5a);
    a
}

fn data_file(tris: u16, verts: u16, body_tris: usize) -> Vec<u8> {
    let mut d = vec![0u8; 48];
    d[0..2].copy_from_slice(&tris.to_le_bytes());
    d[2..4].copy_from_slice(&verts.to_le_bytes());
    for _ in 0..body_tris {
        d.extend_from_slice(&[0, 0, 1, 0, 2, 0, 1, 0, 0, 0, 255, 0, 0, 255, 0, 0]);
    }
    d
}

#[test]
fn vertex_mesh_headers_claiming_65535_frames_of_16383_vertices() {
    // 65535 frames of 16383 four-byte vertices is 4 GiB; the files hold a few bytes, or 1 MB.
    let claims = aniv(65535, 16383 * 4, 0);
    let claims_1mb = aniv(65535, 16383 * 4, 1 << 20);
    let deus_ex = aniv(65535, 8191 * 8, 4096);
    let mut out = String::new();
    for (label, a) in [
        ("empty", &claims),
        ("1 MB of frames", &claims_1mb),
        ("8191 eight-byte vertices", &deus_ex),
    ] {
        let _ = writeln!(
            out,
            "{label}: {}",
            AnivFile::parse(a).map(|_| "accepted".to_owned()).unwrap_or_else(|e| e.to_string())
        );
    }
    let d = data_file(65535, 16383, 2);
    let _ = writeln!(
        out,
        "_d.3d with 65535 triangles: {}",
        DataFile::parse(&d).map(|_| "accepted".to_owned()).unwrap_or_else(|e| e.to_string())
    );
    let small_d = data_file(1, 16383, 1);
    let _ = writeln!(
        out,
        "pair: {}",
        VertexMesh::parse(&small_d, &claims_1mb)
            .map(|_| "accepted".to_owned())
            .unwrap_or_else(|e| e.to_string())
    );
    expect![[r#"
        empty: vertex mesh animation file at byte 0: expected at least 4 + 65535 frames x 65532 bytes = 4294639624 bytes, found 4 bytes
        1 MB of frames: vertex mesh animation file at byte 0: expected at least 4 + 65535 frames x 65532 bytes = 4294639624 bytes, found 1048580 bytes
        8191 eight-byte vertices: vertex mesh animation file at byte 0: expected at least 4 + 65535 frames x 65528 bytes = 4294377484 bytes, found 4100 bytes
        _d.3d with 65535 triangles: vertex mesh data file at byte 0: expected at least 48 + 16 x 65535 triangles = 1048608 bytes, found 80 bytes
        pair: vertex mesh animation file at byte 0: expected at least 4 + 65535 frames x 65532 bytes = 4294639624 bytes, found 1048580 bytes
    "#]].assert_eq(&out);

    let dir = TempDir::new("hostile-3d");
    std::fs::write(dir.path().join("Big_d.3d"), &small_d).unwrap();
    std::fs::write(dir.path().join("Big_a.3d"), &claims_1mb).unwrap();
    let sub = dir.path().join("tris");
    std::fs::create_dir_all(&sub).unwrap();
    std::fs::write(sub.join("Tris_d.3d"), &d).unwrap();
    std::fs::write(sub.join("Tris_a.3d"), aniv(1, 3 * 4, 12)).unwrap();
    info_refuses(&[dir.path().join("Big_a.3d"), sub.join("Tris_d.3d")]);
}

/// A UE1 package header (version 69) with the given table counts and offsets, followed by
/// `body` (`None` keeps the generation count honest).
fn package_header(
    names: (u32, u32),
    exports: (u32, u32),
    imports: (u32, u32),
    generations: Option<u32>,
    body: &[u8],
) -> Vec<u8> {
    let mut h = Vec::new();
    h.extend_from_slice(&0x9E2A_83C1u32.to_le_bytes());
    h.extend_from_slice(&69u16.to_le_bytes());
    h.extend_from_slice(&0u16.to_le_bytes());
    h.extend_from_slice(&1u32.to_le_bytes());
    for (count, offset) in [names, exports, imports] {
        h.extend_from_slice(&count.to_le_bytes());
        h.extend_from_slice(&offset.to_le_bytes());
    }
    h.extend_from_slice(&[0x42; 16]);
    h.extend_from_slice(&generations.unwrap_or(1).to_le_bytes());
    if generations.is_none() {
        h.extend_from_slice(&exports.0.to_le_bytes());
        h.extend_from_slice(&names.0.to_le_bytes());
    }
    h.extend_from_slice(body);
    h
}

/// One name `None` (v69: compact length, bytes, NUL, flags).
fn one_name() -> Vec<u8> {
    let mut n = vec![5];
    n.extend_from_slice(b"None\0");
    n.extend_from_slice(&0u32.to_le_bytes());
    n
}

#[test]
fn package_counts_and_offsets_past_the_end_of_the_file() {
    const HEADER: u32 = 64;
    let name = one_name();
    let after_names = HEADER + name.len() as u32;
    let cases: Vec<(&str, Vec<u8>)> = vec![
        (
            "name count 2^32-1",
            package_header((u32::MAX, HEADER), (0, after_names), (0, after_names), None, &name),
        ),
        (
            "name offset past the end",
            package_header((1, 0xFFFF_FFF0), (0, HEADER), (0, HEADER), None, &name),
        ),
        (
            "export count 2^31-1",
            package_header((1, HEADER), (0x7FFF_FFFF, after_names), (0, after_names), None, &name),
        ),
        (
            "export offset past the end",
            package_header((1, HEADER), (1, 0x7FFF_FFFF), (0, after_names), None, &name),
        ),
        (
            "import count 2^32-1 at the end",
            package_header((1, HEADER), (0, after_names), (u32::MAX, after_names), None, &name),
        ),
        (
            "generation count 2^32-1",
            package_header((1, HEADER - 8), (0, HEADER), (0, HEADER), Some(u32::MAX), &name),
        ),
        (
            "header cut short",
            package_header((1, HEADER), (0, HEADER), (0, HEADER), None, &[])[..30].to_vec(),
        ),
    ];
    let mut out = String::new();
    for (label, bytes) in &cases {
        let result = Package::parse(bytes).map(|p| format!("accepted: {} names", p.names.len()));
        let _ = writeln!(out, "{label}: {}", result.unwrap_or_else(|e| e.to_string()));
    }
    expect![[r#"
        name count 2^32-1: package header at byte 12: expected name table: 4294967295 entries at offset 64 to fit in the file of 74 bytes (each takes at least 5)
        name offset past the end: package header at byte 12: expected name table: 1 entries at offset 4294967280 to fit in the file of 74 bytes (each takes at least 5)
        export count 2^31-1: package header at byte 20: expected export table: 2147483647 entries at offset 74 to fit in the file of 74 bytes (each takes at least 12)
        export offset past the end: package header at byte 20: expected export table: 1 entries at offset 2147483647 to fit in the file of 74 bytes (each takes at least 12)
        import count 2^32-1 at the end: package header at byte 28: expected import table: 4294967295 entries at offset 74 to fit in the file of 74 bytes (each takes at least 7)
        generation count 2^32-1: package header at byte 56: expected GenerationCount of 4294967295 items of at least 8 bytes to fit in the 10 bytes left
        header cut short: package header at byte 28: expected ImportCount (4 bytes), but the file ends after 2 more
    "#]].assert_eq(&out);

    let dir = TempDir::new("hostile-packages");
    let files: Vec<_> = cases
        .iter()
        .enumerate()
        .filter(|(_, (_, b))| Package::parse(b).is_err())
        .map(|(i, (_, bytes))| {
            let path = dir.path().join(format!("Hostile{i}.u"));
            std::fs::write(&path, bytes).unwrap();
            path
        })
        .collect();
    info_refuses(&files);
}

#[test]
fn compact_indices_that_never_end() {
    const HEADER: u32 = 64;
    // Every byte has its continuation bit set: a reader that follows continuation bits
    // without a bound walks the whole megabyte (or further).
    let endless = vec![0xFFu8; 1 << 20];
    let name = one_name();
    let after_names = HEADER + name.len() as u32;
    let mut export_table = name.clone();
    export_table.extend_from_slice(&endless);
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("name length", package_header((1, HEADER), (0, HEADER), (0, HEADER), None, &endless)),
        (
            "export class",
            package_header((1, HEADER), (1, after_names), (0, after_names), None, &export_table),
        ),
        (
            "import package",
            package_header((1, HEADER), (0, after_names), (1, after_names), None, &export_table),
        ),
    ];
    let mut out = String::new();
    for (label, bytes) in &cases {
        let result = Package::parse(bytes).map(|_| "accepted".to_owned());
        let _ = writeln!(out, "{label}: {}", result.unwrap_or_else(|e| e.to_string()));
    }
    expect![[r#"
        name length: name table entry 0 at byte 64: expected name length as a compact index of at most 5 bytes within 32 bits, found fifth byte 0xff
        export class: export table entry 0 at byte 74: expected Class as a compact index of at most 5 bytes within 32 bits, found fifth byte 0xff
        import package: import table entry 0 at byte 74: expected ClassPackage as a compact index of at most 5 bytes within 32 bits, found fifth byte 0xff
    "#]].assert_eq(&out);

    let dir = TempDir::new("hostile-compact");
    let files: Vec<_> = cases
        .iter()
        .enumerate()
        .map(|(i, (_, bytes))| {
            let path = dir.path().join(format!("Endless{i}.u"));
            std::fs::write(&path, bytes).unwrap();
            path
        })
        .collect();
    info_refuses(&files);
}

/// Which rules fired, with the line and column of the first of each.
fn findings(text: &str, diagnostics: &[unreal_analysis::Diagnostic]) -> String {
    let index = unreal_analysis::LineIndex::new(text);
    let mut seen: Vec<(&str, usize, String)> = Vec::new();
    for d in diagnostics {
        if let Some(entry) = seen.iter_mut().find(|(code, _, _)| *code == d.code) {
            entry.1 += 1;
        } else {
            let at =
                index.line_col(text, d.span.start, unreal_analysis::line_index::ColumnUnit::Chars);
            seen.push((d.code, 1, format!("{}:{}", at.line + 1, at.col + 1)));
        }
    }
    seen.iter().map(|(code, n, at)| format!("{code} x{n}, first at {at}\n")).collect()
}

/// Runs `f` on a thread with a 1 MiB stack (half the default of test threads): recursion
/// that follows the nesting of the input would overflow it.
fn on_small_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new().stack_size(1 << 20).spawn(f).unwrap().join().unwrap()
}

#[test]
fn t3d_nested_10000_blocks_deep() {
    let mut text = String::from("Begin Map\r\n");
    for i in 0..10_000 {
        // Objects nest (UE2 subobjects); actors would not: each `Begin Actor` closes the last.
        let _ = write!(text, "Begin Object Class=Light Name=L{i}\r\n");
    }
    for _ in 0..10_000 {
        text.push_str("End Object\r\n");
    }
    text.push_str("End Map\r\n");
    let unclosed = text[..text.len() / 2].to_owned();
    let report = on_small_stack(move || {
        let mut out = String::new();
        for (label, text) in [("balanced", &text), ("never closed", &unclosed)] {
            let linted = lint_file(FileKind::T3d, text.as_bytes(), &LintOptions::default());
            let mut doc = unreal_analysis::document::T3dDocument::new(text.as_str());
            let incremental = doc.diagnostics(&LintOptions::default());
            assert_eq!(incremental, linted.diagnostics, "{label}");
            let parse = unreal_syntax::t3d::parse(text);
            let src = unreal_analysis::ide::t3d::Source::detect(text, &parse, Default::default());
            let symbols = unreal_analysis::ide::t3d::symbols::document_symbols(&src);
            let hover = unreal_analysis::ide::t3d::hover::hover(
                &src,
                (text.len() / 2) as u32,
                &unreal_analysis::ide::t3d::NoPackages,
            );
            let _ = write!(
                out,
                "{label}: {} symbols at the top, hover {}\n{}",
                symbols.len(),
                hover.is_some(),
                findings(text, &linted.diagnostics)
            );
        }
        out
    });
    expect![[r#"
        balanced: 1 symbols at the top, hover false
        t3d-nesting-too-deep x1, first at 65:1
        never closed: 1 symbols at the top, hover false
        t3d-unbalanced-block x64, first at 1:1
        t3d-nesting-too-deep x1, first at 65:1
    "#]]
    .assert_eq(&report);
}

/// 9,000 actors none of which is closed (below the 10,000 mismatches where reading stops):
/// each ends where the next `Begin Actor` starts, so the editor's document, which re-parses
/// an edited actor with its neighbours, must not let every edit or request reach across all
/// of them (that would make opening and each edit quadratic: hours here). The result equals
/// a fresh lint after the edits.
#[test]
fn t3d_map_of_9000_actors_never_closed() {
    let mut text = String::from("Begin Map\r\n");
    for i in 0..9_000 {
        let _ = write!(text, "Begin Actor Class=Light Name=L{i}\r\n   LightHue={}\r\n", i % 256);
    }
    text.push_str("End Map\r\n");
    let options = LintOptions::default();
    let mut doc = unreal_analysis::document::T3dDocument::new(text.as_str());
    let opened = doc.diagnostics(&options);
    let mut outcomes = std::collections::BTreeMap::new();
    for i in 0..50u32 {
        // Edits spread over the map: inside a hue, on a `Begin` line, in the middle of a name.
        let at = (doc.text().len() as u32 / 53) * (i + 1);
        let reparse =
            doc.apply_edit(unreal_syntax::Span::empty_at(at), ["7", " ", "x"][i as usize % 3]);
        *outcomes
            .entry(format!("{reparse:?}").split('(').next().unwrap().to_owned())
            .or_insert(0) += 1;
        let around = doc.parse_around(unreal_syntax::Span::empty_at(at));
        assert!(!around.file.items.is_empty());
        let _ = doc.diagnostics(&options);
    }
    let fresh = lint_text(FileKind::T3d, doc.text(), &options);
    assert_eq!(doc.diagnostics(&options), fresh);
    expect![[r#"
        opened: t3d-unbalanced-block x101, first at 2:1

        edits: {"Segments": 50}
        after: t3d-unbalanced-block x101, first at 2:1
        t3d-actor-without-class x4, first at 352:1
    "#]]
    .assert_eq(&format!(
        "opened: {}\nedits: {outcomes:?}\nafter: {}",
        findings(&text, &opened),
        findings(doc.text(), &fresh)
    ));
}

/// 100,000 actors none of which is closed, opened in the editor: reading stops past 10,000
/// mismatches, as in `lint` (the same findings), the features read no tree and answer
/// nothing, an edit outlines it again, and once the text reads as a map it is checked as one.
#[test]
fn an_editor_document_of_mismatches_stops_until_it_reads_as_a_map() {
    let mut text = String::from("Begin Map\r\n");
    for i in 0..100_000 {
        let _ = write!(text, "Begin Actor Class=Light Name=L{i}\r\n");
    }
    text.push_str("End Map\r\n");
    let options = LintOptions::default();
    let mut doc = unreal_analysis::document::T3dDocument::new(text.as_str());
    assert!(doc.is_stopped());
    let opened = doc.diagnostics(&options);
    let last = |found: &[unreal_analysis::Diagnostic]| {
        found.last().map(|d| d.message.clone()).unwrap_or_default()
    };
    let linted = unreal_analysis::document::T3dDocument::check_once(text.clone(), &options);
    assert_eq!(
        (opened.len(), last(&opened)),
        (linted.diagnostics.len(), last(&linted.diagnostics))
    );
    assert_eq!(opened, linted.diagnostics);
    let last = opened.last().map(|d| d.message.as_str()).unwrap_or_default();
    assert!(last.starts_with("reading stopped on this line: more than 10000"), "{last}");
    let analysis = unreal_analysis::ide::Analysis::map(
        &doc,
        unreal_analysis::EngineSetting::Auto,
        &unreal_analysis::ide::t3d::NoPackages,
    );
    assert!(analysis.hover(20).is_none());
    assert!(analysis.document_symbols(1000).is_empty());
    // Typing in it outlines it again (still stopped); replacing it with a map reads it.
    doc.apply_edit(unreal_syntax::Span::empty_at(12), "x");
    assert!(doc.is_stopped());
    let len = doc.text().len() as u32;
    let map = "Begin Map\r\nBegin Actor Class=Light Name=L\r\nEnd Actor\r\nEnd Map\r\n";
    doc.apply_edit(unreal_syntax::Span::new(0, len), map);
    assert!(!doc.is_stopped());
    assert_eq!(doc.diagnostics(&options), lint_text(FileKind::T3d, map, &options));
}

#[test]
fn one_line_of_a_megabyte() {
    let long = "x".repeat(1 << 20);
    let t3d = format!("Begin Map\r\nBegin Actor Class=Light Name={long}\r\nTag={long}\r\nEnd Actor\r\nEnd Map\r\n");
    let vertex = format!(
        "Begin PolyList\r\nBegin Polygon\r\nVertex {}\r\nEnd Polygon\r\nEnd PolyList\r\n",
        "+1.0,".repeat(200_000)
    );
    let uc = format!("class A extends Actor;\r\n#exec TEXTURE IMPORT NAME=T FILE={long}.pcx\r\n#exec MESH IMPORT MESH=M {}\r\n", "X=1 ".repeat(250_000));
    let mut out = String::new();
    for (label, kind, text) in [
        ("T3D name and value", FileKind::T3d, &t3d),
        ("T3D vertex", FileKind::T3d, &vertex),
        ("#exec", FileKind::UnrealScript, &uc),
    ] {
        let diagnostics = lint_text(kind, text, &LintOptions::default());
        let _ = write!(out, "{label}:\n{}", findings(text, &diagnostics));
    }
    expect![[r#"
        T3D name and value:
        T3D vertex:
        t3d-too-few-vertices x1, first at 2:1
        t3d-malformed-number x1, first at 3:22
        #exec:
        exec-line-too-long x2, first at 2:1030
        exec-missing-key x1, first at 3:7
        exec-ignored-key x1, first at 3:26
    "#]]
    .assert_eq(&out);

    // The CLI on the same files, under the memory limit.
    let dir = TempDir::new("hostile-long-line");
    std::fs::write(dir.path().join("Long.t3d"), &t3d).unwrap();
    std::fs::write(dir.path().join("Vertex.t3d"), &vertex).unwrap();
    std::fs::write(dir.path().join("Long.uc"), &uc).unwrap();
    let output = run_limited(
        SMALL_LIMIT_MB,
        &[OsStr::new("lint"), OsStr::new("--format"), OsStr::new("json"), dir.path().as_os_str()],
    );
    assert!(matches!(output.status.code(), Some(0 | 1)), "{}", stderr(&output));
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["files"], 3);
}

/// A generated map of 200 MB (`tools/mapgen`) through `unreal-ls lint` with its address space
/// limited. A debug build parses about a megabyte a second, so there the map is 8 MB and the
/// same limit per byte applies; `cargo test --release` (and `UNREAL_LS_HOSTILE_MAP_MB`)
/// checks the full size.
#[test]
fn generated_map_of_200_mb() {
    let default_mb = if cfg!(debug_assertions) { 8 } else { 200 };
    let mb: usize = std::env::var("UNREAL_LS_HOSTILE_MAP_MB")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default_mb);
    let dir = TempDir::new("hostile-map");
    let path = dir.path().join(format!("Generated{mb}.t3d"));
    std::fs::write(&path, unreal_mapgen::generate_map(mb * 1_000_000, 7)).unwrap();
    // The file, its decoded text and the tree: a fixed allowance per megabyte of map.
    let limit = 256 + (MAP_BYTES_FACTOR * mb as u64);
    let output = run_limited(
        limit,
        &[OsStr::new("lint"), OsStr::new("--format"), OsStr::new("json"), path.as_os_str()],
    );
    assert!(
        matches!(output.status.code(), Some(0 | 1)),
        "lint of a {mb} MB map under {limit} MB: {}",
        stderr(&output)
    );
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["files"], 1);
    println!(
        "{mb} MB map: {} findings under a {limit} MB address-space limit",
        report["diagnostics"].as_array().unwrap().len()
    );
}

/// Megabytes of address space allowed per megabyte of map.
const MAP_BYTES_FACTOR: u64 = 12;

/// A gigabyte of zeros named `.t3d` (a sparse file) is called binary from its first bytes:
/// under a 256 MB limit, where reading and decoding it whole cannot fit.
#[test]
fn a_sparse_gigabyte_named_t3d_is_binary_from_its_first_bytes() {
    let dir = TempDir::new("hostile-sparse");
    let path = dir.path().join("Sparse.t3d");
    std::fs::File::create(&path).unwrap().set_len(1 << 30).unwrap();
    let output = run_limited(SMALL_LIMIT_MB, &[OsStr::new("lint"), path.as_os_str()]);
    let out = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert!(out.contains("error[t3d-not-t3d]: the file is binary"), "{out}");
    assert!(out.len() < 2_000, "{} bytes of output", out.len());
}

/// One value of 8 MB (50 MB in the report that found it) is quoted in part: the message and
/// the code frame stay a few kilobytes, whatever the line's length.
#[test]
fn a_huge_value_is_quoted_in_part() {
    let junk = "x".repeat(8 << 20);
    let map = TempDir::new("hostile-value");
    std::fs::write(
        map.path().join("Vertex.t3d"),
        format!(
            "Begin PolyList\r\nBegin Polygon\r\nVertex {junk}\r\nEnd Polygon\r\nEnd PolyList\r\n"
        ),
    )
    .unwrap();
    let output = run_limited(SMALL_LIMIT_MB, &[OsStr::new("lint"), map.path().as_os_str()]);
    let out = String::from_utf8_lossy(&output.stdout);
    assert!(out.contains("characters left out"), "{}", &out[..out.len().min(500)]);
    assert!(out.len() < 8_000, "{} bytes of output", out.len());

    let config = TempDir::new("hostile-config-value");
    std::fs::write(config.path().join("unreal-ls.toml"), format!("engine = \"{junk}\"\n")).unwrap();
    std::fs::write(config.path().join("A.t3d"), "Begin Map\r\nEnd Map\r\n").unwrap();
    let output = run_limited(SMALL_LIMIT_MB, &[OsStr::new("lint"), config.path().as_os_str()]);
    let err = stderr(&output);
    let head = &err[..err.len().min(500)];
    assert_eq!(output.status.code(), Some(2), "{head}");
    assert!(err.contains("unknown engine") && err.contains("characters left out"), "{head}");
    assert!(err.len() < 4_000, "{} bytes on stderr", err.len());
}

/// 100,000 actors, none closed: one cause, so the output is the first hundred mismatches and
/// one line saying where reading stopped (past 10,000 mismatches nothing more is read, and
/// no other rule runs), not 100,000 code frames; `diff`, `export` and `render` refuse the
/// file, naming the first mismatch and the line where reading stopped.
#[test]
fn a_hundred_thousand_unclosed_actors_are_not_a_hundred_thousand_findings() {
    let dir = TempDir::new("hostile-unclosed");
    let text =
        format!("Begin Map\r\n{}End Map\r\n", "Begin Actor Class=Light Name=L\r\n".repeat(100_000));
    let map = dir.path().join("Unclosed.t3d");
    std::fs::write(&map, text).unwrap();
    let output = run_limited(1024, &[OsStr::new("lint"), dir.path().as_os_str()]);
    let out = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let tail = &out[out.len().saturating_sub(700)..];
    assert!(
        out.contains(
            "reading stopped on this line: more than 10000 `Begin`/`End` lines do not pair up ("
        ),
        "{tail}"
    );
    assert!(!out.contains("actor name `L` is used"), "{tail}");
    assert!(out.len() < 100_000, "{} bytes of output", out.len());
    let png = dir.path().join("Unclosed.png");
    let glb = dir.path().join("Unclosed.glb");
    for (args, code) in [
        (vec![OsStr::new("diff"), map.as_os_str(), map.as_os_str()], 2),
        (vec![OsStr::new("export"), map.as_os_str(), OsStr::new("-o"), glb.as_os_str()], 1),
        (vec![OsStr::new("render"), map.as_os_str(), OsStr::new("-o"), png.as_os_str()], 1),
    ] {
        let output = run_limited(1024, &args);
        let err = stderr(&output);
        assert_eq!(output.status.code(), Some(code), "{args:?}: {err}");
        assert!(
            err.contains(
                "more than 10000 `Begin`/`End` lines do not pair up (the first on line 2), so reading stopped on line "
            ),
            "{args:?}: {err}"
        );
    }
    assert!(!png.exists() && !glb.exists());
}
