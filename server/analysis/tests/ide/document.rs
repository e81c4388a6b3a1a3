//! The incremental document: after any sequence of edits its tree, errors and diagnostics
//! equal a fresh full parse of the same text.

use unreal_analysis::document::{Reparse, T3dDocument};
use unreal_analysis::ide::t3d::{folding, symbols, Source};
use unreal_analysis::lint::LintOptions;
use unreal_analysis::rules::check_t3d_parsed;
use unreal_analysis::LineIndex;
use unreal_mapgen::Rng;
use unreal_syntax::t3d::{BlockKind, Item};
use unreal_syntax::Span;

use crate::ROOM;

fn assert_same_as_full_parse(doc: &mut T3dDocument, context: &str) {
    let fresh = unreal_syntax::t3d::parse(doc.text());
    // The segments are the children of a whole parse's frame (or its top-level items).
    let (frame, expected) = match fresh.file.items.as_slice() {
        [Item::Block(block)]
            if matches!(block.kind, BlockKind::Map | BlockKind::Level) && block.end.is_some() =>
        {
            (Some(block), block.children.as_slice())
        }
        items => (None, items),
    };
    let spans: Vec<Span> = doc.segment_spans().collect();
    let expected_spans: Vec<Span> = expected.iter().map(Item::span).collect();
    assert_eq!(spans, expected_spans, "segments differ after {context}\ntext:\n{}", doc.text());
    // The segments parsed in parallel runs, put together, are the whole parse.
    if let Some(parallel) = doc.parse_in_parallel() {
        assert!(parallel == fresh, "parallel parse differs after {context}\ntext:\n{}", doc.text());
    }
    // Every segment re-parsed on its own lines gives the same tree as the whole parse.
    if let (Some(first), Some(last)) = (spans.first(), spans.last()) {
        let all = doc.parse_around(Span::new(first.start, last.end));
        assert!(all == fresh, "parse_around differs after {context}\ntext:\n{}", doc.text());
    }
    for (i, span) in spans.iter().enumerate().step_by(3) {
        let around = doc.parse_around(Span::empty_at(span.start));
        let items = match (frame, around.file.items.as_slice()) {
            (Some(_), [Item::Block(block)]) => block.children.as_slice(),
            (Some(_), _) => panic!("no frame around segment {i} after {context}"),
            (None, items) => items,
        };
        // The segment, among the few around it that an open block may have taken in.
        let expected_item = expected.get(i);
        let got = items.iter().find(|item| item.span() == *span);
        assert!(
            got == expected_item,
            "segment {i} on its own differs after {context}\ngot {:?}\nexpected {:?}\ntext:\n{}",
            got,
            expected_item,
            doc.text()
        );
    }
    // The outline and the folding ranges the segments keep (computed now where the
    // diagnostics pass has not parsed a segment yet, and kept by it), as a whole parse gives.
    assert_same_outline(doc, &fresh, frame.is_some(), context);
    assert_same_outline(&doc.detached(), &fresh, frame.is_some(), context);
    let options = LintOptions::default();
    let expected = check_t3d_parsed(doc.text(), &fresh, &options);
    let actual = doc.diagnostics(&options);
    if actual != expected {
        for d in &actual {
            if !expected.contains(d) {
                eprintln!("only incremental: {d:?}");
            }
        }
        for d in &expected {
            if !actual.contains(d) {
                eprintln!("only full: {d:?}");
            }
        }
    }
    assert_eq!(actual, expected, "diagnostics differ after {context}\ntext:\n{}", doc.text());
    assert_same_outline(doc, &fresh, frame.is_some(), context);
}

/// What a document keeps of its outline and folding ranges is what a whole parse gives; kept
/// for every document with a frame and polygons.
fn assert_same_outline(
    doc: &T3dDocument,
    fresh: &unreal_syntax::t3d::Parse,
    framed: bool,
    context: &str,
) {
    let src = Source::new(doc.text(), fresh, None);
    let polygons = symbols::polygons_shown(&fresh.file.items, symbols::Within::Document);
    match doc.outline_symbols(0) {
        Some(kept) => {
            assert_eq!(kept, symbols::outline(&src, false), "outline differs after {context}");
        }
        // A segment that only a whole parse can read: once read, the outline is kept.
        None if framed => {
            let mut read = doc.clone();
            read.read_markers();
            assert!(read.outline_symbols(0).is_some(), "no outline kept after {context}");
        }
        None => {}
    }
    // Polygons that the outline shows (outside a map's actors) are not kept.
    if polygons > 0 {
        assert_eq!(doc.outline_symbols(polygons), None, "outline with polygons after {context}");
    }
    match doc.folding_ranges() {
        Some(kept) => {
            assert_eq!(kept, folding::folding_ranges(&src), "folds differ after {context}");
        }
        None if framed => {
            let mut read = doc.clone();
            read.read_markers();
            assert!(read.folding_ranges().is_some(), "no folding ranges kept after {context}");
        }
        None => {}
    }
}

