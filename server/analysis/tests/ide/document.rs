//! The incremental document: after any sequence of edits its tree, errors and diagnostics
//! equal a fresh full parse of the same text.

use unreal_analysis::document::{Reparse, T3dDocument};
use unreal_analysis::lint::LintOptions;
use unreal_analysis::rules::check_t3d_parsed;
use unreal_mapgen::Rng;
use unreal_syntax::Span;

use crate::ROOM;

fn assert_same_as_full_parse(doc: &mut T3dDocument, context: &str) {
    let fresh = unreal_syntax::t3d::parse(doc.text());
    assert!(
        doc.parse() == &fresh,
        "tree differs from a full parse after {context}\ntext:\n{}",
        doc.text()
    );
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
}

/// Snippets that random edits insert: whole lines, block lines, broken values, nothing.
const SNIPPETS: &[&str] = &[
    "",
    "1",
    "-",
    "\r\n",
    "\n",
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
        let base =
            if seed % 3 == 0 { unreal_mapgen::generate_map(6000, seed) } else { ROOM.to_owned() };
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
        Some(unreal_analysis::EngineGeneration::Ue2)
    );
    let start = doc.text().find("Begin Object").unwrap() as u32;
    let end = doc.text().find("End Actor").unwrap() as u32;
    doc.apply_edit(Span::new(start, end), "");
    assert_eq!(doc.generation(unreal_analysis::EngineSetting::Auto), None);
}