/// Snippets that random edits insert: whole lines, block lines, broken values, nothing.
const SNIPPETS: &[&str] = &[
    "",
    "1",
    "-",
    "\r\n",
    "\n",
    // A lone CR ends a line as LF does (the engines' `ParseLine`).
    "\r",
    "End Polygon\r",
    "   LightHue=12\n",
    "Begin Polygon\n",
    "End Polygon\n",
    "End\n",
    "End Map\n",
    "Begin Actor Class=Light Name=Light0\nEnd Actor\n",
    "Begin Actor Class=Light Name=Light9\n   Location=(X=1)\nEnd Actor\n",
    "             Vertex   +00001.000000,+00002.000000,+00003.000000\n",
    " Flags=x",
    " Flags=-2",
    "Texture=Pkg.Grp.Tex ",
    "Brush=Model'MyLevel.Missing'",
    "Pan U=1 V=2\n",
    "Begin",
    "é",
];

fn random_edit(rng: &mut Rng, text: &str) -> (Span, String) {
    let len = text.len() as u32;
    let pick = |rng: &mut Rng| {
        let mut at = rng.below(len + 1) as usize;
        while !text.is_char_boundary(at) {
            at -= 1;
        }
        at as u32
    };
    let a = pick(rng);
    let b = if rng.chance(50) { a } else { pick(rng).min(a + 200) };
    let (start, end) = (a.min(b), a.max(b));
    let end = {
        let mut e = end as usize;
        while !text.is_char_boundary(e) {
            e += 1;
        }
        e as u32
    };
    let snippet = *rng.pick(SNIPPETS);
    (Span::new(start, end), snippet.to_owned())
}

#[test]
fn random_edits_equal_a_full_parse() {
    let mut incremental = 0;
    let mut full = 0;
    for seed in 0..60u64 {
        let mut rng = Rng::new(seed);
        let base = match seed % 3 {
            0 => unreal_mapgen::generate_map(6000, seed),
            // A classic Mac export: lines end in a lone CR.
            1 if seed % 2 == 1 => ROOM.replace('\n', "\r"),
            _ => ROOM.to_owned(),
        };
        let mut doc = T3dDocument::new(base);
        let options = LintOptions::default();
        let _ = doc.diagnostics(&options);
        for step in 0..40 {
            let (range, snippet) = random_edit(&mut rng, doc.text());
            match doc.apply_edit(range, &snippet) {
                Reparse::Segments(_) => incremental += 1,
                Reparse::Full => full += 1,
            }
            // Check every few steps so that cached diagnostics are reused across edits too.
            if step % 3 == 0 || step == 39 {
                assert_same_as_full_parse(
                    &mut doc,
                    &format!("seed {seed} step {step}: {range:?} <- {snippet:?}"),
                );
            }
        }
    }
    // Random edits hit block lines often, so both paths must have run many times.
    println!("{incremental} incremental re-parses, {full} full ones");
    assert!(incremental > 300 && full > 100, "incremental {incremental}, full {full}");
}

#[test]
fn typing_inside_an_actor_reparses_one_segment() {
    let mut doc = T3dDocument::new(ROOM);
    let at = ROOM.find("LightHue=24").unwrap() as u32 + 10;
    let mut outcomes = Vec::new();
    for (i, c) in "56".chars().enumerate() {
        outcomes.push(doc.apply_edit(Span::empty_at(at + i as u32), &c.to_string()));
    }
    // A new line inside the polygon, then a stray `End` that changes the structure.
    let vertex = doc.text().find("End Polygon").unwrap() as u32;
    outcomes.push(doc.apply_edit(
        Span::empty_at(vertex),
        "Vertex   +00001.000000,+00001.000000,+00001.000000\n          ",
    ));
    let begin = doc.text().find("Begin Actor Class=Light Name=Light1").unwrap() as u32;
    outcomes.push(doc.apply_edit(Span::empty_at(begin), "End\n"));
    expect_test::expect!["[Segments(1), Segments(1), Segments(1), Full]"]
        .assert_eq(&format!("{outcomes:?}"));
    assert_same_as_full_parse(&mut doc, "the typed edits");
    // The stray `End` closed the map early: the rest now stands at the top level.
    assert_eq!(doc.segment_count(), 4);
}

#[test]
fn generation_follows_edits() {
    let mut doc =
        T3dDocument::new("Begin Map\nBegin Actor Class=Light Name=L\nEnd Actor\nEnd Map\n");
    assert_eq!(doc.generation(unreal_analysis::EngineSetting::Auto), None);
    let at = doc.text().find("End Actor").unwrap() as u32;
    doc.apply_edit(Span::empty_at(at), "Begin Object Class=Model Name=M\nEnd Object\n");
    assert_eq!(
        doc.generation(unreal_analysis::EngineSetting::Auto),
        Some(unreal_analysis::Generation::Ue2)
    );
    let start = doc.text().find("Begin Object").unwrap() as u32;
    let end = doc.text().find("End Actor").unwrap() as u32;
    doc.apply_edit(Span::new(start, end), "");
    assert_eq!(doc.generation(unreal_analysis::EngineSetting::Auto), None);
}

#[test]
fn an_error_at_the_end_of_a_text_without_a_final_line_break_moves_with_edits() {
    // Found by the language server's soak test: the missing number after `Y=` sits at the
    // very end of the text, past the last line's content and with no line break after it.
    let mut doc = T3dDocument::new(
        "Begin Map\r\nBegin Actor Class=Light Name=L\r\nEnd Actor\r\nEnd Map\r\nLocation=(X=1,Y=",
    );
    let _ = doc.diagnostics(&LintOptions::default());
    let at = doc.text().find("End Actor").unwrap() as u32;
    doc.apply_edit(Span::empty_at(at), "   LightHue=12\r\n");
    assert_same_as_full_parse(&mut doc, "a line added inside the map");
}

#[test]
fn a_map_whose_actors_are_never_closed() {
    // Each actor is closed only by the next `Begin Actor`: every segment is open.
    let mut text = String::from("Begin Map\r\n");
    for i in 0..300 {
        text.push_str(&format!("Begin Actor Class=Light Name=Light{i}\r\n   LightHue={i}\r\n"));
    }
    text.push_str("End Map\r\n");
    let mut doc = T3dDocument::new(text);
    assert_same_as_full_parse(&mut doc, "opening");
    let mut rng = Rng::new(11);
    for step in 0..40 {
        let (range, snippet) = random_edit(&mut rng, doc.text());
        doc.apply_edit(range, &snippet);
        if step % 4 == 0 {
            assert_same_as_full_parse(&mut doc, &format!("step {step}: {range:?} <- {snippet:?}"));
        }
    }
}

/// A map big enough to be parsed and checked in parallel runs (a document just opened,
/// `unreal-ls lint`) gives the findings of a whole parse: as generated, with random damage,
/// under each engine setting, and when the generation guessed from the raw text is wrong
/// (lower-case `begin object` lines the scan does not see make it UE2), and without a map
/// around the actors.
#[test]
fn a_large_map_checked_in_parallel_equals_a_full_parse() {
    use unreal_analysis::EngineSetting;
    let settings = [EngineSetting::Auto, EngineSetting::Ue1, EngineSetting::Ue2];
    for seed in 0..4u64 {
        let mut text = unreal_mapgen::generate_map(700_000, seed);
        let mut rng = Rng::new(seed + 100);
        if seed > 0 {
            for _ in 0..60 {
                let (range, snippet) = random_edit(&mut rng, &text);
                text.replace_range(range.start as usize..range.end as usize, &snippet);
            }
        }
        if seed == 2 {
            let at = text.find("Begin Actor").unwrap();
            text.insert_str(at, "begin object class=Model name=Hidden\r\nend object\r\n");
        }
        if seed == 3 {
            // A clipboard copy: actors at the top level, no map around them.
            text = text.replacen("Begin Map\r\n", "", 1).replacen("End Map\r\n", "", 1);
        }
        let fresh = unreal_syntax::t3d::parse(&text);
        for engine in settings {
            let options = LintOptions { engine, ..LintOptions::default() };
            let expected = check_t3d_parsed(&text, &fresh, &options);
            let actual = T3dDocument::new(text.clone()).diagnostics(&options);
            assert!(
                actual == expected,
                "seed {seed}, {engine:?}: {} findings in parallel, {} in a whole parse",
                actual.len(),
                expected.len()
            );
            // `unreal-ls lint`'s document, which keeps no outlines, finds the same.
            let checked = T3dDocument::for_checking(text.clone()).diagnostics(&options);
            assert!(checked == expected, "seed {seed}, {engine:?}: for_checking differs");
            // Its one read of the map in pieces (or, where they do not join, the usual way).
            let once = T3dDocument::check_once(text.clone(), &options);
            assert!(once.diagnostics == expected, "seed {seed}, {engine:?}: check_once differs");
            assert!(*once.text == *text);
            if let Some(index) = once.line_index {
                assert!(index == LineIndex::new(&text), "seed {seed}: the index built in pieces");
            }
        }
    }
}

/// The generation read from the raw text equals the one a parse's markers give for what
/// UnrealEd writes, so a large map is checked once, not twice.
#[test]
fn the_scanned_generation_matches_the_parsed_one() {
    use unreal_analysis::t3d::generation;
    let mut texts = vec![unreal_mapgen::generate_map(200_000, 4), ROOM.to_owned()];
    texts.push(ROOM.replacen(
        "End Map",
        "Begin Object Class=Model Name=M\r\nEnd Object\r\nEnd Map",
        1,
    ));
    texts.push(ROOM.replacen("End Polygon", "Pan      U=-65 V=0\r\nEnd Polygon", 1));
    for text in texts {
        let parse = unreal_syntax::t3d::parse(&text);
        assert_eq!(generation::scan(&text), generation::markers(&text, &parse.file.items));
    }
}

/// The findings of the rules that compare segments (duplicate names, unresolved brush
/// models) are kept across edits that change no name, moved with the text; edits next to
/// them, between them, in them, and edits that make or undo a duplicate all give what a whole
/// parse gives.
#[test]
fn cross_segment_findings_follow_edits() {
    let mut text = String::from("Begin Map\r\n");
    let names = ["Light0", "Light1", "Light0", "Light2", "light1", "Light3", "Light4", "Light5"];
    for (i, name) in names.iter().enumerate() {
        text.push_str(&format!(
            "Begin Actor Class=Light Name={name}\r\n   LightHue={i}\r\n   Location=(X={i})\r\n"
        ));
        if i == 3 || i == 6 {
            text.push_str("   Brush=Model'MyLevel.Missing'\r\n");
        }
        text.push_str("End Actor\r\n");
    }
    text.push_str("End Map\r\n");
    let mut doc = T3dDocument::new(text);
    let _ = doc.diagnostics(&LintOptions::default());
    let at = |doc: &T3dDocument, what: &str, n: usize| -> u32 {
        doc.text().match_indices(what).nth(n).map(|(i, _)| i as u32).unwrap()
    };
    // (what to find, which of them, how far into it, what to insert, what to remove).
    let edits: &[(&str, usize, u32, &str, u32)] = &[
        ("LightHue=", 0, 9, "7", 0),    // before every finding
        ("LightHue=", 2, 9, "77", 0),   // between the uses of Light0
        ("Location=", 7, 12, "5", 0),   // after every finding
        ("Name=Light0", 1, 11, "x", 0), // the duplicate goes away
        ("Name=Light0x", 0, 11, "", 1), // and comes back
        ("Name=light1", 0, 6, "L", 1),  // same name, other case: the message quotes it
        ("Missing", 1, 7, "2", 0),      // one reference less unresolved... and another name
        ("Missing2", 0, 7, "", 1),
        ("LightHue=", 4, 9, "\r\n", 0), // a line break: lines move too
    ];
    for &(what, n, into, insert, remove) in edits {
        let start = at(&doc, what, n) + into;
        doc.apply_edit(Span::new(start, start + remove), insert);
        assert_same_as_full_parse(&mut doc, &format!("{what} #{n} +{into} <- {insert:?}"));
        // Two edits in actors that no finding names (Light3, Light5) before a check: the
        // findings are kept across both.
        let start = at(&doc, "LightHue=", 5) + 9;
        doc.apply_edit(Span::empty_at(start), "1");
        let start = at(&doc, "LightHue=", 7) + 9;
        doc.apply_edit(Span::empty_at(start), "1");
        assert_same_as_full_parse(&mut doc, &format!("after {what} #{n}, two more"));
    }
}
